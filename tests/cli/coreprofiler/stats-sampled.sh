# sampling mode, the spec's example: Main and func#0x9 from 20 to 40 ms,
# func#0xb from 30 to 40 ms, JIT of Main 12-15 ms.  Main's net time is 0,
# func#0x9 has 10 ms net (20-30) and 20 ms gross.
cp "$DATA/coreprofiler/good/spec-example.tracelog" .
tracewright stats spec-example.tracelog 2>/dev/null
