# --format json: a name or path that is not valid UTF-8 is shown with
# U+FFFD and given exactly in *_base64, as stats --format json does
printf '{"ts":0,"kind":"begin","pid":1,"tid":1,"name":"caf\351"}\n{"ts":5,"kind":"end","pid":1,"tid":1,"name":"caf\351"}\n{"ts":6,"kind":"begin","pid":1,"tid":1,"name":"b"}\n{"ts":9,"kind":"end","pid":1,"tid":1,"name":"b"}\n' >"base$(printf '\377').jsonl"
printf '{"ts":0,"kind":"begin","pid":1,"tid":1,"name":"caf\351"}\n{"ts":9,"kind":"end","pid":1,"tid":1,"name":"caf\351"}\n{"ts":10,"kind":"begin","pid":1,"tid":1,"name":"c"}\n{"ts":12,"kind":"end","pid":1,"tid":1,"name":"c"}\n' >cur.jsonl
tracewright compare --format json "base$(printf '\377').jsonl" cur.jsonl 2>/dev/null; echo "exit $?"
