# coreprofiler -> jsonl -> coreprofiler -> jsonl reproduces the first jsonl
# for every good fixture (variants.tracelog needs its zone option).  A log
# that uses threads before binding them with thr crt / thr aos comes back
# with the thread names the writer had to give them, and nothing else
# changed (thread-ids.tracelog).
for f in "$DATA"/coreprofiler/good/*.tracelog; do
    name=$(basename "$f")
    opt=""
    [ -f "$f.args" ] && opt=$(cat "$f.args")
    # shellcheck disable=SC2086
    tracewright convert -f coreprofiler -t jsonl $opt "$f" >first.jsonl 2>/dev/null
    tracewright convert -f jsonl -t coreprofiler first.jsonl >again.tracelog || echo "$name: writer failed"
    tracewright convert -f coreprofiler -t jsonl again.tracelog >second.jsonl || echo "$name: reader failed"
    if cmp -s first.jsonl second.jsonl; then
        echo "$name ok"
    else
        grep -v '"name":"thread_name"' first.jsonl >a
        grep -v '"name":"thread_name"' second.jsonl >b
        if cmp -s a b; then echo "$name ok but for thread names"; else echo "$name differs"; fi
    fi
done
