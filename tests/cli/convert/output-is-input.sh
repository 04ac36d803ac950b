# the output file may be one of the inputs: it is replaced only once the
# conversion is complete (here: an LMS file rewritten in canonical form)
printf '2,0,a\r\n0,0,5\r\n1,0,5\r\n' >loop.csv
chmod 640 loop.csv
tracewright convert -t lms -o loop.csv loop.csv
echo "exit $?"
od -c loop.csv | head -n 2
ls -l loop.csv | cut -c1-10
ls -A
