# two RTL logs of two processes; the second process's timer started 1 s after
# the first's, so on the common clock its scopes lie 1000 ms later.
#   soffice_10.log: init 0..300 ms with load 100..250 inside (net 150 / 150);
#                   load again 400..450 (period 300, outside 150)
#   soffice_20.log: init 0..200 ms (at 1000..1200 on the common clock) with
#                   load 50..60 inside; then 'paint' is never ended
# per scope: init count 2, net 150 + 190 = 340, gross 500;
#            load count 3, net 150 + 50 + 10 = 210; paint closed at the end
# span: 0 .. 1250 ms (the last record of process 20, at 250 ms on its clock)
cat >soffice_10.log <<'END'
opening log file 1184158800.000000 seconds past January 1st 1970
corresponding to 0 ms after timer start
Process id is 10
000000 1 { init
000100 1 { load
000250 1 } load
000300 1 } init
000400 1 { load
000450 1 } load
END
cat >soffice_20.log <<'END'
opening log file 1184158801.000000 seconds past January 1st 1970
corresponding to 0 ms after timer start
Process id is 20
000000 1 { init
000050 1 { load
000060 1 } load
000200 1 } init
000210 1 { paint
000250 1 | : still painting
END
tracewright stats soffice_10.log soffice_20.log
tracewright stats --format json soffice_10.log soffice_20.log 2>/dev/null
