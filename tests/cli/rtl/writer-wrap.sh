# The rtl writer writes times as they are, but the reader takes a step of
# more than 2^31 ms between records for the 32-bit timer's wrap-around (a
# step back adds 2^32 ms from then on; after that a step forward is a late
# record and loses 2^32 ms).  The writer follows that rule and counts, in
# its lossy-conversion warning, the times that read back otherwise: here
# 'early', 'after' and the trailer; 'again' reads back right, by the late
# record rule.  Then a time pushed beyond 2^63 ns by the rule, which the
# reader skips.
cat >in.jsonl <<'IN'
{"kind":"trace","format":"jsonl","resolution_ns":1,"pid":42}
{"ts":3000000000000000,"kind":"instant","pid":42,"tid":7,"name":"late"}
{"ts":0,"kind":"instant","pid":42,"tid":7,"name":"early"}
{"ts":3000000000000000,"kind":"begin","pid":42,"tid":7,"name":"again"}
{"ts":1000000,"kind":"end","pid":42,"tid":7,"name":"after"}
{"ts":2000000,"kind":"meta","pid":42,"tid":0,"name":"trace_end"}
IN
tracewright convert -t rtl -o out.log in.jsonl
echo "exit $?"
cat out.log
echo
tracewright convert -t jsonl out.log
echo "exit $?"
cat >far.jsonl <<'IN'
{"ts":9223372036000000000,"kind":"begin","pid":1,"tid":1,"name":"far"}
{"ts":0,"kind":"begin","pid":1,"tid":1,"name":"zero"}
{"ts":9223372036000000000,"kind":"end","pid":1,"tid":1,"name":"far"}
IN
tracewright convert -t rtl -o far.log far.jsonl
echo "exit $?"
tracewright convert -t jsonl far.log
echo "exit $?"
