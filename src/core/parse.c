/* Locale-free decimal number parsing with overflow detection. */
#include "util.h"

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
