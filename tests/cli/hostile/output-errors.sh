# output that cannot be written: a reader that goes away (| head -n 1) ends
# every command quietly (a long output by SIGPIPE, 141 in the shell, as for
# cat), with only the line it read; a full disk
# (/dev/full) is an error naming the output, exit 2
big=$EXAMPLES/office-startup_4711.log
awk 'BEGIN { print "2,0,main"; for (i = 0; i < 100000; i++) print "0,0,1\n1,0,1" }' >many.csv
for cmd in "stats" "stats --format csv" "stats --format json" "convert -t jsonl" \
           "convert -t chrome" "convert -t rtl" "validate" "detect"; do
    out=$( { tracewright $cmd many.csv; echo "exit $?" >&2; } 2>status | head -n 1)
    echo "$cmd | head -n 1: $(printf '%s' "$out" | cut -c1-20) ... $(cat status)"
done
for cmd in "stats" "stats --format json" "convert -t jsonl" "convert -t svg" "convert -t lms" \
           "validate" "validate --format sarif" "detect"; do
    tracewright $cmd "$big" >/dev/full 2>err
    echo "$cmd >/dev/full: exit $?"
    grep -v lossy-conversion err
done
for cmd in "stats" "convert -t jsonl"; do
    tracewright $cmd "$big" -o /dev/full
    echo "$cmd -o /dev/full: exit $?"
done
for cmd in "formats" "formats --matrix" "--help" "stats --help"; do
    tracewright $cmd >/dev/full
    echo "$cmd >/dev/full: exit $?"
done
