# a pipe is read with buffered reads; output is the same as from the file
cat "$DATA/rtl/good/crlf_99.log" | tracewright convert -t jsonl >pipe.jsonl
tracewright convert -t jsonl "$DATA/rtl/good/crlf_99.log" >file.jsonl
cmp pipe.jsonl file.jsonl && cat pipe.jsonl
