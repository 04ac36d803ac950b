# times beyond the profiler's 32-bit tick count are written as they are
# (the reader takes them) and counted; GC scopes whose reason or
# generations are not of the grammar become stack frames named GC, their
# arguments dropped and counted
cat >in.jsonl <<'JSON'
{"kind":"trace","format":"jsonl","resolution_ns":1}
{"ts":0,"kind":"meta","pid":0,"tid":0,"name":"config.CollectionMethod","msg":"Instrumentation"}
{"ts":0,"kind":"begin","pid":0,"tid":5,"name":"main"}
{"ts":1000000,"kind":"begin","pid":0,"tid":5,"name":"GC","args":{"reason":"because","generations":"tt"}}
{"ts":2000000,"kind":"end","pid":0,"tid":5,"name":"GC"}
{"ts":3000000,"kind":"begin","pid":0,"tid":5,"name":"GC","args":{"reason":"induced","generations":"tffftf"}}
{"ts":4000000,"kind":"end","pid":0,"tid":5,"name":"GC"}
{"ts":5000000,"kind":"begin","pid":0,"tid":5,"name":"GC","args":{"reason":"?","generations":"ftff"}}
{"ts":6000000,"kind":"end","pid":0,"tid":5,"name":"GC"}
{"ts":4294967295000000,"kind":"counter","pid":0,"tid":0,"name":"process CPU (us)","value":10}
{"ts":4294967296000000,"kind":"counter","pid":0,"tid":0,"name":"process CPU (us)","value":20}
{"ts":5000000000000000,"kind":"end","pid":0,"tid":5,"name":"main"}
JSON
tracewright convert -f jsonl -t coreprofiler in.jsonl | tee out.tracelog
echo "exit $?"
tracewright convert -t jsonl out.tracelog
echo "exit $?"
