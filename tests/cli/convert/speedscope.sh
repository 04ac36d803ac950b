# speedscope's own format: one evented profile per thread, shared frames,
# O/C events from the pairing engine (balanced even when the input is not).
ev() { printf '{"ts":%s,"kind":"%s","pid":1,"tid":%s,"name":"%s"}\n' "$1" "$2" "$3" "$4"; }
{
    printf '{"ts":0,"kind":"meta","pid":1,"tid":0,"name":"process_name","msg":"app"}\n'
    printf '{"ts":0,"kind":"meta","pid":1,"tid":2,"name":"thread_name","msg":"io \\"fast\\""}\n'
    ev 0 begin 1 main; ev 10 begin 1 work; ev 5 begin 2 read
    ev 40 end 1 main                  # closes work first, at 40
    ev 50 end 2 nothing               # ignored
    ev 30 end 2 read
    ev 60 begin 1 work; ev 55 end 1 work  # back in time: moved forward
    ev 70 begin 2 read                # open at the end: closed at 70
} >t.jsonl
tracewright convert -t speedscope t.jsonl; echo "exit $?"
# many events on interleaved threads: each profile's events come back in
# order after passing through the spool's temporary file
awk 'BEGIN { for (i = 0; i < 3000; i++) for (t = 1; t <= 3; t++) {
    printf "{\"ts\":%d,\"kind\":\"begin\",\"pid\":1,\"tid\":%d,\"name\":\"f%d\"}\n", 10 * i, t, i % 7
    printf "{\"ts\":%d,\"kind\":\"end\",\"pid\":1,\"tid\":%d,\"name\":\"f%d\"}\n", 10 * i + 5, t, i % 7 } }' >many.jsonl
tracewright convert -o many.speedscope.json many.jsonl
awk '/"type":"evented"/ { p++; last = -1 }
     /"type":"[OC]"/ { n[p]++; match($0, /"at":[0-9]+/); at = substr($0, RSTART + 5, RLENGTH - 5) + 0
                       if (at < last) bad++; last = at }
     END { for (i = 1; i <= p; i++) print "profile", i, n[i], "events"
           print "out of order:", bad + 0, "last at:", last }' many.speedscope.json
wc -c <many.speedscope.json
# a scope left open closes at the end of the trace, the last event of the
# process, an instant too (as stats closes it): C at 50, not at 10
{ ev 0 begin 1 main; ev 10 begin 1 sub; ev 20 end 1 sub
  printf '{"ts":50,"kind":"instant","pid":1,"tid":1,"name":"tick"}\n'; } >open.jsonl
tracewright convert -t speedscope open.jsonl 2>/dev/null | grep '"type":"[OC]"'
