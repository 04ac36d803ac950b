/*
 * Unit tests of the viewer writers' ordering rules: in Chrome JSON every
 * thread's B/E events nest (each E closes the innermost open B and repeats
 * its name), time never goes back on a thread, and no X event is mixed in;
 * in speedscope every profile's O/C events balance and `at` never
 * decreases.  Checked on hand-made tricky inputs and on random ones.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/util.h"
#include "harness.h"

/* The value after "key": in a line, as a string (up to the next quote) or
 * a number; NULL if absent. */
static const char *field(const char *line, const char *key, char *buf, size_t n) {
    char pat[32];
    snprintf(pat, sizeof pat, "\"%s\":", key);
    const char *p = strstr(line, pat);
    if (!p) return NULL;
    p += strlen(pat);
    size_t i = 0;
    if (*p == '"') {
        for (p++; *p && *p != '"' && i + 1 < n; p++) buf[i++] = *p;
    } else {
        for (; *p && *p != ',' && *p != '}' && i + 1 < n; p++) buf[i++] = *p;
    }
    buf[i] = '\0';
    return buf;
}

/* "12.345" (µs) as ns. */
static int64_t ts_ns(const char *s) {
    int64_t v = 0, frac = 0;
    int digits = 0;
    bool neg = *s == '-';
    if (neg) s++;
    for (; *s >= '0' && *s <= '9'; s++) v = v * 10 + (*s - '0');
    if (*s == '.')
        for (s++; *s >= '0' && *s <= '9'; s++, digits++) frac = frac * 10 + (*s - '0');
    while (digits++ < 3) frac *= 10;
    return (neg ? -1 : 1) * (v * 1000 + frac);
}

/* Why the last check failed. */
static char why[160];
#define VIOLATION(...) (snprintf(why, sizeof why, __VA_ARGS__), -1)

#define MAXT 4
#define MAXD 64

/* Check a Chrome JSON text; returns the number of B events (-1 on a
 * violation, reported). */
static int check_chrome(const char *json) {
    char stack[MAXT][MAXD][16];
    int depth[MAXT] = {0}, begins = 0;
    int64_t last[MAXT];
    bool have[MAXT] = {false};
    const char *line = json;
    while ((line = strstr(line, "\n{\"ph\":\""))) {
        line++;
        const char *eol = strchr(line, '\n');
        char l[512], ph[4], name[16], ts[32], tid[24];
        size_t n = eol ? (size_t)(eol - line) : strlen(line);
        if (n >= sizeof l) n = sizeof l - 1;
        memcpy(l, line, n);
        l[n] = '\0';
        line += n;
        field(l, "ph", ph, sizeof ph);
        if (ph[0] == 'M') continue;
        if (ph[0] == 'X') {
            return VIOLATION("X event among B/E: %.100s", l);
        }
        if (!field(l, "name", name, sizeof name) || !field(l, "ts", ts, sizeof ts) ||
            !field(l, "tid", tid, sizeof tid)) {
            return VIOLATION("event without name, ts or tid: %.100s", l);
        }
        int t = atoi(tid) % MAXT;
        int64_t at = ts_ns(ts);
        if (have[t] && at < last[t]) {
            return VIOLATION("time goes back on thread %d: %.100s", t, l);
        }
        last[t] = at;
        have[t] = true;
        if (ph[0] == 'B') {
            if (depth[t] == MAXD) return VIOLATION("too deep");
            snprintf(stack[t][depth[t]++], 16, "%s", name);
            begins++;
        } else if (ph[0] == 'E') {
            if (!depth[t] || strcmp(stack[t][depth[t] - 1], name) != 0) {
                return VIOLATION("E does not close the innermost B: %.100s", l);
            }
            depth[t]--;
        }
    }
    for (int t = 0; t < MAXT; t++)
        if (depth[t]) {
            return VIOLATION("thread %d ends with %d open B events", t, depth[t]);
        }
    return begins;
}

/* Check a speedscope text; returns the number of O events (-1 on a
 * violation). */
