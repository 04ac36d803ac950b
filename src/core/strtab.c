/*
 * String interning: an open-addressing hash table (linear probing, power of
 * two slots, at most half full) over strings stored in append-only chunks.
 * Pointers never move, so events can hold them freely.
 *
 * In front of it (once it holds FRONT_FROM strings) sits a direct-mapped
 * cache keyed by a cheap mix of the length and the first and last eight
 * bytes: a name seen before is found with one compare of its bytes, without
 * hashing all of them (the table's hash over a 60-byte name was most of
 * what interning cost a reader).
 */
#include <stdlib.h>
#include <string.h>

#include "tracewright/event.h"
#include "util.h"

#define CHUNK_BYTES ((size_t)64 << 10)
#define FRONT_BITS 12  /* 4096 entries, 32 KiB */

struct chunk {
    struct chunk *next;
    size_t used, cap;
    _Alignas(max_align_t) unsigned char data[];
};

struct tw_strtab {
    const tw_str **slots;  /* hash table */
    size_t nslots;         /* power of two */
    const tw_str **byid;   /* id -> string */
    size_t count, byid_cap;
    size_t limit;
    struct chunk *chunks;
    size_t bytes;
    const tw_str **front;  /* see the top; made once the table is not tiny */
};

static inline uint64_t rotl64(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

static inline uint64_t mix64(uint64_t h) {
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    return h;
}

uint64_t tw_hash(const void *bytes, size_t len) {
    const unsigned char *p = bytes;
    uint64_t h = 0x9e3779b97f4a7c15ULL ^ ((uint64_t)len * 0x100000001b3ULL);
    while (len >= 8) {
        h = rotl64(h ^ (tw_load64(p) * 0xbf58476d1ce4e5b9ULL), 29) * 0x94d049bb133111ebULL;
        p += 8;
        len -= 8;
    }
    if (len) {
        /* the last 1-7 bytes, little-endian and zero-padded, as memcpy into
         * a zeroed word would give on a little-endian machine (no call) */
        uint64_t v = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        if (p - (const unsigned char *)bytes >= 8) {
            v = tw_load64(p + len - 8) >> (8 * (8 - len));
        } else {
            for (size_t i = 0; i < len; i++) v |= (uint64_t)p[i] << (8 * i);
        }
#else
        memcpy(&v, p, len);
#endif
        h = rotl64(h ^ (v * 0xbf58476d1ce4e5b9ULL), 29) * 0x94d049bb133111ebULL;
    }
    return mix64(h);
}

tw_strtab *tw_strtab_new(void) {
    tw_strtab *t = tw_calloc_lines(1, sizeof *t);
    if (!t) return NULL;
    t->nslots = 256;
    t->slots = calloc(t->nslots, sizeof *t->slots);
    if (!t->slots) {
        free(t);
        return NULL;
    }
    t->bytes = sizeof *t + t->nslots * sizeof *t->slots;
    return t;
}

void tw_strtab_free(tw_strtab *t) {
    if (!t) return;
    struct chunk *c = t->chunks;
    while (c) {
        struct chunk *n = c->next;
        free(c);
        c = n;
    }
    free(t->slots);
    free(t->byid);
    free(t->front);
    free(t);
}

static void *alloc_bytes(tw_strtab *t, size_t n) {
    n = (n + 7) & ~(size_t)7;
    struct chunk *c = t->chunks;
    if (!c || c->cap - c->used < n) {
        size_t cap = n > CHUNK_BYTES / 4 ? n : CHUNK_BYTES;
        struct chunk *nc = malloc(sizeof *nc + cap);
        if (!nc) return NULL;
        nc->used = 0;
        nc->cap = cap;
        t->bytes += sizeof *nc + cap;
        if (c && cap != CHUNK_BYTES) {
            /* a big string gets its own chunk; keep filling the current one */
            nc->next = c->next;
            c->next = nc;
        } else {
            nc->next = c;
            t->chunks = nc;
        }
        c = nc;
    }
    void *p = c->data + c->used;
    c->used += n;
    return p;
}

static int grow_slots(tw_strtab *t) {
    size_t n = t->nslots * 2;
    const tw_str **s = calloc(n, sizeof *s);
    if (!s) return -1;
    for (size_t i = 0; i < t->nslots; i++) {
        const tw_str *e = t->slots[i];
        if (!e) continue;
        size_t j = (size_t)e->hash & (n - 1);
        while (s[j]) j = (j + 1) & (n - 1);
        s[j] = e;
    }
    free(t->slots);
    t->bytes += (n - t->nslots) * sizeof *s;
    t->slots = s;
    t->nslots = n;
    return 0;
}

const tw_str *tw_intern_hashed(tw_strtab *t, const void *bytes, size_t len,
                               uint64_t hash) {
    if (!len) bytes = "";  /* the empty string may come as NULL */
    size_t mask = t->nslots - 1;
    size_t i = (size_t)hash & mask;
    for (;;) {
        const tw_str *e = t->slots[i];
        if (!e) break;
        if (e->hash == hash && e->len == len && memcmp(e->s, bytes, len) == 0)
            return e;
        i = (i + 1) & mask;
    }
    if (len > UINT32_MAX) return NULL;
    if (t->limit && t->count >= t->limit) return NULL;
    /* the table must keep free slots for lookups to end: grow now, and
     * refuse the string if that is impossible */
    if ((t->count + 1) * 4 > t->nslots * 3) {
        if (grow_slots(t) != 0) return NULL;
        mask = t->nslots - 1;
        for (i = (size_t)hash & mask; t->slots[i]; i = (i + 1) & mask) {
        }
    }
    if (t->count >= UINT32_MAX) return NULL;
    size_t had = t->byid_cap;
    if (!tw_grow(&t->byid, &t->byid_cap, t->count + 1, sizeof *t->byid, 256)) return NULL;
    t->bytes += (t->byid_cap - had) * sizeof *t->byid;
    tw_str *s = alloc_bytes(t, sizeof *s + len + 1);
    if (!s) return NULL;
    s->hash = hash;
    s->id = (uint32_t)t->count;
    s->len = (uint32_t)len;
    if (len) memcpy(s->s, bytes, len);
    s->s[len] = '\0';
    t->slots[i] = s;
    t->byid[t->count++] = s;
    if (t->count * 2 > t->nslots) grow_slots(t); /* on failure: fuller, still correct */
    return s;
}

/* The cache pays only for tables that are looked up a lot: a small table
 * (a JSON object's keys, say) does without its 32 KiB. */
#define FRONT_FROM 64

static const tw_str *intern_slow(tw_strtab *t, const void *bytes, size_t len) {
    const tw_str *e = tw_intern_hashed(t, bytes, len, tw_hash(bytes, len));
    if (!t->front && t->count >= FRONT_FROM &&
        (t->front = calloc((size_t)1 << FRONT_BITS, sizeof *t->front)) != NULL)
        t->bytes += ((size_t)1 << FRONT_BITS) * sizeof *t->front;
    return e;
}

const tw_str *tw_intern(tw_strtab *t, const void *bytes, size_t len) {
    if (len < 8 || !t->front) return intern_slow(t, bytes, len);
    const unsigned char *p = bytes;
    uint64_t k = (tw_load64(p) ^ rotl64(tw_load64(p + len - 8), 23) ^ len) * 0x9e3779b97f4a7c15ULL;
    const tw_str **slot = &t->front[k >> (64 - FRONT_BITS)];
    const tw_str *e = *slot;
    if (e && e->len == len && memcmp(e->s, p, len) == 0) return e;
    e = tw_intern_hashed(t, bytes, len, tw_hash(bytes, len));
    if (e) *slot = e;
    return e;
}

const tw_str *tw_intern_cstr(tw_strtab *t, const char *s) {
    return tw_intern(t, s, strlen(s));
}

size_t tw_strtab_count(const tw_strtab *t) { return t->count; }

const tw_str *tw_strtab_at(const tw_strtab *t, uint32_t id) {
    return id < t->count ? t->byid[id] : NULL;
}

void tw_strtab_set_limit(tw_strtab *t, size_t max_strings) { t->limit = max_strings; }

size_t tw_strtab_limit(const tw_strtab *t) { return t->limit; }

bool tw_strtab_full(const tw_strtab *t) { return t->limit && t->count >= t->limit; }

size_t tw_strtab_bytes(const tw_strtab *t) { return t->bytes; }
