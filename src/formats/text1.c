/*
 * text1 - the iSYSTEM winIDEA profiler's "Text1" export (text).
 *
 *   * INFO %TOTAL_TIME%
 *   * CONTEXTS %NAME%,%HANDLE%
 *   * HANDLE(<class>) %HANDLE%,%NAME%,%VALUE%
 *   * STATISTICS(<class>)[ CONTEXT(<name>)] %HANDLE%,%VALUE%,%COUNT%,%T.NET%
 *   * TIMELINE %HANDLE%,%EVENT%,%VALUE%,%TIME%
 *
 * Every section header ends with the template of its entries, so the
 * columns are read from the header (exports made with edited templates
 * read too).  Values are not quoted: text fields (names, source lines,
 * contexts) take what the fixed-form fields around them leave.  Handles
 * are resolved through the HANDLE sections; the top nibble of a handle
 * is the area type.  The timeline's E/S/R/X events are scope begin,
 * suspend, resume and end; W is a counter.  See docs/formats/text1.md.
 *
 * This file also holds the writer of both Text1 formats; the .BIN
 * timeline reader is in text1_bin.c and uses this reader for its names.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/evq.h"
#include "core/spool.h"
#include "text1.h"

/* ---- templates ----------------------------------------------------------- */

enum {
    M_FORMAT = 0, M_CLASS, M_CONTEXT, M_HANDLE, M_HANDLE_PARENT, M_HANDLE_STATE, M_NAME,
    M_NAME_PARENT, M_VALUE, M_VALUE_TYPE, M_VALUE_UNIT, M_FILE, M_PATH, M_COUNT, M_EVENT,
    M_TIME, M_TOTAL_TIME,
    M_T0, /* T.<cat>[.<crit>]: M_T0 + cat * 4 + crit */
    M_COUNT_ALL = M_T0 + 20,
    M_UNKNOWN = M_COUNT_ALL
};

static const char *const MACROS[M_T0] = {
    "FORMAT", "CLASS",      "CONTEXT",    "HANDLE", "HANDLE.PARENT", "HANDLE.STATE",
    "NAME",   "NAME.PARENT", "VALUE",     "VALUE.TYPE", "VALUE.UNIT", "FILE",
    "PATH",   "COUNT",      "EVENT",      "TIME",   "TOTAL_TIME"};
static const char *const T_CATS[5] = {"NET", "GROSS", "CALL", "PERIOD", "OUTSIDE"};
static const char *const T_CRITS[4] = {"", "MIN", "MAX", "AVG"};
enum { T_PERIOD = 3 };

/* Free-text fields may hold the separators of the template. */
static bool is_text_macro(int id) {
    return id == M_FORMAT || id == M_CLASS || id == M_CONTEXT || id == M_NAME ||
           id == M_NAME_PARENT || id == M_VALUE_UNIT || id == M_FILE || id == M_PATH ||
           id == M_UNKNOWN;
}

/* The macro id of a name ("T.NET.MIN"; spaces ignored), or M_UNKNOWN. */
static int macro_id(const char *s, size_t n) {
    char b[40];
    size_t k = 0;
    for (size_t i = 0; i < n && k < sizeof b - 1; i++)
        if (s[i] != ' ') b[k++] = s[i];
    b[k] = '\0';
    for (int i = 0; i < M_T0; i++)
        if (strcmp(b, MACROS[i]) == 0) return i;
    if (strncmp(b, "T.", 2) != 0) return M_UNKNOWN;
    for (int c = 0; c < 5; c++) {
        size_t cl = strlen(T_CATS[c]);
        if (strncmp(b + 2, T_CATS[c], cl) != 0) continue;
        const char *rest = b + 2 + cl;
        if (!*rest) return c == T_PERIOD ? M_UNKNOWN : M_T0 + c * 4;
        for (int q = 1; q < 4; q++)
            if (rest[0] == '.' && strcmp(rest + 1, T_CRITS[q]) == 0) return M_T0 + c * 4 + q;
    }
    return M_UNKNOWN;
}

#define T1_MAX_TOK 96

typedef struct ttok {
    int id;          /* macro id, or -1 for a literal */
    uint32_t off, len;
} ttok;

enum { S_NONE = 0, S_INFO, S_CONTEXTS, S_HANDLE, S_STATS, S_TIMELINE, S_SKIP };

typedef struct section {
    int kind;
    tw_buf fmt;          /* the header line's entry template */
    tw_buf cls, context; /* class and CONTEXT(...) of the header */
    bool has_context;
    ttok t[T1_MAX_TOK];
    size_t nt;
    int at[M_COUNT_ALL + 1]; /* token of each macro, -1 */
    int last_text;       /* the last free-text field, -1 if none */
    bool usual;          /* TIMELINE %HANDLE%,%EVENT%,%VALUE%,%TIME%[,%CONTEXT%] */
} section;

typedef struct field {
    const char *p;
    size_t n;
} field;

/* Whether the tokens are %HANDLE%,%EVENT%,%VALUE%,%TIME% and optionally
 * ,%CONTEXT%: the template of every export seen, read by timeline_usual(). */
static bool usual_timeline(const section *sec) {
    static const int want[] = {M_HANDLE, -1, M_EVENT, -1, M_VALUE, -1, M_TIME, -1, M_CONTEXT};
    if (sec->nt != 7 && sec->nt != 9) return false;
    for (size_t i = 0; i < sec->nt; i++) {
        const ttok *t = &sec->t[i];
        if (t->id != want[i]) return false;
        if (t->id < 0 && (t->len != 1 || sec->fmt.p[t->off] != ',')) return false;
    }
    return true;
}

/* Split `fmt` into literals and %MACRO% tokens; false (with *why) when the
 * template cannot be read generically. */
static bool tmpl_parse(section *sec, const char **why, const char **unknown, size_t *unknown_n) {
    const char *f = sec->fmt.p;
    size_t n = sec->fmt.len, i = 0;
    sec->nt = 0;
    sec->last_text = -1;
    for (int m = 0; m <= M_COUNT_ALL; m++) sec->at[m] = -1;
    *unknown = NULL;
    while (i < n) {
        if (sec->nt == T1_MAX_TOK) {
            *why = "more fields than this reader supports";
            return false;
        }
        ttok *t = &sec->t[sec->nt];
        if (f[i] == '%') {
            const char *close = memchr(f + i + 1, '%', n - i - 1);
            if (!close) {
                *why = "a '%' without its closing '%'";
                return false;
            }
            size_t ml = (size_t)(close - (f + i + 1));
            t->id = macro_id(f + i + 1, ml);
            t->off = (uint32_t)(i + 1);
            t->len = (uint32_t)ml;
            if (t->id == M_UNKNOWN && !*unknown) {
                *unknown = f + i + 1;
                *unknown_n = ml;
            }
            if (sec->nt && sec->t[sec->nt - 1].id >= 0) {
                *why = "two fields with no separator between them";
                return false;
            }
            if (sec->at[t->id] < 0) sec->at[t->id] = (int)sec->nt;
            if (is_text_macro(t->id)) sec->last_text = (int)sec->nt;
            i += ml + 2;
        } else {
            const char *pc = memchr(f + i, '%', n - i);
            size_t ll = pc ? (size_t)(pc - (f + i)) : n - i;
            t->id = -1;
            t->off = (uint32_t)i;
            t->len = (uint32_t)ll;
            i += ll;
        }
        sec->nt++;
    }
    if (!sec->nt) {
        *why = "no entry template";
        return false;
    }
    return true;
}

static const char *find_fwd(const char *s, size_t n, const char *lit, size_t ll) {
    if (ll > n) return NULL;
    size_t i = 0, last = n - ll;  /* candidates: s[0..last] */
    if (ll == 1) return tw_find_byte(s, n, lit[0]); /* the usual comma */
    for (; i <= last; i++)
        if (s[i] == lit[0] && memcmp(s + i, lit, ll) == 0) return s + i;
    return NULL;
}

static const char *find_back(const char *s, size_t n, const char *lit, size_t ll) {
    if (ll > n) return NULL;
    for (size_t i = n - ll + 1; i-- > 0;)
        if (s[i] == lit[0] && memcmp(s + i, lit, ll) == 0) return s + i;
    return NULL;
}

/*
 * Match one entry against the template: fixed-form fields from the left up
 * to the first text field and from the right down to the last one; text
 * fields in between end at the first following separator.  On failure
 * *col is the 0-based column where the entry stops fitting.
 */
static bool tmpl_match(const section *sec, const char *s, size_t n, field *out, size_t *col) {
    const char *f = sec->fmt.p;
    size_t pos = 0, end = n;
    int k = (int)sec->nt;
    /* right part, after the last text field */
    if (sec->last_text >= 0) {
        for (int j = k - 1; j > sec->last_text; j--) {
            const ttok *t = &sec->t[j];
            if (t->id < 0) {
                if (end < t->len || memcmp(s + end - t->len, f + t->off, t->len) != 0) {
                    *col = end;
                    return false;
                }
                end -= t->len;
            } else {
                const ttok *prev = &sec->t[j - 1]; /* a literal */
                const char *at = find_back(s, end, f + prev->off, prev->len);
                size_t from = at ? (size_t)(at - s) + prev->len : 0;
                if (!at) {
                    *col = 0;
                    return false;
                }
                out[j].p = s + from;
                out[j].n = end - from;
                end = from;
            }
        }
    }
    /* left part and the middle: a field ends at the first following
     * separator, the last text field (or the last field) takes the rest */
    int last = sec->last_text >= 0 ? sec->last_text : k - 1;
    for (int j = 0; j <= last; j++) {
        const ttok *t = &sec->t[j];
        if (t->id < 0) {
            if (end - pos < t->len || memcmp(s + pos, f + t->off, t->len) != 0) {
                *col = pos;
                return false;
            }
            pos += t->len;
            continue;
        }
        if (j == last) {
            out[j].p = s + pos;
            out[j].n = end - pos;
            pos = end;
            continue;
        }
        const ttok *next = &sec->t[j + 1]; /* a literal */
        const char *at = find_fwd(s + pos, end - pos, f + next->off, next->len);
        if (!at) {
            *col = end;
            return false;
        }
        out[j].p = s + pos;
        out[j].n = (size_t)(at - (s + pos));
        pos = (size_t)(at - s);
    }
    if (pos != end) {
        *col = pos;
        return false;
    }
    return true;
}

/* ---- values --------------------------------------------------------------- */

/* The hexadecimal digits at s, at most `maxdigits` of them after the
 * leading zeros, up to the first other byte; that byte, or NULL when there
 * are too many digits.  An empty run gives s itself. */
static inline const char *scan_hex(const char *s, const char *e, unsigned maxdigits,
                                   uint64_t *v) {
    const char *q = tw_scan_hex(s, e, maxdigits, v);  /* the usual case */
    if (q) return q;
    while (s < e && *s == '0') s++; /* not significant (nor counted) */
    return tw_scan_hex(s, e, maxdigits, v);
}

/* Hexadecimal, optionally with 0x, at most `maxdigits` significant digits. */
static bool parse_hex(const char *s, size_t n, unsigned maxdigits, uint64_t *v) {
    if (n >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        s += 2;
        n -= 2;
    }
    const char *e = s + n, *end = scan_hex(s, e, maxdigits, v);
    return n && end == e;
}

/* ---- reader --------------------------------------------------------------- */

#define ORD_SLOTS 8

typedef struct area {
    uint32_t handle;
    uint8_t type;
    bool f64;               /* VALUE.TYPE F64: a .BIN write carries a double */
    const tw_str *name;     /* scope or counter name */
    const tw_str *source;   /* a line's source text */
    const tw_str *var;      /* a state's variable */
    /* the area's order records (check_order()) it remembers: on threads
     * (cores, contexts) 0 to ORD_SLOTS - 1, and on the last other thread;
     * written by the thread that checks (see text1_batch()) */
    struct t1_order *ord_by[ORD_SLOTS];
    struct t1_order *ord;   /* on thread ord_tid */
    uint64_t ord_tid;
} area;

/* The area's order record on thread tid when it remembers one, else NULL. */
static TW_INLINE struct t1_order *area_order(const area *a, uint64_t tid) {
    if (tid < ORD_SLOTS) return a->ord_by[tid];
    return a->ord && a->ord_tid == tid ? a->ord : NULL;
}

enum { REP_HANDLE, REP_MACRO, REP_SECTION, REP_EVENT, REP_COUNT };
#define CX_MAX 8 /* contexts remembered with their thread */

/* The E/S/R/X state of one area on one thread (or state track). */
typedef struct t1_order {
    uint32_t depth;    /* open invocations (none before the first E: the
                        * recording may have started inside the area) */
    size_t cap;
    uint32_t *susp;    /* per open invocation: suspends not yet resumed */
} t1_order;

struct t1_reader {
    tw_read_ctx ctx;
    const char *file;
    bool companion, lines, no_names, eof;
    bool sections, timeline; /* a section's header was seen, a TIMELINE's */
    section sec;
    tw_u64map areas;        /* handle -> area; (state handle << 32 | value) -> area */
    tw_idcache handles;     /* handle -> area for small handles, with one load */
    area **av;
    size_t nav, avcap;
    const area *last_fn, *last_var[2]; /* the latest function, variable and AUX signal */
    tw_u64map contexts;     /* context name id -> tid + 1 */
    const tw_str *ctx_max;  /* the context of tid 2^64-1, whose tid + 1 would be 0 */
    struct {                /* contexts of timeline entries, lately seen: */
        const tw_str *s;    /* found without a lookup (ctx_seen()) */
        uint64_t tid;
    } cx[CX_MAX];
    unsigned ncx, cx_next;
    unsigned cx_last;       /* the one matched last, tried first */
    /* named function areas of plain entries by the eight hex digits of
     * their handle as written (areas never move nor go before the end) */
    struct {
        uint64_t digits;
        area *a;
        uint32_t handle;
    } by_digits[256];
    /* the input's window for entries read in place (tw_input_window()),
     * kept from one line to the next; nwin 0 once a line was read otherwise */
    const unsigned char *win;
    size_t nwin;
    bool order_checked;     /* function_event() called check_order() */
    /* the events are read on another thread than the consumer's, which
     * checks their order (tw_batch.defer_checks): they are marked for
     * text1_check() (order_mark()) instead of checked as they are read
     * (text1_batch() says when this changes and why it is safe) */
    bool defer;
    uint64_t next_tid;
    tw_u64map tracks;       /* state tracks announced */
    tw_u64map active;       /* state handle -> the area of its active state */
    tw_u64map reported[REP_COUNT];
    tw_u64map orders;       /* thread << 32 | handle -> t1_order */
    t1_order **ov;
    size_t nov, ovcap;
    uint64_t lines_skipped;
    tw_loc lines_first;     /* where the first skipped one is */
    tw_evq q;
    tw_buf text;
    const tw_str *k_source, *k_class, *k_context, *k_handle, *k_value, *k_count, *k_t[20],
        *n_thread_name, *n_total, *n_stats, *c_function, *c_line, *c_state, *c_aux_state,
        *c_variable, *c_aux, *k_timeline_contexts;
    /* statistics kept per context, a timeline that does not tell contexts
     * apart (a .BIN's, a TIMELINE without %CONTEXT%), and whether the
     * statistics' check was told (no_timeline_contexts()) */
    bool stats_ctx, ctxless, told_ctxless;
};

