# a 'prf stm' date that does not exist is bad-record at the start time's
# column, like a day 32 or an hour 25, instead of rolling over into the next
# month; February 29 exists in Gregorian leap years only (2000, 2020: yes;
# 1900, 2019: no)
for d in 2020-02-29 2000-02-29 2018-04-30 2018-12-31 \
         2019-02-29 1900-02-29 2018-02-30 2018-02-31 2018-04-31 2018-02-32; do
    printf 'prf stm %s 07:24:28.049 +09:00\nthr crt 0xB4F01234 0x0\nfun nam 0x7 "Main"\nsam str 0x0 20 1 0:0 0x7\n' "$d" >"$d.tracelog"
    echo "== $d"
    tracewright validate "$d.tracelog" 2>&1
    echo "validate exit $?"
    tracewright convert -t jsonl "$d.tracelog" 2>/dev/null | head -n 1
done
# the same without an offset, and with --coreprofiler-utc-offset
printf 'prf stm 2021-02-29 00:00:00\n' >no-offset.tracelog
tracewright convert -t jsonl --coreprofiler-utc-offset=+09:00 no-offset.tracelog
echo "convert exit $?"
# the writer's prf stm (in UTC) lands on the right side of February's end:
# 2000 and 2020 have a February 29, 2100 has not
for t in '2000-03-01 00:30:00.000 +01:00' '2020-03-01 00:30:00.000 +01:00' \
         '2100-03-01 00:30:00.000 +01:00' '2019-03-01 00:30:00.000 +01:00'; do
    printf 'prf stm %s\nprf cfg CollectionMethod Sampling\n' "$t" >w.tracelog
    tracewright convert -t coreprofiler w.tracelog | head -n 1
    tracewright convert -t coreprofiler w.tracelog | tracewright convert -f coreprofiler -t jsonl | head -n 1
    tracewright convert -t jsonl w.tracelog | head -n 1
done
