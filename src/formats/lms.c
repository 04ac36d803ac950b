/*
 * lms - the lms-org/lms profiler CSV (`lms --profiling FILE`, 2015-2016).
 *
 *   2,<id>,<label>     mapping: id -> label (label = rest of the line)
 *   0,<id>,<diff>      begin of label(id)
 *   1,<id>,<diff>      end of label(id)
 *
 * diff is signed microseconds since the previous 0/1 line; the first one
 * counts from the profiler's start.  ts = cumulative us * 1000.  No threads,
 * no process id, no wall clock.  The one-day 2015 variant
 * "<type>,<diff>,<label>" is read too, until a mapping line shows the file
 * is not in it.  See docs/formats/lms.md.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats.h"

/* ---- probe --------------------------------------------------------------- */

/* 0 or 1 for "0,<digits>,<signed digits>" / "1,...", 2 for a mapping
 * "2,<digits>,<label>", 3 for the 2015 "<0|1>,<signed digits>,<label>",
 * -1 for anything else. */
static int classify(const char *s, size_t n) {
    if (n < 4 || (s[0] != '0' && s[0] != '1' && s[0] != '2') || s[1] != ',') return -1;
    const char *c2 = memchr(s + 2, ',', n - 2);
    if (!c2) return -1;
    const char *f2 = s + 2, *f3 = c2 + 1;
    size_t f2n = (size_t)(c2 - f2), f3n = n - (size_t)(f3 - s);
    uint64_t id;
    int64_t d;
    if (s[0] == '2') return tw_parse_u64(f2, f2n, &id) ? 2 : -1;
    if (tw_parse_u64(f2, f2n, &id) && tw_parse_i64(f3, f3n, &d)) return s[0] - '0';
    if (tw_parse_i64(f2, f2n, &d) && f3n && !tw_parse_i64(f3, f3n, &d)) return 3;
    return -1;
}

static int lms_probe(const unsigned char *head, size_t len, const char *path) {
    const char *s = (const char *)head;
    size_t pos = 0, n;
    const char *l;
    int good = 0, bad = 0, maps = 0, legacy = 0;
    bool first_is_map = false;
    for (int lines = 0; lines < 64 && tw_head_line(s, len, &pos, &l, &n); lines++) {
        if (n == 0) continue;
        int c = classify(l, n);
        if (c < 0) bad++;
        else good++;
        if (c == 3) legacy++;
        if (c == 2) {
            maps++;
            if (good == 1 && bad == 0) first_is_map = true;
        }
    }
    if (good == 0 || bad * 4 > good) return 0;
    int score = first_is_map ? 90 : maps ? 70 : legacy >= 2 && legacy == good ? 70 : 40;
    if (bad) score -= 20;
    size_t pl = path ? strlen(path) : 0;
    if (pl > 4 && strcmp(path + pl - 4, ".csv") == 0) score += 5;
    return score;
}

/* ---- tracks --------------------------------------------------------------- */

/*
 * LMS records no threads, but runtimes run in parallel threads and their
 * markers interleave in the one stream, where they do not nest.  Labels
 * name the runtime: `R` for a runtime's cycle, `R.M` for its module M
 * (2015-11 to 2016-08; bare module names after that).  So each label gets
 * a track, the reader's thread id, fixed when the label is first met:
 *
 *   - `R.M` whose R is a label already met (a runtime): R's track; the
 *     file is then known to name modules so;
 *   - `R.M` whose R is not such a label, or `.M`: track 0;
 *   - a label without a dot, in a file known to name modules so: a runtime
 *     of its own, on a new track (1, 2, ...);
 *   - any other label without a dot: track 0, and a runtime there.
 *
 * Files of one runtime, of bare module names, and of names that only look
 * qualified keep everything on track 0, as the file wrote it; runtimes met
 * before the first `R.M` label share track 0.  The writer runs the same
 * rule to tell whether the threads it is given come back (docs/formats/lms.md).
 */
/* Bytes of a label, which outlive the tracks (an interned name, or the
 * writer's copy). */
typedef struct lms_text {
    const char *s;
    size_t n;
} lms_text;

typedef struct lms_tracks {
    uint32_t *of;         /* by the label's key: track + 1; 0 = not yet met */
    size_t cap;
    tw_u64map runtimes;   /* tw_hash of a runtime label (+ probe) -> index + 1 in rt */
    struct lms_runtime {
        lms_text label;
        uint32_t track;
    } *rt;
    size_t nrt, rt_cap;
    lms_text *names;      /* the first runtime of each track ({NULL, 0}: none) */
    uint32_t n;           /* tracks so far (0 before the first label) */
    bool qualified;       /* an `R.M` label named a runtime */
} lms_tracks;

