/*
 * untuned.c - the per-scope statistics in plain, untuned C: the yardstick
 * the performance targets are set against ("a plain, untuned C
 * implementation of the same stats"; tracewright aims at twice its speed).
 *
 *   untuned FORMAT FILE
 *
 * FORMAT is rtl, lms, stacktrack or text1-bin (the formats the targets
 * name: the two text formats and the binary ones).  Reads FILE, pairs begins
 * and ends with one stack per thread, and prints one CSV line per scope:
 *
 *   NAME,COUNT,GROSS_NS,NET_NS,GROSS_MIN,GROSS_MAX
 *
 * in no particular order.  Exit status 0, or 2 on bad usage or an unreadable
 * file.
 *
 * What "untuned" means here: the code a competent C programmer writes in an
 * afternoon and stops at once it is right.  stdio reads (getline, fread of
 * one record), strtoull for the numbers, one chained hash table keyed by the
 * name (FNV-1a, strdup'd keys, doubled when full), a linear search for the
 * thread, growable stacks.  No mmap, no hand-written number scanners, no
 * SIMD, no threads, no caching of the last lookup.  It checks what the
 * format needs to be read at all and nothing else: no diagnostics, no
 * validation, no messages, no recursion handling (the generator never
 * recurses), little-endian binary only (the generator's).
 *
 * bench/run.sh times it beside `wc -l` and `tracewright stats` on the same
 * input; on the generator's output its counts and gross totals are those of
 * `tracewright stats` (tests/cli/bench/untuned.sh checks that).
 *
 * Build: cc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -o untuned untuned.c
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- per-scope statistics, keyed by name ------------------------------- */

struct scope {
    char *name;
    uint64_t count, gross, net, gross_min, gross_max;
    struct scope *next;
};

static struct scope **table;
static size_t table_size, table_used;

static uint64_t fnv1a(const char *s) {
    uint64_t h = 14695981039346656037ull;
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 1099511628211ull;
    }
    return h;
}

static void *xmalloc(size_t n) {
    void *p = malloc(n);
    if (!p) {
        fputs("untuned: out of memory\n", stderr);
        exit(2);
    }
    return p;
}

static void *xrealloc(void *p, size_t n) {
    p = realloc(p, n);
    if (!p) {
        fputs("untuned: out of memory\n", stderr);
        exit(2);
    }
    return p;
}

static char *xstrdup(const char *s) {
    size_t n = strlen(s) + 1;
    return memcpy(xmalloc(n), s, n);
}

static void grow_table(void) {
    size_t n = table_size ? table_size * 2 : 1024;
    struct scope **t = xmalloc(n * sizeof *t);
    for (size_t i = 0; i < n; i++)
        t[i] = NULL;
    for (size_t i = 0; i < table_size; i++) {
        struct scope *s = table[i], *next;
        for (; s; s = next) {
            next = s->next;
            size_t b = fnv1a(s->name) & (n - 1);
            s->next = t[b];
            t[b] = s;
        }
    }
    free(table);
    table = t;
    table_size = n;
}

static struct scope *lookup(const char *name) {
    if (table_used >= table_size)
        grow_table();
    size_t b = fnv1a(name) & (table_size - 1);
    for (struct scope *s = table[b]; s; s = s->next)
        if (strcmp(s->name, name) == 0)
            return s;
    struct scope *s = xmalloc(sizeof *s);
    memset(s, 0, sizeof *s);
    s->name = xstrdup(name);
    s->gross_min = UINT64_MAX;
    s->next = table[b];
    table[b] = s;
    table_used++;
    return s;
}

/* ---- one call stack per thread ------------------------------------------ */

struct frame {
    struct scope *scope;
    uint64_t begin, children;
};

struct thread {
    uint64_t tid;
    struct frame *frames;
    size_t depth, cap;
};

static struct thread *threads;
static size_t nthreads;

static struct thread *thread_of(uint64_t tid) {
    for (size_t i = 0; i < nthreads; i++)
        if (threads[i].tid == tid)
            return &threads[i];
    threads = xrealloc(threads, (nthreads + 1) * sizeof *threads);
    struct thread *t = &threads[nthreads++];
    memset(t, 0, sizeof *t);
    t->tid = tid;
    return t;
}

