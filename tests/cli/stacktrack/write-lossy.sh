# What the writer cannot hold is reported once, counted: counters,
# suspend/resume, thread names, categories, event values, attributes other
# than file and line; ids beyond 16 bits are renumbered.  Whatever it writes reads back.
cat >in.jsonl <<'JSON'
{"kind":"trace","format":"jsonl","resolution_ns":1,"origin_ns":1700000000500000000,"origin_ts":0}
{"ts":0,"kind":"meta","pid":70000,"tid":0,"name":"thread_name","msg":"main"}
{"ts":10,"kind":"begin","pid":70000,"tid":65536,"name":"work","cat":"app","args":{"file":"w.c","line":7,"weight":3}}
{"ts":20,"kind":"counter","pid":70000,"tid":65536,"name":"queue","value":4}
{"ts":25,"kind":"suspend","pid":70000,"tid":65536,"name":"work"}
{"ts":26,"kind":"resume","pid":70000,"tid":65536,"name":"work"}
{"ts":30,"kind":"instant","pid":70000,"tid":0,"name":"note","msg":"ends with NUL\u0000","value":42}
{"ts":40,"kind":"end","pid":70000,"tid":65536,"name":"work","args":{"line":70000}}
JSON
tracewright convert -t stacktrack -o out.tlg in.jsonl
tracewright convert -t jsonl out.tlg
