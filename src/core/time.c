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
