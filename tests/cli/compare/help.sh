# --help on standard output, exit 0
tracewright compare --help; echo "exit $?"