static int check_speedscope(const char *json) {
    int opens = 0;
    const char *p = json;
    while ((p = strstr(p, "{\"type\":\"evented\""))) {
        const char *end = strstr(p, "]}");
        int stack[MAXD], depth = 0;
        int64_t last = INT64_MIN;
        for (const char *e = p; (e = strstr(e, "{\"type\":\"")) && e < end; e++) {
            char type[4], frame[16], at[32];
            field(e, "type", type, sizeof type);
            if (type[0] != 'O' && type[0] != 'C') continue;
            field(e, "frame", frame, sizeof frame);
            field(e, "at", at, sizeof at);
            int64_t v = strtoll(at, NULL, 10);
            if (v < last) {
                return VIOLATION("at goes back: %.60s", e);
            }
            last = v;
            if (type[0] == 'O') {
                if (depth == MAXD) return VIOLATION("too deep");
                stack[depth++] = atoi(frame);
                opens++;
            } else if (!depth || stack[--depth] != atoi(frame)) {
                return VIOLATION("C does not close the innermost O: %.60s", e);
            }
        }
        if (depth) {
            return VIOLATION("profile ends with %d open frames", depth);
        }
        p = end;
    }
    return opens;
}

static char *convert(const char *jsonl, const char *fmt) {
    tu_diags d;
    tu_diags_init(&d);
    size_t len;
    return tu_convert(jsonl, fmt, &d, &len);
}

void test_chrome_nesting_repairs(void) {
    static const char *const cases[] = {
        /* overlapping scopes: b is closed with a */
        "{\"ts\":0,\"kind\":\"begin\",\"pid\":1,\"tid\":1,\"name\":\"a\"}\n"
        "{\"ts\":1,\"kind\":\"begin\",\"pid\":1,\"tid\":1,\"name\":\"b\"}\n"
        "{\"ts\":2,\"kind\":\"end\",\"pid\":1,\"tid\":1,\"name\":\"a\"}\n"
        "{\"ts\":3,\"kind\":\"end\",\"pid\":1,\"tid\":1,\"name\":\"b\"}\n",
        /* an end that matches nothing, a scope never closed */
        "{\"ts\":0,\"kind\":\"end\",\"pid\":1,\"tid\":1,\"name\":\"x\"}\n"
        "{\"ts\":1,\"kind\":\"begin\",\"pid\":1,\"tid\":1,\"name\":\"a\"}\n",
        /* time going back inside a scope and between threads */
        "{\"ts\":10,\"kind\":\"begin\",\"pid\":1,\"tid\":1,\"name\":\"a\"}\n"
        "{\"ts\":5,\"kind\":\"begin\",\"pid\":1,\"tid\":2,\"name\":\"c\"}\n"
        "{\"ts\":4,\"kind\":\"begin\",\"pid\":1,\"tid\":1,\"name\":\"b\"}\n"
        "{\"ts\":3,\"kind\":\"end\",\"pid\":1,\"tid\":1,\"name\":\"b\"}\n"
        "{\"ts\":2,\"kind\":\"end\",\"pid\":1,\"tid\":1,\"name\":\"a\"}\n"
        "{\"ts\":6,\"kind\":\"end\",\"pid\":1,\"tid\":2,\"name\":\"c\"}\n",
        /* equal times: the parent's B first, its E last */
        "{\"ts\":7,\"kind\":\"begin\",\"pid\":1,\"tid\":1,\"name\":\"a\"}\n"
        "{\"ts\":7,\"kind\":\"begin\",\"pid\":1,\"tid\":1,\"name\":\"b\"}\n"
        "{\"ts\":7,\"kind\":\"end\",\"pid\":1,\"tid\":1,\"name\":\"b\"}\n"
        "{\"ts\":7,\"kind\":\"end\",\"pid\":1,\"tid\":1,\"name\":\"a\"}\n",
    };
    static const int begins[] = {2, 1, 3, 2};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *c = convert(cases[i], "chrome"), *s = convert(cases[i], "speedscope");
        CHECK(c && s);
        if (!c || !s) return;
        int cb = check_chrome(c), so = check_speedscope(s);
        if (cb < 0 || so < 0) tu_fail(__FILE__, __LINE__, "case %zu: %s", i, why);
        CHECK_EQ_I(cb, begins[i]);
        CHECK_EQ_I(so, begins[i]);
        free(c);
        free(s);
    }
    /* the equal-time case, exactly */
    char *c = convert(cases[3], "chrome");
    const char *b = strstr(c, "\"ph\":\"B\",\"name\":\"a\""), *b2 = strstr(c, "\"ph\":\"B\",\"name\":\"b\"");
    const char *e = strstr(c, "\"ph\":\"E\",\"name\":\"b\""), *e2 = strstr(c, "\"ph\":\"E\",\"name\":\"a\"");
    CHECK(b && b2 && e && e2 && b < b2 && b2 < e && e < e2);
    free(c);
}

