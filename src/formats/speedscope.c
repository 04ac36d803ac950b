/*
 * speedscope's own file format (file-format-spec.ts, schema
 * https://www.speedscope.app/file-format-schema.json):
 *
 *   {"$schema":"https://www.speedscope.app/file-format-schema.json",
 *    "exporter":"tracewright@0.1.0","name":"...","activeProfileIndex":0,
 *    "profiles":[{"type":"evented","name":"app (pid 1) / main (tid 1)",
 *      "unit":"nanoseconds","startValue":0,"endValue":100,
 *      "events":[{"type":"O","frame":0,"at":0},{"type":"C","frame":0,"at":100}]}],
 *    "shared":{"frames":[{"name":"main"}]}}
 *
 * One evented profile per thread that ran a scope, in order of first sight;
 * one shared frame per distinct scope name.  O/C events come from the
 * pairing engine, so they are balanced and properly nested even when the
 * input is not, and `at` never decreases within a profile (an event earlier
 * than the one before it on its thread is moved forward, counted).  Values
 * are integer ns; when the trace clock is past 2^52 ns they are relative to
 * a whole second before the first event (a double holds them exactly).
 *
 * Profiles are written at the end; until then each thread's events wait in
 * a spool (memory for the latest chunk per thread, the rest in a temporary
 * file).  Write-only.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/names.h"
#include "core/spool.h"
#include "formats.h"
#include "tracewright/stats.h"

#define SCHEMA "https://www.speedscope.app/file-format-schema.json"

typedef struct sthread {
    int64_t first, last;  /* times of its first and latest O/C, as written */
    bool have;
} sthread;

typedef struct speedscope_writer {
    tw_write_ctx ctx;
    tw_diag_sink quiet;    /* the repairs of the pairing engine, counted */
    tw_pairing *pairing;
    tw_tidmap map;         /* (pid, tid) -> thread index (= spool channel) */
    sthread *threads;
    size_t tcap;
    tw_strtab *frames;     /* scope names; id = frame index */
    tw_spool *spool;       /* each thread's O/C events, JSON */
    tw_names names;
    int64_t base;
    bool have_base;
    bool failed;
} speedscope_writer;

static void oom(speedscope_writer *w) {
    if (!w->failed) tw_report(w->ctx.diag, TW_R_OUT_OF_MEMORY, NULL, "out of memory");
    w->failed = true;
}

static sthread *thread_of(speedscope_writer *w, uint32_t pid, uint64_t tid, size_t *index) {
    bool created;
    if (!tw_grow(&w->threads, &w->tcap, w->map.n + 1, sizeof *w->threads, 8)) return NULL;
    int64_t i = tw_tidmap_index(&w->map, pid, tid, &created);
    if (i < 0) return NULL;
    if (created) memset(&w->threads[i], 0, sizeof w->threads[i]);
    *index = (size_t)i;
    return &w->threads[i];
}

/* One O or C event on the frame's thread. */
static void put(speedscope_writer *w, char type, const tw_frame *f, int64_t at) {
    size_t ti;
    sthread *t = thread_of(w, f->pid, f->tid, &ti);
    const tw_str *frame = tw_intern(w->frames, f->name->s, f->name->len);
    if (!t || !frame) {
        oom(w);
        return;
    }
    if (!w->have_base) {
        w->have_base = true;
        w->base = tw_view_base(at);
        /* the file has no place for it: the profiles start at startValue */
        if (w->base) tw_loss_add(w->ctx.loss, "times made relative to a whole second (beyond 2^52 ns)", 1);
    }
    if (t->have && at < t->last) at = t->last;  /* counted in speedscope_event */
    if (!t->have) t->first = at;
    t->last = at;
    t->have = true;
    char buf[96];
    int n = snprintf(buf, sizeof buf, "%s{\"type\":\"%c\",\"frame\":%lu,\"at\":%lld}",
                     tw_spool_size(w->spool, ti) ? ",\n" : "\n", type, (unsigned long)frame->id,
                     (long long)tw_view_time(at, w->base));
    if (!tw_spool_write(w->spool, ti, buf, (size_t)n)) {
        if (!w->failed)
            tw_report(w->ctx.diag, TW_R_IO_ERROR, NULL, "cannot keep the profiles' events: %s",
                      tw_spool_error_text(w->spool));
        w->failed = true;
    }
}

