/*
 * coreprofiler - Samsung CoreProfiler (Tizen .NET CoreCLR profiler) TraceLog.
 *
 *   prf stm 2018-06-25 07:24:28.049 [+09:00]     session start (wall clock)
 *   prf cfg NAME VALUE                           configuration
 *   thr crt THREADID IID / thr aos IID OSTID     threads
 *   fun inf IID FUNCTIONID ... / fun nam IID "NAME" ["RET" "SIG"]
 *   sam str IID MS COUNT KEEP:DEPTH[:IP] FN[:IP]...   differential stacks
 *   jit cms/cmf/css/csf, gch gcs/gcf/alt/gen, prc cpu, thr cpu, sam mem, ...
 *
 * Mapping: ts = MS * 10^6 after `prf stm`.  Each thread's stack is rebuilt
 * from the `sam str` diffs: popped frames end and pushed frames begin at the
 * record's time.  JIT compilations and GCs become scopes, CPU usage and
 * memory figures counters.  See docs/formats/coreprofiler.md.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/evq.h"
#include "formats.h"

/* Names of the events this format reads and writes (also the writer's keys). */
#define N_GC "GC"
#define N_JIT "JIT "
#define N_JIT_SEARCH "JIT search "
#define N_PAUSE "pause"
#define N_RESUME "resume"
#define N_SAMPLES "samples"
#define N_PROC_CPU "process CPU (us)"
#define N_THR_CPU "thread CPU (us)"
#define N_ALLOC "alloc "   /* + class: bytes allocated on a thread (sam mem) */
#define N_LIVE "live "     /* + class: bytes alive after a GC (gch alt) */
#define N_HEAP "heap "     /* + generation: allocated bytes (gch gen) */
#define N_CONFIG "config." /* + name: metadata from prf cfg */

#define LIT_LEN(s) (sizeof(s) - 1)
#define UNDEF UINT64_MAX  /* an id written as '?' */
#define MAX_MS ((uint64_t)(INT64_MAX / TW_NS_PER_MS))
#define TC_MAX 8                    /* threads found by their iid's text */

static bool has_prefix(const tw_str *s, const char *p, size_t pn) {
    return s->len >= pn && memcmp(s->s, p, pn) == 0;
}

/* ---- lexing -------------------------------------------------------------- */

typedef struct cur {
    const char *s;
    size_t n, pos;
    bool eol;  /* s[n] is the line's CR or LF: the token scan may stop there */
} cur;

typedef struct tok {
    const char *s;
    size_t n, col;  /* col: 0-based byte offset in the line */
} tok;

/* 1: a separator (space, tab); 2: CR or LF, which can only follow a line's
 * last byte (and so ends its last token) or be part of a token. */
static const unsigned char SEP[256] = {[' '] = 1, ['\t'] = 1, ['\r'] = 2, ['\n'] = 2};

/* The next space-separated token; false at the end of the line. */
static bool next_tok(cur *c, tok *t) {
    const char *p = c->s + c->pos, *e = c->s + c->n;
    while (p < e && SEP[(unsigned char)*p] == 1) p++;
    if (p == e) {
        c->pos = c->n;
        return false;
    }
    const char *b = p;
    if (c->eol) /* stops at e at the latest */
        while (!SEP[(unsigned char)*p]) p++;
    while (p < e && SEP[(unsigned char)*p] != 1) p++; /* a CR inside the line, or no eol */
    t->s = b;
    t->col = (size_t)(b - c->s);
    t->n = (size_t)(p - b);
    c->pos = (size_t)(p - c->s);
    return true;
}

/* "0x" + 1..16 hex digits of either case. */
static bool parse_hex(const char *s, size_t n, uint64_t *v) {
    return n >= 3 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') &&
           tw_scan_hex(s + 2, s + n, 16, v) == s + n;
}

/* A hex id or '?' (UNDEF). */
static bool parse_iid(const char *s, size_t n, uint64_t *v) {
    if (n == 1 && s[0] == '?') {
        *v = UNDEF;
        return true;
    }
    return parse_hex(s, n, v);
}

/* "0x..." or "?" (an instruction pointer). */
static bool is_ip(const char *s, size_t n) {
    uint64_t v;
    return (n == 1 && s[0] == '?') || parse_hex(s, n, &v);
}

/* Milliseconds: a DWORD written with %d, so -1..-2^31 stand for 2^32-1..2^31. */
static bool parse_ms(const char *s, size_t n, uint64_t *ms) {
    if (n && s[0] == '-') {
        uint64_t v;
        if (!tw_parse_u64(s + 1, n - 1, &v) || v == 0 || v > (UINT64_C(1) << 31)) return false;
        *ms = (UINT64_C(1) << 32) - v;
        return true;
    }
    return tw_parse_u64(s, n, ms) && *ms <= MAX_MS;
}

/* Split s[0..n) at its colons into at most `max` parts; returns the count
 * (max + 1 when there are more). */
static size_t split_colons(const char *s, size_t n, tok *parts, size_t max) {
    size_t k = 0, b = 0;
    for (size_t i = 0; i <= n; i++) {
        if (i == n || s[i] == ':') {
            if (k == max) return max + 1;
            parts[k].s = s + b;
            parts[k].n = i - b;
            parts[k].col = b;
            k++;
            b = i + 1;
        }
    }
    return k;
}

/* Days since 1970-01-01 of a proleptic Gregorian date. */
static int64_t days_from_civil(int64_t y, unsigned m, unsigned d) {
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    unsigned yoe = (unsigned)(y - era * 400);
    unsigned doy = (153 * (m + (m > 2 ? (unsigned)-3 : 9)) + 2) / 5 + d - 1;
    unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + (int64_t)doe - 719468;
}

/* Days in month m (1..12) of year y, proleptic Gregorian: February has 29
 * in years divisible by 4, except centuries not divisible by 400. */
static unsigned days_in_month(uint64_t y, uint64_t m) {
    static const unsigned char mdays[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (m == 2 && y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)) return 29;
    return mdays[m - 1];
}

/* "+HH:MM", "-HH:MM", "+HHMM", "Z" -> seconds east of UTC. */
static bool parse_offset(const char *s, size_t n, int64_t *secs) {
    if (n == 1 && (s[0] == 'Z' || s[0] == 'z')) {
        *secs = 0;
        return true;
    }
    if ((n != 6 && n != 5) || (s[0] != '+' && s[0] != '-')) return false;
    const char *mm = n == 6 ? s + 4 : s + 3;
    uint64_t h, m;
    if ((n == 6 && s[3] != ':') || !tw_parse_u64(s + 1, 2, &h) || !tw_parse_u64(mm, 2, &m) ||
        h > 23 || m > 59)
        return false;
    *secs = (int64_t)(h * 3600 + m * 60) * (s[0] == '-' ? -1 : 1);
    return true;
}

/* "YYYY-MM-DD HH:MM:SS[.fff]" given as two tokens, in local time `off`
 * seconds east of UTC -> ns since the epoch. */
static bool parse_datetime(const tok *date, const tok *time, int64_t off, int64_t *ns) {
    uint64_t y, mo, d, h, mi, se, frac = 0;
    const char *a = date->s, *b = time->s;
    if (date->n != 10 || a[4] != '-' || a[7] != '-' || !tw_parse_u64(a, 4, &y) ||
        !tw_parse_u64(a + 5, 2, &mo) || !tw_parse_u64(a + 8, 2, &d) || mo < 1 || mo > 12 ||
        d < 1 || d > days_in_month(y, mo)) /* days_from_civil() would roll 02-31 over */
        return false;
    if (time->n < 8 || b[2] != ':' || b[5] != ':' || !tw_parse_u64(b, 2, &h) ||
        !tw_parse_u64(b + 3, 2, &mi) || !tw_parse_u64(b + 6, 2, &se) || h > 23 || mi > 59 ||
        se > 60)
        return false;
    if (time->n > 8) {
        size_t fd = time->n - 9;
        if (b[8] != '.' || fd < 1 || fd > 9 || !tw_parse_u64(b + 9, fd, &frac)) return false;
        for (; fd < 9; fd++) frac *= 10;
    }
    int64_t secs = days_from_civil((int64_t)y, (unsigned)mo, (unsigned)d) * 86400 +
                   (int64_t)(h * 3600 + mi * 60 + se) - off;  /* years 0..9999: fits */
    /* nanoseconds since the epoch fit in int64 for 1677..2262 only */
    return tw_mul_i64(secs, TW_NS_PER_S, ns) && tw_add_i64(*ns, (int64_t)frac, ns);
}

/* ---- probe --------------------------------------------------------------- */

/* The record types known, as the seven bytes "aaa bbb" in one number (the
 * first byte lowest) for a switch. */
#define K7(a, b, c, d, e, f, g)                                                             \
    ((uint64_t)(a) | (uint64_t)(b) << 8 | (uint64_t)(c) << 16 | (uint64_t)(d) << 24 |            \
     (uint64_t)(e) << 32 | (uint64_t)(f) << 40 | (uint64_t)(g) << 48)

/* Index of the record type starting the line (its place in the switch
 * below, which is the order of the format's documentation), -1 if unknown,
 * -2 if the line does not start with "aaa bbb". */
static int record_type(const char *s, size_t n) {
    if (n < 7 || s[3] != ' ' || (n > 7 && s[7] != ' ')) return -2;
    const unsigned char *u = (const unsigned char *)s;
    uint64_t key = K7(u[0], u[1], u[2], u[3], u[4], u[5], u[6]); /* switched on */
    switch (key) {
    case K7('p','r','f',' ','s','t','m'): return 0;
    case K7('p','r','f',' ','c','f','g'): return 1;
    case K7('p','r','f',' ','t','p','s'): return 2;
    case K7('p','r','f',' ','t','r','s'): return 3;
    case K7('p','r','c',' ','c','p','u'): return 4;
    case K7('t','h','r',' ','c','r','t'): return 5;
    case K7('t','h','r',' ','a','o','s'): return 6;
    case K7('t','h','r',' ','d','s','t'): return 7;
    case K7('t','h','r',' ','c','p','u'): return 8;
    case K7('m','o','d',' ','l','d','f'): return 9;
    case K7('m','o','d',' ','a','t','a'): return 10;
    case K7('a','s','m',' ','l','d','f'): return 11;
    case K7('a','p','d',' ','c','r','f'): return 12;
    case K7('c','l','s',' ','l','d','f'): return 13;
    case K7('c','l','s',' ','n','a','m'): return 14;
    case K7('f','u','n',' ','i','n','f'): return 15;
    case K7('f','u','n',' ','n','a','m'): return 16;
    case K7('j','i','t',' ','c','m','s'): return 17;
    case K7('j','i','t',' ','c','m','f'): return 18;
    case K7('j','i','t',' ','c','s','s'): return 19;
    case K7('j','i','t',' ','c','s','f'): return 20;
    case K7('g','c','h',' ','g','c','s'): return 21;
    case K7('g','c','h',' ','g','c','f'): return 22;
    case K7('g','c','h',' ','a','l','t'): return 23;
    case K7('g','c','h',' ','g','e','n'): return 24;
    case K7('s','a','m',' ','s','t','r'): return 25;
    case K7('s','a','m',' ','m','e','m'): return 26;
    case K7('f','i','l',' ','s','r','c'): return 27;
    case K7('l','i','n',' ','s','r','c'): return 28;
    default: break;
    }
    for (int i = 0; i < 7; i++)
        if (i != 3 && (s[i] < 'a' || s[i] > 'z')) return -2;
    return -1;
}

static int cp_probe(const unsigned char *head, size_t len, const char *path) {
    (void)path;
    const char *s = (const char *)head;
    int known = 0, other = 0;
    size_t pos = 0, n;
    const char *l;
    for (int lines = 0; lines < 64 && tw_head_line(s, len, &pos, &l, &n); lines++) {
        if (n == 0) continue;
        int t = record_type(l, n);
        if (lines == 0 && t == 0) return 100; /* prf stm */
        if (t >= 0) known++;
        else other++;
    }
    if (known == 0) return 0;
    return known > other * 4 ? 80 : (known > other ? 45 : 0);
}

/* ---- reader -------------------------------------------------------------- */

