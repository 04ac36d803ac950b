/*
 * jsonl - tracewright's canonical event stream: one JSON object per line.
 *
 *   {"kind":"trace","format":"rtl","resolution_ns":1000000,
 *    "origin_ns":996742800250000000,"origin_ts":0,"pid":4711}
 *   {"ts":1234000000,"kind":"begin","pid":4711,"tid":11,"name":"..."}
 *   {"ts":...,"kind":"instant",...,"name":"...","cat":"...","msg":"...",
 *    "value":42,"args":{"count":3,"file":"a.c"}}
 *
 * Keys are written in a fixed order, so writing what was read reproduces
 * it byte for byte.  A string that is not valid UTF-8 is written with each
 * bad byte as U+FFFD and followed by "<key>_base64" holding the exact bytes;
 * the reader prefers the _base64 form.  See docs/formats/jsonl.md.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats.h"

/* ---- probe --------------------------------------------------------------- */

static int jsonl_probe(const unsigned char *head, size_t len, const char *path) {
    const char *s = (const char *)head;
    size_t i = 0;
    while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')) i++;
    if (i >= len || s[i] != '{') return 0;
    const char *nl = memchr(s + i, '\n', len - i);
    size_t n = nl ? (size_t)(nl - (s + i)) : len - i;
    const char *l = s + i;
    int score = 0;
    static const char trace[] = "{\"kind\":\"trace\"";
    if (n >= sizeof trace - 1 && memcmp(l, trace, sizeof trace - 1) == 0) return 100;
    bool has_kind = false, has_ts = false;
    for (size_t k = 0; k + 6 <= n; k++) {
        if (memcmp(l + k, "\"kind\"", 6) == 0) has_kind = true;
        if (k + 4 <= n && memcmp(l + k, "\"ts\"", 4) == 0) has_ts = true;
    }
    if (has_kind && has_ts) score = 85;
    else if (has_kind || has_ts) score = 40;
    else score = 10;
    size_t pl = path ? strlen(path) : 0;
    if ((pl > 6 && strcmp(path + pl - 6, ".jsonl") == 0) ||
        (pl > 7 && strcmp(path + pl - 7, ".ndjson") == 0))
        score += 10;
    return score > 100 ? 100 : score;
}

/* ---- a strict JSON parser for one line ----------------------------------- */

typedef enum { J_STR, J_INT, J_NULL, J_OBJ, J_OTHER } jtype;

typedef struct jval {
    jtype t;
    const char *s;   /* J_STR: decoded bytes (in the scratch buffer) */
    size_t n;
    int64_t i;       /* J_INT */
    uint64_t u;      /* J_INT, when non-negative */
    bool neg;
    size_t col;      /* 0-based column of the value */
} jval;

typedef struct jparser {
    const char *s, *p, *end;
    char *scratch;   /* decoded strings; capacity >= line length */
    size_t used;
    const char *err;
    size_t err_col;
    size_t key_col;  /* 0-based column of the last member's key */
    bool bad_utf8;   /* raw bytes that are not UTF-8 (kept as they are) */
    size_t bad_utf8_col;
    bool surrogate;  /* a lone \uD800-\uDFFF escape (replaced by U+FFFD) */
    size_t surrogate_col;
    bool range;      /* the error is an integer beyond 64 bits */
} jparser;

static bool jfail(jparser *j, const char *at, const char *msg) {
    if (!j->err) {
        j->err = msg;
        j->err_col = (size_t)(at - j->s);
    }
    return false;
}

static void jws(jparser *j) {
    while (j->p < j->end && (*j->p == ' ' || *j->p == '\t')) j->p++;
}

static bool read_hex4(jparser *j, uint32_t *out) {
    *out = 0;
    if (j->end - j->p < 4) return jfail(j, j->p, "incomplete \\u escape");
    uint32_t v = 0;
    for (int k = 0; k < 4; k++) {
        int h = tw_hexval(j->p[k]);
        if (h < 0) return jfail(j, j->p + k, "invalid \\u escape");
        v = v << 4 | (uint32_t)h;
    }
    j->p += 4;
    *out = v;
    return true;
}