static bool first_report(t1_reader *r, int kind, uint64_t key) {
    if (tw_u64map_get(&r->reported[kind], key)) return false;
    tw_u64map_put(&r->reported[kind], key, (void *)1);
    return true;
}

static const tw_str *intern(t1_reader *r, const char *s, size_t n, const tw_loc *loc) {
    return tw_intern_at(&r->ctx, s, n, loc);
}

/* Intern "<a><sep><b>". */
static const tw_str *intern3(t1_reader *r, const tw_str *a, char sep, const char *b, size_t bn,
                             const tw_loc *loc) {
    tw_buf_clear(&r->text);
    if (!tw_buf_append(&r->text, a->s, a->len) || !tw_buf_append(&r->text, &sep, 1) ||
        !tw_buf_append(&r->text, b, bn)) {
        tw_report(r->ctx.diag, TW_R_OUT_OF_MEMORY, loc, "out of memory");
        return NULL;
    }
    return intern(r, r->text.p, r->text.len, loc);
}

static const tw_str *handle_name(t1_reader *r, uint32_t h, const tw_loc *loc) {
    char b[20];
    int n = snprintf(b, sizeof b, "handle_%08X", (unsigned)h);
    return intern(r, b, (size_t)n, loc);
}

/* The area under `key`, created with handle h; with map false always a new
 * one that is not in the map.  Out of memory is reported. */
static area *keyed_area(t1_reader *r, uint64_t key, bool map, uint32_t h, const tw_loc *loc) {
    bool created;
    area *a = tw_keyed_get(map ? &r->areas : NULL, &r->av, &r->nav, &r->avcap, key, sizeof *a,
                           &created);
    if (!a) {
        tw_report(r->ctx.diag, TW_R_OUT_OF_MEMORY, loc, "out of memory; entry skipped");
    } else if (created) {
        a->handle = h;
        a->type = (uint8_t)(h >> 28);
        if (map) tw_idcache_set(&r->handles, key, a);
    }
    return a;
}

static area *new_area(t1_reader *r, uint64_t key, uint32_t h, const tw_loc *loc) {
    return keyed_area(r, key, true, h, loc);
}

static uint64_t state_key(uint32_t h, uint64_t value) {
    return (uint64_t)h << 32 | (value & 0xFFFFFFFFu);
}

static tw_event *emit(t1_reader *r, tw_kind kind, const tw_str *name, uint64_t tid, int64_t ts,
                      const tw_loc *loc) {
    return tw_evq_push(&r->q, r->ctx.diag, kind, name, tid, ts, loc);
}

/* A thread_name event for `tid`, at `ts`. */
static void name_thread(t1_reader *r, uint64_t tid, const tw_str *name, int64_t ts,
                        const tw_loc *loc) {
    tw_event *e = name ? emit(r, TW_META, r->n_thread_name, tid, ts, loc) : NULL;
    if (e) {
        e->msg = name->s;
        e->msg_len = name->len;
    }
}

/* An unknown handle: named handle_XXXXXXXX, reported once. */
static const tw_str *unknown_handle(t1_reader *r, uint32_t h, const tw_loc *loc) {
    if (!r->no_names && first_report(r, REP_HANDLE, h))
        tw_report(r->ctx.diag, TW_R_T1_UNKNOWN_HANDLE, loc,
                  "handle %08X is not in the mapping sections; it is named handle_%08X",
                  (unsigned)h, (unsigned)h);
    return handle_name(r, h, loc);
}

/* The variable (or AUX signal) a state handle belongs to. */
static const tw_str *state_var(t1_reader *r, uint32_t h, const tw_loc *loc) {
    area *a = tw_u64map_get(&r->areas, h);
    if (a && a->var) return a->var;
    area *v = tw_u64map_get(&r->areas, h ^ 0x10000000u);
    if (v && v->name) return v->name;
    return unknown_handle(r, h, loc);
}

/* The name of state `value` of state handle h. */
static const tw_str *state_name(t1_reader *r, uint32_t h, uint64_t value, const tw_loc *loc) {
    area *a = tw_u64map_get(&r->areas, state_key(h, value));
    if (a && a->name) return a->name;
    const tw_str *var = state_var(r, h, loc);
    if (!var) return NULL;
    char b[24];
    int n = snprintf(b, sizeof b, "%llX", (unsigned long long)value);
    return intern3(r, var, '=', b, (size_t)n, loc);
}

/* The scope or counter name of a function, line, variable or AUX handle. */
static TW_INLINE area *plain_area(t1_reader *r, uint32_t h) {
    area *a = tw_idcache_get(&r->handles, h);
    return a ? a : tw_u64map_get(&r->areas, h);
}

/* The thread of a state track: its handle; announced with the variable's
 * name the first time. */
static uint64_t state_track(t1_reader *r, uint32_t h, int64_t ts, const tw_loc *loc) {
    if (!tw_u64map_get(&r->tracks, h)) {
        tw_u64map_put(&r->tracks, h, (void *)1);
        name_thread(r, h, state_var(r, h, loc), ts, loc);
    }
    return h;
}

/*
 * The order of an area's events on its thread: E makes it run, S suspends
 * it (a call or a preemption; a preemption may suspend it again), R undoes
 * one S, X ends it.  A call of itself needs an S first; an X needs every S
 * resumed.  Before the area's first E (the recording started inside it)
 * nothing is checked, and what the pairing engine reports (an S, R or X
 * with no open invocation) is left to it.
 */
static void check_order(t1_reader *r, area *a, uint32_t handle, uint64_t tid, char code,
                        const tw_str *name, const tw_loc *loc, tw_diag_sink *sink) {
    t1_order *o = a ? area_order(a, tid) : NULL;
    if (!o) {
        o = tw_keyed_get(&r->orders, &r->ov, &r->nov, &r->ovcap, (uint64_t)tid << 32 | handle,
                         sizeof *o, NULL);
        if (!o) {
            tw_report(sink, TW_R_OUT_OF_MEMORY, loc, "out of memory");
            return;
        }
        if (a && tid < ORD_SLOTS) {
            a->ord_by[tid] = o;
        } else if (a) {
            a->ord = o;
            a->ord_tid = tid;
        }
    }
    uint32_t *top = o->depth ? &o->susp[o->depth - 1] : NULL;
    const char *why = NULL;
    int nl = name->len > 200 ? 200 : (int)name->len;
    switch (code) {
    case 'E':
        if (top && *top == 0)
            why = handle >> 28 == T1_STATE || handle >> 28 == T1_AUX_STATE
                      ? "while the variable is still in a state: the exit (X) of that state is "
                        "missing"
                      : "while it runs: a call of itself must follow its suspend (S)";
        if (!tw_grow(&o->susp, &o->cap, (size_t)o->depth + 1, sizeof *o->susp, 4)) {
            tw_report(sink, TW_R_OUT_OF_MEMORY, loc, "out of memory");
            return;
        }
        /* NOLINTNEXTLINE(clang-analyzer-core.NullDereference): tw_grow made room */
        o->susp[o->depth++] = 0;
        break;
    case 'S':
        if (top) (*top)++;
        break;
    case 'R':
        if (top && *top == 0) why = "while it is not suspended";
        else if (top) (*top)--;
        break;
    case 'X':
        if (top && *top) why = "while it is suspended: a resume (R) is missing";
        if (o->depth) o->depth--;
        break;
    default: return;
    }
    if (why)
        tw_report(sink, TW_R_T1_ORDER, loc, "%s (%c) of '%.*s' %s",
                  code == 'E' ? "entry" : code == 'R' ? "resume" : "exit", code, nl, name->s,
                  why);
}

/* With the checks left to the consumer (t1_reader.defer), an event whose
 * order check_order() is to check carries, in its `value` (has_value
 * false), its area, or, for none, its handle (odd); text1_check() takes it
 * back. */
static int64_t order_mark(const area *a, uint32_t handle) {
    return a ? (int64_t)(intptr_t)a : (int64_t)((uint64_t)handle << 1 | 1);
}

/* The event kind of a timeline code (W: a counter). */
static tw_kind code_kind(char code) {
    return code == 'E' ? TW_BEGIN : code == 'X' ? TW_END : code == 'S' ? TW_SUSPEND
         : code == 'R' ? TW_RESUME : TW_COUNTER;
}

void t1_timeline(t1_reader *r, uint32_t handle, char code, uint64_t data, bool has_data,
                 uint64_t tid, int64_t ts, const tw_loc *loc) {
    int type = (int)(handle >> 28);
    tw_kind kind = code_kind(code);
    if (code == 'W') {
        if (type == T1_FUNCTION || type == T1_LINE || type > T1_AUX_STATE) {
            if (type == T1_LINE && !r->lines) { /* line areas are not read: skipped as they are */
                if (!r->lines_skipped++) r->lines_first = *loc;
            } else if (first_report(r, REP_EVENT, handle)) {
                tw_report(r->ctx.diag, TW_R_BAD_RECORD, loc,
                          "write (W) of handle %08X: a function or line is entered and left, "
                          "not written; such events of this handle are skipped",
                          (unsigned)handle);
            }
            return;
        }
        bool aux = type == T1_AUX || type == T1_AUX_STATE;
        const area *a = plain_area(r, handle);
        const tw_str *name = type == T1_STATE || type == T1_AUX_STATE ? state_var(r, handle, loc)
                             : a && a->name                          ? a->name
                                                : unknown_handle(r, handle, loc);
        if (!name) return;
        tw_event *e = emit(r, TW_COUNTER, name, tid, ts, loc);
        if (!e) return;
        e->cat = aux ? r->c_aux : r->c_variable;
        e->has_value = true;
        e->value = (int64_t)data;
        if (r->companion && a && a->f64) { /* an analog AUX value: a double */
            double d;
            memcpy(&d, &data, sizeof d);
            e->value = d != d ? 0 : d >= 9.2e18 ? INT64_MAX : d <= -9.2e18 ? INT64_MIN
                     : (int64_t)(d < 0 ? d - 0.5 : d + 0.5);
        }
        return;
    }
    if (type == T1_VARIABLE || type == T1_AUX) {
        if (first_report(r, REP_EVENT, handle))
            tw_report(r->ctx.diag, TW_R_BAD_RECORD, loc,
                      "event %c of handle %08X: a variable or AUX signal is only written (W); "
                      "such events of this handle are skipped",
                      code, (unsigned)handle);
        return;
    }
    if (type == T1_STATE || type == T1_AUX_STATE) {
        const tw_str *name;
        const area *act = tw_u64map_get(&r->active, handle);
        if (kind == TW_BEGIN && !has_data) {
            /* all states of a variable share the handle: without a value
             * the state entered is not known */
            if (first_report(r, REP_EVENT, (uint64_t)handle << 32 | 'E'))
                tw_report(r->ctx.diag, TW_R_UNSUPPORTED, loc,
                          "state entry of handle %08X without a VALUE: the state is not "
                          "known; named VARIABLE=?",
                          (unsigned)handle);
            const tw_str *var = state_var(r, handle, loc);
            name = var ? intern3(r, var, '=', "?", 1, loc) : NULL;
            area *a = name ? keyed_area(r, 0, false, handle, loc) : NULL;
            if (a) a->name = name;
            tw_u64map_put(&r->active, handle, a);
        } else if (kind == TW_BEGIN) {
            name = state_name(r, handle, data, loc);
            area *a = tw_u64map_get(&r->areas, state_key(handle, data));
            if (!a) { /* remember the name of an unmapped state too */
                a = new_area(r, state_key(handle, data), handle, loc);
                if (a) a->name = name;
            }
            tw_u64map_put(&r->active, handle, a);
        } else {
            name = act && act->name ? act->name : state_name(r, handle, data, loc);
            if (kind == TW_END) tw_u64map_put(&r->active, handle, NULL);
        }
        if (!name) return;
        uint64_t track = state_track(r, handle, ts, loc);
        if (!r->defer) check_order(r, NULL, handle, track, code, name, loc, r->ctx.diag);
        tw_event *e = emit(r, kind, name, track, ts, loc);
        if (!e) return;
        e->cat = type == T1_STATE ? r->c_state : r->c_aux_state;
        if (r->defer) e->value = order_mark(NULL, handle);
        return;
    }
    if (type == T1_LINE && !r->lines) {
        if (!r->lines_skipped++) r->lines_first = *loc;
        return;
    }
    area *a = plain_area(r, handle);
    const tw_str *name = a && a->name ? a->name : unknown_handle(r, handle, loc);
    if (!name) return;
    if (!r->defer) check_order(r, a, handle, tid, code, name, loc, r->ctx.diag);
    tw_event *e = emit(r, kind, name, tid, ts, loc);
    if (!e) return;
    if (r->defer) e->value = order_mark(a, handle);
    e->cat = type == T1_LINE ? r->c_line : r->c_function;
    if (type == T1_LINE && kind == TW_BEGIN && a && a->source)
        tw_evq_attr_str(&r->q, r->ctx.diag, r->k_source, a->source->s, a->source->len);
}

