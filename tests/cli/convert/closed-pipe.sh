# 'tracewright ... | head -1' ends quietly (killed by SIGPIPE, nothing on stderr)
awk 'BEGIN { print "Process id is 1"; for (i = 0; i < 200000; i++) printf "%06d 1 { scope number %d\n", i, i }' >big.log
{ tracewright convert -t jsonl big.log 2>err.txt; echo $? >status; } | head -n 1
cat err.txt
status=$(cat status)
[ "$status" -gt 128 ] && echo "ended by signal $((status - 128))"
