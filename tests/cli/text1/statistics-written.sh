# The STATISTICS sections tracewright writes hold what `stats` computes on the
# same input: for each input, the rows of every STATISTICS(Functions) block
# (handle -> name through the HANDLE section, context -> thread through the
# CONTEXTS section) equal `stats --by thread --format json`, figure for
# figure (a period or outside time that is null there is 0 in the export).
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
# one row per scope of `stats --format json`, as NAME,TID,COUNT,figures...
from_stats() {
    N='\(-\{0,1\}[0-9]*\)'
    grep '^{"name"' "$1" |
        sed -e 's/,"thread":"\([^"\\]\|\\.\)*"//' \
            -e 's/"period":null/"period":{"count":0,"sum":0,"min":0,"max":0,"avg":0}/' \
            -e 's/"outside":null/"outside":{"count":0,"total":0,"min":0,"max":0,"avg":0}/' |
        sed -e "s/^{\"name\":\"\([^\"]*\)\",\"pid\":[0-9]*,\"tid\":$N,\"count\":$N,\"incomplete\":[0-9]*,/\1,\2,\3,/" \
            -e "s/\"net\":{\"total\":$N,\"min\":$N,\"max\":$N,\"avg\":$N},/\1,\2,\3,\4,/" \
            -e "s/\"gross\":{\"total\":$N,\"sum\":[-0-9]*,\"min\":$N,\"max\":$N,\"avg\":$N},/\1,\2,\3,\4,/" \
            -e "s/\"call\":{\"total\":$N,\"sum\":[-0-9]*,\"min\":$N,\"max\":$N,\"avg\":$N},/\1,\2,\3,\4,/" \
            -e "s/\"period\":{\"count\":[0-9]*,\"sum\":[-0-9]*,\"min\":$N,\"max\":$N,\"avg\":$N},/\1,\2,\3,/" \
            -e "s/\"outside\":{\"count\":[0-9]*,\"total\":$N,\"min\":$N,\"max\":$N,\"avg\":$N}}.*$/\1,\2,\3,\4/" |
        sort
}
for f in "$DATA/text1/good/preemption.txt" "$EXAMPLES/control-loop.csv" \
         "$EXAMPLES/office-startup_4711.log" "$EXAMPLES/hello-catalog.tracelog"; do
    tracewright convert -t text1 "$f" >export.txt 2>/dev/null
    tracewright stats --by thread --format json "$f" >stats.json 2>/dev/null
    from_export export.txt >a
    from_stats stats.json | grep -v '=' >b  # state areas are in STATISTICS(Data)
    rows=$(wc -l <a | tr -d ' ')
    if [ "$rows" -gt 0 ] && cmp -s a b; then echo "$(basename "$f"): $rows rows equal"; else echo "$(basename "$f") differs"; diff a b | head -5; fi
done
