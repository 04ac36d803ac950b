# stats, validate and most writers take an RTL message's text as a transient
# name (outside the string table, so memory does not grow with distinct
# texts); the jsonl reader interns every name.  So converting an RTL log
# straight to each format must give the same output as going through jsonl,
# with one thread and with the reading thread (which copies such names into
# its batches).  The second log is synthetic, made here with awk: 3000
# distinct messages, more than two batches of events.
cp "$DATA/rtl/good/messages.log" m_7.log
awk 'BEGIN {
    print "Process id is 8"
    for (i = 0; i < 3000; i++) {
        printf "%06d %d { work\n%06d %d | ctx : item %d of %d done\n", i, 1 + i % 2, i, 1 + i % 2, i, 3000
        printf "%06d %d } work\n", i, 1 + i % 2
    }
    print "closing log file at 003000"
}' >many_8.log
for f in m_7.log many_8.log; do
    tracewright convert -t jsonl $f -o $f.jsonl 2>/dev/null
    for t in chrome jsonl rtl lms coreprofiler folded speedscope svg text1 text1-bin stacktrack; do
        tracewright convert -t $t $f.jsonl -o via.$t 2>/dev/null
        for n in 1 2; do
            tracewright convert --threads $n -t $t $f -o direct.$t 2>/dev/null
            if cmp -s via.$t direct.$t; then r=same; else r=DIFFERENT; fi
            printf '%s -t %s --threads %s: %s\n' $f $t $n $r
        done
    done
    tracewright convert -t ctf $f.jsonl -o via.ctf 2>/dev/null
    tracewright convert -t ctf $f -o direct.ctf 2>/dev/null
    diff -r via.ctf direct.ctf >/dev/null && echo "$f -t ctf: same" || echo "$f -t ctf: DIFFERENT"
    tracewright stats $f.jsonl >via.stats 2>/dev/null
    tracewright stats $f >direct.stats 2>/dev/null
    cmp -s via.stats direct.stats && echo "$f stats: same" || echo "$f stats: DIFFERENT"
done
