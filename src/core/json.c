/* A small strict JSON parser (see json.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "tracewright/event.h"
#include "util.h"

typedef struct parser {
    const char *s, *p, *end;
    const char *line_start;  /* of line `line`, for value positions */
    const char *scanned;     /* newlines before this were counted */
    uint64_t line;
    char *err;
    size_t errlen;
    uint64_t err_line, err_col;
    bool failed;
} parser;

#define MAX_DEPTH 64

static bool fail(parser *ps, const char *at, const char *msg) {
    if (ps->failed) return false;
    ps->failed = true;
    snprintf(ps->err, ps->errlen, "%s", msg);
    /* position of `at`: count the lines up to it */
    uint64_t line = 1;
    const char *ls = ps->s;
    for (const char *q = ps->s; q < at && q < ps->end; q++)
        if (*q == '\n') {
            line++;
            ls = q + 1;
        }
    ps->err_line = line;
    ps->err_col = (uint64_t)(at - ls) + 1;
    return false;
}

static void ws(parser *ps) {
    while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r'))
        ps->p++;
}

static int hexv(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static bool hex4(parser *ps, uint32_t *v) {
    *v = 0;
    if (ps->end - ps->p < 4) return fail(ps, ps->p, "incomplete \\u escape");
    for (int k = 0; k < 4; k++) {
        int h = hexv(ps->p[k]);
        if (h < 0) return fail(ps, ps->p + k, "invalid \\u escape");
        *v = *v << 4 | (uint32_t)h;
    }
    ps->p += 4;
    return true;
}

static bool string(parser *ps, char **out, size_t *outlen) {
    const char *start = ps->p++;
    tw_buf b = {0};
    for (;;) {
        if (ps->p >= ps->end) {
            tw_buf_free(&b);
            return fail(ps, start, "unterminated string");
        }
        unsigned char c = (unsigned char)*ps->p;
        if (c == '"') {
            ps->p++;
            break;
        }
        if (c < 0x20) {
            tw_buf_free(&b);
            return fail(ps, ps->p, "control character in string");
        }
        char tmp[4];
        size_t n = 1;
        tmp[0] = (char)c;
        if (c == '\\') {
            const char *esc = ps->p++;
            if (ps->p >= ps->end) {
                tw_buf_free(&b);
                return fail(ps, esc, "unterminated string");
            }
            char e = *ps->p;
            static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
            const char *k = strchr(from, e);
            if (e && k) {
                tmp[0] = to[k - from];
            } else if (e == 'u') {
                ps->p++;
                uint32_t cp;
                if (!hex4(ps, &cp)) {
                    tw_buf_free(&b);
                    return false;
                }
                if (cp >= 0xD800 && cp <= 0xDBFF && ps->end - ps->p >= 6 && ps->p[0] == '\\' &&
                    ps->p[1] == 'u') {
                    const char *save = ps->p;
                    uint32_t lo;
                    ps->p += 2;
                    if (hex4(ps, &lo) && lo >= 0xDC00 && lo <= 0xDFFF)
                        cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                    else
                        ps->p = save;
                    if (ps->failed) {
                        tw_buf_free(&b);
                        return false;
                    }
                }
                if (cp >= 0xD800 && cp <= 0xDFFF) cp = 0xFFFD;
                n = tw_utf8_put(cp, tmp);
                ps->p--; /* the increment below steps over the last hex digit */
            } else {
                tw_buf_free(&b);
                return fail(ps, esc, "invalid escape in string");
            }
        }
        ps->p++;
        if (!tw_buf_append(&b, tmp, n)) {
            tw_buf_free(&b);
            return fail(ps, start, "out of memory");
        }
    }
    if (!tw_buf_append(&b, "", 1)) {
        tw_buf_free(&b);
        return fail(ps, start, "out of memory");
    }
    *out = b.p;
    *outlen = b.len - 1;
    return true;
}

static bool value(parser *ps, tw_jval *v, int depth);

static bool push_item(parser *ps, tw_jval *parent, size_t *cap, const tw_jval *item, char *key) {
    if (parent->len == *cap) {
        size_t nc = *cap ? *cap * 2 : 8;
        tw_jval *ni = realloc(parent->items, nc * sizeof *ni);
        if (!ni) return fail(ps, ps->p, "out of memory");
        parent->items = ni;
        if (parent->type == TW_JOBJ) {
            char **nk = realloc(parent->keys, nc * sizeof *nk);
            if (!nk) return fail(ps, ps->p, "out of memory");
            parent->keys = nk;
        }
        *cap = nc;
    }
    parent->items[parent->len] = *item;
    if (parent->type == TW_JOBJ) parent->keys[parent->len] = key;
    parent->len++;
    return true;
}

static void free_children(tw_jval *v);

/* Has the object a member named `key` already?  Large objects keep their
 * keys in an interning table so that the check stays cheap. */
static bool seen_key(tw_jval *obj, tw_strtab **index, const char *key) {
    if (obj->len < 16) return tw_json_get(obj, key) != NULL;
    if (!*index) {
        if (!(*index = tw_strtab_new())) return tw_json_get(obj, key) != NULL;
        for (size_t i = 0; i < obj->len; i++) tw_intern_cstr(*index, obj->keys[i]);
    }
    size_t before = tw_strtab_count(*index);
    if (!tw_intern_cstr(*index, key)) return tw_json_get(obj, key) != NULL;
    return tw_strtab_count(*index) == before;
}

static bool container_items(parser *ps, tw_jval *v, int depth, tw_strtab **index) {
    bool obj = *ps->p == '{';
    char close = obj ? '}' : ']';
    v->type = obj ? TW_JOBJ : TW_JARR;
    size_t cap = 0;
    ps->p++;
    ws(ps);
    if (ps->p < ps->end && *ps->p == close) {
        ps->p++;
        return true;
    }
    for (;;) {
        ws(ps);
        char *key = NULL;
        if (obj) {
            size_t kn;
            if (ps->p >= ps->end || *ps->p != '"') return fail(ps, ps->p, "expected a key string");
            const char *kat = ps->p;
            if (!string(ps, &key, &kn)) return false;
            if (seen_key(v, index, key)) {
                free(key);
                return fail(ps, kat, "duplicate key");
            }
            ws(ps);
            if (ps->p >= ps->end || *ps->p != ':') {
                free(key);
                return fail(ps, ps->p, "expected ':'");
            }
            ps->p++;
        }
        tw_jval item;
        memset(&item, 0, sizeof item);
        if (!value(ps, &item, depth + 1) || !push_item(ps, v, &cap, &item, key)) {
            free_children(&item);
            free(key);
            return false;
        }
        ws(ps);
        if (ps->p < ps->end && *ps->p == ',') {
            ps->p++;
            continue;
        }
        if (ps->p < ps->end && *ps->p == close) {
            ps->p++;
            return true;
        }
        return fail(ps, ps->p, obj ? "expected ',' or '}'" : "expected ',' or ']'");
    }
}

static bool container(parser *ps, tw_jval *v, int depth) {
    tw_strtab *index = NULL;
    bool ok = container_items(ps, v, depth, &index);
    tw_strtab_free(index);
    return ok;
}

static bool value(parser *ps, tw_jval *v, int depth) {
    ws(ps);
    memset(v, 0, sizeof *v);
    if (ps->p >= ps->end) return fail(ps, ps->p, "missing value");
    if (depth > MAX_DEPTH) return fail(ps, ps->p, "values nested too deeply");
    /* the value's position: count the newlines not yet counted */
    for (; ps->scanned < ps->p; ps->scanned++)
        if (*ps->scanned == '\n') {
            ps->line++;
            ps->line_start = ps->scanned + 1;
        }
    v->line = ps->line;
    v->col = (uint64_t)(ps->p - ps->line_start) + 1;
    char c = *ps->p;
    if (c == '{' || c == '[') return container(ps, v, depth);
    if (c == '"') {
        v->type = TW_JSTR;
        return string(ps, &v->s, &v->len);
    }
    static const char *const lits[] = {"true", "false", "null"};
    for (int k = 0; k < 3; k++) {
        size_t n = strlen(lits[k]);
        if ((size_t)(ps->end - ps->p) >= n && memcmp(ps->p, lits[k], n) == 0) {
            ps->p += n;
            v->type = k == 2 ? TW_JNULL : TW_JBOOL;
            v->b = k == 0;
            return true;
        }
    }
    if (c == '-' || (c >= '0' && c <= '9')) {
        const char *start = ps->p;
        if (*ps->p == '-') ps->p++;
        const char *digits = ps->p;
        while (ps->p < ps->end && *ps->p >= '0' && *ps->p <= '9') ps->p++;
        size_t nd = (size_t)(ps->p - digits);
        if (nd == 0 || (nd > 1 && digits[0] == '0')) return fail(ps, start, "invalid number");
        if (ps->p < ps->end && (*ps->p == '.' || *ps->p == 'e' || *ps->p == 'E'))
            return fail(ps, start, "number must be an integer");
        if (*start == '-') {
            if (!tw_parse_i64(start, (size_t)(ps->p - start), &v->i))
                return fail(ps, start, "integer out of range");
        } else {
            if (!tw_parse_u64(start, (size_t)(ps->p - start), &v->u))
                return fail(ps, start, "integer out of range");
            v->big = v->u > (uint64_t)INT64_MAX;
            v->i = v->big ? 0 : (int64_t)v->u;
        }
        v->type = TW_JINT;
        return true;
    }
    return fail(ps, ps->p, "invalid value");
}

static void free_children(tw_jval *v) {
    if (v->type == TW_JSTR) free(v->s);
    for (size_t i = 0; i < v->len && (v->type == TW_JARR || v->type == TW_JOBJ); i++) {
        free_children(&v->items[i]);
        if (v->type == TW_JOBJ) free(v->keys[i]);
    }
    free(v->items);
    free(v->keys);
}

void tw_json_free(tw_jval *v) {
    if (!v) return;
    free_children(v);
    free(v);
}

tw_jval *tw_json_parse(const char *text, size_t len, char *err, size_t errlen, uint64_t *line,
                       uint64_t *col) {
    parser ps = {.s = text, .p = text, .end = text + len, .line_start = text, .scanned = text,
                 .line = 1, .err = err, .errlen = errlen};
    tw_jval *v = calloc(1, sizeof *v);
    if (!v) {
        snprintf(err, errlen, "out of memory");
        *line = *col = 1;
        return NULL;
    }
    if (value(&ps, v, 0)) {
        ws(&ps);
        if (ps.p != ps.end) fail(&ps, ps.p, "unexpected text after the document");
    }
    if (ps.failed) {
        tw_json_free(v);
        *line = ps.err_line;
        *col = ps.err_col;
        return NULL;
    }
    return v;
}

const tw_jval *tw_json_get(const tw_jval *obj, const char *key) {
    if (!obj || obj->type != TW_JOBJ) return NULL;
    for (size_t i = 0; i < obj->len; i++)
        if (strcmp(obj->keys[i], key) == 0) return &obj->items[i];
    return NULL;
}
