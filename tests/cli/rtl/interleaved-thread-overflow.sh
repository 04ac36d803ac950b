# A record inside a message whose thread id does not fit in 64 bits is
# separated from the message and reported (bad-record, exit status 1), as
# the same record on a line of its own is; it is not dropped silently.
cp "$DATA/rtl/bad/interleaved-thread-overflow.log" .
tracewright validate interleaved-thread-overflow.log
echo "exit $?"
printf 'Process id is 1\n000011 99999999999999999999999 { work\nclosing log file at 000020' >alone.log
tracewright validate alone.log
echo "exit $?"
