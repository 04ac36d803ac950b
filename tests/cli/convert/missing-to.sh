# no -t and no -o to tell the output format from
cp "$DATA/rtl/good/no-header.log" .
tracewright convert no-header.log
