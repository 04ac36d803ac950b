# An interrupted message whose text is empty leaves a blank line (the
# message and its newline are separate writes): while a message waits for
# its text, a blank line is that text, not skipped; blank lines elsewhere
# are ignored.  Same from a pipe and with CRLF line ends.
cp "$DATA/rtl/bad/interleaved-empty_20.log" .
tracewright convert -t jsonl interleaved-empty_20.log
echo "exit $?"
printf 'Process id is 1\r\n\r\n000010 11 | ctx : 000011 12 { work\r\n\r\n000012 12 } work\r\n\r\n000013 1 { x\r\nclosing log file at 000014' | tracewright convert -f rtl -t jsonl -
echo "exit $?"
printf 'Process id is 1\n000010 11 | ctx : 000011 12 { work\n\n' | tracewright convert -f rtl -t jsonl -
echo "exit $?"
