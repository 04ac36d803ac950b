# Ended by a signal (TERM, HUP; INT alike, which a background job of a
# script ignores), a conversion leaves no temporary file or directory: the
# output is there complete or not at all.  The input comes through a pipe
# that stalls after 1 MB (a log made by the benchmark's generator,
# bench/gen.c), so the signal comes while the output is being written.
"$BUILD/bench/gen" rtl 1M 5 big.log || echo "gen failed"
mkfifo feed
# end SIG TO: convert to TO into out/, send SIG once the output is open,
# print the exit status and what is left in out/
end() {
    mkdir out
    tracewright convert -f rtl -t "$2" -o "out/run.$2" - <feed 2>/dev/null &
    tw=$!
    { cat big.log; exec sleep 60; } >feed &
    feeder=$!
    n=0
    while [ -z "$(ls -A out)" ] && [ $n -lt 300 ]; do sleep 0.1; n=$((n + 1)); done
    sleep 0.2
    kill -"$1" $tw
    wait $tw 2>/dev/null
    echo "$1 $2: exit $?, left: $(ls -A out | wc -l)"
    kill $feeder
    wait $feeder 2>/dev/null
    rm -r out
}
for sig in TERM HUP; do
    for to in jsonl ctf chrome; do end $sig $to; done
done
# SIGBUS sent by another program (not a fault of a mapped input) ends the
# run as it would without tracewright's handler for cut inputs (what it
# leaves is not looked at: that signal has no cleaning up)
end BUS jsonl | sed 's/, left: .*//'
