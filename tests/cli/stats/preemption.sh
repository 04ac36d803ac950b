# suspend/resume (ns): a 0..50 on thread 1 is suspended 10..30 with no child
# begin in between (preempted: thread 2 ran): call 50, gross 50 - 20 = 30,
# net 30.  b 100..150 is suspended 110..120 while c 110..120 runs (a call):
# b gross 50, net 40; c gross 10
cat >pre.jsonl <<'END'
{"ts":0,"kind":"begin","pid":1,"tid":1,"name":"a"}
{"ts":10,"kind":"suspend","pid":1,"tid":1,"name":"a"}
{"ts":12,"kind":"begin","pid":1,"tid":2,"name":"isr"}
{"ts":28,"kind":"end","pid":1,"tid":2,"name":"isr"}
{"ts":30,"kind":"resume","pid":1,"tid":1,"name":"a"}
{"ts":50,"kind":"end","pid":1,"tid":1,"name":"a"}
{"ts":100,"kind":"begin","pid":1,"tid":1,"name":"b"}
{"ts":110,"kind":"suspend","pid":1,"tid":1,"name":"b"}
{"ts":110,"kind":"begin","pid":1,"tid":1,"name":"c"}
{"ts":120,"kind":"end","pid":1,"tid":1,"name":"c"}
{"ts":120,"kind":"resume","pid":1,"tid":1,"name":"b"}
{"ts":150,"kind":"end","pid":1,"tid":1,"name":"b"}
END
tracewright stats --format csv pre.jsonl
# an end that matches no open scope is ignored, and so is not the end of
# the suspension: d 200..250, suspended 210..230, still gross 30
cat >ue.jsonl <<'END'
{"ts":200,"kind":"begin","pid":1,"tid":1,"name":"d"}
{"ts":210,"kind":"suspend","pid":1,"tid":1,"name":"d"}
{"ts":215,"kind":"end","pid":1,"tid":1,"name":"zz"}
{"ts":230,"kind":"resume","pid":1,"tid":1,"name":"d"}
{"ts":250,"kind":"end","pid":1,"tid":1,"name":"d"}
END
tracewright stats --format csv ue.jsonl 2>&1
