/*
 * Chrome Trace Event Format, JSON object form, for Perfetto UI,
 * chrome://tracing, speedscope and the DevTools performance panel:
 *
 *   {"traceEvents":[
 *   {"ph":"M","name":"process_name","pid":1,"tid":0,"args":{"name":"app"}},
 *   {"ph":"B","name":"main","ts":0,"pid":1,"tid":1},
 *   {"ph":"E","name":"main","ts":12.5,"pid":1,"tid":1}
 *   ],
 *   "otherData":{"generator":"tracewright 0.1.0","source_format":"rtl",...}}
 *
 * One event per line, each thread's events together (the DevTools trace
 * engine pairs B and E in file order across threads): the first thread's
 * go straight to the output, the others' wait in a spool until the end, as
 * compact records (what rendering needs, in varints: the interned names by
 * id, times as differences; below, before spool_record()) that are
 * rendered then (on two threads when the caller allows them: replay_all()).
 * Scopes are B/E pairs (never X, so never mixed) made by the pairing
 * engine: every E repeats its B's name and category, and
 * input that does not nest is repaired the way `stats` repairs it, so the
 * output always nests.  Time on a thread never goes backwards in the output:
 * an event earlier than the one before it on its thread is moved forward to
 * that time (counted).  `ts` is in microseconds with up to three decimals,
 * printed from the integer ns; when the trace clock is too large for a
 * double to hold ns exactly (past 2^52 ns), times are written relative to a
 * whole second before the first event and that offset is in otherData.
 * Write-only.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "core/spool.h"
#include "formats.h"
#include "tracewright/stats.h"

typedef struct cthread {
    uint64_t wtid;    /* the tid written */
    char ids[48];     /* ,"pid":P,"tid":T as every event of the thread ends */
    size_t nids;
    int64_t last;     /* the latest ts written on the thread */
    bool have_last;
    bool named;       /* a thread_name was written */
    int64_t spooled;  /* the ts of its latest record in the spool's current
                       * piece (0: none yet) */
} cthread;

typedef struct chrome_writer {
    tw_write_ctx ctx;
    const tw_write_ctx *live; /* the writer's own, for its threads at the end */
    tw_diag_sink quiet;       /* the repairs of the pairing engine, counted */
    tw_pairing *pairing;
    const tw_event *cur;      /* the begin or end event being paired */
    bool end_used;            /* its data was written on an E event */
    tw_tidmap map;            /* (pid, tid) -> index in threads */
    cthread *threads;
    size_t tcap;
    size_t last;              /* index + 1 of the thread found last (0: none) */
    uint64_t next_wtid;       /* for tids beyond 32 bits: counts down */
    tw_u64map taken;          /* pid << 32 | written tid, of every thread */
    int64_t base;             /* subtracted from every ts */
    bool have_base;
    tw_output *ev;            /* an event rendered to be spooled as it is */
    tw_json_names names;      /* which names need no escaping */
    tw_spool *spool;          /* the other threads' events, until the end */
    tw_idcache byid;          /* the strings in its records, by id */
    bool replaying;           /* rendering spooled records: losses were
                               * counted when they were spooled, and the
                               * writer is only read (by two threads) */
    bool direct;              /* the output's opening and an event of the
                               * first thread were written */
    tw_buf meta;              /* otherData.metadata entries, JSON */
    uint64_t nmeta;
    bool failed;
} chrome_writer;

#define RENAMED "attributes named message or value renamed attr.NAME"

static void oom(chrome_writer *w) {
    if (!w->failed) tw_report(w->ctx.diag, TW_R_OUT_OF_MEMORY, NULL, "out of memory");
    w->failed = true;
}

static void not_utf8(chrome_writer *w) {
    tw_loss_add(w->ctx.loss, "names or texts with bytes that are not UTF-8 (written as U+FFFD)", 1);
}

static void json_str(chrome_writer *w, tw_output *o, const char *s, size_t n) {
    if (!tw_out_json_str(o, s, n) && !w->replaying) not_utf8(w);
}

/* An interned name; while replaying, with the cache only read (two threads
 * may render).  Inline for attribute keys and values (most of what
 * stacktrack's spooled events render), called for the others. */
static TW_INLINE void attr_name(chrome_writer *w, tw_output *o, const tw_str *s) {
    if (w->replaying) tw_out_json_name_known(o, &w->names, s);
    else if (!tw_out_json_name(o, &w->names, s)) not_utf8(w);
}

static void json_name(chrome_writer *w, tw_output *o, const tw_str *s) { attr_name(w, o, s); }

/* The thread of (pid, tid), when it is not the one found last; NULL when
 * out of memory. */
static TW_NOINLINE cthread *thread_find(chrome_writer *w, uint32_t pid, uint64_t tid) {
    bool created;
    if (!tw_grow(&w->threads, &w->tcap, w->map.n + 1, sizeof *w->threads, 8)) return NULL;
    int64_t i = tw_tidmap_index(&w->map, pid, tid, &created);
    if (i < 0) return NULL;
    cthread *t = &w->threads[i];
    if (created) {
        memset(t, 0, sizeof *t);
        /* viewers want ids that fit 32 bits; others get one counted down
         * from the top, and their real id is given in otherData.tid_map
         * (so does a real id that such a replacement took before it) */
        uint64_t want = tid;
        while (want > UINT32_MAX || tw_u64map_get(&w->taken, (uint64_t)pid << 32 | want))
            want = w->next_wtid--;
        t->wtid = want;
        if (!tw_u64map_put(&w->taken, (uint64_t)pid << 32 | want, t)) return NULL;
        int n = snprintf(t->ids, sizeof t->ids, ",\"pid\":%lu,\"tid\":%llu", (unsigned long)pid,
                         (unsigned long long)want);
        t->nids = (size_t)n;  /* at most 34 bytes: both ids fit 32 bits */
    }
    w->last = (size_t)i + 1;
    return t;
}

