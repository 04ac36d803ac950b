/* Unit tests of the pairing and statistics engines, with hand-computed
 * expectations (the arithmetic is written next to each check). */
#include <stdlib.h>

#include "harness.h"
#include "stats/pairing_impl.h"

/*
 * Feed events written as "TID KIND NAME TS; ..." where KIND is B (begin),
 * E (end), S (suspend), R (resume), I (instant) or N (a thread_name
 * metadata event naming the thread NAME; "-" for an empty name).  pid is
 * always 1.
 */
typedef struct run {
    tu_diags d;
    tw_strtab *names;
    tw_stats *stats;
} run;

/* With a time jitter tolerated on each thread. */
static void feed_j(run *r, int64_t jitter, const char *script) {
    tu_diags_init(&r->d);
    r->names = tw_strtab_new();
    r->stats = tw_stats_new(&r->d.sink);
    tw_stats_set_jitter(r->stats, jitter);
    char buf[2048];
    snprintf(buf, sizeof buf, "%s", script);
    uint64_t line = 0;
    for (char *tok = strtok(buf, ";"); tok; tok = strtok(NULL, ";")) {
        unsigned long long tid;
        char kind, name[64];
        long long ts;
        if (sscanf(tok, " %llu %c %63s %lld", &tid, &kind, name, &ts) != 4) {
            tu_fail(__FILE__, __LINE__, "bad script item '%s'", tok);
            continue;
        }
        tw_event ev;
        memset(&ev, 0, sizeof ev);
        ev.kind = kind == 'B' ? TW_BEGIN : kind == 'E' ? TW_END : kind == 'S' ? TW_SUSPEND
                  : kind == 'R' ? TW_RESUME : kind == 'N' ? TW_META : TW_INSTANT;
        ev.pid = 1;
        ev.tid = tid;
        ev.ts = ts;
        ev.name = tw_intern_cstr(r->names, name);
        if (kind == 'N') {
            ev.name = tw_intern_cstr(r->names, TW_META_THREAD_NAME);
            ev.msg = name;
            ev.msg_len = strcmp(name, "-") ? strlen(name) : 0;
        }
        ev.loc.kind = TW_LOC_TEXT;
        ev.loc.file = "t";
        ev.loc.line = ++line;
        ev.loc.col = 1;
        CHECK_EQ_I(tw_stats_event(r->stats, &ev), TW_OK);
    }
    CHECK_EQ_I(tw_stats_finish(r->stats), TW_OK);
}

static void feed(run *r, const char *script) { feed_j(r, 0, script); }

static void done(run *r) {
    tw_stats_free(r->stats);
    tw_strtab_free(r->names);
}

static const tw_scope_stats *row(run *r, uint64_t tid, const char *name) {
    for (size_t i = 0; i < tw_stats_scope_count(r->stats); i++) {
        const tw_scope_stats *s = tw_stats_scope(r->stats, i);
        if (s->tid == tid && strcmp(s->name, name) == 0) return s;
    }
    tu_fail(__FILE__, __LINE__, "no row for %s on thread %llu", name, (unsigned long long)tid);
    static tw_scope_stats none;
    return &none;
}

/* total, sum, min, max, n */
#define CHECK_STAT(st, t, su, mi, ma, nn)  \
    do {                                   \
        CHECK_EQ_I((st).total, (t));       \
        CHECK_EQ_I((st).sum, (su));        \
        CHECK_EQ_I((st).min, (mi));        \
        CHECK_EQ_I((st).max, (ma));        \
        CHECK_EQ_U((st).n, (nn));          \
    } while (0)

void test_stats_nesting(void) {
    run r;
    feed(&r, "1 B a 0; 1 B b 10; 1 B c 20; 1 E c 25; 1 E b 40; 1 B b 50; 1 E b 60; 1 E a 100");
    /* c: call 5, no children: net 5 */
    const tw_scope_stats *c = row(&r, 1, "c");
    CHECK_EQ_U(c->count, 1);
    CHECK_STAT(c->net, 5, 5, 5, 5, 1);
    /* b#1: call 30, net 30-5 = 25; b#2: call 10, net 10 */
    const tw_scope_stats *b = row(&r, 1, "b");
    CHECK_EQ_U(b->count, 2);
    CHECK_STAT(b->net, 35, 35, 10, 25, 2);
    CHECK_STAT(b->gross, 40, 40, 10, 30, 2);
    CHECK_STAT(b->call, 40, 40, 10, 30, 2);
    CHECK_EQ_I(tw_stat_avg(&b->net), 18); /* 17.5 rounds up */
    CHECK_STAT(b->period, 0, 40, 40, 40, 1);   /* entries 10 -> 50 */
    CHECK_STAT(b->outside, 10, 10, 10, 10, 1); /* exit 40 -> entry 50 */
    /* a: call 100, net 100 - (30 + 10) = 60 */
    const tw_scope_stats *a = row(&r, 1, "a");
    CHECK_STAT(a->net, 60, 60, 60, 60, 1);
    CHECK_STAT(a->gross, 100, 100, 100, 100, 1);
    CHECK_EQ_U(a->period.n, 0);
    CHECK_EQ_U(a->outside.n, 0);
    CHECK_EQ_U(r.d.n, 0);
    /* rows in order of first entry */
    CHECK_STR(tw_stats_scope(r.stats, 0)->name, "a");
    CHECK_STR(tw_stats_scope(r.stats, 2)->name, "c");
    CHECK_EQ_U(tw_stats_event_count(r.stats), 8);
    done(&r);
}

