/*
 * project - the projection of a canonical stream onto what a writer holds.
 *
 *   project WRITER READER [WARNINGS] < IN.jsonl > OUT.jsonl
 *
 * Reads the jsonl stream of a READER-format input (what `convert -t jsonl`
 * gives), and writes what `convert -t WRITER` followed by reading that
 * output back as jsonl must give: the stream with everything WRITER cannot
 * hold dropped, merged or rounded, and the writer's own normalisations
 * applied, as docs/formats/WRITER.md states them ("What a conversion to
 * WRITER loses").  Which parts are lost comes from the table behind
 * `tracewright formats --matrix` (tw_format_fidelity); how they are lost
 * is the code below.
 *
 * With WARNINGS (the standard error of the conversion), it also checks the
 * conversion's report: one lossy-conversion warning exactly when the
 * projection lost something, whose items name every part lost; one
 * precision-loss warning exactly when a time was rounded; and only parts
 * the matrix cell READER -> WRITER lists.  Problems go to standard error
 * and make the exit status 1.  tests/cli/roundtrip/matrix.sh runs it over
 * every fixture and pair of formats.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracewright/tracewright.h"

/* A one-shot tool: what it allocates is released by its exit, so the leak
 * checker of a sanitizer build (make sanitize) is turned off for it. */
const char *__asan_default_options(void);
const char *__asan_default_options(void) { return "detect_leaks=0"; }

#define NS_MS INT64_C(1000000)
#define NS_S INT64_C(1000000000)

static void *xalloc(size_t n) {
    void *p = calloc(1, n ? n : 1);
    if (!p) {
        fprintf(stderr, "project: out of memory\n");
        exit(2);
    }
    return p;
}

static char *dup_bytes(const char *s, size_t n) {
    char *p = xalloc(n + 1);
    if (n) memcpy(p, s, n);
    return p;
}

/* ---- the stream, in memory ---------------------------------------------- */

typedef struct attr {
    const tw_str *key;
    tw_attr_type type;
    int64_t i;
    char *s;
    size_t slen;
} attr;

typedef struct ev {
    int64_t ts;
    uint64_t tid;
    uint32_t pid;
    tw_kind kind;
    const tw_str *name;
    const tw_str *cat;
    char *msg; /* NULL: none */
    size_t msg_len;
    int64_t value;
    bool has_value;
    attr *attrs;
    size_t nattrs;
} ev;

typedef struct stream {
    ev *v;
    size_t n, cap;
} stream;

static ev *push(stream *s, const ev *e) {
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 64;
        s->v = realloc(s->v, s->cap * sizeof *s->v);
        if (!s->v) exit(2);
    }
    s->v[s->n] = *e;
    return &s->v[s->n++];
}

static tw_strtab *tab;
static tw_trace_info info; /* the trace line, projected in place */
static unsigned lost;      /* TW_KEEP_* parts the projection lost */
static bool rounded;       /* a time was rounded */
static const char *wname;  /* the writer */

static const tw_str *S(const char *s) { return tw_intern_cstr(tab, s); }
static bool is(const tw_str *s, const char *lit) {
    return s && s->len == strlen(lit) && memcmp(s->s, lit, s->len) == 0;
}
static bool starts(const tw_str *s, const char *lit) {
    return s && s->len >= strlen(lit) && memcmp(s->s, lit, strlen(lit)) == 0;
}

static const attr *find(const ev *e, const char *key) {
    for (size_t i = 0; i < e->nattrs; i++)
        if (is(e->attrs[i].key, key)) return &e->attrs[i];
    return NULL;
}

/* Keep only the attributes named in `keys` ("a|b|"); true if any other went. */
static bool keep_attrs(ev *e, const char *keys) {
    size_t k = 0;
    bool dropped = false;
    for (size_t i = 0; i < e->nattrs; i++) {
        char pat[80];
        snprintf(pat, sizeof pat, "%.*s|", (int)e->attrs[i].key->len, e->attrs[i].key->s);
        if (keys && strstr(keys, pat) && (keys == strstr(keys, pat) || strstr(keys, pat)[-1] == '|'))
            e->attrs[k++] = e->attrs[i];
        else
            dropped = true;
    }
    e->nattrs = k;
    return dropped;
}

/* The part a metadata event belongs to. */
static unsigned meta_part(const ev *e) {
    if (is(e->name, TW_META_THREAD_NAME) || is(e->name, TW_META_PROCESS_NAME))
        return TW_KEEP_NAMES;
    if (is(e->name, TW_META_TRACE_END)) return TW_KEEP_TRACE_END;
    return TW_KEEP_OWN;
}

/* The part lost when an event is dropped as a whole. */
static unsigned kind_part(const ev *e) {
    switch (e->kind) {
    case TW_INSTANT: return TW_KEEP_INSTANTS;
    case TW_SUSPEND:
    case TW_RESUME: return TW_KEEP_SUSPEND;
    case TW_COUNTER: return TW_KEEP_COUNTERS;
    case TW_META: return meta_part(e);
    default: return TW_KEEP_NESTING;
    }
}

/* ts / unit rounded to nearest, halves upwards, times unit. */
static int64_t round_to(int64_t ts, int64_t unit) {
    int64_t q = ts / unit, r = ts % unit;
    if (r < 0) {
        q--;
        r += unit;
    }
    if (r >= unit - r) q++;
    if (q * unit != ts) rounded = true;
    return q * unit;
}

static int64_t floor_to(int64_t v, int64_t unit) {
    int64_t q = v / unit;
    if (v % unit < 0) q--;
    return q * unit;
}

/* Line breaks (CR, LF) in a name become spaces, as the text writers do. */
static const tw_str *oneline(const tw_str *s) {
    if (!s || (!memchr(s->s, '\n', s->len) && !memchr(s->s, '\r', s->len))) return s;
    char *p = dup_bytes(s->s, s->len);
    for (size_t i = 0; i < s->len; i++)
        if (p[i] == '\n' || p[i] == '\r') p[i] = ' ';
    const tw_str *r = tw_intern(tab, p, s->len);
    free(p);
    return r;
}

/* ---- lms ------------------------------------------------------------------ */

/* The track the lms reader gives each label (docs/formats/lms.md, "Threads
 * from labels"), restated: a label `R.M` goes to the track of R when R is
 * a label met before without a dot (the file then names modules so), else
 * to track 0; a label without a dot to a new track once the file names
 * modules so, else to track 0.  Linear searches: fixtures are small. */
typedef struct lms_track_rule {
    const tw_str *label[4096];
    uint64_t track[4096];
    bool runtime[4096];
    size_t n;
    const tw_str *names[4096]; /* each track's first runtime */
    uint64_t ntracks;
    bool qualified;
} lms_track_rule;

/* The track of `s`; *opened tells whether it opened one (not track 0). */
static uint64_t lms_track(lms_track_rule *t, const tw_str *s, bool *opened) {
    *opened = false;
    for (size_t i = 0; i < t->n; i++)
        if (t->label[i] == s) return t->track[i];
    if (t->n == 4096) {
        fprintf(stderr, "project: too many labels\n");
        exit(2);
    }
    if (!t->ntracks) t->ntracks = 1;
    uint64_t track = 0;
    const char *dot = memchr(s->s, '.', s->len);
    bool runtime = false;
    if (dot && dot > s->s) {
        size_t rn = (size_t)(dot - s->s);
        for (size_t i = 0; i < t->n; i++)
            if (t->runtime[i] && t->label[i]->len == rn && memcmp(t->label[i]->s, s->s, rn) == 0) {
                track = t->track[i];
                t->qualified = true;
            }
    } else if (!dot) {
        runtime = true;
        if (t->qualified) {
            track = t->ntracks++;
            *opened = true;
        }
        if (!t->names[track]) t->names[track] = s;
    }
    t->label[t->n] = s;
    t->track[t->n] = track;
    t->runtime[t->n++] = runtime;
    return track;
}