/* The thread of (pid, tid); NULL when out of memory. */
static inline cthread *thread_of(chrome_writer *w, uint32_t pid, uint64_t tid) {
    size_t c = w->last; /* an event and its hooks ask for one thread in a row */
    if (c && w->map.tids[c - 1] == tid && w->map.pids[c - 1] == pid) return &w->threads[c - 1];
    return thread_find(w, pid, tid);
}

/* ts in microseconds with up to three decimals, from integer ns, at p
 * (room for TS_MAX bytes: a sign, the integer part, 4 for the decimals);
 * returns the end. */
#define TS_MAX (1 + TW_U64_ROOM + 4)
static char *put_ts_at(char *p, int64_t ns) {
    uint64_t v = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;
    if (ns < 0) *p++ = '-';
    p = tw_put_u64(p, v / 1000);
    unsigned frac = (unsigned)(v % 1000);
    if (!frac) return p;
    p[0] = '.';
    p[1] = (char)('0' + frac / 100);
    p[2] = (char)('0' + frac / 10 % 10);
    p[3] = (char)('0' + frac % 10);
    p += 4;
    while (p[-1] == '0') p--;
    return p;
}

/* The time written for an event at v on thread t: never before the
 * thread's previous one (counted in chrome_event).  The first fixes the
 * base of every time written. */
static int64_t in_order(chrome_writer *w, cthread *t, int64_t v) {
    if (t->have_last && v < t->last) v = t->last;
    t->last = v;
    t->have_last = true;
    if (!w->have_base) {
        w->have_base = true;
        w->base = tw_view_base(v);
    }
    return v;
}

/* "KEY":VALUE of an attribute; `taken` (its key is one the object has
 * already): written as "attr.KEY", counted under `renamed` (NULL: not
 * counted). */
static TW_INLINE void put_attr(chrome_writer *w, tw_output *o, const tw_attr *a, bool taken,
                               const char *renamed) {
    if (taken) {
        char key[16];
        snprintf(key, sizeof key, "attr.%s", a->key->s);  /* "message", "value" or "name" */
        tw_out_json_str(o, key, strlen(key));
        if (renamed) tw_loss_add(w->ctx.loss, renamed, 1);
    } else {
        attr_name(w, o, a->key);
    }
    tw_out_putc(o, ':');
    if (a->type == TW_ATTR_INT) tw_out_i64(o, a->i);
    else if (a->str) attr_name(w, o, a->str);
    else json_str(w, o, a->s, a->slen);
}

/* ,"args":{...} with an event's message, attributes and counter value
 * (the caller knows it has one of them). */
static void put_args(chrome_writer *w, tw_output *o, const tw_event *ev, bool value) {
    tw_out_str(o, ",\"args\":{");
    const char *sep = "";
    if (value) {
        tw_out_str(o, "\"value\":");
        tw_out_i64(o, ev->value);
        sep = ",";
    }
    if (ev->msg) {
        tw_out_str(o, sep);
        tw_out_str(o, "\"message\":");
        json_str(w, o, ev->msg, ev->msg_len);
        sep = ",";
    }
    for (size_t i = 0; i < ev->nattrs; i++) {
        const tw_attr *a = &ev->attrs[i];
        tw_out_str(o, sep);
        /* JSON keys must be unique: the attribute gives way */
        bool taken =
            (value && tw_str_is(a->key, "value")) || (ev->msg && tw_str_is(a->key, "message"));
        put_attr(w, o, a, taken, w->replaying ? NULL : RENAMED);
        sep = ",";
    }
    tw_out_putc(o, '}');
}

/* One event object: {"ph":"P","name":..[,"cat":..][,"ts":..],"pid":..,"tid":..
 * (the thread's ids, formatted once)[,"s":"t"][,"args":{..}]}; ts is the
 * time to write, args NULL when there are none. */
static void render(chrome_writer *w, tw_output *o, char ph, const tw_str *name, const tw_str *cat,
                   const cthread *t, const int64_t *ts, const tw_event *args, bool value) {
    /* up to the args, in one piece when the names are known to need no
     * escaping (the usual case: each is looked at once, the first time);
     * else piece by piece: both branches write the same bytes */
    size_t most = 64 + TS_MAX + sizeof t->ids + name->len + (cat ? cat->len : 0), room;
    char *b;
    if (most <= 4096 && tw_json_name_plain(&w->names, name) &&
        (!cat || tw_json_name_plain(&w->names, cat)) && (b = tw_out_space(o, most, &room))) {
        char *p = b;
#define LIT(lit) (memcpy(p, (lit), sizeof(lit) - 1), p += sizeof(lit) - 1)
        LIT("{\"ph\":\"");
        *p++ = ph;
        LIT("\",\"name\":\"");
        memcpy(p, name->s, name->len);
        p += name->len;
        *p++ = '"';
        if (cat) {
            LIT(",\"cat\":\"");
            memcpy(p, cat->s, cat->len);
            p += cat->len;
            *p++ = '"';
        }
        if (ts) {
            LIT(",\"ts\":");
            p = put_ts_at(p, tw_view_time(*ts, w->base));
        }
        memcpy(p, t->ids, t->nids);
        p += t->nids;
        if (ph == 'i') LIT(",\"s\":\"t\"");
#undef LIT
        tw_out_commit(o, (size_t)(p - b));
    } else {
        tw_out_str(o, "{\"ph\":\"");
        tw_out_putc(o, ph);
        tw_out_str(o, "\",\"name\":");
        json_name(w, o, name);
        if (cat) {
            tw_out_str(o, ",\"cat\":");
            json_name(w, o, cat);
        }
        if (ts) {
            char tmp[TS_MAX];
            tw_out_str(o, ",\"ts\":");
            tw_out_write(o, tmp, (size_t)(put_ts_at(tmp, tw_view_time(*ts, w->base)) - tmp));
        }
        tw_out_write(o, t->ids, t->nids);
        if (ph == 'i') tw_out_str(o, ",\"s\":\"t\"");
    }
    if (args) put_args(w, o, args, value);
    tw_out_putc(o, '}');
}

#define HEAD "{\"traceEvents\":["  /* the output's opening */

