/*
 * One event stream from several inputs: detection, readers, and a k-way
 * merge by timestamp over a binary heap (ties: lower input index first).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pump.h"
#include "tracewright/source.h"
#include "util.h"

struct src_in {
    tw_input *in;
    tw_reader *rd;
    const tw_format *fmt;
    int64_t shift;  /* added to every ts to reach the common clock */
    tw_event ev;    /* the pending head event */
    bool has_ev;
};

struct tw_source {
    struct src_in *v;
    size_t n;
    size_t *heap;  /* indices of inputs with a pending event */
    size_t heapn;
    size_t last;   /* input whose event was handed out last; n = none */
    tw_trace_info info;
    const char **companions;  /* info.companions of several inputs */
    tw_diag_sink *diag;   /* where the readers, inputs and merge report */
    bool threads;                /* tw_source_opts' */
    uint64_t threads_min_bytes;  /* tw_source_opts' */
    bool threads_steer;          /* tw_source_opts' */
    unsigned threads_switch_every;  /* tw_source_opts' */
    uint64_t bytes_before;       /* read before the second thread started */
    bool drop_details;           /* tw_source_opts' */
    /* which input each (pid, tid) came from, to spot two inputs sharing one */
    struct owner {
        uint32_t pid;
        uint64_t tid;
        size_t input;
    } *owner;
    size_t nowner, owner_cap;
    tw_u64map owners;
    bool collided;
    /* the consumer's, on lines of their own: the fields above are the
     * reading thread's (see tw_calloc_lines) */
    _Alignas(TW_LINE_PAIR) uint64_t events;
    tw_event ev;          /* tw_source_next_ref()'s, read on this thread */
    const tw_event *run;  /* the last event handed out of the current run, */
    size_t run_left;      /* and how many of it are still to come */
    size_t run_n;         /* events in the run tw_source_next_run() gave last */
    /* the one reader's checks left to this thread (tw_reader_check()):
     * its events before `checked` in the current run are checked, and the
     * reports go to `out`, the caller's sink */
    bool check;
    const tw_event *checked;
    tw_diag_sink *out;
    bool check_stopped;   /* a check stopped the reading: TW_ERR from now on */
    tw_pump *pump;        /* reading in runs (on a second thread or here), or NULL */
    bool started;         /* how the pump reads is decided */
    bool threaded;        /* on a second thread */
    bool runs;            /* through the pump, on either thread */
};

const tw_format *tw_detect_input(tw_input *in, tw_diag_sink *diag, int *score) {
    const unsigned char *head;
    size_t len = tw_input_head(in, &head);
    tw_probe_result res[16];
    size_t n = tw_detect(head, len, tw_input_path(in), res, 16);
    if (n > 16) n = 16;
    const tw_format *f = tw_detect_pick(res, n);
    if (f) {
        if (score) *score = res[0].score;
        return f;
    }
    tw_loc loc = {.file = tw_input_name(in), .kind = TW_LOC_FILE};
    if (len == 0 || (len == 3 && tw_has_bom(head, len))) {
        tw_report(diag, TW_R_UNKNOWN_FORMAT, &loc,
                  "cannot detect the format of an empty input%s; use -f FORMAT",
                  len ? " (a byte order mark only)" : "");
        return NULL;
    }
    char cand[256] = "";
    size_t off = 0;
    for (size_t i = 0; i < n && off < sizeof cand; i++)
        off += (size_t)snprintf(cand + off, sizeof cand - off, "%s%s (confidence %d)",
                                i ? ", " : "", res[i].format->name, res[i].score);
    if (n == 0)
        tw_report(diag, TW_R_UNKNOWN_FORMAT, &loc,
                  "cannot detect the format: no format matches; use -f FORMAT "
                  "(see 'tracewright formats')");
    else if (res[0].score >= TW_DETECT_MIN_SCORE)
        tw_report(diag, TW_R_UNKNOWN_FORMAT, &loc,
                  "ambiguous format: candidates are %s; use -f %s or -f %s", cand,
                  res[0].format->name, res[1].format->name);
    else
        tw_report(diag, TW_R_UNKNOWN_FORMAT, &loc,
                  "cannot detect the format: best guesses are %s; use -f %s if that is "
                  "right",
                  cand, res[0].format->name);
    return NULL;
}

