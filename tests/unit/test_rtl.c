/* Unit tests of the RTL logfile reader and writer. */
#include <stdlib.h>
#include <unistd.h>

#include "harness.h"

/* Most snippets are parts of a log: no trailer (and often no header) */
static void snippet_diags(tu_diags *d, bool has_header) {
    tu_diags_init(d);
    tu_diags_skip(d, "rtl-no-trailer");
    if (!has_header) tu_diags_skip(d, "rtl-header");
}

void test_rtl_header(void) {
    tu_diags d;
    snippet_diags(&d, true);
    tw_trace_info info;
    tu_event ev[8];
    int n = TU_READ_STR("rtl",
                        "opening log file 996742800.25 seconds past January 1st 1970\r\n"
                        "corresponding to 1500 ms after timer start\r\n"
                        "Process id is 4711\r\n"
                        "001600 11 { a\r\n",
                        &d, &info, ev, 8);
    CHECK_EQ_I(n, 1);
    CHECK(info.has_origin);
    CHECK_EQ_I(info.origin_ns, 996742800250000000);
    CHECK_EQ_I(info.origin_ts, 1500000000);
    CHECK(info.has_pid);
    CHECK_EQ_U(info.pid, 4711);
    CHECK_EQ_I(info.resolution_ns, 1000000);
    CHECK_EQ_I(ev[0].ts, 1600000000);
    CHECK_EQ_U(ev[0].pid, 4711);
    CHECK_EQ_U(d.n, 0);

    /* lines 1-2 missing: relative time only, no complaint */
    snippet_diags(&d, true);
    n = TU_READ_STR("rtl", "Process id is 9\n000001 1 { a\n", &d, &info, ev, 8);
    CHECK_EQ_I(n, 1);
    CHECK(!info.has_origin);
    CHECK_EQ_U(d.n, 0);

    /* line 1 without line 2 */
    snippet_diags(&d, true);
    n = TU_READ_STR("rtl", "opening log file 5.000001 seconds past January 1st 1970\n000001 1 { a\n",
                    &d, &info, ev, 8);
    CHECK_EQ_I(n, 1);
    CHECK(!info.has_origin);
    CHECK_EQ_U(d.n, 2);
    CHECK_STR(d.rule[0], "rtl-header");
    CHECK_STR(d.msg[0], "the header has an 'opening log file' line but no 'corresponding to' "
                        "line; absolute time is unknown");
    CHECK_EQ_U(d.line[0], 1);
    /* and the process id line, always written, is missing too */
    CHECK_STR(d.msg[1], "the log has no complete header (no 'Process id is' line); the process "
                        "id is unknown (0)");
    CHECK_EQ_U(d.line[1], 2);
    snippet_diags(&d, true);
    n = TU_READ_STR("rtl", "Process id is 4\ncorresponding to 3 ms after timer start\n000001 1 { a\n",
                    &d, &info, ev, 8);
    CHECK_EQ_I(n, 1);
    CHECK_EQ_U(d.n, 1);
    CHECK_EQ_U(d.line[0], 2); /* where the lone header line is */

    /* malformed header lines */
    snippet_diags(&d, true);
    n = TU_READ_STR("rtl",
                    "opening log file abc seconds past January 1st 1970\n"
                    "corresponding to 12ms after timer start\n"
                    "Process id is -3\n",
                    &d, &info, ev, 8);
    CHECK_EQ_I(n, 0);
    CHECK_EQ_U(d.n, 3);
    for (size_t i = 0; i < d.n && i < 3; i++) {
        CHECK_STR(d.rule[i], "rtl-header");
        CHECK_EQ_I(d.sev[i], TW_SEV_ERROR);
        CHECK_EQ_U(d.line[i], i + 1);
    }
    CHECK_EQ_U(d.col[0], 18);
    CHECK(!info.has_pid);

    /* no header at all: the process id line is always written */
    tu_diags_init(&d);
    n = TU_READ_STR("rtl", "\n000001 1 { a\nclosing log file at 000002", &d, &info, ev, 8);
    CHECK_EQ_I(n, 2);
    CHECK_EQ_U(d.n, 1);
    CHECK_STR(d.rule[0], "rtl-header");
    CHECK_STR(d.msg[0], "the log has no header (no 'Process id is' line); the process id is "
                        "unknown (0)");
    CHECK_EQ_U(d.line[0], 2);

    /* no trailer: reported at the last line; a trailer that starts a new
     * log ("closing log file at Topening log file ...") is not an end */
    tu_diags_init(&d);
    n = TU_READ_STR("rtl", "Process id is 9\n000001 1 { a\n000002 1 } a\n\n", &d, &info, ev, 8);
    CHECK_EQ_I(n, 2);
    CHECK_EQ_U(d.n, 1);
    CHECK_STR(d.rule[0], "rtl-no-trailer");
    CHECK_EQ_I(d.sev[0], TW_SEV_WARNING);
    CHECK_STR(d.msg[0], "the log ends without its 'closing log file at' trailer: the process "
                        "crashed or was killed, or the file was cut");
    CHECK_EQ_U(d.line[0], 3);
    tu_diags_init(&d);
    n = TU_READ_STR("rtl",
                    "Process id is 9\n000001 1 { a\nclosing log file at 000002"
                    "opening log file 5.000001 seconds past January 1st 1970\n"
                    "corresponding to 3 ms after timer start\nProcess id is 9\n000004 1 } a\n",
                    &d, &info, ev, 8);
    CHECK(tu_diag_find(&d, "rtl-no-trailer") >= 0);
    tu_diags_init(&d);
    n = TU_READ_STR("rtl", "Process id is 9\nclosing log file at 000002", &d, &info, ev, 8);
    CHECK_EQ_U(d.n, 0);
}

