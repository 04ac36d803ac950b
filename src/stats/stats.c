/*
 * Per-scope statistics on top of the pairing engine: one row per
 * (thread, scope name), in order of first entry.
 */
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "stats/checks.h"
#include "tracewright/stats.h"

typedef struct row_state {
    uint64_t active;  /* invocations of this scope open on its thread */
    bool have_entry, have_exit;
    int64_t last_entry, last_exit;
} row_state;

struct tw_stats {
    tw_pairing *pairing;
    tw_diag_sink *diag;
    tw_scope_stats *rows;
    row_state *state;
    size_t nrows, cap;
    uint64_t events;
    bool have_bounds;
    int64_t first, last;
    int64_t jitter;
    tw_xcheck *xcheck;  /* tw_stats_set_checks(), or NULL */
    bool failed;
};

static inline int64_t sat_add(int64_t a, int64_t b) {
    int64_t r;
    if (tw_add_i64(a, b, &r)) return r;
    return b > 0 ? INT64_MAX : INT64_MIN;
}

/* tw_stat_add, inlined into the hooks below that run once per scope */
static inline void stat_add(tw_stat *s, int64_t v, bool to_total) {
    if (s->n == 0) {
        s->min = s->max = v;
    } else if (v < s->min) {
        s->min = v;
    } else if (v > s->max) {
        s->max = v;
    }
    s->n++;
    s->sum = sat_add(s->sum, v);
    if (to_total) s->total = sat_add(s->total, v);
}

void tw_stat_add(tw_stat *s, int64_t v, bool to_total) { stat_add(s, v, to_total); }

void tw_stat_merge(tw_stat *into, const tw_stat *from) {
    if (from->n == 0) return;
    if (into->n == 0 || from->min < into->min) into->min = from->min;
    if (into->n == 0 || from->max > into->max) into->max = from->max;
    into->n += from->n;
    into->sum = sat_add(into->sum, from->sum);
    into->total = sat_add(into->total, from->total);
}

int64_t tw_stat_avg(const tw_stat *s) {
    if (s->n == 0) return 0;
    if (s->n > (uint64_t)INT64_MAX) return 0;
    return tw_round_div(s->sum, (int64_t)s->n, NULL);
}

/* The row of a frame's (thread, name), created on its first entry; its
 * index + 1 is the pairing engine's tag of (thread, name). */
static size_t row_of(tw_stats *s, const tw_frame *f) {
    if (*f->tag) return *f->tag - 1;
    if (s->nrows >= UINT32_MAX - 1) return (size_t)-1;
    if (s->nrows == s->cap) {
        size_t nc = s->cap ? s->cap * 2 : 64;
        tw_scope_stats *nr = realloc(s->rows, nc * sizeof *nr);
        if (nr) s->rows = nr;
        row_state *ns = nr ? realloc(s->state, nc * sizeof *ns) : NULL;
        if (!ns) return (size_t)-1;
        s->state = ns;
        s->cap = nc;
    }
    *f->tag = (uint32_t)s->nrows + 1;
    tw_scope_stats *row = &s->rows[s->nrows];
    memset(row, 0, sizeof *row);
    row->name = f->name->s;
    row->name_len = f->name->len;
    row->by_thread = true;
    row->pid = f->pid;
    row->tid = f->tid;
    memset(&s->state[s->nrows], 0, sizeof s->state[0]);
    return s->nrows++;
}

/* An interval that runs backwards: reported (unless already, or within the
 * jitter) and counted as 0. */
static int64_t backwards(tw_stats *s, const tw_frame *f, int64_t since, const char *what) {
    int64_t d;
    if (!tw_sub_i64(f->begin, since, &d)) d = f->begin < since ? INT64_MIN : INT64_MAX;
    if (f->late || (d != INT64_MIN && -d <= s->jitter)) return 0;  /* reported, or jitter */
    tw_report(s->diag, TW_R_TIME_BACKWARDS, &f->loc,
              "entry of '%.*s' comes %lld ns before its previous %s; the interval counts as 0",
              (int)(f->name->len > 200 ? 200 : f->name->len), f->name->s,
              d == INT64_MIN ? (long long)INT64_MAX : (long long)-d, what);
    return 0;
}

/* From `since` (the previous entry or exit) to this entry; time that runs
 * backwards is reported and counts as 0. */
