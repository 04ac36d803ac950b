# missing files and directories are reported; exit 2
tracewright convert -t jsonl missing.log
echo "exit $?"
mkdir adir
tracewright convert -t jsonl adir
echo "exit $?"
tracewright convert -f rtl -t jsonl adir
