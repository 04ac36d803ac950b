/*
 * stacktrack - Boost StackTrack `raw_event` buffers (.tlg): the reader, the
 * writer, and stacktrack-xml, the expand_events view of what the writer
 * writes.
 *
 * A file is a flat sequence of fixed-size buffers (24 bytes in the only
 * known build), in the byte order of the machine that wrote it:
 *
 *   u16 flags | u16 pid | u32 sequence | payload at payload_offset (8)
 *
 * flags & 0xFF selects the payload: 0 HIT, 1 FLOC, 2 FPROPERTY, 3 SLOC,
 * 4 PROLOGUE, 5 PROCINFO, 6 TIMEINFO, 7 TIMETYPE, 0xFF INFO.  0x0100
 * (HAS_INFO) announces a run of INFO buffers with the same pid and sequence
 * that carry text in 16-byte chunks; 0x0200 (INFO_END) marks the last one.
 * The first buffer, the PROLOGUE, gives the geometry and, by its magic, the
 * byte order.  Files, checkpoints (SLOC) and the time base are kept per
 * process.  Much of the layout is inferred from the documentation's dump;
 * docs/formats/stacktrack.md says which parts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "formats.h"

enum {
    T_HIT = 0,
    T_FLOC,
    T_FPROP,
    T_SLOC,
    T_PROLOGUE,
    T_PROCINFO,
    T_TIMEINFO,
    T_TIMETYPE,
    T_INFO = 0xFF
};

#define F_TYPE 0x00FFu
#define F_HAS_INFO 0x0100u
#define F_INFO_END 0x0200u
#define F_EXIT 0xFC00u /* flag bits never observed; read as "scope exit" */
#define KIND_OF_CHECKPOINT TW_KIND_COUNT /* a queued HIT's kind: its checkpoint's */
#define MAGIC 0x12345678u
#define MAGIC_SWAPPED 0x78563412u
#define VERSION 256
#define STYLE_ENTRY 3 /* styles of the checkpoints written */
#define STYLE_EXIT 4
#define STYLE_VALUE 6 /* a value annotation */
#define HEADER 8      /* flags, pid, sequence */
#define PAYLOAD_MIN 12 /* the largest payload read: HIT and TIMEINFO */
#define MAX_REPORTS 10 /* problems of one kind reported one by one */
#define MAX_OPEN 256   /* INFO runs open at once */
#define MAX_WINDOW (1 << 20) /* largest --stacktrack-info-window */
#define DEFAULT_WINDOW "4096" /* its default */
/* The longest text written: an INFO run the reader takes whole with the
 * default window, 4096 buffers of 16 bytes. */
#define WRITE_TEXT_MAX ((size_t)4096 * 16)
#define LOOKAHEAD ((size_t)1 << 20) /* bytes searched for the time base at open */

#define OPT_ENTRY "stacktrack-entry-style"
#define OPT_EXIT "stacktrack-exit-style"
#define OPT_INSTANTS "stacktrack-all-instants"
#define OPT_WINDOW "stacktrack-info-window"

static const char *type_name(unsigned type) {
    static const char *const names[] = {"HIT",      "FLOC",     "FPROPERTY", "SLOC",
                                        "PROLOGUE", "PROCINFO", "TIMEINFO",  "TIMETYPE"};
    return type < 8 ? names[type] : type == T_INFO ? "INFO" : "unknown";
}

/* ---- byte order and geometry ------------------------------------------------ */

typedef struct st_geom {
    bool be;                   /* big-endian buffers */
    unsigned entry, poff, info; /* entry_size, payload_offset, info_len */
} st_geom;

static const st_geom DEFAULT_GEOM = {false, 24, 8, 16};

/* Loads in the buffer's byte order: one load and at most a byte swap. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define HOST_BE true
#else
#define HOST_BE false
#endif
static inline uint16_t rd16(const unsigned char *p, bool be) {
    uint16_t v;
    memcpy(&v, p, 2);
    return be != HOST_BE ? __builtin_bswap16(v) : v;
}
static inline uint32_t rd32(const unsigned char *p, bool be) {
    uint32_t v;
    memcpy(&v, p, 4);
    return be != HOST_BE ? __builtin_bswap32(v) : v;
}
static inline uint64_t rd64(const unsigned char *p, bool be) {
    uint64_t v;
    memcpy(&v, p, 8);
    return be != HOST_BE ? __builtin_bswap64(v) : v;
}

static void wr(unsigned char *p, uint64_t v, int n) {
    for (int i = 0; i < n; i++) p[i] = (unsigned char)(v >> (8 * i));
}

typedef enum { PRO_NONE, PRO_OK, PRO_BAD } pro_kind;

/*
 * Is the buffer at b (n bytes) a PROLOGUE?  Its magic is looked for, in
 * either byte order, at the payload offsets a build may use (the header is
 * 8 bytes; payloads are aligned to 4).  *g gets the geometry it gives;
 * PRO_BAD: the magic is there but that geometry is impossible.
 */
static pro_kind prologue(const unsigned char *b, size_t n, st_geom *g, uint32_t *version) {
    for (unsigned off = HEADER; off <= 32 && off + 11 <= n; off += 4) {
        uint32_t m = rd32(b + off, false);
        bool be;
        if (m == MAGIC) be = false;
        else if (m == MAGIC_SWAPPED) be = true;
        else continue;
        if ((rd16(b, be) & F_TYPE) != T_PROLOGUE) continue;
        *version = rd32(b + off + 4, be);
        *g = (st_geom){be, b[off + 9], b[off + 10], b[off + 8]};
        bool ok = g->poff == off && g->entry >= off + PAYLOAD_MIN && g->info > 0 &&
                  g->info <= g->entry - off;
        return ok ? PRO_OK : PRO_BAD;
    }
    return PRO_NONE;
}

static bool plausible_flags(unsigned f) {
    unsigned t = f & F_TYPE;
    if (t == T_INFO) return (f & ~(F_TYPE | F_INFO_END)) == 0;
    if (t == T_HIT) return true;
    return t <= T_TIMETYPE && (f & ~(F_TYPE | F_HAS_INFO)) == 0;
}

static int st_probe(const unsigned char *head, size_t len, const char *path) {
    st_geom g;
    uint32_t version;
    if (prologue(head, len, &g, &version) == PRO_OK) return 100;
    /* no PROLOGUE: only a .tlg whose first buffers look right */
    size_t pl = path ? strlen(path) : 0;
    if (pl < 4 || strcasecmp(path + pl - 4, ".tlg") != 0 || len < 2 * 24) return 0;
    for (size_t i = 0; i + 24 <= len; i += 24)
        if (!plausible_flags(rd16(head + i, false))) return 0;
    return 60;
}

/* ---- reader: texts of INFO runs, checkpoints, processes -------------------- */

/* The text of an INFO run: a file path, a checkpoint name, a hit's value or a
 * property.  Shared by the record that owns it and the events that use it. */
typedef struct st_text {
    unsigned refs;
    bool open;            /* INFO buffers may still follow */
    bool name;            /* interned when complete (a path or a name) */
    unsigned char owner;  /* type of the owning buffer */
    uint16_t pid;
    uint32_t seq;
    uint32_t chunks;      /* INFO buffers so far */
    uint64_t rec;         /* the owning buffer */
    tw_buf buf;
    const tw_str *str;    /* name: the interned text once complete */
    struct st_scope *sloc; /* the checkpoint this is the name of (NULL: none, or
                            * it is gone), told when the name is complete */
    struct st_text *next_spare; /* in the reader's spares */
} st_text;

/* A checkpoint as one SLOC defined it. */
typedef struct st_scope {
    unsigned refs;
    uint16_t index, style, line;
    bool listed;    /* in its process's table (not replaced) */
    tw_kind kind;   /* of its HITs without exit flag bits (see twin_join()) */
    st_text *name;  /* NULL: the SLOC had no INFO run */
    st_text *file;  /* NULL: no FLOC defined its file */
    struct st_proc *proc;
    struct st_twin *twin;       /* its name and line, once joined */
    struct st_scope *twin_next; /* in twin->others */
    /* what each of its HITs is given, worked out for the first one
     * delivered (its texts are complete then, and stay so) */
    bool cached;
    unsigned char nattrs;
    const tw_str *ev_name;
    tw_attr attrs[2];
} st_scope;

typedef struct st_proc {
    uint16_t pid;
    bool has_tdiv, has_ti, warned_ticks;
    int64_t tdiv, hires, offset_ns, last_ts;
    int64_t ns_per_tick;    /* 10^9 / tdiv when that is exact, else 0 */
    tw_u64map files;        /* filenum -> st_text * (path) */
    tw_u64map scopes;       /* scopeIndex -> st_scope *, for indexes past low_scopes */
    st_scope **low_scopes;  /* index below nlow_scopes -> scope (NULL: none defined) */
    size_t nlow_scopes;
    uint64_t *low_seqs;     /* thread id below nlow_seqs -> sequence number of its
                             * last HIT + 1 (0: none yet); the others are in seqs */
    size_t nlow_seqs;
    tw_u64map twins;        /* name id << 16 | line -> st_twin * */
} st_proc;

/* The checkpoints of a process with one name and line (twin_join()). */
typedef struct st_twin {
    unsigned entries;         /* entry checkpoints among them */
    struct st_scope *others;  /* those of other styles but the exit style: exits
                               * while there are entries */
} st_twin;

/* Checkpoint indexes and thread ids below LOW_KEYS are looked up by index
 * in a process's arrays, which grow to the largest such key seen, instead
 * of hashed; the arrays of all processes together stay within LOW_BUDGET
 * bytes (a file of many processes could otherwise ask 16 KiB for each),
 * and once that is spent no array grows again, so that a key is either in
 * its array (below its length) or in the hash. */
#define LOW_KEYS 1024
#define LOW_BUDGET ((size_t)1 << 20)

/* An event waiting for the INFO runs it needs. */
typedef struct st_item {
    tw_event ev;
    st_scope *scope;  /* HIT: name, file and line come from here */
    st_text *file;    /* FPROPERTY: the file */
    st_text *msg;     /* the HIT's value text, the property */
} st_item;
/* init_item() and pop() set an item field by field (a structure assignment
 * or compound literal becomes a slow `rep movs`/`rep stos`) */
_Static_assert(sizeof(void *) != 8 || sizeof(st_item) == sizeof(tw_event) + 3 * sizeof(void *),
               "a field was added to st_item: set it in init_item() and pop()");

