/*
 * The pairing engine's state and its steps, shared by pairing.c and the
 * statistics engine (stats.c).  The commonest events (a begin, or the end
 * of the innermost open scope, on the thread of a recent event, in time
 * order) take a short path, tw_pairing_fast(): tw_pairing_event() takes it
 * first and calls the hooks, and the statistics engine takes it itself
 * with the hooks' work inlined.  The commonest suspends and resumes take
 * another, tw_pairing_fast_pause(), which calls no hook.  Private to
 * src/stats/ (and the unit tests).
 */
#ifndef TW_STATS_PAIRING_IMPL_H
#define TW_STATS_PAIRING_IMPL_H

#include "core/util.h"
#include "tracewright/stats.h"

/* What is kept per (thread, name): how many frames of that name are open on
 * the thread (so that ends and suspends of names not open cost no stack
 * walk), and the hooks' tag. */
typedef struct tw_name_state {
    uint32_t open;
    uint32_t tag;
} tw_name_state;

typedef struct tw_pthread {
    uint32_t pid;
    uint64_t tid;
    tw_frame *stack;
    size_t depth, cap;
    tw_name_state *direct; /* by name id, [0, ndirect) */
    uint32_t ndirect;
    bool mapped;           /* some of its names are in the map: no more growth */
    bool have_ts;
    int64_t last_ts;       /* the latest time seen on the thread */
    int64_t high;          /* the latest time since the last backwards report */
    int64_t preempt;       /* preempted time so far */
    bool suspended;        /* a suspend waits to be told call or preemption */
    int64_t suspend_ts;
} tw_pthread;

struct tw_pairing {
    tw_pairing_hooks hooks;
    tw_diag_sink *diag;
    int64_t jitter;       /* tolerated inversion on a thread, ns */
    bool late;            /* the current event was reported as going backwards */
    tw_pthread *threads;
    size_t nthreads, cap;
    tw_tidmap map;        /* (pid, tid) -> index in threads */
    size_t direct_bytes;  /* of all threads' direct arrays */
    /* (thread index << 32 | name id) -> index + 1 in `extra`, for the names
     * not in their thread's direct array */
    tw_u64map extra_index;
    tw_name_state *extra;
    size_t nextra, extra_cap;
    bool general_only;    /* no tw_pairing_fast(): for the unit tests */
    /* the latest trace_end of each process: pid -> index + 1 in ends */
    tw_u64map end_index;
    int64_t *ends;
    size_t nends, ends_cap;
};

/* Every event of s through tw_pairing_event()'s general path, for the unit
 * tests that hold tw_pairing_fast() to it (stats.c). */
void tw_stats_general_only(tw_stats *s);

/* The state of a name outside its thread's direct array (pairing.c). */
tw_name_state *tw_pairing_state_slow(tw_pairing *p, tw_pthread *t, uint32_t id, bool create);

static inline tw_name_state *tw_pairing_state(tw_pairing *p, tw_pthread *t, const tw_str *name,
                                              bool create) {
    if (name->id < t->ndirect) return &t->direct[name->id];
    return tw_pairing_state_slow(p, t, name->id, create);
}

/* The thread of (pid, tid) when it was seen lately (the map's cache), else
 * NULL: no lookup, no creation. */
static inline tw_pthread *tw_pairing_thread_seen(tw_pairing *p, uint32_t pid, uint64_t tid) {
    uint32_t c = tw_tidmap_cached(&p->map, pid, tid);
    return c ? &p->threads[c - 1] : NULL;
}

/* Whether ev is in time order on thread t (no earlier than any event since
 * the last report of time going backwards); if so, it is taken as the
 * thread's latest time, as the general path's step_back() would. */
static inline bool tw_pairing_in_order(tw_pthread *t, int64_t ts) {
    if (!t->have_ts || ts < t->high) return false;
    t->high = ts;
    if (ts > t->last_ts) t->last_ts = ts;
    return true;
}

/* Push a frame for begin event ev on thread t, whose stack has room and
 * whose state of the name is ns; the frame is returned for the open hook. */
static inline tw_frame *tw_pairing_push(tw_pairing *p, tw_pthread *t, const tw_event *ev,
                                        tw_name_state *ns) {
    ns->open++;
    tw_frame *f = &t->stack[t->depth];
    f->name = ev->name;
    f->cat = ev->cat;
    f->pid = ev->pid;
    f->tid = ev->tid;
    f->begin = ev->ts;
    f->loc = ev->loc;
    f->depth = t->depth;
    f->preempt0 = t->preempt;
    f->child_gross = 0;
    f->thread = (uint32_t)(t - p->threads);
    f->late = p->late;
    f->tag = &ns->tag;
    t->depth++;
    return f;
}

/* The times of the top frame f of thread t closed at `end` (no earlier
 * than its begin), added to its parent's callees; the name's open count
 * is taken down and the frame's tag pointed at its state, ready for the
 * close hook, after which the caller pops it (t->depth--). */
