# A write (W; type 4 in a .BIN) is an event of a variable or AUX signal: of
# a function's handle (or a line's, read with --text1-lines) it is a
# bad-record, reported once per handle and skipped, as an entry of a
# variable is; it does not become a counter.
printf '* HANDLE(Functions) %%HANDLE%%,%%NAME%%,%%VALUE%%\n00000000,main,\n10000000,x++;,12\n' >w.txt
printf '* HANDLE(Data) %%HANDLE%%,%%NAME%%,%%VALUE%%\n20000000,counter,\n' >>w.txt
printf '* TIMELINE %%HANDLE%%,%%EVENT%%,%%VALUE%%,%%TIME%%\n' >>w.txt
printf '00000000,E,,0\n00000000,W,00000007,1\n00000000,W,00000008,2\n10000000,W,00000001,3\n20000000,W,00000005,4\n00000000,X,,5\n' >>w.txt
tracewright convert -t jsonl --text1-lines w.txt; echo "exit $?"
# without --text1-lines, line areas are skipped as they are, unreported
tracewright validate w.txt; echo "exit $?"
# in a .BIN: handle 0, type 4 (W), data 7, time 0; then handle 0x20000000
# written 5 at 1
printf '* HANDLE(Functions) %%HANDLE%%,%%NAME%%,%%VALUE%%\n00000000,main,\n* HANDLE(Data) %%HANDLE%%,%%NAME%%,%%VALUE%%\n20000000,counter,\n' >b.txt
printf '\000\000\000\000\004\000\000\000\007\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000' >b.txt.BIN
printf '\000\000\000\040\004\000\000\000\005\000\000\000\000\000\000\000\001\000\000\000\000\000\000\000' >>b.txt.BIN
tracewright convert -t jsonl b.txt.BIN; echo "exit $?"
