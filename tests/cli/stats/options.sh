# sorting, --top, --scope and --tid on the LMS example and a two-thread input
cp "$EXAMPLES/control-loop.csv" .
tracewright stats --sort count --top 3 control-loop.csv | tail -n +4
tracewright stats --sort name --scope '^main\.(camera|lane)' control-loop.csv | tail -n +4
tracewright stats --sort gross --top 2 --format csv control-loop.csv
tracewright stats --sort call --top 1 --format csv control-loop.csv
cat >thr.jsonl <<'END'
{"ts":0,"kind":"begin","pid":1,"tid":1,"name":"a"}
{"ts":5,"kind":"begin","pid":1,"tid":2,"name":"a"}
{"ts":15,"kind":"end","pid":1,"tid":2,"name":"a"}
{"ts":30,"kind":"end","pid":1,"tid":1,"name":"a"}
END
# thread 2 only: a 5..15, net 10
tracewright stats --tid 2 --format csv thr.jsonl
tracewright stats --tid 2 --by thread --format csv thr.jsonl
tracewright stats --format json --by thread thr.jsonl >by-thread.json
tracewright stats --tid 1 --merge --format csv by-thread.json
