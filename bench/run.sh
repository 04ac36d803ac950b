#!/bin/sh
# The benchmark: tracewright against the limits of the machine and against
# the awk script a user would write instead, on generated inputs.
#
#   sh bench/run.sh BUILD_DIR [options]
#     --size SIZE      input size per format (default 1G; k, M, G = 10^3, 10^6, 10^9)
#     --seed N         generator seed (default 1)
#     --runs N         runs of each command; the median is reported (default 3)
#     --formats "F.."  formats to run (default: rtl lms coreprofiler text1 text1-bin stacktrack)
#     --data DIR       where the generated inputs are kept (default BUILD_DIR/bench-data);
#                      an input is generated once per (format, size, seed)
#     --no-awk         skip the awk script (it takes minutes on 1 GB)
#     --no-untuned     skip the untuned C (bench/untuned.c)
#     --rss-sizes "S.." instead of the table: peak RSS of `stats`,
#                      `convert -t chrome` and `stats -` (a pipe) on each size
#                      (e.g. "100M 1G 10G"), and whether it stays within the
#                      targets (at most 8 MiB, flat: exit status 1 if not)
#     --rss-limit KIB  with --rss-sizes: the most a peak may be (default 8192)
#     --rss-slack KIB  with --rss-sizes: the most a command's peak may grow
#                      from the smallest size to the largest (default 2048)
#     --instr          instead of the table: instructions per event under
#                      callgrind (valgrind) on a 5 MB input of each format, of
#                      stats, convert -t chrome, -t jsonl and -t rtl (rtl: -t lms)
#
# The table gives, per format and command: the median wall time, MB/s of
# input, million events/s, peak RSS (getrusage, mapped file pages count),
# the time as a multiple of `wc -l`'s, and how many times faster than awk
# and than the untuned C (bench/untuned.c: the same statistics in plain C,
# for rtl, lms, stacktrack and text1-bin; the targets ask for twice its
# speed).
# A convert row ends with its output's size (from an untimed run into
# `wc -c`) and the issue's rule of thumb for it: no more than `stats` plus
# writing that output at 2 GB/s, the sum in seconds, "met" or "not met".
# "read only" is the reading alone (bench/drain.c: the events are read
# through the library on one thread and dropped), the floor under `stats`.
# Inputs are read from the page cache (each is read through, untimed,
# before every run: measure -w);
# output goes to /dev/null, the commands' warnings to DATA/stderr.log.
# Everything is synthetic (bench/gen.c).  Disk: the inputs, and for
# `convert -t chrome` a temporary spool of the events of every thread but
# the first (about a tenth of a text1 input's size to half a stacktrack
# input's, in $TMPDIR or /tmp).
set -eu

[ $# -ge 1 ] || { awk 'NR > 1 && /^set -eu/ { exit } NR > 1' "$0" >&2; exit 2; }
build=$(cd "$1" && pwd)
shift
here=$(cd "$(dirname "$0")" && pwd)
size=1G
seed=1
runs=3
formats="rtl lms coreprofiler text1 text1-bin stacktrack"
data=$build/bench-data
awk_too=1
untuned_too=1
rss_sizes=
rss_limit=8192
rss_slack=2048
instr=0
while [ $# -gt 0 ]; do
    case "$1" in
    --size) size=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --formats) formats=$2; shift 2 ;;
    --data) data=$2; shift 2 ;;
    --rss-limit) rss_limit=$2; shift 2 ;;
    --rss-slack) rss_slack=$2; shift 2 ;;
    --no-awk) awk_too=0; shift ;;
    --no-untuned) untuned_too=0; shift ;;
    --rss-sizes) rss_sizes=$2; shift 2 ;;
    --instr) instr=1; shift ;;
    *) echo "bench/run.sh: unknown option '$1'" >&2; exit 2 ;;
    esac
done

tw=$build/tracewright
gen=$build/bench/gen
measure=$build/bench/measure
drain=$build/bench/drain
untuned=$build/bench/untuned
for b in "$tw" "$gen" "$measure" "$drain" "$untuned"; do
    [ -x "$b" ] || { echo "bench/run.sh: $b is missing (make bench builds it)" >&2; exit 2; }
done
mkdir -p "$data"

# The file name of a format's input (the reader is picked by its extension).
ext_of() {
    case "$1" in
    rtl) echo log ;;
    lms) echo csv ;;
    coreprofiler) echo tracelog ;;
    text1) echo txt ;;
    text1-bin) echo txt.BIN ;;
    stacktrack) echo tlg ;;
    *) echo "bench/run.sh: unknown format '$1'" >&2; exit 2 ;;
    esac
}
input_of() { echo "$data/$1-$2-seed$seed.$(ext_of "$1")"; }
# The option `stats` reading format $1 from a pipe needs besides `-f $1 -`,
# if any: a .BIN's companion text export ($2 less its .BIN), which a pipe
# has none beside.  Passed as ${opt:+"$opt"}: one word, or none.
pipe_opt() {
    if [ "$1" = text1-bin ]; then echo "--names=${2%.BIN}"; fi
}