static void project_lms(stream *in, stream *out) {
    if (info.has_origin) lost |= TW_KEEP_ORIGIN;
    if (info.has_pid) lost |= TW_KEEP_PID;
    info.has_origin = info.has_pid = false;
    static lms_track_rule rule;
    bool first = true, exact = true, several = false, moved = false;
    uint32_t pid = 0;
    uint64_t tid = 0;
    int64_t last_ts = 0;
    /* the thread names given, checked at the end */
    const ev *named[256];
    size_t nnamed = 0;
    for (size_t i = 0; i < in->n; i++) {
        ev e = in->v[i];
        if (e.kind == TW_META && is(e.name, TW_META_THREAD_NAME) && nnamed < 256) {
            named[nnamed++] = &in->v[i];
            continue;
        }
        if (e.kind != TW_BEGIN && e.kind != TW_END) {
            lost |= kind_part(&e);
            continue;
        }
        if (first) {
            first = false;
            pid = e.pid;
            tid = e.tid;
            if (pid) lost |= TW_KEEP_PID;
        } else if (e.pid != pid || e.tid != tid) {
            several = true;
        }
        if (e.cat) lost |= TW_KEEP_CATEGORIES;
        if (e.nattrs || e.has_value) lost |= TW_KEEP_ATTRIBUTES;
        if (e.msg) lost |= TW_KEEP_MESSAGES;
        e.name = oneline(e.name);
        bool opened;
        uint64_t track = lms_track(&rule, e.name, &opened);
        if (e.pid != pid || e.tid != track) {
            exact = false;
            if (track) moved = true; /* read back on another track than its own */
        }
        if (opened) { /* the reader names the new track (and track 0, with the second) */
            for (uint64_t k = track == 1 ? 0 : track; k <= track; k++) {
                ev m = {.ts = last_ts, .tid = k, .kind = TW_META, .name = S(TW_META_THREAD_NAME)};
                m.msg = dup_bytes(rule.names[k]->s, rule.names[k]->len);
                m.msg_len = rule.names[k]->len;
                push(out, &m);
            }
        }
        e.pid = 0;
        e.tid = track;
        e.cat = NULL;
        e.msg = NULL;
        e.nattrs = 0;
        e.has_value = false;
        e.ts = round_to(e.ts, 1000);
        last_ts = e.ts;
        push(out, &e);
    }
    if (!exact && (several || tid || moved)) lost |= TW_KEEP_THREADS;
    for (size_t i = 0; i < nnamed; i++) {
        const ev *m = named[i];
        const tw_str *rt = m->tid < rule.ntracks ? rule.names[m->tid] : NULL;
        if (!exact || rule.ntracks < 2 || !rt || rt->len != m->msg_len ||
            (m->msg_len && memcmp(rt->s, m->msg, m->msg_len) != 0))
            lost |= TW_KEEP_NAMES;
    }
}

/* ---- rtl ------------------------------------------------------------------ */

static void project_rtl(stream *in, stream *out) {
    uint32_t pid = info.has_pid ? info.pid : in->n ? in->v[0].pid : 0;
    if (info.has_origin) {
        /* line 2's timer value C (whole ms, at least 0) and the wall clock F
         * at that moment, in microseconds */
        bool r = rounded; /* the origin is not a timestamp */
        int64_t c = round_to(info.origin_ts, NS_MS);
        if (c < 0) c = 0;
        int64_t f = info.origin_ns + (c - info.origin_ts);
        if (f < 0) {
            lost |= TW_KEEP_ORIGIN;
            info.has_origin = false;
        } else {
            int64_t fu = round_to(f, 1000);
            if (fu != f) lost |= TW_KEEP_ORIGIN;
            info.origin_ts = c;
            info.origin_ns = fu;
        }
        rounded = r;
    }
    info.has_pid = true;
    info.pid = pid;
    for (size_t i = 0; i < in->n; i++) {
        ev e = in->v[i];
        bool end = e.kind == TW_META && is(e.name, TW_META_TRACE_END);
        if (!end && e.kind != TW_BEGIN && e.kind != TW_END && e.kind != TW_INSTANT) {
            lost |= kind_part(&e);
            continue;
        }
        if (e.ts < 0) {
            lost |= TW_KEEP_NEGATIVE;
            continue;
        }
        e.ts = round_to(e.ts, NS_MS);
        if (end) {
            e.pid = pid;
            e.tid = 0;
            push(out, &e);
            continue;
        }
        if (e.pid != pid) lost |= TW_KEEP_PROCESSES;
        if (e.nattrs || e.has_value) lost |= TW_KEEP_ATTRIBUTES;
        e.pid = pid;
        e.nattrs = 0;
        e.has_value = false;
        e.name = oneline(e.name);
        e.cat = oneline(e.cat);
        if (e.kind != TW_INSTANT) {
            if (e.msg) lost |= TW_KEEP_MESSAGES;
            e.msg = NULL;
            push(out, &e);
            continue;
        }
        /* "| CAT : NAME : MSG", or "| : NAME : MSG" */
        if (!e.cat) e.cat = S("");
        if (e.msg && e.msg_len) {
            lost |= TW_KEEP_MESSAGES;
            size_t n = e.name->len + 3 + e.msg_len;
            char *p = xalloc(n);
            memcpy(p, e.name->s, e.name->len);
            memcpy(p + e.name->len, " : ", 3);
            memcpy(p + e.name->len + 3, e.msg, e.msg_len);
            e.name = oneline(tw_intern(tab, p, n));
            free(p);
        }
        e.msg = NULL;
        push(out, &e);
    }
}

/* ---- stacktrack ----------------------------------------------------------- */

/* Process and thread ids in 16 bits: kept when free, else the low 16 bits
 * or the next free value after them. */
typedef struct idmap {
    bool used[65536];
    size_t n;
    uint64_t *keys;
    uint16_t *vals;
} idmap;

static uint16_t map16(idmap *m, uint64_t id, bool *renumbered) {
    for (size_t i = 0; i < m->n; i++)
        if (m->keys[i] == id) {
            *renumbered = false;
            return m->vals[i];
        }
    unsigned slot = (unsigned)(id & 0xFFFF);
    while (m->used[slot]) slot = (slot + 1) & 0xFFFF;
    m->used[slot] = true;
    m->keys = realloc(m->keys, (m->n + 1) * sizeof *m->keys);
    m->vals = realloc(m->vals, (m->n + 1) * sizeof *m->vals);
    if (!m->keys || !m->vals) exit(2);
    m->keys[m->n] = id;
    m->vals[m->n++] = (uint16_t)slot;
    *renumbered = slot != id;
    return (uint16_t)slot;
}

/* A text's length as the writer keeps it: at most 65536 bytes, cut at a
 * character (the INFO run the reader's default window takes). */
static size_t st_text(const char *s, size_t n) {
    if (n <= 65536) return n;
    n = 65536;
    for (int k = 0; k < 3 && ((unsigned char)s[n] & 0xC0) == 0x80; k++) n--;
    return n;
}

