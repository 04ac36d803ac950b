# scopes nested 10^6 deep: stats, jsonl and rtl handle them with memory
# growing with the depth; folded keeps --folded-max-depth frames (1024) and
# gives the time of the deeper ones to the deepest frame kept.  No writer
# recurses over the depth: 10^5 deep goes through every one of them.
nest() {   # LMS CSV: label 0 "f" entered $1 times, then left $1 times
    awk -v n="$1" 'BEGIN { print "2,0,f"; for (i = 0; i < n; i++) print "0,0,1";
                           for (i = 0; i < n; i++) print "1,0,1" }'
}
nest 1000000 >deep.csv
tracewright stats --format csv deep.csv | cut -d, -f1-8
echo "exit $?"
tracewright convert -t rtl deep.csv >deep.log 2>/dev/null
tracewright stats --format csv deep.log | cut -d, -f1-4
tracewright convert -t folded deep.csv >deep.folded
echo "exit $? lines $(wc -l <deep.folded)"
awk '{ s += $NF } END { print "weights", s }' deep.folded
nest 100000 >deep5.csv
for t in jsonl lms coreprofiler text1 stacktrack chrome speedscope svg folded; do
    tracewright convert -t "$t" deep5.csv -o "out.$t" 2>/dev/null
    echo "$t exit $?"
done
tracewright convert -t svg --flamechart deep5.csv -o chart.svg 2>/dev/null
echo "svg --flamechart exit $?"
tracewright convert -t ctf deep5.csv -o out.ctf 2>/dev/null
echo "ctf exit $?"
tracewright convert -t text1-bin deep5.csv -o out.BIN 2>/dev/null
echo "text1-bin exit $?"
# and back: every scope still there
for t in jsonl lms coreprofiler text1 stacktrack; do
    printf '%s: ' "$t"
    tracewright stats --format csv "out.$t" 2>/dev/null | sed -n 2p | cut -d, -f1-3
done
