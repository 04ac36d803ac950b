/* Unit tests of the core: interning, time, numbers, UTF-8, emit helpers, output. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/spool.h"
#include "core/util.h"
#include "harness.h"

void test_strtab_interning(void) {
    tw_strtab *t = tw_strtab_new();
    const tw_str *a = tw_intern_cstr(t, "alpha");
    const tw_str *b = tw_intern(t, "alphabet", 5);
    const tw_str *c = tw_intern_cstr(t, "beta");
    const tw_str *e = tw_intern(t, "", 0);
    CHECK(a == b);
    CHECK(a != c);
    CHECK_EQ_U(a->id, 0);
    CHECK_EQ_U(c->id, 1);
    CHECK_EQ_U(e->id, 2);
    CHECK_EQ_U(e->len, 0);
    CHECK_EQ_I(e->s[0], 0);
    CHECK_STR(a->s, "alpha");
    CHECK(tw_strtab_at(t, 1) == c);
    CHECK(tw_strtab_at(t, 3) == NULL);
    /* embedded NUL bytes are part of the string */
    const tw_str *n1 = tw_intern(t, "a\0b", 3), *n2 = tw_intern(t, "a\0c", 3);
    CHECK(n1 != n2);
    CHECK_EQ_U(n1->len, 3);
    CHECK(tw_intern(t, "a\0b", 3) == n1);
    CHECK_EQ_U(tw_strtab_count(t), 5);
    tw_strtab_free(t);
}

void test_strtab_many(void) {
    tw_strtab *t = tw_strtab_new();
    const tw_str *first[1000];
    char buf[64];
    for (int i = 0; i < 20000; i++) {
        int n = snprintf(buf, sizeof buf, "scope-%d-%s", i, i % 3 ? "x" : "a-longer-suffix-of-text");
        const tw_str *s = tw_intern(t, buf, (size_t)n);
        CHECK(s != NULL);
        if (i < 1000) first[i] = s;
    }
    CHECK_EQ_U(tw_strtab_count(t), 20000);
    /* pointers stay stable while the table grows */
    for (int i = 0; i < 1000; i++) {
        int n = snprintf(buf, sizeof buf, "scope-%d-%s", i, i % 3 ? "x" : "a-longer-suffix-of-text");
        CHECK(tw_intern(t, buf, (size_t)n) == first[i]);
        CHECK_EQ_U(first[i]->id, (uint64_t)i);
    }
    /* a very long string gets its own chunk */
    char *big = malloc(200000);
    memset(big, 'x', 200000);
    const tw_str *bs = tw_intern(t, big, 200000);
    CHECK(bs && bs->len == 200000);
    CHECK(tw_intern(t, big, 200000) == bs);
    free(big);
    CHECK(tw_strtab_bytes(t) > 200000);
    tw_strtab_free(t);
}

void test_strtab_front_cache(void) {
    /* names that share their length and their first and last eight bytes
     * meet in one slot of the cache in front of the table: each must still
     * come back as itself, again and again, in any order */
    tw_strtab *t = tw_strtab_new();
    char buf[64];
    const tw_str *v[300];
    for (int round = 0; round < 3; round++) {
        for (int i = 0; i < 300; i++) {
            int k = round == 1 ? 299 - i : i;
            int n = snprintf(buf, sizeof buf, "::ns::Class::%04d::method_0", k);
            const tw_str *s = tw_intern(t, buf, (size_t)n);
            CHECK(s && s->len == (uint32_t)n && memcmp(s->s, buf, (size_t)n) == 0);
            if (round == 0) v[k] = s;
            else CHECK(s == v[k]);
        }
    }
    CHECK_EQ_U(tw_strtab_count(t), 300);
    /* and a table with a limit keeps it, cache or not */
    tw_strtab_set_limit(t, 300);
    CHECK(tw_intern(t, "::ns::Class::9999::method_0", 27) == NULL);
    CHECK(tw_intern(t, "::ns::Class::0123::method_0", 27) == v[123]);
    tw_strtab_free(t);
}

void test_strtab_limit(void) {
    tw_strtab *t = tw_strtab_new();
    tw_strtab_set_limit(t, 2);
    CHECK(tw_intern_cstr(t, "a") != NULL);
    CHECK(tw_intern_cstr(t, "b") != NULL);
    CHECK(tw_intern_cstr(t, "c") == NULL);
    CHECK(tw_intern_cstr(t, "a") != NULL); /* existing strings are still found */
    tw_strtab_free(t);
}

void test_hash_stable(void) {
    CHECK_EQ_U(tw_hash("abc", 3), tw_hash("abcd", 3));
    CHECK(tw_hash("abc", 3) != tw_hash("abd", 3));
    CHECK(tw_hash("", 0) != tw_hash("\0", 1));
    CHECK(tw_hash("12345678", 8) != tw_hash("12345679", 8));
}

