# a StackTrack INFO run that never ends: a SLOC announces INFO buffers and
# 131072 of them follow, none with INFO_END.  The run is given up after
# --stacktrack-info-window buffers (its text so far is the name), so memory
# stays bounded; the INFO buffers after that belong to no open run.
head -c 144 "$DATA/stacktrack/good/cycles.tlg" >head.tlg   # prologue .. FLOC "loop.c"
# SLOC, HAS_INFO, pid 0x42, sequence 1, style 3, line 5
printf '\003\001\102\000\001\000\000\000\001\000\003\000\005\000\000\000\001\000\000\000\000\000\000\000' >sloc
# INFO (no INFO_END) of pid 0x42, sequence 1: "abcdefghijklmnop"
printf '\377\000\102\000\001\000\000\000abcdefghijklmnop' >chunk
i=0
while [ $i -lt 17 ]; do cat chunk chunk >c2 && mv c2 chunk; i=$((i + 1)); done
cat head.tlg sloc chunk >endless.tlg
wc -c <endless.tlg
tracewright convert -t jsonl endless.tlg >out.jsonl
echo "exit $?"
wc -l <out.jsonl
# a smaller window gives up sooner
tracewright stats --stacktrack-info-window 8 endless.tlg >/dev/null
echo "exit $?"
