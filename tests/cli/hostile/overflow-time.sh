# Times that do not fit in int64 nanoseconds, the smallest input that
# overflows for every reader next to the largest that does not: each is
# reported with its line and column (or offset and record) and the value,
# the record is skipped (exit status 1) and nothing wraps around.
byte() { printf "\\$(printf '%03o' $(($1 & 255)))"; }
le() { _v=$2 _i=0; while [ $_i -lt "$1" ]; do byte $(((_v >> (8 * _i)) & 255)); _i=$((_i + 1)); done; }
run() {   # FILE [ARGS...]: the events (without the trace line), diagnostics, exit status
    tracewright convert -t jsonl "$@" >out.jsonl 2>err.txt
    echo "exit $?"
    grep -v '"kind":"trace"' out.jsonl
    cat err.txt
}

echo "== rtl: milliseconds; 9223372036854 ms is the last that fits"
printf 'Process id is 1\n9223372036854 1 { fits\n9223372036855 1 { over\n18446744073709551616 1 { beyond-u64\n9223372036854 1 } fits\nclosing log file at 9223372036855\n' >o.log
run o.log

echo "== lms: microsecond differences that add up past int64 ns, and single huge ones"
printf '2,0,main\n0,0,9223372036854775\n1,0,1\n1,0,0\n0,0,9223372036854775807\n0,0,-9223372036854775808\n1,0,99999999999999999999\n1,0,-99999999999999999999\n' >o.csv
run o.csv

echo "== coreprofiler: milliseconds (and -1..-2^31 for a DWORD above 2^31)"
printf 'prf stm 2019-03-04 09:00:00.250 +00:00\nprc cpu 9223372036854 5\nprc cpu 9223372036855 5\nprc cpu 18446744073709551616 5\nprc cpu -2147483648 5\nprc cpu -2147483649 5\n' >o.tracelog
run o.tracelog
echo "-- a start time beyond 2262"
printf 'prf stm 2263-01-01 00:00:00.000 +00:00\nprc cpu 0 5\n' >late.tracelog
run late.tracelog

echo "== text1: nanoseconds (no unit to scale by)"
cat >o.txt <<'TXT'
* INFO %TOTAL_TIME%
9223372036854775808
* HANDLE(Functions) %HANDLE%,%NAME%,%VALUE%
00000000,main,
* STATISTICS(Functions) %HANDLE%,%COUNT%,%T.NET%
00000000,1,-9223372036854775809
* TIMELINE %HANDLE%,%EVENT%,%VALUE%,%TIME%
00000000,E,,-9223372036854775808
00000000,X,,-9223372036854775809
00000000,E,,9223372036854775808
00000000,X,,9223372036854775807
TXT
run o.txt

echo "== text1-bin: a signed 64-bit ns field, so every value fits; the extremes come out as they are"
printf '* HANDLE(Functions) %%HANDLE%%,%%NAME%%,%%VALUE%%\n00000000,main,\n' >names.txt
{ le 4 0; le 4 3; le 8 0; le 8 -9223372036854775808
  le 4 0; le 4 0; le 8 0; le 8 9223372036854775807; } >o.BIN
run --names=names.txt o.BIN

echo "== stacktrack: ticks * 10^9 / tdiv (+ TIMEINFO start)"
st_header() { le 2 "$1"; le 2 5; le 4 "$2"; }
{
    st_header 0x0004 0; le 4 0x12345678; le 4 256; byte 16; byte 24; byte 8; le 5 0
    st_header 0x0007 0; le 8 1; le 2 32; le 6 0                                # 1 tick per second
    st_header 0x0000 1; le 8 9223372036; le 2 1; le 2 1; le 4 0                 # fits
    st_header 0x0000 2; le 8 9223372037; le 2 1; le 2 1; le 4 0                 # over
    st_header 0x0000 3; le 8 -9223372037; le 2 1; le 2 1; le 4 0                # under
    st_header 0x0006 0; le 8 1; le 4 0; le 4 0                                  # start_hires 1
    st_header 0x0000 4; le 8 -9223372036854775808; le 2 1; le 2 1; le 4 0      # when - start underflows
} >o.tlg
run o.tlg

echo "== jsonl: \"ts\" beyond int64, within and beyond 64 bits"
cat >o.jsonl <<'J'
{"ts":9223372036854775807,"kind":"instant","pid":1,"tid":1,"name":"max"}
{"ts":9223372036854775808,"kind":"instant","pid":1,"tid":1,"name":"over"}
{"ts":18446744073709551616,"kind":"instant","pid":1,"tid":1,"name":"beyond-u64"}
{"ts":-9223372036854775808,"kind":"instant","pid":1,"tid":1,"name":"min"}
{"ts":-9223372036854775809,"kind":"instant","pid":1,"tid":1,"name":"under"}
J
run o.jsonl
