# LMS runtimes running in parallel interleave their markers in the one
# stream; the reader gives each runtime (label R, modules R.M) a track, so
# pairing follows the spec's pairing by id.  two-runtimes.csv by hand:
# main [250000, 251823] us, main.camera [250015, 251511], logging (its own
# runtime) [250011, 251811]: logging 1.800 ms (not cut at main.camera's
# end), main net 1823 - 1496 = 327 us, and nothing to report
d="$DATA/lms/good"
(cd "$d" && tracewright stats --sort name two-runtimes.csv)
echo "exit $?"
(cd "$d" && tracewright validate two-runtimes.csv)
echo "exit $?"
# tracks.csv: a.x before any runtime and zz.q (no runtime zz) and .hidden
# stay on track 0; main and main.cam on 0, logging on 1, io and io.disk on
# 2.  main [115, 161] us less main.cam 24, zz.q 2, .hidden 1: net 19 us;
# io [121, 152] less io.disk [122, 148]: net 5 us
(cd "$d" && tracewright stats --by thread --sort name tracks.csv)
echo "exit $?"
# viewers get the tracks, named after their runtimes
tracewright convert -t chrome "$d/two-runtimes.csv" | grep -o '"name":"thread_name"[^}]*}' | sort
# the file comes back from its own events: no loss reported
tracewright convert -t jsonl "$d/tracks.csv" | tracewright convert -t lms | cmp - "$d/tracks.csv"
echo "lms -> jsonl -> lms: exit $?"
# threads that are not the labels' tracks are reported, and so are names
# other than the runtimes'
tracewright convert -t jsonl "$d/two-runtimes.csv" | sed 's/"tid":1/"tid":0/' |
    tracewright convert -t lms >/dev/null
tracewright convert -t jsonl "$d/two-runtimes.csv" | sed 's/"msg":"logging"/"msg":"log"/' |
    tracewright convert -t lms >/dev/null
printf '%s\n' '{"ts":0,"kind":"begin","pid":0,"tid":3,"name":"a"}' \
    '{"ts":1000,"kind":"begin","pid":0,"tid":4,"name":"a.b"}' \
    '{"ts":2000,"kind":"begin","pid":0,"tid":5,"name":"c"}' |
    tracewright convert -t lms
# from a pipe, with CRLF line ends, on one thread or two: the same events
tracewright convert -t jsonl "$d/tracks.csv" >file.jsonl
for t in 1 2; do
    sed 's/$/\r/' "$d/tracks.csv" | tracewright convert --threads $t -f lms -t jsonl - >pipe.jsonl
    cmp file.jsonl pipe.jsonl && echo "pipe, CRLF, --threads $t: the same"
done