void test_viewers_random_input(void) {
    /* random begins and ends of three names on three threads, with time
     * jumping back now and then: the outputs must always be spec-clean */
    unsigned seed = 12345;
    for (int round = 0; round < 200; round++) {
        char *in = malloc(64 * 200);
        size_t n = 0;
        int64_t ts[3] = {0, 0, 0};
        for (int i = 0; i < 120; i++) {
            seed = seed * 1103515245u + 12345u;
            unsigned r = seed >> 16;
            int t = (int)(r % 3);
            ts[t] += (int64_t)(r >> 2 & 7) - (r % 11 == 0 ? 20 : 0);
            n += (size_t)snprintf(in + n, 64, "{\"ts\":%lld,\"kind\":\"%s\",\"pid\":1,\"tid\":%d,\"name\":\"%c\"}\n",
                                  (long long)ts[t], (r >> 5 & 3) == 0 ? "end" : (r >> 5 & 3) == 1 ? "end" : "begin",
                                  t + 1, "abc"[r >> 8 & 1 ? 0 : (r >> 9) % 3]);
        }
        char *c = convert(in, "chrome"), *s = convert(in, "speedscope");
        CHECK(c && s);
        int cb = c ? check_chrome(c) : -1, so = s ? check_speedscope(s) : -1;
        if (cb < 0 || so < 0) tu_fail(__FILE__, __LINE__, "round %d: %s", round, why);
        CHECK_EQ_I(cb, so);  /* the same scopes, both ways */
        free(c);
        free(s);
        free(in);
        if (cb < 0) break;
    }
}

void test_viewer_checks_fail(void) {
    /* the checkers above do catch what they look for */
    CHECK(check_chrome("{\"traceEvents\":[\n{\"ph\":\"B\",\"name\":\"a\",\"ts\":1,\"pid\":1,\"tid\":1},"
                       "\n{\"ph\":\"E\",\"name\":\"b\",\"ts\":2,\"pid\":1,\"tid\":1}\n]}") < 0);
    CHECK(strstr(why, "innermost") != NULL);
    CHECK(check_chrome("{\"traceEvents\":[\n{\"ph\":\"B\",\"name\":\"a\",\"ts\":2,\"pid\":1,\"tid\":1},"
                       "\n{\"ph\":\"E\",\"name\":\"a\",\"ts\":1.5,\"pid\":1,\"tid\":1}\n]}") < 0);
    CHECK(strstr(why, "back") != NULL);
    CHECK(check_chrome("{\"traceEvents\":[\n{\"ph\":\"X\",\"name\":\"a\",\"ts\":2,\"pid\":1,\"tid\":1}\n]}") < 0);
    CHECK(check_chrome("{\"traceEvents\":[\n{\"ph\":\"B\",\"name\":\"a\",\"ts\":2,\"pid\":1,\"tid\":1}\n]}") < 0);
    CHECK(strstr(why, "open") != NULL);
    CHECK(check_speedscope("{\"type\":\"evented\",\"events\":[\n{\"type\":\"O\",\"frame\":0,\"at\":5},"
                           "\n{\"type\":\"C\",\"frame\":1,\"at\":6}\n]}") < 0);
    CHECK(check_speedscope("{\"type\":\"evented\",\"events\":[\n{\"type\":\"O\",\"frame\":0,\"at\":5},"
                           "\n{\"type\":\"C\",\"frame\":0,\"at\":4}\n]}") < 0);
    CHECK(check_speedscope("{\"type\":\"evented\",\"events\":[\n{\"type\":\"O\",\"frame\":0,\"at\":5}\n]}") < 0);
}

/* The lines of a Chrome JSON text that hold `key` (each ending in its
 * newline, the separator comma dropped), appended to dst. */
static void lines_with(const char *json, const char *key, tw_buf *dst) {
    for (const char *p = json; *p;) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        size_t k = n && p[n - 1] == ',' ? n - 1 : n;
        char *line = strndup(p, k);
        if (line && strstr(line, key)) {
            tw_buf_append(dst, line, k);
            tw_buf_append(dst, "\n", 1);
        }
        free(line);
        p += n + (e != NULL);
    }
}