static void tracks_free(lms_tracks *t) {
    free(t->of);
    tw_u64map_free(&t->runtimes);
    free(t->rt);
    free(t->names);
}

/* The slot (in t->runtimes) of the runtime label s[0..n), holding 0 when
 * there is none: NULL when out of memory, or when absent and not `add`.
 * Keys are the bytes' tw_hash(), probed onwards on a collision. */
static void **runtime_slot(lms_tracks *t, const char *s, size_t n, bool add) {
    for (uint64_t key = tw_hash(s, n);; key++) {
        void **v = add ? tw_u64map_slot(&t->runtimes, key) : tw_u64map_ref(&t->runtimes, key);
        if (!v || !*v) return v;
        const lms_text *l = &t->rt[(uintptr_t)*v - 1].label;
        if (l->n == n && memcmp(l->s, s, n) == 0) return v;
    }
}

/* The track of a label met for the first time (track_of()). */
static int64_t track_new(lms_tracks *t, uint32_t key, const char *s, size_t n, bool *created) {
    *created = false;
    if (key >= t->cap) {
        size_t nc = t->cap ? t->cap : 64;
        while (nc <= key) nc *= 2;
        uint32_t *of = realloc(t->of, nc * sizeof *of);
        if (!of) return -1;
        memset(of + t->cap, 0, (nc - t->cap) * sizeof *of);
        t->of = of;
        t->cap = nc;
    }
    if (!t->n) {  /* track 0 exists from the first label on */
        if (!(t->names = calloc(1, sizeof *t->names))) return -1;
        t->n = 1;
    }
    uint32_t track = 0;
    const char *dot = memchr(s, '.', n);
    if (dot && dot > s) {
        void **v = runtime_slot(t, s, (size_t)(dot - s), false);
        if (v && *v) {
            track = t->rt[(uintptr_t)*v - 1].track;
            t->qualified = true;
        }
    } else if (!dot) {
        void **v = runtime_slot(t, s, n, true);
        if (!v || !tw_grow(&t->rt, &t->rt_cap, t->nrt + 1, sizeof *t->rt, 16)) return -1;
        if (t->qualified) {
            if (t->n == UINT32_MAX - 1) return -1;
            lms_text *names = realloc(t->names, ((size_t)t->n + 1) * sizeof *names);
            if (!names) return -1;
            t->names = names;
            track = t->n++;
            names[track] = (lms_text){NULL, 0};
            *created = true;
        }
        if (!t->names[track].s) t->names[track] = (lms_text){s, n};
        t->rt[t->nrt++] = (struct lms_runtime){{s, n}, track};
        *v = (void *)(uintptr_t)t->nrt;
    }
    t->of[key] = track + 1;
    return track;
}

/* The track of the label s[0..n), known by `key` (dense from 0: the
 * reader's names' ids, the writer's lms ids), by the rule above the first
 * time; -1 when out of memory.  *created tells whether it opened a track. */
static inline int64_t track_of(lms_tracks *t, uint32_t key, const char *s, size_t n,
                               bool *created) {
    if (key < t->cap && t->of[key]) {
        *created = false;
        return t->of[key] - 1;
    }
    return track_new(t, key, s, n, created);
}

/* ---- reader -------------------------------------------------------------- */

typedef struct lms_reader {
    tw_read_ctx ctx;  /* input, names, diagnostics, trace info, options */
    const char *file;
    int64_t cum_us;
    tw_u64map labels;     /* id -> const tw_str* */
    tw_idcache small;     /* the same for small ids, with one load */
    uint64_t *label_id;   /* by tw_str id: the lms id a label was mapped to */
    unsigned char *label_mapped;
    size_t label_cap;
    tw_u64map reported;   /* ids reported as unmapped */
    uint64_t next_id;     /* the id the next new mapping should have */
    bool legacy_noted;
    bool mapped;          /* a mapping line was read: not the 2015 variant */
    lms_tracks tracks;
    /* thread names waiting to be given (a second track gives two), before
     * the event of the line that opened the track, held meanwhile */
    const tw_str *thread_name;
    uint32_t pend[2];
    unsigned npend, ipend;
    tw_loc pend_loc;
    int64_t pend_us;
    bool held;
    tw_event held_ev;
    /* the input's window for lines read in place (tw_input_window()), kept
     * from one line to the next; nwin 0 once a line was read otherwise */
    const unsigned char *win;
    size_t nwin;
} lms_reader;