static void project_stacktrack(stream *in, stream *out) {
    static idmap pids, tids;
    if (info.has_origin) {
        int64_t wall = info.origin_ns - info.origin_ts;
        int64_t s = floor_to(wall, NS_S);
        if (s != wall) lost |= TW_KEEP_ORIGIN;
        if (s < 0 || s / NS_S > UINT32_MAX) {
            lost |= TW_KEEP_ORIGIN;
            info.has_origin = false;
        }
        info.origin_ns = s;
        info.origin_ts = 0;
    }
    info.has_pid = false; /* the events keep theirs */
    int64_t last_hit = 0;
    for (size_t i = 0; i < in->n; i++) {
        ev e = in->v[i];
        bool prop = e.kind == TW_META && is(e.name, "stacktrack.file_property");
        if (!prop && e.kind != TW_BEGIN && e.kind != TW_END && e.kind != TW_INSTANT) {
            lost |= kind_part(&e);
            continue;
        }
        bool renumbered;
        if (keep_attrs(&e, "file|line|")) lost |= TW_KEEP_ATTRIBUTES;
        const attr *line = find(&e, "line");
        if (line && (line->type != TW_ATTR_INT || line->i < 0 || line->i > 0xFFFF))
            lost |= TW_KEEP_ATTRIBUTES;
        e.pid = map16(&pids, e.pid, &renumbered);
        if (renumbered) lost |= TW_KEEP_IDS;
        /* texts longer than the reader takes by default are cut */
        if (e.name->len > 65536) e.name = tw_intern(tab, e.name->s, st_text(e.name->s, e.name->len));
        if (e.msg) e.msg_len = st_text(e.msg, e.msg_len);
        attr *file = (attr *)find(&e, "file");
        if (file && file->type == TW_ATTR_STR) file->slen = st_text(file->s, file->slen);
        if (prop) {
            /* read back at the last hit's time, on thread 0 */
            e.ts = last_hit;
            e.tid = 0;
            push(out, &e);
            continue;
        }
        if (e.cat) lost |= TW_KEEP_CATEGORIES;
        if (e.has_value) lost |= TW_KEEP_ATTRIBUTES;
        e.cat = NULL;
        e.has_value = false;
        e.tid = map16(&tids, e.tid, &renumbered);
        if (renumbered) lost |= TW_KEEP_IDS;
        last_hit = e.ts;
        push(out, &e);
    }
}


/* ---- coreprofiler --------------------------------------------------------- */

typedef struct cthread {
    uint64_t tid;
    bool declared, from_meta;
    uint64_t iid;
    const tw_str *thread_id;
    const tw_str **stack;
    size_t depth, cap;
    size_t gc[64], ngc; /* depths at open GC records */
    bool gone;          /* its OS thread went to a thread that moved there */
} cthread;

static cthread *cthreads[4096];
static size_t ncthreads;
static uint64_t next_iid;
static int64_t cp_now; /* the time of the last record, which the reader stamps metadata with */
static int64_t cp_max; /* the latest time of any record */

static cthread *cthread_find(uint64_t tid) {
    for (size_t i = 0; i < ncthreads; i++)
        if (cthreads[i]->tid == tid && !cthreads[i]->gone) return cthreads[i];
    return NULL;
}

static cthread *cthread_of(uint64_t tid) {
    cthread *found = cthread_find(tid);
    if (found) return found;
    if (ncthreads == sizeof cthreads / sizeof cthreads[0]) exit(2);
    cthread *t = xalloc(sizeof *t);
    t->tid = tid;
    return cthreads[ncthreads++] = t;
}

static cthread *by_iid(uint64_t iid) {
    for (size_t i = 0; i < ncthreads; i++)
        if (cthreads[i]->declared && cthreads[i]->iid == iid) return cthreads[i];
    return NULL;
}

static void thread_meta(stream *out, cthread *t) {
    char buf[48], hex[24];
    snprintf(buf, sizeof buf, "managed thread %llu", (unsigned long long)t->iid);
    ev m = {.ts = cp_now, .tid = t->tid, .kind = TW_META, .name = S(TW_META_THREAD_NAME)};
    m.msg = dup_bytes(buf, strlen(buf));
    m.msg_len = strlen(buf);
    m.attrs = xalloc(2 * sizeof *m.attrs);
    m.attrs[0] = (attr){.key = S("iid"), .type = TW_ATTR_INT, .i = (int64_t)t->iid};
    if (t->thread_id) {
        m.attrs[1] = (attr){.key = S("thread_id"), .type = TW_ATTR_STR,
                            .s = dup_bytes(t->thread_id->s, t->thread_id->len),
                            .slen = t->thread_id->len};
    } else {
        snprintf(hex, sizeof hex, "0x%08llX", (unsigned long long)(t->iid + 1));
        m.attrs[1] = (attr){.key = S("thread_id"), .type = TW_ATTR_STR,
                            .s = dup_bytes(hex, strlen(hex)), .slen = strlen(hex)};
    }
    m.nattrs = 2;
    push(out, &m);
}

/* thr crt + thr aos the first time a record names the thread by internal id */
static void declare(stream *out, cthread *t, int64_t iid, const tw_str *thread_id) {
    if (t->declared) return;
    t->iid = iid >= 0 ? (uint64_t)iid : next_iid;
    if (t->iid >= next_iid) next_iid = t->iid + 1;
    t->declared = true;
    t->thread_id = thread_id;
    thread_meta(out, t);
}

static bool hex_text(const attr *a) {
    if (!a || a->type != TW_ATTR_STR || a->slen < 3 || a->s[0] != '0' ||
        (a->s[1] != 'x' && a->s[1] != 'X'))
        return false;
    for (size_t i = 2; i < a->slen; i++)
        if (!strchr("0123456789abcdefABCDEF", a->s[i])) return false;
    return a->slen <= 18;
}

static bool is_one_of(const tw_str *k, const char *keys) {
    for (const char *p = keys; *p;) {
        const char *bar = strchr(p, '|');
        if (k && (size_t)(bar - p) == k->len && memcmp(p, k->s, k->len) == 0) return true;
        p = bar + 1;
    }
    return false;
}

static bool own_counter(const ev *e) {
    return is(e->name, "samples") || is(e->name, "process CPU (us)") ||
           is(e->name, "thread CPU (us)") || starts(e->name, "alloc ") ||
           starts(e->name, "live ") || starts(e->name, "heap ");
}

