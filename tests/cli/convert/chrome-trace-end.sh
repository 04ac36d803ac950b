# a scope left open ends where stats ends it: at the end of the trace, here
# the RTL trailer at 90 ms, later than the log's last record (4 ms)
printf 'Process id is 100\n000000 1 { main\n000002 1 { helper\n000004 1 } helper\nclosing log file at 000090' >run.log
tracewright convert -t chrome run.log | grep '"name":"main"'
tracewright stats --format csv run.log | cut -d, -f1-9
