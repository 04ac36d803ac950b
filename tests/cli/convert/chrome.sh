# Chrome Trace Event JSON: B/E pairs made by the pairing engine, so that the
# output nests even when the input does not; ts in µs from integer ns.
ev() { printf '{"ts":%s,"kind":"%s","pid":1,"tid":%s,"name":"%s"}\n' "$1" "$2" "$3" "$4"; }
{
    printf '{"ts":0,"kind":"meta","pid":1,"tid":0,"name":"process_name","msg":"app"}\n'
    printf '{"ts":0,"kind":"meta","pid":1,"tid":2,"name":"thread_name","msg":"worker"}\n'
    printf '{"ts":0,"kind":"begin","pid":1,"tid":1,"name":"main","cat":"ui","args":{"file":"a.c","line":3}}\n'
    ev 1 begin 1 parse
    printf '{"ts":1500,"kind":"instant","pid":1,"tid":1,"name":"tick","msg":"half way"}\n'
    printf '{"ts":1999,"kind":"counter","pid":1,"tid":1,"name":"queue","value":-7}\n'
    # main ends while parse is open: parse is closed first, at the same time
    ev 12345 end 1 main
    # an end that matches nothing is ignored
    ev 12346 end 1 main
    # time going back on thread 2: moved forward to keep the thread in order
    ev 100 begin 2 load; ev 90 end 2 load
    # a scope left open is closed at the end of the trace: the last time
    # seen on any thread of the process (12346, thread 1)
    ev 200 begin 2 idle; ev 250 instant 2 ping
    printf '{"ts":7,"kind":"meta","pid":1,"tid":1,"name":"build","msg":"release"}\n'
} >t.jsonl
tracewright convert -t chrome t.jsonl; echo "exit $?"
# a clock too large for doubles: written relative to a whole second, and
# the offset is in otherData; a thread id beyond 32 bits is replaced
{
    printf '{"ts":1700000000123456789,"kind":"begin","pid":4,"tid":281474976710656,"name":"a"}\n'
    printf '{"ts":1700000000123457789,"kind":"end","pid":4,"tid":281474976710656,"name":"a"}\n'
} >big.jsonl
tracewright convert -t chrome big.jsonl | tail -n 4
# the extension chooses the format; the origin of a log is in otherData
tracewright convert -o out.json "$EXAMPLES/office-startup_4711.log" && grep otherData out.json
# a replacement never collides with a real tid: 4294967295 is taken by the
# replacement of 4294967296 first, so the real one is replaced in turn; an
# attribute named like the event's own message gives way
{
    printf '{"ts":0,"kind":"begin","pid":1,"tid":4294967296,"name":"a"}\n'
    printf '{"ts":1,"kind":"begin","pid":1,"tid":4294967295,"name":"b"}\n'
    printf '{"ts":2,"kind":"instant","pid":1,"tid":1,"name":"i","msg":"m","args":{"message":"x","k":1}}\n'
} >col.jsonl
tracewright convert -t chrome col.jsonl