/* A string literal at j->p (the opening quote), decoded into the scratch. */
static bool jstring(jparser *j, const char **out, size_t *outn) {
    const char *start = j->p++;
    char *d = j->scratch + j->used;
    size_t dn = 0;
    for (;;) {
        if (j->p >= j->end) return jfail(j, start, "unterminated string");
        unsigned char c = (unsigned char)*j->p;
        if (c == '"') {
            j->p++;
            break;
        }
        if (c < 0x20) return jfail(j, j->p, "control character in string");
        if (c != '\\') {
            if (c >= 0x80) {
                size_t k = tw_utf8_seq((const unsigned char *)j->p, (size_t)(j->end - j->p));
                if (!k) {
                    if (!j->bad_utf8) j->bad_utf8_col = (size_t)(j->p - j->s);
                    j->bad_utf8 = true;
                    k = 1;
                }
                memcpy(d + dn, j->p, k);
                dn += k;
                j->p += k;
            } else {
                d[dn++] = (char)c;
                j->p++;
            }
            continue;
        }
        const char *esc = j->p++;
        if (j->p >= j->end) return jfail(j, esc, "unterminated string");
        char e = *j->p++;
        switch (e) {
        case '"': d[dn++] = '"'; break;
        case '\\': d[dn++] = '\\'; break;
        case '/': d[dn++] = '/'; break;
        case 'b': d[dn++] = '\b'; break;
        case 'f': d[dn++] = '\f'; break;
        case 'n': d[dn++] = '\n'; break;
        case 'r': d[dn++] = '\r'; break;
        case 't': d[dn++] = '\t'; break;
        case 'u': {
            uint32_t cp;
            if (!read_hex4(j, &cp)) return false;
            if (cp >= 0xD800 && cp <= 0xDBFF && j->end - j->p >= 6 && j->p[0] == '\\' &&
                j->p[1] == 'u') {
                const char *save = j->p;
                uint32_t lo;
                j->p += 2;
                if (!read_hex4(j, &lo)) return false;
                if (lo >= 0xDC00 && lo <= 0xDFFF) cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                else j->p = save;
            }
            if (cp >= 0xD800 && cp <= 0xDFFF) {  /* lone surrogate */
                if (!j->surrogate) j->surrogate_col = (size_t)(esc - j->s);
                j->surrogate = true;
                cp = 0xFFFD;
            }
            dn += tw_utf8_put(cp, d + dn);
            break;
        }
        default:
            return jfail(j, esc, "invalid escape in string");
        }
    }
    j->used += dn;
    *out = d;
    *outn = dn;
    return true;
}

static bool jnumber(jparser *j, jval *v) {
    const char *start = j->p;
    v->neg = false;
    if (j->p < j->end && *j->p == '-') {
        v->neg = true;
        j->p++;
    }
    const char *digits = j->p;
    while (j->p < j->end && *j->p >= '0' && *j->p <= '9') j->p++;
    size_t nd = (size_t)(j->p - digits);
    if (nd == 0) return jfail(j, start, "invalid value");
    if (nd > 1 && digits[0] == '0') return jfail(j, start, "invalid number (leading zero)");
    if (j->p < j->end && (*j->p == '.' || *j->p == 'e' || *j->p == 'E'))
        return jfail(j, start, "number must be an integer");
    if (!tw_parse_u64(digits, nd, &v->u) || (v->neg && v->u > (uint64_t)INT64_MAX + 1)) {
        if (!j->err) j->range = true;
        return jfail(j, start, "integer out of range");
    }
    if (v->neg) {
        v->i = (int64_t)(0 - v->u);
    } else {
        v->i = v->u > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)v->u;
    }
    v->t = J_INT;
    return true;
}

/* Does an integer value fit in int64? */
static bool jfits_i64(const jval *v) { return v->neg || v->u <= (uint64_t)INT64_MAX; }

/* A value.  Objects, arrays and booleans are not consumed: the caller
 * parses or skips them from v->col. */
static bool jvalue(jparser *j, jval *v) {
    jws(j);
    v->col = (size_t)(j->p - j->s);
    if (j->p >= j->end) return jfail(j, j->p, "missing value");
    char c = *j->p;
    if (c == '"') {
        v->t = J_STR;
        return jstring(j, &v->s, &v->n);
    }
    if (c == '-' || (c >= '0' && c <= '9')) return jnumber(j, v);
    if (j->end - j->p >= 4 && memcmp(j->p, "null", 4) == 0) {
        j->p += 4;
        v->t = J_NULL;
        return true;
    }
    if (c == '{' || c == '[' || c == 't' || c == 'f') {
        v->t = c == '{' ? J_OBJ : J_OTHER;
        v->s = j->p;
        return true;
    }
    return jfail(j, j->p, "invalid value");
}