void test_rtl_records(void) {
    tu_diags d;
    snippet_diags(&d, false);
    tu_event ev[8];
    int n = TU_READ_STR("rtl",
                        "000000 1 { outer scope\n"
                        "1234567 4294967295 { inner\n"  /* more than 6 digits; big thread id */
                        "1234568 4294967295 } inner\n"
                        "12 1 }\n"                      /* empty name, short time */
                        "000013 1 {\n",
                        &d, NULL, ev, 8);
    CHECK_EQ_I(n, 5);
    CHECK_EQ_I(ev[0].kind, TW_BEGIN);
    CHECK_STR(ev[0].name, "outer scope");
    CHECK(!ev[0].has_cat);
    CHECK_EQ_I(ev[1].ts, 1234567000000);
    CHECK_EQ_U(ev[1].tid, 4294967295u);
    CHECK_EQ_I(ev[2].kind, TW_END);
    CHECK_EQ_I(ev[3].kind, TW_END);
    CHECK_STR(ev[3].name, "");
    CHECK_EQ_I(ev[3].ts, 12000000);
    CHECK_STR(ev[4].name, "");
    CHECK_EQ_U(ev[4].line, 5);
    CHECK_EQ_U(d.n, 0);
}

void test_rtl_messages(void) {
    tu_diags d;
    snippet_diags(&d, false);
    tu_event ev[8];
    int n = TU_READ_STR("rtl",
                        "000001 2 | ctx : hello : world\n"   /* split at the first ' : ' */
                        "000002 2 | : context-free\n"
                        "000003 2 | ctx : \n"                /* empty message */
                        "000004 2 | no separator here\n"
                        "000005 2 | :\n"
                        "000006 2 | desktop (cd100003) : ::A::f : done\n",
                        &d, NULL, ev, 8);
    CHECK_EQ_I(n, 6);
    for (int i = 0; i < 6 && i < n; i++) CHECK_EQ_I(ev[i].kind, TW_INSTANT);
    CHECK_STR(ev[0].cat, "ctx");
    CHECK_STR(ev[0].name, "hello : world");
    CHECK(ev[1].has_cat);
    CHECK_STR(ev[1].cat, "");
    CHECK_STR(ev[1].name, "context-free");
    CHECK_STR(ev[2].cat, "ctx");
    CHECK_STR(ev[2].name, "");
    CHECK_STR(ev[3].cat, "no separator here");
    CHECK_STR(ev[3].name, "");
    CHECK_STR(ev[4].cat, "");
    CHECK_STR(ev[4].name, "");
    CHECK_STR(ev[5].cat, "desktop (cd100003)");
    CHECK_STR(ev[5].name, "::A::f : done");
    CHECK_EQ_U(d.n, 0);
}

