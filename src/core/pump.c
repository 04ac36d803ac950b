/*
 * The event pump (pump.h): a bounded ring of batches between one producing
 * thread and the consumer, under one mutex and two condition variables.  A
 * batch holds up to BATCH_EVENTS events, the bytes they point to (an arena of
 * chunks that never move) and the diagnostics reported while they were
 * produced, each with the index of the event it comes before.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pump.h"
#include "util.h"

#define BATCH_EVENTS 512
#define NBATCHES 4
#define CHUNK_BYTES ((size_t)64 << 10)
#define BATCH_BYTES ((size_t)256 << 10) /* a batch with more is handed over early */
/* Read here, a batch whose runs were shorter than this on average (events
 * that point into the reader's memory end a run and are copied) cost more
 * than reading event by event (TW_PUMP_STEP). */
#define RUN_MIN 4
/* Before the consumer sleeps waiting for a batch it polls the ring this
 * many times (a pause each, some 20-40 us in all, about what a batch takes
 * to fill): a sleep costs a futex call on both sides and, in a virtual
 * machine, a wake-up of the sleeping CPU by the host, at every batch when
 * the reader is the slower side.  The producer does not poll: when it
 * waits, the consumer is the slower side, and a polling CPU took time from
 * it (docs/performance.md). */
#define SPINS 1024
/* Steering (tw_pump_steer()): reading ahead is measured against reading
 * here, in input bytes per second of the consumer's clock.  The first
 * stretch ahead lasts at least FIRST_NS and FIRST_BYTES; then a probe of the
 * other way, PROBE_NS and PROBE_BATCHES long, is compared with the stretch
 * before it: the probe is kept when it was faster by a tenth (MARGIN), else
 * the way before it comes back for twice as long as last time (from
 * RUN_NS), up to RUN_MAX_NS, so that on a machine whose second CPU keeps
 * paying, probes cost one or two per cent in the first second and less
 * after.  The clock is read every CLOCK_EVERY batches. */
#define FIRST_NS 100000000LL
#define FIRST_BYTES ((uint64_t)64 << 20)
#define RUN_NS 100000000LL
#define RUN_MAX_NS 1600000000LL
#define PROBE_NS 10000000LL
#define PROBE_BATCHES 16
#define MARGIN 1.1
#define CLOCK_EVERY 8

typedef struct chunk {
    struct chunk *next;
    size_t used, cap;
    _Alignas(max_align_t) char data[];
} chunk;

typedef struct rdiag {
    size_t before;  /* index of the event it comes before */
    tw_diag d;
} rdiag;

typedef struct batch {
    tw_event ev[BATCH_EVENTS];
    size_t n;
    chunk *chunks;  /* the first is kept from one use to the next */
    size_t bytes;   /* in the arena */
    rdiag *diags;
    size_t ndiags, dcap;
    uint64_t lost;  /* diagnostics that could not be recorded (out of memory) */
    uint64_t input_bytes;
    size_t calls;   /* of fn to fill it */
    bool deferred;  /* its reader left checks to the consumer (tw_batch.deferred) */
    int end;        /* 0, or the TW_EOF / TW_ERR that follows the events */
} batch;

/* Three groups of fields, each on lines of its own (tw_calloc_lines): the
 * consumer's are written at every event, and the producer reads its own at
 * every event; sharing a line would move it between the CPUs each time. */
