# The committed fixtures are exactly what the generator writes, record by
# record, from the spec's layout.
sh "$DATA/stacktrack/make-fixtures.sh" gen
for f in gen/good/*.tlg gen/bad/*.tlg gen/rules/*.tlg; do
    rel=${f#gen/}
    cmp -s "$f" "$DATA/stacktrack/$rel" || echo "$rel differs from the generator's output"
done
ls gen/good gen/bad gen/rules | grep -c tlg
