# winIDEA's time categories: in preemption.txt task_a calls filter, and the
# timer ISR (another context) preempts filter for 300 ns.  Hand-computed:
#   filter  call 800 (1200-2000), gross = net = 500 (minus the preemption)
#   task_a  1st run: call 1500, gross 1200, net 700; 2nd run: 400 each
#           totals net 1100, gross 1600, call 1900; period 4000; outside 2500
#   timer_isr 300 everywhere
tracewright stats --by thread --format csv "$DATA/text1/good/preemption.txt"
