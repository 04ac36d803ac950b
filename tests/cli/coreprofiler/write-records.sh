# how the writer cuts stack changes into sam str records: ends then begins
# of one thread and millisecond share a record; a begin after an end, a
# different count or a second samples counter starts a new one; a samples
# counter without a stack change is a record of its own
cat >in.jsonl <<'JSON'
{"kind":"trace","format":"jsonl","resolution_ns":1000000}
{"ts":0,"kind":"meta","pid":0,"tid":0,"name":"config.CollectionMethod","msg":"Sampling"}
{"ts":10000000,"kind":"begin","pid":0,"tid":5,"name":"a","args":{"count":2}}
{"ts":10000000,"kind":"counter","pid":0,"tid":5,"name":"samples","value":2}
{"ts":10000000,"kind":"begin","pid":0,"tid":5,"name":"b"}
{"ts":10000000,"kind":"end","pid":0,"tid":5,"name":"b"}
{"ts":10000000,"kind":"counter","pid":0,"tid":5,"name":"samples","value":1}
{"ts":10000000,"kind":"counter","pid":0,"tid":5,"name":"samples","value":4}
{"ts":20000000,"kind":"begin","pid":0,"tid":6,"name":"b","args":{"ip":"0x1F"}}
{"ts":20000000,"kind":"begin","pid":0,"tid":5,"name":"c"}
{"ts":20000000,"kind":"begin","pid":0,"tid":5,"name":"d"}
{"ts":30000000,"kind":"end","pid":0,"tid":5,"name":"d"}
{"ts":30000000,"kind":"end","pid":0,"tid":5,"name":"c"}
{"ts":30000000,"kind":"begin","pid":0,"tid":5,"name":"c"}
{"ts":30000000,"kind":"begin","pid":0,"tid":5,"name":"JIT e"}
{"ts":31000000,"kind":"end","pid":0,"tid":5,"name":"JIT e","args":{"status":"0x80004005"}}
{"ts":32000000,"kind":"begin","pid":0,"tid":5,"name":"GC","args":{"reason":"induced","generations":"ffft"}}
{"ts":33000000,"kind":"end","pid":0,"tid":5,"name":"GC"}
{"ts":34000000,"kind":"begin","pid":0,"tid":5,"name":"GC"}
{"ts":35000000,"kind":"end","pid":0,"tid":5,"name":"GC"}
{"ts":40000000,"kind":"counter","pid":0,"tid":5,"name":"alloc System.String","value":64,"args":{"count":2}}
{"ts":40000000,"kind":"counter","pid":0,"tid":0,"name":"live System.String","value":32,"args":{"count":1}}
{"ts":40000000,"kind":"counter","pid":0,"tid":0,"name":"heap gen0","value":512,"args":{"reserved":4096}}
{"ts":40000000,"kind":"counter","pid":0,"tid":0,"name":"process CPU (us)","value":900}
{"ts":40000000,"kind":"counter","pid":0,"tid":6,"name":"thread CPU (us)","value":800}
{"ts":45000000,"kind":"instant","pid":0,"tid":0,"name":"pause"}
{"ts":46000000,"kind":"instant","pid":0,"tid":0,"name":"resume"}
JSON
tracewright convert -f jsonl -t coreprofiler in.jsonl | tee out.tracelog
echo "exit $?"
tracewright convert -t jsonl out.tracelog
