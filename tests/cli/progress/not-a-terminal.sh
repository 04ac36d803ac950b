# Standard error is not a terminal: by default no progress line, even when
# reading takes more than a second.  The log is generated (100000 scopes);
# the runs take over a second whatever the machine: stats and validate read
# it through a pipe that pauses for 1.5 s after its first 30000 lines,
# convert writes to a reader that starts 1.5 s late.  The three run at
# once.
awk -v n=100000 'BEGIN {
    print "opening log file 1184158800.123456 seconds past January 1st 1970"
    print "corresponding to 0 ms after timer start"
    print "Process id is 4711"
    for (i = 0; i < n; i++)
        printf "%06d 1 { sw (os) ::SwDocShell::Load\n%06d 1 } sw (os) ::SwDocShell::Load\n", i, i
    printf "closing log file at %06d\n", n
}' >big.log
slow() { sed -n '1,30000p' big.log; sleep 1.5; sed '1,30000d' big.log; }
# what a run left on standard error
report() {
    if [ -s "$1.err" ]; then echo "$1: exit $(cat "$1.status"), standard error:"; cat "$1.err"
    else echo "$1: exit $(cat "$1.status"), nothing on standard error"; fi
}

# the three at once
slow | { tracewright stats - >stats.out 2>stats.err; echo $? >stats.status; } &
slow | { tracewright validate - >validate.out 2>validate.err; echo $? >validate.status; } &
{ tracewright convert -t jsonl big.log 2>convert.err; echo $? >convert.status; } |
    { sleep 1.5; cat; } >convert.out &
wait
report stats
report validate
report convert
# and the output is complete
sed -n 2p stats.out
cat validate.out
wc -l <convert.out | tr -d ' '
