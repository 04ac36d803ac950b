# Empty inputs: an empty file, a file of one newline, and a header only,
# read by each reader with -f and by detection.  Each gives a clear
# diagnostic or a valid empty result; the exit status is what the
# diagnostics say (0 for none or warnings, 1 for errors, 2 when nothing
# could be read).
run() {   # ARGS...: exit status, events (the trace line included), diagnostics
    tracewright convert -t jsonl "$@" >out.jsonl 2>err.txt
    echo "  $* -> exit $? $(wc -l <out.jsonl) lines"
    sed 's/^/    /' err.txt
}
: >empty
printf '\n' >newline
printf '' >empty.names
for f in rtl lms coreprofiler text1 stacktrack jsonl; do
    echo "== -f $f"
    run -f $f empty
    run -f $f newline
done
echo "== -f text1-bin (with an empty companion)"
run -f text1-bin --names=empty.names empty
run -f text1-bin --names=empty.names newline
echo "== detection"
run empty
run newline
: >empty.log; : >empty.csv; : >empty.tracelog; : >empty.txt; : >empty.tlg; : >empty.jsonl; : >empty.BIN
for f in empty.log empty.csv empty.tracelog empty.txt empty.tlg empty.jsonl empty.BIN; do run "$f"; done
echo "== a header only"
printf 'opening log file 1184158800.000000 seconds past January 1st 1970\ncorresponding to 0 ms after timer start\nProcess id is 100\n' >header.log
run header.log
printf 'prf stm 2020-01-01 00:00:00.000 +00:00\n' >header.tracelog
run header.tracelog
printf '* TIMELINE %%HANDLE%%,%%EVENT%%,%%VALUE%%,%%TIME%%\n' >header.txt
run header.txt
printf '{"kind":"trace","format":"jsonl","resolution_ns":1}\n' >header.jsonl
run header.jsonl
head -c 24 "$DATA/stacktrack/good/cycles.tlg" >prologue.tlg
run prologue.tlg