static void project_coreprofiler(stream *in, stream *out) {
    if (info.has_origin) {
        int64_t wall = info.origin_ns - info.origin_ts;
        if (wall < 0) {
            lost |= TW_KEEP_ORIGIN;
            info.has_origin = false;
        } else {
            bool r = rounded;
            int64_t ms = round_to(wall, NS_MS);
            if (ms != wall) lost |= TW_KEEP_ORIGIN;
            rounded = r;
            info.origin_ns = ms;
            info.origin_ts = 0;
        }
    }
    bool have_pid = false, method = false, named_process = false;
    uint32_t pid = 0;
    if (info.has_pid) {
        have_pid = true;
        pid = info.pid;
    }
    info.has_pid = false;
    bool pid_checked = false;
    for (size_t i = 0; i < in->n; i++) {
        ev e = in->v[i];
        if (e.kind == TW_META && starts(e.name, "config.") && e.name->len > 7) {
            const char *k = e.name->s + 7;
            size_t kn = e.name->len - 7;
            bool token = true;
            for (size_t j = 0; j < kn; j++)
                if (k[j] == ' ' || k[j] == '\t' || k[j] == '\n' || k[j] == '\r') token = false;
            if (!token) {
                lost |= TW_KEEP_OWN;
                continue;
            }
            e.ts = cp_now;
            e.pid = 0;
            e.tid = 0;
            e.cat = NULL;
            e.nattrs = 0;
            e.has_value = false;
            if (kn == 16 && memcmp(k, "CollectionMethod", 16) == 0) method = true;
            push(out, &e);
            continue;
        }
        if (!method) {
            ev m = {.ts = cp_now, .kind = TW_META, .name = S("config.CollectionMethod"),
                    .msg = "Instrumentation", .msg_len = 15};
            push(out, &m);
            method = true;
        }
        if (!have_pid) {
            have_pid = true;
            pid = e.pid;
        }
        if (!pid_checked) { /* a log is one process, read back as process 0 */
            pid_checked = true;
            if (pid) lost |= TW_KEEP_PID;
        }
        if (e.pid != pid) {
            lost |= TW_KEEP_PROCESSES;
        }
        if (e.kind == TW_META) {
            const attr *ia = find(&e, "iid");
            if (is(e.name, TW_META_THREAD_NAME) && ia && ia->type == TW_ATTR_INT && ia->i >= 0 &&
                ia->i <= (int64_t)UINT32_MAX) {
                cthread *t = by_iid((uint64_t)ia->i);
                if (t && t->from_meta) {
                    if (t->tid != e.tid) {
                        cthread *holder = cthread_find(e.tid);
                        if (holder && holder != t && holder->depth) {
                            lost |= TW_KEEP_THREADS;
                            continue;
                        }
                        if (holder) holder->gone = true; /* the OS thread is t's now */
                        t->tid = e.tid;
                        thread_meta(out, t);
                    }
                    continue;
                }
                t = cthread_of(e.tid);
                if (t->declared) continue;
                const attr *ta = find(&e, "thread_id");
                const tw_str *tid_text = hex_text(ta) ? tw_intern(tab, ta->s, ta->slen) : NULL;
                int64_t iid = by_iid((uint64_t)ia->i) ? -1 : ia->i;
                t->from_meta = iid >= 0;
                declare(out, t, iid, tid_text);
                continue;
            }
            if (is(e.name, TW_META_PROCESS_NAME) && !named_process) {
                named_process = true;
                e.ts = cp_now;
                e.pid = 0;
                e.tid = 0;
                e.nattrs = 0;
                push(out, &e);
                continue;
            }
            lost |= kind_part(&e);
            continue;
        }
        if (e.ts < 0) {
            lost |= TW_KEEP_NEGATIVE;
            continue;
        }
        e.ts = round_to(e.ts, NS_MS);
        e.pid = 0;
        /* any event's, written or not: the writer carries it to the end */
        if (e.ts > cp_max) cp_max = e.ts;
        if (e.kind == TW_INSTANT) {
            if (!is(e.name, "pause") && !is(e.name, "resume")) {
                lost |= TW_KEEP_INSTANTS;
                continue;
            }
            if (e.cat) lost |= TW_KEEP_CATEGORIES;
            if (e.msg) lost |= TW_KEEP_MESSAGES;
            if (e.nattrs || e.has_value) lost |= TW_KEEP_ATTRIBUTES;
            e.tid = 0;
            e.cat = NULL;
            e.msg = NULL;
            e.nattrs = 0;
            e.has_value = false;
            cp_now = e.ts;
            push(out, &e);
            continue;
        }
        if (e.kind == TW_COUNTER) {
            if (!own_counter(&e) || !e.has_value || e.value < 0) {
                lost |= TW_KEEP_COUNTERS;
                continue;
            }
            if (is(e.name, "samples") && e.value == 0) continue;
            if (is(e.name, "thread CPU (us)") || starts(e.name, "alloc "))
                declare(out, cthread_of(e.tid), -1, NULL);
            cp_now = e.ts;
            push(out, &e);
            continue;
        }
        if (e.kind != TW_BEGIN && e.kind != TW_END) {
            lost |= kind_part(&e);
            continue;
        }
        if (e.msg) lost |= TW_KEEP_MESSAGES;
        if (e.cat) lost |= TW_KEEP_CATEGORIES;
        e.msg = NULL;
        e.cat = NULL;
        e.has_value = false;
        for (size_t k = 0; k < e.nattrs; k++)
            if (!is_one_of(e.attrs[k].key, "count|ip|reason|generations|status|"))
                lost |= TW_KEEP_ATTRIBUTES;
        cthread *t = cthread_of(e.tid);
        bool search = starts(e.name, "JIT search ");
        if (search || starts(e.name, "JIT ")) { /* jit records */
            const attr *st = find(&e, "status");
            bool ok = hex_text(st);
            char *s0 = ok ? dup_bytes(st->s, st->slen) : NULL;
            size_t n0 = ok ? st->slen : 0;
            e.nattrs = 0;
            if (e.kind == TW_END && !search) {
                e.attrs = xalloc(sizeof *e.attrs);
                e.attrs[0] = (attr){.key = S("status"), .type = TW_ATTR_STR,
                                    .s = ok ? s0 : dup_bytes("0x00000000", 10),
                                    .slen = ok ? n0 : 10};
                e.nattrs = 1;
            }
            cp_now = e.ts;
            push(out, &e);
            continue;
        }
        if (is(e.name, "GC")) {
            const attr *re = find(&e, "reason"), *ge = find(&e, "generations");
            if (e.kind == TW_BEGIN) {
                /* the grammar: induced or ?, four t/f flags */
                bool ok = re && ge && re->type == TW_ATTR_STR && ge->type == TW_ATTR_STR &&
                          ((re->slen == 1 && re->s[0] == '?') ||
                           (re->slen == 7 && memcmp(re->s, "induced", 7) == 0)) &&
                          ge->slen == 4;
                for (size_t k = 0; ok && k < ge->slen; k++) ok = ge->s[k] == 't' || ge->s[k] == 'f';
                if (!ok && (re || ge)) lost |= TW_KEEP_ATTRIBUTES; /* a frame without them */
                if (ok) { /* gch gcs */
                    keep_attrs(&e, "reason|generations|");
                    if (t->ngc == sizeof t->gc / sizeof t->gc[0]) exit(2);
                    t->gc[t->ngc++] = t->depth;
                    cp_now = e.ts;
                    push(out, &e);
                    continue;
                }
            } else if (t->ngc && !(t->depth > t->gc[t->ngc - 1] &&
                                   t->stack[t->depth - 1] == e.name)) { /* gch gcf */
                t->ngc--;
                e.nattrs = 0;
                cp_now = e.ts;
                push(out, &e);
                continue;
            }
        }
        if (e.kind == TW_BEGIN) {
            keep_attrs(&e, "count|ip|");
            const attr *c = find(&e, "count");
            if (c && (c->type != TW_ATTR_INT || c->i <= 0)) keep_attrs(&e, "ip|");
            declare(out, t, -1, NULL);
            if (t->depth == t->cap) {
                t->cap = t->cap ? 2 * t->cap : 16;
                t->stack = realloc(t->stack, t->cap * sizeof *t->stack);
                if (!t->stack) exit(2);
            }
            t->stack[t->depth++] = e.name;
            cp_now = e.ts;
            push(out, &e);
            continue;
        }
        e.nattrs = 0;
        size_t k = t->depth;
        while (k > 0 && t->stack[k - 1] != e.name) k--;
        if (!k) {
            lost |= TW_KEEP_NESTING;
            continue;
        }
        while (t->depth > k) { /* a stack only shrinks from the top */
            lost |= TW_KEEP_NESTING;
            ev x = e;
            x.name = t->stack[--t->depth];
            push(out, &x);
        }
        t->depth--;
        cp_now = e.ts;
        push(out, &e);
    }
    if (!method) {
        ev m = {.ts = cp_now, .kind = TW_META, .name = S("config.CollectionMethod"),
                .msg = "Instrumentation", .msg_len = 15};
        push(out, &m);
    }
    /* frames left open are closed at the last time of the log */
    for (size_t i = 0; i < ncthreads; i++) {
        cthread *t = cthreads[i];
        while (t->depth) {
            lost |= TW_KEEP_NESTING;
            ev x = {.ts = cp_max, .tid = t->tid, .kind = TW_END, .name = t->stack[--t->depth]};
            push(out, &x);
        }
    }
}