/* Skip any JSON value at j->p (used for fields we do not know). */
static bool jskip(jparser *j, int depth) {
    jws(j);
    if (depth > 64) return jfail(j, j->p, "values nested too deeply");
    if (j->p >= j->end) return jfail(j, j->p, "missing value");
    const char *start = j->p;
    char c = *j->p;
    if (c == '"') {
        const char *str;
        size_t n;
        return jstring(j, &str, &n);
    }
    if (c == '-' || (c >= '0' && c <= '9')) {
        while (j->p < j->end && *j->p && strchr("+-0123456789.eE", *j->p)) j->p++;
        return true;
    }
    static const char *const lits[] = {"true", "false", "null"};
    for (int i = 0; i < 3; i++) {
        size_t n = strlen(lits[i]);
        if ((size_t)(j->end - j->p) >= n && memcmp(j->p, lits[i], n) == 0) {
            j->p += n;
            return true;
        }
    }
    if (c != '{' && c != '[') return jfail(j, start, "invalid value");
    char close = c == '{' ? '}' : ']';
    j->p++;
    jws(j);
    if (j->p < j->end && *j->p == close) {
        j->p++;
        return true;
    }
    for (;;) {
        if (c == '{') {
            jws(j);
            const char *k;
            size_t kn;
            if (j->p >= j->end || *j->p != '"') return jfail(j, j->p, "expected a key string");
            if (!jstring(j, &k, &kn)) return false;
            jws(j);
            if (j->p >= j->end || *j->p != ':') return jfail(j, j->p, "expected ':'");
            j->p++;
        }
        if (!jskip(j, depth + 1)) return false;
        jws(j);
        if (j->p < j->end && *j->p == ',') {
            j->p++;
            continue;
        }
        if (j->p < j->end && *j->p == close) {
            j->p++;
            return true;
        }
        return jfail(j, j->p, c == '{' ? "expected ',' or '}'" : "expected ',' or ']'");
    }
}

/* Iterate the members of an object at j->p: call with *first = true. */
static int jmember(jparser *j, bool *first, const char **key, size_t *keyn, jval *v) {
    jws(j);
    if (*first) {
        if (j->p >= j->end || *j->p != '{') return jfail(j, j->p, "expected '{'"), -1;
        j->p++;
        jws(j);
        if (j->p < j->end && *j->p == '}') {
            j->p++;
            return 0;
        }
        *first = false;
    } else {
        if (j->p < j->end && *j->p == '}') {
            j->p++;
            return 0;
        }
        if (j->p >= j->end || *j->p != ',') return jfail(j, j->p, "expected ',' or '}'"), -1;
        j->p++;
        jws(j);
    }
    if (j->p >= j->end || *j->p != '"') return jfail(j, j->p, "expected a key string"), -1;
    j->key_col = (size_t)(j->p - j->s);
    if (!jstring(j, key, keyn)) return -1;
    jws(j);
    if (j->p >= j->end || *j->p != ':') return jfail(j, j->p, "expected ':'"), -1;
    j->p++;
    return jvalue(j, v) ? 1 : -1;
}

/* ---- reader -------------------------------------------------------------- */

typedef struct jsonl_reader {
    tw_read_ctx ctx;  /* input, names, diagnostics, trace info, options */
    const char *file;
    tw_buf scratch;
    tw_attr *attrs;
    unsigned char *attr_b64;  /* per attribute: its value came from "<key>_base64" */
    size_t attr_cap;
    bool have_first;        /* an event parsed from the first line */
    tw_event first;
    tw_u64map warned_keys;  /* unknown keys already reported (interned id) */
    tw_buf tname;           /* the last instant's transient name (ctx.transient_names) */
} jsonl_reader;

enum field {
    F_TS, F_KIND, F_PID, F_TID, F_NAME, F_CAT, F_MSG, F_VALUE, F_ARGS,
    F_NAME64, F_CAT64, F_MSG64,
    F_FORMAT, F_FORMAT64, F_RES, F_ORIGIN_NS, F_ORIGIN_TS, F_COUNT
};
static const char *const field_names[F_COUNT] = {
    "ts", "kind", "pid", "tid", "name", "cat", "msg", "value", "args",
    "name_base64", "cat_base64", "msg_base64",
    "format", "format_base64", "resolution_ns", "origin_ns", "origin_ts"};

static int field_of(const char *k, size_t n) {
    for (int i = 0; i < F_COUNT; i++)
        if (strlen(field_names[i]) == n && memcmp(field_names[i], k, n) == 0) return i;
    return -1;
}

static void line_error(jsonl_reader *r, const tw_line *l, size_t col, const char *msg) {
    tw_loc loc = tw_text_loc(r->file, l, col);
    if (!l->eol)
        tw_report(r->ctx.diag, TW_R_TRUNCATED_FILE, &loc, "the last line is incomplete (%s); skipped",
                  msg);
    else
        tw_report(r->ctx.diag, TW_R_BAD_RECORD, &loc, "%s; line skipped", msg);
}

