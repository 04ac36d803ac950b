# -v: once a command has read its inputs, one line on standard error says
# how much was read, in how long, and on how many threads and why.  The
# times and rates vary from run to run: they are shown here as "in T".
# The default is --threads auto: a second thread when two CPUs are usable
# and the inputs hold 8 MiB or more.  The 8.6 MiB log is synthetic, made
# by the benchmark's generator (bench/gen.c).
unset TRACEWRIGHT_THREADS  # (the suite runs again with it set to 2)
"$BUILD/bench/gen" rtl 9M 3 big.log || echo "gen failed"
cp "$EXAMPLES/control-loop.csv" "$EXAMPLES/office-startup_4711.log" .
untimed() {
    sed -E 's/ in [0-9]+\.[0-9]{3} s \([0-9.]+ [KMGTPE]?i?B\/s, [0-9.]+ ([kMG] )?events\/s\)/ in T/'
}
run() {
    "$@" 2>err >/dev/null
    echo "$* (exit $?):"
    untimed <err | sed 's/^/  /'
}

run tracewright stats -v --threads 1 control-loop.csv
run env TRACEWRIGHT_THREADS=1 tracewright stats --verbose control-loop.csv
# the option given wins over the environment
run env TRACEWRIGHT_THREADS=1 tracewright stats -v --threads 2 control-loop.csv
run tracewright stats -v --threads 1 control-loop.csv office-startup_4711.log
run tracewright validate -v --threads 2 control-loop.csv office-startup_4711.log
run tracewright compare -v --threads 1 office-startup_4711.log office-startup_4711.log
run tracewright convert -v --threads 2 -t jsonl control-loop.csv
run tracewright convert -v --threads 2 -t text1 control-loop.csv
# a reading stopped by an error is summed up too (the error first); an
# input that cannot be opened is not
head -c 30 office-startup_4711.log >cut_4711.log
run tracewright stats -v --threads 1 -f rtl cut_4711.log
run tracewright stats -v --threads 1 cut_4711.log
run tracewright stats -v --threads 1 missing.log

# auto on one CPU: the first this process may use
cpu=$(awk '/^Cpus_allowed_list:/ { split($2, a, /[,-]/); print a[1] }' /proc/self/status)
taskset -c "$cpu" tracewright stats -v big.log 2>err >/dev/null
echo "stats -v big.log on one CPU (exit $?):"
untimed <err | sed 's/^/  /'

# auto by default, on the CPUs this test may use: its affinity, capped by a
# cgroup v2 quota, as tracewright counts them
cpus=$(env -u OMP_NUM_THREADS -u OMP_THREAD_LIMIT nproc)
if [ -r /sys/fs/cgroup/cpu.max ]; then
    read -r quota period </sys/fs/cgroup/cpu.max
    if [ "$quota" != max ] && [ $((quota / period)) -lt "$cpus" ]; then
        cpus=$((quota / period))
        [ "$cpus" -ge 1 ] || cpus=1
    fi
fi
if [ "$cpus" -ge 2 ]; then
    big="a second thread read ahead"
    small="one thread: under 8 MiB of input"
    # (chrome then renders what it held back on two threads as well)
    bigchrome="$big, and the chrome writer finished on two"
else
    big="one thread: 1 CPU usable"
    small=$big
    bigchrome=$big
fi
# expect WHAT COMMAND...: the line ends as WHAT says
expect() {
    want=$1
    shift
    "$@" 2>err >/dev/null
    rc=$?
    line=$(untimed <err)
    case "$line" in
    *"; $want") echo "$* (exit $rc): as expected on the CPUs usable" ;;
    *) echo "$*: '$line' does not end with '$want'" ;;
    esac
}
expect "$big" tracewright stats -v big.log
expect "$bigchrome" tracewright convert -v -t chrome big.log
expect "$small" tracewright stats -v control-loop.csv
# a pipe: after its first 8 MiB
cat big.log | expect "$big" tracewright stats -v -
head -c 8000000 big.log | expect "$small" tracewright stats -v -
# auto measures, as it reads, whether the second thread pays, and reads on
# one thread while it does not (probes of a few ms compare the two); -v then
# says how much one thread read.  On inputs this small it never probes;
# TRACEWRIGHT_TEST_SWITCH=N (for the tests) switches every N batches
# instead of measuring, and -v counts the stretches read on one thread in
# turn as probes ("to compare") and as kept ("read faster"): the log's 243
# batches hold many stretches of 8, and one of 150 after the first.  How
# much each thread reads varies with how far the second had read ahead
# when asked to stop: the shares are shown as P.
for n in 8 150; do
    TRACEWRIGHT_TEST_SWITCH=$n tracewright stats -v --threads 2 big.log 2>err >/dev/null
    echo "TRACEWRIGHT_TEST_SWITCH=$n tracewright stats -v --threads 2 big.log (exit $?):"
    untimed <err | sed -E 's/[0-9]+ %/P %/g; s/^/  /'
done
# the output is the same whatever the number of threads
tracewright stats big.log >auto.out
tracewright stats --threads 1 big.log >one.out
cmp -s auto.out one.out && echo "stats big.log: the same report as with --threads 1"
# a conversion stopped by its output (a full disk) counts the events it
# used, the same on one thread and two (the size read is the batch's)
for t in 1 2; do
    tracewright convert -v --threads "$t" -t jsonl -o /dev/full big.log 2>err >/dev/null
    echo "convert -v --threads $t -t jsonl -o /dev/full big.log (exit $?):"
    untimed <err | sed -E 's/: [0-9.]+ [KMG]?i?B, /: SIZE, /; s/^/  /'
done