# Generate (once) the input of format $1 and size $2.
make_input() {
    f=$(input_of "$1" "$2")
    if [ ! -e "$f.done" ]; then  # (a .BIN's companion x.txt is written beside it)
        echo "generating $f" >&2
        "$gen" "$1" "$2" "$seed" "$f"
        : > "$f.done"
    fi
    cat "$f" > /dev/null  # into the page cache
    echo "$f"
}

# The one conversion between two of the five formats, per source format.
other_of() {
    case "$1" in
    rtl) echo lms ;;
    *) echo rtl ;;
    esac
}

# Events in an input, counted once (cached beside it): the lines of its
# jsonl, less the first (the trace record).
events_of() {
    if [ ! -s "$1.events" ]; then
        n=$("$tw" convert -t jsonl --no-progress "$1" 2>/dev/null | wc -l | tr -d ' ')
        echo $((n - 1)) > "$1.events"
    fi
    cat "$1.events"
}

bytes_of() { wc -c < "$1" | tr -d ' '; }

if [ "$instr" = 1 ]; then
    command -v valgrind > /dev/null || { echo "bench/run.sh: valgrind is needed for --instr" >&2; exit 2; }
    printf '%-13s %10s %12s %12s %12s %12s %12s\n' format events stats chrome jsonl "to rtl/lms" \
        "untuned C"
    per_event() {  # callgrind's count of a run of "$@", per event of the input
        ir=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 > /dev/null |
                 sed -n 's/.*Collected : *\([0-9]*\).*/\1/p')
        awk -v ir="$ir" -v n="$n" 'BEGIN { printf "%12.1f", ir / n }'
    }
    for fmt in $formats; do
        f=$(make_input "$fmt" 5M)
        n=$(events_of "$f")
        line=$(printf '%-13s %10s' "$fmt" "$n")
        for cmd in "stats" "convert -t chrome" "convert -t jsonl" "convert -t $(other_of "$fmt")"; do
            # shellcheck disable=SC2086
            line="$line $(per_event "$tw" $cmd --threads 1 --no-progress "$f")"
        done
        case "$fmt" in
        rtl | lms | stacktrack | text1-bin) line="$line $(per_event "$untuned" "$fmt" "$f")" ;;
        *) line="$line $(printf '%12s' -)" ;;
        esac
        echo "$line"
    done
    echo "(instructions per event: callgrind's total for the run divided by the events of the input)"
    exit 0
fi

if [ -n "$rss_sizes" ]; then
    # The targets: at most 8 MiB, the same on every size.  A format fails
    # when a peak passes 8192 KiB, or when a command's peak on the largest
    # input is more than 2048 KiB above its peak on the smallest (the
    # defaults of --rss-limit and --rss-slack; how many of the mapped
    # input's pages count varies by about 1.5 MiB from run to run and file
    # to file; memory that grew with the input would grow by megabytes per
    # gigabyte), or when a command fails.  Exit status 1 when one fails.
    # peak MEASURE-ARGS: one run's peak RSS in KiB and exit status
    peak() {
        set -- $("$measure" -r 1 -w "$f" "$@" 2>>"$data/stderr.log")
        echo "$3 $4"
    }
    printf '%-13s %8s %14s %14s %14s\n' format size "stats KiB" "chrome KiB" "stdin KiB"
    failed=0
    for fmt in $formats; do
        rows=  # per size: "bytes size peak peak peak status status status"
        for s in $rss_sizes; do
            f=$(make_input "$fmt" "$s")
            opt=$(pipe_opt "$fmt" "$f")
            set -- $(peak -- "$tw" stats --no-progress "$f") \
                $(peak -- "$tw" convert -t chrome --no-progress "$f") \
                $(peak -p "$f" -- "$tw" stats --no-progress -f "$fmt" ${opt:+"$opt"} -)
            printf '%-13s %8s %14s %14s %14s\n' "$fmt" "$s" "$1" "$3" "$5"
            rows="$rows$(bytes_of "$f") $s $1 $3 $5 $2 $4 $6
"
        done
        verdict=$(printf '%s' "$rows" | awk -v limit="$rss_limit" -v slack="$rss_slack" '
        { n++; for (i = 1; i <= 8; i++) r[n, i] = $i
          if (!lo || $1 + 0 < r[lo, 1]) lo = n
          if (!hi || $1 + 0 >= r[hi, 1]) hi = n }
        END {
            top = 0; grow = 0; bad = ""
            for (k = 1; k <= n; k++) {
                for (i = 3; i <= 5; i++) if (r[k, i] + 0 > top) top = r[k, i] + 0
                for (i = 6; i <= 8; i++)
                    if (r[k, i] != 0) bad = sprintf("%s; %s, %s: exit status %s", bad, r[k, 2],
                                                    i == 6 ? "stats" : i == 7 ? "chrome" : "stdin", r[k, i])
            }
            for (i = 3; i <= 5; i++) if (r[hi, i] - r[lo, i] > grow) grow = r[hi, i] - r[lo, i]
            printf "%s: peak at most %d KiB (%d asked); %s against %s: %+d KiB at most (%d allowed)%s",
                top <= limit && grow <= slack && bad == "" ? "ok" : "FAILED", top, limit,
                r[hi, 2], r[lo, 2], grow, slack, bad
        }')
        echo "$fmt: $verdict"
        case "$verdict" in FAILED*) failed=1 ;; esac
    done
    exit "$failed"
