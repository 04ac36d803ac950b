# File properties (stacktrack.file_property events) written before the
# process's first HIT carry sequence number 1, the one that HIT gets (only
# PROLOGUE, PROCINFO, TIMETYPE and TIMEINFO have 0), and the FLOC of a file
# first used by properties counts those that follow it; a property of a
# file whose FLOC is out already is not counted (properties stays 0) and
# has the last HIT's sequence number.  Everything reads back.
cat >in.jsonl <<'JSON'
{"kind":"trace","format":"jsonl","resolution_ns":1}
{"ts":1,"kind":"meta","pid":3,"tid":1,"name":"stacktrack.file_property","msg":"a=1","args":{"file":"z.c"}}
{"ts":2,"kind":"meta","pid":3,"tid":1,"name":"stacktrack.file_property","msg":"b=2","args":{"file":"z.c"}}
{"ts":3,"kind":"meta","pid":4,"tid":1,"name":"stacktrack.file_property","msg":"c=3","args":{"file":"z.c"}}
{"ts":4,"kind":"meta","pid":3,"tid":1,"name":"stacktrack.file_property","msg":"d=4","args":{"file":"y.c"}}
{"ts":8,"kind":"begin","pid":3,"tid":1,"name":"a","args":{"file":"x.c"}}
{"ts":9,"kind":"meta","pid":3,"tid":1,"name":"stacktrack.file_property","msg":"e=5","args":{"file":"x.c"}}
{"ts":9,"kind":"meta","pid":3,"tid":1,"name":"stacktrack.file_property","msg":"f=6","args":{"file":"z.c"}}
{"ts":10,"kind":"end","pid":3,"tid":1,"name":"a","args":{"file":"x.c"}}
JSON
tracewright convert -f jsonl -t stacktrack-xml in.jsonl | grep -e '<FLOC' -e '<FPROPERTY' -e '<HIT'
tracewright convert -f jsonl -t stacktrack -o out.tlg in.jsonl
tracewright convert -t jsonl out.tlg | sed 1d