/*
 * The other threads' events wait in their spool channel as records (read
 * back by this process only, so in the machine's own layout):
 *
 *   REC_JSON, n, n bytes                  an event rendered when it came
 *   ph, flags, [ts], name, [cat], [args]  an event to render at the end
 *
 * Numbers are unsigned LEB128 varints (signed ones zigzagged first): ts is
 * the difference from the thread's previous record's in the same piece of
 * the spool (tw_spool_piece(); from 0 for a piece's first: each piece can
 * be rendered on its own, by either of two threads at the end), small as a
 * thread's times never go backwards in the output, and a string (name,
 * cat, attribute key, interned attribute value) is its id doubled, looked
 * up in the writer's table of the strings it has spooled by id, or 1 and
 * a pointer to it when that table cannot hold it under its id (strings
 * live as long as their table).  Args are [value], [n, n bytes of
 * message], the attribute count, then per attribute its key, a type byte
 * (0 integer, 1 bytes, 2 interned string) and the integer, n and n bytes,
 * or the string.  A usual record of a begin or end with two attributes
 * takes some 16 bytes, where fixed fields took 56, and the spool's file
 * is written and read back that much faster.  Events with a transient
 * name (read once, gone by the end) are rendered when they come.  The
 * losses of rendering (bytes that are not UTF-8, renamed keys) are counted
 * when a record is made, in the order rendering would count them.
 */
enum { REC_JSON = 0 };
enum { F_TS = 1, F_CAT = 2, F_ARGS = 4, F_VALUE = 8, F_MSG = 16 };
#define UV_MAX 10              /* bytes of a varint of 64 bits */
#define REF_MAX (1 + sizeof(void *))  /* of a string in a record */

/* Append n bytes at *p (room was made). */
#define PUT(p, src, n)               \
    do {                             \
        memcpy((p), (src), (n));     \
        (p) += (n);                  \
    } while (0)

static inline char *put_uv(char *p, uint64_t v) {
    if (v < 0x80) {  /* the usual lengths without a loop */
        *p = (char)v;
        return p + 1;
    }
    if (v < 0x4000) {
        p[0] = (char)(v | 0x80);
        p[1] = (char)(v >> 7);
        return p + 2;
    }
    if (v < 0x200000) {  /* (a time in ns a millisecond on) */
        p[0] = (char)(v | 0x80);
        p[1] = (char)(v >> 7 | 0x80);
        p[2] = (char)(v >> 14);
        return p + 3;
    }
    while (v >= 0x80) {
        *p++ = (char)(v | 0x80);
        v >>= 7;
    }
    *p++ = (char)v;
    return p;
}

static inline uint64_t zigzag(int64_t v) {
    return ((uint64_t)v << 1) ^ (0 - ((uint64_t)v >> 63));
}

static inline int64_t unzigzag(uint64_t v) { return (int64_t)((v >> 1) ^ (0 - (v & 1))); }

/* A string in a record (see above). */
static TW_NOINLINE bool learn_id(chrome_writer *w, const tw_str *s) {
    if (s->id >= TW_IDCACHE_MAX || tw_idcache_get(&w->byid, s->id)) return false;
    tw_idcache_set(&w->byid, s->id, (void *)s);
    return tw_idcache_get(&w->byid, s->id) == s;  /* (not when it could not grow) */
}

static inline char *put_ref(chrome_writer *w, char *p, const tw_str *s) {
    if (tw_idcache_get(&w->byid, s->id) == s || learn_id(w, s))
        return put_uv(p, (uint64_t)s->id << 1);
    *p++ = 1;
    PUT(p, &s, sizeof s);
    return p;
}

static void name_loss(chrome_writer *w, const tw_str *s) {
    if (!tw_json_name_valid(&w->names, s)) not_utf8(w);
}

static void text_loss(chrome_writer *w, const char *s, size_t n) {
    if (!tw_utf8_valid(s, n)) not_utf8(w);
}

static void spool_failed(chrome_writer *w) {
    if (!w->failed)
        tw_report(w->ctx.diag, TW_R_IO_ERROR, NULL, "cannot keep the threads' events: %s",
                  tw_spool_error_text(w->spool));
    w->failed = true;
}

/* Room for a record of up to n bytes in thread t's channel, *ch its
 * number; NULL when the spool failed (reported).  A record that starts a
 * piece of the spool takes its time from 0. */
static TW_INLINE char *spool_room(chrome_writer *w, cthread *t, size_t n, size_t *ch) {
    *ch = (size_t)(t - w->threads);
    char *p = w->failed ? NULL : tw_spool_space(w->spool, *ch, n);
    if (!p) spool_failed(w);
    else if (tw_spool_fresh(w->spool, *ch)) t->spooled = 0;
    return p;
}

/* Spool the record of an event of thread t for render(), its losses
 * counted as render() would count them; false, having done nothing, when
 * its names are not all interned. */