/* ---- text1, text1-bin ------------------------------------------------------- */

/* Area types (a handle's top nibble) and the writer's classes of names. */
enum { A_FUNCTION, A_LINE, A_VARIABLE, A_STATE, A_AUX, A_AUX_STATE };
enum { C_CODE, C_STATE, C_VARIABLE, C_AUX, C_AUX_STATE };

typedef struct tarea {
    int cls, type;
    const tw_str *name;
    uint32_t handle;
    const tw_str *text;    /* a line's source */
    const tw_str *var;     /* a state's variable */
    uint64_t v;            /* a state's value */
    bool unknown;          /* a state "VAR=?" */
} tarea;

typedef struct tthread {
    uint64_t tid;
    const tw_str *name, *var;
    bool code, state, listed;
    tarea **stack; /* open function and line areas (derived suspend and resume) */
    size_t depth, cap;
} tthread;

typedef struct trec { /* one timeline entry as the writer spools it */
    int64_t ts;
    uint64_t tid;
    tarea *a;
    char code;
    bool has_value;
    int64_t value;
} trec;

static tarea **tareas;
static size_t ntareas;
static uint32_t tnext[6];
static tthread **tthreads;
static size_t ntthreads;

static bool handle_used(uint32_t h) {
    for (size_t i = 0; i < ntareas; i++)
        if (tareas[i]->type != A_STATE && tareas[i]->type != A_AUX_STATE && tareas[i]->handle == h)
            return true;
    return false;
}

/* A free handle of `type`: `want` when it is one, else the next number. */
static uint32_t take_handle(int type, uint64_t want) {
    if (want >> 28 == (uint64_t)type && !handle_used((uint32_t)want)) return (uint32_t)want;
    for (;;) {
        uint32_t h = (uint32_t)type << 28 | tnext[type]++;
        if (!handle_used(h)) return h;
    }
}

static tarea *tarea_get(int cls, int type, const tw_str *name, uint64_t want, bool *created) {
    for (size_t i = 0; i < ntareas; i++)
        if (tareas[i]->cls == cls && tareas[i]->name == name) {
            *created = false;
            return tareas[i];
        }
    tarea *a = xalloc(sizeof *a);
    a->cls = cls;
    a->type = type;
    a->name = name;
    if (type != A_STATE && type != A_AUX_STATE) a->handle = take_handle(type, want);
    tareas = realloc(tareas, (ntareas + 1) * sizeof *tareas);
    if (!tareas) exit(2);
    tareas[ntareas++] = a;
    *created = true;
    return a;
}

static tthread *tthread_of(uint64_t tid) {
    for (size_t i = 0; i < ntthreads; i++)
        if (tthreads[i]->tid == tid) return tthreads[i];
    tthread *t = xalloc(sizeof *t);
    t->tid = tid;
    tthreads = realloc(tthreads, (ntthreads + 1) * sizeof *tthreads);
    if (!tthreads) exit(2);
    return tthreads[ntthreads++] = t;
}

static bool last_of(const tw_str *s, char c, size_t *at) {
    for (size_t i = s->len; i-- > 0;)
        if (s->s[i] == c) {
            *at = i;
            return true;
        }
    return false;
}

/* Hexadecimal as the Text1 reader takes it: optional 0x, at most 16
 * significant digits. */
static bool hex16(const char *s, size_t n, uint64_t *v) {
    if (n >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        s += 2;
        n -= 2;
    }
    while (n > 1 && s[0] == '0') {
        s++;
        n--;
    }
    if (n == 0 || n > 16) return false;
    uint64_t x = 0;
    for (size_t i = 0; i < n; i++) {
        const char *d = strchr("0123456789abcdef0123456789ABCDEF", s[i]);
        if (!s[i] || !d) return false;
        x = x << 4 | (uint64_t)((d - "0123456789abcdef0123456789ABCDEF") & 15);
    }
    *v = x;
    return true;
}

/* The area of a scope event, as the writer finds or makes it: a state
 * ("VAR=HEX" or "VAR=?" of category state or aux-state), a line
 * ("FUNCTION:LINE" of category line) or a function. */
static tarea *scope_of(const ev *e) {
    bool created, aux = is(e->cat, "aux-state"), unknown = false;
    size_t at;
    uint64_t v = 0;
    const tw_str *n = e->name;
    if ((aux || is(e->cat, "state")) && last_of(n, '=', &at) &&
        ((unknown = at + 2 == n->len && n->s[at + 1] == '?') ||
         hex16(n->s + at + 1, n->len - at - 1, &v))) {
        int st = aux ? A_AUX_STATE : A_STATE, vt = aux ? A_AUX : A_VARIABLE;
        tarea *a = tarea_get(aux ? C_AUX_STATE : C_STATE, st, n, 0, &created);
        if (!created) return a;
        /* a state track's tid is a state handle: its variable keeps the number */
        uint64_t want = e->tid >> 28 == (uint64_t)st ? (e->tid & 0x0FFFFFFF) | (uint64_t)vt << 28 : 0;
        tarea *p = tarea_get(aux ? C_AUX : C_VARIABLE, vt, tw_intern(tab, n->s, at), want, &created);
        a->var = p->name;
        a->v = unknown ? 0 : v;
        a->unknown = unknown;
        a->handle = (p->handle & 0x0FFFFFFFu) | (uint32_t)st << 28;
        return a;
    }
    if (is(e->cat, "line") && last_of(n, ':', &at)) {
        tarea *a = tarea_get(C_CODE, A_LINE, n, 0, &created);
        if (!created) return a;
        const tw_str *fn = tw_intern(tab, n->s, at);
        tarea_get(C_CODE, A_FUNCTION, fn, 0, &created);
        const attr *src = NULL;
        for (size_t i = 0; i < e->nattrs && !src; i++)
            if (is(e->attrs[i].key, "source") && e->attrs[i].type == TW_ATTR_STR) src = &e->attrs[i];
        a->text = src ? tw_intern(tab, src->s, src->slen) : fn;
        return a;
    }
    return tarea_get(C_CODE, A_FUNCTION, n, 0, &created);
}

static const char *const TCATS[6] = {"function", "line", "variable", "state", "aux", "aux-state"};

/* The thread of a timeline entry when read back. */
static uint64_t t1_tid(const trec *r, bool bin) {
    int type = r->a->type;
    if (type == A_STATE || type == A_AUX_STATE) return r->a->handle;
    if (!bin) return r->code == 'W' ? 0 : r->tid;
    return r->tid > 0xFF ? 0xFF : r->tid; /* a core index; 0xFF is the unknown core */
}

