# The EXAMPLES of the man page stay true: every example command of
# docs/tracewright.1 that can be run on the files of the repository is run,
# and what it prints must be what the man page shows.
#
# What an example is
#   An example block lies between a `.EX` and an `.EE` line.  In it, a line
#   starting with `$ ` is a command (normally `$ tracewright ...`; a command
#   of standard tools only, such as `$ head -n 1 merged.jsonl` looking at a
#   file an earlier example wrote, counts too).  A command line ending in
#   `|`, `&&`, `||` or `\` goes on on the next line.  The lines after the
#   command, up to the next `$ ` line or `.EE`, are its expected output:
#   standard output and standard error as a terminal shows them, interleaved.
#   Blocks without a `$ ` line (a progress line, a table shown as is) are
#   not examples.
#
# Roff escapes
#   The block lines are un-escaped as man(1) shows them: \- \e \\ \& \% \|
#   \^ \: \(xx and \[xx] glyphs (\(aq ' \(dq " \(mc µ \(lq “ ...), \fX font
#   changes, \" comments.  Any other escape, and any roff request other
#   than a comment inside a block, stops the test with an error (exit 2):
#   teach this script the new escape rather than let an example go unread.
#
# Which examples are checked (the others are listed as skipped, with the
# reason, so that the expectations pin them and no example loses its check
# silently)
#   - The command may use words, quotes, globs, pipes `|`, lists `&&` and
#     `||`, and the redirections `< FILE` and `> FILE`; any other shell
#     construct ($, `...`, ;, &, 2>, >>, ( ), VAR=value, ~, #) skips it.
#   - Every program it runs is tracewright or a standard tool that writes
#     no file: cat cmp cut diff echo grep head od sed sort tail tr uniq wc
#     (not `sed -i`, `sort -o`).
#   - Every file it reads must exist: a path under examples/ or tests/ of
#     the repository (globs must match), or a file that an earlier example
#     of the same block, or an earlier command of the example, writes.
#     For tracewright, a file is every operand, and the value of --names=;
#     the options that take a value are learned from
#     `tracewright help COMMAND` (an option written `--NAME VALUE` there)
#     and from `tracewright formats` (format options not `yes|no`).  For a
#     standard tool, a file is an operand that contains a `/` or looks like
#     NAME.EXT.  So an example about run1.log or startup_4711.log, which the
#     repository does not have, is illustrative and skipped.
#   - Every file it writes (-o FILE, --output=FILE, > FILE) must be a plain
#     name, so that it lands in the scratch directory.
#
# How an example is run
#   Each block gets a scratch directory (under the test's own working
#   directory, never in the repository) holding symbolic links `examples`
#   and `tests` to those of the repository, so that the relative paths of
#   the man page resolve; the commands of a block run there in order with
#   `sh -c`, standard input /dev/null, standard output and standard error
#   together (2>&1; no terminal, so no progress line).  Then the output is
#   compared with the man page's after removing what a terminal does not
#   show: a carriage return at the end of a line (CSV has CRLF line ends)
#   and blanks at the end of a line, on both sides.  The exit status is not
#   compared (the man page does not show it), but a status other than 0 is
#   noted on the example's line.
#
# Output: one line per checked example, `ok: COMMAND` or `STALE: COMMAND`
# followed by a unified diff (- the man page, + what the command prints);
# then one `skipped: COMMAND (REASON)` line per skipped example; then the
# count.  Exit status 1 when an example is stale.
#
# TW_MANPAGE=FILE checks another man page (a changed copy, to see the test
# fail).
set -u
manpage=${TW_MANPAGE:-$TOP/docs/tracewright.1}
ex=$PWD/extracted   # the examples as read from the man page
runs=$PWD/runs      # a scratch directory per example block