static bool spool_record(chrome_writer *w, cthread *t, char ph, const tw_str *name,
                         const tw_str *cat, const int64_t *ts, const tw_event *args, bool value) {
    if (tw_str_transient(name) || (cat && tw_str_transient(cat))) return false;
    size_t size = 2 + UV_MAX + 2 * REF_MAX;
    if (args) {
        size += 3 * UV_MAX + args->msg_len;
        for (size_t i = 0; i < args->nattrs; i++) {
            if (tw_str_transient(args->attrs[i].key)) return false;
            size += 2 * REF_MAX + UV_MAX + args->attrs[i].slen;
        }
    }
    size_t ch;
    char *p = spool_room(w, t, size, &ch), *start = p;
    if (!p) return true;  /* nothing is spooled (failed) */
    *p++ = ph;
    *p++ = (char)((ts ? F_TS : 0) | (cat ? F_CAT : 0) | (args ? F_ARGS : 0) | (value ? F_VALUE : 0) |
                  (args && args->msg ? F_MSG : 0));
    if (ts) {
        p = put_uv(p, (uint64_t)*ts - (uint64_t)t->spooled);
        t->spooled = *ts;
    }
    p = put_ref(w, p, name);
    name_loss(w, name);
    if (cat) {
        p = put_ref(w, p, cat);
        name_loss(w, cat);
    }
    if (args) {
        if (value) p = put_uv(p, zigzag(args->value));
        if (args->msg) {
            p = put_uv(p, args->msg_len);
            PUT(p, args->msg, args->msg_len);
            text_loss(w, args->msg, args->msg_len);
        }
        p = put_uv(p, args->nattrs);
        for (size_t i = 0; i < args->nattrs; i++) {
            const tw_attr *a = &args->attrs[i];
            p = put_ref(w, p, a->key);
            if ((value && tw_str_is(a->key, "value")) ||
                (args->msg && tw_str_is(a->key, "message")))
                tw_loss_add(w->ctx.loss, RENAMED, 1);
            else
                name_loss(w, a->key);
            const tw_str *named = tw_attr_interned(a);
            *p++ = (char)(a->type == TW_ATTR_INT ? 0 : named ? 2 : 1);
            if (a->type == TW_ATTR_INT) {
                p = put_uv(p, zigzag(a->i));
            } else if (named) {
                p = put_ref(w, p, named);
                name_loss(w, named);
            } else {
                p = put_uv(p, a->slen);
                PUT(p, a->s, a->slen);
                text_loss(w, a->s, a->slen);
            }
        }
    }
    if (!tw_spool_commit(w->spool, ch, (size_t)(p - start))) spool_failed(w);
    return true;
}

/* Where an event of thread t is rendered: the output for the first thread
 * (after the separator), else the scratch that spool_rendered() keeps. */
static tw_output *target(chrome_writer *w, const cthread *t) {
    if (t != w->threads) {
        w->ev->len = 0;
        return w->ev;
    }
    tw_output *o = w->ctx.out;
    tw_out_str(o, w->direct ? ",\n" : HEAD "\n");
    w->direct = true;
    return o;
}

/* Spool what target() gave to render thread t's event in (if not the
 * output). */
static void spool_rendered(chrome_writer *w, cthread *t) {
    if (t == w->threads) return;
    size_t n;
    const char *p = tw_output_mem_data(w->ev, &n);
    if (w->ev->err) {
        oom(w);
        return;
    }
    size_t ch;
    char *q = spool_room(w, t, 1 + UV_MAX + n, &ch), *start = q;
    if (!q) return;
    *q++ = REC_JSON;
    q = put_uv(q, n);
    PUT(q, p, n);
    if (!tw_spool_commit(w->spool, ch, (size_t)(q - start))) spool_failed(w);
}

/* An event of thread t, at time *ts (NULL: none), with the message,
 * attributes and value (when `value`) of args (NULL: none). */
static void emit(chrome_writer *w, cthread *t, char ph, const tw_str *name, const tw_str *cat,
                 const int64_t *ts, const tw_event *args, bool value) {
    int64_t v = ts ? in_order(w, t, *ts) : 0;
    if (ts) ts = &v;
    if (args && !args->msg && !args->nattrs && !value) args = NULL;
    if (t != w->threads && spool_record(w, t, ph, name, cat, ts, args, value)) return;
    render(w, target(w, t), ph, name, cat, t, ts, args, value);
    spool_rendered(w, t);
}

/* A varint at p, before e, the long way: the end, or NULL. */
static TW_NOINLINE const char *take_uv_long(const char *p, const char *e, uint64_t *v) {
    uint64_t x = 0;
    for (unsigned shift = 0; p < e && shift < 64; shift += 7) {
        unsigned char c = (unsigned char)*p++;
        x |= (uint64_t)(c & 0x7f) << shift;
        if (!(c & 0x80)) {
            *v = x;
            return p;
        }
    }
    return NULL;
}

/* A varint at p, before e: the end, or NULL when it does not end there. */
static TW_INLINE const char *take_uv(const char *p, const char *e, uint64_t *v) {
    if (e - p >= 3) {  /* the usual lengths without a loop */
        unsigned c0 = (unsigned char)p[0], c1 = (unsigned char)p[1], c2 = (unsigned char)p[2];
        if (!(c0 & 0x80)) {
            *v = c0;
            return p + 1;
        }
        if (!(c1 & 0x80)) {
            *v = (c0 & 0x7f) | c1 << 7;
            return p + 2;
        }
        if (!(c2 & 0x80)) {
            *v = (c0 & 0x7f) | (c1 & 0x7f) << 7 | c2 << 14;
            return p + 3;
        }
    }
    return take_uv_long(p, e, v);
}

static TW_INLINE const char *take_ref(const chrome_writer *w, const char *p, const char *e, const tw_str **s) {
    uint64_t v;
    if (!(p = take_uv(p, e, &v))) return NULL;
    if (v != 1) {
        *s = v & 1 ? NULL : tw_idcache_get(&w->byid, v >> 1);
        return *s ? p : NULL;
    }
    if ((size_t)(e - p) < sizeof *s) return NULL;
    memcpy(s, p, sizeof *s);
    return p + sizeof *s;
}

#define TAKE_UV(dst)                                \
    do {                                            \
        uint64_t v_;                                \
        if (!(p = take_uv(p, e, &v_))) goto bad;    \
        (dst) = v_;                                 \
    } while (0)
#define TAKE_REF(dst)                               \
    do {                                            \
        if (!(p = take_ref(w, p, e, &(dst)))) goto bad; \
    } while (0)
#define TAKE_TEXT(ptr, len)                    \
    do {                                       \
        TAKE_UV(len);                          \
        if ((size_t)(e - p) < (len)) goto bad; \
        (ptr) = p;                             \
        p += (len);                            \
    } while (0)

/*
 * What one thread keeps while it renders spooled records.  Two may render
 * at once (see replay_all()): each its own pieces into its own output,
 * reading the writer only.
 */
typedef struct replayer {
    chrome_writer *w;    /* only read while it replays (w->replaying) */
    tw_output *o;
    const cthread *t;    /* the thread of the piece's channel */
    int64_t ts;          /* of the latest record of the piece */
    bool sep;            /* the channel has had an event */
    tw_attr *attrs;      /* of the record being rendered */
    size_t attrs_cap;
    bool bad, oom;       /* a record did not read back; out of memory */
} replayer;