typedef struct cp_frame {
    uint64_t fn;
    const tw_str *name;
} cp_frame;

typedef struct cp_thread {
    uint64_t iid, tid;  /* tid: the OS thread id once bound, else iid */
    bool bound;
    bool created;       /* by a thr crt record */
    bool reported;      /* used without thr crt: reported once */
    const tw_str *thread_id;  /* CoreCLR ThreadID from thr crt, as written */
    cp_frame *stack;
    size_t depth, cap;
} cp_thread;

typedef struct cp_jit {  /* an open jit cms / jit css */
    uint64_t tid, fid;
    bool search;
    const tw_str *name;
    struct cp_jit *next;  /* older open ones with the same hash */
} cp_jit;

typedef struct pending_frame {
    uint64_t fn;
    tok ip;  /* ip.n == 0: none */
} pending_frame;

enum { REP_FN, REP_FID, REP_CLASS, REP_TYPE, REP_EXTRA, REP_COUNT };

typedef struct cp_reader {
    tw_read_ctx ctx;
    const char *file;
    int64_t default_off;   /* zone of a prf stm without offset, seconds east */
    bool have_origin;
    /* threads by internal id, and in order of appearance */
    tw_u64map threads;
    cp_thread *last_thread; /* the one found last (a thread lives until the end) */
    cp_thread **tv;
    size_t ntv, tvcap;
    tw_u64map funcs;       /* function iid -> name */
    tw_idcache fn_names;   /* the same for small iids, with one load */
    /* threads by the 8 hex digits of "0x%08X", as loaded, once known
     * (token_thread()) */
    struct {
        uint64_t key;
        cp_thread *t;
    } tc[TC_MAX];
    unsigned ntc, tc_next;
    tw_u64map fids;        /* CoreCLR FunctionID -> function iid + 1 */
    tw_u64map classes;     /* class iid -> name */
    tw_u64map reported[REP_COUNT];
    tw_u64map jits;        /* hash of (thread, FunctionID, kind) -> newest open cp_jit */
    pending_frame *pf;
    size_t pfcap;
    bool have_ts;
    int64_t last_ts, max_ts;
    bool named_process;
    uint64_t callpoints;   /* call-point updates of kept frames (not kept) */
    uint64_t callpoint_line;
    bool eof;
    /* the first line, read during open when it is not prf stm */
    bool have_held;
    tw_line held;
    /* the events of the current line */
    tw_evq q;
    tw_buf text;
    /* the input's window for lines read in place (tw_input_window()), kept
     * from one line to the next; nwin 0 once a line was read otherwise */
    const unsigned char *win;
    size_t nwin;
    /* interned names */
    const tw_str *k_count, *k_ip, *k_function, *k_reason, *k_generations, *k_status, *k_iid,
        *k_thread_id, *k_reserved, *n_gc, *n_pause, *n_resume, *n_samples, *n_proc_cpu,
        *n_thr_cpu, *n_thread_name, *n_process_name;
} cp_reader;

static const tw_str *intern(cp_reader *r, const char *s, size_t n, const tw_loc *loc) {
    return tw_intern_at(&r->ctx, s, n, loc);
}

/* Intern "<prefix><s>" (a synthesized name). */
static const tw_str *intern2(cp_reader *r, const char *prefix, const char *s, size_t n,
                             const tw_loc *loc) {
    tw_buf_clear(&r->text);
    if (!tw_buf_append(&r->text, prefix, strlen(prefix)) || !tw_buf_append(&r->text, s, n)) {
        tw_report(r->ctx.diag, TW_R_OUT_OF_MEMORY, loc, "out of memory");
        return NULL;
    }
    return intern(r, r->text.p, r->text.len, loc);
}

static bool oom(cp_reader *r, const tw_loc *loc) {
    tw_report(r->ctx.diag, TW_R_OUT_OF_MEMORY, loc, "out of memory; record skipped");
    return false;
}

/* First time `key` is seen in reported[kind]? */
static bool first_report(cp_reader *r, int kind, uint64_t key) {
    if (tw_u64map_get(&r->reported[kind], key)) return false;
    tw_u64map_put(&r->reported[kind], key, (void *)1);
    return true;
}

/* A new event of the current line; NULL (reported) when out of memory. */
static tw_event *emit(cp_reader *r, tw_kind kind, const tw_str *name, uint64_t tid, int64_t ts,
                      const tw_loc *loc) {
    return tw_evq_push(&r->q, r->ctx.diag, kind, name, tid, ts, loc);
}

static void attr_int(cp_reader *r, const tw_str *key, int64_t v) {
    tw_evq_attr_int(&r->q, r->ctx.diag, key, v);
}

static void attr_str(cp_reader *r, const tw_str *key, const char *s, size_t n) {
    tw_evq_attr_str(&r->q, r->ctx.diag, key, s, n);
}

static void bad(cp_reader *r, const tw_line *l, size_t col, const char *fmt, const char *what) {
    tw_loc loc = tw_text_loc(r->file, l, col);
    char msg[160];
    snprintf(msg, sizeof msg, fmt, what);
    if (!l->eol)
        tw_report(r->ctx.diag, TW_R_TRUNCATED_FILE, &loc,
                  "the last line is incomplete (%s); skipped", msg);
    else
        tw_report(r->ctx.diag, TW_R_BAD_RECORD, &loc, "malformed '%.7s' record: %s; line skipped",
                  l->s, msg);
}

/* Fields after the last one the record defines: reported once per type. */
static void extra_fields(cp_reader *r, const tw_line *l, cur *c) {
    tok t;
    if (!next_tok(c, &t)) return;
    uint64_t key = 0;
    memcpy(&key, l->s, 7);
    if (!first_report(r, REP_EXTRA, key)) return;
    tw_loc loc = tw_text_loc(r->file, l, t.col);
    tw_report(r->ctx.diag, TW_R_UNKNOWN_FIELD, &loc,
              "'%.7s' record has more fields than the format defines; the extra fields are "
              "ignored (reported once)",
              l->s);
}

/* Record time MS -> ns; remembers the latest and the greatest time. */
static int64_t record_time(cp_reader *r, uint64_t ms) {
    int64_t ts = (int64_t)ms * TW_NS_PER_MS;
    if (!r->have_ts || ts > r->max_ts) r->max_ts = ts;
    r->last_ts = ts;
    r->have_ts = true;
    return ts;
}

/* Required fields: the next token or a malformed-record report. */
static bool need(cp_reader *r, const tw_line *l, cur *c, tok *t, const char *what) {
    if (next_tok(c, t)) return true;
    bad(r, l, l->len, "missing %s", what);
    return false;
}

/* A required number parsed by `parse`; `expect` names what it should be. */
static bool need_num(cp_reader *r, const tw_line *l, cur *c, uint64_t *v, const char *what,
                     bool (*parse)(const char *, size_t, uint64_t *), const char *expect) {
    tok t;
    if (!need(r, l, c, &t, what)) return false;
    if (parse(t.s, t.n, v)) return true;
    bad(r, l, t.col, expect, what);
    return false;
}

static bool parse_dec(const char *s, size_t n, uint64_t *v) {
    return tw_parse_u64(s, n, v) && *v <= (uint64_t)INT64_MAX;
}

static bool need_hex(cp_reader *r, const tw_line *l, cur *c, uint64_t *v, const char *what) {
    return need_num(r, l, c, v, what, parse_hex, "%s is not a hexadecimal number (0x...)");
}

static bool need_iid(cp_reader *r, const tw_line *l, cur *c, uint64_t *v, const char *what) {
    return need_num(r, l, c, v, what, parse_iid, "%s is not an id (0x... or ?)");
}

static bool need_dec(cp_reader *r, const tw_line *l, cur *c, uint64_t *v, const char *what) {
    return need_num(r, l, c, v, what, parse_dec, "%s is not a decimal number");
}

static bool need_ms(cp_reader *r, const tw_line *l, cur *c, uint64_t *ms) {
    tok t;
    if (!need(r, l, c, &t, "timestamp")) return false;
    if (parse_ms(t.s, t.n, ms)) return true;
    /* name the value: "timestamp '99999999999999' is not ..." */
    char what[64];
    snprintf(what, sizeof what, "timestamp '%.*s%s'", (int)(t.n > 40 ? 40 : t.n), t.s,
             t.n > 40 ? "..." : "");
    bad(r, l, t.col, "%s is not a number of milliseconds within 64-bit nanoseconds", what);
    return false;
}

/* The rest of the line as one quoted string; s and n get its contents. */
static bool need_qstr(cp_reader *r, const tw_line *l, cur *c, const char **s, size_t *n,
                      const char *what) {
    while (c->pos < c->n && c->s[c->pos] == ' ') c->pos++;
    size_t b = c->pos, e = c->n;
    /* blanks after the last quote, as other records' fields may have */
    while (e > b && (c->s[e - 1] == ' ' || c->s[e - 1] == '\t')) e--;
    if (b >= e) {
        bad(r, l, l->len, "missing %s", what);
        return false;
    }
    if (e - b < 2 || c->s[b] != '"' || c->s[e - 1] != '"') {
        bad(r, l, b, "%s is not a quoted string", what);
        return false;
    }
    *s = c->s + b + 1;
    *n = e - b - 2;
    c->pos = e;
    return true;
}

/* ---- threads ------------------------------------------------------------- */

static cp_thread *thread_get(cp_reader *r, uint64_t iid, const tw_loc *loc) {
    if (r->last_thread && r->last_thread->iid == iid) return r->last_thread;
    cp_thread *t = tw_u64map_get(&r->threads, iid);
    if (t) return r->last_thread = t;
    t = calloc(1, sizeof *t);
    if (!t || !tw_grow(&r->tv, &r->tvcap, r->ntv + 1, sizeof *r->tv, 8) ||
        !tw_u64map_put(&r->threads, iid, t)) {
        free(t);
        oom(r, loc);
        return NULL;
    }
    r->tv[r->ntv++] = t;
    t->iid = iid;
    t->tid = iid;
    return t;
}

/* A thread that a record refers to by internal id: known from a thr crt
 * (else reported once, and made up); NULL when out of memory. */
static cp_thread *thread_ref(cp_reader *r, uint64_t iid, const tw_loc *loc) {
    cp_thread *t = thread_get(r, iid, loc);
    if (t && !t->created && !t->reported) {
        t->reported = true;
        tw_report(r->ctx.diag, TW_R_CP_UNKNOWN_THREAD, loc,
                  "thread 0x%llX has no 'thr crt' record; its events are kept under that id",
                  (unsigned long long)iid);
    }
    return t;
}

/* The thread field of JIT and GC records: decimal = OS thread id, 0x = internal id. */
static bool need_thread(cp_reader *r, const tw_line *l, cur *c, uint64_t *tid) {
    tok t;
    uint64_t v;
    if (!need(r, l, c, &t, "thread")) return false;
    if (tw_parse_u64(t.s, t.n, &v)) {
        *tid = v;
        return true;
    }
    if (parse_hex(t.s, t.n, &v)) {
        tw_loc tl = tw_text_loc(r->file, l, t.col);
        cp_thread *th = thread_ref(r, v, &tl);
        *tid = th ? th->tid : v;
        return true;
    }
    bad(r, l, t.col, "%s is neither an OS thread id nor an internal id", "thread");
    return false;
}

static int64_t now(const cp_reader *r) { return r->have_ts ? r->last_ts : 0; }

static void end_frames(cp_reader *r, cp_thread *t, size_t keep, int64_t ts, const tw_loc *loc) {
    while (t->depth > keep) {
        t->depth--;
        emit(r, TW_END, t->stack[t->depth].name, t->tid, ts, loc);
    }
}

static bool push_frame(cp_reader *r, cp_thread *t, uint64_t fn, const tw_str *name,
                       const tw_loc *loc) {
    if (!tw_grow(&t->stack, &t->cap, t->depth + 1, sizeof *t->stack, 16)) return oom(r, loc);
    t->stack[t->depth].fn = fn;
    t->stack[t->depth].name = name;
    t->depth++;
    return true;
}

