# The counters of a gch alt (live CLASS) or gch gen (heap GEN) record are
# written back as one record per kind and time, the items in their order,
# as the profiler writes them (gch gen: LOH, gen2, gen1, gen0 in one line);
# another time, or another record between them, starts a new one.  A
# configuration value that is empty ends its line without a blank.
cat >in.jsonl <<'JSON'
{"kind":"trace","format":"jsonl","resolution_ns":1000000}
{"ts":0,"kind":"meta","pid":0,"tid":0,"name":"config.CollectionMethod","msg":"Instrumentation"}
{"ts":0,"kind":"meta","pid":0,"tid":0,"name":"config.Empty","msg":""}
{"ts":33000000,"kind":"counter","pid":0,"tid":0,"name":"live System.String","value":320,"args":{"count":10}}
{"ts":33000000,"kind":"counter","pid":0,"tid":0,"name":"live HelloTizen.Item","value":32,"args":{"count":1}}
{"ts":33000000,"kind":"counter","pid":0,"tid":0,"name":"heap LOH","value":0,"args":{"reserved":1048576}}
{"ts":33000000,"kind":"counter","pid":0,"tid":0,"name":"heap gen2","value":4096,"args":{"reserved":65536}}
{"ts":33000000,"kind":"counter","pid":0,"tid":0,"name":"heap gen1","value":0,"args":{"reserved":65536}}
{"ts":33000000,"kind":"counter","pid":0,"tid":0,"name":"heap gen0","value":512,"args":{"reserved":262144}}
{"ts":34000000,"kind":"counter","pid":0,"tid":0,"name":"heap gen0","value":1024,"args":{"reserved":262144}}
{"ts":34000000,"kind":"counter","pid":0,"tid":0,"name":"process CPU (us)","value":12000}
{"ts":34000000,"kind":"counter","pid":0,"tid":0,"name":"heap gen1","value":64,"args":{"reserved":65536}}
JSON
tracewright convert -t coreprofiler -o out.tracelog in.jsonl; echo "exit $?"
grep -n '^gch\|^cls\|^prf cfg\|^prc' out.tracelog | cat -A | sed 's/\$$//'
tracewright convert -t jsonl out.tracelog | grep -c '"counter"'
