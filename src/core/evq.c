/* The event queue of multi-event readers; see evq.h. */
#include <stdlib.h>
#include <string.h>

#include "core/evq.h"
#include "core/util.h"

tw_event *tw_evq_push(tw_evq *q, tw_diag_sink *diag, tw_kind kind, const tw_str *name,
                      uint64_t tid, int64_t ts, const tw_loc *loc) {
    if (!tw_grow(&q->q, &q->cap, q->n + 1, sizeof *q->q, 8)) {
        tw_report(diag, TW_R_OUT_OF_MEMORY, loc, "out of memory; event dropped");
        return NULL;
    }
    struct tw_qev *e = &q->q[q->n++];
    memset(e, 0, sizeof *e);
    e->a0 = q->an;
    e->ev.kind = kind;
    e->ev.name = name;
    e->ev.tid = tid;
    e->ev.ts = ts;
    if (loc) e->ev.loc = *loc;
    return &e->ev;
}

static tw_attr *add_attr(tw_evq *q, tw_diag_sink *diag, const tw_str *key) {
    if (!q->n || !tw_grow(&q->ap, &q->acap, q->an + 1, sizeof *q->ap, 16)) {
        tw_report(diag, TW_R_OUT_OF_MEMORY, NULL, "out of memory; attribute dropped");
        return NULL;
    }
    tw_attr *a = &q->ap[q->an++];
    memset(a, 0, sizeof *a);
    a->key = key;
    q->q[q->n - 1].na++;
    return a;
}

void tw_evq_attr_int(tw_evq *q, tw_diag_sink *diag, const tw_str *key, int64_t v) {
    tw_attr *a = add_attr(q, diag, key);
    if (a) a->i = v;
}

void tw_evq_attr_str(tw_evq *q, tw_diag_sink *diag, const tw_str *key, const char *s,
                     size_t n) {
    tw_attr *a = add_attr(q, diag, key);
    if (a) {
        a->type = TW_ATTR_STR;
        a->s = s;
        a->slen = n;
    }
}

bool tw_evq_pop(tw_evq *q, tw_event *ev) {
    if (q->head < q->n) {
        struct tw_qev *e = &q->q[q->head++];
        *ev = e->ev;
        ev->attrs = e->na ? q->ap + e->a0 : NULL;
        ev->nattrs = e->na;
        return true;
    }
    q->head = q->n = q->an = 0;
    return false;
}

void tw_evq_free(tw_evq *q) {
    free(q->q);
    free(q->ap);
    memset(q, 0, sizeof *q);
}
