# the shipped RTL example decodes to the expected events
tracewright convert -t jsonl "$EXAMPLES/office-startup_4711.log"
