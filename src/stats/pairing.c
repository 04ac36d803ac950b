/*
 * The pairing engine: one stack of open scopes per (pid, tid).
 *
 * begin pushes; end closes the innermost open scope of the same name, first
 * closing (and reporting) any frames above it; an end that matches nothing
 * is reported and ignored; scopes still open at the end are closed at the
 * end of their process's trace: the latest time seen on any of its threads,
 * or its trace_end when that is later.  Suspend/resume pairs that are not calls
 * (no child begin between them) are preemption, kept as a per-thread total
 * so that every frame open across it loses that time from its gross.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "stats/pairing_impl.h"
#include "tracewright/stats.h"

/* Names with small ids have their state in an array per thread, indexed by
 * the id; others (and all of a thread once the arrays' budget is spent) in
 * a map.  Memory grows with distinct names per thread either way. */
#define DIRECT_MAX_IDS ((uint32_t)1 << 16)      /* per thread */
#define DIRECT_BUDGET ((size_t)4 << 20)          /* bytes, all threads */

tw_pairing *tw_pairing_new(const tw_pairing_hooks *hooks, tw_diag_sink *diag) {
    tw_pairing *p = tw_calloc_lines(1, sizeof *p);
    if (!p) return NULL;
    if (hooks) p->hooks = *hooks;
    p->diag = diag;
    return p;
}

void tw_pairing_set_jitter(tw_pairing *p, int64_t ns) { p->jitter = ns > 0 ? ns : 0; }

/* Whether a step back of `back` ns (> 0) on a thread is to be reported:
 * beyond the jitter, and not already reported for the current event. */
static bool worth_reporting(const tw_pairing *p, int64_t back) {
    return !p->late && back > p->jitter;
}

void tw_pairing_free(tw_pairing *p) {
    if (!p) return;
    for (size_t i = 0; i < p->nthreads; i++) {
        free(p->threads[i].stack);
        free(p->threads[i].direct);
    }
    free(p->threads);
    tw_tidmap_free(&p->map);
    tw_u64map_free(&p->extra_index);
    free(p->extra);
    tw_u64map_free(&p->end_index);
    free(p->ends);
    free(p);
}

size_t tw_pairing_thread_count(const tw_pairing *p) { return p->nthreads; }

void tw_pairing_thread(const tw_pairing *p, size_t i, uint32_t *pid, uint64_t *tid) {
    *pid = p->threads[i].pid;
    *tid = p->threads[i].tid;
}

/* The thread (pid, tid), created on first sight; NULL when out of memory. */
static tw_pthread *thread_of(tw_pairing *p, uint32_t pid, uint64_t tid) {
    bool created;
    /* room for a new thread first, so that the map never names a missing one */
    if (!tw_grow(&p->threads, &p->cap, p->map.n + 1, sizeof *p->threads, 8)) return NULL;
    int64_t i = tw_tidmap_index(&p->map, pid, tid, &created);
    if (i < 0) return NULL;
    if (created) {
        tw_pthread *t = &p->threads[i];
        memset(t, 0, sizeof *t);
        t->pid = pid;
        t->tid = tid;
        p->nthreads = (size_t)i + 1;
    }
    return &p->threads[i];
}

/* "line 12" / "offset 96 (record 4)" / "" for the location of an event. */
static const char *where(const tw_loc *loc, char *buf, size_t n) {
    if (loc->kind == TW_LOC_TEXT)
        snprintf(buf, n, " at line %llu", (unsigned long long)loc->line);
    else if (loc->kind == TW_LOC_BINARY)
        snprintf(buf, n, " at offset %llu (record %llu)", (unsigned long long)loc->offset,
                 (unsigned long long)loc->record);
    else
        buf[0] = '\0';
    return buf;
}

#define NAME_ARGS(str_) (int)((str_)->len > 200 ? 200 : (str_)->len), (str_)->s

/* The state of `name` on thread t outside the direct array: NULL when it
 * has none and `create` is false, or when out of memory. */
