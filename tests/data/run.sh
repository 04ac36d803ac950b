#!/bin/sh
# Fixture-driven tests over tests/data/FORMAT/{good,bad}/.
#
# For every fixture X (any file that is not an expectation) the runner
# converts it to the canonical stream, from the fixture's own directory:
#     tracewright convert -f FORMAT -t jsonl [$(cat X.args)] X
# and compares with
#     X.expected   standard output (the jsonl), byte for byte (absent: empty)
#     X.stderr     diagnostics, byte for byte (absent: none; required in bad/)
#     X.exit       exit status (absent: 0)
# Files matching a pattern in FORMAT/companions.list are inputs a reader
# loads beside a fixture (a .BIN timeline's text export), not fixtures.
# FORMAT/rules.list names, for every rule the format's checks can report,
# a fixture that breaks it ("RULE FIXTURE [ARGS...]", or "RULE n/a REASON"
# where the format cannot break it; RULE+VARIANT for a second fixture).  Fixtures that only validate finds
# fault with (pairing, UTF-8) live in FORMAT/rules/.  `tracewright validate
# -f FORMAT` on the fixture must write FORMAT/rules/RULE.validate.txt (with
# the exit status), .validate.jsonl and .validate.sarif (without the rules
# table, which validate/sarif.sh checks whole) byte for byte, the text must
# contain [RULE], and the SARIF log must pass tests/tools/sarif-check.
# Then, for every fixture named in FORMAT/roundtrip.list, FORMAT -> jsonl ->
# FORMAT must reproduce the fixture byte for byte without any diagnostic
# beyond the fixture's own X.stderr, and
# every .expected file must come back unchanged through jsonl -> jsonl.
#
#   sh tests/data/run.sh [--update] BUILD_DIR [SUBSTRING...]
# TW_WRAP_DIR=DIR runs DIR/tracewright in place of BUILD_DIR/tracewright
# (make valgrind: a wrapper running the binary under valgrind).
set -u
update=0
[ "${1:-}" = "--update" ] && { update=1; shift; }
[ $# -ge 1 ] || { echo "usage: $0 [--update] BUILD_DIR [SUBSTRING...]" >&2; exit 2; }
bin=$(cd "${TW_WRAP_DIR:-$1}" && pwd)/tracewright || exit 2
sarif_check=$(cd "$1" && pwd)/sarif-check
shift
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tw-data.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0

selected() {
    [ $# -eq 0 ] && return 0
    for pat in "$@"; do
        case "$name" in *"$pat"*) return 0 ;; esac
    done
    return 1
}

ok() { pass=$((pass + 1)); }
bad() {
    echo "FAIL $name: $1"
    [ -n "${2:-}" ] && sed -n '1,30s/^/    /p' "$2"
    fail=$((fail + 1))
}

# same_quiet WANT GOT ERR WHAT: GOT must equal WANT and ERR must be empty
same_quiet() {
    if ! cmp -s "$1" "$2"; then
        diff -u "$1" "$2" | sed -n '3,30p' >"$tmp/diff"
        bad "$4 differs" "$tmp/diff"
    elif [ -s "$3" ]; then
        bad "$4 reported diagnostics" "$3"
    else
        ok
    fi
}

# expect FILE ACTUAL: compare, or rewrite in --update mode
expect() {
    if [ "$update" -eq 1 ]; then
        if [ -s "$2" ]; then cp "$2" "$1"; else rm -f "$1"; fi
        return 0
    fi
    if [ -f "$1" ]; then
        cmp -s "$1" "$2" && return 0
        diff -u "$1" "$2" | sed -n '3,30p' >"$tmp/diff"
        return 1
    fi
    [ -s "$2" ] && { cp "$2" "$tmp/diff"; return 1; }
    return 0
}

# is_companion FMTDIR FILE: FILE matches a pattern of FMTDIR/companions.list,
# a file the reader loads beside a fixture (not a fixture itself)
is_companion() {
    [ -f "${1}companions.list" ] || return 1
    while read -r pat; do
        case "$pat" in "" | "#"*) continue ;; esac
        # shellcheck disable=SC2254
        case "$(basename "$2")" in $pat) return 0 ;; esac
    done <"${1}companions.list"
    return 1
}