void test_chrome_spooled_as_direct(void) {
    /* a thread's events are written the same whether it is the first
     * thread (written as they come) or another (spooled as compact
     * records, rendered at the end): every field a record holds, at its
     * extremes, and times apart by one, two, three and more varint bytes
     * (interned attribute values: the next test) */
    static const char body[] =
        "{\"ts\":-5000,\"kind\":\"begin\",\"pid\":1,\"tid\":7,\"name\":\"outer\",\"cat\":\"c1\","
        "\"args\":{\"min\":-9223372036854775808,\"max\":9223372036854775807,\"zero\":0,"
        "\"neg\":-1,\"text\":\"caf\\u00e9 \\\"q\\\"\",\"file\":\"a.c\"}}\n"
        "{\"ts\":-4999,\"kind\":\"instant\",\"pid\":1,\"tid\":7,\"name\":\"a message\","
        "\"msg\":\"line one\\nline two\"}\n"
        "{\"ts\":0,\"kind\":\"counter\",\"pid\":1,\"tid\":7,\"name\":\"speed\",\"value\":-300}\n"
        "{\"ts\":1,\"kind\":\"counter\",\"pid\":1,\"tid\":7,\"name\":\"speed\","
        "\"value\":-9223372036854775808}\n"
        "{\"ts\":19000,\"kind\":\"counter\",\"pid\":1,\"tid\":7,\"name\":\"speed\",\"value\":5}\n"
        "{\"ts\":4503599627370496,\"kind\":\"begin\",\"pid\":1,\"tid\":7,\"name\":\"inner\","
        "\"args\":{\"value\":3,\"message\":\"m\",\"file\":\"a.c\"}}\n"
        "{\"ts\":17,\"kind\":\"end\",\"pid\":1,\"tid\":7,\"name\":\"inner\","
        "\"args\":{\"line\":-42}}\n"
        "{\"ts\":9223372036854775807,\"kind\":\"instant\",\"pid\":1,\"tid\":7,\"name\":\"late\"}\n"
        "{\"ts\":9223372036854775807,\"kind\":\"end\",\"pid\":1,\"tid\":7,\"name\":\"outer\","
        "\"cat\":\"c1\"}\n";
    static const char first[] =
        "{\"ts\":-5000,\"kind\":\"instant\",\"pid\":1,\"tid\":5,\"name\":\"first\"}\n";
    char *spooled_in = malloc(sizeof first + sizeof body);
    CHECK(spooled_in != NULL);
    if (!spooled_in) return;
    memcpy(spooled_in, first, sizeof first - 1);
    memcpy(spooled_in + sizeof first - 1, body, sizeof body);
    char *direct = convert(body, "chrome"), *spooled = convert(spooled_in, "chrome");
    CHECK(direct && spooled);
    if (direct && spooled) {
        tw_buf a = {0}, b = {0};
        lines_with(direct, "\"tid\":7", &a);
        lines_with(spooled, "\"tid\":7", &b);
        CHECK_EQ_U(a.len, b.len);
        CHECK(a.len > 0 && a.len == b.len && memcmp(a.p, b.p, a.len) == 0);
        if (a.len != b.len || memcmp(a.p, b.p, a.len))
            tu_fail(__FILE__, __LINE__, "direct:\n%.*s\nspooled:\n%.*s", (int)a.len, a.p,
                    (int)b.len, b.p);
        /* every event of the body is there */
        size_t n = 0;
        for (size_t i = 0; i < b.len; i++) n += b.p[i] == '\n';
        CHECK_EQ_U(n, 9);
        CHECK(strstr(b.p, "\"min\":-9223372036854775808,\"max\":9223372036854775807") != NULL);
        CHECK(strstr(b.p, "\"line\":-42") != NULL);
        tw_buf_free(&a);
        tw_buf_free(&b);
    }
    free(direct);
    free(spooled);
    free(spooled_in);
}

