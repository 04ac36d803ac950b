# --version and -V print the version on stdout and exit 0
tracewright --version && tracewright -V | head -n 1
