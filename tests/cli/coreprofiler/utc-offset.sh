# a start time without offset is UTC unless --coreprofiler-utc-offset says otherwise
printf 'prf stm 2018-06-25 07:24:28.049\n' >a.tracelog
tracewright convert -t jsonl a.tracelog
tracewright convert -t jsonl --coreprofiler-utc-offset=+09:00 a.tracelog
tracewright convert -t jsonl --coreprofiler-utc-offset=-05:30 a.tracelog
tracewright convert -t jsonl --coreprofiler-utc-offset=9 a.tracelog
echo "exit $?"
