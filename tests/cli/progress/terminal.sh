# On a terminal (a pseudo-terminal made by util-linux script(1)) the
# progress line appears by default ("\r" + line + ESC [ K, erased with
# "\r" ESC [ K), and what the terminal shows once it is taken out is what
# it shows without it, diagnostics on standard output (validate) included.
# --no-progress turns it off (the last of --progress and --no-progress
# wins), and so does, by default, convert's output going to that terminal.
# Reading takes over a second whatever the machine: the log (100000
# scopes, a line that is no record every 20000) comes through a pipe that
# pauses for 1.5 s after its first 30000 lines.  The runs are at once.
if ! script -qec true /dev/null >/dev/null 2>&1; then
    echo "script (util-linux) is missing: cannot run on a terminal"
    exit 1
fi
awk -v n=100000 -f "$TOP/tests/cli/progress/big-log.awk" >big.log
cp "$EXAMPLES/office-startup_4711.log" .
cat >slow <<'SH'
sed -n '1,30000p' big.log; sleep 1.5; sed '1,30000d' big.log
SH
cr=$(printf '\r')
esc=$(printf '\033')
# onterm NAME COMMAND: run COMMAND in sh on a terminal (TERM=xterm); what the
# terminal got goes to NAME
onterm() {
    TERM=xterm script -qec "$2" /dev/null >"$1" </dev/null
}
# show NAME: whether the terminal got a progress line
show() {
    if grep -q "${cr}tracewright: [^${cr}]*events/s${esc}\[K" "$1"; then echo "$1: a progress line"
    elif grep -q 'events/s' "$1"; then echo "$1: something else:"; cat "$1"
    else echo "$1: no progress line"; fi
}
# same NAME REF: NAME without its progress lines is REF
same() {
    sed "s/${cr}tracewright: [^${cr}]*events\/s${esc}\[K//g; s/${cr}${esc}\[K//g" "$1" >rendered
    cmp -s rendered "$2" && echo "$1: the same as $2 once it is taken out"
}

# each on a terminal of its own, all at once
onterm stats "sh slow | tracewright stats -" &
onterm stats-ref "tracewright stats --no-progress - <big.log" &
onterm stats-no "sh slow | tracewright stats --progress --no-progress -" &
onterm validate "sh slow | tracewright validate -" &
onterm validate-ref "tracewright validate --no-progress - <big.log" &
onterm convert "sh slow | tracewright convert -t folded -o out.folded -" &
onterm convert-here "sh slow | tracewright convert -t folded -" &
onterm convert-forced "sh slow | tracewright convert -t folded --progress -" &
onterm short "tracewright stats office-startup_4711.log" &
wait
show stats
show stats-ref
same stats stats-ref
show stats-no
same stats-no stats-ref
show validate
same validate validate-ref
show convert
show convert-here
show convert-forced
show short