/* Ready r for a piece of thread t's channel: its first when `first`, with
 * a comma before it when `lead` (events came before the channel's). */
static void piece_start(replayer *r, const cthread *t, bool first, bool lead) {
    r->t = t;
    r->ts = 0;
    r->sep = !first;  /* (every piece holds a record) */
    if (lead) tw_out_putc(r->o, ',');
}

/* Render the records from p to e, or, for an output in memory, until it
 * holds `limit` bytes or more (the record that crosses it is whole): where
 * it stopped (e when done), or NULL (r->bad or r->oom). */
static const char *replay_piece(replayer *r, const char *p, const char *e, size_t limit) {
    chrome_writer *w = r->w;
    tw_output *o = r->o;
    while (p < e && o->len < limit) {
        tw_out_str(o, r->sep ? ",\n" : "\n");
        r->sep = true;
        unsigned char ph = (unsigned char)*p++, fl;
        if (ph == REC_JSON) {
            const char *text;
            size_t len;
            TAKE_TEXT(text, len);
            tw_out_write(o, text, len);
            continue;
        }
        if (p == e) goto bad;
        fl = (unsigned char)*p++;
        const tw_str *name, *cat = NULL;
        if (fl & F_TS) {
            uint64_t d;
            TAKE_UV(d);
            r->ts = (int64_t)((uint64_t)r->ts + d);
        }
        TAKE_REF(name);
        if (fl & F_CAT) TAKE_REF(cat);
        tw_event a;  /* what put_args() reads of an event */
        a.msg = NULL;
        a.msg_len = 0;
        a.value = 0;
        a.attrs = NULL;
        a.nattrs = 0;
        if (fl & F_ARGS) {
            uint64_t u;
            if (fl & F_VALUE) {
                TAKE_UV(u);
                a.value = unzigzag(u);
            }
            if (fl & F_MSG) TAKE_TEXT(a.msg, a.msg_len);
            size_t na;
            TAKE_UV(na);
            if (na > (size_t)(e - p) / 3) goto bad;  /* (each takes 3 bytes or more) */
            if (!tw_grow(&r->attrs, &r->attrs_cap, na, sizeof *r->attrs, 4)) {
                r->oom = true;
                return NULL;
            }
            for (size_t i = 0; i < na; i++) {
                tw_attr *at = &r->attrs[i];
                *at = (tw_attr){0};
                TAKE_REF(at->key);
                if (p == e) goto bad;
                unsigned char type = (unsigned char)*p++;
                if (type == 0) {
                    TAKE_UV(u);
                    at->i = unzigzag(u);
                } else if (type == 2) {
                    at->type = TW_ATTR_STR;
                    TAKE_REF(at->str);
                    at->s = at->str->s;
                    at->slen = at->str->len;
                } else {
                    at->type = TW_ATTR_STR;
                    TAKE_TEXT(at->s, at->slen);
                }
            }
            a.attrs = r->attrs;
            a.nattrs = na;
        }
        render(w, o, (char)ph, name, cat, r->t, fl & F_TS ? &r->ts : NULL,
               fl & F_ARGS ? &a : NULL, fl & F_VALUE);
    }
    return p;
bad:
    r->bad = true;
    return NULL;
}

#undef TAKE_UV
#undef TAKE_REF
#undef TAKE_TEXT

/*
 * The second thread of the replay (tw_write_ctx.threads 2): it renders
 * a piece of the spool into memory while the writer's thread renders the
 * one before it into the output, which then writes the helper's bytes
 * after its own, and so on, each a piece in turn.  The helper stops at
 * HELP_LIMIT bytes of output or more (a piece of records that name long
 * strings can make far more), so its buffer holds a megabyte and the
 * record that crosses it, whatever the records; the writer's thread
 * renders the rest of that piece: at once when little is left (the helper
 * would wait for it otherwise), else as its share while the helper takes
 * the next piece.
 */
#define HELP_LIMIT ((size_t)1 << 20)
/* Polls of a hand-over before a thread sleeps on it (a piece takes some
 * 0.1 ms to render; waking a sleeping thread can take half as long). */
#define HELP_SPINS 4096

typedef struct helper {
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t go, done;
    atomic_bool job;        /* set and cleared under mu, also polled */
    bool quit;              /* under mu */
    replayer r;             /* its output is memory */
    const char *p, *e;      /* the piece to render */
    const char *stop;       /* where it stopped (NULL: r.bad or r.oom) */
    tw_buf in;              /* the piece's bytes, when from the file */
} helper;

/* Poll h->job until it is `want` or HELP_SPINS polls have passed. */
static void poll_job(helper *h, bool want) {
    for (int i = 0; i < HELP_SPINS; i++) {
        if (atomic_load_explicit(&h->job, memory_order_acquire) == want) return;
        tw_cpu_relax();
    }
}

static void *help(void *arg) {
    helper *h = arg;
    for (;;) {
        poll_job(h, true);
        pthread_mutex_lock(&h->mu);
        while (!atomic_load(&h->job) && !h->quit) pthread_cond_wait(&h->go, &h->mu);
        bool job = atomic_load(&h->job);
        pthread_mutex_unlock(&h->mu);
        if (!job) break;
        h->stop = replay_piece(&h->r, h->p, h->e, HELP_LIMIT);
        if (h->stop && h->r.o->err) {  /* its memory */
            h->r.oom = true;
            h->stop = NULL;
        }
        pthread_mutex_lock(&h->mu);
        atomic_store(&h->job, false);
        pthread_cond_signal(&h->done);
        pthread_mutex_unlock(&h->mu);
    }
    return NULL;
}

