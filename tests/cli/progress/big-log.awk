# An RTL log of n scopes (-v n=...) on one thread, with a line that is no
# record every 20000 scopes, for the progress tests: long enough to be read
# through a pipe that pauses.  Synthetic.
BEGIN {
    print "opening log file 1184158800.123456 seconds past January 1st 1970"
    print "corresponding to 0 ms after timer start"
    print "Process id is 4711"
    for (i = 0; i < n; i++) {
        if (i % 20000 == 10000) print "not a record"
        printf "%06d 1 { sw (os) ::SwDocShell::Load\n%06d 1 } sw (os) ::SwDocShell::Load\n", i, i
    }
    printf "closing log file at %06d\n", n
}
