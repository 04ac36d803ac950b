# The attributes of metadata events are kept: a process or thread name's
# beside "name" in its M event's args (one named "name" becomes attr.name,
# counted), any other metadata's in its otherData.metadata entry's "args";
# strings escaped and integers typed as in other events' args.  What
# neither holds (a metadata event's category and counter value) is counted.
{
    printf '%s\n' '{"ts":0,"kind":"meta","pid":1,"tid":1,"name":"custom","msg":"v","args":{"a":1}}'
    printf '%s\n' '{"ts":0,"kind":"meta","pid":1,"tid":1,"name":"thread_name","msg":"T","args":{"b":2}}'
    printf '%s\n' '{"ts":1,"kind":"begin","pid":1,"tid":1,"name":"x"}' '{"ts":2,"kind":"end","pid":1,"tid":1,"name":"x"}'
} >ma.jsonl
tracewright convert -t chrome ma.jsonl; echo "exit $?"
# names of the first thread (written at once) and of another (spooled
# until the end, as its JSON), a name without a value (otherData), and
# the same bytes on one thread or two
{
    printf '%s\n' '{"ts":0,"kind":"meta","pid":1,"tid":0,"name":"process_name","msg":"app","args":{"name":"shadow","q\"k":"a\tb"}}'
    printf '%s\n' '{"ts":0,"kind":"begin","pid":1,"tid":1,"name":"main"}'
    printf '%s\n' '{"ts":1,"kind":"meta","pid":1,"tid":2,"name":"thread_name","msg":"worker","cat":"c","args":{"n":-3,"s":"x\u00e9"}}'
    printf '%s\n' '{"ts":2,"kind":"meta","pid":1,"tid":2,"name":"build","msg":"release","value":7,"args":{"flags":"-O2","bits":64}}'
    printf '%s\n' '{"ts":3,"kind":"meta","pid":1,"tid":2,"name":"process_name","args":{"k":"v"}}'
    printf '%s\n' '{"ts":5,"kind":"begin","pid":1,"tid":2,"name":"w"}' '{"ts":9,"kind":"end","pid":1,"tid":2,"name":"w"}'
    printf '%s\n' '{"ts":10,"kind":"end","pid":1,"tid":1,"name":"main"}'
} >mb.jsonl
tracewright convert -t chrome --threads 1 -o one.json mb.jsonl; echo "exit $?"
tracewright convert -t chrome --threads 2 -o two.json mb.jsonl 2>/dev/null
cat one.json
cmp one.json two.json && echo "same on two threads"
# a CoreProfiler log's thread names carry the managed thread's iid and id
tracewright convert -t chrome "$EXAMPLES/hello-catalog.tracelog" 2>/dev/null | grep '"ph":"M"'
