/*
 * libFuzzer target: format detection over every format, with and without
 * a file name hint, then a read with the format it picks (see fuzz.h).
 */
#include "fuzz.h"

#include <string.h>

static void detect(const uint8_t *data, size_t size, const char *path) {
    tw_probe_result res[64];
    size_t n = tw_detect(data, size, path, res, 64);
    TW_FUZZ_CHECK(n <= tw_format_count(), "more candidates than formats");
    for (size_t i = 0; i < n && i < 64; i++) {
        TW_FUZZ_CHECK(res[i].score > 0 && res[i].score <= 100, "score out of range");
        TW_FUZZ_CHECK(tw_format_can_read(res[i].format), "candidate that cannot be read");
        if (i) TW_FUZZ_CHECK(res[i - 1].score >= res[i].score, "candidates not best first");
    }
    const tw_format *pick = tw_detect_pick(res, n < 64 ? n : 64);
    if (pick) TW_FUZZ_CHECK(n && pick == res[0].format, "pick is not the best candidate");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    size_t head = size < TW_HEAD_MAX ? size : TW_HEAD_MAX;
    detect(data, head, NULL);
    /* every extension as a hint, then a name without one */
    char path[64];
    for (size_t i = 0; i < tw_format_count(); i++) {
        const tw_format *f = tw_format_at(i);
        for (const char *const *e = f->extensions; e && *e; e++) {
            size_t len = strlen(*e);
            if (len + 2 > sizeof path) continue;
            path[0] = 'x';
            memcpy(path + 1, *e, len + 1);
            detect(data, head, path);
        }
    }
    detect(data, head, "x");
    tw_fuzz_read(NULL, NULL, data, size, NULL);
    return 0;
}
