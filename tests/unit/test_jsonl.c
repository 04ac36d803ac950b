/* Unit tests of the canonical jsonl reader and writer. */
#include <stdlib.h>

#include "harness.h"

void test_jsonl_reader_fields(void) {
    tu_diags d;
    tu_diags_init(&d);
    tw_trace_info info;
    tu_event ev[8];
    int n = TU_READ_STR("jsonl",
                        "\n{\"kind\":\"trace\",\"format\":\"lms\",\"resolution_ns\":1000,"
                        "\"origin_ns\":-5,\"origin_ts\":7,\"pid\":4294967295}\n"
                        " { \"name\" : \"n\" , \"tid\":18446744073709551615,\"pid\":0,"
                        "\"kind\":\"counter\",\"ts\":-9223372036854775808,\"value\":-3,"
                        "\"cat\":null,\"future\":[1,{\"a\":[true,false,null,1.5e3]}]} \n"
                        "{\"ts\":1,\"kind\":\"meta\",\"pid\":1,\"tid\":2,\"name\":\"thread_name\","
                        "\"msg\":\"main\",\"future\":1}\n",
                        &d, &info, ev, 8);
    CHECK_EQ_I(n, 2);
    CHECK_EQ_I(info.resolution_ns, 1000);
    CHECK(info.has_origin);
    CHECK_EQ_I(info.origin_ns, -5);
    CHECK_EQ_I(info.origin_ts, 7);
    CHECK(info.has_pid);
    CHECK_EQ_U(info.pid, 4294967295u);
    CHECK_EQ_I(ev[0].kind, TW_COUNTER);
    CHECK_EQ_I(ev[0].ts, INT64_MIN);
    CHECK_EQ_U(ev[0].tid, UINT64_MAX);
    CHECK(!ev[0].has_cat);
    CHECK_EQ_I(ev[1].kind, TW_META);
    CHECK_STR(ev[1].msg, "main");
    CHECK_EQ_U(d.n, 1); /* the unknown field, once */
    CHECK_STR(d.rule[0], "unknown-field");
    CHECK_STR(d.msg[0], "unknown field 'future' ignored (reported once)");
    CHECK_EQ_U(d.line[0], 3);
}

void test_jsonl_reader_strings(void) {
    tu_diags d;
    tu_diags_init(&d);
    tu_event ev[8];
    int n = TU_READ_STR("jsonl",
                        "{\"ts\":0,\"kind\":\"instant\",\"pid\":0,\"tid\":0,"
                        "\"name\":\"\\u00e9\\ud83d\\ude00\\n\\\"\\/\",\"cat\":\"\",\"msg\":\"\"}\n"
                        "{\"ts\":0,\"kind\":\"begin\",\"pid\":0,\"tid\":0,"
                        "\"name\":\"caf\xef\xbf\xbd\",\"name_base64\":\"Y2Fm6Q==\"}\n"
                        "{\"ts\":0,\"kind\":\"begin\",\"pid\":0,\"tid\":0,\"name\":\"\\ud800x\"}\n",
                        &d, NULL, ev, 8);
    CHECK_EQ_I(n, 3);
    CHECK_STR(ev[0].name, "\xc3\xa9\xf0\x9f\x98\x80\n\"/");
    CHECK(ev[0].has_cat && ev[0].has_msg);
    CHECK_STR(ev[0].cat, "");
    CHECK_STR(ev[1].name, "caf\xe9");
    CHECK_STR(ev[2].name, "\xef\xbf\xbdx"); /* a lone surrogate becomes U+FFFD */
    CHECK_EQ_U(d.n, 1);
    CHECK_STR(d.rule[0], "invalid-utf8");
    CHECK_EQ_U(d.line[0], 3);
    CHECK_EQ_U(d.col[0], 48);
    CHECK_STR(d.msg[0], "lone UTF-16 surrogate in a \\u escape; replaced by U+FFFD");
}

