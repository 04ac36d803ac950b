# The benchmark's generator (bench/gen.c, built by make test) writes every
# format so that its reader finds nothing to report, the same bytes for the
# same seed; and the awk baseline (bench/scope-stats.awk) counts the same
# calls and gross times as `stats` on every text format.
gen=$BUILD/bench/gen
# (text1-bin writes b.txt beside b.txt.BIN: the names the reader looks for)
for f in rtl:g.log lms:g.csv coreprofiler:g.tracelog text1:g.txt text1-bin:b.txt.BIN \
    stacktrack:g.tlg; do
    fmt=${f%%:*}
    file=${f#*:}
    "$gen" "$fmt" 300k 7 "$file" || echo "$fmt: gen failed"
    mkdir -p again
    "$gen" "$fmt" 300k 7 "again/$file" && cmp -s "$file" "again/$file" || echo "$fmt: not the same twice"
    printf '%s: ' "$fmt"
    tracewright validate "$file"
    case "$fmt" in
    rtl | lms | coreprofiler | text1)
        tracewright stats --format csv "$file" |
            awk -F, 'NR > 1 { print $1 "\t" $2 "\t" $8 }' | sort > tw.tsv
        awk -v fmt="$fmt" -f "$TOP/bench/scope-stats.awk" "$file" | sort > awk.tsv
        if cmp -s tw.tsv awk.tsv; then
            echo "  awk: the same $(wc -l < tw.tsv | tr -d ' ') scopes"
        else
            echo "  awk: DIFFERENT"
        fi
        ;;
    esac
done
# a bad request
"$gen" nosuch 1k 1 x.log
echo "exit $?"
