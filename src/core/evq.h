/*
 * A queue of events with their attributes, for readers that produce
 * several events from one record.  Events are pushed while a record is
 * decoded and popped afterwards; the queue empties itself on the pop after
 * the last one, so a popped event stays valid until the next pop.
 *
 * The first event of a record can be decoded straight into the event the
 * reader was asked to fill (most records give one event, which is then
 * never copied):
 *
 *     if (tw_evq_pop(q, ev)) return TW_OK;    the rest of the last record
 *     tw_evq_begin(q, ev);
 *     ... decode one record, pushing its events ...
 *     if (tw_evq_first(q)) return TW_OK;      ev holds its first event
 */
#ifndef TW_CORE_EVQ_H
#define TW_CORE_EVQ_H

#include "tracewright/diag.h"
#include "core/util.h"
#include "tracewright/event.h"

typedef struct tw_evq {
    struct tw_qev {
        tw_event ev;
        size_t a0, na;  /* its attributes in the pool */
    } *q;
    size_t head, n, cap;
    tw_attr *ap;
    size_t an, acap;
    tw_event *out;  /* where the first event goes (q[0] then holds only
                     * its attributes' place), or NULL */
} tw_evq;

/* Room for one more event; false (reported to diag) when out of memory. */
bool tw_evq_reserve(tw_evq *q, tw_diag_sink *diag, const tw_loc *loc);

/* A new zeroed event at the tail; NULL (reported to diag) when out of memory.
 * Inline, as are pops: readers queue most of their events. */
static inline tw_event *tw_evq_push(tw_evq *q, tw_diag_sink *diag, tw_kind kind,
                                    const tw_str *name, uint64_t tid, int64_t ts,
                                    const tw_loc *loc) {
    if (q->n == q->cap && !tw_evq_reserve(q, diag, loc)) return NULL;
    struct tw_qev *e = &q->q[q->n++];
    tw_event *ev = q->n == 1 && q->out ? q->out : &e->ev;
    tw_event_clear(ev);
    ev->kind = kind;
    ev->name = name;
    ev->tid = tid;
    ev->ts = ts;
    e->a0 = q->an;
    e->na = 0;
    if (loc) tw_loc_copy(&ev->loc, loc);
    return ev;
}
/* Attributes of the event pushed last (nothing happens when out of memory,
 * which is reported). */
void tw_evq_attr_int(tw_evq *q, tw_diag_sink *diag, const tw_str *key, int64_t v);
void tw_evq_attr_str(tw_evq *q, tw_diag_sink *diag, const tw_str *key, const char *s,
                     size_t n);
/* The oldest event, or false when the queue is empty (it is then reset). */
static inline bool tw_evq_pop(tw_evq *q, tw_event *ev) {
    if (q->head < q->n) {
        const struct tw_qev *e = &q->q[q->head++];
        tw_event_copy(ev, &e->ev);
        ev->attrs = e->na ? q->ap + e->a0 : NULL;
        ev->nattrs = e->na;
        return true;
    }
    q->head = q->n = q->an = 0;
    return false;
}
/* Whether no event waits (tw_evq_pop() would return false). */
static inline bool tw_evq_empty(const tw_evq *q) { return q->head >= q->n; }
/* Before a record is decoded into the empty queue: its first event goes
 * to `out`. */
static inline void tw_evq_begin(tw_evq *q, tw_event *out) { q->out = out; }
/* After it: true when it gave events, the first of them then complete in
 * `out` (the others are popped); false when it gave none. */
static inline bool tw_evq_first(tw_evq *q) {
    tw_event *out = q->out;
    q->out = NULL;
    if (!q->n) return false;
    out->attrs = q->q[0].na ? q->ap + q->q[0].a0 : NULL;
    out->nattrs = q->q[0].na;
    q->head = 1;
    return true;
}
void tw_evq_free(tw_evq *q);

#endif
