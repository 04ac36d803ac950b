# lms reads its usual line in place (docs/formats/lms.md): from a pipe, even
# one that delivers the input in two parts with a line cut between them, the
# events and diagnostics are those of the file; with a line limit below its
# window (a file read as standard input here) every line goes the usual way,
# and the long ones are skipped
f="$DATA/lms/bad/in-place.csv"
tracewright convert -t jsonl "$f" >file.jsonl 2>file.err
sed 's|^[^:]*in-place.csv:|<stdin>:|' file.err >file-as-stdin.err
cat "$f" | tracewright convert -f lms -t jsonl >pipe.jsonl 2>pipe.err
cmp file.jsonl pipe.jsonl && cmp file-as-stdin.err pipe.err && echo "pipe: same"
{ head -c 100 "$f"; sleep 0.2; tail -c +101 "$f"; } | tracewright convert -f lms -t jsonl >cut.jsonl 2>cut.err
cmp file.jsonl cut.jsonl && cmp file-as-stdin.err cut.err && echo "pipe in two parts: same"
tracewright convert -f lms -t jsonl --max-line-length 12 <"$f"
