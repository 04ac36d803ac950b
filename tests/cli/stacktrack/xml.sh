# The documentation's example as expand_events would print the buffers
# tracewright writes for it: true header values (0x0004, 0x060c), times in
# seconds since start_hires, INFO text escaped for XML.
tracewright convert -t stacktrack-xml "$DATA/stacktrack/good/seed-example.tlg"
echo ---
tracewright convert -f stacktrack -t stacktrack-xml "$DATA/stacktrack/good/scopes.tlg" | grep -e 'depth' -e '<HIT' | head -n 4