/* Problems reported one by one up to MAX_REPORTS, then in one total. */
enum {
    C_UNKNOWN, C_ORPHAN, C_ABANDONED, C_UNDEF_SCOPE, C_UNDEF_FILE, C_PROLOGUE, C_SEQUENCE,
    C_COUNT
};

typedef struct st_reader {
    tw_read_ctx ctx;
    const char *file;
    st_geom g;
    int64_t entry_style, exit_style, window;
    bool all_instants, eof, origin_known;
    uint32_t origin_s;
    const unsigned char *p;  /* current chunk */
    size_t avail;
    uint64_t rec;            /* index of the next buffer */
    tw_u64map procmap;
    st_proc *last_proc;   /* the process of the latest buffer */
    st_proc **procs;
    size_t nprocs, cprocs;
    tw_u64map undef;         /* pid << 16 | scope index: reported as undefined */
    tw_u64map seqs;          /* pid << 16 | tid -> sequence number of its last HIT + 1
                              * (the tids past st_proc.low_seqs) */
    size_t low_bytes;        /* in the processes' arrays (LOW_KEYS) */
    bool low_closed;         /* LOW_BUDGET is spent: no array grows */
    bool seq_oom;
    st_text **open;          /* runs waiting for INFO buffers, oldest first */
    size_t nopen, copen;
    st_item *q;              /* ring of pending events */
    size_t qhead, qn, qcap;
    st_item cur;             /* the event handed out last, but for plain_hit()'s */
    st_scope *lent;          /* the checkpoint plain_hit()'s last event points into,
                              * without a reference (NULL: none) */
    bool direct;             /* cur is a new event, made without the queue */
    tw_attr attrs[2];
    st_text *spares;         /* texts no longer used, kept for the next run */
    size_t nspares;
    uint64_t count[C_COUNT];
    const tw_str *k_file, *k_line, *k_prop;
} st_reader;

static tw_loc rec_loc(const st_reader *r, uint64_t rec) {
    tw_loc loc = {.file = r->file, .kind = TW_LOC_BINARY,
                  .offset = rec * r->g.entry, .record = rec, .length = r->g.entry};
    return loc;
}

/* Report problem `c` unless MAX_REPORTS of its kind were reported already. */
static bool counted(st_reader *r, int c) { return ++r->count[c] <= MAX_REPORTS; }

/* The texts of INFO runs (a HIT's value text, say, one in twenty HITs of
 * the benchmark's generated log) are kept when no longer used, with their buffers up to
 * SPARE_BYTES, SPARES of them, and used again: no allocation per run. */
#define SPARES 64
#define SPARE_BYTES 256

/* A new text with one reference (no INFO yet); NULL when out of memory. */
static st_text *text_new(st_reader *r) {
    st_text *t = r->spares;
    if (!t) {
        if (!(t = calloc(1, sizeof *t))) return NULL;
    } else {
        r->spares = t->next_spare;
        r->nspares--;
        tw_buf buf = t->buf;
        memset(t, 0, sizeof *t);
        t->buf.p = buf.p;
        t->buf.cap = buf.cap;
    }
    t->refs = 1;
    return t;
}

static void text_unref(st_reader *r, st_text *t) {
    if (!t || --t->refs) return;
    if (r->nspares < SPARES) {
        if (t->buf.cap > SPARE_BYTES) tw_buf_free(&t->buf);
        t->next_spare = r->spares;
        r->spares = t;
        r->nspares++;
        return;
    }
    tw_buf_free(&t->buf);
    free(t);
}

static st_text *text_ref(st_text *t) {
    if (t) t->refs++;
    return t;
}

static void scope_unref(st_reader *r, st_scope *s) {
    if (s && --s->refs == 0) {
        if (s->name && s->name->sloc == s) s->name->sloc = NULL;
        text_unref(r, s->name);
        text_unref(r, s->file);
        free(s);
    }
}

static st_proc *proc(st_reader *r, uint16_t pid) {
    if (r->last_proc && r->last_proc->pid == pid) return r->last_proc;
    st_proc *p = tw_keyed_get(&r->procmap, &r->procs, &r->nprocs, &r->cprocs, pid, sizeof *p,
                              NULL);
    if (!p) {
        tw_report(r->ctx.diag, TW_R_OUT_OF_MEMORY, NULL, "out of memory");
        return NULL;
    }
    p->pid = pid;
    r->last_proc = p;
    return p;
}

static void proc_free(st_reader *r, st_proc *p) {
    for (size_t i = 0; i < p->files.cap; i++)
        if (p->files.used[i]) text_unref(r, p->files.vals[i]);
    for (size_t i = 0; i < p->scopes.cap; i++)
        if (p->scopes.used[i]) scope_unref(r, p->scopes.vals[i]);
    for (size_t i = 0; i < p->nlow_scopes; i++) scope_unref(r, p->low_scopes[i]);
    tw_u64map_free(&p->files);
    tw_u64map_free(&p->scopes);
    for (size_t i = 0; i < p->twins.cap; i++)
        if (p->twins.used[i]) free(p->twins.vals[i]);
    tw_u64map_free(&p->twins);
    free(p->low_scopes);
    free(p->low_seqs);
    free(p);
}

/* Make a process's array *(T **)arrayp of *n zeroed elements of `elem`
 * bytes reach key i (LOW_KEYS); false when it may not (the key is then
 * hashed) or memory ran out (the hash will say so). */
static bool reach(st_reader *r, void *arrayp, size_t *n, uint64_t i, size_t elem) {
    if (i >= LOW_KEYS || r->low_closed) return false;
    size_t old = *n, want = 16;
    while (want <= i) want *= 2;
    char *a = r->low_bytes + (want - old) * elem <= LOW_BUDGET
                  ? realloc(*(char **)arrayp, want * elem)
                  : NULL;
    if (!a) {
        r->low_closed = true;
        return false;
    }
    memset(a + old * elem, 0, (want - old) * elem);
    *(char **)arrayp = a;
    *n = want;
    r->low_bytes += (want - old) * elem;
    return true;
}

/* ---- reader: entry and exit checkpoints ------------------------------------ */

/*
 * The spec's exit rule (b): a HIT of a checkpoint whose SLOC has the name
 * and line of an entry checkpoint (--stacktrack-entry-style) of its process
 * but another style is a separate exit checkpoint of that scope, and ends
 * it.  A checkpoint's name may arrive after its SLOC, and SLOCs come in any
 * order, so a checkpoint joins the others of its name and line once it is
 * in its process's table with its name complete, and leaves them when
 * another SLOC replaces it; entry checkpoints are counted there, and the
 * others' kind follows that count (END while it is not 0, else INSTANT).
 * Each checkpoint thus knows the kind of its HITs (st_scope.kind) and a HIT
 * looks at nothing else.  The exit style's checkpoints end scopes anyway;
 * value annotations (style 6) stay instants, as the spec maps them (and as
 * the writer writes instant events: an instant at a scope's name and line
 * must not read back as its end); checkpoints without a name (no INFO run)
 * are no one's exit.
 */
static void twin_join(st_reader *r, st_scope *s) {
    if (r->all_instants || s->twin || !s->listed || !s->name || !s->name->str) return;
    if (s->style != r->entry_style && (s->style == r->exit_style || s->style == STYLE_VALUE))
        return; /* an exit anyway; a value annotation (the spec: an instant) */
    void **slot = tw_u64map_slot(&s->proc->twins, (uint64_t)s->name->str->id << 16 | s->line);
    if (slot && !*slot) *slot = calloc(1, sizeof(st_twin));
    st_twin *t = slot ? *slot : NULL;
    if (!t) return; /* out of memory: the checkpoint has no twins */
    s->twin = t;
    if (s->style == r->entry_style) {
        if (t->entries++ == 0)
            for (st_scope *o = t->others; o; o = o->twin_next) o->kind = TW_END;
    } else {
        s->twin_next = t->others;
        t->others = s;
        s->kind = t->entries ? TW_END : TW_INSTANT;
    }
}

static void twin_leave(st_reader *r, st_scope *s) {
    st_twin *t = s->twin;
    if (!t) return;
    s->twin = NULL;
    if (s->style == r->entry_style) {
        if (--t->entries == 0)
            for (st_scope *o = t->others; o; o = o->twin_next) o->kind = TW_INSTANT;
        return;
    }
    st_scope **o = &t->others;
    while (*o != s) o = &(*o)->twin_next;
    *o = s->twin_next;
}

/* ---- reader: INFO runs --------------------------------------------------------- */

static void close_run(st_reader *r, size_t k) {
    st_text *t = r->open[k];
    t->open = false;
    if (t->name) {
        tw_loc loc = rec_loc(r, t->rec);
        t->str = tw_intern_at(&r->ctx, t->buf.p ? t->buf.p : "", t->buf.len, &loc);
        if (t->sloc) twin_join(r, t->sloc);
    }
    memmove(r->open + k, r->open + k + 1, (r->nopen - k - 1) * sizeof *r->open);
    r->nopen--;
    text_unref(r, t);
}

static void report_unended(st_reader *r, const st_text *t, uint64_t now) {
    tw_loc loc = rec_loc(r, t->rec);
    char got[64];
    if (t->chunks) snprintf(got, sizeof got, "%u INFO buffer%s", t->chunks, t->chunks == 1 ? "" : "s");
    else snprintf(got, sizeof got, "no INFO buffer");
    if (r->eof)
        tw_report(r->ctx.diag, TW_R_ST_INFO_RUN, &loc,
                  "the INFO run of this %s buffer (process 0x%04x, sequence %u) never ends: "
                  "the input ends with %s of it read and no INFO_END; its text is used as it "
                  "stands",
                  type_name(t->owner), (unsigned)t->pid, (unsigned)t->seq, got);
    else if (r->nopen > MAX_OPEN)
        tw_report(r->ctx.diag, TW_R_ST_INFO_RUN, &loc,
                  "the INFO run of this %s buffer (process 0x%04x, sequence %u) is still open "
                  "when %d others are; %s read, its text is used as it stands",
                  type_name(t->owner), (unsigned)t->pid, (unsigned)t->seq, MAX_OPEN, got);
    else
        tw_report(r->ctx.diag, TW_R_ST_INFO_RUN, &loc,
                  "the INFO run of this %s buffer (process 0x%04x, sequence %u) has not ended "
                  "%llu buffers later (--" OPT_WINDOW "=%lld); %s read, its text is used as it "
                  "stands",
                  type_name(t->owner), (unsigned)t->pid, (unsigned)t->seq,
                  (unsigned long long)(now - t->rec), (long long)r->window, got);
}

