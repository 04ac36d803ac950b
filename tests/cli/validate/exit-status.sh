# 0 clean (warnings allowed), 1 errors or --strict warnings, 2 trouble.
cp "$DATA/lms/bad/id-order.csv" "$DATA/lms/bad/unmapped-id.csv" .
tracewright validate "$EXAMPLES/control-loop.csv" >/dev/null; echo "clean: $?"
tracewright validate id-order.csv >/dev/null; echo "warnings: $?"
tracewright validate --strict id-order.csv >/dev/null; echo "warnings, --strict: $?"
tracewright validate unmapped-id.csv >/dev/null; echo "errors: $?"
tracewright validate missing.log id-order.csv; echo "unreadable: $?"
printf 'nothing to see\n' >plain.txt
tracewright validate plain.txt; echo "undetectable: $?"
tracewright validate -f lms plain.txt; echo "-f lms: $?"
tracewright validate --format xml id-order.csv; echo "usage: $?"
# --max-diagnostics keeps the count in the summary
tracewright validate --max-diagnostics 1 unmapped-id.csv id-order.csv; echo "limited: $?"
