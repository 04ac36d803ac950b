# Where a diagnostic is, in every output form, for names and inputs that
# do not fit the usual form, and what --max-diagnostics never hides.
printf 'Process id is 1\n000001 1 { a\n' >nt.log
# SARIF: a relative path is a relative URI, an absolute one a file: URI
# (several leading slashes are one); standard input has no URI, but a
# description
tracewright validate --format sarif nt.log | grep -o '"artifactLocation":{[^}]*}' | sort -u
tracewright validate --format sarif "$PWD/nt.log" | grep -o '"artifactLocation":{[^}]*}' |
    sed "s|file://$PWD/|file:///PWD/|" | sort -u
tracewright validate --format sarif "/$PWD/nt.log" | grep -o '"artifactLocation":{[^}]*}' |
    sed "s|file://$PWD/|file:///PWD/|" | sort -u
tracewright validate --format sarif - <nt.log | grep -o '"artifactLocation":{[^}]*}' | sort -u
# a name with a line break stays on one line of text ('?'); JSON gives a
# name that is not UTF-8 exactly too (file_base64)
cp nt.log "$(printf 'two\nlines.log')"
tracewright validate "$(printf 'two\nlines.log')"
cp nt.log "$(printf 'k\366ln.log')"
tracewright validate --format json "$(printf 'k\366ln.log')" | head -n 1
# the reason of exit status 2 is shown whatever --max-diagnostics says, and
# the SARIF log says that results were left out
tracewright validate --max-diagnostics 1 nt.log missing.log; echo "exit $?"
tracewright validate --format sarif --max-diagnostics 1 nt.log missing.log 2>/dev/null >out.sarif
echo "exit $?"
"$BUILD/sarif-check" out.sarif
sed -n '/"invocations"/,$p' out.sarif
