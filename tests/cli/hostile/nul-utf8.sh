# NUL bytes and bytes that are not UTF-8 in names, in every text format:
# the names are kept byte for byte (jsonl adds NAME_base64), written as
# U+FFFD where a format needs UTF-8, and validate warns about them (but for
# jsonl, whose NAME_base64 carries any bytes on purpose).
bad() { sed "s/$1/\\x00$1\\xff\\xc3/"; }
sed 's/,main$/,ma\x00in\xff/' "$EXAMPLES/control-loop.csv" >names.csv
bad desktop <"$EXAMPLES/office-startup_4711.log" >names_4711.log
bad 'HelloCatalog.App::Main' <"$EXAMPLES/hello-catalog.tracelog" >names.tracelog
bad 'Task_10ms' <"$EXAMPLES/motor-control.txt" >names.txt
printf '%s\n' '{"kind":"trace","format":"jsonl","resolution_ns":1}' \
    '{"ts":1,"kind":"begin","pid":1,"tid":1,"name":"a\u0000b","name_base64":"YQBi/w=="}' \
    '{"ts":2,"kind":"end","pid":1,"tid":1,"name":"a\u0000b","name_base64":"YQBi/w=="}' >names.jsonl
for f in names.csv names_4711.log names.tracelog names.txt names.jsonl; do
    echo "== $f"
    tracewright convert -t jsonl "$f" 2>/dev/null | grep -a -o '"name_base64":"[^"]*"' | sort | uniq -c
    tracewright validate "$f" 2>&1 | grep -a 'invalid-utf8' | head -n 2
    for t in chrome speedscope folded svg; do
        tracewright convert -t "$t" "$f" -o "out.$t" 2>/dev/null
        printf '%s exit %s, UTF-8: ' "$t" "$?"
        if iconv -f UTF-8 -t UTF-8 "out.$t" >/dev/null 2>&1; then echo yes; else echo no; fi
    done
done