static int lms_open(const tw_read_ctx *ctx, void **state) {
    lms_reader *r = tw_state_alloc(ctx->diag, sizeof *r);
    if (!r) return TW_ERR;
    r->ctx = *ctx;
    r->file = tw_input_name(ctx->in);
    ctx->info->resolution_ns = TW_NS_PER_US;
    *state = r;
    return TW_OK;
}

static void lms_close(void *state) {
    lms_reader *r = state;
    tw_u64map_free(&r->labels);
    tw_idcache_free(&r->small);
    free(r->label_id);
    free(r->label_mapped);
    tw_u64map_free(&r->reported);
    tracks_free(&r->tracks);
    free(r);
}

static bool oom(lms_reader *r, const tw_loc *loc) {
    tw_intern_failed(&r->ctx, loc, "label");
    return false;
}

/* The thread id of an event of `label`: its track. */
static inline uint64_t tid_of(const lms_tracks *t, const tw_str *label) {
    return label->id < t->cap && t->of[label->id] ? t->of[label->id] - 1 : 0;
}

/* Give `label` its track, when met on line l; a new track's name (and,
 * for the second one, the first's) waits to be given before the line's
 * event.  False when out of memory (reported; the label stays on track 0). */
static bool give_track(lms_reader *r, const tw_line *l, const tw_str *label) {
    bool created;
    int64_t track = track_of(&r->tracks, label->id, label->s, label->len, &created);
    tw_loc loc = tw_text_loc(r->file, l, 0);
    if (track < 0) {
        tw_report(r->ctx.diag, TW_R_OUT_OF_MEMORY, &loc, "out of memory for the tracks of labels");
        return false;
    }
    if (!created) return true;
    if (!r->thread_name && !(r->thread_name = tw_intern_cstr(r->ctx.strtab, TW_META_THREAD_NAME))) {
        tw_intern_failed(&r->ctx, &loc, "the name of a track");
        return false;
    }
    r->npend = r->ipend = 0;
    if (track == 1) r->pend[r->npend++] = 0;
    r->pend[r->npend++] = (uint32_t)track;
    r->pend_loc = loc;
    r->pend_us = r->cum_us; /* the time of the marker before the line */
    return true;
}

/* A bad line: reported as bad-record, or as truncated-file when it is the
 * unterminated last line (a writer killed mid-line). */
static void bad_line(lms_reader *r, const tw_line *l, size_t col, const char *what) {
    tw_loc loc = tw_text_loc(r->file, l, col);
    if (!l->eol)
        tw_report(r->ctx.diag, TW_R_TRUNCATED_FILE, &loc,
                  "the last line is incomplete (%s); skipped", what);
    else
        tw_report(r->ctx.diag, TW_R_BAD_RECORD, &loc, "%s; line skipped", what);
}

/* Keep small ids' labels in an array too, so that events find theirs with
 * one load (the map stays the reference). */
static void remember(lms_reader *r, uint64_t id, const tw_str *s) {
    tw_idcache_set(&r->small, id, (void *)(uintptr_t)s);
}

static bool map_label(lms_reader *r, const tw_line *l, uint64_t id, const char *label,
                      size_t n) {
    tw_loc loc = tw_text_loc(r->file, l, 2);
    const tw_str *s = tw_intern(r->ctx.strtab, label, n);
    if (!s) return oom(r, &loc);
    const tw_str *old = tw_u64map_get(&r->labels, id);
    if (old && !tw_u64map_get(&r->reported, id)) {
        tw_report(r->ctx.diag, TW_R_LMS_REDEFINED, &loc,
                  "id %llu is mapped again (was '%s', now '%.*s')", (unsigned long long)id,
                  old->s, (int)(n > 200 ? 200 : n), label);
    } else {
        if (id != r->next_id)
            tw_report(r->ctx.diag, TW_R_LMS_ID_ORDER, &loc,
                      "mapping ids should ascend from 0: expected %llu, got %llu",
                      (unsigned long long)r->next_id, (unsigned long long)id);
        r->next_id = id + 1;
    }
    if (s->id >= r->label_cap) {
        size_t nc = r->label_cap ? r->label_cap : 64;
        while (nc <= s->id) nc *= 2;
        uint64_t *ids = realloc(r->label_id, nc * sizeof *ids);
        if (ids) r->label_id = ids;
        unsigned char *mapped = ids ? realloc(r->label_mapped, nc) : NULL;
        if (!mapped) return oom(r, &loc);
        memset(mapped + r->label_cap, 0, nc - r->label_cap);
        r->label_mapped = mapped;
        r->label_cap = nc;
    }
    if (r->label_mapped[s->id] && r->label_id[s->id] != id) {
        tw_loc lloc = tw_text_loc(r->file, l, (size_t)(label - l->s));
        tw_report(r->ctx.diag, TW_R_LMS_DUP_LABEL, &lloc,
                  "label '%.*s' is already mapped to id %llu", (int)(n > 200 ? 200 : n), label,
                  (unsigned long long)r->label_id[s->id]);
    }
    r->label_mapped[s->id] = 1;
    r->label_id[s->id] = id;
    if (!tw_u64map_put(&r->labels, id, (void *)s)) return oom(r, &loc);
    remember(r, id, s);
    return give_track(r, l, s);
}

