/*
 * The checks validate adds to the statistics engine: text that is not
 * UTF-8, and a log's own statistics against the computed ones.
 *
 * UTF-8: every scope name, category and string attribute key is checked
 * once (they are interned: by id); messages and string attribute values
 * each time.  Each problem is reported at the event that carries it.
 *
 * Own statistics (tw_stats_set_checks(..., TW_CHECK_OWN_STATS)):
 * A reader passes the figures the producing tool computed as metadata
 * events named "FORMAT.statistics" (see TW_CHECK_OWN_STATS in stats.h).  They
 * are kept as claims (a row names its thread, which resolves a context);
 * the names of every timed event are remembered, so that a claim about a
 * scope the stream never mentions (an area the reader skipped) is left
 * alone.  After the input, each claim is compared figure by figure with
 * the rows of its scope (in its context, or summed over every thread).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "stats/checks.h"

/* The figures a claim may hold, in report order. */
enum {
    F_COUNT,
    F_NET, F_NET_MIN, F_NET_MAX, F_NET_AVG,
    F_GROSS, F_GROSS_MIN, F_GROSS_MAX, F_GROSS_AVG,
    F_CALL, F_CALL_MIN, F_CALL_MAX, F_CALL_AVG,
    F_PERIOD_MIN, F_PERIOD_MAX, F_PERIOD_AVG,
    F_OUTSIDE, F_OUTSIDE_MIN, F_OUTSIDE_MAX, F_OUTSIDE_AVG,
    F_COUNT_ALL
};

static const char *const fig_names[F_COUNT_ALL] = {
    "count",
    "T.NET", "T.NET.MIN", "T.NET.MAX", "T.NET.AVG",
    "T.GROSS", "T.GROSS.MIN", "T.GROSS.MAX", "T.GROSS.AVG",
    "T.CALL", "T.CALL.MIN", "T.CALL.MAX", "T.CALL.AVG",
    "T.PERIOD.MIN", "T.PERIOD.MAX", "T.PERIOD.AVG",
    "T.OUTSIDE", "T.OUTSIDE.MIN", "T.OUTSIDE.MAX", "T.OUTSIDE.AVG",
};

typedef struct claim {
    char *name, *context;  /* context NULL: every thread */
    size_t name_len, context_len;
    tw_loc loc;
    uint32_t pid;
    uint32_t have;         /* bit per figure */
    int64_t fig[F_COUNT_ALL];
    size_t contexts;       /* a claim of several contexts added up: how many */
} claim;

struct tw_xcheck {
    unsigned checks;  /* TW_CHECK_* */
    tw_u64map utf8_ok; /* interned string id + 1 already checked */
    /* the texts reported as not UTF-8: tw_hash (+ probe) -> index + 1 in
     * bad, which holds copies of them, BAD_TEXTS and BAD_BYTES at most */
    tw_u64map utf8_bad;
    struct bad_text {
        char *s;
        size_t n;
    } *bad;
    size_t nbad, bad_cap, bad_bytes;
    claim *claims;
    size_t nclaims, cap;
    tw_u64map claim_of;  /* hash of (pid, name, context) -> claim index + 1 */
    tw_u64map seen;  /* tw_hash of the name of every timed event */
    bool ctxless;    /* the timeline does not tell the claims' contexts apart */
};

tw_xcheck *tw_xcheck_new(unsigned checks) {
    tw_xcheck *x = tw_calloc_lines(1, sizeof(tw_xcheck));
    if (x) x->checks = checks;
    return x;
}

void tw_xcheck_free(tw_xcheck *x) {
    if (!x) return;
    for (size_t i = 0; i < x->nclaims; i++) {
        free(x->claims[i].name);
        free(x->claims[i].context);
    }
    free(x->claims);
    tw_u64map_free(&x->seen);
    tw_u64map_free(&x->utf8_ok);
    tw_u64map_free(&x->utf8_bad);
    for (size_t i = 0; i < x->nbad; i++) free(x->bad[i].s);
    free(x->bad);
    tw_u64map_free(&x->claim_of);
    free(x);
}

