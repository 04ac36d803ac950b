# From a format without suspend/resume, the writer derives them from nesting:
# a child's entry suspends its parent at the same ns, its exit resumes it.
# One unnamed thread: one context "thread 0", no CONTEXT column.
tracewright convert -t text1 "$DATA/lms/good/wiki-example.csv"
tracewright convert -t text1 "$EXAMPLES/control-loop.csv" | sed -n '/^\* TIMELINE/,$p' | head -n 8