void test_stats_thread_names(void) {
    run r;
    /* thread 1 named "boot", renamed "main" while a runs; thread 2 never
     * named; thread 3 named "x", then "" (no name) */
    feed(&r, "1 N boot 0; 1 B a 0; 2 B b 1; 2 E b 2; 1 N main 5; 3 N x 0; 3 N - 1; "
             "3 B c 2; 3 E c 3; 1 E a 10");
    const tw_scope_stats *a = row(&r, 1, "a");
    CHECK(a->thread_name != NULL);
    CHECK_EQ_U(a->thread_name_len, 4);
    if (a->thread_name) CHECK_STR(a->thread_name, "main");  /* the latest name */
    CHECK(row(&r, 2, "b")->thread_name == NULL);
    CHECK_EQ_U(row(&r, 2, "b")->thread_name_len, 0);
    CHECK(row(&r, 3, "c")->thread_name == NULL);
    CHECK_EQ_U(tw_stats_event_count(r.stats), 10); /* the names are events too */
    CHECK_EQ_U(tw_stats_thread_count(r.stats), 3);
    CHECK_EQ_U(r.d.n, 0);
    done(&r);
}

void test_stats_recursion(void) {
    run r;
    /* direct: f3 call 10 net 10; f2 call 40 net 30; f1 call 100 net 60 */
    feed(&r, "1 B f 0; 1 B f 10; 1 B f 20; 1 E f 30; 1 E f 50; 1 E f 100");
    const tw_scope_stats *f = row(&r, 1, "f");
    CHECK_EQ_U(f->count, 3);
    CHECK_STAT(f->net, 100, 100, 10, 60, 3);    /* self time never overlaps */
    CHECK_STAT(f->gross, 100, 150, 10, 100, 3); /* total: outermost only */
    CHECK_STAT(f->call, 100, 150, 10, 100, 3);
    CHECK_EQ_I(tw_stat_avg(&f->gross), 50);
    CHECK_STAT(f->period, 0, 20, 10, 10, 2);
    CHECK_EQ_U(f->outside.n, 0);
    done(&r);
    /* indirect: f -> g -> f; inner f call 10 net 10, g call 30 net 20,
     * outer f call 100 net 70 */
    feed(&r, "1 B f 0; 1 B g 10; 1 B f 20; 1 E f 30; 1 E g 40; 1 E f 100");
    f = row(&r, 1, "f");
    CHECK_STAT(f->net, 80, 80, 10, 70, 2);
    CHECK_STAT(f->gross, 100, 110, 10, 100, 2);
    CHECK_STAT(f->period, 0, 20, 20, 20, 1);
    const tw_scope_stats *g = row(&r, 1, "g");
    CHECK_STAT(g->net, 20, 20, 20, 20, 1);
    CHECK_STAT(g->gross, 30, 30, 30, 30, 1);
    CHECK_EQ_U(r.d.n, 0);
    done(&r);
}

void test_stats_zero_length(void) {
    run r;
    feed(&r, "1 B a 5; 1 E a 5; 1 B a 5; 1 E a 5");
    const tw_scope_stats *a = row(&r, 1, "a");
    CHECK_EQ_U(a->count, 2);
    CHECK_STAT(a->net, 0, 0, 0, 0, 2);
    CHECK_STAT(a->period, 0, 0, 0, 0, 1);
    CHECK_STAT(a->outside, 0, 0, 0, 0, 1);
    CHECK_EQ_U(r.d.n, 0);
    done(&r);
}

void test_stats_repairs(void) {
    run r;
    /* the end of a closes b at 30 (unclosed-scope); an end of x matches
     * nothing (unmatched-end) */
    feed(&r, "1 B a 0; 1 B b 10; 1 E x 20; 1 E a 30");
    const tw_scope_stats *b = row(&r, 1, "b");
    CHECK_EQ_U(b->count, 1);
    CHECK_EQ_U(b->incomplete, 1);
    CHECK_STAT(b->call, 20, 20, 20, 20, 1);
    const tw_scope_stats *a = row(&r, 1, "a");
    CHECK_EQ_U(a->incomplete, 0);
    CHECK_STAT(a->net, 10, 10, 10, 10, 1);
    CHECK_EQ_U(r.d.n, 2);
    CHECK_STR(r.d.rule[0], "unmatched-end");
    CHECK_EQ_U(r.d.line[0], 3);
    CHECK_STR(r.d.msg[0], "end of 'x' matches no open scope on thread 1; ignored");
    CHECK_STR(r.d.rule[1], "unclosed-scope");
    CHECK_EQ_U(r.d.line[1], 2); /* where b began */
    CHECK_STR(r.d.msg[1], "scope 'b' has no end of its own; closed by the end of 'a' at line 4");
    done(&r);
    /* still open at the end: closed at the end of the trace, the last time
     * seen on any thread of the process (50, an instant on thread 1), also
     * on thread 2, whose own last time is 7 */
    feed(&r, "1 B a 0; 1 B b 10; 2 B c 5; 2 I tick 7; 1 I tick 50");
    b = row(&r, 1, "b");
    CHECK_STAT(b->call, 40, 40, 40, 40, 1);
    CHECK_EQ_U(b->incomplete, 1);
    a = row(&r, 1, "a");
    CHECK_STAT(a->call, 50, 50, 50, 50, 1);
    CHECK_STAT(a->net, 10, 10, 10, 10, 1);
    CHECK_STAT(row(&r, 2, "c")->call, 45, 45, 45, 45, 1);
    CHECK_EQ_U(r.d.n, 3);
    CHECK_STR(r.d.rule[0], "unclosed-at-eof");
    CHECK_STR(r.d.msg[0], "scope 'b' is still open at the end of the input; closed at the end "
                          "of the trace, 50 ns");
    CHECK_EQ_U(tw_stats_thread_count(r.stats), 2);
    done(&r);
    /* an end before its begin counts as 0, even across the whole int64 range */
    feed(&r, "1 B a 10; 1 E a 4; 1 B b 9223372036854775807; 1 E b -9223372036854775808");
    CHECK_STAT(row(&r, 1, "a")->call, 0, 0, 0, 0, 1);
    CHECK_EQ_U(r.d.n, 2);
    CHECK_STR(r.d.msg[0], "scope 'a' ends 6 ns before it begins; its duration counts as 0");
    CHECK_STR(r.d.msg[1], "scope 'b' ends 9223372036854775807 ns before it begins; its duration "
                          "counts as 0");
    done(&r);
}

