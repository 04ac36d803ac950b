# The same problems as JSON Lines: nothing else on standard output.
cp "$DATA/lms/bad/unmapped-id.csv" "$DATA/coreprofiler/bad/unnamed.tracelog" \
    "$DATA/stacktrack/bad/truncated.tlg" .
tracewright validate --format json unmapped-id.csv unnamed.tracelog truncated.tlg
echo "exit $?"
