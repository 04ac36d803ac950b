# A write error of text1-bin output is reported once, naming the file,
# with exit status 2, as for every format: the .BIN's by the command (as
# 'cannot write to ...'), the companion's by the writer (io-error).  The
# companion is not put in place for a .BIN that could not be written, nor
# the .BIN when its companion could not.
# (Each run is under timeout, so that a regression that waits fails.)
printf '%s\n' '{"ts":0,"kind":"begin","pid":0,"tid":0,"name":"main"}' \
    '{"ts":1000,"kind":"end","pid":0,"tid":0,"name":"main"}' >run.jsonl
echo "-o /dev/full --names=n1.txt:" >&2
timeout 10 tracewright convert -t text1-bin -o /dev/full --names=n1.txt run.jsonl
echo "-o /dev/full --names=n1.txt: exit $?"
echo "--names=n2.txt, standard output closed:" >&2
timeout 10 tracewright convert -t text1-bin --names=n2.txt run.jsonl >&-
echo "--names=n2.txt >&-: exit $?"
echo "--names=n3.txt >/dev/full:" >&2
timeout 10 tracewright convert -t text1-bin --names=n3.txt run.jsonl >/dev/full
echo "--names=n3.txt >/dev/full: exit $?"
echo "-o b4.BIN --names=/dev/full:" >&2
timeout 10 tracewright convert -t text1-bin -o b4.BIN --names=/dev/full run.jsonl
echo "-o b4.BIN --names=/dev/full: exit $?"
echo "-o b5.BIN --names=-, standard output closed:" >&2
timeout 10 tracewright convert -t text1-bin -o b5.BIN --names=- run.jsonl >&-
echo "-o b5.BIN --names=- >&-: exit $?"
echo "-o b6.BIN --names=- >/dev/full:" >&2
timeout 10 tracewright convert -t text1-bin -o b6.BIN --names=- run.jsonl >/dev/full
echo "-o b6.BIN --names=- >/dev/full: exit $?"
# nothing was left behind
LC_ALL=C ls