void test_jsonl_hostile_keys(void) {
    /* args keys with quotes, backslashes, line breaks and NUL survive a round trip */
    static const char in[] =
        "{\"kind\":\"trace\",\"format\":\"x\",\"format_base64\":\"/w==\"}\n"
        "{\"ts\":0,\"kind\":\"instant\",\"pid\":1,\"tid\":1,\"name\":\"a\","
        "\"args\":{\"q\\nz\":\"v\",\"k\\\"x\":\"\\u00ff\",\"n\\u0000ul\":7,\"b\":\"?\","
        "\"b_base64\":\"gA==\"}}\n";
    static const char want[] =
        "{\"kind\":\"trace\",\"format\":\"\xef\xbf\xbd\",\"format_base64\":\"/w==\","
        "\"resolution_ns\":1}\n"
        "{\"ts\":0,\"kind\":\"instant\",\"pid\":1,\"tid\":1,\"name\":\"a\","
        "\"args\":{\"q\\nz\":\"v\",\"k\\\"x\":\"\xc3\xbf\",\"n\\u0000ul\":7,\"b\":\"\xef\xbf\xbd\","
        "\"b_base64\":\"gA==\"}}\n";
    tu_diags d;
    tu_diags_init(&d);
    size_t len;
    char *once = tu_convert(in, "jsonl", &d, &len);
    CHECK(once != NULL);
    if (!once) return;
    CHECK_STR(once, want);
    char *twice = tu_convert(once, "jsonl", &d, &len);
    CHECK(twice && strcmp(once, twice) == 0);
    free(once);
    free(twice);
    CHECK_EQ_U(d.n, 0);
}

