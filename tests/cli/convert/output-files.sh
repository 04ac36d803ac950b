# What -o does with the file system around the output.
cp "$EXAMPLES/office-startup_4711.log" run.log
# a link to the input: the input is replaced once the output is complete
# and the link stays (written through the link, the input was emptied
# before it was read)
ln -s run.log link.log
tracewright convert -t rtl -o link.log link.log; echo "exit $?"
cmp run.log "$EXAMPLES/office-startup_4711.log" && echo "run.log: intact"
[ -L link.log ] && echo "link.log: still a link"
# a name near NAME_MAX (255 bytes): the temporary file's name is cut to fit
long=$(printf '%0251d' 0).rtl
tracewright convert -t rtl -o "$long" run.log; echo "exit $?"
cmp "$long" run.log && echo "255-byte name: written"
rm "$long"
# ctf to a link to an earlier ctf output: that output is replaced
tracewright convert -t ctf -o ctf.real run.log && ln -s ctf.real ctf.link
tracewright convert -t ctf -o ctf.link run.log; echo "exit $?"
[ -L ctf.link ] && [ -f ctf.real/metadata ] && echo "ctf.link: still a link to the output"
# with standard error closed, the output does not take its number (the
# diagnostics went into the middle of the output); a log cut short, made
# by the benchmark's generator (bench/gen.c), warns at its end
"$BUILD/bench/gen" rtl 1M 3 big.log || echo "gen failed"
head -c 600000 big.log >open.log
rm big.log
tracewright convert -t rtl -o closed.log - <open.log 2>&-; echo "exit $?"
tracewright convert -t rtl -o shown.log - <open.log 2>/dev/null
cmp closed.log shown.log && echo "2>&-: the same output"
# with standard output closed, writing to it fails as it did
tracewright stats open.log >&- 2>/dev/null; echo "exit $?"
tracewright stats --help >&- 2>err; echo "exit $?"
cat err
ls -A
# an output path is shown on one line, as an input's is
tracewright convert -t jsonl -o "$(printf 'no-such\ndir/x.jsonl')" run.log; echo "exit $?"
# text1-bin: the companion goes in place only once the .BIN it names is
# written (it was renamed into place before the .BIN's last block failed)
tracewright convert -t text1-bin --names=names.txt -o /dev/full run.log 2>/dev/null; echo "exit $?"
[ -e names.txt ] && echo "names.txt written for a .BIN that was not"
