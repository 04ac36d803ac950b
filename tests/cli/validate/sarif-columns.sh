# validate --format sarif counts a column in UTF-16 code units, and says so
# (columnKind utf16CodeUnits); the text and JSON forms count bytes.  The
# line's bytes before the column are read back from the input and counted:
# on line 2, 'ü' and 'ß' (2 bytes each), '日' and '本' (3 bytes each) take
# one unit, '😀' (4 bytes) two, so byte column 71 is column 63; a run of
# bytes that is not UTF-8 counts one, as the U+FFFD a viewer shows (line 3:
# 0xFC and 0xDF, two such runs, keep column 70).
printf '{"kind":"trace","format":"jsonl","resolution_ns":1}\n' >u.jsonl
printf '{"ts":1,"kind":"instant","pid":0,"tid":0,"name":"Gr\303\274\303\237e \346\227\245\346\234\254 \360\237\230\200","bogus":tru}\n' >>u.jsonl
printf '{"ts":2,"kind":"instant","pid":0,"tid":0,"name":"x","msg":"\374\337","ts2":}\n' >>u.jsonl
tracewright validate u.jsonl; echo "exit $?"
tracewright validate --format sarif u.jsonl >u.sarif; echo "exit $?"
"$BUILD/sarif-check" u.sarif
grep -o '"columnKind":[^,]*' u.sarif
grep -o '"region":{[^}]*}' u.sarif
# standard input and a pipe cannot be read back: a result names its line
# only (and a named pipe is not waited on for a second writer)
tracewright validate --format sarif - <u.jsonl | grep -o '"region":{[^}]*}'
mkfifo fifo
cat u.jsonl >fifo &
timeout 10 tracewright validate --format sarif fifo | grep -o '"region":{[^}]*}'
wait
# a line read back in several parts: 30000 three-byte characters (90000
# bytes) before the column, cut wherever the parts end; then four-byte
# ones, one of them across the first part's end (at byte 65536)
awk 'BEGIN { printf "{\"kind\":\"trace\",\"format\":\"jsonl\",\"resolution_ns\":1}\n";
             printf "{\"ts\":1,\"kind\":\"instant\",\"pid\":0,\"tid\":0,\"name\":\"";
             for (i = 0; i < 30000; i++) printf "\346\227\245";
             printf "\",\"x\":[}\n";
             printf "{\"ts\":1,\"kind\":\"instant\",\"pid\":0,\"tid\":0,\"name\":\"ab";
             for (i = 0; i < 20000; i++) printf "\360\237\230\200";
             printf "\",\"x\":[}\n" }' >long.jsonl
tracewright validate long.jsonl; echo "exit $?"
tracewright validate --format sarif long.jsonl | grep -o '"region":{[^}]*}'
# many results on one line, and several inputs in one run: each counted
# from its own line
{ printf '{"kind":"trace","format":"jsonl","resolution_ns":1}\n'
  printf '{"ts":1,"kind":"instant","pid":0,"tid":0,"name":"\346\227\245","a":1,"b\346\227\245":2,"c":3}\n'; } >keys.jsonl
printf '{"kind":"trace","format":"jsonl","resolution_ns":1}\n{"ts":1,"kind":"instant","name":"\346\227\245","zz":1}\n' >other.jsonl
tracewright validate --format sarif keys.jsonl other.jsonl u.jsonl | grep -o '"uri":"[^"]*"},"region":{[^}]*}'
# each input is read back from its own file: the same name given twice,
# the file replaced in between (while the pipe between them is read), is
# counted from the new file
printf '{"kind":"trace","format":"jsonl","resolution_ns":1}\n{"ts":1,"kind":"instant","pid":0,"tid":0,"name":"aaaaaa","zz":1}\n' >f.jsonl
printf '{"kind":"trace","format":"jsonl","resolution_ns":1}\n{"ts":1,"kind":"instant","pid":0,"tid":0,"name":"\346\227\245\346\227\245","zz":1}\n' >g.jsonl
rm -f fifo && mkfifo fifo
( exec 3>fifo; mv g.jsonl f.jsonl; cat u.jsonl >&3 ) &
timeout 10 tracewright validate --format sarif f.jsonl fifo f.jsonl | grep -o '"uri":"f.jsonl"},"region":{[^}]*}'
wait