/* Start the helper; false (nothing to undo) when it cannot be. */
static bool helper_start(helper *h, chrome_writer *w) {
    memset(h, 0, sizeof *h);
    atomic_init(&h->job, false);
    h->r.w = w;
    if (!(h->r.o = tw_output_mem())) return false;
    if (pthread_mutex_init(&h->mu, NULL) != 0) goto no_mu;
    if (pthread_cond_init(&h->go, NULL) != 0) goto no_go;
    if (pthread_cond_init(&h->done, NULL) != 0) goto no_done;
    if (pthread_create(&h->thread, NULL, help, h) == 0) return true;
    pthread_cond_destroy(&h->done);
no_done:
    pthread_cond_destroy(&h->go);
no_go:
    pthread_mutex_destroy(&h->mu);
no_mu:
    tw_output_close(h->r.o);
    return false;
}

static void helper_post(helper *h, const char *p, size_t n) {
    h->p = p;
    h->e = p + n;
    pthread_mutex_lock(&h->mu);
    atomic_store(&h->job, true);
    pthread_cond_signal(&h->go);
    pthread_mutex_unlock(&h->mu);
}

static void helper_wait(helper *h) {
    poll_job(h, false);
    pthread_mutex_lock(&h->mu);
    while (atomic_load(&h->job)) pthread_cond_wait(&h->done, &h->mu);
    pthread_mutex_unlock(&h->mu);
}

static void helper_stop(helper *h) {
    pthread_mutex_lock(&h->mu);
    h->quit = true;
    pthread_cond_signal(&h->go);
    pthread_mutex_unlock(&h->mu);
    pthread_join(h->thread, NULL);
    pthread_cond_destroy(&h->done);
    pthread_cond_destroy(&h->go);
    pthread_mutex_destroy(&h->mu);
    tw_output_close(h->r.o);
    tw_buf_free(&h->in);
    free(h->r.attrs);
}

/* The pieces of the spooled channels (threads 1, 2, ... with events), in
 * the order they are written. */
typedef struct pieces {
    chrome_writer *w;
    size_t ch;              /* the channel read */
    tw_spool_cursor cur;
    bool any;               /* events came before this piece's channel */
    bool failed;            /* the spool failed (tw_spool_error_text) */
} pieces;

/* The next piece into b (or in place): true with *p, *n, its thread, and
 * whether it is its channel's first and a comma leads it. */
static bool next_piece(pieces *ps, tw_buf *b, const char **p, size_t *n, const cthread **t,
                       bool *first, bool *lead) {
    chrome_writer *w = ps->w;
    while (ps->ch < w->map.n) {
        bool starting = !ps->cur.started;
        int r = tw_spool_piece(w->spool, &ps->cur, b, p, n);
        if (r > 0) {
            *t = &w->threads[ps->ch];
            *first = starting;
            *lead = starting && ps->any;
            ps->any = true;
            return true;
        }
        if (r < 0) {
            ps->failed = true;
            return false;
        }
        ps->cur = tw_spool_cursor_at(++ps->ch);
    }
    return false;
}

/* Render every spooled record into the output, on two threads when the
 * writer may use them and the spool holds more than a chunk. */
static bool replay_all(chrome_writer *w) {
    pieces ps = {.w = w, .ch = 1, .cur = tw_spool_cursor_at(1), .any = w->direct};
    replayer r = {.w = w, .o = w->ctx.out};
    size_t spooled = 0;
    for (size_t i = 1; i < w->map.n; i++) spooled += tw_spool_size(w->spool, i);
    helper h;
    bool two = w->live->threads >= 2 && spooled > w->spool->chunk_size;
    w->replaying = true;
    if (two && !helper_start(&h, w)) two = false;
    if (two) *w->ctx.threads_used = 2;
    /* this thread renders from p to e (a piece, or the rest of one the
     * helper began) while the helper renders the piece after it */
    tw_buf mine = {0};
    const char *p = NULL, *e = NULL, *q;
    size_t n, m;
    const cthread *t, *u;
    bool first, lead, rest = false;
    for (;;) {
        if (!rest) {
            if (!next_piece(&ps, &mine, &p, &n, &t, &first, &lead)) break;
            piece_start(&r, t, first, lead);
            e = p + n;
        }
        rest = false;
        bool handed = two && next_piece(&ps, &h.in, &q, &m, &u, &first, &lead);
        if (handed) {
            h.r.o->len = 0;
            piece_start(&h.r, u, first, lead);
            helper_post(&h, q, m);
        }
        bool ok = replay_piece(&r, p, e, SIZE_MAX) != NULL;
        if (handed) helper_wait(&h);
        if (!ok) break;
        if (!handed) continue;
        if (!h.stop) {
            r.bad = h.r.bad;
            r.oom = h.r.oom;
            break;
        }
        /* its output after this one's, straight from its buffer (with no
         * copy when it fills the output's buffer or more) */
        size_t len;
        const char *text = tw_output_mem_data(h.r.o, &len);
        tw_output *o = w->ctx.out;
        if (o->fd >= 0 && len >= o->cap) (void)tw_output_flush(o);
        tw_out_write(o, text, len);
        if (h.stop == h.e) continue;
        /* it stopped at its limit: the rest of the piece here, from where
         * it was */
        r.t = h.r.t;
        r.ts = h.r.ts;
        r.sep = h.r.sep;
        if ((size_t)(h.e - h.stop) * 2 < (size_t)(h.stop - h.p)) {
            /* little is left: at once, then a piece of its own as usual */
            if (!replay_piece(&r, h.stop, h.e, SIZE_MAX)) break;
        } else {
            /* much: as its share while the helper goes on to the next
             * piece (the bytes kept here) */
            tw_buf keep = mine;
            mine = h.in;
            h.in = keep;
            p = h.stop;
            e = h.e;
            rest = true;
        }
    }
    if (two) helper_stop(&h);
    tw_buf_free(&mine);
    free(r.attrs);
    w->replaying = false;
    if (ps.failed) {
        tw_report(w->ctx.diag, TW_R_IO_ERROR, NULL, "cannot read back the threads' events: %s",
                  tw_spool_error_text(w->spool));
        return false;
    }
    if (r.oom) {
        oom(w);
        return false;
    }
    if (r.bad) {
        tw_report(w->ctx.diag, TW_R_IO_ERROR, NULL,
                  "cannot read back the threads' events: the temporary file changed");
        return false;
    }
    return !w->failed;
}