void test_rtl_subscopes_option(void) {
    static const char text[] = "000001 2 | ctx : { lengthy calculation \n"
                               "000002 2 | ctx : }lengthy calculation\n"
                               "000003 2 | ctx : {\n";
    tu_diags d;
    snippet_diags(&d, true);
    tu_event ev[8];
    int n = tu_read("rtl", "t", text, sizeof text - 1, NULL, &d, NULL, ev, 8);
    CHECK_EQ_I(n, 3);
    CHECK_EQ_I(ev[0].kind, TW_BEGIN);
    CHECK_STR(ev[0].name, "lengthy calculation");
    CHECK_STR(ev[0].cat, "ctx");
    CHECK_EQ_I(ev[1].kind, TW_END);
    CHECK_STR(ev[1].name, "lengthy calculation");
    CHECK_EQ_I(ev[2].kind, TW_BEGIN);
    CHECK_STR(ev[2].name, "");
    tw_optset *o = tw_optset_new();
    char err[64];
    CHECK(tw_optset_set(o, "rtl-subscopes", "no", err, sizeof err) == 0);
    n = tu_read("rtl", "t", text, sizeof text - 1, o, &d, NULL, ev, 8);
    CHECK_EQ_I(n, 3);
    CHECK_EQ_I(ev[0].kind, TW_INSTANT);
    CHECK_STR(ev[0].name, "{ lengthy calculation ");
    tw_optset_free(o);
}

void test_rtl_wraparound(void) {
    tu_diags d;
    snippet_diags(&d, false);
    tu_event ev[8];
    /* the 32-bit millisecond timer wraps: 4294967290 -> 5 */
    int n = TU_READ_STR("rtl",
                        "4294967290 1 { a\n"
                        "4294967289 2 { b\n"  /* small inversion: not a wrap */
                        "000005 1 } a\n"
                        "4294967292 3 | : late\n"  /* sampled before the wrap, written after */
                        "000006 2 } b\n",
                        &d, NULL, ev, 8);
    CHECK_EQ_I(n, 5);
    CHECK_EQ_I(ev[0].ts, INT64_C(4294967290000000));
    CHECK_EQ_I(ev[1].ts, INT64_C(4294967289000000));
    CHECK_EQ_I(ev[2].ts, INT64_C(4294967301000000));
    CHECK_EQ_I(ev[3].ts, INT64_C(4294967292000000));
    CHECK_EQ_I(ev[4].ts, INT64_C(4294967302000000));
    CHECK_EQ_U(d.n, 0);
}

void test_rtl_bad_lines(void) {
    tu_diags d;
    snippet_diags(&d, false);
    tu_event ev[8];
    int n = TU_READ_STR("rtl",
                        "000001 1 { a\n"
                        "garbage from somewhere\n"
                        "000002 x { b\n"
                        "000003 1 ? c\n"
                        "99999999999999 1 { too late\n"  /* ms * 10^6 overflows int64 */
                        "\n"
                        "000004 1 } a\n",
                        &d, NULL, ev, 8);
    CHECK_EQ_I(n, 2);
    CHECK_EQ_U(d.n, 4);
    CHECK_STR(d.rule[0], "bad-record");
    CHECK_EQ_U(d.line[0], 2);
    CHECK_EQ_U(d.col[0], 1);
    CHECK_STR(d.msg[0], "line matches no RTL record (expected 'TIME THREAD {|}|| TEXT'); skipped");
    CHECK_EQ_U(d.line[1], 3);
    CHECK_EQ_U(d.line[2], 4);
    CHECK_STR(d.rule[3], "time-overflow");
    CHECK_EQ_U(d.line[3], 5);
    CHECK_EQ_U(ev[1].line, 7);
}

