# Every problem of every input, one GCC-style line each, then a summary;
# binary inputs give byte offsets and record numbers.  Errors: exit 1.
cp "$DATA/lms/bad/unmapped-id.csv" "$DATA/lms/bad/id-order.csv" "$DATA/coreprofiler/bad/unnamed.tracelog" \
    "$DATA/stacktrack/bad/truncated.tlg" "$DATA/stacktrack/bad/undefined-scope.tlg" \
    "$DATA/rtl/good/"*.log .
tracewright validate unmapped-id.csv id-order.csv unnamed.tracelog truncated.tlg undefined-scope.tlg
echo "exit $?"