void test_time_round(void) {
    bool inexact;
    CHECK_EQ_I(tw_round_div(1234000000, 1000000, &inexact), 1234);
    CHECK(!inexact);
    CHECK_EQ_I(tw_round_div(1234499999, 1000000, &inexact), 1234);
    CHECK(inexact);
    CHECK_EQ_I(tw_round_div(1234500000, 1000000, NULL), 1235); /* halves go up */
    CHECK_EQ_I(tw_round_div(-1, 1000000, &inexact), 0);
    CHECK(inexact);
    CHECK_EQ_I(tw_round_div(-500000, 1000000, NULL), 0);
    CHECK_EQ_I(tw_round_div(-500001, 1000000, NULL), -1);
    CHECK_EQ_I(tw_round_div(-1500000, 1000000, NULL), -1);
    CHECK_EQ_I(tw_round_div(INT64_MAX, 1000, NULL), INT64_MAX / 1000 + 1);
    CHECK_EQ_I(tw_round_div(INT64_MIN, 1000, NULL), INT64_MIN / 1000 - 1); /* -...775.808 */
    CHECK_EQ_I(tw_floor_div(-1, 1000), -1);
    CHECK_EQ_I(tw_floor_div(-1000, 1000), -1);
    CHECK_EQ_I(tw_floor_div(999, 1000), 0);
    int64_t ns;
    /* ticks of a 3.579545 MHz counter to ns, rounded exactly */
    CHECK(tw_muldiv_i64(2291, TW_NS_PER_S, 3579545, &ns));
    CHECK_EQ_I(ns, 640025); /* 640025.09 */
    CHECK(tw_muldiv_i64(-2291, TW_NS_PER_S, 3579545, &ns));
    CHECK_EQ_I(ns, -640025);
    CHECK(tw_muldiv_i64(1, 1, 2, &ns));
    CHECK_EQ_I(ns, 1); /* halves go up */
    CHECK(tw_muldiv_i64(-1, 1, 2, &ns));
    CHECK_EQ_I(ns, 0);
    CHECK(tw_muldiv_i64(-3, 1, 2, &ns));
    CHECK_EQ_I(ns, -1);
    /* intermediate products beyond 64 bits */
    CHECK(tw_muldiv_i64(INT64_MAX, TW_NS_PER_S, 4000000000, &ns));
    CHECK_EQ_I(ns, 2305843009213693952); /* 2305843009213693951.75 */
    CHECK(tw_muldiv_i64(INT64_MAX, 1, 1, &ns));
    CHECK_EQ_I(ns, INT64_MAX);
    CHECK(!tw_muldiv_i64(INT64_MAX, 2, 1, &ns));
    CHECK(!tw_muldiv_i64(INT64_MIN, TW_NS_PER_S, 3, &ns));
    CHECK(tw_to_ns(9223372036854, TW_NS_PER_MS, &ns));
    CHECK_EQ_I(ns, 9223372036854000000);
    CHECK(!tw_to_ns(9223372036855, TW_NS_PER_MS, &ns));
    CHECK(!tw_to_ns(-9223372036855, TW_NS_PER_MS, &ns));
}

void test_parse_numbers(void) {
    uint64_t u;
    int64_t i;
    CHECK(tw_parse_u64("0", 1, &u) && u == 0);
    CHECK(tw_parse_u64("18446744073709551615", 20, &u) && u == UINT64_MAX);
    CHECK(!tw_parse_u64("18446744073709551616", 20, &u));
    CHECK(!tw_parse_u64("", 0, &u));
    CHECK(!tw_parse_u64("12a", 3, &u));
    CHECK(!tw_parse_u64("-1", 2, &u));
    CHECK(!tw_parse_u64("+1", 2, &u));
    CHECK(!tw_parse_u64(" 1", 2, &u));
    CHECK(tw_parse_i64("-9223372036854775808", 20, &i) && i == INT64_MIN);
    CHECK(!tw_parse_i64("-9223372036854775809", 20, &i));
    CHECK(tw_parse_i64("9223372036854775807", 19, &i) && i == INT64_MAX);
    CHECK(!tw_parse_i64("9223372036854775808", 19, &i));
    CHECK(!tw_parse_i64("-", 1, &i));
    CHECK(tw_parse_i64("-0", 2, &i) && i == 0);
    bool ovf;
    CHECK_EQ_U(tw_scan_u64("000123 11", 9, &u, &ovf), 6);
    CHECK_EQ_U(u, 123);
    CHECK(!ovf);
    CHECK_EQ_U(tw_scan_u64("99999999999999999999x", 21, &u, &ovf), 20);
    CHECK(ovf);
    /* the eight- and sixteen-digits-at-once paths against the
     * digit-by-digit one: every count of leading digits followed by bytes
     * around the digits' range ('/' ':' and bytes that carry when 6 is
     * added), and the lengths around 8 and 16 */
    static const char stops[] = {'/', ':', ' ', 0, '\xfa', '\xff', '?', '\x39' + 0x10};
    unsigned seed = 12345;
    for (size_t len = 0; len <= 24; len++) {
        for (size_t lead = 0; lead <= len; lead++) {
            for (size_t k = 0; k < sizeof stops; k++) {
                char buf[32];
                for (size_t j = 0; j < len; j++) {
                    seed = seed * 1103515245u + 12345u;
                    buf[j] = (char)('0' + (seed >> 16) % 10);
                }
                if (lead < len) buf[lead] = stops[k];
                uint64_t want, got;
                bool wovf, govf;
                size_t wn = tw_scan_u64_long(buf, len, &want, &wovf);
                size_t gn = tw_scan_u64(buf, len, &got, &govf);
                CHECK_EQ_U(gn, wn);
                CHECK_EQ_U(got, want);
                CHECK(govf == wovf);
            }
        }
    }
}

/* tw_scan_hex's digit-by-digit meaning, to check its eight-at-once path */
static const char *scan_hex_ref(const char *s, const char *e, unsigned maxdigits, uint64_t *v) {
    const char *d = s;
    uint64_t x = 0;
    for (; s < e && isxdigit((unsigned char)*s); s++)
        x = x << 4 | (uint64_t)(isdigit((unsigned char)*s) ? *s - '0' : (*s | 0x20) - 'a' + 10);
    if ((size_t)(s - d) > maxdigits) return NULL;
    *v = x;
    return s;
}

