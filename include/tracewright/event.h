/*
 * tracewright/event.h - the event model shared by every reader and writer.
 *
 * A reader turns its input into a sequence of tw_event values; writers and
 * the statistics engine consume the same sequence.  Times are signed 64-bit
 * nanoseconds on the trace's own clock (never rebased), names are interned
 * strings, and every event remembers where in its input it came from.
 */
#ifndef TRACEWRIGHT_EVENT_H
#define TRACEWRIGHT_EVENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Interned strings                                                          */
/* ------------------------------------------------------------------------ */

/*
 * An interned string.  Equal byte sequences interned in the same table yield
 * the same pointer, so names compare with ==.  The bytes may contain NUL;
 * s[len] is always NUL.  `id` is dense (0, 1, 2, ... in order of interning)
 * and suits arrays indexed by name.  Addresses are stable for the lifetime
 * of the table.
 */
typedef struct tw_str {
    uint64_t hash;
    uint32_t id;
    uint32_t len;
    char s[];
} tw_str;

/*
 * The id of a transient string: the name of an instant event that was not
 * interned because the consumer asked for it (tw_read_ctx.transient_names),
 * so that free-form message texts do not fill the table.  It is not in any
 * table, its hash is 0 and it is valid as long as the event's `msg` (until
 * the reader's next event).  Only TW_INSTANT names may be transient; a
 * consumer that keeps one beyond its event interns its bytes.
 */
#define TW_STR_TRANSIENT UINT32_MAX

static inline bool tw_str_transient(const tw_str *s) { return s->id == TW_STR_TRANSIENT; }

typedef struct tw_strtab tw_strtab;

/* A new, empty table; NULL when out of memory. */
tw_strtab *tw_strtab_new(void);
void tw_strtab_free(tw_strtab *tab);

/*
 * Intern `len` bytes.  Returns NULL when out of memory or when the table
 * already holds its limit of distinct strings (see tw_strtab_set_limit).
 */
const tw_str *tw_intern(tw_strtab *tab, const void *bytes, size_t len);
const tw_str *tw_intern_cstr(tw_strtab *tab, const char *s);
/* Same as tw_intern with a hash the caller computed with tw_hash(). */
const tw_str *tw_intern_hashed(tw_strtab *tab, const void *bytes, size_t len,
                               uint64_t hash);
/* The string hash used by the table. */
uint64_t tw_hash(const void *bytes, size_t len);

size_t tw_strtab_count(const tw_strtab *tab);
/* The string with the given id, or NULL if out of range. */
const tw_str *tw_strtab_at(const tw_strtab *tab, uint32_t id);
/* Cap the number of distinct strings (0 = no cap, the default). */
void tw_strtab_set_limit(tw_strtab *tab, size_t max_strings);
/* The cap (0 = none) and whether the table holds that many strings. */
size_t tw_strtab_limit(const tw_strtab *tab);
bool tw_strtab_full(const tw_strtab *tab);
/* Bytes held by the table (strings, index and hash slots). */
size_t tw_strtab_bytes(const tw_strtab *tab);

/* ------------------------------------------------------------------------ */
/* Durations                                                                 */
/* ------------------------------------------------------------------------ */

/* Parse a duration with its unit ("250us", "1.5ms", "2s", "100ns"; "µs" for
 * "us"; a bare "0"), rounded to the nearest ns (digits beyond the ninth
 * decimal are ignored).  False if malformed or beyond int64 ns. */
bool tw_duration_parse(const char *s, int64_t *ns);
/* A duration with a unit chosen for its size: "950 ns", "1.234 µs",
 * "12.500 ms", "3.000 s"; three decimals, rounded to nearest. */
void tw_duration_format(int64_t ns, char *buf, size_t n);

/* ------------------------------------------------------------------------ */
/* Source locations                                                          */
/* ------------------------------------------------------------------------ */

typedef enum tw_loc_kind {
    TW_LOC_NONE = 0, /* no input position (e.g. a writer's remark) */
    TW_LOC_FILE,     /* the input as a whole */
    TW_LOC_TEXT,     /* line and column of a text input */
    TW_LOC_BINARY    /* byte offset and record index of a binary input */
} tw_loc_kind;

