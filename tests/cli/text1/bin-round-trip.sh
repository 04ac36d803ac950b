# text1-bin -> jsonl -> text1-bin -> jsonl reproduces the first jsonl (but
# for the statistics, which the written companion export holds as computed
# by tracewright), and a layout 1.0 file comes back byte for byte.  Each
# file is written back in its own layout (--text1-bin-write-version).
cp "$DATA"/text1-bin/good/* .
tracewright convert -f text1 -t text1-bin -o preemption.txt.BIN "$DATA/text1/good/preemption.txt"
for f in spec-example.txt.BIN legacy.BIN preemption.txt.BIN; do
    opt=""
    [ -f "$f.args" ] && opt=$(cat "$f.args")
    layout=1.1
    [ "$f" = legacy.BIN ] && layout=1.0
    # shellcheck disable=SC2086
    tracewright convert -t jsonl $opt "$f" | grep -v '"text1.statistics"' >first.jsonl
    tracewright convert -f jsonl -t text1-bin --text1-bin-write-version=$layout -o again.txt.BIN \
        first.jsonl || echo "$f: writer failed"
    # shellcheck disable=SC2086
    tracewright convert -t jsonl $opt again.txt.BIN | grep -v '"text1.statistics"' >second.jsonl
    if cmp -s first.jsonl second.jsonl; then echo "$f ok"; else echo "$f differs"; fi
done
tracewright convert -t text1-bin --text1-bin-write-version=1.0 -o copy.BIN legacy.BIN
cmp legacy.BIN copy.BIN && echo "legacy.BIN: layout 1.0 written back byte for byte"
