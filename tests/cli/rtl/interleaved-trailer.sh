# A message still waiting for its text when the trailer comes is emitted
# before the trailer's trace_end, so that the rtl writer puts it before the
# trailer and the log it writes reads back without an rtl-no-trailer warning.
cp "$DATA/rtl/bad/interleaved-trailer.log" .
tracewright convert -t rtl -o back.log interleaved-trailer.log
echo "exit $?"
cat back.log
echo
tracewright convert -f rtl -t jsonl back.log
echo "exit $?"
