# An output that could not be written has no losses to report: the
# conversion fails with the reason alone (the lossy-conversion warning,
# pid and instant dropped, came after it)
printf '{"ts":0,"kind":"begin","pid":1,"tid":1,"name":"main"}\n{"ts":1500,"kind":"instant","pid":1,"tid":1,"name":"ready"}\n{"ts":2400,"kind":"end","pid":1,"tid":1,"name":"main"}\n' >run.jsonl
tracewright convert -t text1-bin --names=no-such-dir/run.txt -o run.BIN run.jsonl; echo "exit $?"
ls
# written, the same conversion reports them
tracewright convert -t text1-bin -o run.BIN run.jsonl; echo "exit $?"
