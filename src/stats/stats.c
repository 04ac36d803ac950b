/*
 * Per-scope statistics on top of the pairing engine: one row per
 * (thread, scope name), in order of first entry.
 */
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "stats/checks.h"
#include "stats/pairing_impl.h"
#include "tracewright/stats.h"

/*
 * The figures of one row while events stream in, laid out so that an entry
 * touches the first cache line (and the second when it is an outermost
 * one) and an exit the three; the public tw_scope_stats (248 bytes over
 * four lines) is made from it when asked for.  A figure's min and max start at INT64_MAX and
 * INT64_MIN, so that adding a value needs no test of its count; counts
 * that follow from others are not kept: period.n is count - 1 (every
 * entry but the first adds one), net, gross and call have one value per
 * exit, and net's and outside's totals are their sums.
 */
typedef struct row {
    /* every entry */
    uint32_t active;      /* invocations of this scope open on its thread */
    bool have_exit;
    int64_t last_entry, last_exit;
    uint64_t count;
    int64_t period_min, period_max, period_sum;
    uint64_t outside_n;
    /* outermost entries, every exit */
    int64_t outside_min, outside_max, outside_sum;
    uint64_t exits, incomplete;
    int64_t net_min, net_max, net_sum;
    /* every exit */
    int64_t gross_min, gross_max, gross_sum, gross_total;
    int64_t call_min, call_max, call_sum, call_total;
} row;

#define ROW_ALIGN 64
_Static_assert(sizeof(row) == 3 * ROW_ALIGN, "a row is three cache lines");

struct tw_stats {
    tw_pairing *pairing;
    tw_diag_sink *diag;
    row *rows;             /* ROW_ALIGN-aligned */
    tw_scope_stats *pub;   /* the public rows: names here, figures from rows */
    size_t nrows, cap;
    uint64_t events;
    int64_t first, last;
    int64_t jitter;
    tw_xcheck *xcheck;  /* tw_stats_set_checks(), or NULL */
    bool failed;
    /* the threads named by thread_name metadata: (pid, tid) -> index in
     * names, which holds copies of their latest names */
    tw_tidmap named;
    struct thread_name {
        char *s;
        size_t len;
    } *names;
    size_t names_cap;
};

static inline int64_t sat_add(int64_t a, int64_t b) {
    int64_t r;
    if (tw_add_i64(a, b, &r)) return r;
    return b > 0 ? INT64_MAX : INT64_MIN;
}