void t1_thread_name(t1_reader *r, uint64_t tid, const char *name, int64_t ts,
                    const tw_loc *loc) {
    name_thread(r, tid, intern(r, name, strlen(name), loc), ts, loc);
}

/* ---- sections ------------------------------------------------------------- */

static bool has_field(const section *sec, int m) { return sec->at[m] >= 0; }

/* Once the log has statistics per context and its timeline does not tell
 * contexts apart, say so to the check of the log's own statistics (a
 * text1.statistics event without a scope, "timeline_contexts": 0): the
 * timeline's events are then all on one thread, and the figures of the
 * contexts are compared added up (stats.h, TW_CHECK_OWN_STATS). */
static void no_timeline_contexts(t1_reader *r, const tw_loc *loc) {
    if (!r->stats_ctx || !r->ctxless || r->told_ctxless) return;
    r->told_ctxless = true;
    tw_event *e = emit(r, TW_META, r->n_stats, 0, 0, loc);
    if (e) tw_evq_attr_int(&r->q, r->ctx.diag, r->k_timeline_contexts, 0);
}

static field get(const section *sec, const field *fv, int m) {
    field none = {"", 0};
    return sec->at[m] >= 0 ? fv[sec->at[m]] : none;
}

static void bad_field(t1_reader *r, const tw_line *l, const field *f, const char *what) {
    tw_loc loc = tw_text_loc(r->file, l, (size_t)(f->p - l->s));
    /* the first 60 bytes; a NUL, which would end the message, as the
     * diagnostics show other control bytes */
    char shown[60 * 4 + 1];
    size_t k = 0;
    for (size_t i = 0; i < f->n && i < 60; i++) {
        if (f->p[i]) {
            shown[k++] = f->p[i];
        } else {
            shown[k++] = '\\';
            shown[k++] = 'x';
            shown[k++] = '0';
            shown[k++] = '0';
        }
    }
    tw_report(r->ctx.diag, TW_R_BAD_RECORD, &loc, "%s '%.*s'; entry skipped", what, (int)k,
              shown);
}

static bool need_handle(t1_reader *r, const tw_line *l, const field *f, unsigned digits,
                        uint64_t *h) {
    if (parse_hex(f->p, f->n, digits, h)) return true;
    bad_field(r, l, f, digits > 8 ? "expected a hexadecimal context handle, not"
                                  : "expected a hexadecimal handle of up to 8 digits, not");
    return false;
}

static bool need_dec(t1_reader *r, const tw_line *l, const field *f, const char *what,
                     int64_t *v) {
    if (tw_parse_i64(f->p, f->n, v)) return true;
    bad_field(r, l, f, what);
    return false;
}

/* The thread of a context name. */
static bool ctx_put(t1_reader *r, const tw_str *s, uint64_t tid) {
    r->ncx = 0; /* a context may be given another thread */
    if (tid == UINT64_MAX) {
        r->ctx_max = s;
        return true;
    }
    if (r->ctx_max == s) r->ctx_max = NULL;
    return tw_u64map_put(&r->contexts, s->id, (void *)(uintptr_t)(tid + 1));
}

static bool ctx_get(t1_reader *r, const tw_str *s, uint64_t *tid) {
    uintptr_t t = s == r->ctx_max ? 0 : (uintptr_t)tw_u64map_get(&r->contexts, s->id);
    *tid = s == r->ctx_max ? UINT64_MAX : (uint64_t)t - 1;
    return s == r->ctx_max || t;
}

static void entry_context(t1_reader *r, const tw_line *l, const field *fv) {
    field name = get(&r->sec, fv, M_NAME), hf = get(&r->sec, fv, M_HANDLE);
    uint64_t h;
    if (!need_handle(r, l, &hf, 16, &h)) return;
    tw_loc loc = tw_text_loc(r->file, l, 0);
    const tw_str *s = intern(r, name.p, name.n, &loc);
    if (!s || !ctx_put(r, s, h)) return;
    if (h >= r->next_tid && h != UINT64_MAX) r->next_tid = h + 1; /* no wrap to 0 */
    if (r->companion) return; /* a .BIN timeline has cores, not contexts */
    /* "thread N" with handle N is what the writer gives an unnamed thread */
    char dflt[32];
    int dn = snprintf(dflt, sizeof dflt, "thread %llu", (unsigned long long)h);
    if ((size_t)dn == s->len && memcmp(dflt, s->s, s->len) == 0) return;
    name_thread(r, h, s, 0, &loc);
}

static void entry_mapping(t1_reader *r, const tw_line *l, const field *fv) {
    const section *sec = &r->sec;
    field hf = get(sec, fv, M_HANDLE), name = get(sec, fv, M_NAME),
          value = get(sec, fv, M_VALUE);
    uint64_t h, ph = 0;
    if (!need_handle(r, l, &hf, 8, &h)) return;
    tw_loc loc = tw_text_loc(r->file, l, (size_t)(hf.p - l->s));
    bool has_parent = false;
    if (has_field(sec, M_HANDLE_PARENT) && fv[sec->at[M_HANDLE_PARENT]].n) {
        field pf = fv[sec->at[M_HANDLE_PARENT]];
        if (!need_handle(r, l, &pf, 8, &ph)) return;
        has_parent = true;
    }
    field pname = get(sec, fv, M_NAME_PARENT);
    int type = (int)(h >> 28);
    uint64_t v = 0;
    if (type == T1_STATE || type == T1_AUX_STATE) {
        if (!parse_hex(value.p, value.n, 16, &v)) {
            bad_field(r, l, &value, "expected the hexadecimal value of a state, not");
            return;
        }
        const tw_str *var = NULL;
        const area *pa = has_parent ? tw_u64map_get(&r->areas, ph) : NULL;
        const area *sib = tw_u64map_get(&r->areas, h ^ 0x10000000u);
        if (pa)
            var = pa->name;
        else if (pname.n)
            var = intern(r, pname.p, pname.n, &loc);
        else if (sib)
            var = sib->name;
        else if (r->last_var[type == T1_AUX_STATE])
            var = r->last_var[type == T1_AUX_STATE]->name;
        else
            var = handle_name(r, (uint32_t)h, &loc);
        if (!var) return;
        area *sv = new_area(r, h, (uint32_t)h, &loc); /* the state handle itself */
        if (sv && !sv->var) sv->var = var;
        area *a = new_area(r, state_key((uint32_t)h, v), (uint32_t)h, &loc);
        if (a) a->name = intern3(r, var, '=', value.p, value.n, &loc);
        return;
    }
    area *a = new_area(r, h, (uint32_t)h, &loc);
    if (!a) return;
    if (type == T1_LINE) {
        const tw_str *fn = NULL;
        const area *pa = has_parent ? tw_u64map_get(&r->areas, ph) : NULL;
        if (pa)
            fn = pa->name;
        else if (pname.n)
            fn = intern(r, pname.p, pname.n, &loc);
        else if (r->last_fn)
            fn = r->last_fn->name;
        else
            fn = handle_name(r, has_parent ? (uint32_t)ph : (uint32_t)h, &loc);
        if (!fn) return;
        a->source = intern(r, name.p, name.n, &loc);
        a->name = intern3(r, fn, ':', value.p, value.n, &loc);
        return;
    }
    if (type > T1_AUX_STATE && first_report(r, REP_SECTION, 0x100 + (unsigned)type))
        tw_report(r->ctx.diag, TW_R_UNKNOWN_RECORD, &loc,
                  "area type %X (top nibble of handle %08X) is not defined; its areas are "
                  "read as functions",
                  (unsigned)type, (unsigned)h);
    a->name = intern(r, name.p, name.n, &loc);
    field vt = get(sec, fv, M_VALUE_TYPE);
    a->f64 = vt.n == 3 && memcmp(vt.p, "F64", 3) == 0;
    if (type == T1_FUNCTION || type > T1_AUX_STATE) r->last_fn = a;
    if (type == T1_VARIABLE || type == T1_AUX) r->last_var[type == T1_AUX] = a;
}

static void entry_stats(t1_reader *r, const tw_line *l, const field *fv) {
    const section *sec = &r->sec;
    field hf = get(sec, fv, M_HANDLE), value = get(sec, fv, M_VALUE);
    uint64_t h, v = 0;
    if (!need_handle(r, l, &hf, 8, &h)) return;
    tw_loc loc = tw_text_loc(r->file, l, 0);
    int type = (int)(h >> 28);
    int64_t nums[21];
    for (int m = 0; m < 20; m++) {
        if (!has_field(sec, M_T0 + m)) continue;
        field f = fv[sec->at[M_T0 + m]];
        if (!need_dec(r, l, &f, "expected a time in nanoseconds, not", &nums[m])) return;
    }
    if (has_field(sec, M_COUNT)) {
        field f = fv[sec->at[M_COUNT]];
        if (!need_dec(r, l, &f, "expected a count, not", &nums[20]) || nums[20] < 0) return;
    }
    const tw_str *name;
    if ((type == T1_STATE || type == T1_AUX_STATE) && value.n) {
        if (!parse_hex(value.p, value.n, 16, &v)) {
            bad_field(r, l, &value, "expected the hexadecimal value of a state, not");
            return;
        }
        name = state_name(r, (uint32_t)h, v, &loc);
    } else if (type == T1_STATE || type == T1_AUX_STATE) {
        name = state_var(r, (uint32_t)h, &loc);
    } else {
        const area *a = plain_area(r, (uint32_t)h);
        name = a && a->name ? a->name : unknown_handle(r, (uint32_t)h, &loc);
    }
    if (!name) return;
    tw_event *e = emit(r, TW_META, r->n_stats, 0, 0, &loc);
    if (!e) return;
    e->msg = name->s;
    e->msg_len = name->len;
    tw_diag_sink *d = r->ctx.diag;
    if (sec->cls.len) tw_evq_attr_str(&r->q, d, r->k_class, sec->cls.p, sec->cls.len);
    /* the row's own %CONTEXT%, when the template has one and it is not
     * empty, else the header's CONTEXT(...) */
    field cx = get(sec, fv, M_CONTEXT);
    if (cx.n)
        tw_evq_attr_str(&r->q, d, r->k_context, cx.p, cx.n);
    else if (sec->has_context)
        tw_evq_attr_str(&r->q, d, r->k_context, sec->context.p, sec->context.len);
    bool with_context = cx.n || sec->has_context;
    tw_evq_attr_str(&r->q, d, r->k_handle, hf.p, hf.n);
    if (has_field(sec, M_VALUE)) tw_evq_attr_str(&r->q, d, r->k_value, value.p, value.n);
    if (has_field(sec, M_COUNT)) tw_evq_attr_int(&r->q, d, r->k_count, nums[20]);
    for (int m = 0; m < 20; m++)
        if (has_field(sec, M_T0 + m)) tw_evq_attr_int(&r->q, d, r->k_t[m], nums[m]);
    if (with_context && !r->stats_ctx) {
        r->stats_ctx = true;
        no_timeline_contexts(r, &loc);
    }
}

/* s[0..n) == t[0..n) */
static TW_INLINE bool same_bytes(const char *s, const char *t, size_t n) {
    if (n < 8 || n > 32) return memcmp(s, t, n) == 0;
    if (tw_load64(s) != tw_load64(t) || tw_load64(s + n - 8) != tw_load64(t + n - 8))
        return false;
    return n <= 16 || (tw_load64(s + 8) == tw_load64(t + 8) &&
                       tw_load64(s + n - 16) == tw_load64(t + n - 16));
}

/* Whether the context lately seen i is at p: the whole of p[0..n), or,
 * `open`, the bytes of p[0..n) before an LF. */
static TW_INLINE bool ctx_is(const t1_reader *r, unsigned i, const char *p, size_t n,
                             bool open) {
    const tw_str *s = r->cx[i].s;
    return (open ? s->len < n && p[s->len] == '\n' : s->len == n) && same_bytes(p, s->s, s->len);
}
/* The thread of the context at p when it is one of those lately seen: the
 * whole of p[0..n), or, `open`, the bytes of p[0..n) before an LF (the end
 * of a line not yet found); its length, or -1 when it is none of them. */
static TW_INLINE ptrdiff_t ctx_seen(t1_reader *r, const char *p, size_t n, bool open,
                                    uint64_t *tid) {
    /* entries of one context come in runs: the last one first */
    unsigned i = r->cx_last;
    if (i >= r->ncx || !ctx_is(r, i, p, n, open)) {
        i = 0;
        while (i < r->ncx && !ctx_is(r, i, p, n, open)) i++;
        if (i == r->ncx) return -1;
        r->cx_last = i;
    }
    *tid = r->cx[i].tid;
    return (ptrdiff_t)r->cx[i].s->len;
}

/* The thread of a timeline entry's CONTEXT field. */
static bool context_tid(t1_reader *r, const field *cf, int64_t ts, const tw_loc *loc,
                        uint64_t *tid) {
    *tid = 0;
    if (!cf->n) return true;
    if (ctx_seen(r, cf->p, cf->n, false, tid) >= 0) return true;
    const tw_str *s = intern(r, cf->p, cf->n, loc);
    if (!s) return false;
    if (!ctx_get(r, s, tid)) {
        /* a context the CONTEXTS section did not list: the next free id */
        *tid = r->next_tid++;
        if (!ctx_put(r, s, *tid)) {
            tw_report(r->ctx.diag, TW_R_OUT_OF_MEMORY, loc, "out of memory; entry skipped");
            return false;
        }
        name_thread(r, *tid, s, ts, loc);
    }
    unsigned i = r->ncx < CX_MAX ? r->ncx++ : r->cx_next++ % CX_MAX;
    r->cx[i].s = s;
    r->cx[i].tid = *tid;
    return true;
}

static void timeline_entry(t1_reader *r, const tw_line *l, uint32_t h, char code, uint64_t v,
                           bool has_v, int64_t ts, const field *cf) {
    tw_loc loc = tw_text_loc(r->file, l, 0);
    uint64_t tid;
    if (!context_tid(r, cf, ts, &loc, &tid)) return;
    t1_timeline(r, h, code, v, has_v, tid, ts, &loc);
}

