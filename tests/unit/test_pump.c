/* The pump's steering (tw_pump_steer()) against a simulated machine: a
 * reader whose events cost, on the clock the pump is given, so many ns
 * when made on the consumer's thread and so many when made ahead on the
 * pump's, so that which way pays is known to the test. */
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

#include "core/pump.h"
#include "harness.h"

#define SIM_BYTES 128 /* input bytes per event */

typedef struct sim {
    pthread_t consumer;
    const tw_str *name;
    uint64_t total;                  /* events to make */
    uint64_t made;                   /* the filling thread's */
    uint64_t flip;                   /* from this event on, the costs after */
    int64_t here[2], ahead[2];       /* ns per event made here / ahead, before and after */
    atomic_llong clock;              /* the simulated time, ns */
} sim;

static int sim_fill(void *user, tw_batch *b) {
    sim *s = user;
    bool here = pthread_equal(pthread_self(), s->consumer);
    while (b->n < b->cap && s->made < s->total) {
        int after = s->made >= s->flip;
        atomic_fetch_add(&s->clock, here ? s->here[after] : s->ahead[after]);
        b->ev[b->n++] = (tw_event){.ts = (int64_t)s->made++, .pid = 1, .tid = 1,
                                   .kind = TW_INSTANT, .name = s->name};
    }
    return s->made < s->total ? TW_OK : TW_EOF;
}

static uint64_t sim_bytes(void *user) { return ((sim *)user)->made * SIM_BYTES; }

static int64_t sim_clock(void *user) { return atomic_load(&((sim *)user)->clock); }

/* Take every event from p to its end (TW_EOF), each checked to come in
 * order (its ts counts from 0): how many there were. */
static int64_t take_all(tw_pump *p) {
    const tw_event *ev;
    size_t n;
    int64_t want = 0;
    bool in_order = true;
    int rc;
    while ((rc = tw_pump_next_run(p, &ev, &n)) == TW_OK)
        for (size_t i = 0; i < n; i++) in_order &= ev[i].ts == want++;
    CHECK_EQ_I(rc, TW_EOF);
    CHECK(in_order);
    return want;
}

/* Run the simulation; how many bytes were read here, of them *probed in
 * probes, and whether the last batch was read ahead. */
static uint64_t sim_run(sim *s, uint64_t *probed, bool *ahead_at_end) {
    tw_strtab *st = tw_strtab_new();
    s->name = tw_intern_cstr(st, "sim");
    s->consumer = pthread_self();
    atomic_init(&s->clock, 0);
    tw_diag_sink sink = {0};
    tw_pump *p = tw_pump_new(&sink);
    uint64_t here = 0;
    *probed = 0;
    if (!p || !tw_pump_start(p, sim_fill, sim_bytes, s)) {
        CHECK(!"the pump starts");
        tw_pump_free(p);
        tw_strtab_free(st);
        return 0;
    }
    tw_pump_set_clock(p, sim_clock, s);
    tw_pump_steer(p, 0);
    CHECK_EQ_I(take_all(p), (int64_t)s->total);
    CHECK_EQ_U(tw_pump_bytes(p), s->total * SIM_BYTES);
    here = tw_pump_here_bytes(p, probed);
    *ahead_at_end = tw_pump_ahead(p);
    tw_pump_free(p);
    tw_strtab_free(st);
    return here;
}

