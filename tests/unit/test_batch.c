/* Unit tests of reading in runs (tw_batch): the contract of
 * tw_read_batch_with(), and every reader's runs against its events one by
 * one on every fixture. */
#include <dirent.h>
#include <unistd.h>
#include <stdlib.h>

#include "core/util.h" /* tw_buf */
#include "harness.h"

/* ---- the contract, on a scripted reader ------------------------------------ */

enum { PLAIN, MSG, ATTRS, TRANSIENT, LIMIT, FAIL };

typedef struct script {
    const int *steps;   /* what each call produces; past the end: TW_EOF */
    size_t nsteps, at;
    tw_diag_sink *sink;
    const tw_batch *b;  /* the run being filled, to see its count at each call */
    size_t seen_n[16];  /* b->n at each call */
    char text[8];       /* "reader memory" a message points into */
    tw_attr attr;
    tw_str *transient;
} script;

static int script_next(void *state, tw_event *ev) {
    script *s = state;
    if (s->at < 16) s->seen_n[s->at] = s->b->n;
    if (s->at >= s->nsteps) return TW_EOF;
    int step = s->steps[s->at++];
    static const tw_str plain = {.hash = 1, .id = 1, .len = 1, .s = {'p'}};
    tw_event_clear(ev);
    ev->kind = TW_BEGIN;
    ev->ts = (int64_t)s->at;
    ev->name = &plain;
    switch (step) {
    case MSG:
        ev->msg = s->text;
        ev->msg_len = 3;
        break;
    case ATTRS:
        ev->attrs = &s->attr;
        ev->nattrs = 1;
        break;
    case TRANSIENT:
        ev->kind = TW_INSTANT;
        ev->name = s->transient;
        break;
    case LIMIT:
        tw_report(s->sink, TW_R_LIMIT, NULL, "limit");
        break;
    case FAIL:
        return TW_ERR;
    }
    return TW_OK;
}

static int run(script *s, tw_batch *b, tw_event *ev, size_t cap, bool drop) {
    *b = (tw_batch){.ev = ev, .cap = cap, .drop_details = drop, .stop = s->sink};
    s->b = b;
    return tw_read_batch_with(script_next, s, b);
}

void test_read_batch_contract(void) {
    tw_diag_sink sink = {0};
    tw_event ev[8];
    tw_batch b;
    _Alignas(tw_str) char tbuf[sizeof(tw_str) + 4] = {0};
    tw_str *tr = (tw_str *)tbuf;
    tr->id = TW_STR_TRANSIENT;
    tr->len = 1;
    tr->s[0] = 't';

    /* a run stops after each event pointing into the reader's memory */
    static const int mixed[] = {PLAIN, PLAIN, MSG, PLAIN, ATTRS, TRANSIENT, PLAIN};
    script s = {.steps = mixed, .nsteps = 7, .sink = &sink, .transient = tr};
    CHECK_EQ_I(run(&s, &b, ev, 8, false), TW_OK);
    CHECK_EQ_U(b.n, 3);
    CHECK(ev[2].msg == s.text);
    for (size_t i = 0; i < 3; i++) CHECK_EQ_U(s.seen_n[i], i); /* counted as stored */
    CHECK_EQ_I(run(&s, &b, ev, 8, false), TW_OK);
    CHECK_EQ_U(b.n, 2);
    CHECK_EQ_U(ev[1].nattrs, 1);
    CHECK_EQ_I(run(&s, &b, ev, 8, false), TW_OK);
    CHECK_EQ_U(b.n, 1);
    CHECK(ev[0].name == tr);
    /* the end: the events before it are stored, the status is TW_EOF */
    CHECK_EQ_I(run(&s, &b, ev, 8, false), TW_EOF);
    CHECK_EQ_U(b.n, 1);
    CHECK_EQ_I(ev[0].ts, 7);

    /* without details, messages and attributes no longer end a run; a
     * transient name still does */
    s = (script){.steps = mixed, .nsteps = 7, .sink = &sink, .transient = tr};
    CHECK_EQ_I(run(&s, &b, ev, 8, true), TW_OK);
    CHECK_EQ_U(b.n, 6);
    CHECK(ev[2].msg == NULL && ev[2].msg_len == 0);
    CHECK(ev[4].attrs == NULL && ev[4].nattrs == 0);
    CHECK_EQ_I(run(&s, &b, ev, 8, true), TW_EOF);
    CHECK_EQ_U(b.n, 1);

    /* a full run */
    static const int plain[] = {PLAIN, PLAIN, PLAIN, PLAIN, PLAIN};
    s = (script){.steps = plain, .nsteps = 5, .sink = &sink};
    CHECK_EQ_I(run(&s, &b, ev, 4, false), TW_OK);
    CHECK_EQ_U(b.n, 4);
    CHECK_EQ_U(s.at, 4); /* no read past the room */
    CHECK_EQ_I(run(&s, &b, ev, 4, false), TW_EOF);
    CHECK_EQ_U(b.n, 1);

    /* an error: the events before it stay stored */
    static const int failing[] = {PLAIN, PLAIN, FAIL, PLAIN};
    s = (script){.steps = failing, .nsteps = 4, .sink = &sink};
    CHECK_EQ_I(run(&s, &b, ev, 8, false), TW_ERR);
    CHECK_EQ_U(b.n, 2);

    /* a limit reported while an event is read: that event is not stored and
     * reading stops, as tw_reader_next() returns TW_ERR for it */
    static const int limited[] = {PLAIN, LIMIT, PLAIN};
    s = (script){.steps = limited, .nsteps = 3, .sink = &sink};
    CHECK_EQ_I(run(&s, &b, ev, 8, false), TW_ERR);
    CHECK_EQ_U(b.n, 1);
    CHECK_EQ_U(s.at, 2);
}

