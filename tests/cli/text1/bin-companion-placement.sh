# Where the companion goes when no --names is given: beside the -o file,
# when that is a regular file (or will be one).  Beside a device or a FIFO
# it is refused (as for standard output): -o /dev/null would otherwise
# make /dev/null.txt.  A companion that is the .BIN output itself (the
# same path, a link to it, or standard output for both) is refused too:
# one would replace or run into the other.
# (Each run is under timeout, so that a regression that waits fails.)
printf '%s\n' '{"ts":0,"kind":"begin","pid":0,"tid":0,"name":"main"}' \
    '{"ts":1000,"kind":"end","pid":0,"tid":0,"name":"main"}' >run.jsonl
# (a regression would make /dev/null.txt or /dev/stdout.txt: they are
# removed again, unless they were there before)
had_null=no had_stdout=no
[ -e /dev/null.txt ] && had_null=yes
[ -e /dev/stdout.txt ] && had_stdout=yes
echo "-o /dev/null:" >&2
timeout 10 tracewright convert -t text1-bin -o /dev/null run.jsonl
echo "-o /dev/null: exit $?"
echo "-o /dev/stdout | wc -c:" >&2
timeout 10 tracewright convert -t text1-bin -o /dev/stdout run.jsonl | wc -c
for f in null stdout; do
    eval had=\$had_$f
    if [ $had = no ] && [ -e /dev/$f.txt ]; then
        echo "/dev/$f.txt made"
        rm -f /dev/$f.txt
    fi
done
# a FIFO as the .BIN: refused once it is open (its reader sees nothing)
mkfifo pipe.BIN
timeout 10 cat pipe.BIN >got.BIN &
echo "-o pipe.BIN (a FIFO):" >&2
timeout 10 tracewright convert -t text1-bin -o pipe.BIN run.jsonl
echo "-o pipe.BIN: exit $?"
wait
[ -s got.BIN ] && echo "got.BIN written"
# with --names they work; a device may take both
timeout 10 tracewright convert -t text1-bin -o /dev/null --names=null.txt run.jsonl
echo "-o /dev/null --names=null.txt: exit $?"
timeout 10 tracewright convert -t text1-bin -o /dev/null --names=/dev/null run.jsonl
echo "-o /dev/null --names=/dev/null: exit $?"
timeout 10 cat pipe.BIN >got.BIN &
timeout 10 tracewright convert -t text1-bin -o pipe.BIN --names=pipe.txt run.jsonl
echo "-o pipe.BIN --names=pipe.txt: exit $?"
wait
timeout 10 tracewright convert -t text1-bin -o ref.BIN run.jsonl
cmp got.BIN ref.BIN && cmp pipe.txt ref.txt && cmp null.txt ref.txt && echo "written as to ref.BIN"
# the companion is the .BIN itself
echo "--names=x.BIN -o x.BIN:" >&2
timeout 10 tracewright convert -t text1-bin -o x.BIN --names=x.BIN run.jsonl
echo "--names=x.BIN -o x.BIN: exit $?"
mkdir sub
echo "--names=./sub/../x.BIN -o x.BIN:" >&2
timeout 10 tracewright convert -t text1-bin -o x.BIN --names=./sub/../x.BIN run.jsonl
echo "--names=./sub/../x.BIN -o x.BIN: exit $?"
[ -e x.BIN ] && echo "x.BIN written"
cp ref.BIN y.BIN
ln y.BIN hard.txt
echo "--names=hard.txt -o y.BIN (a hard link):" >&2
timeout 10 tracewright convert -t text1-bin -o y.BIN --names=hard.txt run.jsonl
echo "--names=hard.txt -o y.BIN: exit $?"
ln -s y.BIN y.txt
echo "-o y.BIN, y.txt a symbolic link to it:" >&2
timeout 10 tracewright convert -t text1-bin -o y.BIN run.jsonl
echo "-o y.BIN: exit $?"
cmp y.BIN ref.BIN && echo "y.BIN untouched"
echo "--names=s.out >s.out:" >&2
timeout 10 tracewright convert -t text1-bin --names=s.out run.jsonl >s.out
echo "--names=s.out >s.out: exit $?"
