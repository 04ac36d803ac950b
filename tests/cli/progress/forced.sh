# --progress on a standard error that is a file: lines of the documented
# shape ("\r" + line, cleared with spaces, no escape sequence), standard
# output unchanged, and standard error, once the progress lines are taken
# out, the same as without them: every diagnostic starts on a line of its
# own.  The log (100000 scopes, a line that is no record every 20000) takes
# over a second to read whatever the machine: stats and validate read it
# through a pipe that pauses for 1.5 s after its first 30000 lines, convert
# writes to a reader that starts 1.5 s late; the three run at once.
awk -v n=100000 -f "$TOP/tests/cli/progress/big-log.awk" >big.log
slow() { sed -n '1,30000p' big.log; sleep 1.5; sed '1,30000d' big.log; }
cr=$(printf '\r')
esc=$(printf '\033')
num='[0-9]+(\.[0-9])?'
bytes="$num (B|KiB|MiB)"
rate="$num (k |M )?events/s"
# check CMD ERR REF_ERR SHAPE: the progress lines in ERR (the pieces
# between carriage returns that start with "tracewright: " and hold
# "events/s") have the shape; each is followed by a longer one or by
# spaces and a carriage return that erase it; and ERR without them is REF_ERR
check() {
    { cat "$2"; printf END; } | awk 'BEGIN { RS = "\r" } { r[NR] = $0 } END {
        bad = 0
        for (i = 1; i < NR; i++) {
            if (r[i] !~ /^tracewright: .*events\/s/) continue
            print r[i] > "lines"
            d = r[i]
            sub(/ *$/, "", d)
            if (length(r[i + 1]) < length(d)) bad = 1
            else if (r[i + 1] ~ /^tracewright: .*events\/s/) continue
            else if (r[i + 1] !~ /^ *$/ || i + 1 == NR) bad = 1
        }
        exit bad
    }' && echo "$1: each line is erased by the next or by spaces"
    [ -s lines ] && echo "$1: progress lines appear"
    grep -Evx "tracewright: $4, $rate *" lines || echo "$1: every one has the shape"
    rm -f lines
    grep -q "$esc" "$2" || echo "$1: no escape sequence"
    sed "s/${cr}tracewright: [^${cr}]*events\/s *//g; s/${cr} *${cr}//g" "$2" >rendered
    cmp -s rendered "$3" && echo "$1: the rest of standard error is unchanged"
}

# the three at once, then the same without --progress
slow | { tracewright stats --progress - >stats.out 2>stats.err; echo "stats: exit $?" >stats.status; } &
slow | { tracewright validate --no-progress --progress - >validate.out 2>validate.err
         echo "validate: exit $?" >validate.status; } &
{ tracewright convert --progress -t jsonl big.log 2>convert.err; echo "convert: exit $?" >convert.status; } |
    { sleep 1.5; cat; } >convert.out &
wait
for cmd in stats validate "convert -t jsonl"; do
    name=${cmd%% *}
    cat "$name.status"
    if [ "$name" = convert ]; then tracewright $cmd big.log; else tracewright $cmd - <big.log; fi \
        >without.out 2>without.err
    cmp "$name.out" without.out && echo "$name: standard output unchanged"
    case $name in
    convert) check convert convert.err without.err "big\.log: $bytes of $bytes \([0-9]{1,3}%\)" ;;
    *) check "$name" "$name.err" without.err "<stdin>: $bytes read" ;;
    esac
done
# the diagnostics themselves
cat without.err
