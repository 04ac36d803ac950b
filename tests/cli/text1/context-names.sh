# A context is listed in the CONTEXTS section by its name, at the start of
# a line: a thread name that starts with '* ' would start a section there,
# so it is written as 'thread N' (and the loss reported), in the text export
# and in a .BIN's companion alike; the file reads back whole, its own
# statistics agreeing (a context written as 'thread N' is the unnamed
# thread N).
printf '%s\n' '{"ts":0,"kind":"meta","pid":0,"tid":0,"name":"thread_name","msg":"* TIMELINE %HANDLE%,%EVENT%,%VALUE%,%TIME%"}' \
    '{"ts":0,"kind":"meta","pid":0,"tid":1,"name":"thread_name","msg":"*worker"}' \
    '{"ts":0,"kind":"begin","pid":0,"tid":0,"name":"f"}' '{"ts":5,"kind":"end","pid":0,"tid":0,"name":"f"}' \
    '{"ts":6,"kind":"begin","pid":0,"tid":1,"name":"g"}' '{"ts":9,"kind":"end","pid":0,"tid":1,"name":"g"}' >star.jsonl
tracewright convert -t text1 -o star.txt star.jsonl; echo "exit $?"
sed -n '/^\* CONTEXTS/,/^\* HANDLE/p' star.txt
tracewright validate star.txt; echo "exit $?"
tracewright convert -t text1-bin -o bin.BIN star.jsonl 2>/dev/null; echo "exit $?"
sed -n '/^\* CONTEXTS/,/^\* HANDLE/p' bin.txt
tracewright validate bin.BIN; echo "exit $?"
# so does a name whose line break after the '*' would be written as a space
printf '%s\n' '{"ts":0,"kind":"meta","pid":0,"tid":0,"name":"thread_name","msg":"*\nworker"}' \
    '{"ts":0,"kind":"begin","pid":0,"tid":0,"name":"f"}' '{"ts":5,"kind":"end","pid":0,"tid":0,"name":"f"}' >nl.jsonl
tracewright convert -t text1-bin --names=nl.txt -o nl.BIN nl.jsonl 2>/dev/null; echo "exit $?"
sed -n '/^\* CONTEXTS/,/^\* HANDLE/p' nl.txt
