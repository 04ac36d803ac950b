# time that runs backwards on a thread is reported; the intervals count as 0
cat >back.jsonl <<'END'
{"ts":10,"kind":"begin","pid":1,"tid":1,"name":"a"}
{"ts":20,"kind":"end","pid":1,"tid":1,"name":"a"}
{"ts":5,"kind":"begin","pid":1,"tid":1,"name":"a"}
{"ts":4,"kind":"end","pid":1,"tid":1,"name":"a"}
END
tracewright stats --format csv back.jsonl
