# --names=- is standard input (reading) or standard output (writing), and
# standard input is read only once, as everywhere in tracewright.
# (Each run is under timeout, so that a regression that waits fails.)
printf '%s\n' '{"ts":0,"kind":"begin","pid":0,"tid":0,"name":"main"}' \
    '{"ts":100,"kind":"begin","pid":0,"tid":0,"name":"work"}' \
    '{"ts":900,"kind":"end","pid":0,"tid":0,"name":"work"}' \
    '{"ts":1000,"kind":"end","pid":0,"tid":0,"name":"main"}' >run.jsonl
timeout 10 tracewright convert -t text1-bin -o run.BIN run.jsonl
# writing: the companion to standard output, the .BIN to a file
timeout 10 tracewright convert -t text1-bin -o out.BIN --names=- run.jsonl >names.out
echo "-o out.BIN --names=-: exit $?"
cmp names.out run.txt && cmp out.BIN run.BIN && echo "names on standard output, .BIN in out.BIN"
# both to standard output would be one stream of the two: refused
echo "--names=- to standard output:" >&2
timeout 10 tracewright convert -t text1-bin --names=- run.jsonl >both.out
echo "--names=- >both.out: exit $?"
[ -s both.out ] && echo "both.out written"
echo "-o /dev/stdout --names=-:" >&2
timeout 10 tracewright convert -t text1-bin -o /dev/stdout --names=- run.jsonl | wc -c
# reading: the names from standard input
timeout 10 tracewright stats -f text1-bin --names=- run.BIN <run.txt | sed -n '4,5p'
# not when the .BIN is read from standard input too
echo "stats -f text1-bin --names=- -:" >&2
timeout 10 tracewright stats -f text1-bin --names=- - <run.BIN
echo "stats --names=- -: exit $?"
echo "stats -f text1-bin --names=- run.BIN -:" >&2
timeout 10 tracewright stats -f text1-bin --names=- run.BIN - <run.BIN
echo "stats --names=- run.BIN -: exit $?"
# nor for a second .BIN, which would get what the first left: nothing
echo "stats --names=- run.BIN out.BIN:" >&2
timeout 10 tracewright stats --names=- run.BIN out.BIN <run.txt
echo "stats --names=- run.BIN out.BIN: exit $?"
echo "compare --names=- run.BIN out.BIN:" >&2
timeout 10 tracewright compare --names=- run.BIN out.BIN <run.txt
echo "compare --names=- run.BIN out.BIN: exit $?"
# a terminal is not read (script(1) runs it under a pseudo-terminal)
timeout 10 script -qec "tracewright stats --names=- run.BIN; echo \"exit \$?\"" /dev/null \
    </dev/null | tr -d '\r'
