# inputs that cannot be read: a directory, a missing file, a dangling
# symbolic link, a file without read permission (as user nobody when the
# tests run as root, who could read it); each named with its reason, exit 2
# (validate writes its diagnostics to standard output, its report)
mkdir dir
ln -s nowhere dangling
for cmd in stats validate "convert -t jsonl" detect; do
    for p in dir missing.log dangling; do
        tracewright $cmd "$p" >/dev/null
        echo "$cmd $p: exit $?"
    done
done
: >secret.log
chmod 000 secret.log
if [ "$(id -u)" -ne 0 ]; then
    tracewright stats secret.log >/dev/null
else
    chmod 755 .
    su nobody -s /bin/sh -c "$(command -v tracewright) stats secret.log" >/dev/null
fi
echo "unreadable: exit $?"
# one bad input among good ones: no merged report, exit 2
tracewright stats --format csv "$EXAMPLES/control-loop.csv" dir
echo "exit $?"