static char *dup_bytes(const char *s, size_t n) {
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = '\0';
    }
    return d;
}

static bool ends_with(const tw_str *s, const char *suffix) {
    size_t n = strlen(suffix);
    return s->len > n && memcmp(s->s + s->len - n, suffix, n) == 0;
}

static bool attr_is(const tw_attr *a, const char *key) { return tw_str_is(a->key, key); }

/* The claim of (pid, name, context): a repeated one (a log with its
 * statistics twice) replaces the earlier, so claims grow with the distinct
 * scopes, not with the input. */
static claim *claim_slot(tw_xcheck *x, const tw_event *ev, const tw_attr *ctx) {
    uint64_t key = tw_hash(ev->msg, ev->msg_len) * 31 + ev->pid;
    if (ctx) key ^= tw_hash(ctx->s, ctx->slen) * 0x9e3779b97f4a7c15ULL;
    for (uintptr_t i = (uintptr_t)tw_u64map_get(&x->claim_of, key); i;) {
        claim *c = &x->claims[i - 1];
        bool same = c->pid == ev->pid && c->name_len == ev->msg_len &&
                    memcmp(c->name, ev->msg, c->name_len) == 0 && !c->context == !ctx &&
                    (!ctx || (c->context_len == ctx->slen &&
                              memcmp(c->context, ctx->s, ctx->slen) == 0));
        if (!same) break;  /* a hash collision: keep both */
        c->have = 0;
        c->loc = ev->loc;
        return c;
    }
    if (!tw_grow(&x->claims, &x->cap, x->nclaims + 1, sizeof *x->claims, 16)) return NULL;
    claim *c = &x->claims[x->nclaims];
    memset(c, 0, sizeof *c);
    c->name = dup_bytes(ev->msg, ev->msg_len);
    c->name_len = ev->msg_len;
    c->loc = ev->loc;
    c->pid = ev->pid;
    if (ctx) {
        c->context = dup_bytes(ctx->s, ctx->slen);
        c->context_len = ctx->slen;
    }
    if (!c->name || (ctx && !c->context)) {
        free(c->name);
        free(c->context);
        return NULL;
    }
    x->nclaims++;
    if (!tw_u64map_get(&x->claim_of, key) &&
        !tw_u64map_put(&x->claim_of, key, (void *)(uintptr_t)x->nclaims))
        return NULL;
    return c;
}

static bool add_claim(tw_xcheck *x, const tw_event *ev) {
    if (!ev->msg) {  /* no scope named: what is said of the timeline */
        for (size_t i = 0; i < ev->nattrs; i++)
            if (ev->attrs[i].type == TW_ATTR_INT && attr_is(&ev->attrs[i], "timeline_contexts") &&
                ev->attrs[i].i == 0)
                x->ctxless = true;
        return true;
    }
    const tw_attr *ctx = NULL;
    for (size_t i = 0; i < ev->nattrs && !ctx; i++)
        if (ev->attrs[i].type == TW_ATTR_STR && attr_is(&ev->attrs[i], "context") &&
            ev->attrs[i].slen)
            ctx = &ev->attrs[i];
    claim *c = claim_slot(x, ev, ctx);
    if (!c) return false;
    for (size_t i = 0; i < ev->nattrs; i++) {
        const tw_attr *a = &ev->attrs[i];
        if (a->type != TW_ATTR_INT) continue;
        for (int f = 0; f < F_COUNT_ALL; f++) {
            if (!attr_is(a, fig_names[f])) continue;
            c->fig[f] = a->i;
            c->have |= 1u << f;
        }
    }
    return true;
}

/* Report `what` (s, n) if it is not valid UTF-8, showing it with the
 * invalid bytes as \xNN. */
