# the shipped Text1 example: canonical (text1 -> jsonl -> text1 is byte for
# byte) and its timing per context, with preemption (NET, GROSS, CALL differ)
tracewright convert -t jsonl "$EXAMPLES/motor-control.txt" | tracewright convert -f jsonl -t text1 | cmp - "$EXAMPLES/motor-control.txt" && echo text1 ok
tracewright stats --by thread "$EXAMPLES/motor-control.txt" | sed "s|$EXAMPLES/||"
