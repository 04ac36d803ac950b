# inputs without a wall-clock origin are merged on their own clocks, with warnings
cp "$DATA/lms/good/wiki-example.csv" "$DATA/rtl/good/no-header.log" .
tracewright convert -t jsonl no-header.log wiki-example.csv
