# reports of parts, merged, equal the report of the whole, byte for byte --
# with recursion (gross sums), periods and outside times, problems, and
# both row layouts
cat >part_10.log <<'END'
opening log file 1184158800.000000 seconds past January 1st 1970
corresponding to 0 ms after timer start
Process id is 10
000000 1 { work
000010 1 { work
000020 1 } work
000030 1 } work
000050 1 { work
000055 1 } work
000060 2 { idle
000090 2 } idle
END
cat >part_20.log <<'END'
opening log file 1184158800.500000 seconds past January 1st 1970
corresponding to 0 ms after timer start
Process id is 20
000000 1 { work
000007 1 } work
000011 1 { work
000019 1 { work
000023 1 } work
000029 1 } work
000031 7 { idle
END
for by in scope thread; do
    tracewright stats --by $by --format json part_10.log part_20.log >whole.json 2>/dev/null
    tracewright stats --by $by --format json part_10.log >a.json
    tracewright stats --by $by --format json part_20.log >b.json 2>/dev/null
    tracewright stats --by $by --format json --merge a.json b.json >merged.json
    cmp whole.json merged.json && echo "by $by: merged = whole"
done
tracewright stats --merge a.json b.json
# one report through standard input (no REPORT, or '-') merges as itself
tracewright stats --by thread --format json --merge b.json >b1.json
tracewright stats --by thread --format json --merge <b.json | cmp - b1.json && echo "stdin: same"
cat a.json | tracewright stats --by thread --format json --merge - b.json | cmp - merged.json && echo "'-': same"
# split by thread within one process, without a wall clock: the run over both
# parts says how it combined them (no-common-clock), which is not a problem of
# the inputs and so not in the report; merged = whole again
printf '{"ts":0,"kind":"begin","pid":1,"tid":1,"name":"a"}\n{"ts":10,"kind":"end","pid":1,"tid":1,"name":"a"}\n{"ts":20,"kind":"begin","pid":1,"tid":1,"name":"a"}\n{"ts":25,"kind":"end","pid":1,"tid":1,"name":"a"}\n' >t1.jsonl
printf '{"ts":3,"kind":"begin","pid":1,"tid":2,"name":"a"}\n{"ts":30,"kind":"end","pid":1,"tid":2,"name":"a"}\n' >t2.jsonl
for by in scope thread; do
    tracewright stats --by $by --format json t1.jsonl t2.jsonl >whole.json 2>/dev/null
    tracewright stats --by $by --format json -o a.json t1.jsonl
    tracewright stats --by $by --format json -o b.json t2.jsonl
    tracewright stats --by $by --merge -o merged.json a.json b.json
    cmp whole.json merged.json && echo "threads, by $by: merged = whole"
done