die() { echo "man-examples: $*" >&2; exit 2; }
[ -f "$manpage" ] || die "no man page '$manpage'"
case "$(pwd -P)/" in
"$(cd "$TOP" && pwd -P)"/*) die "run from a scratch directory, not from inside the repository" ;;
esac
mkdir "$ex" "$runs" || exit 2

# ---- the options of tracewright that take a value ------------------------
# One line per option: COMMAND -X or COMMAND --NAME, COMMAND `*` for the
# format options, which every reading or writing command takes.
for c in stats convert validate compare detect formats help; do
    tracewright help "$c" 2>/dev/null |
        sed -n "s/^ *\(-\([A-Za-z0-9]\), \)\{0,1\}--\([A-Za-z0-9-]*\) [^ ].*/$c -\2 --\3/p" |
        sed "s/ - / /"
done >"$ex/valopts"
tracewright formats | sed -n 's/^ *--\([A-Za-z0-9-]*\)=\([^ ]*\) .*/\1 \2/p' |
    awk '$2 != "yes|no" { print "* --" $1 }' >>"$ex/valopts"
grep -q '^convert -o --output$' "$ex/valopts" || die "cannot learn the options from 'tracewright help'"

# ---- extract the examples ------------------------------------------------
# For example N: N.cmd (the command, on one line), N.exp (its expected
# output), N.in (the files it reads, one a line), N.out (the files it
# writes), N.skip (why it cannot be run, when that shows in its text).
# index: one line "N BLOCK LINE" per example, in the order of the man page.
cat >"$ex/extract.awk" <<'EOF'
function fail(msg) {
    printf "man-examples: %s:%d: %s\n", FILENAME, FNR, msg > "/dev/stderr"
    failed = 1
    exit 2
}

# ---- roff escapes, as man(1) shows them ----
function setup_escapes() {
    one["-"] = "-";  one["e"] = "\\"; one["\\"] = "\\"
    one["&"] = "";   one["%"] = "";   one["|"] = "";   one["^"] = "";   one[":"] = ""
    one[" "] = " ";  one["~"] = " ";  one["0"] = " "
    glyph["aq"] = "'";  glyph["dq"] = "\""; glyph["ga"] = "`";  glyph["ti"] = "~"
    glyph["ha"] = "^";  glyph["rs"] = "\\"; glyph["ul"] = "_";  glyph["hy"] = "-"
    glyph["mi"] = "-";  glyph["pl"] = "+";  glyph["eq"] = "="
    glyph["mc"] = "\302\265";       glyph["+-"] = "\302\261"; glyph["mu"] = "\303\227"
    glyph["de"] = "\302\260";       glyph["co"] = "\302\251"
    glyph["en"] = "\342\200\223";   glyph["em"] = "\342\200\224"
    glyph["lq"] = "\342\200\234";   glyph["rq"] = "\342\200\235"
    glyph["oq"] = "\342\200\230";   glyph["cq"] = "\342\200\231"
    glyph["bu"] = "\342\200\242";   glyph["->"] = "\342\206\222"; glyph["<-"] = "\342\206\220"
}

function unescape(s,    out, i, c, d, name, j) {
    out = ""
    i = 1
    while (i <= length(s)) {
        c = substr(s, i, 1)
        if (c != "\\") { out = out c; i++; continue }
        d = substr(s, i + 1, 1)
        if (d == "\"") break                            # \" comment
        if (d == "f") {                                 # \fB \f(CW \f[CR]: font
            d = substr(s, i + 2, 1)
            if (d == "(") i += 5
            else if (d == "[") { j = index(substr(s, i + 3), "]"); if (!j) fail("unterminated \\f["); i += 3 + j }
            else i += 3
            continue
        }
        if (d == "(") { name = substr(s, i + 2, 2); i += 4 }
        else if (d == "[") {
            j = index(substr(s, i + 2), "]")
            if (!j) fail("unterminated \\[")
            name = substr(s, i + 2, j - 1); i += j + 2
        }
        else if (d in one) { out = out one[d]; i += 2; continue }
        else fail("roff escape '\\" d "' not known to this test: teach it the escape")
        if (!(name in glyph)) fail("roff glyph '" name "' not known to this test: teach it the glyph")
        out = out glyph[name]
    }
    return out
}

