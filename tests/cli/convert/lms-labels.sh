# the lms writer maps each label once: names that are one label once their
# line breaks become spaces ("a b", "a\nb") share its id, so the file reads
# back without lms-duplicate-label; the replacement is counted per name
ev() { printf '{"ts":%s,"kind":"%s","pid":0,"tid":0,"name":"%s"}\n' "$1" "$2" "$3"; }
{ ev 0 begin 'a b'; ev 1000 begin 'a\nb'; ev 2000 end 'a\nb'; ev 3000 end 'a b'
  ev 3000 begin 'x\r\ny'; ev 4000 end 'x\r\ny'; ev 5000 begin 'x  y'; ev 6000 end 'x  y'; } >names.jsonl
tracewright convert -t lms -o names.csv names.jsonl
echo "exit $?"
cat names.csv
tracewright validate names.csv
echo "exit $?"