/* The length of the valid UTF-8 prefix of (s, n): n when it is all valid. */
static size_t utf8_prefix(const char *s, size_t n) {
    const unsigned char *u = (const unsigned char *)s;
    size_t i = 0, k;
    while (i < n && (k = tw_utf8_seq(u + i, n - i)) != 0) i += k;
    return i;
}

static void utf8(const char *what, const char *s, size_t n, const tw_event *ev,
                 tw_diag_sink *diag) {
    const unsigned char *u = (const unsigned char *)s;
    size_t i = utf8_prefix(s, n);
    if (i == n) return;
    char shown[200];
    size_t o = 0;
    for (size_t j = 0; j < n && o < 180; j++) {
        size_t m = tw_utf8_seq(u + j, n - j);
        if (m && u[j] >= 0x20 && u[j] != 0x7f) {
            memcpy(shown + o, s + j, m);
            o += m;
            j += m - 1;
        } else {
            o += (size_t)snprintf(shown + o, sizeof shown - o, "\\x%02X", u[j]);
        }
    }
    shown[o] = '\0';
    tw_report(diag, TW_R_INVALID_UTF8, &ev->loc,
              "%s '%s%s' is not valid UTF-8 (byte %zu is 0x%02X)",
              what, shown, o >= 180 ? "..." : "", i + 1, u[i]);
}

/* Check an interned string once (by id), a transient one each time; a text
 * that is not UTF-8 is reported once whatever carries it (by its hash, as
 * the string table would know it). */
/* The texts not UTF-8 remembered so that each is reported once: beyond
 * these, a further one is reported each time it comes, so that memory stays
 * bounded whatever the input. */
#define BAD_TEXTS 4096
#define BAD_BYTES ((size_t)1 << 20)

/* Whether the text s[0..n) (whose tw_hash is h), not UTF-8, was reported
 * already; if not, it is remembered (while there is room).  False with
 * *oom set when out of memory. */
static bool reported_bad(tw_xcheck *x, const char *s, size_t n, uint64_t h, bool *oom) {
    for (uint64_t key = h;; key++) {
        void **v = tw_u64map_ref(&x->utf8_bad, key);
        if (!v) break;
        const struct bad_text *b = &x->bad[(uintptr_t)*v - 1];
        if (b->n == n && memcmp(b->s, s, n) == 0) return true;
        h = key + 1;
    }
    if (x->nbad == BAD_TEXTS || n > BAD_BYTES - x->bad_bytes) return false;
    char *copy = dup_bytes(s, n);
    if (!copy || !tw_grow(&x->bad, &x->bad_cap, x->nbad + 1, sizeof *x->bad, 16) ||
        !tw_u64map_put(&x->utf8_bad, h, (void *)(uintptr_t)(x->nbad + 1))) {
        free(copy);
        *oom = true;
        return false;
    }
    x->bad[x->nbad].s = copy;
    x->bad[x->nbad++].n = n;
    x->bad_bytes += n;
    return false;
}

static bool utf8_once(tw_xcheck *x, const char *what, const tw_str *s, const tw_event *ev,
                      tw_diag_sink *diag) {
    bool transient = tw_str_transient(s);
    uint64_t key = (uint64_t)s->id + 1;
    if (!transient && tw_u64map_get(&x->utf8_ok, key)) return true;
    bool kept = transient || tw_u64map_put(&x->utf8_ok, key, x);
    if (utf8_prefix(s->s, s->len) == s->len) return kept;
    uint64_t h = transient ? tw_hash(s->s, s->len) : s->hash;
    bool oom = false;
    if (!reported_bad(x, s->s, s->len, h, &oom)) utf8(what, s->s, s->len, ev, diag);
    return kept && !oom;
}

/* Check a text that is not interned (a message, a value): reported unless
 * the same bytes were, as a name or a text before. */