static void project_text1(stream *in, stream *out, bool bin) {
    if (info.has_origin) lost |= TW_KEEP_ORIGIN;
    if (info.has_pid) lost |= TW_KEEP_PID;
    bool had_pid = info.has_pid;
    info.has_origin = info.has_pid = false;
    trec *recs = xalloc(in->n * sizeof *recs);
    size_t nrec = 0;
    bool had_sr = false, have_total = false, first_seen = false;
    int64_t total = 0;
    uint32_t pid = 0;
    for (size_t i = 0; i < in->n; i++) {
        ev e = in->v[i];
        if (e.kind == TW_INSTANT) {
            lost |= TW_KEEP_INSTANTS;
            continue;
        }
        if (e.kind == TW_META) {
            bool tname = is(e.name, TW_META_THREAD_NAME);
            bool ttime = is(e.name, "text1.total_time") && e.has_value;
            if (is(e.name, "text1.statistics")) continue; /* recomputed: left out, see below */
            if (!tname && !ttime) {
                lost |= kind_part(&e);
                continue;
            }
            if (e.pid && !had_pid) lost |= TW_KEEP_PID;
            if (e.cat) lost |= TW_KEEP_CATEGORIES;
            if (e.nattrs || (tname && e.has_value)) lost |= TW_KEEP_ATTRIBUTES;
            if (ttime && e.msg) lost |= TW_KEEP_MESSAGES;
            if (ttime) {
                have_total = true;
                total = e.value;
            } else {
                tthread_of(e.tid)->name = tw_intern(tab, e.msg ? e.msg : "", e.msg ? e.msg_len : 0);
            }
            continue;
        }
        if (e.pid && !had_pid) lost |= TW_KEEP_PID;
        if (!first_seen) {
            first_seen = true;
            pid = e.pid;
        } else if (e.pid != pid) {
            lost |= TW_KEEP_PROCESSES;
        }
        if (e.msg) lost |= TW_KEEP_MESSAGES;
        trec r = {.ts = e.ts, .tid = e.tid};
        if (e.kind == TW_COUNTER) {
            bool aux = is(e.cat, "aux"), created;
            r.a = tarea_get(aux ? C_AUX : C_VARIABLE, aux ? A_AUX : A_VARIABLE, e.name, 0, &created);
            if (e.cat && !is(e.cat, TCATS[r.a->type])) lost |= TW_KEEP_CATEGORIES;
            if (e.nattrs) lost |= TW_KEEP_ATTRIBUTES;
            if (!e.has_value) lost |= TW_KEEP_COUNTERS; /* written as 0 */
            if (!bin && e.tid) lost |= TW_KEEP_THREADS;
            r.code = 'W';
            r.has_value = true;
            r.value = e.has_value ? e.value : 0;
        } else {
            tarea *a = r.a = scope_of(&e);
            if (e.cat && !is(e.cat, TCATS[a->type])) lost |= TW_KEEP_CATEGORIES;
            if (e.has_value) lost |= TW_KEEP_ATTRIBUTES;
            const attr *src = find(&e, "source");
            bool keep = e.kind == TW_BEGIN && a->type == A_LINE && src && src->type == TW_ATTR_STR &&
                        a->text && src->slen == a->text->len &&
                        memcmp(src->s, a->text->s, src->slen) == 0;
            if (e.nattrs > (keep ? 1u : 0u)) lost |= TW_KEEP_ATTRIBUTES;
            r.code = e.kind == TW_BEGIN ? 'E' : e.kind == TW_END ? 'X' : e.kind == TW_SUSPEND ? 'S' : 'R';
            if (r.code == 'S' || r.code == 'R') had_sr = true;
            if (a->type == A_STATE || a->type == A_AUX_STATE) {
                if (e.tid != a->handle) lost |= TW_KEEP_THREADS;
                if (e.tid >> 28 == (uint64_t)a->type) {
                    tthread *t = tthread_of(e.tid);
                    t->state = true;
                    if (e.tid == a->handle) t->var = a->var;
                }
                r.has_value = !a->unknown;
                r.value = (int64_t)a->v;
            } else {
                tthread_of(e.tid)->code = true;
            }
        }
        recs[nrec++] = r;
    }
    if (!have_total && nrec) {
        int64_t lo = recs[0].ts, hi = recs[0].ts;
        for (size_t i = 1; i < nrec; i++) {
            if (recs[i].ts < lo) lo = recs[i].ts;
            if (recs[i].ts > hi) hi = recs[i].ts;
        }
        total = hi >= 0 && lo < 0 && hi > INT64_MAX + lo ? INT64_MAX : hi - lo;
    }
    /* the INFO section */
    ev tt = {.kind = TW_META, .name = S("text1.total_time"), .value = total, .has_value = true};
    push(out, &tt);
    /* the CONTEXTS: threads with function or line events or a name, but state
     * tracks, in tid order; an unnamed one is "thread N", which is not read
     * back as a name; a .BIN's companion has them, but the reader names cores */
    for (size_t i = 0; i < ntthreads; i++) {
        tthread *t = tthreads[i];
        char core[32];
        if (t->state && t->name && t->name != t->var) lost |= TW_KEEP_NAMES;
        if (!(t->code || t->name) || t->state) continue;
        if (bin) {
            if (t->tid == 0xFF) snprintf(core, sizeof core, "unknown core");
            else snprintf(core, sizeof core, "core %llu", (unsigned long long)t->tid);
            if (t->name && !is(t->name, core)) lost |= TW_KEEP_NAMES;
        }
    }
    tthread **ctx = xalloc((ntthreads + 1) * sizeof *ctx);
    size_t nctx = 0;
    for (size_t n = 0; !bin && n < ntthreads; n++) {
        tthread *t = NULL;
        for (size_t i = 0; i < ntthreads; i++) { /* the next context in tid order */
            tthread *c = tthreads[i];
            if (!(c->code || c->name) || c->state || c->listed) continue;
            if (!t || c->tid < t->tid) t = c;
        }
        if (!t) break;
        t->listed = true;
        ctx[nctx++] = t;
    }
    /* context names are unique: unnamed ones are "thread N"; a name that an
     * earlier one (in tid order, unnamed ones first) has, or an empty one off
     * thread 0 when there is a CONTEXT column, or one that starts with "* "
     * (a section's header), becomes "thread N", else "thread N (2)", ... */
    const tw_str **written = xalloc((nctx + 1) * sizeof *written);
    bool multi = nctx > 1 || (nctx == 1 && ctx[0]->tid != 0);
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < nctx; i++) {
            tthread *t = ctx[i];
            char dflt[64];
            if (!t->name != !pass) continue;
            snprintf(dflt, sizeof dflt, "thread %llu", (unsigned long long)t->tid);
            const tw_str *nm = t->name ? oneline(t->name) : S(dflt);
            bool header = nm->len >= 2 && nm->s[0] == '*' && nm->s[1] == ' ';
            for (unsigned k = 1;; k++) {
                bool taken = header || (!nm->len && t->tid && multi);
                header = false;
                for (size_t j = 0; j < nctx && !taken; j++) taken = written[j] == nm;
                if (!taken) break;
                lost |= TW_KEEP_NAMES;
                if (k > 1) snprintf(dflt, sizeof dflt, "thread %llu (%u)", (unsigned long long)t->tid, k);
                nm = S(dflt);
            }
            written[i] = nm;
        }
    for (size_t i = 0; i < nctx; i++) {
        char dflt[32];
        snprintf(dflt, sizeof dflt, "thread %llu", (unsigned long long)ctx[i]->tid);
        if (is(written[i], dflt)) continue; /* what the writer calls an unnamed thread */
        ev m = {.tid = ctx[i]->tid, .kind = TW_META, .name = S(TW_META_THREAD_NAME),
                .msg = dup_bytes(written[i]->s, written[i]->len), .msg_len = written[i]->len};
        push(out, &m);
    }
    /* the TIMELINE, with suspend and resume derived from the nesting of
     * functions and lines on each thread when the stream had none */
    bool *seen_core = xalloc(256 * sizeof *seen_core);
    const tw_str **active = xalloc((ntareas + 1) * sizeof *active); /* by state area index */
    uint32_t *tracks = xalloc((ntareas + 1) * sizeof *tracks);
    size_t ntracks = 0;
    for (size_t i = 0; i < nrec; i++) {
        trec *r = &recs[i];
        bool code_area = r->a->type == A_FUNCTION || r->a->type == A_LINE;
        tthread *t = !had_sr && code_area ? tthread_of(r->tid) : NULL;
        trec all[3];
        size_t k = 0;
        if (t && r->code == 'E') {
            if (t->depth) all[k++] = (trec){.ts = r->ts, .tid = r->tid, .a = t->stack[t->depth - 1], .code = 'S'};
            if (t->depth == t->cap) {
                t->cap = t->cap ? 2 * t->cap : 8;
                t->stack = realloc(t->stack, t->cap * sizeof *t->stack);
                if (!t->stack) exit(2);
            }
            t->stack[t->depth++] = r->a;
        }
        all[k++] = *r;
        if (t && r->code == 'X') {
            size_t d = t->depth;
            while (d > 0 && t->stack[d - 1] != r->a) d--;
            if (d) {
                t->depth = d - 1;
                if (t->depth) all[k++] = (trec){.ts = r->ts, .tid = r->tid, .a = t->stack[t->depth - 1], .code = 'R'};
            }
        }
        for (size_t j = 0; j < k; j++) {
            const trec *x = &all[j];
            const tarea *a = x->a;
            uint64_t tid = t1_tid(x, bin);
            bool state = a->type == A_STATE || a->type == A_AUX_STATE;
            if (bin && !state && x->tid > 0xFF) lost |= TW_KEEP_IDS;
            if (bin && !state && !seen_core[tid]) { /* "core N" at a core's first record */
                char core[32];
                if (tid == 0xFF) snprintf(core, sizeof core, "unknown core");
                else snprintf(core, sizeof core, "core %llu", (unsigned long long)tid);
                seen_core[tid] = true;
                ev m = {.ts = x->ts, .tid = tid, .kind = TW_META, .name = S(TW_META_THREAD_NAME),
                        .msg = dup_bytes(core, strlen(core)), .msg_len = strlen(core)};
                push(out, &m);
            }
            ev o = {.ts = x->ts, .tid = tid};
            if (x->code == 'W') {
                o.kind = TW_COUNTER;
                o.name = oneline(a->name);
                o.cat = S(a->type == A_AUX ? "aux" : "variable");
                o.value = x->value;
                o.has_value = true;
                push(out, &o);
                continue;
            }
            o.kind = x->code == 'E' ? TW_BEGIN : x->code == 'X' ? TW_END
                   : x->code == 'S' ? TW_SUSPEND : TW_RESUME;
            o.cat = S(TCATS[a->type]);
            if (!state) {
                o.name = oneline(a->name);
                if (o.kind == TW_BEGIN && a->type == A_LINE) {
                    const tw_str *src = oneline(a->text);
                    o.attrs = xalloc(sizeof *o.attrs);
                    o.attrs[0] = (attr){.key = S("source"), .type = TW_ATTR_STR,
                                        .s = dup_bytes(src->s, src->len), .slen = src->len};
                    o.nattrs = 1;
                }
                push(out, &o);
                continue;
            }
            /* a state's track is its handle, named after its variable at its
             * first event; X, S and R take the name of the state last entered */
            size_t tr = 0;
            while (tr < ntracks && tracks[tr] != a->handle) tr++;
            if (tr == ntracks) {
                tracks[ntracks++] = a->handle;
                const tw_str *vn = oneline(a->var);
                ev m = {.ts = x->ts, .tid = a->handle, .kind = TW_META, .name = S(TW_META_THREAD_NAME),
                        .msg = dup_bytes(vn->s, vn->len), .msg_len = vn->len};
                push(out, &m);
            }
            const tw_str *name = oneline(a->name);
            if (bin && a->unknown) { /* a .BIN record always has data: state 0 */
                lost |= TW_KEEP_OWN;
                name = NULL;
                for (size_t q = 0; q < ntareas && !name; q++)
                    if (tareas[q]->type == a->type && tareas[q]->handle == a->handle &&
                        !tareas[q]->unknown && tareas[q]->v == 0)
                        name = oneline(tareas[q]->name);
                if (!name) {
                    char b[512];
                    const tw_str *vn = oneline(a->var);
                    snprintf(b, sizeof b, "%.*s=0", (int)vn->len, vn->s);
                    name = S(b);
                }
            }
            if (x->code == 'E') {
                active[tr] = name;
            } else {
                if (active[tr]) name = active[tr];
                if (x->code == 'X') active[tr] = NULL;
            }
            o.name = name;
            push(out, &o);
        }
    }
}