static void entry_timeline(t1_reader *r, const tw_line *l, const field *fv) {
    const section *sec = &r->sec;
    field hf = get(sec, fv, M_HANDLE), ef = get(sec, fv, M_EVENT), tf = get(sec, fv, M_TIME),
          vf = get(sec, fv, M_VALUE), cf = get(sec, fv, M_CONTEXT);
    uint64_t h, v = 0;
    int64_t ts;
    if (!need_handle(r, l, &hf, 8, &h)) return;
    if (ef.n != 1 || !ef.p[0] || !strchr("ESRXW", ef.p[0])) {
        bad_field(r, l, &ef, "expected an event E, S, R, X or W, not");
        return;
    }
    if (!need_dec(r, l, &tf, "expected a time in nanoseconds, not", &ts)) return;
    if (vf.n && !parse_hex(vf.p, vf.n, 16, &v)) {
        bad_field(r, l, &vf, "expected a hexadecimal value, not");
        return;
    }
    if (ef.p[0] == 'W' && !vf.n) {
        tw_loc loc = tw_text_loc(r->file, l, (size_t)(vf.p - l->s));
        tw_report(r->ctx.diag, TW_R_BAD_RECORD, &loc, "a write (W) without a value; entry skipped");
        return;
    }
    timeline_entry(r, l, (uint32_t)h, ef.p[0], v, vf.n > 0, ts, &cf);
}

/*
 * An entry of the usual template read in one pass; false, having done
 * nothing, when it is anything but a plain well-formed one, which the
 * generic matcher then reads and reports on.  Both split the fields at the
 * same commas and read them by the same rules.
 */
static bool timeline_usual(t1_reader *r, const tw_line *l) {
    const char *p = l->s, *e = l->s + l->len;
    uint64_t h, v = 0;
    int64_t ts;
    const char *q = scan_hex(p, e, 8, &h);
    if (!q || q == p || q == e || *q != ',') return false;
    p = q + 1;
    if (e - p < 2 || p[1] != ',') return false;
    char code = p[0];
    if (code != 'E' && code != 'X' && code != 'S' && code != 'R' && code != 'W') return false;
    p += 2;
    if (!(q = scan_hex(p, e, 16, &v)) || q == e || *q != ',') return false;
    bool has_v = q > p;
    if (code == 'W' && !has_v) return false;
    p = q + 1;
    field cf = {"", 0};
    if (r->sec.nt == 9) {
        if (!(q = tw_find_byte(p, (size_t)(e - p), ','))) return false;
        cf.p = q + 1;
        cf.n = (size_t)(e - cf.p);
    } else {
        q = e;
    }
    if (!tw_parse_i64(p, (size_t)(q - p), &ts)) return false;
    timeline_entry(r, l, (uint32_t)h, code, v, has_v, ts, &cf);
    return true;
}

/* check_order() of an area whose order record on thread tid is the one it
 * remembers, when the event breaks no rule and needs no memory: true when
 * done; false, with nothing changed, for check_order() to do. */
static TW_INLINE bool order_usual(const area *a, uint64_t tid, char code) {
    t1_order *o = area_order(a, tid);
    if (!o) return false;
    uint32_t *top = o->depth ? &o->susp[o->depth - 1] : NULL;
    switch (code) {
    case 'E':
        if ((top && *top == 0) || o->depth >= o->cap) return false;
        /* NOLINTNEXTLINE(clang-analyzer-core.NullDereference): depth < cap, so susp exists */
        o->susp[o->depth++] = 0;
        return true;
    case 'S':
        if (top) (*top)++;
        return true;
    case 'R':
        if (!top || *top == 0) return false;
        (*top)--;
        return true;
    case 'X':
        if (!top || *top) return false;
        o->depth--;
        return true;
    default: return false;
    }
}

/* The event of entry `code` (E, S, R or X) of named function area a
 * (handle h) on thread tid, straight into *ev, its order checked. */
static TW_INLINE void function_event(t1_reader *r, area *a, uint32_t h, char code, uint64_t tid,
                                     int64_t ts, const tw_loc *loc, tw_event *ev) {
    tw_event_clear(ev);
    ev->kind = code_kind(code);
    ev->name = a->name;
    ev->cat = r->c_function;
    ev->tid = tid;
    ev->ts = ts;
    tw_loc_copy(&ev->loc, loc);
    if (r->defer) {
        ev->value = order_mark(a, h);
    } else if (!order_usual(a, tid, code)) {
        check_order(r, a, h, tid, code, a->name, &ev->loc, r->ctx.diag);
        r->order_checked = true;
    }
}

/*
 * The commonest entry: HANDLE,CODE,,TIME,CONTEXT in the usual template with
 * the handle of a named function area as eight hex digits, E, S, R or X, no
 * value, a time of digits and a context lately seen.  plain_entry()
 * reads it straight into the caller's event, without the queue; any other
 * line it leaves untouched (false) to process_line().  For the lines it
 * takes, the event, the state and the reports are those process_line()
 * would give.  plain_scan() reads its parts into a `plain`.
 */
typedef struct plain {
    area *a;
    uint32_t handle;
    char code;
    uint64_t tid;
    int64_t ts;
} plain;

/* The commonest entry at s, whose n bytes are the line, or, `open`, the
 * bytes available from the line's start on, its end not yet found (then
 * it must end in an LF right after its context): the length of the line
 * (without the LF), its parts in *p; 0 when it is no such entry. */
static TW_INLINE size_t plain_scan(t1_reader *r, const char *s, size_t n, bool open, plain *p) {
    if (!r->sec.usual || r->sec.nt != 9 || n < 15 || s[8] != ',' || s[10] != ',' ||
        s[11] != ',')
        return 0;
    uint64_t digits = tw_load64(s), h;
    size_t slot = (size_t)((digits * UINT64_C(0x9e3779b97f4a7c15)) >> 56);
    area *a = r->by_digits[slot].a;
    if (a && r->by_digits[slot].digits == digits) {
        h = r->by_digits[slot].handle;
    } else {
        if (tw_scan_hex(s, s + 8, 8, &h) != s + 8 || h >> 28 != T1_FUNCTION ||
            !(a = plain_area(r, (uint32_t)h)))
            return 0;
        r->by_digits[slot].digits = digits;
        r->by_digits[slot].a = a;
        r->by_digits[slot].handle = (uint32_t)h;
    }
    char code = s[9];
    if (code != 'E' && code != 'X' && code != 'S' && code != 'R') return 0;
    uint64_t t;
    bool ovf;
    size_t k = tw_scan_u64(s + 12, n - 12, &t, &ovf);
    size_t at = 12 + k + 1; /* the context */
    if (!k || ovf || t > (uint64_t)INT64_MAX || at >= n || s[at - 1] != ',') return 0;
    ptrdiff_t cn = ctx_seen(r, s + at, n - at, open, &p->tid);
    size_t len = at + (size_t)cn;
    /* a line read in place ends in no CR: the line reader drops the CR of
     * a CRLF, and a context ending in one would be another context */
    if (cn < 0 || len < 15 || !a->name || (open && s[len - 1] == '\r')) return 0;
    p->a = a;
    p->handle = (uint32_t)h;
    p->code = code;
    p->ts = (int64_t)t;
    return len;
}

static TW_INLINE bool plain_entry(t1_reader *r, const tw_line *l, tw_event *ev) {
    plain p;
    if (!plain_scan(r, l->s, l->len, false, &p)) return false;
    tw_loc loc = tw_text_loc(r->file, l, 0);
    function_event(r, p.a, p.handle, p.code, p.tid, p.ts, &loc, ev);
    return true;
}

/* plain_entry() of the line at the cursor, read in place (the input's
 * window, tw_input_window()) before a line reader looks for its end: the
 * same lines, when they end in an LF, with the same event; nothing is
 * consumed for any other line (tw_input_getline() then reads it). */
static TW_INLINE bool plain_inplace(t1_reader *r, tw_event *ev) {
    if (!r->nwin && !(r->nwin = tw_input_window(r->ctx.in, &r->win))) return false;
    plain p;
    size_t len = plain_scan(r, (const char *)r->win, r->nwin, true, &p);
    if (!len) return false;
    tw_line l;
    tw_window_take(r->ctx.in, &r->win, &r->nwin, len, &l);
    tw_loc loc = tw_text_loc(r->file, &l, 0);
    function_event(r, p.a, p.handle, p.code, p.tid, p.ts, &loc, ev);
    return true;
}

/* The timeline code of an event kind that check_order() checks. */
static char kind_code(tw_kind k) {
    switch (k) {
    case TW_BEGIN: return 'E';
    case TW_END: return 'X';
    case TW_SUSPEND: return 'S';
    default: return 'R';
    }
}

/* The format's read_check (tw_format): check_order() of the marked events
 * (order_mark()), on the consumer's thread, each mark cleared. */
static size_t text1_check(void *state, tw_event *ev, size_t n, tw_diag_sink *sink) {
    t1_reader *r = state;
    for (size_t i = 0; i < n; i++) {
        tw_event *e = &ev[i];
        if (!e->value || e->has_value) continue; /* not marked */
        uint64_t v = (uint64_t)e->value;
        area *a = v & 1 ? NULL : (area *)(intptr_t)e->value;
        char code = kind_code(e->kind);
        if (!a || !order_usual(a, e->tid, code)) {
            if (i) return i; /* it may report: after the events before it */
            bool was = tw_diag_stopped(sink);
            check_order(r, a, a ? a->handle : (uint32_t)(v >> 1), e->tid, code, e->name, &e->loc,
                        sink);
            if (!was && tw_diag_stopped(sink)) return 0;
        }
        e->value = 0;
    }
    return n;
}

int t1_plain_entry(t1_reader *r, uint32_t handle, char code, uint64_t tid, int64_t ts,
                   const tw_loc *loc, tw_event *ev) {
    area *a;
    if (handle >> 28 != T1_FUNCTION || !(a = plain_area(r, handle)) || !a->name) return 0;
    r->order_checked = false;
    function_event(r, a, handle, code, tid, ts, loc, ev);
    return r->order_checked ? T1_PLAIN_CHECKED : T1_PLAIN;
}

static void entry_info(t1_reader *r, const tw_line *l, const field *fv) {
    field f = get(&r->sec, fv, M_TOTAL_TIME);
    int64_t v;
    if (!need_dec(r, l, &f, "expected the session time in nanoseconds, not", &v)) return;
    tw_loc loc = tw_text_loc(r->file, l, 0);
    tw_event *e = emit(r, TW_META, r->n_total, 0, 0, &loc);
    if (e) {
        e->has_value = true;
        e->value = v;
    }
}

static const struct {
    const char *name;
    int kind;
    int need[3]; /* macros an entry must have (-1: none) */
} SECTIONS[] = {
    {"INFO", S_INFO, {M_TOTAL_TIME, -1, -1}},
    {"CONTEXTS", S_CONTEXTS, {M_NAME, M_HANDLE, -1}},
    {"HANDLE", S_HANDLE, {M_HANDLE, -1, -1}},
    {"STATISTICS", S_STATS, {M_HANDLE, -1, -1}},
    {"TIMELINE", S_TIMELINE, {M_HANDLE, M_EVENT, M_TIME}},
};

/* "* NAME[(CLASS)][ CONTEXT(name)] FORMAT" */
static void header(t1_reader *r, const tw_line *l) {
    section *sec = &r->sec;
    const char *s = l->s + 2, *e = l->s + l->len;
    const char *p = s;
    while (p < e && *p != '(' && *p != ' ') p++;
    size_t nl = (size_t)(p - s);
    int which = -1;
    for (size_t i = 0; i < sizeof SECTIONS / sizeof SECTIONS[0]; i++)
        if (strlen(SECTIONS[i].name) == nl && memcmp(SECTIONS[i].name, s, nl) == 0) which = (int)i;
    sec->kind = S_SKIP;
    sec->usual = false;
    tw_buf_clear(&sec->cls);
    tw_buf_clear(&sec->context);
    tw_buf_clear(&sec->fmt);
    sec->has_context = false;
    tw_loc loc = tw_text_loc(r->file, l, 2);
    r->sections |= which >= 0;
    r->timeline |= which >= 0 && SECTIONS[which].kind == S_TIMELINE;
    if (which < 0) {
        tw_report(r->ctx.diag, TW_R_UNKNOWN_RECORD, &loc,
                  "section '%.*s' is not a Text1 section; its entries are skipped",
                  (int)(nl > 60 ? 60 : nl), s);
        return;
    }
    if (p < e && *p == '(') {
        const char *c = memchr(p, ')', (size_t)(e - p));
        if (!c) {
            tw_report(r->ctx.diag, TW_R_T1_TEMPLATE, &loc,
                      "'(' of the section's class is not closed; its entries are skipped");
            return;
        }
        if (!tw_buf_append(&sec->cls, p + 1, (size_t)(c - p - 1))) goto oom;
        p = c + 1;
    }
    if (p < e && *p == ' ') p++;
    static const char CTX[] = "CONTEXT(";
    if ((size_t)(e - p) >= sizeof CTX - 1 && memcmp(p, CTX, sizeof CTX - 1) == 0) {
        /* the name ends at the last ") %" (names may hold '%' and ')'),
         * else at the last ')' before the template's first '%' */
        const char *c = NULL;
        for (const char *q = p + sizeof CTX - 1; q + 2 < e; q++)
            if (q[0] == ')' && q[1] == ' ' && q[2] == '%') c = q;
        if (!c) {
            const char *pct = memchr(p, '%', (size_t)(e - p));
            const char *lim = pct ? pct : e;
            for (const char *q = p + sizeof CTX - 1; q < lim; q++)
                if (*q == ')') c = q;
        }
        if (!c) {
            tw_report(r->ctx.diag, TW_R_T1_TEMPLATE, &loc,
                      "'CONTEXT(' is not closed; the section's entries are skipped");
            return;
        }
        const char *nb = p + sizeof CTX - 1;
        if (!tw_buf_append(&sec->context, nb, (size_t)(c - nb))) goto oom;
        sec->has_context = true;
        p = c + 1;
        if (p < e && *p == ' ') p++;
    }
    if (!tw_buf_append(&sec->fmt, p, (size_t)(e - p))) goto oom;
    const char *why = NULL, *unk;
    size_t unk_n = 0;
    tw_loc floc = tw_text_loc(r->file, l, (size_t)(p - l->s));
    if (!tmpl_parse(sec, &why, &unk, &unk_n)) {
        tw_report(r->ctx.diag, TW_R_T1_TEMPLATE, &floc,
                  "cannot read the %s template: %s; its entries are skipped",
                  SECTIONS[which].name, why);
        return;
    }
    for (int i = 0; i < 3; i++) {
        int m = SECTIONS[which].need[i];
        if (m >= 0 && !has_field(sec, m)) {
            tw_report(r->ctx.diag, TW_R_T1_TEMPLATE, &floc,
                      "the %s template has no %%%s%%; its entries are skipped",
                      SECTIONS[which].name, MACROS[m]);
            return;
        }
    }
    if (unk && first_report(r, REP_MACRO, tw_hash(unk, unk_n)))
        tw_report(r->ctx.diag, TW_R_UNKNOWN_FIELD, &floc,
                  "macro %%%.*s%% is not known; its values are ignored",
                  (int)(unk_n > 40 ? 40 : unk_n), unk);
    sec->kind = SECTIONS[which].kind;
    sec->usual = sec->kind == S_TIMELINE && usual_timeline(sec);
    if (sec->kind == S_TIMELINE && !r->companion && !has_field(sec, M_CONTEXT)) {
        r->ctxless = true;
        no_timeline_contexts(r, &loc);
    }
    if (sec->kind == S_TIMELINE && r->companion) {
        tw_report(r->ctx.diag, TW_R_UNSUPPORTED, &loc,
                  "the companion's TIMELINE section is not read; the .BIN timeline is");
        r->eof = true;
    }
    return;
oom:
    tw_report(r->ctx.diag, TW_R_OUT_OF_MEMORY, &loc, "out of memory; section skipped");
}