tw_name_state *tw_pairing_state_slow(tw_pairing *p, tw_pthread *t, uint32_t id, bool create) {
    if (!t->mapped && id < DIRECT_MAX_IDS) {
        if (!create) return NULL;  /* never created: nothing open, no tag */
        size_t n = t->ndirect ? t->ndirect : 64;
        while (n <= id) n *= 2;
        size_t more = (n - t->ndirect) * sizeof *t->direct;
        if (p->direct_bytes + more <= DIRECT_BUDGET) {
            tw_name_state *d = realloc(t->direct, n * sizeof *d);
            if (!d) return NULL;
            memset(d + t->ndirect, 0, more);
            t->direct = d;
            t->ndirect = (uint32_t)n;
            p->direct_bytes += more;
            return &d[id];
        }
    }
    uint64_t key = (uint64_t)(t - p->threads) << 32 | id;
    uintptr_t i = (uintptr_t)tw_u64map_get(&p->extra_index, key);
    if (i) return &p->extra[i - 1];
    if (!create || !tw_grow(&p->extra, &p->extra_cap, p->nextra + 1, sizeof *p->extra, 64) ||
        !tw_u64map_put(&p->extra_index, key, (void *)(uintptr_t)(p->nextra + 1)))
        return NULL;
    t->mapped = true;  /* growing the array now would split this name's state */
    tw_name_state *ns = &p->extra[p->nextra++];
    memset(ns, 0, sizeof *ns);
    return ns;
}

/* How many frames named `name` are open on thread t. */
static inline uint32_t open_count(tw_pairing *p, tw_pthread *t, const tw_str *name) {
    const tw_name_state *ns = tw_pairing_state(p, t, name, false);
    return ns ? ns->open : 0;
}

/* Close the top frame of thread t at `end`. */
static void close_top(tw_pairing *p, tw_pthread *t, int64_t end, tw_close_how how,
                      const tw_loc *end_loc) {
    tw_frame *f = &t->stack[t->depth - 1];
    if (end < f->begin) {
        int64_t early;
        if (!tw_sub_i64(f->begin, end, &early)) early = INT64_MAX;
        if (worth_reporting(p, early)) {
            tw_report(p->diag, TW_R_TIME_BACKWARDS, end_loc && end_loc->kind ? end_loc : &f->loc,
                      "scope '%.*s' ends %lld ns before it begins; its duration counts as 0",
                      NAME_ARGS(f->name), (long long)early);
            p->late = true;
        }
        end = f->begin;
    }
    tw_scope_times tm;
    tw_pairing_close_times(p, t, f, end, &tm);
    if (p->hooks.close) p->hooks.close(p->hooks.user, f, end, how, &tm);
    t->depth--;
}

static int begin(tw_pairing *p, tw_pthread *t, const tw_event *ev) {
    tw_name_state *ns;
    if (!tw_grow(&t->stack, &t->cap, t->depth + 1, sizeof *t->stack, 4) ||
        !(ns = tw_pairing_state(p, t, ev->name, true))) {
        tw_report(p->diag, TW_R_OUT_OF_MEMORY, &ev->loc, "out of memory for open scopes");
        return TW_ERR;
    }
    tw_frame *f = tw_pairing_push(p, t, ev, ns);
    if (p->hooks.open) p->hooks.open(p->hooks.user, f);
    return TW_OK;
}

/* Index + 1 of the innermost open frame named `name`, 0 if none.  The walk
 * only happens when there is a match, and the frames it passes are closed
 * by the caller, so it costs no more than the pushes did. */
static size_t find(tw_pairing *p, tw_pthread *t, const tw_str *name) {
    if (t->depth && t->stack[t->depth - 1].name == name) return t->depth;
    if (!open_count(p, t, name)) return 0;
    for (size_t i = t->depth; i > 0; i--)
        if (t->stack[i - 1].name == name) return i;
    return 0;
}

