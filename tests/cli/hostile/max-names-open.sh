# --max-names below the names a reader interns for itself when it opens
# (event categories, attribute keys, meta event names): limit-exceeded for
# that input, not "out of memory"
for f in rtl/good/spec-example_4711.log coreprofiler/bad/plain-sample.tracelog \
    stacktrack/good/scopes.tlg text1/good/canonical.txt; do
    tracewright stats --max-names 1 "$DATA/$f" 2>err
    echo "exit $?"
    sed "s|^$DATA/||" err
done
