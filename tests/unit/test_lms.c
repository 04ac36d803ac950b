/* Unit tests of the LMS CSV reader and writer. */
#include <stdlib.h>

#include "harness.h"

void test_lms_basic(void) {
    /* the LMS wiki's example: reader [10,1000] us, writer [1000,1200], reader [1210,1910] */
    tu_diags d;
    tu_diags_init(&d);
    tw_trace_info info;
    tu_event ev[8];
    int n = TU_READ_STR("lms", "2,0,reader\n0,0,10\n1,0,990\n2,1,writer\n0,1,0\n1,1,200\n0,0,10\n1,0,700\n",
                        &d, &info, ev, 8);
    CHECK_EQ_I(n, 6);
    static const int64_t ts[] = {10000, 1000000, 1000000, 1200000, 1210000, 1910000};
    static const char *const names[] = {"reader", "reader", "writer", "writer", "reader", "reader"};
    for (int i = 0; i < 6 && i < n; i++) {
        CHECK_EQ_I(ev[i].ts, ts[i]);
        CHECK_STR(ev[i].name, names[i]);
        CHECK_EQ_I(ev[i].kind, i % 2 ? TW_END : TW_BEGIN);
        CHECK_EQ_U(ev[i].pid, 0);
        CHECK_EQ_U(ev[i].tid, 0);
    }
    CHECK_EQ_U(ev[0].line, 2);
    CHECK_EQ_I(info.resolution_ns, 1000);
    CHECK(!info.has_origin);
    CHECK(!info.has_pid);
    CHECK_EQ_U(d.n, 0);
}

void test_lms_negative_diff(void) {
    tu_diags d;
    tu_diags_init(&d);
    tu_event ev[8];
    /* labels with commas; a negative difference from a thread that sampled early */
    int n = TU_READ_STR("lms", "2,0,a,b,c\r\n0,0,100\r\n2,1,x\r\n0,1,-3\r\n1,1,4\r\n1,0,9", &d, NULL, ev, 8);
    CHECK_EQ_I(n, 4);
    CHECK_STR(ev[0].name, "a,b,c");
    CHECK_EQ_I(ev[1].ts, 97000);
    CHECK_EQ_I(ev[2].ts, 101000);
    CHECK_EQ_I(ev[3].ts, 110000);
    CHECK_EQ_U(d.n, 0);
}

void test_lms_mapping_problems(void) {
    tu_diags d;
    tu_diags_init(&d);
    tu_event ev[8];
    int n = TU_READ_STR("lms",
                        "0,5,1\n"        /* used before its mapping */
                        "1,5,1\n"        /* reported once only */
                        "2,1,b\n"        /* expected id 0 */
                        "2,2,b\n"        /* label mapped twice */
                        "2,2,c\n"        /* id mapped again */
                        "0,2,1\n",
                        &d, NULL, ev, 8);
    CHECK_EQ_I(n, 3);
    CHECK_STR(ev[0].name, "label#5");
    CHECK_STR(ev[1].name, "label#5");
    CHECK_STR(ev[2].name, "c");
    CHECK_EQ_U(d.n, 4);
    CHECK_STR(d.rule[0], "lms-unmapped-id");
    CHECK_STR(d.msg[0], "id 5 is used before its mapping line; named 'label#5'");
    CHECK_EQ_U(d.line[0], 1);
    CHECK_STR(d.rule[1], "lms-id-order");
    CHECK_STR(d.msg[1], "mapping ids should ascend from 0: expected 0, got 1");
    CHECK_STR(d.rule[2], "lms-duplicate-label");
    CHECK_STR(d.msg[2], "label 'b' is already mapped to id 1");
    CHECK_EQ_U(d.col[2], 5);
    CHECK_STR(d.rule[3], "lms-id-redefined");
    CHECK_STR(d.msg[3], "id 2 is mapped again (was 'b', now 'c')");
}

void test_lms_largest_id(void) {
    tu_diags d;
    tu_diags_init(&d);
    tu_event ev[4];
    int n = TU_READ_STR("lms", "2,18446744073709551615,a\n0,18446744073709551615,1\n2,0,a\n", &d,
                        NULL, ev, 4);
    CHECK_EQ_I(n, 1);
    CHECK_STR(ev[0].name, "a");
    int k = tu_diag_find(&d, "lms-duplicate-label");
    CHECK(k >= 0);
    if (k >= 0) CHECK_STR(d.msg[k], "label 'a' is already mapped to id 18446744073709551615");
}