/* Give up waiting for the rest of the oldest run. */
static void abandon(st_reader *r, uint64_t now) {
    if (counted(r, C_ABANDONED)) report_unended(r, r->open[0], now);
    close_run(r, 0);
}

/* A run for the buffer just read, which announced INFO buffers.  The open
 * list holds one reference; the caller takes its own. */
static st_text *open_run(st_reader *r, unsigned type, uint16_t pid, uint32_t seq,
                         uint64_t rec) {
    st_text *t = NULL;
    if (!tw_grow(&r->open, &r->copen, r->nopen + 1, sizeof *r->open, 8) || !(t = text_new(r))) {
        tw_loc loc = rec_loc(r, rec);
        tw_report(r->ctx.diag, TW_R_OUT_OF_MEMORY, &loc, "out of memory");
        return NULL;
    }
    t->open = true;
    t->name = type == T_FLOC || type == T_SLOC;
    t->owner = (unsigned char)type;
    t->pid = pid;
    t->seq = seq;
    t->rec = rec;
    r->open[r->nopen++] = t;
    if (r->nopen > MAX_OPEN) abandon(r, rec);
    return t;
}

/* An INFO buffer belongs to the most recent run of its pid and sequence
 * that is still open. */
static void info(st_reader *r, uint16_t pid, uint32_t seq, unsigned flags,
                 const unsigned char *pl, const tw_loc *loc) {
    for (size_t k = r->nopen; k-- > 0;) {
        st_text *t = r->open[k];
        if (t->pid != pid || t->seq != seq) continue;
        size_t n = r->g.info;
        if (flags & F_INFO_END)
            while (n && pl[n - 1] == 0) n--; /* the last chunk is NUL-padded */
        if (!tw_buf_append(&t->buf, pl, n))
            tw_report(r->ctx.diag, TW_R_OUT_OF_MEMORY, loc, "out of memory; text cut short");
        t->chunks++;
        if (flags & F_INFO_END) close_run(r, k);
        return;
    }
    if (counted(r, C_ORPHAN))
        tw_report(r->ctx.diag, TW_R_ST_INFO_RUN, loc,
                  "INFO buffer of process 0x%04x, sequence %u follows no buffer that announced "
                  "INFO (HAS_INFO) with that sequence; ignored",
                  (unsigned)pid, (unsigned)seq);
}

/* ---- reader: the event queue --------------------------------------------- */

static inline void init_item(st_item *it, tw_kind kind, uint16_t pid, uint64_t tid, int64_t ts,
                             const tw_loc *loc) {
    tw_event_clear(&it->ev);
    it->ev.kind = kind;
    it->ev.pid = pid;
    it->ev.tid = tid;
    it->ev.ts = ts;
    it->ev.loc = *loc;
    it->scope = NULL;
    it->file = NULL;
    it->msg = NULL;
}

static st_item *push(st_reader *r, tw_kind kind, uint16_t pid, uint64_t tid, int64_t ts,
                     const tw_loc *loc) {
    if (r->qn == r->qcap) {
        size_t cap = r->qcap ? r->qcap * 2 : 64;
        st_item *q = malloc(cap * sizeof *q);
        if (!q) {
            tw_report(r->ctx.diag, TW_R_OUT_OF_MEMORY, loc, "out of memory; event dropped");
            return NULL;
        }
        for (size_t i = 0; i < r->qn; i++) q[i] = r->q[(r->qhead + i) & (r->qcap - 1)];
        free(r->q);
        r->q = q;
        r->qcap = cap;
        r->qhead = 0;
    }
    st_item *it = &r->q[(r->qhead + r->qn++) & (r->qcap - 1)];
    init_item(it, kind, pid, tid, ts, loc);
    return it;
}

static void item_release(st_reader *r, st_item *it) {
    scope_unref(r, it->scope);
    text_unref(r, it->file);
    text_unref(r, it->msg);
    it->scope = NULL;
    it->file = it->msg = NULL;
}

static bool text_ready(const st_text *t) { return !t || !t->open; }

static bool ready(const st_item *it) {
    const st_scope *s = it->scope;
    return text_ready(it->msg) && text_ready(it->file) &&
           (!s || (text_ready(s->name) && text_ready(s->file)));
}

static const tw_str *scope_name(st_reader *r, unsigned index, const tw_loc *loc) {
    char b[24];
    int n = snprintf(b, sizeof b, "scope#%u", index);
    return tw_intern_at(&r->ctx, b, (size_t)n, loc);
}

/* The attributes of an event with source file f (complete) and line
 * (0: none) into a[2]; returns how many. */
static unsigned char source_attrs(const st_reader *r, const st_text *f, unsigned line,
                                  tw_attr *a) {
    unsigned char na = 0;
    if (f && f->str && f->str->len)
        a[na++] = (tw_attr){.key = r->k_file, .type = TW_ATTR_STR, .s = f->str->s,
                            .slen = f->str->len, .str = f->str};
    if (line) a[na++] = (tw_attr){.key = r->k_line, .type = TW_ATTR_INT, .i = line};
    return na;
}

/* The event of r->cur; false when it has no name (out of memory or names:
 * reported). */
static bool deliver(st_reader *r, tw_event *ev) {
    const st_item *it = &r->cur;
    st_scope *s = it->scope;
    tw_event_copy(ev, &it->ev);
    if (s) { /* a HIT: its name and attributes are the checkpoint's */
        if (!s->cached) {
            s->ev_name = s->name && s->name->str ? s->name->str
                                                 : scope_name(r, s->index, &ev->loc);
            if (!s->ev_name) return false;
            s->nattrs = source_attrs(r, s->file, s->line, s->attrs);
            s->cached = true;
        }
        if (ev->kind == KIND_OF_CHECKPOINT) ev->kind = s->kind;
        ev->name = s->ev_name;
        ev->attrs = s->nattrs ? s->attrs : NULL;
        ev->nattrs = s->nattrs;
    } else {
        if (!ev->name) return false;
        size_t na = source_attrs(r, it->file, 0, r->attrs);
        ev->attrs = na ? r->attrs : NULL;
        ev->nattrs = na;
    }
    if (it->msg) {
        ev->msg = it->msg->buf.p ? it->msg->buf.p : "";
        ev->msg_len = it->msg->buf.len;
    }
    return true;
}

/* The oldest event, once every text it needs is complete. */
static bool pop(st_reader *r, tw_event *ev) {
    while (r->qn && ready(&r->q[r->qhead])) {
        item_release(r, &r->cur);
        r->lent = NULL;
        const st_item *it = &r->q[r->qhead];
        tw_event_copy(&r->cur.ev, &it->ev);
        r->cur.scope = it->scope;
        r->cur.file = it->file;
        r->cur.msg = it->msg;
        r->qhead = (r->qhead + 1) & (r->qcap - 1);
        r->qn--;
        if (deliver(r, ev)) return true;
    }
    return false;
}

/* Where a HIT's event goes: straight to r->cur when no event waits and no
 * INFO run is open (nothing can make it wait), else to the queue. */
static st_item *hit_item(st_reader *r, tw_kind kind, uint16_t pid, uint64_t tid, int64_t ts,
                         const tw_loc *loc) {
    if (r->qn || r->nopen) return push(r, kind, pid, tid, ts, loc);
    item_release(r, &r->cur);
    r->lent = NULL;
    init_item(&r->cur, kind, pid, tid, ts, loc);
    r->direct = true;
    return &r->cur;
}

/* ---- reader: buffers ------------------------------------------------------ */

#ifdef __SIZEOF_INT128__
__extension__ typedef __int128 st_wide;
#else
#error "the HIT time conversion needs a 128-bit integer type"
#endif

/*
 * A HIT's time when a 64-bit step of hit_time() overflowed: the
 * same conversion, exactly, in 128-bit arithmetic.  `when` and start_hires
 * are read as signed 64-bit counts (the writer's ticks before start_hires
 * are negative), so their difference may need 65 bits though the time in
 * nanoseconds fits; when the time of that reading does not fit and the two
 * lie on either side of 2^63 read unsigned, they are read as an unsigned
 * counter that crossed 2^63 (difference 2^64 smaller or larger).  False
 * when neither reading fits in 64-bit nanoseconds.
 */
static TW_NOINLINE bool ticks_wide(const st_proc *p, int64_t when, int64_t *ts) {
    int64_t hires = p->has_ti ? p->hires : 0;
    st_wide d = (st_wide)when - hires, min = INT64_MIN, max = INT64_MAX;
    for (int unsigned_reading = 0; unsigned_reading < 2; unsigned_reading++) {
        if (unsigned_reading) {
            if ((when < 0) == (hires < 0)) break; /* the same difference */
            d += when < 0 ? (st_wide)1 << 64 : -((st_wide)1 << 64);
        }
        st_wide v = d;
        if (p->has_tdiv) { /* round(d * 10^9 / tdiv), halves up, + the offset */
            st_wide n = d * TW_NS_PER_S, r = n % p->tdiv;
            v = n / p->tdiv;
            if (r < 0) {
                v--;
                r += p->tdiv;
            }
            if (r >= p->tdiv - r) v++;
            v += p->offset_ns;
        }
        if (v >= min && v <= max) {
            *ts = (int64_t)v;
            return true;
        }
    }
    return false;
}

/* A HIT's time `when`, in ticks, as nanoseconds into *ts, once the
 * process has a usable TIMETYPE (p->has_tdiv), in 64-bit steps; false when
 * one overflows (ticks_wide() then tells whether the time fits). */
static TW_INLINE bool ticks_ns(const st_proc *p, int64_t when, int64_t *ts) {
    int64_t d;
    if (!tw_sub_i64(when, p->has_ti ? p->hires : 0, &d)) return false;
    if (p->ns_per_tick) /* exact: the same as the division below */
        return tw_mul_i64(d, p->ns_per_tick, ts) && tw_add_i64(*ts, p->offset_ns, ts);
    return tw_muldiv_i64(d, TW_NS_PER_S, p->tdiv, ts) && tw_add_i64(*ts, p->offset_ns, ts);
}

