# svg: an interactive flame graph (or flame chart) as one self-contained SVG.
# show: the document without its style sheet and the script's fixed code
# (the script's first line, the numbers it is given, stays)
show() {
    sed -e '/^<style/,/^<\/style>/d' \
        -e '/^var TW/,/^]]>/{' -e '/^var TW/b' -e '/^]]>/b' -e 'd' -e '}' "$1"
}
# xmlcheck: outside tags (attribute values hold no < or >) no text has < or
# >, every & starts an entity; "]]>" ends the script's CDATA section only;
# no byte below 0x20 but tab, LF and CR
xmlcheck() {
    awk '/<!\[CDATA\[/ { s = 1; next } /^\]\]><\/script>$/ { s = 0; next } s { next }
         { t = $0; gsub(/<[^<>]*>/, "", t); if (t ~ /[<>]/) bad++
           gsub(/&(amp|lt|gt|quot|apos|#[0-9]+);/, "", t); if (t ~ /&/) bad++ }
         END { printf "%s: %s, ", FILENAME, bad ? bad " bad lines" : "escaped" }' "$1"
    printf '"]]>" on %s line(s), ' "$(grep -c ']]>' "$1")"
    printf '%s control bytes\n' "$(tr -d '\t\n\r\040-\377' <"$1" | wc -c | tr -d ' ')"
}
ev() { printf '{"ts":%s,"kind":"%s","pid":%s,"tid":%s,"name":"%s"}\n' "$1" "$2" "$3" "$4" "$5"; }

# 1. flame graph, by hand (as in folded.sh): thread 1 runs main 0..100 with
# work 10..40 (sub 20..30 in it) and work 60..70; thread 2 ("io") runs a
# 5..20 with b;c 7..12.  Total 115 ns, 1180 px for the frames (1200 - 2 x 10):
#   io = a: 15 ns = 153.91 px, b;c 5 ns = 51.30 px (x from 10.00)
#   tid 1 = main: 100 ns from 15 ns: x 10 + 153.91, width 1026.09 px
#   work: 40 ns (2 calls, net 30), sub 10 ns: 410.44 and 102.61 px
# siblings sorted by name ("io" < "tid 1"); rows from the bottom (all at 134)
{
    printf '{"ts":0,"kind":"meta","pid":1,"tid":0,"name":"process_name","msg":"app"}\n'
    printf '{"ts":0,"kind":"meta","pid":1,"tid":2,"name":"thread_name","msg":"io"}\n'
    ev 0 begin 1 1 main; ev 10 begin 1 1 work; ev 20 begin 1 1 sub; ev 30 end 1 1 sub
    ev 40 end 1 1 work
    printf '{"ts":50,"kind":"instant","pid":1,"tid":1,"name":"tick"}\n'
    ev 60 begin 1 1 work; ev 70 end 1 1 work; ev 100 end 1 1 main
    ev 5 begin 1 2 a; ev 7 begin 1 2 'b;c'; ev 12 end 1 2 'b;c'; ev 20 end 1 2 a
} >t.jsonl
tracewright convert -t svg t.jsonl >graph.svg; echo "exit $?"
show graph.svg
xmlcheck graph.svg
# the same bytes every time
tracewright convert -t svg t.jsonl 2>/dev/null | cmp - graph.svg && echo "same output"

# 2. -o FILE.svg picks the format; nothing on standard output
tracewright convert -o out.svg t.jsonl 2>/dev/null; echo "exit $?"
cmp out.svg graph.svg && echo "out.svg written"

# 3. pruning: below 200 px go io, a, b;c and sub (4 frames); 20% of the
# 1180 px is 236 px
tracewright convert -t svg --svg-min-width=200 t.jsonl | grep -c '<g class="f"'
tracewright convert -t svg --svg-min-width=20% --svg-title='Pruned' t.jsonl 2>&1 |
    grep 'id="title"\|id="subtitle"\|warning'

# 4. flame chart: one lane per thread, the threads of a process together
# (pid 1 tid 1, pid 1 tid 2, then pid 2 tid 5, though tid 5 came before
# tid 2).  First event at 100, last (an instant) at 500: 400 ns over
# 1180 px, 2.95 px/ns.  main 100..300 (child 150..200): x 10, 590 px;
# child x 10 + 147.50, 147.50 px.  job 120..180: x 10 + 59, 177 px.  io
# 200..400 suspended 250..300: gross 150, call 200, x 10 + 295, 590 px.
# Lanes from y 54: 18 px for the name, 16 per row, 6 below (56, 40, 40).
# Matched % is of the outermost invocations' time: 200 + 60 + 200 = 460.
{
    ev 100 begin 1 1 main; ev 120 begin 2 5 job; ev 150 begin 1 1 child; ev 180 end 2 5 job
    ev 200 end 1 1 child; ev 200 begin 1 2 io; ev 250 suspend 1 2 io; ev 300 resume 1 2 io
    ev 300 end 1 1 main; ev 400 end 1 2 io
    printf '{"ts":500,"kind":"instant","pid":1,"tid":1,"name":"tick"}\n'
} >chart.jsonl
tracewright convert -t svg --flamechart chart.jsonl >chart.svg; echo "exit $?"
show chart.svg | sed -n '/id="subtitle"/p; /^<rect class/,$p'
xmlcheck chart.svg
# pruned below 150 px: child (147.50 px)
tracewright convert -t svg --flamechart --svg-min-width=150px chart.jsonl 2>&1 |
    grep -c '<g class="f"\|warning'
tracewright convert -t svg --flamechart --svg-min-width=150px chart.jsonl 2>/dev/null |
    grep 'id="subtitle"'

# 5. nothing to draw: still a valid SVG that says so
printf '{"ts":5,"kind":"instant","pid":1,"tid":1,"name":"tick"}\n' >instants.jsonl
tracewright convert -t svg instants.jsonl >none.svg; echo "exit $?"
show none.svg
xmlcheck none.svg
tracewright convert -f jsonl -t svg --flamechart /dev/null | grep 'id="empty"'
{ ev 10 begin 1 1 zero; ev 10 end 1 1 zero; } >zero.jsonl
tracewright convert -t svg zero.jsonl | grep 'id="empty"'

# 6. hostile names: markup characters, "]]>", a control character, bytes
# that are not UTF-8 (\366\337\001 in "Gr\366\337e\001]]>" as name_base64)
# come out escaped or as U+FFFD, and each name with such bytes is counted
{
    printf '{"ts":0,"kind":"meta","pid":1,"tid":0,"name":"process_name","msg":"<p> & \\"q\\"'"'"'"}\n'
    printf '{"ts":0,"kind":"meta","pid":1,"tid":1,"name":"thread_name","msg":"t]]>\\u0001"}\n'
    ev 0 begin 1 1 'a<b>&c]]>d'
    printf '{"ts":10,"kind":"begin","pid":1,"tid":1,"name":"x","name_base64":"R3L232UBXV0+"}\n'
    printf '{"ts":20,"kind":"end","pid":1,"tid":1,"name":"x","name_base64":"R3L232UBXV0+"}\n'
    ev 100 end 1 1 'a<b>&c]]>d'
} >hostile.jsonl
tracewright convert -t svg --svg-title='<T> & ]]> "t"' hostile.jsonl >hostile.svg; echo "exit $?"
grep 'id="title"\|<g class="f"' hostile.svg
xmlcheck hostile.svg
printf 'bytes \\366 and \\337 left: %s\n' "$(grep -c "$(printf '\366\|\337')" hostile.svg)"
tracewright convert -t svg --flamechart hostile.jsonl 2>&1 >hchart.svg | sed 's/^/chart: /'
grep 'class="lane"' hchart.svg
xmlcheck hchart.svg

# 7. labels are cut to fit at character boundaries, then escaped: at
# --svg-width=100 the frames have 80 px; x takes 90 of the thread's 100 ns,
# 72 px, which hold (72 - 6) / 7.2 = 9 columns: a longer name shows 7 and
# "..", here ending with the & (escaped whole after the cut) or with three
# wide characters of two columns each (the fourth would need 8)
for name in 'abcdeé&<xyz' '中文中文中文'; do
    { ev 0 begin 1 1 "$name"; ev 90 end 1 1 "$name"; ev 90 begin 1 1 z; ev 100 end 1 1 z; } >labels.jsonl
    tracewright convert -t svg --svg-width=100 labels.jsonl | grep -o '<text x="[^"]*" y="65">[^<]*</text>'
done

# 8. input that does not nest is repaired as stats repairs it, and counted
{ ev 0 begin 1 1 a; ev 5 end 1 1 x; ev 10 begin 1 1 b; ev 20 end 1 1 a; ev 30 begin 1 1 c; } >bad.jsonl
tracewright convert -t svg bad.jsonl | grep '<g class="f"' | grep -o '<title>[^<]*</title>'

# 9. option values that make no sense are errors before anything is written
for opt in --svg-width=99 --svg-width=100001 --svg-width=wide --svg-min-width=-1 \
    --svg-min-width=1181 --svg-min-width=100.5% --svg-min-width=0.1em --svg-min-width=.5 \
    --flamechart=maybe; do
    tracewright convert -t svg "$opt" t.jsonl; echo "$opt: exit $?"
done