for fmtdir in "$here"/*/; do
    fmt=$(basename "$fmtdir")
    for kind in good bad; do
        for x in "$fmtdir$kind"/*; do
            [ -f "$x" ] || continue
            case "$x" in *.expected | *.stderr | *.exit | *.args | *.md) continue ;; esac
            is_companion "$fmtdir" "$x" && continue
            name="$fmt/$kind/$(basename "$x")"
            selected "$@" || continue
            args=""
            [ -f "$x.args" ] && args=$(cat "$x.args")
            # shellcheck disable=SC2086
            (cd "$(dirname "$x")" && LC_ALL=C "$bin" convert -f "$fmt" -t jsonl $args \
                "$(basename "$x")" >"$tmp/out" 2>"$tmp/err")
            status=$?
            if [ "$update" -eq 1 ]; then
                if [ "$status" -ne 0 ]; then echo "$status" >"$x.exit"; else rm -f "$x.exit"; fi
            fi
            want=0
            [ -f "$x.exit" ] && want=$(cat "$x.exit")
            if [ "$status" != "$want" ]; then
                bad "exit status $status, expected $want" "$tmp/err"
                continue
            fi
            if ! expect "$x.expected" "$tmp/out"; then
                bad "output differs" "$tmp/diff"
                continue
            fi
            if ! expect "$x.stderr" "$tmp/err"; then
                bad "diagnostics differ" "$tmp/diff"
                continue
            fi
            if [ "$kind" = bad ] && [ ! -s "$tmp/err" ]; then
                bad "a bad fixture must produce diagnostics"
                continue
            fi
            ok
        done
    done
    # validate: one fixture per rule, in the three output forms
    if [ -f "${fmtdir}rules.list" ]; then
        while read -r rule fix rargs; do
            case "$rule" in "" | "#"*) continue ;; esac
            [ "$fix" = "n/a" ] && continue
            name="$fmt/rules/$rule"
            selected "$@" || continue
            x="${fmtdir}$fix"
            if [ ! -f "$x" ]; then
                bad "fixture $fix is missing"
                continue
            fi
            mkdir -p "${fmtdir}rules"
            for form in text json sarif; do
                # shellcheck disable=SC2086
                (cd "$(dirname "$x")" && LC_ALL=C "$bin" validate -f "$fmt" --format "$form" \
                    $rargs "$(basename "$x")" >"$tmp/v.$form" 2>"$tmp/v.err")
                echo "exit $?" >"$tmp/v.$form.exit"
            done
            if ! "$sarif_check" "$tmp/v.sarif" >"$tmp/diff" 2>&1; then
                bad "the SARIF log fails sarif-check" "$tmp/diff"
                continue
            fi
            # the text form keeps its exit status; the rules table is cut
            cat "$tmp/v.text.exit" >>"$tmp/v.text"
            grep -v '^      {"id":' "$tmp/v.sarif" >"$tmp/v.sarif.cut"
            okr=1
            for pair in "validate.txt:text" "validate.jsonl:json" "validate.sarif:sarif.cut"; do
                if ! expect "${fmtdir}rules/$rule.${pair%%:*}" "$tmp/v.${pair#*:}"; then
                    bad "validate --format ${pair#*:} differs" "$tmp/diff"
                    okr=0
                    break
                fi
            done
            [ "$okr" -eq 1 ] || continue
            if ! grep -q "\[${rule%%+*}\]" "$tmp/v.text"; then
                bad "the fixture does not break the rule"
                continue
            fi
            ok
        done <"${fmtdir}rules.list"
    fi
    # FORMAT -> jsonl -> FORMAT reproduces canonical fixtures byte for byte
    if [ -f "${fmtdir}roundtrip.list" ]; then
        while read -r f; do
            case "$f" in "" | "#"*) continue ;; esac
            name="$fmt/roundtrip/$f"
            selected "$@" || continue
            x="${fmtdir}$f"
            if [ ! -f "$x" ]; then
                bad "listed fixture is missing"
                continue
            fi
            (cd "$(dirname "$x")" && "$bin" convert -f "$fmt" -t jsonl "$(basename "$x")" 2>"$tmp/err1" |
                "$bin" convert -f jsonl -t "$fmt" >"$tmp/rt" 2>"$tmp/err2")
            # reading the fixture may report what its .stderr holds (a log
            # without its trailer); writing it back must be quiet
            if [ -f "$x.stderr" ] && cmp -s "$x.stderr" "$tmp/err1"; then
                cp "$tmp/err2" "$tmp/err"
            else
                cat "$tmp/err1" "$tmp/err2" >"$tmp/err"
            fi
            same_quiet "$x" "$tmp/rt" "$tmp/err" "$fmt -> jsonl -> $fmt"
        done <"${fmtdir}roundtrip.list"
    fi
    # jsonl -> jsonl is the identity
    for e in "$fmtdir"good/*.expected "$fmtdir"bad/*.expected; do
        [ -f "$e" ] || continue
        name="$fmt/identity/${e#"$fmtdir"}"
        selected "$@" || continue
        "$bin" convert -f jsonl -t jsonl "$e" >"$tmp/id" 2>"$tmp/err"
        same_quiet "$e" "$tmp/id" "$tmp/err" "jsonl -> jsonl"
    done
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
