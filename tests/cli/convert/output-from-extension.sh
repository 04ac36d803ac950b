# -o FILE.EXT picks the output format; the file is written, stdout stays empty
cp "$DATA/lms/good/wiki-example.csv" .
tracewright convert -o out.jsonl wiki-example.csv && cat out.jsonl
tracewright convert -o out.log wiki-example.csv && cat out.log && echo
tracewright convert -o out.txt wiki-example.csv
