/* Unit tests of diagnostics rules, the registry, detection, options and the
 * multi-input source. */
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"

void test_diag_rules(void) {
    for (int i = 0; i < TW_RULE_COUNT; i++) {
        const tw_rule_info *ri = tw_rule_get((tw_rule)i);
        CHECK(ri && ri->id && ri->summary);
        if (!ri || !ri->id) continue;
        CHECK(tw_rule_find(ri->id) == ri);
        /* kebab-case ids */
        for (const char *p = ri->id; *p; p++) CHECK((*p >= 'a' && *p <= 'z') || *p == '-' || (*p >= '0' && *p <= '9'));
    }
    CHECK(tw_rule_find("no-such-rule") == NULL);
    CHECK_STR(tw_rule_get(TW_R_BAD_RECORD)->id, "bad-record");
    CHECK_EQ_I(tw_rule_get(TW_R_BAD_RECORD)->severity, TW_SEV_ERROR);
    tu_diags d;
    tu_diags_init(&d);
    tw_loc loc = {.file = "f", .kind = TW_LOC_TEXT, .line = 3, .col = 4};
    tw_report(&d.sink, TW_R_TRUNCATED_FILE, &loc, "cut at %d", 7);
    tw_report_sev(&d.sink, TW_SEV_NOTE, TW_R_BAD_RECORD, NULL, "x");
    CHECK_EQ_U(d.sink.count[TW_SEV_WARNING], 1);
    CHECK_EQ_U(d.sink.count[TW_SEV_NOTE], 1);
    CHECK_STR(d.msg[0], "cut at 7");
    CHECK_EQ_U(d.line[0], 3);
    CHECK_STR(tw_severity_name(TW_SEV_ERROR), "error");
    /* a sink without a callback only counts */
    tw_diag_sink quiet = {0};
    tw_report(&quiet, TW_R_BAD_RECORD, NULL, "x");
    CHECK_EQ_U(quiet.count[TW_SEV_ERROR], 1);
}

void test_registry_lookup(void) {
    CHECK(tw_format_count() >= 3);
    const tw_format *rtl = tw_format_find("rtl");
    CHECK(rtl && tw_format_can_read(rtl) && tw_format_can_write(rtl));
    CHECK(tw_format_find("oolog") == rtl);
    CHECK(tw_format_find("lmscsv") == tw_format_find("lms"));
    CHECK(tw_format_find("nope") == NULL);
    CHECK(tw_format_by_extension("x/soffice_123.log", false) == rtl);
    CHECK(tw_format_by_extension("PROFILE.CSV", true) == tw_format_find("lms"));
    CHECK(tw_format_by_extension("a.jsonl", true) == tw_format_find("jsonl"));
    CHECK(tw_format_by_extension("a.txt", true) == NULL);
    CHECK(tw_format_by_extension(".log", true) == NULL);
    for (size_t i = 0; i < tw_format_count(); i++) {
        const tw_format *f = tw_format_at(i);
        CHECK_EQ_U(f->abi, TW_FORMAT_ABI);
        CHECK(f->name && f->description && (f->probe || !tw_format_can_read(f)));
        CHECK(tw_format_can_read(f) || tw_format_can_write(f));
        CHECK(!!(f->flags & TW_FMT_TEXT) != !!(f->flags & TW_FMT_BINARY));
        CHECK(tw_format_find(f->name) == f);
    }
    CHECK(tw_format_at(tw_format_count()) == NULL);
}

static const tw_format *detect(const char *text, const char *path, int *score) {
    tw_probe_result res[8];
    size_t n = tw_detect((const unsigned char *)text, strlen(text), path, res, 8);
    if (n > 8) n = 8;
    if (score) *score = n ? res[0].score : 0;
    return tw_detect_pick(res, n);
}

