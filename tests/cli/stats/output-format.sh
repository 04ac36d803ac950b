# -o picks the format from the file's extension unless --format says it
printf '{"ts":0,"kind":"begin","pid":1,"tid":1,"name":"a"}\n{"ts":999999500,"kind":"end","pid":1,"tid":1,"name":"a"}\n' >a.jsonl
tracewright stats -o r.json a.jsonl && head -c 40 r.json && echo
tracewright stats -o r.csv a.jsonl && head -n 1 r.csv
tracewright stats -o r.txt a.jsonl && sed -n 2p r.txt
tracewright stats --format csv -o r.json a.jsonl && head -c 5 r.json && echo
# the extension in any case, as convert's -t
tracewright stats -o R.JSON a.jsonl && head -c 40 R.JSON && echo
tracewright stats -o R.Csv a.jsonl && head -n 1 R.Csv
# 999999500 ns rounds to 1.000 s, not 1000.000 ms
tail -n 3 r.txt | head -n 1
