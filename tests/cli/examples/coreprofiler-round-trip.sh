# the CoreProfiler example keeps every event through jsonl -> coreprofiler -> jsonl
tracewright convert -t jsonl "$EXAMPLES/hello-catalog.tracelog" >a.jsonl
tracewright convert -f jsonl -t coreprofiler a.jsonl | tracewright convert -f coreprofiler -t jsonl | cmp - a.jsonl && echo same
grep -c '"kind":"counter"' a.jsonl