/* ---- heap ---------------------------------------------------------------- */

static bool before(const tw_source *s, size_t a, size_t b) {
    int64_t ta = s->v[a].ev.ts, tb = s->v[b].ev.ts;
    return ta < tb || (ta == tb && a < b);
}

static void heap_push(tw_source *s, size_t idx) {
    size_t i = s->heapn++;
    s->heap[i] = idx;
    while (i > 0) {
        size_t p = (i - 1) / 2;
        if (!before(s, s->heap[i], s->heap[p])) break;
        size_t t = s->heap[i];
        s->heap[i] = s->heap[p];
        s->heap[p] = t;
        i = p;
    }
}

static size_t heap_pop(tw_source *s) {
    size_t top = s->heap[0];
    s->heap[0] = s->heap[--s->heapn];
    size_t i = 0;
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < s->heapn && before(s, s->heap[l], s->heap[m])) m = l;
        if (r < s->heapn && before(s, s->heap[r], s->heap[m])) m = r;
        if (m == i) break;
        size_t t = s->heap[i];
        s->heap[i] = s->heap[m];
        s->heap[m] = t;
        i = m;
    }
    return top;
}

/* Pull the next event of input i into its slot: TW_OK, TW_EOF or TW_ERR. */
static int pull(tw_source *s, size_t i) {
    struct src_in *x = &s->v[i];
    for (;;) {
        int rc = tw_reader_next(x->rd, &x->ev);
        x->has_ev = rc == TW_OK;
        if (rc != TW_OK || x->shift == 0) return rc;
        if (tw_add_i64(x->ev.ts, x->shift, &x->ev.ts)) return TW_OK;
        tw_report(s->diag, TW_R_TIME_OVERFLOW, &x->ev.loc,
                  "time does not fit in 64-bit nanoseconds once put on the common clock; "
                  "event dropped");
    }
}

/* ---- open / close -------------------------------------------------------- */

/* The origins of the inputs are too far apart for 64-bit nanoseconds. */
static void no_common_clock(tw_source *s, size_t i) {
    for (size_t k = 0; k < s->n; k++) s->v[k].shift = 0;
    s->info.has_origin = false;
    tw_report(s->diag, TW_R_NO_COMMON_CLOCK, NULL,
              "'%s': the wall-clock origin is too far from the others' for 64-bit "
              "nanoseconds, so the inputs are merged on their own clocks",
              tw_input_name(s->v[i].in));
}

/* Every input's companions in one list, for the merged info of several
 * inputs; false when out of memory (not reported). */
static bool gather_companions(tw_source *s) {
    size_t n = 0;
    for (size_t i = 0; i < s->n; i++)
        for (const char *const *c = tw_reader_info(s->v[i].rd)->companions; c && *c; c++) n++;
    s->info.companions = NULL;
    if (!n) return true;
    if (!(s->companions = malloc((n + 1) * sizeof *s->companions))) return false;
    n = 0;
    for (size_t i = 0; i < s->n; i++)
        for (const char *const *c = tw_reader_info(s->v[i].rd)->companions; c && *c; c++)
            s->companions[n++] = *c;
    s->companions[n] = NULL;
    s->info.companions = s->companions;
    return true;
}

