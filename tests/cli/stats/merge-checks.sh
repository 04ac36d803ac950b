# merging warns about reports that overlap or do not share a clock
printf '{"ts":0,"kind":"begin","pid":1,"tid":1,"name":"a"}\n{"ts":3,"kind":"end","pid":1,"tid":1,"name":"a"}\n' >a.jsonl
tracewright stats --format json a.jsonl >a.json
tracewright stats --merge --format csv a.json a.json
echo "exit $?"
tracewright stats --format json "$EXAMPLES/office-startup_4711.log" >wall.json
tracewright stats --merge --top 1 a.json wall.json 2>&1 >/dev/null | sed "s|$EXAMPLES/||"
# format options belong to reading logs, not reports
tracewright stats --merge --no-rtl-subscopes a.json
echo "exit $?"
