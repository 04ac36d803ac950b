/* Growable byte buffer and u64 hash map. */
#include <stdlib.h>
#include <string.h>

#include "util.h"

void *tw_calloc_lines(size_t n, size_t size) {
    if (n == 0 || size == 0 || size > (SIZE_MAX - TW_LINE_PAIR) / n) return NULL;
    size_t bytes = (n * size + TW_LINE_PAIR - 1) & ~(size_t)(TW_LINE_PAIR - 1);
    void *p = aligned_alloc(TW_LINE_PAIR, bytes);
    if (p) memset(p, 0, bytes);
    return p;
}

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

bool tw_buf_transient(tw_buf *b, const void *s, size_t n, size_t *off) {
    size_t need = tw_transient_size(n);
    if (n >= UINT32_MAX || !tw_buf_reserve(b, need)) return false;
    *off = b->len;
    tw_transient_make(b->p + b->len, s, n);
    b->len += need;
    return true;
}

bool tw_grow_slow(void *arrayp, size_t *cap, size_t need, size_t elem, size_t first) {
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
        size_t j = tw_u64map_hash(m->keys[i], cap);
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

void **tw_u64map_add(tw_u64map *m, uint64_t key) {
    if ((m->n + 1) * 2 > m->cap && !rehash(m, m->cap ? m->cap * 2 : 64)) return NULL;
    size_t i = tw_u64map_hash(key, m->cap);
    while (m->used[i]) {
        if (m->keys[i] == key) return &m->vals[i];
        i = (i + 1) & (m->cap - 1);
    }
    m->used[i] = 1;
    m->keys[i] = key;
    m->vals[i] = NULL;
    m->n++;
    return &m->vals[i];
}

bool tw_u64map_put(tw_u64map *m, uint64_t key, void *val) {
    void **slot = tw_u64map_slot(m, key);
    if (!slot) return false;
    *slot = val;
    return true;
}

void tw_u64map_free(tw_u64map *m) {
    free(m->keys);
    free(m->vals);
    free(m->used);
    memset(m, 0, sizeof *m);
}

void tw_idcache_set(tw_idcache *c, uint64_t id, void *p) {
    if (id >= TW_IDCACHE_MAX) return;
    if (id >= c->n) {
        size_t n = c->n;
        if (!tw_grow(&c->v, &n, (size_t)id + 1, sizeof *c->v, 64)) return;
        memset(c->v + c->n, 0, (n - c->n) * sizeof *c->v);
        c->n = n;
    }
    c->v[id] = p;
}

void tw_idcache_free(tw_idcache *c) {
    free(c->v);
    c->v = NULL;
    c->n = 0;
}

void *tw_keyed_new(tw_u64map *map, void *vecp, size_t *n, size_t *cap, uint64_t key,
                   size_t size, bool *created) {
    void ***vec = vecp;
    void *o = calloc(1, size);
    if (!o || !tw_grow(vec, cap, *n + 1, sizeof **vec, 8) || (map && !tw_u64map_put(map, key, o))) {
        free(o);
        return NULL;
    }
    (*vec)[(*n)++] = o;
    if (created) *created = true;
    return o;
}

static size_t tid_slot(uint32_t pid, uint64_t tid, size_t nslots) {
    uint64_t h = (tid ^ ((uint64_t)pid << 32 | pid)) * 0x9e3779b97f4a7c15ULL;
    return (size_t)(h >> 32) & (nslots - 1);
}

static bool tid_rehash(tw_tidmap *m, size_t nslots) {
    uint32_t *slots = calloc(nslots, sizeof *slots);
    if (!slots) return false;
    for (size_t i = 0; i < m->n; i++) {
        size_t k = tid_slot(m->pids[i], m->tids[i], nslots);
        while (slots[k]) k = (k + 1) & (nslots - 1);
        slots[k] = (uint32_t)i + 1;
    }
    free(m->slots);
    m->slots = slots;
    m->nslots = nslots;
    return true;
}

int64_t tw_tidmap_find(const tw_tidmap *m, uint32_t pid, uint64_t tid) {
    if (!m->nslots) return -1;
    for (size_t k = tid_slot(pid, tid, m->nslots); m->slots[k]; k = (k + 1) & (m->nslots - 1)) {
        size_t i = m->slots[k] - 1;
        if (m->pids[i] == pid && m->tids[i] == tid) return (int64_t)i;
    }
    return -1;
}

/* tw_tidmap_index (util.h) when the thread is not in the cache. */
int64_t tw_tidmap_index_slow(tw_tidmap *m, uint32_t pid, uint64_t tid, bool *created) {
    if (created) *created = false;
    int64_t found = tw_tidmap_find(m, pid, tid);
    if (found >= 0) {
        m->cache[(tid ^ pid) & 15] = (uint32_t)found + 1;
        return found;
    }
    uint32_t *cached = &m->cache[(tid ^ pid) & 15];
    if (m->n >= UINT32_MAX - 1) return -1;
    if ((m->n + 1) * 2 > m->nslots && !tid_rehash(m, m->nslots ? m->nslots * 2 : 16)) return -1;
    size_t pcap = m->cap;
    if (!tw_grow(&m->pids, &pcap, m->n + 1, sizeof *m->pids, 8) ||
        !tw_grow(&m->tids, &m->cap, m->n + 1, sizeof *m->tids, 8))
        return -1;
    m->pids[m->n] = pid;
    m->tids[m->n] = tid;
    size_t k = tid_slot(pid, tid, m->nslots);
    while (m->slots[k]) k = (k + 1) & (m->nslots - 1);
    m->slots[k] = (uint32_t)++m->n;
    *cached = (uint32_t)m->n;
    if (created) *created = true;
    return (int64_t)(m->n - 1);
}

void tw_tidmap_free(tw_tidmap *m) {
    free(m->pids);
    free(m->tids);
    free(m->slots);
    memset(m, 0, sizeof *m);
}
