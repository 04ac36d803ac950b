#!/bin/sh
# Runs every test suite against the binaries in BUILD_DIR and ends with the
# combined line "N passed, N failed".  Exit status 0 only when nothing failed.
# The fixture and CLI suites run twice: with TRACEWRIGHT_THREADS=1 (one
# thread) and =2 (reading ahead on a second thread), the two choices of
# --threads auto (the default), whatever the machine it runs on would pick.
#
#   sh tests/run.sh [BUILD_DIR [SAN_BUILD_DIR]]   (default: build build-san)
#
# SAN_BUILD_DIR holds the fuzz targets built as plain programs under
# AddressSanitizer + UBSan (make replay); they replay the seed corpora and
# every input that once broke a target.
set -u
build=${1:-build}
san=${2:-build-san}
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "$build" && pwd) || exit 2
san=$(cd "$san" && pwd) || exit 2
total_pass=0
total_fail=0

run_suite() {
    title=$1
    shift
    echo "== $title"
    out=$("$@" 2>&1)
    status=$?
    printf '%s\n' "$out"
    last=$(printf '%s\n' "$out" | tail -n 1)
    p=$(printf '%s\n' "$last" | sed -n 's/^\([0-9][0-9]*\) passed, \([0-9][0-9]*\) failed$/\1/p')
    f=$(printf '%s\n' "$last" | sed -n 's/^\([0-9][0-9]*\) passed, \([0-9][0-9]*\) failed$/\2/p')
    if [ -z "$p" ]; then
        echo "suite '$title' did not report its results (exit status $status)"
        p=0
        f=1
    elif [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; then
        f=1
    fi
    total_pass=$((total_pass + p))
    total_fail=$((total_fail + f))
}

run_suite "unit tests" "$build/unit-tests"
run_suite "fixture tests" env TRACEWRIGHT_THREADS=1 sh "$here/data/run.sh" "$build"
run_suite "cli tests" env TRACEWRIGHT_THREADS=1 sh "$here/cli/run.sh" "$build"
# the same expectations with the events read ahead on a second thread
# (--threads 2): output and diagnostics must not change by a byte
run_suite "fixture tests, 2 threads" env TRACEWRIGHT_THREADS=2 sh "$here/data/run.sh" "$build"
run_suite "cli tests, 2 threads" env TRACEWRIGHT_THREADS=2 sh "$here/cli/run.sh" "$build"
run_suite "fuzz replay (ASan + UBSan)" sh "$here/fuzz/run.sh" replay "$san"
echo
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