void test_lms_legacy(void) {
    tu_diags d;
    tu_diags_init(&d);
    tu_event ev[8];
    int n = TU_READ_STR("lms", "0,10,reader\n1,990,reader\n", &d, NULL, ev, 8);
    CHECK_EQ_I(n, 2);
    CHECK_STR(ev[0].name, "reader");
    CHECK_EQ_I(ev[0].ts, 10000);
    CHECK_EQ_I(ev[1].ts, 1000000);
    CHECK_EQ_U(d.n, 1);
    CHECK_STR(d.rule[0], "lms-legacy-format");
    CHECK_EQ_I(d.sev[0], TW_SEV_NOTE);
}

void test_lms_bad_lines(void) {
    tu_diags d;
    tu_diags_init(&d);
    tu_event ev[8];
    int n = TU_READ_STR("lms",
                        "2,0,a\n"
                        "3,0,1\n"
                        "0,x,1\n"
                        "0,0\n"
                        "0,0,1.5\n"
                        "0,0,9223372036854775807\n"
                        "1,0,9223372036854775807\n"
                        "0,0,1\n"
                        "1,0,",
                        &d, NULL, ev, 8);
    CHECK_EQ_I(n, 1);
    CHECK_EQ_U(d.n, 7);
    static const char *const rules[] = {"bad-record", "bad-record", "bad-record", "bad-record",
                                        "time-overflow", "time-overflow", "truncated-file"};
    static const uint64_t lines[] = {2, 3, 4, 5, 6, 7, 9};
    static const uint64_t cols[] = {1, 3, 4, 5, 5, 5, 5};
    for (size_t i = 0; i < 7 && i < d.n; i++) {
        CHECK_STR(d.rule[i], rules[i]);
        CHECK_EQ_U(d.line[i], lines[i]);
        CHECK_EQ_U(d.col[i], cols[i]);
    }
    CHECK_STR(d.msg[0], "expected a record type 0, 1 or 2 followed by a comma; line skipped");
    CHECK_STR(d.msg[6], "the last line is incomplete (expected a signed decimal time "
                        "difference); skipped");
    /* the marker of "0,x,1" is lost but its microsecond still counts */
    CHECK_EQ_I(ev[0].ts, 2000);
}

void test_lms_writer(void) {
    tu_diags d;
    tu_diags_init(&d);
    size_t len;
    char *out = tu_convert(
        "{\"kind\":\"trace\",\"format\":\"x\",\"origin_ns\":5,\"origin_ts\":0}\n"
        "{\"ts\":10400,\"kind\":\"begin\",\"pid\":1,\"tid\":1,\"name\":\"run\"}\n"
        "{\"ts\":10600,\"kind\":\"begin\",\"pid\":1,\"tid\":2,\"name\":\"mod\\nx\"}\n"
        "{\"ts\":10700,\"kind\":\"instant\",\"pid\":1,\"tid\":1,\"name\":\"i\"}\n"
        "{\"ts\":9000,\"kind\":\"end\",\"pid\":1,\"tid\":2,\"name\":\"mod\\nx\"}\n"
        "{\"ts\":20000,\"kind\":\"end\",\"pid\":1,\"tid\":3,\"name\":\"run\",\"cat\":\"c\"}\n",
        "lms", &d, &len);
    CHECK(out != NULL);
    if (out)
        CHECK_STR(out, "2,0,run\n0,0,10\n2,1,mod x\n0,1,1\n1,1,-2\n1,0,11\n");
    free(out);
    CHECK_EQ_U(d.n, 2);
    CHECK_STR(d.msg[0], "2 timestamps rounded to the nearest microsecond (the resolution of lms)");
    CHECK_STR(d.msg[1], "the lms format cannot hold everything: wall-clock origin dropped (1), "
                        "process id dropped (1), line breaks in names replaced by spaces (1), "
                        "instant events dropped (1), categories dropped (1), threads merged into one (3)");
}
