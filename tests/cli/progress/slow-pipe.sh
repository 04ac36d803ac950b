# A pipe whose writer is slow gets its progress line as a fast one does,
# once reading has taken a second, whether the events come a few at a time
# or not at all for a while: the clock is read as tracewright waits for the
# pipe (or, reading ahead, for its reading thread), not only as events
# come.  Counted in events alone, after a first burst (which sizes the
# count to a fast pipe's) a check would not be due before the log ends.
# Two writers of a log of 9000 scopes (18001 records), each run with one
# thread, two and the default, all at once:
#   stalled:  the first 500 lines, then nothing until tracewright has drawn
#             two progress lines, then the rest;
#   trickled: the first 1500 lines at once, then 200 lines every 0.07 s
#             (2857 a second: a batch of 512 events read ahead comes
#             within 250 ms) until tracewright has drawn three lines, then
#             the rest.
# The writers watch standard error for the lines, so that a tracewright
# slow to start (under valgrind, on a busy machine) is waited for; one that
# draws no line gets the whole log after 60 s of stall, or 6 s of trickle.
# Checked: the lines drawn during the stall show the bytes of the first
# 500 lines at most; three or more in the trickle; the report and the rest
# of standard error as without the line.
awk -v n=9000 -f "$TOP/tests/cli/progress/big-log.awk" >log
lines=$(wc -l <log)
cr=$(printf '\r')
# draws FILE: the progress lines in FILE, one per line; drawn FILE: how many
draws() { tr "$cr" '\n' <"$1" | grep '^tracewright: <stdin>: .* read, .*events/s'; }
drawn() { draws "$1" | wc -l | tr -d ' '; }
stalled() {
    sed -n '1,500p' log
    k=0
    while [ "$(drawn "$1")" -lt 2 ] && [ $k -lt 600 ]; do
        sleep 0.1
        k=$((k + 1))
    done
    sed '1,500d' log
}
trickled() {
    sed -n '1,1500p' log
    at=1500
    while [ "$at" -lt "$lines" ]; do
        if [ "$(drawn "$1")" -ge 3 ]; then
            sed "1,${at}d" log
            return
        fi
        sleep 0.07
        sed -n "$((at + 1)),$((at + 200))p;$((at + 200))q" log
        at=$((at + 200))
    done
}
for t in 1 2 auto; do
    : >stalled-$t.err
    : >trickled-$t.err
    stalled stalled-$t.err | tracewright stats --progress --threads $t - >stalled-$t.out 2>stalled-$t.err &
    trickled trickled-$t.err | tracewright stats --progress --threads $t - >trickled-$t.out 2>trickled-$t.err &
done
wait
tracewright stats - <log >ref.out 2>ref.err
for t in 1 2 auto; do
    for w in stalled trickled; do
        cmp -s $w-$t.out ref.out && echo "$w, --threads $t: the report as from a file"
        sed "s/${cr}tracewright: [^${cr}]*events\/s *//g; s/${cr} *${cr}//g" $w-$t.err >rendered
        cmp -s rendered ref.err && echo "$w, --threads $t: standard error as without the line"
    done
    # the stall: lines drawn while the bytes shown are those of the first
    # 500 lines at most (under 20 KiB: a line is 38 bytes; the log 668 KiB)
    n=$(draws stalled-$t.err | awk '$4 == "B" || ($4 == "KiB" && $3 <= 20) { n++ } END { print n + 0 }')
    [ "$n" -ge 2 ] && echo "stalled, --threads $t: lines during the stall"
    [ "$n" -ge 2 ] || { echo "stalled, --threads $t: $n line(s) during the stall:"; cat stalled-$t.err; }
    n=$(draws trickled-$t.err | wc -l)
    [ "$n" -ge 3 ] && echo "trickled, --threads $t: lines as it trickles"
    [ "$n" -ge 3 ] || { echo "trickled, --threads $t: $n line(s):"; cat trickled-$t.err; }
done
echo "$lines lines"