void test_detect_formats(void) {
    const tw_format *rtl = tw_format_find("rtl"), *lms = tw_format_find("lms"),
                    *jsonl = tw_format_find("jsonl");
    int score;
    CHECK(detect("opening log file 1.000000 seconds past January 1st 1970\n", NULL, &score) == rtl);
    CHECK_EQ_I(score, 100);
    CHECK(detect("Process id is 12\n000001 1 { a\n", NULL, NULL) == rtl);
    CHECK(detect("000001 1 { a\n000002 1 } a\n", NULL, NULL) == rtl);
    CHECK(detect("2,0,reader\n0,0,10\n1,0,990\n", NULL, &score) == lms);
    CHECK_EQ_I(score, 90);
    CHECK(detect("0,0,10\n1,0,990\n", NULL, NULL) == NULL); /* too little to go on */
    CHECK(detect("0,0,10\n1,0,990\n", "p.csv", NULL) == NULL);
    CHECK(detect("{\"kind\":\"trace\",\"format\":\"rtl\"}\n", NULL, &score) == jsonl);
    CHECK(detect("{\"ts\":1,\"kind\":\"begin\"}\n", NULL, NULL) == jsonl);
    CHECK(detect("000001 1 { a\nclosing log file at 000002\n", NULL, &score) == rtl);
    CHECK_EQ_I(score, 90);
    CHECK(detect("0,10,reader\n1,990,reader\n", NULL, &score) == lms); /* the 2015 variant */
    CHECK_EQ_I(score, 70);
    CHECK(detect("{\"ts\":1,\"kind\":\"begin\"}\n", "x.ndjson", &score) == jsonl);
    CHECK_EQ_I(score, 95);
    CHECK(detect("hello world\n", NULL, NULL) == NULL);
    CHECK(detect("", NULL, NULL) == NULL);
    /* a cut-off first line is not judged */
    CHECK(detect("opening log fi", NULL, NULL) == NULL);
}

void test_options(void) {
    tw_optset *s = tw_optset_new();
    char err[128];
    CHECK(tw_opt_bool(s, "rtl-subscopes")); /* default */
    CHECK(tw_optset_set(s, "rtl-subscopes", "no", err, sizeof err) == 0);
    CHECK(!tw_opt_bool(s, "rtl-subscopes"));
    CHECK(tw_optset_set(s, "rtl-subscopes", NULL, err, sizeof err) == 0);
    CHECK(tw_opt_bool(s, "rtl-subscopes"));
    CHECK(tw_optset_set(s, "rtl-subscopes", "maybe", err, sizeof err) == -1);
    CHECK_STR(err, "option '--rtl-subscopes' expects yes or no, not 'maybe'");
    CHECK(tw_optset_set(s, "no-such-option", "1", err, sizeof err) == -1);
    CHECK_STR(err, "unknown option '--no-such-option'");
    const tw_format *owner;
    CHECK(tw_option_find("rtl-subscopes", &owner) != NULL);
    CHECK(owner == tw_format_find("rtl"));
    tw_optset_free(s);
}

/* The result of merging inputs with tw_source. */
typedef struct merged {
    tu_diags d;
    tw_event ev[16];
    char names[16][32];
    int n;  /* events, or -1 when the source did not open */
    tw_trace_info info;
} merged;

static void collect_source(const char *const *paths, size_t n, merged *m) {
    tu_diags_init(&m->d);
    tu_diags_skip(&m->d, "rtl-no-trailer");  /* the snippets are RTL logs without it */
    tw_strtab *st = tw_strtab_new();
    tw_source *src;
    m->n = -1;
    if (tw_source_open(paths, n, NULL, st, &m->d.sink, &src) != TW_OK) {
        tw_strtab_free(st);
        return;
    }
    m->info = *tw_source_info(src);
    CHECK_EQ_U(tw_source_input_count(src), n);
    for (size_t i = 0; i < n && i < tw_source_input_count(src); i++) {
        CHECK_STR(tw_input_path(tw_source_input(src, i)), paths[i]);
        CHECK(tw_source_input_format(src, i) != NULL);
    }
    tw_event e;
    int k = 0;
    while (tw_source_next(src, &e) == TW_OK && k < 16) {
        m->ev[k] = e;
        snprintf(m->names[k], 32, "%s", e.name->s);
        k++;
    }
    CHECK_EQ_U(tw_source_event_count(src), (uint64_t)k);
    m->n = k;
    tw_source_close(src);
    tw_strtab_free(st);
}