static void unknown_key(jsonl_reader *r, const tw_line *l, const char *k, size_t n, size_t col) {
    const tw_str *s = tw_intern(r->ctx.strtab, k, n);
    if (!s || tw_u64map_get(&r->warned_keys, s->id)) return;
    (void)tw_u64map_put(&r->warned_keys, s->id, (void *)1); /* on failure: warned again */
    tw_loc loc = tw_text_loc(r->file, l, col);
    tw_report(r->ctx.diag, TW_R_UNKNOWN_FIELD, &loc, "unknown field '%.*s' ignored (reported once)",
              (int)(n > 100 ? 100 : n), k);
}

/* Decode a _base64 value in place (decoded bytes are never longer). */
static bool unbase64(jval *v) {
    size_t n = tw_base64_decode(v->s, v->n, (unsigned char *)v->s);
    if (n == (size_t)-1) return false;
    v->n = n;
    return true;
}

static bool add_attr(jsonl_reader *r, size_t *na, const tw_str *key, const jval *v, bool b64) {
    if (*na == r->attr_cap) {
        size_t nc = r->attr_cap ? r->attr_cap * 2 : 8;
        tw_attr *a = realloc(r->attrs, nc * sizeof *a);
        if (!a) return false;
        r->attrs = a;
        unsigned char *f = realloc(r->attr_b64, nc);
        if (!f) return false;
        r->attr_b64 = f;
        r->attr_cap = nc;
    }
    r->attr_b64[*na] = b64;
    tw_attr *a = &r->attrs[(*na)++];
    memset(a, 0, sizeof *a);
    a->key = key;
    if (v->t == J_INT) {
        a->type = TW_ATTR_INT;
        a->i = v->i;
    } else {
        a->type = TW_ATTR_STR;
        a->s = v->s;
        a->slen = v->n;
    }
    return true;
}

/* "args":{...}: integers and strings; "<key>_base64" replaces <key>. */
static bool parse_args(jsonl_reader *r, jparser *j, const tw_line *l, size_t *na) {
    bool first = true;
    const char *k;
    size_t kn;
    jval v;
    int rc;
    while ((rc = jmember(j, &first, &k, &kn, &v)) == 1) {
        if (v.t == J_OBJ || v.t == J_OTHER)
            return jfail(j, j->s + v.col, "args values must be integers or strings");
        if (v.t == J_INT && !jfits_i64(&v)) return jfail(j, j->s + v.col, "integer out of range");
        if (!tw_utf8_valid(k, kn)) return jfail(j, j->s + j->key_col, "args keys must be UTF-8");
        if (v.t == J_NULL) continue;
        bool b64 = kn > 7 && memcmp(k + kn - 7, "_base64", 7) == 0;
        if (b64) {
            if (v.t != J_STR || !unbase64(&v))
                return jfail(j, j->s + v.col, "invalid base64 value");
            kn -= 7;
        }
        const tw_str *key = tw_intern(r->ctx.strtab, k, kn);
        if (!key) return jfail(j, j->s + v.col, "cannot store key (out of memory)");
        size_t found = *na;
        for (size_t i = 0; i < *na; i++)
            if (r->attrs[i].key == key) found = i;
        if (found < *na) {
            /* "k" and "k_base64" in either order: the exact bytes win */
            if (b64 == (bool)r->attr_b64[found])
                return jfail(j, j->s + v.col, "duplicate key in args");
            if (b64) {
                r->attrs[found].type = TW_ATTR_STR;
                r->attrs[found].s = v.s;
                r->attrs[found].slen = v.n;
                r->attr_b64[found] = 1;
            }
            continue;
        }
        if (!add_attr(r, na, key, &v, b64)) return jfail(j, j->s + v.col, "out of memory");
    }
    (void)l;
    return rc == 0;
}

/* Parse one line.  Returns 1 = event, 2 = trace line, 0 = skipped,
 * -1 = cannot go on (reported). */
