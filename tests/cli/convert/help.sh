tracewright convert -h