static void on_open(void *user, const tw_frame *f) {
    chrome_writer *w = user;
    cthread *t = thread_of(w, f->pid, f->tid);
    if (!t) {
        oom(w);
        return;
    }
    emit(w, t, 'B', f->name, f->cat, &f->begin,
         w->cur && w->cur->kind == TW_BEGIN ? w->cur : NULL, false);
}

static void on_close(void *user, const tw_frame *f, int64_t end, tw_close_how how,
                     const tw_scope_times *tm) {
    chrome_writer *w = user;
    (void)how;
    (void)tm;
    cthread *t = thread_of(w, f->pid, f->tid);
    if (!t) {
        oom(w);
        return;
    }
    /* the end event's own data, on the scope it ends (viewers merge it) */
    const tw_event *own = NULL;
    if (w->cur && w->cur->kind == TW_END && w->cur->name == f->name && !w->end_used) {
        own = w->cur;
        w->end_used = true;
    }
    emit(w, t, 'E', f->name, f->cat, &end, own, false);
    if (own && own->cat && own->cat != f->cat)
        tw_loss_add(w->ctx.loss, "categories of end events that differ from their begin's", 1);
}

static int chrome_begin(const tw_write_ctx *ctx, void **state) {
    chrome_writer *w = tw_state_alloc(ctx->diag, sizeof *w);
    if (!w) return TW_ERR;
    w->ctx = *ctx;
    w->live = ctx;
    w->next_wtid = UINT32_MAX;
    tw_pairing_hooks h = {.user = w, .open = on_open, .close = on_close};
    w->pairing = tw_pairing_new(&h, &w->quiet);
    w->ev = tw_output_mem();
    w->spool = tw_spool_new(0);
    if (!w->pairing || !w->ev || !w->spool) {
        tw_pairing_free(w->pairing);
        if (w->ev) tw_output_close(w->ev);
        tw_spool_free(w->spool);
        free(w);
        tw_report(ctx->diag, TW_R_OUT_OF_MEMORY, NULL, "out of memory");
        return TW_ERR;
    }
    *state = w;
    return TW_OK;
}

/* A metadata event's attributes, written as put_args() writes an event's,
 * separated by commas (one before the first too when `lead`); an attribute
 * whose key is `taken` (a key the object has already, or NULL) is written
 * as attr.KEY, counted under `renamed`.
 * Metadata is rendered when it comes, never replayed: losses are counted
 * here. */
static void put_meta_attrs(chrome_writer *w, tw_output *o, const tw_event *ev, bool lead,
                           const char *taken, const char *renamed) {
    for (size_t i = 0; i < ev->nattrs; i++) {
        const tw_attr *a = &ev->attrs[i];
        if (i || lead) tw_out_putc(o, ',');
        put_attr(w, o, a, taken && tw_str_is(a->key, taken), renamed);
    }
}

/* What neither an M event nor an otherData.metadata entry holds of a
 * metadata event. */
static void meta_loss(chrome_writer *w, const tw_event *ev) {
    if (ev->cat) tw_loss_add(w->ctx.loss, "categories of metadata events dropped", 1);
    if (ev->has_value) tw_loss_add(w->ctx.loss, "counter values of metadata events dropped", 1);
}

/* A metadata entry other than a name, kept for otherData.metadata, its
 * attributes in "args". */
static TW_NOINLINE void keep_meta(chrome_writer *w, const tw_event *ev) {
    tw_output *o = tw_output_mem();
    if (!o) {
        oom(w);
        return;
    }
    tw_out_str(o, w->nmeta ? ",\n{\"ts\":" : "\n{\"ts\":");
    tw_out_i64(o, ev->ts);
    tw_out_str(o, ",\"pid\":");
    tw_out_u64(o, ev->pid);
    tw_out_str(o, ",\"tid\":");
    tw_out_u64(o, ev->tid);
    tw_out_str(o, ",\"key\":");
    json_name(w, o, ev->name);
    if (ev->msg) {
        tw_out_str(o, ",\"value\":");
        json_str(w, o, ev->msg, ev->msg_len);
    }
    if (ev->nattrs) {
        tw_out_str(o, ",\"args\":{");
        put_meta_attrs(w, o, ev, false, NULL, NULL);
        tw_out_putc(o, '}');
    }
    meta_loss(w, ev);
    tw_out_putc(o, '}');
    size_t n;
    const char *p = tw_output_mem_data(o, &n);
    if (o->err || !tw_buf_append(&w->meta, p, n)) oom(w);
    tw_output_close(o);
    w->nmeta++;
}

/* An M event naming a process or a thread, with the attributes of meta
 * (NULL: none) beside the name in its args. */
static TW_NOINLINE void put_name(chrome_writer *w, const char *key, uint32_t pid, cthread *t,
                                  const char *s, size_t n, const tw_event *meta) {
    tw_output *o = target(w, t);
    tw_out_str(o, "{\"ph\":\"M\",\"name\":\"");
    tw_out_str(o, key);
    tw_out_str(o, "\",\"pid\":");
    tw_out_u64(o, pid);
    tw_out_str(o, ",\"tid\":");
    tw_out_u64(o, t->wtid);
    tw_out_str(o, ",\"args\":{\"name\":");
    json_str(w, o, s, n);
    if (meta) {
        put_meta_attrs(w, o, meta, true, "name",
                       "attributes named name on process and thread names renamed attr.name");
        meta_loss(w, meta);
    }
    tw_out_str(o, "}}");
    spool_rendered(w, t);
}

