# detection by content, with the file name as a hint
cp "$EXAMPLES/office-startup_4711.log" "$EXAMPLES/control-loop.csv" .
cp "$DATA/jsonl/good/all-kinds.jsonl" "$DATA/rtl/good/no-header.log" "$DATA/rtl/good/profile.nopid" .
tracewright detect office-startup_4711.log control-loop.csv all-kinds.jsonl no-header.log profile.nopid
tracewright detect - <control-loop.csv
