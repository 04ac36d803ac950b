/*
 * Folded (collapsed) stacks, the input of flamegraph.pl, inferno and
 * speedscope:
 *
 *   PROCESS;THREAD;OUTER;...;INNER WEIGHT
 *
 * one line per distinct stack, sorted by the stack's text; WEIGHT is the
 * self (net) time spent with exactly that stack, an integer in ns (or in
 * us / ms, rounded to nearest, with --weight-unit).  In ns the weights sum
 * to the total net time that 'tracewright stats' reports.  Scopes are
 * paired by the pairing engine, so input that does not nest is repaired the
 * way stats repairs it (what was repaired is counted in the lossy-conversion
 * warning).  ';' in a name becomes ':' and line breaks become spaces: a
 * name must not split the stack or the line.  Write-only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats.h"
#include "core/names.h"
#include "tracewright/stats.h"

#define OPT_UNIT "weight-unit"
#define OPT_DEPTH "folded-max-depth"

typedef struct fthread {
    uint32_t pid;
    uint64_t tid;
    const tw_str **stack;  /* names of the open frames (at most max_depth) */
    size_t depth, cap;
    int64_t deep_net;      /* self time of closed frames beyond max_depth */
} fthread;

typedef struct folded_writer {
    tw_write_ctx ctx;
    int64_t unit;          /* ns per weight unit */
    size_t max_depth;      /* frames kept on a stack (0: all) */
    uint64_t cut;          /* frames beyond it, their time given to their ancestor */
    tw_diag_sink quiet;    /* the repairs of the pairing engine, counted */
    tw_pairing *pairing;
    fthread **threads;     /* by the engine's dense thread index */
    size_t nthreads, tcap;
    tw_names names;        /* of processes and threads */
    tw_strtab *stacks;     /* the distinct stacks' texts */
    int64_t *weights;      /* by stack id */
    size_t nweights, wcap;
    tw_buf path;
    bool failed;
} folded_writer;

static void oom(folded_writer *w) {
    if (!w->failed) tw_report(w->ctx.diag, TW_R_OUT_OF_MEMORY, NULL, "out of memory for stacks");
    w->failed = true;
}

/* A name appended to the path: ';' (the separator) becomes ':', line breaks
 * and other control characters spaces, bytes that are not UTF-8 U+FFFD. */
static void put_name(folded_writer *w, const char *s, size_t n) {
    const unsigned char *u = (const unsigned char *)s;
    uint64_t semis = 0, controls = 0, invalid = 0;
    for (size_t i = 0; i < n && !w->failed;) {
        size_t k = tw_utf8_seq(u + i, n - i);
        bool ok;
        if (!k) {
            ok = tw_buf_append(&w->path, "\xEF\xBF\xBD", 3);
            invalid++;
            k = 1;
        } else if (u[i] == ';') {
            ok = tw_buf_append(&w->path, ":", 1);
            semis++;
        } else if (u[i] < 0x20 || u[i] == 0x7F) {
            ok = tw_buf_append(&w->path, " ", 1);
            controls++;
        } else {
            ok = tw_buf_append(&w->path, s + i, k);
        }
        if (!ok) oom(w);
        i += k;
    }
    if (semis) tw_loss_add(w->ctx.loss, "';' in names replaced by ':'", 1);
    if (controls) tw_loss_add(w->ctx.loss, "line breaks and control characters in names replaced by spaces", 1);
    if (invalid) tw_loss_add(w->ctx.loss, "names with bytes that are not UTF-8 (written as U+FFFD)", 1);
}

static fthread *thread_at(folded_writer *w, const tw_frame *f) {
    while (w->nthreads <= f->thread) {
        if (!tw_grow(&w->threads, &w->tcap, w->nthreads + 1, sizeof *w->threads, 8)) return NULL;
        fthread *t = calloc(1, sizeof *t);
        if (!t) return NULL;
        w->threads[w->nthreads++] = t;
    }
    fthread *t = w->threads[f->thread];
    t->pid = f->pid;
    t->tid = f->tid;
    return t;
}

static void on_open(void *user, const tw_frame *f) {
    folded_writer *w = user;
    fthread *t = thread_at(w, f);
    if (t && w->max_depth && f->depth >= w->max_depth) return;  /* cut off */
    if (!t || !tw_grow(&t->stack, &t->cap, f->depth + 1, sizeof *t->stack, 16)) {
        oom(w);
        return;
    }
    t->stack[f->depth] = f->name;
    t->depth = f->depth + 1;
}