/* ---- every reader: runs against one event at a time ------------------------- */

/* One event, every field, as text (what a consumer could see of it). */
static void describe(const tw_event *e, tw_buf *out) {
    char tmp[512];
    int n = snprintf(tmp, sizeof tmp, "%d %lld %u %llu %u:", (int)e->kind, (long long)e->ts,
                     (unsigned)e->pid, (unsigned long long)e->tid, (unsigned)e->name->len);
    tw_buf_append(out, tmp, (size_t)n);
    tw_buf_append(out, e->name->s, e->name->len);
    if (e->cat) tw_buf_append(out, e->cat->s, e->cat->len);
    n = snprintf(tmp, sizeof tmp, " msg %d %zu:", e->msg != NULL, e->msg_len);
    tw_buf_append(out, tmp, (size_t)n);
    if (e->msg) tw_buf_append(out, e->msg, e->msg_len);
    n = snprintf(tmp, sizeof tmp, " v %d %lld a %zu", e->has_value, (long long)e->value, e->nattrs);
    tw_buf_append(out, tmp, (size_t)n);
    for (size_t i = 0; i < e->nattrs; i++) {
        const tw_attr *a = &e->attrs[i];
        n = snprintf(tmp, sizeof tmp, " %.*s=%d %lld %zu:", (int)a->key->len, a->key->s,
                     (int)a->type, (long long)a->i, a->s ? a->slen : 0);
        tw_buf_append(out, tmp, (size_t)n);
        if (a->s) tw_buf_append(out, a->s, a->slen);
    }
    n = snprintf(tmp, sizeof tmp, " @%s %d %llu %llu %llu %llu %u\n", e->loc.file ? e->loc.file : "-",
                 (int)e->loc.kind, (unsigned long long)e->loc.line,
                 (unsigned long long)e->loc.col, (unsigned long long)e->loc.offset,
                 (unsigned long long)e->loc.record, (unsigned)e->loc.length);
    tw_buf_append(out, tmp, (size_t)n);
}

/* What a reading produced, as text: the events, and the diagnostics each
 * with the number of events delivered before it. */
typedef struct reading {
    tw_buf events, diags;
    size_t base;         /* events delivered before the current run */
    const tw_batch *run; /* the run being read, or NULL */
    /* stop_first: the first diagnostic stops the reading, as a limit
     * reached there would (it counts as one on `sink`) */
    bool stop_first;
    tw_diag_sink *sink;
} reading;

static void note_diag(void *user, const tw_diag *d) {
    reading *rd = user;
    char tmp[160];
    int n = snprintf(tmp, sizeof tmp, "! before %zu: %s %llu %llu %llu ",
                     rd->base + (rd->run ? rd->run->n : 0), d->rule_id,
                     (unsigned long long)d->loc.line, (unsigned long long)d->loc.offset,
                     (unsigned long long)d->loc.record);
    tw_buf_append(&rd->diags, tmp, (size_t)n);
    tw_buf_append(&rd->diags, d->message, strlen(d->message));
    tw_buf_append(&rd->diags, "\n", 1);
    if (rd->stop_first) rd->sink->problems[TW_R_LIMIT]++;
}