static const tw_str *label_of(lms_reader *r, const tw_line *l, uint64_t id) {
    const tw_str *s = tw_idcache_get(&r->small, id);
    if (s) return s;
    s = tw_u64map_get(&r->labels, id);
    if (s) return s;
    tw_loc loc = tw_text_loc(r->file, l, 2);
    char tmp[32];
    int n = snprintf(tmp, sizeof tmp, "label#%llu", (unsigned long long)id);
    s = tw_intern(r->ctx.strtab, tmp, (size_t)n);
    if (!s) {
        oom(r, &loc);
        return NULL;
    }
    tw_report(r->ctx.diag, TW_R_LMS_UNMAPPED, &loc,
              "id %llu is used before its mapping line; named '%s'", (unsigned long long)id,
              s->s);
    if (!tw_u64map_put(&r->labels, id, (void *)s) ||
        !tw_u64map_put(&r->reported, id, (void *)s)) {
        oom(r, &loc);
        return NULL;
    }
    remember(r, id, s);
    give_track(r, l, s);
    return s;
}

/* The event of a record line at cumulative time cum (ts in ns). */
static TW_INLINE void record_event(lms_reader *r, const tw_line *l, tw_event *ev,
                                   const tw_str *name, int64_t cum, int64_t ts) {
    r->cum_us = cum;
    tw_event_clear(ev);
    ev->kind = l->s[0] == '0' ? TW_BEGIN : TW_END;
    ev->ts = ts;
    ev->name = name;
    ev->tid = tid_of(&r->tracks, name);
    ev->loc = tw_text_loc(r->file, l, 0);
}

/* Written as a signed decimal number ('-' and digits), whatever its size:
 * the newer format's time difference, not a 2015 label. */
static bool decimal_form(const char *s, size_t n) {
    size_t i = n && s[0] == '-';
    if (i == n) return false;
    for (; i < n; i++)
        if (s[i] < '0' || s[i] > '9') return false;
    return true;
}