static void end(tw_pairing *p, tw_pthread *t, const tw_event *ev) {
    size_t k = find(p, t, ev->name);
    if (!k) {
        tw_report(p->diag, TW_R_UNMATCHED_END, &ev->loc,
                  "end of '%.*s' matches no open scope on thread %llu; ignored",
                  NAME_ARGS(ev->name), (unsigned long long)ev->tid);
        return;  /* ignored: a suspend before it still waits for its resume */
    }
    t->suspended = false;
    char buf[64];
    while (t->depth > k) {
        const tw_frame *f = &t->stack[t->depth - 1];
        tw_report(p->diag, TW_R_UNCLOSED_SCOPE, &f->loc,
                  "scope '%.*s' has no end of its own; closed by the end of '%.*s'%s",
                  NAME_ARGS(f->name), NAME_ARGS(ev->name), where(&ev->loc, buf, sizeof buf));
        close_top(p, t, ev->ts, TW_CLOSED_BY_OUTER, &ev->loc);
    }
    close_top(p, t, ev->ts, TW_CLOSED_BY_END, &ev->loc);
}

/* How far ev goes back on thread t beyond the jitter (0: not at all);
 * keeps the thread's reference times. */
static int64_t step_back(const tw_pairing *p, tw_pthread *t, const tw_event *ev, int64_t *high) {
    if (!t->have_ts) {
        t->last_ts = t->high = ev->ts;
        t->have_ts = true;
        return 0;
    }
    int64_t back = 0;
    if (ev->ts < t->high && !tw_sub_i64(t->high, ev->ts, &back)) back = INT64_MAX;
    *high = t->high;
    if (back > p->jitter || ev->ts > t->high) t->high = ev->ts;  /* resynchronise after a report */
    if (ev->ts > t->last_ts) t->last_ts = ev->ts;
    return back > p->jitter ? back : 0;
}

static void report_back(tw_pairing *p, const tw_event *ev, int64_t back, int64_t high) {
    tw_report(p->diag, TW_R_TIME_BACKWARDS, &ev->loc,
              "time goes back %lld ns on thread %llu: %s of '%.*s' at %lld ns follows an event "
              "at %lld ns",
              (long long)back, (unsigned long long)ev->tid, tw_kind_name(ev->kind),
              NAME_ARGS(ev->name), (long long)ev->ts, (long long)high);
    p->late = true;
}

static void suspend_resume(tw_pairing *p, tw_pthread *t, const tw_event *ev) {
    if (!open_count(p, t, ev->name)) {
        tw_report(p->diag, TW_R_UNMATCHED_SUSPEND, &ev->loc,
                  "%s of '%.*s' matches no open scope on thread %llu; ignored",
                  ev->kind == TW_SUSPEND ? "suspend" : "resume", NAME_ARGS(ev->name),
                  (unsigned long long)ev->tid);
    } else if (ev->kind == TW_SUSPEND) {
        if (t->suspended) return;
        int64_t top = t->stack[t->depth - 1].begin, early;
        if (ev->ts < top) {
            if (!tw_sub_i64(top, ev->ts, &early)) early = INT64_MAX;
            if (early > p->jitter) {
                if (!p->late)
                    tw_report(p->diag, TW_R_TIME_BACKWARDS, &ev->loc,
                              "suspend of '%.*s' comes %lld ns before the begin of the running "
                              "scope; ignored",
                              NAME_ARGS(ev->name), (long long)early);
                p->late = true;
                return;
            }
        }
        t->suspended = true;
        t->suspend_ts = ev->ts < top ? top : ev->ts;  /* within the jitter */
    } else if (t->suspended) {  /* resumed without a call: preemption */
        t->suspended = false;
        int64_t gap;
        if (!tw_sub_i64(ev->ts, t->suspend_ts, &gap)) gap = INT64_MAX;
        if (gap < 0) {
            if (worth_reporting(p, -gap)) {
                tw_report(p->diag, TW_R_TIME_BACKWARDS, &ev->loc,
                          "resume of '%.*s' comes %lld ns before its suspend; no preemption "
                          "counted",
                          NAME_ARGS(ev->name), (long long)-gap);
                p->late = true;
            }
        } else if (!tw_add_i64(t->preempt, gap, &t->preempt)) {
            t->preempt = INT64_MAX;
        }
    }
}

