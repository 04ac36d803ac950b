cp "$DATA/rtl/good/no-header.log" .
tracewright convert -t nope no-header.log
echo "exit $?"
tracewright convert -f nope -t jsonl no-header.log
