# CSV of the shipped LMS example: header row, RFC 4180 quoting, CRLF, integer
# ns; empty cells where a scope has no period or outside time.  Cycle times
# of main.lane_detection by hand: 5210, 5247, 5284 us
tracewright stats --format csv --sort name "$EXAMPLES/control-loop.csv"
printf '{"ts":0,"kind":"begin","pid":1,"tid":1,"name":"a, \\"quoted\\" name"}\n{"ts":3,"kind":"end","pid":1,"tid":1,"name":"a, \\"quoted\\" name"}\n' >q.jsonl
tracewright stats --format csv q.jsonl
