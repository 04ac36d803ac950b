/* The event queue of multi-event readers; see evq.h. */
#include <stdlib.h>
#include <string.h>

#include "core/evq.h"
#include "core/util.h"

bool tw_evq_reserve(tw_evq *q, tw_diag_sink *diag, const tw_loc *loc) {
    if (tw_grow(&q->q, &q->cap, q->n + 1, sizeof *q->q, 8)) return true;
    tw_report(diag, TW_R_OUT_OF_MEMORY, loc, "out of memory; event dropped");
    return false;
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

void tw_evq_free(tw_evq *q) {
    free(q->q);
    free(q->ap);
    memset(q, 0, sizeof *q);
}
