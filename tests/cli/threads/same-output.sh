# --threads 2 reads ahead on a second thread: every command gives the same
# bytes on standard output and standard error as with one thread (and as
# with auto, whichever it picks, and as when the reading goes from the
# second thread to the first and back: TRACEWRIGHT_TEST_SWITCH=N switches
# every N batches, where auto switches when it measures that one thread is
# the faster), on a log
# long enough for many batches (of 512 events) and with problems spread
# through it, so that the diagnostics must keep their places among the
# events.  The log is synthetic, made here with awk.
awk 'BEGIN {
    print "opening log file 1184158800.123456 seconds past January 1st 1970"
    print "corresponding to 0 ms after timer start"
    print "Process id is 4711"
    t = 0
    for (i = 0; i < 6000; i++) {
        tid = 1 + i % 3
        printf "%06d %d { mod (x) ::outer%d\n", t, tid, i % 7
        printf "%06d %d | mod (x) ::outer%d : step %d\n", t, tid, i % 7, i
        if (i % 997 == 5) print "this line is no record"
        if (i % 1499 == 7) printf "%06d %d } mod (x) ::never_opened\n", t, tid
        if (i % 1201 != 3) printf "%06d %d } mod (x) ::outer%d\n", t + 1, tid, i % 7
        t += 2
    }
    printf "closing log file at %06d\n", t
}' > big_4711.log
# a Text1 export with order problems (a call of itself with no suspend, a
# resume of one not suspended, an exit while suspended) among unknown
# handles and ends of scopes not open: read ahead for stats, its order is
# checked on the consumer's thread (tw_source_opts.defer_checks), and the
# reports must come where the reader would have made them, among the
# reader's own and the pairing's
awk 'BEGIN {
    print "* CONTEXTS %NAME%,%HANDLE%"
    for (c = 0; c < 3; c++) printf "T%d,0x%d\n", c, c
    print "* HANDLE(Functions) %HANDLE%,%NAME%,%VALUE%"
    for (f = 0; f < 7; f++) printf "%08X,fn%d,\n", f, f
    print "* TIMELINE %HANDLE%,%EVENT%,%VALUE%,%TIME%,%CONTEXT%"
    t = 1000
    for (i = 0; i < 6000; i++) {
        c = i % 3
        f = i % 7
        printf "%08X,E,,%d,T%d\n", f, t, c
        if (i % 5 == 1) {
            printf "%08X,S,,%d,T%d\n", f, t + 1, c
            printf "%08X,R,,%d,T%d\n", f, t + 1, c
        }
        if (i % 997 == 5) printf "%08X,E,,%d,T%d\n", f, t + 1, c
        if (i % 1499 == 7) printf "%08X,R,,%d,T%d\n", f, t + 1, c
        if (i % 1201 == 3) printf "0000FFFF,E,,%d,T%d\n", t + 1, c
        if (i % 1103 == 2) printf "%08X,S,,%d,T%d\n", f, t + 1, c
        printf "%08X,X,,%d,T%d\n", f, t + 1, c
        if (i % 1301 == 9) printf "%08X,X,,%d,T%d\n", f, t + 1, c
        t += 2
    }
}' > big-export.txt
cp "$EXAMPLES/control-loop.csv" "$EXAMPLES/office-startup_4711.log" .
# tracewright, its standard input from a pipe fed with the file $PIPE when
# that is set (the consumer's thread then reads the pipe ahead of the
# reading thread while it waits for it)
tw() {
    if [ -n "${PIPE:-}" ]; then
        cat "$PIPE" | tracewright "$@"
    else
        tracewright "$@"
    fi
}
same() {
    tw "$@" --threads 1 >one.out 2>one.err
    one=$?
    tw "$@" --threads 2 >two.out 2>two.err
    two=$?
    # auto: a second thread or not, as the machine allows; the same either way
    tw "$@" --threads auto >auto.out 2>auto.err
    auto=$?
    TRACEWRIGHT_TEST_SWITCH=1 tw "$@" --threads 2 >sw1.out 2>sw1.err
    sw1=$?
    TRACEWRIGHT_TEST_SWITCH=3 tw "$@" --threads 2 >sw3.out 2>sw3.err
    sw3=$?
    if [ "$one" = "$two" ] && [ "$one" = "$auto" ] && [ "$one" = "$sw1" ] && [ "$one" = "$sw3" ] &&
        cmp -s one.out two.out && cmp -s one.err two.err && cmp -s one.out auto.out &&
        cmp -s one.err auto.err && cmp -s one.out sw1.out && cmp -s one.err sw1.err &&
        cmp -s one.out sw3.out && cmp -s one.err sw3.err; then
        echo "${PIPE:+cat $PIPE | }$*: the same (exit $one, $(wc -l <one.err | tr -d ' ') lines on stderr)"
    else
        echo "${PIPE:+cat $PIPE | }$*: DIFFERENT (exit $one / $two / $auto / $sw1 / $sw3)"
        diff one.err two.err | head -5
        diff one.err sw1.err | head -5
    fi
}
same stats big_4711.log
same stats --by thread --format csv big_4711.log
same validate big_4711.log
same convert -t jsonl big_4711.log
same convert -t chrome big_4711.log
same convert -t rtl big_4711.log
same convert -t text1 big_4711.log
same convert -t stacktrack big_4711.log
same stats big_4711.log office-startup_4711.log
same convert -t jsonl control-loop.csv big_4711.log
same compare big_4711.log office-startup_4711.log
same stats big-export.txt
same validate big-export.txt
same convert -t jsonl big-export.txt
PIPE=big-export.txt same stats -f text1 -
PIPE=big_4711.log same stats -
PIPE=big_4711.log same validate -
PIPE=big_4711.log same convert -t chrome -
# a conversion that its output stops (a full disk), the second thread
# reading or parked then
same convert -t jsonl -o /dev/full big_4711.log
# the switches did happen: -v says how much one thread read (the shares
# vary with how far the second had read ahead when parked)
TRACEWRIGHT_TEST_SWITCH=1 tracewright convert -v -t chrome --threads 2 -o /dev/null big_4711.log 2>&1 |
    grep -c 'but for [0-9]* % of the input, which one thread read faster (and [0-9]* % to compare)'