static void on_open(void *user, const tw_frame *f) { put(user, 'O', f, f->begin); }

static void on_close(void *user, const tw_frame *f, int64_t end, tw_close_how how,
                     const tw_scope_times *tm) {
    (void)how;
    (void)tm;
    put(user, 'C', f, end);
}

static int speedscope_begin(const tw_write_ctx *ctx, void **state) {
    speedscope_writer *w = tw_state_alloc(ctx->diag, sizeof *w);
    if (!w) return TW_ERR;
    w->ctx = *ctx;
    tw_pairing_hooks h = {.user = w, .open = on_open, .close = on_close};
    w->pairing = tw_pairing_new(&h, &w->quiet);
    w->frames = tw_strtab_new();
    w->spool = tw_spool_new(0);
    if (!w->pairing || !w->frames || !w->spool) {
        tw_pairing_free(w->pairing);
        tw_strtab_free(w->frames);
        tw_spool_free(w->spool);
        free(w);
        tw_report(ctx->diag, TW_R_OUT_OF_MEMORY, NULL, "out of memory");
        return TW_ERR;
    }
    if (ctx->info->has_origin) tw_loss_add(ctx->loss, "wall-clock origin dropped", 1);
    *state = w;
    return TW_OK;
}

static int speedscope_event(void *state, const tw_event *ev) {
    speedscope_writer *w = state;
    bool nomem = false;
    if (tw_names_note(&w->names, ev, &nomem)) {
        if (nomem) oom(w);
        return w->failed ? TW_ERR : TW_OK;
    }
    tw_loss_scopes_only(w->ctx.loss, ev);
    /* a scope's O..C spans its preempted time too */
    if (ev->kind == TW_SUSPEND || ev->kind == TW_RESUME) tw_loss_drop(w->ctx.loss, ev);
    size_t ti;
    const sthread *t = thread_of(w, ev->pid, ev->tid, &ti);
    if (!t) {
        oom(w);
        return TW_ERR;
    }
    if (t->have && ev->ts < t->last && (ev->kind == TW_BEGIN || ev->kind == TW_END))
        tw_loss_add(w->ctx.loss, "times moved forward to keep a thread's time in order", 1);
    if (tw_pairing_event(w->pairing, ev) != TW_OK) oom(w);
    return w->failed ? TW_ERR : TW_OK;
}

/* "NAME (pid P)" or "pid P"; likewise for threads. */
static void put_label(tw_output *o, const char *name, size_t len, const char *what, uint64_t id,
                      tw_loss *loss) {
    char num[40];
    int n = snprintf(num, sizeof num, "%s %llu", what, (unsigned long long)id);
    if (!name) {
        tw_out_write(o, num, (size_t)n);
        return;
    }
    /* the caller writes the JSON quotes; escape the name's bytes here */
    tw_output *tmp = tw_output_mem();
    if (!tmp) return;
    if (!tw_out_json_str(tmp, name, len))
        tw_loss_add(loss, "names with bytes that are not UTF-8 (written as U+FFFD)", 1);
    size_t m;
    const char *p = tw_output_mem_data(tmp, &m);
    if (m >= 2) tw_out_write(o, p + 1, m - 2);  /* without the quotes */
    tw_output_close(tmp);
    tw_out_str(o, " (");
    tw_out_write(o, num, (size_t)n);
    tw_out_putc(o, ')');
}

