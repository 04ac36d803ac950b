/*
 * What each format's reader produces and its writer keeps: the table behind
 * `tracewright formats --matrix`, the "What a conversion to FORMAT loses"
 * sections of docs/formats/ and the projection that
 * tests/cli/roundtrip/matrix.sh checks every conversion against.
 */
#include <string.h>

#include "core/util.h"
#include "tracewright/format.h"

#define NS 1
#define US TW_NS_PER_US
#define MS TW_NS_PER_MS
#define S TW_NS_PER_S

enum {
    BASE = TW_KEEP_THREADS | TW_KEEP_NESTING | TW_KEEP_IDS,
};

/*
 * Parts that a writer may hold only in part, and the readers whose events
 * have the part it does not hold:
 *   PROCESS_NAMES: the reader's names (nam) may be names of processes;
 *   COUNTER_THREADS: the reader's counters (cnt) may be on several threads;
 *   STATE_THREADS: the reader may give Text1 states (scopes of category
 *   state) any thread, not only their state's track;
 *   NO_PROCESS_NAMES: the writer keeps thread names, not process names;
 *   NO_COUNTER_THREADS: the writer keeps threads, but writes counters
 *   without theirs (a Text1 write has no context);
 *   NO_STATE_THREADS: the writer puts a state's events on its track.
 */
enum {
    PROCESS_NAMES = 1u << 0,
    COUNTER_THREADS = 1u << 1,
    STATE_THREADS = 1u << 2,
    NO_PROCESS_NAMES = 1u << 3,
    NO_COUNTER_THREADS = 1u << 4,
    NO_STATE_THREADS = 1u << 5,
};

static const struct entry {
    tw_fidelity f;
    unsigned partly;
} TABLE[] = {
    {{"rtl", "rtl",
     BASE | TW_KEEP_PID | TW_KEEP_ORIGIN | TW_KEEP_INSTANTS | TW_KEEP_TRACE_END |
         TW_KEEP_CATEGORIES,
     BASE | TW_KEEP_PID | TW_KEEP_ORIGIN | TW_KEEP_INSTANTS | TW_KEEP_TRACE_END |
         TW_KEEP_CATEGORIES,
     MS, MS, US, US}, 0},
    {{"lms", "lms", TW_KEEP_NESTING | TW_KEEP_NEGATIVE,
     TW_KEEP_NESTING | TW_KEEP_NEGATIVE | TW_KEEP_IDS, US, US, 0, 0}, 0},
    {{"coreprofiler", "coreprofiler",
     TW_KEEP_THREADS | TW_KEEP_IDS | TW_KEEP_ORIGIN | TW_KEEP_INSTANTS | TW_KEEP_COUNTERS |
         TW_KEEP_NAMES | TW_KEEP_ATTRIBUTES | TW_KEEP_OWN,
     TW_KEEP_THREADS | TW_KEEP_IDS | TW_KEEP_ORIGIN, MS, MS, MS, MS}, PROCESS_NAMES | COUNTER_THREADS},
    {{"text1", "text1",
     BASE | TW_KEEP_NEGATIVE | TW_KEEP_SUSPEND | TW_KEEP_COUNTERS | TW_KEEP_NAMES | TW_KEEP_CATEGORIES |
         TW_KEEP_ATTRIBUTES | TW_KEEP_OWN,
     BASE | TW_KEEP_NEGATIVE | TW_KEEP_SUSPEND | TW_KEEP_COUNTERS | TW_KEEP_NAMES, NS, NS, 0,
     0}, COUNTER_THREADS | NO_PROCESS_NAMES | NO_COUNTER_THREADS | NO_STATE_THREADS},
    {{"text1-bin", "text1",
     BASE | TW_KEEP_NEGATIVE | TW_KEEP_SUSPEND | TW_KEEP_COUNTERS | TW_KEEP_NAMES | TW_KEEP_CATEGORIES |
         TW_KEEP_ATTRIBUTES | TW_KEEP_OWN,
     (BASE & ~TW_KEEP_IDS) | TW_KEEP_NEGATIVE | TW_KEEP_SUSPEND | TW_KEEP_COUNTERS, NS, NS, 0,
     0}, COUNTER_THREADS | NO_STATE_THREADS},
    {{"stacktrack", "stacktrack",
     BASE | TW_KEEP_PID | TW_KEEP_PROCESSES | TW_KEEP_ORIGIN | TW_KEEP_NEGATIVE |
         TW_KEEP_INSTANTS | TW_KEEP_MESSAGES | TW_KEEP_ATTRIBUTES | TW_KEEP_OWN,
     (BASE & ~TW_KEEP_IDS) | TW_KEEP_PID | TW_KEEP_PROCESSES | TW_KEEP_ORIGIN |
         TW_KEEP_NEGATIVE | TW_KEEP_INSTANTS | TW_KEEP_MESSAGES,
     NS, NS, S, S}, 0},
    {{"jsonl", "jsonl", TW_KEEP_ALL, TW_KEEP_ALL, NS, NS, NS, NS}, PROCESS_NAMES | COUNTER_THREADS | STATE_THREADS},
};

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

const tw_fidelity *tw_format_fidelity(const tw_format *f) {
    for (size_t i = 0; f && i < sizeof TABLE / sizeof TABLE[0]; i++)
        if (strcmp(TABLE[i].f.format, f->name) == 0) return &TABLE[i].f;
    return NULL;
}

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
    /* parts the writer holds only in part (tw_fidelity is the first member) */
    unsigned rp = ((const struct entry *)r)->partly, wp = ((const struct entry *)w)->partly;
    if ((rp & PROCESS_NAMES) && (wp & NO_PROCESS_NAMES)) lost |= r->produces & TW_KEEP_NAMES;
    if ((rp & COUNTER_THREADS) && (wp & NO_COUNTER_THREADS))
        lost |= r->produces & TW_KEEP_COUNTERS ? r->produces & TW_KEEP_THREADS : 0;
    if ((rp & STATE_THREADS) && (wp & NO_STATE_THREADS)) lost |= r->produces & TW_KEEP_THREADS;
    if (rounds_time) *rounds_time = r->read_clock_ns < w->write_clock_ns;
    if ((r->produces & TW_KEEP_ORIGIN) && (w->keeps & TW_KEEP_ORIGIN) &&
        r->read_origin_ns < w->write_origin_ns) {
        lost |= TW_KEEP_ORIGIN;
        if (rounds_origin) *rounds_origin = true;
    }
    return lost;
}