fi

echo "tracewright benchmark: $(uname -srm), $(nproc 2>/dev/null || echo '?') cores, size $size, seed $seed, median of $runs runs"
printf '%-13s %-22s %9s %9s %9s %10s %8s %8s %8s\n' format command seconds MB/s "M ev/s" "RSS KiB" "x wc -l" \
    "awk/x" "unt/x"
for fmt in $formats; do
    f=$(make_input "$fmt" "$size")
    bytes=$(bytes_of "$f")
    n=$(events_of "$f")
    other=$(other_of "$fmt")
    wc_s=
    awk_s=
    unt_s=
    stats_s=
    out_b=
    row() {  # label, then measure's arguments; the commands' warnings go to a log
        label=$1
        shift
        # -w: the input is read into the page cache before every run
        set -- $("$measure" -r "$runs" -w "$f" "$@" 2>>"$data/stderr.log")
        secs=$1
        rss=$3
        status=$4
        [ -n "$wc_s" ] || wc_s=$secs
        awk -v fmt="$fmt" -v label="$label" -v s="$secs" -v b="$bytes" -v n="$n" -v rss="$rss" \
            -v wc="$wc_s" -v aw="${awk_s:-0}" -v un="${unt_s:-0}" -v st="$status" \
            -v ss="${stats_s:-0}" -v ob="${out_b:-0}" 'BEGIN {
            if (s <= 0) s = 1e-6
            ratio = sprintf("%.2f", s / wc)
            faster = aw > 0 ? sprintf("%.1f", aw / s) : "-"
            unfaster = un > 0 && label ~ /^(stats|read)/ ? sprintf("%.2f", un / s) : "-"
            note = st == 0 || label ~ /^(wc|cat|awk)/ ? "" : sprintf("  (exit %d)", st)
            if (ob > 0 && ss > 0) {  # from the figures as printed, so that they add up
                thumb = sprintf("%.4f", sprintf("%.3f", ss) + ob / 2e9)
                note = note sprintf("  output %.3f MB, stats + output at 2 GB/s %s s: %s", ob / 1e6,
                                    thumb, sprintf("%.3f", s) + 0 <= thumb + 0 ? "met" : "not met")
            }
            printf "%-13s %-22s %9.3f %9.0f %9.2f %10d %8s %8s %8s%s\n", fmt, label, s, b / s / 1e6,
                   n / s / 1e6, rss, ratio, faster, unfaster, note
        }'
        [ "$label" != awk ] || awk_s=$secs
        [ "$label" != "untuned C" ] || unt_s=$secs
        [ "$label" != stats ] || stats_s=$secs
    }
    conv() {  # a convert row, with its output's size from an untimed run
        out_b=$("$tw" convert -t "$1" --no-progress "$f" 2>/dev/null | wc -c | tr -d ' ')
        row "convert -t $1" -- "$tw" convert -t "$1" --no-progress "$f"
        out_b=
    }
    row "wc -l" -- wc -l "$f"
    row "cat >/dev/null" -- cat "$f"
    if [ "$awk_too" = 1 ] && [ "$fmt" != stacktrack ] && [ "$fmt" != text1-bin ]; then
        row awk -- awk -v fmt="$fmt" -f "$here/scope-stats.awk" "$f"
    fi
    # the same statistics in plain, untuned C: the yardstick of the targets
    case "$fmt" in
    rtl | lms | stacktrack | text1-bin)
        [ "$untuned_too" = 0 ] || row "untuned C" -- "$untuned" "$fmt" "$f" ;;
    esac
    # by default (--threads auto) a second thread reads ahead when two CPUs
    # are usable; the row after it is one thread throughout
    row "stats" -- "$tw" stats --no-progress "$f"
    row "stats --threads 1" -- "$tw" stats --threads 1 --no-progress "$f"
    # the reading alone, one thread, events dropped (bench/drain.c): the
    # floor under every command that reads the input on one thread
    row "read only" -- "$drain" "$f"
    opt=$(pipe_opt "$fmt" "$f")
    row "stats (stdin pipe)" -p "$f" -- "$tw" stats --no-progress -f "$fmt" ${opt:+"$opt"} -
    conv chrome
    conv jsonl
    conv "$other"
done
set -- $("$measure" -r 200 -- "$tw" stats --no-progress -f rtl -)
echo "start-up: stats on an empty input, median of 200 runs: $(awk -v s="$1" 'BEGIN { printf "%.2f ms", s * 1000 }')"
