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
