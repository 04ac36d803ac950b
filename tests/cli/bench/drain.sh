# The benchmark's reading alone (bench/drain.c, built by make test) reads
# every event that the commands see: its count, on one thread and on two,
# is the number of events `convert -t jsonl` writes (its lines less the
# trace record), for every format; an input it cannot read and a bad
# request end with status 2.
gen=$BUILD/bench/gen
drain=$BUILD/bench/drain
for f in rtl:g.log lms:g.csv coreprofiler:g.tracelog text1:g.txt text1-bin:b.txt.BIN \
    stacktrack:g.tlg; do
    fmt=${f%%:*}
    file=${f#*:}
    "$gen" "$fmt" 200k 3 "$file" || echo "$fmt: gen failed"
    want=$(($(tracewright convert -t jsonl "$file" | wc -l) - 1))
    one=$("$drain" "$file")
    two=$("$drain" --threads 2 "$file")
    echo "$fmt: $want events; drain: $one, with two threads: $two"
done
# two inputs are merged, as the commands merge them
echo "rtl and lms: $("$drain" g.log g.csv)"
"$drain" nosuch.log
echo "exit $?"
# not a trace: the format cannot be told
cp "$TOP/bench/README.md" notes.txt
"$drain" notes.txt
echo "exit $?"
"$drain" --threads 3 g.log
echo "exit $?"
"$drain"
echo "exit $?"
