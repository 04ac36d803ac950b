# The benchmark's table (bench/run.sh) on a small rtl input: every row is
# there, and a convert row ends with its output's size and the rule of
# thumb (stats plus writing the output at 2 GB/s), whose sum and verdict
# are checked here against the stats row's seconds and the bytes the
# conversion writes (400-800 KB here: 0.0002-0.0004 s of the sum).  Times
# vary, so the check recomputes rather than compares them.
sh "$TOP/bench/run.sh" "$BUILD" --size 200k --seed 3 --formats rtl --no-awk --no-untuned \
    --runs 1 --data . >table.txt 2>err.txt
echo "exit $?"
grep -v '^generating ' err.txt >&2  # (nothing when it ran)
"$BUILD/bench/gen" rtl 200k 3 mine.log
for t in chrome jsonl lms; do
    echo "$t $(tracewright convert -t "$t" mine.log 2>/dev/null | wc -c | tr -d ' ')"
done >bytes.txt
awk 'NR == FNR { bytes[$1] = $2; next }
FNR <= 2 { next }  # the title and the header
/^start-up:/ { print "start-up line"; next }
$1 != "rtl" { print "stray: " $0; next }
{
    label = substr($0, 15, 22)  # (printf "%-13s %-22s")
    sub(/ +$/, "", label)
    split(substr($0, 38), f, " ")
    secs = f[1]
    print label
    if (label == "stats") stats = secs
    if (label !~ /^convert/) next
    t = label; sub(/^convert -t /, "", t)
    if (!match($0, /output [0-9.]+ MB, stats \+ output at 2 GB\/s [0-9.]+ s: (met|not met)$/)) {
        print "  no rule of thumb"; next
    }
    split(substr($0, RSTART), w, " ")
    mb = w[2]; sum = w[10]
    verdict = $0; sub(/.*: /, "", verdict)
    want = sprintf("%.4f", stats + bytes[t] / 2e9)
    print "  output " (sprintf("%.3f", bytes[t] / 1e6) == mb ? "as written" : "WRONG " mb) \
        ", sum " (sum == want ? "right" : "WRONG " sum " " want) \
        ", verdict " ((secs + 0 <= sum + 0) == (verdict == "met") ? "right" : "WRONG")
}' bytes.txt table.txt
