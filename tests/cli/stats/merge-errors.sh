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
# figures no report of tracewright's holds, each named where it is
tracewright stats --by thread --format json a.jsonl >good.json
broken() { sed "$1" good.json >"$2"; tracewright stats --merge "$2"; echo "exit $?"; }
broken 's/"count":1,"incomplete":0/"count":0,"incomplete":0/' count0.json
broken 's/"incomplete":0/"incomplete":2/' incomplete.json
broken 's/"net":{"total":3,"min":3/"net":{"total":-3,"min":-3/' negative.json
broken 's/"gross":{"total":3,"sum":3,"min":3,"max":3/"gross":{"total":3,"sum":3,"min":4,"max":3/' minmax.json
broken 's/"period":null/"period":{"count":1,"sum":5,"min":5,"max":5,"avg":5}/' period.json
broken 's/"begin_ns":0,"end_ns":3/"begin_ns":4,"end_ns":3/' span.json
# a call that time running backwards made negative is possible: accepted
sed 's/"call":{"total":3,"sum":3,"min":3,"max":3/"call":{"total":-2,"sum":-2,"min":-2,"max":-2/' good.json >call.json
tracewright stats --merge --format csv call.json | cut -d, -f1,14-16; echo "exit $?"
# a line skipped as too long keeps the numbers of the lines after it
{ printf '{"schema":"tracewright-stats/1","unit":"ns","span_ns":0,"events":0,"threads":0,"clock":"none",\n'
  printf '"inputs":[],"scopes":[],"problems":{}}\n'; printf 'x\n'; } >after.json
tracewright stats --merge --max-line-length 60 after.json
echo "exit $?"