void tw_stat_add(tw_stat *s, int64_t v, bool to_total) {
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

void tw_stat_merge(tw_stat *into, const tw_stat *from) {
    if (from->n == 0) return;
    if (into->n == 0 || from->min < into->min) into->min = from->min;
    if (into->n == 0 || from->max > into->max) into->max = from->max;
    /* saturated as the counts of a report are (signed 64-bit numbers) */
    uint64_t n = into->n + from->n;
    into->n = n < into->n || n > (uint64_t)INT64_MAX ? (uint64_t)INT64_MAX : n;
    into->sum = sat_add(into->sum, from->sum);
    into->total = sat_add(into->total, from->total);
}

int64_t tw_stat_avg(const tw_stat *s) {
    if (s->n == 0) return 0;
    int64_t a = s->n > (uint64_t)INT64_MAX ? 0 : tw_round_div(s->sum, (int64_t)s->n, NULL);
    /* within the extremes, as any average is, also when the sum saturated */
    return a < s->min ? s->min : a > s->max ? s->max : a;
}

/* Room for one more row: the private rows move to a new aligned block. */
static bool grow_rows(tw_stats *s) {
    size_t nc = s->cap ? s->cap * 2 : 64;
    tw_scope_stats *np = realloc(s->pub, nc * sizeof *np);
    if (!np) return false;
    s->pub = np;
    row *nr = aligned_alloc(ROW_ALIGN, nc * sizeof *nr);
    if (!nr) return false;
    if (s->nrows) memcpy(nr, s->rows, s->nrows * sizeof *nr);
    free(s->rows);
    s->rows = nr;
    s->cap = nc;
    return true;
}

/* The row of a frame's (thread, name), created on its first entry; its
 * index + 1 is the pairing engine's tag of (thread, name). */
static size_t row_of(tw_stats *s, const tw_frame *f) {
    if (*f->tag) return *f->tag - 1;
    if (s->nrows >= UINT32_MAX - 1) return (size_t)-1;
    if (s->nrows == s->cap && !grow_rows(s)) return (size_t)-1;
    *f->tag = (uint32_t)s->nrows + 1;
    tw_scope_stats *pub = &s->pub[s->nrows];
    memset(pub, 0, sizeof *pub);
    pub->name = f->name->s;
    pub->name_len = f->name->len;
    pub->by_thread = true;
    pub->pid = f->pid;
    pub->tid = f->tid;
    row *r = &s->rows[s->nrows];
    memset(r, 0, sizeof *r);
    r->period_min = r->outside_min = r->net_min = r->gross_min = r->call_min = INT64_MAX;
    r->period_max = r->outside_max = r->net_max = r->gross_max = r->call_max = INT64_MIN;
    return s->nrows++;
}

/* Add v to a figure kept as min, max and sum. */
static inline void fig_add(int64_t *min, int64_t *max, int64_t *sum, int64_t v) {
    if (v < *min) *min = v;
    if (v > *max) *max = v;
    *sum = sat_add(*sum, v);
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

/* A scope of f's row was entered: the open hook's work, inlined where
 * tw_stats_event() takes tw_pairing_fast(). */
static TW_INLINE void open_row(tw_stats *s, const tw_frame *f) {
    size_t i = row_of(s, f);
    if (i == (size_t)-1) {
        if (!s->failed)
            tw_report(s->diag, TW_R_OUT_OF_MEMORY, &f->loc, "out of memory for statistics");
        s->failed = true;
        return;
    }
    row *r = &s->rows[i];
    if (r->count++)
        fig_add(&r->period_min, &r->period_max, &r->period_sum,
                interval(s, f, r->last_entry, "entry"));
    r->last_entry = f->begin;
    if (r->active == 0 && r->have_exit) {
        r->outside_n++;
        fig_add(&r->outside_min, &r->outside_max, &r->outside_sum,
                interval(s, f, r->last_exit, "exit"));
    }
    r->active++;
}

/* A scope of f's row was closed at `end`: the close hook's work, inlined
 * where tw_stats_event() takes tw_pairing_fast(). */
static TW_INLINE void close_row(tw_stats *s, const tw_frame *f, int64_t end, tw_close_how how,
                                const tw_scope_times *t) {
    uint32_t i = *f->tag;
    if (!i) return;  /* its entry could not be recorded (out of memory) */
    row *r = &s->rows[i - 1];
    if (r->active) r->active--;
    r->incomplete += how != TW_CLOSED_BY_END;
    r->exits++;
    fig_add(&r->net_min, &r->net_max, &r->net_sum, t->net);
    fig_add(&r->gross_min, &r->gross_max, &r->gross_sum, t->gross);
    fig_add(&r->call_min, &r->call_max, &r->call_sum, t->call);
    if (r->active == 0) {  /* outermost: recursive re-entries count once */
        r->gross_total = sat_add(r->gross_total, t->gross);
        r->call_total = sat_add(r->call_total, t->call);
        r->have_exit = true;
        r->last_exit = end;
    }
}

static void on_open(void *user, const tw_frame *f) { open_row(user, f); }

static void on_close(void *user, const tw_frame *f, int64_t end, tw_close_how how,
                     const tw_scope_times *t) {
    close_row(user, f, end, how, t);
}

tw_stats *tw_stats_new(tw_diag_sink *diag) {
    tw_stats *s = tw_calloc_lines(1, sizeof *s);
    if (!s) return NULL;
    s->diag = diag;
    s->first = INT64_MAX;  /* (the bounds are valid once there is an event) */
    s->last = INT64_MIN;
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
    for (size_t i = 0; i < s->named.n; i++) free(s->names[i].s);
    free(s->names);
    tw_tidmap_free(&s->named);
    free(s->rows);
    free(s->pub);
    free(s);
}

void tw_stats_general_only(tw_stats *s) { s->pairing->general_only = true; }

/* A thread_name metadata event: the thread's name is now its text (none
 * when it has none).  False when out of memory. */
static bool name_thread(tw_stats *s, const tw_event *ev) {
    char *copy = NULL;
    if (ev->msg_len) {
        if (!(copy = malloc(ev->msg_len + 1))) return false;
        memcpy(copy, ev->msg, ev->msg_len);
        copy[ev->msg_len] = '\0';
    }
    /* room for a new name first, so that the map never names a missing one */
    size_t n = s->named.n;
    bool created;
    int64_t i;
    if (!tw_grow(&s->names, &s->names_cap, n + 1, sizeof *s->names, 8) ||
        (i = tw_tidmap_index(&s->named, ev->pid, ev->tid, &created)) < 0) {
        free(copy);
        return false;
    }
    if (!created) free(s->names[i].s);
    s->names[i].s = copy;
    s->names[i].len = copy ? ev->msg_len : 0;
    return true;
}

/* tw_stats_event()'s work, inlined in the loop of tw_stats_events(). */
static TW_INLINE int stats_one(tw_stats *s, const tw_event *ev) {
    s->events++;
    if (ev->ts < s->first) s->first = ev->ts;
    if (ev->ts > s->last) s->last = ev->ts;
    /* the commonest events through the short paths, the hooks' work
     * inlined; the others to the general one, which calls the hooks */
    tw_scope_times tm = {0, 0, 0};
    tw_frame *f = tw_pairing_fast(s->pairing, ev, &tm);
    if (!f) {
        if (!tw_pairing_fast_pause(s->pairing, ev) && tw_pairing_general(s->pairing, ev) != TW_OK)
            return TW_ERR;
        if (ev->kind == TW_META && tw_str_is(ev->name, TW_META_THREAD_NAME) &&
            !name_thread(s, ev)) {
            tw_report(s->diag, TW_R_OUT_OF_MEMORY, &ev->loc, "out of memory for thread names");
            s->failed = true;
            return TW_ERR;
        }
    } else if (ev->kind == TW_BEGIN) {
        open_row(s, f);
    } else {
        close_row(s, f, ev->ts, TW_CLOSED_BY_END, &tm);
        tw_pairing_pop(s->pairing, f);
    }
    if (s->failed) return TW_ERR;
    if (s->xcheck && !tw_xcheck_event(s->xcheck, ev, s->diag)) {
        tw_report(s->diag, TW_R_OUT_OF_MEMORY, &ev->loc, "out of memory for statistics");
        s->failed = true;
        return TW_ERR;
    }
    return TW_OK;
}

int tw_stats_event(tw_stats *s, const tw_event *ev) { return stats_one(s, ev); }

int tw_stats_events(tw_stats *s, const tw_event *ev, size_t n) {
    for (const tw_event *last = ev + n; ev < last; ev++)
        if (stats_one(s, ev) != TW_OK) return TW_ERR;
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
/* A public figure from a private one: n values, min/max as kept (0 when
 * there is none), sum and total. */
static tw_stat stat_of(uint64_t n, int64_t min, int64_t max, int64_t sum, int64_t total) {
    if (n == 0) return (tw_stat){0};
    return (tw_stat){.n = n, .min = min, .max = max, .sum = sum, .total = total};
}

const tw_scope_stats *tw_stats_scope(const tw_stats *s, size_t i) {
    const row *r = &s->rows[i];
    /* the public row is a view of the private one, made on each call: the
     * tw_stats is the caller's (not a constant object), so it may be written */
    tw_scope_stats *p = (tw_scope_stats *)&s->pub[i];
    p->count = r->count;
    p->incomplete = r->incomplete;
    p->net = stat_of(r->exits, r->net_min, r->net_max, r->net_sum, r->net_sum);
    p->gross = stat_of(r->exits, r->gross_min, r->gross_max, r->gross_sum, r->gross_total);
    p->call = stat_of(r->exits, r->call_min, r->call_max, r->call_sum, r->call_total);
    p->period = stat_of(r->count ? r->count - 1 : 0, r->period_min, r->period_max,
                        r->period_sum, 0);
    p->outside = stat_of(r->outside_n, r->outside_min, r->outside_max, r->outside_sum,
                         r->outside_sum);
    int64_t t = s->named.n ? tw_tidmap_find(&s->named, p->pid, p->tid) : -1;
    p->thread_name = t >= 0 ? s->names[t].s : NULL;
    p->thread_name_len = t >= 0 ? s->names[t].len : 0;
    return p;
}
uint64_t tw_stats_event_count(const tw_stats *s) { return s->events; }
size_t tw_stats_thread_count(const tw_stats *s) { return tw_pairing_thread_count(s->pairing); }

bool tw_stats_bounds(const tw_stats *s, int64_t *first, int64_t *last) {
    if (!s->events) {
        *first = *last = 0;
        return false;
    }
    *first = s->first;
    *last = s->last;
    return true;
}
