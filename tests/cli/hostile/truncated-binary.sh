# A binary file cut at every byte offset of its first records: never a crash
# (exit status 0, 1 or 2), the events before the cut are those of the whole
# file (a prefix of its jsonl, the trace line aside), and a cut inside a
# record is reported (truncated-file) with the offset and index of that
# record and the number of bytes left over.  One line per run of cuts with
# the same outcome:
#   cuts A-B: exit S, N events, prefix yes|NO, tail ok|WRONG|MISSING|none
# (tail: the truncated-file diagnostic; none for a cut between records),
# then the ids of the other diagnostics.
# StackTrack: cycles.tlg (29 buffers of 24 bytes), cut at 0..264 (11 buffers);
# text1-bin: spec-example.txt.BIN (14 records of 24 bytes), cut at every
# byte, with its companion text export given by --names.
summarise() {   # FILE LAST ARGS...: cut FILE at 0..LAST
    name=$1 last=$2
    shift 2
    tracewright convert -t jsonl "$@" "$name" >whole.jsonl 2>whole.err || echo "whole file: exit $?"
    c=0 files=
    while [ $c -le "$last" ]; do
        head -c $c "$name" >cut$c
        tracewright convert -t jsonl "$@" cut$c >cut$c.jsonl 2>cut$c.err
        echo "$c $?" >cut$c.status
        files="$files cut$c.status cut$c.jsonl cut$c.err"
        c=$((c + 1))
    done
    # shellcheck disable=SC2086
    awk -v size=24 '
        function done() {
            if (c == "") return
            if (tail == "") tail = c % size ? "MISSING" : "none"
            s = sprintf(" exit %d, %d events, prefix %s, tail %s%s", status, n, prefix, tail,
                        others == "" ? "" : ", also" others)
            if (s != prev) { if (range != "") print range prev; range = "cuts " c; first = c; prev = s }
            else range = "cuts " first "-" c
        }
        FILENAME == "whole.jsonl" { if (!/"kind":"trace"/) whole[++nw] = $0; next }
        FILENAME ~ /status$/ {
            done(); c = $1; status = $2; n = 0; prefix = "yes"; tail = ""; others = ""
            split("", seen)
            if (status > 2) print "CRASH at cut " c ": exit " status
            next
        }
        FILENAME ~ /jsonl$/ { if (!/"kind":"trace"/ && whole[++n] != $0) prefix = "NO"; next }
        /\[truncated-file\]$/ {
            rec = int(c / size); left = c - rec * size
            want = "^cut" c ": warning: offset " rec * size " \\(record " rec "\\): the last " left \
                   " bytes? do(es)? not make a whole " size "-byte "
            tail = $0 ~ want ? "ok" : "WRONG"; next
        }
        { id = $NF; if (!(id in seen)) { seen[id]; others = others " " id } }
        END { done(); print range prev }' whole.jsonl $files
    rm -f cut*
}
cp "$DATA/stacktrack/good/cycles.tlg" cycles.tlg
echo "== stacktrack"
summarise cycles.tlg 264 -f stacktrack
cp "$DATA/text1-bin/good/spec-example.txt.BIN" spec.BIN
echo "== text1-bin"
summarise spec.BIN 336 -f text1-bin --text1-lines --names="$DATA/text1-bin/good/spec-example.txt"
