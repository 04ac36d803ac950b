/* Time conversion between the trace clocks and integer nanoseconds. */
#include "util.h"

int64_t tw_floor_div(int64_t v, int64_t unit) {
    int64_t q = v / unit;
    if ((v % unit) != 0 && v < 0) q--;
    return q;
}

int64_t tw_round_div(int64_t v, int64_t unit, bool *inexact) {
    int64_t q = tw_floor_div(v, unit);
    /* r = v - q*unit, computed without overflow: 0 <= r < unit */
    int64_t r = (int64_t)((uint64_t)v - (uint64_t)q * (uint64_t)unit);
    if (inexact) *inexact = r != 0;
    if (r >= unit - r) q++;
    return q;
}

#ifdef __SIZEOF_INT128__
__extension__ typedef __int128 wide;
#else
#error "tw_muldiv_i64 needs a 128-bit integer type"
#endif

bool tw_muldiv_i64(int64_t v, int64_t mul, int64_t div, int64_t *out) {
    wide n = (wide)v * mul, q = n / div, r = n % div;
    if (r < 0) {  /* floor */
        q--;
        r += div;
    }
    if (r >= div - r) q++;
    if (q > INT64_MAX || q < INT64_MIN) return false;
    *out = (int64_t)q;
    return true;
}