static void on_close(void *user, const tw_frame *f, int64_t end, tw_close_how how,
                     const tw_scope_times *tm) {
    folded_writer *w = user;
    (void)end;
    (void)how;
    if (w->failed || f->thread >= w->nthreads) return;
    fthread *t = w->threads[f->thread];
    int64_t net = tm->net;
    if (w->max_depth && f->depth >= w->max_depth) {
        /* beyond the cut: the time goes to the deepest frame kept, so the
         * weights still sum to the net total */
        t->deep_net = t->deep_net > INT64_MAX - net ? INT64_MAX : t->deep_net + net;
        w->cut++;
        return;
    }
    if (f->depth >= t->depth) return;
    if (w->max_depth && f->depth == w->max_depth - 1) {
        net = net > INT64_MAX - t->deep_net ? INT64_MAX : net + t->deep_net;
        t->deep_net = 0;
    }
    /* PROCESS;THREAD;OUTER;...;THIS */
    tw_buf_clear(&w->path);
    char num[48];
    size_t pl, tl;
    const char *pn = tw_names_process(&w->names, t->pid, &pl);
    const char *tn = tw_names_thread(&w->names, t->pid, t->tid, &tl);
    if (pn) put_name(w, pn, pl);
    else put_name(w, num, (size_t)snprintf(num, sizeof num, "pid %lu", (unsigned long)t->pid));
    if (!tw_buf_append(&w->path, ";", 1)) oom(w);
    if (tn) put_name(w, tn, tl);
    else put_name(w, num, (size_t)snprintf(num, sizeof num, "tid %llu", (unsigned long long)t->tid));
    for (size_t i = 0; i <= f->depth; i++) {
        if (!tw_buf_append(&w->path, ";", 1)) oom(w);
        put_name(w, t->stack[i]->s, t->stack[i]->len);
    }
    t->depth = f->depth;
    if (w->failed) return;
    const tw_str *key = tw_intern(w->stacks, w->path.p, w->path.len);
    if (!key || !tw_grow(&w->weights, &w->wcap, (size_t)key->id + 1, sizeof *w->weights, 64)) {
        oom(w);
        return;
    }
    while (w->nweights <= key->id) w->weights[w->nweights++] = 0;  /* a new stack */
    int64_t *wt = &w->weights[key->id];
    *wt = *wt > INT64_MAX - net ? INT64_MAX : *wt + net;
}

static int folded_begin(const tw_write_ctx *ctx, void **state) {
    folded_writer *w = tw_state_alloc(ctx->diag, sizeof *w);
    if (!w) return TW_ERR;
    w->ctx = *ctx;
    const char *u = tw_opt_str(ctx->opts, OPT_UNIT);
    w->unit = strcmp(u, "ms") == 0 ? TW_NS_PER_MS : strcmp(u, "us") == 0 ? TW_NS_PER_US : 1;
    int64_t depth = tw_opt_int(ctx->opts, OPT_DEPTH);
    if (depth < 0) {
        tw_report(ctx->diag, TW_R_BAD_OPTION, NULL,
                  "--" OPT_DEPTH " must not be negative (0: no limit)");
        free(w);
        return TW_ERR;
    }
    w->max_depth = (size_t)depth;
    tw_pairing_hooks h = {.user = w, .open = on_open, .close = on_close};
    w->pairing = tw_pairing_new(&h, &w->quiet);
    w->stacks = tw_strtab_new();
    if (!w->pairing || !w->stacks) {
        tw_pairing_free(w->pairing);
        tw_strtab_free(w->stacks);
        free(w);
        tw_report(ctx->diag, TW_R_OUT_OF_MEMORY, NULL, "out of memory");
        return TW_ERR;
    }
    /* the weights sum to the net time; the wall-clock origin has no place */
    if (ctx->info->has_origin) tw_loss_add(ctx->loss, "wall-clock origin dropped", 1);
    *state = w;
    return TW_OK;
}

static int folded_event(void *state, const tw_event *ev) {
    folded_writer *w = state;
    bool nomem = false;
    if (tw_names_note(&w->names, ev, &nomem)) {
        if (nomem) oom(w);
        return w->failed ? TW_ERR : TW_OK;
    }
    tw_loss_scopes_only(w->ctx.loss, ev);
    if (tw_pairing_event(w->pairing, ev) != TW_OK) oom(w);
    return w->failed ? TW_ERR : TW_OK;
}

