/*
 * What a conversion loses, from what each format's reader produces and its
 * writer keeps (tw_format.fidelity, set in src/formats/<name>.c): behind
 * `tracewright formats --matrix`, the "What a conversion to FORMAT loses"
 * sections of docs/formats/ and the projection that
 * tests/cli/roundtrip/matrix.sh checks every conversion against.
 */
#include <string.h>

#include "core/util.h"
#include "tracewright/format.h"

static const struct {
    const char *code, *text;
} KEEP[] = {
    {"thr", "events of several threads (merged into one)"},
    {"pid", "the process id"},
    {"proc", "events of several processes (written as one)"},
    {"org", "the wall-clock origin"},
    {"neg", "events before time 0"},
    {"ins", "instant events"},
    {"sr", "suspend and resume events"},
    {"cnt", "counter events"},
    {"nam", "thread and process names"},
    {"end", "the end of the trace (trace_end)"},
    {"cat", "categories"},
    {"msg", "message texts"},
    {"arg", "event attributes"},
    {"nest", "scopes that do not nest (repaired)"},
    {"own", "the source format's own metadata, counters and attributes"},
    {"ids", "thread and process ids beyond the target's width (renumbered)"},
};

const tw_fidelity *tw_format_fidelity(const tw_format *f) { return f ? f->fidelity : NULL; }

static int bit_index(unsigned bit) {
    for (int i = 0; i < (int)(sizeof KEEP / sizeof KEEP[0]); i++)
        if (bit == 1u << i) return i;
    return -1;
}

const char *tw_keep_code(unsigned bit) {
    int i = bit_index(bit);
    return i < 0 ? NULL : KEEP[i].code;
}

const char *tw_keep_text(unsigned bit) {
    int i = bit_index(bit);
    return i < 0 ? NULL : KEEP[i].text;
}

unsigned tw_conversion_loses(const tw_format *from, const tw_format *to, bool *rounds_time,
                             bool *rounds_origin) {
    const tw_fidelity *r = tw_format_fidelity(from), *w = tw_format_fidelity(to);
    if (rounds_time) *rounds_time = false;
    if (rounds_origin) *rounds_origin = false;
    if (!r || !w || !r->read_clock_ns || !w->write_clock_ns) return 0;
    unsigned kept = w->keeps;
    /* a family shares its vocabulary: its categories and attributes too */
    if (strcmp(r->family, w->family) == 0)
        kept |= TW_KEEP_OWN | TW_KEEP_CATEGORIES | TW_KEEP_ATTRIBUTES;
    if (from == to) return 0;
    unsigned lost = r->produces & ~kept;
    /* parts the writer holds only in part */
    unsigned rp = r->partly, wp = w->partly;
    if ((rp & TW_PARTLY_PROCESS_NAMES) && (wp & TW_PARTLY_NO_PROCESS_NAMES))
        lost |= r->produces & TW_KEEP_NAMES;
    if ((rp & TW_PARTLY_COUNTER_THREADS) && (wp & TW_PARTLY_NO_COUNTER_THREADS))
        lost |= r->produces & TW_KEEP_COUNTERS ? r->produces & TW_KEEP_THREADS : 0;
    if ((rp & TW_PARTLY_STATE_THREADS) && (wp & TW_PARTLY_NO_STATE_THREADS))
        lost |= r->produces & TW_KEEP_THREADS;
    if (rounds_time) *rounds_time = r->read_clock_ns < w->write_clock_ns;
    if ((r->produces & TW_KEEP_ORIGIN) && (w->keeps & TW_KEEP_ORIGIN) &&
        r->read_origin_ns < w->write_origin_ns) {
        lost |= TW_KEEP_ORIGIN;
        if (rounds_origin) *rounds_origin = true;
    }
    return lost;
}