static bool hit_time(st_reader *r, st_proc *p, int64_t when, const tw_loc *loc, int64_t *ts) {
    bool ok = true;
    if (!p->has_tdiv) {
        if (!p->warned_ticks) {
            p->warned_ticks = true;
            tw_report(r->ctx.diag, TW_R_ST_TIME_BASE, loc,
                      "process 0x%04x has no usable TIMETYPE before this HIT: its times are "
                      "raw clock ticks, not nanoseconds",
                      (unsigned)p->pid);
        }
        ok = tw_sub_i64(when, p->has_ti ? p->hires : 0, ts);
    } else {
        ok = ticks_ns(p, when, ts);
    }
    if (!ok) ok = ticks_wide(p, when, ts); /* a step overflowed: the exact way */
    if (!ok)
        tw_report(r->ctx.diag, TW_R_TIME_OVERFLOW, loc,
                  "HIT time %lld (start %lld, %lld tick(s) per second) does not fit in 64-bit "
                  "nanoseconds; event dropped",
                  (long long)when, (long long)(p->has_ti ? p->hires : 0),
                  (long long)(p->has_tdiv ? p->tdiv : 0));
    return ok;
}

/* Does sequence number seq go back from the thread's last, prev - 1 (prev:
 * 0 when there is none)?  A step back of 2^31 or more is the counter
 * wrapping around. */
static inline bool seq_back(uint64_t prev, uint32_t seq) {
    return prev && seq < prev - 1 && prev - 1 - seq < UINT32_C(0x80000000);
}

/* The sequence number is one counter per process, taken at each hit, so a
 * thread's hits have increasing numbers; across threads they interleave
 * (seq_back). */
static void sequence(st_reader *r, st_proc *p, unsigned tid, uint32_t seq, const tw_loc *loc) {
    uint64_t *low = NULL;
    void **slot = NULL;
    uint64_t prev = 0;
    if (tid < p->nlow_seqs ||
        (tid < LOW_KEYS && reach(r, &p->low_seqs, &p->nlow_seqs, tid, sizeof *p->low_seqs))) {
        prev = *(low = &p->low_seqs[tid]);
    } else {
        /* seq + 1 needs 33 bits: uintptr_t is 64 bits wide on every target
         * tw_muldiv_i64 (core/time.c) builds on */
        slot = tw_u64map_slot(&r->seqs, (uint64_t)p->pid << 16 | tid);
        prev = slot ? (uintptr_t)*slot : 0;
    }
    if (seq_back(prev, seq) && counted(r, C_SEQUENCE))
        tw_report(r->ctx.diag, TW_R_ST_SEQUENCE, loc,
                  "sequence number of thread %u of process 0x%04x goes back from %u to %u",
                  tid, (unsigned)p->pid, (unsigned)(prev - 1), (unsigned)seq);
    if (low) {
        *low = (uint64_t)seq + 1;
    } else if (slot) {
        *slot = (void *)((uintptr_t)seq + 1);
    } else if (!r->seq_oom) {
        r->seq_oom = true;  /* reported once; the check goes on with what it has */
        tw_report(r->ctx.diag, TW_R_OUT_OF_MEMORY, loc,
                  "out of memory for sequence numbers; some threads are not checked");
    }
}

/* The kind of the event of a HIT with these flags of checkpoint s (NULL:
 * undefined): KIND_OF_CHECKPOINT, the checkpoint's, is taken when the event
 * is delivered (its name complete, the checkpoint has joined its twins). */
static inline tw_kind hit_kind(const st_reader *r, unsigned flags, const st_scope *s) {
    if (r->all_instants) return TW_INSTANT;
    if (flags & F_EXIT) return TW_END; /* the spec's exit rule (a) */
    return s ? KIND_OF_CHECKPOINT : TW_INSTANT;
}

static void hit(st_reader *r, st_proc *p, unsigned flags, uint32_t seq, const unsigned char *pl,
                st_text *run, const tw_loc *loc) {
    bool be = r->g.be;
    int64_t ts;
    unsigned index = rd16(pl + 8, be), tid = rd16(pl + 10, be);
    sequence(r, p, tid, seq, loc);
    if (!hit_time(r, p, (int64_t)rd64(pl, be), loc, &ts)) return;
    p->last_ts = ts;
    st_scope *s =
        index < p->nlow_scopes ? p->low_scopes[index] : tw_u64map_get(&p->scopes, index);
    uint64_t key = (uint64_t)p->pid << 16 | index;
    if (!s && !tw_u64map_get(&r->undef, key) && tw_u64map_put(&r->undef, key, r)) {
        if (counted(r, C_UNDEF_SCOPE))
            tw_report(r->ctx.diag, TW_R_ST_UNDEF_SCOPE, loc,
                      "HIT of checkpoint %u, which no SLOC of process 0x%04x defines (the log "
                      "may start inside a write cycle); named scope#%u",
                      index, (unsigned)p->pid, index);
    }
    st_item *it = hit_item(r, hit_kind(r, flags, s), p->pid, tid, ts, loc);
    if (!it) return;
    if (s) {
        it->scope = s;
        s->refs++;
    } else if (!(it->ev.name = scope_name(r, index, loc))) {
        if (r->direct) r->direct = false;
        else r->qn--;
        return;
    }
    it->msg = text_ref(run);
}

static st_text *file_of(st_reader *r, st_proc *p, unsigned filenum, const char *what,
                        const tw_loc *loc) {
    st_text *f = tw_u64map_get(&p->files, filenum);
    if (!f && counted(r, C_UNDEF_FILE))
        tw_report(r->ctx.diag, TW_R_ST_UNDEF_FILE, loc,
                  "%s names file %u, which no FLOC of process 0x%04x defines; no source file "
                  "is known",
                  what, filenum, (unsigned)p->pid);
    return f;
}

/* Put a definition under its key; *old gets the one it replaces.  False
 * (reported) when out of memory. */
static bool define(st_reader *r, tw_u64map *m, uint64_t key, void *def, void **old,
                   const tw_loc *loc) {
    *old = tw_u64map_get(m, key);
    if (tw_u64map_put(m, key, def)) return true;
    tw_report(r->ctx.diag, TW_R_OUT_OF_MEMORY, loc, "out of memory");
    return false;
}

static void sloc(st_reader *r, st_proc *p, const unsigned char *pl, st_text *run,
                 const tw_loc *loc) {
    bool be = r->g.be;
    st_scope *s = calloc(1, sizeof *s);
    if (!s) {
        tw_report(r->ctx.diag, TW_R_OUT_OF_MEMORY, loc, "out of memory");
        return;
    }
    s->refs = 1;
    s->index = rd16(pl, be);
    s->style = rd16(pl + 2, be);
    s->line = rd16(pl + 4, be);
    s->name = text_ref(run);
    s->file = text_ref(file_of(r, p, rd16(pl + 8, be), "this SLOC", loc));
    s->proc = p;
    s->kind = r->all_instants              ? TW_INSTANT
              : s->style == r->entry_style ? TW_BEGIN /* it wins when both are one */
              : s->style == r->exit_style  ? TW_END
                                           : TW_INSTANT; /* until an entry twin comes */
    void *old;
    if (s->index < p->nlow_scopes ||
        reach(r, &p->low_scopes, &p->nlow_scopes, s->index, sizeof *p->low_scopes)) {
        old = p->low_scopes[s->index];
        p->low_scopes[s->index] = s;
    } else if (!define(r, &p->scopes, s->index, s, &old, loc)) {
        scope_unref(r, s);
        return;
    }
    s->listed = true;
    if (run) run->sloc = s; /* its name completes later: twin_join() then */
    if (old) {
        ((st_scope *)old)->listed = false;
        twin_leave(r, old);
    }
    if (old && old == r->lent) {
        /* plain_hit()'s last event points into it, and stays valid until
         * the next event: r->cur takes the table's reference till then */
        r->cur.scope = old;
        r->lent = NULL;
        return;
    }
    scope_unref(r, old);
}

static void floc(st_reader *r, st_proc *p, const unsigned char *pl, st_text *run,
                 const tw_loc *loc) {
    unsigned filenum = rd16(pl, r->g.be);
    st_text *t = run ? text_ref(run) : text_new(r); /* no INFO: no path */
    if (!t) {
        tw_report(r->ctx.diag, TW_R_OUT_OF_MEMORY, loc, "out of memory");
        return;
    }
    void *old;
    if (!define(r, &p->files, filenum, t, &old, loc)) {
        text_unref(r, t);
        return;
    }
    text_unref(r, old);
}

static void fproperty(st_reader *r, st_proc *p, const unsigned char *pl, st_text *run,
                      const tw_loc *loc) {
    st_text *f = file_of(r, p, rd16(pl, r->g.be), "this FPROPERTY", loc);
    st_item *it = push(r, TW_META, p->pid, 0, p->last_ts, loc);
    if (!it) return;
    it->ev.name = r->k_prop;
    it->file = text_ref(f);
    it->msg = text_ref(run);
}

static void time_type(st_reader *r, st_proc *p, const unsigned char *pl, const tw_loc *loc) {
    int64_t tdiv = (int64_t)rd64(pl, r->g.be);
    if (tdiv <= 0) {
        tw_report(r->ctx.diag, TW_R_ST_TIME_BASE, loc,
                  "TIMETYPE divisor %lld of process 0x%04x is not a tick rate; ignored",
                  (long long)tdiv, (unsigned)p->pid);
        return;
    }
    p->has_tdiv = true;
    p->tdiv = tdiv;
    p->ns_per_tick = TW_NS_PER_S % tdiv == 0 ? TW_NS_PER_S / tdiv : 0;
}

static void time_info(st_reader *r, st_proc *p, const unsigned char *pl) {
    p->has_ti = true;
    p->hires = (int64_t)rd64(pl, r->g.be);
    int64_t start_s = rd32(pl + 8, r->g.be);
    p->offset_ns = r->origin_known ? (start_s - (int64_t)r->origin_s) * TW_NS_PER_S : 0;
}

/* A PROLOGUE after the first buffer: files appended to each other. */
static void mid_prologue(st_reader *r, const unsigned char *b, const tw_loc *loc) {
    st_geom g;
    uint32_t version;
    pro_kind k = prologue(b, r->g.entry, &g, &version);
    if (k == PRO_OK && g.entry == r->g.entry && g.poff == r->g.poff && g.info == r->g.info) {
        r->g.be = g.be; /* its byte order counts from here */
        return;
    }
    if (counted(r, C_PROLOGUE))
        tw_report(r->ctx.diag, TW_R_ST_PROLOGUE, loc,
                  k == PRO_NONE ? "PROLOGUE buffer without the magic 0x12345678; ignored"
                                : "PROLOGUE buffer whose geometry differs from the file's "
                                  "(buffers of another build appended?); ignored");
}


