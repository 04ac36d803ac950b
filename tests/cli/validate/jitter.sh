# time going back on a thread is tolerated up to the format's jitter (LMS:
# 100 us, the markers' clock is sampled before the writer's lock); beyond
# it, or with a smaller --jitter, it is a time-goes-backwards warning
printf '2,0,a\n0,0,1000\n2,1,b\n0,1,10\n1,1,-60\n1,0,500\n' >small.csv
printf '2,0,a\n0,0,1000\n2,1,b\n0,1,10\n1,1,-250\n1,0,500\n' >large.csv
tracewright validate --strict small.csv; echo "small: $?"
tracewright validate --strict large.csv; echo "large: $?"
tracewright validate --strict --jitter 50us small.csv; echo "small, --jitter 50us: $?"
tracewright validate --strict --jitter 0.3ms large.csv; echo "large, --jitter 0.3ms: $?"
# stats uses the same tolerance
tracewright stats --format csv small.csv >/dev/null; echo "stats small: $?"
tracewright stats --format csv --jitter 0 small.csv >/dev/null; echo "stats --jitter 0: $?"
tracewright validate --jitter 5 small.csv; echo "no unit: $?"
tracewright validate --jitter 1h small.csv; echo "unknown unit: $?"
tracewright validate --jitter 9223372037s small.csv; echo "too long: $?"
tracewright validate --jitter 9223372036.854775807s small.csv >/dev/null; echo "the longest: $?"
