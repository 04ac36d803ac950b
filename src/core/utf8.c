/* UTF-8 validation and encoding (RFC 3629: no overlongs, no surrogates). */
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
        units += k == 4 ? 2 : 1;  /* an invalid byte: one U+FFFD */
        i += k ? k : 1;
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
