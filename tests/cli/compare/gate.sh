# compare: per scope, baseline against current, sorted by regression; the
# gate fails (exit 1) when a scope got slower than the threshold.
# Net totals, by hand: a 1000 -> 1500 (+50 %), b 500 -> 400 (-20 %),
# c 200 -> 210 (+5 %), tiny 10 -> 20 (+100 %, but only 20 ns), gone 300 ->
# (vanished), new -> 700 (appeared).
ev() { printf '{"ts":%s,"kind":"%s","pid":1,"tid":1,"name":"%s"}\n' "$1" "$2" "$3"; }
scope() { ev "$1" begin "$3"; ev "$2" end "$3"; }
{ scope 0 1000 a; scope 1000 1500 b; scope 1500 1700 c; scope 1700 2000 gone; scope 2000 2010 tiny; } >base.jsonl
{ scope 0 1500 a; scope 1500 1900 b; scope 1900 2110 c; scope 2110 2810 new; scope 2810 2830 tiny; } >current.jsonl
tracewright compare base.jsonl current.jsonl; echo "exit $?"
# scopes below --min-time in both runs do not count
tracewright compare --min-time 50ns base.jsonl current.jsonl; echo "exit $?"
# thresholds on both sides: +50 % is not more than 50 %; -20 % is not an
# improvement beyond 20 %
tracewright compare --min-time 50ns --threshold 50 base.jsonl current.jsonl | grep -E '^(a|b) '
echo "exit $?"
tracewright compare --min-time 50ns --threshold 50 base.jsonl current.jsonl >/dev/null; echo "threshold 50: exit $?"
tracewright compare --min-time 50ns --threshold 49.99 base.jsonl current.jsonl >/dev/null; echo "threshold 49.99: exit $?"
tracewright compare --min-time 50ns --threshold 20% base.jsonl current.jsonl | grep -E '^b '
tracewright compare --min-time 50ns --threshold 19.99 base.jsonl current.jsonl | grep -E '^b '
# the other way round, every regression is an improvement
tracewright compare --min-time 50ns current.jsonl base.jsonl; echo "exit $?"