/* Whether a source with threads and the given threshold reads `path` ahead
 * on a second thread by the end, and that it still delivers the log's
 * `events` events. */
static bool reads_ahead(const char *path, uint64_t min_bytes, int events) {
    tw_source_opts o = {.threads = true, .threads_min_bytes = min_bytes};
    tu_diags d;
    tu_diags_init(&d);
    tu_diags_skip(&d, "rtl-no-trailer");
    tw_strtab *st = tw_strtab_new();
    tw_source *src;
    bool ahead = false;
    if (tw_source_open(&path, 1, &o, st, &d.sink, &src) == TW_OK) {
        CHECK(!tw_source_reading_ahead(src));  /* not before the first event */
        tw_event e;
        int n = 0;
        while (tw_source_next(src, &e) == TW_OK) n++;
        CHECK_EQ_I(n, events);
        ahead = tw_source_reading_ahead(src);
        tw_source_close(src);
    } else {
        CHECK(!"the source opens");
    }
    CHECK_EQ_U(d.n, 0);
    tw_strtab_free(st);
    return ahead;
}

#define THREADS_LOG_HEAD                                               \
    "opening log file 1000.000000 seconds past January 1st 1970\n"     \
    "corresponding to 0 ms after timer start\nProcess id is 1\n"

void test_source_threads_min_bytes(void) {
    /* a file: its size decides, before the first event */
    static const char log[] = THREADS_LOG_HEAD "000100 1 { a1\n002000 1 } a1\n";
    const char *path = tu_tempfile(0, "_1.log", log, strlen(log));
    uint64_t size = strlen(log);
    CHECK(reads_ahead(path, 0, 2));          /* always */
    CHECK(reads_ahead(path, size, 2));       /* just enough */
    CHECK(!reads_ahead(path, size + 1, 2));  /* too small to pay: one thread */
    unlink(path);

    /* a pipe: the bytes read so far decide, at an event's boundary */
    char fifo[64];
    snprintf(fifo, sizeof fifo, "/tmp/tw-unit-fifo-%ld.log", (long)getpid());
    for (int big = 0; big < 2; big++) {
        unlink(fifo);
        if (mkfifo(fifo, 0600) != 0) {
            CHECK(!"mkfifo");
            return;
        }
        pid_t child = fork();
        if (child == 0) {  /* the writer: 400 scopes, about 11 KB */
            FILE *f = fopen(fifo, "w");
            if (!f) _exit(1);
            fputs(THREADS_LOG_HEAD, f);
            for (int i = 0; i < 400; i++) fprintf(f, "%06d 1 { a1\n%06d 1 } a1\n", i * 2, i * 2 + 1);
            _exit(fclose(f) == 0 ? 0 : 1);
        }
        CHECK(child > 0);
        if (child <= 0) break;
        /* 4 KiB: the second thread starts part-way; 1 MiB: never reached */
        CHECK(reads_ahead(fifo, big ? (uint64_t)1 << 20 : 4096, 800) == !big);
        int status = -1;
        waitpid(child, &status, 0);
        CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    }
    unlink(fifo);
}

/* How a source reads in the tests below: event by event
 * (tw_source_opts.lockstep), in runs on the caller's thread (the default
 * without threads), in runs on a second thread, and in runs now on the
 * second thread, now on the caller's (steering, switching at every batch). */
enum { LOCKSTEP, HERE, THREAD, SWITCH };

static tw_source_opts reading_opts(int reading) {
    return (tw_source_opts){.threads = reading >= THREAD,
                            .threads_steer = reading == SWITCH,
                            .threads_switch_every = reading == SWITCH,
                            .lockstep = reading == LOCKSTEP};
}

/* Whether src read as `reading` says: ahead at the end with a thread; when
 * switching, with part of the input read here, in stretches counted in
 * turn as probes and not. */
static bool read_as(const tw_source *src, int reading) {
    tw_source_reading how;
    tw_source_reading_info(src, &how);
    if (reading == SWITCH)
        return how.second_thread && how.here > 0 && how.probed > 0 &&
               how.before + how.here + how.probed < tw_source_bytes(src);
    /* (before: what the reader read at its opening, the log's header) */
    return how.second_thread == (reading == THREAD) && how.ahead == (reading == THREAD) &&
           how.here == 0 && how.probed == 0 && how.before < 1024;
}