static bool utf8_text(tw_xcheck *x, const char *what, const char *s, size_t n,
                      const tw_event *ev, tw_diag_sink *diag) {
    if (utf8_prefix(s, n) == n) return true;
    bool oom = false;
    if (!reported_bad(x, s, n, tw_hash(s, n), &oom)) utf8(what, s, n, ev, diag);
    return !oom;
}

static bool check_utf8(tw_xcheck *x, const tw_event *ev, tw_diag_sink *diag) {
    bool ok = utf8_once(x, ev->kind == TW_META ? "metadata key" : "name", ev->name, ev, diag);
    if (ev->cat) ok &= utf8_once(x, "category", ev->cat, ev, diag);
    if (ev->msg)
        ok &= utf8_text(x, ev->kind == TW_META ? "metadata value" : "message", ev->msg,
                        ev->msg_len, ev, diag);
    for (size_t i = 0; i < ev->nattrs; i++) {
        const tw_attr *a = &ev->attrs[i];
        ok &= utf8_once(x, "attribute name", a->key, ev, diag);
        if (a->type == TW_ATTR_STR) ok &= utf8_text(x, "attribute value", a->s, a->slen, ev, diag);
    }
    return ok;
}

bool tw_xcheck_event(tw_xcheck *x, const tw_event *ev, tw_diag_sink *diag) {
    if ((x->checks & TW_CHECK_UTF8) && !check_utf8(x, ev, diag)) return false;
    if (!(x->checks & TW_CHECK_OWN_STATS)) return true;
    if (ev->kind == TW_BEGIN || ev->kind == TW_END || ev->kind == TW_SUSPEND ||
        ev->kind == TW_RESUME) {  /* a scope, not a counter */
        uint64_t key = ev->name->hash;
        return tw_u64map_get(&x->seen, key) || tw_u64map_put(&x->seen, key, x);
    }
    if (ev->kind != TW_META) return true;
    if (ends_with(ev->name, ".statistics")) return add_claim(x, ev);
    return true;
}

static int name_cmp(const char *a, size_t an, const char *b, size_t bn) {
    int c = memcmp(a, b, an < bn ? an : bn);
    return c ? c : an < bn ? -1 : an > bn;
}

static int by_name(const void *a, const void *b) {
    const tw_scope_stats *x = *(const tw_scope_stats *const *)a;
    const tw_scope_stats *y = *(const tw_scope_stats *const *)b;
    return name_cmp(x->name, x->name_len, y->name, y->name_len);
}

/* Whether row r (of the claim's name) belongs to claim c: same process,
 * and a thread named like the claim's context (if it has one); a thread
 * without a name is "thread N" (N its tid), as a text export lists it. */
static bool row_matches(const claim *c, const tw_scope_stats *r) {
    if (r->by_thread && r->pid != c->pid) return false;
    if (!c->context) return true;
    if (!r->thread_name) {
        char dflt[32];
        int n = snprintf(dflt, sizeof dflt, "thread %llu", (unsigned long long)r->tid);
        return n > 0 && (size_t)n == c->context_len && memcmp(dflt, c->context, c->context_len) == 0;
    }
    return r->thread_name_len == c->context_len &&
           memcmp(r->thread_name, c->context, c->context_len) == 0;
}

/* A figure of the computed statistics; 0 where there is no value (as the
 * producing tools write it). */