static int cmp_text(const void *a, const void *b) {
    const tw_str *x = *(const tw_str *const *)a, *y = *(const tw_str *const *)b;
    int c = memcmp(x->s, y->s, x->len < y->len ? x->len : y->len);
    return c ? c : x->len < y->len ? -1 : x->len > y->len;
}

static int folded_end(void *state) {
    folded_writer *w = state;
    if (tw_pairing_finish(w->pairing) != TW_OK || w->failed) return TW_ERR;
    tw_loss_repairs(w->ctx.loss, &w->quiet);
    if (w->cut) tw_loss_add(w->ctx.loss, "frames deeper than --" OPT_DEPTH " cut off (their time "
                            "given to the deepest frame kept)", w->cut);
    size_t n = tw_strtab_count(w->stacks);
    const tw_str **v = malloc((n ? n : 1) * sizeof *v);
    if (!v) {
        oom(w);
        return TW_ERR;
    }
    for (size_t i = 0; i < n; i++) v[i] = tw_strtab_at(w->stacks, (uint32_t)i);
    tw_qsort(v, n, sizeof *v, cmp_text);
    tw_output *o = w->ctx.out;
    uint64_t unwritten = 0;  /* stacks with self time that round to 0 units */
    int64_t unwritten_ns = 0;
    for (size_t i = 0; i < n; i++) {
        int64_t ns = w->weights[v[i]->id], wt = ns;
        if (w->unit > 1) wt = tw_round_div(ns, w->unit, NULL);
        if (wt <= 0) {  /* zero self time: no line (flame graphs ignore it) */
            if (ns > 0) {  /* less than half a unit: lost, counted */
                unwritten++;
                unwritten_ns = unwritten_ns > INT64_MAX - ns ? INT64_MAX : unwritten_ns + ns;
            }
            continue;
        }
        tw_out_write(o, v[i]->s, v[i]->len);
        tw_out_putc(o, ' ');
        tw_out_i64(o, wt);
        tw_out_putc(o, '\n');
    }
    free(v);
    if (unwritten) {
        bool ms = w->unit == TW_NS_PER_MS;
        tw_loss_add(w->ctx.loss,
                    ms ? "stacks with less than half a millisecond of self time given no line"
                       : "stacks with less than half a microsecond of self time given no line",
                    unwritten);
        tw_loss_add(w->ctx.loss, "ns of self time in stacks given no line", (uint64_t)unwritten_ns);
    }
    return TW_OK;
}

static void folded_free(void *state) {
    folded_writer *w = state;
    for (size_t i = 0; i < w->nthreads; i++) {
        free(w->threads[i]->stack);
        free(w->threads[i]);
    }
    free(w->threads);
    tw_names_free(&w->names);
    tw_pairing_free(w->pairing);
    tw_strtab_free(w->stacks);
    free(w->weights);
    tw_buf_free(&w->path);
    free(w);
}

static const tw_option folded_options[] = {
    {OPT_UNIT, TW_OPT_CHOICE, "ns", "ns|us|ms", TW_OPT_WRITE,
     "unit of the folded stacks' weights (self time, rounded to nearest)"},
    {OPT_DEPTH, TW_OPT_INT, "1024", NULL, TW_OPT_WRITE,
     "frames kept on a folded stack; deeper ones are cut off, their time given to "
     "the deepest frame kept (0: no limit)"},
    {NULL, 0, NULL, NULL, 0, NULL},
};

static const char *const folded_aliases[] = {"collapsed", "flamegraph", NULL};
static const char *const folded_exts[] = {".folded", NULL};

static const tw_format folded_format = {
    .abi = TW_FORMAT_ABI,
    .name = "folded",
    .aliases = folded_aliases,
    .extensions = folded_exts,
    .description = "folded stacks with self-time weights (flamegraph.pl, inferno, speedscope)",
    .flags = TW_FMT_TEXT | TW_FMT_THREADS | TW_FMT_WRITER_TRANSIENT,
    .options = folded_options,
    .write_begin = folded_begin,
    .write_event = folded_event,
    .write_end = folded_end,
    .write_free = folded_free,
};

TW_FORMAT_EXPORT(folded, folded_format)
