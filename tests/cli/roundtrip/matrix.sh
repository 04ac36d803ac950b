# Every readable format R among rtl, lms, coreprofiler, text1, text1-bin and
# stacktrack, and every writable format W of $writers: for each good fixture of R,
# R -> W -> jsonl must equal R -> jsonl projected onto what W holds
# ($BUILD/project, built from tests/tools/project.c), and the conversion
# must report what it lost in one lossy-conversion warning (none when it
# lost nothing) and its rounding in one precision-loss warning.
formats="rtl lms coreprofiler text1 text1-bin stacktrack"
# the writers whose projection tests/tools/project.c states
writers="rtl lms coreprofiler text1 text1-bin stacktrack"
pairs=0
failed=0
for r in $formats; do
    for x in "$DATA/$r"/good/*; do
        case "$x" in *.expected | *.stderr | *.exit | *.args | *.md) continue ;; esac
        # the text export beside a .BIN timeline is not a fixture of its own
        [ "$r" = text1-bin ] && case "$x" in *.txt) continue ;; esac
        f=$(basename "$x")
        here=$PWD
        args=""
        [ -f "$x.args" ] && args=$(cat "$x.args")
        # shellcheck disable=SC2086
        (cd "$(dirname "$x")" && tracewright convert -f "$r" -t jsonl $args "$f" >"$here/ref.jsonl" 2>/dev/null)
        for w in $writers; do
            case $w in text1-bin) out=conv.BIN ;; stacktrack) out=conv.tlg ;; *) out=conv.$w ;; esac
            rm -f conv.*
            # shellcheck disable=SC2086
            (cd "$(dirname "$x")" && tracewright convert -f "$r" -t "$w" $args -o "$here/$out" "$f" \
                2>"$here/warnings")
            back=""
            case $w in text1 | text1-bin) back=--text1-lines ;; esac
            # shellcheck disable=SC2086
            tracewright convert -f "$w" -t jsonl $back "$out" >got.jsonl 2>/dev/null
            # the Text1 writer computes the STATISTICS sections from the
            # timeline (tests/cli/text1/statistics-written.sh checks them); the
            # projection leaves out the text1.statistics events, and so does this
            case $w in
            text1 | text1-bin)
                grep -v '^{"ts":0,"kind":"meta","pid":0,"tid":0,"name":"text1\.statistics",' got.jsonl >got.tmp
                mv got.tmp got.jsonl
                ;;
            esac
            "$BUILD/project" "$w" "$r" warnings <ref.jsonl >want.jsonl 2>problems
            pairs=$((pairs + 1))
            if ! cmp -s want.jsonl got.jsonl || [ -s problems ]; then
                failed=$((failed + 1))
                echo "FAIL $r/good/$f -> $w"
                sed 's/^/    /' problems
                diff -u want.jsonl got.jsonl | sed -n '3,20s/^/    /p'
            fi
        done
    done
done
echo "$pairs conversions checked, $failed failed"
[ "$failed" -eq 0 ]
