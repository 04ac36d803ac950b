/* UTF-8 validation and encoding (RFC 3629: no overlongs, no surrogates),
 * UTF-16 units and terminal columns of UTF-8 text. */
#include "tracewright/io.h"
#include "util.h"

size_t tw_utf8_seq(const unsigned char *s, size_t n) {
    unsigned c = s[0];
    if (c < 0x80) return 1;
    if (c < 0xC2) return 0;
    if (c < 0xE0) {
        if (n < 2 || (s[1] & 0xC0) != 0x80) return 0;
        return 2;
    }
    if (c < 0xF0) {
        if (n < 3 || (s[1] & 0xC0) != 0x80 || (s[2] & 0xC0) != 0x80) return 0;
        if (c == 0xE0 && s[1] < 0xA0) return 0;  /* overlong */
        if (c == 0xED && s[1] > 0x9F) return 0;  /* surrogate */
        return 3;
    }
    if (c < 0xF5) {
        if (n < 4 || (s[1] & 0xC0) != 0x80 || (s[2] & 0xC0) != 0x80 ||
            (s[3] & 0xC0) != 0x80)
            return 0;
        if (c == 0xF0 && s[1] < 0x90) return 0;  /* overlong */
        if (c == 0xF4 && s[1] > 0x8F) return 0;  /* > U+10FFFF */
        return 4;
    }
    return 0;
}

bool tw_utf8_valid(const char *str, size_t len) {
    const unsigned char *s = (const unsigned char *)str;
    size_t i = 0;
    while (i < len) {
        /* fast path over ASCII, eight bytes at a time */
        while (i + 8 <= len) {
            uint64_t v;
            memcpy(&v, s + i, 8);
            if (v & 0x8080808080808080ULL) break;
            i += 8;
        }
        if (i >= len) break;
        if (len >= 8 && i + 8 > len) {
            /* the last bytes: one load of the last eight (some already
             * looked at) answers when they are all ASCII */
            uint64_t v;
            memcpy(&v, s + len - 8, 8);
            if (!(v & 0x8080808080808080ULL)) break;
        }
        if (s[i] < 0x80) {
            i++;
            continue;
        }
        size_t k = tw_utf8_seq(s + i, len - i);
        if (!k) return false;
        i += k;
    }
    return true;
}

/* The bytes at s[0..n) that a decoder replaces with one U+FFFD when they
 * are not a valid sequence: the maximal subpart (Unicode 15, 3.9), a lead
 * byte and the continuation bytes that could still have followed it. */
static size_t invalid_run(const unsigned char *s, size_t n) {
    unsigned c = s[0];
    size_t need = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
    unsigned lo = c == 0xE0 ? 0xA0 : c == 0xF0 ? 0x90 : 0x80;
    unsigned hi = c == 0xED ? 0x9F : c == 0xF4 ? 0x8F : 0xBF;
    size_t k = 1;
    for (; k < need && k < n; k++) {
        unsigned b = s[k];
        if (k == 1 ? b < lo || b > hi : (b & 0xC0) != 0x80) break;
    }
    return k;
}

uint64_t tw_utf16_units(const char *str, size_t len, size_t *used) {
    const unsigned char *s = (const unsigned char *)str;
    uint64_t units = 0;
    size_t i = 0;
    while (i < len) {
        if (s[i] < 0x80) {
            units++;
            i++;
            continue;
        }
        /* fewer than four bytes left: the caller may have the rest */
        if (used && len - i < 4) break;
        size_t k = tw_utf8_seq(s + i, len - i);
        units += k == 4 ? 2 : 1;  /* not valid: one U+FFFD */
        i += k ? k : invalid_run(s + i, len - i);
    }
    if (used) *used = i;
    return units;
}

size_t tw_utf8_put(uint32_t cp, char *out) {
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xC0 | (cp >> 6));
        out[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xE0 | (cp >> 12));
        out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (cp >> 18));
    out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

/* ---- terminal columns ---------------------------------------------------- */

/* The code point of the UTF-8 sequence of `len` bytes at s. */
static uint32_t code_point(const unsigned char *s, size_t len) {
    if (len == 1) return s[0];
    uint32_t cp = s[0] & (0x7Fu >> len);
    for (size_t i = 1; i < len; i++) cp = cp << 6 | (s[i] & 0x3Fu);
    return cp;
}

/* Terminal columns of a code point: 2 for the East Asian wide and
 * fullwidth ones (CJK, Hangul, fullwidth forms, most emoji), else 1. */
static size_t columns(uint32_t cp) {
    if (cp < 0x1100) return 1;
    static const uint32_t wide[][2] = {
        {0x1100, 0x115F},   {0x2E80, 0x303E},   {0x3041, 0x33FF},   {0x3400, 0x4DBF},
        {0x4E00, 0x9FFF},   {0xA000, 0xA4CF},   {0xAC00, 0xD7A3},   {0xF900, 0xFAFF},
        {0xFE30, 0xFE4F},   {0xFF00, 0xFF60},   {0xFFE0, 0xFFE6},   {0x1F300, 0x1F64F},
        {0x1F900, 0x1F9FF}, {0x20000, 0x2FFFD}, {0x30000, 0x3FFFD},
    };
    for (size_t i = 0; i < sizeof wide / sizeof wide[0]; i++)
        if (cp >= wide[i][0] && cp <= wide[i][1]) return 2;
    return 1;
}

/* The length in bytes of the character at s[0..n) (1 for an invalid
 * byte, shown in one column) and, in *cols, its columns. */
static size_t next_char(const char *s, size_t n, size_t *cols) {
    const unsigned char *u = (const unsigned char *)s;
    if (u[0] < 0x80 || n == 0) {  /* ASCII, the usual: one column */
        *cols = 1;
        return 1;
    }
    size_t len = tw_utf8_seq(u, n);
    *cols = len ? columns(code_point(u, len)) : 1;
    return len ? len : 1;
}

size_t tw_display_width(const char *s, size_t n) {
    size_t w = 0, cols;
    for (size_t i = 0; i < n; w += cols) {
        if ((unsigned char)s[i] < 0x80) {  /* ASCII, the usual, without a call */
            i++;
            cols = 1;
            continue;
        }
        i += next_char(s + i, n - i, &cols);
    }
    return w;
}

size_t tw_display_cell(const char *s, size_t n, size_t max_cols, char *out) {
    size_t i = 0, o = 0, used = 0, cols;
    /* the whole text when it fits, else what fits before the "..." */
    size_t room = max_cols;
    for (size_t k = 0, total = 0; k < n && room == max_cols; total += cols) {
        k += next_char(s + k, n - k, &cols);
        if (total + cols > max_cols) room = max_cols < 3 ? max_cols : max_cols - 3;
    }
    while (i < n) {
        size_t len = next_char(s + i, n - i, &cols);
        if (used + cols > room) break;
        for (size_t k = 0; k < len; k++) {  /* (at most 4 bytes a column) */
            unsigned char c = (unsigned char)s[i + k];
            out[o++] = s[i + k];
            if (c < 0x20 || c == 0x7f) out[o - 1] = ' ';
        }
        i += len;
        used += cols;
    }
    if (i < n && max_cols >= 3) {
        memcpy(out + o, "...", 3);
        o += 3;
        used += 3;
    }
    out[o] = '\0';
    return used;
}
