#!/bin/sh
# Interop tests: the output of tracewright's viewer writers loaded by the
# real programs that read it.  For every example (examples/*) and every
# readable fixture (tests/data/FORMAT/good/ and FORMAT/rules/), from the
# input's own directory and with its -f FORMAT and arguments:
#
#   chrome      convert -t chrome: Chrome DevTools' trace engine
#               (@paulirish/trace_engine) loads it; per thread the slices it
#               draws have the names, numbers and call times of
#               `stats --by thread`; instants, counters, names (chrome.mjs)
#   speedscope  convert -t speedscope: speedscope's file-format schema, its
#               importer's rules, one profile per thread with the counts and
#               times of `stats --by thread` (speedscope.mjs)
#   speedscope-app  speedscope's own page (npm package) imports the file in
#               headless Chromium and lists its profiles (browser.mjs)
#   ctf         convert -t ctf: babeltrace2 reads the CTF directory and
#               prints every event of `convert -t jsonl` with its kind, name,
#               ids and time (ctf.mjs)
#   svg, svg-chart  convert -t svg [--flamechart]: xmllint parses it,
#               Chromium renders it, the screenshot is not blank (browser.mjs)
#   folded      convert -t folded: the weights add up to the net total
#               (folded.mjs)
#
# A writer that tracewright does not register is one failure (with
# INTEROP_ALLOW_MISSING=1 only a note, while the writers are being written).
# What the checks need is installed first (setup.sh: apt-get, npm ci).
# Screenshots of one example (INTEROP_SCREENSHOT_INPUT, default
# examples/office-startup_4711.log) go to BUILD_DIR/interop/screenshots/,
# for `make screenshots`.  Prints one line per failure, then
# "N passed, N failed"; exit status 0 only when nothing failed.
#
#   sh tests/interop/run.sh [BUILD_DIR]        (default: build)
set -u
build=${1:-build}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$(cd "$build" && pwd) || exit 2
bin=$build/tracewright
out=$build/interop
work=$out/work
shots=$out/screenshots
results=$out/results.txt
writers="chrome speedscope svg ctf folded"
shot_input=${INTEROP_SCREENSHOT_INPUT:-examples/office-startup_4711.log}
start=$(date +%s)

mkdir -p "$out"
if ! sh "$here/setup.sh" "$out/setup.log"; then
    echo "FAIL setup: what the interop tests need could not be installed (see $out/setup.log)"
    echo "0 passed, 1 failed"
    exit 1
fi
rm -rf "$work" "$shots"
mkdir -p "$work" "$shots"
: >"$results"

# ---- the writers tracewright registers ------------------------------------
registered=$("$bin" formats | awk 'NR == 1 { next } /^$/ { exit } $3 == "yes" { print $1 }')
present=""
for w in $writers; do
    case " $(echo $registered) " in
    *" $w "*) present="$present $w" ;;
    *)
        if [ "${INTEROP_ALLOW_MISSING:-0}" = 1 ]; then
            echo "NOTE $w: the writer is not registered yet (tracewright formats); its checks are skipped" >>"$results"
        else
            echo "FAIL $w: the writer is not registered (tracewright formats lists no '$w' that can write)" >>"$results"
        fi
        ;;
    esac
done
has() { case " $present " in *" $1 "*) return 0 ;; esac; return 1; }

