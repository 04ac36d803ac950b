# at most N diagnostics are printed; a note counts the rest; 0 shows all
awk 'BEGIN { for (i = 0; i < 103; i++) print "garbage line " i }' >junk.log
tracewright convert -f rtl -t jsonl junk.log >/dev/null
echo "exit $?"
tracewright convert -f rtl -t jsonl --max-diagnostics 2 junk.log >/dev/null
tracewright convert -f rtl -t jsonl --max-diagnostics 0 junk.log 2>&1 >/dev/null | wc -l