static void merge_info(tw_source *s) {
    tw_trace_info *mi = &s->info;
    const tw_trace_info *first = tw_reader_info(s->v[0].rd);
    *mi = *first;
    if (s->n == 1) return;
    bool all_origin = true, same_format = true, same_pid = true;
    for (size_t i = 0; i < s->n; i++) {
        const tw_trace_info *ti = tw_reader_info(s->v[i].rd);
        all_origin &= ti->has_origin;
        same_format &= strcmp(ti->format, first->format) == 0;
        same_pid &= ti->has_pid && first->has_pid && ti->pid == first->pid;
        if (ti->resolution_ns > mi->resolution_ns) mi->resolution_ns = ti->resolution_ns;
    }
    if (!same_format) mi->format = "mixed";
    mi->has_pid = same_pid;
    if (!same_pid) mi->pid = 0;
    mi->has_origin = all_origin;
    if (!all_origin) {
        char names[512] = "";
        size_t off = 0;
        for (size_t i = 0; i < s->n && off < sizeof names; i++)
            if (!tw_reader_info(s->v[i].rd)->has_origin)
                off += (size_t)snprintf(names + off, sizeof names - off, "%s'%s'",
                                        off ? ", " : "", tw_input_name(s->v[i].in));
        tw_report(s->diag, TW_R_NO_COMMON_CLOCK, NULL,
                  "%s: no wall-clock origin, so the inputs are merged on their own clocks",
                  names);
        return;
    }
    /* put every input on the clock of the one that started first (the
     * earliest wall time at ts 0), so that no input is moved backwards */
    size_t ref = 0;
    int64_t base = 0;
    for (size_t i = 0; i < s->n; i++) {
        const tw_trace_info *ti = tw_reader_info(s->v[i].rd);
        int64_t zero;
        if (!tw_sub_i64(ti->origin_ns, ti->origin_ts, &zero)) {
            no_common_clock(s, i);
            return;
        }
        if (i == 0 || zero < base) {
            ref = i;
            base = zero;
        }
    }
    for (size_t i = 0; i < s->n; i++) {
        const tw_trace_info *ti = tw_reader_info(s->v[i].rd);
        if (!tw_sub_i64(ti->origin_ns - ti->origin_ts, base, &s->v[i].shift)) {
            no_common_clock(s, i);
            return;
        }
    }
    const tw_trace_info *r = tw_reader_info(s->v[ref].rd);
    mi->origin_ns = r->origin_ns;
    mi->origin_ts = r->origin_ts;
}

/* Two inputs with events of the same (pid, tid) have them paired as one
 * thread; say so, once.  Called for every event of a merge. */
static void check_thread(tw_source *s, size_t input, const tw_event *ev) {
    if (s->collided || ev->kind == TW_META) return;
    uint64_t key = (ev->tid * 0x9e3779b97f4a7c15ULL) ^ ev->pid;
    uintptr_t k = (uintptr_t)tw_u64map_get(&s->owners, key);
    if (k) {
        const struct owner *o = &s->owner[k - 1];
        if (o->input == input || o->pid != ev->pid || o->tid != ev->tid) return;
        s->collided = true;
        tw_report(s->diag, TW_R_PID_COLLISION, NULL,
                  "'%s' and '%s' both have events of process %lu, thread %llu; they are "
                  "paired as one thread",
                  tw_input_name(s->v[o->input].in), tw_input_name(s->v[input].in),
                  (unsigned long)ev->pid, (unsigned long long)ev->tid);
        return;
    }
    if (!tw_grow(&s->owner, &s->owner_cap, s->nowner + 1, sizeof *s->owner, 16))
        return; /* the check is advice; it stops when memory does */
    s->owner[s->nowner] = (struct owner){ev->pid, ev->tid, input};
    if (tw_u64map_put(&s->owners, key, (void *)(uintptr_t)(s->nowner + 1))) s->nowner++;
}

/* A source for n inputs, none opened yet; NULL when out of memory
 * (reported). */
static tw_source *source_new(size_t n, const tw_source_opts *o, tw_diag_sink *diag) {
    tw_source *s = tw_calloc_lines(1, sizeof *s);
    if (!s || n == 0 || !(s->v = tw_calloc_lines(n, sizeof *s->v)) ||
        !(s->heap = calloc(n, sizeof *s->heap))) {
        tw_report(diag, TW_R_OUT_OF_MEMORY, NULL, "out of memory");
        if (s) free(s->v);
        free(s);
        return NULL;
    }
    s->diag = diag;
    /* with a pump, everything reading reports through it, so that its
     * diagnostics reach `diag` in their place among the events */
    if (!o->lockstep && (s->pump = tw_pump_new(diag))) s->diag = tw_pump_sink(s->pump);
    s->threads = o->threads;
    s->threads_min_bytes = o->threads_min_bytes;
    s->threads_steer = o->threads_steer;
    s->threads_switch_every = o->threads_switch_every;
    s->drop_details = o->drop_details;
    s->last = n;
    return s;
}

