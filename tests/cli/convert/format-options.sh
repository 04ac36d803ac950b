# format options: --NAME=VALUE, --NAME VALUE, --NAME, --no-NAME; bad values are usage errors
cp "$DATA/rtl/good/subscopes.log" .
tracewright convert -t jsonl --rtl-subscopes=no subscopes.log | sed -n 3p
tracewright convert -t jsonl --no-rtl-subscopes subscopes.log | sed -n 3p
tracewright convert -t jsonl --rtl-subscopes subscopes.log | sed -n 3p
tracewright convert -t jsonl --rtl-subscopes=maybe subscopes.log
echo "exit $?"
tracewright convert -t jsonl --no-rtl-subscopes=yes subscopes.log