# c is one of the characters of set (not "", which index() finds everywhere
# in some awks)
function isin(set, c) { return c != "" && index(set, c) > 0 }

# ---- a command line, split into shell tokens ----
# tok[1..ntok], kind[i]: "word" (quotes removed; a glob stays a pattern),
# "op" (| || && < > and the refused ; & >> << ( ) >| <>) or "bad" (a word
# using a construct this test does not run: $, `...`, ~, #, N>).
function tokenize(s,    i, c, d, w, k, j, n) {
    ntok = 0
    n = length(s)
    i = 1
    while (i <= n) {
        c = substr(s, i, 1)
        if (c == " " || c == "\t") { i++; continue }
        if (isin("|&;<>()", c)) {
            d = substr(s, i + 1, 1)
            if ((c d) in twochar) { c = c d; i++ }
            tok[++ntok] = c; kind[ntok] = "op"; i++
            continue
        }
        w = ""; k = "word"
        while (i <= n) {
            c = substr(s, i, 1)
            if (isin(" \t|&;<>()", c)) break
            if (c == "'") {
                j = index(substr(s, i + 1), "'")
                if (!j) { k = "bad"; bad = "unterminated '"; i = n + 1; break }
                w = w substr(s, i + 1, j - 1); i += j + 1
                continue
            }
            if (c == "\"") {
                for (i++; i <= n && (c = substr(s, i, 1)) != "\""; i++) {
                    if (c == "$" || c == "`") { k = "bad"; bad = c }
                    if (c == "\\" && isin("$`\"\\", substr(s, i + 1, 1))) c = substr(s, ++i, 1)
                    w = w c
                }
                if (i > n) { k = "bad"; bad = "unterminated \"" }
                i++
                continue
            }
            if (c == "\\") { w = w substr(s, i + 1, 1); i += 2; continue }
            if (c == "$" || c == "`" || ((c == "~" || c == "#") && w == "")) { k = "bad"; bad = c }
            w = w c; i++
        }
        if (w ~ /^[0-9]+$/ && isin("<>", substr(s, i, 1))) { k = "bad"; bad = w substr(s, i, 1) }
        tok[++ntok] = w; kind[ntok] = k
        if (k == "bad") kind[ntok] = "bad:" bad
    }
}