void test_chrome_spooled_foreign_strings(void) {
    /* names, attribute keys and interned attribute values from a table
     * other than the writer's, whose ids collide with its strings' or lie
     * beyond what the writer keeps by id, are spooled by pointer; the
     * writer's own by id */
    tw_strtab *mine = tw_strtab_new(), *other = tw_strtab_new();
    tw_output *out = tw_output_mem();
    CHECK(mine && other && out);
    if (!mine || !other || !out) return;
    const tw_str *alpha = tw_intern_cstr(mine, "alpha"), *beta = tw_intern_cstr(other, "beta");
    const tw_str *far = NULL;
    char nm[32];
    for (int i = 0; i <= 70000; i++) {
        snprintf(nm, sizeof nm, "n%d", i);
        far = tw_intern_cstr(other, nm);
    }
    const tw_str *file = tw_intern_cstr(mine, "file"), *ac = tw_intern_cstr(mine, "a.c");
    const tw_str *where = tw_intern_cstr(other, "where"), *n0 = tw_intern_cstr(other, "n0");
    CHECK(alpha && beta && far && alpha->id == beta->id && far->id >= 70000);
    CHECK(file && ac && where && n0 && n0->id == file->id && where->id >= 70000);
    tw_attr attrs[2] = {{.key = file, .type = TW_ATTR_STR, .str = ac},
                        {.key = where, .type = TW_ATTR_STR, .str = n0}};
    for (int i = 0; i < 2; i++) {
        if (!attrs[i].str) continue;
        attrs[i].s = attrs[i].str->s;
        attrs[i].slen = attrs[i].str->len;
    }
    tu_diags d;
    tu_diags_init(&d);
    tw_trace_info info = {0};
    info.resolution_ns = 1;
    tw_writer *w = NULL;
    CHECK(tw_writer_open(tw_format_find("chrome"), out, mine, &d.sink, NULL, &info, &w) == TW_OK);
    if (w) {
        const struct {
            tw_kind kind;
            uint64_t tid;
            const tw_str *name;
            int attr;  /* 1 + the index in attrs, 0 for none */
        } evs[] = {
            {TW_INSTANT, 1, alpha, 0}, {TW_BEGIN, 2, alpha, 1}, {TW_BEGIN, 2, beta, 2},
            {TW_BEGIN, 2, far, 0},     {TW_END, 2, far, 0},     {TW_END, 2, beta, 0},
            {TW_END, 2, alpha, 0},
        };
        for (size_t i = 0; i < sizeof evs / sizeof *evs; i++) {
            tw_event e;
            tw_event_clear(&e);
            e.kind = evs[i].kind;
            e.pid = 1;
            e.tid = evs[i].tid;
            e.ts = (int64_t)i * 1000;
            e.name = evs[i].name;
            if (evs[i].attr) {
                e.attrs = &attrs[evs[i].attr - 1];
                e.nattrs = 1;
            }
            CHECK(tw_writer_event(w, &e) == TW_OK);
        }
        CHECK(tw_writer_finish(w) == TW_OK);
        tw_writer_free(w);
    }
    size_t n;
    const char *data = tw_output_mem_data(out, &n);
    char *text = strndup(data, n);
    tw_buf got = {0};
    lines_with(text ? text : "", "\"tid\":2", &got);
    tw_buf_append(&got, "", 1);
    CHECK_STR(got.p, "{\"ph\":\"B\",\"name\":\"alpha\",\"ts\":1,\"pid\":1,\"tid\":2,"
                     "\"args\":{\"file\":\"a.c\"}}\n"
                     "{\"ph\":\"B\",\"name\":\"beta\",\"ts\":2,\"pid\":1,\"tid\":2,"
                     "\"args\":{\"where\":\"n0\"}}\n"
                     "{\"ph\":\"B\",\"name\":\"n70000\",\"ts\":3,\"pid\":1,\"tid\":2}\n"
                     "{\"ph\":\"E\",\"name\":\"n70000\",\"ts\":4,\"pid\":1,\"tid\":2}\n"
                     "{\"ph\":\"E\",\"name\":\"beta\",\"ts\":5,\"pid\":1,\"tid\":2}\n"
                     "{\"ph\":\"E\",\"name\":\"alpha\",\"ts\":6,\"pid\":1,\"tid\":2}\n");
    tw_buf_free(&got);
    free(text);
    tw_output_close(out);
    tw_strtab_free(mine);
    tw_strtab_free(other);
}

/* The descriptor of the spool's temporary file (unlinked at once: found
 * through /proc/self/fd), or -1. */
static int spool_fd(void) {
    DIR *d = opendir("/proc/self/fd");
    if (!d) return -1;
    int found = -1;
    for (struct dirent *e; found < 0 && (e = readdir(d));) {
        char path[300], target[512];
        snprintf(path, sizeof path, "/proc/self/fd/%s", e->d_name);
        ssize_t n = readlink(path, target, sizeof target - 1);
        if (n <= 0) continue;
        target[n] = 0;
        if (strstr(target, "/tracewright-") && strstr(target, "(deleted)")) found = atoi(e->d_name);
    }
    closedir(d);
    return found;
}

