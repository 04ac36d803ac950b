# text1 -> jsonl -> text1 -> jsonl reproduces the first jsonl for every good
# fixture.  The export's own STATISTICS come back as the ones tracewright
# computed (see statistics-written.sh), so those metadata lines are left out
# of the comparison.  An export without INFO and CONTEXTS sections gets
# them when written (the span of its events, one context per thread), so
# no-contexts.txt comes back with that metadata added and nothing else
# changed.
for f in "$DATA"/text1/good/*.txt; do
    name=$(basename "$f")
    opt=""
    [ -f "$f.args" ] && opt=$(cat "$f.args")
    # shellcheck disable=SC2086
    tracewright convert -f text1 -t jsonl $opt "$f" 2>/dev/null | grep -v '"text1.statistics"' >first.jsonl
    tracewright convert -f jsonl -t text1 first.jsonl >again.txt || echo "$name: writer failed"
    # shellcheck disable=SC2086
    tracewright convert -f text1 -t jsonl $opt again.txt | grep -v '"text1.statistics"' >second.jsonl
    if cmp -s first.jsonl second.jsonl; then
        echo "$name ok"
    else
        grep -v '"kind":"meta"' first.jsonl >a
        grep -v '"kind":"meta"' second.jsonl >b
        if cmp -s a b; then echo "$name ok but for metadata"; else echo "$name differs"; fi
    fi
done
