# --weight-unit=us|ms rounds each stack's self time to the nearest unit; a
# stack of less than half a unit gets no line, and those stacks and the
# time they held are counted in the lossy-conversion warning (a stack of
# no self time gets no line in ns either: nothing is lost, nothing counted).
# Thread 1: main 0..3 ms holds a (500000 ns: half a ms, rounded up to 1),
# b (399999 ns: no line in ms) and c (0 ns); main's self time is
# 3000000 - 500000 - 399999 = 2100001 ns, 2 ms.  Thread 2: x (240000 ns of
# self time) holds y (10000 ns): neither has a line in ms.  In ms, 3 stacks
# holding 399999 + 240000 + 10000 = 649999 ns get no line.
ev() { printf '{"ts":%s,"kind":"%s","pid":1,"tid":%s,"name":"%s"}\n' "$1" "$2" "$3" "$4"; }
{
    ev 0 begin 1 main
    ev 100000 begin 1 a; ev 600000 end 1 a
    ev 700000 begin 1 b; ev 1099999 end 1 b
    ev 1200000 begin 1 c; ev 1200000 end 1 c
    ev 3000000 end 1 main
    ev 0 begin 2 x; ev 10000 begin 2 y; ev 20000 end 2 y; ev 250000 end 2 x
} >t.jsonl
echo "-- ns"
tracewright convert -t folded t.jsonl; echo "exit $?"
echo "-- us"
tracewright convert -t folded --weight-unit=us t.jsonl; echo "exit $?"
echo "-- ms"
tracewright convert -t folded --weight-unit=ms t.jsonl; echo "exit $?"
# every stack below half a unit: no line at all, but never silently
echo "-- ms, thread 2 alone"
grep '"tid":2' t.jsonl >short.jsonl
tracewright convert -t folded --weight-unit=ms -o short.folded short.jsonl; echo "exit $?, $(wc -l <short.folded) lines"
