# 'tracewright help CMD' is 'tracewright CMD --help'
tracewright help convert >a
tracewright convert --help >b
cmp a b && tracewright help detect && tracewright help nope
