# a full disk: exit 2 with a message naming the output
tracewright convert -t jsonl -o /dev/full "$EXAMPLES/office-startup_4711.log"
