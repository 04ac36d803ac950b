# CTF 1.8 trace directory: metadata (TSDL) and one binary stream per
# thread; babeltrace2 reads it in `make interop`, here the bytes are checked.
ev() { printf '{"ts":%s,"kind":"%s","pid":7,"tid":%s,"name":"%s"}\n' "$1" "$2" "$3" "$4"; }
{
    printf '{"kind":"trace","format":"rtl","resolution_ns":1000,"origin_ns":1000000000000000000,"origin_ts":500}\n'
    ev 1000 begin 1 main
    printf '{"ts":1500,"kind":"counter","pid":7,"tid":1,"name":"q","value":-2}\n'
    ev 900 end 1 main          # back in time: moved forward to 1500
    ev 2000 begin 2 io
} >t.jsonl
tracewright convert -t ctf -o out t.jsonl; echo "exit $?"
ls out
cat out/metadata
# stream-7-1: packet header (magic c1 1f fc c1, uuid, stream class 0,
# instance 0), context (first/last time 1000/1500 = e8 03/dc 05, 174 bytes
# = 1392 bits = 70 05 twice, sequence 0, 0 discarded), then three events:
# id (u32), time (u64), pid (u32), tid (u64), name, category / value (u64):
# 80 + 30 + 34 + 30 = 174 bytes
od -An -tx1 -v out/stream-7-1
# a second run replaces the earlier output; other directories are refused
tracewright convert -t ctf -o out t.jsonl && ls out
mkdir keep && echo mine >keep/notes.txt
tracewright convert -t ctf -o keep t.jsonl; echo "exit $?"
cat keep/notes.txt
# an earlier output with a file of someone else's in it is not replaced,
# nor is a directory whose metadata tracewright did not write
cp -r out mixed && echo mine >mixed/notes.txt
tracewright convert -t ctf -o mixed t.jsonl; echo "exit $?"
ls mixed
mkdir other && echo '/* CTF 1.8 */' >other/metadata
tracewright convert -t ctf -o other t.jsonl; echo "exit $?"
echo data >file.ctf
tracewright convert -o file.ctf t.jsonl; echo "exit $?"
cat file.ctf
tracewright convert -t ctf t.jsonl; echo "exit $?"
# no events: the metadata alone; no temporary directories are left
tracewright convert -f jsonl -t ctf -o empty /dev/null; echo "exit $?"
ls empty
ls
# the UUID hashes the source format's whole name, however long: names that
# differ only in their 301st byte give two UUIDs
long=$(printf '%0300d' 0 | tr 0 x)
for tail in a b; do
    { printf '{"kind":"trace","format":"%s%s","resolution_ns":1000}\n' "$long" "$tail"
      ev 1000 begin 1 main; } >long-$tail.jsonl
    tracewright convert -t ctf -o long-$tail long-$tail.jsonl; echo "exit $?"
done
grep -h 'uuid = ' long-a/metadata long-b/metadata | uniq | wc -l | tr -d ' '
