# Checkpoint styles that cannot work are refused before anything is read.
tracewright convert -t jsonl --stacktrack-exit-style=3 "$DATA/stacktrack/good/scopes.tlg"
echo "exit $?"
tracewright convert -t jsonl --stacktrack-entry-style=70000 "$DATA/stacktrack/good/scopes.tlg"
echo "exit $?"
tracewright convert -t jsonl --stacktrack-info-window=0 "$DATA/stacktrack/good/scopes.tlg"
echo "exit $?"
# other styles: entries of style 6 (the value annotation "queue") and exits
# of style 3, so every scope-entry hit closes a scope that never opened
cp "$DATA/stacktrack/good/scopes.tlg" .
tracewright stats --format csv --stacktrack-entry-style=6 --stacktrack-exit-style=3 scopes.tlg
echo "exit $?"
