# events the format cannot hold are counted and reported once; ends of
# scopes that are not innermost close the inner ones too
cat >in.jsonl <<'JSON'
{"kind":"trace","format":"jsonl","resolution_ns":1}
{"ts":1000000,"kind":"begin","pid":1,"tid":7,"name":"outer"}
{"ts":1500000,"kind":"begin","pid":1,"tid":7,"name":"inner"}
{"ts":2000000,"kind":"instant","pid":1,"tid":7,"name":"hello"}
{"ts":2000400,"kind":"counter","pid":1,"tid":7,"name":"queue depth","value":3}
{"ts":3000000,"kind":"end","pid":1,"tid":7,"name":"outer"}
{"ts":4000000,"kind":"end","pid":1,"tid":7,"name":"nothing"}
{"ts":5000000,"kind":"suspend","pid":2,"tid":8,"name":"x"}
JSON
tracewright convert -f jsonl -t coreprofiler in.jsonl
echo "exit $?"