void test_rtl_interleaved(void) {
    tu_diags d;
    snippet_diags(&d, false);
    tu_event ev[8];
    /* thread 11 wrote its prefix, thread 12 a whole record, then 11 its text */
    int n = TU_READ_STR("rtl",
                        "000010 11 | ctx : 000011 12 { work\n"
                        "value is 42\n"
                        "000012 12 } work\n",
                        &d, NULL, ev, 8);
    CHECK_EQ_I(n, 3);
    CHECK_EQ_I(ev[0].kind, TW_BEGIN);
    CHECK_STR(ev[0].name, "work");
    CHECK_EQ_U(ev[0].tid, 12);
    CHECK_EQ_I(ev[1].kind, TW_INSTANT);
    CHECK_EQ_U(ev[1].tid, 11);
    CHECK_EQ_I(ev[1].ts, 10000000);
    CHECK_STR(ev[1].cat, "ctx");
    CHECK_STR(ev[1].name, "value is 42");
    CHECK_EQ_I(ev[2].kind, TW_END);
    CHECK_EQ_U(d.n, 2);
    CHECK_STR(d.rule[0], "interleaved-record");
    CHECK_EQ_U(d.col[0], 19);
    CHECK_STR(d.msg[1], "line taken as the text of the message interrupted on line 1");
    /* the interrupted message never gets its text: emitted empty at the end */
    snippet_diags(&d, false);
    n = TU_READ_STR("rtl", "000010 11 | ctx : 000011 12 | other : hi\n", &d, NULL, ev, 8);
    CHECK_EQ_I(n, 2);
    CHECK_STR(ev[0].cat, "other");
    CHECK_STR(ev[0].name, "hi");
    CHECK_STR(ev[1].cat, "ctx");
    CHECK_STR(ev[1].name, "");
    CHECK_EQ_U(d.n, 1);
}

void test_rtl_interleaved_deep(void) {
    /* records nested in messages nested in messages: no fixed limit */
    tu_diags d;
    snippet_diags(&d, false);
    tu_event ev[16];
    int n = TU_READ_STR("rtl",
                        "000001 1 | a : 000002 1 | b : 000003 1 | c : 000004 1 | d : "
                        "000005 1 | e : x\n",
                        &d, NULL, ev, 16);
    CHECK_EQ_I(n, 5);
    static const char *const cats[] = {"a", "b", "c", "e", "d"};
    static const char *const names[] = {"", "", "", "x", ""};
    for (int i = 0; i < 5 && i < n; i++) {
        CHECK_EQ_I(ev[i].kind, TW_INSTANT);
        CHECK_STR(ev[i].cat, cats[i]);
        CHECK_STR(ev[i].name, names[i]);
    }
    CHECK_EQ_U(d.n, 4);
    /* a split left over from the line before, then three nested records */
    snippet_diags(&d, false);
    n = TU_READ_STR("rtl",
                    "000001 1 | a : 000002 1 { y\n"
                    "000003 1 | a : 000004 1 | b : 000005 1 | c : 000006 1 { x\n",
                    &d, NULL, ev, 16);
    CHECK_EQ_I(n, 6);
    CHECK_STR(ev[0].name, "y");
    CHECK_EQ_I(ev[4].kind, TW_BEGIN);
    CHECK_STR(ev[4].name, "x");
    CHECK_STR(ev[5].cat, "c"); /* still waiting for its text at the end */
    /* a long chain does not exhaust the stack */
    size_t reps = 20000, len = 0;
    char *big = malloc(reps * 16 + 32);
    for (size_t i = 0; i < reps; i++) len += (size_t)sprintf(big + len, "000001 1 | a : ");
    len += (size_t)sprintf(big + len, "end\n");
    snippet_diags(&d, false);
    n = tu_read("rtl", "t", big, len, NULL, &d, NULL, ev, 16);
    CHECK_EQ_I(n, (int)reps);
    free(big);
}