void test_stats_threads(void) {
    run r;
    /* the same names on two threads, interleaved: separate stacks and rows */
    feed(&r, "1 B a 0; 2 B a 5; 1 B b 10; 2 E a 15; 1 E b 20; 2 B a 25; 1 E a 30; 2 E a 35");
    const tw_scope_stats *a1 = row(&r, 1, "a"), *a2 = row(&r, 2, "a");
    CHECK_STAT(a1->net, 20, 20, 20, 20, 1);    /* 30 - (20 - 10) */
    CHECK_STAT(a2->net, 20, 20, 10, 10, 2);    /* 10 + 10 */
    CHECK_STAT(a2->period, 0, 20, 20, 20, 1);  /* 5 -> 25 */
    CHECK_STAT(a2->outside, 10, 10, 10, 10, 1); /* 15 -> 25 */
    CHECK_EQ_U(a1->period.n, 0);
    CHECK_EQ_U(r.d.n, 0);
    CHECK_EQ_U(tw_stats_thread_count(r.stats), 2);
    int64_t first, last;
    CHECK(tw_stats_bounds(r.stats, &first, &last));
    CHECK_EQ_I(first, 0);
    CHECK_EQ_I(last, 35);
    done(&r);
}

void test_stats_preemption(void) {
    run r;
    /* suspended 10..30 with no child begin: preempted, gross 50 - 20 */
    feed(&r, "1 B a 0; 1 S a 10; 1 R a 30; 1 E a 50");
    const tw_scope_stats *a = row(&r, 1, "a");
    CHECK_STAT(a->call, 50, 50, 50, 50, 1);
    CHECK_STAT(a->gross, 30, 30, 30, 30, 1);
    CHECK_STAT(a->net, 30, 30, 30, 30, 1);
    done(&r);
    /* suspended for a call: b runs 10..20; nothing is preempted */
    feed(&r, "1 B a 0; 1 S a 10; 1 B b 10; 1 E b 20; 1 R a 20; 1 E a 50");
    a = row(&r, 1, "a");
    CHECK_STAT(a->gross, 50, 50, 50, 50, 1);
    CHECK_STAT(a->net, 40, 40, 40, 40, 1);
    CHECK_STAT(row(&r, 1, "b")->gross, 10, 10, 10, 10, 1);
    done(&r);
    /* preemption inside b also leaves a's gross: b call 25 gross 15;
     * a call 40 gross 30 net 30 - 15 */
    feed(&r, "1 B a 0; 1 B b 5; 1 S b 10; 1 R b 20; 1 E b 30; 1 E a 40");
    CHECK_STAT(row(&r, 1, "b")->gross, 15, 15, 15, 15, 1);
    CHECK_STAT(row(&r, 1, "b")->call, 25, 25, 25, 25, 1);
    a = row(&r, 1, "a");
    CHECK_STAT(a->gross, 30, 30, 30, 30, 1);
    CHECK_STAT(a->net, 15, 15, 15, 15, 1);
    CHECK_EQ_U(r.d.n, 0);
    done(&r);
    /* a suspend before the running scope began, and a resume before its
     * suspend, are time running backwards: reported, nothing preempted */
    feed(&r, "1 B a 100; 1 S a 0; 1 R a 50; 1 E a 200; 1 B b 300; 1 S b 310; 1 R b 305; 1 E b 320");
    CHECK_STAT(row(&r, 1, "a")->gross, 100, 100, 100, 100, 1);
    CHECK_STAT(row(&r, 1, "b")->gross, 20, 20, 20, 20, 1);
    CHECK_EQ_U(r.d.n, 2);
    CHECK_STR(r.d.msg[0], "suspend of 'a' comes 100 ns before the begin of the running scope; "
                          "ignored");
    CHECK_STR(r.d.msg[1], "resume of 'b' comes 5 ns before its suspend; no preemption counted");
    done(&r);
    /* another thread's events do not end a suspension */
    feed(&r, "1 B a 0; 1 S a 10; 2 B x 12; 2 E x 14; 1 R a 30; 1 E a 50; 1 S zz 60");
    CHECK_STAT(row(&r, 1, "a")->gross, 30, 30, 30, 30, 1);
    CHECK_EQ_U(r.d.n, 1);
    CHECK_STR(r.d.rule[0], "unmatched-suspend");
    CHECK_STR(r.d.msg[0], "suspend of 'zz' matches no open scope on thread 1; ignored");
    done(&r);
}

