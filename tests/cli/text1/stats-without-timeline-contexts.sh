# A log whose statistics are kept per context (TSK: A, TSK: B) and whose
# timeline does not tell contexts apart (a .BIN's never does; a TIMELINE
# without %CONTEXT% neither): validate compares, per scope, the counts of
# its contexts added up with the timeline's, and nothing else (the other
# figures depend on how the contexts ran); a scope of one context is
# compared whole, over every thread.  f is entered twice (0..100 and
# 200..250) and counted once in each context: no warning.
stats() {
    printf '* CONTEXTS %%NAME%%,%%HANDLE%%\nTSK: A,0x0\nTSK: B,0x1\n'
    printf '* HANDLE(Functions) %%HANDLE%%,%%NAME%%,%%VALUE%%\n00000000,f,\n00000001,g,\n'
    printf '* STATISTICS(Functions) CONTEXT(TSK: A) %%HANDLE%%,%%VALUE%%,%%COUNT%%,%%T.NET%%\n00000000,,%s,100\n' "$1"
    printf '* STATISTICS(Functions) CONTEXT(TSK: B) %%HANDLE%%,%%VALUE%%,%%COUNT%%,%%T.NET%%\n00000000,,1,50\n00000001,,1,%s\n' "$2"
}
timeline() {
    printf '* TIMELINE %%HANDLE%%,%%EVENT%%,%%VALUE%%,%%TIME%%\n'
    printf '00000000,E,,0\n00000000,X,,100\n00000000,E,,200\n00000000,X,,250\n00000001,E,,300\n00000001,X,,310\n'
}
{ stats 1 10; timeline; } >ok.txt
tracewright validate --strict ok.txt; echo "exit $?"
# the same with a .BIN timeline (written from ok.txt), its companion
# holding the statistics; then with a count of f that is not the timeline's
tracewright convert -t text1-bin --names=names.txt -o ok.BIN ok.txt 2>/dev/null
stats 1 10 >with-stats.txt
tracewright validate --strict --names=with-stats.txt ok.BIN; echo "exit $?"
stats 3 10 >bad-stats.txt
tracewright validate --names=bad-stats.txt ok.BIN; echo "exit $?"
# a count that the timeline does not give: f counted 3 times in all; g
# (one context) with a time that differs
{ stats 2 20; timeline; } >bad.txt
tracewright validate bad.txt; echo "exit $?"
# with %CONTEXT% in the timeline the contexts are compared one by one:
# f's entries in TSK: A and TSK: B agree; with both in TSK: A they do not
ctx_timeline() {
    printf '* TIMELINE %%HANDLE%%,%%EVENT%%,%%VALUE%%,%%TIME%%,%%CONTEXT%%\n'
    printf '00000000,E,,0,TSK: A\n00000000,X,,100,TSK: A\n00000000,E,,200,%s\n' "$1"
    printf '00000000,X,,250,%s\n00000001,E,,300,TSK: B\n00000001,X,,310,TSK: B\n' "$1"
}
{ stats 1 10; ctx_timeline 'TSK: B'; } >ctx.txt
tracewright validate --strict ctx.txt; echo "exit $?"
{ stats 1 10; ctx_timeline 'TSK: A'; } >ctx-a.txt
tracewright validate ctx-a.txt; echo "exit $?"
