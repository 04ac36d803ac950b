# Ids that reference nothing: used without the record that defines them.
# Every reader reports each such id (once) and keeps its events under a
# made-up name; nothing is dropped.  RTL and JSON Lines have no ids that
# refer to definitions (thread and process ids are opaque numbers).
check() {   # FILE [ARGS...]: diagnostics, exit status, then kind and name of each event
    tracewright convert -t jsonl "$@" >out.jsonl 2>err.txt
    echo "exit $?"
    cat err.txt
    grep -v '"kind":"trace"' out.jsonl | sed 's/.*"kind":"\([a-z]*\)".*"name":"\([^"]*\)".*/  \1 \2/'
}
byte() { printf "\\$(printf '%03o' "$1")"; }
le() { _v=$2 _i=0; while [ $_i -lt "$1" ]; do byte $(((_v >> (8 * _i)) & 255)); _i=$((_i + 1)); done; }

echo "== lms: label ids without their '2,ID,LABEL' line (one used before its mapping)"
printf '2,0,main\n0,0,10\n0,7,5\n1,7,5\n0,9,1\n2,9,late\n1,9,1\n1,0,10\n' >ids.csv
check ids.csv

echo "== coreprofiler: function, FunctionID, class, '?' and a thread never created"
printf '%s\n' 'prf stm 2020-01-01 00:00:00.000 +00:00' 'thr crt 0xA000 0x0' 'thr aos 0x0 700' \
    'sam str 0x0 10 1 0:0 0x5' 'jit cms 700 12 0xDEAD0000' 'jit cmf 700 14 0xDEAD0000 0x00000000' \
    'sam mem 0x0 15 0x3:1:16' 'sam str 0x0 20 1 1:1 ?' 'sam str 0x7 25 1 0:0 0x5' 'sam str 0x0 30 1 0:0' \
    'sam str 0x7 35 1 0:0' >ids.tracelog
check ids.tracelog

echo "== text1: handles no HANDLE section maps (timeline, statistics, a state), a context not in CONTEXTS"
cat >ids.txt <<'TXT'
* CONTEXTS %NAME%,%HANDLE%
TSK: A,0x0
* HANDLE(Functions) %HANDLE%,%NAME%,%VALUE%
00000000,main,
* STATISTICS(Functions) %HANDLE%,%COUNT%,%T.NET%
00000005,1,10
* TIMELINE %HANDLE%,%EVENT%,%VALUE%,%TIME%,%CONTEXT%
00000000,E,,0,TSK: A
00000007,E,,10,TSK: B
00000007,X,,20,TSK: B
30000004,E,00000002,30,
30000004,X,,40,
00000000,X,,100,TSK: A
TXT
check ids.txt

echo "== text1-bin: a handle its companion does not map"
printf '* HANDLE(Functions) %%HANDLE%%,%%NAME%%,%%VALUE%%\n00000000,main,\n' >ids.names
{ le 4 0; le 4 3; le 8 0; le 8 0
  le 4 7; le 4 3; le 8 0; le 8 10
  le 4 7; le 4 0; le 8 0; le 8 20
  le 4 0; le 4 0; le 8 0; le 8 100; } >ids.BIN
check --names=ids.names ids.BIN

echo "== stacktrack: a checkpoint no SLOC defines, a file no FLOC defines, an INFO buffer of no one"
{
    le 2 4; le 2 5; le 4 0; le 4 0x12345678; le 4 256; byte 16; byte 24; byte 8; le 5 0
    le 2 7; le 2 5; le 4 0; le 8 1000000000; le 2 32; le 6 0                    # TIMETYPE
    le 2 0x103; le 2 5; le 4 1; le 2 1; le 2 3; le 2 3; le 2 0; le 2 9; le 6 0    # SLOC 1 in file 9
    le 2 0x2ff; le 2 5; le 4 1; printf 'f'; le 15 0
    le 2 0; le 2 5; le 4 2; le 8 10; le 2 1; le 2 1; le 4 0                      # HIT 1
    le 2 0; le 2 5; le 4 3; le 8 20; le 2 4; le 2 1; le 4 0                      # HIT 4: undefined
    le 2 0x2ff; le 2 5; le 4 9; printf 'orphan'; le 10 0                         # INFO of sequence 9
    le 2 0x400; le 2 5; le 4 4; le 8 30; le 2 1; le 2 1; le 4 0                  # exit of 1
} >ids.tlg
check ids.tlg