static void thread_name(cp_reader *r, cp_thread *t, const tw_loc *loc) {
    char buf[48];
    int n = snprintf(buf, sizeof buf, "managed thread %llu", (unsigned long long)t->iid);
    const tw_str *name = intern(r, buf, (size_t)n, loc);
    tw_event *e = name ? emit(r, TW_META, r->n_thread_name, t->tid, now(r), loc) : NULL;
    if (!e) return;
    e->msg = name->s;
    e->msg_len = name->len;
    attr_int(r, r->k_iid, (int64_t)t->iid);
    if (t->thread_id) attr_str(r, r->k_thread_id, t->thread_id->s, t->thread_id->len);
}

/* ---- names --------------------------------------------------------------- */

static const tw_str *function_name(cp_reader *r, uint64_t fn, const tw_loc *loc) {
    const tw_str *name = tw_idcache_get(&r->fn_names, fn);
    if (!name && fn != UNDEF) name = tw_u64map_get(&r->funcs, fn);
    if (name) return name;
    char buf[32];
    int n = fn == UNDEF ? snprintf(buf, sizeof buf, "func#?")
                        : snprintf(buf, sizeof buf, "func#0x%llx", (unsigned long long)fn);
    if (first_report(r, REP_FN, fn))
        tw_report(r->ctx.diag, TW_R_CP_UNNAMED, loc,
                  fn == UNDEF ? "function id '%s' is undefined; named '%s' (reported once)"
                              : "function %s has no 'fun nam' record before its first use; "
                                "named '%s' (reported once)",
                  buf + 5, buf);
    return intern(r, buf, (size_t)n, loc);
}

/* The name of a JIT scope of a CoreCLR FunctionID ("JIT " or "JIT search "
 * before the function's name, through fun inf). */
static const tw_str *jit_name(cp_reader *r, const char *prefix, uint64_t fid,
                              const tw_loc *loc) {
    void *v = tw_u64map_get(&r->fids, fid);
    const tw_str *fn = v ? function_name(r, (uint64_t)(uintptr_t)v - 1, loc) : NULL;
    if (fn) return intern2(r, prefix, fn->s, fn->len, loc);
    if (v) return NULL;  /* out of memory, reported */
    char buf[32];
    snprintf(buf, sizeof buf, "0x%llX", (unsigned long long)fid);
    if (first_report(r, REP_FID, fid))
        tw_report(r->ctx.diag, TW_R_CP_UNNAMED, loc,
                  "FunctionID %s has no 'fun inf' record before its first use; named "
                  "'%s%s' (reported once)",
                  buf, prefix, buf);
    return intern2(r, prefix, buf, strlen(buf), loc);
}

static const tw_str *class_name(cp_reader *r, const char *prefix, uint64_t cls,
                                const tw_loc *loc) {
    const tw_str *name = cls == UNDEF ? NULL : tw_u64map_get(&r->classes, cls);
    if (!name) {
        char buf[32];
        if (cls == UNDEF) snprintf(buf, sizeof buf, "class#?");
        else snprintf(buf, sizeof buf, "class#0x%llx", (unsigned long long)cls);
        if (first_report(r, REP_CLASS, cls))
            tw_report(r->ctx.diag, TW_R_CP_UNNAMED, loc,
                      cls == UNDEF ? "class id '%s' is undefined; named '%s' (reported once)"
                                   : "class %s has no 'cls nam' record before its first use; "
                                     "named '%s' (reported once)",
                      buf + 6, buf);
        return intern2(r, prefix, buf, strlen(buf), loc);
    }
    return intern2(r, prefix, name->s, name->len, loc);
}

/* ---- records ------------------------------------------------------------- */

static void rec_prf(cp_reader *r, const tw_line *l, cur *c, const tw_loc *loc) {
    char sub = l->s[4];
    if (sub == 's') { /* stm: only the first line sets the origin */
        tw_report(r->ctx.diag, TW_R_CP_START, loc,
                  r->have_origin ? "another 'prf stm' record; the first start time is kept"
                                 : "'prf stm' is not the first record; its start time is "
                                   "ignored and absolute time is unknown");
        return;
    }
    if (sub == 'c') { /* cfg NAME VALUE... */
        tok name;
        if (!need(r, l, c, &name, "configuration name")) return;
        while (c->pos < c->n && c->s[c->pos] == ' ') c->pos++;
        const tw_str *key = intern2(r, N_CONFIG, name.s, name.n, loc);
        if (!key) return;
        tw_event *e = emit(r, TW_META, key, 0, now(r), loc);
        if (e) {
            e->msg = c->s + c->pos;
            e->msg_len = c->n - c->pos;
        }
        return;
    }
    uint64_t ms;
    if (!need_ms(r, l, c, &ms)) return;
    extra_fields(r, l, c);
    emit(r, TW_INSTANT, sub == 't' && l->s[5] == 'p' ? r->n_pause : r->n_resume, 0,
         record_time(r, ms), loc);
}

static void rec_cpu(cp_reader *r, const tw_line *l, cur *c, const tw_loc *loc, bool thread) {
    uint64_t iid = 0, ms, us;
    if (thread && !need_iid(r, l, c, &iid, "thread id")) return;
    if (!need_ms(r, l, c, &ms) || !need_dec(r, l, c, &us, "CPU usage")) return;
    extra_fields(r, l, c);
    uint64_t tid = 0;
    if (thread) {
        cp_thread *t = thread_ref(r, iid, loc);
        tid = t ? t->tid : iid;
    }
    tw_event *e = emit(r, TW_COUNTER, thread ? r->n_thr_cpu : r->n_proc_cpu, tid,
                       record_time(r, ms), loc);
    if (e) {
        e->value = (int64_t)us;
        e->has_value = true;
    }
}

static void rec_thr(cp_reader *r, const tw_line *l, cur *c, const tw_loc *loc) {
    char sub = l->s[4];
    if (sub == 'c' && l->s[5] == 'p') {
        rec_cpu(r, l, c, loc, true);
        return;
    }
    uint64_t a, b;
    if (sub == 'c') { /* crt THREADID IID */
        tok id;
        if (!need(r, l, c, &id, "ThreadID")) return;
        if (!parse_hex(id.s, id.n, &a)) {
            bad(r, l, id.col, "%s is not a hexadecimal number (0x...)", "ThreadID");
            return;
        }
        if (!need_hex(r, l, c, &b, "thread internal id")) return;
        extra_fields(r, l, c);
        cp_thread *t = thread_get(r, b, loc);
        if (t) {
            t->thread_id = intern(r, id.s, id.n, loc);
            t->created = true;
        }
        return;
    }
    if (sub == 'a') { /* aos IID OSTID */
        if (!need_hex(r, l, c, &a, "thread internal id") ||
            !need_num(r, l, c, &b, "OS thread id", tw_parse_u64, "%s is not a decimal number"))
            return;
        extra_fields(r, l, c);
        cp_thread *t = thread_ref(r, a, loc);
        if (!t || (t->bound && t->tid == b)) return;
        size_t depth = t->depth;
        int64_t ts = now(r);
        bool moved = t->tid != b && depth;
        if (moved) { /* the managed thread moved: its frames move too */
            end_frames(r, t, 0, ts, loc);
            t->depth = depth;
        }
        t->bound = true;
        t->tid = b;
        thread_name(r, t, loc);
        if (moved)
            for (size_t i = 0; i < depth; i++) emit(r, TW_BEGIN, t->stack[i].name, b, ts, loc);
        return;
    }
    /* dst IID, or a two-field variant: the field that is a known thread's
     * internal id, else the first (as Samsung's reader does) */
    if (!need_hex(r, l, c, &a, "thread internal id")) return;
    tok t2;
    cur save = *c;
    if (next_tok(c, &t2) && parse_hex(t2.s, t2.n, &b)) {
        if (!tw_u64map_get(&r->threads, a) && tw_u64map_get(&r->threads, b)) a = b;
    } else {
        *c = save;
    }
    extra_fields(r, l, c);
    cp_thread *t = thread_ref(r, a, loc);
    if (t) end_frames(r, t, 0, now(r), loc);
}

/* Definitions that give no events: checked and consumed. */
static void rec_def(cp_reader *r, const tw_line *l, cur *c, const tw_loc *loc, int nhex,
                    const char *const *what, bool quoted) {
    uint64_t v;
    for (int i = 0; i < nhex; i++)
        if (!need_hex(r, l, c, &v, what[i])) return;
    const char *s;
    size_t n;
    if (quoted) {
        if (!need_qstr(r, l, c, &s, &n, "name")) return;
        /* the first AppDomain with a name names the process */
        if (memcmp(l->s, "apd", 3) == 0 && !r->named_process &&
            !(n == 7 && memcmp(s, "UNKNOWN", 7) == 0)) {
            r->named_process = true;
            tw_event *e = emit(r, TW_META, r->n_process_name, 0, now(r), loc);
            if (e) {
                e->msg = s;
                e->msg_len = n;
            }
        }
    }
    extra_fields(r, l, c);
}

static void rec_cls(cp_reader *r, const tw_line *l, cur *c, const tw_loc *loc) {
    static const char *const ldf[] = {"ClassID", "class internal id", "ModuleID",
                                      "class token", "status"};
    if (l->s[4] == 'l') {
        rec_def(r, l, c, loc, 5, ldf, false);
        return;
    }
    uint64_t iid;
    const char *s;
    size_t n;
    if (!need_iid(r, l, c, &iid, "class internal id") || !need_qstr(r, l, c, &s, &n, "class name"))
        return;
    const tw_str *name = intern(r, s, n, loc);
    if (name && iid != UNDEF && !tw_u64map_put(&r->classes, iid, (void *)name)) oom(r, loc);
}

static void rec_fun(cp_reader *r, const tw_line *l, cur *c, const tw_loc *loc) {
    uint64_t iid, fid, v;
    if (!need_iid(r, l, c, &iid, "function internal id")) return;
    if (l->s[4] == 'i') { /* inf IID FID CLASSID MODULEID TOKEN ITEMS... */
        static const char *const what[] = {"FunctionID", "ClassID", "ModuleID", "token"};
        if (!need_hex(r, l, c, &fid, what[0])) return;
        for (int i = 1; i < 4; i++)
            if (!need_hex(r, l, c, &v, what[i])) return;
        tok t;
        while (next_tok(c, &t)) {
            tok p[3];
            size_t k = split_colons(t.s, t.n, p, 3);
            bool ok = k == 2 || k == 3;
            for (size_t i = 0; ok && i < k; i++) ok = parse_hex(p[i].s, p[i].n, &v);
            if (!ok) {
                bad(r, l, t.col, "%s is neither a code block (0x...:0x...) nor an IL map item "
                                 "(0x...:0x...:0x...)", "item");
                return;
            }
        }
        if (iid != UNDEF && !tw_u64map_put(&r->fids, fid, (void *)(uintptr_t)(iid + 1)))
            oom(r, loc);
        return;
    }
    /* nam IID "NAME" or IID "NAME" "RETURN TYPE" "SIGNATURE" */
    const char *s;
    size_t n;
    if (!need_qstr(r, l, c, &s, &n, "function name")) return;
    /* split from the right: the name may itself contain '" "' */
    size_t seps[2], nsep = 0;
    for (size_t i = n; i >= 3 && nsep < 2; i--)
        if (s[i - 3] == '"' && s[i - 2] == ' ' && s[i - 1] == '"') seps[nsep++] = i - 3, i -= 2;
    if (nsep == 2) n = seps[1];
    else if (nsep == 1) {
        tw_report(r->ctx.diag, TW_R_UNKNOWN_FIELD, loc,
                  "'fun nam' has two quoted strings (expected one or three); the first is "
                  "taken as the name");
        n = seps[0];
    }
    const tw_str *name = intern(r, s, n, loc);
    if (!name || iid == UNDEF) return;
    if (!tw_u64map_put(&r->funcs, iid, (void *)name)) {
        oom(r, loc);
        return;
    }
    tw_idcache_set(&r->fn_names, iid, (void *)(uintptr_t)name);
}