static int parse_line(jsonl_reader *r, const tw_line *l, tw_event *ev, bool allow_trace) {
    const char *s = l->s;
    size_t n = l->len;
    size_t i = 0;
    while (i < n && (s[i] == ' ' || s[i] == '\t')) i++;
    if (i == n) return 0;
    tw_buf_clear(&r->scratch);
    if (!tw_buf_reserve(&r->scratch, n + 16)) {
        tw_report(r->ctx.diag, TW_R_OUT_OF_MEMORY, NULL, "out of memory");
        return -1;
    }
    jparser j = {.s = s, .p = s + i, .end = s + n, .scratch = r->scratch.p};
    jval vals[F_COUNT];
    bool have[F_COUNT] = {false};
    size_t na = 0;
    bool first = true;
    const char *k = "";
    size_t kn = 0;
    jval v;
    int rc;
    while ((rc = jmember(&j, &first, &k, &kn, &v)) == 1) {
        int f = field_of(k, kn);
        if (f < 0) {
            unknown_key(r, l, k, kn, j.key_col);
            if ((v.t == J_OBJ || v.t == J_OTHER) && !jskip(&j, 0)) break;
            continue;
        }
        if (have[f]) {
            jfail(&j, s + v.col, "duplicate key");
            break;
        }
        if (v.t == J_NULL) continue;
        if (f == F_ARGS) {
            if (v.t != J_OBJ) {
                jfail(&j, s + v.col, "'args' must be an object");
                break;
            }
            if (!parse_args(r, &j, l, &na)) break;
            have[f] = true;
            continue;
        }
        if (v.t == J_OBJ || v.t == J_OTHER) {
            jfail(&j, s + v.col, "unsupported value type");
            break;
        }
        bool want_str = f == F_KIND || f == F_NAME || f == F_CAT || f == F_MSG ||
                        f == F_NAME64 || f == F_CAT64 || f == F_MSG64 || f == F_FORMAT ||
                        f == F_FORMAT64;
        if (want_str != (v.t == J_STR)) {
            jfail(&j, s + v.col, want_str ? "expected a string" : "expected an integer");
            break;
        }
        if ((f == F_NAME64 || f == F_CAT64 || f == F_MSG64 || f == F_FORMAT64) && !unbase64(&v)) {
            jfail(&j, s + v.col, "invalid base64 value");
            break;
        }
        vals[f] = v;
        have[f] = true;
    }
    if (rc == 0) {
        jws(&j);
        if (j.p != j.end) jfail(&j, j.p, "unexpected text after the object");
    }
    if (j.err) {
        if (rc < 0 && j.range && l->eol && field_of(k, kn) == F_TS) {
            /* "ts" beyond 64 bits: the column is that of the number */
            size_t e = j.err_col + 1;
            while (e < n && s[e] >= '0' && s[e] <= '9') e++;
            tw_loc loc = tw_text_loc(r->file, l, j.err_col);
            tw_report(r->ctx.diag, TW_R_TIME_OVERFLOW, &loc,
                      "\"ts\" %.*s%s does not fit in 64-bit nanoseconds; line skipped",
                      (int)(e - j.err_col > 40 ? 40 : e - j.err_col), s + j.err_col,
                      e - j.err_col > 40 ? "..." : "");
            return 0;
        }
        line_error(r, l, j.err_col, j.err);
        return 0;
    }
    if (j.surrogate) {
        tw_loc loc = tw_text_loc(r->file, l, j.surrogate_col);
        tw_report(r->ctx.diag, TW_R_INVALID_UTF8, &loc,
                  "lone UTF-16 surrogate in a \\u escape; replaced by U+FFFD");
    }
    if (j.bad_utf8) {
        tw_loc loc = tw_text_loc(r->file, l, j.bad_utf8_col);
        tw_report(r->ctx.diag, TW_R_INVALID_UTF8, &loc,
                  "string is not valid UTF-8; bytes kept as they are");
    }
    if (!have[F_KIND]) {
        line_error(r, l, i, "missing \"kind\"");
        return 0;
    }
    tw_kind kind;
    const jval *kv = &vals[F_KIND];
    if (kv->n == 5 && memcmp(kv->s, "trace", 5) == 0) {
        if (!allow_trace) {
            tw_loc loc = tw_text_loc(r->file, l, kv->col);
            tw_report(r->ctx.diag, TW_R_BAD_RECORD, &loc,
                      "a \"trace\" line is only allowed as the first line; ignored");
            return 0;
        }
        /* check everything first: a bad trace line changes nothing */
        static const int ints[] = {F_RES, F_ORIGIN_NS, F_ORIGIN_TS};
        for (size_t q = 0; q < sizeof ints / sizeof ints[0]; q++) {
            if (have[ints[q]] && !jfits_i64(&vals[ints[q]])) {
                char msg[64];
                snprintf(msg, sizeof msg, "\"%s\" out of range", field_names[ints[q]]);
                line_error(r, l, vals[ints[q]].col, msg);
                return 2;
            }
        }
        if (have[F_RES] && vals[F_RES].i < 1) {
            line_error(r, l, vals[F_RES].col, "\"resolution_ns\" must be positive");
            return 2;
        }
        if (have[F_ORIGIN_NS] != have[F_ORIGIN_TS]) {
            line_error(r, l, i, "\"origin_ns\" and \"origin_ts\" must be given together");
            return 2;
        }
        if (have[F_PID] && (vals[F_PID].neg || vals[F_PID].u > UINT32_MAX)) {
            line_error(r, l, vals[F_PID].col, "\"pid\" must be between 0 and 4294967295");
            return 2;
        }
        const tw_str *fs = NULL;
        const jval *fv = have[F_FORMAT64] ? &vals[F_FORMAT64] : have[F_FORMAT] ? &vals[F_FORMAT] : NULL;
        if (fv && !(fs = tw_intern(r->ctx.strtab, fv->s, fv->n))) {
            tw_report(r->ctx.diag, TW_R_OUT_OF_MEMORY, NULL, "out of memory");
            return 2;
        }
        tw_trace_info *ti = r->ctx.info;
        if (fs) ti->format = fs->s;
        if (have[F_RES]) ti->resolution_ns = vals[F_RES].i;
        if (have[F_ORIGIN_NS]) {
            ti->has_origin = true;
            ti->origin_ns = vals[F_ORIGIN_NS].i;
            ti->origin_ts = vals[F_ORIGIN_TS].i;
        }
        if (have[F_PID]) {
            ti->has_pid = true;
            ti->pid = (uint32_t)vals[F_PID].u;
        }
        return 2;
    }
    if (!tw_kind_parse(kv->s, kv->n, &kind)) {
        line_error(r, l, kv->col, "unknown \"kind\"");
        return 0;
    }
    static const int required[] = {F_TS, F_PID, F_TID};
    for (size_t q = 0; q < sizeof required / sizeof required[0]; q++) {
        if (!have[required[q]]) {
            char msg[64];
            snprintf(msg, sizeof msg, "missing \"%s\"", field_names[required[q]]);
            line_error(r, l, i, msg);
            return 0;
        }
    }
    if (!have[F_NAME] && !have[F_NAME64]) {
        line_error(r, l, i, "missing \"name\"");
        return 0;
    }
    if (vals[F_PID].neg || vals[F_PID].u > UINT32_MAX) {
        line_error(r, l, vals[F_PID].col, "\"pid\" must be between 0 and 4294967295");
        return 0;
    }
    if (vals[F_TID].neg) {
        line_error(r, l, vals[F_TID].col, "\"tid\" must not be negative");
        return 0;
    }
    if (!vals[F_TS].neg && vals[F_TS].u > (uint64_t)INT64_MAX) {
        tw_loc loc = tw_text_loc(r->file, l, vals[F_TS].col);
        tw_report(r->ctx.diag, TW_R_TIME_OVERFLOW, &loc,
                  "\"ts\" %llu does not fit in 64-bit nanoseconds; line skipped",
                  (unsigned long long)vals[F_TS].u);
        return 0;
    }
    tw_event_clear(ev);
    ev->kind = kind;
    ev->ts = vals[F_TS].i;
    ev->pid = (uint32_t)vals[F_PID].u;
    ev->tid = vals[F_TID].u;
    const jval *nm = have[F_NAME64] ? &vals[F_NAME64] : &vals[F_NAME];
    if (kind == TW_INSTANT && r->ctx.transient_names) {
        /* an instant's name may be free text: not kept in the table */
        size_t off;
        tw_buf_clear(&r->tname);
        ev->name = tw_buf_transient(&r->tname, nm->s, nm->n, &off)
                       ? (const tw_str *)(void *)(r->tname.p + off)
                       : NULL;
    } else {
        ev->name = tw_intern(r->ctx.strtab, nm->s, nm->n);
    }
    if (have[F_CAT] || have[F_CAT64]) {
        const jval *c = have[F_CAT64] ? &vals[F_CAT64] : &vals[F_CAT];
        ev->cat = tw_intern(r->ctx.strtab, c->s, c->n);
        if (!ev->cat) ev->name = NULL;
    }
    if (!ev->name) {
        tw_loc loc = tw_text_loc(r->file, l, nm->col);
        tw_intern_failed(&r->ctx, &loc, "name");
        return 0;
    }
    if (have[F_MSG] || have[F_MSG64]) {
        const jval *m = have[F_MSG64] ? &vals[F_MSG64] : &vals[F_MSG];
        ev->msg = m->s;
        ev->msg_len = m->n;
    }
    if (have[F_VALUE]) {
        if (!vals[F_VALUE].neg && vals[F_VALUE].u > (uint64_t)INT64_MAX) {
            line_error(r, l, vals[F_VALUE].col, "\"value\" out of range");
            return 0;
        }
        ev->value = vals[F_VALUE].i;
        ev->has_value = true;
    }
    ev->attrs = na ? r->attrs : NULL;
    ev->nattrs = na;
    ev->loc = tw_text_loc(r->file, l, 0);
    return 1;
}