void test_rtl_pid_from_name(void) {
    static const char text[] = "000001 1 { a\n";
    tu_diags d;
    snippet_diags(&d, false);
    tw_trace_info info;
    tu_event ev[2];
    const char *p = tu_tempfile(0, "_1234.log", text, sizeof text - 1);
    CHECK_EQ_I(tu_read("rtl", p, NULL, 0, NULL, &d, &info, ev, 2), 1);
    CHECK(info.has_pid);
    CHECK_EQ_U(info.pid, 1234);
    CHECK_EQ_U(ev[0].pid, 1234);
    unlink(p);
    /* the header line wins over the file name */
    static const char text2[] = "Process id is 77\n000001 1 { a\n";
    p = tu_tempfile(0, "_1234.log", text2, sizeof text2 - 1);
    CHECK_EQ_I(tu_read("rtl", p, NULL, 0, NULL, &d, &info, ev, 2), 1);
    CHECK_EQ_U(info.pid, 77);
    CHECK_EQ_U(ev[0].pid, 77);
    unlink(p);
    /* .nopid names carry no pid */
    p = tu_tempfile(0, "_55.log.nopid", text, sizeof text - 1);
    CHECK_EQ_I(tu_read("rtl", p, NULL, 0, NULL, &d, &info, ev, 2), 1);
    CHECK(!info.has_pid);
    unlink(p);
    CHECK_EQ_U(d.n, 0);
}

void test_rtl_trailer_reopen(void) {
    tu_diags d;
    snippet_diags(&d, true);
    tu_event ev[8];
    int n = TU_READ_STR("rtl",
                        "Process id is 5\n"
                        "000001 1 { a\n"
                        "closing log file at 000009opening log file 2.000000 seconds past "
                        "January 1st 1970\n"
                        "corresponding to 9 ms after timer start\n"
                        "Process id is 5\n"
                        "000010 1 } a\n"
                        "closing log file at 000011",
                        &d, NULL, ev, 8);
    CHECK_EQ_I(n, 4);
    CHECK_EQ_I(ev[1].kind, TW_META);
    CHECK_STR(ev[1].name, "trace_end");
    CHECK_EQ_I(ev[1].ts, 9000000);
    CHECK_EQ_I(ev[2].kind, TW_END);
    CHECK_EQ_I(ev[3].ts, 11000000);
    CHECK_EQ_U(d.n, 1);
    CHECK_STR(d.rule[0], "rtl-reopened");
    CHECK_EQ_U(d.col[0], 27);
}