static void rec_jit(cp_reader *r, const tw_line *l, cur *c, const tw_loc *loc) {
    bool search = l->s[5] == 's', start = l->s[6] == 's';
    uint64_t tid, ms, fid, status = 0;
    tok st = {0};
    if (!need_thread(r, l, c, &tid) || !need_ms(r, l, c, &ms) ||
        !need_hex(r, l, c, &fid, "FunctionID"))
        return;
    if (!search && !start) {
        if (!need(r, l, c, &st, "status")) return;
        if (!parse_hex(st.s, st.n, &status)) {
            bad(r, l, st.col, "%s is not a hexadecimal number (0x...)", "status");
            return;
        }
    }
    extra_fields(r, l, c);
    int64_t ts = record_time(r, ms);
    const tw_str *name = NULL;
    uint64_t key = (tid * 0x9e3779b97f4a7c15ULL ^ fid) * 2 + search;
    cp_jit *head = tw_u64map_get(&r->jits, key);
    if (head == (void *)&r->jits) head = NULL; /* the map cannot delete: an emptied chain */
    if (!start) { /* the name its start was given: the newest open one */
        for (cp_jit **pj = &head; *pj; pj = &(*pj)->next) {
            cp_jit *j = *pj;
            if (j->tid == tid && j->fid == fid && j->search == search) {
                name = j->name;
                *pj = j->next;
                free(j);
                tw_u64map_put(&r->jits, key, head ? (void *)head : (void *)&r->jits);
                break;
            }
        }
    }
    if (!name) {
        if (!(name = jit_name(r, search ? N_JIT_SEARCH : N_JIT, fid, loc))) return;
    }
    if (start) {
        cp_jit *j = malloc(sizeof *j);
        if (!j || !tw_u64map_put(&r->jits, key, j)) {
            free(j);
            oom(r, loc);
            return;
        }
        *j = (cp_jit){tid, fid, search, name, head};
    }
    emit(r, start ? TW_BEGIN : TW_END, name, tid, ts, loc);
    if (st.n) attr_str(r, r->k_status, st.s, st.n);
}

/* ITEMS of gch alt (class:count:bytes), gch gen (name:allocated:reserved)
 * and sam mem (class:count:bytes[:ip]), checked before anything is emitted. */
static bool check_items(cp_reader *r, const tw_line *l, const cur *c, char kind) {
    cur scan = *c;
    tok t;
    while (next_tok(&scan, &t)) {
        tok p[4];
        size_t k = split_colons(t.s, t.n, p, 4);
        uint64_t v;
        bool ok = k == 3 || (kind == 'm' && k == 4 && is_ip(p[3].s, p[3].n));
        if (ok && kind == 'g') {
            ok = p[0].n > 0;
            for (size_t i = 0; ok && i < p[0].n; i++) {
                char ch = p[0].s[i];
                ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                     (ch >= '0' && ch <= '9') || ch == '_';
            }
        } else if (ok) {
            ok = parse_iid(p[0].s, p[0].n, &v);
        }
        ok = ok && tw_parse_u64(p[1].s, p[1].n, &v) && v <= (uint64_t)INT64_MAX &&
             tw_parse_u64(p[2].s, p[2].n, &v) && v <= (uint64_t)INT64_MAX;
        if (!ok) {
            bad(r, l, t.col, "%s",
                kind == 'g'   ? "item is not NAME:ALLOCATED:RESERVED"
                : kind == 'a' ? "item is not CLASS:COUNT:BYTES"
                              : "item is not CLASS:COUNT:BYTES[:IP]");
            return false;
        }
    }
    return true;
}

/* One counter per item. */
static void emit_items(cp_reader *r, cur *c, char kind, uint64_t tid, int64_t ts,
                       const tw_loc *loc, const cp_thread *th) {
    tok t;
    while (next_tok(c, &t)) {
        tok p[4] = {{NULL, 0, 0}};  /* check_items made sure of 3 or 4 parts */
        size_t k = split_colons(t.s, t.n, p, 4);
        uint64_t cls = 0, count = 0, bytes = 0;
        const tw_str *name;
        if (kind == 'g') name = intern2(r, N_HEAP, p[0].s, p[0].n, loc);
        else {
            parse_iid(p[0].s, p[0].n, &cls);
            name = class_name(r, kind == 'a' ? N_LIVE : N_ALLOC, cls, loc);
        }
        tw_parse_u64(p[1].s, p[1].n, &count);
        tw_parse_u64(p[2].s, p[2].n, &bytes);
        tw_event *e = name ? emit(r, TW_COUNTER, name, tid, ts, loc) : NULL;
        if (!e) continue;
        e->has_value = true;
        e->value = (int64_t)(kind == 'g' ? count : bytes);
        if (kind == 'g') {
            attr_int(r, r->k_reserved, (int64_t)bytes);
            continue;
        }
        attr_int(r, r->k_count, (int64_t)count);
        if (k == 4) attr_str(r, r->k_ip, p[3].s, p[3].n);
        if (th && th->depth) {
            const tw_str *top = th->stack[th->depth - 1].name;
            attr_str(r, r->k_function, top->s, top->len);
        }
    }
}

/* The grammar of gch gcs: REASON is induced or ?, GENERATIONS four t/f
 * flags (gen0, gen1, gen2, large-object heap); nothing else occurs. */
static bool gc_reason(const char *s, size_t n) {
    return (n == 1 && s[0] == '?') || (n == 7 && memcmp(s, "induced", 7) == 0);
}

static bool gc_generations(const char *s, size_t n) {
    bool ok = n == 4;
    for (size_t i = 0; ok && i < n; i++) ok = s[i] == 't' || s[i] == 'f';
    return ok;
}

static void rec_gch(cp_reader *r, const tw_line *l, cur *c, const tw_loc *loc) {
    char sub = l->s[6]; /* gcs, gcf, alt, gen */
    uint64_t tid = 0, ms;
    if (l->s[4] == 'g' && l->s[5] == 'c') {
        tok reason = {0}, gens = {0};
        if (!need_thread(r, l, c, &tid) || !need_ms(r, l, c, &ms)) return;
        if (sub == 's') {
            if (!need(r, l, c, &reason, "reason") || !need(r, l, c, &gens, "generations"))
                return;
            if (!gc_reason(reason.s, reason.n)) {
                bad(r, l, reason.col, "%s is neither 'induced' nor '?'", "reason");
                return;
            }
            if (!gc_generations(gens.s, gens.n)) {
                bad(r, l, gens.col, "%s are not four t/f flags (such as tfff)", "generations");
                return;
            }
        }
        extra_fields(r, l, c);
        if (!emit(r, sub == 's' ? TW_BEGIN : TW_END, r->n_gc, tid, record_time(r, ms), loc))
            return;
        if (sub == 's') {
            attr_str(r, r->k_reason, reason.s, reason.n);
            attr_str(r, r->k_generations, gens.s, gens.n);
        }
        return;
    }
    char kind = sub == 't' ? 'a' : 'g';
    if (!need_ms(r, l, c, &ms) || !check_items(r, l, c, kind)) return;
    emit_items(r, c, kind, 0, record_time(r, ms), loc, NULL);
}

/* A sam str record, read: its frames are in r->pf[0..nf). */
typedef struct sam_rec {
    uint64_t iid, ms, count, keep, prev;
    size_t nf;
    size_t diff_col;   /* of KEEP:DEPTH in the line */
    size_t prev_col;   /* of DEPTH in KEEP:DEPTH */
    bool callpoint;    /* KEEP:DEPTH:IP */
} sam_rec;

/* The stack diff of a read sam str, applied to its thread. */
static void sam_apply(cp_reader *r, const tw_line *l, const tw_loc *loc, const sam_rec *s) {
    cp_thread *th = thread_ref(r, s->iid, loc);
    if (!th) return;
    int64_t ts = record_time(r, s->ms);
    size_t depth = th->depth;
    uint64_t keep = s->keep;
    if (keep > depth) {
        tw_loc dl = tw_text_loc(r->file, l, s->diff_col);
        tw_report(r->ctx.diag, TW_R_CP_STACK, &dl,
                  "matchPrefixSize %llu exceeds the depth %zu of the thread's previous stack; "
                  "taken as %zu",
                  (unsigned long long)keep, depth, depth);
        keep = depth;
    } else if (s->prev != depth) {
        tw_loc dl = tw_text_loc(r->file, l, s->diff_col + s->prev_col);
        tw_report(r->ctx.diag, TW_R_CP_STACK, &dl,
                  "stackSize %llu differs from the depth %zu of the thread's previous stack; "
                  "the diff is applied to the reconstructed stack",
                  (unsigned long long)s->prev, depth);
    }
    end_frames(r, th, (size_t)keep, ts, loc);
    if (s->callpoint && keep > 0 && r->callpoints++ == 0) r->callpoint_line = l->no;
    for (size_t i = 0; i < s->nf; i++) {
        const tw_str *name = function_name(r, r->pf[i].fn, loc);
        if (!name || !push_frame(r, th, r->pf[i].fn, name, loc)) return;
        if (!emit(r, TW_BEGIN, name, th->tid, ts, loc)) return;
        if (s->count) attr_int(r, r->k_count, (int64_t)s->count);
        if (r->pf[i].ip.n) attr_str(r, r->k_ip, r->pf[i].ip.s, r->pf[i].ip.n);
    }
    if (s->count) {
        tw_event *e = emit(r, TW_COUNTER, r->n_samples, th->tid, ts, loc);
        if (e) {
            e->value = (int64_t)s->count;
            e->has_value = true;
        }
    }
}

/*
 * The usual sam str in one pass: fields one space apart, ids and ips of
 * 0x and 1-16 hex digits (ips also ?), a line with its end of line.
 * Anything else (false) goes through rec_sam, which reads and reports it in
 * full; what both read, they read alike (the same scanners of digits).
 */
static const char *usual_dec(const char *p, const char *e, uint64_t *v) {
    bool ovf;
    size_t k = tw_scan_u64(p, (size_t)(e - p), v, &ovf);
    return k && !ovf ? p + k : NULL;
}

static const char *usual_hex(const char *p, const char *e, uint64_t *v) {
    if (e - p < 3 || p[0] != '0' || (p[1] != 'x' && p[1] != 'X')) return NULL;
    const char *q = tw_scan_hex(p + 2, e, 16, v);
    return q == p + 2 ? NULL : q;
}

static const char *usual_ip(const char *p, const char *e) {
    uint64_t v;
    return p < e && *p == '?' ? p + 1 : usual_hex(p, e, &v);
}

static bool sam_str_usual(cp_reader *r, const tw_line *l, const tw_loc *loc) {
    const char *s = l->s, *e = s + l->len, *p = s + 8;  /* after "sam str " */
    sam_rec rec;
    /* each field must end in a space or at e (whose byte is the CR or LF) */
    if (!l->eol || !(p = usual_hex(p, e, &rec.iid)) || rec.iid == UNDEF || *p++ != ' ' ||
        !(p = usual_dec(p, e, &rec.ms)) || rec.ms > MAX_MS || *p++ != ' ' ||
        !(p = usual_dec(p, e, &rec.count)) || rec.count > (uint64_t)INT64_MAX || *p++ != ' ')
        return false;
    rec.diff_col = (size_t)(p - s);
    if (!(p = usual_dec(p, e, &rec.keep)) || *p++ != ':') return false;
    rec.prev_col = (size_t)(p - s) - rec.diff_col;
    if (!(p = usual_dec(p, e, &rec.prev))) return false;
    rec.callpoint = *p == ':';
    if (rec.callpoint && !(p = usual_ip(p + 1, e))) return false;
    size_t nf = 0;
    while (p != e) {
        if (*p++ != ' ' || !tw_grow(&r->pf, &r->pfcap, nf + 1, sizeof *r->pf, 16))
            return false;  /* rec_sam reports running out of memory */
        pending_frame *f = &r->pf[nf++];
        if (!(p = usual_hex(p, e, &f->fn))) return false;
        f->ip.s = NULL;  /* not a compound literal: gcc makes it a `rep stos` */
        f->ip.n = f->ip.col = 0;
        if (*p == ':') {
            const char *b = p + 1;
            if (!(p = usual_ip(b, e))) return false;
            f->ip = (tok){b, (size_t)(p - b), (size_t)(b - s)};
        }
    }
    rec.nf = nf;
    sam_apply(r, l, loc, &rec);
    return true;
}

