tracewright --frobnicate
