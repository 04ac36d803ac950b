# The STATISTICS sections tracewright writes hold what `stats` computes on the
# same input: for each input, the rows of every STATISTICS(Functions) block
# (handle -> name through the HANDLE section, context -> thread through the
# CONTEXTS section) equal `stats --by thread --format csv`, column for column
# (empty period and outside figures are 0 in the export).
from_export() {
    awk -F, '
        function hex(s,   v, i, c) { v = 0; s = toupper(s); sub(/^0X/, "", s)
            for (i = 1; i <= length(s); i++) { c = index("0123456789ABCDEF", substr(s, i, 1)) - 1; v = v * 16 + c }
            return v }
        /^\* / { sec = $0; ctx = ""; tid = 0
                 if (sec ~ /^\* STATISTICS\(Functions\) CONTEXT\(/) {
                     ctx = sec; sub(/^\* STATISTICS\(Functions\) CONTEXT\(/, "", ctx); sub(/\) %HANDLE%.*/, "", ctx)
                     tid = tids[ctx] }
                 next }
        sec ~ /^\* CONTEXTS/ { tids[$1] = hex($2); next }
        sec ~ /^\* HANDLE\(Functions\)/ { name[$1] = $2; next }
        sec ~ /^\* STATISTICS\(Functions\)/ {
            line = name[$1] "," tid
            for (i = 3; i <= NF; i++) line = line "," $i
            print line }' "$1" | sort
}
from_stats() {
    tr -d '\r' <"$1" | awk -F, 'NR > 1 { line = $1 "," $3 "," $4
                       for (i = 6; i <= NF; i++) line = line "," ($i == "" ? 0 : $i)
                       print line }' | sort
}
for f in "$DATA/text1/good/preemption.txt" "$EXAMPLES/control-loop.csv" \
         "$EXAMPLES/office-startup_4711.log" "$EXAMPLES/hello-catalog.tracelog"; do
    tracewright convert -t text1 "$f" >export.txt 2>/dev/null
    tracewright stats --by thread --format csv "$f" >stats.csv 2>/dev/null
    from_export export.txt >a
    from_stats stats.csv | grep -v '=' >b  # state areas are in STATISTICS(Data)
    rows=$(wc -l <a | tr -d ' ')
    if [ "$rows" -gt 0 ] && cmp -s a b; then echo "$(basename "$f"): $rows rows equal"; else echo "$(basename "$f") differs"; diff a b | head -5; fi
done
