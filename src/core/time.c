/* Time conversion between the trace clocks and integer nanoseconds. */
#include <stdio.h>
#include <string.h>

#include "tracewright/event.h"
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
    if (mul == div) {  /* ticks that are already ns */
        *out = v;
        return true;
    }
    int64_t n64;
    if (!__builtin_mul_overflow(v, mul, &n64)) {  /* no 128-bit division needed */
        int64_t q64 = n64 / div, r64 = n64 % div;
        if (r64 < 0) {  /* floor; div > 1 here, so q64 - 1 and q64 + 1 fit */
            q64--;
            r64 += div;
        }
        if (r64 >= div - r64) q64++;
        *out = q64;
        return true;
    }
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

void tw_duration_format(int64_t ns, char *buf, size_t n) {
    const char *sign = ns < 0 ? "-" : "";
    uint64_t u = ns < 0 ? 0 - (uint64_t)ns : (uint64_t)ns;
    static const struct {
        uint64_t step;  /* ns in the third decimal of the unit */
        const char *unit;
    } units[] = {{1, "\xc2\xb5s"}, {1000, "ms"}, {1000000, "s"}};
    if (u < 1000) {
        snprintf(buf, n, "%s%llu ns", sign, (unsigned long long)u);
        return;
    }
    /* the smallest unit in which the rounded value stays below 1000: 999.6 us
     * is not shown as 1.000 ms, but 999.9996 ms is as 1.000 s */
    uint64_t q;
    size_t i = 0;
    for (;; i++) { /* seconds whatever their number */
        q = u / units[i].step + (u % units[i].step >= (units[i].step + 1) / 2);
        if (q < 1000000 || i == 2) break;
    }
    snprintf(buf, n, "%s%llu.%03llu %s", sign, (unsigned long long)(q / 1000),
             (unsigned long long)(q % 1000), units[i].unit);
}

bool tw_duration_parse(const char *s, int64_t *ns) {
    static const struct {
        const char *unit;
        int64_t scale;
    } units[] = {{"ns", 1},
                 {"us", TW_NS_PER_US},
                 {"\xc2\xb5s", TW_NS_PER_US}, /* U+00B5 MICRO SIGN, as durations are shown */
                 {"\xce\xbcs", TW_NS_PER_US}, /* U+03BC GREEK SMALL LETTER MU, as often typed */
                 {"ms", TW_NS_PER_MS},
                 {"s", TW_NS_PER_S}};
    uint64_t whole = 0, frac = 0, fdiv = 1;
    const char *p = s;
    if (*p < '0' || *p > '9') return false;
    for (; *p >= '0' && *p <= '9'; p++) {
        if (whole > (UINT64_MAX - 9) / 10) return false;
        whole = whole * 10 + (uint64_t)(*p - '0');
    }
    if (*p == '.') {
        p++;
        if (*p < '0' || *p > '9') return false;
        for (; *p >= '0' && *p <= '9'; p++) {
            if (fdiv >= UINT64_C(1000000000)) continue;  /* below 1 ns in any unit */
            frac = frac * 10 + (uint64_t)(*p - '0');
            fdiv *= 10;
        }
    }
    if (*p == '\0') {  /* a bare number is allowed for 0 only: a unit is needed */
        if (whole || frac) return false;
        *ns = 0;
        return true;
    }
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        if (strcmp(p, units[i].unit) != 0) continue;
        uint64_t sc = (uint64_t)units[i].scale;
        if (whole > (uint64_t)INT64_MAX / sc) return false;
        uint64_t v = whole * sc;
        /* the fraction, rounded to the nearest ns: frac * sc / fdiv */
        uint64_t f = (frac * sc + fdiv / 2) / fdiv;  /* frac < 1e9, sc <= 1e9 fits */
        if (v > (uint64_t)INT64_MAX - f) return false;
        *ns = (int64_t)(v + f);
        return true;
    }
    return false;
}

bool tw_format_utc(int64_t epoch_ns, char *buf, size_t n) {
    int64_t secs = epoch_ns / TW_NS_PER_S, frac = epoch_ns % TW_NS_PER_S;
    if (frac < 0) {  /* floor, without overflow at the ends of the range */
        frac += TW_NS_PER_S;
        secs--;
    }
    /* days since 1970-01-01 to a civil date (proleptic Gregorian) */
    int64_t days = tw_floor_div(secs, 86400), sod = secs - days * 86400;
    int64_t z = days + 719468, era = tw_floor_div(z, 146097);
    int64_t doe = z - era * 146097;
    int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    int64_t mp = (5 * doy + 2) / 153;
    int64_t d = doy - (153 * mp + 2) / 5 + 1, m = mp < 10 ? mp + 3 : mp - 9;
    int64_t y = yoe + era * 400 + (m <= 2);
    if (n) buf[0] = '\0';
    if (y < 0 || y > 9999) return false;
    snprintf(buf, n, "%04d-%02d-%02dT%02d:%02d:%02d.%09dZ", (int)y, (int)m, (int)d,
             (int)(sod / 3600), (int)(sod / 60 % 60), (int)(sod % 60), (int)frac);
    return true;
}
