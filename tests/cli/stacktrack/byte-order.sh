# A big-endian file (its PROLOGUE magic reads 0x78563412 little-endian)
# gives exactly the events of the same buffers written little-endian.
od -A d -t x1 -N 16 "$DATA/stacktrack/good/big-endian.tlg"
tracewright convert -t jsonl "$DATA/stacktrack/good/big-endian.tlg" >be.jsonl
tracewright convert -t jsonl "$DATA/stacktrack/good/scopes.tlg" >le.jsonl
cmp be.jsonl le.jsonl && echo "big-endian and little-endian: same $(wc -l <le.jsonl) lines"
# Files appended to each other: the second one's PROLOGUE switches the byte
# order; its process starts 588243135 s after the first (TIMEINFO).
cat "$DATA/stacktrack/good/seed-example.tlg" "$DATA/stacktrack/good/big-endian.tlg" >both.tlg
tracewright convert -t jsonl both.tlg | cut -c 1-100 | sed -n '1,5p'