static void buffer(st_reader *r, const unsigned char *b) {
    uint64_t i = r->rec++;
    tw_loc loc = rec_loc(r, i);
    while (r->nopen && i - r->open[0]->rec > (uint64_t)r->window) abandon(r, i);
    bool be = r->g.be;
    unsigned flags = rd16(b, be), type = flags & F_TYPE;
    /* a PROLOGUE in this byte order, or one of a file in the other byte
     * order appended to this one (its type byte is then the high one); the
     * first buffer was read by start() */
    uint32_t m = (flags >> 8) == T_PROLOGUE ? rd32(b + r->g.poff, false) : 0;
    if (type == T_PROLOGUE || m == MAGIC || m == MAGIC_SWAPPED) {
        if (i > 0) mid_prologue(r, b, &loc);
        return;
    }
    uint16_t pid = rd16(b + 2, be);
    uint32_t seq = rd32(b + 4, be);
    const unsigned char *pl = b + r->g.poff;
    if (type == T_INFO) {
        info(r, pid, seq, flags, pl, &loc);
        return;
    }
    st_text *run = flags & F_HAS_INFO ? open_run(r, type, pid, seq, i) : NULL;
    st_proc *p = type <= T_TIMETYPE ? proc(r, pid) : NULL;
    if (type <= T_TIMETYPE && !p) return;
    switch (type) {
    case T_HIT: hit(r, p, flags, seq, pl, run, &loc); break;
    case T_FLOC: floc(r, p, pl, run, &loc); break;
    case T_FPROP: fproperty(r, p, pl, run, &loc); break;
    case T_SLOC: sloc(r, p, pl, run, &loc); break;
    case T_TIMETYPE: time_type(r, p, pl, &loc); break;
    case T_TIMEINFO: time_info(r, p, pl); break;
    case T_PROCINFO: break;
    default:
        if (counted(r, C_UNKNOWN))
            tw_report(r->ctx.diag, TW_R_UNKNOWN_RECORD, &loc,
                      "buffer type 0x%02x (flags 0x%04x) is no StackTrack payload type; skipped",
                      type, flags);
    }
}

/*
 * The commonest buffer: a HIT with flags 0 (no INFO, no exit bits) of the
 * latest buffer's process, on a thread with a HIT before it and in
 * sequence, of a checkpoint below LOW_KEYS whose event deliver() has
 * worked out already (s->cached), at a time that fits, while no event waits
 * and no INFO run is open.  plain_hit() reads it straight into the caller's
 * event; any other buffer it leaves to buffer() (false), having changed
 * nothing.  For the buffers it takes, the event, the reports and the state
 * are those buffer() and deliver() would give, but for how the checkpoint
 * is kept alive for the event (r->lent, not r->cur).
 */
static TW_INLINE bool plain_hit(st_reader *r, const unsigned char *b, tw_event *ev) {
    st_proc *p = r->last_proc;
    bool be = r->g.be;
    if (r->qn || r->nopen || !p || !p->has_tdiv || rd16(b, be) != 0 || rd16(b + 2, be) != p->pid)
        return false;
    const unsigned char *pl = b + r->g.poff;
    unsigned index = rd16(pl + 8, be), tid = rd16(pl + 10, be);
    uint32_t seq = rd32(b + 4, be);
    st_scope *s = index < p->nlow_scopes ? p->low_scopes[index] : NULL;
    if (r->avail >= r->g.entry) {
        /* the checkpoint of the next record if it is a HIT, which the
         * streamed input has likely pushed out of the cache: fetched while
         * this one is made (5 % of the reading of the benchmark's log) */
        unsigned next = rd16(pl + r->g.entry + 8, be);
        if (next < p->nlow_scopes && p->low_scopes[next])
            __builtin_prefetch(&p->low_scopes[next]->cached);
    }
    if (!s || !s->cached) return false;
    /* the thread's last sequence number, where sequence() keeps it */
    uint64_t *low = tid < p->nlow_seqs ? &p->low_seqs[tid] : NULL;
    void **slot = low ? NULL : tw_u64map_ref(&r->seqs, (uint64_t)p->pid << 16 | tid);
    uint64_t prev = low ? *low : slot ? (uintptr_t)*slot : 0;
    int64_t ts;
    if (!prev || seq_back(prev, seq) || !ticks_ns(p, (int64_t)rd64(pl, be), &ts)) return false;
    if (low) *low = (uint64_t)seq + 1;
    else *slot = (void *)((uintptr_t)seq + 1);
    p->last_ts = ts;
    /* The event points into s, which p->low_scopes holds; no reference is
     * taken for it (r->cur is emptied instead), and a SLOC that redefines
     * s before the next event moves the table's reference to r->cur. */
    if (r->cur.scope || r->cur.file || r->cur.msg) item_release(r, &r->cur);
    r->lent = s;
    uint64_t rec = r->rec++;
    tw_event_clear(ev);
    ev->kind = s->kind;
    ev->pid = p->pid;
    ev->tid = tid;
    ev->ts = ts;
    ev->name = s->ev_name;
    ev->attrs = s->nattrs ? s->attrs : NULL;
    ev->nattrs = s->nattrs;
    ev->loc.file = r->file; /* rec_loc(), field by field */
    ev->loc.kind = TW_LOC_BINARY;
    ev->loc.offset = rec * r->g.entry;
    ev->loc.record = rec;
    ev->loc.length = r->g.entry;
    return true;
}

/* ---- reader: open, next, close ---------------------------------------------- */

/* Geometry and byte order from the PROLOGUE; the time origin and clock
 * resolution from the first TIMEINFO and TIMETYPE. */
static int start(st_reader *r) {
    const unsigned char *b;
    size_t n;
    uint32_t version = VERSION;
    tw_loc loc = rec_loc(r, 0);
    if (tw_input_peek(r->ctx.in, 64, &b, &n) != 0) return TW_ERR;
    st_geom g;
    pro_kind k = prologue(b, n, &g, &version);
    r->g = k == PRO_OK ? g : DEFAULT_GEOM;
    loc.length = (uint32_t)(n < r->g.entry ? n : r->g.entry);  /* the first buffer */
    if (k == PRO_NONE)
        tw_report(r->ctx.diag, TW_R_ST_PROLOGUE, &loc,
                  n ? "no PROLOGUE buffer at the start (not a StackTrack file, or a buffer "
                      "that wrapped around); read as little-endian 24-byte buffers, payload at "
                      "8, 16-byte INFO"
                    : "the input is empty: no PROLOGUE buffer");
    else if (k == PRO_BAD)
        tw_report(r->ctx.diag, TW_R_ST_PROLOGUE, &loc,
                  "the PROLOGUE's geometry is impossible (entry_size %u, payload_offset %u, "
                  "info_len %u); read as %s 24-byte buffers, payload at 8, 16-byte INFO",
                  g.entry, g.poff, g.info, g.be ? "big-endian" : "little-endian");
    else if (version != VERSION)
        tw_report(r->ctx.diag, TW_R_ST_PROLOGUE, &loc,
                  "format version %u (0x%X); only %d (1.00) is known, read as that",
                  (unsigned)version, (unsigned)version, VERSION);
    if (k == PRO_BAD) r->g.be = g.be;
    if (tw_input_peek(r->ctx.in, LOOKAHEAD, &b, &n) != 0) return TW_ERR;
    bool have_tdiv = false;
    for (size_t off = 0; off + r->g.entry <= n && !(have_tdiv && r->origin_known);
         off += r->g.entry) {
        unsigned type = rd16(b + off, r->g.be) & F_TYPE;
        const unsigned char *pl = b + off + r->g.poff;
        if (type == T_TIMEINFO && !r->origin_known) {
            r->origin_known = true;
            r->origin_s = rd32(pl + 8, r->g.be);
        } else if (type == T_TIMETYPE && !have_tdiv && (int64_t)rd64(pl, r->g.be) > 0) {
            int64_t tdiv = (int64_t)rd64(pl, r->g.be);
            have_tdiv = true;
            r->ctx.info->resolution_ns = tdiv >= TW_NS_PER_S ? 1 : (TW_NS_PER_S + tdiv - 1) / tdiv;
        }
    }
    if (r->origin_known) {
        r->ctx.info->has_origin = true;
        r->ctx.info->origin_ns = (int64_t)r->origin_s * TW_NS_PER_S;
        r->ctx.info->origin_ts = 0;
    }
    return TW_OK;
}

static void st_close(void *state);

static bool style_opt(const tw_read_ctx *ctx, const char *name, int64_t *v) {
    *v = tw_opt_int(ctx->opts, name);
    if (*v >= 0 && *v <= 0xFFFF) return true;
    tw_report(ctx->diag, TW_R_BAD_OPTION, NULL, "--%s=%lld: a checkpoint style is 0 to 65535",
              name, (long long)*v);
    return false;
}

static int st_open(const tw_read_ctx *ctx, void **state) {
    st_reader *r = tw_state_alloc(ctx->diag, sizeof *r);
    if (!r) return TW_ERR;
    r->ctx = *ctx;
    r->file = tw_input_name(ctx->in);
    r->all_instants = tw_opt_bool(ctx->opts, OPT_INSTANTS);
    r->window = tw_opt_int(ctx->opts, OPT_WINDOW);
    r->k_file = tw_intern_cstr(ctx->strtab, "file");
    r->k_line = tw_intern_cstr(ctx->strtab, "line");
    r->k_prop = tw_intern_cstr(ctx->strtab, "stacktrack.file_property");
    ctx->info->resolution_ns = 1;
    int rc = TW_ERR;
    if (!r->k_file || !r->k_line || !r->k_prop)
        tw_own_names_failed(ctx);
    else if (!style_opt(ctx, OPT_ENTRY, &r->entry_style) ||
             !style_opt(ctx, OPT_EXIT, &r->exit_style))
        ;
    else if (r->entry_style == r->exit_style)
        tw_report(ctx->diag, TW_R_BAD_OPTION, NULL,
                  "--" OPT_ENTRY " and --" OPT_EXIT " are both %lld; they must differ",
                  (long long)r->entry_style);
    else if (r->window < 1 || r->window > MAX_WINDOW)
        tw_report(ctx->diag, TW_R_BAD_OPTION, NULL,
                  "--" OPT_WINDOW "=%lld: the window is 1 to %d buffers (events wait in memory "
                  "while a run is open)",
                  (long long)r->window, MAX_WINDOW);
    else
        rc = start(r);
    if (rc != TW_OK) {
        st_close(r);
        return TW_ERR;
    }
    *state = r;
    return TW_OK;
}