static void enter(uint64_t tid, struct scope *s, uint64_t ns) {
    struct thread *t = thread_of(tid);
    if (t->depth == t->cap) {
        t->cap = t->cap ? t->cap * 2 : 16;
        t->frames = xrealloc(t->frames, t->cap * sizeof *t->frames);
    }
    t->frames[t->depth].scope = s;
    t->frames[t->depth].begin = ns;
    t->frames[t->depth].children = 0;
    t->depth++;
}

static void leave(uint64_t tid, uint64_t ns) {
    struct thread *t = thread_of(tid);
    if (t->depth == 0)
        return;
    struct frame *f = &t->frames[--t->depth];
    uint64_t gross = ns - f->begin;
    struct scope *s = f->scope;
    s->count++;
    s->gross += gross;
    s->net += gross - f->children;
    if (gross < s->gross_min)
        s->gross_min = gross;
    if (gross > s->gross_max)
        s->gross_max = gross;
    if (t->depth > 0)
        t->frames[t->depth - 1].children += gross;
}

/* ---- rtl: "TIME TID { NAME", "TIME TID } NAME"; TIME in ms ------------ */

static void read_rtl(FILE *f) {
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    while ((n = getline(&line, &cap, f)) > 0) {
        if (line[n - 1] == '\n')
            line[--n] = '\0';
        char *p, *q;
        uint64_t ms = strtoull(line, &p, 10);
        if (p == line || *p != ' ')
            continue;                       /* the header and the trailer */
        uint64_t tid = strtoull(p + 1, &q, 10);
        if (q == p + 1 || q[0] != ' ' || (q[1] != '{' && q[1] != '}'))
            continue;                       /* messages and anything else */
        if (q[1] == '{') {
            const char *name = q[2] == ' ' ? q + 3 : q + 2;
            enter(tid, lookup(name), ms * 1000000);
        } else {
            leave(tid, ms * 1000000);
        }
    }
    free(line);
}

/* ---- lms: "2,ID,LABEL", "0,ID,DIFF" begin, "1,ID,DIFF" end; DIFF in us - */

static void read_lms(FILE *f) {
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    struct scope **labels = NULL;
    size_t nlabels = 0;
    uint64_t us = 0;
    while ((n = getline(&line, &cap, f)) > 0) {
        if (line[n - 1] == '\n')
            line[--n] = '\0';
        if (n > 0 && line[n - 1] == '\r')
            line[--n] = '\0';
        char *p, *q;
        long type = strtol(line, &p, 10);
        if (p == line || *p != ',')
            continue;
        unsigned long id = strtoul(p + 1, &q, 10);
        if (q == p + 1 || *q != ',')
            continue;
        if (type == 2) {
            if (id >= nlabels) {
                size_t m = nlabels ? nlabels : 64;
                while (m <= id)
                    m *= 2;
                labels = xrealloc(labels, m * sizeof *labels);
                memset(labels + nlabels, 0, (m - nlabels) * sizeof *labels);
                nlabels = m;
            }
            labels[id] = lookup(q + 1);
        } else if (type == 0 || type == 1) {
            us += strtoull(q + 1, NULL, 10);
            if (type == 1)
                leave(0, us * 1000);
            else if (id < nlabels && labels[id])
                enter(0, labels[id], us * 1000);
        }
    }
    free(labels);
    free(line);
}

/* ---- stacktrack: 24-byte raw_event buffers, little-endian ---------------- */

