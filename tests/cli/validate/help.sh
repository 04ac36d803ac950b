# the help of validate: options, output forms, exit status
tracewright validate --help
