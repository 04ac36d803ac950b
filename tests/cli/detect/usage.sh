# no FILE (or '-') means standard input, as for every command
tracewright detect </dev/null
echo "exit $?"
tracewright detect <"$EXAMPLES/office-startup_4711.log"
echo "exit $?"
tracewright detect - <"$EXAMPLES/control-loop.csv"
echo "exit $?"
tracewright detect --help
