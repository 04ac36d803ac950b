# both examples are canonical: FORMAT -> jsonl -> FORMAT is byte for byte
tracewright convert -t jsonl "$EXAMPLES/office-startup_4711.log" | tracewright convert -f jsonl -t rtl | cmp - "$EXAMPLES/office-startup_4711.log" && echo rtl ok
tracewright convert -t jsonl "$EXAMPLES/control-loop.csv" | tracewright convert -f jsonl -t lms | cmp - "$EXAMPLES/control-loop.csv" && echo lms ok