/*
 * The commonest line of a stack-tracking log: a sam str of a known thread
 * whose iid is written "0x%08X", count 0, and one frame popped (no frames
 * listed) or one pushed (a named function with no ip), on a stack whose depth
 * the record gives right.  plain_sample() reads it straight into the
 * caller's event, without the queue; any other line, and any line it cannot
 * take whole, it leaves to process_line() (false), having changed nothing
 * process_line() reads (token_thread() may have remembered a thread's
 * text).  For the lines it takes, the event and the state are those
 * process_line() would give.
 */

/* The thread of the iid at p, "0x" and eight hex digits then a space, when
 * it is known and needs no report (else NULL: process_line() creates or
 * reports it).  Its text is remembered, so the usual line finds its thread
 * with one load and a few compares. */
static TW_INLINE cp_thread *token_thread(cp_reader *r, const char *p) {
    if (p[0] != '0' || p[1] != 'x' || p[10] != ' ') return NULL;
    uint64_t key = tw_load64(p + 2);
    for (unsigned i = 0; i < r->ntc; i++)
        if (r->tc[i].key == key) return r->tc[i].t;
    uint64_t iid;
    if (usual_hex(p, p + 10, &iid) != p + 10) return NULL;
    cp_thread *t = tw_u64map_get(&r->threads, iid);
    if (!t || !(t->created || t->reported)) return NULL;
    unsigned i = r->ntc < TC_MAX ? r->ntc++ : r->tc_next++ % TC_MAX;
    r->tc[i].key = key;
    r->tc[i].t = t;
    return t;
}

/* The usual line, a "sam str" record of one frame pushed or popped, at s
 * (its n bytes, followed by its LF or CR: a byte that is no digit): true
 * with its event in *ev but for the event's location, which the caller
 * sets; false, with nothing changed, for any other line. */
static TW_INLINE bool plain_sample(cp_reader *r, const char *s, size_t n, tw_event *ev) {
    static const char head[8] = {'s', 'a', 'm', ' ', 's', 't', 'r', ' '};
    const char *e = s + n, *p = s + 19;
    cp_thread *th;
    uint64_t ms, keep, prev;
    if (n < 24 || memcmp(s, head, 8) != 0 || !(th = token_thread(r, s + 8)) ||
        !(p = usual_dec(p, e, &ms)) || ms > MAX_MS || p[0] != ' ' || p[1] != '0' || p[2] != ' ' ||
        !(p = tw_scan_dec_eol(p + 3, &keep)) || *p != ':' ||
        !(p = tw_scan_dec_eol(p + 1, &prev)) || prev != th->depth)
        return false;
    const tw_str *name;
    tw_kind kind;
    uint64_t fn;
    if (p == e) { /* one frame popped */
        if (keep + 1 != prev) return false;
        name = th->stack[keep].name;
        th->depth = keep;
        kind = TW_END;
    } else { /* one pushed */
        if (*p != ' ' || keep != prev || usual_hex(p + 1, e, &fn) != e ||
            !(name = tw_idcache_get(&r->fn_names, fn)) || th->depth == th->cap)
            return false;
        th->stack[th->depth].fn = fn;
        th->stack[th->depth].name = name;
        th->depth++;
        kind = TW_BEGIN;
    }
    tw_event_clear(ev);
    ev->kind = kind;
    ev->name = name;
    ev->tid = th->tid;
    ev->ts = record_time(r, ms);
    return true;
}

/* plain_sample() of the line at the cursor, read in place (the input's
 * window, tw_input_window()) before a line reader looks for it: the same
 * lines, when they end in an LF (not a CRLF), with the same event; nothing
 * is consumed for any other line (the general way then reads it). */
static TW_INLINE bool plain_inplace(cp_reader *r, tw_event *ev) {
    size_t n;
    const char *s = tw_window_line(r->ctx.in, &r->win, &r->nwin, &n);
    if (!s || !plain_sample(r, s, n, ev)) return false;
    tw_line l;
    tw_window_take(r->ctx.in, &r->win, &r->nwin, n, &l);
    ev->loc = tw_text_loc(r->file, &l, 0);
    return true;
}

static void rec_sam(cp_reader *r, const tw_line *l, cur *c, const tw_loc *loc) {
    sam_rec rec = {0};
    uint64_t ms;
    if (!need_iid(r, l, c, &rec.iid, "thread internal id")) return;
    if (rec.iid == UNDEF) {
        bad(r, l, 8, "%s is undefined ('?')", "thread internal id");
        return;
    }
    if (!need_ms(r, l, c, &ms)) return;
    if (l->s[4] == 'm') {
        if (!check_items(r, l, c, 'm')) return;
        cp_thread *t = thread_ref(r, rec.iid, loc);
        if (t) emit_items(r, c, 'm', t->tid, record_time(r, ms), loc, t);
        return;
    }
    rec.ms = ms;
    tok diff, p[3];
    if (!need_dec(r, l, c, &rec.count, "sample count") || !need(r, l, c, &diff, "KEEP:DEPTH"))
        return;
    size_t k = split_colons(diff.s, diff.n, p, 3);
    if (k < 2 || k > 3 || !tw_parse_u64(p[0].s, p[0].n, &rec.keep) ||
        !tw_parse_u64(p[1].s, p[1].n, &rec.prev) || (k == 3 && !is_ip(p[2].s, p[2].n))) {
        bad(r, l, diff.col, "%s is not MATCHPREFIXSIZE:STACKSIZE[:IP]", "stack diff");
        return;
    }
    rec.diff_col = diff.col;
    rec.prev_col = p[1].col;
    rec.callpoint = k == 3;
    tok t;
    while (next_tok(c, &t)) {
        tok f[3];
        size_t fk = split_colons(t.s, t.n, f, 2);
        uint64_t fn;
        if (fk < 1 || fk > 2 || !parse_iid(f[0].s, f[0].n, &fn) ||
            (fk == 2 && !is_ip(f[1].s, f[1].n))) {
            bad(r, l, t.col, "%s is not FUNCTION[:IP]", "frame");
            return;
        }
        if (!tw_grow(&r->pf, &r->pfcap, rec.nf + 1, sizeof *r->pf, 16)) {
            oom(r, loc);
            return;
        }
        r->pf[rec.nf].fn = fn;
        r->pf[rec.nf].ip = fk == 2 ? f[1] : (tok){0};
        rec.nf++;
    }
    sam_apply(r, l, loc, &rec);
}

static void rec_src(cp_reader *r, const tw_line *l, cur *c, const tw_loc *loc) {
    static const char *const fil[] = {"file id"};
    static const char *const lin[] = {"line id", "file id", "function id"};
    if (l->s[0] == 'f') {
        rec_def(r, l, c, loc, 1, fil, true);
        return;
    }
    uint64_t v;
    for (int i = 0; i < 3; i++)
        if (!need_hex(r, l, c, &v, lin[i])) return;
    static const char *const pos[] = {"start line", "start column", "end line", "end column"};
    for (int i = 0; i < 4; i++)
        if (!need_dec(r, l, c, &v, pos[i])) return;
    extra_fields(r, l, c);
}

static void process_line(cp_reader *r, const tw_line *l) {
    if (l->len == 0) return;
    tw_loc loc = tw_text_loc(r->file, l, 0);
    if (l->len > 8 && memcmp(l->s, "sam str ", 8) == 0 && sam_str_usual(r, l, &loc)) return;
    int type = record_type(l->s, l->len);
    if (type == -2) {
        if (!l->eol)
            tw_report(r->ctx.diag, TW_R_TRUNCATED_FILE, &loc,
                      "the last line is incomplete (no record type); skipped");
        else
            tw_report(r->ctx.diag, TW_R_BAD_RECORD, &loc,
                      "line is not a CoreProfiler record (expected a record type such as "
                      "'sam str'); skipped");
        return;
    }
    if (type == -1) {
        uint64_t key = 0;
        memcpy(&key, l->s, 7);
        if (first_report(r, REP_TYPE, key))
            tw_report(r->ctx.diag, TW_R_UNKNOWN_RECORD, &loc,
                      "unknown record type '%.7s'; records of this type are skipped "
                      "(reported once)",
                      l->s);
        return;
    }
    cur c = {l->s, l->len, 7, l->eol};
    static const char *const mod_ldf[] = {"ModuleID", "base address", "AssemblyID", "status"};
    static const char *const mod_ata[] = {"ModuleID", "AssemblyID"};
    static const char *const asm_ldf[] = {"AssemblyID", "AppDomainID", "ModuleID", "status"};
    static const char *const apd_crf[] = {"AppDomainID", "ProcessID", "status"};
    switch (l->s[0]) {
    case 'p':
        if (l->s[1] == 'r' && l->s[2] == 'f') rec_prf(r, l, &c, &loc);
        else rec_cpu(r, l, &c, &loc, false);
        break;
    case 't': rec_thr(r, l, &c, &loc); break;
    case 'm':
        if (l->s[4] == 'l') rec_def(r, l, &c, &loc, 4, mod_ldf, true);
        else rec_def(r, l, &c, &loc, 2, mod_ata, false);
        break;
    case 'a':
        if (l->s[1] == 's') rec_def(r, l, &c, &loc, 4, asm_ldf, true);
        else rec_def(r, l, &c, &loc, 3, apd_crf, true);
        break;
    case 'c': rec_cls(r, l, &c, &loc); break;
    case 'f':
        if (l->s[1] == 'u') rec_fun(r, l, &c, &loc);
        else rec_src(r, l, &c, &loc);
        break;
    case 'j': rec_jit(r, l, &c, &loc); break;
    case 'g': rec_gch(r, l, &c, &loc); break;
    case 's': rec_sam(r, l, &c, &loc); break;
    case 'l': rec_src(r, l, &c, &loc); break;
    default: break;
    }
}

/* At the end: frames still open end at the greatest time of the log. */
static void finish(cp_reader *r) {
    r->eof = true;
    tw_loc loc = {.file = r->file, .kind = TW_LOC_FILE};
    for (size_t i = 0; i < r->ntv; i++) end_frames(r, r->tv[i], 0, r->max_ts, &loc);
    if (r->callpoints) {
        tw_loc cl = {.file = r->file, .kind = TW_LOC_TEXT, .line = r->callpoint_line, .col = 1};
        tw_report(r->ctx.diag, TW_R_UNSUPPORTED, &cl,
                  "%llu call-point update%s of kept frames (line-trace mode) %s not kept; the "
                  "frames' scopes are not affected",
                  (unsigned long long)r->callpoints, r->callpoints == 1 ? "" : "s",
                  r->callpoints == 1 ? "is" : "are");
    }
}

/* "prf stm DATE TIME [OFFSET]" on the first line sets the origin. */
static bool start_time(cp_reader *r, const tw_line *l) {
    if (record_type(l->s, l->len) != 0) return false;
    cur c = {l->s, l->len, 7, l->eol};
    tok date, time, off;
    int64_t secs = r->default_off, ns;
    if (!need(r, l, &c, &date, "date") || !need(r, l, &c, &time, "time")) return true;
    if (next_tok(&c, &off)) {
        if (!parse_offset(off.s, off.n, &secs)) {
            bad(r, l, off.col, "%s is not a UTC offset such as +09:00", "zone");
            return true;
        }
    }
    if (!parse_datetime(&date, &time, secs, &ns)) {
        bad(r, l, date.col, "%s is not YYYY-MM-DD HH:MM:SS.mmm between 1677 and 2262",
            "start time");
        return true;
    }
    extra_fields(r, l, &c);
    r->have_origin = true;
    r->ctx.info->has_origin = true;
    r->ctx.info->origin_ns = ns;
    r->ctx.info->origin_ts = 0;
    return true;
}

static void cp_close(void *state);

