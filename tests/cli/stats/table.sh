# the human table of the shipped RTL example, per scope and per thread
tracewright stats "$EXAMPLES/office-startup_4711.log" | sed "s|$EXAMPLES/||"
echo
tracewright stats --by thread --sort name --top 4 "$EXAMPLES/office-startup_4711.log" | sed "s|$EXAMPLES/||"
