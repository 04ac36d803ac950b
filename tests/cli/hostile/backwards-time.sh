# Times that go back and times before zero, for every reader in one place.
# Time going back is a warning of the pairing (validate, stats), never a
# reason to drop or reorder an event; a negative time is kept as it is
# where the format can write one.  The backwards inputs are the rules/
# fixtures of tests/data; jsonl has none there and is written here.
check() {   # FILE [ARGS...]: validate's report and the events' times
    tracewright validate "$@" 2>&1 | grep -v 'in 1 file$'
    tracewright convert -t jsonl "$@" 2>/dev/null | grep -v '"kind":"trace"' | sed 's/^{"ts":\(-*[0-9]*\),"kind":"\([a-z]*\)".*/  \1 \2/' | tr '\n' ' '
    echo
}
byte() { printf "\\$(printf '%03o' "$1")"; }
le() { _v=$2 _i=0; while [ $_i -lt "$1" ]; do byte $(((_v >> (8 * _i)) & 255)); _i=$((_i + 1)); done; }

echo "== backwards"
for f in rtl/rules/time-goes-backwards.log lms/rules/time-goes-backwards.csv \
         coreprofiler/rules/time-goes-backwards.tracelog text1-bin/rules/time-goes-backwards.txt text1-bin/rules/time-goes-backwards.BIN \
         stacktrack/rules/time-goes-backwards.tlg; do
    cp "$DATA/$f" .
done
cp "$DATA/text1/rules/time-goes-backwards.txt" text1-backwards.txt   # the other is the .BIN's names
for f in time-goes-backwards.log time-goes-backwards.csv time-goes-backwards.tracelog \
         text1-backwards.txt time-goes-backwards.BIN time-goes-backwards.tlg; do
    echo "-- $f"
    check "$f"
done
echo "-- backwards.jsonl"
cat >backwards.jsonl <<'J'
{"ts":100,"kind":"begin","pid":1,"tid":1,"name":"a"}
{"ts":50,"kind":"end","pid":1,"tid":1,"name":"a"}
J
check backwards.jsonl

echo "== before zero"
echo "-- rtl: a time has no sign"
printf 'Process id is 1\n-000010 1 { a\n000010 1 } a\nclosing log file at 000020\n' >neg.log
check neg.log
echo "-- lms: a negative first difference"
printf '2,0,a\n0,0,-10\n1,0,5\n' >neg.csv
check neg.csv
echo "-- coreprofiler: -1..-2^31 are a DWORD above 2^31 ms, not times before zero"
printf 'prf stm 2019-03-04 09:00:00.250 +00:00\nprc cpu -1 5\nprc cpu 0 5\n' >neg.tracelog
check neg.tracelog
echo "-- text1"
printf '* HANDLE(Functions) %%HANDLE%%,%%NAME%%,%%VALUE%%\n00000000,a,\n* TIMELINE %%HANDLE%%,%%EVENT%%,%%VALUE%%,%%TIME%%\n00000000,E,,-10\n00000000,X,,5\n' >neg.txt
check neg.txt
echo "-- text1-bin"
{ le 4 0; le 4 3; le 8 0; le 8 -10; le 4 0; le 4 0; le 8 0; le 8 5; } >neg.BIN
printf '* HANDLE(Functions) %%HANDLE%%,%%NAME%%,%%VALUE%%\n00000000,a,\n' >neg.names
check --names=neg.names neg.BIN
echo "-- stacktrack: ticks before the TIMEINFO's start_hires"
{
    le 2 4; le 2 5; le 4 0; le 4 0x12345678; le 4 256; byte 16; byte 24; byte 8; le 5 0
    le 2 7; le 2 5; le 4 0; le 8 1000000000; le 2 32; le 6 0           # TIMETYPE, 1 tick per ns
    le 2 6; le 2 5; le 4 0; le 8 100; le 4 0; le 4 0                   # TIMEINFO, start_hires 100
    le 2 0x103; le 2 5; le 4 1; le 2 1; le 2 6; le 2 3; le 2 0; le 2 0; le 6 0   # SLOC 1, style 6
    le 2 0x2ff; le 2 5; le 4 1; printf 'a'; le 15 0                    # its name
    le 2 0; le 2 5; le 4 2; le 8 90; le 2 1; le 2 1; le 4 0             # HIT at 90 ticks: -10 ns
} >neg.tlg
check neg.tlg
echo "-- jsonl"
printf '{"ts":-10,"kind":"begin","pid":1,"tid":1,"name":"a"}\n{"ts":5,"kind":"end","pid":1,"tid":1,"name":"a"}\n' >neg.jsonl
check neg.jsonl