static void process_line(t1_reader *r, const tw_line *l) {
    if (l->len >= 2 && l->s[0] == '*' && l->s[1] == ' ') {
        header(r, l);
        return;
    }
    if (l->len == 0) return;
    if (r->sec.kind == S_SKIP) return;
    if (r->sec.kind == S_NONE) {
        tw_loc loc = tw_text_loc(r->file, l, 0);
        if (first_report(r, REP_SECTION, 0))
            tw_report(r->ctx.diag, TW_R_BAD_RECORD, &loc,
                      "entry before any '* SECTION' header; skipped (so are the ones after it "
                      "up to the first header)");
        return;
    }
    if (r->sec.usual && timeline_usual(r, l)) return;
    field fv[T1_MAX_TOK];
    size_t col = 0;
    if (!tmpl_match(&r->sec, l->s, l->len, fv, &col)) {
        tw_loc loc = tw_text_loc(r->file, l, col);
        tw_report(r->ctx.diag, TW_R_BAD_RECORD, &loc,
                  "entry does not fit the section's template '%.*s'; skipped",
                  (int)(r->sec.fmt.len > 80 ? 80 : r->sec.fmt.len), r->sec.fmt.p);
        return;
    }
    switch (r->sec.kind) {
    case S_INFO: entry_info(r, l, fv); break;
    case S_CONTEXTS: entry_context(r, l, fv); break;
    case S_HANDLE: entry_mapping(r, l, fv); break;
    case S_STATS: entry_stats(r, l, fv); break;
    case S_TIMELINE: entry_timeline(r, l, fv); break;
    default: break;
    }
}

/* A text export without a TIMELINE section: where its timeline went (the
 * export option TimelineBinary writes it to X.txt.BIN, or X.BIN, beside the
 * text), so that a report of no scopes is not left unexplained. */
