#!/bin/sh
# Static checks (make lint): cppcheck and clang-tidy over src/ and include/.
#
#   sh .ci/lint.sh BUILD_DIR [FILE.c...]
#
# cppcheck (2.10) with .ci/cppcheck-suppressions.txt and inline
# "cppcheck-suppress" comments, clang-tidy (14) with .ci/clang-tidy.yaml
# (--config-file).  Every finding fails: exit status 1.  BUILD_DIR keeps
# cppcheck's incremental cache and the per-file clang-tidy reports.  FILE...
# limits both tools to those sources (default: every src/*/*.c; the headers
# under include/ and src/ are checked through them).  CPPCHECK and CLANG_TIDY
# name the programs, LINT_JOBS (default 2) how many run at once.
set -u
cd "$(dirname "$0")/.." || exit 2
[ $# -ge 1 ] || { echo "usage: $0 BUILD_DIR [FILE.c...]" >&2; exit 2; }
build=$1
shift
cppcheck=${CPPCHECK:-cppcheck}
tidy=${CLANG_TIDY:-clang-tidy}
jobs=${LINT_JOBS:-2}
for t in "$cppcheck" "$tidy"; do
    command -v "$t" >/dev/null 2>&1 ||
        { echo "$t is not installed (Debian: apt-get install cppcheck clang-tidy)" >&2; exit 2; }
done
mkdir -p "$build/cppcheck" "$build/clang-tidy" || exit 2
rm -f "$build"/clang-tidy/*.txt
if [ $# -gt 0 ]; then srcs=$*; else srcs=$(ls src/*/*.c); fi
# what the compiler sees on Linux (see the Makefile's STD and CPPFLAGS)
defs="-D_POSIX_C_SOURCE=200809L -Iinclude -Isrc"
start=$(date +%s)
cpp_status=0
tidy_failed=0

echo "== cppcheck ($("$cppcheck" --version))"
# shellcheck disable=SC2086
if [ $# -gt 0 ]; then targets=$srcs; else targets="src include"; fi
# shellcheck disable=SC2086
"$cppcheck" -q --error-exitcode=1 --enable=warning,style,performance,portability \
    --inline-suppr --suppressions-list=.ci/cppcheck-suppressions.txt \
    --std=c11 --library=posix --platform=unix64 $defs \
    -D__SIZEOF_INT128__=16 -DMADV_SEQUENTIAL=2 -DMADV_DONTNEED=4 \
    --cppcheck-build-dir="$build/cppcheck" -j "$jobs" \
    --template='{file}:{line}:{column}: {severity}: {message} [{id}]' $targets ||
    cpp_status=1

echo "== clang-tidy ($("$tidy" --version | sed -n 's/.*LLVM version \([0-9.]*\).*/\1/p'))"
# one report per source, LINT_JOBS at a time; a failed run keeps its report
# shellcheck disable=SC2086
printf '%s\n' $srcs | xargs -P "$jobs" -I '{}' sh -c '
    out="$1/clang-tidy/$(printf "%s" "$3" | tr / _).txt"
    "$2" -quiet --config-file=.ci/clang-tidy.yaml "$3" -- -std=c11 $4 >"$out.tmp" 2>&1 &&
        exit 0
    mv "$out.tmp" "$out"
    exit 1' sh "$build" "$tidy" '{}' "$defs"
rm -f "$build"/clang-tidy/*.tmp
for r in "$build"/clang-tidy/*.txt; do
    [ -f "$r" ] || continue
    grep -v '^[0-9][0-9]* warnings\{0,1\} \(generated\|treated as errors\)\.$' "$r" |
        grep -v '^Error while processing ' || true
    tidy_failed=$((tidy_failed + 1))
done

if [ "$cpp_status" -eq 0 ]; then cpp="no finding"; else cpp="findings (above)"; fi
nsrcs=$(printf '%s\n' $srcs | wc -l)
echo "== lint: cppcheck: $cpp; clang-tidy: $tidy_failed of $((nsrcs + 0)) files with findings" \
    "($(($(date +%s) - start)) s)"
[ "$cpp_status" -eq 0 ] && [ "$tidy_failed" -eq 0 ]