void test_scan_hex(void) {
    uint64_t v = 7;
    static const char id[] = "0x0000008a 1";
    CHECK(tw_scan_hex(id + 2, id + sizeof id - 1, 16, &v) == id + 10);
    CHECK_EQ_U(v, 0x8a);
    static const char mixed[] = "DeadBEEF,";
    CHECK(tw_scan_hex(mixed, mixed + 9, 8, &v) == mixed + 8);
    CHECK_EQ_U(v, 0xdeadbeef);
    CHECK(tw_scan_hex(mixed, mixed + 9, 7, &v) == NULL);
    /* every byte value after every count of digits, every length up to 20:
     * the neighbours of the digits' and letters' ranges ('/' ':' '@' 'G' '`'
     * 'g'), the bytes that the case bit would turn into digits (0x10-0x19)
     * and letters, bytes with the high bit over a digit's or a letter's */
    static const char digits[] = "0123456789abcdefABCDEF";
    unsigned seed = 4242;
    for (size_t len = 0; len <= 20; len++) {
        for (size_t lead = 0; lead <= len; lead++) {
            for (unsigned stop = 0; stop < 256; stop++) {
                if (lead < len && stop && isxdigit(stop)) continue;
                char buf[24];
                for (size_t j = 0; j < len; j++) {
                    seed = seed * 1103515245u + 12345u;
                    buf[j] = digits[(seed >> 16) % (sizeof digits - 1)];
                }
                if (lead < len) buf[lead] = (char)stop;
                for (unsigned max = 7; max <= 16; max += 9) {
                    uint64_t want = 1, got = 2;
                    const char *wq = scan_hex_ref(buf, buf + len, max, &want);
                    const char *gq = tw_scan_hex(buf, buf + len, max, &got);
                    CHECK(gq == wq);
                    if (wq) CHECK_EQ_U(got, want);
                }
            }
        }
    }
}

void test_find_byte(void) {
    /* the eight-bytes-a-step search against memchr: every length up to 24,
     * the byte at every place or nowhere, among neighbours that a borrow
     * could mistake for it (c - 1, c + 1, 0, 0x80, 0xff) */
    static const char fill[] = {',' - 1, ',' + 1, 0, (char)0x80, (char)0xff, 'a'};
    for (size_t len = 0; len <= 24; len++) {
        for (size_t at = 0; at <= len; at++) {
            for (size_t f = 0; f < sizeof fill; f++) {
                char buf[32];
                for (size_t j = 0; j < len; j++) buf[j] = fill[(f + j) % sizeof fill];
                if (at < len) buf[at] = ',';
                if (at + 3 < len) buf[at + 3] = ',';  /* a second one after */
                CHECK(tw_find_byte(buf, len, ',') == memchr(buf, ',', len));
            }
        }
    }
}

/* SARIF's columns: UTF-16 code units of UTF-8 text, read whole or in parts */
void test_utf16_units(void) {
    static const char s[] = "Gr\xc3\xbc\xc3\x9f" "e \xe6\x97\xa5 \xf0\x9f\x98\x80!"; /* 17 bytes */
    CHECK_EQ_U(tw_utf16_units(s, 17, NULL), 11);  /* G r ü ß e ' ' 日 ' ' 😀(2) ! */
    CHECK_EQ_U(tw_utf16_units("caf\xe9", 4, NULL), 4);           /* Latin-1: one each */
    CHECK_EQ_U(tw_utf16_units("\xe6\x97", 2, NULL), 1);         /* cut: one U+FFFD */
    CHECK_EQ_U(tw_utf16_units("\xe6\x97" "a\xf0\x9f\x98", 6, NULL), 3); /* two cut, 'a' */
    CHECK_EQ_U(tw_utf16_units("\xe0\x80\x80", 3, NULL), 3);     /* overlong: one each */
    CHECK_EQ_U(tw_utf16_units("\xed\xa0\x80", 3, NULL), 3);     /* surrogate: invalid */
    size_t used;
    CHECK_EQ_U(tw_utf16_units("ab\xe6\x97", 4, &used), 2);      /* the cut one is left */
    CHECK_EQ_U(used, 2);
    CHECK_EQ_U(tw_utf16_units("ab\xf0\x9f\x98\x80", 6, &used), 4);
    CHECK_EQ_U(used, 6);
    /* every place of a cut: the parts add up to the whole */
    for (size_t cut = 0; cut <= 17; cut++) {
        uint64_t first = tw_utf16_units(s, cut, &used);
        char rest[32];
        memcpy(rest, s + used, 17 - used);
        CHECK_EQ_U(first + tw_utf16_units(rest, 17 - used, NULL), 11);
    }
}

/* Table cells: terminal columns, two for a wide character; cut with "..." */
void test_display_cells(void) {
    char out[TW_DISPLAY_CELL_BYTES(8)];
    CHECK_EQ_U(tw_display_width("ab", 2), 2);
    CHECK_EQ_U(tw_display_width("\xe6\x97\xa5x", 4), 3);     /* a wide one, then x */
    CHECK_EQ_U(tw_display_width("\xc3\xa9\xff", 3), 2);      /* e-acute, an invalid byte */
    CHECK_EQ_U(tw_display_cell("short", 5, 8, out), 5);
    CHECK_STR(out, "short");
    CHECK_EQ_U(tw_display_cell("a\tb\nc", 5, 8, out), 5);     /* controls as spaces */
    CHECK_STR(out, "a b c");
    CHECK_EQ_U(tw_display_cell("abcdefghij", 10, 8, out), 8);
    CHECK_STR(out, "abcde...");
    /* a wide character that would cross the limit is left out whole */
    CHECK_EQ_U(tw_display_cell("abcd\xe6\x97\xa5\xe6\x97\xa5", 10, 8, out), 8); /* fits */
    CHECK_EQ_U(tw_display_cell("abcd\xe6\x97\xa5\xe6\x97\xa5\xe6\x97\xa5", 13, 8, out), 7);
    CHECK_STR(out, "abcd...");
    CHECK_EQ_U(tw_display_cell("abcdefghij", 10, 2, out), 2); /* no room for "..." */
    CHECK_STR(out, "ab");
}