/* One line; returns true when *ev was filled. */
static bool lms_line(lms_reader *r, const tw_line *l, tw_event *ev) {
    const char *s = l->s;
    size_t n = l->len;
    if (n == 0) return false;
    if ((s[0] != '0' && s[0] != '1' && s[0] != '2') || n < 2 || s[1] != ',') {
        bad_line(r, l, 0, "expected a record type 0, 1 or 2 followed by a comma");
        return false;
    }
    /* second field */
    const char *f2 = s + 2;
    const char *c2 = f2;  /* short fields: a loop beats a call to memchr */
    while (c2 < s + n && *c2 != ',') c2++;
    if (c2 == s + n) {
        bad_line(r, l, n, "expected a comma after the second field");
        return false;
    }
    size_t f2n = (size_t)(c2 - f2);
    const char *f3 = c2 + 1;
    size_t f3n = n - (size_t)(f3 - s);
    uint64_t id;
    if (s[0] == '2') {
        if (!tw_parse_u64(f2, f2n, &id)) {
            bad_line(r, l, 2, "expected a decimal id");
            return false;
        }
        r->mapped = true;
        map_label(r, l, id, f3, f3n);
        return false;
    }
    int64_t diff;
    const tw_str *name;
    size_t diff_col;
    if (tw_parse_i64(f3, f3n, &diff)) {
        if (!tw_parse_u64(f2, f2n, &id)) {
            /* the marker is lost, but the time it measured still passed */
            bad_line(r, l, 2, "expected a decimal id");
            int64_t cum;
            if (tw_add_i64(r->cum_us, diff, &cum) && cum <= INT64_MAX / TW_NS_PER_US &&
                cum >= INT64_MIN / TW_NS_PER_US)
                r->cum_us = cum;
            return false;
        }
        diff_col = (size_t)(f3 - s);
        if (!(name = label_of(r, l, id))) return false;
    } else if (!r->mapped && f2n && tw_parse_i64(f2, f2n, &diff) && f3n &&
               !decimal_form(f3, f3n)) {
        /* the 2015 variant: <type>,<diff>,<label>, which has no mapping
         * lines; after one, such a line is a damaged marker (below) */
        if (!r->legacy_noted) {
            tw_loc loc = tw_text_loc(r->file, l, 0);
            tw_report(r->ctx.diag, TW_R_LMS_LEGACY, &loc,
                      "labels in every line: reading the 2015 '<type>,<diff>,<label>' "
                      "variant");
            r->legacy_noted = true;
        }
        diff_col = 2;
        tw_loc loc = tw_text_loc(r->file, l, (size_t)(f3 - s));
        if (!(name = tw_intern(r->ctx.strtab, f3, f3n))) return oom(r, &loc);
        give_track(r, l, name);
    } else {
        if (decimal_form(f3, f3n)) {
            /* all digits, but beyond 64 bits */
            tw_loc loc = tw_text_loc(r->file, l, (size_t)(f3 - s));
            tw_report(r->ctx.diag, TW_R_TIME_OVERFLOW, &loc,
                      "time difference %.*s%s us does not fit in 64 bits; line skipped",
                      (int)(f3n > 40 ? 40 : f3n), f3, f3n > 40 ? "..." : "");
            return false;
        }
        bad_line(r, l, (size_t)(f3 - s), "expected a signed decimal time difference");
        return false;
    }
    int64_t cum, ts;
    if (!tw_add_i64(r->cum_us, diff, &cum) || !tw_to_ns(cum, TW_NS_PER_US, &ts)) {
        tw_loc loc = tw_text_loc(r->file, l, diff_col);
        tw_report(r->ctx.diag, TW_R_TIME_OVERFLOW, &loc,
                  "cumulative time %lld us %c %llu us does not fit in 64-bit nanoseconds; line "
                  "skipped",
                  (long long)r->cum_us, diff < 0 ? '-' : '+',
                  diff < 0 ? 0 - (unsigned long long)diff : (unsigned long long)diff);
        return false;
    }
    record_event(r, l, ev, name, cum, ts);
    return true;
}

/* The usual line, "0,ID,DIFF" or "1,ID,DIFF" of a mapped id, read in one
 * pass: true when *ev was filled.  False, with nothing changed, for any
 * other line, which lms_line() then reads and reports on; for the lines it
 * takes, the same event as lms_line(). */
static TW_INLINE bool plain_line(lms_reader *r, const tw_line *l, tw_event *ev) {
    const char *s = l->s, *p;
    const tw_str *name;
    uint64_t id, v;
    if (!l->eol || l->len < 5 || (s[0] != '0' && s[0] != '1') || s[1] != ',' ||
        !(p = tw_scan_dec_eol(s + 2, &id)) || *p != ',' ||
        !(name = tw_idcache_get(&r->small, id)))
        return false;
    p++;
    bool neg = *p == '-';
    if (!(p = tw_scan_dec_eol(p + neg, &v)) || p != s + l->len) return false;
    int64_t cum, ts;
    if (!tw_add_i64(r->cum_us, neg ? -(int64_t)v : (int64_t)v, &cum) ||
        !tw_to_ns(cum, TW_NS_PER_US, &ts))
        return false;
    record_event(r, l, ev, name, cum, ts);
    return true;
}

/* plain_line() of the line at the cursor, read in place (tw_input_window())
 * before any line reader looks for its end: the same lines, with the same
 * event, when they end in an LF, and nothing consumed for any other (which
 * tw_input_getline() then reads).  The two numbers are scanned within the
 * first 41 bytes, so a window of at least INPLACE_MIN holds all it reads;
 * nearer the input's end the lines go the usual way. */
#define INPLACE_MIN 48
static TW_INLINE bool plain_inplace(lms_reader *r, tw_event *ev) {
    if (r->nwin < INPLACE_MIN && (r->nwin = tw_input_window(r->ctx.in, &r->win)) < INPLACE_MIN)
        return false;
    const char *s = (const char *)r->win, *p;
    const tw_str *name;
    uint64_t id, v;
    if ((s[0] != '0' && s[0] != '1') || s[1] != ',' || !(p = tw_scan_dec_max(s + 2, &id)) ||
        *p != ',' || !(name = tw_idcache_get(&r->small, id)))
        return false;
    p++;
    bool neg = *p == '-';
    if (!(p = tw_scan_dec_max(p + neg, &v)) || *p != '\n') return false;
    int64_t cum, ts;
    if (!tw_add_i64(r->cum_us, neg ? -(int64_t)v : (int64_t)v, &cum) ||
        !tw_to_ns(cum, TW_NS_PER_US, &ts))
        return false;
    tw_line l;
    size_t len = (size_t)(p - s);
    tw_window_take(r->ctx.in, &r->win, &r->nwin, len, &l);
    record_event(r, &l, ev, name, cum, ts);
    return true;
}