static inline int64_t interval(tw_stats *s, const tw_frame *f, int64_t since, const char *what) {
    int64_t d;
    if (f->begin >= since && tw_sub_i64(f->begin, since, &d)) return d;
    return f->begin >= since ? INT64_MAX : backwards(s, f, since, what);
}

static void on_open(void *user, const tw_frame *f) {
    tw_stats *s = user;
    size_t i = row_of(s, f);
    if (i == (size_t)-1) {
        if (!s->failed)
            tw_report(s->diag, TW_R_OUT_OF_MEMORY, &f->loc, "out of memory for statistics");
        s->failed = true;
        return;
    }
    tw_scope_stats *row = &s->rows[i];
    row_state *st = &s->state[i];
    row->count++;
    if (st->have_entry) stat_add(&row->period, interval(s, f, st->last_entry, "entry"), false);
    st->have_entry = true;
    st->last_entry = f->begin;
    if (st->active == 0 && st->have_exit)
        stat_add(&row->outside, interval(s, f, st->last_exit, "exit"), true);
    st->active++;
}

static void on_close(void *user, const tw_frame *f, int64_t end, tw_close_how how,
                     const tw_scope_times *t) {
    tw_stats *s = user;
    uint32_t r = *f->tag;
    if (!r) return;  /* its entry could not be recorded (out of memory) */
    tw_scope_stats *row = &s->rows[r - 1];
    row_state *st = &s->state[r - 1];
    if (st->active) st->active--;
    if (how != TW_CLOSED_BY_END) row->incomplete++;
    bool outermost = st->active == 0;
    stat_add(&row->net, t->net, true);
    stat_add(&row->gross, t->gross, outermost);
    stat_add(&row->call, t->call, outermost);
    if (outermost) {
        st->have_exit = true;
        st->last_exit = end;
    }
}

tw_stats *tw_stats_new(tw_diag_sink *diag) {
    tw_stats *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->diag = diag;
    tw_pairing_hooks h = {.user = s, .open = on_open, .close = on_close};
    s->pairing = tw_pairing_new(&h, diag);
    if (!s->pairing) {
        free(s);
        return NULL;
    }
    return s;
}

void tw_stats_set_jitter(tw_stats *s, int64_t ns) {
    s->jitter = ns > 0 ? ns : 0;
    tw_pairing_set_jitter(s->pairing, s->jitter);
}

void tw_stats_free(tw_stats *s) {
    if (!s) return;
    tw_xcheck_free(s->xcheck);
    tw_pairing_free(s->pairing);
    free(s->rows);
    free(s->state);
    free(s);
}

int tw_stats_event(tw_stats *s, const tw_event *ev) {
    s->events++;
    if (!s->have_bounds || ev->ts < s->first) s->first = ev->ts;
    if (!s->have_bounds || ev->ts > s->last) s->last = ev->ts;
    s->have_bounds = true;
    if (tw_pairing_event(s->pairing, ev) != TW_OK || s->failed) return TW_ERR;
    if (s->xcheck && !tw_xcheck_event(s->xcheck, ev, s->diag)) {
        tw_report(s->diag, TW_R_OUT_OF_MEMORY, &ev->loc, "out of memory for statistics");
        s->failed = true;
        return TW_ERR;
    }
    return TW_OK;
}

int tw_stats_finish(tw_stats *s) {
    if (tw_pairing_finish(s->pairing) != TW_OK || s->failed) return TW_ERR;
    if (s->xcheck && !tw_xcheck_run(s->xcheck, s, s->diag)) {
        tw_report(s->diag, TW_R_OUT_OF_MEMORY, NULL, "out of memory for statistics");
        return TW_ERR;
    }
    return TW_OK;
}

int tw_stats_set_checks(tw_stats *s, unsigned checks) {
    tw_xcheck_free(s->xcheck);
    s->xcheck = NULL;
    if (checks && !(s->xcheck = tw_xcheck_new(checks))) return TW_ERR;
    return TW_OK;
}

size_t tw_stats_scope_count(const tw_stats *s) { return s->nrows; }
const tw_scope_stats *tw_stats_scope(const tw_stats *s, size_t i) { return &s->rows[i]; }
uint64_t tw_stats_event_count(const tw_stats *s) { return s->events; }
size_t tw_stats_thread_count(const tw_stats *s) { return tw_pairing_thread_count(s->pairing); }

bool tw_stats_bounds(const tw_stats *s, int64_t *first, int64_t *last) {
    *first = s->first;
    *last = s->last;
    return s->have_bounds;
}