static int cp_open(const tw_read_ctx *ctx, void **state) {
    cp_reader *r = tw_state_alloc(ctx->diag, sizeof *r);
    if (!r) return TW_ERR;
    r->ctx = *ctx;
    r->file = tw_input_name(ctx->in);
    ctx->info->resolution_ns = TW_NS_PER_MS;
    const char *zone = tw_opt_str(ctx->opts, "coreprofiler-utc-offset");
    if (!parse_offset(zone, strlen(zone), &r->default_off)) {
        tw_report(ctx->diag, TW_R_BAD_OPTION, NULL,
                  "--coreprofiler-utc-offset=%s: expected an offset such as +09:00, -05:00 or Z",
                  zone);
        free(r);
        return TW_ERR;
    }
    tw_strtab *st = ctx->strtab;
    const tw_str **k[] = {&r->k_count, &r->k_ip, &r->k_function, &r->k_reason,
                          &r->k_generations, &r->k_status, &r->k_iid, &r->k_thread_id,
                          &r->k_reserved, &r->n_gc, &r->n_pause, &r->n_resume, &r->n_samples,
                          &r->n_proc_cpu, &r->n_thr_cpu, &r->n_thread_name, &r->n_process_name};
    static const char *const names[] = {
        "count", "ip", "function", "reason", "generations", "status", "iid", "thread_id",
        "reserved", N_GC, N_PAUSE, N_RESUME, N_SAMPLES, N_PROC_CPU, N_THR_CPU,
        TW_META_THREAD_NAME, TW_META_PROCESS_NAME};
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
        if (!(*k[i] = tw_intern_cstr(st, names[i]))) {
            tw_own_names_failed(ctx);
            free(r);
            return TW_ERR;
        }
    }
    /* the first line, when it is prf stm, gives the origin */
    tw_line l;
    int rc;
    while ((rc = tw_input_getline(r->ctx.in, &l)) == 1 && l.len == 0) {}
    if (rc < 0) {
        cp_close(r);
        return TW_ERR;
    }
    if (rc == 1 && !start_time(r, &l)) {
        r->held = l;
        r->have_held = true;
    }
    *state = r;
    return TW_OK;
}

static TW_INLINE int cp_next_one(void *state, tw_event *ev) {
    cp_reader *r = state;
    for (;;) {
        if (tw_evq_pop(&r->q, ev)) return TW_OK;
        if (r->eof) return TW_EOF;
        tw_line l;
        int rc = 1;
        if (r->have_held) {
            r->have_held = false;
            l = r->held;  /* still valid: nothing was read since */
        } else if ((rc = tw_window_read_line(&r->ctx, &r->win, &r->nwin, &l)) < 0) {
            return TW_ERR;
        } else if (rc == 1 && l.eol && plain_sample(r, l.s, l.len, ev)) {
            ev->loc = tw_text_loc(r->file, &l, 0);
            return TW_OK;
        }
        tw_evq_begin(&r->q, ev);
        if (rc == 0) finish(r);
        else process_line(r, &l);
        if (tw_evq_first(&r->q)) return TW_OK;
    }
}

static void cp_close(void *state) {
    cp_reader *r = state;
    for (size_t i = 0; i < r->ntv; i++) {
        free(r->tv[i]->stack);
        free(r->tv[i]);
    }
    free(r->tv);
    tw_u64map_free(&r->threads);
    tw_u64map_free(&r->funcs);
    tw_idcache_free(&r->fn_names);
    tw_u64map_free(&r->fids);
    tw_u64map_free(&r->classes);
    for (int i = 0; i < REP_COUNT; i++) tw_u64map_free(&r->reported[i]);
    for (size_t i = 0; i < r->jits.cap; i++) {
        if (!r->jits.used || !r->jits.used[i]) continue;
        for (cp_jit *j = r->jits.vals[i], *next; j && j != (void *)&r->jits; j = next) {
            next = j->next;
            free(j);
        }
    }
    tw_u64map_free(&r->jits);
    free(r->pf);
    tw_evq_free(&r->q);
    tw_buf_free(&r->text);
    free(r);
}

/* ---- writer -------------------------------------------------------------- */

typedef struct wframe {
    uint64_t fn;
    char ip[20];  /* "0x..." or "?" of the frame's begin, "" if none */
} wframe;

typedef struct wthread {
    uint64_t iid, tid;
    bool declared;   /* thr crt / thr aos written */
    bool from_meta;  /* its iid came from a thread_name event */
    size_t *gc;      /* open gch gcs records: the frame depth at each */
    size_t ngc, gccap;
    wframe *stack;
    size_t depth, cap;
} wthread;

typedef struct cp_writer {
    tw_write_ctx ctx;
    bool method_written, named_process, have_pid;
    uint32_t pid;
    tw_u64map threads;   /* tid -> wthread */
    tw_u64map by_iid;    /* iid -> wthread */
    wthread **tv;
    size_t ntv, tvcap;
    uint64_t next_iid;
    tw_u64map funcs;     /* name id -> function iid + 1 */
    uint64_t nfuncs;
    tw_u64map classes;   /* name id -> class iid + 1 */
    uint64_t nclasses;
    /* the sam str record being gathered: pops, then pushes, then a count */
    bool pend, pcounter;
    wthread *pt;
    int64_t pms;
    size_t pprev, pkeep, npush;
    uint64_t pcount;
    /* the latest time of an event given (in ms, -1: none), and of a record
     * written: frames left open are closed at the log's last time */
    int64_t max_ms, written_ms;
    /* a gch alt or gch gen record being gathered: the items of the counters
     * of one kind at one time, in their order ('a', 'g'; 0: none) */
    char gch;
    int64_t gch_ms;
    tw_buf gch_items;
    const tw_str *k_count, *k_ip, *k_reason, *k_generations, *k_status, *k_iid, *k_thread_id,
        *k_reserved;
} cp_writer;

static int cp_wfail(cp_writer *w) {
    tw_report(w->ctx.diag, TW_R_OUT_OF_MEMORY, NULL, "out of memory");
    return TW_ERR;
}

static const tw_attr *find_attr(const tw_event *ev, const tw_str *key, tw_attr_type type) {
    for (size_t i = 0; i < ev->nattrs; i++)
        if (ev->attrs[i].key == key && ev->attrs[i].type == type) return &ev->attrs[i];
    return NULL;
}

static bool has_key(const tw_event *ev, const tw_str *key) {
    for (size_t i = 0; i < ev->nattrs; i++)
        if (ev->attrs[i].key == key) return true;
    return false;
}

/* Can s[0..n) be written as one space-separated field (and read back)? */
static bool is_token(const char *s, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || (s[i] == '\r' && i + 1 == n))
            return false;
    return n > 0;
}

/* A time as written: the profiler's tick count is a 32-bit DWORD, so a
 * time beyond it is out of the format's range; the reader takes it as it
 * is, and so it is written, and counted. */
static int64_t tick(cp_writer *w, int64_t ms) {
    if (ms > w->written_ms) w->written_ms = ms;
    if (ms > (int64_t)UINT32_MAX)
        tw_loss_add(w->ctx.loss, "times beyond the 32-bit tick count (written as they are)", 1);
    return ms;
}

static void put_hex32(tw_output *o, uint64_t v) { tw_out_printf(o, "0x%08llx", (unsigned long long)v); }

/* A quoted string (no escaping exists; line breaks become spaces). */
static void put_qstr(cp_writer *w, const char *s, size_t n) {
    tw_out_putc(w->ctx.out, '"');
    if (tw_out_oneline(w->ctx.out, s, n))
        tw_loss_add(w->ctx.loss, "line breaks in names replaced by spaces", 1);
    tw_out_putc(w->ctx.out, '"');
}

static void civil_from_days(int64_t z, int64_t *y, unsigned *m, unsigned *d) {
    z += 719468;
    int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    unsigned doe = (unsigned)(z - era * 146097);
    unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    unsigned mp = (5 * doy + 2) / 153;
    *d = doy - (153 * mp + 2) / 5 + 1;
    *m = mp < 10 ? mp + 3 : mp - 9;
    *y = (int64_t)yoe + era * 400 + (*m <= 2);
}

static int cp_begin(const tw_write_ctx *ctx, void **state) {
    cp_writer *w = tw_state_alloc(ctx->diag, sizeof *w);
    if (!w) return TW_ERR;
    w->ctx = *ctx;
    w->max_ms = w->written_ms = -1;
    const tw_str **k[] = {&w->k_count, &w->k_ip, &w->k_reason, &w->k_generations,
                          &w->k_status, &w->k_iid, &w->k_thread_id, &w->k_reserved};
    static const char *const names[] = {"count", "ip", "reason", "generations",
                                        "status", "iid", "thread_id", "reserved"};
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++)
        if (!(*k[i] = tw_intern_cstr(ctx->strtab, names[i]))) {
            free(w);
            tw_report(ctx->diag, TW_R_OUT_OF_MEMORY, NULL, "out of memory");
            return TW_ERR;
        }
    const tw_trace_info *ti = ctx->info;
    int64_t wall;
    if (ti->has_origin) {
        /* the wall clock at trace time 0, in UTC, to the millisecond */
        if (tw_sub_i64(ti->origin_ns, ti->origin_ts, &wall) && wall >= 0) {
            bool inexact;
            int64_t ms = tw_round_div(wall, TW_NS_PER_MS, &inexact);
            int64_t back;
            if (!tw_mul_i64(ms, TW_NS_PER_MS, &back)) ms--; /* stay readable */
            if (inexact) tw_loss_add(ctx->loss, "wall-clock origin rounded to milliseconds", 1);
            int64_t y;
            unsigned mo, d;
            int64_t secs = ms / 1000;
            civil_from_days(secs / 86400, &y, &mo, &d);
            int64_t sod = secs % 86400;
            tw_out_printf(ctx->out, "prf stm %04lld-%02u-%02u %02lld:%02lld:%02lld.%03lld +00:00\n",
                          (long long)y, mo, d, (long long)(sod / 3600),
                          (long long)(sod / 60 % 60), (long long)(sod % 60),
                          (long long)(ms % 1000));
        } else {
            tw_loss_add(ctx->loss, "wall-clock origin out of range dropped", 1);
        }
    }
    *state = w;
    return TW_OK;
}

static wthread *wthread_get(cp_writer *w, uint64_t tid) {
    bool created;
    wthread *t = tw_keyed_get(&w->threads, &w->tv, &w->ntv, &w->tvcap, tid, sizeof *t, &created);
    if (t && created) {
        t->tid = tid;
        t->iid = UNDEF;
    }
    return t;
}

/* thr crt + thr aos for a thread that records refer to by internal id. */
static bool declare(cp_writer *w, wthread *t, const tw_attr *thread_id) {
    if (t->declared) return true;
    if (t->iid == UNDEF) t->iid = w->next_iid;
    if (t->iid >= w->next_iid) w->next_iid = t->iid + 1;
    if (!tw_u64map_put(&w->by_iid, t->iid, t)) return false;
    t->declared = true;
    tw_output *o = w->ctx.out;
    tw_out_str(o, "thr crt ");
    uint64_t v;
    if (thread_id && parse_hex(thread_id->s, thread_id->slen, &v)) tw_out_write(o, thread_id->s, thread_id->slen);
    else tw_out_printf(o, "0x%08llX", (unsigned long long)(t->iid + 1));
    tw_out_putc(o, ' ');
    put_hex32(o, t->iid);
    tw_out_str(o, "\nthr aos ");
    put_hex32(o, t->iid);
    tw_out_putc(o, ' ');
    tw_out_u64(o, t->tid);
    tw_out_putc(o, '\n');
    return true;
}

static wthread *declared_thread(cp_writer *w, uint64_t tid) {
    wthread *t = wthread_get(w, tid);
    return t && declare(w, t, NULL) ? t : NULL;
}

/* The id of `name` in `map` (ids 0, 1, 2, ... from *next): -1 out of
 * memory, 0 known before, 1 new (its definition is to be written). */
static int name_id(cp_writer *w, tw_u64map *map, uint64_t *next, const char *s, size_t n,
                   uint64_t *id, const tw_str **name) {
    if (!(*name = tw_intern(w->ctx.strtab, s, n))) return -1;
    void *v = tw_u64map_get(map, (*name)->id);
    if (v) {
        *id = (uint64_t)(uintptr_t)v - 1;
        return 0;
    }
    *id = *next;
    if (!tw_u64map_put(map, (*name)->id, (void *)(uintptr_t)(*id + 1))) return -1;
    ++*next;
    return 1;
}