void test_jsonl_ranges(void) {
    static const struct {
        const char *line;
        uint64_t col;
        const char *msg;
    } cases[] = {
        {"{\"kind\":\"trace\",\"origin_ns\":9223372036854775808,\"origin_ts\":0}", 29,
         "\"origin_ns\" out of range; line skipped"},
        {"{\"kind\":\"trace\",\"resolution_ns\":18446744073709551615}", 33,
         "\"resolution_ns\" out of range; line skipped"},
        {"{\"ts\":0,\"kind\":\"begin\",\"pid\":0,\"tid\":0,\"name\":\"a\",\"args\":{\"n\":9223372036854775808}}",
         63, "integer out of range; line skipped"},
        {"{\"ts\":0,\"kind\":\"begin\",\"pid\":0,\"tid\":0,\"name\":\"a\",\"args\":{\"\xff\":1}}", 59,
         "args keys must be UTF-8; line skipped"},
        {"{\"ts\":0,\"kind\":\"begin\",\"pid\":0,\"tid\":0,\"name\":\"a\",\"x\":1\0002}", 56,
         "expected ',' or '}'; line skipped"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tu_diags d;
        tu_diags_init(&d);
        tu_event ev[2];
        char text[256];
        size_t n = strlen(cases[i].line);
        if (i == 4) n += 2; /* the line holds a NUL byte */
        memcpy(text, cases[i].line, n);
        text[n] = '\n';
        int got = tu_read("jsonl", "t", text, n + 1, NULL, &d, NULL, ev, 2);
        CHECK_EQ_I(got, 0);
        int k = tu_diag_find(&d, "bad-record");
        CHECK(k >= 0);
        if (k < 0) continue;
        CHECK_EQ_U(d.col[k], cases[i].col);
        CHECK_STR(d.msg[k], cases[i].msg);
    }
}

void test_jsonl_reader_errors(void) {
    static const struct {
        const char *line;
        const char *rule;
        uint64_t col;
        const char *msg;
    } cases[] = {
        {"{\"ts\":1.5,\"kind\":\"begin\",\"pid\":0,\"tid\":0,\"name\":\"a\"}", "bad-record", 7,
         "number must be an integer; line skipped"},
        {"{\"ts\":1,\"kind\":\"begin\",\"pid\":0,\"tid\":0}", "bad-record", 1,
         "missing \"name\"; line skipped"},
        {"{\"ts\":1,\"kind\":\"start\",\"pid\":0,\"tid\":0,\"name\":\"a\"}", "bad-record", 16,
         "unknown \"kind\"; line skipped"},
        {"{\"ts\":1,\"kind\":\"begin\",\"pid\":-1,\"tid\":0,\"name\":\"a\"}", "bad-record", 30,
         "\"pid\" must be between 0 and 4294967295; line skipped"},
        {"{\"ts\":9223372036854775808,\"kind\":\"begin\",\"pid\":0,\"tid\":0,\"name\":\"a\"}",
         "time-overflow", 7, "\"ts\" 9223372036854775808 does not fit in 64-bit nanoseconds; line skipped"},
        {"{\"ts\":1,\"ts\":2,\"kind\":\"begin\",\"pid\":0,\"tid\":0,\"name\":\"a\"}", "bad-record", 14,
         "duplicate key; line skipped"},
        {"{\"ts\":1,\"kind\":\"begin\",\"pid\":0,\"tid\":0,\"name\":\"a\"} x", "bad-record", 52,
         "unexpected text after the object; line skipped"},
        {"{\"ts\":1,\"kind\":\"begin\",\"pid\":0,\"tid\":0,\"name\":\"a\tb\"}", "bad-record", 49,
         "control character in string; line skipped"},
        {"{\"ts\":1,\"kind\":\"begin\",\"pid\":0,\"tid\":0,\"name\":\"a\",\"args\":{\"k\":[1]}}",
         "bad-record", 63, "args values must be integers or strings; line skipped"},
        {"[1,2]", "bad-record", 1, "expected '{'; line skipped"},
        {"{\"ts\":01,\"kind\":\"begin\",\"pid\":0,\"tid\":0,\"name\":\"a\"}", "bad-record", 7,
         "invalid number (leading zero); line skipped"},
        {"{\"ts\":1,\"kind\":\"begin\",\"pid\":0,\"tid\":0,\"name_base64\":\"%%\"}", "bad-record", 54,
         "invalid base64 value; line skipped"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tu_diags d;
        tu_diags_init(&d);
        tu_event ev[2];
        char text[256];
        snprintf(text, sizeof text, "{\"kind\":\"trace\"}\n%s\n", cases[i].line);
        int n = TU_READ_STR("jsonl", text, &d, NULL, ev, 2);
        CHECK_EQ_I(n, 0);
        CHECK_EQ_U(d.n, 1);
        if (d.n != 1) continue;
        CHECK_STR(d.rule[0], cases[i].rule);
        CHECK_EQ_U(d.line[0], 2);
        CHECK_EQ_U(d.col[0], cases[i].col);
        CHECK_STR(d.msg[0], cases[i].msg);
    }
    /* a trace line later in the file */
    tu_diags d;
    tu_diags_init(&d);
    tu_event ev[2];
    CHECK_EQ_I(TU_READ_STR("jsonl", "{\"ts\":1,\"kind\":\"begin\",\"pid\":0,\"tid\":0,\"name\":\"trace\"}\n"
                                    "{\"kind\":\"trace\"}\n",
                           &d, NULL, ev, 2),
               1);
    CHECK_STR(ev[0].name, "trace");
    CHECK_EQ_U(d.n, 1);
    CHECK_STR(d.msg[0], "a \"trace\" line is only allowed as the first line; ignored");
}

void test_jsonl_writer_bytes(void) {
    tu_diags d;
    tu_diags_init(&d);
    size_t len;
    char *out = tu_convert("{\"kind\":\"trace\",\"format\":\"rtl\",\"resolution_ns\":1000000}\n"
                           "{\"ts\":5,\"kind\":\"instant\",\"pid\":1,\"tid\":2,"
                           "\"name\":\"x\",\"name_base64\":\"Y2Fm6Q==\",\"cat\":\"c\\u0001\","
                           "\"msg\":\"m\",\"msg_base64\":\"/w==\",\"value\":-1,"
                           "\"args\":{\"n\":3,\"s_base64\":\"gA==\",\"s\":\"?\",\"t\":\"ok\"}}\n",
                           "jsonl", &d, &len);
    CHECK(out != NULL);
    if (out)
        CHECK_STR(out, "{\"kind\":\"trace\",\"format\":\"rtl\",\"resolution_ns\":1000000}\n"
                       "{\"ts\":5,\"kind\":\"instant\",\"pid\":1,\"tid\":2,"
                       "\"name\":\"caf\xef\xbf\xbd\",\"name_base64\":\"Y2Fm6Q==\","
                       "\"cat\":\"c\\u0001\",\"msg\":\"\xef\xbf\xbd\",\"msg_base64\":\"/w==\","
                       "\"value\":-1,\"args\":{\"n\":3,\"s\":\"\xef\xbf\xbd\",\"s_base64\":\"gA==\","
                       "\"t\":\"ok\"}}\n");
    free(out);
    CHECK_EQ_U(d.n, 0);
}