void test_utf8_validation(void) {
    CHECK(tw_utf8_valid("plain ascii text, long enough for the fast path", 47));
    CHECK(tw_utf8_valid("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", 14));
    CHECK(!tw_utf8_valid("caf\xe9", 4));             /* Latin-1 */
    CHECK(!tw_utf8_valid("\xc0\xaf", 2));            /* overlong '/' */
    CHECK(!tw_utf8_valid("\xe0\x80\xaf", 3));        /* overlong */
    CHECK(!tw_utf8_valid("\xed\xa0\x80", 3));        /* surrogate */
    CHECK(!tw_utf8_valid("\xf4\x90\x80\x80", 4));    /* > U+10FFFF */
    CHECK(!tw_utf8_valid("\xe2\x82", 2));            /* truncated */
    CHECK(!tw_utf8_valid("\x80", 1));                /* lone continuation */
    CHECK(tw_utf8_valid("a\0b", 3));
    /* every place in strings of 1-20 bytes, where the ends of the
     * eight-byte steps fall: a stray byte, a truncated sequence, a whole
     * one (the rest ASCII) */
    for (size_t len = 1; len <= 20; len++) {
        for (size_t at = 0; at < len; at++) {
            char buf[24];
            memset(buf, 'a', len);
            buf[at] = '\xff';
            CHECK(!tw_utf8_valid(buf, len));
            buf[at] = '\xc3';
            CHECK(!tw_utf8_valid(buf, len));  /* followed by 'a', or nothing */
            if (at + 1 < len) {
                buf[at + 1] = '\xa9';
                CHECK(tw_utf8_valid(buf, len));
            }
        }
    }
    char out[4];
    CHECK_EQ_U(tw_utf8_put(0x20AC, out), 3);
    CHECK_MEM(out, 3, "\xe2\x82\xac");
    CHECK_EQ_U(tw_utf8_put(0x1F600, out), 4);
    CHECK_MEM(out, 4, "\xf0\x9f\x98\x80");
}

static char *mem_text(tw_output *o, size_t *n) {
    const char *d = tw_output_mem_data(o, n);
    char *s = malloc(*n + 1);
    memcpy(s, d, *n);
    s[*n] = '\0';
    return s;
}

void test_json_escaping(void) {
    tw_output *o = tw_output_mem();
    CHECK(tw_out_json_str(o, "a\"b\\c\n\t\r\b\f\x01\x1f\x7f/", 14));
    tw_out_putc(o, ' ');
    CHECK(tw_out_json_str(o, "caf\xc3\xa9", 5));
    tw_out_putc(o, ' ');
    CHECK(!tw_out_json_str(o, "caf\xe9!", 5));
    tw_out_putc(o, ' ');
    CHECK(tw_out_json_str(o, "nul\0byte", 8));
    size_t n;
    char *s = mem_text(o, &n);
    CHECK_STR(s, "\"a\\\"b\\\\c\\n\\t\\r\\b\\f\\u0001\\u001f\\u007f/\" \"caf\xc3\xa9\" "
                 "\"caf\xef\xbf\xbd!\" \"nul\\u0000byte\"");
    free(s);
    tw_output_close(o);
}

/* The escaper's whole-string test (eight bytes a step, short strings in
 * one padded word) against a byte-by-byte reference: every length up to 24,
 * one special byte at every place or none; each string in a block of its
 * own size, so the sanitizer build sees any read past it. */
void test_json_escaping_every_place(void) {
    static const unsigned char special[] = {'"', '\\', 0x1f, 0x7f, 0xe9, 0x00, ' '};
    for (size_t len = 0; len <= 24; len++) {
        for (size_t at = 0; at <= len; at++) {
            for (size_t k = 0; k < sizeof special; k++) {
                unsigned char *in = malloc(len ? len : 1);
                for (size_t j = 0; j < len; j++) in[j] = (unsigned char)('a' + j % 26);
                if (at < len) in[at] = special[k];
                char want[24 * 6 + 3];
                size_t w = 0;
                want[w++] = '"';
                for (size_t j = 0; j < len; j++) {
                    unsigned c = in[j];
                    if (c == '"' || c == '\\') {
                        want[w++] = '\\';
                        want[w++] = (char)c;
                    } else if (c < 0x20 || c == 0x7f) {
                        w += (size_t)snprintf(want + w, 7, "\\u%04x", c);
                    } else if (c == 0xe9) {
                        memcpy(want + w, "\xEF\xBF\xBD", 3);
                        w += 3;
                    } else {
                        want[w++] = (char)c;
                    }
                }
                want[w++] = '"';
                want[w] = '\0';
                tw_output *o = tw_output_mem();
                bool ok = tw_out_json_str(o, (const char *)in, len);
                CHECK(ok == !(at < len && special[k] == 0xe9));
                size_t n;
                const char *got = tw_output_mem_data(o, &n);
                CHECK_MEM(got, n, want);
                tw_output_close(o);
                free(in);
            }
        }
    }
}

void test_xml_escaping(void) {
    tw_output *o = tw_output_mem();
    CHECK(tw_out_xml_str(o, "a<b>&\"c'\t\n\r caf\xc3\xa9", 17));
    tw_out_putc(o, '|');
    CHECK(!tw_out_xml_str(o, "x\x01y\x1fz", 5));   /* not XML 1.0 characters */
    tw_out_putc(o, '|');
    CHECK(!tw_out_xml_str(o, "\xe9\xef\xbf\xbe!", 5)); /* invalid UTF-8, U+FFFE */
    tw_out_putc(o, '|');
    CHECK(!tw_out_xml_str(o, "n\0l", 3));
    size_t n;
    char *s = mem_text(o, &n);
    CHECK_STR(s, "a&lt;b&gt;&amp;&quot;c&apos;&#9;&#10;&#13; caf\xc3\xa9|x\xef\xbf\xbdy\xef\xbf\xbdz|"
                 "\xef\xbf\xbd\xef\xbf\xbd!|n\xef\xbf\xbdl");
    free(s);
    tw_output_close(o);
}

