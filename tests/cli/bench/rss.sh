# The benchmark's memory check (bench/run.sh --rss-sizes, make bench-rss)
# on two small sizes of rtl and text1-bin (the latter read from a pipe
# with its companion named: --names): a row per size with three peaks in
# KiB, then the format's verdict, "ok" and exit status 0 within the limits
# (by default 8 MiB, and 2 MiB of growth); "FAILED" and exit status 1 when
# a peak passes the limit asked (--rss-limit 1024) or grows more than
# asked (--rss-slack -1: a size no smaller than the smallest's fails), or
# when a command fails (a build whose tracewright fails on standard
# input); the smallest and largest inputs whatever the order of the sizes.
# Peaks vary, so their shape is checked, not their values.  A sanitizer's
# own memory (17 MiB and more under AddressSanitizer) passes the defaults:
# there the first run is given limits of 1 GiB, and the defaults are not
# checked.
check() {
    awk '
    /^format +size/ { next }
    NF == 5 && $3 ~ /^[0-9]+$/ && $4 ~ /^[0-9]+$/ && $5 ~ /^[0-9]+$/ { print $1, $2, "peaks"; next }
    {
        v = $0
        sub(/at most [0-9]+ KiB \([0-9]+ asked\)/, "at most N KiB (LIMIT asked)", v)
        sub(/: [+-][0-9]+ KiB at most \([-0-9]+ allowed\)/, ": +N KiB at most (SLACK allowed)", v)
        print v
    }' rss.txt
}
limits=
if nm "$BUILD/tracewright" 2>/dev/null | grep -q __asan_init; then
    limits="--rss-limit 1048576 --rss-slack 1048576"
fi
# shellcheck disable=SC2086
sh "$TOP/bench/run.sh" "$BUILD" --rss-sizes "200k 1M" --formats "rtl text1-bin" --data . $limits \
    >rss.txt 2>err.txt
echo "exit $?"
check
if [ -z "$limits" ]; then
    [ "$(grep -c '(8192 asked); .* (2048 allowed)$' rss.txt)" = 2 ] && echo "the defaults: 8192 and 2048 KiB"
else
    echo "the defaults: 8192 and 2048 KiB"  # (not checked: see above)
fi
grep -v '^generating ' err.txt >&2
grep -q 'no companion' stderr.log && echo "a .BIN read without its names"
sh "$TOP/bench/run.sh" "$BUILD" --rss-sizes "200k 1M" --formats rtl --data . --rss-limit 1024 >rss.txt 2>err.txt
echo "exit $?"
check
sh "$TOP/bench/run.sh" "$BUILD" --rss-sizes "200k 200k" --formats rtl --data . --rss-slack -1 >rss.txt 2>err.txt
echo "exit $?"
check
# shellcheck disable=SC2086
sh "$TOP/bench/run.sh" "$BUILD" --rss-sizes "1M 200k" --formats rtl --data . $limits >rss.txt 2>err.txt
echo "exit $?"
grep -o '1M against 200k' rss.txt
mkdir fake
ln -s "$BUILD/bench" fake/bench
cat >fake/tracewright <<SH
#!/bin/sh
for a; do last=\$a; done
[ "\$last" = - ] && exit 2
exec "$BUILD/tracewright" "\$@"
SH
chmod +x fake/tracewright
sh "$TOP/bench/run.sh" fake --rss-sizes "200k" --formats rtl --data . --rss-limit 1048576 >rss.txt 2>err.txt
echo "exit $?"
sed -n 's/.*allowed)//p' rss.txt
exit 0
