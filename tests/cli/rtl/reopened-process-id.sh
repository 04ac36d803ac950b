# A trailer glued to a re-opened log's header that starts with 'Process id
# is' (the writer omits the two anchor lines when it cannot read the system
# time) is a trailer and a re-opening, as the glued 'opening log file' form
# is; the glued process id line is checked like one on a line of its own.
printf 'Process id is 8\n000001 1 { a\n000002 1 } a\nclosing log file at 000003Process id is 8\n000004 1 { b\n000005 1 } b\nclosing log file at 000006' >reopened-no-anchor_8.log
tracewright convert -t jsonl reopened-no-anchor_8.log
echo "exit $?"
printf 'opening log file 996742800.250000 seconds past January 1st 1970\ncorresponding to 0 ms after timer start\nProcess id is 8\n000001 1 { a\nclosing log file at 000003Process id is 8\n000004 1 } a\nclosing log file at 000006' >anchored.log
tracewright convert -t jsonl anchored.log
echo "exit $?"
printf 'Process id is 8\n000001 1 { a\nclosing log file at 000003Process id is 9\n000004 1 } a\nclosing log file at 000006' >changed.log
tracewright convert -t jsonl changed.log
echo "exit $?"
printf 'Process id is 8\n000001 1 { a\nclosing log file at 000003Process id is x\n000004 1 } a\nclosing log file at 000006' >malformed.log
tracewright convert -t jsonl malformed.log
echo "exit $?"
printf '000001 1 { a\r\nclosing log file at 000003Process id is 8\r\n000004 1 } a\r\nclosing log file at 000006' | tracewright convert -f rtl -t jsonl -
echo "exit $?"
