# equal timestamps and zero-length scopes are legal (ns):
#   z  5..5 twice: count 2, all times 0, period 0, outside 0
#   w  5..7 with z inside: call 2, net 2
cat >zero.jsonl <<'END'
{"ts":5,"kind":"begin","pid":1,"tid":1,"name":"w"}
{"ts":5,"kind":"begin","pid":1,"tid":1,"name":"z"}
{"ts":5,"kind":"end","pid":1,"tid":1,"name":"z"}
{"ts":5,"kind":"begin","pid":1,"tid":1,"name":"z"}
{"ts":5,"kind":"end","pid":1,"tid":1,"name":"z"}
{"ts":7,"kind":"end","pid":1,"tid":1,"name":"w"}
END
tracewright stats --format json zero.jsonl