/* The next waiting thread name, else the held event: false when none. */
static bool give_waiting(lms_reader *r, tw_event *ev) {
    if (r->ipend < r->npend) {
        uint32_t track = r->pend[r->ipend++];
        if (r->ipend == r->npend) r->npend = r->ipend = 0;
        const lms_text *rt = &r->tracks.names[track];
        tw_event_clear(ev);
        ev->kind = TW_META;
        ev->name = r->thread_name;
        (void)tw_to_ns(r->pend_us, TW_NS_PER_US, &ev->ts); /* in range: checked when summed */
        ev->tid = track;
        ev->msg = rt->s;
        ev->msg_len = rt->n;
        ev->loc = r->pend_loc;
        return true;
    }
    if (!r->held) return false;
    r->held = false;
    *ev = r->held_ev;
    return true;
}

static TW_INLINE int lms_next_one(void *state, tw_event *ev) {
    lms_reader *r = state;
    tw_line l;
    if (give_waiting(r, ev)) return TW_OK;
    for (;;) {
        if (tw_diag_stopped(r->ctx.diag)) return TW_ERR;
        if (plain_inplace(r, ev)) return TW_OK;
        r->nwin = 0;  /* the next call asks for the window again */
        int rc = tw_input_getline(r->ctx.in, &l);
        if (rc < 0) return TW_ERR;
        if (rc == 0) return TW_EOF;
        bool got = plain_line(r, &l, ev) || lms_line(r, &l, ev);
        if (r->npend) {  /* the line opened a track: its name comes first */
            if (got) {
                r->held_ev = *ev;
                r->held = true;
            }
            give_waiting(r, ev);
            return TW_OK;
        }
        if (got) return TW_OK;
    }
}

/* ---- writer -------------------------------------------------------------- */

typedef struct lms_writer {
    tw_write_ctx ctx;
    tw_u64map ids;  /* tw_str id -> lms id + 1 */
    /* Each label is mapped once, and names that are one label once written
     * (line breaks become spaces) share its id: tw_hash of a written label
     * (+ probe) -> its lms id + 1, and the labels by id */
    tw_u64map by_label;
    struct lms_label {
        char *s;  /* owned when the name was changed, else the name's bytes */
        size_t n;
        bool owned;
    } *labels;
    size_t labels_cap;
    uint64_t next_id;
    int64_t prev_us;
    bool have_thread;
    uint32_t pid;
    uint64_t tid;
    tw_u64map threads; /* extra (pid, tid) seen, for the loss count */
    uint64_t merged;   /* threads merged, when they do not come back */
    uint64_t moved;    /* events read back on another track than their own */
    /* Whether the reader gives every event its thread back: one process and
     * each event's thread the track its label gets (lms_tracks) */
    lms_tracks tracks;
    bool exact;
    /* the thread names given, checked at the end against the tracks' */
    struct lms_named {
        uint32_t pid;
        uint64_t tid;
        char *s;
        size_t n;
    } *named;
    size_t nnamed, named_cap;
} lms_writer;

static int lms_begin(const tw_write_ctx *ctx, void **state) {
    lms_writer *w = tw_state_alloc(ctx->diag, sizeof *w);
    if (!w) return TW_ERR;
    w->ctx = *ctx;
    w->exact = true;
    if (ctx->info->has_origin) tw_loss_add(ctx->loss, "wall-clock origin dropped", 1);
    if (ctx->info->has_pid) tw_loss_add(ctx->loss, "process id dropped", 1);
    *state = w;
    return TW_OK;
}

/* A thread name, kept for lms_end() to tell whether it comes back. */
static int keep_name(lms_writer *w, const tw_event *ev) {
    char *copy = malloc(ev->msg_len + 1);
    if (!copy || !tw_grow(&w->named, &w->named_cap, w->nnamed + 1, sizeof *w->named, 4)) {
        free(copy);
        tw_report(w->ctx.diag, TW_R_OUT_OF_MEMORY, NULL, "out of memory");
        return TW_ERR;
    }
    if (ev->msg_len) memcpy(copy, ev->msg, ev->msg_len);
    struct lms_named *nm = &w->named[w->nnamed++];
    nm->pid = ev->pid;
    nm->tid = ev->tid;
    nm->s = copy;
    nm->n = ev->msg_len;
    return TW_OK;
}

