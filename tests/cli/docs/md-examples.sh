# The examples of the Markdown documentation stay true: every example
# command of README.md, docs/*.md and docs/formats/*.md that can be run on
# the files of the repository is run, and what it prints must be what the
# page shows.
#
# Which blocks hold examples
#   A fenced code block, opened by a line of three or more backticks or
#   tildes (indented or not, with or without an info string such as `sh`
#   or `console`) and closed by a line of at least as many of the same
#   character and nothing else, whatever its language.  Its lines lose the
#   indentation of the opening fence (so that blocks in list items read
#   the same).  Indented code blocks and inline code are not read.  A
#   fence left open at the end of a page stops the test with an error
#   (exit 2).
#
# What an example is, which examples are checked (the others are listed as
# skipped, with the reason), how they are run and how their output is
# compared is shared with man-examples.sh and described in examples.lib,
# next to this script.  In short: in a block, a line starting with `$ ` is
# a command (`$ tracewright ...`, or standard tools only); the lines after
# it up to the next `$ ` line or the end of the block are its expected
# output, standard output and standard error interleaved.  A block without
# a `$ ` line is no example: a list of commands without their output, an
# output shown alone, or a command in one block and its output in the
# next, or after prose such as "From tests/cli/...:", is not checked, and
# not listed either.  Markdown needs no un-escaping: the block is read as
# it stands.
#
# Elisions
#   The pages shorten long output: a line `...` stands for any number of
#   lines, `[... 12 more rows ...]` for exactly 12 (see examples.lib).
#
# docs/performance.md
#   is read, but its examples are all skipped ("a benchmark transcript"):
#   its figures are measurements, which differ from machine to machine and
#   from run to run.  (It has no `$ ` example at present; they would be
#   listed as skipped, so that none goes unnoticed.)
#
# Output: one line per checked example, `ok: FILE: COMMAND` or
# `STALE: FILE: COMMAND` followed by a unified diff (- the page, + what the
# command prints); then one `skipped: FILE: COMMAND (REASON)` line per
# skipped example; then the count.  Exit status 1 when an example is stale.
#
# TW_DOCS_TOP=DIR checks the pages of DIR instead (DIR/README.md,
# DIR/docs/*.md, DIR/docs/formats/*.md: a changed copy, to see the test
# fail); the examples still run on the repository's examples/ and tests/.
set -u
docs=${TW_DOCS_TOP:-$TOP}
# shellcheck source-path=SCRIPTDIR source=examples.lib
. "$(dirname "$0")/examples.lib"
[ -f "$docs/README.md" ] || ex_die "no README.md in '$docs'"
ex_init

# ---- the example blocks of the pages -------------------------------------
cat >"$ex/md.awk" <<'EOF'
# the run of backticks or tildes that starts s after its indentation, or ""
function fence(s) {
    sub(/^ +/, "", s)
    return match(s, /^(```+|~~~+)/) ? substr(s, 1, RLENGTH) : ""
}
function unclosed() {
    if (open == "") return
    printf "%s: %s:%d: a code fence without its end\n", prog, openfile, openline > "/dev/stderr"
    failed = 1
    exit 2
}
FNR == 1 {
    unclosed()
    ex_skip_all = FILENAME == "docs/performance.md" ? \
        "a benchmark transcript in docs/performance.md: its figures vary with the machine and the run" : ""
}
open == "" {
    f = fence($0)
    if (f == "") next
    rest = $0; sub(/^ *[`~]+/, "", rest)
    if (f ~ /^`/ && index(rest, "`")) next     # inline code, not a fence
    open = f; openfile = FILENAME; openline = FNR
    indent = match($0, /[^ ]/) - 1
    ex_block_start()
    next
}
{
    f = fence($0)
    rest = $0; sub(/^ *[`~]+/, "", rest)
    if (f != "" && substr(f, 1, 1) == substr(open, 1, 1) && length(f) >= length(open) && rest ~ /^[ \t]*$/) {
        ex_block_end()
        open = ""
        next
    }
    s = $0
    for (i = 0; i < indent && substr(s, 1, 1) == " "; i++) s = substr(s, 2)
    ex_line(s)
}
END {
    if (failed) exit 2
    unclosed()
    if (!nex) fail("no example found")
}
EOF
(cd "$docs" && awk -v prog=md-examples -v dir="$ex" -f "$ex/examples.awk" -f "$ex/md.awk" \
    "$ex/valopts" README.md docs/*.md docs/formats/*.md) || exit 2

# ---- run them ------------------------------------------------------------
ex_label() { printf '%s: ' "$1"; }
ex_where() { echo "$1 line $2"; }
ex_run "the documentation"
