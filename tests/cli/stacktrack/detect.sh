# A PROLOGUE is recognised without the .tlg extension, from a pipe too; a
# .tlg without one is recognised by its buffers' flags words.
cp "$DATA/stacktrack/good/seed-example.tlg" capture.bin
tracewright detect capture.bin
tracewright convert -t jsonl - <capture.bin | tail -n 1
cp "$DATA/stacktrack/bad/no-prologue.tlg" wrapped.tlg
tracewright detect wrapped.tlg