/* Read `path` with `fmt`, one event at a time (cap 0) or in runs of up to
 * `cap`, into `rd`; the last status is appended to the events. */
static void read_all(const tw_format *fmt, const char *path, unsigned flags, size_t cap,
                     const tw_optset *opts, reading *rd) {
    tw_diag_sink sink = {.fn = note_diag, .user = rd};
    rd->sink = &sink;
    tw_strtab *tab = tw_strtab_new();
    tw_input *in = NULL;
    tw_reader *r = NULL;
    int rc = TW_ERR;
    if (tab && tw_input_open(path, NULL, &sink, &in) == 0 &&
        tw_reader_open_ex(fmt, in, tab, &sink, opts, flags, &r) == TW_OK) {
        tw_event ev[16];
        do {
            if (cap == 0) {
                rc = tw_reader_next(r, &ev[0]);
                if (rc == TW_OK) describe(&ev[0], &rd->events);
                rd->base += rc == TW_OK;
            } else {
                tw_batch b = {.ev = ev, .cap = cap};
                rd->run = &b;
                rc = tw_reader_next_batch(r, &b);
                rd->run = NULL;
                for (size_t i = 0; i < b.n; i++) describe(&ev[i], &rd->events);
                rd->base += b.n;
                if (rc == TW_OK) CHECK(b.n > 0);
            }
        } while (rc == TW_OK);
    }
    char tmp[32];
    int n = snprintf(tmp, sizeof tmp, "= %d\n", rc);
    tw_buf_append(&rd->events, tmp, (size_t)n);
    tw_reader_close(r);
    tw_input_close(in);
    tw_strtab_free(tab);
}

/* The reader's diagnostics in a run read with its checks left to the
 * consumer, held back to their places, as the pump holds them. */
typedef struct held {
    reading *rd;
    struct {
        size_t before;
        char text[600];
    } d[64];
    size_t n;
    tw_diag_sink *own; /* the reader's sink, stopped by the first (stop_first) */
} held;

static void hold_diag(void *user, const tw_diag *d) {
    held *h = user;
    if (h->n < 64) {
        h->d[h->n].before = h->rd->base + (h->rd->run ? h->rd->run->n : 0);
        snprintf(h->d[h->n].text, sizeof h->d[h->n].text, "%s %llu %llu %llu %s", d->rule_id,
                 (unsigned long long)d->loc.line, (unsigned long long)d->loc.offset,
                 (unsigned long long)d->loc.record, d->message);
        h->n++;
    }
    if (h->rd->stop_first) h->own->problems[TW_R_LIMIT]++;
}

/* Pass on the held diagnostics whose place is before event `upto`. */
static void pass_held(held *h, size_t upto, tw_diag_sink *to) {
    size_t k = 0;
    while (k < h->n && h->d[k].before <= upto) {
        char tmp[640];
        int n = snprintf(tmp, sizeof tmp, "! before %zu: %s\n", h->d[k].before, h->d[k].text);
        tw_buf_append(&h->rd->diags, tmp, (size_t)n);
        if (h->rd->stop_first) to->problems[TW_R_LIMIT]++;
        k++;
    }
    memmove(h->d, h->d + k, (h->n - k) * sizeof h->d[0]);
    h->n -= k;
}

/* read_all() in batches of `cap` with the reader's checks left to the
 * consumer (TW_READ_DEFER_CHECKS), taken as the pump and the source take
 * them: two batches in three read "ahead" (tw_batch.defer_checks), the
 * third "here", as when the pump switches threads; each batch filled by
 * calls until it is full, as the pump fills one (a run may end early); the
 * events of a batch the reader left checks in (tw_batch.deferred) each
 * through tw_reader_check() before it is delivered, the reports going to
 * the consumer's sink and a run cut where one comes; the reader's own
 * diagnostics held back to their places.  Each event is described as soon
 * as it is read (what it points to may not outlive the next call), its
 * mark, which the check clears, as cleared. */
typedef struct plan {
    const size_t *cap;  /* batch i: cap[min(i, n - 1)] events, */
    const bool *ahead;  /* read ahead or here; n 0: cap, two ahead in three */
    size_t n;
} plan;