/* The lms id + 1 of name, mapped on its first use: the id of the label it
 * is written as when another name was written so (line breaks become
 * spaces), else a new one, whose mapping line is written.  0 when out of
 * memory (reported). */
static uintptr_t map_name(lms_writer *w, const tw_str *name) {
    tw_output *o = w->ctx.out;
    const char *label = name->s;
    char *copy = NULL;
    if (memchr(name->s, '\n', name->len) || memchr(name->s, '\r', name->len)) {
        if (!(copy = malloc(name->len + 1))) goto oom;
        memcpy(copy, name->s, name->len);
        for (size_t i = 0; i < name->len; i++)
            if (copy[i] == '\n' || copy[i] == '\r') copy[i] = ' ';
        label = copy;
        tw_loss_add(w->ctx.loss, "line breaks in names replaced by spaces", 1);
    }
    void **slot;
    for (uint64_t key = tw_hash(label, name->len);; key++) {
        if (!(slot = tw_u64map_slot(&w->by_label, key))) goto oom;
        if (!*slot) break;
        const struct lms_label *l = &w->labels[(uintptr_t)*slot - 1];
        if (l->n == name->len && memcmp(l->s, label, l->n) == 0) {  /* written before */
            uintptr_t id1 = (uintptr_t)*slot;
            if (!tw_u64map_put(&w->ids, name->id, (void *)id1)) goto oom;
            free(copy);
            return id1;
        }
    }
    bool created;
    if (!tw_grow(&w->labels, &w->labels_cap, w->next_id + 1, sizeof *w->labels, 16) ||
        w->next_id >= UINT32_MAX)
        goto oom;
    /* the label is kept (and owns its copy) before anything can fail, so
     * that nothing points at freed bytes */
    uint32_t id = (uint32_t)w->next_id++;
    w->labels[id] = (struct lms_label){(char *)label, name->len, copy != NULL};
    copy = NULL;
    uintptr_t id1 = (uintptr_t)id + 1;
    if (track_of(&w->tracks, id, label, name->len, &created) < 0 ||
        !tw_u64map_put(&w->ids, name->id, (void *)id1))
        goto oom;
    *slot = (void *)id1;
    tw_out_str(o, "2,");
    tw_out_u64(o, (uint64_t)(id1 - 1));
    tw_out_putc(o, ',');
    tw_out_write(o, label, name->len);
    tw_out_putc(o, '\n');
    return id1;
oom:
    free(copy);
    tw_report(w->ctx.diag, TW_R_OUT_OF_MEMORY, NULL, "out of memory");
    return 0;
}

static int lms_event(void *state, const tw_event *ev) {
    lms_writer *w = state;
    tw_output *o = w->ctx.out;
    if (ev->kind != TW_BEGIN && ev->kind != TW_END) {
        if (ev->kind == TW_META && tw_str_is(ev->name, TW_META_THREAD_NAME))
            return keep_name(w, ev);
        tw_loss_drop(w->ctx.loss, ev);
        return TW_OK;
    }
    if (!w->have_thread) {
        w->have_thread = true;
        w->pid = ev->pid;
        w->tid = ev->tid;
        /* the one process is read back as process 0 */
        if (ev->pid && !w->ctx.info->has_pid) tw_loss_add(w->ctx.loss, "process id dropped", 1);
    } else if (ev->pid != w->pid || ev->tid != w->tid) {
        uint64_t key = ev->tid * 0x9e3779b97f4a7c15ULL ^ ev->pid;
        if (!tw_u64map_get(&w->threads, key)) {
            /* counts every thread: the first one too when a second appears */
            w->merged += w->threads.n ? 1 : 2;
            (void)tw_u64map_put(&w->threads, key, (void *)1); /* on failure: counted again */
        }
    }
    if (ev->cat) tw_loss_add(w->ctx.loss, "categories dropped", 1);
    if (ev->nattrs) tw_loss_add(w->ctx.loss, "event attributes dropped", 1);
    if (ev->msg) tw_loss_add(w->ctx.loss, "message texts dropped", 1);
    if (ev->has_value) tw_loss_add(w->ctx.loss, "event values dropped", 1);
    uintptr_t id1 = (uintptr_t)tw_u64map_get(&w->ids, ev->name->id);
    if (!id1 && !(id1 = map_name(w, ev->name))) return TW_ERR;
    /* the track the reader will give the label (map_name() found it) */
    uint64_t track = w->tracks.of[id1 - 1] - 1;
    if (ev->pid != w->pid || ev->tid != track) {
        w->exact = false;
        if (track) w->moved++;
    }
    int64_t us = tw_write_time(&w->ctx, ev->ts, TW_NS_PER_US, "microsecond");
    tw_out_putc(o, ev->kind == TW_BEGIN ? '0' : '1');
    tw_out_putc(o, ',');
    tw_out_u64(o, (uint64_t)(id1 - 1));
    tw_out_putc(o, ',');
    tw_out_i64(o, us - w->prev_us);
    tw_out_putc(o, '\n');
    w->prev_us = us;
    return TW_OK;
}