/* tw_source_opts.drop_details: read in runs, on a second thread or not, the
 * events come without their message and attributes, and are otherwise the
 * same; event by event they keep them. */
void test_source_drop_details(void) {
    static const char log[] =
        "{\"ts\":10,\"kind\":\"begin\",\"pid\":1,\"tid\":1,\"name\":\"a\",\"args\":{\"line\":7}}\n"
        "{\"ts\":20,\"kind\":\"instant\",\"pid\":1,\"tid\":1,\"name\":\"n\",\"msg\":\"hello\"}\n"
        "{\"ts\":30,\"kind\":\"end\",\"pid\":1,\"tid\":1,\"name\":\"a\"}\n";
    const char *path = tu_tempfile(0, ".jsonl", log, strlen(log));
    for (int reading = LOCKSTEP; reading <= SWITCH; reading++) {
        tw_source_opts o = reading_opts(reading);
        o.drop_details = true;
        bool dropped = reading != LOCKSTEP;
        tu_diags d;
        tu_diags_init(&d);
        tw_strtab *st = tw_strtab_new();
        tw_source *src;
        if (tw_source_open(&path, 1, &o, st, &d.sink, &src) != TW_OK) {
            CHECK(!"the source opens");
            tw_strtab_free(st);
            continue;
        }
        tw_event e[4];
        int n = 0;
        while (n < 4 && tw_source_next(src, &e[n]) == TW_OK) {
            CHECK_EQ_I(e[n].ts, (n + 1) * 10);
            CHECK_STR(e[n].name->s, n == 1 ? "n" : "a");
            n++;
        }
        CHECK_EQ_I(n, 3);
        /* one batch: with SWITCH, read ahead (the switch comes after it) */
        CHECK(tw_source_reading_ahead(src) == (reading >= THREAD));
        /* checked while the source is open: the pointers are its own */
        CHECK_EQ_U(e[0].nattrs, dropped ? 0 : 1);
        CHECK((e[0].attrs == NULL) == dropped);
        if (dropped) {
            CHECK(e[1].msg == NULL);
            CHECK_EQ_U(e[1].msg_len, 0);
        } else {
            CHECK_EQ_U(e[1].msg_len, 5);
        }
        tw_source_close(src);
        CHECK_EQ_U(d.n, 0);
        tw_strtab_free(st);
    }
    unlink(path);
}

/* tw_source_next_ref() and tw_source_next_run(): the events, and the
 * diagnostics between them, as tw_source_next() gives them event by event,
 * also when read in runs, on this thread or a second one, over several of
 * the pump's batches (each event read in place in its batch), each
 * diagnostic between the same two events. */
#define REF_MAX 12800
typedef struct ref_seen {
    int64_t ts[REF_MAX];
    int kind[REF_MAX];
    uint64_t line[REF_MAX];
    char name[REF_MAX][8];
    int64_t attr[REF_MAX];  /* the first attribute's integer, -1 without one */
    int n;
    uint64_t diag_line[8];
    int diag_after[8];  /* events delivered before the diagnostic came */
    int ndiags;
    size_t longest;     /* run */
    int runs;           /* calls that gave events */
} ref_seen;

static void ref_diag(void *user, const tw_diag *d) {
    ref_seen *s = user;
    if (s->ndiags < 8 && strcmp(d->rule_id, "rtl-no-trailer") != 0) {
        s->diag_line[s->ndiags] = d->loc.line;
        s->diag_after[s->ndiags++] = s->n;
    }
}

/* How ref_read() fetches the events. */
enum { BY_COPY, BY_REF, BY_RUN, MIXED, PUT_BACK };

static void ref_note(ref_seen *s, const tw_event *e) {
    if (s->n >= REF_MAX) return;
    s->ts[s->n] = e->ts;
    s->kind[s->n] = e->kind;
    s->line[s->n] = e->loc.line;
    snprintf(s->name[s->n], sizeof s->name[0], "%s", e->name->s);
    s->attr[s->n] = e->nattrs ? e->attrs[0].i : -1;
    s->n++;
}

