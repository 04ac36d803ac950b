/*
 * Format runtime: option sets, the loss ledger, reader and writer handles,
 * detection, and the small event-model helpers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "tracewright/tracewright.h"
#include "util.h"

const char *tw_version(void) { return TW_VERSION_STRING; }

static const char *const kind_names[TW_KIND_COUNT] = {
    "begin", "end", "instant", "suspend", "resume", "counter", "meta"};

const char *tw_kind_name(tw_kind k) {
    return (unsigned)k < TW_KIND_COUNT ? kind_names[k] : "?";
}

bool tw_kind_parse(const char *s, size_t len, tw_kind *out) {
    for (unsigned i = 0; i < TW_KIND_COUNT; i++) {
        if (strlen(kind_names[i]) == len && memcmp(kind_names[i], s, len) == 0) {
            *out = (tw_kind)i;
            return true;
        }
    }
    return false;
}

/* ---- options ------------------------------------------------------------- */

struct optval {
    const tw_option *opt;
    char *value;
};

struct tw_optset {
    struct optval *v;
    size_t n;
};

static const tw_optset empty_optset;

tw_optset *tw_optset_new(void) { return calloc(1, sizeof(tw_optset)); }

void tw_optset_free(tw_optset *set) {
    if (!set) return;
    for (size_t i = 0; i < set->n; i++) free(set->v[i].value);
    free(set->v);
    free(set);
}

const tw_option *tw_option_find(const char *name, const tw_format **owner) {
    for (size_t i = 0; i < tw_format_count(); i++) {
        const tw_format *f = tw_format_at(i);
        for (const tw_option *o = f->options; o && o->name; o++) {
            if (strcmp(o->name, name) == 0) {
                if (owner) *owner = f;
                return o;
            }
        }
    }
    return NULL;
}

static int parse_bool(const char *v) {
    static const char *const yes[] = {"yes", "true", "on", "1"};
    static const char *const no[] = {"no", "false", "off", "0"};
    for (size_t i = 0; i < 4; i++) {
        if (strcasecmp(v, yes[i]) == 0) return 1;
        if (strcasecmp(v, no[i]) == 0) return 0;
    }
    return -1;
}

static bool choice_ok(const char *choices, const char *v) {
    size_t n = strlen(v);
    for (const char *p = choices; *p;) {
        const char *bar = strchr(p, '|');
        size_t len = bar ? (size_t)(bar - p) : strlen(p);
        if (len == n && memcmp(p, v, n) == 0) return true;
        if (!bar) break;
        p = bar + 1;
    }
    return false;
}

