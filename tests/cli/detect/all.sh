cp "$DATA/rtl/good/no-header.log" .
tracewright detect --all no-header.log
