/*
 * A small unit-test harness.  A test is a function `void test_x(void)`
 * listed in tests/unit/main.c; it fails when any CHECK in it fails.
 * The runner prints one line per failed check and ends with
 * "N passed, N failed" (counting tests).
 */
#ifndef TW_TEST_HARNESS_H
#define TW_TEST_HARNESS_H

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "tracewright/tracewright.h"

void tu_fail(const char *file, int line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

#define CHECK(c)                                                    \
    do {                                                            \
        if (!(c)) tu_fail(__FILE__, __LINE__, "CHECK(%s)", #c);     \
    } while (0)

#define CHECK_EQ_I(a, b)                                                                   \
    do {                                                                                   \
        int64_t a_ = (int64_t)(a), b_ = (int64_t)(b);                                      \
        if (a_ != b_)                                                                      \
            tu_fail(__FILE__, __LINE__, "%s == %s: %" PRId64 " != %" PRId64, #a, #b, a_, b_); \
    } while (0)

#define CHECK_EQ_U(a, b)                                                                   \
    do {                                                                                   \
        uint64_t a_ = (uint64_t)(a), b_ = (uint64_t)(b);                                   \
        if (a_ != b_)                                                                      \
            tu_fail(__FILE__, __LINE__, "%s == %s: %" PRIu64 " != %" PRIu64, #a, #b, a_, b_); \
    } while (0)

/* Compare a byte string of known length with a C string. */
#define CHECK_MEM(p, n, s)                                                                 \
    do {                                                                                   \
        const char *p_ = (const char *)(p), *s_ = (s);                                     \
        size_t n_ = (n);                                                                   \
        if (n_ != strlen(s_) || memcmp(p_, s_, n_) != 0)                                   \
            tu_fail(__FILE__, __LINE__, "%s: \"%.*s\" != \"%s\"", #p, (int)n_, p_ ? p_ : "", \
                    s_);                                                                   \
    } while (0)

#define CHECK_STR(a, b)                                      \
    do {                                                     \
        const char *sa_ = (a);                               \
        if (!sa_) sa_ = "(null)";                            \
        CHECK_MEM(sa_, strlen(sa_), (b));                    \
    } while (0)

/* ---- helpers shared by the tests (helpers.c) ---- */

#define TU_MAX_DIAGS 64

/* A diagnostics sink that records rule ids, severities and lines. */
typedef struct tu_diags {
    tw_diag_sink sink;
    size_t n;
    const char *rule[TU_MAX_DIAGS];
    tw_severity sev[TU_MAX_DIAGS];
    uint64_t line[TU_MAX_DIAGS], col[TU_MAX_DIAGS];
    char msg[TU_MAX_DIAGS][640];
    const char *skip[4];  /* rule ids not recorded (see tu_diags_skip) */
} tu_diags;

void tu_diags_init(tu_diags *d);
/* Do not record diagnostics of rule `id` (for snippets that are
 * deliberately incomplete, such as RTL logs without their trailer). */
void tu_diags_skip(tu_diags *d, const char *id);
/* Index of the first diagnostic with this rule id, or -1. */
int tu_diag_find(const tu_diags *d, const char *rule);

/* Read `text` (a memory input named `name`) with format `fmt` into `ev`
 * (at most `cap` events, names copied into a static pool).  Returns the
 * number of events, or -1 if the reader failed. */
typedef struct tu_event {
    tw_kind kind;
    int64_t ts;
    uint32_t pid;
    uint64_t tid;
    char name[128];
    char cat[128];
    bool has_cat;
    char msg[128];
    bool has_msg;
    uint64_t line;
} tu_event;

int tu_read(const char *fmt, const char *name, const void *text, size_t len, const tw_optset *opts,
            tu_diags *d, tw_trace_info *info, tu_event *ev, int cap);
#define TU_READ_STR(fmt, text, d, info, ev, cap) \
    tu_read((fmt), "t", (text), strlen(text), NULL, (d), (info), (ev), (cap))

/* Write the events of `jsonl` text with format `fmt` into a malloc'ed
 * string (*len bytes); diagnostics go to `d`. */
char *tu_convert(const char *jsonl, const char *fmt, tu_diags *d, size_t *len);

/* A temporary file holding `text`; returns its path (static buffer per call
 * slot 0..3) or NULL. */
const char *tu_tempfile(int slot, const char *suffix, const void *text, size_t len);

/* Whether the tests run under valgrind (its preload library is in
 * LD_PRELOAD): a test that valgrind cannot run as the machine does skips. */
bool tu_under_valgrind(void);

#endif
