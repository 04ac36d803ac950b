# a log of another format: threads, functions and stacks are written, what
# the format cannot hold is reported once, timestamps are milliseconds
tracewright convert -t coreprofiler "$EXAMPLES/office-startup_4711.log" -o startup.tracelog
echo "exit $?"
head -n 12 startup.tracelog
# every scope keeps its figures
tracewright stats --format csv startup.tracelog >a.csv
tracewright stats --format csv "$EXAMPLES/office-startup_4711.log" >b.csv
cmp a.csv b.csv && echo "same statistics"
