# without a command: the usage goes to stderr, exit 2
tracewright
