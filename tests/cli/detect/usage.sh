tracewright detect
echo "exit $?"
tracewright detect --help
