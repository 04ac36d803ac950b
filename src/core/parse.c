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
