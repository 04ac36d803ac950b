# a writer reports once what it cannot hold and what it rounded
tracewright convert -t lms "$EXAMPLES/office-startup_4711.log" >startup.csv
echo "exit $?"
tracewright convert -t rtl "$EXAMPLES/control-loop.csv" | head -n 4
