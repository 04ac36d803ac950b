# 10^6 distinct scope names: read, counted and reported; memory grows with
# the names.  --max-names caps them: reading stops with limit-exceeded
# (exit 2) at the first name beyond the cap.
awk 'BEGIN { for (i = 0; i < 1000000; i++) { printf "2,%d,scope_%07d\n", i, i;
                                              printf "0,%d,1\n1,%d,1\n", i, i } }' >names.csv
tracewright stats --sort name --format csv names.csv >stats.csv
echo "exit $?"
awk -F, 'NR > 1 { n++; c += $2 } END { print n " scopes, " c " calls" }' stats.csv
sed -n '2,3p' stats.csv | cut -d, -f1-4
tracewright stats --max-names 1000 names.csv >/dev/null
echo "exit $?"
tracewright convert -t jsonl --max-names 1000 names.csv >out.jsonl
echo "exit $?"
wc -l <out.jsonl   # a conversion that stops writes nothing
tracewright validate --max-names 1000 names.csv
echo "exit $?"
# the same from the other text readers
awk 'BEGIN { for (i = 0; i < 2000; i++) printf "{\"ts\":%d,\"kind\":\"begin\",\"pid\":1,\"tid\":1,\"name\":\"n%d\"}\n", i, i }' >names.jsonl
tracewright stats --max-names 1000 names.jsonl >/dev/null
echo "exit $?"
# an instant's name is free text (a message): stats keeps none, so 2000
# distinct ones fit under the cap (and take no memory); a conversion to
# stacktrack, which keeps checkpoints by name, stops at the cap
sed 's/"begin"/"instant"/' names.jsonl >instants.jsonl
tracewright stats --max-names 1000 instants.jsonl >/dev/null
echo "instants: exit $?"
tracewright convert -t stacktrack --max-names 1000 instants.jsonl -o out.st 2>&1 | grep -c limit-exceeded
# so do RTL messages, those whose text comes on a later line because another
# thread's record was written into them included
awk 'BEGIN { print "Process id is 3"
             for (i = 0; i < 1500; i++) printf "%06d 1 | ctx : %06d 2 | c2 : plain %d\nsplit text %d\n", i, i, i, i
             print "closing log file at 001500" }' >split_3.log
tracewright stats --max-names 1000 split_3.log >/dev/null 2>&1
echo "split messages: exit $?"
# a binary reader stops the same way, at the record whose name does not
# fit; a reader whose own names do not fit says so
cp "$EXAMPLES/file-sink_20251121_083000_060C_1.tlg" sink.tlg
tracewright stats --max-names 3 sink.tlg >/dev/null
echo "exit $?"
cp "$EXAMPLES/motor-control.txt" motor.txt
tracewright stats --max-names 3 motor.txt >/dev/null
echo "exit $?"
