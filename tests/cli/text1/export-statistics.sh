# The export's own STATISTICS (kept as text1.statistics metadata) agree with
# what the statistics engine computes on the export's timeline: for every
# function row of preemption.txt, each figure the export has equals the
# engine's (stats CSV; empty period and outside figures are 0).
f="$DATA/text1/good/preemption.txt"
# NAME COUNT NET GROSS CALL NET.MAX CALL.MIN PERIOD.MIN OUTSIDE
tracewright convert -t jsonl "$f" | grep '"text1.statistics"' | grep '"Functions"' |
    sed 's/.*"msg":"\([^"]*\)".*"count":\([0-9]*\),"T.NET":\([0-9]*\),"T.NET.MAX":\([0-9]*\),"T.GROSS":\([0-9]*\),"T.CALL":\([0-9]*\),"T.CALL.MIN":\([0-9]*\),"T.PERIOD.MIN":\([0-9]*\),"T.OUTSIDE":\([0-9]*\).*/\1 \2 \3 \5 \6 \4 \7 \8 \9/' |
    sort >export.txt
tracewright stats --by thread --format csv "$f" | tr -d '\r' |
    awk -F, 'NR > 1 && $1 !~ /=/ { print $1, $5, $7, $11, $15, $9, $16, ($19 == "" ? 0 : $19), ($22 == "" ? 0 : $22) }' |
    sort >engine.txt
cat export.txt
cmp export.txt engine.txt && echo "the engine computes the export's figures"
