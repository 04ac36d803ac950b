/* Unit tests of the small JSON tree parser used to read reports back. */
#include "core/json.h"
#include "harness.h"

void test_json_tree(void) {
    static const char doc[] = "{\"a\": [1, -2, true, false, null, \"x\\u00e9\\ud83d\\ude00\\n\"],\n"
                              " \"b\": {\"c\": {}}, \"d\": []}";
    char err[64];
    uint64_t line, col;
    tw_jval *v = tw_json_parse(doc, sizeof doc - 1, err, sizeof err, &line, &col);
    CHECK(v != NULL);
    if (!v) return;
    CHECK_EQ_I(v->type, TW_JOBJ);
    CHECK_EQ_U(v->len, 3);
    const tw_jval *a = tw_json_get(v, "a");
    CHECK(a && a->type == TW_JARR && a->len == 6);
    if (a && a->len == 6) {
        CHECK_EQ_I(a->items[1].i, -2);
        CHECK(a->items[2].type == TW_JBOOL && a->items[2].b);
        CHECK(a->items[4].type == TW_JNULL);
        CHECK_MEM(a->items[5].s, a->items[5].len, "x\xc3\xa9\xf0\x9f\x98\x80\n");
        CHECK_EQ_U(a->items[0].line, 1);
        CHECK_EQ_U(a->items[0].col, 8);
    }
    const tw_jval *b = tw_json_get(v, "b");
    CHECK(b && b->line == 2 && b->col == 7);
    CHECK(tw_json_get(tw_json_get(b, "c"), "x") == NULL);
    CHECK(tw_json_get(v, "zz") == NULL);
    tw_json_free(v);
}

void test_json_tree_errors(void) {
    static const struct {
        const char *text;
        uint64_t line, col;
        const char *msg;
    } cases[] = {
        {"{\"a\":1,\"a\":2}", 1, 8, "duplicate key"},
        {"[1,\n 2.5]", 2, 2, "number must be an integer"},
        {"[99999999999999999999]", 1, 2, "integer out of range"},
        {"{\"a\" 1}", 1, 6, "expected ':'"},
        {"[1 2]", 1, 4, "expected ',' or ']'"},
        {"\"abc", 1, 1, "unterminated string"},
        {"{} {}", 1, 4, "unexpected text after the document"},
        {"", 1, 1, "missing value"},
        {"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]",
         1, 66, "values nested too deeply"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char err[64];
        uint64_t line = 0, col = 0;
        tw_jval *v = tw_json_parse(cases[i].text, strlen(cases[i].text), err, sizeof err, &line, &col);
        CHECK(v == NULL);
        tw_json_free(v);
        CHECK_STR(err, cases[i].msg);
        CHECK_EQ_U(line, cases[i].line);
        CHECK_EQ_U(col, cases[i].col);
    }
}