void test_base64(void) {
    static const char *const plain[] = {"", "f", "fo", "foo", "foob", "fooba", "foobar"};
    static const char *const coded[] = {"", "Zg==", "Zm8=", "Zm9v", "Zm9vYg==", "Zm9vYmE=", "Zm9vYmFy"};
    for (int i = 0; i < 7; i++) {
        tw_output *o = tw_output_mem();
        tw_out_base64(o, plain[i], strlen(plain[i]));
        size_t n;
        char *s = mem_text(o, &n);
        CHECK_STR(s, coded[i]);
        unsigned char back[16];
        size_t k = tw_base64_decode(s, n, back);
        CHECK_MEM(back, k, plain[i]);
        free(s);
        tw_output_close(o);
    }
    unsigned char b[8];
    CHECK_EQ_U(tw_base64_decode("Zm8", 3, b), 2);    /* padding may be left out */
    CHECK(tw_base64_decode("Zm9", 3, b) == (size_t)-1); /* non-zero leftover bits */
    CHECK(tw_base64_decode("Z", 1, b) == (size_t)-1);
    CHECK(tw_base64_decode("Zm!v", 4, b) == (size_t)-1);
    CHECK(tw_base64_decode("Zh==", 4, b) == (size_t)-1); /* non-zero padding bits */
}

void test_csv_quoting(void) {
    tw_output *o = tw_output_mem();
    tw_out_csv_field(o, "plain", 5);
    tw_out_putc(o, ',');
    tw_out_csv_field(o, "a,b", 3);
    tw_out_putc(o, ',');
    tw_out_csv_field(o, "say \"hi\"", 8);
    tw_out_putc(o, ',');
    tw_out_csv_field(o, "two\nlines", 9);
    size_t n;
    char *s = mem_text(o, &n);
    CHECK_STR(s, "plain,\"a,b\",\"say \"\"hi\"\"\",\"two\nlines\"");
    free(s);
    tw_output_close(o);
}

void test_output_numbers(void) {
    tw_output *o = tw_output_mem();
    tw_out_u64(o, 0);
    tw_out_putc(o, ' ');
    tw_out_u64(o, UINT64_MAX);
    tw_out_putc(o, ' ');
    tw_out_i64(o, INT64_MIN);
    tw_out_putc(o, ' ');
    tw_out_u64_pad(o, 42, 6);
    tw_out_putc(o, ' ');
    tw_out_u64_pad(o, 1234567, 6);
    tw_out_putc(o, ' ');
    tw_out_printf(o, "%s-%d", "x", 7);
    size_t n;
    char *s = mem_text(o, &n);
    CHECK_STR(s, "0 18446744073709551615 -9223372036854775808 000042 1234567 x-7");
    free(s);
    /* every number of digits, at its edges, and 32-bit edges, as printf
     * writes them: through the output and straight into memory */
    tw_output_close(o);
    o = tw_output_mem();
    char want[4096], got[32];
    size_t wn = 0;
    uint64_t p10 = 1;
    for (int d = 0; d < 20; d++, p10 *= 10) {
        const uint64_t v[] = {p10 - 1, p10, p10 + 1, p10 * 5 + 7, 4294967295u, 4294967296u};
        for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
            wn += (size_t)snprintf(want + wn, sizeof want - wn, "%llu,", (unsigned long long)v[i]);
            tw_out_u64(o, v[i]);
            tw_out_putc(o, ',');
            char *e = tw_put_u64(got, v[i]);
            CHECK_EQ_I(e - got, snprintf(NULL, 0, "%llu", (unsigned long long)v[i]));
            *e = 0;
            char one[32];
            snprintf(one, sizeof one, "%llu", (unsigned long long)v[i]);
            CHECK_STR(got, one);
        }
    }
    s = mem_text(o, &n);
    CHECK_STR(s, want);
    free(s);
    /* more than the initial capacity */
    for (int i = 0; i < 100000; i++) tw_out_str(o, "0123456789");
    tw_output_mem_data(o, &n);
    CHECK(n > 1000000);
    CHECK_EQ_I(tw_output_close(o), 0);
}

void test_output_errors(void) {
    /* a write error is remembered and returned at close */
    int fd = open("/dev/full", O_WRONLY);
    if (fd < 0) return; /* no /dev/full here */
    tw_output *o = tw_output_fd(fd, "/dev/full");
    for (int i = 0; i < 100000; i++) tw_out_str(o, "some output ");
    CHECK_EQ_I(tw_output_close(o), ENOSPC);
    close(fd);
    /* a closed descriptor */
    int p[2];
    CHECK(pipe(p) == 0);
    close(p[1]);
    o = tw_output_fd(p[1], "closed");
    tw_out_str(o, "x");
    CHECK_EQ_I(tw_output_close(o), EBADF);
    close(p[0]);
}