static int jsonl_open(const tw_read_ctx *ctx, void **state) {
    jsonl_reader *r = tw_state_alloc(ctx->diag, sizeof *r);
    if (!r) return TW_ERR;
    r->ctx = *ctx;
    r->file = tw_input_name(ctx->in);
    /* the first non-blank line may be the trace line; if it is an event,
     * keep it (its memory stays valid until the next line is read) */
    tw_line l;
    int rc;
    while ((rc = tw_input_getline(r->ctx.in, &l)) == 1) {
        size_t i = 0;
        while (i < l.len && (l.s[i] == ' ' || l.s[i] == '\t')) i++;
        if (i == l.len) continue;
        int prc = parse_line(r, &l, &r->first, true);
        if (prc < 0) rc = -1;
        r->have_first = prc == 1;
        break;
    }
    if (rc < 0) {
        tw_buf_free(&r->scratch);
        free(r);
        return TW_ERR;
    }
    *state = r;
    return TW_OK;
}

static TW_INLINE int jsonl_next_one(void *state, tw_event *ev) {
    jsonl_reader *r = state;
    if (r->have_first) {
        r->have_first = false;
        tw_event_copy(ev, &r->first);
        return TW_OK;
    }
    for (;;) {
        tw_line l;
        int rc = tw_read_line(&r->ctx, &l);
        if (rc < 0) return TW_ERR;
        if (rc == 0) return TW_EOF;
        int prc = parse_line(r, &l, ev, false);
        if (prc == 1) return TW_OK;
        if (prc < 0) return TW_ERR;
    }
}

