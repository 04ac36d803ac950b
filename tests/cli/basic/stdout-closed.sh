# output to a full device: exit 2 with a message
tracewright --help >/dev/full
