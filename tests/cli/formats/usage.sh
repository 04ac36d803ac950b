tracewright formats extra
