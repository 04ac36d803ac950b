# Names and texts longer than 65536 bytes are cut to it, at a character, so
# that the file reads back with the reader's default --stacktrack-info-window
# (4096 INFO buffers of 16 bytes); the cut is reported.  'ab' and 30000
# three-byte characters (90002 bytes): a cut at 65536 would split the
# character at 65534, so 65534 bytes are kept.
N=ab$(awk 'BEGIN { for (i = 0; i < 30000; i++) printf "\346\227\245" }')
M=$(awk 'BEGIN { for (i = 0; i < 70000; i++) printf "m" }')
printf '{"ts":0,"kind":"begin","pid":1,"tid":1,"name":"%s"}\n' "$N" >long.jsonl
printf '{"ts":5,"kind":"instant","pid":1,"tid":1,"name":"note","msg":"%s"}\n' "$M" >>long.jsonl
printf '{"ts":10,"kind":"end","pid":1,"tid":1,"name":"%s"}\n' "$N" >>long.jsonl
tracewright convert -t stacktrack -o long.tlg long.jsonl; echo "exit $?"
tracewright convert -t jsonl long.tlg >back.jsonl; echo "exit $?"
# the lengths read back: the names (the scope's, 'note', the scope's), the message
sed -n 's/.*"name":"\([^"]*\)".*/\1/p' back.jsonl | while read -r n; do printf '%s' "$n" | wc -c; done
sed -n 's/.*"msg":"\([^"]*\)".*/\1/p' back.jsonl | tr -d '\n' | wc -c
iconv -f UTF-8 -t UTF-8 back.jsonl >/dev/null && echo "valid UTF-8"
tracewright stats --format csv long.tlg | cut -d, -f2,4 | tail -n +2