int tw_pairing_event(tw_pairing *p, const tw_event *ev) {
    tw_scope_times tm = {0, 0, 0};
    tw_frame *f = tw_pairing_fast(p, ev, &tm);
    if (!f) return tw_pairing_fast_pause(p, ev) ? TW_OK : tw_pairing_general(p, ev);
    if (ev->kind == TW_BEGIN) {
        if (p->hooks.open) p->hooks.open(p->hooks.user, f);
    } else {
        if (p->hooks.close) p->hooks.close(p->hooks.user, f, ev->ts, TW_CLOSED_BY_END, &tm);
        tw_pairing_pop(p, f);
    }
    return TW_OK;
}

/* The slot of process pid's end (p->ends), created holding INT64_MIN;
 * NULL when out of memory. */
static int64_t *end_of(tw_pairing *p, uint32_t pid) {
    void **v = tw_u64map_slot(&p->end_index, pid);
    if (!v) return NULL;
    if (!*v) {
        if (!tw_grow(&p->ends, &p->ends_cap, p->nends + 1, sizeof *p->ends, 4)) return NULL;
        p->ends[p->nends++] = INT64_MIN;
        *v = (void *)(uintptr_t)p->nends;
    }
    return &p->ends[(uintptr_t)*v - 1];
}

int tw_pairing_general(tw_pairing *p, const tw_event *ev) {
    if (ev->kind == TW_META) {  /* not on a thread's timeline */
        if (tw_str_is(ev->name, TW_META_TRACE_END)) {
            int64_t *pend = end_of(p, ev->pid);
            if (!pend) {
                tw_report(p->diag, TW_R_OUT_OF_MEMORY, &ev->loc, "out of memory for processes");
                return TW_ERR;
            }
            if (ev->ts > *pend) *pend = ev->ts;
        }
        return TW_OK;
    }
    tw_pthread *t = thread_of(p, ev->pid, ev->tid);
    if (!t) {
        tw_report(p->diag, TW_R_OUT_OF_MEMORY, &ev->loc, "out of memory for threads");
        return TW_ERR;
    }
    int64_t high = 0, back = step_back(p, t, ev, &high);
    p->late = false;
    int rc = TW_OK;
    switch (ev->kind) {
    case TW_BEGIN:
        /* a begin has nothing more specific to say (its frame carries `late`) */
        if (back) report_back(p, ev, back, high);
        t->suspended = false;  /* a suspend followed by a begin is a call */
        return begin(p, t, ev);
    case TW_END:
        end(p, t, ev);
        break;
    case TW_SUSPEND:
    case TW_RESUME: suspend_resume(p, t, ev); break;
    default: break;
    }
    /* the general report, unless a more specific one was made */
    if (back && !p->late) report_back(p, ev, back, high);
    return rc;
}

int tw_pairing_finish(tw_pairing *p) {
    p->late = false;  /* no event is current */
    /* each process's end: the latest of its trace_end and its threads' times */
    bool several = false;
    for (size_t i = 0; i < p->nthreads; i++) {
        const tw_pthread *t = &p->threads[i];
        several |= t->pid != p->threads[0].pid;
        if (!t->have_ts) continue;
        int64_t *pend = end_of(p, t->pid);
        if (!pend) {
            tw_report(p->diag, TW_R_OUT_OF_MEMORY, NULL, "out of memory for processes");
            return TW_ERR;
        }
        if (t->last_ts > *pend) *pend = t->last_ts;
    }
    for (size_t i = 0; i < p->nthreads; i++) {
        tw_pthread *t = &p->threads[i];
        if (!t->depth) continue;
        const int64_t *pend = end_of(p, t->pid); /* exists: the thread has times */
        char in[48] = "";
        if (several) snprintf(in, sizeof in, " of process %u", (unsigned)t->pid);
        while (t->depth) {
            const tw_frame *f = &t->stack[t->depth - 1];
            tw_report(p->diag, TW_R_UNCLOSED_AT_EOF, &f->loc,
                      "scope '%.*s' is still open at the end of the input; closed at the end "
                      "of the trace%s, %lld ns",
                      NAME_ARGS(f->name), in, (long long)*pend);
            close_top(p, t, *pend, TW_CLOSED_AT_EOF, NULL);
        }
    }
    return TW_OK;
}
