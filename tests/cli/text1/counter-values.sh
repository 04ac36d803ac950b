# The format's data is 32-bit: a counter's value outside 0..2^32-1 is
# written whole (as tracewright's reader takes it back) and counted in the
# lossy-conversion warning, in the text export and in a .BIN alike.
printf '%s\n' '{"ts":0,"kind":"counter","pid":0,"tid":0,"name":"c","value":7}' \
    '{"ts":1,"kind":"counter","pid":0,"tid":0,"name":"c","value":-300}' \
    '{"ts":2,"kind":"counter","pid":0,"tid":0,"name":"c","value":1099511627776}' >c.jsonl
tracewright convert -t text1 -o c.txt c.jsonl; echo "exit $?"
sed -n '/^\* TIMELINE/,$p' c.txt
tracewright convert -t jsonl c.txt | grep '"counter"'
tracewright convert -t text1-bin -o cb.BIN c.jsonl; echo "exit $?"
tracewright convert -t jsonl cb.BIN | grep '"counter"'