static char *slurp(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    static char buf[256];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

void test_output_replace(void) {
    char dir[] = "/tmp/tw-out-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char path[64];
    snprintf(path, sizeof path, "%s/out.txt", dir);
    /* a new file gets the umask's permissions */
    tw_output *o = tw_output_open(path);
    CHECK(o != NULL);
    tw_out_str(o, "first");
    CHECK(access(path, F_OK) != 0); /* nothing there until the end */
    CHECK_EQ_I(tw_output_close(o), 0);
    CHECK_STR(slurp(path), "first");
    /* an existing file keeps its mode and is replaced at the end */
    CHECK(chmod(path, 0604) == 0);
    o = tw_output_open(path);
    tw_out_str(o, "second");
    CHECK_STR(slurp(path), "first");
    CHECK_EQ_I(tw_output_close(o), 0);
    CHECK_STR(slurp(path), "second");
    struct stat st;
    CHECK(stat(path, &st) == 0 && (st.st_mode & 07777) == 0604);
    /* abort leaves it alone and removes the temporary file */
    o = tw_output_open(path);
    tw_out_str(o, "third");
    tw_output_flush(o);
    tw_output_abort(o);
    CHECK_STR(slurp(path), "second");
    char cmd[128];
    snprintf(cmd, sizeof cmd, "test $(ls -A %s | wc -l) -eq 1", dir);
    CHECK(system(cmd) == 0);
    /* devices are written in place */
    o = tw_output_open("/dev/null");
    CHECK(o && o->tmp_path == NULL);
    tw_out_str(o, "x");
    CHECK_EQ_I(tw_output_close(o), 0);
    /* a directory that does not exist */
    CHECK(tw_output_open("/nonexistent/dir/out.txt") == NULL);
    CHECK_EQ_I(errno, ENOENT);
    unlink(path);
    rmdir(dir);
}

void test_grow(void) {
    int *v = NULL;
    size_t cap = 0;
    CHECK(tw_grow(&v, &cap, 1, sizeof *v, 8));
    CHECK_EQ_U(cap, 8);
    CHECK(tw_grow(&v, &cap, 8, sizeof *v, 8)); /* enough already */
    CHECK_EQ_U(cap, 8);
    CHECK(tw_grow(&v, &cap, 1000, sizeof *v, 8));
    CHECK_EQ_U(cap, 1024);
    for (int i = 0; i < 1000; i++) v[i] = i; /* all of it is usable (ASan) */
    int *before = v;
    CHECK(!tw_grow(&v, &cap, SIZE_MAX / 2, sizeof *v, 8)); /* too large: refused */
    CHECK(v == before && cap == 1024 && v[999] == 999);
    free(v);
}

/* tw_calloc_lines(): aligned to and padded to TW_LINE_PAIR, zeroed to its
 * padded end (ASan sees every byte used), NULL for nothing or too much. */
void test_calloc_lines(void) {
    static const size_t sizes[] = {1, 8, 127, 128, 129, 300};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        size_t padded = (sizes[i] + TW_LINE_PAIR - 1) / TW_LINE_PAIR * TW_LINE_PAIR;
        unsigned char *p = tw_calloc_lines(1, sizes[i]);
        CHECK(p != NULL);
        if (!p) continue;
        CHECK_EQ_U((uintptr_t)p % TW_LINE_PAIR, 0);
        size_t nonzero = 0;
        for (size_t k = 0; k < padded; k++) nonzero += p[k] != 0;
        CHECK_EQ_U(nonzero, 0);
        free(p);
    }
    uint64_t *v = tw_calloc_lines(3, sizeof *v);
    CHECK(v != NULL && v[0] == 0 && v[2] == 0);
    free(v);
    CHECK(tw_calloc_lines(0, 8) == NULL);
    CHECK(tw_calloc_lines(8, 0) == NULL);
    CHECK(tw_calloc_lines(SIZE_MAX / 2, 4) == NULL);  /* n * size overflows */
    CHECK(tw_calloc_lines(1, SIZE_MAX - 64) == NULL); /* padding overflows */
}

/* Bytes at which two events differ, but for the padding after has_value
 * (the only padding on LP64; whatever a compiler leaves or writes there). */
static size_t event_bytes_differing(const tw_event *a, const tw_event *b) {
    size_t pad_lo = offsetof(tw_event, has_value) + sizeof(bool);
    size_t pad_hi = offsetof(tw_event, attrs);
    size_t d = 0;
    for (size_t i = 0; i < sizeof *a; i++)
        d += (i < pad_lo || i >= pad_hi) &&
             ((const unsigned char *)a)[i] != ((const unsigned char *)b)[i];
    return d;
}

/* tw_event_clear() and tw_event_copy() write every byte of an event but
 * its padding: two events that started with different garbage come out
 * the same. */
void test_event_clear_copy(void) {
    tw_event a, b;
    memset(&a, 0xA5, sizeof a);
    memset(&b, 0x5A, sizeof b);
    tw_event_clear(&a);
    tw_event_clear(&b);
    CHECK_EQ_U(event_bytes_differing(&a, &b), 0);
    CHECK(a.name == NULL && a.cat == NULL && a.msg == NULL && a.attrs == NULL);
    CHECK(a.ts == 0 && a.tid == 0 && a.pid == 0 && a.value == 0 && !a.has_value);
    CHECK(a.msg_len == 0 && a.nattrs == 0 && a.loc.file == NULL && a.loc.line == 0);

    tw_event src, c, d;
    memset(&src, 0x3C, sizeof src);
    src.has_value = true;
    memset(&c, 0xC3, sizeof c);
    memset(&d, 0x96, sizeof d);
    tw_event_copy(&c, &src);
    tw_event_copy(&d, &src);
    CHECK_EQ_U(event_bytes_differing(&c, &d), 0);
    CHECK_EQ_U(event_bytes_differing(&c, &src), 0);
}

