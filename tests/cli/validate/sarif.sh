# The same problems as one SARIF 2.1.0 log, with every rule in
# tool.driver.rules; sarif-check verifies the structure GitHub code scanning
# requires of an upload.  Nothing else on standard output.
cp "$DATA/lms/bad/unmapped-id.csv" "$DATA/coreprofiler/bad/unnamed.tracelog" \
    "$DATA/stacktrack/bad/truncated.tlg" .
tracewright validate --format sarif unmapped-id.csv unnamed.tracelog truncated.tlg >out.sarif
echo "exit $?"
"$BUILD/sarif-check" out.sarif
grep -v '^      {"id":' out.sarif
# a clean input: an empty result list, and still a valid log
tracewright validate --format sarif "$EXAMPLES/control-loop.csv" >clean.sarif
echo "exit $?"
"$BUILD/sarif-check" clean.sarif
# an input that cannot be opened is a tool execution notification (it has
# no location for a result), and the run is not successful: exit 2
tracewright validate --format sarif missing.log >missing.sarif
echo "exit $?"
"$BUILD/sarif-check" missing.sarif
sed -n '/"results"/,$p' missing.sarif
