# The rtl writer counts, in its lossy-conversion warning, every category
# and sub-scope name that an RTL reader splits or trims differently
# (docs/formats/rtl.md, "What a conversion to rtl loses"); the texts that
# read back as they are go uncounted.  Shown: the warning, the log
# (sed -n l: tabs as \t, line ends as $) and what reading it back gives.
cat >in.jsonl <<'IN'
{"ts":1000000,"kind":"instant","pid":1,"tid":1,"name":"z","cat":":"}
{"ts":2000000,"kind":"instant","pid":1,"tid":1,"name":"z","cat":": x"}
{"ts":3000000,"kind":"instant","pid":1,"tid":1,"name":"z","cat":"c :"}
{"ts":4000000,"kind":"instant","pid":1,"tid":1,"name":"z","cat":" :"}
{"ts":5000000,"kind":"instant","pid":1,"tid":1,"name":"z","cat":"a\n: b"}
{"ts":6000000,"kind":"begin","pid":1,"tid":1,"name":" padded\t","cat":"ctx"}
{"ts":7000000,"kind":"end","pid":1,"tid":1,"name":" padded\t","cat":"ctx"}
{"ts":8000000,"kind":"begin","pid":1,"tid":1,"name":"x\n","cat":"ctx"}
{"ts":9000000,"kind":"instant","pid":1,"tid":1,"name":": z","cat":""}
{"ts":10000000,"kind":"instant","pid":1,"tid":1,"name":"z","cat":"c:"}
{"ts":11000000,"kind":"instant","pid":1,"tid":1,"name":"z","cat":"::c"}
{"ts":12000000,"kind":"instant","pid":1,"tid":1,"name":" z ","cat":"c "}
{"ts":13000000,"kind":"instant","pid":1,"tid":1,"name":"z","cat":" c"}
{"ts":14000000,"kind":"begin","pid":1,"tid":1,"name":" free ","cat":"x:"}
{"ts":15000000,"kind":"begin","pid":1,"tid":1,"name":" free "}
{"ts":16000000,"kind":"meta","pid":1,"tid":0,"name":"trace_end"}
IN
tracewright convert -t rtl -o out.log in.jsonl
echo "exit $?"
sed -n l out.log
tracewright convert -t jsonl out.log
