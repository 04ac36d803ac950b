# Every thread but the first waits in a spool until the end, as compact
# records rendered then: what comes out for a thread is the same whether
# it was first (written at once) or not (spooled), whatever its events hold.
# The events are synthetic (printf).
events() {  # thread $1: every kind of event chrome writes, in every form
    t=$1
    printf '{"ts":10,"kind":"begin","pid":1,"tid":%s,"name":"main","cat":"ui","args":{"file":"a.c","line":3}}\n' "$t"
    printf '{"ts":11,"kind":"begin","pid":1,"tid":%s,"name":"bad \377 name","cat":"c\376t"}\n' "$t"
    printf '{"ts":12,"kind":"instant","pid":1,"tid":%s,"name":"tick","msg":"m \375","args":{"message":"x","k":-1,"s":"v \374"}}\n' "$t"
    printf '{"ts":13,"kind":"counter","pid":1,"tid":%s,"name":"queue","value":-7,"args":{"value":"y"}}\n' "$t"
    printf '{"ts":14,"kind":"counter","pid":1,"tid":%s,"name":"plain"}\n' "$t"
    printf '{"ts":15,"kind":"end","pid":1,"tid":%s,"name":"bad \377 name","cat":"other","msg":"","args":{"n":0}}\n' "$t"
    printf '{"ts":16,"kind":"meta","pid":1,"tid":%s,"name":"thread_name","msg":"worker \373"}\n' "$t"
    # a message longer than the spool's 64 KiB chunks, between two events
    printf '{"ts":17,"kind":"instant","pid":1,"tid":%s,"name":"long","msg":"' "$t"
    awk 'BEGIN { for (i = 0; i < 9000; i++) printf "%08d", i }'
    printf '"}\n'
    printf '{"ts":18,"kind":"end","pid":1,"tid":%s,"name":"main","args":{"line":9}}\n' "$t"
}
# line 1 puts thread 7 first, or another before it; the rest is the same
mkdir first spooled
{ printf '{"ts":0,"kind":"counter","pid":1,"tid":7,"name":"zero"}\n'; events 7; } >first/t.jsonl
{ printf '{"ts":0,"kind":"counter","pid":1,"tid":8,"name":"zero"}\n'; events 7; } >spooled/t.jsonl
for d in first spooled; do
    (cd $d && tracewright convert -t chrome t.jsonl -o t.json 2>t.err; echo "$d: exit $?")
    # thread 7's events, without the commas between events
    grep '"tid":7' $d/t.json | grep -v '"name":"zero"' | sed 's/,$//' >$d/7
done
cmp first/7 spooled/7 && echo "thread 7: the same $(wc -l <spooled/7 | tr -d ' ') events"
cmp first/t.err spooled/t.err && cat spooled/t.err
# the losses are told in the order they first happened, wherever their
# thread's events were written: here a name that is not UTF-8 on the
# spooled thread 2 comes before an attribute renamed on the first thread
{
    printf '{"ts":0,"kind":"begin","pid":1,"tid":1,"name":"a"}\n'
    printf '{"ts":1,"kind":"begin","pid":1,"tid":2,"name":"b \377"}\n'
    printf '{"ts":2,"kind":"instant","pid":1,"tid":1,"name":"i","msg":"m","args":{"message":"x"}}\n'
    printf '{"ts":3,"kind":"end","pid":1,"tid":2,"name":"b \377"}\n'
    printf '{"ts":4,"kind":"end","pid":1,"tid":1,"name":"a"}\n'
} >order.jsonl
tracewright convert -t chrome order.jsonl
# stacktrack's file names are interned strings: thread 9's wait as pointers
tracewright convert -t chrome "$DATA/stacktrack/good/scopes.tlg" | grep '"tid":9'
