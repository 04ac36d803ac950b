# Where the names of a .BIN come from, and where text1-bin writes them.
f="$DATA/text1/good/preemption.txt"
# -o x.txt.BIN writes x.txt beside it; -o y.BIN writes y.txt
tracewright convert -f text1 -t text1-bin -o x.txt.BIN "$f"
tracewright convert -f text1 -t text1-bin -o y.BIN "$f"
LC_ALL=C ls
# x.BIN finds x when there is no x.txt; --names picks any file
mv y.txt y
tracewright convert -t jsonl y.BIN | grep -c '"name":"task_a"'
cp x.txt names.export
tracewright convert -f text1-bin -t jsonl --names names.export <x.txt.BIN | grep -c '"name":"filter"'
# standard output has no place for the companion: say so (exit 2)
tracewright convert -f text1 -t text1-bin "$f" >/dev/null
echo "exit $?"
# but with --names it works
tracewright convert -f text1 -t text1-bin --names=piped.txt "$f" | cmp - x.txt.BIN && cmp piped.txt x.txt && echo "piped ok"
# a full text export (with a TIMELINE) is never replaced by a companion:
# converting x.txt to x.BIN would overwrite the input
cp "$f" run.txt
tracewright convert -t text1-bin -o run.BIN run.txt
echo "exit $?"
cmp run.txt "$f" && echo "run.txt untouched"
# a companion read on its own has no timeline: a note names the .BIN beside
# it (x.txt -> x.txt.BIN; y -> y.BIN), and the report says no scopes
tracewright stats x.txt >report.txt
echo "exit $?"
grep '^span:' report.txt
tracewright stats -f text1 y | grep '^span:'
cp x.txt z.txt
tracewright validate z.txt
echo "exit $?"
