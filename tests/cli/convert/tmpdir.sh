# the writers' temporary files go to $TMPDIR (chrome's spool of the events
# of every thread but the first, which takes to disk what passes 64 KiB,
# some 6 bytes a record here, so the second thread has 20,000 of them;
# svg's flame chart;
# the text1 timeline): a directory
# that does not exist is an io-error naming the cause; one that does gets
# the file, which leaves nothing behind.  The log is synthetic (awk).
awk 'BEGIN {
    print "Process id is 9"
    for (i = 0; i < 20000; i++) printf "%06d %d { a scope name long enough to fill a chunk\n%06d %d } a scope name long enough to fill a chunk\n", i, 1 + i % 2, i, 1 + i % 2
    print "closing log file at 020000"
}' >big_9.log
mkdir tmp
TMPDIR=$PWD/tmp tracewright convert -t chrome big_9.log -o out.json; echo "exit $?"
echo "left in tmp: $(ls -A tmp | wc -l | tr -d ' '); events: $(grep -c '"ph":"[BE]"' out.json)"
TMPDIR=missing tracewright convert -t chrome big_9.log -o out2.json; echo "exit $?"
test -e out2.json && echo "out2.json left behind"
# the first thread's events go straight to the output: one thread needs no
# temporary file, however long
awk 'BEGIN {
    print "Process id is 9"
    for (i = 0; i < 4000; i++) printf "%06d 1 { a scope name long enough to fill a chunk\n%06d 1 } a scope name long enough to fill a chunk\n", i, i
    print "closing log file at 004000"
}' >one_9.log
TMPDIR=missing tracewright convert -t chrome one_9.log -o one.json; echo "one thread: exit $?, events: $(grep -c '"ph":"[BE]"' one.json)"
# the flame chart's and the text1 timeline's temporary files, made at once
TMPDIR=missing tracewright convert -t svg --flamechart big_9.log -o out.svg; echo "svg: exit $?"
TMPDIR=missing tracewright convert -t text1 big_9.log -o out.text1; echo "text1: exit $?"
TMPDIR=$PWD/tmp tracewright convert -t svg --flamechart big_9.log -o out.svg
echo "svg in tmp: exit $?"
echo "left in tmp: $(ls -A tmp | wc -l | tr -d ' ')"

# a $TMPDIR that is full (here: a file size limit, the signal it raises
# ignored) is named too: it is not the disk of the output
(trap '' XFSZ; ulimit -f 16; TMPDIR=tmp tracewright convert -t chrome big_9.log -o /dev/null)
echo "full: exit $?"
true
