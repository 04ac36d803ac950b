# A STATISTICS block whose entry template has %CONTEXT% holds rows of
# several contexts: each row's context is its own (not the header's, which
# has none), so filter's row in ISR: Timer (count 1, NET/GROSS/CALL 100,
# 1550..1650) is compared with filter's calls in that context only, and
# its row in TSK: TaskA (1200..1500 and 1800..2000: NET 500, CALL 800)
# with those: nothing differs
cd "$DATA/text1/good" || exit 2
f=stats-context-column.txt
tracewright validate "$f"
echo "exit $?"
tracewright stats --by thread --sort name "$f"