/* ---- reading and writing ---------------------------------------------- */

static void read_stream(stream *s) {
    static tw_diag_sink sink;
    tw_input *in;
    tw_reader *r;
    if (tw_input_open("-", NULL, &sink, &in) != 0 ||
        tw_reader_open(tw_format_find("jsonl"), in, tab, &sink, NULL, &r) != TW_OK) {
        fprintf(stderr, "project: cannot read the stream\n");
        exit(2);
    }
    info = *tw_reader_info(r);
    info.format = info.format ? strdup(info.format) : NULL;
    tw_event te;
    int rc;
    while ((rc = tw_reader_next(r, &te)) == TW_OK) {
        ev e = {.ts = te.ts, .tid = te.tid, .pid = te.pid, .kind = te.kind, .name = te.name,
                .cat = te.cat, .value = te.value, .has_value = te.has_value};
        if (te.msg) {
            e.msg = dup_bytes(te.msg, te.msg_len);
            e.msg_len = te.msg_len;
        }
        e.attrs = xalloc(te.nattrs * sizeof *e.attrs);
        e.nattrs = te.nattrs;
        for (size_t i = 0; i < te.nattrs; i++) {
            const tw_attr *a = &te.attrs[i];
            e.attrs[i] = (attr){.key = a->key, .type = a->type, .i = a->i};
            if (a->type == TW_ATTR_STR) {
                e.attrs[i].s = dup_bytes(a->s, a->slen);
                e.attrs[i].slen = a->slen;
            }
        }
        push(s, &e);
    }
    if (rc == TW_ERR || sink.count[TW_SEV_ERROR]) {
        fprintf(stderr, "project: the stream has errors\n");
        exit(2);
    }
    tw_reader_close(r);
    tw_input_close(in);
}

static void write_stream(const stream *s) {
    static tw_diag_sink sink;
    tw_output *o = tw_output_fd(1, "<stdout>");
    tw_writer *w;
    if (!o || tw_writer_open(tw_format_find("jsonl"), o, tab, &sink, NULL, &info, &w) != TW_OK)
        exit(2);
    for (size_t i = 0; i < s->n; i++) {
        const ev *e = &s->v[i];
        tw_attr a[64];
        size_t na = e->nattrs < 64 ? e->nattrs : 64;
        for (size_t k = 0; k < na; k++)
            a[k] = (tw_attr){.key = e->attrs[k].key, .type = e->attrs[k].type,
                             .i = e->attrs[k].i, .s = e->attrs[k].s, .slen = e->attrs[k].slen};
        tw_event te = {.ts = e->ts, .tid = e->tid, .pid = e->pid, .kind = e->kind,
                       .name = e->name, .cat = e->cat, .msg = e->msg, .msg_len = e->msg_len,
                       .value = e->value, .has_value = e->has_value, .attrs = a, .nattrs = na};
        if (tw_writer_event(w, &te) != TW_OK) exit(2);
    }
    if (tw_writer_finish(w) != TW_OK) exit(2);
    tw_writer_free(w);
    if (tw_output_close(o) != 0) exit(2);
}

/* ---- the conversion's report ---------------------------------------------- */

