# Names no writer may let break its syntax: quotes, backslash, markup
# (< & > ]]>), separators (; , |), control bytes (tab, newline, \001, DEL)
# and bytes that are not UTF-8 (a lone 0xFF and Latin-1 "Gr\xFC\xDFe").
# Every writer's output is shown: what was escaped, replaced or refused.
# The name base64 "c2NvcGUgwJH/IEdy/N9l" is "scope \xC0\x91\xFF Gr\xFC\xDFe".
{
    printf '{"ts":0,"kind":"meta","pid":1,"tid":1,"name":"thread_name","msg":"t\\"1\\"<&>"}\n'
    printf '{"ts":1000000,"kind":"begin","pid":1,"tid":1,"name":"a\\"b\\\\c<d>&e'"'"'f]]>g;h,i|j\\tk\\nl\\u0001m\\u007f","cat":"c<&>"}\n'
    printf '{"ts":2000000,"kind":"begin","pid":1,"tid":1,"name":"bad","name_base64":"c2NvcGUgwJH/IEdy/N9l"}\n'
    printf '{"ts":3000000,"kind":"instant","pid":1,"tid":1,"name":"msg","msg":"say \\"hi\\" <now> & \\u0002"}\n'
    printf '{"ts":4000000,"kind":"end","pid":1,"tid":1,"name":"bad","name_base64":"c2NvcGUgwJH/IEdy/N9l"}\n'
    printf '{"ts":5000000,"kind":"end","pid":1,"tid":1,"name":"a\\"b\\\\c<d>&e'"'"'f]]>g;h,i|j\\tk\\nl\\u0001m\\u007f","cat":"c<&>"}\n'
} >h.jsonl
# Formats that can be read back: the names after the round trip (only a
# line break is lost, in the line-oriented formats: it becomes a space)
for w in rtl lms coreprofiler text1 stacktrack; do
    echo "== $w"
    tracewright convert -t "$w" -o "h.$w" h.jsonl 2>&1
    tracewright convert -f "$w" -t jsonl "h.$w" 2>/dev/null | grep -v '"kind":"\(trace\|meta\)"' | cat -v
done
# write-only formats: the output itself
for w in stacktrack-xml chrome folded speedscope; do
    echo "== $w"
    tracewright convert -t "$w" h.jsonl 2>&1 | cat -v
done
echo "== ctf"
tracewright convert -t ctf -o h.ctf h.jsonl 2>&1
cat -v h.ctf/stream-1-1 | tr '\n' '~'; echo
echo "== svg"
tracewright convert -t svg -o h.svg h.jsonl 2>&1
grep '<title>\|<text' h.svg | grep -v 'id=' | cat -v
