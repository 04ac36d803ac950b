# The benchmark's yardstick (bench/untuned.c, built by make test) computes
# the statistics that `tracewright stats` reports, or its times would
# measure something else: on the generator's output of each format it
# covers, every scope's count, gross and net totals and least and greatest
# gross time are tracewright's
# (the generator never recurses, where the two would differ).  A format it
# does not know, a missing file and a bad request end with status 2.
gen=$BUILD/bench/gen
untuned=$BUILD/bench/untuned
for f in rtl:g.log lms:g.csv stacktrack:g.tlg text1-bin:b.txt.BIN; do
    fmt=${f%%:*}
    file=${f#*:}
    "$gen" "$fmt" 300k 5 "$file" || echo "$fmt: gen failed"
    "$untuned" "$fmt" "$file" | sort > untuned.csv
    # NAME,COUNT,GROSS_NS,NET_NS,GROSS_MIN,GROSS_MAX from the report's columns
    tracewright stats --format csv "$file" |
        awk -F, 'NR > 1 { print $1 "," $2 "," $8 "," $4 "," $9 "," $10 }' | sort > tw.csv
    if cmp -s untuned.csv tw.csv; then
        echo "$fmt: $(wc -l < tw.csv | tr -d ' ') scopes, the same counts, totals and extremes"
    else
        echo "$fmt: the untuned C differs from tracewright:"
        diff untuned.csv tw.csv | head -n 5
    fi
done
"$untuned" coreprofiler g.log
echo "exit $?"
"$untuned" rtl nosuch.log
echo "exit $?"
"$untuned" rtl
echo "exit $?"
