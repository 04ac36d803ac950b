# rtl and coreprofiler read their usual line in place, as lms does
# (lms-in-place.sh): the events and diagnostics are those of the same log
# read line by line, whether it comes from the file, from a pipe, from a
# pipe that delivers it in two parts with a line cut between them, or with
# CRLF line ends (which the in-place reading leaves to the line reader);
# and a limit reached in a run of usual lines (--max-names) stops the
# reading at that line.  The logs are synthetic, made here with awk: usual
# lines with others among them (messages, lines that are no record, ends
# that close nothing, samples of a thread not yet created).
awk 'BEGIN {
    print "opening log file 1184158800.123456 seconds past January 1st 1970"
    print "corresponding to 0 ms after timer start"
    print "Process id is 4711"
    t = 0
    for (i = 0; i < 1500; i++) {
        tid = 1 + i % 3
        printf "%06d %d { ::scope%d\n", t, tid, i % 9
        if (i % 7 == 3) printf "%06d %d | ::scope%d : step %d\n", t, tid, i % 9, i
        if (i % 211 == 5) print "this line is no record"
        if (i % 307 == 7) printf "%06d %d } ::never_opened\n", t, tid
        printf "%06d %d } ::scope%d\n", t + 1, tid, i % 9
        t += 2
    }
    printf "closing log file at %06d\n", t
}' > big.log
awk 'BEGIN {
    print "prf stm 2024-01-02 03:04:05.006 +00:00"
    for (k = 0; k < 3; k++) {
        printf "thr crt 0xB400%d000 0x0000000%d\n", k, k
        printf "thr aos 0x0000000%d 100%d\n", k, k
    }
    for (f = 0; f < 9; f++) printf "fun nam 0x0000000%d \"F%d\" \"void\" \"()\"\n", f, f
    for (i = 0; i < 1500; i++) {
        k = i % 3
        printf "sam str 0x0000000%d %d 0 0:0 0x%x\n", k, i, i % 9
        if (i % 211 == 5) print "sam str 0x0000000%d 99x"
        if (i % 307 == 7) printf "sam str 0x00000007 %d 0 0:0 0x1\n", i
        printf "sam str 0x0000000%d %d 0 0:1\n", k, i
    }
}' > big.tracelog
for f in big.log big.tracelog; do
    case "$f" in *.log) fmt=rtl ;; *) fmt=coreprofiler ;; esac
    tracewright convert -t jsonl "$f" >file.jsonl 2>file.err
    sed "s|^$f:|<stdin>:|" file.err >file-as-stdin.err
    cat "$f" | tracewright convert -f "$fmt" -t jsonl >pipe.jsonl 2>pipe.err
    cmp file.jsonl pipe.jsonl && cmp file-as-stdin.err pipe.err && echo "$f, pipe: same"
    { head -c 5000 "$f"; sleep 0.2; tail -c +5001 "$f"; } |
        tracewright convert -f "$fmt" -t jsonl >cut.jsonl 2>cut.err
    cmp file.jsonl cut.jsonl && cmp file-as-stdin.err cut.err && echo "$f, pipe in two parts: same"
    sed 's/$/\r/' "$f" >"crlf-$f"
    tracewright convert -t jsonl "crlf-$f" >crlf.jsonl 2>crlf.err
    sed "s|^crlf-$f:|$f:|" crlf.err >crlf-as-file.err
    cmp file.jsonl crlf.jsonl && cmp file.err crlf-as-file.err && echo "$f, CRLF: same"
    echo "$f: $(grep -c . file.jsonl) events, $(grep -c . file.err) diagnostics"
done
cat file.err
# the fourth scope name (after the reader's own two and three scopes) is
# one too many, in a run of usual lines
tracewright stats --max-names 5 big.log
echo "exit $?"
