# --merge reads only tracewright-stats/1 reports and says where one is wrong
printf '{"schema":"something-else"}\n' >other.json
tracewright stats --merge other.json
echo "exit $?"
printf '{"schema":"tracewright-stats/1","unit":"ms"}\n' >unit.json
tracewright stats --merge unit.json
echo "exit $?"
printf '{"schema":"tracewright-stats/1","unit":"ns",\n "events":"many"}\n' >bad.json
tracewright stats --merge bad.json
echo "exit $?"
printf '{"schema":"tracewright-stats/1",\n' >cut.json
tracewright stats --merge cut.json
echo "exit $?"
printf '{"ts":0,"kind":"begin","pid":1,"tid":1,"name":"a"}\n{"ts":3,"kind":"end","pid":1,"tid":1,"name":"a"}\n' >a.jsonl
tracewright stats --format json a.jsonl >by-scope.json
tracewright stats --merge --by thread by-scope.json
echo "exit $?"
tracewright stats --merge --tid 1 by-scope.json
echo "exit $?"
# a thread's name belongs to a row per thread; a name that is not a string
tracewright stats --by thread --format json a.jsonl | sed 's/"pid":1,"tid":1,/"thread":"main",/' >stray.json
tracewright stats --merge stray.json
echo "exit $?"
tracewright stats --by thread --format json a.jsonl | sed 's/"tid":1,/"tid":1,"thread":7,/' >number.json
tracewright stats --merge --by thread number.json
echo "exit $?"
tracewright stats --merge --thread-name main by-scope.json
echo "exit $?"
