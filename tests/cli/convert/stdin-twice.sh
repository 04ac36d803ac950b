# standard input can be named only once
tracewright convert -t jsonl - - </dev/null
echo "exit $?"
tracewright detect - - </dev/null