/* Input i of n, opened: its format and its reader. */
static int add_input(tw_source *s, size_t i, size_t n, tw_input *in, const tw_source_opts *o,
                     tw_strtab *strtab) {
    struct src_in *x = &s->v[i];
    x->in = in;
    x->fmt = o->format ? o->format : tw_detect_input(x->in, s->diag, NULL);
    if (!x->fmt) return TW_ERR;
    unsigned flags = o->transient_names ? TW_READ_TRANSIENT_NAMES : 0;
    /* one input: its reader's checks may wait for this thread (several
     * are merged on the reading thread, where the events of each reader
     * are no longer told apart); not a pipe's, whose next block this
     * thread reads while it waits (tw_input_read_ahead()), work that
     * pays more */
    if (n == 1 && o->defer_checks && tw_input_size(x->in) >= 0) flags |= TW_READ_DEFER_CHECKS;
    return tw_reader_open_ex(x->fmt, x->in, strtab, s->diag, o->opts, flags, &x->rd);
}

/* Every input added: the common clock, and the first event of each of
 * several inputs. */
static int source_start(tw_source *s, tw_diag_sink *diag) {
    merge_info(s);
    if (s->n > 1 && !gather_companions(s)) {
        tw_report(s->diag, TW_R_OUT_OF_MEMORY, NULL, "out of memory");
        return TW_ERR;
    }
    s->out = diag;
    s->check = s->n == 1 && tw_reader_defers_checks(s->v[0].rd);
    if (s->n > 1) {
        for (size_t i = 0; i < s->n; i++) {
            int rc = pull(s, i);
            if (rc == TW_ERR) return TW_ERR;
            if (rc == TW_OK) heap_push(s, i);
        }
    }
    return TW_OK;
}

int tw_source_open(const char *const *paths, size_t n, const tw_source_opts *o,
                   tw_strtab *strtab, tw_diag_sink *diag, tw_source **out) {
    static const tw_source_opts none;
    if (!o) o = &none;
    tw_source *s = source_new(n, o, diag);
    if (!s) return TW_ERR;
    for (size_t i = 0; i < n; i++) {
        tw_input *in;
        if (tw_input_open(paths[i], &o->input, s->diag, &in) != 0) goto fail;
        s->n = i + 1;  /* what tw_source_close() closes */
        if (add_input(s, i, n, in, o, strtab) != TW_OK) goto fail;
    }
    if (source_start(s, diag) != TW_OK) goto fail;
    *out = s;
    return TW_OK;
fail:
    tw_source_close(s);
    return TW_ERR;
}

int tw_source_open_inputs(tw_input *const *ins, size_t n, const tw_source_opts *o,
                          tw_strtab *strtab, tw_diag_sink *diag, tw_source **out) {
    static const tw_source_opts none;
    if (!o) o = &none;
    tw_source *s = source_new(n, o, diag);
    if (!s) {
        for (size_t i = 0; i < n; i++) tw_input_close(ins[i]);
        return TW_ERR;
    }
    s->n = n;  /* the inputs are the source's from now on */
    for (size_t i = 0; i < n; i++) {
        s->v[i].in = ins[i];
        tw_input_set_diag(ins[i], s->diag);
    }
    for (size_t i = 0; i < n; i++)
        if (add_input(s, i, n, ins[i], o, strtab) != TW_OK) goto fail;
    if (source_start(s, diag) != TW_OK) goto fail;
    *out = s;
    return TW_OK;
fail:
    tw_source_close(s);
    return TW_ERR;
}

/* The next event of several inputs merged (kept out of next_event, so
 * that the single input's path stays a plain call). */
