# refuse to truncate an input by writing over it
cp "$DATA/rtl/good/subscopes.log" .
cp subscopes.log before.log
tracewright convert -t rtl -o subscopes.log subscopes.log
echo "exit $?"
cmp subscopes.log before.log && echo unchanged
