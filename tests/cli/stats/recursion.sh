# direct recursion f(f(f())) and indirect recursion h -> g -> h (ns):
#   f  0..100, f 10..50, f 20..30: calls 100, 40, 10; nets 60, 30, 10
#      count 3, net total 100 (every invocation: self time never overlaps),
#      gross/call total 100 (outermost only), sum 150, min 10, max 100, avg 50,
#      period: entries 0, 10, 20 -> two periods of 10
#   h  200..300 with g 210..240 inside and h 220..230 inside g:
#      inner h call 10 net 10; g call 30 net 20; outer h call 100 net 70
#      h: count 2, net total 80, gross total 100, sum 110, avg 55,
#         period 200 -> 220 = 20
#   a second f run 400..405 (call 5, net 5) makes f: count 4, net total 105
#   (avg 26.25 -> 26), gross total 105, sum 155 (avg 38.75 -> 39), periods
#   10, 10, 380 (avg 133), outside 400 - 100 = 300; h and g have no outside
cat >rec.jsonl <<'END'
{"ts":0,"kind":"begin","pid":1,"tid":1,"name":"f"}
{"ts":10,"kind":"begin","pid":1,"tid":1,"name":"f"}
{"ts":20,"kind":"begin","pid":1,"tid":1,"name":"f"}
{"ts":30,"kind":"end","pid":1,"tid":1,"name":"f"}
{"ts":50,"kind":"end","pid":1,"tid":1,"name":"f"}
{"ts":100,"kind":"end","pid":1,"tid":1,"name":"f"}
{"ts":200,"kind":"begin","pid":1,"tid":1,"name":"h"}
{"ts":210,"kind":"begin","pid":1,"tid":1,"name":"g"}
{"ts":220,"kind":"begin","pid":1,"tid":1,"name":"h"}
{"ts":230,"kind":"end","pid":1,"tid":1,"name":"h"}
{"ts":240,"kind":"end","pid":1,"tid":1,"name":"g"}
{"ts":300,"kind":"end","pid":1,"tid":1,"name":"h"}
{"ts":400,"kind":"begin","pid":1,"tid":1,"name":"f"}
{"ts":405,"kind":"end","pid":1,"tid":1,"name":"f"}
END
tracewright stats --format json rec.jsonl
