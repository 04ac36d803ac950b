# 'tracewright help CMD' is 'tracewright CMD --help'
tracewright help convert >a
tracewright convert --help >b
cmp a b && tracewright help detect && tracewright help nope
# help's own usage: 'help --help' (and -h, 'help help'); an unknown command
# points to the list of commands
tracewright help --help && tracewright help -h >c && tracewright help help >d && cmp c d &&
    tracewright help --help | cmp - c && echo "help's help: same"
tracewright help stats extra; echo "exit $?"
tracewright help --nope; echo "exit $?"