static int lms_end(void *state) {
    lms_writer *w = state;
    /* thread names: kept when they are the names the reader gives */
    for (size_t i = 0; i < w->nnamed; i++) {
        const struct lms_named *nm = &w->named[i];
        const lms_text *rt = nm->tid < w->tracks.n ? &w->tracks.names[nm->tid] : NULL;
        if (!w->exact || w->tracks.n < 2 || nm->pid != w->pid || !rt || !rt->s ||
            rt->n != nm->n || memcmp(rt->s, nm->s, nm->n) != 0)
            tw_loss_add(w->ctx.loss, "thread and process names dropped", 1);
    }
    if (w->exact) return TW_OK;  /* every thread comes back */
    if (w->merged) tw_loss_add(w->ctx.loss, "threads merged into one", w->merged);
    /* one thread only: it is read back as thread 0 */
    if (w->have_thread && !w->threads.n && w->tid)
        tw_loss_add(w->ctx.loss, "thread ids dropped", 1);
    if (w->moved)
        tw_loss_add(w->ctx.loss, "events read back on the track of their label's runtime",
                    w->moved);
    return TW_OK;
}

static void lms_free(void *state) {
    lms_writer *w = state;
    tw_u64map_free(&w->ids);
    tw_u64map_free(&w->threads);
    tracks_free(&w->tracks);
    tw_u64map_free(&w->by_label);
    for (uint64_t i = 0; i < w->next_id; i++)
        if (w->labels[i].owned) free(w->labels[i].s);
    free(w->labels);
    for (size_t i = 0; i < w->nnamed; i++) free(w->named[i].s);
    free(w->named);
    free(w);
}

/* ---- descriptor ---------------------------------------------------------- */

static const char *const lms_aliases[] = {"lms-csv", "lmscsv", NULL};
static const char *const lms_exts[] = {".csv", NULL};

/* What the reader produces and the writer keeps (see tw_fidelity). */
static const tw_fidelity lms_fidelity = {
    .family = "lms",
    .produces = TW_KEEP_THREADS | TW_KEEP_NAMES | TW_KEEP_NESTING | TW_KEEP_NEGATIVE,
    .keeps = TW_KEEP_NESTING | TW_KEEP_NEGATIVE | TW_KEEP_IDS,
    .read_clock_ns = TW_NS_PER_US,
    .write_clock_ns = TW_NS_PER_US,
    .read_origin_ns = 0,
    .write_origin_ns = 0,
    .partly = 0,
};

static int lms_next(void *state, tw_event *ev) { return lms_next_one(state, ev); }

/* A run of events (tw_batch), as tw_read_batch_with() reads it with
 * lms_next(), but the usual lines, read in place, go straight into the
 * batch without a call each: they report nothing and end no run (no
 * message, attributes or transient name). */
static int lms_batch(void *state, tw_batch *b) {
    lms_reader *r = state;
    while (b->n < b->cap) {
        if (!tw_diag_stopped(r->ctx.diag) && !r->npend && !r->held) {
            size_t n0 = b->n;
            while (b->n < b->cap && plain_inplace(r, &b->ev[b->n])) b->n++;
            if (b->n > n0) continue;
        }
        int rc; /* any other: one event the general way */
        if (!tw_read_one_with(lms_next, r, b, &rc)) return rc;
    }
    return TW_OK;
}

static const tw_format lms_format = {
    .abi = TW_FORMAT_ABI,
    .name = "lms",
    .aliases = lms_aliases,
    .extensions = lms_exts,
    .description = "LMS (lms-org) profiler CSV",
    .flags = TW_FMT_TEXT | TW_FMT_WRITER_TRANSIENT,
    .options = NULL,
    .probe = lms_probe,
    .read_open = lms_open,
    .read_next = lms_next,
    .read_batch = lms_batch,
    .read_close = lms_close,
    .write_begin = lms_begin,
    .write_event = lms_event,
    .write_end = lms_end,
    .write_free = lms_free,
    .jitter_ns = 100 * TW_NS_PER_US, /* see the format's spec and docs/formats/lms.md */
    .fidelity = &lms_fidelity,
};

TW_FORMAT_EXPORT(lms, lms_format)