static char hook_log[512];

static void log_open(void *user, const tw_frame *f) {
    (void)user;
    size_t n = strlen(hook_log);
    snprintf(hook_log + n, sizeof hook_log - n, "+%s@%lld/%zu ", f->name->s, (long long)f->begin,
             f->depth);
}

static void log_close(void *user, const tw_frame *f, int64_t end, tw_close_how how,
                      const tw_scope_times *t) {
    (void)user;
    size_t n = strlen(hook_log);
    snprintf(hook_log + n, sizeof hook_log - n, "-%s@%lld%s(%lld,%lld,%lld) ", f->name->s,
             (long long)end, how == TW_CLOSED_BY_END ? "" : how == TW_CLOSED_BY_OUTER ? "!" : "$",
             (long long)t->call, (long long)t->gross, (long long)t->net);
}

/* An event for feed_pairing(). */
typedef struct pair_ev {
    tw_kind k;
    const char *name;
    int64_t ts;
    uint32_t pid;
    uint64_t tid;
} pair_ev;

/* Feed v[0..n) to p, names interned in st, then finish. */
static void feed_pairing(tw_pairing *p, tw_strtab *st, const pair_ev *v, size_t n) {
    for (size_t i = 0; i < n; i++) {
        tw_event ev;
        memset(&ev, 0, sizeof ev);
        ev.kind = v[i].k;
        ev.name = tw_intern_cstr(st, v[i].name);
        ev.ts = v[i].ts;
        ev.pid = v[i].pid;
        ev.tid = v[i].tid;
        CHECK_EQ_I(tw_pairing_event(p, &ev), TW_OK);
    }
    CHECK_EQ_I(tw_pairing_finish(p), TW_OK);
}

void test_stats_pairing_hooks(void) {
    /* the pairing engine alone: opens, then closes innermost first, with the
     * way each scope was closed (! by an outer end, $ at the end of input:
     * at the trace_end, later than any event) */
    hook_log[0] = '\0';
    tu_diags d;
    tu_diags_init(&d);
    tw_strtab *st = tw_strtab_new();
    tw_pairing_hooks h = {.open = log_open, .close = log_close};
    tw_pairing *p = tw_pairing_new(&h, &d.sink);
    static const pair_ev evs[] = {{TW_BEGIN, "a", 0, 0, 7},        {TW_BEGIN, "b", 1, 0, 7},
                                  {TW_BEGIN, "c", 2, 0, 7},        {TW_END, "a", 3, 0, 7},
                                  {TW_BEGIN, "d", 4, 0, 7},        {TW_META, "trace_end", 9, 0, 7}};
    feed_pairing(p, st, evs, sizeof evs / sizeof evs[0]);
    CHECK_STR(hook_log, "+a@0/0 +b@1/1 +c@2/2 -c@3!(1,1,1) -b@3!(2,2,1) -a@3(3,3,1) +d@4/0 "
                        "-d@9$(5,5,5) ");
    /* metadata events are not on a thread */
    CHECK_EQ_U(tw_pairing_thread_count(p), 1);
    uint32_t pid;
    uint64_t tid;
    tw_pairing_thread(p, 0, &pid, &tid);
    CHECK_EQ_U(tid, 7);
    CHECK_EQ_U(d.n, 3);
    tw_pairing_free(p);

    /* two processes: each scope is closed at its own process's end, the
     * later of its trace_end (process 1: 20, after its last event at 12)
     * and its threads' last times (process 2: 30 on thread 2, its
     * trace_end 25 earlier) */
    hook_log[0] = '\0';
    tu_diags_init(&d);
    p = tw_pairing_new(&h, &d.sink);
    static const pair_ev two[] = {{TW_BEGIN, "p1", 10, 1, 1},  {TW_BEGIN, "q1", 11, 1, 2},
                                  {TW_INSTANT, "i", 12, 1, 1}, {TW_META, "trace_end", 20, 1, 0},
                                  {TW_BEGIN, "p2", 5, 2, 1},   {TW_INSTANT, "i", 30, 2, 2},
                                  {TW_META, "trace_end", 25, 2, 0}};
    feed_pairing(p, st, two, sizeof two / sizeof two[0]);
    CHECK_STR(hook_log, "+p1@10/0 +q1@11/0 +p2@5/0 -p1@20$(10,10,10) -q1@20$(9,9,9) "
                        "-p2@30$(25,25,25) ");
    CHECK_EQ_U(d.n, 3);
    CHECK_STR(d.msg[0], "scope 'p1' is still open at the end of the input; closed at the end of "
                        "the trace of process 1, 20 ns");
    CHECK_STR(d.msg[2], "scope 'p2' is still open at the end of the input; closed at the end of "
                        "the trace of process 2, 30 ns");
    tw_pairing_free(p);
    tw_strtab_free(st);
}