void test_durations(void) {
    static const struct {
        const char *s;
        int64_t ns;
    } good[] = {{"0", 0},           {"100ns", 100},         {"250us", 250000},
                {"250\xc2\xb5s", 250000}, {"250\xce\xbcs", 250000}, {"1.5ms", 1500000},
                {"2s", 2000000000},
                {"0.0000000009s", 0}, {"0.0000000019s", 1}, {"1.2345678912ms", 1234568},
                {"9223372036854775807ns", INT64_MAX}, {"9223372036.854775807s", INT64_MAX}};
    static const char *const bad[] = {"", "5", "ms", "1.ms", ".5ms", "-1ms", "1 ms", "1m",
                                      "1.5", "9223372036854775808ns", "9223372037s",
                                      "99999999999999999999s", "1\xce\xbc", "1\xb5s"};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        int64_t v = -1;
        CHECK(tw_duration_parse(good[i].s, &v));
        CHECK_EQ_I(v, good[i].ns);
    }
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int64_t v;
        if (tw_duration_parse(bad[i], &v)) tu_fail(__FILE__, __LINE__, "accepted '%s'", bad[i]);
    }
    char buf[32];
    tw_duration_format(950, buf, sizeof buf);
    CHECK_STR(buf, "950 ns");
    tw_duration_format(-1234, buf, sizeof buf);
    CHECK_STR(buf, "-1.234 \xc2\xb5s");
    tw_duration_format(999999600, buf, sizeof buf);
    CHECK_STR(buf, "1.000 s");
    /* the smallest unit in which the rounded value stays below 1000 */
    static const struct {
        int64_t ns;
        const char *s;
    } shown[] = {{999, "999 ns"},
                 {1000, "1.000 \xc2\xb5s"},
                 {999600, "999.600 \xc2\xb5s"},
                 {999999, "999.999 \xc2\xb5s"},
                 {1000000, "1.000 ms"},
                 {999999499, "999.999 ms"},
                 {999999500, "1.000 s"},
                 {999600000, "999.600 ms"},
                 {1000000000000, "1000.000 s"},
                 {INT64_MIN, "-9223372036.855 s"}};
    for (size_t i = 0; i < sizeof shown / sizeof shown[0]; i++) {
        tw_duration_format(shown[i].ns, buf, sizeof buf);
        CHECK_STR(buf, shown[i].s);
    }
}

void test_spool_channels(void) {
    /* chunks of 8 bytes: most of the data goes through the temporary file */
    tw_spool *s = tw_spool_new(8);
    CHECK(s != NULL);
    char want[3][4096];
    size_t len[3] = {0, 0, 0};
    /* where a write found its channel's latest bytes empty (a piece starts
     * there), as offsets in the channel */
    size_t fresh[3][600], nfresh[3] = {0, 0, 0};
    for (int i = 0; i < 500; i++) {
        size_t c = (size_t)(i * 7 % 3);
        char piece[16];
        int n = snprintf(piece, sizeof piece, "%d,", i);
        char *room = tw_spool_space(s, c, (size_t)n);
        CHECK(room != NULL);
        if (!room) break;
        if (tw_spool_fresh(s, c)) fresh[c][nfresh[c]++] = len[c];
        memcpy(room, piece, (size_t)n);
        CHECK(tw_spool_commit(s, c, (size_t)n));
        memcpy(want[c] + len[c], piece, (size_t)n);
        len[c] += (size_t)n;
    }
    /* one piece at a time: the pieces start exactly there, and end where
     * a write ended (with a ',') */
    for (size_t c = 0; c < 3; c++) {
        tw_spool_cursor cur = tw_spool_cursor_at(c);
        tw_buf b = {0};
        const char *p;
        size_t n, at = 0, k = 0, wrong = 0;
        int r;
        while ((r = tw_spool_piece(s, &cur, &b, &p, &n)) > 0) {
            wrong += k >= nfresh[c] || fresh[c][k] != at || n == 0 || at + n > len[c] ||
                     p[n - 1] != ',' || memcmp(p, want[c] + at, n) != 0;
            k++;
            at += n;
        }
        CHECK_EQ_I(r, 0);
        CHECK_EQ_U(wrong, 0);
        CHECK_EQ_U(k, nfresh[c]);
        CHECK_EQ_U(at, len[c]);
        CHECK(k > 10);
        /* and then it stays at the end */
        CHECK_EQ_I(tw_spool_piece(s, &cur, &b, &p, &n), 0);
        tw_buf_free(&b);
    }
    for (size_t c = 0; c < 3; c++) {
        CHECK_EQ_U(tw_spool_size(s, c), len[c]);
        tw_output *o = tw_output_mem();
        CHECK(tw_spool_copy(s, c, o));
        size_t n;
        const char *p = tw_output_mem_data(o, &n);
        CHECK_EQ_U(n, len[c]);
        CHECK(n == len[c] && memcmp(p, want[c], n) == 0);
        tw_output_close(o);
    }
    /* a channel never written to is empty */
    CHECK_EQ_U(tw_spool_size(s, 9), 0);
    CHECK_EQ_I(tw_spool_error(s), 0);
    /* a chunk whose header was changed to say it is empty is a failure,
     * not an empty piece */
    {
        uint64_t zero = 0;
        CHECK(pwrite(fileno(s->file), &zero, sizeof zero, (off_t)(s->ch[1].first + 8)) == 8);
        tw_spool_cursor cur = tw_spool_cursor_at(1);
        tw_buf b = {0};
        const char *p;
        size_t n;
        CHECK_EQ_I(tw_spool_piece(s, &cur, &b, &p, &n), -1);
        CHECK_EQ_I(tw_spool_error(s), EIO);
        tw_buf_free(&b);
    }
    tw_spool_free(s);

    /* default chunks, channels of 1.5 MB read back into a file's output,
     * whose 256 KiB buffer they fill several times, after a few bytes
     * already in it (so the reads straddle its end) */
    s = tw_spool_new(0);
    CHECK(s != NULL);
    enum { BIG = 1500000 };
    for (size_t i = 0; i < BIG / 10; i++)
        for (size_t c = 0; c < 2; c++) {
            char piece[16];
            snprintf(piece, sizeof piece, "%c%08zu\n", (int)('a' + c), i);
            CHECK(tw_spool_write(s, c, piece, 10));
        }
    FILE *tmp = tmpfile();
    CHECK(tmp != NULL);
    if (!tmp) return;
    tw_output *o = tw_output_fd(fileno(tmp), "tmp");
    tw_out_str(o, "head\n");
    CHECK(tw_spool_copy(s, 1, o));
    CHECK(tw_spool_copy(s, 0, o));
    CHECK_EQ_I(tw_output_close(o), 0);
    CHECK_EQ_I(tw_spool_error(s), 0);
    tw_spool_free(s);
    CHECK(fseek(tmp, 0, SEEK_END) == 0);
    CHECK_EQ_U((uint64_t)ftell(tmp), 5 + 2 * (uint64_t)BIG);
    rewind(tmp);
    char line[32];
    CHECK(fgets(line, sizeof line, tmp) && strcmp(line, "head\n") == 0);
    size_t bad = 0;
    for (size_t c = 1; c + 1 > 0; c--)
        for (size_t i = 0; i < BIG / 10; i++) {
            char expect[16];
            snprintf(expect, sizeof expect, "%c%08zu\n", (int)('a' + c), i);
            bad += !fgets(line, sizeof line, tmp) || strcmp(line, expect) != 0;
        }
    CHECK_EQ_U(bad, 0);
    fclose(tmp);
}

