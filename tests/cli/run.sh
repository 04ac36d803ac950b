#!/bin/sh
# Golden-file CLI tests in the style of zstd's cli-tests.
#
# Each test is a shell script tests/cli/AREA/NAME.sh, run with `sh` in a
# fresh scratch directory, with the tracewright binary first in PATH and
#   DATA=tests/data  EXAMPLES=examples  TOP=<repository root>  BUILD=<build dir>
# Next to the script:
#   NAME.sh.exit           expected exit status (absent: 0)
#   NAME.sh.stdout.exact   expected standard output, byte for byte (absent: empty)
#   NAME.sh.stderr.exact   expected standard error, byte for byte (absent: empty)
#   NAME.sh.stdout.ignore  / NAME.sh.stderr.ignore: do not compare that stream
#
#   sh tests/cli/run.sh [--update] [--preserve] BUILD_DIR [SUBSTRING...]
# --update rewrites the expectations from what the binary does now (review
# the diff before committing); --preserve keeps the scratch directories.
# TW_WRAP_DIR=DIR puts DIR before BUILD_DIR in PATH, so that its `tracewright`
# (make valgrind: a wrapper running the binary under valgrind) is the one run.
set -u
update=0
preserve=0
while [ $# -gt 0 ]; do
    case "$1" in
    --update) update=1; shift ;;
    --preserve) preserve=1; shift ;;
    *) break ;;
    esac
done
[ $# -ge 1 ] || { echo "usage: $0 [--update] [--preserve] BUILD_DIR [SUBSTRING...]" >&2; exit 2; }
bindir=$(cd "$1" && pwd) || exit 2
shift
pathdirs=$bindir
if [ -n "${TW_WRAP_DIR:-}" ]; then
    pathdirs="$(cd "$TW_WRAP_DIR" && pwd):$bindir" || exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
pass=0
fail=0

selected() {
    [ $# -eq 1 ] && return 0
    name=$1
    shift
    for pat in "$@"; do
        case "$name" in *"$pat"*) return 0 ;; esac
    done
    return 1
}

# compare STREAM ACTUAL EXPECTED_BASE: returns 0 when equal
compare() {
    stream=$1 actual=$2 base=$3
    [ -f "$base.$stream.ignore" ] && return 0
    if [ "$update" -eq 1 ]; then
        if [ -s "$actual" ]; then cp "$actual" "$base.$stream.exact"; else rm -f "$base.$stream.exact"; fi
        return 0
    fi
    if [ -f "$base.$stream.exact" ]; then
        cmp -s "$actual" "$base.$stream.exact" && return 0
        echo "  $stream differs (- expected, + actual):"
        diff -u "$base.$stream.exact" "$actual" | sed -n '3,40s/^/    /p'
        return 1
    fi
    [ -s "$actual" ] || return 0
    echo "  unexpected $stream:"
    sed -n '1,20s/^/    /p' "$actual"
    return 1
}

for t in "$here"/*/*.sh; do
    [ -f "$t" ] || continue
    name=${t#"$here"/}
    selected "$name" "$@" || continue
    dir=$(mktemp -d "${TMPDIR:-/tmp}/tw-cli.XXXXXX")
    mkdir "$dir/work"
    (cd "$dir/work" && PATH="$pathdirs:$PATH" BUILD="$bindir" DATA="$top/tests/data" EXAMPLES="$top/examples" \
        TOP="$top" LC_ALL=C sh "$t" >"$dir/stdout" 2>"$dir/stderr" </dev/null)
    status=$?
    ok=1
    if [ "$update" -eq 1 ]; then
        if [ "$status" -ne 0 ]; then echo "$status" >"$t.exit"; else rm -f "$t.exit"; fi
    else
        want=0
        [ -f "$t.exit" ] && want=$(cat "$t.exit")
        if [ "$status" != "$want" ]; then
            echo "  exit status $status, expected $want"
            ok=0
        fi
    fi
    compare stdout "$dir/stdout" "$t" || ok=0
    compare stderr "$dir/stderr" "$t" || ok=0
    if [ "$ok" -eq 1 ]; then
        pass=$((pass + 1))
    else
        echo "FAIL $name"
        fail=$((fail + 1))
    fi
    if [ "$preserve" -eq 1 ]; then echo "  scratch: $dir"; else rm -rf "$dir"; fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