typedef struct tw_loc {
    const char *file;  /* display name of the input; NULL for TW_LOC_NONE */
    uint64_t line;     /* 1-based line (text) */
    uint64_t col;      /* 1-based byte column (text); 0 when not known */
    uint64_t offset;   /* byte offset from the start of the input */
    uint64_t record;   /* 0-based record index (binary) */
    tw_loc_kind kind;
    uint32_t length;   /* bytes of the record (binary); 0 when not known */
} tw_loc;

/* ------------------------------------------------------------------------ */
/* Events                                                                    */
/* ------------------------------------------------------------------------ */

typedef enum tw_kind {
    TW_BEGIN = 0, /* a scope is entered */
    TW_END,       /* a scope is left */
    TW_INSTANT,   /* a message at one point in time */
    TW_SUSPEND,   /* the running scope stops running (preemption or call) */
    TW_RESUME,    /* the suspended scope runs again */
    TW_COUNTER,   /* a value was written / sampled; see `value` */
    TW_META,      /* metadata: `name` is the key, `msg` the value */
    TW_KIND_COUNT
} tw_kind;

/* Well-known metadata keys (the `name` of a TW_META event). */
#define TW_META_PROCESS_NAME "process_name" /* msg: name of process `pid` */
#define TW_META_THREAD_NAME  "thread_name"  /* msg: name of thread `tid` */
#define TW_META_TRACE_END    "trace_end"    /* the producer closed the trace at ts */

/* "begin", "end", "instant", "suspend", "resume", "counter", "meta". */
const char *tw_kind_name(tw_kind kind);
/* Parse one of the names above; false if it is none of them. */
bool tw_kind_parse(const char *s, size_t len, tw_kind *out);

typedef enum tw_attr_type { TW_ATTR_INT = 0, TW_ATTR_STR } tw_attr_type;

/* A key/value attribute of an event (sample weight, source file, ...). */
typedef struct tw_attr {
    const tw_str *key;
    tw_attr_type type;
    int64_t i;        /* TW_ATTR_INT */
    const char *s;    /* TW_ATTR_STR: bytes (not necessarily NUL-terminated) */
    size_t slen;
    /* TW_ATTR_STR: the value as an interned string when it is one (s and
     * slen are then its bytes), so that a writer can treat it as a name
     * (remember how it is escaped, keep a pointer to it); else NULL */
    const tw_str *str;
} tw_attr;

/*
 * One event.  All pointers refer to memory owned by the reader (or the
 * string table) and stay valid until the next call that produces an event
 * from the same reader.
 */
typedef struct tw_event {
    int64_t ts;           /* nanoseconds on the trace's own clock */
    uint64_t tid;         /* thread id, opaque */
    uint32_t pid;         /* process id, opaque */
    tw_kind kind;
    const tw_str *name;   /* never NULL */
    const tw_str *cat;    /* category; NULL when the event has none */
    const char *msg;      /* message text; NULL when the event has none */
    size_t msg_len;
    int64_t value;        /* counter value; valid when has_value */
    bool has_value;
    const tw_attr *attrs; /* nattrs attributes */
    size_t nattrs;
    tw_loc loc;           /* where in the input the event came from */
} tw_event;

/* ------------------------------------------------------------------------ */
/* Trace-level information                                                   */
/* ------------------------------------------------------------------------ */

/*
 * What a reader knows about the trace as a whole.  When has_origin is set,
 * the wall clock read origin_ns nanoseconds after the Unix epoch at the
 * moment the trace clock read origin_ts, so an event happened at
 *     origin_ns + (ts - origin_ts)     nanoseconds since the epoch.
 */
typedef struct tw_trace_info {
    const char *format;     /* name of the source format */
    int64_t resolution_ns;  /* resolution of the source clock (>= 1) */
    bool has_origin;
    int64_t origin_ns;
    int64_t origin_ts;
    bool has_pid;           /* the trace belongs to one known process */
    uint32_t pid;
    /* The files the readers read besides their inputs (text1-bin: the
     * text export that names its handles), a NULL-terminated list valid
     * while the readers are open; NULL when there are none (standard input
     * is never in it).  A writer must not replace any of them. */
    const char *const *companions;
} tw_trace_info;

#ifdef __cplusplus
}
#endif
#endif /* TRACEWRIGHT_EVENT_H */