/* The input is exhausted: report what is left over, end every open run. */
static void finish(st_reader *r) {
    if (r->avail) {
        tw_loc loc = rec_loc(r, r->rec);
        loc.length = (uint32_t)r->avail;  /* what is left of the record */
        tw_report(r->ctx.diag, TW_R_TRUNCATED_FILE, &loc,
                  "the last %zu %s not make a whole %u-byte buffer; ignored", r->avail,
                  r->avail == 1 ? "byte does" : "bytes do", r->g.entry);
        tw_input_skip(r->ctx.in, r->avail);
        r->avail = 0;
    }
    r->eof = true;
    while (r->nopen) abandon(r, r->rec);
    static const struct {
        tw_rule rule;
        const char *what;
    } totals[C_COUNT] = {
        [C_UNKNOWN] = {TW_R_UNKNOWN_RECORD, "buffers of unknown types were skipped"},
        [C_ORPHAN] = {TW_R_ST_INFO_RUN, "INFO buffers had no owner"},
        [C_ABANDONED] = {TW_R_ST_INFO_RUN, "INFO runs did not end"},
        [C_UNDEF_SCOPE] = {TW_R_ST_UNDEF_SCOPE, "checkpoints were hit without a definition"},
        [C_UNDEF_FILE] = {TW_R_ST_UNDEF_FILE, "records named undefined files"},
        [C_PROLOGUE] = {TW_R_ST_PROLOGUE, "PROLOGUE buffers inside the file were ignored"},
        [C_SEQUENCE] = {TW_R_ST_SEQUENCE, "HIT sequence numbers went backwards on a thread"},
    };
    tw_loc file_loc = {.file = r->file, .kind = TW_LOC_FILE};
    for (int c = 0; c < C_COUNT; c++)
        if (r->count[c] > MAX_REPORTS)
            tw_report(r->ctx.diag, totals[c].rule, &file_loc, "%llu %s in all",
                      (unsigned long long)r->count[c], totals[c].what);
}

static int st_next(void *state, tw_event *ev) {
    st_reader *r = state;
    for (;;) {
        if (pop(r, ev)) return TW_OK;
        if (r->eof) return TW_EOF;
        if (tw_diag_stopped(r->ctx.diag)) return TW_ERR;
        if (r->avail < r->g.entry) {
            if (tw_input_peek(r->ctx.in, (size_t)r->g.entry * 4096, &r->p, &r->avail) != 0)
                return TW_ERR;
            if (r->avail < r->g.entry) {
                finish(r);
                continue;
            }
        }
        const unsigned char *b = r->p;
        r->p += r->g.entry;
        r->avail -= r->g.entry;
        if (plain_hit(r, b, ev)) {
            tw_input_skip(r->ctx.in, r->g.entry);
            return TW_OK;
        }
        buffer(r, b);
        tw_input_skip(r->ctx.in, r->g.entry);
        if (r->direct) {
            r->direct = false;
            if (deliver(r, ev)) return TW_OK;
        }
    }
}

static void st_close(void *state) {
    st_reader *r = state;
    item_release(r, &r->cur);
    for (size_t i = 0; i < r->qn; i++) item_release(r, &r->q[(r->qhead + i) & (r->qcap - 1)]);
    free(r->q);
    while (r->nopen) close_run(r, r->nopen - 1);
    free(r->open);
    for (size_t i = 0; i < r->nprocs; i++) proc_free(r, r->procs[i]);
    while (r->spares) {
        st_text *t = r->spares;
        r->spares = t->next_spare;
        tw_buf_free(&t->buf);
        free(t);
    }
    free(r->procs);
    tw_u64map_free(&r->procmap);
    tw_u64map_free(&r->undef);
    tw_u64map_free(&r->seqs);
    free(r);
}

/* ---- writer ------------------------------------------------------------------ */

/*
 * Little-endian buffers in the default geometry.  Per process: PROCINFO,
 * TIMETYPE (10^9 ticks per second: the ticks are the stream's nanoseconds,
 * from start_hires 0) and TIMEINFO when the origin is known.  Each
 * checkpoint - an entry (style 3), exit (4) or value (6) checkpoint of a
 * name at a source file and line - is defined (FLOC of its file, SLOC with its name) the
 * first time it is hit, with that hit's sequence number, as StackTrack
 * itself does.  Events without a source file use a file without a path.
 */

typedef struct st_cp {
    struct st_cp *next;  /* same name and style, other source location */
    const tw_str *file;
    uint16_t line, index;
} st_cp;

typedef struct st_wproc {
    uint16_t pid;
    uint32_t seq;
    unsigned nscopes, nfiles;
    tw_u64map cps;    /* style << 32 | name id -> st_cp list */
    tw_u64map files;  /* file id + 1 (0: no file) -> filenum */
    tw_u64map props;  /* filenum -> properties written */
    st_cp **cpv;      /* owns the checkpoints */
    size_t ncp, ccp;
} st_wproc;

/* Ids of the stream mapped to the 16 bits the format holds: an id keeps
 * its value when it fits and is free, else takes the next free one. */
typedef struct st_ids {
    tw_u64map map;  /* id -> new id + 1 */
    unsigned char used[8192];
    unsigned nused;
} st_ids;

typedef struct st_writer {
    tw_write_ctx ctx;
    bool xml, prologue, has_start;
    uint32_t start;
    /* A FLOC written for a file property is held back, with the buffers
     * after it, while further properties of that file follow, so that its
     * `properties` can be their number (hold_flush()). */
    bool holding;
    uint32_t hold_pid;         /* the stream's process id */
    const tw_str *hold_file;
    unsigned hold_props;
    tw_buf hold;               /* the buffers held, the FLOC first */
    st_ids pids, tids;
    tw_u64map procmap;
    st_wproc **procs;
    size_t nprocs, cprocs;
    const tw_str *k_file, *k_line, *k_prop;
} st_writer;

/* 0: mapped (*renumbered tells whether the value changed, first time only);
 * -1: all 65536 values are taken; -2: out of memory */
static int map_id(st_ids *m, uint64_t id, uint16_t *out, bool *renumbered) {
    uintptr_t v = (uintptr_t)tw_u64map_get(&m->map, id);
    *renumbered = false;
    if (v) {
        *out = (uint16_t)(v - 1);
        return 0;
    }
    if (m->nused > 0xFFFF) return -1;
    unsigned slot = (unsigned)(id & 0xFFFF);
    while (m->used[slot / 8] & 1u << slot % 8) {
        slot = (slot + 1) & 0xFFFF;
        while (m->used[slot / 8] == 0xFF) slot = (slot / 8 + 1) * 8 & 0xFFFF; /* full bytes */
    }
    if (!tw_u64map_put(&m->map, id, (void *)(uintptr_t)(slot + 1))) return -2;
    m->used[slot / 8] |= (unsigned char)(1u << slot % 8);
    m->nused++;
    *out = (uint16_t)slot;
    *renumbered = slot != id;
    return 0;
}

static void xml_buffer(st_writer *w, const unsigned char *b);

static void out_buffer(st_writer *w, const unsigned char *b) {
    if (w->xml) xml_buffer(w, b);
    else tw_out_write(w->ctx.out, b, 24);
}

/* Write the buffers held, the FLOC's `properties` set to the number of
 * FPROPERTY buffers of its file among them. */
static void hold_flush(st_writer *w) {
    if (!w->holding) return;
    w->holding = false;
    unsigned char *b = (unsigned char *)w->hold.p;
    wr(b + 8 + 4, w->hold_props, 2);
    for (size_t off = 0; off < w->hold.len; off += 24) out_buffer(w, b + off);
    w->hold.len = 0;
}

static void emit(st_writer *w, unsigned flags, uint16_t pid, uint32_t seq,
                 const unsigned char payload[16]) {
    unsigned char b[24];
    wr(b, flags, 2);
    wr(b + 2, pid, 2);
    wr(b + 4, seq, 4);
    memcpy(b + 8, payload, 16);
    if (w->holding) {
        if (tw_buf_append(&w->hold, b, sizeof b)) return;
        hold_flush(w); /* out of memory: what is held goes out as it is */
    }
    out_buffer(w, b);
}

/* The INFO run of a text: 16-byte chunks, the last NUL-padded; a text
 * longer than WRITE_TEXT_MAX cut to it, at a character. */
static void emit_text(st_writer *w, uint16_t pid, uint32_t seq, const char *s, size_t n) {
    if (n > WRITE_TEXT_MAX) {
        n = WRITE_TEXT_MAX;
        for (int k = 0; k < 3 && ((unsigned char)s[n] & 0xC0) == 0x80; k++) n--;
        tw_loss_add(w->ctx.loss,
                    "names and texts longer than 65536 bytes cut to it (the INFO run that "
                    "--stacktrack-info-window takes by default)",
                    1);
    }
    if (n && s[n - 1] == '\0') tw_loss_add(w->ctx.loss, "names and texts ending in NUL bytes", 1);
    size_t off = 0;
    do {
        unsigned char pl[16] = {0};
        size_t k = n - off < 16 ? n - off : 16;
        if (k) memcpy(pl, s + off, k);
        off += k;
        emit(w, T_INFO | (off >= n ? F_INFO_END : 0), pid, seq, pl);
    } while (off < n);
}

static void emit_prologue(st_writer *w, uint16_t pid) {
    unsigned char pl[16] = {0};
    wr(pl, MAGIC, 4);
    wr(pl + 4, VERSION, 4);
    pl[8] = (unsigned char)DEFAULT_GEOM.info;
    pl[9] = (unsigned char)DEFAULT_GEOM.entry;
    pl[10] = (unsigned char)DEFAULT_GEOM.poff;
    emit(w, T_PROLOGUE, pid, 0, pl);
    w->prologue = true;
}

static void wproc_free(st_wproc *p) {
    for (size_t i = 0; i < p->ncp; i++) free(p->cpv[i]);
    free(p->cpv);
    tw_u64map_free(&p->cps);
    tw_u64map_free(&p->files);
    tw_u64map_free(&p->props);
    free(p);
}