static void read_deferred(const tw_format *fmt, const char *path, unsigned flags, size_t cap,
                          const tw_optset *opts, const plan *pl, reading *rd, size_t *deferred) {
    held h = {.rd = rd};
    tw_diag_sink own = {.fn = hold_diag, .user = &h};
    tw_diag_sink out = {.fn = note_diag, .user = rd};
    h.own = &own;
    rd->sink = &out;
    tw_strtab *tab = tw_strtab_new();
    tw_input *in = NULL;
    tw_reader *r = NULL;
    tw_buf text = {0}; /* the batch's events described, event i from off[i] */
    int rc = TW_ERR;
    if (tab && tw_input_open(path, NULL, &own, &in) == 0 &&
        tw_reader_open_ex(fmt, in, tab, &own, opts, flags | TW_READ_DEFER_CHECKS, &r) == TW_OK) {
        tw_event ev[16];
        size_t off[17];
        bool stopped = false;
        for (size_t bi = 0;; bi++) {
            size_t at = pl && pl->n ? (bi < pl->n ? bi : pl->n - 1) : 0;
            tw_batch b = {.ev = ev,
                          .cap = pl && pl->n ? pl->cap[at] : cap,
                          .defer_checks = pl && pl->n ? pl->ahead[at] : bi % 3 != 2};
            tw_buf_clear(&text);
            rd->run = &b;
            do {
                size_t from = b.n;
                rc = tw_reader_next_batch(r, &b);
                for (size_t j = from; j < b.n; j++) {
                    off[j] = text.len;
                    tw_event e = ev[j];
                    if (b.deferred && !e.has_value) e.value = 0;
                    describe(&e, &text);
                }
            } while (rc == TW_OK && b.n < b.cap);
            off[b.n] = text.len;
            rd->run = NULL;
            if (b.deferred) {
                CHECK(tw_reader_defers_checks(r));
                *deferred += 1;
            }
            for (size_t i = 0; i < b.n;) {
                pass_held(&h, rd->base, &out);
                size_t k = b.deferred ? tw_reader_check(r, &ev[i], b.n - i, &out) : b.n - i;
                CHECK(k <= b.n - i);
                if (!k) {
                    stopped = true;
                    break;
                }
                for (size_t j = i; j < i + k; j++) CHECK(ev[j].has_value || !ev[j].value);
                tw_buf_append(&rd->events, text.p + off[i], off[i + k] - off[i]);
                rd->base += k;
                i += k;
            }
            if (stopped) {
                rc = TW_ERR;
                break;
            }
            pass_held(&h, rd->base, &out);
            if (rc != TW_OK) break;
        }
    }
    pass_held(&h, rd->base, &out); /* from the opening, when it failed */
    char tmp[32];
    int n = snprintf(tmp, sizeof tmp, "= %d\n", rc);
    tw_buf_append(&rd->events, tmp, (size_t)n);
    tw_buf_free(&text);
    tw_reader_close(r);
    tw_input_close(in);
    tw_strtab_free(tab);
}

static bool same(const tw_buf *a, const tw_buf *b) {
    return a->len == b->len && (a->len == 0 || memcmp(a->p, b->p, a->len) == 0);
}

void test_reader_batch_equals_next(void) {
    static const char *const dirs[] = {"good", "bad", "rules"};
    static const size_t caps[] = {1, 3, 16};
    size_t files = 0, events_seen = 0, diags_seen = 0, stopped_early = 0, deferred_runs = 0;
    for (size_t f = 0; f < tw_format_count(); f++) {
        const tw_format *fmt = tw_format_at(f);
        if (!tw_format_can_read(fmt)) continue;
        for (size_t d = 0; d < 3; d++) {
            char dir[256];
            snprintf(dir, sizeof dir, "tests/data/%s/%s", fmt->name, dirs[d]);
            DIR *dp = opendir(dir);
            if (!dp) continue;
            struct dirent *de;
            while ((de = readdir(dp))) {
                if (de->d_name[0] == '.' || strstr(de->d_name, ".expected") ||
                    strstr(de->d_name, ".md") || strstr(de->d_name, ".opts"))
                    continue;
                char path[600];
                snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
                /* also stopping at the first diagnostic, wherever a reader
                 * reports it: in a run, the event it came with is not
                 * stored, as tw_reader_next() does not give it */
                for (unsigned mode = 0; mode <= 2 * TW_READ_TRANSIENT_NAMES + 1; mode++) {
                    unsigned flags = mode / 2;
                    bool stop = mode % 2;
                    reading one = {.stop_first = stop};
                    read_all(fmt, path, flags, 0, NULL, &one);
                    for (size_t c = 0; c < 3; c++) {
                        reading runs = {.stop_first = stop};
                        read_all(fmt, path, flags, caps[c], NULL, &runs);
                        if (!same(&runs.events, &one.events) || !same(&runs.diags, &one.diags))
                            tu_fail(__FILE__, __LINE__,
                                    "%s (%s, flags %u%s): runs of %zu differ", path, fmt->name,
                                    flags, stop ? ", stopping at the first diagnostic" : "",
                                    caps[c]);
                        tw_buf_free(&runs.events);
                        tw_buf_free(&runs.diags);
                        /* the checks left to the consumer: the same again */
                        reading dr = {.stop_first = stop};
                        read_deferred(fmt, path, flags, caps[c], NULL, NULL, &dr, &deferred_runs);
                        if (!same(&dr.events, &one.events) || !same(&dr.diags, &one.diags))
                            tu_fail(__FILE__, __LINE__,
                                    "%s (%s, flags %u%s): runs of %zu with the checks left to "
                                    "the consumer differ",
                                    path, fmt->name, flags,
                                    stop ? ", stopping at the first diagnostic" : "", caps[c]);
                        tw_buf_free(&dr.events);
                        tw_buf_free(&dr.diags);
                    }
                    if (!stop) {
                        events_seen += one.base;
                        diags_seen += one.diags.len > 0;
                    } else if (one.diags.len) {
                        stopped_early++;
                    }
                    tw_buf_free(&one.events);
                    tw_buf_free(&one.diags);
                }
                files++;
            }
            closedir(dp);
        }
    }
    /* the fixtures were found and read (run from the top of the tree) */
    CHECK(files >= 100);
    CHECK(events_seen >= 1000);
    CHECK(diags_seen >= 50);
    CHECK(stopped_early >= 50);
    CHECK(deferred_runs >= 100); /* text1's runs left their checks to the consumer */
}

