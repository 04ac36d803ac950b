# A command that would read standard input while it is a terminal stops at
# once with exit status 2 instead of waiting for a log typed by hand: every
# command that reads logs or reports, `compare` on either side among them.
# script(1) runs each under a pseudo-terminal (its own input is /dev/null).
printf '%s\n' '{"ts":0,"kind":"begin","pid":1,"tid":1,"name":"a"}' \
    '{"ts":5,"kind":"end","pid":1,"tid":1,"name":"a"}' >a.jsonl
tracewright stats --format json a.jsonl >a.json
for cmd in "stats" "stats -" "stats --merge" "convert -t jsonl" "validate" "detect -" \
           "compare - a.json" "compare a.jsonl -"; do
    echo "tracewright $cmd:"
    timeout 10 script -qec "tracewright $cmd; echo \"exit \$?\"" /dev/null </dev/null | tr -d '\r'
done
