# Names that look like the format's own punctuation come back unchanged
# through text1: commas, '%', ')' and ") %" in context names, commas and
# parentheses in function names.
cat >odd.jsonl <<'END'
{"ts":0,"kind":"meta","pid":0,"tid":1,"name":"thread_name","msg":"TSK: 50% load (a, b)"}
{"ts":0,"kind":"meta","pid":0,"tid":2,"name":"thread_name","msg":"ISR: x) %y"}
{"ts":10,"kind":"begin","pid":0,"tid":1,"name":"f(int, char*)"}
{"ts":12,"kind":"begin","pid":0,"tid":2,"name":"isr, %HANDLE%"}
{"ts":15,"kind":"end","pid":0,"tid":2,"name":"isr, %HANDLE%"}
{"ts":20,"kind":"end","pid":0,"tid":1,"name":"f(int, char*)"}
END
tracewright convert -f jsonl -t text1 odd.jsonl >odd.txt
grep -e '^\* STATISTICS' odd.txt | cut -c1-60
tracewright convert -t jsonl odd.txt | grep -v statistics >back.jsonl
grep -e thread_name -e begin back.jsonl