void test_stat_arithmetic(void) {
    tw_stat a = {0}, b = {0};
    CHECK_EQ_I(tw_stat_avg(&a), 0);
    tw_stat_add(&a, 5, true);
    tw_stat_add(&a, 10, false);
    CHECK_STAT(a, 5, 15, 5, 10, 2);
    CHECK_EQ_I(tw_stat_avg(&a), 8); /* 7.5 rounds up */
    tw_stat_add(&b, -4, true);
    tw_stat_merge(&a, &b);
    CHECK_STAT(a, 1, 11, -4, 10, 3);
    tw_stat empty = {0};
    tw_stat_merge(&a, &empty); /* no values: min and max stay */
    CHECK_STAT(a, 1, 11, -4, 10, 3);
    tw_stat big = {0};
    tw_stat_add(&big, INT64_MAX, true);
    tw_stat_add(&big, INT64_MAX, true); /* saturates instead of wrapping */
    CHECK_EQ_I(big.sum, INT64_MAX);
    CHECK_EQ_I(big.total, INT64_MAX);
}

void test_profile_api(void) {
    /* the report through the library alone: rows, filter, group, sort, top,
     * and a JSON round trip that keeps every figure */
    run r;
    feed(&r, "1 B a 0; 1 E a 10; 2 B a 0; 2 E a 30; 2 B b 40; 2 E b 45; 3 B c 50; 3 E c 51");
    tw_profile *p = tw_profile_new();
    tw_trace_info info = {.format = "jsonl", .resolution_ns = 1};
    CHECK_EQ_I(tw_profile_add_input(p, "in.jsonl", "jsonl"), TW_OK);
    CHECK_EQ_I(tw_profile_add_stats(p, r.stats, &info, &r.d.sink), TW_OK);
    CHECK_EQ_U(tw_profile_row_count(p), 4); /* per thread: a@1, a@2, b@2, c@3 */
    tw_row_filter f = {.has_tid = true, .tid = 2};
    tw_profile_filter(p, &f);
    CHECK_EQ_I(tw_profile_group(p, false, &r.d.sink), TW_OK);
    tw_profile_sort(p, TW_SORT_NAME);
    CHECK_EQ_U(tw_profile_row_count(p), 2);
    CHECK_STR(tw_profile_row(p, 0)->name, "a");
    CHECK_EQ_I(tw_profile_row(p, 0)->net.total, 30);
    CHECK(!tw_profile_row(p, 0)->by_thread);
    tw_profile_truncate(p, 1);
    CHECK_EQ_U(tw_profile_row_count(p), 1);
    tw_profile_free(p);

    /* JSON written and read back gives the same JSON */
    p = tw_profile_new();
    tw_profile_add_input(p, "in.jsonl", "jsonl");
    tw_profile_add_stats(p, r.stats, &info, &r.d.sink);
    tw_profile_group(p, true, &r.d.sink);
    tw_profile_sort(p, TW_SORT_NET);
    tw_output *o1 = tw_output_mem();
    tw_profile_write(p, TW_PROFILE_JSON, o1);
    size_t n1;
    const char *j1 = tw_output_mem_data(o1, &n1);
    tw_input *in;
    tu_diags d;
    tu_diags_init(&d);
    CHECK(tw_input_open_mem(j1, n1, "r.json", NULL, &d.sink, &in) == 0);
    tw_profile *q = tw_profile_new();
    CHECK_EQ_I(tw_profile_read_json(q, in, &d.sink), TW_OK);
    CHECK_EQ_I(tw_profile_group(q, true, &d.sink), TW_OK);
    tw_profile_sort(q, TW_SORT_NET);
    tw_output *o2 = tw_output_mem();
    tw_profile_write(q, TW_PROFILE_JSON, o2);
    size_t n2;
    const char *j2 = tw_output_mem_data(o2, &n2);
    CHECK(n1 == n2 && memcmp(j1, j2, n1) == 0);
    CHECK_EQ_U(d.n, 0);
    tw_input_close(in);
    tw_output_close(o1);
    tw_output_close(o2);
    tw_profile_free(p);
    tw_profile_free(q);
    done(&r);
}

void test_stats_time_backwards(void) {
    run r;
    /* any event earlier than one before it on its thread: one report, then
     * that event is the reference (the instant at 20 is not reported) */
    feed(&r, "1 B a 0; 1 I x 50; 1 I y 10; 1 I z 20; 2 I w 5; 1 E a 60");
    CHECK_EQ_U(r.d.n, 1);
    CHECK_STR(r.d.rule[0], "time-goes-backwards");
    CHECK_STR(r.d.msg[0], "time goes back 40 ns on thread 1: instant of 'y' at 10 ns follows an "
                          "event at 50 ns");
    CHECK_EQ_U(r.d.line[0], 3);
    done(&r);
    /* within the jitter (10 ns): no report; an end 5 ns before its begin
     * counts as 0, a resume 3 ns before its suspend preempts nothing */
    feed_j(&r, 10, "1 B a 100; 1 I x 95; 1 E a 97; 1 B b 200; 1 S b 210; 1 R b 207; 1 E b 230");
    CHECK_EQ_U(r.d.n, 0);
    CHECK_STAT(row(&r, 1, "a")->call, 0, 0, 0, 0, 1);
    CHECK_STAT(row(&r, 1, "b")->gross, 30, 30, 30, 30, 1);
    done(&r);
    /* beyond it: the begin says how far time went back; the end, earlier
     * than its own begin, says that instead of the general message */
    feed_j(&r, 10, "1 B a 100; 1 E a 150; 1 B a 120; 1 E a 105");
    CHECK_EQ_U(r.d.n, 2);
    CHECK_STR(r.d.msg[0], "time goes back 30 ns on thread 1: begin of 'a' at 120 ns follows an "
                          "event at 150 ns");
    CHECK_STR(r.d.msg[1], "scope 'a' ends 15 ns before it begins; its duration counts as 0");
    /* entry to entry is 20 ns; from the exit at 150 to the entry at 120 is
     * negative and counts as 0, without a report of its own */
    CHECK_EQ_I(row(&r, 1, "a")->period.sum, 20);
    CHECK_EQ_I(row(&r, 1, "a")->outside.max, 0);
    CHECK_EQ_U(row(&r, 1, "a")->outside.n, 1);
    done(&r);
}

