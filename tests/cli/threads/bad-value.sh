# --threads takes 1, 2 or auto; TRACEWRIGHT_THREADS gives its default, and a
# bad value there is ignored with a warning (the command still runs)
tracewright stats --threads 3 "$EXAMPLES/control-loop.csv"
echo "exit $?"
tracewright stats --threads 0 "$EXAMPLES/control-loop.csv"
echo "exit $?"
tracewright stats --threads Auto "$EXAMPLES/control-loop.csv"
echo "exit $?"
TRACEWRIGHT_THREADS=many tracewright stats --top 1 "$EXAMPLES/control-loop.csv" >/dev/null
echo "exit $?"
TRACEWRIGHT_THREADS=2 tracewright stats --top 1 "$EXAMPLES/control-loop.csv" | tail -n 2
echo "exit $?"
TRACEWRIGHT_THREADS=auto tracewright stats --top 1 "$EXAMPLES/control-loop.csv" | tail -n 2
echo "exit $?"
tracewright stats --threads auto --top 1 "$EXAMPLES/control-loop.csv" | tail -n 2
echo "exit $?"
# said only by a run that reads a log: not by stats --merge nor by compare
# of two reports; compare says it once when one side is a log
tracewright stats --format json -o r.json "$EXAMPLES/control-loop.csv"
TRACEWRIGHT_THREADS=many tracewright stats --merge r.json >/dev/null
echo "merge: exit $?"
TRACEWRIGHT_THREADS=many tracewright compare r.json r.json >/dev/null
echo "compare reports: exit $?"
TRACEWRIGHT_THREADS=many tracewright compare r.json "$EXAMPLES/control-loop.csv" >/dev/null
echo "compare a log: exit $?"
