/*
 * Internal helpers shared by the core and the formats: checked integer
 * arithmetic, time conversion, number parsing, a growable buffer, a u64
 * hash map and UTF-8 decoding.  Not part of the public API.
 */
#ifndef TW_CORE_UTIL_H
#define TW_CORE_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tracewright/event.h"
#include "tracewright/io.h"

/* TW_NOINLINE keeps a rarely taken path out of its caller, so that the
 * common path saves and restores fewer registers; TW_INLINE makes a small
 * per-field helper inline in every reader even where the compiler's
 * heuristics would not (hints only). */
#if defined(__GNUC__)
#define TW_NOINLINE __attribute__((noinline))
#define TW_INLINE inline __attribute__((always_inline))
#else
#define TW_NOINLINE
#define TW_INLINE inline
#endif

/* Each hexadecimal digit's value + 1 (either case); 0 for any other byte
 * (parse.c). */
extern const unsigned char tw_hex_digit1[256];

/* Eight copies of byte c. */
#define TW_BYTES8(c) (UINT64_C(0x0101010101010101) * (unsigned char)(c))

/* Eight bytes from any address, in the machine's order. */
static inline uint64_t tw_load64(const void *p) {
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

/* The hexadecimal digits at s (up to e), their value in *v: the byte after
 * them, or NULL when there are more than `maxdigits` (leading zeros count).
 * An empty run gives s itself. */
static inline const char *tw_scan_hex(const char *s, const char *e, unsigned maxdigits,
                                      uint64_t *v) {
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (e - s >= 8 && tw_hex_digit1[(unsigned char)*s]) {
        /* up to eight digits from one load.  With the high bits cleared no
         * byte carries into the next: bit 7 of each byte says >= or > a
         * bound.  A digit is 0x30-0x39 (not 0x10-0x19, which the case bit
         * would make one), a letter 0x41-0x46 or 0x61-0x66. */
        const uint64_t low7 = TW_BYTES8(0x7F), top = TW_BYTES8(0x80);
        uint64_t w = tw_load64(s), x = w & low7, lc = x | TW_BYTES8(0x20);
        uint64_t digit = (x + TW_BYTES8(0x50)) & ~(x + TW_BYTES8(0x46)) & top;
        uint64_t letter = (lc + TW_BYTES8(0x1F)) & ~(lc + TW_BYTES8(0x19)) & top;
        uint64_t other = (~(digit | letter) | w) & top;
        unsigned k = other ? (unsigned)__builtin_ctzll(other) / 8 : 8;
        if (k < 8 || e - s == 8 || !tw_hex_digit1[(unsigned char)s[8]]) {
            if (k > maxdigits) return NULL;
            /* each byte's value, the k digits to the top (zeros, leading
             * ones, below), then nibbles, bytes and halves put together */
            uint64_t d = ((x & TW_BYTES8(0x0F)) + (letter >> 7) * 9) << 8 * (8 - k);
            d = (d * (16 * 256 + 1)) >> 8 & 0x00FF00FF00FF00FFULL;
            d = (d * (256 * 65536 + 1)) >> 16 & 0x0000FFFF0000FFFFULL;
            *v = (d * (65536 * 0x100000000ULL + 1)) >> 32;
            return s + k;
        }
    }
#endif
    const char *d = s;
    uint64_t x = 0;
    unsigned h;
    for (; s < e && (h = tw_hex_digit1[(unsigned char)*s]) != 0; s++) x = x << 4 | (h - 1);
    if ((size_t)(s - d) > maxdigits) return NULL;
    *v = x;
    return s;
}

/* ---- temporary files (output.c) ---------------------------------------- */

/* A temporary name beside `target`: DIR/[.]NAME`suffix`, NAME cut so that
 * the last part fits NAME_MAX; malloc'ed, NULL (errno ENOMEM) when out of
 * memory. */
char *tw_temporary_name(const char *target, bool hidden, const char *suffix);
/* Keep `path` (not copied; it must live until dropped), a file or an empty
 * directory, for tw_remove_temporaries(); drop it once it is renamed into
 * place or removed. */
void tw_temporary_add(char *path, bool dir);
void tw_temporary_drop(const char *path);

/* ---- inputs (input.c) ------------------------------------------------- */

/* Report the input's problems to `diag` from now on (a source that takes
 * over an input opened by its caller: tw_source_open_inputs()). */
void tw_input_set_diag(tw_input *in, tw_diag_sink *diag);

/* ---- events --------------------------------------------------------------- */

/*
 * An event with every field zero (name NULL, kind TW_BEGIN): readers start
 * each event they produce from this.  Field by field, because gcc makes a
 * memset() or compound literal of the whole event a `rep stos`, which is
 * slow to start for 136 bytes and would run once per event.  A field added
 * to tw_event must be added here and to tw_event_copy() (the assertion
 * below catches most additions, the unit test event_clear_copy the rest).
 */
static TW_INLINE void tw_event_clear(tw_event *e) {
    e->ts = 0;
    e->tid = 0;
    e->pid = 0;
    e->kind = (tw_kind)0;
    e->name = NULL;
    e->cat = NULL;
    e->msg = NULL;
    e->msg_len = 0;
    e->value = 0;
    e->has_value = false;
    e->attrs = NULL;
    e->nattrs = 0;
    e->loc.file = NULL;  /* a compound literal here is a `rep stos` too */
    e->loc.line = 0;
    e->loc.col = 0;
    e->loc.offset = 0;
    e->loc.record = 0;
    e->loc.kind = TW_LOC_NONE;
    e->loc.length = 0;
}

/* *d = *s for a location, field by field: where gcc cannot see the
 * source's alignment it makes the structure assignment a `rep movs`. */
static inline void tw_loc_copy(tw_loc *d, const tw_loc *s) {
    d->file = s->file;
    d->line = s->line;
    d->col = s->col;
    d->offset = s->offset;
    d->record = s->record;
    d->kind = s->kind;
    d->length = s->length;
}

/* *d = *s, field by field for the same reason (a `rep movs`). */
static inline void tw_event_copy(tw_event *d, const tw_event *s) {
    d->ts = s->ts;
    d->tid = s->tid;
    d->pid = s->pid;
    d->kind = s->kind;
    d->name = s->name;
    d->cat = s->cat;
    d->msg = s->msg;
    d->msg_len = s->msg_len;
    d->value = s->value;
    d->has_value = s->has_value;
    d->attrs = s->attrs;
    d->nattrs = s->nattrs;
    tw_loc_copy(&d->loc, &s->loc);
}
_Static_assert(sizeof(void *) != 8 || sizeof(tw_event) == 136,
               "a field was added to tw_event: set it in tw_event_clear() and tw_event_copy()");
_Static_assert(sizeof(void *) != 8 || sizeof(tw_loc) == 48,
               "a field was added to tw_loc: set it in tw_event_clear() and tw_loc_copy()");

#define TW_NS_PER_US INT64_C(1000)
#define TW_NS_PER_MS INT64_C(1000000)
#define TW_NS_PER_S INT64_C(1000000000)

/* ---- checked arithmetic ------------------------------------------------ */

/* qsort() that accepts an empty or NULL array (qsort's may not be NULL). */
static inline void tw_qsort(void *base, size_t n, size_t size,
                           int (*cmp)(const void *, const void *)) {
    if (n > 1) qsort(base, n, size, cmp);
}

static inline bool tw_mul_i64(int64_t a, int64_t b, int64_t *out) {
    return !__builtin_mul_overflow(a, b, out);
}
static inline bool tw_add_i64(int64_t a, int64_t b, int64_t *out) {
    return !__builtin_add_overflow(a, b, out);
}
static inline bool tw_sub_i64(int64_t a, int64_t b, int64_t *out) {
    return !__builtin_sub_overflow(a, b, out);
}

/* ---- time conversion (time.c) ------------------------------------------ */

/* floor(v / unit) for unit > 0. */
int64_t tw_floor_div(int64_t v, int64_t unit);
/*
 * v / unit rounded to the nearest integer, halves towards +infinity
 * (so rounding keeps time order).  *inexact (may be NULL) tells whether a
 * remainder was dropped.  unit > 0.
 */
int64_t tw_round_div(int64_t v, int64_t unit, bool *inexact);
/*
 * v * mul / div rounded to the nearest integer (halves towards +infinity),
 * computed exactly in 128-bit arithmetic.  div > 0.  False when the result
 * does not fit in 64 bits.
 */
bool tw_muldiv_i64(int64_t v, int64_t mul, int64_t div, int64_t *out);
/*
 * ns since the Unix epoch as UTC, ISO 8601 with nine decimals:
 * "2001-08-04T10:20:00.250000000Z".  buf should hold 40 bytes; false (and
 * an empty string) when the year is out of the range 0..9999.
 */
bool tw_format_utc(int64_t epoch_ns, char *buf, size_t n);
/* The multiple of unit (> 0) at or below v; towards zero where that would
 * fall below INT64_MIN. */
static inline int64_t tw_floor_to(int64_t v, int64_t unit) {
    int64_t r = v % unit;
    if (r >= 0) return v - r;
    return v - r >= INT64_MIN + unit ? v - r - unit : v - r;
}
/* v * unit, false on overflow. */
static inline bool tw_to_ns(int64_t v, int64_t unit, int64_t *ns) {
    return tw_mul_i64(v, unit, ns);
}

/* ---- number parsing (parse.c) ------------------------------------------ */

/* Scan leading decimal digits of s[0..n): returns how many were consumed
 * (0 if none).  *overflow (may be NULL) is set when the value does not fit.
 * Inline: up to eight digits from one load, and inputs shorter than eight
 * bytes digit by digit with no overflow check (they cannot overflow); nine
 * and more digits through tw_scan_u64_wide(). */
size_t tw_scan_u64_long(const char *s, size_t n, uint64_t *out, bool *overflow);
/* tw_scan_u64() of s[0..n) whose first nine bytes are digits: sixteen at
 * most from two loads, more digit by digit. */
size_t tw_scan_u64_wide(const char *s, size_t n, uint64_t *out, bool *overflow);
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* Of eight bytes loaded in w, the high nibble of each that is not an ASCII
 * digit set (a byte is one when its high nibble is 3 and adding 6 keeps it
 * so; a carry out of a byte past the first non-digit only disturbs bytes
 * after it): the count of leading digits is ctz / 8. */
static inline uint64_t tw_nondigits(uint64_t w) {
    const uint64_t hi = 0xF0F0F0F0F0F0F0F0ULL, threes = 0x3030303030303030ULL;
    return ((w & hi) ^ threes) | (((w + 0x0606060606060606ULL) & hi) ^ threes);
}
/* The number of the first k (1..8) decimal digits loaded in w: the k digits
 * to the top, zeros (leading '0's) below, then pairs, fours and eights of
 * digits combined by multiplication. */
static inline uint64_t tw_swar_digits(uint64_t w, unsigned k) {
    w <<= 8 * (8 - k);
    w = (w & 0x0F0F0F0F0F0F0F0FULL) * 2561 >> 8;
    w = (w & 0x00FF00FF00FF00FFULL) * 6553601 >> 16;
    return (w & 0x0000FFFF0000FFFFULL) * 42949672960001ULL >> 32;
}
#endif
static inline size_t tw_scan_u64(const char *s, size_t n, uint64_t *out, bool *overflow) {
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (n >= 8) {
        /* up to eight digits from one load */
        uint64_t w = tw_load64(s), nondigit = tw_nondigits(w);
        unsigned k = nondigit ? (unsigned)__builtin_ctzll(nondigit) / 8 : 8;
        if (k < 8 || n == 8 || (unsigned)(unsigned char)s[8] - '0' > 9) {
            if (overflow) *overflow = false;
            if (k == 0) {
                *out = 0;
                return 0;
            }
            *out = tw_swar_digits(w, k);
            return k;
        }
        return tw_scan_u64_wide(s, n, out, overflow);
    }
#endif
    uint64_t v = 0;
    size_t i = 0, lim = n < 19 ? n : 19;
    /* cppcheck-suppress knownConditionTrueFalse ; false only where a caller passes n = 0 */
    for (; i < lim; i++) {
        unsigned d = (unsigned)(unsigned char)s[i] - '0';
        if (d > 9) {
            *out = v;
            if (overflow) *overflow = false;
            return i;
        }
        v = v * 10 + d;
    }
    if (i == n) {
        *out = v;
        if (overflow) *overflow = false;
        return i;
    }
    return tw_scan_u64_long(s, n, out, overflow);
}
/* The decimal digits at p, where a byte that is not one is known to follow
 * before the memory ends (a line's end of line, when the line has one):
 * the byte after them, or NULL when there are none or more than 18 (which
 * could overflow; a caller's general path reads those). */
static TW_INLINE const char *tw_scan_dec_eol(const char *p, uint64_t *v) {
    const char *b = p;
    uint64_t x = 0;
    unsigned d;
    while ((d = (unsigned)(unsigned char)*p - '0') <= 9) {
        x = x * 10 + d;
        p++;
    }
    *v = x;
    return p == b || p - b > 18 ? NULL : p;
}
/* tw_scan_dec_eol() where the memory may end right after the digits (a
 * line read in place): it reads at most the 19 bytes at p. */
static TW_INLINE const char *tw_scan_dec_max(const char *p, uint64_t *v) {
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint64_t w = tw_load64(p), nondigit = tw_nondigits(w);
    if (nondigit) {  /* fewer than eight digits, from one load */
        unsigned k = (unsigned)__builtin_ctzll(nondigit) / 8;
        if (k == 0) return NULL;
        *v = tw_swar_digits(w, k);
        return p + k;
    }
#endif
    bool ovf;
    size_t k = tw_scan_u64(p, 19, v, &ovf);
    return k == 0 || k > 18 ? NULL : p + k;
}
/* The whole of s[0..n) as an unsigned / signed decimal (optional '-' for
 * signed); false if empty, not all digits, or out of range. */
static TW_INLINE bool tw_parse_u64(const char *s, size_t n, uint64_t *out) {
    bool ovf;
    return n && tw_scan_u64(s, n, out, &ovf) == n && !ovf;
}
static TW_INLINE bool tw_parse_i64(const char *s, size_t n, int64_t *out) {
    bool neg = n > 0 && s[0] == '-';
    uint64_t v;
    if (!tw_parse_u64(s + neg, n - neg, &v)) return false;
    if (neg) {
        if (v > (uint64_t)INT64_MAX + 1) return false;
        *out = (int64_t)(0 - v);
    } else {
        if (v > (uint64_t)INT64_MAX) return false;
        *out = (int64_t)v;
    }
    return true;
}

/* ---- byte search, eight bytes a step ----------------------------------- */

/* Bit 7 set in the bytes of w equal to the bytes of pat.  Only the lowest
 * set byte is exact (a borrow may mark bytes above it), which is all the
 * search below uses. */
static inline uint64_t tw_bytes_eq(uint64_t w, uint64_t pat) {
    uint64_t x = w ^ pat;
    return (x - UINT64_C(0x0101010101010101)) & ~x & UINT64_C(0x8080808080808080);
}

/* The first byte of s[0..n) equal to c, or NULL: eight bytes a step with
 * no call, for the short fields of text records (memchr's call and setup
 * cost more than a field of 5-30 bytes). */
static inline const char *tw_find_byte(const char *s, size_t n, char c) {
    size_t i = 0;
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    const uint64_t pat = TW_BYTES8(c);
    for (; i + 8 <= n; i += 8) {
        uint64_t m = tw_bytes_eq(tw_load64(s + i), pat);
        if (m) return s + i + (unsigned)__builtin_ctzll(m) / 8;
    }
#endif
    for (; i < n; i++)
        if (s[i] == c) return s + i;
    return NULL;
}

/* ---- memory of its own cache lines (buf.c) ------------------------------ */

/*
 * With a second thread reading ahead (pump.h), the reader's objects are
 * written on one CPU while the consumer's are written on the other.  Two such
 * objects side by side in the heap would share a cache line, and the line
 * would move between the two CPUs' caches at every event: on a 1 GB lms
 * input that made two threads as slow as one.  Long-lived objects that either
 * side writes or reads per event are therefore allocated with
 * tw_calloc_lines(), which is calloc() with memory that is also aligned to
 * TW_LINE_PAIR bytes and padded to a multiple of it, so that no other
 * allocation shares their lines.  128 bytes, not 64: x86 CPUs fetch lines in
 * adjacent pairs, and some ARM CPUs have 128-byte lines.  free() frees the
 * memory.  NULL when out of memory, or when n or size is 0.
 */
#define TW_LINE_PAIR 128
void *tw_calloc_lines(size_t n, size_t size);

/* ---- growable byte buffer (buf.c) -------------------------------------- */

typedef struct tw_buf {
    char *p;
    size_t len, cap;
} tw_buf;

/* Make room for `extra` more bytes; false when out of memory. */
bool tw_buf_reserve(tw_buf *b, size_t extra);
bool tw_buf_append(tw_buf *b, const void *p, size_t n);
/*
 * Make the array at *(T **)arrayp hold at least `need` elements of `elem`
 * bytes, doubling *cap (from `first`).  False when out of memory; the array
 * is then unchanged.
 */
bool tw_grow_slow(void *arrayp, size_t *cap, size_t need, size_t elem, size_t first);
static inline bool tw_grow(void *arrayp, size_t *cap, size_t need, size_t elem, size_t first) {
    return need <= *cap || tw_grow_slow(arrayp, cap, need, elem, first);
}
static inline void tw_buf_clear(tw_buf *b) { b->len = 0; }
void tw_buf_free(tw_buf *b);

/* Bytes a transient string (TW_STR_TRANSIENT) of `len` bytes takes, rounded
 * up so that the next one stays aligned. */
static inline size_t tw_transient_size(size_t len) {
    return (sizeof(tw_str) + len + 1 + 7) & ~(size_t)7;
}
/* Make a transient string of `len` bytes (len < 4 GiB) at `mem`, which
 * holds tw_transient_size(len) bytes aligned for a tw_str. */
static inline const tw_str *tw_transient_make(void *mem, const void *bytes, size_t len) {
    tw_str *t = mem;
    t->hash = 0;
    t->id = TW_STR_TRANSIENT;
    t->len = (uint32_t)len;
    if (len) memcpy(t->s, bytes, len);
    t->s[len] = '\0';
    return t;
}
/* Append a transient string of (s, n) to b, whose length stays a multiple
 * of 8 (its start is malloc'ed, so aligned); *off gets where it starts.
 * False when out of memory or n does not fit a tw_str. */
bool tw_buf_transient(tw_buf *b, const void *s, size_t n, size_t *off);

/* ---- u64 -> pointer hash map (buf.c) ----------------------------------- */

typedef struct tw_u64map {
    uint64_t *keys;
    void **vals;
    unsigned char *used;
    size_t n, cap;
} tw_u64map;

static inline size_t tw_u64map_hash(uint64_t key, size_t cap) {
    key ^= key >> 33;
    key *= 0xff51afd7ed558ccdULL;
    key ^= key >> 33;
    return (size_t)key & (cap - 1);
}

/* The slot of `key`, or m->cap when absent (inline, as are the two
 * lookups below: readers look up per event). */
static inline size_t tw_u64map_find(const tw_u64map *m, uint64_t key) {
    if (!m->cap) return m->cap;
    for (size_t i = tw_u64map_hash(key, m->cap);; i = (i + 1) & (m->cap - 1)) {
        if (!m->used[i]) return m->cap;
        if (m->keys[i] == key) return i;
    }
}

/* The value under `key`, NULL when absent. */
static inline void *tw_u64map_get(const tw_u64map *m, uint64_t key) {
    size_t i = tw_u64map_find(m, key);
    return i < m->cap ? m->vals[i] : NULL;
}

/* The value slot of `key` when present, else NULL; valid until the next put. */
static inline void **tw_u64map_ref(tw_u64map *m, uint64_t key) {
    size_t i = tw_u64map_find(m, key);
    return i < m->cap ? &m->vals[i] : NULL;
}
/* tw_u64map_slot() when `key` is absent (buf.c). */
void **tw_u64map_add(tw_u64map *m, uint64_t key);
/* The value slot of `key`, added (holding NULL) when absent: one lookup for
 * a read and a write.  NULL when out of memory.  Valid until the next put. */
static inline void **tw_u64map_slot(tw_u64map *m, uint64_t key) {
    void **v = tw_u64map_ref(m, key);
    return v ? v : tw_u64map_add(m, key);
}
/* Insert or replace; false when out of memory. */
bool tw_u64map_put(tw_u64map *m, uint64_t key, void *val);
void tw_u64map_free(tw_u64map *m);

/*
 * A cache of pointers by small id, beside a map that stays the reference:
 * readers whose ids are dense from 0 (function ids, handles, labels) find
 * the usual one with one load.  Ids from TW_IDCACHE_MAX on are never
 * cached, so it holds at most 512 KiB; a set that cannot grow the array
 * leaves the id uncached (the map still has it).
 */
#define TW_IDCACHE_MAX ((uint64_t)1 << 16)
typedef struct tw_idcache {
    void **v;
    size_t n;  /* v[0..n) exist, NULL where not set */
} tw_idcache;
static inline void *tw_idcache_get(const tw_idcache *c, uint64_t id) {
    return id < c->n ? c->v[id] : NULL;
}
void tw_idcache_set(tw_idcache *c, uint64_t id, void *p);
void tw_idcache_free(tw_idcache *c);

/*
 * Objects kept by key: the object under `key` in `map` (when map is not
 * NULL), else a new zeroed one of `size` bytes, added to `map` and appended
 * to the pointer array *vecp (n, cap), which owns it.  *created tells which
 * (may be NULL).  NULL when out of memory.  The lookup is inline;
 * tw_keyed_new() (buf.c) makes a new one.
 */
void *tw_keyed_new(tw_u64map *map, void *vecp, size_t *n, size_t *cap, uint64_t key,
                   size_t size, bool *created);
static inline void *tw_keyed_get(tw_u64map *map, void *vecp, size_t *n, size_t *cap,
                                 uint64_t key, size_t size, bool *created) {
    void *o = map ? tw_u64map_get(map, key) : NULL;
    if (created) *created = false;
    return o ? o : tw_keyed_new(map, vecp, n, cap, key, size, created);
}

/* ---- (pid, tid) -> dense thread index (buf.c) -------------------------- */
typedef struct tw_tidmap {
    uint32_t *pids;
    uint64_t *tids;
    size_t n, cap;     /* threads, in order of first sight */
    uint32_t *slots;   /* index + 1, open addressing */
    size_t nslots;
    uint32_t cache[16]; /* index + 1 of a thread found lately, by tid ^ pid */
} tw_tidmap;
int64_t tw_tidmap_index_slow(tw_tidmap *m, uint32_t pid, uint64_t tid, bool *created);
/* The index of thread (pid, tid), added when new (*created, may be NULL,
 * tells which); -1 when out of memory.  Indexes are dense: 0, 1, 2, ... */
/* The index + 1 of thread (pid, tid) when the cache of threads found lately
 * holds it, else 0: no lookup, no creation. */
static inline uint32_t tw_tidmap_cached(const tw_tidmap *m, uint32_t pid, uint64_t tid) {
    uint32_t c = m->cache[(tid ^ pid) & 15];
    return c && m->tids[c - 1] == tid && m->pids[c - 1] == pid ? c : 0;
}
static inline int64_t tw_tidmap_index(tw_tidmap *m, uint32_t pid, uint64_t tid, bool *created) {
    uint32_t c = tw_tidmap_cached(m, pid, tid);
    if (c) {
        if (created) *created = false;
        return (int64_t)c - 1;
    }
    return tw_tidmap_index_slow(m, pid, tid, created);
}
/* The index of thread (pid, tid), or -1 when it was never added. */
int64_t tw_tidmap_find(const tw_tidmap *m, uint32_t pid, uint64_t tid);
void tw_tidmap_free(tw_tidmap *m);
/* ---- UTF-8 (utf8.c) ---------------------------------------------------- */

/* Length (1-4) of the valid UTF-8 sequence at s[0..n), 0 if invalid. */
size_t tw_utf8_seq(const unsigned char *s, size_t n);
/* Encode code point cp (not a surrogate, <= 0x10FFFF) into out; returns
 * the number of bytes (1-4). */
size_t tw_utf8_put(uint32_t cp, char *out);
/* Whether s[0..n) starts with a UTF-8 byte order mark (EF BB BF). */
static inline bool tw_has_bom(const unsigned char *s, size_t n) {
    return n >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0;
}

/* ---- JSON strings of interned names (output.c) ------------------------- */

/* What each interned string is for JSON, by string id: 0 not looked at
 * yet, else one of these. */
enum { TW_JSON_PLAIN = 1, TW_JSON_ESCAPED, TW_JSON_INVALID };
typedef struct tw_json_names {
    unsigned char *kind;
    size_t cap;
} tw_json_names;
/* Whether s is valid UTF-8, as tw_out_json_name() finds it (and remembers
 * it, so that the answer for a name seen before is a lookup). */
bool tw_json_name_valid_slow(tw_json_names *c, const tw_str *s);
static inline bool tw_json_name_valid(tw_json_names *c, const tw_str *s) {
    unsigned k = s->id < c->cap ? c->kind[s->id] : 0;
    return k ? k != TW_JSON_INVALID : tw_json_name_valid_slow(c, s);
}
/* Whether s is known to need no escaping (false: not known yet, or it
 * does; tw_out_json_name() finds out). */
static inline bool tw_json_name_plain(const tw_json_names *c, const tw_str *s) {
    return s->id < c->cap && c->kind[s->id] == TW_JSON_PLAIN;
}
/* "s" for a name that needs no escaping (TW_JSON_PLAIN). */
static inline void tw_out_json_plain(tw_output *o, const tw_str *s) {
    if (o->cap - o->len >= s->len + 2) {
        unsigned char *p = o->buf + o->len;
        p[0] = '"';
        memcpy(p + 1, s->s, s->len);
        p[s->len + 1] = '"';
        o->len += s->len + 2;
        return;
    }
    tw_out_putc(o, '"');
    tw_out_write(o, s->s, s->len);
    tw_out_putc(o, '"');
}
/* tw_out_json_str() of an interned string; one that needs nothing is
 * remembered as such (TW_JSON_PLAIN) and then copied without a look at its
 * bytes. */
bool tw_out_json_name_slow(tw_output *o, tw_json_names *c, const tw_str *s);
static inline bool tw_out_json_name(tw_output *o, tw_json_names *c, const tw_str *s) {
    if (tw_json_name_plain(c, s) && o->cap - o->len >= s->len + 2) {
        tw_out_json_plain(o, s);  /* (its first branch) */
        return true;
    }
    return tw_out_json_name_slow(o, c, s);
}
/* The same bytes as tw_out_json_name() with the cache only read, so that
 * several threads may write names through one cache that no one changes. */
static inline void tw_out_json_name_known(tw_output *o, const tw_json_names *c, const tw_str *s) {
    if (tw_json_name_plain(c, s)) tw_out_json_plain(o, s);
    else (void)tw_out_json_str(o, s->s, s->len);
}
/* v in decimal at p; returns the end.  It may write past the end (up to
 * TW_U64_ROOM bytes from p in all), so that much room must be there. */
#define TW_U64_ROOM 20
char *tw_put_u64(char *p, uint64_t v);
/* A string attribute's value as tw_out_json_str() writes it, through the
 * names' cache when it is interned (tw_attr.str). */
bool tw_out_json_attr(tw_output *o, tw_json_names *c, const tw_attr *a);
/* The interned string of a string attribute's value that lives as long as
 * the string table, or NULL. */
static inline const tw_str *tw_attr_interned(const tw_attr *a) {
    return a->type == TW_ATTR_STR && a->str && !tw_str_transient(a->str) ? a->str : NULL;
}
void tw_json_names_free(tw_json_names *c);

/* ---- threads ------------------------------------------------------------ */

/* The pause of a spinning wait (for another thread's store). */
static inline void tw_cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#else
    __asm__ __volatile__("" ::: "memory");
#endif
}

/* ---- base64 (output.c) ------------------------------------------------- */

/* Decode standard base64 (padding optional) into out (room for 3*n/4+3
 * bytes); returns the decoded length or (size_t)-1 when invalid. */
size_t tw_base64_decode(const char *s, size_t n, unsigned char *out);

/* Does the interned name equal the C string? */
static inline bool tw_str_is(const tw_str *s, const char *c) {
    size_t n = strlen(c);
    return s && s->len == n && memcmp(s->s, c, n) == 0;
}

#endif /* TW_CORE_UTIL_H */
