# the shipped LMS example decodes to the expected events
tracewright convert -t jsonl "$EXAMPLES/control-loop.csv"