static int merge_next(tw_source *s, tw_event *ev) {
    if (s->last < s->n) {
        int rc = pull(s, s->last);
        if (rc == TW_ERR) return TW_ERR;
        if (rc == TW_OK) heap_push(s, s->last);
        s->last = s->n;
    }
    if (s->heapn == 0) return TW_EOF;
    size_t i = heap_pop(s);
    tw_event_copy(ev, &s->v[i].ev);
    s->last = i;
    check_thread(s, i, ev);
    return TW_OK;
}

/* The next event of the stream, on whichever thread reads. */
static inline int next_event(tw_source *s, tw_event *ev) {
    return s->n == 1 ? tw_reader_next(s->v[0].rd, ev) : merge_next(s, ev);
}

/* The merged inputs' next event, as a read_next for tw_read_batch_with(). */
static int merge_next_of(void *source, tw_event *ev) { return merge_next(source, ev); }

/* The reading thread's: a run of events (tw_batch), without what the caller
 * does not read (tw_source_opts.drop_details), so that the pump need not
 * copy it. */
static int pump_batch(void *user, tw_batch *b) {
    tw_source *s = user;
    b->drop_details = s->drop_details;
    if (s->n == 1) return tw_reader_next_batch(s->v[0].rd, b);
    b->stop = s->diag;  /* every reader's sink */
    return tw_read_batch_with(merge_next_of, s, b);
}

static uint64_t bytes_read(const tw_source *s) {
    uint64_t n = 0;
    for (size_t i = 0; i < s->n; i++) n += tw_input_offset(s->v[i].in);
    return n;
}

static uint64_t pump_bytes(void *user) { return bytes_read(user); }

/* The consumer's thread, waiting for the reading thread: the one input's
 * pages mapped ahead of the reader, from `bytes` (where the reader was at
 * the end of the last batch taken; it is at most one batch further on), or
 * from a pipe, its next block read. */
static bool pump_idle(void *user, uint64_t bytes) {
    tw_source *s = user;
    return tw_input_map_ahead(s->v[0].in, bytes) || tw_input_read_ahead(s->v[0].in);
}

/* Decide how the pump reads: on a second thread when asked for and the
 * inputs are large enough for it to pay (at once when their sizes are
 * known; with an input of unknown size, a pipe or an empty file that may be
 * a /proc one, once that many bytes have been read on this thread, event by
 * event); else, or when a thread cannot be started, here, in runs.  Called
 * at the start of tw_source_next_run() only, when the caller is done with
 * the last event and the reader may move on. */
static TW_NOINLINE void consider_threads(tw_source *s) {
    uint64_t known = 0;
    bool unknown = false;
    for (size_t i = 0; i < s->n; i++) {
        int64_t size = tw_input_size(s->v[i].in);
        if (size < 0) unknown = true;
        else known += (uint64_t)size;
    }
    bool enough = known >= s->threads_min_bytes ||
                  (unknown && bytes_read(s) >= s->threads_min_bytes);
    if (s->threads && !enough && unknown) return;  /* not yet known */
    s->started = true;
    s->bytes_before = bytes_read(s);  /* (before the thread reads on) */
    s->threaded = s->threads && enough && tw_pump_start(s->pump, pump_batch, pump_bytes, s);
    if (s->threaded && s->threads_steer) tw_pump_steer(s->pump, s->threads_switch_every);
    /* one input: its offset is the bytes read (several are read in turns) */
    if (s->threaded && s->n == 1) tw_pump_set_idle(s->pump, pump_idle, s);
    s->runs = s->threaded || tw_pump_start_here(s->pump, pump_batch, pump_bytes, s);
}

