# usage errors exit 2 with a hint; errors in the input give a report and exit 1
cp "$DATA/rtl/bad/garbage_10.log" .
tracewright stats --by process garbage_10.log
echo "exit $?"
tracewright stats --scope '(' garbage_10.log
echo "exit $?"
tracewright stats --merge </dev/null
echo "exit $?"
tracewright stats --merge -f rtl x.json
echo "exit $?"
tracewright stats --top many garbage_10.log
echo "exit $?"
tracewright stats garbage_10.log >/dev/null
echo "exit $?"
tracewright stats nothing.log
echo "exit $?"