void test_pump_steering(void) {
    /* 3.2 million events of 128 bytes, 400 MiB: about a second of
     * simulated time at 250-500 ns an event */
    enum { N = 3200000 };
    const uint64_t all = (uint64_t)N * SIM_BYTES;
    uint64_t probed, here;
    bool ahead;

    /* one thread a third faster all along: after the first stretch ahead
     * (200 ms) and the probe that finds it, most is read here; the probes
     * of reading ahead again (10 ms each) lose and read nothing here */
    sim faster_here = {.total = N, .flip = N, .here = {250, 250}, .ahead = {375, 375}};
    here = sim_run(&faster_here, &probed, &ahead);
    CHECK(here - probed > all / 10 * 6);
    CHECK(probed > 0 && probed < all / 50);
    CHECK(!ahead);

    /* reading ahead faster all along: one thread reads in probes only,
     * a few per cent at most, and the last batches are read ahead */
    sim faster_ahead = {.total = N, .flip = N, .here = {375, 375}, .ahead = {250, 250}};
    here = sim_run(&faster_ahead, &probed, &ahead);
    CHECK(here > 0);
    CHECK_EQ_U(here, probed);
    CHECK(here < all / 25);
    CHECK(ahead);

    /* within the margin (5 % faster here): reading ahead stays */
    sim close = {.total = N, .flip = N, .here = {238, 238}, .ahead = {250, 250}};
    here = sim_run(&close, &probed, &ahead);
    CHECK_EQ_U(here, probed);
    CHECK(ahead);

    /* a second CPU that stops paying half way (the host's other load):
     * the probe after the stretch in which it changed (100, 200 and 400 ms
     * ahead: that one ends some 300 ms after the change, at 250 and then
     * 500 ns an event) finds it, and one thread reads the rest, a quarter
     * of the input or more */
    sim spell = {.total = N, .flip = N / 2, .here = {375, 250}, .ahead = {250, 500}};
    here = sim_run(&spell, &probed, &ahead);
    CHECK(here - probed > all / 5);
    CHECK(!ahead);

    /* and one that starts paying half way: reading ahead comes back */
    sim recovers = {.total = N, .flip = N / 2, .here = {250, 375}, .ahead = {500, 250}};
    here = sim_run(&recovers, &probed, &ahead);
    CHECK(here - probed > all / 10 * 2);
    CHECK(ahead);
}

/* ---- the consumer's work while it waits (tw_pump_set_idle()) ---- */

typedef struct slow {
    pthread_t consumer;
    const tw_str *name;
    uint64_t made, total;  /* the filling thread's */
    /* the idle work's: calls, on the consumer's thread only, with the
     * bytes behind a batch taken, never fewer than the call before */
    uint64_t calls, last_bytes;
    bool wrong_thread, went_back, odd_bytes;
} slow;

/* 64 events a call, a pause after each on the filling thread: the
 * consumer keeps waiting for it */
static int slow_fill(void *user, tw_batch *b) {
    slow *s = user;
    for (int k = 0; k < 64 && b->n < b->cap && s->made < s->total; k++)
        b->ev[b->n++] = (tw_event){.ts = (int64_t)s->made++, .pid = 1, .tid = 1,
                                   .kind = TW_INSTANT, .name = s->name};
    if (!pthread_equal(pthread_self(), s->consumer)) {
        struct timespec pause = {0, 50000};
        nanosleep(&pause, NULL);
    }
    return s->made < s->total ? TW_OK : TW_EOF;
}

static uint64_t slow_bytes(void *user) { return ((slow *)user)->made * SIM_BYTES; }

static bool slow_idle(void *user, uint64_t bytes) {
    slow *s = user;
    s->wrong_thread |= !pthread_equal(pthread_self(), s->consumer);
    s->went_back |= bytes < s->last_bytes;
    /* a batch ends at a multiple of 512 events, or at the end */
    s->odd_bytes |= bytes % (512 * SIM_BYTES) != 0 && bytes != s->total * SIM_BYTES;
    s->last_bytes = bytes;
    return ++s->calls % 4 != 0;  /* three steps of work, then none, in turn */
}

void test_pump_idle(void) {
    /* a reader slower than its consumer: while the consumer waits, it does
     * the idle work, on its own thread, with the input bytes behind the
     * batch it took last; the events come as ever */
    tw_strtab *st = tw_strtab_new();
    slow s = {.consumer = pthread_self(), .name = tw_intern_cstr(st, "slow"), .total = 20000};
    tw_diag_sink sink = {0};
    tw_pump *p = tw_pump_new(&sink);
    CHECK(p != NULL);
    tw_pump_set_idle(p, slow_idle, &s);
    CHECK(tw_pump_start(p, slow_fill, slow_bytes, &s));
    CHECK_EQ_I(take_all(p), 20000);
    CHECK(s.calls > 0);
    CHECK(!s.wrong_thread);
    CHECK(!s.went_back);
    CHECK(!s.odd_bytes);
    CHECK(s.last_bytes > 0);
    tw_pump_free(p);
    tw_strtab_free(st);
}