struct tw_pump {
    /* shared, under mu (cancel: also read without it) */
    pthread_mutex_t mu;
    pthread_cond_t filled, emptied;
    bool filled_mono;    /* `filled` is on CLOCK_MONOTONIC */
    batch *ring[NBATCHES];
    size_t head;         /* full batches: ring[head .. head + count) */
    atomic_size_t count; /* changed under mu; also polled without it (await_batch) */
    atomic_bool cancel;  /* the consumer stopped early: produce no more */
    pthread_t thread;
    bool running;        /* the thread was started (and not yet joined) */
    bool here;           /* no thread: batches are filled on the consumer's */
    bool parked;         /* the thread is to fill no batch (the consumer fills them) */
    bool idle;           /* the thread waits, parked, and fills none */
    /* the producer's */
    _Alignas(TW_LINE_PAIR) tw_diag_sink sink;
    tw_pump_fn fn;
    tw_pump_bytes_fn bytes_fn;
    void *user;
    batch *filling;
    tw_batch fill;       /* its events, as the reader stores them */
    /* the consumer's */
    _Alignas(TW_LINE_PAIR) tw_diag_sink *out;
    batch *reading;
    size_t ri, rdi;      /* next event and diagnostic of `reading` */
    int end;             /* the stream's end, once delivered */
    uint64_t bytes;      /* input bytes behind the delivered batch */
    bool reading_here;   /* `reading` was filled here while the thread was parked */
    /* steering (tw_pump_steer()) */
    bool steer;
    bool want_parked;       /* parked, from the consumer's next batch on */
    unsigned switch_every;  /* for tests: switch every this many batches */
    unsigned long long heres;    /* for tests: stretches read here */
    tw_pump_clock_fn clock;
    void *clock_user;
    tw_pump_idle_fn idle_fn;  /* tw_pump_set_idle() */
    void *idle_user;
    tw_wait_fn wait_fn;       /* tw_pump_set_wait() */
    void *wait_user;
    unsigned long long taken;  /* batches taken the current stretch's way */
    bool probing;           /* the current stretch is a probe */
    bool measuring;         /* t0, b0 are the current stretch's start */
    bool first_done;        /* the first stretch ahead is over */
    int64_t t0, len;        /* its start, and how long it is to last */
    int64_t run;            /* how long the last stretch that was not a probe was to last */
    uint64_t b0;
    double rate[2];         /* bytes/ns of the last stretch ahead [0] and here [1] */
    uint64_t here_bytes;    /* input bytes read here while the thread was parked, */
    uint64_t probe_bytes;   /* and of them, in probes */
};

/* ---- arena ----------------------------------------------------------------- */

static void *arena_alloc(batch *b, size_t n) {
    n = (n + 15) & ~(size_t)15;
    chunk *c = b->chunks;
    if (!c || c->cap - c->used < n) {
        size_t cap = n > CHUNK_BYTES ? n : CHUNK_BYTES;
        chunk *nc = malloc(sizeof *nc + cap);
        if (!nc) return NULL;
        nc->used = 0;
        nc->cap = cap;
        nc->next = c;
        b->chunks = c = nc;
    }
    void *p = c->data + c->used;
    c->used += n;
    b->bytes += n;
    return p;
}

static void *arena_copy(batch *b, const void *p, size_t n) {
    void *q = arena_alloc(b, n ? n : 1);
    if (q && n) memcpy(q, p, n);
    return q;
}

/* Empty the batch for reuse, keeping one chunk. */
static void batch_reset(batch *b) {
    chunk *c = b->chunks;
    if (c) {
        chunk *rest = c->next;
        while (rest) {
            chunk *n = rest->next;
            free(rest);
            rest = n;
        }
        /* keep the last-allocated chunk only if it is of the usual size */
        if (c->cap != CHUNK_BYTES) {
            free(c);
            c = NULL;
        } else {
            c->next = NULL;
            c->used = 0;
        }
    }
    b->chunks = c;
    b->bytes = 0;
    b->n = b->ndiags = 0;
    b->lost = 0;
    b->end = 0;
}

static void batch_free(batch *b) {
    if (!b) return;
    for (chunk *c = b->chunks; c;) {
        chunk *n = c->next;
        free(c);
        c = n;
    }
    free(b->diags);
    free(b);
}

/* Copy what the event points to outside the string table into the batch
 * (interned strings never move and outlive the batch). */
static bool keep_data(batch *b, tw_event *e) {
    if (tw_str_transient(e->name)) {
        void *t = arena_alloc(b, tw_transient_size(e->name->len));
        if (!t) return false;
        e->name = tw_transient_make(t, e->name->s, e->name->len);
    }
    if (e->msg && !(e->msg = arena_copy(b, e->msg, e->msg_len))) return false;
    if (e->nattrs) {
        tw_attr *a = arena_alloc(b, e->nattrs * sizeof *a);
        if (!a) return false;
        for (size_t i = 0; i < e->nattrs; i++) {
            a[i] = e->attrs[i];
            /* an interned value stays where it is, as names do */
            if (a[i].type == TW_ATTR_STR && a[i].s && !tw_attr_interned(&a[i]) &&
                !(a[i].s = arena_copy(b, a[i].s, a[i].slen)))
                return false;
        }
        e->attrs = a;
    }
    return true;
}

