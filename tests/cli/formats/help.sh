# the help of formats names --matrix
tracewright formats --help