/* The internal id of function `name`, with fun inf / fun nam on first use. */
static bool function_iid(cp_writer *w, const char *s, size_t n, uint64_t *fn) {
    const tw_str *name;
    int rc = name_id(w, &w->funcs, &w->nfuncs, s, n, fn, &name);
    if (rc <= 0) return rc == 0;
    tw_output *o = w->ctx.out;
    tw_out_str(o, "fun inf ");
    put_hex32(o, *fn);
    tw_out_printf(o, " 0x%08llX 0x00000000 0x00000000 0x%08llX\nfun nam ",
                  (unsigned long long)(*fn + 1), (unsigned long long)(0x06000001 + *fn));
    put_hex32(o, *fn);
    tw_out_putc(o, ' ');
    put_qstr(w, name->s, name->len);
    tw_out_str(o, " \"\" \"\"\n");
    return true;
}

/* The internal id of class `name`, with cls nam on first use. */
static bool class_iid(cp_writer *w, const char *s, size_t n, uint64_t *cls) {
    const tw_str *name;
    int rc = name_id(w, &w->classes, &w->nclasses, s, n, cls, &name);
    if (rc <= 0) return rc == 0;
    tw_out_str(w->ctx.out, "cls nam ");
    put_hex32(w->ctx.out, *cls);
    tw_out_putc(w->ctx.out, ' ');
    put_qstr(w, name->s, name->len);
    tw_out_putc(w->ctx.out, '\n');
    return true;
}

/* Write the gch record being gathered. */
static void flush_gch(cp_writer *w) {
    if (!w->gch) return;
    tw_output *o = w->ctx.out;
    tw_out_printf(o, "gch %s %lld", w->gch == 'a' ? "alt" : "gen", (long long)tick(w, w->gch_ms));
    tw_out_write(o, w->gch_items.p, w->gch_items.len);
    tw_out_putc(o, '\n');
    w->gch = 0;
    tw_buf_clear(&w->gch_items);
}

static void flush(cp_writer *w) {
    flush_gch(w);
    if (!w->pend) return;
    w->pend = false;
    wthread *t = w->pt;
    tw_output *o = w->ctx.out;
    tw_out_str(o, "sam str ");
    put_hex32(o, t->iid);
    tw_out_putc(o, ' ');
    tw_out_u64(o, (uint64_t)tick(w, w->pms));
    tw_out_putc(o, ' ');
    tw_out_u64(o, w->pcount);
    tw_out_printf(o, " %zu:%zu", w->pkeep, w->pprev);
    for (size_t i = w->pkeep; i < t->depth; i++) {
        tw_out_printf(o, " 0x%llx", (unsigned long long)t->stack[i].fn);
        if (t->stack[i].ip[0]) {
            tw_out_putc(o, ':');
            tw_out_str(o, t->stack[i].ip);
        }
    }
    tw_out_putc(o, '\n');
}

/* Make the pending record one of thread t at ms, with no count yet. */
static void pending_for(cp_writer *w, wthread *t, int64_t ms) {
    if (w->pend && w->pt == t && w->pms == ms && !w->pcounter) return;
    flush(w);
    w->pend = true;
    w->pcounter = false;
    w->pt = t;
    w->pms = ms;
    w->pprev = w->pkeep = t->depth;
    w->npush = 0;
    w->pcount = 0;
}

static int frame_begin(cp_writer *w, const tw_event *ev, int64_t ms) {
    wthread *t = wthread_get(w, ev->tid);
    uint64_t fn;
    if (!t) return cp_wfail(w);
    const tw_attr *ca = find_attr(ev, w->k_count, TW_ATTR_INT);
    uint64_t count = ca && ca->i > 0 ? (uint64_t)ca->i : 0;
    if (!(w->pend && w->pt == t && w->pms == ms && !w->pcounter &&
          (!w->npush || w->pcount == count)))
        flush(w);  /* before any thr crt or fun inf this begin needs */
    if (!declare(w, t, NULL) || !function_iid(w, ev->name->s, ev->name->len, &fn))
        return cp_wfail(w);
    pending_for(w, t, ms);
    if (!tw_grow(&t->stack, &t->cap, t->depth + 1, sizeof *t->stack, 16)) return cp_wfail(w);
    wframe *f = &t->stack[t->depth++];
    f->fn = fn;
    f->ip[0] = 0;
    const tw_attr *ip = find_attr(ev, w->k_ip, TW_ATTR_STR);
    if (ip && ip->slen < sizeof f->ip && is_ip(ip->s, ip->slen)) {
        memcpy(f->ip, ip->s, ip->slen);
        f->ip[ip->slen] = 0;
    } else if (ip) {
        tw_loss_add(w->ctx.loss, "frame ips that are not 0x... or ? dropped", 1);
    }
    w->npush++;
    w->pcount = count;
    return TW_OK;
}

static int frame_end(cp_writer *w, const tw_event *ev, int64_t ms) {
    wthread *t = wthread_get(w, ev->tid);
    if (!t) return cp_wfail(w);
    const tw_str *name = ev->name;
    size_t i = t->depth;
    uint64_t fn = 0;
    void *v = tw_u64map_get(&w->funcs, name->id);
    if (v) fn = (uint64_t)(uintptr_t)v - 1;
    while (v && i > 0 && t->stack[i - 1].fn != fn) i--;
    if (!v || i == 0) {
        tw_loss_add(w->ctx.loss, "ends without an open scope of their name dropped", 1);
        return TW_OK;
    }
    if (i != t->depth)
        tw_loss_add(w->ctx.loss, "inner scopes ended by the end of an outer scope",
                    t->depth - i);
    if (w->pend && w->pt == t && w->pms == ms && w->npush) flush(w);
    pending_for(w, t, ms);
    t->depth = i - 1;
    if (t->depth < w->pkeep) w->pkeep = t->depth;
    return TW_OK;
}

/* "samples" counter: the count of the pending record, or a record of its own. */
static int samples(cp_writer *w, const tw_event *ev, int64_t ms) {
    wthread *t = wthread_get(w, ev->tid);
    if (!t) return cp_wfail(w);
    uint64_t v = (uint64_t)ev->value;
    if (w->pend && w->pt == t && w->pms == ms && !w->pcounter && (!w->npush || w->pcount == v)) {
        w->pcount = v;
        w->pcounter = true;
        return TW_OK;
    }
    flush(w);  /* a record of its own */
    if (!declare(w, t, NULL)) return cp_wfail(w);
    pending_for(w, t, ms);
    w->pcount = v;
    w->pcounter = true;
    return TW_OK;
}

/* JIT and GC scopes go back to their own records. */
static bool special_scope(cp_writer *w, const tw_event *ev, int64_t ms) {
    const tw_str *name = ev->name;
    tw_output *o = w->ctx.out;
    bool begin = ev->kind == TW_BEGIN;
    if (tw_str_is(name, N_GC)) {
        wthread *t = wthread_get(w, ev->tid);
        if (!t) return cp_wfail(w), true;
        const tw_attr *reason = find_attr(ev, w->k_reason, TW_ATTR_STR);
        const tw_attr *gens = find_attr(ev, w->k_generations, TW_ATTR_STR);
        if (begin) {
            if (!reason || !gens || !gc_reason(reason->s, reason->slen) ||
                !gc_generations(gens->s, gens->slen)) {
                /* not of the grammar (or none): a stack frame named GC */
                if (has_key(ev, w->k_reason) || has_key(ev, w->k_generations))
                    tw_loss_add(w->ctx.loss,
                                "event attributes of GC scopes whose reason or generations are "
                                "not of the grammar (written as stack frames without them)",
                                1);
                return false;
            }
            if (!tw_grow(&t->gc, &t->gccap, t->ngc + 1, sizeof *t->gc, 4))
                return cp_wfail(w), true;
            flush(w);
            t->gc[t->ngc++] = t->depth;
            tw_out_printf(o, "gch gcs %llu %lld ", (unsigned long long)ev->tid,
                          (long long)tick(w, ms));
            tw_out_write(o, reason->s, reason->slen);
            tw_out_putc(o, ' ');
            tw_out_write(o, gens->s, gens->slen);
            tw_out_putc(o, '\n');
            return true;
        }
        /* a frame named GC pushed after the open gch gcs ends first */
        void *fv = tw_u64map_get(&w->funcs, name->id);
        if (!t->ngc || (fv && t->depth > t->gc[t->ngc - 1] &&
                        t->stack[t->depth - 1].fn == (uint64_t)(uintptr_t)fv - 1))
            return false;
        flush(w);
        t->ngc--;
        tw_out_printf(o, "gch gcf %llu %lld\n", (unsigned long long)ev->tid,
                      (long long)tick(w, ms));
        return true;
    }
    bool search = has_prefix(name, N_JIT_SEARCH, LIT_LEN(N_JIT_SEARCH));
    if (!search && !has_prefix(name, N_JIT, LIT_LEN(N_JIT))) return false;
    size_t skip = search ? LIT_LEN(N_JIT_SEARCH) : LIT_LEN(N_JIT);
    uint64_t fn;
    flush(w);
    if (!function_iid(w, name->s + skip, name->len - skip, &fn)) return cp_wfail(w), true;
    tw_out_printf(o, "jit c%c%c %llu %lld 0x%08llX", search ? 's' : 'm', begin ? 's' : 'f',
                  (unsigned long long)ev->tid, (long long)tick(w, ms),
                  (unsigned long long)(fn + 1));
    if (!begin && !search) {
        const tw_attr *st = find_attr(ev, w->k_status, TW_ATTR_STR);
        uint64_t v;
        tw_out_putc(o, ' ');
        if (st && parse_hex(st->s, st->slen, &v)) tw_out_write(o, st->s, st->slen);
        else tw_out_str(o, "0x00000000");
    }
    tw_out_putc(o, '\n');
    return true;
}

/* A counter as written by the reader: an item record with one item. */
static int counter(cp_writer *w, const tw_event *ev, int64_t ms) {
    const tw_str *name = ev->name;
    tw_output *o = w->ctx.out;
    if (!ev->has_value || ev->value < 0) {
        tw_loss_drop(w->ctx.loss, ev);
        return TW_OK;
    }
    if (tw_str_is(name, N_SAMPLES)) return ev->value > 0 ? samples(w, ev, ms) : TW_OK;
    /* the items of one gch record are counters of one kind at one time */
    char gch = 0;
    if (has_prefix(name, N_LIVE, LIT_LEN(N_LIVE))) gch = 'a';
    else if (has_prefix(name, N_HEAP, LIT_LEN(N_HEAP))) gch = 'g';
    if (!gch || gch != w->gch || ms != w->gch_ms) flush(w);
    if (tw_str_is(name, N_PROC_CPU)) {
        tw_out_printf(o, "prc cpu %lld %lld\n", (long long)tick(w, ms), (long long)ev->value);
        return TW_OK;
    }
    if (tw_str_is(name, N_THR_CPU)) {
        wthread *t = declared_thread(w, ev->tid);
        if (!t) return cp_wfail(w);
        tw_out_str(o, "thr cpu ");
        put_hex32(o, t->iid);
        tw_out_printf(o, " %lld %lld\n", (long long)tick(w, ms), (long long)ev->value);
        return TW_OK;
    }
    const tw_attr *ca = find_attr(ev, w->k_count, TW_ATTR_INT);
    long long count = ca && ca->i >= 0 ? (long long)ca->i : 0;
    bool alloc = has_prefix(name, N_ALLOC, LIT_LEN(N_ALLOC));
    if (alloc || gch == 'a') {
        size_t skip = alloc ? LIT_LEN(N_ALLOC) : LIT_LEN(N_LIVE);
        uint64_t cls;
        wthread *t = alloc ? declared_thread(w, ev->tid) : NULL;
        if ((alloc && !t) || !class_iid(w, name->s + skip, name->len - skip, &cls))
            return cp_wfail(w);
        if (!alloc) { /* an item of the gch alt being gathered (cls nam first) */
            char item[80];
            int k = snprintf(item, sizeof item, " 0x%llx:%lld:%lld", (unsigned long long)cls,
                             count, (long long)ev->value);
            if (!tw_buf_append(&w->gch_items, item, (size_t)k)) return cp_wfail(w);
            w->gch = 'a';
            w->gch_ms = ms;
            return TW_OK;
        }
        tw_out_str(o, "sam mem ");
        put_hex32(o, t->iid);
        tw_out_printf(o, " %lld ", (long long)tick(w, ms));
        tw_out_printf(o, "0x%llx:%lld:%lld", (unsigned long long)cls, count, (long long)ev->value);
        const tw_attr *ip = find_attr(ev, w->k_ip, TW_ATTR_STR);
        if (ip && is_ip(ip->s, ip->slen)) {
            tw_out_putc(o, ':');
            tw_out_write(o, ip->s, ip->slen);
        }
        tw_out_putc(o, '\n');
        return TW_OK;
    }
    if (gch == 'g') {
        const char *g = name->s + LIT_LEN(N_HEAP);
        size_t gn = name->len - LIT_LEN(N_HEAP);
        bool ok = gn > 0;
        for (size_t i = 0; ok && i < gn; i++)
            ok = (g[i] >= 'a' && g[i] <= 'z') || (g[i] >= 'A' && g[i] <= 'Z') ||
                 (g[i] >= '0' && g[i] <= '9') || g[i] == '_';
        if (ok) { /* an item of the gch gen being gathered */
            const tw_attr *res = find_attr(ev, w->k_reserved, TW_ATTR_INT);
            char nums[48];
            int k = snprintf(nums, sizeof nums, ":%lld:%lld", (long long)ev->value,
                             res && res->i >= 0 ? (long long)res->i : 0LL);
            if (!tw_buf_append(&w->gch_items, " ", 1) || !tw_buf_append(&w->gch_items, g, gn) ||
                !tw_buf_append(&w->gch_items, nums, (size_t)k))
                return cp_wfail(w);
            w->gch = 'g';
            w->gch_ms = ms;
            return TW_OK;
        }
    }
    tw_loss_add(w->ctx.loss, "counters other than CoreProfiler's own dropped", 1);
    return TW_OK;
}