void test_rtl_writer(void) {
    tu_diags d;
    tu_diags_init(&d);
    size_t len;
    char *out = tu_convert(
        "{\"kind\":\"trace\",\"format\":\"x\",\"origin_ns\":1000000123456789,\"origin_ts\":2500000,"
        "\"pid\":9}\n"
        "{\"ts\":3000000,\"kind\":\"begin\",\"pid\":9,\"tid\":4,\"name\":\"a\\nb\"}\n"
        "{\"ts\":3400000,\"kind\":\"instant\",\"pid\":9,\"tid\":4,\"name\":\"m\",\"msg\":\"t\"}\n"
        "{\"ts\":3500000,\"kind\":\"begin\",\"pid\":9,\"tid\":4,\"name\":\"s\",\"cat\":\"a\"}\n"
        "{\"ts\":3600000,\"kind\":\"counter\",\"pid\":9,\"tid\":4,\"name\":\"c\",\"value\":1}\n"
        "{\"ts\":4000000,\"kind\":\"end\",\"pid\":8,\"tid\":4,\"name\":\"\"}\n"
        "{\"ts\":5000000,\"kind\":\"meta\",\"pid\":9,\"tid\":0,\"name\":\"trace_end\"}\n",
        "rtl", &d, &len);
    CHECK(out != NULL);
    if (out)
        CHECK_STR(out, "opening log file 1000000.123957 seconds past January 1st 1970\n"
                       "corresponding to 3 ms after timer start\n"
                       "Process id is 9\n"
                       "000003 4 { a b\n"
                       "000003 4 | : m : t\n"
                       "000004 4 | a : { s\n"
                       "000004 4 }\n"
                       "closing log file at 000005");
    free(out);
    CHECK_EQ_U(d.n, 2);
    CHECK_STR(d.rule[0], "precision-loss");
    CHECK_STR(d.msg[0], "2 timestamps rounded to the nearest millisecond (the resolution of rtl)");
    CHECK_STR(d.rule[1], "lossy-conversion");
    CHECK_STR(d.msg[1], "the rtl format cannot hold everything: wall-clock origin rounded to "
                        "microseconds (1), line breaks in names replaced by spaces (1), message "
                        "texts joined to their names (1), counter events dropped (1), events of "
                        "other processes written under this log's process id (1)");
}

void test_writer_losses(void) {
    /* scope messages, values and pids that rtl and lms cannot hold are counted */
    static const char in[] =
        "{\"kind\":\"trace\",\"pid\":3}\n"
        "{\"ts\":1000000,\"kind\":\"begin\",\"pid\":3,\"tid\":1,\"name\":\"a\",\"msg\":\"m\"}\n"
        "{\"ts\":2000000,\"kind\":\"instant\",\"pid\":3,\"tid\":1,\"name\":\"i\",\"value\":4}\n"
        "{\"ts\":3000000,\"kind\":\"end\",\"pid\":3,\"tid\":1,\"name\":\"a\",\"value\":5}\n";
    tu_diags d;
    tu_diags_init(&d);
    size_t len;
    char *out = tu_convert(in, "rtl", &d, &len);
    CHECK(out != NULL);
    if (out) CHECK_STR(out, "Process id is 3\n000001 1 { a\n000002 1 | : i\n000003 1 } a\n");
    free(out);
    CHECK_EQ_U(d.n, 1);
    CHECK_STR(d.msg[0], "the rtl format cannot hold everything: message texts of scope events "
                        "dropped (1), event values dropped (2)");
    tu_diags_init(&d);
    out = tu_convert(in, "lms", &d, &len);
    CHECK(out != NULL);
    if (out) CHECK_STR(out, "2,0,a\n0,0,1000\n1,0,2000\n");
    free(out);
    CHECK_EQ_U(d.n, 1);
    CHECK_STR(d.msg[0], "the lms format cannot hold everything: process id dropped (1), message "
                        "texts dropped (1), instant events dropped (1), event values dropped (1), "
                        "thread ids dropped (1)");
}

