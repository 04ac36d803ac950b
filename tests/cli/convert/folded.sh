# folded stacks: one line per distinct stack with its self (net) time; by
# hand: main 0..100 with work 10..40 (and sub 20..30 in it) and work 60..70:
# main 100-30-10 = 60, main;work 30-10+10 = 30, main;work;sub 10;
# thread 2 ("io;th\nread") runs a;b with ';' in b's name.
ev() { printf '{"ts":%s,"kind":"%s","pid":1,"tid":%s,"name":"%s"}\n' "$1" "$2" "$3" "$4"; }
{
    printf '{"ts":0,"kind":"meta","pid":1,"tid":0,"name":"process_name","msg":"app"}\n'
    printf '{"ts":0,"kind":"meta","pid":1,"tid":2,"name":"thread_name","msg":"io;th\\nread"}\n'
    ev 0 begin 1 main; ev 10 begin 1 work; ev 20 begin 1 sub; ev 30 end 1 sub; ev 40 end 1 work
    printf '{"ts":50,"kind":"instant","pid":1,"tid":1,"name":"tick"}\n'
    ev 60 begin 1 work; ev 70 end 1 work; ev 100 end 1 main
    ev 5 begin 2 a; ev 7 begin 2 'b;c'; ev 12 end 2 'b;c'; ev 20 end 2 a
} >t.jsonl
tracewright convert -t folded t.jsonl; echo "exit $?"
# the weights sum to the net total of stats
tracewright convert -t folded t.jsonl 2>/dev/null | awk '{ s += $NF } END { print "folded:", s }'
tracewright stats --format csv t.jsonl |
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "net_total") c = i; next }
             { s += $c } END { print "stats:", s }'
# coarser units, rounded to nearest: 1500 ns is 2 us; stacks of less than
# half a unit have no line
{ ev 0 begin 1 x; ev 1500 end 1 x; ev 1500 begin 1 y; ev 1999 end 1 y; } >us.jsonl
tracewright convert -t folded --weight-unit us us.jsonl
tracewright convert -o out.folded t.jsonl 2>/dev/null && head -1 out.folded
# input that does not nest is repaired as stats repairs it, and counted
{ ev 0 begin 1 a; ev 5 end 1 x; ev 10 begin 1 b; ev 20 end 1 a; ev 30 begin 1 c; } >bad.jsonl
tracewright convert -t folded bad.jsonl; echo "exit $?"
# a scope left open closes at the end of the trace, the last event of the
# process, an instant too: main's self time is 50 - 10 = 40, as stats says
{ ev 0 begin 1 main; ev 10 begin 1 sub; ev 20 end 1 sub
  printf '{"ts":50,"kind":"instant","pid":1,"tid":1,"name":"tick"}\n'; } >open.jsonl
tracewright convert -t folded open.jsonl 2>/dev/null
tracewright stats --format csv open.jsonl | cut -d, -f1-6