static void ref_read(const char *path, int reading, int how, ref_seen *s) {
    memset(s, 0, sizeof *s);
    tw_source_opts o = reading_opts(reading);
    tw_diag_sink sink = {.fn = ref_diag, .user = s};
    tw_strtab *st = tw_strtab_new();
    tw_source *src;
    if (tw_source_open(&path, 1, &o, st, &sink, &src) != TW_OK) {
        CHECK(!"the source opens");
        tw_strtab_free(st);
        return;
    }
    tw_event copy;
    const tw_event *e = &copy;
    size_t n = 1, calls = 0;
    int rc;
    do {
        /* MIXED: one event by reference, the rest of its run as a run */
        bool run = how == BY_RUN || how == PUT_BACK || (how == MIXED && calls++ % 2);
        rc = run             ? tw_source_next_run(src, &e, &n)
             : how == BY_COPY ? tw_source_next(src, &copy)
                              : tw_source_next_ref(src, &e);
        if (rc != TW_OK) break;
        if (!run) n = 1;
        if (n > s->longest) s->longest = n;
        s->runs++;
        if (how == PUT_BACK && n > 1) {
            /* use the first half of the run; the rest comes again */
            tw_source_unread(src, n - (n + 1) / 2);
            n = (n + 1) / 2;
        }
        for (size_t i = 0; i < n; i++) ref_note(s, &e[i]);
    } while (s->n < REF_MAX);
    CHECK_EQ_I(rc, TW_EOF);
    CHECK(read_as(src, reading));
    CHECK_EQ_U(tw_source_event_count(src), (uint64_t)s->n);
    tw_source_close(src);
    tw_strtab_free(st);
}

/* Every way of reading `path` against event by event copies: the same
 * events and diagnostics, in runs of many events where read in runs; with
 * `steps` (every event points into the reader's memory) read here in runs
 * for one batch only, then event by event. */
static void same_every_way(const char *path, bool steps) {
    static ref_seen want, got;
    ref_read(path, LOCKSTEP, BY_COPY, &want);
    static const struct {
        int reading;
        int how;
    } modes[] = {{LOCKSTEP, BY_REF}, {LOCKSTEP, BY_RUN}, {LOCKSTEP, MIXED}, {LOCKSTEP, PUT_BACK},
                 {HERE, BY_COPY},    {HERE, BY_REF},     {HERE, BY_RUN},    {HERE, MIXED},
                 {HERE, PUT_BACK},   {THREAD, BY_COPY},  {THREAD, BY_REF},  {THREAD, BY_RUN},
                 {THREAD, MIXED},    {THREAD, PUT_BACK}, {SWITCH, BY_COPY},  {SWITCH, BY_REF},
                 {SWITCH, BY_RUN},   {SWITCH, MIXED},    {SWITCH, PUT_BACK}};
    for (size_t mode = 0; mode < sizeof modes / sizeof modes[0]; mode++) {
        ref_read(path, modes[mode].reading, modes[mode].how, &got);
        /* in runs, they are many events long, up to each diagnostic */
        if (modes[mode].reading != LOCKSTEP && modes[mode].how >= BY_RUN)
            CHECK(got.longest > 100);
        if (modes[mode].reading == LOCKSTEP) CHECK_EQ_U(got.longest, 1);
        if (modes[mode].how == BY_RUN && modes[mode].reading != LOCKSTEP) {
            if (steps && modes[mode].reading == HERE) CHECK(got.runs > 2000);
            else CHECK(got.runs < 100);
        }
        CHECK_EQ_I(got.n, want.n);
        CHECK_EQ_I(got.ndiags, want.ndiags);
        for (int i = 0; i < got.ndiags && i < want.ndiags; i++) {
            CHECK_EQ_I(got.diag_after[i], want.diag_after[i]);
            CHECK_EQ_U(got.diag_line[i], want.diag_line[i]);
        }
        int bad = -1;
        for (int i = 0; i < got.n && i < want.n && bad < 0; i++)
            if (got.ts[i] != want.ts[i] || got.kind[i] != want.kind[i] ||
                got.line[i] != want.line[i] || got.attr[i] != want.attr[i] ||
                strcmp(got.name[i], want.name[i]) != 0)
                bad = i;
        CHECK_EQ_I(bad, -1);
    }
}