/* ---- diagnostics ----------------------------------------------------------- */

/* The producer's sink: record in the batch being filled, or pass straight on
 * when no batch is being filled (before the start, between two batches
 * read here, after the end). */
static void on_diag(void *user, const tw_diag *d) {
    tw_pump *p = user;
    batch *b = p->filling;
    if (!b) {
        tw_diag_forward(p->out, d);
        return;
    }
    static const char lost[] = "(message lost: out of memory)";
    rdiag r = {.before = p->fill.n, .d = *d};
    r.d.message = arena_copy(b, d->message, strlen(d->message) + 1);
    if (!r.d.message) r.d.message = lost;
    if (!tw_grow(&b->diags, &b->dcap, b->ndiags + 1, sizeof *b->diags, 8)) {
        b->lost++;  /* said, with how many, when the batch is used up */
        return;
    }
    b->diags[b->ndiags++] = r;
}

/* ---- waiting ------------------------------------------------------------------ */

/* Poll until a batch is full or SPINS polls have passed; the consumer then
 * takes the mutex and, if it must, sleeps.  Before it polls, it does the
 * work given it for such times (tw_pump_set_idle()), a step at a time, for
 * as long as there is some and no batch is full. */
static void await_batch(tw_pump *p) {
    if (p->idle_fn)
        while (!atomic_load_explicit(&p->count, memory_order_relaxed) &&
               p->idle_fn(p->idle_user, p->bytes)) {
        }
    for (int i = 0; i < SPINS; i++) {
        if (atomic_load_explicit(&p->count, memory_order_relaxed)) return;
        tw_cpu_relax();
    }
}

/* ---- filling a batch -------------------------------------------------------- */

/* Fill b with runs of events from fn (on the producing thread, or on the
 * consumer's when the pump reads here, `ahead` false): its diagnostics are
 * recorded in it (on_diag()) at their places.  Returns how the batch ends:
 * TW_OK when it is full, else the TW_EOF or TW_ERR that follows its
 * events. */
static int fill(tw_pump *p, batch *b, bool ahead) {
    batch_reset(b);
    /* ahead, the consumer may do the reader's checks (tw_batch.defer_checks) */
    p->fill = (tw_batch){.ev = b->ev, .cap = BATCH_EVENTS, .defer_checks = ahead};
    p->filling = b;
    int rc = TW_OK;
    b->calls = 0;
    while (p->fill.n < BATCH_EVENTS && b->bytes < BATCH_BYTES &&
           !atomic_load_explicit(&p->cancel, memory_order_relaxed)) {
        size_t from = p->fill.n;
        rc = p->fn(p->user, &p->fill);
        b->calls++;
        /* only a run's last event may point into the reader's memory */
        if (p->fill.n > from && !keep_data(b, &b->ev[p->fill.n - 1])) {
            p->fill.n--;  /* not handed over; the report comes in its place */
            tw_report(&p->sink, TW_R_OUT_OF_MEMORY, &b->ev[p->fill.n].loc, "out of memory");
            rc = TW_ERR;
        }
        if (rc != TW_OK) break;
    }
    b->n = p->fill.n;
    b->deferred = p->fill.deferred;
    b->end = rc;
    b->input_bytes = p->bytes_fn(p->user);
    p->filling = NULL;
    return rc;
}

/* ---- the producing thread ---------------------------------------------------- */

static void *produce(void *arg) {
    tw_pump *p = arg;
    for (;;) {
        pthread_mutex_lock(&p->mu);
        while ((atomic_load(&p->count) == NBATCHES || p->parked) && !atomic_load(&p->cancel)) {
            if (p->parked && !p->idle) {  /* the consumer may fill batches now */
                p->idle = true;
                pthread_cond_signal(&p->filled);
            }
            pthread_cond_wait(&p->emptied, &p->mu);
        }
        p->idle = false;
        if (atomic_load(&p->cancel)) {
            pthread_mutex_unlock(&p->mu);
            return NULL;
        }
        batch *b = p->ring[(p->head + atomic_load(&p->count)) % NBATCHES];
        pthread_mutex_unlock(&p->mu);
        int rc = fill(p, b, true);
        pthread_mutex_lock(&p->mu);
        atomic_fetch_add(&p->count, 1);
        pthread_cond_signal(&p->filled);
        pthread_mutex_unlock(&p->mu);
        if (rc != TW_OK) return NULL;
    }
}