static int64_t computed(const tw_scope_stats *r, int f) {
    const tw_stat *st;
    switch (f) {
    case F_COUNT: return r->count > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)r->count;
    case F_NET: case F_NET_MIN: case F_NET_MAX: case F_NET_AVG: st = &r->net; break;
    case F_GROSS: case F_GROSS_MIN: case F_GROSS_MAX: case F_GROSS_AVG: st = &r->gross; break;
    case F_CALL: case F_CALL_MIN: case F_CALL_MAX: case F_CALL_AVG: st = &r->call; break;
    case F_PERIOD_MIN: case F_PERIOD_MAX: case F_PERIOD_AVG: st = &r->period; break;
    default: st = &r->outside; break;
    }
    if (st->n == 0) return 0;
    switch (f) {
    case F_NET_MIN: case F_GROSS_MIN: case F_CALL_MIN: case F_PERIOD_MIN: case F_OUTSIDE_MIN:
        return st->min;
    case F_NET_MAX: case F_GROSS_MAX: case F_CALL_MAX: case F_PERIOD_MAX: case F_OUTSIDE_MAX:
        return st->max;
    case F_NET_AVG: case F_GROSS_AVG: case F_CALL_AVG: case F_PERIOD_AVG: case F_OUTSIDE_AVG:
        return tw_stat_avg(st);
    case F_OUTSIDE: return st->sum;
    default: return st->total;
    }
}

static bool is_avg(int f) {
    return f == F_NET_AVG || f == F_GROSS_AVG || f == F_CALL_AVG || f == F_PERIOD_AVG ||
           f == F_OUTSIDE_AVG;
}

/* The rows sorted by name (`v`, n of them) of the claim's scope. */
static void compare(const claim *c, const tw_scope_stats *const *v, size_t n,
                    tw_diag_sink *diag) {
    /* the first row of the claim's name */
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (name_cmp(v[mid]->name, v[mid]->name_len, c->name, c->name_len) < 0) lo = mid + 1;
        else hi = mid;
    }
    /* the claim's scope over its threads */
    tw_scope_stats sum;
    memset(&sum, 0, sizeof sum);
    size_t rows = 0;
    for (size_t i = lo; i < n && !name_cmp(v[i]->name, v[i]->name_len, c->name, c->name_len);
         i++) {
        const tw_scope_stats *r = v[i];
        if (!row_matches(c, r)) continue;
        rows++;
        sum.count += r->count;
        tw_stat_merge(&sum.net, &r->net);
        tw_stat_merge(&sum.gross, &r->gross);
        tw_stat_merge(&sum.call, &r->call);
        tw_stat_merge(&sum.period, &r->period);
        tw_stat_merge(&sum.outside, &r->outside);
    }
    /* a scope the log counts no invocation of, and the timeline neither:
     * its time comes from an invocation the recording started inside
     * (winIDEA's main), which pairing does not count */
    if ((c->have & 1u << F_COUNT) && c->fig[F_COUNT] == 0 && sum.count == 0) return;
    char msg[1024];
    size_t len = 0;
    unsigned shown = 0, more = 0;
    for (int f = 0; f < F_COUNT_ALL; f++) {
        if (!(c->have & (1u << f))) continue;
        int64_t ours = computed(&sum, f), theirs = c->fig[f];
        /* averages may differ by 1 ns of rounding */
        if (ours == theirs || (is_avg(f) && ((ours < INT64_MAX && ours + 1 == theirs) ||
                                             (theirs < INT64_MAX && theirs + 1 == ours))))
            continue;
        if (shown == 6) {  /* keep the message readable */
            more++;
            continue;
        }
        const char *unit = f == F_COUNT ? "" : " ns";
        int w = snprintf(msg + len, sizeof msg - len, "%s%s %lld%s (computed %lld%s)",
                         shown ? ", " : "", fig_names[f], (long long)theirs, unit,
                         (long long)ours, unit);
        if (w > 0 && (size_t)w < sizeof msg - len) len += (size_t)w;
        shown++;
    }
    if (!shown) return;
    if (more) snprintf(msg + len, sizeof msg - len, " and %u more figure%s", more,
                       more == 1 ? "" : "s");
    int nl = c->name_len > 200 ? 200 : (int)c->name_len;
    char ctx[300] = "";
    if (c->context)
        snprintf(ctx, sizeof ctx, " in context '%.*s'",
                 c->context_len > 200 ? 200 : (int)c->context_len, c->context);
    else if (c->contexts > 1)
        snprintf(ctx, sizeof ctx, " (its %zu contexts added up: the timeline does not tell "
                                  "contexts apart)",
                 c->contexts);
    tw_report(diag, TW_R_STATS_MISMATCH, &c->loc,
              "the log's statistics of '%.*s'%s differ from the timeline's%s: %s", nl, c->name,
              ctx, rows ? "" : " (which has no entry of it)", msg);
}

