/* Locale-free number parsing with overflow detection. */
#include "util.h"

#define HX(c, v) [c] = (v) + 1
const unsigned char tw_hex_digit1[256] = {
    HX('0', 0),  HX('1', 1),  HX('2', 2),  HX('3', 3),  HX('4', 4),  HX('5', 5),
    HX('6', 6),  HX('7', 7),  HX('8', 8),  HX('9', 9),  HX('a', 10), HX('b', 11),
    HX('c', 12), HX('d', 13), HX('e', 14), HX('f', 15), HX('A', 10), HX('B', 11),
    HX('C', 12), HX('D', 13), HX('E', 14), HX('F', 15)};
#undef HX

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