/* Convert to chrome a second thread's 60000 scopes, which the writer holds
 * back in more than two pieces of its spool; before the end, `how` changes
 * the spool's temporary file: 0 nothing, 1 the first piece's records, 2
 * the second's, 3 the second's header (it says the piece is empty).
 * Returns what tw_writer_finish() returned, the first diagnostic in *msg. */
static int replay_changed(unsigned threads, int how, char *msg, size_t cap, size_t *outlen) {
    tw_strtab *st = tw_strtab_new();
    tw_output *out = tw_output_mem();
    const tw_str *a = st ? tw_intern_cstr(st, "alpha") : NULL, *b = st ? tw_intern_cstr(st, "beta") : NULL;
    int rc = -2;
    *msg = 0;
    *outlen = 0;
    if (!st || !out || !a || !b) goto done;
    tu_diags d;
    tu_diags_init(&d);
    tw_trace_info info = {0};
    info.resolution_ns = 1;
    tw_writer *w = NULL;
    if (tw_writer_open(tw_format_find("chrome"), out, st, &d.sink, NULL, &info, &w) != TW_OK)
        goto done;
    tw_event e;
    tw_event_clear(&e);
    e.kind = TW_INSTANT;
    e.pid = 1;
    e.tid = 1;
    e.name = a;
    bool ok = tw_writer_event(w, &e) == TW_OK;
    for (int i = 0; ok && i < 120000; i++) {
        tw_event_clear(&e);
        e.kind = i % 2 ? TW_END : TW_BEGIN;
        e.pid = 1;
        e.tid = 2;
        e.ts = i;
        e.name = i % 4 < 2 ? a : b;
        ok = tw_writer_event(w, &e) == TW_OK;
    }
    int fd = spool_fd();
    if (ok && fd >= 0) {
        uint64_t head[2];  /* the first chunk's: the next one's offset, its length */
        ok = pread(fd, head, sizeof head, 0) == (ssize_t)sizeof head && head[0] != UINT64_MAX;
        char junk[64];  /* a record whose varints never end */
        memset(junk, 0xff, sizeof junk);
        junk[0] = 1;
        junk[1] = 0x7f;
        uint64_t zero = 0;
        if (ok && how == 1) ok = pwrite(fd, junk, sizeof junk, 16) == (ssize_t)sizeof junk;
        if (ok && how == 2)
            ok = pwrite(fd, junk, sizeof junk, (off_t)(head[0] + 16)) == (ssize_t)sizeof junk;
        if (ok && how == 3) ok = pwrite(fd, &zero, sizeof zero, (off_t)(head[0] + 8)) == 8;
    }
    if (ok && fd >= 0) {
        tw_writer_set_threads(w, threads);
        rc = tw_writer_finish(w);
        if (d.n) snprintf(msg, cap, "%s", d.msg[0]);
        tw_output_mem_data(out, outlen);
    }
    tw_writer_free(w);
done:
    if (out) tw_output_close(out);
    tw_strtab_free(st);
    return rc;
}

void test_chrome_replay_changed(void) {
    /* what was held back and changed in the temporary file before the end
     * is an error, whichever thread renders the piece (two threads: the
     * first piece is the writer's thread's, the second the helper's), and
     * the helper is stopped and freed (the sanitizer builds check) */
#ifdef __linux__
    char msg[640];
    size_t one = 0, n;
    CHECK_EQ_I(replay_changed(1, 0, msg, sizeof msg, &one), TW_OK);
    CHECK(one > 60000 * 40);
    CHECK_EQ_I(replay_changed(2, 0, msg, sizeof msg, &n), TW_OK);
    CHECK_EQ_U(n, one);
    for (unsigned threads = 1; threads <= 2; threads++)
        for (int how = 1; how <= 2; how++) {
            CHECK_EQ_I(replay_changed(threads, how, msg, sizeof msg, &n), TW_ERR);
            CHECK_STR(msg, "cannot read back the threads' events: the temporary file changed");
        }
    CHECK_EQ_I(replay_changed(2, 3, msg, sizeof msg, &n), TW_ERR);
    char want[512]; /* the directory is named: a full $TMPDIR is not the output's disk */
    const char *dir = getenv("TMPDIR");
    snprintf(want, sizeof want,
             "cannot read back the threads' events: temporary file in '%s': Input/output error",
             dir && *dir ? dir : "/tmp");
    CHECK_STR(msg, want);
#endif
}
