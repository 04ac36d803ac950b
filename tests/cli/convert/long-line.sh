# a line over the limit is skipped with a diagnostic, in files and in pipes
awk 'BEGIN { print "000001 1 { a"; s = "000002 1 | : "; for (i = 0; i < 200; i++) s = s "x"; print s; print "000003 1 } a" }' >long.log
tracewright convert -f rtl -t jsonl --max-line-length 100 long.log
cat long.log | tracewright convert -f rtl -t jsonl --max-line-length 100
