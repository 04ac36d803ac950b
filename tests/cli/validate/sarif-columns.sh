# SARIF counts a column in UTF-16 code units (its default columnKind); the
# text and JSON forms count bytes.  validate reads the line's bytes before
# the column back from the input and counts them: on line 2, 'ü' and 'ß'
# (2 bytes each), '日' and '本' (3 bytes each) take one unit, '😀' (4 bytes)
# two, so byte column 71 is column 63; bytes that are not UTF-8 count one
# each (line 3: the column stays 70).
printf '{"kind":"trace","format":"jsonl","resolution_ns":1}\n' >u.jsonl
printf '{"ts":1,"kind":"instant","pid":0,"tid":0,"name":"Gr\303\274\303\237e \346\227\245\346\234\254 \360\237\230\200","bogus":tru}\n' >>u.jsonl
printf '{"ts":2,"kind":"instant","pid":0,"tid":0,"name":"x","msg":"\374\337","ts2":}\n' >>u.jsonl
tracewright validate u.jsonl; echo "exit $?"
tracewright validate --format sarif u.jsonl >u.sarif; echo "exit $?"
"$BUILD/sarif-check" u.sarif
grep -o '"region":{[^}]*}' u.sarif
# standard input cannot be read back: its columns stay in bytes
tracewright validate --format sarif - <u.jsonl | grep -o '"region":{[^}]*}'
# a line read back in several parts: 30000 three-byte characters (90000
# bytes) before the column, cut wherever the parts end
awk 'BEGIN { printf "{\"kind\":\"trace\",\"format\":\"jsonl\",\"resolution_ns\":1}\n";
             printf "{\"ts\":1,\"kind\":\"instant\",\"pid\":0,\"tid\":0,\"name\":\"";
             for (i = 0; i < 30000; i++) printf "\346\227\245";
             printf "\",\"x\":[}\n" }' >long.jsonl
tracewright validate long.jsonl; echo "exit $?"
tracewright validate --format sarif long.jsonl | grep -o '"region":{[^}]*}'
