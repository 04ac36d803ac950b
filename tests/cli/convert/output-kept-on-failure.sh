# when the conversion fails, an existing output file keeps its contents and
# no temporary file is left behind
echo "precious" >out.jsonl
tracewright convert -t jsonl -o out.jsonl missing.log
echo "exit $?"
cat out.jsonl
# a write error after the output was opened: the file size limit is 512 bytes
(ulimit -f 1; trap '' XFSZ; tracewright convert -t jsonl -o out.jsonl "$EXAMPLES/office-startup_4711.log")
echo "exit $?"
cat out.jsonl
ls -A