static inline void tw_pairing_close_times(tw_pairing *p, tw_pthread *t, tw_frame *f, int64_t end,
                                          tw_scope_times *tm) {
    if (!tw_sub_i64(end, f->begin, &tm->call)) tm->call = INT64_MAX;
    int64_t pre = t->preempt - f->preempt0;
    if (pre > tm->call) pre = tm->call;
    tm->gross = tm->call - pre;
    tm->net = tm->gross - f->child_gross;
    if (tm->net < 0) tm->net = 0;
    if (t->depth > 1) {
        int64_t *cg = &t->stack[t->depth - 2].child_gross;
        if (!tw_add_i64(*cg, tm->gross, cg)) *cg = INT64_MAX;
    }
    tw_name_state *ns = tw_pairing_state(p, t, f->name, false); /* exists: the frame is open */
    ns->open--;
    f->tag = &ns->tag;
}

/*
 * The commonest events, without tw_pairing_event()'s general path: a begin,
 * or the end of the innermost open scope, on a thread seen lately, in time
 * order on it (so with no report to make), with room on the stack and the
 * name's state at hand.  For a begin, the pushed frame is returned, for the
 * open hook; for an end, the top frame with its times in *tm, for the close
 * hook, after which the caller pops it (tw_pairing_pop).  The engine's state
 * is then what tw_pairing_event() leaves.  NULL for any other event, having
 * changed nothing: it goes to tw_pairing_general().
 */
static TW_INLINE tw_frame *tw_pairing_fast(tw_pairing *p, const tw_event *ev,
                                           tw_scope_times *tm) {
    tw_pthread *t;
    if ((ev->kind != TW_BEGIN && ev->kind != TW_END) || p->general_only ||
        !(t = tw_pairing_thread_seen(p, ev->pid, ev->tid)))
        return NULL;
    if (ev->kind == TW_BEGIN) {
        if (t->depth == t->cap || ev->name->id >= t->ndirect || !tw_pairing_in_order(t, ev->ts))
            return NULL;
        p->late = false;
        t->suspended = false;  /* a suspend followed by a begin is a call */
        return tw_pairing_push(p, t, ev, &t->direct[ev->name->id]);
    }
    tw_frame *f = t->depth ? &t->stack[t->depth - 1] : NULL;
    if (!f || f->name != ev->name || ev->ts < f->begin || !tw_pairing_in_order(t, ev->ts))
        return NULL;
    p->late = false;
    t->suspended = false;
    tw_pairing_close_times(p, t, f, ev->ts, tm);
    return f;
}

/*
 * The commonest suspends and resumes, without tw_pairing_event()'s general
 * path either: of a scope open on a thread seen lately, in time order on
 * it, with the name's state at hand and nothing to report (a suspend no
 * earlier than the begin of the running scope, a resume no earlier than
 * the suspend it follows).  A suspend marks the thread suspended; a resume
 * right after one, with no call between them, adds the gap to the
 * thread's preempted time.  True when done so, the engine's state then
 * what tw_pairing_event() leaves (neither calls a hook); false for any
 * other event, having changed nothing: it goes to tw_pairing_general().
 */
static TW_INLINE bool tw_pairing_fast_pause(tw_pairing *p, const tw_event *ev) {
    tw_pthread *t;
    if ((ev->kind != TW_SUSPEND && ev->kind != TW_RESUME) || p->general_only ||
        !(t = tw_pairing_thread_seen(p, ev->pid, ev->tid)) || ev->name->id >= t->ndirect ||
        !t->direct[ev->name->id].open)
        return false;
    if (ev->kind == TW_SUSPEND) {
        /* open, so the stack holds a frame */
        if ((!t->suspended && ev->ts < t->stack[t->depth - 1].begin) ||
            !tw_pairing_in_order(t, ev->ts))
            return false;
        p->late = false;
        if (!t->suspended) {  /* a second suspend keeps the first's time */
            t->suspended = true;
            t->suspend_ts = ev->ts;
        }
        return true;
    }
    if ((t->suspended && ev->ts < t->suspend_ts) || !tw_pairing_in_order(t, ev->ts))
        return false;
    p->late = false;
    if (t->suspended) {  /* resumed without a call: preemption */
        t->suspended = false;
        int64_t gap;
        if (!tw_sub_i64(ev->ts, t->suspend_ts, &gap) || !tw_add_i64(t->preempt, gap, &t->preempt))
            t->preempt = INT64_MAX;
    }
    return true;
}

/* tw_pairing_event() without the short path: for an event that
 * tw_pairing_fast() declined (pairing.c). */
int tw_pairing_general(tw_pairing *p, const tw_event *ev);

/* Pop the top frame f, closed by tw_pairing_fast(), after its close hook. */
static inline void tw_pairing_pop(tw_pairing *p, const tw_frame *f) {
    p->threads[f->thread].depth--;
}

#endif /* TW_STATS_PAIRING_IMPL_H */
