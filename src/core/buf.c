/* Growable byte buffer and u64 hash map. */
#include <stdlib.h>

#include "util.h"

bool tw_buf_reserve(tw_buf *b, size_t extra) {
    if (b->cap - b->len >= extra) return true;
    size_t need = b->len + extra;
    if (need < b->len) return false;
    size_t cap = b->cap ? b->cap : 64;
    while (cap < need) {
        if (cap > SIZE_MAX / 2) {
            cap = need;
            break;
        }
        cap *= 2;
    }
    char *p = realloc(b->p, cap);
    if (!p) return false;
    b->p = p;
    b->cap = cap;
    return true;
}

bool tw_buf_append(tw_buf *b, const void *p, size_t n) {
    if (!tw_buf_reserve(b, n)) return false;
    if (n) memcpy(b->p + b->len, p, n);
    b->len += n;
    return true;
}

bool tw_grow(void *arrayp, size_t *cap, size_t need, size_t elem, size_t first) {
    if (need <= *cap) return true;
    size_t nc = *cap ? *cap : first;
    while (nc < need) {
        if (nc > SIZE_MAX / 2) return false;
        nc *= 2;
    }
    if (nc > SIZE_MAX / elem) return false;
    void *old;
    memcpy(&old, arrayp, sizeof old);
    void *grown = realloc(old, nc * elem);
    if (!grown) return false;
    memcpy(arrayp, &grown, sizeof grown);
    *cap = nc;
    return true;
}

void tw_buf_free(tw_buf *b) {
    free(b->p);
    b->p = NULL;
    b->len = b->cap = 0;
}

static inline size_t slot_of(uint64_t key, size_t cap) {
    key ^= key >> 33;
    key *= 0xff51afd7ed558ccdULL;
    key ^= key >> 33;
    return (size_t)key & (cap - 1);
}

void *tw_u64map_get(const tw_u64map *m, uint64_t key) {
    if (!m->cap) return NULL;
    for (size_t i = slot_of(key, m->cap);; i = (i + 1) & (m->cap - 1)) {
        if (!m->used[i]) return NULL;
        if (m->keys[i] == key) return m->vals[i];
    }
}

static bool rehash(tw_u64map *m, size_t cap) {
    uint64_t *keys = malloc(cap * sizeof *keys);
    void **vals = malloc(cap * sizeof *vals);
    unsigned char *used = calloc(cap, 1);
    if (!keys || !vals || !used) {
        free(keys);
        free(vals);
        free(used);
        return false;
    }
    for (size_t i = 0; i < m->cap; i++) {
        if (!m->used[i]) continue;
        size_t j = slot_of(m->keys[i], cap);
        while (used[j]) j = (j + 1) & (cap - 1);
        used[j] = 1;
        keys[j] = m->keys[i];
        vals[j] = m->vals[i];
    }
    free(m->keys);
    free(m->vals);
    free(m->used);
    m->keys = keys;
    m->vals = vals;
    m->used = used;
    m->cap = cap;
    return true;
}

bool tw_u64map_put(tw_u64map *m, uint64_t key, void *val) {
    if ((m->n + 1) * 2 > m->cap && !rehash(m, m->cap ? m->cap * 2 : 64)) return false;
    size_t i = slot_of(key, m->cap);
    while (m->used[i]) {
        if (m->keys[i] == key) {
            m->vals[i] = val;
            return true;
        }
        i = (i + 1) & (m->cap - 1);
    }
    m->used[i] = 1;
    m->keys[i] = key;
    m->vals[i] = val;
    m->n++;
    return true;
}

void tw_u64map_free(tw_u64map *m) {
    free(m->keys);
    free(m->vals);
    free(m->used);
    memset(m, 0, sizeof *m);
}

void *tw_keyed_get(tw_u64map *map, void *vecp, size_t *n, size_t *cap, uint64_t key,
                   size_t size, bool *created) {
    void ***vec = vecp;
    void *o = map ? tw_u64map_get(map, key) : NULL;
    if (created) *created = false;
    if (o) return o;
    o = calloc(1, size);
    if (!o || !tw_grow(vec, cap, *n + 1, sizeof **vec, 8) || (map && !tw_u64map_put(map, key, o))) {
        free(o);
        return NULL;
    }
    (*vec)[(*n)++] = o;
    if (created) *created = true;
    return o;
}
