# Converting a .BIN to text1-bin: the companion written may not be a text
# export an input was read with (it would no longer name the input's
# handles), whether derived from -o or given with --names; and --names=-,
# which is the reader's option too, is not read from standard input when
# the .BIN is, nor from a terminal.
tracewright convert -t text1-bin -o x.txt.BIN "$EXAMPLES/motor-control.txt" 2>/dev/null
cp x.txt x.orig
echo "-o x.BIN x.txt.BIN:" >&2
timeout 10 tracewright convert -t text1-bin -o x.BIN x.txt.BIN
echo "exit $?"
echo "--names=x.txt -o y.BIN x.txt.BIN:" >&2
timeout 10 tracewright convert -t text1-bin --names=x.txt -o y.BIN x.txt.BIN
echo "exit $?"
cmp x.txt x.orig && echo "x.txt untouched"
[ -e x.BIN ] || [ -e y.BIN ] || echo "no .BIN written"
echo "-o y.BIN x.txt.BIN:" >&2
timeout 10 tracewright convert -t text1-bin -o y.BIN x.txt.BIN 2>/dev/null
echo "-o y.BIN: exit $?"
[ -s y.BIN ] && [ -s y.txt ] && echo "y.BIN and y.txt written"
# of several .BIN inputs, every one's text export is protected, not only
# the first's
cp x.txt.BIN a.txt.BIN && cp x.txt a.txt
echo "-o x.BIN a.txt.BIN x.txt.BIN:" >&2
timeout 10 tracewright convert -t text1-bin -o x.BIN a.txt.BIN x.txt.BIN
echo "exit $?"
cmp x.txt x.orig && cmp a.txt x.orig && echo "x.txt and a.txt untouched"
[ -e x.BIN ] || echo "no .BIN written"
echo "stdin .BIN, --names=-:" >&2
timeout 10 tracewright convert -f text1-bin -t text1-bin --names=- -o z.BIN - <x.txt.BIN
echo "exit $?"
timeout 10 script -qec "tracewright convert -t text1-bin --names=- -o w.BIN x.txt.BIN; echo \"exit \$?\"" \
    /dev/null </dev/null | tr -d '\r'
