# saved 'stats --format json' reports compare like the traces they came
# from; one of them may come on standard input; JSON output for scripts
ev() { printf '{"ts":%s,"kind":"%s","pid":1,"tid":%s,"name":"%s"}\n' "$1" "$2" "$3" "$4"; }
# two threads: the report merges them per scope (a: 100 + 300 = 400 net)
{ ev 0 begin 1 a; ev 100 end 1 a; ev 0 begin 2 a; ev 300 end 2 a; } >base.jsonl
{ ev 0 begin 1 a; ev 90 end 1 a; ev 0 begin 2 a; ev 250 end 2 a; ev 250 begin 2 b; ev 260 end 2 b; } >current.jsonl
tracewright stats --format json base.jsonl >base.json
tracewright stats --format json current.jsonl >current.json
tracewright compare base.json current.json; echo "exit $?"
tracewright compare base.jsonl current.jsonl >traces.txt
tracewright compare base.json current.json | cmp - traces.txt && echo "reports = traces"
tracewright stats --format json current.jsonl | tracewright compare base.json -; echo "stdin: exit $?"
# avg and max: a's invocations 100 and 300 become 90 and 250
tracewright compare --stat avg base.json current.json | grep '^a '
tracewright compare --stat max --metric gross base.json current.json | grep '^a '
tracewright compare --format json --stat max base.json current.json; echo "exit $?"
# -o FILE.json writes JSON unless --format says otherwise, as stats does
tracewright compare -o gate.JSON base.json current.json; echo "exit $?"
head -c 40 gate.JSON; echo
tracewright compare --format table -o table.json base.json current.json
head -n 1 table.json
