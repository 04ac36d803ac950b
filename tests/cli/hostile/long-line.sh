# a line of 1 GiB with no newline, from a pipe and from a (sparse) file:
# reported as too long and skipped, with memory bounded by
# --max-line-length (64 MiB by default), not by the line
head -c 1073741824 /dev/zero | tracewright stats -f rtl --format csv -
echo "exit $?"
truncate -s 1G huge.csv
tracewright stats -f lms --format csv huge.csv
echo "exit $?"
# the lines around a long one are read; a smaller limit, same answer from
# a file and from a pipe
{
    echo '2,0,main'
    echo '0,0,100'
    head -c 5000 /dev/zero | tr '\0' x
    echo
    echo '1,0,250'
} >long.csv
tracewright convert -t jsonl --max-line-length 4096 long.csv
echo "exit $?"
tracewright convert -t jsonl -f lms --max-line-length 4096 - <long.csv
echo "exit $?"
