# lms: the 2015 '<type>,<diff>,<label>' variant has no mapping lines, so once
# a mapping line was read, a marker whose third field is not a number is a
# damaged line (bad-record at that field, skipped, exit 1), not a 2015 line
# that invents a scope; 2015 files and lines before any mapping read as before
printf '2,0,a\n0,0,10\n1,0,abc\n1,0,5\n2,1,b\n0,1,3\n1,1,4\n' >l2.csv
tracewright convert -t jsonl l2.csv
echo "convert exit $?"
tracewright validate l2.csv
echo "validate exit $?"
# the same damage in the third field when it starts with a digit
printf '2,0,a\n0,0,10\n1,0,5x\n1,0,5\n' >l3.csv
tracewright convert -f lms -t jsonl l3.csv
echo "convert exit $?"
# a genuine 2015 file: one note, exit 0
cp "$DATA/lms/good/legacy-2015.csv" .
tracewright validate -f lms legacy-2015.csv
echo "validate exit $?"
# markers of the newer form without a mapping line do not tell the variants
# apart (a 2015 label may be a number): a 2015 line after them is read so
printf '0,0,10\n1,0,reader\n' >nomap.csv
tracewright convert -f lms -t jsonl nomap.csv
echo "convert exit $?"
# 2015 lines before the first mapping line are read as such, the ones after
# it are not
printf '0,10,reader\n1,990,reader\n2,0,writer\n0,0,5\n1,0,writer\n1,0,7\n' >mixed.csv
tracewright convert -f lms -t jsonl mixed.csv
echo "convert exit $?"
