# nesting three levels deep (times in ns); computed by hand:
#   c  20..25         call 5,  net 5
#   b  10..40         call 30, net 30 - 5 = 25
#   b  50..60         call 10, net 10
#      b: count 2, net total 35 (min 10, max 25, avg 17.5 -> 18),
#         gross/call total 40 (min 10, max 30, avg 20),
#         period 10 -> 50 = 40, outside 40 -> 50 = 10
#   a  0..100         call 100, net 100 - (30 + 10) = 60
# span 0..100; rows sorted by net total: a 60, b 35, c 5
cat >nest.jsonl <<'END'
{"ts":0,"kind":"begin","pid":1,"tid":1,"name":"a"}
{"ts":10,"kind":"begin","pid":1,"tid":1,"name":"b"}
{"ts":20,"kind":"begin","pid":1,"tid":1,"name":"c"}
{"ts":25,"kind":"end","pid":1,"tid":1,"name":"c"}
{"ts":40,"kind":"end","pid":1,"tid":1,"name":"b"}
{"ts":50,"kind":"begin","pid":1,"tid":1,"name":"b"}
{"ts":60,"kind":"end","pid":1,"tid":1,"name":"b"}
{"ts":100,"kind":"end","pid":1,"tid":1,"name":"a"}
END
tracewright stats --format json nest.jsonl