static int chrome_event(void *state, const tw_event *ev) {
    chrome_writer *w = state;
    cthread *t = thread_of(w, ev->pid, ev->tid);
    if (!t) {
        oom(w);
        return TW_ERR;
    }
    if (ev->kind != TW_META && ev->kind != TW_SUSPEND && ev->kind != TW_RESUME && t->have_last &&
        ev->ts < t->last)
        tw_loss_add(w->ctx.loss, "times moved forward to keep a thread's time in order", 1);
    switch (ev->kind) {
    case TW_META:
        if ((tw_str_is(ev->name, TW_META_PROCESS_NAME) || tw_str_is(ev->name, TW_META_THREAD_NAME)) &&
            ev->msg) {
            bool thread = tw_str_is(ev->name, TW_META_THREAD_NAME);
            put_name(w, ev->name->s, ev->pid, t, ev->msg, ev->msg_len, ev);
            if (thread) t->named = true;
        } else {
            keep_meta(w, ev);
            /* where scopes left open end, as stats ends them */
            if (tw_str_is(ev->name, TW_META_TRACE_END) && tw_pairing_event(w->pairing, ev) != TW_OK)
                oom(w);
        }
        break;
    case TW_INSTANT:
        emit(w, t, 'i', ev->name, ev->cat, &ev->ts, ev, false);
        if (tw_pairing_event(w->pairing, ev) != TW_OK) oom(w);  /* the thread's time */
        break;
    case TW_COUNTER:
        emit(w, t, 'C', ev->name, ev->cat, &ev->ts, ev, ev->has_value);
        if (tw_pairing_event(w->pairing, ev) != TW_OK) oom(w);  /* the thread's time */
        break;
    case TW_SUSPEND:
    case TW_RESUME:
        /* not drawn; the pairing engine still takes preemption out of net */
        tw_loss_drop(w->ctx.loss, ev);
        if (tw_pairing_event(w->pairing, ev) != TW_OK) oom(w);
        break;
    case TW_BEGIN:
    case TW_END:
        w->cur = ev;
        w->end_used = false;
        if (tw_pairing_event(w->pairing, ev) != TW_OK) oom(w);
        if (ev->kind == TW_END && (ev->msg || ev->nattrs) && !w->end_used)
            tw_loss_add(w->ctx.loss, "messages and attributes of ignored end events dropped", 1);
        w->cur = NULL;
        break;
    default:
        tw_loss_drop(w->ctx.loss, ev);
        break;
    }
    return w->failed ? TW_ERR : TW_OK;
}

static int chrome_end(void *state) {
    chrome_writer *w = state;
    w->cur = NULL;
    if (tw_pairing_finish(w->pairing) != TW_OK) oom(w);
    if (w->failed) return TW_ERR;
    tw_loss_repairs(w->ctx.loss, &w->quiet);
    /* threads whose id was replaced show the real one as their name */
    for (size_t i = 0; i < w->map.n; i++) {
        cthread *t = &w->threads[i];
        if (t->wtid == w->map.tids[i] || t->named) continue;
        char name[32];
        int n = snprintf(name, sizeof name, "tid %llu", (unsigned long long)w->map.tids[i]);
        put_name(w, TW_META_THREAD_NAME, w->map.pids[i], t, name, (size_t)n, NULL);
    }
    if (w->failed) return TW_ERR;
    /* the events, thread by thread */
    if (!w->direct) tw_out_str(w->ctx.out, HEAD);
    if (!replay_all(w)) return TW_ERR;
    tw_output *o = w->ctx.out;
    const tw_trace_info *ti = w->ctx.info;
    tw_out_str(o, "\n],\n\"otherData\":{\"generator\":\"tracewright " TW_VERSION_STRING "\"");
    if (ti->format) {
        tw_out_str(o, ",\"source_format\":");
        json_str(w, o, ti->format, strlen(ti->format));
    }
    tw_out_str(o, ",\"clock_resolution_ns\":");
    tw_out_i64(o, ti->resolution_ns);
    if (w->base) {
        tw_out_str(o, ",\"ts_offset_ns\":");
        tw_out_i64(o, w->base);
    }
    if (ti->has_origin) {
        tw_out_str(o, ",\"origin_ns\":");
        tw_out_i64(o, ti->origin_ns);
        tw_out_str(o, ",\"origin_ts\":");
        tw_out_i64(o, ti->origin_ts);
        char utc[48];
        if (tw_format_utc(ti->origin_ns, utc, sizeof utc)) {
            tw_out_str(o, ",\"origin_utc\":\"");
            tw_out_str(o, utc);
            tw_out_putc(o, '"');
        }
    }
    bool mapped = false;
    for (size_t i = 0; i < w->map.n; i++) {
        if (w->threads[i].wtid == w->map.tids[i]) continue;
        tw_out_str(o, mapped ? "," : ",\"tid_map\":{");
        mapped = true;
        tw_out_putc(o, '"');
        tw_out_u64(o, w->threads[i].wtid);
        tw_out_str(o, "\":\"");
        tw_out_u64(o, w->map.tids[i]);
        tw_out_putc(o, '"');
    }
    if (mapped) tw_out_putc(o, '}');
    if (w->nmeta) {
        tw_out_str(o, ",\"metadata\":[");
        tw_out_write(o, w->meta.p, w->meta.len);
        tw_out_str(o, "\n]");
    }
    tw_out_str(o, "}}\n");
    return TW_OK;
}

static void chrome_free(void *state) {
    chrome_writer *w = state;
    tw_pairing_free(w->pairing);
    tw_tidmap_free(&w->map);
    tw_u64map_free(&w->taken);
    if (w->ev) tw_output_close(w->ev);
    tw_spool_free(w->spool);
    free(w->threads);
    tw_buf_free(&w->meta);
    tw_json_names_free(&w->names);
    tw_idcache_free(&w->byid);
    free(w);
}

static const char *const chrome_aliases[] = {"trace-event", "perfetto", NULL};
static const char *const chrome_exts[] = {".json", ".trace.json", ".chrome.json", NULL};

static const tw_format chrome_format = {
    .abi = TW_FORMAT_ABI,
    .name = "chrome",
    .aliases = chrome_aliases,
    .extensions = chrome_exts,
    .description = "Chrome Trace Event JSON (Perfetto UI, chrome://tracing, speedscope)",
    .flags = TW_FMT_TEXT | TW_FMT_THREADS | TW_FMT_ORIGIN | TW_FMT_WRITER_TRANSIENT,
    .write_begin = chrome_begin,
    .write_event = chrome_event,
    .write_end = chrome_end,
    .write_free = chrome_free,
};

TW_FORMAT_EXPORT(chrome, chrome_format)