void test_source_next_ref(void) {
    /* 6000 scopes of 25 names, 12000 events (24 batches: more than the
     * thread reads ahead, so that switching reads some here), with a line
     * that is no record after every 2000th scope */
    size_t cap = 1 << 20, len = 0;
    char *log = malloc(cap);
    if (!log) {
        CHECK(!"memory");
        return;
    }
    len += (size_t)snprintf(log + len, cap - len, "%s", THREADS_LOG_HEAD);
    for (int i = 0; i < 6000; i++) {
        len += (size_t)snprintf(log + len, cap - len, "%06d 1 { s%d\n%06d 1 } s%d\n", i * 2,
                                i % 25, i * 2 + 1, i % 25);
        if (i % 2000 == 1999) len += (size_t)snprintf(log + len, cap - len, "no record\n");
    }
    CHECK(len < cap - 1);
    const char *path = tu_tempfile(0, "_1.log", log, len);
    static ref_seen want;
    ref_read(path, LOCKSTEP, BY_COPY, &want);
    CHECK_EQ_I(want.n, 12000);
    CHECK_EQ_I(want.ndiags, 3);
    CHECK_EQ_I(want.diag_after[0], 4000);
    CHECK_EQ_U(want.diag_line[0], 4004);
    CHECK_EQ_U(want.line[11999], 12005);
    CHECK_STR(want.name[11999], "s24");
    same_every_way(path, false);
    unlink(path);

    /* the same in jsonl with an attribute on every event, so that every
     * event ends a run, and a line that is no event after every 4000th */
    len = 0;
    for (int i = 0; i < 12000; i++) {
        len += (size_t)snprintf(log + len, cap - len,
                                "{\"ts\":%d,\"kind\":\"%s\",\"pid\":1,\"tid\":1,\"name\":"
                                "\"s%d\",\"args\":{\"n\":%d}}\n",
                                i, i % 2 ? "end" : "begin", i / 2 % 25, i);
        if (i % 4000 == 3999) len += (size_t)snprintf(log + len, cap - len, "no event\n");
    }
    CHECK(len < cap - 1);
    path = tu_tempfile(0, ".jsonl", log, len);
    free(log);
    ref_read(path, LOCKSTEP, BY_COPY, &want);
    CHECK_EQ_I(want.n, 12000);
    CHECK_EQ_I(want.ndiags, 3);
    CHECK_EQ_I(want.diag_after[1], 8000);
    CHECK_EQ_I(want.attr[11999], 11999);
    same_every_way(path, true);
    unlink(path);
}

/* Merge two texts saved as temporary files named ...SUFFIX, in that order. */
static void merge_two(const char *a, const char *sa, const char *b, const char *sb, merged *m) {
    const char *pa = tu_tempfile(0, sa, a, strlen(a));
    const char *pb = tu_tempfile(1, sb, b, strlen(b));
    const char *paths[] = {pa, pb};
    collect_source(paths, 2, m);
    unlink(pa);
    unlink(pb);
}