void test_writer_extremes(void) {
    /* times at the ends of int64 are written so that they read back */
    static const char in[] =
        "{\"kind\":\"trace\",\"origin_ns\":5,\"origin_ts\":-9223372036854775808}\n"
        "{\"ts\":9223372036854775807,\"kind\":\"begin\",\"pid\":0,\"tid\":1,\"name\":\"a\"}\n"
        "{\"ts\":-9223372036854775808,\"kind\":\"end\",\"pid\":0,\"tid\":1,\"name\":\"a\"}\n";
    tu_diags d;
    tu_diags_init(&d);
    size_t len;
    char *out = tu_convert(in, "rtl", &d, &len);
    CHECK(out != NULL);
    if (out) CHECK_STR(out, "Process id is 0\n9223372036854 1 { a\n");
    tu_event ev[4];
    tu_diags rd;
    snippet_diags(&rd, true);
    CHECK_EQ_I(out ? tu_read("rtl", "t", out, len, NULL, &rd, NULL, ev, 4) : -1, 1);
    CHECK_EQ_I(ev[0].ts, INT64_C(9223372036854000000));
    CHECK_EQ_U(rd.n, 0);
    free(out);
    CHECK(tu_diag_find(&d, "lossy-conversion") >= 0);
    CHECK(strstr(d.msg[tu_diag_find(&d, "lossy-conversion")],
                 "wall-clock origin out of range dropped (1), events before time zero dropped (1)"));
    tu_diags_init(&d);
    out = tu_convert(in, "lms", &d, &len);
    CHECK(out != NULL);
    if (out) CHECK_STR(out, "2,0,a\n0,0,9223372036854775\n1,0,-18446744073709550\n");
    snippet_diags(&rd, true);
    CHECK_EQ_I(out ? tu_read("lms", "t", out, len, NULL, &rd, NULL, ev, 4) : -1, 2);
    CHECK_EQ_I(ev[0].ts, INT64_C(9223372036854775000));
    CHECK_EQ_I(ev[1].ts, INT64_C(-9223372036854775000));
    CHECK_EQ_U(rd.n, 0);
    free(out);
}

void test_rtl_writer_ambiguities(void) {
    /* text that an RTL reader would split differently is written, and counted */
    static const char in[] =
        "{\"ts\":1000000,\"kind\":\"instant\",\"pid\":0,\"tid\":1,\"name\":\"m\",\"cat\":\"a : b\"}\n"
        "{\"ts\":2000000,\"kind\":\"instant\",\"pid\":0,\"tid\":1,\"name\":\"000012 3 { x\"}\n"
        "{\"ts\":3000000,\"kind\":\"instant\",\"pid\":0,\"tid\":1,\"name\":\"{not a scope\"}\n";
    tu_diags d;
    tu_diags_init(&d);
    size_t len;
    char *out = tu_convert(in, "rtl", &d, &len);
    CHECK(out != NULL);
    if (out)
        CHECK_STR(out, "Process id is 0\n000001 1 | a : b : m\n000002 1 | : 000012 3 { x\n"
                       "000003 1 | : {not a scope\n");
    free(out);
    CHECK_EQ_U(d.n, 1);
    CHECK_STR(d.msg[0], "the rtl format cannot hold everything: categories containing ' : ' (read "
                        "back split there) (1), messages that look like records (read back as "
                        "two) (1), messages starting with a brace (read back as sub-scopes) (1)");
}

void test_name_limit(void) {
    /* with a cap on distinct names, the readers report the first name that
     * does not fit and stop there (TW_ERR) with the events before it */
    static const struct {
        const char *fmt, *text;
        int events;
    } cases[] = {
        {"rtl", "000001 1 { a\n000002 1 { b\n000003 1 | c : d\n000004 1 } a\n", 1},
        {"lms", "2,0,a\n0,0,1\n2,1,b\n0,1,1\n1,1,1\n1,0,1\n", 1},
        {"jsonl", "{\"ts\":1,\"kind\":\"begin\",\"pid\":0,\"tid\":0,\"name\":\"a\"}\n"
                  "{\"ts\":2,\"kind\":\"begin\",\"pid\":0,\"tid\":0,\"name\":\"b\"}\n"
                  "{\"ts\":3,\"kind\":\"begin\",\"pid\":0,\"tid\":0,\"name\":\"c\"}\n", 2},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tu_diags d;
        tu_diags_init(&d);
        tw_strtab *st = tw_strtab_new();
        tw_input *in;
        tw_reader *r;
        CHECK(tw_input_open_mem(cases[i].text, strlen(cases[i].text), "t", NULL, &d.sink, &in) == 0);
        CHECK(tw_reader_open(tw_format_find(cases[i].fmt), in, st, &d.sink, NULL, &r) == TW_OK);
        /* room for what the reader interned at open (jsonl: the first
         * event's name too), plus one name */
        tw_strtab_set_limit(st, tw_strtab_count(st) + 1);
        tw_event e;
        int n = 0, rc;
        while ((rc = tw_reader_next(r, &e)) == TW_OK) n++;
        CHECK_EQ_I(rc, TW_ERR);
        CHECK_EQ_I(n, cases[i].events);
        CHECK(tu_diag_find(&d, "limit-exceeded") >= 0);
        CHECK_EQ_U(d.sink.problems[TW_R_LIMIT], 1);  /* one report, not one per line after */
        tw_reader_close(r);
        tw_input_close(in);
        tw_strtab_free(st);
    }
}