static void jsonl_close(void *state) {
    jsonl_reader *r = state;
    tw_buf_free(&r->scratch);
    tw_buf_free(&r->tname);
    tw_u64map_free(&r->warned_keys);
    free(r->attrs);
    free(r->attr_b64);
    free(r);
}

/* ---- writer -------------------------------------------------------------- */

/* "pid":P,"tid":T of a thread, formatted once: a few threads write most
 * events, so each keeps its text in a slot by (tid ^ pid) % 16. */
typedef struct ids_slot {
    uint32_t pid;
    uint64_t tid;
    size_t n;  /* 0: empty */
    char s[48];
} ids_slot;

typedef struct jsonl_writer {
    tw_write_ctx ctx;
    tw_json_names names;  /* which names need no escaping */
    ids_slot ids[16];
} jsonl_writer;

static void put_ids(jsonl_writer *w, tw_output *o, uint32_t pid, uint64_t tid) {
    ids_slot *c = &w->ids[(tid ^ pid) & 15];
    if (!c->n || c->pid != pid || c->tid != tid) {
        int n = snprintf(c->s, sizeof c->s, "\"pid\":%lu,\"tid\":%llu", (unsigned long)pid,
                         (unsigned long long)tid);
        c->pid = pid;
        c->tid = tid;
        c->n = (size_t)n;  /* at most 43 bytes */
    }
    tw_out_write(o, c->s, c->n);
}

/* After "key":"text" of a text that is not UTF-8: ,"key_base64":"...". */
static void put_base64(tw_output *o, const char *key, size_t kn, const char *s, size_t n) {
    char small[64];
    char *k64 = kn + 8 <= sizeof small ? small : malloc(kn + 8);
    tw_out_putc(o, ',');
    if (k64) {
        memcpy(k64, key, kn);
        memcpy(k64 + kn, "_base64", 8);
        tw_out_json_str(o, k64, kn + 7);
        if (k64 != small) free(k64);
    } else {
        o->err = o->err ? o->err : ENOMEM;
    }
    tw_out_str(o, ":\"");
    tw_out_base64(o, s, n);
    tw_out_putc(o, '"');
}

/* "key":"text" and, when the text is not UTF-8, "key_base64":"...".  Keys
 * are escaped too: args keys come from the input. */
static void put_str_field(tw_output *o, const char *key, size_t kn, const char *s, size_t n) {
    tw_out_json_str(o, key, kn);
    tw_out_putc(o, ':');
    if (!tw_out_json_str(o, s, n)) put_base64(o, key, kn, s, n);
}

/* The same for an event's name. */
static void put_name(jsonl_writer *w, tw_output *o, const tw_str *name) {
    tw_out_str(o, "\"name\":");
    if (!tw_out_json_name(o, &w->names, name)) put_base64(o, "name", 4, name->s, name->len);
}