void test_format_utc(void) {
    char b[48];
    CHECK(tw_format_utc(0, b, sizeof b));
    CHECK_STR(b, "1970-01-01T00:00:00.000000000Z");
    CHECK(tw_format_utc(INT64_C(1184158800123456000), b, sizeof b));
    CHECK_STR(b, "2007-07-11T13:00:00.123456000Z");
    CHECK(tw_format_utc(INT64_C(951782400) * 1000000000 + 1, b, sizeof b)); /* a leap day */
    CHECK_STR(b, "2000-02-29T00:00:00.000000001Z");
    CHECK(tw_format_utc(-1, b, sizeof b));
    CHECK_STR(b, "1969-12-31T23:59:59.999999999Z");
    CHECK(tw_format_utc(INT64_MIN, b, sizeof b));
    CHECK_STR(b, "1677-09-21T00:12:43.145224192Z");
    CHECK(tw_format_utc(INT64_MAX, b, sizeof b));
    CHECK_STR(b, "2262-04-11T23:47:16.854775807Z");
}

void test_floor_to(void) {
    CHECK_EQ_I(tw_floor_to(1999, 1000), 1000);
    CHECK_EQ_I(tw_floor_to(-1, 1000), -1000);
    CHECK_EQ_I(tw_floor_to(-1000, 1000), -1000);
    CHECK_EQ_I(tw_floor_to(INT64_MAX, 1000000000), INT64_C(9223372036000000000));
    /* below INT64_MIN there is no multiple: towards zero instead */
    CHECK_EQ_I(tw_floor_to(INT64_MIN, 1000000000), INT64_C(-9223372036000000000));
}

/* tw_out_oneline() against the byte-by-byte rule (CR and LF become
 * spaces, nothing else changes), for every length up to 40 with a CR, an
 * LF or another byte below 0x0e at every place, and none; and
 * tw_out_u64_pad() against printf's %0*llu for every width up to 24 and
 * number of digits, with 0 to 40 bytes of room left in the output's buffer. */
void test_output_oneline_pad(void) {
    static const unsigned char specials[] = {'\n', '\r', 0x00, 0x09, 0x0b, 0x0c, 0x0d, 0x0e, 0x80};
    char s[48], want[48];
    for (size_t len = 0; len <= 40; len++) {
        for (size_t at = 0; at <= len; at++) {
            for (size_t k = 0; k < sizeof specials; k++) {
                for (size_t i = 0; i < len; i++) s[i] = (char)('a' + i % 26);
                if (at < len) s[at] = (char)specials[k];
                bool changed = false;
                for (size_t i = 0; i < len; i++) {
                    want[i] = s[i] == '\n' || s[i] == '\r' ? ' ' : s[i];
                    changed |= want[i] != s[i];
                }
                tw_output *o = tw_output_mem();
                bool replaced = tw_out_oneline(o, s, len);
                size_t n;
                const char *got = tw_output_mem_data(o, &n);
                if (n != len || memcmp(got, want, len) || replaced != changed)
                    tu_fail(__FILE__, __LINE__, "length %zu, byte 0x%02x at %zu", len, specials[k], at);
                tw_output_close(o);
                if (at == len) break;  /* (no special byte: once) */
            }
        }
    }
    for (unsigned width = 0; width <= 24; width++) {
        uint64_t v = 0;
        for (int d = 0; d <= 20; d++, v = v * 10 + 7) {
            char w1[64];
            snprintf(w1, sizeof w1, "%0*llu", (int)width, (unsigned long long)v);
            for (size_t left = 0; left <= 40; left += 3) {  /* room left in the buffer */
                tw_output *o = tw_output_mem();
                size_t n;
                tw_out_putc(o, 'x');
                /* the whole buffer written, then taken back to `fill`:
                 * a byte the pad leaves unwritten shows as an 'x' */
                while (o->len < o->cap) tw_out_putc(o, 'x');
                size_t fill = o->cap > left ? o->cap - left : 1;
                o->len = fill;
                tw_out_u64_pad(o, v, width);
                const char *got = tw_output_mem_data(o, &n);
                if (n != fill + strlen(w1) || memcmp(got + fill, w1, strlen(w1)))
                    tu_fail(__FILE__, __LINE__, "%llu width %u after %zu bytes", (unsigned long long)v,
                            width, fill);
                tw_output_close(o);
            }
            if (d == 19) v = UINT64_MAX / 10 - 7;  /* the last: UINT64_MAX's 20 digits */
        }
    }
}
