# The EXAMPLES of the man page stay true: every example command of
# docs/tracewright.1 that can be run on the files of the repository is run,
# and what it prints must be what the man page shows.
#
# An example block lies between a `.EX` and an `.EE` line.  What an example
# in it is, which examples are checked (the others are listed as skipped,
# with the reason), how they are run and how their output is compared
# (elisions `...` included) is shared with md-examples.sh and described in
# examples.lib, next to this script.  In short: a line starting with `$ ` is
# a command, normally `$ tracewright ...`; the lines after it up to the next
# `$ ` line or `.EE` are its expected output, standard output and standard
# error interleaved.
#
# Roff escapes
#   The block lines are un-escaped as man(1) shows them: \- \e \\ \& \% \|
#   \^ \: \(xx and \[xx] glyphs (\(aq ' \(dq " \(mc µ \(lq “ ...), \fX font
#   changes, \" comments.  Any other escape, and any roff request other
#   than a comment inside a block, stops the test with an error (exit 2):
#   teach this script the new escape rather than let an example go unread.
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
# shellcheck source-path=SCRIPTDIR source=examples.lib
. "$(dirname "$0")/examples.lib"
[ -f "$manpage" ] || ex_die "no man page '$manpage'"
ex_init

# ---- the example blocks of the man page ----------------------------------
cat >"$ex/man.awk" <<'EOF'
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

BEGIN { setup_escapes() }
/^\.EX/ { if (inblock) fail(".EX inside an example block"); inblock = 1; ex_block_start(); next }
/^\.EE/ { if (!inblock) fail(".EE outside an example block"); ex_block_end(); inblock = 0; next }
!inblock { next }
/^[.']/ {
    if ($0 ~ /^[.'][ \t]*\\"/) next
    fail("roff request inside an example block: " $0)
}
{ ex_line(unescape($0)) }
END {
    if (failed) exit 2
    if (inblock) fail("example block without its .EE")
    if (!nex) fail("no example found")
}
EOF
awk -v prog=man-examples -v dir="$ex" -v docname="${manpage#"$TOP"/}" \
    -f "$ex/examples.awk" -f "$ex/man.awk" "$ex/valopts" "$manpage" || exit 2

# ---- run them ------------------------------------------------------------
ex_label() { :; }
ex_where() { echo "man page, $1 line $2"; }
ex_run "the man page"