static int speedscope_end(void *state) {
    speedscope_writer *w = state;
    if (tw_pairing_finish(w->pairing) != TW_OK) oom(w);
    if (w->failed) return TW_ERR;
    tw_loss_repairs(w->ctx.loss, &w->quiet);
    tw_output *o = w->ctx.out;
    const tw_trace_info *ti = w->ctx.info;
    tw_out_str(o, "{\"$schema\":\"" SCHEMA "\",\n\"exporter\":\"tracewright@" TW_VERSION_STRING
                  "\",\"name\":");
    tw_buf title = {0};
    const char *fmt = ti->format ? ti->format : "tracewright";
    if (!tw_buf_append(&title, fmt, strlen(fmt)) || !tw_buf_append(&title, " trace", 6)) {
        tw_buf_free(&title);
        oom(w);
        return TW_ERR;
    }
    tw_out_json_str(o, title.p, title.len);
    tw_buf_free(&title);
    tw_out_str(o, ",\"activeProfileIndex\":0,\n\"profiles\":[");
    bool any = false;
    for (size_t i = 0; i < w->map.n; i++) {
        const sthread *t = &w->threads[i];
        if (!t->have) continue;  /* a thread without scopes has no profile */
        uint32_t pid = w->map.pids[i];
        uint64_t tid = w->map.tids[i];
        size_t pl = 0, tl = 0;
        const char *pn = tw_names_process(&w->names, pid, &pl);
        const char *tn = tw_names_thread(&w->names, pid, tid, &tl);
        tw_out_str(o, any ? ",\n{\"type\":\"evented\",\"name\":\"" : "\n{\"type\":\"evented\",\"name\":\"");
        any = true;
        put_label(o, pn, pl, "pid", pid, w->ctx.loss);
        tw_out_str(o, " / ");
        put_label(o, tn, tl, "tid", tid, w->ctx.loss);
        tw_out_str(o, "\",\"unit\":\"nanoseconds\",\"startValue\":");
        tw_out_i64(o, tw_view_time(t->first, w->base));
        tw_out_str(o, ",\"endValue\":");
        tw_out_i64(o, tw_view_time(t->last, w->base));
        tw_out_str(o, ",\"events\":[");
        if (!tw_spool_copy(w->spool, i, o)) {
            tw_report(w->ctx.diag, TW_R_IO_ERROR, NULL, "cannot read back the profiles' events: %s",
                      tw_spool_error_text(w->spool));
            return TW_ERR;
        }
        tw_out_str(o, "\n]}");
    }
    tw_out_str(o, "\n],\n\"shared\":{\"frames\":[");
    size_t nf = tw_strtab_count(w->frames);
    for (size_t i = 0; i < nf; i++) {
        const tw_str *f = tw_strtab_at(w->frames, (uint32_t)i);
        tw_out_str(o, i ? ",\n{\"name\":" : "\n{\"name\":");
        if (!tw_out_json_str(o, f->s, f->len))
            tw_loss_add(w->ctx.loss, "names with bytes that are not UTF-8 (written as U+FFFD)", 1);
        tw_out_putc(o, '}');
    }
    tw_out_str(o, "\n]}}\n");
    return TW_OK;
}

static void speedscope_free(void *state) {
    speedscope_writer *w = state;
    tw_pairing_free(w->pairing);
    tw_tidmap_free(&w->map);
    free(w->threads);
    tw_strtab_free(w->frames);
    tw_spool_free(w->spool);
    tw_names_free(&w->names);
    free(w);
}

static const char *const speedscope_exts[] = {".speedscope.json", NULL};

static const tw_format speedscope_format = {
    .abi = TW_FORMAT_ABI,
    .name = "speedscope",
    .extensions = speedscope_exts,
    .description = "speedscope's own JSON format: one evented profile per thread",
    .flags = TW_FMT_TEXT | TW_FMT_THREADS | TW_FMT_WRITER_TRANSIENT,
    .write_begin = speedscope_begin,
    .write_event = speedscope_event,
    .write_end = speedscope_end,
    .write_free = speedscope_free,
};

TW_FORMAT_EXPORT(speedscope, speedscope_format)
