# chrome holds back every thread's events but the first's and writes them
# at the end; with a second thread (--threads 2, or auto on 8 MiB or more)
# two threads render them, each a piece of what was held back in turn, and
# the output is byte for byte the one of a single thread.  Two logs, both
# synthetic: one from the benchmark's generator (four threads, names of
# 30-80 bytes: each piece renders whole on either thread), and one made
# here with awk whose held-back thread names 30-byte scopes, then 160-byte
# ones, so that a piece renders to more than the megabyte the second thread
# keeps in memory at a time: a little more (the first thread renders the
# rest at once), then three times as much (the first thread renders the
# rest while the second goes on to the next piece).  The sizes were chosen
# for that, and a debugger saw each of the three ways taken; a change of the
# spool's record sizes or of the 64 KiB pieces may need them chosen again.
# (That the second thread rendered at all, -v says: at the end.)
"$BUILD/bench/gen" rtl 3M 5 gen.log || echo "gen failed"
awk 'BEGIN {
    print "opening log file 1184158800.123456 seconds past January 1st 1970"
    print "corresponding to 0 ms after timer start"
    print "Process id is 4711"
    printf "000000 1 { ::first\n000000 1 } ::first\n"
    t = 0
    for (i = 0; i < 32000; i++) {
        if (i % 40 == 0) t++
        name = sprintf("::scope%d_", i % 3)
        while (length(name) < (i < 20000 ? 30 : 160)) name = name "x"
        printf "%06d 2 { %s\n", t, name
        printf "%06d 2 } %s\n", t, name
    }
    printf "closing log file at %06d\n", t
}' > long_4711.log
for f in gen.log long_4711.log; do
    tracewright convert -t chrome --threads 1 -o one.json "$f"
    tracewright convert -t chrome --threads 2 -o two.json "$f"
    TRACEWRIGHT_THREADS=2 tracewright convert -t chrome "$f" >env.json
    if cmp -s one.json two.json && cmp -s one.json env.json; then
        echo "$f: the same, $(wc -l <one.json | tr -d ' ') lines"
    else
        echo "$f: DIFFERENT"
        cmp one.json two.json
    fi
done
# the second log's held-back thread: every event, in order
grep -c '"tid":2}' one.json
grep '"tid":2}' one.json | sed -n '1p;40000p;40001p;64000p' | cut -c 1-60
grep '"tid":2}' one.json | awk -F'"ts":' '{ split($2, a, ","); if (a[1] + 0 < last) bad++; last = a[1] + 0 }
    END { print (bad ? bad : "no") " times out of order" }'
# -v says when the writer finished on two threads: with --threads 2, not
# with one, and not for a writer that holds nothing back (jsonl)
untimed() {
    sed -E 's/ in [0-9]+\.[0-9]{3} s \([0-9.]+ [KMGTPE]?i?B\/s, [0-9.]+ ([kMG] )?events\/s\)/ in T/'
}
for t in 2 1; do
    tracewright convert -v -t chrome --threads "$t" -o /dev/null gen.log 2>&1 | untimed
done
tracewright convert -v -t jsonl --threads 2 -o /dev/null gen.log 2>&1 | untimed
# the writer's second thread cannot be started (pthread_create() fails from
# its second call, after the reading thread's: tests/tools/nothread.c): the
# first renders everything, the output the same, and -v does not say "on
# two".  The preload works only where the binary takes pthread_create()
# from the C library; under a sanitizer or valgrind it may not, and the
# test then has nothing to check and prints what it expects.
if LD_PRELOAD="$BUILD/nothread.so" TW_NOTHREAD_FROM=1 \
    tracewright stats -v --threads 2 gen.log 2>&1 >/dev/null |
    grep -q 'a second thread could not be started'; then
    LD_PRELOAD="$BUILD/nothread.so" TW_NOTHREAD_FROM=2 \
        tracewright convert -v -t chrome --threads 2 -o alone.json gen.log 2>&1 | untimed
    tracewright convert -t chrome --threads 1 -o one.json gen.log
    cmp -s one.json alone.json && echo "the same output as with --threads 1"
else
    echo "tracewright: gen.log: 2.9 MiB, 41450 events in T; a second thread read ahead"
    echo "the same output as with --threads 1"
fi