static int claim_order(const void *a, const void *b) {
    const claim *x = *(const claim *const *)a, *y = *(const claim *const *)b;
    if (x->pid != y->pid) return x->pid < y->pid ? -1 : 1;
    int c = name_cmp(x->name, x->name_len, y->name, y->name_len);
    if (c) return c;
    return x->loc.line < y->loc.line ? -1 : x->loc.line > y->loc.line; /* the log's order */
}

/* On a timeline that does not tell contexts apart (every event on one
 * thread), a scope's claims of one context are compared with its rows
 * over every thread; of several contexts, only their counts, added up:
 * the other figures depend on how the contexts ran, which the timeline
 * does not say. */
static bool run_ctxless(const tw_xcheck *x, const tw_scope_stats *const *v, size_t n,
                        tw_diag_sink *diag) {
    const claim **cv = malloc(x->nclaims * sizeof *cv);
    if (!cv) return false;
    for (size_t i = 0; i < x->nclaims; i++) cv[i] = &x->claims[i];
    tw_qsort(cv, x->nclaims, sizeof *cv, claim_order);
    for (size_t i = 0, j; i < x->nclaims; i = j) {
        claim sum = *cv[i];
        sum.context = NULL;
        sum.context_len = 0;
        sum.contexts = 0;
        int64_t count = 0;
        bool counts = true;
        for (j = i; j < x->nclaims && cv[j]->pid == cv[i]->pid &&
                    !name_cmp(cv[j]->name, cv[j]->name_len, cv[i]->name, cv[i]->name_len);
             j++) {
            counts &= (cv[j]->have & 1u << F_COUNT) != 0;
            if (counts && !tw_add_i64(count, cv[j]->fig[F_COUNT], &count)) count = INT64_MAX;
            bool new_context = true;
            for (size_t k = i; k < j && new_context; k++)
                new_context = !(cv[k]->context_len == cv[j]->context_len &&
                                (!cv[k]->context_len ||
                                 memcmp(cv[k]->context, cv[j]->context, cv[j]->context_len) == 0));
            sum.contexts += new_context;
        }
        if (sum.contexts > 1) {
            sum.have = counts ? 1u << F_COUNT : 0;
            sum.fig[F_COUNT] = count;
        } else {
            sum = *cv[j - 1];  /* one context: its latest claim, over every thread */
            sum.context = NULL;
            sum.context_len = 0;
        }
        if (sum.have && tw_u64map_get(&x->seen, tw_hash(sum.name, sum.name_len)))
            compare(&sum, v, n, diag);
    }
    free(cv);
    return true;
}

bool tw_xcheck_run(tw_xcheck *x, const tw_stats *s, tw_diag_sink *diag) {
    if (!x->nclaims) return true;
    size_t n = tw_stats_scope_count(s);
    const tw_scope_stats **v = malloc((n ? n : 1) * sizeof *v);
    if (!v) return false;
    for (size_t i = 0; i < n; i++) v[i] = tw_stats_scope(s, i);
    tw_qsort(v, n, sizeof *v, by_name);
    if (x->ctxless) {
        bool ok = run_ctxless(x, v, n, diag);
        free(v);
        return ok;
    }
    for (size_t i = 0; i < x->nclaims; i++) {
        const claim *c = &x->claims[i];
        /* a scope the stream never mentions was skipped by the reader */
        if (tw_u64map_get(&x->seen, tw_hash(c->name, c->name_len))) compare(c, v, n, diag);
    }
    free(v);
    return true;
}
