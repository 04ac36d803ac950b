# text that is not UTF-8 is reported once per place: by the check of validate
# for the formats whose readers pass bytes through (RTL here, at the event),
# by the jsonl reader itself at the exact byte (not a second time)
printf 'Process id is 3\n000001 1 | Gr\374\337e\nclosing log file at 000002' >latin1.log
cp "$DATA/jsonl/bad/raw-latin1.jsonl" .
tracewright validate latin1.log raw-latin1.jsonl; echo "exit $?"
