# the shipped CoreProfiler example: timing per scope and per thread
tracewright stats "$EXAMPLES/hello-catalog.tracelog" | sed "s|$EXAMPLES/||"
echo
tracewright stats --by thread --scope '^HelloCatalog' --sort name "$EXAMPLES/hello-catalog.tracelog" | sed "s|$EXAMPLES/||"
