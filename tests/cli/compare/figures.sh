# Names in the table: cut at a character to 60 terminal columns, "..." at
# the end, a wide character taking two; the columns after stay aligned.
# 'a' and 30 CJK characters (61 columns, 91 bytes) show as 'a', 28 of them
# and '...' (60 columns).
N=a$(for i in $(seq 30); do printf '\346\227\245'; done)
printf '{"ts":0,"kind":"begin","pid":1,"tid":1,"name":"%s"}\n{"ts":10,"kind":"end","pid":1,"tid":1,"name":"%s"}\n' "$N" "$N" >cjk.jsonl
printf '{"ts":10,"kind":"begin","pid":1,"tid":1,"name":"b"}\n{"ts":20,"kind":"end","pid":1,"tid":1,"name":"b"}\n' >>cjk.jsonl
tracewright compare cjk.jsonl cjk.jsonl; echo "exit $?"
# --stat total is the total stats gives: for gross time the outermost
# invocations only.  f runs 0..100 and, inside itself, 20..25; later
# 200..250 on its own: gross total 100 + 50 = 150 (the sum over every
# invocation would be 155), net total 95 + 5 + 50 = 150.  z takes 0 ns in
# both runs: delta_pct 0.00, not null (null only from a baseline of 0 to
# something).
cat >rec.jsonl <<'END'
{"ts":0,"kind":"begin","pid":1,"tid":1,"name":"f"}
{"ts":20,"kind":"begin","pid":1,"tid":1,"name":"f"}
{"ts":25,"kind":"end","pid":1,"tid":1,"name":"f"}
{"ts":100,"kind":"end","pid":1,"tid":1,"name":"f"}
{"ts":150,"kind":"begin","pid":1,"tid":1,"name":"z"}
{"ts":150,"kind":"end","pid":1,"tid":1,"name":"z"}
{"ts":200,"kind":"begin","pid":1,"tid":1,"name":"f"}
{"ts":250,"kind":"end","pid":1,"tid":1,"name":"f"}
END
tracewright compare --metric gross --format json rec.jsonl rec.jsonl; echo "exit $?"
