# errors in the input: the rest is converted, exit 1; warnings alone: exit 0
cp "$DATA/rtl/bad/garbage_10.log" "$DATA/rtl/bad/interleaved_20.log" .
tracewright convert -t jsonl garbage_10.log >/dev/null
echo "exit $?"
tracewright convert -t jsonl interleaved_20.log >/dev/null
echo "exit $?"
