# What Text1 cannot hold is reported once: RTL instants (messages);
# a layout 1.0 .BIN also loses the threads (it has no core index).
tracewright convert -t text1 "$EXAMPLES/office-startup_4711.log" >/dev/null
tracewright convert -t text1-bin --text1-bin-write-version=1.0 -o rtl.BIN "$EXAMPLES/office-startup_4711.log"
od -A d -t x1 rtl.BIN | head -n 2
