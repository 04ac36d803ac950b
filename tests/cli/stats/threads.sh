# two threads, interleaved, with the same scope names (ns):
#   thread 1: a 0..30 with b 10..20 inside: a net 20, b net 10
#   thread 2: a 5..15 and a 25..35: net 10 each; period 20, outside 10
# per scope: a count 3, net total 40 (min 10, max 20, avg 13.3 -> 13),
#   period 20 (one, thread 2), outside 10 (one, thread 2); b count 1, net 10
cat >thr.jsonl <<'END'
{"ts":0,"kind":"begin","pid":1,"tid":1,"name":"a"}
{"ts":5,"kind":"begin","pid":1,"tid":2,"name":"a"}
{"ts":10,"kind":"begin","pid":1,"tid":1,"name":"b"}
{"ts":15,"kind":"end","pid":1,"tid":2,"name":"a"}
{"ts":20,"kind":"end","pid":1,"tid":1,"name":"b"}
{"ts":25,"kind":"begin","pid":1,"tid":2,"name":"a"}
{"ts":30,"kind":"end","pid":1,"tid":1,"name":"a"}
{"ts":35,"kind":"end","pid":1,"tid":2,"name":"a"}
END
tracewright stats --format json thr.jsonl
tracewright stats --format json --by thread thr.jsonl
