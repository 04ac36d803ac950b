# --progress on an input read in well under a second: nothing is printed
# (the line waits for the first second), and the output is the same as
# without it
cp "$EXAMPLES/office-startup_4711.log" "$EXAMPLES/control-loop.csv" .
log=office-startup_4711.log
for cmd in "stats" "convert -t jsonl" "validate"; do
    tracewright $cmd --progress "$log" >with.out 2>with.err
    echo "$cmd --progress: exit $?"
    tracewright $cmd "$log" >without.out 2>without.err
    cmp with.out without.out && cmp with.err without.err && echo "  the same as without it"
done
tracewright compare --progress "$log" "$log" >with.out 2>with.err
echo "compare --progress: exit $?"
tracewright compare "$log" "$log" >without.out 2>without.err
cmp with.out without.out && cmp with.err without.err && echo "  the same as without it"
# standard input, and several inputs
tracewright stats --progress - <"$log" 2>&1 >/dev/null
tracewright convert --progress -t jsonl "$log" control-loop.csv 2>&1 >/dev/null
echo "nothing else on standard error"