static uint16_t u16(const unsigned char *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint64_t u64(const unsigned char *p) {
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static void read_stacktrack(FILE *f) {
    unsigned char rec[24];
    struct checkpoint { struct scope *scope; int style; } *cps;
    cps = xmalloc(65536 * sizeof *cps);
    memset(cps, 0, 65536 * sizeof *cps);
    uint64_t tdiv = 1000000000;
    char text[4096];
    size_t tlen = 0;
    int sloc = -1;                          /* the SLOC whose INFO run this is */
    while (fread(rec, sizeof rec, 1, f) == 1) {
        unsigned type = rec[0], flags = rec[1];
        const unsigned char *pl = rec + 8;
        switch (type) {
        case 0: {                           /* HIT */
            struct checkpoint *c = &cps[u16(pl + 8)];
            uint64_t ns = 1000000000 % tdiv == 0 ? u64(pl) * (1000000000 / tdiv)
                        : (uint64_t)((double)u64(pl) * 1e9 / (double)tdiv);
            if (c->style == 3 && c->scope)
                enter(u16(pl + 10), c->scope, ns);
            else if (c->style == 4)
                leave(u16(pl + 10), ns);
            break;
        }
        case 3:                             /* SLOC: scope index, style */
            cps[u16(pl)].style = u16(pl + 2);
            sloc = (flags & 1) ? u16(pl) : -1;
            tlen = 0;
            break;
        case 7:                             /* TIMETYPE */
            tdiv = u64(pl);
            if (tdiv == 0)
                tdiv = 1000000000;
            break;
        case 0xFF:                          /* INFO: 16 bytes of text */
            if (sloc >= 0) {
                size_t k = strnlen((const char *)pl, 16);
                if (tlen + k < sizeof text) {
                    memcpy(text + tlen, pl, k);
                    tlen += k;
                }
                if (flags & 2) {            /* INFO_END */
                    text[tlen] = '\0';
                    cps[sloc].scope = lookup(text);
                    sloc = -1;
                }
            }
            break;
        default:                            /* FLOC's file name is no scope */
            sloc = -1;
            break;
        }
    }
    free(cps);
}

/* ---- text1-bin: 24-byte records (layout 1.1) + the companion's names ----- */

struct handle {
    uint32_t handle;
    struct scope *scope;
    struct handle *next;
};

static struct handle *handles[4096];

static struct scope *handle_scope(uint32_t h) {
    for (struct handle *e = handles[h % 4096]; e; e = e->next)
        if (e->handle == h)
            return e->scope;
    return NULL;
}

static void read_companion(const char *path) {
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    int in_functions = 0;
    while ((n = getline(&line, &cap, f)) > 0) {
        if (line[n - 1] == '\n')
            line[--n] = '\0';
        if (line[0] == '*') {
            in_functions = strncmp(line, "* HANDLE(Functions)", 19) == 0;
            continue;
        }
        if (!in_functions)
            continue;
        char *p, *comma;
        uint32_t h = (uint32_t)strtoul(line, &p, 16);
        if (*p != ',')
            continue;
        comma = strrchr(p + 1, ',');        /* NAME,VALUE */
        if (comma)
            *comma = '\0';
        struct handle *e = xmalloc(sizeof *e);
        e->handle = h;
        e->scope = lookup(p + 1);
        e->next = handles[h % 4096];
        handles[h % 4096] = e;
    }
    free(line);
    fclose(f);
}

static void read_text1_bin(FILE *f, const char *path) {
    char companion[4096];
    size_t n = strlen(path);
    if (n >= 4 && strcmp(path + n - 4, ".BIN") == 0 && n - 4 < sizeof companion) {
        memcpy(companion, path, n - 4);
        companion[n - 4] = '\0';
    } else {
        snprintf(companion, sizeof companion, "%s.txt", path);
    }
    read_companion(companion);
    unsigned char rec[24];
    while (fread(rec, sizeof rec, 1, f) == 1) {
        uint32_t h = (uint32_t)(rec[0] | rec[1] << 8 | rec[2] << 16 | (uint32_t)rec[3] << 24);
        unsigned event = rec[4] & 0xF;
        unsigned core = (unsigned)(rec[4] >> 4 | (rec[5] & 0xF) << 4);
        uint64_t ns = u64(rec + 16);
        if (event == 3) {                   /* entry */
            struct scope *s = handle_scope(h);
            if (s)
                enter(core, s, ns);
        } else if (event == 0) {            /* exit */
            leave(core, ns);
        }
    }
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fputs("usage: untuned rtl|lms|stacktrack|text1-bin FILE\n", stderr);
        return 2;
    }
    FILE *f = fopen(argv[2], "rb");
    if (!f) {
        perror(argv[2]);
        return 2;
    }
    if (strcmp(argv[1], "rtl") == 0)
        read_rtl(f);
    else if (strcmp(argv[1], "lms") == 0)
        read_lms(f);
    else if (strcmp(argv[1], "stacktrack") == 0)
        read_stacktrack(f);
    else if (strcmp(argv[1], "text1-bin") == 0)
        read_text1_bin(f, argv[2]);
    else {
        fprintf(stderr, "untuned: unknown format '%s'\n", argv[1]);
        return 2;
    }
    fclose(f);
    for (size_t i = 0; i < table_size; i++)
        for (struct scope *s = table[i]; s; s = s->next)
            if (s->count)
                printf("%s,%llu,%llu,%llu,%llu,%llu\n", s->name,
                       (unsigned long long)s->count, (unsigned long long)s->gross,
                       (unsigned long long)s->net, (unsigned long long)s->gross_min,
                       (unsigned long long)s->gross_max);
    return 0;
}
