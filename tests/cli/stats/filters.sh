# --pid and --tid pick rows of one process or thread, in any combination
cat >two.jsonl <<'END'
{"ts":0,"kind":"begin","pid":1,"tid":1,"name":"a"}
{"ts":5,"kind":"end","pid":1,"tid":1,"name":"a"}
{"ts":0,"kind":"begin","pid":2,"tid":1,"name":"a"}
{"ts":7,"kind":"end","pid":2,"tid":1,"name":"a"}
{"ts":0,"kind":"begin","pid":2,"tid":3,"name":"b"}
{"ts":9,"kind":"end","pid":2,"tid":3,"name":"b"}
END
tracewright stats --format csv --tid 1 two.jsonl | cut -d, -f1-4
tracewright stats --format csv --pid 2 two.jsonl | cut -d, -f1-4
tracewright stats --format csv --pid 2 --tid 1 --by thread two.jsonl | cut -d, -f1-7
tracewright stats --pid 4294967296 two.jsonl