bool t1_is_file(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The .BIN timeline beside the text export `path` (X.txt.BIN, X.txt.bin,
 * then for X.txt X.BIN, X.bin), malloc'd; NULL when there is none. */
static char *timeline_beside(const char *path) {
    size_t n = strlen(path);
    size_t stem = n > 4 && strcasecmp(path + n - 4, ".txt") == 0 ? n - 4 : n;
    const size_t base[4] = {n, n, stem, stem};
    char *bin = malloc(n + 5);
    for (int i = 0; bin && i < (stem < n ? 4 : 2); i++) {
        memcpy(bin, path, base[i]);
        memcpy(bin + base[i], i % 2 ? ".bin" : ".BIN", 5);
        if (t1_is_file(bin)) return bin;
    }
    free(bin);
    return NULL;
}

static void no_timeline(t1_reader *r) {
    const char *path = r->ctx.in ? tw_input_path(r->ctx.in) : NULL;
    tw_loc loc = {.file = r->file, .kind = TW_LOC_FILE};
    char *bin = path ? timeline_beside(path) : NULL;
    if (bin)
        tw_report(r->ctx.diag, TW_R_T1_NO_TIMELINE, &loc,
                  "no TIMELINE section: the timeline is in %s (read that file for the "
                  "events; this one names its handles)", bin);
    else if (r->sections)
        tw_report(r->ctx.diag, TW_R_T1_NO_TIMELINE, &loc,
                  "no TIMELINE section: names and statistics only, no events in time "
                  "(an export with its timeline in a .BIN file: read that file)");
    else
        tw_report(r->ctx.diag, TW_R_T1_NO_TIMELINE, &loc,
                  "no Text1 section at all: nothing to read");
    free(bin);
}

void t1_finish(t1_reader *r) {
    r->eof = true;
    if (!r->companion && !r->timeline) no_timeline(r);
    if (r->lines_skipped)
        tw_report(r->ctx.diag, TW_R_UNSUPPORTED, &r->lines_first,
                  "%llu event%s of line areas (handles 1xxxxxxx) %s skipped, the first here; "
                  "read them with --" T1_OPT_LINES,
                  (unsigned long long)r->lines_skipped, r->lines_skipped == 1 ? "" : "s",
                  r->lines_skipped == 1 ? "was" : "were");
}

void t1_begin(t1_reader *r, tw_event *out) { tw_evq_begin(&r->q, out); }
bool t1_first(t1_reader *r) { return tw_evq_first(&r->q); }

/* t1_next(), inline in text1's own read_next */
static TW_INLINE int next_entry(t1_reader *r, tw_event *ev) {
    for (;;) {
        if (tw_evq_pop(&r->q, ev)) return TW_OK;
        if (r->eof || !r->ctx.in) return TW_EOF;
        if (tw_diag_stopped(r->ctx.diag)) return TW_ERR;
        if (plain_inplace(r, ev)) return TW_OK;
        r->nwin = 0;  /* the next line is read otherwise: ask for the window again */
        tw_line l;
        int rc = tw_read_line(&r->ctx, &l);
        if (rc < 0) return TW_ERR;
        if (rc == 1 && plain_entry(r, &l, ev)) return TW_OK;
        tw_evq_begin(&r->q, ev);
        if (rc == 0) {
            if (!r->companion) t1_finish(r);
            r->eof = true;
        } else {
            process_line(r, &l);
        }
        if (tw_evq_first(&r->q)) return TW_OK;
    }
}

int t1_next(t1_reader *r, tw_event *ev) { return next_entry(r, ev); }

void t1_close(t1_reader *r) {
    if (!r) return;
    for (size_t i = 0; i < r->nav; i++) free(r->av[i]);
    free(r->av);
    tw_u64map_free(&r->areas);
    tw_idcache_free(&r->handles);
    tw_u64map_free(&r->contexts);
    tw_u64map_free(&r->tracks);
    tw_u64map_free(&r->active);
    for (int i = 0; i < REP_COUNT; i++) tw_u64map_free(&r->reported[i]);
    for (size_t i = 0; i < r->nov; i++) {
        free(r->ov[i]->susp);
        free(r->ov[i]);
    }
    free(r->ov);
    tw_u64map_free(&r->orders);
    tw_evq_free(&r->q);
    tw_buf_free(&r->text);
    tw_buf_free(&r->sec.fmt);
    tw_buf_free(&r->sec.cls);
    tw_buf_free(&r->sec.context);
    free(r);
}

int t1_open(const tw_read_ctx *ctx, bool companion, t1_reader **out) {
    t1_reader *r = tw_state_alloc(ctx->diag, sizeof *r);
    if (!r) return TW_ERR;
    r->ctx = *ctx;
    r->companion = companion;
    r->file = ctx->in ? tw_input_name(ctx->in) : NULL;
    r->no_names = companion && !ctx->in;
    r->ctxless = companion; /* a .BIN's timeline has no contexts */
    if (companion && ctx->in) (void)tw_input_skip_bom(ctx->in); /* as the reader's own input */
    r->lines = tw_opt_bool(ctx->opts, T1_OPT_LINES);
    r->next_tid = 1; /* contexts the CONTEXTS section did not list; 0 is "no context" */
    static const char *const keys[] = {
        "source", "class", "context", "handle", "value", "count", TW_META_THREAD_NAME,
        "text1.total_time", "text1.statistics", "function", "line", "state", "aux-state",
        "variable", "aux", "timeline_contexts"};
    const tw_str **dst[] = {&r->k_source, &r->k_class, &r->k_context, &r->k_handle,
                            &r->k_value, &r->k_count, &r->n_thread_name, &r->n_total,
                            &r->n_stats, &r->c_function, &r->c_line, &r->c_state,
                            &r->c_aux_state, &r->c_variable, &r->c_aux, &r->k_timeline_contexts};
    bool ok = true;
    for (size_t i = 0; i < sizeof dst / sizeof dst[0]; i++)
        ok = ok && (*dst[i] = tw_intern_cstr(ctx->strtab, keys[i])) != NULL;
    for (int m = 0; m < 20 && ok; m++) {
        char b[24];
        snprintf(b, sizeof b, "T.%s%s%s", T_CATS[m / 4], m % 4 ? "." : "", T_CRITS[m % 4]);
        ok = (r->k_t[m] = tw_intern_cstr(ctx->strtab, b)) != NULL;
    }
    if (!ok) {
        tw_own_names_failed(ctx);
        t1_close(r);
        return TW_ERR;
    }
    ctx->info->resolution_ns = 1;
    *out = r;
    return TW_OK;
}

/* ---- writer (both formats) ----------------------------------------------- */

/* Area classes: the key of an area is (class << 32 | name id). */
enum { WC_CODE = 0, WC_STATE, WC_VARIABLE, WC_AUX, WC_AUX_STATE };

typedef struct warea {
    uint32_t handle;
    uint8_t type;
    const tw_str *name;   /* the scope or counter name */
    const tw_str *text;   /* mapping NAME: function or variable name, line source */
    const tw_str *value;  /* mapping VALUE: line number, state value (raw) */
    uint64_t v;           /* a state's value */
    bool unknown;         /* a state read without its value ("VAR=?") */
    struct warea *parent; /* a line's function, a state's variable */
    struct warea *child, *last_child, *sibling; /* in handle order, once sorted */
} warea;

typedef struct wthread {
    uint64_t tid;
    const tw_str *name;
    const tw_str *var;    /* a state track's variable, whose name it is read back with */
    const tw_str *alias;  /* the context name written instead of a name another has */
    bool code, state;     /* carries function/line events, state events */
    uint32_t *stack;      /* open function/line handles (derived suspend/resume) */
    size_t depth, cap;
} wthread;

typedef struct wrec {     /* one spooled timeline entry */
    int64_t ts;
    uint64_t tid;
    uint64_t value;
    uint32_t handle;
    char code;
    uint8_t has_value;
    /* cppcheck-suppress unusedStructMember ; explicit padding: the record is spooled whole */
    uint8_t pad[2];
} wrec;

typedef struct t1_writer {
    tw_write_ctx ctx;
    bool binary;
    int version;          /* 10 or 11 (binary) */
    char *companion;      /* path of the binary's text export */
    FILE *spool;
    tw_diag_sink quiet;   /* the statistics engine's findings are not the writer's */
    tw_stats *stats;
    tw_u64map areas;
    warea **av;
    size_t nav, avcap;
    tw_u64map used;       /* handles given out */
    uint32_t next[6];
    tw_u64map threads;
    wthread **tv;
    size_t ntv, tvcap;
    bool had_sr, have_total, have_bounds, have_pid, failed;
    int64_t total, first, last;
    uint32_t pid;
    const tw_str *k_source;
} t1_writer;

static int wfail(t1_writer *w) {
    w->failed = true;
    return TW_ERR;
}

static wthread *wthread_get(t1_writer *w, uint64_t tid) {
    bool created;
    wthread *t = tw_keyed_get(&w->threads, &w->tv, &w->ntv, &w->tvcap, tid, sizeof *t, &created);
    if (!t) tw_report(w->ctx.diag, TW_R_OUT_OF_MEMORY, NULL, "out of memory");
    else if (created) t->tid = tid;
    return t;
}

static const tw_str *wintern(t1_writer *w, const char *s, size_t n) {
    const tw_str *str = tw_intern(w->ctx.strtab, s, n);
    if (!str) tw_intern_failed_in(w->ctx.strtab, w->ctx.diag, NULL, "name");
    return str;
}

/* A free handle of `type`, `want` when it is one. */
static bool take_handle(t1_writer *w, int type, uint64_t want, uint32_t *h) {
    if (want >> 28 == (uint64_t)type && !tw_u64map_get(&w->used, want)) {
        *h = (uint32_t)want;
    } else {
        for (;;) {
            if (w->next[type] > 0x0FFFFFFFu) {
                tw_report(w->ctx.diag, TW_R_LIMIT, NULL,
                          "more than 2^28 areas of one type; Text1 handles cannot number them");
                return false;
            }
            *h = (uint32_t)type << 28 | w->next[type]++;
            if (!tw_u64map_get(&w->used, *h)) break;
        }
    }
    return tw_u64map_put(&w->used, *h, (void *)1);
}

/* The area of class `cls` named `name`, created with type `type`. */
static warea *warea_get(t1_writer *w, int cls, int type, const tw_str *name, uint64_t want,
                        bool *created) {
    uint64_t key = (uint64_t)cls << 32 | name->id;
    warea *a = tw_keyed_get(&w->areas, &w->av, &w->nav, &w->avcap, key, sizeof *a, created);
    if (!a) tw_report(w->ctx.diag, TW_R_OUT_OF_MEMORY, NULL, "out of memory");
    if (!a || !*created) return a;
    a->type = (uint8_t)type;
    a->name = a->text = name;
    if (type != T1_STATE && type != T1_AUX_STATE && !take_handle(w, type, want, &a->handle))
        return NULL;
    return a;
}

static const tw_attr *find_attr(const tw_event *ev, const tw_str *key) {
    for (size_t i = 0; i < ev->nattrs; i++)
        if (ev->attrs[i].key == key && ev->attrs[i].type == TW_ATTR_STR) return &ev->attrs[i];
    return NULL;
}

/* Split `name` at the last `sep`; false when there is none. */
static bool split_last(const tw_str *name, char sep, size_t *at) {
    for (size_t i = name->len; i-- > 0;)
        if (name->s[i] == sep) {
            *at = i;
            return true;
        }
    return false;
}

/* The area of a scope event: a state ("VAR=VALUE", category state or
 * aux-state), a line ("FUNCTION:LINE", category line) or a function. */
static warea *scope_area(t1_writer *w, const tw_event *ev) {
    bool created;
    size_t at;
    bool aux = tw_str_is(ev->cat, "aux-state");
    uint64_t v;
    bool unknown = false;
    if ((aux || tw_str_is(ev->cat, "state")) && split_last(ev->name, '=', &at) &&
        ((unknown = at + 2 == ev->name->len && ev->name->s[at + 1] == '?') ||
         parse_hex(ev->name->s + at + 1, ev->name->len - at - 1, 16, &v))) {
        warea *a = warea_get(w, aux ? WC_AUX_STATE : WC_STATE, aux ? T1_AUX_STATE : T1_STATE,
                             ev->name, 0, &created);
        if (!a || !created) return a;
        const tw_str *var = wintern(w, ev->name->s, at);
        /* the state track's tid is the state handle: keep its number */
        uint64_t want = ev->tid >> 28 == (uint64_t)(aux ? T1_AUX_STATE : T1_STATE)
                            ? (ev->tid & 0x0FFFFFFFu) | (uint64_t)(aux ? T1_AUX : T1_VARIABLE) << 28
                            : 0;
        warea *p = var ? warea_get(w, aux ? WC_AUX : WC_VARIABLE, aux ? T1_AUX : T1_VARIABLE, var,
                                   want, &created)
                       : NULL;
        a->value = wintern(w, ev->name->s + at + 1, ev->name->len - at - 1);
        if (!p || !a->value) return NULL;
        a->parent = p;
        a->v = unknown ? 0 : v;
        a->unknown = unknown;
        a->text = NULL;
        a->handle = (p->handle & 0x0FFFFFFFu) | (uint32_t)(aux ? T1_AUX_STATE : T1_STATE) << 28;
        return a;
    }
    if (tw_str_is(ev->cat, "line") && split_last(ev->name, ':', &at)) {
        warea *a = warea_get(w, WC_CODE, T1_LINE, ev->name, 0, &created);
        if (!a || !created) return a;
        const tw_str *fn = wintern(w, ev->name->s, at);
        warea *p = fn ? warea_get(w, WC_CODE, T1_FUNCTION, fn, 0, &created) : NULL;
        a->value = wintern(w, ev->name->s + at + 1, ev->name->len - at - 1);
        if (!p || !a->value) return NULL;
        a->parent = p;
        const tw_attr *src = find_attr(ev, w->k_source);
        a->text = src ? wintern(w, src->s, src->slen) : fn;
        return a->text ? a : NULL;
    }
    return warea_get(w, WC_CODE, T1_FUNCTION, ev->name, 0, &created);
}

static int spool(t1_writer *w, uint32_t handle, char code, const tw_event *ev, bool has_value,
                 uint64_t value) {
    wrec rec = {.ts = ev->ts, .tid = ev->tid, .value = value, .handle = handle, .code = code,
                .has_value = has_value};
    if (fwrite(&rec, sizeof rec, 1, w->spool) != 1) {
        tw_report(w->ctx.diag, TW_R_IO_ERROR, NULL, "cannot write the temporary timeline: %s",
                  strerror(errno));
        return wfail(w);
    }
    if (!w->have_bounds || ev->ts < w->first) w->first = ev->ts;
    if (!w->have_bounds || ev->ts > w->last) w->last = ev->ts;
    w->have_bounds = true;
    return TW_OK;
}

/* What an event the writer keeps loses on the way: the process id, a
 * category other than `back` (the one it is read back with), the message
 * and value unless they are what the event holds (a thread name's message,
 * a counter's value), and the attributes but `keep` (a line's `source`). */
static void kept_event(t1_writer *w, const tw_event *ev, const char *back, bool msg,
                       bool value, const tw_attr *keep) {
    tw_loss *l = w->ctx.loss;
    if (ev->pid && !w->ctx.info->has_pid) tw_loss_add(l, "process id dropped", 1);
    if (ev->cat && !(back && tw_str_is(ev->cat, back))) tw_loss_add(l, "categories dropped", 1);
    if (!msg && ev->msg) tw_loss_add(l, "message texts dropped", 1);
    if (!value && ev->has_value) tw_loss_add(l, "event values dropped", 1);
    if (ev->nattrs > (keep ? 1u : 0u)) tw_loss_add(l, "event attributes dropped", 1);
}

static int wmeta(t1_writer *w, const tw_event *ev) {
    if (tw_str_is(ev->name, TW_META_THREAD_NAME)) {
        kept_event(w, ev, NULL, true, false, NULL);
        wthread *t = wthread_get(w, ev->tid);
        if (!t) return wfail(w);
        t->name = wintern(w, ev->msg ? ev->msg : "", ev->msg ? ev->msg_len : 0);
        return t->name ? TW_OK : wfail(w);
    }
    if (tw_str_is(ev->name, "text1.total_time") && ev->has_value) {
        kept_event(w, ev, NULL, false, true, NULL);
        w->have_total = true;
        w->total = ev->value;
        return TW_OK;
    }
    /* an export's own statistics are recomputed, never copied */
    if (tw_str_is(ev->name, "text1.statistics")) return TW_OK;
    tw_loss_drop(w->ctx.loss, ev);
    return TW_OK;
}

int t1_write_event(void *state, const tw_event *ev) {
    t1_writer *w = state;
    if (w->failed) return TW_ERR;
    if (ev->kind == TW_META) return wmeta(w, ev);
    if (ev->kind == TW_INSTANT) {
        tw_loss_drop(w->ctx.loss, ev);
        return TW_OK;
    }
    if (!w->have_pid) {
        w->have_pid = true;
        w->pid = ev->pid;
    } else if (ev->pid != w->pid) {
        tw_loss_add(w->ctx.loss, "events of a second process (one export is one target)", 1);
    }
    if (ev->kind == TW_COUNTER) {
        bool aux = tw_str_is(ev->cat, "aux"), created;
        warea *a = warea_get(w, aux ? WC_AUX : WC_VARIABLE, aux ? T1_AUX : T1_VARIABLE,
                             ev->name, 0, &created);
        if (!a) return wfail(w);
        kept_event(w, ev, aux ? "aux" : "variable", false, true, NULL);
        if (!ev->has_value) tw_loss_add(w->ctx.loss, "counters without a value (written as 0)", 1);
        if (!w->binary && ev->tid != 0)
            tw_loss_add(w->ctx.loss, "thread ids of counters", 1);
        /* the format's data is 32-bit: tracewright's reader takes more */
        if (ev->has_value && (ev->value < 0 || ev->value > (int64_t)UINT32_MAX))
            tw_loss_add(w->ctx.loss,
                        "values beyond 32 bits (written whole, as this reader takes them)", 1);
        return spool(w, a->handle, 'W', ev, true, ev->has_value ? (uint64_t)ev->value : 0);
    }
    warea *a = scope_area(w, ev);
    if (!a) return wfail(w);
    static const char *const CATS[] = {[T1_FUNCTION] = "function", [T1_LINE] = "line",
                                       [T1_STATE] = "state", [T1_AUX_STATE] = "aux-state"};
    const tw_attr *src = ev->kind == TW_BEGIN && a->type == T1_LINE && a->text
                             ? find_attr(ev, w->k_source) : NULL;
    if (src && !(src->slen == a->text->len && memcmp(src->s, a->text->s, src->slen) == 0))
        src = NULL; /* the line's source is the one its first event gave */
    kept_event(w, ev, a->type < sizeof CATS / sizeof CATS[0] ? CATS[a->type] : NULL, false,
               false, src);
    bool state_area = a->type == T1_STATE || a->type == T1_AUX_STATE;
    if (!state_area) {
        wthread *t = wthread_get(w, ev->tid);
        if (!t) return wfail(w);
        t->code = true;
    } else {
        /* a state's events are read back on its track, whose tid is its handle */
        if (ev->tid != a->handle)
            tw_loss_add(w->ctx.loss, "thread ids of state events (read back on the state's track)",
                        1);
        if (ev->tid >> 28 == a->type) {
            wthread *t = wthread_get(w, ev->tid);
            if (!t) return wfail(w);
            t->state = true;
            if (ev->tid == a->handle) t->var = a->parent->name;
        }
    }
    static const char CODES[TW_KIND_COUNT] = {[TW_BEGIN] = 'E', [TW_END] = 'X',
                                              [TW_SUSPEND] = 'S', [TW_RESUME] = 'R'};
    char code = CODES[ev->kind];
    if (code == 'S' || code == 'R') w->had_sr = true;
    if (w->binary && a->unknown && code == 'E') /* a record always has data */
        tw_loss_add(w->ctx.loss, "states entered without a value (written as state 0)", 1);
    if (tw_stats_event(w->stats, ev) != TW_OK) {
        tw_report(w->ctx.diag, TW_R_OUT_OF_MEMORY, NULL, "out of memory for statistics");
        return wfail(w);
    }
    return spool(w, a->handle, code, ev, state_area && !a->unknown, state_area ? a->v : 0);
}

/* ---- writing the sections ---- */

static int cmp_handle(const void *x, const void *y) {
    const warea *a = *(const warea *const *)x, *b = *(const warea *const *)y;
    if (a->handle != b->handle) return a->handle < b->handle ? -1 : 1;
    return a->v < b->v ? -1 : a->v > b->v;
}

static int cmp_thread(const void *x, const void *y) {
    const wthread *a = *(const wthread *const *)x, *b = *(const wthread *const *)y;
    return a->tid < b->tid ? -1 : a->tid > b->tid;
}

static bool is_context(const wthread *t) { return (t->code || t->name) && !t->state; }

static void put_text(t1_writer *w, tw_output *o, const tw_str *s) {
    if (s && tw_out_oneline(o, s->s, s->len))
        tw_loss_add(w->ctx.loss, "line breaks in names (written as spaces)", 1);
}

/* Whether a name, written on one line (line breaks as spaces), would start
 * a section at the start of a line ("* "). */
static bool starts_section(const char *s, size_t n) {
    return n >= 2 && s[0] == '*' && (s[1] == ' ' || s[1] == '\n' || s[1] == '\r');
}

/* A context's name: its thread name, or "thread N" (also for a name that
 * would start a section, which a .BIN's companion, whose names are not
 * aliased, may have: alias_contexts()). */
static void put_context(t1_writer *w, tw_output *o, const wthread *t) {
    if (t->alias) tw_out_write(o, t->alias->s, t->alias->len);
    else if (t->name && !starts_section(t->name->s, t->name->len))
        put_text(w, o, t->name);
    else tw_out_printf(o, "thread %llu", (unsigned long long)t->tid);
}

static void put_mapping(t1_writer *w, tw_output *o, const char *cls, int type) {
    tw_out_printf(o, "* HANDLE(%s) %%HANDLE%%,%%NAME%%,%%VALUE%%\n", cls);
    for (size_t i = 0; i < w->nav; i++) {
        const warea *a = w->av[i];
        if (a->type != type) continue;
        tw_out_printf(o, "%08X,", (unsigned)a->handle);
        put_text(w, o, a->text);
        tw_out_str(o, ",\n");
        for (const warea *c = a->child; c; c = c->sibling) {
            if (c->unknown) continue;
            tw_out_printf(o, "%08X,", (unsigned)c->handle);
            if (c->text) put_text(w, o, c->text);
            tw_out_putc(o, ',');
            put_text(w, o, c->value);
            tw_out_putc(o, '\n');
        }
    }
}

static void put_stat(tw_output *o, const tw_stat *s, bool total) {
    if (total) tw_out_printf(o, ",%lld", (long long)s->total);
    tw_out_printf(o, ",%lld,%lld,%lld", (long long)(s->n ? s->min : 0),
                  (long long)(s->n ? s->max : 0), (long long)tw_stat_avg(s));
}

static const char STATS_TEMPLATE[] =
    "%HANDLE%,%VALUE%,%COUNT%,%T.NET%,%T.NET.MIN%,%T.NET.MAX%,%T.NET.AVG%,"
    "%T.GROSS%,%T.GROSS.MIN%,%T.GROSS.MAX%,%T.GROSS.AVG%,"
    "%T.CALL%,%T.CALL.MIN%,%T.CALL.MAX%,%T.CALL.AVG%,"
    "%T.PERIOD.MIN%,%T.PERIOD.MAX%,%T.PERIOD.AVG%,"
    "%T.OUTSIDE%,%T.OUTSIDE.MIN%,%T.OUTSIDE.MAX%,%T.OUTSIDE.AVG%";

/* The statistics rows of thread `t` (NULL: of every state track) whose
 * areas are of class `cls`, in handle order. */
static int put_stats(t1_writer *w, tw_output *o, const char *name, const wthread *t, int cls,
                     bool with_context) {
    size_t nrows = tw_stats_scope_count(w->stats), n = 0;
    const tw_scope_stats **rows = malloc((nrows ? nrows : 1) * sizeof *rows);
    warea **areas = malloc((nrows ? nrows : 1) * sizeof *areas);
    if (!rows || !areas) {
        free(rows);
        free(areas);
        tw_report(w->ctx.diag, TW_R_OUT_OF_MEMORY, NULL, "out of memory");
        return TW_ERR;
    }
    for (size_t i = 0; i < nrows; i++) {
        const tw_scope_stats *row = tw_stats_scope(w->stats, i);
        if (t ? row->tid != t->tid : false) continue;
        const tw_str *s = tw_intern(w->ctx.strtab, row->name, row->name_len);
        warea *a = s ? tw_u64map_get(&w->areas, (uint64_t)cls << 32 | s->id) : NULL;
        if (!a) continue;
        rows[n] = row;
        areas[n++] = a;
    }
    /* insertion sort by handle and value: rows of one block are few */
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && cmp_handle(&areas[j - 1], &areas[j]) > 0; j--) {
            warea *ta = areas[j];
            areas[j] = areas[j - 1];
            areas[j - 1] = ta;
            const tw_scope_stats *tr = rows[j];
            rows[j] = rows[j - 1];
            rows[j - 1] = tr;
        }
    if (n || t) {
        tw_out_printf(o, "* STATISTICS(%s) ", name);
        if (with_context) {
            tw_out_str(o, "CONTEXT(");
            put_context(w, o, t);
            tw_out_str(o, ") ");
        }
        tw_out_str(o, STATS_TEMPLATE);
        tw_out_putc(o, '\n');
    }
    for (size_t i = 0; i < n; i++) {
        const tw_scope_stats *r = rows[i];
        tw_out_printf(o, "%08X,", (unsigned)areas[i]->handle);
        put_text(w, o, areas[i]->value);
        tw_out_printf(o, ",%llu", (unsigned long long)r->count);
        put_stat(o, &r->net, true);
        put_stat(o, &r->gross, true);
        put_stat(o, &r->call, true);
        put_stat(o, &r->period, false);
        put_stat(o, &r->outside, true);
        tw_out_putc(o, '\n');
    }
    free(rows);
    free(areas);
    return TW_OK;
}

