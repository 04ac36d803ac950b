# A pipe whose writer is slow gets its progress line as a fast one does,
# once reading has taken a second, whether the events come one by one or
# not at all for a while: the clock is read as tracewright waits for the
# pipe (or, reading ahead, for its reading thread), not only as events
# come.  The log is short (2000 scopes, 4001 records): counted in events,
# it would be over before a check was due.  Two writers, each run with one
# thread, two and the default, all at once:
#   stalled:  the first 500 lines, then nothing for 2 s, then the rest;
#   trickled: 5 pieces of 800 lines, 0.6 s apart (2.4 s in all).
# Lines are drawn from the first second on, at most 4 a second: at least
# 2 during the stall (counted while the bytes shown stay below the whole
# log's) and at least 3 in the trickle.
awk -v n=2000 -f "$TOP/tests/cli/progress/big-log.awk" >log
lines=$(wc -l <log)
stalled() { sed -n '1,500p' log; sleep 2; sed '1,500d' log; }
trickled() {
    i=0
    while [ $i -lt 5 ]; do
        sed -n "$((i * 800 + 1)),$((i * 800 + 800))p" log
        sleep 0.6
        i=$((i + 1))
    done
    sed "1,4000d" log
}
for t in 1 2 auto; do
    stalled | tracewright stats --progress --threads $t - >stalled-$t.out 2>stalled-$t.err &
    trickled | tracewright stats --progress --threads $t - >trickled-$t.out 2>trickled-$t.err &
done
wait
tracewright stats - <log >ref.out 2>ref.err
cr=$(printf '\r')
# draws FILE: the progress lines in FILE, one per line
draws() { tr "$cr" '\n' <"$1" | grep '^tracewright: <stdin>: .* read, .*events/s'; }
for t in 1 2 auto; do
    for w in stalled trickled; do
        cmp -s $w-$t.out ref.out && echo "$w, --threads $t: the report as from a file"
        sed "s/${cr}tracewright: [^${cr}]*events\/s *//g; s/${cr} *${cr}//g" $w-$t.err >rendered
        cmp -s rendered ref.err && echo "$w, --threads $t: standard error as without the line"
    done
    # the stall: lines drawn while the bytes shown are those of the first
    # 500 lines at most (under 20 KiB: a line is 38 bytes; the log 148 KiB)
    n=$(draws stalled-$t.err | awk '$4 == "B" || ($4 == "KiB" && $3 <= 20) { n++ } END { print n + 0 }')
    [ "$n" -ge 2 ] && echo "stalled, --threads $t: lines during the stall"
    [ "$n" -ge 2 ] || { echo "stalled, --threads $t: $n line(s) during the stall:"; cat stalled-$t.err; }
    n=$(draws trickled-$t.err | wc -l)
    [ "$n" -ge 3 ] && echo "trickled, --threads $t: lines as it trickles"
    [ "$n" -ge 3 ] || { echo "trickled, --threads $t: $n line(s):"; cat trickled-$t.err; }
done
echo "$lines lines"