int tw_optset_set(tw_optset *set, const char *name, const char *value, char *err,
                  size_t errlen) {
    const tw_option *o = tw_option_find(name, NULL);
    if (!o) {
        snprintf(err, errlen, "unknown option '--%s'", name);
        return -1;
    }
    int64_t iv;
    switch (o->type) {
    case TW_OPT_BOOL:
        if (!value) value = "yes";
        if (parse_bool(value) < 0) {
            snprintf(err, errlen, "option '--%s' expects yes or no, not '%s'", name, value);
            return -1;
        }
        break;
    case TW_OPT_INT:
        if (!value || !tw_parse_i64(value, strlen(value), &iv)) {
            snprintf(err, errlen, "option '--%s' expects an integer%s%s%s", name,
                     value ? ", not '" : "", value ? value : "", value ? "'" : "");
            return -1;
        }
        break;
    case TW_OPT_STRING:
        if (!value) {
            snprintf(err, errlen, "option '--%s' expects a value", name);
            return -1;
        }
        break;
    case TW_OPT_CHOICE:
        if (!value || !choice_ok(o->choices, value)) {
            snprintf(err, errlen, "option '--%s' expects one of %s", name, o->choices);
            return -1;
        }
        break;
    }
    char *copy = strdup(value);
    if (!copy) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (size_t i = 0; i < set->n; i++) {
        if (set->v[i].opt == o) {  /* the last one given wins */
            free(set->v[i].value);
            set->v[i].value = copy;
            return 0;
        }
    }
    struct optval *nv = realloc(set->v, (set->n + 1) * sizeof *nv);
    if (!nv) {
        free(copy);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    set->v = nv;
    set->v[set->n].opt = o;
    set->v[set->n].value = copy;
    set->n++;
    return 0;
}

/* The value given for `name`, else its default.  Formats only ask for their
 * own options, so a missing option is a programming error: "" is returned. */
static const char *opt_value(const tw_optset *set, const char *name) {
    for (size_t i = 0; set && i < set->n; i++)
        if (strcmp(set->v[i].opt->name, name) == 0) return set->v[i].value;
    const tw_option *o = tw_option_find(name, NULL);
    return o && o->def ? o->def : "";
}

bool tw_opt_bool(const tw_optset *set, const char *name) {
    return parse_bool(opt_value(set, name)) == 1;
}

int64_t tw_opt_int(const tw_optset *set, const char *name) {
    const char *v = opt_value(set, name);
    int64_t iv = 0;
    return tw_parse_i64(v, strlen(v), &iv) ? iv : 0;
}

const char *tw_opt_str(const tw_optset *set, const char *name) { return opt_value(set, name); }

/* ---- loss ledger --------------------------------------------------------- */

#define LOSS_ITEMS 16

struct tw_loss {
    struct {
        const char *what;
        uint64_t n;
    } item[LOSS_ITEMS];
    size_t n;
    uint64_t other;  /* items beyond LOSS_ITEMS kinds */
    uint64_t rounded;
    const char *unit;
};

void tw_loss_add(tw_loss *l, const char *what, uint64_t n) {
    /* the same literal as before, the usual case (writers count per
     * event): found by its address before any item's text is compared */
    for (size_t i = 0; i < l->n; i++) {
        if (l->item[i].what == what) {
            l->item[i].n += n;
            return;
        }
    }
    for (size_t i = 0; i < l->n; i++) {
        if (strcmp(l->item[i].what, what) == 0) {
            l->item[i].n += n;
            return;
        }
    }
    if (l->n == LOSS_ITEMS) {
        l->other += n;
        return;
    }
    l->item[l->n].what = what;
    l->item[l->n].n = n;
    l->n++;
}

void tw_loss_drop(tw_loss *l, const tw_event *ev) {
    static const char *const what[TW_KIND_COUNT] = {
        [TW_BEGIN] = "begin events dropped",     [TW_END] = "end events dropped",
        [TW_INSTANT] = "instant events dropped", [TW_SUSPEND] = "suspend events dropped",
        [TW_RESUME] = "resume events dropped",   [TW_COUNTER] = "counter events dropped",
        [TW_META] = "metadata events dropped"};
    const char *w = (unsigned)ev->kind < TW_KIND_COUNT ? what[ev->kind] : "events dropped";
    if (ev->kind == TW_META && ev->name &&
        ((ev->name->len == strlen(TW_META_THREAD_NAME) &&
          memcmp(ev->name->s, TW_META_THREAD_NAME, ev->name->len) == 0) ||
         (ev->name->len == strlen(TW_META_PROCESS_NAME) &&
          memcmp(ev->name->s, TW_META_PROCESS_NAME, ev->name->len) == 0)))
        w = "thread and process names dropped";
    else if (ev->kind == TW_META && ev->name &&
             ev->name->len == strlen(TW_META_TRACE_END) &&
             memcmp(ev->name->s, TW_META_TRACE_END, ev->name->len) == 0)
        w = "trace ends dropped";
    tw_loss_add(l, w, 1);
}

void tw_loss_round(tw_loss *l, const char *unit) {
    l->rounded++;
    l->unit = unit;
}

static void loss_report(const tw_loss *l, const tw_format *f, tw_diag_sink *diag) {
    if (l->rounded) {
        tw_report(diag, TW_R_PRECISION, NULL,
                  "%llu timestamp%s rounded to the nearest %s (the resolution of %s)",
                  (unsigned long long)l->rounded, l->rounded == 1 ? "" : "s", l->unit,
                  f->name);
    }
    if (!l->n) return;
    char msg[768];
    size_t off = (size_t)snprintf(msg, sizeof msg, "the %s format cannot hold everything: ",
                                  f->name);
    for (size_t i = 0; i < l->n && off < sizeof msg; i++)
        off += (size_t)snprintf(msg + off, sizeof msg - off, "%s%s (%llu)", i ? ", " : "",
                                l->item[i].what, (unsigned long long)l->item[i].n);
    if (l->other && off < sizeof msg)
        snprintf(msg + off, sizeof msg - off, ", other losses (%llu)",
                 (unsigned long long)l->other);
    tw_report(diag, TW_R_LOSSY, NULL, "%s", msg);
}

/* ---- readers ------------------------------------------------------------- */

struct tw_reader {
    const tw_format *fmt;
    void *state;
    tw_trace_info info;
    tw_read_ctx ctx;
    bool defer;  /* may leave checks to the consumer (TW_READ_DEFER_CHECKS) */
};

int tw_reader_open(const tw_format *fmt, tw_input *in, tw_strtab *strtab,
                   tw_diag_sink *diag, const tw_optset *opts, tw_reader **out) {
    return tw_reader_open_ex(fmt, in, strtab, diag, opts, 0, out);
}

int tw_reader_open_ex(const tw_format *fmt, tw_input *in, tw_strtab *strtab,
                      tw_diag_sink *diag, const tw_optset *opts, unsigned flags,
                      tw_reader **out) {
    if (!tw_format_can_read(fmt)) {
        tw_report(diag, TW_R_BAD_OPTION, NULL, "the %s format cannot be read", fmt->name);
        return TW_ERR;
    }
    tw_reader *r = tw_calloc_lines(1, sizeof *r);
    if (!r) {
        tw_report(diag, TW_R_OUT_OF_MEMORY, NULL, "out of memory");
        return TW_ERR;
    }
    r->fmt = fmt;
    r->info.format = fmt->name;
    r->info.resolution_ns = 1;
    r->ctx.in = in;
    r->ctx.strtab = strtab;
    r->ctx.diag = diag;
    r->ctx.opts = opts ? opts : &empty_optset;
    r->ctx.info = &r->info;
    r->ctx.transient_names = (flags & TW_READ_TRANSIENT_NAMES) != 0;
    /* read_check exists from descriptor version 3 on */
    r->defer = (flags & TW_READ_DEFER_CHECKS) && fmt->abi >= 3 && fmt->read_check;
    /* a text's byte order mark, as Windows tools write one, is not text */
    if (fmt->flags & TW_FMT_TEXT) (void)tw_input_skip_bom(in);
    if (fmt->read_open(&r->ctx, &r->state) != TW_OK) {
        free(r);
        return TW_ERR;
    }
    *out = r;
    return TW_OK;
}

int tw_reader_next(tw_reader *r, tw_event *ev) {
    int rc = r->fmt->read_next(r->state, ev);
    /* a limit reached or memory run out: reading stops (reported) */
    return rc != TW_ERR && tw_diag_stopped(r->ctx.diag) ? TW_ERR : rc;
}

/* A format's read_next through its descriptor, for a format without a
 * read_batch. */
static int read_next_of(void *reader, tw_event *ev) {
    tw_reader *r = reader;
    return r->fmt->read_next(r->state, ev);
}

int tw_reader_next_batch(tw_reader *r, tw_batch *b) {
    b->stop = r->ctx.diag;
    b->defer_checks = b->defer_checks && r->defer;
    /* read_batch exists from descriptor version 2 on */
    return r->fmt->abi >= 2 && r->fmt->read_batch ? r->fmt->read_batch(r->state, b)
                                                  : tw_read_batch_with(read_next_of, r, b);
}

bool tw_reader_defers_checks(const tw_reader *r) { return r->defer; }

size_t tw_reader_check(tw_reader *r, tw_event *ev, size_t n, tw_diag_sink *sink) {
    return r->defer ? r->fmt->read_check(r->state, ev, n, sink) : n;
}

const tw_trace_info *tw_reader_info(const tw_reader *r) { return &r->info; }

void tw_reader_close(tw_reader *r) {
    if (!r) return;
    r->fmt->read_close(r->state);
    free(r);
}

/* ---- writers ------------------------------------------------------------- */

struct tw_writer {
    const tw_format *fmt;
    void *state;
    tw_trace_info info;
    tw_write_ctx ctx;
    tw_loss loss;
    unsigned threads_used;
};

static int open_writer(const tw_format *fmt, tw_output *out, tw_outdir *dir, tw_strtab *strtab,
                       tw_diag_sink *diag, const tw_optset *opts, const tw_trace_info *info,
                       tw_writer **outw) {
    if (!tw_format_can_write(fmt)) {
        tw_report(diag, TW_R_BAD_OPTION, NULL, "the %s format cannot be written", fmt->name);
        return TW_ERR;
    }
    if (!(fmt->flags & TW_FMT_DIRECTORY) != !dir) {
        tw_report(diag, TW_R_BAD_OPTION, NULL,
                  dir ? "the %s format writes a file, not a directory"
                      : "the %s format writes a directory: name it with -o DIR",
                  fmt->name);
        return TW_ERR;
    }
    tw_writer *w = tw_calloc_lines(1, sizeof *w);
    if (!w) {
        tw_report(diag, TW_R_OUT_OF_MEMORY, NULL, "out of memory");
        return TW_ERR;
    }
    w->fmt = fmt;
    w->info = *info;
    if (w->info.resolution_ns < 1) w->info.resolution_ns = 1;
    w->ctx.out = out;
    w->ctx.dir = dir;
    w->ctx.strtab = strtab;
    w->ctx.diag = diag;
    w->ctx.opts = opts ? opts : &empty_optset;
    w->ctx.info = &w->info;
    w->ctx.loss = &w->loss;
    w->ctx.threads = 1;
    w->threads_used = 1;
    w->ctx.threads_used = &w->threads_used;
    if (fmt->write_begin(&w->ctx, &w->state) != TW_OK) {
        free(w);
        return TW_ERR;
    }
    *outw = w;
    return TW_OK;
}

int tw_writer_open(const tw_format *fmt, tw_output *out, tw_strtab *strtab,
                   tw_diag_sink *diag, const tw_optset *opts, const tw_trace_info *info,
                   tw_writer **outw) {
    return open_writer(fmt, out, NULL, strtab, diag, opts, info, outw);
}

int tw_writer_open_dir(const tw_format *fmt, tw_outdir *dir, tw_strtab *strtab,
                       tw_diag_sink *diag, const tw_optset *opts, const tw_trace_info *info,
                       tw_writer **outw) {
    return open_writer(fmt, NULL, dir, strtab, diag, opts, info, outw);
}

int tw_writer_event(tw_writer *w, const tw_event *ev) { return w->fmt->write_event(w->state, ev); }

void tw_writer_set_threads(tw_writer *w, unsigned n) { w->ctx.threads = n ? n : 1; }

unsigned tw_writer_threads_used(const tw_writer *w) { return w->threads_used; }

int tw_writer_finish(tw_writer *w) {
    int rc = w->fmt->write_end(w->state);
    /* what the output does not hold, when there is an output */
    if (rc == TW_OK) loss_report(&w->loss, w->fmt, w->ctx.diag);
    return rc;
}

void tw_writer_free(tw_writer *w) {
    if (!w) return;
    w->fmt->write_free(w->state);
    free(w);
}

/* ---- registry queries and detection -------------------------------------- */

const tw_format *tw_format_find(const char *name) {
    for (size_t i = 0; i < tw_format_count(); i++) {
        const tw_format *f = tw_format_at(i);
        if (strcmp(f->name, name) == 0) return f;
        for (const char *const *a = f->aliases; a && *a; a++)
            if (strcmp(*a, name) == 0) return f;
    }
    return NULL;
}

static bool has_suffix_ci(const char *s, const char *suffix) {
    size_t n = strlen(s), k = strlen(suffix);
    return n > k && strcasecmp(s + n - k, suffix) == 0;
}

const tw_format *tw_format_by_extension(const char *path, bool want_writer) {
    const tw_format *found = NULL;
    size_t best = 0;
    bool tie = false;
    for (size_t i = 0; i < tw_format_count(); i++) {
        const tw_format *f = tw_format_at(i);
        if (want_writer ? !tw_format_can_write(f) : !tw_format_can_read(f)) continue;
        for (const char *const *e = f->extensions; e && *e; e++) {
            size_t k = strlen(*e);
            if (!has_suffix_ci(path, *e) || k < best) continue;
            if (k == best && found != f) tie = true;
            else if (k > best) tie = false;
            best = k;
            found = f;
        }
    }
    return tie ? NULL : found;
}

size_t tw_detect(const unsigned char *head, size_t len, const char *path,
                 tw_probe_result *res, size_t cap) {
    size_t n = 0;
    for (size_t i = 0; i < tw_format_count(); i++) {
        const tw_format *f = tw_format_at(i);
        if (!tw_format_can_read(f) || !f->probe) continue;
        /* a text format's probe looks at the text after a byte order mark */
        bool bom = (f->flags & TW_FMT_TEXT) && tw_has_bom(head, len);
        int score = bom ? f->probe(head + 3, len - 3, path) : f->probe(head, len, path);
        if (score <= 0) continue;
        if (score > 100) score = 100;
        /* insertion sort, stable: equal scores keep registry order */
        size_t at = n < cap ? n : cap;
        while (at > 0 && res[at - 1].score < score) {
            if (at < cap) res[at] = res[at - 1];
            at--;
        }
        if (at < cap) {
            res[at].format = f;
            res[at].score = score;
        }
        n++;
    }
    return n;
}

const tw_format *tw_detect_pick(const tw_probe_result *res, size_t n) {
    if (n == 0 || res[0].score < TW_DETECT_MIN_SCORE) return NULL;
    if (n > 1 && res[1].score == res[0].score) return NULL;
    return res[0].format;
}
