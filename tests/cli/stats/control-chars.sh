# The tables are for terminals: a control character in a scope's name (an
# escape sequence, a tab, a NUL, a line feed, DEL) is shown as a space, so
# that it can neither break a row nor reach the terminal (cat -v would show
# it as ^[, ^I, ^@ or ^?); CSV and JSON keep the bytes.
cat >ctl.jsonl <<'END'
{"ts":0,"kind":"begin","pid":1,"tid":1,"name":"\u001b[31mred\u001b[0m"}
{"ts":1,"kind":"end","pid":1,"tid":1,"name":"\u001b[31mred\u001b[0m"}
{"ts":1,"kind":"begin","pid":1,"tid":1,"name":"tab\there\u0000nul\nline\u007f"}
{"ts":3,"kind":"end","pid":1,"tid":1,"name":"tab\there\u0000nul\nline\u007f"}
END
tracewright stats --sort name ctl.jsonl | cat -v
tracewright compare ctl.jsonl ctl.jsonl | cat -v
tracewright stats --sort name --format csv ctl.jsonl | sed -n 2p | cat -v
