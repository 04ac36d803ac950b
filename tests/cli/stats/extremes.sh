# no events at all; the largest thread id; times at both ends of int64
: >empty.jsonl
tracewright stats -f jsonl empty.jsonl
tracewright stats -f jsonl --format json empty.jsonl
printf '{"ts":0,"kind":"begin","pid":1,"tid":18446744073709551615,"name":"a"}\n{"ts":3,"kind":"end","pid":1,"tid":18446744073709551615,"name":"a"}\n' >big-tid.jsonl
tracewright stats --by thread --format json -o t.json big-tid.jsonl
tracewright stats --merge --by thread --format csv t.json | cut -d, -f1-7
printf '{"ts":-9223372036854775808,"kind":"begin","pid":1,"tid":1,"name":"a"}\n{"ts":9223372036854775807,"kind":"end","pid":1,"tid":1,"name":"a"}\n' >wide.jsonl
tracewright stats --format csv wide.jsonl | cut -d, -f1-6
tracewright stats --format json wide.jsonl | head -n 1
# two reports of a scope that ran once for the longest time each: the merged
# sum saturates, and the average stays within min and max (it would be half
# of them, 4611686018427387904, from the saturated sum; the one input in
# both reports is warned about)
tracewright stats --format json wide.jsonl >wide.json
tracewright stats --merge --format csv wide.json wide.json | cut -d, -f1-7 2>/dev/null
