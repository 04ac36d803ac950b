/*
 * libFuzzer target: statistics reports (tracewright-stats/1), as `stats
 * --merge` and `compare` read them (see fuzz.h).  Besides the common
 * checks: a report refused has an error reported; a report accepted is
 * grouped, filtered, sorted and written as a table, CSV and JSON; and the
 * JSON written reads back to the same JSON.
 */
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

/* Read `data` as one report into a new profile; NULL when it is refused
 * (an error reported, checked). */
static tw_profile *read_report(const uint8_t *data, size_t size, tw_diag_sink *sink) {
    tw_input *in = NULL;
    tw_input_opts io = {.max_line = 1 << 16};
    TW_FUZZ_CHECK(tw_input_open_mem(data, size, "fuzz", &io, sink, &in) == 0, "no input");
    tw_profile *p = tw_profile_new();
    TW_FUZZ_CHECK(p != NULL, "no profile");
    uint64_t errors = sink->count[TW_SEV_ERROR];
    int rc = tw_profile_read_json(p, in, sink);
    tw_input_close(in);
    if (rc == TW_OK) return p;
    TW_FUZZ_CHECK(sink->count[TW_SEV_ERROR] > errors, "a report refused without an error");
    tw_profile_free(p);
    return NULL;
}

/* Group the rows (per thread when every row has a thread) and write the
 * profile as JSON; the text is the memory output's. */
static tw_output *group_and_write(tw_profile *p, tw_diag_sink *sink, bool *by_thread) {
    *by_thread = true;
    for (size_t i = 0; i < tw_profile_row_count(p); i++)
        *by_thread &= tw_profile_row(p, i)->by_thread;
    TW_FUZZ_CHECK(tw_profile_group(p, *by_thread, sink) == TW_OK, "grouping failed");
    tw_profile_sort(p, TW_SORT_NAME);
    tw_output *out = tw_output_mem();
    TW_FUZZ_CHECK(out != NULL, "no memory output");
    tw_profile_write(p, TW_PROFILE_JSON, out);
    TW_FUZZ_CHECK(out->err == 0, "memory output failed");
    return out;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    tw_diag_sink sink;
    tw_fuzz_sink(&sink);
    tw_profile *p = read_report(data, size, &sink);
    if (!p) return 0;
    bool by_thread;
    tw_output *first = group_and_write(p, &sink, &by_thread);
    /* the other layouts, and the filters and sorts, after the JSON: by a
     * scope's name and a thread's (as --scope and --thread-name), by tid */
    regex_t name_re, thread_re;
    TW_FUZZ_CHECK(regcomp(&name_re, "[a-m]", REG_EXTENDED | REG_NOSUB) == 0, "regcomp");
    TW_FUZZ_CHECK(regcomp(&thread_re, "^[^x]", REG_EXTENDED | REG_NOSUB) == 0, "regcomp");
    tw_row_filter f = {.has_tid = size & 1, .tid = 1, .regex = size & 2 ? &name_re : NULL,
                       .thread_regex = size & 4 ? &thread_re : NULL};
    tw_profile_filter(p, &f);
    regfree(&name_re);
    regfree(&thread_re);
    tw_profile_sort(p, (tw_sort)(size % 5));
    tw_profile_truncate(p, size % 3);
    tw_output *other = tw_output_mem();
    TW_FUZZ_CHECK(other != NULL, "no memory output");
    tw_profile_write(p, TW_PROFILE_TABLE, other);
    tw_profile_write(p, TW_PROFILE_CSV, other);
    TW_FUZZ_CHECK(other->err == 0, "memory output failed");
    tw_output_close(other);
    tw_profile_free(p);

    /* what was written is a report, which reads back to itself */
    size_t len;
    const char *text = tw_output_mem_data(first, &len);
    tw_diag_sink again;
    tw_fuzz_sink(&again);
    tw_profile *q = read_report((const uint8_t *)text, len, &again);
    if (!q) fprintf(stderr, "--- written\n%.*s", (int)len, text);
    TW_FUZZ_CHECK(q != NULL, "a report written does not read back");
    bool by_thread2;
    tw_output *second = group_and_write(q, &again, &by_thread2);
    size_t len2;
    const char *text2 = tw_output_mem_data(second, &len2);
    if (len2 != len || memcmp(text, text2, len)) {
        fprintf(stderr, "--- first\n%.*s--- second\n%.*s", (int)len, text, (int)len2, text2);
        tw_fuzz_fail(__FILE__, __LINE__, "a report changes when read back");
    }
    tw_output_close(second);
    tw_output_close(first);
    tw_profile_free(q);
    return 0;
}