int tw_source_next_run(tw_source *s, const tw_event **ev, size_t *n) {
    if (!s->runs) {
        if (s->pump && !s->started) consider_threads(s);
        if (!s->runs) {  /* event by event: a run is one event */
            *ev = &s->ev;
            *n = 1;
            int rc = s->check_stopped ? TW_ERR : next_event(s, &s->ev);
            if (rc == TW_OK && s->check && !tw_reader_check(s->v[0].rd, &s->ev, 1, s->out)) {
                rc = TW_ERR;
                s->check_stopped = true;
            }
            s->events += rc == TW_OK;
            return rc;
        }
    }
    if (s->check_stopped) return TW_ERR;
    if (s->run_left) {  /* what is left of a run taken by tw_source_next_ref() or put back */
        *ev = s->run + 1;
        *n = s->run_left;
    } else {
        int rc = tw_pump_next_run(s->pump, ev, n);
        if (rc == TW_PUMP_STEP) {  /* event by event from here on */
            s->runs = false;
            return tw_source_next_run(s, ev, n);
        }
        if (rc != TW_OK) return rc;
        /* a batch whose reader left no checks to this thread is checked */
        s->checked = s->check && tw_pump_run_deferred(s->pump) ? *ev : *ev + *n;
    }
    size_t all = *n;
    if (s->check) {
        if (*ev < s->checked) {  /* the checked ones first */
            if ((size_t)(s->checked - *ev) < *n) *n = (size_t)(s->checked - *ev);
        } else {  /* the batch is this thread's now: the events may be changed */
            *n = tw_reader_check(s->v[0].rd, (tw_event *)(uintptr_t)*ev, *n, s->out);
            if (!*n) {
                s->check_stopped = true;
                return TW_ERR;
            }
            s->checked = *ev + *n;
        }
    }
    s->events += *n;
    s->run = *ev + *n - 1;
    s->run_left = all - *n;
    s->run_n = *n;
    return TW_OK;
}

void tw_source_unread(tw_source *s, size_t k) {
    if (!s->runs || k == 0 || k >= s->run_n) return;  /* event by event a run is one event */
    s->run -= k;
    s->run_left += k;
    s->run_n -= k;
    s->events -= k;
}

int tw_source_next_ref(tw_source *s, const tw_event **ev) {
    if (s->run_left && (!s->check || s->run + 1 < s->checked)) {  /* the rest of a run taken ahead */
        s->run_left--;
        *ev = ++s->run;
        s->events++;
        return TW_OK;
    }
    size_t n;
    int rc = tw_source_next_run(s, ev, &n);
    if (rc == TW_OK) tw_source_unread(s, n - 1); /* handed out one by one */
    return rc;
}

int tw_source_next(tw_source *s, tw_event *ev) {
    const tw_event *e;
    int rc = tw_source_next_ref(s, &e);
    if (rc == TW_OK) tw_event_copy(ev, e);
    return rc;
}

void tw_source_set_wait(tw_source *s, tw_wait_fn fn, void *user) {
    for (size_t i = 0; i < s->n; i++) tw_input_set_wait(s->v[i].in, fn, user);
    if (s->pump) tw_pump_set_wait(s->pump, fn, user);
}

uint64_t tw_source_bytes(const tw_source *s) {
    return s->runs ? tw_pump_bytes(s->pump) : bytes_read(s);
}

const tw_trace_info *tw_source_info(const tw_source *s) { return &s->info; }
size_t tw_source_input_count(const tw_source *s) { return s->n; }
tw_input *tw_source_input(const tw_source *s, size_t i) { return s->v[i].in; }
const tw_format *tw_source_input_format(const tw_source *s, size_t i) { return s->v[i].fmt; }
uint64_t tw_source_event_count(const tw_source *s) { return s->events; }
bool tw_source_reading_ahead(const tw_source *s) { return s->threaded && tw_pump_ahead(s->pump); }

void tw_source_reading_info(const tw_source *s, tw_source_reading *out) {
    *out = (tw_source_reading){.second_thread = s->threaded,
                               .ahead = tw_source_reading_ahead(s),
                               .before = s->threaded ? s->bytes_before : 0};
    if (s->threaded) {
        out->here = tw_pump_here_bytes(s->pump, &out->probed);
        out->here -= out->probed;
    }
}

void tw_source_close(tw_source *s) {
    if (!s) return;
    tw_pump_free(s->pump);  /* first: its thread may be reading */
    for (size_t i = 0; i < s->n; i++) {
        tw_reader_close(s->v[i].rd);
        tw_input_close(s->v[i].in);
    }
    free(s->v);
    free(s->heap);
    free(s->owner);
    free(s->companions);
    tw_u64map_free(&s->owners);
    free(s);
}