void test_transient_names(void) {
    /* a consumer that takes transient names gets each instant's name (an RTL
     * message's text, a jsonl instant's name) outside the string table,
     * valid until the next event; the table then holds the same strings
     * however many distinct texts there are, and a repeated text is still
     * the same bytes */
    static const struct {
        const char *fmt, *text;
        const char *names[5];
        int events;  /* and the trailer's trace_end, for rtl */
    } cases[] = {
        {"rtl",
         "Process id is 5\n"
         "000001 1 { scope\n"
         "000002 1 | ctx : first text\n"
         "000003 1 | ctx : second text\n"
         "000003 2 | : first text\n"
         "000004 1 } scope\n"
         "closing log file at 000005\n",
         {"scope", "first text", "second text", "first text", "scope"}, 6},
        {"jsonl",
         "{\"ts\":1,\"kind\":\"begin\",\"pid\":0,\"tid\":1,\"name\":\"scope\"}\n"
         "{\"ts\":2,\"kind\":\"instant\",\"pid\":0,\"tid\":1,\"name\":\"first text\"}\n"
         "{\"ts\":3,\"kind\":\"instant\",\"pid\":0,\"tid\":1,\"name\":\"second text\"}\n"
         "{\"ts\":3,\"kind\":\"instant\",\"pid\":0,\"tid\":2,\"name\":\"first text\"}\n"
         "{\"ts\":4,\"kind\":\"end\",\"pid\":0,\"tid\":1,\"name\":\"scope\"}\n",
         {"scope", "first text", "second text", "first text", "scope"}, 5},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        size_t counts[2];
        for (int transient = 0; transient < 2; transient++) {
            tu_diags d;
            tu_diags_init(&d);
            tw_strtab *st = tw_strtab_new();
            tw_input *in;
            tw_reader *r;
            CHECK(tw_input_open_mem(cases[c].text, strlen(cases[c].text), "t_5.log", NULL,
                                    &d.sink, &in) == 0);
            CHECK(tw_reader_open_ex(tw_format_find(cases[c].fmt), in, st, &d.sink, NULL,
                                    transient ? TW_READ_TRANSIENT_NAMES : 0, &r) == TW_OK);
            tw_event e;
            int n = 0, rc;
            while ((rc = tw_reader_next(r, &e)) == TW_OK) {
                if (n < 5) {
                    CHECK_MEM(e.name->s, e.name->len, cases[c].names[n]);
                    CHECK_EQ_I(e.name->s[e.name->len], 0);
                    bool message = e.kind == TW_INSTANT;
                    CHECK(tw_str_transient(e.name) == (transient && message));
                    if (!tw_str_transient(e.name)) CHECK(tw_strtab_at(st, e.name->id) == e.name);
                }
                n++;
            }
            CHECK_EQ_I(rc, TW_EOF);
            CHECK_EQ_I(n, cases[c].events);
            CHECK_EQ_I(d.n, 0);
            counts[transient] = tw_strtab_count(st);
            tw_reader_close(r);
            tw_input_close(in);
            tw_strtab_free(st);
        }
        /* the two distinct texts are the only strings left out */
        CHECK_EQ_U(counts[0], counts[1] + 2);
    }
}