/* What an item of a lossy-conversion warning names, by its start. */
static const struct {
    const char *start;
    unsigned part;
} ITEMS[] = {
    {"thread ids renumbered", TW_KEEP_IDS},
    {"process ids renumbered", TW_KEEP_IDS},
    {"thread ids that are not core indexes", TW_KEEP_IDS},
    {"wall-clock origin", TW_KEEP_ORIGIN},
    {"sub-second part of the time origin", TW_KEEP_ORIGIN},
    {"time origin outside", TW_KEEP_ORIGIN},
    {"process id", TW_KEEP_PID},
    {"events of other processes", TW_KEEP_PROCESSES},
    {"events of a second process", TW_KEEP_PROCESSES},
    {"events of processes beyond", TW_KEEP_PROCESSES},
    {"threads merged into one", TW_KEEP_THREADS},
    {"thread ids", TW_KEEP_THREADS},
    {"events off thread 0", TW_KEEP_THREADS},
    {"events of threads beyond", TW_KEEP_THREADS},
    {"moves of threads", TW_KEEP_THREADS},
    {"events read back on the track", TW_KEEP_THREADS},
    {"events before time zero", TW_KEEP_NEGATIVE},
    {"instant events dropped", TW_KEEP_INSTANTS},
    {"suspend events dropped", TW_KEEP_SUSPEND},
    {"resume events dropped", TW_KEEP_SUSPEND},
    {"counter events dropped", TW_KEEP_COUNTERS},
    {"counters", TW_KEEP_COUNTERS},
    {"thread and process names", TW_KEEP_NAMES},
    {"thread names", TW_KEEP_NAMES},
    {"trace ends dropped", TW_KEEP_TRACE_END},
    {"categories", TW_KEEP_CATEGORIES},
    {"message texts", TW_KEEP_MESSAGES},
    {"messages", TW_KEEP_MESSAGES},
    {"event attributes", TW_KEEP_ATTRIBUTES},
    {"event values", TW_KEEP_ATTRIBUTES},
    {"line numbers outside", TW_KEEP_ATTRIBUTES},
    {"frame ips", TW_KEEP_ATTRIBUTES},
    {"ends without an open scope", TW_KEEP_NESTING},
    {"inner scopes ended", TW_KEEP_NESTING},
    {"scopes closed", TW_KEEP_NESTING},
    {"scopes left open", TW_KEEP_NESTING},
    {"metadata events dropped", TW_KEEP_OWN},
    {"states entered without a value", TW_KEEP_OWN},
    /* scope names and texts have no part of their own */
    {"names and texts longer than 65536 bytes cut to it", 0},
    /* out of the format's specification, nothing lost: names no part */
    {"times beyond the 32-bit tick count", 0},
    {"values beyond 32 bits", 0},
    {"times read back later by a multiple of 2^32 ms", 0},
    {"times pushed past 2^63 ns", 0},
};

static void codes(unsigned parts, char *buf, size_t n) {
    size_t off = 0;
    buf[0] = 0;
    for (unsigned b = 1; b & TW_KEEP_ALL; b <<= 1)
        if (parts & b && off < n)
            off += (size_t)snprintf(buf + off, n - off, "%s%s", off ? "," : "", tw_keep_code(b));
    if (!off) snprintf(buf, n, "-");
}

static int check_report(const char *path, const char *reader) {
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "project: cannot read %s\n", path);
        return 2;
    }
    char line[4096];
    int nlossy = 0, nprec = 0, bad = 0;
    unsigned named = 0;
    char prefix[128];
    snprintf(prefix, sizeof prefix, "tracewright: warning: the %s format cannot hold everything: ",
             wname);
    while (fgets(line, sizeof line, f)) {
        if (strstr(line, "[precision-loss]")) nprec++;
        if (!strstr(line, "[lossy-conversion]")) continue;
        nlossy++;
        if (strncmp(line, prefix, strlen(prefix)) != 0) {
            fprintf(stderr, "unexpected lossy-conversion warning: %s", line);
            bad = 1;
            continue;
        }
        /* items "WHAT (N)", separated by ", " */
        char *p = line + strlen(prefix), *end = strstr(p, " [lossy-conversion]");
        if (end) *end = 0;
        while (*p) {
            char *q = strstr(p, "), ");
            if (q) q[1] = 0;
            size_t k = 0;
            for (; k < sizeof ITEMS / sizeof ITEMS[0]; k++)
                if (strncmp(p, ITEMS[k].start, strlen(ITEMS[k].start)) == 0) break;
            if (k == sizeof ITEMS / sizeof ITEMS[0]) {
                fprintf(stderr, "loss item names no part: %s\n", p);
                bad = 1;
            } else {
                named |= ITEMS[k].part;
            }
            if (!q) break;
            p = q + 3;
        }
    }
    fclose(f);
    bool round_time;
    unsigned cell = tw_conversion_loses(tw_format_find(reader), tw_format_find(wname),
                                        &round_time, NULL);
    char a[128], b[128], c[128];
    codes(lost, a, sizeof a);
    codes(named, b, sizeof b);
    codes(cell, c, sizeof c);
    if (lost && nlossy != 1) {
        fprintf(stderr, "lost %s, but %d lossy-conversion warnings\n", a, nlossy);
        bad = 1;
    }
    if (!lost && nlossy && named) {
        fprintf(stderr, "lost nothing, but %d lossy-conversion warnings (naming %s)\n", nlossy, b);
        bad = 1;
    }
    if (nlossy == 1 && named != lost) {
        fprintf(stderr, "lost %s, but the warning names %s\n", a, b);
        bad = 1;
    }
    if (lost & ~cell) {
        codes(lost & ~cell, a, sizeof a);
        fprintf(stderr, "lost %s, which the matrix (%s) does not list for %s -> %s\n", a, c,
                reader, wname);
        bad = 1;
    }
    if (rounded != (nprec == 1) || nprec > 1) {
        fprintf(stderr, "%s times, but %d precision-loss warnings\n",
                rounded ? "rounded" : "did not round", nprec);
        bad = 1;
    }
    if (rounded && !round_time) {
        fprintf(stderr, "rounded times, which the matrix does not say for %s -> %s\n", reader,
                wname);
        bad = 1;
    }
    return bad;
}

int main(int argc, char **argv) {
    if (argc < 3 || argc > 4) {
        fprintf(stderr, "usage: project WRITER READER [WARNINGS] < IN.jsonl > OUT.jsonl\n");
        return 2;
    }
    wname = argv[1];
    const tw_format *w = tw_format_find(wname);
    if (!w || !tw_format_fidelity(w) || !tw_format_find(argv[2])) {
        fprintf(stderr, "project: unknown format\n");
        return 2;
    }
    wname = w->name;
    tab = tw_strtab_new();
    stream in = {0}, out = {0};
    read_stream(&in);
    info.format = w->name;
    info.resolution_ns = tw_format_fidelity(w)->write_clock_ns;
    if (strcmp(wname, "lms") == 0) project_lms(&in, &out);
    else if (strcmp(wname, "rtl") == 0) project_rtl(&in, &out);
    else if (strcmp(wname, "stacktrack") == 0) project_stacktrack(&in, &out);
    else if (strcmp(wname, "coreprofiler") == 0) project_coreprofiler(&in, &out);
    else if (strcmp(wname, "text1") == 0) project_text1(&in, &out, false);
    else if (strcmp(wname, "text1-bin") == 0) project_text1(&in, &out, true);
    else if (strcmp(wname, "jsonl") == 0) out = in;
    else {
        fprintf(stderr, "project: no projection for %s\n", wname);
        return 2;
    }
    write_stream(&out);
    return argc == 4 ? check_report(argv[3], argv[2]) : 0;
}