void test_source_merge(void) {
    /* two RTL logs of two processes; B's timer started 1.5 s after A's */
    static const char a[] = "opening log file 1000.000000 seconds past January 1st 1970\n"
                            "corresponding to 0 ms after timer start\nProcess id is 1\n"
                            "000100 1 { a1\n002000 1 } a1\n";
    static const char b[] = "opening log file 1001.500000 seconds past January 1st 1970\n"
                            "corresponding to 0 ms after timer start\nProcess id is 2\n"
                            "000000 7 { b1\n000100 7 } b1\n";
    merged m;
    /* either order: the merged stream is on A's clock, which started first */
    for (int swap = 0; swap < 2; swap++) {
        if (swap) merge_two(b, "_2.log", a, "_1.log", &m);
        else merge_two(a, "_1.log", b, "_2.log", &m);
        CHECK_EQ_I(m.n, 4);
        CHECK_EQ_U(m.d.n, 0);
        if (m.n == 4) {
            CHECK_STR(m.names[0], "a1");
            CHECK_EQ_I(m.ev[0].ts, 100000000);
            CHECK_STR(m.names[1], "b1"); /* 1.5 s on A's clock */
            CHECK_EQ_I(m.ev[1].ts, 1500000000);
            CHECK_EQ_U(m.ev[1].pid, 2);
            CHECK_STR(m.names[2], "b1");
            CHECK_EQ_I(m.ev[2].ts, 1600000000);
            CHECK_STR(m.names[3], "a1");
            CHECK_EQ_I(m.ev[3].ts, 2000000000);
        }
        CHECK(m.info.has_origin);
        CHECK_EQ_I(m.info.origin_ns, 1000000000000);
        CHECK_EQ_I(m.info.origin_ts, 0);
        CHECK(!m.info.has_pid);
        CHECK_STR(m.info.format, "rtl");
    }
}

void test_source_merge_unanchored(void) {
    merged m;
    merge_two("2,0,x\n0,0,10\n1,0,10\n", ".csv", "000000 7 { y\n000001 7 } y\n", ".log", &m);
    CHECK_EQ_I(m.n, 4);
    /* merged on their own clocks: y (0 ms), x (10 us), x (20 us), y (1 ms) */
    if (m.n == 4) {
        CHECK_STR(m.names[0], "y");
        CHECK_STR(m.names[1], "x");
        CHECK_STR(m.names[2], "x");
        CHECK_EQ_I(m.ev[3].ts, 1000000);
    }
    CHECK_STR(m.info.format, "mixed");
    CHECK_STR(m.names[1], "x");
    CHECK_EQ_I(m.info.resolution_ns, 1000000);
    CHECK(!m.info.has_origin);
    CHECK(tu_diag_find(&m.d, "no-common-clock") >= 0);
    /* pid 0 in both, but different threads (0 and 7): nothing is shared */
    CHECK(tu_diag_find(&m.d, "pid-collision") < 0);
    /* two LMS logs: both thread 0 of process 0 */
    merge_two("2,0,x\n0,0,10\n1,0,10\n", ".csv", "2,0,y\n0,0,5\n1,0,10\n", ".csv", &m);
    CHECK_EQ_I(m.n, 4);
    int k = tu_diag_find(&m.d, "pid-collision");
    CHECK(k >= 0);
    if (k >= 0) CHECK(strstr(m.d.msg[k], "both have events of process 0, thread 0; they are "
                                         "paired as one thread") != NULL);
    /* detection failure is reported with the candidates */
    const char *pc = tu_tempfile(2, ".txt", "hello\n", 6);
    const char *bad[] = {pc};
    collect_source(bad, 1, &m);
    CHECK_EQ_I(m.n, -1);
    CHECK(tu_diag_find(&m.d, "unknown-format") == 0);
    unlink(pc);
}

void test_source_merge_extreme(void) {
    /* origins too far apart for int64: merged on their own clocks, with a warning */
    merged m;
    merge_two("{\"kind\":\"trace\",\"origin_ns\":9223372036854775807,\"origin_ts\":-1}\n"
              "{\"ts\":1,\"kind\":\"begin\",\"pid\":1,\"tid\":1,\"name\":\"a\"}\n",
              ".jsonl",
              "{\"kind\":\"trace\",\"origin_ns\":-9223372036854775807,\"origin_ts\":0}\n"
              "{\"ts\":2,\"kind\":\"begin\",\"pid\":2,\"tid\":1,\"name\":\"b\"}\n",
              ".jsonl", &m);
    CHECK_EQ_I(m.n, 2);
    if (m.n == 2) {
        CHECK_EQ_I(m.ev[0].ts, 1);
        CHECK_EQ_I(m.ev[1].ts, 2);
    }
    CHECK(!m.info.has_origin);
    CHECK_EQ_U(m.d.n, 1);
    CHECK_STR(m.d.rule[0], "no-common-clock");
}