static int jsonl_begin(const tw_write_ctx *ctx, void **state) {
    jsonl_writer *w = tw_state_alloc(ctx->diag, sizeof *w);
    if (!w) return TW_ERR;
    w->ctx = *ctx;
    const tw_trace_info *ti = ctx->info;
    tw_output *o = ctx->out;
    tw_out_str(o, "{\"kind\":\"trace\",");
    put_str_field(o, "format", 6, ti->format ? ti->format : "", ti->format ? strlen(ti->format) : 0);
    tw_out_str(o, ",\"resolution_ns\":");
    tw_out_i64(o, ti->resolution_ns);
    if (ti->has_origin) {
        tw_out_str(o, ",\"origin_ns\":");
        tw_out_i64(o, ti->origin_ns);
        tw_out_str(o, ",\"origin_ts\":");
        tw_out_i64(o, ti->origin_ts);
    }
    if (ti->has_pid) {
        tw_out_str(o, ",\"pid\":");
        tw_out_u64(o, ti->pid);
    }
    tw_out_str(o, "}\n");
    *state = w;
    return TW_OK;
}

static int jsonl_event(void *state, const tw_event *ev) {
    jsonl_writer *w = state;
    tw_output *o = w->ctx.out;
    tw_out_str(o, "{\"ts\":");
    tw_out_i64(o, ev->ts);
    tw_out_str(o, ",\"kind\":\"");
    tw_out_str(o, tw_kind_name(ev->kind));
    tw_out_str(o, "\",");
    put_ids(w, o, ev->pid, ev->tid);
    tw_out_putc(o, ',');
    put_name(w, o, ev->name);
    if (ev->cat) {
        tw_out_putc(o, ',');
        put_str_field(o, "cat", 3, ev->cat->s, ev->cat->len);
    }
    if (ev->msg) {
        tw_out_putc(o, ',');
        put_str_field(o, "msg", 3, ev->msg, ev->msg_len);
    }
    if (ev->has_value) {
        tw_out_str(o, ",\"value\":");
        tw_out_i64(o, ev->value);
    }
    if (ev->nattrs) {
        tw_out_str(o, ",\"args\":{");
        for (size_t i = 0; i < ev->nattrs; i++) {
            const tw_attr *a = &ev->attrs[i];
            if (i) tw_out_putc(o, ',');
            tw_out_json_name(o, &w->names, a->key);
            tw_out_putc(o, ':');
            if (a->type == TW_ATTR_INT) tw_out_i64(o, a->i);
            else if (!tw_out_json_attr(o, &w->names, a))
                put_base64(o, a->key->s, a->key->len, a->s, a->slen);
        }
        tw_out_putc(o, '}');
    }
    tw_out_str(o, "}\n");
    return TW_OK;
}

static int jsonl_end(void *state) {
    (void)state;
    return TW_OK;
}

static void jsonl_free(void *state) {
    jsonl_writer *w = state;
    if (w) tw_json_names_free(&w->names);
    free(w);
}

/* ---- descriptor ---------------------------------------------------------- */

static const char *const jsonl_aliases[] = {"json-lines", "ndjson", NULL};
static const char *const jsonl_exts[] = {".jsonl", ".ndjson", NULL};

/* What the reader produces and the writer keeps (see tw_fidelity). */
static const tw_fidelity jsonl_fidelity = {
    .family = "jsonl",
    .produces = TW_KEEP_ALL,
    .keeps = TW_KEEP_ALL,
    .read_clock_ns = 1,
    .write_clock_ns = 1,
    .read_origin_ns = 1,
    .write_origin_ns = 1,
    .partly = TW_PARTLY_PROCESS_NAMES | TW_PARTLY_COUNTER_THREADS | TW_PARTLY_STATE_THREADS,
};

TW_READ_NEXT_BATCH(jsonl_next, jsonl_batch, jsonl_next_one)

static const tw_format jsonl_format = {
    .abi = TW_FORMAT_ABI,
    .name = "jsonl",
    .aliases = jsonl_aliases,
    .extensions = jsonl_exts,
    .description = "tracewright canonical event stream (JSON Lines, lossless)",
    .flags = TW_FMT_TEXT | TW_FMT_LOSSLESS | TW_FMT_THREADS | TW_FMT_ORIGIN | TW_FMT_UTF8 |
             TW_FMT_WRITER_TRANSIENT,
    .options = NULL,
    .probe = jsonl_probe,
    .read_open = jsonl_open,
    .read_next = jsonl_next,
    .read_batch = jsonl_batch,
    .read_close = jsonl_close,
    .write_begin = jsonl_begin,
    .write_event = jsonl_event,
    .write_end = jsonl_end,
    .write_free = jsonl_free,
    .fidelity = &jsonl_fidelity,
};

TW_FORMAT_EXPORT(jsonl, jsonl_format)