/* The process of an event; a new one is announced. */
static st_wproc *wproc(st_writer *w, uint32_t pid) {
    st_wproc *p = tw_u64map_get(&w->procmap, pid);
    if (p) return p;
    uint16_t id;
    bool renumbered;
    int rc = map_id(&w->pids, pid, &id, &renumbered);
    if (rc == -1) tw_loss_add(w->ctx.loss, "events of processes beyond 65536", 1);
    if (rc) return NULL;
    if (renumbered) tw_loss_add(w->ctx.loss, "process ids renumbered to fit 16 bits", 1);
    if (!(p = calloc(1, sizeof *p)) ||
        !tw_grow(&w->procs, &w->cprocs, w->nprocs + 1, sizeof *w->procs, 8) ||
        !tw_u64map_put(&w->procmap, pid, p)) {
        free(p);
        return NULL;
    }
    w->procs[w->nprocs++] = p;
    p->pid = id;
    if (!w->prologue) emit_prologue(w, id);
    unsigned char pl[16] = {0};
    wr(pl, id, 2);
    wr(pl + 2, 1, 2); /* writeCount of the first cycle */
    emit(w, T_PROCINFO, id, 0, pl);
    memset(pl, 0, sizeof pl);
    wr(pl, (uint64_t)TW_NS_PER_S, 8);
    emit(w, T_TIMETYPE, id, 0, pl);
    if (w->has_start) {
        memset(pl, 0, sizeof pl);
        wr(pl + 8, w->start, 4);
        emit(w, T_TIMEINFO, id, 0, pl);
    }
    return p;
}

/* The file number of a source file (NULL: none) in a process; a new one is
 * defined by a FLOC with the sequence number of the hit that needs it
 * (`hold`: held back, see st_writer.holding). */
static int file_num(st_writer *w, st_wproc *p, const tw_str *file, uint32_t seq, bool hold,
                    uint16_t *num) {
    uint64_t key = file ? (uint64_t)file->id + 1 : 0;
    uintptr_t v = (uintptr_t)tw_u64map_get(&p->files, key);
    if (v) {
        *num = (uint16_t)(v - 1);
        return 0;
    }
    if (p->nfiles == 0xFFFF) return -1;
    if (!tw_u64map_put(&p->files, key, (void *)(uintptr_t)(p->nfiles + 2))) return -2;
    *num = (uint16_t)++p->nfiles;
    unsigned char pl[16] = {0};
    wr(pl, *num, 2);
    if (hold && tw_buf_reserve(&w->hold, 24)) {
        w->holding = true;
        w->hold_file = file;
        w->hold_props = 0;
        w->hold.len = 0;
    }
    emit(w, T_FLOC | (file ? F_HAS_INFO : 0), p->pid, seq, pl);
    if (file) emit_text(w, p->pid, seq, file->s, file->len);
    return 0;
}

/* The checkpoint of a hit; 0, -1 (the process has 65535 checkpoints or
 * files already) or -2 (out of memory). */
static int checkpoint(st_writer *w, st_wproc *p, const tw_str *name, unsigned style,
                      const tw_str *file, unsigned line, uint32_t seq, uint16_t *index) {
    uint64_t key = (uint64_t)style << 32 | name->id;
    st_cp *head = tw_u64map_get(&p->cps, key);
    for (const st_cp *c = head; c; c = c->next)
        if (c->file == file && c->line == line) {
            *index = c->index;
            return 0;
        }
    if (p->nscopes == 0xFFFF) return -1;
    uint16_t filenum;
    int rc = file_num(w, p, file, seq, false, &filenum);
    if (rc) return rc;
    st_cp *c = calloc(1, sizeof *c);
    if (!c || !tw_grow(&p->cpv, &p->ccp, p->ncp + 1, sizeof *p->cpv, 16) ||
        !tw_u64map_put(&p->cps, key, c)) {
        free(c);
        return -2;
    }
    p->cpv[p->ncp++] = c;
    c->next = head;
    c->file = file;
    c->line = (uint16_t)line;
    c->index = (uint16_t)++p->nscopes;
    unsigned char pl[16] = {0};
    wr(pl, c->index, 2);
    wr(pl + 2, style, 2);
    wr(pl + 4, line, 2);
    wr(pl + 8, filenum, 2);
    emit(w, T_SLOC | F_HAS_INFO, p->pid, seq, pl);
    emit_text(w, p->pid, seq, name->s, name->len);
    *index = c->index;
    return 0;
}

/* The source location of an event from its file and line attributes. */
static bool source_of(st_writer *w, const tw_event *ev, const tw_str **file, unsigned *line) {
    uint64_t other = 0;
    *file = NULL;
    *line = 0;
    for (size_t i = 0; i < ev->nattrs; i++) {
        const tw_attr *a = &ev->attrs[i];
        if (a->key == w->k_file && a->type == TW_ATTR_STR) {
            if (a->slen && !(*file = tw_intern(w->ctx.strtab, a->s, a->slen))) return false;
        } else if (a->key == w->k_line && a->type == TW_ATTR_INT) {
            if (a->i >= 0 && a->i <= 0xFFFF) *line = (unsigned)a->i;
            else tw_loss_add(w->ctx.loss, "line numbers outside 0-65535", 1);
        } else {
            other++;
        }
    }
    if (other) tw_loss_add(w->ctx.loss, "event attributes other than file and line", other);
    return true;
}

/* A file property the reader found (meta stacktrack.file_property, msg
 * "name=value", the file as attribute): an FPROPERTY of that file, with
 * the sequence number of the process's last HIT (1, the first HIT's, before
 * it: only PROLOGUE, PROCINFO, TIMETYPE and TIMEINFO have 0).  When it is
 * the first use of the file, its FLOC is held back while more properties
 * of the file follow, to count them. */
static int property(st_writer *w, const tw_event *ev, const tw_str *file) {
    bool more = w->holding && ev->pid == w->hold_pid && file == w->hold_file;
    if (!more) hold_flush(w);
    st_wproc *p = wproc(w, ev->pid);
    if (!p) return w->pids.map.n < 0x10000 ? -2 : 0; /* a loss counted by wproc() */
    uint32_t seq = p->seq ? p->seq : 1;
    uint16_t filenum;
    if (!more) w->hold_pid = ev->pid; /* for the FLOC file_num() may hold */
    int rc = file_num(w, p, file, seq, !more, &filenum);
    if (rc == -1) tw_loss_add(w->ctx.loss, "file properties beyond 65535 files", 1);
    if (rc) return rc;
    uintptr_t n = (uintptr_t)tw_u64map_get(&p->props, filenum);
    if (!tw_u64map_put(&p->props, filenum, (void *)(n + 1))) return -2;
    unsigned char pl[16] = {0};
    wr(pl, filenum, 2);
    wr(pl + 4, n, 2);
    emit(w, T_FPROP | (ev->msg ? F_HAS_INFO : 0), p->pid, seq, pl);
    if (ev->msg) emit_text(w, p->pid, seq, ev->msg, ev->msg_len);
    if (w->holding && ++w->hold_props == 0x7FFF) hold_flush(w); /* properties is an int16 */
    return 0;
}

static int st_wevent(void *state, const tw_event *ev) {
    st_writer *w = state;
    int64_t style = STYLE_VALUE;
    const tw_str *file;
    unsigned line;
    switch (ev->kind) {
    case TW_BEGIN: style = STYLE_ENTRY; break;
    case TW_END: style = STYLE_EXIT; break;
    case TW_INSTANT: break;
    case TW_META:
        if (ev->name == w->k_prop) {
            if (!source_of(w, ev, &file, &line)) goto oom;
            if (property(w, ev, file) == -2) goto oom;
            return TW_OK;
        }
        /* fall through */
    default: tw_loss_drop(w->ctx.loss, ev); return TW_OK;
    }
    hold_flush(w);
    if (!source_of(w, ev, &file, &line)) goto oom;
    if (ev->cat) tw_loss_add(w->ctx.loss, "categories", 1);
    if (ev->has_value) tw_loss_add(w->ctx.loss, "event values dropped", 1);
    st_wproc *p = wproc(w, ev->pid);
    if (!p) {
        if (w->pids.map.n < 0x10000) goto oom;
        return TW_OK;
    }
    uint16_t tid, index;
    bool renumbered;
    int rc = map_id(&w->tids, ev->tid, &tid, &renumbered);
    if (rc == -1) tw_loss_add(w->ctx.loss, "events of threads beyond 65536", 1);
    if (rc == -2) goto oom;
    if (rc) return TW_OK;
    if (renumbered) tw_loss_add(w->ctx.loss, "thread ids renumbered to fit 16 bits", 1);
    uint32_t seq = ++p->seq;
    rc = checkpoint(w, p, ev->name, (unsigned)style, file, line, seq, &index);
    if (rc == -1) tw_loss_add(w->ctx.loss, "events beyond 65535 checkpoints or files in a process", 1);
    if (rc == -2) goto oom;
    if (rc) return TW_OK;
    unsigned char pl[16] = {0};
    wr(pl, (uint64_t)ev->ts, 8);
    wr(pl + 8, index, 2);
    wr(pl + 10, tid, 2);
    /* cppcheck-suppress badBitmaskCheck ; T_HIT is 0, named for the reader */
    emit(w, T_HIT | (ev->msg ? F_HAS_INFO : 0), p->pid, seq, pl);
    if (ev->msg) emit_text(w, p->pid, seq, ev->msg, ev->msg_len);
    return TW_OK;
oom:
    tw_report(w->ctx.diag, TW_R_OUT_OF_MEMORY, &ev->loc, "out of memory");
    return TW_ERR;
}

static void st_wfree(void *state) {
    st_writer *w = state;
    if (!w) return;
    for (size_t i = 0; i < w->nprocs; i++) wproc_free(w->procs[i]);
    free(w->procs);
    tw_buf_free(&w->hold);
    tw_u64map_free(&w->procmap);
    tw_u64map_free(&w->pids.map);
    tw_u64map_free(&w->tids.map);
    free(w);
}

