# A companion that is not a regular file (a FIFO, a device) is written to
# directly and never read: only a regular file is looked into for a
# TIMELINE section.  Reading one once made the writer wait for a writer
# that never came (a FIFO) or read forever (/dev/zero, /dev/full); each
# run is under timeout so that such a hang fails (exit 124) instead.
printf '%s\n' '{"ts":0,"kind":"begin","pid":0,"tid":0,"name":"main"}' \
    '{"ts":100,"kind":"begin","pid":0,"tid":0,"name":"work"}' \
    '{"ts":900,"kind":"end","pid":0,"tid":0,"name":"work"}' \
    '{"ts":1000,"kind":"end","pid":0,"tid":0,"name":"main"}' >run.jsonl
tracewright convert -t text1-bin -o ref.BIN run.jsonl
# the companion beside -o out.BIN, out.txt, is a FIFO that a reader drains
mkfifo out.txt
timeout 10 cat out.txt >got.txt &
timeout 10 tracewright convert -t text1-bin -o out.BIN run.jsonl
echo "fifo beside: exit $?"
wait
cmp got.txt ref.txt && cmp out.BIN ref.BIN && echo "fifo beside: names through the FIFO"
# --names=FIFO (what --names=>(cmd) gives the shell's command)
mkfifo names.fifo
timeout 10 cat names.fifo >got2.txt &
timeout 10 tracewright convert -t text1-bin -o n.BIN --names=names.fifo run.jsonl
echo "--names=FIFO: exit $?"
wait
cmp got2.txt ref.txt && cmp n.BIN ref.BIN && echo "--names=FIFO: names through the FIFO"
# endless devices: /dev/zero takes the names; /dev/full cannot, which is
# an error naming it (the .BIN is then not left behind)
timeout 10 tracewright convert -t text1-bin -o z.BIN --names=/dev/zero run.jsonl
echo "--names=/dev/zero: exit $?"
cmp z.BIN ref.BIN && echo "z.BIN written"
timeout 10 tracewright convert -t text1-bin -o f.BIN --names=/dev/full run.jsonl
echo "--names=/dev/full: exit $?"
[ -e f.BIN ] && echo "f.BIN left behind"
LC_ALL=C ls