/* A diagnostics sink that folds every report (rule, line, message) into a
 * running hash and counts them, for comparing two long runs. */
typedef struct fold_sink {
    tw_diag_sink sink;
    uint64_t hash, n;
} fold_sink;

static void fold(void *user, const tw_diag *d) {
    fold_sink *f = user;
    char buf[800];
    int n = snprintf(buf, sizeof buf, "%s|%llu|%s", d->rule_id, (unsigned long long)d->loc.line,
                     d->message);
    size_t len = n < 0 ? 0 : (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1;
    f->hash = f->hash * 31 + tw_hash(buf, len);
    f->n++;
}

/* Pairing hooks that fold every open and close (name, times, how, depth)
 * into a running hash, for comparing two engines' hook calls. */
static void fold_open(void *user, const tw_frame *f) {
    uint64_t *h = user;
    *h = *h * 31 + f->name->hash + (uint64_t)f->begin * 7 + f->depth;
}

static void fold_close(void *user, const tw_frame *f, int64_t end, tw_close_how how,
                       const tw_scope_times *t) {
    uint64_t *h = user;
    *h = *h * 37 + f->name->hash + (uint64_t)end * 3 + (uint64_t)how * 11 +
         (uint64_t)t->call * 13 + (uint64_t)t->gross * 17 + (uint64_t)t->net * 19;
}

void test_stats_fast_path(void) {
    /*
     * tw_stats_event() takes the commonest events (a begin, or the end of
     * the innermost scope, in time order on a thread seen lately) through
     * a short path, tw_pairing_fast(); tw_stats_general_only() keeps every
     * event on the general path.  Both must give the same figures and
     * reports on a stream that
     * keeps crossing from one path to the other: new threads and names
     * (past the first direct array of 64), stacks deeper than their first
     * allocation, ends of scopes below the top and of no open scope, time
     * going back (within and beyond the jitter), suspends and resumes,
     * instants and metadata, on 70 threads (past the map's cache of 16).
     */
    fold_sink fa = {.sink = {.fn = fold}}, fb = {.sink = {.fn = fold}}, fc = {.sink = {.fn = fold}};
    fa.sink.user = &fa;
    fb.sink.user = &fb;
    fc.sink.user = &fc;
    tw_strtab *names = tw_strtab_new();
    /* fast: tw_stats_events()'s use of the short path; hooked: the same
     * with a check on (nothing to report on these ASCII names); general:
     * no short path.  The bare engines below compare tw_pairing_event()'s
     * use of it, which calls the hooks, with the general path's calls. */
    tw_stats *fast = tw_stats_new(&fa.sink), *general = tw_stats_new(&fb.sink),
             *hooked = tw_stats_new(&fc.sink);
    tw_stats_general_only(general);
    CHECK_EQ_I(tw_stats_set_checks(hooked, TW_CHECK_UTF8), TW_OK);
    uint64_t hp_log = 0, hg_log = 0;
    fold_sink fp = {.sink = {.fn = fold}}, fg = {.sink = {.fn = fold}};
    fp.sink.user = &fp;
    fg.sink.user = &fg;
    tw_pairing_hooks hph = {.user = &hp_log, .open = fold_open, .close = fold_close};
    tw_pairing_hooks hgh = {.user = &hg_log, .open = fold_open, .close = fold_close};
    tw_pairing *hp = tw_pairing_new(&hph, &fp.sink), *hg = tw_pairing_new(&hgh, &fg.sink);
    hg->general_only = true;
    tw_pairing_set_jitter(hp, 3);
    tw_pairing_set_jitter(hg, 3);
    tw_stats_set_jitter(fast, 3);
    tw_stats_set_jitter(general, 3);
    tw_stats_set_jitter(hooked, 3);
    const tw_str *name[200];
    for (int i = 0; i < 200; i++) {
        char buf[16];
        snprintf(buf, sizeof buf, "s%d", i);
        name[i] = tw_intern_cstr(names, buf);
    }
    uint64_t x = 88172645463325252ull;  /* xorshift64 */
    int64_t now[70] = {0};
    int depth[70] = {0}, open[70][40];
    tw_event pending[8];
    size_t nrun = 0;
    for (uint64_t i = 0; i < 200000; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        /* a run on a few threads most of the time, now and then any of 70 */
        unsigned th = (x >> 8) % 16 < 15 ? (unsigned)(x >> 12) % 3 : (unsigned)(x >> 12) % 70;
        unsigned r = (unsigned)(x >> 20) % 1000;
        tw_event ev;
        memset(&ev, 0, sizeof ev);
        ev.pid = 1 + th / 50;
        ev.tid = th;
        ev.loc.kind = TW_LOC_TEXT;
        ev.loc.file = "t";
        ev.loc.line = i + 1;
        now[th] += r < 20 ? -(int64_t)(x >> 40) % (r < 10 ? 7 : 90) : (int64_t)(x >> 32) % 50;
        ev.ts = now[th];
        int d = depth[th];
        if ((r < 480 && d < 40) || d == 0) {
            /* a name of the thread's own few, or now and then any */
            int k = r % 10 ? (int)(th * 3 + (x >> 44) % 5) % 60 : (int)((x >> 44) % 200);
            ev.kind = TW_BEGIN;
            ev.name = name[k];
            open[th][depth[th]++] = k;
        } else if (r < 930) {
            ev.kind = TW_END;
            int k = open[th][d - 1];
            if (r > 925 && d > 2) k = open[th][d - 3];  /* closes the two above it */
            if (r == 925) k = 199;                       /* most likely not open */
            ev.name = name[k];
            /* the model's stack: as the engine repairs it */
            while (depth[th] > 0 && open[th][depth[th] - 1] != k) depth[th]--;
            if (depth[th] > 0) depth[th]--;
            else depth[th] = d;  /* matched nothing: ignored */
        } else if (r < 990) {
            /* of the running scope, now and then of one below it or of a
             * name not open (the short path's declines) */
            ev.kind = r < 960 ? TW_SUSPEND : TW_RESUME;
            int k = open[th][r % 10 == 1 && d > 1 ? d - 2 : d - 1];
            ev.name = name[r % 10 == 3 ? 199 : k];
        } else if (r < 995) {
            ev.kind = TW_INSTANT;
            ev.name = name[0];
        } else {
            ev.kind = TW_META;
            ev.name = name[1];
        }
        /* fast is fed in runs of 1 to 8 events (tw_stats_events()) */
        pending[nrun++] = ev;
        if (nrun == 8 || nrun > (x >> 60) % 8) {
            CHECK_EQ_I(tw_stats_events(fast, pending, nrun), TW_OK);
            nrun = 0;
        }
        CHECK_EQ_I(tw_stats_event(general, &ev), TW_OK);
        CHECK_EQ_I(tw_stats_event(hooked, &ev), TW_OK);
        CHECK_EQ_I(tw_pairing_event(hp, &ev), TW_OK);
        CHECK_EQ_I(tw_pairing_event(hg, &ev), TW_OK);
    }
    CHECK_EQ_I(tw_stats_events(fast, pending, nrun), TW_OK);
    CHECK_EQ_I(tw_pairing_finish(hp), TW_OK);
    CHECK_EQ_I(tw_pairing_finish(hg), TW_OK);
    CHECK(hp_log != 0);
    CHECK_EQ_U(hp_log, hg_log);
    CHECK_EQ_U(fp.n, fg.n);
    CHECK_EQ_U(fp.hash, fg.hash);
    CHECK(fp.n > 1000);
    tw_pairing_free(hp);
    tw_pairing_free(hg);
    CHECK_EQ_I(tw_stats_finish(fast), TW_OK);
    CHECK_EQ_I(tw_stats_finish(general), TW_OK);
    CHECK_EQ_I(tw_stats_finish(hooked), TW_OK);
    CHECK(fa.n > 1000);  /* the stream did keep the general path busy */
    CHECK_EQ_U(fa.n, fb.n);
    CHECK_EQ_U(fa.hash, fb.hash);
    CHECK_EQ_U(fc.n, fb.n);
    CHECK_EQ_U(fc.hash, fb.hash);
    CHECK_EQ_U(tw_stats_thread_count(fast), 70);
    CHECK_EQ_U(tw_stats_scope_count(fast), tw_stats_scope_count(general));
    CHECK_EQ_U(tw_stats_scope_count(hooked), tw_stats_scope_count(general));
    size_t rows = tw_stats_scope_count(general), same = 0;
    for (size_t i = 0; i < rows; i++) {
        const tw_scope_stats *b = tw_stats_scope(general, i);
        for (int k = 0; k < 2; k++) {
            tw_stats *other = k ? hooked : fast;
            if (i >= tw_stats_scope_count(other)) continue;
            const tw_scope_stats *a = tw_stats_scope(other, i);
            same += a->tid == b->tid && strcmp(a->name, b->name) == 0 &&
                    a->count == b->count && a->incomplete == b->incomplete &&
                    !memcmp(&a->net, &b->net, sizeof a->net) &&
                    !memcmp(&a->gross, &b->gross, sizeof a->gross) &&
                    !memcmp(&a->call, &b->call, sizeof a->call) &&
                    !memcmp(&a->period, &b->period, sizeof a->period) &&
                    !memcmp(&a->outside, &b->outside, sizeof a->outside);
        }
    }
    CHECK_EQ_U(same, 2 * rows);
    CHECK(rows > 1000);
    tw_stats_free(fast);
    tw_stats_free(general);
    tw_stats_free(hooked);
    tw_strtab_free(names);
}

void test_stats_fast_path_taken(void) {
    /* the short path does take the common case, and only that: after a
     * thread's first event (the general path: the thread is new), a begin
     * in time order and the end of the top frame are taken, with the
     * frame and times the hooks are given; an event earlier than the
     * thread's latest, an end below the top, and an instant are not
     * (suspends and resumes: tw_pairing_fast_pause(), below) */
    tw_strtab *st = tw_strtab_new();
    tw_pairing *p = tw_pairing_new(NULL, NULL);
    const tw_str *a = tw_intern_cstr(st, "a"), *b = tw_intern_cstr(st, "b");
    tw_event ev;
    memset(&ev, 0, sizeof ev);
    ev.tid = 4;
    ev.kind = TW_BEGIN;
    ev.name = a;
    ev.ts = 100;
    tw_scope_times tm = {0, 0, 0};
    CHECK(!tw_pairing_fast(p, &ev, &tm));  /* a new thread */
    CHECK_EQ_I(tw_pairing_event(p, &ev), TW_OK);
    ev.name = b;
    ev.ts = 110;
    tw_frame *f = tw_pairing_fast(p, &ev, &tm);
    CHECK(f && f->name == b && f->begin == 110 && f->depth == 1);
    ev.ts = 105;  /* back by 5 */
    ev.kind = TW_END;
    CHECK(!tw_pairing_fast(p, &ev, &tm));
    ev.ts = 130;
    ev.name = a;  /* below the top */
    CHECK(!tw_pairing_fast(p, &ev, &tm));
    ev.kind = TW_INSTANT;
    CHECK(!tw_pairing_fast(p, &ev, &tm));
    ev.kind = TW_END;
    ev.name = b;
    f = tw_pairing_fast(p, &ev, &tm);
    CHECK(f && f->name == b);
    CHECK_EQ_I(tm.call, 20);
    CHECK_EQ_I(tm.net, 20);
    tw_pairing_pop(p, f);
    ev.name = a;
    ev.ts = 150;
    f = tw_pairing_fast(p, &ev, &tm);
    CHECK(f && f->name == a && f->depth == 0);
    CHECK_EQ_I(tm.gross, 50);
    CHECK_EQ_I(tm.net, 30);  /* 50 - b's 20 */
    tw_pairing_pop(p, f);
    /* suspends and resumes of an open scope in time order take the other
     * short path; one of no open scope, a suspend before the running
     * scope's begin and a resume before its suspend do not; a resume
     * right after a suspend counts the gap as preemption, one after a
     * call does not */
    ev.kind = TW_BEGIN;
    ev.ts = 200;
    f = tw_pairing_fast(p, &ev, &tm);
    CHECK(f && f->name == a);
    ev.kind = TW_SUSPEND;
    ev.name = b;  /* not open */
    ev.ts = 210;
    CHECK(!tw_pairing_fast_pause(p, &ev));
    ev.name = a;
    ev.kind = TW_BEGIN;
    CHECK(!tw_pairing_fast_pause(p, &ev));  /* not a suspend or resume */
    ev.kind = TW_SUSPEND;
    CHECK(!tw_pairing_fast(p, &ev, &tm));
    CHECK(tw_pairing_fast_pause(p, &ev));
    ev.ts = 215;
    CHECK(tw_pairing_fast_pause(p, &ev));  /* a second suspend: no change */
    ev.kind = TW_RESUME;
    ev.ts = 240;
    CHECK(tw_pairing_fast_pause(p, &ev));  /* 30 ns preempted, from 210 */
    ev.kind = TW_RESUME;
    ev.ts = 245;
    CHECK(tw_pairing_fast_pause(p, &ev));  /* no suspend before it: nothing */
    ev.kind = TW_END;
    ev.ts = 300;
    f = tw_pairing_fast(p, &ev, &tm);
    CHECK(f && f->name == a);
    CHECK_EQ_I(tm.call, 100);
    CHECK_EQ_I(tm.gross, 70);
    CHECK_EQ_I(tm.net, 70);
    tw_pairing_pop(p, f);
    ev.kind = TW_BEGIN;
    ev.ts = 400;
    CHECK(tw_pairing_fast(p, &ev, &tm));
    ev.kind = TW_SUSPEND;
    ev.ts = 399;  /* before the running scope's begin (and the thread's latest) */
    CHECK(!tw_pairing_fast_pause(p, &ev));
    CHECK_EQ_I(tw_pairing_event(p, &ev), TW_OK);  /* within no jitter: reported, ignored */
    ev.ts = 410;
    CHECK(tw_pairing_fast_pause(p, &ev));
    ev.kind = TW_RESUME;
    ev.ts = 405;  /* before its suspend */
    CHECK(!tw_pairing_fast_pause(p, &ev));
    /* a suspend within the jitter before the running scope's begin counts
     * from that begin, which can be later than the thread's latest time
     * once time went back: a resume between the two, in time order, is
     * declined (no preemption: the general path's gap is negative) */
    tw_pairing_set_jitter(p, 3);
    ev.tid = 5;
    ev.kind = TW_BEGIN;
    ev.ts = 1000;
    CHECK_EQ_I(tw_pairing_event(p, &ev), TW_OK);
    ev.kind = TW_INSTANT;
    ev.ts = 900;  /* back by 100: the thread's latest is now 900 */
    CHECK_EQ_I(tw_pairing_event(p, &ev), TW_OK);
    ev.kind = TW_SUSPEND;
    ev.ts = 998;
    CHECK(!tw_pairing_fast_pause(p, &ev));
    CHECK_EQ_I(tw_pairing_event(p, &ev), TW_OK);  /* suspended from 1000 */
    ev.kind = TW_RESUME;
    ev.ts = 999;
    CHECK(!tw_pairing_fast_pause(p, &ev));
    CHECK_EQ_I(tw_pairing_event(p, &ev), TW_OK);
    ev.kind = TW_END;
    ev.ts = 1010;
    f = tw_pairing_fast(p, &ev, &tm);
    CHECK(f && f->name == a);
    CHECK_EQ_I(tm.call, 10);
    CHECK_EQ_I(tm.gross, 10);
    tw_pairing_pop(p, f);
    tw_pairing_free(p);
    tw_strtab_free(st);
}
