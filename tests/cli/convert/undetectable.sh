# an input whose format cannot be told: candidates are named, -f is suggested
printf 'just some text\nwith two lines\n' >notes.txt
tracewright convert -t jsonl notes.txt
echo "exit $?"
: >empty.dat
tracewright convert -t jsonl empty.dat
echo "exit $?"
tracewright convert -f lms -t jsonl empty.dat
