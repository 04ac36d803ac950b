/*
 * Shared code of the fuzz targets (tests/fuzz/fuzz_*.c).
 *
 * Each target is one LLVMFuzzerTestOneInput().  Built with clang's
 * -fsanitize=fuzzer it is a libFuzzer binary (make fuzz); linked with
 * replay.c it is a plain program that runs the target once per file it is
 * given (the regression replay of make test).
 *
 * Besides the sanitizers, the targets check what the library promises:
 *   - a reader or writer that fails has reported an error first;
 *   - every diagnostic has a known rule, a non-empty one-line message and
 *     a location that names the input;
 *   - every event is well formed (known kind, a name, consistent message
 *     and attributes).
 * A broken promise aborts, so that the fuzzer records the input.
 */
#ifndef TW_FUZZ_H
#define TW_FUZZ_H

#include <stddef.h>
#include <stdint.h>

#include "tracewright/tracewright.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Abort with a message when `cond` is false (a broken promise). */
#define TW_FUZZ_CHECK(cond, what) \
    ((cond) ? (void)0 : tw_fuzz_fail(__FILE__, __LINE__, (what)))
void tw_fuzz_fail(const char *file, int line, const char *what);

/* A diagnostics sink that checks each diagnostic and counts them. */
void tw_fuzz_sink(tw_diag_sink *sink);
/* Check one event as a reader delivered it. */
void tw_fuzz_check_event(const tw_event *ev);

/* What is done with the events read (all members may be NULL). */
typedef struct tw_fuzz_consumer {
    void (*start)(void *user, tw_strtab *strtab, const tw_trace_info *info);
    void (*event)(void *user, const tw_event *ev);
    void (*finish)(void *user);
    void *user;
} tw_fuzz_consumer;

/* Read `data` with the format named `format` (NULL: detect, falling back
 * to jsonl) and check every event, giving them to `c` (may be NULL).
 * Returns the reader's last status. */
int tw_fuzz_read(const char *format, const tw_optset *opts, const uint8_t *data,
                 size_t size, const tw_fuzz_consumer *c);

/* Options of one reader's fuzz target, varied by the input's length so
 * that the fuzzer reaches every variant; NULL if the format has none.
 * Freed by tw_optset_free(). */
tw_optset *tw_fuzz_options(const char *format, size_t size);

#endif