# ---- which files a command reads and writes, or why it is not run ----
# Sets why (empty: runnable), nin/inp[], nout/outp[].
function add_in(p)  { if (p != "-" && p != "") inp[++nin] = p }
function add_out(p) {
    if (p == "-" || p == "") return
    if (p ~ /\// || p ~ /^\./ || p == "examples" || p == "tests")
        why = why ? why : "writes '" p "', outside its scratch directory"
    outp[++nout] = p
}
function classify(s,    i, start) {
    why = ""; nin = 0; nout = 0
    tokenize(s)
    start = 1
    for (i = 1; i <= ntok + 1; i++) {
        if (i <= ntok && kind[i] ~ /^bad:/)
            return why = "uses the shell construct '" substr(kind[i], 5) "'"
        if (i <= ntok && kind[i] == "op" && tok[i] != "|" && tok[i] != "&&" && tok[i] != "||" \
            && tok[i] != "<" && tok[i] != ">")
            return why = "uses the shell construct '" tok[i] "'"
        if (i > ntok || (kind[i] == "op" && tok[i] != "<" && tok[i] != ">")) {
            simple(start, i - 1)
            if (why) return why
            start = i + 1
        }
    }
    return why
}
# one simple command: tok[a..b]
function simple(a, b,    i, n, w, prog, cmd) {
    n = 0
    for (i = a; i <= b; i++) {
        if (kind[i] == "op") {              # < FILE, > FILE
            if (i == b || kind[i + 1] == "op") { why = "uses '" tok[i] "' without a file"; return }
            if (tok[i] == "<") add_in(tok[++i]); else add_out(tok[++i])
            continue
        }
        word[++n] = tok[i]
    }
    if (n == 0) { why = "has an empty command"; return }
    prog = word[1]
    if (prog ~ /^[A-Za-z_][A-Za-z0-9_]*=/) { why = "uses the shell construct 'VAR=value'"; return }
    if (prog == "tracewright") { tracewright_files(n); return }
    if (!(prog in standard)) { why = "runs '" prog "', not tracewright or a standard tool"; return }
    for (i = 2; i <= n; i++) {
        w = word[i]
        if ((prog == "sed" && w ~ /^(-i|--in-place)/) || (prog == "sort" && w ~ /^(-o|--output)/)) {
            why = "runs '" prog " " w "', which writes a file"; return
        }
        if (prog == "echo" || w ~ /^-/) continue
        if (w ~ /\// || w ~ /^[A-Za-z0-9_+-]+(\.[A-Za-z0-9_+-]+)*\.[A-Za-z][A-Za-z0-9]*$/) add_in(w)
    }
}
# tracewright's operands are files; the values of its options are not,
# except -o/--output (written) and --names= (read).
function tracewright_files(n,    i, w, cmd, only, name, j, c) {
    cmd = ""; only = 0
    for (i = 2; i <= n; i++) {
        w = word[i]
        if (only || w == "-" || w !~ /^-/) {
            if (cmd == "") cmd = w; else add_in(w)
            continue
        }
        if (w == "--") { only = 1; continue }
        if (w ~ /^--/) {
            name = w; sub(/=.*/, "", name)
            if (w ~ /=/) {
                if (name == "--output") add_out(substr(w, length(name) + 2))
                if (name == "--names") add_in(substr(w, length(name) + 2))
            } else if ((cmd " " name) in valopt || ("* " name) in valopt) {
                if (name == "--output") add_out(word[i + 1]); else if (name == "--names") add_in(word[i + 1])
                i++
            }
            continue
        }
        for (j = 2; j <= length(w); j++) {     # -abc: bundled short options
            c = substr(w, j, 1)
            if (!((cmd " -" c) in valopt)) continue
            if (j < length(w)) name = substr(w, j + 1); else name = word[++i]
            if (c == "o") add_out(name)
            break
        }
    }
}

# ---- the examples of the man page ----
function finish(    f, i) {
    if (!cur) return
    if (cont) fail("the command of the example goes on past its block")
    f = dir "/" cur
    print cmd > (f ".cmd"); close(f ".cmd")
    printf "%s", expect > (f ".exp"); close(f ".exp")
    classify(cmd)
    if (why != "") { print why > (f ".skip"); close(f ".skip") }
    printf "" > (f ".in"); for (i = 1; i <= nin; i++) print inp[i] > (f ".in"); close(f ".in")
    printf "" > (f ".out"); for (i = 1; i <= nout; i++) print outp[i] > (f ".out"); close(f ".out")
    print cur, block, line > (dir "/index")
    cur = 0
}
# a command line that goes on on the next line (its text, without a `\`)
function continues(s) {
    if (s ~ /\\$/) { cmd = cmd substr(s, 1, length(s) - 1); return 1 }
    cmd = cmd s
    return s ~ /(\||&&)[ \t]*$/
}

BEGIN {
    setup_escapes()
    split("cat cmp cut diff echo grep head od sed sort tail tr uniq wc", t, " ")
    for (i in t) standard[t[i]] = 1
    split("|| && >> << >| <> >& <& &>", t, " ")
    for (i in t) twochar[t[i]] = 1
}
FNR == NR { valopt[$1 " " $2] = 1; if (NF == 3) valopt[$1 " " $3] = 1; next }
/^\.EX/ { if (inblock) fail(".EX inside an example block"); inblock = 1; block++; next }
/^\.EE/ { if (!inblock) fail(".EE outside an example block"); finish(); inblock = 0; next }
!inblock { next }
/^[.']/ {
    if ($0 ~ /^[.'][ \t]*\\"/) next
    fail("roff request inside an example block: " $0)
}
{
    s = unescape($0)
    if (cont) {
        sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", cmd)
        cmd = cmd " "; cont = continues(s)
        next
    }
    if (s ~ /^\$ /) {
        finish()
        cur = ++n; line = FNR; expect = ""; cmd = ""
        cont = continues(substr(s, 3))
        next
    }
    if (cur) expect = expect s "\n"
}
END {
    if (failed) exit 2
    if (inblock) fail("example block without its .EE")
    if (!n) fail("no example found")
}
EOF
awk -v dir="$ex" -f "$ex/extract.awk" "$ex/valopts" "$manpage" || exit 2

# ---- run them ------------------------------------------------------------
# What a terminal shows: no CR at a line's end, no blanks at a line's end.
visible() { awk '{ sub(/\r$/, ""); sub(/[ \t]+$/, ""); print }' "$1"; }

nl='
'
checked=0 stale=0 skipped=0
lastblock=
: >"$ex/skipped"
while read -r n block line; do
    cmd=$(cat "$ex/$n.cmd")
    dir=$runs/$block
    if [ "$block" != "$lastblock" ]; then
        lastblock=$block
        mkdir "$dir" && ln -s "$TOP/examples" "$dir/examples" && ln -s "$TOP/tests" "$dir/tests" || exit 2
        lost='|'   # the files that skipped examples of this block would write
    fi

    # why it cannot be run, if it cannot
    why=
    [ -f "$ex/$n.skip" ] && why=$(cat "$ex/$n.skip")
    while [ -z "$why" ] && IFS= read -r f; do
        case "$f" in
        /* | .. | ../* | */../* | */..) why="names '$f', outside the repository"; continue ;;
        esac
        # the file (or the first match of the glob) in the block's directory
        # shellcheck disable=SC2086 # unquoted on purpose: the glob expands
        (cd "$dir" && IFS=$nl && set -- $f && [ -e "$1" ]) && continue
        # or one that an earlier command of the example writes (a && b)
        grep -Fqx -e "$f" "$ex/$n.out" && continue
        case "$lost" in
        *"|$f|"*) why="needs '$f', which a skipped example writes" ;;
        *) why="names '$f': no such file in examples/ or tests/" ;;
        esac
    done <"$ex/$n.in"
    if [ -n "$why" ]; then
        echo "skipped: $cmd ($why)" >>"$ex/skipped"
        skipped=$((skipped + 1))
        while IFS= read -r f; do lost="$lost$f|"; done <"$ex/$n.out"
        continue
    fi

    (cd "$dir" && sh -c "$cmd") >"$ex/$n.actual" 2>&1 </dev/null
    status=$?
    checked=$((checked + 1))
    note=
    [ "$status" -eq 0 ] || note="  (exit status $status)"
    visible "$ex/$n.exp" >"$ex/$n.want"
    visible "$ex/$n.actual" >"$ex/$n.got"
    if cmp -s "$ex/$n.want" "$ex/$n.got"; then
        echo "ok: $cmd$note"
    else
        stale=$((stale + 1))
        echo "STALE: $cmd$note"
        echo "--- man page, ${manpage#"$TOP"/} line $line"
        echo "+++ what it prints"
        diff -u "$ex/$n.want" "$ex/$n.got" | sed 1,2d
    fi
done <"$ex/index"

cat "$ex/skipped"
echo "$checked examples checked, $skipped skipped"
if [ "$stale" -gt 0 ]; then
    echo "$stale of them STALE: the man page or the program must change"
    exit 1
fi