# ---- the inputs: LABEL|FORMAT|ARGS ----------------------------------------
# Examples are detected as `tracewright` would; fixtures are read with their
# directory's format and X.args (good/) or the arguments rules.list gives
# (rules/).  bad/ is left out: damaged inputs whose recovered events the
# fixture tests already pin down.
is_companion() {
    [ -f "$1/companions.list" ] || return 1
    while read -r pat; do
        case "$pat" in "" | "#"*) continue ;; esac
        # shellcheck disable=SC2254
        case "$(basename "$2")" in $pat) return 0 ;; esac
    done <"$1/companions.list"
    return 1
}
inputs() {
    for f in "$root"/examples/*; do
        [ -f "$f" ] || continue
        case "$f" in *.md) continue ;; esac
        echo "examples/$(basename "$f")||"
    done
    for fmtdir in "$root"/tests/data/*/; do
        fmtdir=${fmtdir%/}
        fmt=$(basename "$fmtdir")
        for kind in good rules; do
            for x in "$fmtdir/$kind"/*; do
                [ -f "$x" ] || continue
                case "$x" in *.expected | *.stderr | *.exit | *.args | *.md | *.validate.*) continue ;; esac
                is_companion "$fmtdir" "$x" && continue
                name=$(basename "$x")
                args=""
                if [ "$kind" = good ]; then
                    [ -f "$x.args" ] && args=$(cat "$x.args")
                elif [ -f "$fmtdir/rules.list" ]; then
                    args=$(awk -v f="rules/$name" '$2 == f { $1 = ""; $2 = ""; sub(/^ +/, ""); print; exit }' "$fmtdir/rules.list")
                fi
                echo "tests/data/$fmt/$kind/$name|$fmt|$args"
            done
        done
    done
}

# ---- convert every input with every writer --------------------------------
n=0
inputs >"$work/inputs.txt"
while IFS='|' read -r rel fmt args; do
    n=$((n + 1))
    d="$work/$(printf '%s' "$rel" | tr '/' '_')"
    mkdir -p "$d"
    src="$root/$rel"
    srcdir=$(dirname "$src")
    base=$(basename "$src")
    fopt=""
    [ -n "$fmt" ] && fopt="-f $fmt"
    # tw NAME ARGS...: tracewright from the input's directory; NAME.exit, NAME.err
    tw() {
        name=$1
        shift
        # shellcheck disable=SC2086
        (cd "$srcdir" && LC_ALL=C "$bin" "$@" 2>"$d/$name.err" </dev/null)
        echo $? >"$d/$name.exit"
    }
    # shellcheck disable=SC2086
    {
        tw jsonl convert $fopt -t jsonl $args -o "$d/in.jsonl" "$base"
        tw stats stats $fopt --by thread --format json $args -o "$d/stats.json" "$base"
        has chrome && tw chrome convert $fopt -t chrome $args -o "$d/chrome.json" "$base"
        has speedscope && tw speedscope convert $fopt -t speedscope $args -o "$d/trace.speedscope.json" "$base"
        has ctf && tw ctf convert $fopt -t ctf $args -o "$d/ctf" "$base"
        has svg && tw svg convert $fopt -t svg $args -o "$d/flame.svg" "$base"
        has svg && tw svg-chart convert $fopt -t svg --flamechart $args -o "$d/chart.svg" "$base"
        has folded && tw folded convert $fopt -t folded $args -o "$d/stacks.folded" "$base"
    }
    if [ "$(cat "$d/jsonl.exit")" -gt 1 ] || [ "$(cat "$d/stats.exit")" -gt 1 ]; then
        echo "FAIL $rel: tracewright cannot read it (convert -t jsonl exited $(cat "$d/jsonl.exit"), stats $(cat "$d/stats.exit")): $(tail -n 1 "$d/jsonl.err")" >>"$results"
        continue
    fi
    if has ctf && [ -f "$d/ctf/metadata" ]; then
        timeout --foreground 60 babeltrace2 --clock-seconds --no-delta "$d/ctf" >"$d/babeltrace2.out" 2>"$d/babeltrace2.err" </dev/null
        echo $? >"$d/babeltrace2.exit"
    fi
    for w in svg svg-chart; do
        f="$d/flame.svg"
        [ "$w" = svg-chart ] && f="$d/chart.svg"
        if has svg && [ -f "$f" ]; then
            xmllint --noout --nonet "$f" >"$d/xmllint-$w.err" 2>&1
            echo $? >"$d/xmllint-$w.exit"
        fi
    done
    printf '%s\t%s\n' "$rel" "$d" >>"$work/manifest.tsv"
done <"$work/inputs.txt"
touch "$work/manifest.tsv"

# ---- the checks -----------------------------------------------------------
# node: the checks that need no browser, then one Chromium for the others
node_checks=""
for w in chrome speedscope ctf folded; do has "$w" && node_checks="$node_checks $w"; done
browser_checks=""
has svg && browser_checks="svg svg-chart"
has speedscope && browser_checks="$browser_checks speedscope-app"
run_node() {
    what=$1
    shift
    timeout --foreground 900 node "$@" >>"$results" 2>"$out/$what.err"
    status=$?
    if [ "$status" -ne 0 ]; then
        echo "FAIL $what: node exited $status: $(grep -v '^ *at ' "$out/$what.err" | tail -n 3 | tr '\n' ' ')" >>"$results"
    fi
}
# shellcheck disable=SC2086
[ -n "$node_checks" ] && run_node check.mjs "$here/check.mjs" "$work/manifest.tsv" $node_checks
# shellcheck disable=SC2086
if [ -n "$browser_checks" ] || has svg; then
    run_node browser.mjs "$here/browser.mjs" "$work/manifest.tsv" "$shots" "$shot_input" $browser_checks
fi

# ---- report ---------------------------------------------------------------
grep '^FAIL ' "$results"
# notes once per writer and text (numbers aside), with the inputs that gave them
awk '/^NOTE / {
        line = substr($0, 6); i = index(line, ": ")
        label = substr(line, 1, i - 1); text = substr(line, i + 2)
        w = label; sub(/.* /, "", w); inp = label; sub(/ ?[^ ]*$/, "", inp)
        k = w ": " text; gsub(/-?[0-9]+/, "#", k)
        if (!(k in c)) { o[++n] = k; first[k] = w ": " text; where[k] = inp }
        c[k]++
    }
    END {
        for (j = 1; j <= n; j++) {
            k = o[j]; at = where[k]
            if (c[k] > 1) at = at " and " c[k] - 1 " more"
            print "note: " first[k] (at != "" ? " (" at ")" : "")
        }
    }' "$results"
pass=$(grep -c '^PASS ' "$results")
fail=$(grep -c '^FAIL ' "$results")
echo "interop: $n inputs, $((pass + fail)) checks in $(($(date +%s) - start)) s; details in $work"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
