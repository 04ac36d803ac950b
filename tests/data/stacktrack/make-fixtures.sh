#!/bin/sh
# Writes the StackTrack fixtures byte by byte, one record at a time, from the
# layout in ../shared/specs/stacktrack.md (24-byte buffers: u16 flags, u16 pid,
# u32 sequence, 16-byte payload at offset 8).  Everything here is synthetic.
#
#   sh tests/data/stacktrack/make-fixtures.sh OUTDIR     (writes OUTDIR/good, OUTDIR/bad, OUTDIR/rules)
#
# The committed fixtures are this script's output; tests/cli/stacktrack/
# fixtures-regenerate.sh checks that those in good/ and bad/ still are.
set -eu
LC_ALL=C
export LC_ALL
[ $# -eq 1 ] || { echo "usage: $0 OUTDIR" >&2; exit 2; }
out=$1
mkdir -p "$out/good" "$out/bad" "$out/rules"

BE=0      # 1: big-endian buffers
ENTRY=24  # buffer size written (payload_offset stays 8, payloads 16)

# ---- bytes -------------------------------------------------------------------

byte() { printf "\\$(printf '%03o' $(($1 & 255)))"; }
zeros() { _z=$1; while [ "$_z" -gt 0 ]; do byte 0; _z=$((_z - 1)); done; }
# int NBYTES VALUE: an integer in the current byte order
int() {
    _n=$1 _v=$2
    if [ "$BE" = 1 ]; then
        _i=$((_n - 1))
        while [ $_i -ge 0 ]; do byte $((_v >> (8 * _i))); _i=$((_i - 1)); done
    else
        _i=0
        while [ $_i -lt "$_n" ]; do byte $((_v >> (8 * _i))); _i=$((_i + 1)); done
    fi
}
# header FLAGS PID SEQ
header() { int 2 "$1"; int 2 "$2"; int 4 "$3"; }
# end PAYLOADBYTES: pad the payload to 16 bytes and the buffer to ENTRY
end() { zeros $((16 - $1 + ENTRY - 24)); }

# ---- records -------------------------------------------------------------------

# prologue PID [VERSION [INFO_LEN ENTRY_SIZE PAYLOAD_OFFSET]]
prologue() {
    header 0x0004 "$1" 0
    int 4 0x12345678; int 4 "${2:-256}"
    byte "${3:-16}"; byte "${4:-$ENTRY}"; byte "${5:-8}"
    end 11
}
procinfo() { header 0x0005 "$1" 0; int 2 "$1"; int 2 "${2:-1}"; end 4; }  # PID [WRITECOUNT]
timetype() { header 0x0007 "$1" 0; int 8 "$2"; int 2 "${3:-32}"; end 10; } # PID TDIV [CODE]
timeinfo() { header 0x0006 "$1" 0; int 8 "$2"; int 4 "$3"; end 12; }      # PID HIRES START
# floc PID SEQ FILENUM [PATH]: the path follows as an INFO run
floc() {
    if [ $# -ge 4 ]; then header 0x0101 "$1" "$2"; else header 0x0001 "$1" "$2"; fi
    int 2 "$3"; int 2 0; int 2 0; end 6
    [ $# -lt 4 ] || info "$1" "$2" "$4"
}
# fproperty PID SEQ FILENUM PROPNUM TEXT
fproperty() { header 0x0102 "$1" "$2"; int 2 "$3"; int 2 0; int 2 "$4"; end 6; info "$1" "$2" "$5"; }
# sloc PID SEQ INDEX STYLE LINE FILENUM [NAME]
sloc() {
    if [ $# -ge 7 ]; then header 0x0103 "$1" "$2"; else header 0x0003 "$1" "$2"; fi
    int 2 "$3"; int 2 "$4"; int 2 "$5"; int 2 0; int 2 "$6"; end 10
    [ $# -lt 7 ] || info "$1" "$2" "$7"
}
# hit PID SEQ WHEN INDEX TID [FLAGS]: a HIT; FLAGS 0x0100 must be followed by INFO
hit() { header "${6:-0}" "$1" "$2"; int 8 "$3"; int 2 "$4"; int 2 "$5"; end 12; }
# chunk PID SEQ FLAGS TEXT: one INFO buffer (TEXT at most 16 bytes)
chunk() { header "$3" "$1" "$2"; printf '%s' "$4"; end ${#4}; }
# info PID SEQ TEXT: a whole INFO run, 16 bytes per buffer, the last NUL-padded
info() {
    _t=$3
    while :; do
        _c=$(printf '%.16s' "$_t")
        _t=${_t#"$_c"}
        if [ -z "$_t" ]; then chunk "$1" "$2" 0x02ff "$_c"; break; fi
        chunk "$1" "$2" 0x00ff "$_c"
    done
}

# ---- fixtures --------------------------------------------------------------------

P=0x060c       # the documentation's process
QPC=3579545    # a Windows performance counter: ticks per second
H=1000000      # start_hires
START=1111756865

# The documentation's example (PostProcessing chapter), byte for byte where
# it shows the values: a scope entry and a value annotation `name` = `bar`.
seed() {
    prologue $P
    procinfo $P
    timetype $P $QPC
    timeinfo $P $H $START
    floc $P 1 2 '..\..\..\libs\stacktrack\src\filesink.cpp'
    sloc $P 1 1 3 98 2 'file_sink_impl::open'
    hit $P 1 $((H + 2291)) 1 0x04c8
    sloc $P 2 2 6 99 2 name
    hit $P 2 $((H + 2452)) 2 0x04c8 0x0100
    info $P 2 bar
}

# Nested scopes on two threads with entry (3) and exit (4) checkpoints, an
# exit by flag bit, a value hit, a scope hit with INFO, a file property.
scopes() {
    prologue 0x1f40
    procinfo 0x1f40
    timetype 0x1f40 1000000000 0
    timeinfo 0x1f40 0 1700000000
    floc 0x1f40 1 1 'src/server.cpp'
    fproperty 0x1f40 1 1 0 'compiler=gcc 12'
    sloc 0x1f40 1 1 3 10 1 'Server::run'
    hit 0x1f40 1 1000 1 7
    sloc 0x1f40 2 2 3 20 1 'Server::poll'
    hit 0x1f40 2 1500 2 7
    hit 0x1f40 3 1700 1 9
    sloc 0x1f40 4 3 4 29 1 'Server::poll'
    hit 0x1f40 4 2500 3 7
    sloc 0x1f40 5 4 6 31 1 'queue'
    hit 0x1f40 5 2600 4 7 0x0100
    info 0x1f40 5 'depth=3 (ok & <fine>)'
    hit 0x1f40 6 3000 1 9 0x0400
    sloc 0x1f40 7 5 3 40 1 'Server::handle_request_from_a_client'
    hit 0x1f40 7 3100 5 7 0x0100
    info 0x1f40 7 'GET /index.html'
    floc 0x1f40 8 2 'src/handler.cpp'
    sloc 0x1f40 8 6 4 52 2 'Server::handle_request_from_a_client'
    hit 0x1f40 8 4200 6 7
    sloc 0x1f40 9 7 4 12 1 'Server::run'
    hit 0x1f40 9 5000 7 7
}

# The scopes fixture written big-endian: the same events.
big_endian() { BE=1; scopes; BE=0; }

# INFO runs interleaved with other records: two threads define checkpoints
# at once; a HIT uses a checkpoint whose name is still arriving; a SLOC and
# a HIT share a sequence number, each followed by its own run.
interleaved() {
    prologue 0x0100
    procinfo 0x0100
    timetype 0x0100 1000000000 0
    floc 0x0100 1 1 'a.c'
    header 0x0103 0x0100 5; int 2 1; int 2 3; int 2 5; int 2 0; int 2 1; end 10
    chunk 0x0100 5 0x00ff 'thread_one_works'
    header 0x0103 0x0100 6; int 2 2; int 2 3; int 2 6; int 2 0; int 2 1; end 10
    chunk 0x0100 6 0x00ff 'thread_two_works'
    hit 0x0100 5 100 1 1
    chunk 0x0100 5 0x02ff '_hard'
    hit 0x0100 6 110 2 2
    chunk 0x0100 6 0x00ff '_hard_too_and_lo'
    chunk 0x0100 6 0x02ff 'nger'
    sloc 0x0100 7 3 6 9 1 'v'
    hit 0x0100 7 120 3 1 0x0100
    chunk 0x0100 7 0x02ff 'x=1'
    sloc 0x0100 8 4 4 7 1 'thread_one_works_hard'
    hit 0x0100 8 130 4 1
    sloc 0x0100 9 5 4 8 1 'thread_two_works_hard_too_and_longer'
    hit 0x0100 9 140 5 2
}

# Two processes in one file, each with its own clock, files and checkpoint
# table (index 1 names different scopes); the second started 2 s later.
multi_pid() {
    prologue 0x0010
    procinfo 0x0010
    timetype 0x0010 1000000 0
    timeinfo 0x0010 5000 1600000000
    procinfo 0x0020
    timetype 0x0020 10000000 0
    timeinfo 0x0020 0 1600000002
    floc 0x0010 1 1 'one.c'
    sloc 0x0010 1 1 3 1 1 'one'
    hit 0x0010 1 5010 1 1
    floc 0x0020 1 1 'two.c'
    sloc 0x0020 1 1 3 2 1 'two'
    hit 0x0020 1 30 1 1
    sloc 0x0020 2 2 4 3 1 'two'
    hit 0x0020 2 45 2 1
    sloc 0x0010 2 2 4 4 1 'one'
    hit 0x0010 2 5020 2 1
}

# A second write cycle re-emits the definitions (PROCINFO writeCount 2);
# checkpoint 2 is a different scope in the new cycle.
cycles() {
    prologue 0x0042
    procinfo 0x0042
    timetype 0x0042 1000000000 0
    timeinfo 0x0042 0 1500000000
    floc 0x0042 1 1 'loop.c'
    sloc 0x0042 1 1 3 5 1 'tick'
    hit 0x0042 1 10 1 3
    sloc 0x0042 2 2 4 9 1 'tick'
    hit 0x0042 2 20 2 3
    procinfo 0x0042 2
    timetype 0x0042 1000000000 0
    timeinfo 0x0042 0 1500000000
    floc 0x0042 3 1 'loop.c'
    sloc 0x0042 3 1 3 5 1 'tick'
    hit 0x0042 3 30 1 3
    sloc 0x0042 4 2 3 15 1 'tock'
    hit 0x0042 4 35 2 3
    sloc 0x0042 5 3 4 17 1 'tock'
    hit 0x0042 5 38 3 3
    sloc 0x0042 6 4 4 9 1 'tick'
    hit 0x0042 6 40 4 3
}

# 32-byte buffers (a build with a wider entry): the PROLOGUE says so.
wide() {
    ENTRY=32
    prologue 0x0007
    timetype 0x0007 1000 0
    floc 0x0007 1 1 'w.c'
    sloc 0x0007 1 1 3 1 1 'wide'
    hit 0x0007 1 1 1 1
    sloc 0x0007 2 2 4 2 1 'wide'
    hit 0x0007 2 3 2 1
    ENTRY=24
}

# What tracewright's writer makes of the documentation's example plus a
# checkpoint without a source file and the scope's exit, written out by hand
# the writer's way: 10^9 ticks per second from start_hires 0, timetype 0,
# files and checkpoints numbered from 1 in order of first use, each defined
# with the sequence number of the hit that first needs it.
written() {
    prologue $P
    procinfo $P
    timetype $P 1000000000 0
    timeinfo $P 0 $START
    floc $P 1 1 '..\..\..\libs\stacktrack\src\filesink.cpp'
    sloc $P 1 1 3 98 1 'file_sink_impl::open'
    hit $P 1 640025 1 0x04c8
    sloc $P 2 2 6 99 1 name
    hit $P 2 685003 2 0x04c8 0x0100
    info $P 2 bar
    floc $P 3 2
    sloc $P 3 3 6 0 2 'no source'
    hit $P 3 700000 3 0x04c8 0x0100
    info $P 3 'exactly 16 bytes'
    sloc $P 4 4 4 98 1 'file_sink_impl::open'
    hit $P 4 800000 4 0x04c8
}

# The spec's exit rule (b): a checkpoint with the name and line of an entry
# checkpoint (style 3) but another style is that scope's exit.  Process 9:
# checkpoint 2 (style 5) is defined before its entry checkpoint 1, so its
# first hits are instants, and ends once checkpoint 1 is known, also where
# the reader takes its hits the fast way; checkpoint 3 has the name but
# another line and 4 the line but another name (neither is an exit); 5, a
# value annotation (style 6) with the entry's name and line, stays an
# instant.  Checkpoint 6 (style 7) is an exit too; its name arrives after
# its HIT.  When checkpoint 1 is defined again as `rest` (a new cycle), 2
# and 6 are no one's exit any more and 4 is the exit of `rest`.  Process 10
# has a `work` checkpoint of style 5 but its entry is process 9's: an
# instant.
exit_twins() {
    prologue 0x0009
    timetype 0x0009 1000000000 0
    floc 0x0009 1 1 'x.c'
    sloc 0x0009 1 2 5 10 1 'work'
    hit 0x0009 1 100 2 1
    hit 0x0009 2 110 2 1
    sloc 0x0009 3 1 3 10 1 'work'
    hit 0x0009 3 200 1 1
    hit 0x0009 4 300 2 1
    hit 0x0009 5 400 1 1
    hit 0x0009 6 500 2 1
    sloc 0x0009 7 3 5 11 1 'work'
    hit 0x0009 7 600 3 1
    sloc 0x0009 8 4 5 10 1 'rest'
    hit 0x0009 8 700 4 1
    hit 0x0009 9 800 1 1
    sloc 0x0009 10 5 6 10 1 'work'
    hit 0x0009 10 900 5 1 0x0100
    info 0x0009 10 'depth=1'
    header 0x0103 0x0009 11; int 2 6; int 2 7; int 2 10; int 2 0; int 2 1; end 10
    hit 0x0009 12 1000 1 1
    hit 0x0009 13 1100 6 1
    chunk 0x0009 11 0x02ff 'work'
    sloc 0x0009 14 1 3 10 1 'rest'
    hit 0x0009 14 1200 1 1
    hit 0x0009 15 1300 2 1
    hit 0x0009 16 1400 6 1
    hit 0x0009 17 1500 4 1
    timetype 0x000a 1000000000 0
    floc 0x000a 1 1 'x.c'
    sloc 0x000a 1 1 5 10 1 'work'
    hit 0x000a 1 1600 1 1
}

# Times whose tick difference from start_hires needs 65 bits: process 5
# counts 10^18 ticks per second from start_hires 1, and its hits at -2^63
# and -2^63 + 1 ticks are about 9.2 s before it; process 6's counter,
# read unsigned, crosses 2^63 (start_hires 2^63 - 256, hits 100, 256 and
# 512 ticks later; read signed the last two would be 2^64 ticks earlier).
# hit32 PID SEQ HIGH LOW INDEX TID: a little-endian HIT whose `when` is
# given as two 32-bit halves (dash saturates the constants below -2^63 + 1
# and above 2^63 - 1 that `hit` would need).
hit32() { header 0 "$1" "$2"; int 4 "$4"; int 4 "$3"; int 2 "$5"; int 2 "$6"; end 12; }
wide_ticks() {
    prologue 0x0005
    timetype 0x0005 1000000000000000000 0
    timeinfo 0x0005 1 1700000000
    floc 0x0005 1 1 't.c'
    sloc 0x0005 1 1 6 3 1 'v'
    hit32 0x0005 1 2147483648 0 1 1
    hit32 0x0005 2 2147483648 1 1 1
    timetype 0x0006 1000000000 0
    timeinfo 0x0006 9223372036854775552 1700000000
    floc 0x0006 1 1 't.c'
    sloc 0x0006 1 1 6 4 1 'u'
    hit 0x0006 1 9223372036854775652 1 1
    hit32 0x0006 2 2147483648 0 1 1
    hit32 0x0006 3 2147483648 256 1 1
}

# What tracewright's writer makes of file properties (the FPROPERTY
# buffers of stacktrack.file_property events), written out by hand the
# writer's way: those before the process's first HIT have sequence 1, the
# one the first HIT gets; the FLOC of a file first used by properties
# counts those that follow it; a later property of a file whose FLOC is
# out already (properties 0) has the last HIT's sequence number.
written_properties() {
    prologue 0x0003
    procinfo 0x0003
    timetype 0x0003 1000000000 0
    header 0x0101 0x0003 1; int 2 1; int 2 0; int 2 2; end 6
    info 0x0003 1 'z.c'
    fproperty 0x0003 1 1 0 'compiler=gcc 12'
    fproperty 0x0003 1 1 1 'optimization=-O2 -g'
    floc 0x0003 1 2 'y.c'
    sloc 0x0003 1 1 3 7 2 'main'
    hit 0x0003 1 8 1 1
    fproperty 0x0003 1 2 0 'late=yes'
    sloc 0x0003 2 2 4 9 2 'main'
    hit 0x0003 2 20 2 1
}

# ---- damaged inputs --------------------------------------------------------------

# The input ends 10 bytes into a HIT.
truncated() { seed; header 0 $P 3; int 2 0x1234; }

# A SLOC's INFO run never ends; the HIT that uses it waits until the end.
info_unended() {
    prologue 0x0005
    timetype 0x0005 1000000000 0
    floc 0x0005 1 1 'u.c'
    header 0x0103 0x0005 1; int 2 1; int 2 3; int 2 3; int 2 0; int 2 1; end 10
    chunk 0x0005 1 0x00ff 'a_name_that_neve'
    hit 0x0005 1 10 1 1
    chunk 0x0005 2 0x00ff 'orphan'
}

# A run still open more buffers later than --stacktrack-info-window=3 allows:
# its text is used as it stands and its late end is an orphan.
info_window() {
    prologue 0x0005
    timetype 0x0005 1000000000 0
    floc 0x0005 1 1 'w.c'
    sloc 0x0005 1 1 6 3 1 'v'
    header 0x0100 0x0005 1; int 8 10; int 2 1; int 2 1; end 12
    chunk 0x0005 1 0x00ff 'first sixteen by'
    hit 0x0005 2 11 1 1
    hit 0x0005 3 12 1 1
    hit 0x0005 4 13 1 1
    hit 0x0005 5 14 1 1
    chunk 0x0005 1 0x02ff 'tes'
}

# Twelve HITs of undefined checkpoints whose INFO runs never come: ten of
# each problem are reported one by one, then a total.
many_problems() {
    prologue 0x0005
    timetype 0x0005 1000000000 0
    _k=1
    while [ $_k -le 12 ]; do hit 0x0005 $_k $((_k * 10)) $_k 1 0x0100; _k=$((_k + 1)); done
}

# HITs of checkpoints no SLOC defines (the log starts inside a cycle).
undefined_scope() {
    prologue 0x0005
    timetype 0x0005 1000000000 0
    hit 0x0005 1 10 7 1
    hit 0x0005 2 20 7 1 0x0400
    hit 0x0005 3 30 8 1
}

# Checkpoint indexes and thread ids past 1023 (the reader hashes those and
# looks smaller ones up by index): scopes on thread 5000 with checkpoint
# 2000 around checkpoint 3, a sequence number going back on that thread,
# an undefined checkpoint 2001, and checkpoint 2000 defined again.
high_keys() {
    prologue 0x0005
    timetype 0x0005 1000000000 0
    floc 0x0005 1 1 'k.c'
    sloc 0x0005 2 2000 3 5 1 'far_scope'
    sloc 0x0005 3 3 3 6 1 'near_scope'
    hit 0x0005 4 10 2000 5000
    hit 0x0005 5 20 3 5000
    hit 0x0005 6 30 3 5000 0x0400
    hit 0x0005 5 40 2000 5000 0x0400
    hit 0x0005 7 50 2001 7
    sloc 0x0005 8 2000 3 9 1 'far_scope_again'
    hit 0x0005 9 60 2000 7
    hit 0x0005 10 70 2000 7 0x0400
}

# The reader's fast path for the commonest buffer (a HIT with flags 0 of
# the latest process, on a thread with a HIT before it, of a checkpoint
# below 1024 already delivered), held to the general path around it: each
# first hit of a checkpoint or thread, threads 7 (by index) and 4000
# (hashed), a hit while an INFO run is open and after it ends, a checkpoint
# defined again, an undefined one, one with neither file nor line, an exit
# flag, hits alternating between two processes (the second at 3 ticks per
# microsecond, not a whole number of nanoseconds per tick, and starting two
# seconds after the first), a sequence number going back and times that do
# not fit (one in each process), each on a hit the fast path would
# otherwise take.  The same buffers are written big-endian and 32 bytes
# wide, and read with other checkpoint styles and as instants.
plain_hits() {
    prologue 0x0005
    timetype 0x0005 1000000000 0
    timeinfo 0x0005 100 1700000000
    floc 0x0005 1 1 'p.c'
    sloc 0x0005 1 1 3 10 1 'outer'
    sloc 0x0005 1 2 4 11 1 'outer'
    sloc 0x0005 1 3 3 20 1 'inner'
    sloc 0x0005 1 4 4 21 1 'inner'
    sloc 0x0005 1 5 6 30 1
    floc 0x0005 1 2
    sloc 0x0005 1 6 6 0 2
    hit 0x0005 2 110 1 7
    hit 0x0005 3 120 3 7
    hit 0x0005 4 130 1 4000
    hit 0x0005 5 140 4 7
    hit 0x0005 6 150 3 7
    hit 0x0005 7 160 5 7 0x0100
    hit 0x0005 8 170 4 7
    hit 0x0005 9 175 3 4000
    info 0x0005 7 'value text'
    hit 0x0005 10 180 4 4000
    sloc 0x0005 11 3 3 22 1 'inner_again'
    hit 0x0005 12 190 3 7
    hit 0x0005 13 200 4 7 0x0400
    hit 0x0005 14 210 9 7
    hit 0x0005 15 212 6 7
    hit 0x0005 16 214 6 7
    timetype 0x0006 3000000 0
    timeinfo 0x0006 0 1700000002
    floc 0x0006 1 1 'q.c'
    sloc 0x0006 1 1 3 40 1 'other'
    sloc 0x0006 1 2 4 41 1 'other'
    hit 0x0006 2 30 1 7
    hit 0x0005 17 220 3 7
    hit 0x0006 3 33 2 7
    hit 0x0006 4 36 1 7
    hit 0x0006 5 40 2 7
    hit 0x0006 6 9223372036854775807 1 7
    hit 0x0006 7 50 1 7
    hit 0x0005 16 230 4 7
    hit 0x0005 18 240 3 7
    hit 0x0005 19 9223372036854775807 4 7
    hit 0x0005 20 250 4 7
    hit 0x0005 21 260 2 4000
}

plain_hits_wide() { BE=1; ENTRY=32; plain_hits; BE=0; ENTRY=24; }

# Seventy processes, each with checkpoint 1023 hit on thread 1023: the
# reader's by-index arrays have room for 64 such processes, so the last
# ones' checkpoints and sequence numbers are hashed; the last process
# redefines its checkpoint and its sequence number goes back.
many_processes() {
    prologue 0x0001
    _p=1
    while [ $_p -le 70 ]; do
        timetype $_p 1000000000 0
        floc $_p 1 1 'm.c'
        sloc $_p 2 1023 3 $_p 1 "scope_$_p"
        hit $_p 3 $((_p * 10)) 1023 1023
        hit $_p 4 $((_p * 10 + 5)) 1023 1023 0x0400
        _p=$((_p + 1))
    done
    sloc 70 5 1023 3 1 1 'scope_70_again'
    hit 70 3 800 1023 1023
    hit 70 6 810 1023 1023 0x0400
}

# A SLOC of a file no FLOC defines.
undefined_file() {
    prologue 0x0005
    timetype 0x0005 1000000000 0
    sloc 0x0005 1 1 6 12 9 'where'
    hit 0x0005 1 10 1 1
}

# No PROLOGUE: a buffer dump that starts mid-stream.
no_prologue() {
    timetype 0x0005 1000000000 0
    floc 0x0005 1 1 'p.c'
    sloc 0x0005 1 1 6 3 1 'value'
    hit 0x0005 1 10 1 1
}

# The magic is there, the geometry is impossible (entry_size 4).
bad_geometry() { prologue 0x0005 256 16 4 8; no_prologue; }

# A format version nobody has seen.
version() { prologue 0x0005 512; no_prologue; }

# HITs before any TIMETYPE (raw ticks), then a TIMETYPE with divisor 0.
no_timetype() {
    prologue 0x0005
    floc 0x0005 1 1 't.c'
    sloc 0x0005 1 1 6 3 1 'raw'
    hit 0x0005 1 123456 1 1
    timetype 0x0005 0 0
    hit 0x0005 2 123457 1 1
}

# INFO with no owner; a buffer of an unknown type with its INFO run.
orphans() {
    prologue 0x0005
    timetype 0x0005 1000000000 0
    chunk 0x0005 9 0x02ff 'nobody'
    header 0x0109 0x0005 3; zeros 16
    info 0x0005 3 'carried by type 9'
    floc 0x0005 4 1 'o.c'
    sloc 0x0005 4 1 6 3 1 'after'
    hit 0x0005 4 10 1 1
}

# A HIT whose time does not fit in nanoseconds: dropped with an error.
time_overflow() {
    prologue 0x0005
    timetype 0x0005 1 0
    floc 0x0005 1 1 'o.c'
    sloc 0x0005 1 1 6 3 1 'late'
    hit 0x0005 1 9223372036854775807 1 1
    hit 0x0005 2 5 1 1
}

# ---- rule fixtures (rules.list): one rule each that no bad/ fixture shows -----------
# (pairing, UTF-8, HIT sequence numbers), at 10^9 ticks per second so that
# the ticks are nanoseconds

# rule_start: PROLOGUE, TIMETYPE and the file of process 5
rule_start() {
    prologue 0x0005
    timetype 0x0005 1000000000 0
    floc 0x0005 1 1 'r.c'
}

# A value checkpoint whose name is Latin-1 (caf\xE9), not UTF-8.
rule_invalid_utf8() {
    rule_start
    sloc 0x0005 1 1 6 3 1 "$(printf 'caf\351')"
    hit 0x0005 1 10 1 1
}

# The exit of a scope whose entry is not in the log.
rule_unmatched_end() {
    rule_start
    sloc 0x0005 1 1 4 9 1 'work'
    hit 0x0005 1 10 1 1
}

# `inner` is still open when `outer` exits.
rule_unclosed_scope() {
    rule_start
    sloc 0x0005 1 1 3 2 1 'outer'
    hit 0x0005 1 10 1 1
    sloc 0x0005 2 2 3 4 1 'inner'
    hit 0x0005 2 20 2 1
    sloc 0x0005 3 3 4 9 1 'outer'
    hit 0x0005 3 30 3 1
}

# The log ends inside a scope.
rule_unclosed_at_eof() {
    rule_start
    sloc 0x0005 1 1 3 2 1 'work'
    hit 0x0005 1 10 1 1
}

# A thread's second value hit is 10 ticks earlier than its first.
rule_time_backwards() {
    rule_start
    sloc 0x0005 1 1 6 3 1 'v'
    hit 0x0005 1 20 1 1
    hit 0x0005 2 10 1 1
}

# Sequence numbers: thread 2's hit 3 before thread 1's hit 2 is how threads
# interleave; thread 1's hit 1 after its hit 2 goes back.
rule_sequence() {
    rule_start
    sloc 0x0005 1 1 6 3 1 'v'
    hit 0x0005 1 10 1 1
    hit 0x0005 3 30 1 2
    hit 0x0005 2 20 1 1
    hit 0x0005 1 40 1 1
}

seed >"$out/good/seed-example.tlg"
scopes >"$out/good/scopes.tlg"
scopes >"$out/good/scopes-instants.tlg"
scopes >"$out/good/scopes-exit-style.tlg"
big_endian >"$out/good/big-endian.tlg"
interleaved >"$out/good/interleaved.tlg"
multi_pid >"$out/good/multi-pid.tlg"
cycles >"$out/good/cycles.tlg"
wide >"$out/good/wide.tlg"
written >"$out/good/written.tlg"
exit_twins >"$out/good/exit-twins.tlg"
wide_ticks >"$out/good/wide-ticks.tlg"
written_properties >"$out/good/written-properties.tlg"
truncated >"$out/bad/truncated.tlg"
info_unended >"$out/bad/info-unended.tlg"
info_window >"$out/bad/info-window.tlg"
undefined_scope >"$out/bad/undefined-scope.tlg"
high_keys >"$out/bad/high-keys.tlg"
plain_hits >"$out/bad/plain-hits.tlg"
plain_hits >"$out/bad/plain-hits-styles.tlg"
plain_hits >"$out/bad/plain-hits-instants.tlg"
plain_hits_wide >"$out/bad/plain-hits-wide.tlg"
many_processes >"$out/bad/many-processes.tlg"
many_problems >"$out/bad/many-problems.tlg"
undefined_file >"$out/bad/undefined-file.tlg"
no_prologue >"$out/bad/no-prologue.tlg"
bad_geometry >"$out/bad/bad-geometry.tlg"
version >"$out/bad/version.tlg"
no_timetype >"$out/bad/no-timetype.tlg"
orphans >"$out/bad/orphans.tlg"
time_overflow >"$out/bad/time-overflow.tlg"
: >"$out/bad/empty.tlg"
rule_invalid_utf8 >"$out/rules/invalid-utf8.tlg"
rule_unmatched_end >"$out/rules/unmatched-end.tlg"
rule_unclosed_scope >"$out/rules/unclosed-scope.tlg"
rule_unclosed_at_eof >"$out/rules/unclosed-at-eof.tlg"
rule_time_backwards >"$out/rules/time-goes-backwards.tlg"
rule_sequence >"$out/rules/stacktrack-sequence.tlg"
