#!/bin/sh
# Rebuild the seed corpora of the fuzz targets from the test fixtures:
#   tests/fuzz/corpus/<target>/   the inputs of tests/data/<format>/{good,bad,rules}
#   corpus/detect, corpus/writers one input of every format's good fixtures
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
for t in "$out"/*/; do echo "$(ls "$t" | wc -l) $t"; done
