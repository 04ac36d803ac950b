# --help prints the usage on stdout and exits 0
tracewright --help
