/* Locale-free number parsing with overflow detection. */
#include "util.h"

const unsigned char tw_hex_digit1[256] = {
    ['0'] = 1,   ['1'] = 2,   ['2'] = 3,   ['3'] = 4,   ['4'] = 5,   ['5'] = 6,
    ['6'] = 7,   ['7'] = 8,   ['8'] = 9,   ['9'] = 10,  ['a'] = 11,  ['b'] = 12,
    ['c'] = 13,  ['d'] = 14,  ['e'] = 15,  ['f'] = 16,  ['A'] = 11,  ['B'] = 12,
    ['C'] = 13,  ['D'] = 14,  ['E'] = 15,  ['F'] = 16};  /* value + 1 */

/* The general case of tw_scan_u64 (util.h): any number of digits. */
size_t tw_scan_u64_long(const char *s, size_t n, uint64_t *out, bool *overflow) {
    uint64_t v = 0;
    bool ovf = false;
    size_t i = 0;
    for (; i < n; i++) {
        unsigned d = (unsigned)(unsigned char)s[i] - '0';
        if (d > 9) break;
        if (v > (UINT64_MAX - d) / 10) ovf = true;
        else v = v * 10 + d;
    }
    *out = v;
    if (overflow) *overflow = ovf;
    return i;
}

size_t tw_scan_u64_wide(const char *s, size_t n, uint64_t *out, bool *overflow) {
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (n >= 16) { /* eight digits, then up to eight more (at least one) */
        uint64_t w2 = tw_load64(s + 8), nd2 = tw_nondigits(w2);
        unsigned k2 = nd2 ? (unsigned)__builtin_ctzll(nd2) / 8 : 8;
        if (k2 < 8 || n == 16 || (unsigned)(unsigned char)s[16] - '0' > 9) {
            static const uint64_t pow10[9] = {1,      10,      100,      1000,     10000,
                                              100000, 1000000, 10000000, 100000000};
            if (overflow) *overflow = false;
            *out = tw_swar_digits(tw_load64(s), 8) * pow10[k2] + tw_swar_digits(w2, k2);
            return 8 + k2;
        }
    }
#endif
    return tw_scan_u64_long(s, n, out, overflow);
}
