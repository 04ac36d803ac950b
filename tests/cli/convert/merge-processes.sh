# one RTL log per process: merged by time on the first log's clock
cat >soffice_100.log <<'END'
opening log file 1184158800.000000 seconds past January 1st 1970
corresponding to 0 ms after timer start
Process id is 100
000000 1 { soffice.bin main
000900 1 } soffice.bin main
closing log file at 001000
END
cat >soffice_200.log <<'END'
opening log file 1184158800.500000 seconds past January 1st 1970
corresponding to 0 ms after timer start
Process id is 200
000000 1 { oosplash main
000100 1 } oosplash main
END
tracewright convert -t jsonl soffice_100.log soffice_200.log