/*
 * The reader tells the contexts of a timeline apart by their names, so the
 * names written are unique: unnamed contexts are "thread N"; a named one
 * (in tid order) whose name, with line breaks as spaces, another context
 * already has, or that is empty off thread 0 (an empty CONTEXT is thread
 * 0), is written as "thread N", or "thread N (2)", ... if that is taken;
 * so is one that starts with "* ", which would start a section where the
 * CONTEXTS section lists it.
 */
static int alias_contexts(t1_writer *w, wthread **ctxs, size_t nctx, bool multi) {
    tw_u64map taken = {0};
    tw_buf b = {0};
    int rc = TW_OK;
    for (int pass = 0; pass < 2 && rc == TW_OK; pass++) {
        for (size_t i = 0; i < nctx && rc == TW_OK; i++) {
            wthread *t = ctxs[i];
            if (!t->name != !pass) continue; /* unnamed ones first */
            const tw_str *s;
            char dflt[64];
            if (!t->name) {
                snprintf(dflt, sizeof dflt, "thread %llu", (unsigned long long)t->tid);
                s = wintern(w, dflt, strlen(dflt));
            } else {
                tw_buf_clear(&b);
                if (!tw_buf_append(&b, t->name->s, t->name->len)) goto oom;
                for (size_t k = 0; k < b.len; k++)
                    if (b.p[k] == '\n' || b.p[k] == '\r') b.p[k] = ' ';
                s = wintern(w, b.p, b.len);
                bool opens_section = starts_section(b.p, b.len), force = opens_section;
                for (unsigned k = 1; s && (force || (!s->len && t->tid && multi) ||
                                           tw_u64map_get(&taken, s->id)); k++) {
                    force = false;
                    if (k == 1) snprintf(dflt, sizeof dflt, "thread %llu", (unsigned long long)t->tid);
                    else snprintf(dflt, sizeof dflt, "thread %llu (%u)", (unsigned long long)t->tid, k);
                    s = t->alias = wintern(w, dflt, strlen(dflt));
                }
                if (opens_section)
                    tw_loss_add(w->ctx.loss,
                                "thread names starting with '* ', which would start a section "
                                "(written as thread N)",
                                1);
                else if (t->alias)
                    tw_loss_add(w->ctx.loss, "thread names that are empty or another context's (written as thread N)",
                                1);
            }
            if (!s) rc = TW_ERR;
            else if (!tw_u64map_put(&taken, s->id, (void *)1)) goto oom;
        }
    }
    tw_buf_free(&b);
    tw_u64map_free(&taken);
    return rc;
oom:
    tw_report(w->ctx.diag, TW_R_OUT_OF_MEMORY, NULL, "out of memory");
    tw_buf_free(&b);
    tw_u64map_free(&taken);
    return TW_ERR;
}

/* Everything but the timeline. */
static int put_sections(t1_writer *w, tw_output *o, wthread **ctxs, size_t nctx, bool multi) {
    tw_out_str(o, "* INFO %TOTAL_TIME%\n");
    int64_t total = w->have_total ? w->total : 0;
    if (!w->have_total && w->have_bounds && !tw_sub_i64(w->last, w->first, &total))
        total = INT64_MAX;
    tw_out_printf(o, "%lld\n", (long long)total);
    tw_out_str(o, "* CONTEXTS %NAME%,%HANDLE%\n");
    for (size_t i = 0; i < nctx; i++) {
        put_context(w, o, ctxs[i]);
        tw_out_printf(o, ",0x%llX\n", (unsigned long long)ctxs[i]->tid);
    }
    /* each area followed by its lines or states, all in handle order */
    tw_qsort(w->av, w->nav, sizeof *w->av, cmp_handle);
    bool aux = false;
    for (size_t i = 0; i < w->nav; i++) {
        warea *a = w->av[i], *p = a->parent;
        aux = aux || a->type == T1_AUX;
        if (!p) continue;
        if (p->last_child) p->last_child->sibling = a;
        else p->child = a;
        p->last_child = a;
    }
    put_mapping(w, o, "Functions", T1_FUNCTION);
    put_mapping(w, o, "Data", T1_VARIABLE);
    if (aux) put_mapping(w, o, "AUX", T1_AUX);
    for (size_t i = 0; i < nctx; i++)
        if (put_stats(w, o, "Functions", ctxs[i], WC_CODE, multi) != TW_OK) return TW_ERR;
    if (put_stats(w, o, "Data", NULL, WC_STATE, false) != TW_OK ||
        put_stats(w, o, "AUX", NULL, WC_AUX_STATE, false) != TW_OK)
        return TW_ERR;
    return TW_OK;
}

/* ---- the timeline ---- */

static const unsigned char BIN_TYPE[128] = {['X'] = 0, ['S'] = 1, ['R'] = 2, ['E'] = 3, ['W'] = 4};

static void put_le(tw_output *o, uint64_t v, int bytes) {
    unsigned char b[8];
    for (int i = 0; i < bytes; i++) b[i] = (unsigned char)(v >> (8 * i));
    tw_out_write(o, b, (size_t)bytes);
}

static void put_entry(t1_writer *w, uint32_t handle, char code, const wrec *r, bool multi) {
    tw_output *o = w->ctx.out;
    int type = (int)(handle >> 28);
    bool code_area = type == T1_FUNCTION || type == T1_LINE || type > T1_AUX_STATE;
    if (w->binary) {
        uint32_t flags = BIN_TYPE[(unsigned char)code];
        if (w->version == 10) {
            flags <<= 24;
            if ((code_area || code == 'W') && r->tid != 0)
                tw_loss_add(w->ctx.loss, "events off thread 0 (layout 1.0 has no core index)", 1);
        } else {
            uint64_t core = code_area || code == 'W' ? r->tid : 0xFF;
            if (core > 0xFF) {
                tw_loss_add(w->ctx.loss, "thread ids that are not core indexes 0-254", 1);
                core = 0xFF;
            }
            flags |= (uint32_t)core << 4;
        }
        put_le(o, handle, 4);
        put_le(o, flags, 4);
        put_le(o, r->has_value ? r->value : 0, 8);
        put_le(o, (uint64_t)r->ts, 8);
        return;
    }
    tw_out_printf(o, "%08X,%c,", (unsigned)handle, code);
    if (r->has_value) tw_out_printf(o, "%08llX", (unsigned long long)r->value);
    tw_out_printf(o, ",%lld", (long long)r->ts);
    if (multi) {
        tw_out_putc(o, ',');
        wthread *t = code_area ? tw_u64map_get(&w->threads, r->tid) : NULL;
        if (t) put_context(w, o, t);
    }
    tw_out_putc(o, '\n');
}

/* The spooled timeline, with suspend and resume derived from nesting when
 * the stream had none. */
static int put_timeline(t1_writer *w, bool multi) {
    if (!w->binary)
        tw_out_printf(w->ctx.out, "* TIMELINE %%HANDLE%%,%%EVENT%%,%%VALUE%%,%%TIME%%%s\n",
                      multi ? ",%CONTEXT%" : "");
    if (fflush(w->spool) != 0 || fseek(w->spool, 0, SEEK_SET) != 0) goto io;
    wrec r;
    while (fread(&r, sizeof r, 1, w->spool) == 1) {
        int type = (int)(r.handle >> 28);
        bool code_area = type == T1_FUNCTION || type == T1_LINE || type > T1_AUX_STATE;
        wthread *t = !w->had_sr && code_area ? tw_u64map_get(&w->threads, r.tid) : NULL;
        wrec d = r;
        d.has_value = 0;
        if (t && r.code == 'E') {
            if (t->depth) put_entry(w, t->stack[t->depth - 1], 'S', &d, multi);
            if (!tw_grow(&t->stack, &t->cap, t->depth + 1, sizeof *t->stack, 8)) {
                tw_report(w->ctx.diag, TW_R_OUT_OF_MEMORY, NULL, "out of memory");
                return TW_ERR;
            }
            t->stack[t->depth++] = r.handle;
        }
        put_entry(w, r.handle, r.code, &r, multi);
        if (t && r.code == 'X') {
            size_t k = t->depth;
            while (k > 0 && t->stack[k - 1] != r.handle) k--;
            if (k) {
                t->depth = k - 1;
                if (t->depth) put_entry(w, t->stack[t->depth - 1], 'R', &d, multi);
            }
        }
    }
    if (ferror(w->spool)) goto io;
    return TW_OK;
io:
    tw_report(w->ctx.diag, TW_R_IO_ERROR, NULL, "cannot read the temporary timeline back: %s",
              strerror(errno));
    return TW_ERR;
}

int t1_write_end(void *state) {
    t1_writer *w = state;
    if (w->failed) return TW_ERR;
    tw_stats_finish(w->stats);
    size_t nctx = 0;
    wthread **ctxs = malloc((w->ntv ? w->ntv : 1) * sizeof *ctxs);
    if (!ctxs) {
        tw_report(w->ctx.diag, TW_R_OUT_OF_MEMORY, NULL, "out of memory");
        return TW_ERR;
    }
    for (size_t i = 0; i < w->ntv; i++)
        if (is_context(w->tv[i])) ctxs[nctx++] = w->tv[i];
    tw_qsort(ctxs, nctx, sizeof *ctxs, cmp_thread);
    bool multi = nctx > 1 || (nctx == 1 && ctxs[0]->tid != 0);
    for (size_t i = 0; i < w->ntv; i++) {
        /* a state track is read back named after its variable */
        const wthread *t = w->tv[i];
        if (t->state && t->name && t->name != t->var)
            tw_loss_add(w->ctx.loss, "thread names of state tracks (read back as their variable's)",
                        1);
    }
    for (size_t i = 0; w->binary && i < nctx; i++) {
        /* the companion lists the names, but a .BIN has cores ("core N" is
         * what the reader calls core N anyway) */
        const wthread *t = ctxs[i];
        char core[32];
        t1_core_name(t->tid, core, sizeof core);
        if (t->name && !tw_str_is(t->name, core))
            tw_loss_add(w->ctx.loss, "thread names (a .BIN timeline has core indexes)", 1);
    }
    int rc;
    if (w->binary) {
        /* "-": standard output (the .BIN then went to a file: t1_write_begin) */
        bool to_stdout = strcmp(w->companion, "-") == 0;
        tw_output *o = tw_output_open(w->companion);
        if (!o) {
            tw_report(w->ctx.diag, TW_R_IO_ERROR, NULL, "cannot open '%s' for writing: %s",
                      w->companion, strerror(errno));
            free(ctxs);
            return TW_ERR;
        }
        rc = put_sections(w, o, ctxs, nctx, multi);
        if (rc == TW_OK) rc = put_timeline(w, multi);
        /* the .BIN written out first: the companion goes in place only
         * once the timeline it names is on disk (a full disk could fail the
         * .BIN's last block after its names had replaced the old ones) */
        if (rc == TW_OK && tw_output_flush(w->ctx.out) != 0) {
            /* The .BIN failed: its companion is dropped, and the failure is
             * the .BIN's alone.  Its error is sticky, and as for every
             * writer the caller reports it when it closes the output
             * ("cannot write to ..."); failing here would make the caller
             * give the output up without a word. */
            tw_output_abort(o);
            free(ctxs);
            return TW_OK;
        }
        int err = rc == TW_OK ? tw_output_close(o) : (tw_output_abort(o), 0);
        if (err) {
            /* the command line's wording for its own output; the caller
             * then gives the .BIN up */
            if (to_stdout)
                tw_report(w->ctx.diag, TW_R_IO_ERROR, NULL,
                          "cannot write to standard output: %s", strerror(err));
            else
                tw_report(w->ctx.diag, TW_R_IO_ERROR, NULL, "cannot write to '%s': %s",
                          w->companion, strerror(err));
            rc = TW_ERR;
        }
    } else {
        rc = alias_contexts(w, ctxs, nctx, multi);
        if (rc == TW_OK) rc = put_sections(w, w->ctx.out, ctxs, nctx, multi);
        if (rc == TW_OK) rc = put_timeline(w, multi);
    }
    free(ctxs);
    return rc;
}

/* The text export beside a .BIN file: x.txt.BIN -> x.txt, x.BIN -> x.txt,
 * anything else -> NAME.txt. */
static char *companion_of(const char *path) {
    size_t n = strlen(path);
    char *c = malloc(n + 5);
    if (!c) return NULL;
    memcpy(c, path, n + 1);
    if (n > 4 && strcasecmp(path + n - 4, ".bin") == 0) {
        c[n - 4] = '\0';
        if (n > 8 && strcasecmp(c + n - 8, ".txt") == 0) return c;
        n -= 4;
    }
    memcpy(c + n, ".txt", 5);
    return c;
}

