#!/bin/sh
# Rebuild the seed corpora of the fuzz targets from the test fixtures:
#   tests/fuzz/corpus/<target>/   the inputs of tests/data/<format>/{good,bad,rules}
#   corpus/detect, corpus/writers one input of every format's good fixtures
#   corpus/report                 statistics reports of the examples
# The files keep their fixture's name (DIR-NAME).  Run from the top of the
# tree after adding fixtures; the result is committed.
set -eu
cd "$(dirname "$0")/../.."
out=tests/fuzz/corpus
inputs() {   # the input files of one fixture directory (no expectations)
    for f in "$1"/good/* "$1"/bad/* "$1"/rules/*; do
        [ -f "$f" ] || continue
        case $f in
        *.expected | *.stderr | *.args | *.exit | *.list | *.md | *.sh) continue ;;
        esac
        # text1-bin: the text exports are companions, not timelines
        case $1:$f in tests/data/text1-bin:*.txt) continue ;; esac
        echo "$f"
    done
}
rm -rf "$out"
for dir in tests/data/*/; do
    dir=${dir%/}
    fmt=${dir##*/}
    target=$(echo "$fmt" | tr - _)
    mkdir -p "$out/$target" "$out/detect" "$out/writers"
    for f in $(inputs "$dir"); do
        sub=${f#"$dir"/}
        name=$(echo "$sub" | tr / -)
        cp "$f" "$out/$target/$name"
        case $sub in good/*)
            cp "$f" "$out/detect/$fmt-$name"
            cp "$f" "$out/writers/$fmt-$name" ;;
        esac
    done
done
# the canonical streams the readers are expected to produce: jsonl seeds
for f in tests/data/*/good/*.expected; do
    fmt=${f#tests/data/}; fmt=${fmt%%/*}
    name=$fmt-$(basename "$f" .expected).jsonl
    cp "$f" "$out/jsonl/$name"
    cp "$f" "$out/writers/$name"
done
# statistics reports (fuzz_report): `stats --format json` of the examples,
# per scope and per thread, and a merge of two, made by the tracewright of
# the build directory given as the first argument (default build)
tw=${1:-build}/tracewright
mkdir -p "$out/report"
if [ -x "$tw" ]; then
    for f in examples/*; do
        case $f in *.md) continue ;; esac
        name=$(basename "$f")
        "$tw" stats --format json -o "$out/report/$name.json" "$f" 2>/dev/null || :
        "$tw" stats --by thread --format json -o "$out/report/$name-threads.json" "$f" 2>/dev/null || :
    done
    "$tw" stats --merge --by thread --format json -o "$out/report/merged.json" \
        "$out/report/motor-control.txt-threads.json" "$out/report/control-loop.csv-threads.json" 2>/dev/null || :
else
    echo "no $tw: the report seeds are not made (make first)" >&2
fi
for t in "$out"/*/; do echo "$(ls "$t" | wc -l) $t"; done
