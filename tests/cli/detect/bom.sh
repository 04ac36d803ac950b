# A UTF-8 byte order mark (EF BB BF), as Windows tools may write before a
# text, is not part of the text: detection looks past it, and each text
# reader reads the same events as without it, from a file or a pipe.  The
# first line starts after it (a column on line 1 counts from there).
bom() { printf '\357\273\277'; cat "$1"; }
for f in "$EXAMPLES/office-startup_4711.log" "$EXAMPLES/control-loop.csv" \
         "$EXAMPLES/hello-catalog.tracelog" "$EXAMPLES/motor-control.txt"; do
    b=bom-$(basename "$f")
    bom "$f" >"$b"
    tracewright convert -t jsonl "$f" >plain.jsonl 2>plain.err
    tracewright convert -t jsonl "$b" >with.jsonl 2>with.err
    sed "s/$b/$(basename "$f")/" with.err | cmp -s - plain.err && cmp -s plain.jsonl with.jsonl &&
        echo "$(tracewright detect "$b" | head -1 | cut -f1): same events"
    bom "$f" | tracewright convert -t jsonl - | cmp -s - plain.jsonl && echo "  from a pipe too"
done
# .BIN's companion text export with a mark
cp "$DATA/text1-bin/good/spec-example.txt.BIN" x.txt.BIN
cp "$DATA/text1-bin/good/spec-example.txt" x.txt
tracewright convert -t jsonl x.txt.BIN >plain.jsonl 2>/dev/null
bom "$DATA/text1-bin/good/spec-example.txt" >x.txt
tracewright convert -t jsonl x.txt.BIN 2>/dev/null | cmp -s - plain.jsonl && echo "text1-bin companion: same events"
# a problem on line 1: its column counts from after the mark
printf '\357\273\277{"ts":0,"kind":"begin","pid":1,"tid":1,"name":"a",}\n' >comma.jsonl
tracewright validate comma.jsonl
tracewright validate --format sarif comma.jsonl | grep -o '"region":{[^}]*}'
# a mark and nothing else is an empty input
printf '\357\273\277' >only-bom.txt
tracewright convert -t jsonl only-bom.txt; echo "exit $?"
tracewright convert -f rtl -t jsonl only-bom.txt; echo "exit $?"