/* Does `path` exist and hold a TIMELINE section?  A companion never does.
 * Only a regular file is looked into: a FIFO or a device is written to
 * directly and never read (reading one would wait for a writer, or, as
 * /dev/zero and /dev/full, never end). */
static bool full_export(const char *path) {
    if (!t1_is_file(path)) return false;
    FILE *f = fopen(path, "r");
    if (!f) return false;
    char line[64];
    bool found = false, bol = true;
    while (!found && fgets(line, sizeof line, f)) {
        found = bol && strncmp(line, "* TIMELINE", 10) == 0;
        bol = strchr(line, '\n') != NULL;
    }
    fclose(f);
    return found;
}

/* The file the .BIN output ends up in: a regular file is written under a
 * temporary name and put in place at the end (the file it replaces, if
 * there is one yet), anything else is written directly. */
static bool output_file(const tw_output *o, struct stat *st) {
    if (o->tmp_path) return stat(o->name, st) == 0;
    return o->fd >= 0 && fstat(o->fd, st) == 0;
}

/* Do two paths that name no file yet name the same new one (the same
 * last component in the same directory)? */
static bool same_new_file(const char *a, const char *b) {
    const char *sa = strrchr(a, '/'), *sb = strrchr(b, '/');
    const char *ba = sa ? sa + 1 : a, *bb = sb ? sb + 1 : b;
    if (strcmp(ba, bb) != 0) return false;
    char *da = sa ? strndup(a, (size_t)(sa - a) + 1) : strdup(".");
    char *db = sb ? strndup(b, (size_t)(sb - b) + 1) : strdup(".");
    struct stat x, y;
    bool same = da && db && stat(da, &x) == 0 && stat(db, &y) == 0 && x.st_dev == y.st_dev &&
                x.st_ino == y.st_ino;
    free(da);
    free(db);
    return same;
}

/* Is the companion (a path, or "-": standard output) the file the .BIN
 * goes to?  Its names would then replace the timeline, or the two would
 * run into each other; but not a character device, where both may go
 * (-o /dev/null --names=/dev/null, to time the writing). */
static bool companion_is_output(const char *companion, const tw_output *o) {
    struct stat bin, c, fd;
    bool have_bin = output_file(o, &bin);
    bool to_stdout = strcmp(companion, "-") == 0;
    bool have_c = to_stdout ? fstat(STDOUT_FILENO, &c) == 0 : stat(companion, &c) == 0;
    if (have_bin && have_c && bin.st_dev == c.st_dev && bin.st_ino == c.st_ino)
        return !S_ISCHR(bin.st_mode); /* a device (/dev/null) takes both */
    /* standard output may also be what the .BIN is being written to (its
     * temporary file, when standard output was closed and its descriptor
     * taken) */
    if (to_stdout && have_c && o->fd >= 0 && fstat(o->fd, &fd) == 0)
        return fd.st_dev == c.st_dev && fd.st_ino == c.st_ino;
    if (have_bin || have_c) return false;
    /* neither exists yet: both would be made by the renames at the end */
    return o->tmp_path && !to_stdout && same_new_file(o->name, companion);
}

/* Where the companion of the .BIN goes: --names=FILE ("-": standard
 * output), else beside the -o file.  What would lose data or mix the two
 * files is refused (bad-option), before anything is read. */
static int place_companion(t1_writer *w, const tw_write_ctx *ctx) {
    const char *names = tw_opt_str(ctx->opts, T1_OPT_NAMES);
    const tw_output *o = ctx->out;
    const char *out = o->name;
    bool no_path = o->fd < 0 || !out || out[0] == '<'; /* "<stdout>", "<memory>" */
    bool bin_stdout = o->fd == STDOUT_FILENO && !o->own_fd && !o->tmp_path;
    bool names_stdout = names && strcmp(names, "-") == 0;
    struct stat st;
    if (names && *names) {
        if (names_stdout && bin_stdout) {
            tw_report(ctx->diag, TW_R_BAD_OPTION, NULL,
                      "--" T1_OPT_NAMES "=- writes the companion text export to standard "
                      "output, where the .BIN goes too: give -o FILE.BIN or --" T1_OPT_NAMES
                      "=FILE");
            return TW_ERR;
        }
        w->companion = strdup(names);
    } else if (no_path) {
        tw_report(ctx->diag, TW_R_BAD_OPTION, NULL,
                  "text1-bin writes the names of its handles to a companion text export: "
                  "give -o FILE.BIN or --" T1_OPT_NAMES "=FILE");
        return TW_ERR;
    } else if (!o->tmp_path && !(fstat(o->fd, &st) == 0 && S_ISREG(st.st_mode))) {
        /* a device or a FIFO: beside it would be /dev/null.txt, made by
         * whoever may write in /dev */
        tw_report(ctx->diag, TW_R_BAD_OPTION, NULL,
                  "text1-bin writes the names of its handles to a companion text export: %s is "
                  "not a regular file to put it beside; give --" T1_OPT_NAMES "=FILE",
                  out);
        return TW_ERR;
    } else {
        w->companion = companion_of(out);
    }
    if (!w->companion) {
        tw_report(ctx->diag, TW_R_OUT_OF_MEMORY, NULL, "out of memory");
        return TW_ERR;
    }
    if (companion_is_output(w->companion, o)) {
        if (names_stdout)
            tw_report(ctx->diag, TW_R_BAD_OPTION, NULL,
                      "--" T1_OPT_NAMES "=- writes the companion text export to standard "
                      "output, where the .BIN goes too: give --" T1_OPT_NAMES "=FILE");
        else
            tw_report(ctx->diag, TW_R_BAD_OPTION, NULL,
                      "the companion text export %s is the .BIN output itself (one would replace "
                      "or run into the other): give --" T1_OPT_NAMES "=FILE naming another file",
                      w->companion);
        return TW_ERR;
    }
    /* a text export an input .BIN was read with (converting .BIN files to
     * another): replaced, it would no longer name that timeline's handles */
    const char *const *read_with = ctx->info ? ctx->info->companions : NULL;
    struct stat r, c;
    for (; read_with && *read_with && !names_stdout; read_with++) {
        if (stat(*read_with, &r) != 0 || stat(w->companion, &c) != 0 || r.st_dev != c.st_dev ||
            r.st_ino != c.st_ino || S_ISCHR(r.st_mode))
            continue;
        tw_report(ctx->diag, TW_R_BAD_OPTION, NULL,
                  "the companion text export %s is the one an input was read with; the "
                  ".BIN's names would replace those of that input's timeline: give --"
                  T1_OPT_NAMES "=FILE naming another file",
                  w->companion);
        return TW_ERR;
    }
    if (!names_stdout && full_export(w->companion)) {
        tw_report(ctx->diag, TW_R_BAD_OPTION, NULL,
                  "%s is a text export with a TIMELINE (perhaps the input); the .BIN's "
                  "names would replace it: give --" T1_OPT_NAMES "=FILE",
                  w->companion);
        return TW_ERR;
    }
    return TW_OK;
}

int t1_write_begin(const tw_write_ctx *ctx, bool binary, void **state) {
    t1_writer *w = tw_state_alloc(ctx->diag, sizeof *w);
    if (!w) return TW_ERR;
    w->ctx = *ctx;
    w->binary = binary;
    w->version = strcmp(tw_opt_str(ctx->opts, T1_OPT_BIN_WRITE), "1.0") == 0 ? 10 : 11;
    if (binary && place_companion(w, ctx) != TW_OK) goto fail;
    w->k_source = tw_intern_cstr(ctx->strtab, "source");
    w->stats = tw_stats_new(&w->quiet);
    if (!w->k_source || !w->stats) goto oom;
    w->spool = tw_tmpfile();
    if (!w->spool) {
        tw_report(ctx->diag, TW_R_IO_ERROR, NULL,
                  "cannot create a temporary file in '%s' for the timeline: %s", tw_tmpdir(),
                  strerror(errno));
        goto fail;
    }
    if (ctx->info->has_origin) tw_loss_add(ctx->loss, "wall-clock origin dropped", 1);
    if (ctx->info->has_pid) tw_loss_add(ctx->loss, "process id dropped", 1);
    *state = w;
    return TW_OK;
oom:
    tw_report(ctx->diag, TW_R_OUT_OF_MEMORY, NULL, "out of memory");
fail:
    t1_write_free(w);
    return TW_ERR;
}

void t1_write_free(void *state) {
    t1_writer *w = state;
    if (!w) return;
    if (w->spool) fclose(w->spool);
    tw_stats_free(w->stats);
    for (size_t i = 0; i < w->nav; i++) free(w->av[i]);
    free(w->av);
    for (size_t i = 0; i < w->ntv; i++) {
        free(w->tv[i]->stack);
        free(w->tv[i]);
    }
    free(w->tv);
    tw_u64map_free(&w->areas);
    tw_u64map_free(&w->used);
    tw_u64map_free(&w->threads);
    free(w->companion);
    free(w);
}

/* ---- the text format's reader --------------------------------------------- */

/* Is the line a "* SECTION" header of a known section with a template? */
static bool is_header(const char *l, size_t n) {
    if (n < 4 || l[0] != '*' || l[1] != ' ' || !memchr(l, '%', n)) return false;
    for (size_t i = 0; i < sizeof SECTIONS / sizeof SECTIONS[0]; i++) {
        size_t k = strlen(SECTIONS[i].name);
        if (n > k + 2 && memcmp(l + 2, SECTIONS[i].name, k) == 0 &&
            (l[2 + k] == ' ' || l[2 + k] == '('))
            return true;
    }
    return false;
}

static int text1_probe(const unsigned char *head, size_t len, const char *path) {
    (void)path;
    const char *s = (const char *)head, *l;
    size_t pos = 0, n;
    for (int i = 0; i < 64 && tw_head_line(s, len, &pos, &l, &n); i++)
        if (is_header(l, n)) return i == 0 ? 95 : 70;
    return 0;
}

static int text1_open(const tw_read_ctx *ctx, void **state) {
    return t1_open(ctx, false, (t1_reader **)state);
}
static int text1_next(void *state, tw_event *ev) { return next_entry(state, ev); }

/* A run of events (tw_batch), as tw_read_batch_with() reads it with
 * text1_next(), but the usual entries, read in place, go straight into
 * the batch without a call each: they end no run (no message, attributes
 * or transient name). */
static int text1_batch(void *state, tw_batch *b) {
    t1_reader *r = state;
    /* Whether the events are checked here or marked for the consumer's
     * text1_check() changes only with the queue empty, so that an event
     * queued one way comes out that way, and never from marking to
     * checking within a batch (the pump may fill one in several calls):
     * an event checked as it is read must not come before a marked one
     * whose check is still to come.  The checks are then made in the
     * events' order, by one thread at a time: the consumer checks the
     * marked ones as it takes them; a batch is read on its thread only
     * once every batch read ahead was taken (and so checked), and the
     * reading thread, which may check as it reads a first batch ahead
     * until its queue is empty, starts only once every batch read here
     * was taken, the pump's lock ordering the two. */
    if (tw_evq_empty(&r->q) && (b->defer_checks || !b->deferred)) r->defer = b->defer_checks;
    if (r->defer) b->deferred = true;
    while (b->n < b->cap) {
        /* next_entry()'s first steps, for the usual entry; they hold for
         * the next one unless this one's order was checked, the one step
         * of a usual entry that may report (none queues an event) */
        if (tw_evq_empty(&r->q) && !r->eof && r->ctx.in && !tw_diag_stopped(r->ctx.diag)) {
            size_t n0 = b->n;
            r->order_checked = false;
            while (b->n < b->cap && plain_inplace(r, &b->ev[b->n])) {
                /* an entry after which reading stops is not stored */
                if (r->order_checked && tw_diag_stopped(b->stop)) return TW_ERR;
                b->n++;
                if (r->order_checked) break;
            }
            if (b->n > n0) continue;
        }
        int rc; /* any other: one event the general way */
        if (!tw_read_one_with(text1_next, r, b, &rc)) return rc;
    }
    return TW_OK;
}
static void text1_close(void *state) { t1_close(state); }

static int text1_wbegin(const tw_write_ctx *ctx, void **state) {
    return t1_write_begin(ctx, false, state);
}

static const char *const text1_aliases[] = {"winidea", "isystem", NULL};
static const tw_option text1_options[] = {
    {T1_OPT_LINES, TW_OPT_BOOL, "no", NULL, TW_OPT_READ,
     "read line areas (handles 1xxxxxxx) as scopes FUNCTION:LINE (text1, text1-bin)"},
    {NULL, 0, NULL, NULL, 0, NULL}};

/* What the reader produces and the writer keeps (see tw_fidelity). */
static const tw_fidelity text1_fidelity = {
    .family = "text1",
    .produces = T1_PRODUCES,
    .keeps = TW_KEEP_THREADS | TW_KEEP_NESTING | TW_KEEP_IDS | TW_KEEP_NEGATIVE |
        TW_KEEP_SUSPEND | TW_KEEP_COUNTERS | TW_KEEP_NAMES,
    .read_clock_ns = 1,
    .write_clock_ns = 1,
    .read_origin_ns = 0,
    .write_origin_ns = 0,
    .partly = TW_PARTLY_COUNTER_THREADS | TW_PARTLY_NO_PROCESS_NAMES |
        TW_PARTLY_NO_COUNTER_THREADS | TW_PARTLY_NO_STATE_THREADS,
};

static const tw_format text1_format = {
    .abi = TW_FORMAT_ABI,
    .name = "text1",
    .aliases = text1_aliases,
    .extensions = NULL, /* ".txt" is everybody's; the content tells */
    .description = "iSYSTEM winIDEA profiler export Text1",
    .flags = TW_FMT_TEXT | TW_FMT_THREADS | TW_FMT_WRITER_INTERNS | TW_FMT_WRITER_TRANSIENT,
    .options = text1_options,
    .probe = text1_probe,
    .read_open = text1_open,
    .read_next = text1_next,
    .read_batch = text1_batch,
    .read_check = text1_check,
    .read_close = text1_close,
    .write_begin = text1_wbegin,
    .write_event = t1_write_event,
    .write_end = t1_write_end,
    .write_free = t1_write_free,
    .fidelity = &text1_fidelity,
};

TW_FORMAT_EXPORT(text1, text1_format)
