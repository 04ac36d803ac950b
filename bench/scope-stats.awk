# scope-stats.awk - per scope: number of completed calls and total gross
# (inclusive) time, the way one would script it without tracewright.
#
#   awk -v fmt=rtl -f bench/scope-stats.awk FILE
#
# fmt is one of rtl, lms, coreprofiler, text1.  Begin and end events are
# paired with one stack per thread.  Output: one line per scope,
#   NAME <TAB> COUNT <TAB> GROSS_NS
# in no particular order.  Recursion (a scope entered again while open) is not
# treated specially: its inner calls add to the gross time as well.

BEGIN {
    if (fmt == "lms" || fmt == "text1")
        FS = ","
    else if (fmt != "rtl" && fmt != "coreprofiler") {
        print "scope-stats.awk: set -v fmt=rtl|lms|coreprofiler|text1" > "/dev/stderr"
        exit 2
    }
}

function enter(tid, scope, t_begin) {
    depth[tid]++
    open_name[tid, depth[tid]] = scope
    open_ts[tid, depth[tid]] = t_begin
}

function leave(tid, t_end,    d, scope) {
    d = depth[tid]
    if (d < 1)
        return
    scope = open_name[tid, d]
    count[scope]++
    gross[scope] += t_end - open_ts[tid, d]
    depth[tid] = d - 1
}

# "0x0000002a" and "0x2A" are the same id
function hexkey(h) {
    h = tolower(h)
    sub(/^0x0*/, "", h)
    return h == "" ? "0" : h
}

# ---- rtl: "TIME THREAD { NAME" / "TIME THREAD } NAME", TIME in ms ----------
fmt == "rtl" && ($3 == "{" || $3 == "}") && $1 ~ /^[0-9]+$/ {
    name = $0
    sub(/^[0-9]+ [0-9]+ [{}] ?/, "", name)
    if ($3 == "{")
        enter($2, name, $1 * 1000000)
    else
        leave($2, $1 * 1000000)
    next
}

# ---- lms: "2,ID,LABEL", "0,ID,DIFF" begin, "1,ID,DIFF" end; DIFF in us ----
fmt == "lms" && $1 == 2 {
    label = $0
    sub(/^2,[0-9]+,/, "", label)
    lms_label[$2] = label
    next
}
fmt == "lms" && ($1 == 0 || $1 == 1) {
    lms_time += $3
    if ($1 == 0)
        enter(0, lms_label[$2], lms_time * 1000)
    else
        leave(0, lms_time * 1000)
    next
}

# ---- coreprofiler: names from "fun nam", stacks from "sam str" -------------
fmt == "coreprofiler" && $1 == "fun" && $2 == "nam" {
    fname = $0
    sub(/^fun nam [^ ]+ "/, "", fname)
    sub(/" ".*$/, "", fname)   # the return type and signature follow
    sub(/"$/, "", fname)       # 2017 writers: the name only
    func_name[hexkey($3)] = fname
    next
}
fmt == "coreprofiler" && $1 == "sam" && $2 == "str" {
    # sam str THREAD MS COUNT KEEP:DEPTH[:IP] FRAME[:IP]...
    thread = $3
    ts = $4 * 1000000
    split($6, kd, ":")
    while (depth[thread] > kd[1] + 0)
        leave(thread, ts)
    for (i = 7; i <= NF; i++) {
        frame = $i
        sub(/:.*/, "", frame)
        enter(thread, func_name[hexkey(frame)], ts)
    }
    next
}

# ---- text1: "* SECTION TEMPLATE" headers; HANDLE,EVENT,VALUE,TIME,CONTEXT --
fmt == "text1" && /^\* / {
    split($0, words, " ")
    section = words[2]
    next
}
fmt == "text1" && section == "HANDLE(Functions)" {
    handle_name[$1] = $2
    next
}
fmt == "text1" && section == "TIMELINE" {
    if ($2 == "E")
        enter($5, handle_name[$1], $4)
    else if ($2 == "X")
        leave($5, $4)
    next
}

END {
    for (name in count)
        printf "%s\t%d\t%.0f\n", name, count[name], gross[name]
}