static int wbegin(const tw_write_ctx *ctx, bool xml, void **state) {
    st_writer *w = tw_state_alloc(ctx->diag, sizeof *w);
    if (!w) return TW_ERR;
    w->ctx = *ctx;
    w->xml = xml;
    w->k_file = tw_intern_cstr(ctx->strtab, "file");
    w->k_line = tw_intern_cstr(ctx->strtab, "line");
    w->k_prop = tw_intern_cstr(ctx->strtab, "stacktrack.file_property");
    if (!w->k_file || !w->k_line || !w->k_prop) {
        tw_report(ctx->diag, TW_R_OUT_OF_MEMORY, NULL, "out of memory");
        st_wfree(w);
        return TW_ERR;
    }
    /* TIMEINFO holds the wall clock at tick 0 (ts 0) in whole seconds */
    const tw_trace_info *ti = ctx->info;
    int64_t wall;
    if (ti && ti->has_origin) {
        if (tw_sub_i64(ti->origin_ns, ti->origin_ts, &wall) &&
            tw_floor_div(wall, TW_NS_PER_S) >= 0 && tw_floor_div(wall, TW_NS_PER_S) <= UINT32_MAX) {
            w->has_start = true;
            w->start = (uint32_t)tw_floor_div(wall, TW_NS_PER_S);
            if (wall % TW_NS_PER_S)
                tw_loss_add(ctx->loss, "sub-second part of the time origin", 1);
        } else {
            tw_loss_add(ctx->loss, "time origin outside 1970-2106", 1);
        }
    }
    *state = w;
    return TW_OK;
}

static int st_wbegin(const tw_write_ctx *ctx, void **state) { return wbegin(ctx, false, state); }

static int st_wend(void *state) {
    st_writer *w = state;
    hold_flush(w);
    if (!w->prologue) emit_prologue(w, 0);
    return TW_OK;
}

/* ---- stacktrack-xml: the buffers as expand_events shows them ---------------- */

/*
 * One element per buffer, fields in the order of the documentation's
 * example; times (all hitime_t values) in seconds since start_hires with
 * six decimals.  Unlike expand_events, header fields are printed with their
 * true values (it shifts the pid 0x060c to "0x60c0").
 */

/* Nanoseconds (the writer's ticks) as seconds with six decimals. */
static void xml_secs(tw_output *o, int64_t ns) {
    int64_t us = tw_round_div(ns, 1000, NULL);
    if (us < 0) tw_out_putc(o, '-');
    uint64_t a = us < 0 ? 0 - (uint64_t)us : (uint64_t)us;
    tw_out_u64(o, a / 1000000);
    tw_out_putc(o, '.');
    tw_out_u64_pad(o, a % 1000000, 6);
}

static void xml_buffer(st_writer *w, const unsigned char *b) {
    tw_output *o = w->ctx.out;
    unsigned flags = rd16(b, false), type = flags & F_TYPE;
    const unsigned char *pl = b + 8;
    tw_out_printf(o, "<%s flags=\"0x%04x\" pid=\"0x%04x\" seq=\"%u\"", type_name(type), flags,
                  (unsigned)rd16(b + 2, false), (unsigned)rd32(b + 4, false));
    switch (type) {
    case T_PROLOGUE:
        tw_out_printf(o, " _12345678=\"%u\" version=\"%u\" info_len=\"%u\" entry_size=\"%u\""
                      " payload_offset=\"%u\"",
                      (unsigned)rd32(pl, false), (unsigned)rd32(pl + 4, false), pl[8], pl[9],
                      pl[10]);
        break;
    case T_PROCINFO:
        tw_out_printf(o, " pid=\"0x%04x\" writeCount=\"%u\"", (unsigned)rd16(pl, false),
                      (unsigned)rd16(pl + 2, false));
        break;
    case T_TIMETYPE: /* the divisor through the converter: tdiv / tdiv */
        tw_out_printf(o, " tdiv=\"1.000000\" timetype=\"0x%04x\"", (unsigned)rd16(pl + 8, false));
        break;
    case T_TIMEINFO:
        tw_out_printf(o, " start_hires=\"0.000000\" start=\"%u\"", (unsigned)rd32(pl + 8, false));
        break;
    case T_FLOC:
    case T_FPROP:
        tw_out_printf(o, " filenum=\"%u\" writeCount=\"%u\" %s=\"%u\"",
                      (unsigned)rd16(pl, false), (unsigned)rd16(pl + 2, false),
                      type == T_FLOC ? "properties" : "propertynum", (unsigned)rd16(pl + 4, false));
        break;
    case T_SLOC:
        tw_out_printf(o, " scopeIndex=\"%u\" style=\"%u\" linenum=\"%u\" writeCount=\"%u\""
                      " filenum=\"%u\"",
                      (unsigned)rd16(pl, false), (unsigned)rd16(pl + 2, false),
                      (unsigned)rd16(pl + 4, false), (unsigned)rd16(pl + 6, false),
                      (unsigned)rd16(pl + 8, false));
        break;
    case T_HIT:
        tw_out_str(o, " when=\"");
        xml_secs(o, (int64_t)rd64(pl, false));
        tw_out_printf(o, "\" scopeIndex=\"%u\" tid=\"0x%04x\"", (unsigned)rd16(pl + 8, false),
                      (unsigned)rd16(pl + 10, false));
        break;
    case T_INFO: {
        size_t n = 16;
        if (flags & F_INFO_END)
            while (n && pl[n - 1] == 0) n--;
        tw_out_str(o, " text=\"");
        tw_out_xml_str(o, (const char *)pl, n);
        tw_out_putc(o, '"');
        break;
    }
    default: break;
    }
    tw_out_str(o, "/>\n");
}

static int xml_wbegin(const tw_write_ctx *ctx, void **state) { return wbegin(ctx, true, state); }

/* ---- descriptors ------------------------------------------------------------- */

static const char *const st_aliases[] = {"boost-stacktrack", "tlg", NULL};
static const char *const st_exts[] = {".tlg", NULL};
static const tw_option st_options[] = {
    {OPT_ENTRY, TW_OPT_INT, "3", NULL, TW_OPT_READ,
     "SLOC style of scope-entry checkpoints (inferred: 3)"},
    {OPT_EXIT, TW_OPT_INT, "4", NULL, TW_OPT_READ,
     "SLOC style of scope-exit checkpoints (assumed: 4; hits with flag bits 0xFC00, or of a "
     "checkpoint with an entry's name and line, are exits too)"},
    {OPT_INSTANTS, TW_OPT_BOOL, "no", NULL, TW_OPT_READ,
     "read every HIT as an instant event (no scopes)"},
    {OPT_WINDOW, TW_OPT_INT, DEFAULT_WINDOW, NULL, TW_OPT_READ,
     "buffers within which an INFO run must end before its text is used as it stands"},
    {NULL, 0, NULL, NULL, 0, NULL}};

/* What the reader produces and the writer keeps (see tw_fidelity). */
static const tw_fidelity st_fidelity = {
    .family = "stacktrack",
    .produces = TW_KEEP_THREADS | TW_KEEP_NESTING | TW_KEEP_IDS | TW_KEEP_PID |
        TW_KEEP_PROCESSES | TW_KEEP_ORIGIN | TW_KEEP_NEGATIVE | TW_KEEP_INSTANTS |
        TW_KEEP_MESSAGES | TW_KEEP_ATTRIBUTES | TW_KEEP_OWN,
    .keeps = TW_KEEP_THREADS | TW_KEEP_NESTING | TW_KEEP_PID | TW_KEEP_PROCESSES |
        TW_KEEP_ORIGIN | TW_KEEP_NEGATIVE | TW_KEEP_INSTANTS | TW_KEEP_MESSAGES,
    .read_clock_ns = 1,
    .write_clock_ns = 1,
    .read_origin_ns = TW_NS_PER_S,
    .write_origin_ns = TW_NS_PER_S,
    .partly = 0,
};

TW_READ_BATCH(st_run, st_next)

/* A run of events (tw_batch), as tw_read_batch_with() reads it with
 * st_next(), but where the consumer drops the events' details (which
 * otherwise end a run at every event that has a source file) the
 * commonest buffers (plain_hit(), which reports nothing) go straight into
 * the batch without a call each, their bytes skipped at once. */
static int st_batch(void *state, tw_batch *b) {
    st_reader *r = state;
    if (!b->drop_details) return st_run(r, b);
    while (b->n < b->cap) {
        /* st_next()'s first steps, for the commonest buffer */
        if (!r->qn && !r->eof && !tw_diag_stopped(r->ctx.diag)) {
            size_t n0 = b->n, k = 0;
            while (b->n < b->cap && r->avail >= r->g.entry) {
                const unsigned char *buffer_at = r->p;
                r->p += r->g.entry; /* as st_next() has it for plain_hit() */
                r->avail -= r->g.entry;
                tw_event *e = &b->ev[b->n];
                if (!plain_hit(r, buffer_at, e)) {
                    r->p = buffer_at;
                    r->avail += r->g.entry;
                    break;
                }
                k += r->g.entry;
                b->n++;
                e->attrs = NULL; /* its details dropped: it has no message */
                e->nattrs = 0;
            }
            tw_input_skip(r->ctx.in, k);
            if (b->n > n0) continue;
        }
        int rc; /* any other: one event the general way */
        if (!tw_read_one_with(st_next, r, b, &rc)) return rc;
    }
    return TW_OK;
}

static const tw_format st_format = {
    .abi = TW_FORMAT_ABI,
    .name = "stacktrack",
    .aliases = st_aliases,
    .extensions = st_exts,
    .description = "Boost StackTrack raw_event buffers (.tlg)",
    .flags = TW_FMT_BINARY | TW_FMT_THREADS | TW_FMT_ORIGIN | TW_FMT_WRITER_INTERNS,
    .options = st_options,
    .probe = st_probe,
    .read_open = st_open,
    .read_next = st_next,
    .read_batch = st_batch,
    .read_close = st_close,
    .write_begin = st_wbegin,
    .write_event = st_wevent,
    .write_end = st_wend,
    .write_free = st_wfree,
    .fidelity = &st_fidelity,
};

TW_FORMAT_EXPORT(stacktrack, st_format)

static const tw_format xml_format = {
    .abi = TW_FORMAT_ABI,
    .name = "stacktrack-xml",
    .description = "Boost StackTrack buffers as expand_events prints them (what -t stacktrack writes)",
    .flags = TW_FMT_TEXT | TW_FMT_THREADS | TW_FMT_ORIGIN | TW_FMT_WRITER_INTERNS,
    .write_begin = xml_wbegin,
    .write_event = st_wevent,
    .write_end = st_wend,
    .write_free = st_wfree,
};

TW_FORMAT_EXPORT(stacktrack_xml, xml_format)