/* Stop the thread, wherever it is, and wait for it. */
static void stop(tw_pump *p) {
    pthread_mutex_lock(&p->mu);
    atomic_store(&p->cancel, true);
    pthread_cond_signal(&p->emptied);
    pthread_mutex_unlock(&p->mu);
    pthread_join(p->thread, NULL);
}

/* ---- setting up ------------------------------------------------------------ */

/* The steering's clock (tw_pump_set_clock()). */
static int64_t mono_ns(void *user) {
    (void)user;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

tw_pump *tw_pump_new(tw_diag_sink *out) {
    tw_pump *p = tw_calloc_lines(1, sizeof *p);
    if (!p) return NULL;
    if (pthread_mutex_init(&p->mu, NULL) != 0) {
        free(p);
        return NULL;
    }
    /* `filled` is waited on with a time limit (tw_pump_set_wait()) on the
     * monotonic clock where it can be, else on the default one */
    pthread_condattr_t ca;
    bool mono = pthread_condattr_init(&ca) == 0;
    p->filled_mono = mono && pthread_condattr_setclock(&ca, CLOCK_MONOTONIC) == 0;
    pthread_cond_init(&p->filled, p->filled_mono ? &ca : NULL);
    if (mono) pthread_condattr_destroy(&ca);
    pthread_cond_init(&p->emptied, NULL);
    atomic_init(&p->cancel, false);
    atomic_init(&p->count, 0);
    p->out = out;
    p->clock = mono_ns;
    p->sink.fn = on_diag;
    p->sink.user = p;
    if (out) {  /* what was counted so far counts for tw_diag_stopped() too */
        memcpy(p->sink.count, out->count, sizeof p->sink.count);
        memcpy(p->sink.problems, out->problems, sizeof p->sink.problems);
    }
    return p;
}

tw_diag_sink *tw_pump_sink(tw_pump *p) { return &p->sink; }

/* Allocate the first `n` batches (only at the start: a pump that is never
 * started costs nothing) and take the producing side's functions. */
static bool setup(tw_pump *p, size_t n, tw_pump_fn fn, tw_pump_bytes_fn bytes_fn, void *user) {
    for (size_t i = 0; i < n; i++)
        if (!p->ring[i] && !(p->ring[i] = tw_calloc_lines(1, sizeof *p->ring[i]))) return false;
    p->fn = fn;
    p->bytes_fn = bytes_fn;
    p->user = user;
    return true;
}

bool tw_pump_start_here(tw_pump *p, tw_pump_fn fn, tw_pump_bytes_fn bytes_fn, void *user) {
    if (p->running || !setup(p, 1, fn, bytes_fn, user)) return false;
    p->here = true;
    return true;
}

bool tw_pump_start(tw_pump *p, tw_pump_fn fn, tw_pump_bytes_fn bytes_fn, void *user) {
    /* the batches, a quarter of a megabyte */
    if (p->here || !setup(p, NBATCHES, fn, bytes_fn, user)) return false;
    p->running = true;
    if (pthread_create(&p->thread, NULL, produce, p) != 0) {
        p->running = false;
        return false;
    }
    return true;
}

/* ---- steering ------------------------------------------------------------------ */

/* Park the thread (the consumer fills the batches once it has taken those
 * already filled) or let it fill them again: asked for here, done by
 * take_batch() when the consumer holds no batch (the one it holds may be
 * the one the thread would fill next). */
static void set_parked(tw_pump *p, bool parked) {
    p->want_parked = parked;
    p->measuring = false;
    p->taken = 0;
}

/* The stretch that ends now: its speed, and what comes next. */
static void stretch_over(tw_pump *p, int64_t now) {
    int way = p->want_parked;  /* 0 ahead, 1 here */
    p->rate[way] = (double)(p->bytes - p->b0) / (double)(now - p->t0 > 0 ? now - p->t0 : 1);
    if (!p->probing) {  /* probe the other way */
        p->probing = true;
        p->len = PROBE_NS;
        set_parked(p, !p->want_parked);
        return;
    }
    p->probing = false;
    if (p->rate[way] > p->rate[!way] * MARGIN) {  /* the probe wins: keep it */
        p->len = p->run = RUN_NS;
        p->measuring = false;  /* a stretch of its own, from the next batch */
        p->taken = 0;
        return;
    }
    p->run = 2 * p->run < RUN_MAX_NS ? 2 * p->run : RUN_MAX_NS;  /* the way before, for longer */
    p->len = p->run;
    set_parked(p, !p->want_parked);
}

/* After the consumer took a batch (filled here or not): measure, and
 * switch between reading ahead and reading here when the measures say so.
 * A stretch is measured from its first batch filled its way (reading here,
 * the batches the thread filled before it was parked come first). */
static void steer(tw_pump *p, bool filled_here) {
    if (filled_here != p->want_parked) return;  /* the ring is not yet drained */
    p->taken++;
    if (p->switch_every) {
        if (p->taken == p->switch_every) {
            set_parked(p, !p->want_parked);
            /* the stretches read here count in turn as probes and not */
            p->probing = p->want_parked && !(p->heres++ & 1);
        }
        return;
    }
    if (!p->measuring) {
        p->measuring = true;
        p->t0 = p->clock(p->clock_user);
        p->b0 = p->bytes;
        p->taken = 0;
        return;
    }
    if (p->taken % CLOCK_EVERY) return;
    if (p->probing && p->taken < PROBE_BATCHES) return;
    if (!p->first_done && p->bytes - p->b0 < FIRST_BYTES) return;
    int64_t now = p->clock(p->clock_user);
    if (now - p->t0 < p->len) return;
    p->first_done = true;
    stretch_over(p, now);
}

void tw_pump_steer(tw_pump *p, unsigned switch_every) {
    p->steer = true;
    p->len = p->run = FIRST_NS;
    p->switch_every = switch_every;
}

void tw_pump_set_idle(tw_pump *p, tw_pump_idle_fn fn, void *user) {
    p->idle_fn = fn;
    p->idle_user = user;
}

void tw_pump_set_wait(tw_pump *p, tw_wait_fn fn, void *user) {
    p->wait_fn = fn;
    p->wait_user = user;
}

void tw_pump_set_clock(tw_pump *p, tw_pump_clock_fn clock, void *user) {
    p->clock = clock;
    p->clock_user = user;
}

/* ---- the consumer ---------------------------------------------------------------- */

/* The consumer's wait for the reading thread (p->mu held).  With a wait
 * function, the wait is woken every TW_WAIT_TICK_MS, and the function is
 * called (without the lock) after every wait, woken or not: a reading
 * thread that fills batches quickly from a slow pipe, one every 100 ms
 * say, has the clock read at each.  The caller checks again what it waits
 * for. */
static void wait_filled(tw_pump *p) {
    struct timespec t;
    if (!p->wait_fn ||
        clock_gettime(p->filled_mono ? CLOCK_MONOTONIC : CLOCK_REALTIME, &t) != 0) {
        pthread_cond_wait(&p->filled, &p->mu);
    } else {
        t.tv_nsec += (long)TW_WAIT_TICK_MS * 1000000L;
        if (t.tv_nsec >= 1000000000L) {
            t.tv_sec++;
            t.tv_nsec -= 1000000000L;
        }
        int rc = pthread_cond_timedwait(&p->filled, &p->mu, &t);
        if (rc != 0 && rc != ETIMEDOUT) pthread_cond_wait(&p->filled, &p->mu); /* (EINVAL) */
    }
    if (p->wait_fn) {
        pthread_mutex_unlock(&p->mu);
        p->wait_fn(p->wait_user);
        pthread_mutex_lock(&p->mu);
    }
}

/* The next batch with events for the consumer (reading on a thread): the
 * ring's next; or, with the thread parked and idle, one filled here. */
static batch *take_batch(tw_pump *p) {
    if (p->want_parked != p->parked) {
        pthread_mutex_lock(&p->mu);
        p->parked = p->want_parked;
        if (!p->parked) pthread_cond_signal(&p->emptied);
        pthread_mutex_unlock(&p->mu);
    }
    if (!p->parked) await_batch(p);
    pthread_mutex_lock(&p->mu);
    while (atomic_load(&p->count) == 0 && !(p->parked && p->idle)) wait_filled(p);
    bool ring = atomic_load(&p->count) > 0;
    batch *b = p->ring[p->head];  /* empty when filled here: nobody else fills it */
    pthread_mutex_unlock(&p->mu);
    p->reading_here = !ring;
    if (!ring) {
        uint64_t before = p->bytes;
        fill(p, b, false);
        p->here_bytes += b->input_bytes - before;
        if (p->probing) p->probe_bytes += b->input_bytes - before;
    }
    return b;
}

bool tw_pump_run_deferred(const tw_pump *p) { return p->reading && p->reading->deferred; }

int tw_pump_next_run(tw_pump *p, const tw_event **ev, size_t *n) {
    for (;;) {
        if (p->end) return p->end;
        batch *b = p->reading;
        if (!b) {
            if (p->here) {  /* the one batch, filled now */
                b = p->ring[0];
                fill(p, b, false);
            } else {
                b = take_batch(p);
            }
            p->reading = b;
            p->ri = p->rdi = 0;
            p->bytes = b->input_bytes;
            if (p->steer && !b->end) steer(p, p->reading_here);
        }
        while (p->rdi < b->ndiags && b->diags[p->rdi].before <= p->ri)
            tw_diag_forward(p->out, &b->diags[p->rdi++].d);
        if (p->ri < b->n) {
            /* up to the next diagnostic's place: it is passed on first */
            size_t end = p->rdi < b->ndiags && b->diags[p->rdi].before < b->n
                             ? b->diags[p->rdi].before
                             : b->n;
            *ev = &b->ev[p->ri];  /* the batch is given back at the call after its last */
            *n = end - p->ri;
            p->ri = end;
            return TW_OK;
        }
        /* the batch is used up: say what could not be kept, give it back */
        if (b->lost) {
            char msg[96];
            snprintf(msg, sizeof msg, "%llu diagnostics lost: out of memory",
                     (unsigned long long)b->lost);
            tw_diag d = {.rule = TW_R_OUT_OF_MEMORY, .rule_id = tw_rule_get(TW_R_OUT_OF_MEMORY)->id,
                         .severity = tw_rule_get(TW_R_OUT_OF_MEMORY)->severity, .message = msg};
            tw_diag_forward(p->out, &d);
        }
        int end = b->end;
        p->reading = NULL;
        if (p->here) {
            p->end = end;
            if (!end && b->n < RUN_MIN * b->calls) return p->end = TW_PUMP_STEP;
            continue;
        }
        if (!p->reading_here) {
            pthread_mutex_lock(&p->mu);
            p->head = (p->head + 1) % NBATCHES;
            atomic_fetch_sub(&p->count, 1);
            pthread_cond_signal(&p->emptied);
            pthread_mutex_unlock(&p->mu);
        }
        if (end) {
            if (p->reading_here) stop(p);  /* parked: it reads no more */
            else pthread_join(p->thread, NULL);  /* it returned after this batch */
            p->running = false;
            p->end = end;
        }
    }
}

uint64_t tw_pump_bytes(const tw_pump *p) { return p->bytes; }

bool tw_pump_ahead(const tw_pump *p) {
    /* in a probe, the way before it */
    return !p->here && p->fn && (p->probing ? p->want_parked : !p->want_parked);
}

uint64_t tw_pump_here_bytes(const tw_pump *p, uint64_t *probed) {
    *probed = p->probe_bytes;
    return p->here_bytes;
}

void tw_pump_free(tw_pump *p) {
    if (!p) return;
    if (p->running) stop(p);
    pthread_cond_destroy(&p->filled);
    pthread_cond_destroy(&p->emptied);
    pthread_mutex_destroy(&p->mu);
    for (size_t i = 0; i < NBATCHES; i++) batch_free(p->ring[i]);
    free(p);
}
