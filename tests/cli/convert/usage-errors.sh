# each usage error names the problem and points to --help; exit 2
cp "$DATA/rtl/good/no-header.log" .
tracewright convert -t
echo "exit $?"
tracewright convert --to=jsonl --max-diagnostics=lots no-header.log
echo "exit $?"
tracewright convert -t jsonl --max-line-length 0 no-header.log
echo "exit $?"
tracewright convert -t jsonl --help=yes
echo "exit $?"
tracewright convert -x -t jsonl no-header.log
echo "exit $?"
tracewright convert -t jsonl --frobnicate no-header.log