/* text1 read ahead, then here, with the checks left to the consumer while
 * ahead: a batch read here whose first events were marked (they were
 * queued ahead) must not check the next ones as it reads them, though its
 * queue empties within it (a line event's source attribute ends a run, so
 * the batch is filled in two calls), or the order of those is checked
 * before the order of the marked ones: here the line's exit before its
 * entry, which then stays open, and its next entry was reported as "a
 * call of itself". */
void test_text1_checks_switch(void) {
    static const char log[] =
        "* HANDLE(Functions) %NAME% @ %HANDLE%; line %VALUE%; parent %HANDLE.PARENT%; file "
        "%FILE%\n"
        "fa @ 00000000; line ; parent ; file a.c\n"
        "  x = 1; @ 10000000; line 2A; parent 00000000; file a.c\n"
        "* TIMELINE %HANDLE%,%EVENT%,%VALUE%,%TIME%,%CONTEXT%\n"
        "00000000,E,,10,T0\n" /* T0, not listed: its name, then fa's entry, queued */
        "10000000,E,,11,T0\n" /* the line: its source ends the run */
        "10000000,X,,12,T0\n"
        "00000000,X,,13,T0\n"
        "00000000,E,,14,T0\n"
        "10000000,E,,15,T0\n"
        "10000000,X,,16,T0\n"
        "00000000,X,,17,T0\n";
    char path[] = "/tmp/tw-text1-switch-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    if (fd < 0) return;
    CHECK(write(fd, log, sizeof log - 1) == (ssize_t)(sizeof log - 1));
    close(fd);
    tw_optset *opts = tw_optset_new();
    char err[128];
    CHECK(opts && tw_optset_set(opts, "text1-lines", "yes", err, sizeof err) == 0);
    const tw_format *fmt = tw_format_find("text1");
    CHECK(fmt != NULL);
    if (opts && fmt) {
        reading one = {0};
        read_all(fmt, path, 0, 0, opts, &one);
        CHECK(one.base == 9);     /* the thread's name and eight scope events */
        CHECK(one.diags.len == 0); /* in order */
        static const size_t caps[] = {1, 3};
        static const bool ahead[] = {true, false};
        plan pl = {caps, ahead, 2};
        size_t deferred = 0;
        reading dr = {0};
        read_deferred(fmt, path, 0, 0, opts, &pl, &dr, &deferred);
        CHECK(deferred >= 2); /* the batch read ahead, and the one after it */
        if (!same(&dr.events, &one.events) || !same(&dr.diags, &one.diags))
            tu_fail(__FILE__, __LINE__, "read ahead then here: %.*s", (int)dr.diags.len,
                    dr.diags.p ? dr.diags.p : "");
        tw_buf_free(&dr.events);
        tw_buf_free(&dr.diags);
        tw_buf_free(&one.events);
        tw_buf_free(&one.diags);
    }
    tw_optset_free(opts);
    unlink(path);
}
