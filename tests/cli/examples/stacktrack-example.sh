# the shipped StackTrack example: its timing per thread, its events through
# jsonl -> stacktrack -> jsonl (the writer's clock counts nanoseconds, so
# only the trace line's resolution differs), and the buffers' XML view
ex="$EXAMPLES/file-sink_20251121_083000_060C_1.tlg"
tracewright stats --by thread "$ex" | sed "s|$EXAMPLES/||"
tracewright convert -t jsonl "$ex" >a.jsonl
tracewright convert -f jsonl -t stacktrack a.jsonl | tracewright convert -f stacktrack -t jsonl >b.jsonl
sed 1d a.jsonl >a.events
sed 1d b.jsonl | cmp - a.events && echo "stacktrack round trip: $(wc -l <a.events) events identical"
tracewright convert -t stacktrack-xml "$ex" | sed -n '1,4p;$p'
