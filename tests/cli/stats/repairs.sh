# input that does not nest is repaired and reported (ns):
#   the end of 'a' at 30 also closes 'b' (begun at 10): b call 20, incomplete;
#   a call 30, net 30 - 20 = 10
#   the end of 'x' at 35 matches nothing: ignored
#   'c' (thread 2) begins at 40 and is never ended: closed at 45, the last time
#   seen on thread 2 (an instant), call 5, incomplete
cat >rep.jsonl <<'END'
{"ts":0,"kind":"begin","pid":1,"tid":1,"name":"a"}
{"ts":10,"kind":"begin","pid":1,"tid":1,"name":"b"}
{"ts":30,"kind":"end","pid":1,"tid":1,"name":"a"}
{"ts":35,"kind":"end","pid":1,"tid":1,"name":"x"}
{"ts":40,"kind":"begin","pid":1,"tid":2,"name":"c"}
{"ts":45,"kind":"instant","pid":1,"tid":2,"name":"tick"}
END
tracewright stats --format json rep.jsonl
echo "exit $?"
tracewright stats rep.jsonl 2>/dev/null | tail -n 1