static int meta(cp_writer *w, const tw_event *ev) {
    tw_output *o = w->ctx.out;
    if (tw_str_is(ev->name, TW_META_THREAD_NAME)) {
        const tw_attr *ia = find_attr(ev, w->k_iid, TW_ATTR_INT);
        if (!ia || ia->i < 0 || ia->i > (int64_t)UINT32_MAX) {
            tw_loss_drop(w->ctx.loss, ev);
            return TW_OK;
        }
        uint64_t iid = (uint64_t)ia->i;
        wthread *t = tw_u64map_get(&w->by_iid, iid);
        if (t && t->from_meta) { /* the managed thread moved to another OS thread */
            if (t->tid != ev->tid) {
                wthread *holder = tw_u64map_get(&w->threads, ev->tid);
                if (holder && holder != t && holder->depth) {
                    tw_loss_add(w->ctx.loss, "moves of threads onto a busy OS thread dropped", 1);
                    return TW_OK;
                }
                if (!tw_u64map_put(&w->threads, ev->tid, t)) return cp_wfail(w);
                t->tid = ev->tid;
                tw_out_str(o, "thr aos ");
                put_hex32(o, iid);
                tw_out_putc(o, ' ');
                tw_out_u64(o, ev->tid);
                tw_out_putc(o, '\n');
            }
            return TW_OK;
        }
        t = tw_u64map_get(&w->threads, ev->tid);
        if (t && t->declared) return TW_OK; /* already written under another id */
        if (!t && !(t = wthread_get(w, ev->tid))) return cp_wfail(w);
        t->iid = tw_u64map_get(&w->by_iid, iid) ? w->next_iid : iid;
        t->from_meta = t->iid == iid;
        return declare(w, t, find_attr(ev, w->k_thread_id, TW_ATTR_STR)) ? TW_OK : cp_wfail(w);
    }
    if (tw_str_is(ev->name, TW_META_PROCESS_NAME) && !w->named_process) {
        w->named_process = true;
        tw_out_str(o, "apd crf 0x00000001 0x00000001 0x00000000 ");
        put_qstr(w, ev->msg ? ev->msg : "", ev->msg_len);
        tw_out_putc(o, '\n');
        return TW_OK;
    }
    tw_loss_drop(w->ctx.loss, ev);
    return TW_OK;
}

static void method(cp_writer *w) {
    if (w->method_written) return;
    w->method_written = true;
    tw_out_str(w->ctx.out, "prf cfg CollectionMethod Instrumentation\n");
}

static int cp_event(void *state, const tw_event *ev) {
    cp_writer *w = state;
    tw_output *o = w->ctx.out;
    if (ev->kind == TW_META && has_prefix(ev->name, N_CONFIG, LIT_LEN(N_CONFIG)) &&
        ev->name->len > LIT_LEN(N_CONFIG)) {
        const char *k = ev->name->s + LIT_LEN(N_CONFIG);
        size_t kn = ev->name->len - LIT_LEN(N_CONFIG);
        if (!is_token(k, kn)) {
            tw_loss_drop(w->ctx.loss, ev);
            return TW_OK;
        }
        flush(w);
        tw_out_str(o, "prf cfg ");
        tw_out_write(o, k, kn);
        if (ev->msg && ev->msg_len) tw_out_putc(o, ' '); /* no blank ends the line */
        if (ev->msg && tw_out_oneline(o, ev->msg, ev->msg_len))
            tw_loss_add(w->ctx.loss, "line breaks in names replaced by spaces", 1);
        tw_out_putc(o, '\n');
        if (kn == 16 && memcmp(k, "CollectionMethod", 16) == 0) w->method_written = true;
        return TW_OK;
    }
    method(w);
    if (!w->have_pid) {
        w->have_pid = true;
        w->pid = w->ctx.info->has_pid ? w->ctx.info->pid : ev->pid;
        /* a log is one process, read back as process 0 */
        if (w->pid) tw_loss_add(w->ctx.loss, "process id dropped", 1);
    }
    if (ev->pid != w->pid)
        tw_loss_add(w->ctx.loss, "events of other processes written as this log's process", 1);
    if (ev->kind == TW_META) {
        flush(w);
        return meta(w, ev);
    }
    if (ev->ts < 0) {
        tw_loss_add(w->ctx.loss, "events before time zero dropped", 1);
        return TW_OK;
    }
    int64_t ms = tw_write_time(&w->ctx, ev->ts, TW_NS_PER_MS, "millisecond");
    if (ms > w->max_ms) w->max_ms = ms;
    switch (ev->kind) {
    case TW_BEGIN:
    case TW_END:
        if (ev->msg) tw_loss_add(w->ctx.loss, "message texts of scope events dropped", 1);
        if (ev->cat) tw_loss_add(w->ctx.loss, "categories dropped", 1);
        for (size_t i = 0; i < ev->nattrs; i++) {
            const tw_str *k = ev->attrs[i].key;
            if (k != w->k_count && k != w->k_ip && k != w->k_reason && k != w->k_generations &&
                k != w->k_status) {
                tw_loss_add(w->ctx.loss, "event attributes dropped", 1);
                break;
            }
        }
        if (special_scope(w, ev, ms)) return TW_OK;
        return ev->kind == TW_BEGIN ? frame_begin(w, ev, ms) : frame_end(w, ev, ms);
    case TW_INSTANT:
        flush(w);
        if (tw_str_is(ev->name, N_PAUSE) || tw_str_is(ev->name, N_RESUME)) {
            tw_out_printf(o, "prf %s %lld\n", ev->name->s[0] == 'p' ? "tps" : "trs",
                          (long long)tick(w, ms));
            return TW_OK;
        }
        tw_loss_drop(w->ctx.loss, ev);
        return TW_OK;
    case TW_COUNTER: return counter(w, ev, ms);
    default:
        flush(w);
        tw_loss_drop(w->ctx.loss, ev);
        return TW_OK;
    }
}

static int cp_end(void *state) {
    cp_writer *w = state;
    method(w);
    flush(w);
    /* the reader closes them at the last time of the log: the latest
     * event's, also when that event was not written (an instant, an end
     * matching nothing), for which a sample that changes no stack stands */
    wthread *open = NULL;
    for (size_t i = 0; i < w->ntv; i++) {
        if (!w->tv[i]->depth) continue;
        if (!open) open = w->tv[i];
        tw_loss_add(w->ctx.loss, "scopes left open (closed at the end when read back)",
                    w->tv[i]->depth);
    }
    if (open && w->max_ms > w->written_ms) {
        tw_output *o = w->ctx.out;
        tw_out_str(o, "sam str ");
        put_hex32(o, open->iid);
        tw_out_putc(o, ' ');
        tw_out_u64(o, (uint64_t)tick(w, w->max_ms));
        tw_out_printf(o, " 0 %zu:%zu\n", open->depth, open->depth);
    }
    return TW_OK;
}

static void cp_free(void *state) {
    cp_writer *w = state;
    tw_buf_free(&w->gch_items);
    for (size_t i = 0; i < w->ntv; i++) {
        free(w->tv[i]->gc);
        free(w->tv[i]->stack);
        free(w->tv[i]);
    }
    free(w->tv);
    tw_u64map_free(&w->threads);
    tw_u64map_free(&w->by_iid);
    tw_u64map_free(&w->funcs);
    tw_u64map_free(&w->classes);
    free(w);
}

/* ---- descriptor ---------------------------------------------------------- */

static const char *const cp_aliases[] = {"tracelog", "coreprof", NULL};
static const char *const cp_exts[] = {".tracelog", NULL};
static const tw_option cp_options[] = {
    {"coreprofiler-utc-offset", TW_OPT_STRING, "+00:00", NULL, TW_OPT_READ,
     "zone of a 'prf stm' start time written without a UTC offset (+HH:MM, -HH:MM or Z)"},
    {NULL, 0, NULL, NULL, 0, NULL}};

/* What the reader produces and the writer keeps (see tw_fidelity). */
static const tw_fidelity cp_fidelity = {
    .family = "coreprofiler",
    .produces = TW_KEEP_THREADS | TW_KEEP_IDS | TW_KEEP_ORIGIN | TW_KEEP_INSTANTS |
        TW_KEEP_COUNTERS | TW_KEEP_NAMES | TW_KEEP_ATTRIBUTES | TW_KEEP_OWN,
    .keeps = TW_KEEP_THREADS | TW_KEEP_IDS | TW_KEEP_ORIGIN,
    .read_clock_ns = TW_NS_PER_MS,
    .write_clock_ns = TW_NS_PER_MS,
    .read_origin_ns = TW_NS_PER_MS,
    .write_origin_ns = TW_NS_PER_MS,
    .partly = TW_PARTLY_PROCESS_NAMES | TW_PARTLY_COUNTER_THREADS,
};

static int cp_next(void *state, tw_event *ev) { return cp_next_one(state, ev); }

/* A run of events (tw_batch), as tw_read_batch_with() reads it with
 * cp_next(), but the usual lines, read in place, go straight into the
 * batch without a call each: they report nothing and end no run (no
 * message, attributes or transient name). */
static int cp_batch(void *state, tw_batch *b) {
    cp_reader *r = state;
    while (b->n < b->cap) {
        /* cp_next_one()'s first steps, for the usual line */
        if (tw_evq_empty(&r->q) && !r->eof && !r->have_held && !tw_diag_stopped(r->ctx.diag)) {
            size_t n0 = b->n;
            while (b->n < b->cap && plain_inplace(r, &b->ev[b->n])) b->n++;
            if (b->n > n0) continue;
        }
        int rc; /* any other: one event the general way */
        if (!tw_read_one_with(cp_next, r, b, &rc)) return rc;
    }
    return TW_OK;
}

static const tw_format cp_format = {
    .abi = TW_FORMAT_ABI,
    .name = "coreprofiler",
    .aliases = cp_aliases,
    .extensions = cp_exts,
    .description = "Samsung CoreProfiler TraceLog (Tizen .NET)",
    .flags = TW_FMT_TEXT | TW_FMT_THREADS | TW_FMT_ORIGIN | TW_FMT_WRITER_INTERNS |
             TW_FMT_WRITER_TRANSIENT,
    .options = cp_options,
    .probe = cp_probe,
    .read_open = cp_open,
    .read_next = cp_next,
    .read_batch = cp_batch,
    .read_close = cp_close,
    .write_begin = cp_begin,
    .write_event = cp_event,
    .write_end = cp_end,
    .write_free = cp_free,
    .fidelity = &cp_fidelity,
};

TW_FORMAT_EXPORT(coreprofiler, cp_format)
