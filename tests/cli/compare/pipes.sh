# A trace is read once, wherever it comes from: standard input, a pipe
# named by its path (/dev/stdin here; a FIFO, a shell's <(...) alike).
# (compare used to look at a trace's first bytes to tell a report from a
# trace, then open it again: a pipe's first bytes were gone by then, and
# with -f the gate passed on what was left.)  The 1 MB log is synthetic,
# made by the benchmark's generator (bench/gen.c).
"$BUILD/bench/gen" rtl 1M 7 big.log || echo "gen failed"
printf '{"ts":0,"kind":"begin","pid":1,"tid":1,"name":"a"}\n{"ts":5,"kind":"end","pid":1,"tid":1,"name":"a"}\n' >base.jsonl
printf '{"ts":0,"kind":"begin","pid":1,"tid":1,"name":"a"}\n{"ts":9,"kind":"end","pid":1,"tid":1,"name":"a"}\n' >cur.jsonl
# a regression seen through standard input
tracewright compare base.jsonl - <cur.jsonl; echo "exit $?"
# the whole log through a pipe named by its path, detected and with -f:
# every scope is found unchanged (none new or gone)
cat big.log | tracewright compare big.log /dev/stdin >out; echo "exit $?"; tail -n 1 out
cat big.log | tracewright compare -f rtl /dev/stdin big.log >out; echo "exit $?"; tail -n 1 out
# a report through a pipe against the log through standard input
tracewright stats --format json -o r.json big.log
cat r.json | tracewright compare /dev/stdin - <big.log >out; echo "exit $?"; tail -n 1 out
# what is neither is refused, from a pipe as from a file
printf 'not a log\n' | tracewright compare base.jsonl /dev/stdin; echo "exit $?"
