#!/bin/sh
# Fuzz targets: replay and fuzzing runs.  Used by the Makefile.
#
#   sh tests/fuzz/run.sh replay BUILD_DIR
#       Run every target's replay program (BUILD_DIR/fuzz/<target>, built
#       with the sanitizers) over its seed corpus tests/fuzz/corpus/<target>
#       and the inputs that once broke it, tests/fuzz/crashes/<target>.
#       Ends with "N passed, N failed".
#   sh tests/fuzz/run.sh fuzz BUILD_DIR SECONDS [TARGET...]
#       Run each libFuzzer binary for SECONDS, FUZZ_JOBS (default 2) at a
#       time.  The working corpus BUILD_DIR/fuzz-corpus/<target> starts from
#       the seeds and keeps growing from run to run; what a target finds to
#       break goes to BUILD_DIR/fuzz-artifacts/<target>/.  Prints one line
#       per target (runs, coverage, corpus, crashes); exit 1 on any crash.
#   sh tests/fuzz/run.sh need-clang [CC]
#       Make sure CC (default clang) links libFuzzer programs; install clang
#       and its sanitizer and libFuzzer runtime from Debian when it does not.
set -u
here=$(cd "$(dirname "$0")" && pwd)
mode=${1:-}

targets_of() {
    for f in "$here"/fuzz_*.c; do
        t=${f##*/fuzz_}
        t=${t%.c}
        [ "$t" = common ] || echo "$t"
    done
}

links_fuzzer() {
    tmp=$(mktemp -d) || return 1
    printf '%s\n' '#include <stddef.h>' '#include <stdint.h>' \
        'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }' \
        >"$tmp/t.c"
    "$1" -fsanitize=fuzzer,address,undefined -o "$tmp/t" "$tmp/t.c" >/dev/null 2>&1
    ok=$?
    rm -rf "$tmp"
    return $ok
}

case $mode in
need-clang)
    cc=${2:-clang}
    links_fuzzer "$cc" && exit 0
    echo "$cc cannot link libFuzzer programs; installing clang from Debian" >&2
    if [ "$(id -u)" -eq 0 ]; then sudo=; else sudo=sudo; fi
    $sudo apt-get update -qq && $sudo apt-get install -y -qq clang libclang-rt-dev || exit 2
    links_fuzzer "$cc" || { echo "$cc still cannot link libFuzzer programs" >&2; exit 2; }
    ;;
replay)
    build=$2
    pass=0
    fail=0
    for t in $(targets_of); do
        bin=$build/fuzz/$t
        for set in corpus crashes; do
            dir=$here/$set/$t
            [ -d "$dir" ] || continue
            if out=$("$bin" "$dir" 2>&1); then
                pass=$((pass + 1))
                echo "ok   $t $set: $(printf '%s\n' "$out" | tail -n 1)"
            else
                fail=$((fail + 1))
                echo "FAIL $t $set"
                printf '%s\n' "$out" | tail -n 40 | sed 's/^/     /'
            fi
        done
    done
    echo "$pass passed, $fail failed"
    [ "$fail" -eq 0 ]
    ;;
fuzz)
    build=$2
    secs=$3
    shift 3
    [ $# -gt 0 ] || set -- $(targets_of)
    jobs=${FUZZ_JOBS:-2}
    mkdir -p "$build/fuzz-logs"
    one() {
        t=$1
        corpus=$build/fuzz-corpus/$t
        art=$build/fuzz-artifacts/$t
        rm -rf "$art"
        mkdir -p "$corpus" "$art"
        dict=
        [ -f "$here/dict/$t.dict" ] && dict=-dict=$here/dict/$t.dict
        "$build/fuzz/$t" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
            -print_final_stats=1 -artifact_prefix="$art/" $dict \
            "$corpus" "$here/corpus/$t" >"$build/fuzz-logs/$t.log" 2>&1
        echo $? >"$build/fuzz-logs/$t.rc"
    }
    running=0
    for t in "$@"; do
        one "$t" &
        running=$((running + 1))
        if [ "$running" -ge "$jobs" ]; then
            wait
            running=0
        fi
    done
    wait
    status=0
    printf '%-14s %12s %8s %8s %8s %8s\n' target runs exec/s cov ft crashes
    for t in "$@"; do
        log=$build/fuzz-logs/$t.log
        runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
        speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
        last=$(grep -E '^#[0-9]+' "$log" | tail -n 1)
        cov=$(printf '%s\n' "$last" | sed -n 's/.* cov: \([0-9]*\).*/\1/p')
        ft=$(printf '%s\n' "$last" | sed -n 's/.* ft: \([0-9]*\).*/\1/p')
        crashes=$(ls "$build/fuzz-artifacts/$t" 2>/dev/null | wc -l)
        printf '%-14s %12s %8s %8s %8s %8s\n' "$t" "${runs:-?}" "${speed:-?}" "${cov:-?}" \
            "${ft:-?}" "$crashes"
        if [ "$(cat "$build/fuzz-logs/$t.rc")" -ne 0 ] || [ "$crashes" -ne 0 ]; then
            status=1
            echo "  $t: see $log and $build/fuzz-artifacts/$t/" >&2
        fi
    done
    exit $status
    ;;
*)
    echo "usage: sh tests/fuzz/run.sh replay BUILD | fuzz BUILD SECONDS [TARGET...] | need-clang [CC]" >&2
    exit 2
    ;;
esac
