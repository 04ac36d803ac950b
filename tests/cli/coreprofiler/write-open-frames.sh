# Frames left open at the end are closed, when the log is read back, at
# its last time: the latest event's, also when that event is not written
# (an end that matches nothing, an instant), for which the writer adds a
# sample that changes no stack.  a (0..) and b (1 ms..) stay open; the
# trace's last event is at 5 ms: gross a 5 ms and b 4 ms, read back as
# stats of the stream gives them.
printf '%s\n' '{"ts":0,"kind":"begin","pid":0,"tid":1,"name":"a"}' \
    '{"ts":1000000,"kind":"begin","pid":0,"tid":1,"name":"b"}' \
    '{"ts":3000000,"kind":"instant","pid":0,"tid":1,"name":"note"}' \
    '{"ts":5000000,"kind":"end","pid":0,"tid":1,"name":"zzz"}' >open.jsonl
tracewright stats --format csv open.jsonl 2>/dev/null | cut -d, -f1,8
tracewright convert -t coreprofiler -o open.tracelog open.jsonl; echo "exit $?"
tail -n 2 open.tracelog
tracewright stats --format csv open.tracelog | cut -d, -f1,8
# when the last event is written, no sample is added
printf '%s\n' '{"ts":0,"kind":"begin","pid":0,"tid":1,"name":"a"}' \
    '{"ts":2000000,"kind":"begin","pid":0,"tid":1,"name":"b"}' >last.jsonl
tracewright convert -t coreprofiler last.jsonl 2>/dev/null | tail -n 1
