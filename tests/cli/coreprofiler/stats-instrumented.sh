# instrumentation mode (count 0): exact enter/leave times on two threads.
# Thread 501: Main 0-60; Parse 10-25; Emit 25-30; Parse 40-50 with Emit 45-50.
# Thread 502: Parse 5-35.
# Main: gross 60, net 60-15-5-10 = 30.  Parse: 3 calls, gross 15+10+30 = 55,
# net 15+5+30 = 50 (min 5, max 30).  Emit: 2 calls, 5 each.
cp "$DATA/coreprofiler/good/instrumented.tracelog" .
tracewright stats instrumented.tracelog
echo
tracewright stats --by thread --sort name instrumented.tracelog
