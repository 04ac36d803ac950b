# usage errors and unreadable inputs: exit 2, nothing on standard output
printf '{"ts":0,"kind":"begin","pid":1,"tid":1,"name":"a"}\n{"ts":5,"kind":"end","pid":1,"tid":1,"name":"a"}\n' >t.jsonl
tracewright compare t.jsonl; echo "exit $?"
tracewright compare t.jsonl t.jsonl t.jsonl; echo "exit $?"
tracewright compare --threshold ten t.jsonl t.jsonl; echo "exit $?"
tracewright compare --threshold 1.234 t.jsonl t.jsonl; echo "exit $?"
tracewright compare --min-time 5 t.jsonl t.jsonl; echo "exit $?"
tracewright compare --metric count t.jsonl t.jsonl; echo "exit $?"
tracewright compare t.jsonl missing.log; echo "exit $?"
tracewright compare - - <t.jsonl; echo "exit $?"
# the same run twice: nothing changed
tracewright compare t.jsonl t.jsonl; echo "exit $?"
