# no FILE or '-' reads standard input; the format is detected from its first bytes
tracewright convert -t jsonl <"$DATA/lms/good/wiki-example.csv"
tracewright convert -t rtl - <"$DATA/rtl/good/subscopes.log"
