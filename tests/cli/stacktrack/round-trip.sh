# stacktrack -> jsonl -> stacktrack -> jsonl reproduces the first jsonl for
# every good fixture.  Only the trace line may differ, in resolution_ns: the
# writer's clock counts nanoseconds (TIMETYPE 10^9), whatever the source's
# tick rate was.
for x in "$DATA"/stacktrack/good/*.tlg; do
    f=$(basename "$x")
    opt=""
    [ -f "$x.args" ] && opt=$(cat "$x.args")
    # shellcheck disable=SC2086
    tracewright convert -f stacktrack -t jsonl $opt "$x" >first.jsonl
    tracewright convert -f jsonl -t stacktrack -o again.tlg first.jsonl || echo "$f: writer failed"
    tracewright convert -t jsonl again.tlg >second.jsonl
    sed 1d first.jsonl >a
    sed 1d second.jsonl >b
    if cmp -s a b; then echo "$f: $(wc -l <a) events identical"; else echo "$f: events differ"; diff a b; fi
    if ! cmp -s first.jsonl second.jsonl; then
        echo "  $(head -n 1 first.jsonl)"
        echo "  $(head -n 1 second.jsonl)"
    fi
done
