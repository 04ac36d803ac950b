/*
 * tracewright/stats.h - scope pairing and per-scope timing statistics.
 *
 * The pairing engine turns begin/end events into properly nested scopes,
 * one stack per (pid, tid), repairing what does not nest and reporting it.
 * The statistics engine is built on it: per (pid, tid, scope name) it
 * accumulates count, net, gross and call time, period and outside time.
 * A tw_profile is the finished report: rows per scope (or per thread and
 * scope), merged, sorted, written as a table, CSV or JSON, or read back
 * from JSON to be merged with others.
 *
 * Definitions, per invocation of a scope:
 *   call   = end - begin
 *   gross  = call minus the time its thread was preempted inside it (a
 *            suspend followed on the same thread by a resume, with no
 *            begin or end in between: from the suspend to the resume);
 *            without suspend events gross = call
 *   net    = gross minus the gross of its direct children (self time)
 *   period = from one entry of the scope to its next entry on the thread
 *   outside= from an exit (scope no longer active on the thread) to the
 *            next entry
 * Gross and call totals count recursive re-entries once (outermost
 * invocation only); net totals and every min/max/avg are per invocation.
 */
#ifndef TRACEWRIGHT_STATS_H
#define TRACEWRIGHT_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "event.h"
#include "format.h"
#include "io.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Pairing                                                                   */
/* ------------------------------------------------------------------------ */

typedef enum tw_close_how {
    TW_CLOSED_BY_END = 0, /* its own end event */
    TW_CLOSED_BY_OUTER,   /* the end of an enclosing scope (unclosed-scope) */
    TW_CLOSED_AT_EOF      /* still open at the end of the input (unclosed-at-eof) */
} tw_close_how;

/* An open scope on a thread's stack. */
typedef struct tw_frame {
    const tw_str *name;
    const tw_str *cat;
    uint32_t pid;
    uint64_t tid;
    int64_t begin;     /* ts of the begin event */
    tw_loc loc;        /* where the begin event came from */
    size_t depth;      /* number of frames below it on its thread */
    /* bookkeeping of the engine */
    int64_t preempt0;  /* the thread's preemption total at the begin */
    int64_t child_gross;
    uint32_t thread;   /* dense index of its thread */
    bool late;         /* its begin was reported as time-goes-backwards */
    /* A word per (thread, name), 0 until a hook sets it, for the hooks' own
     * use (a row index, say); valid during the hook's call only. */
    uint32_t *tag;
} tw_frame;

/* The times of one closed invocation. */
typedef struct tw_scope_times {
    int64_t call, gross, net;
} tw_scope_times;

typedef struct tw_pairing_hooks {
    void *user;
    /* a scope was entered (f is valid during the call only) */
    void (*open)(void *user, const tw_frame *f);
    /* a scope was closed at `end`; frames close innermost first */
    void (*close)(void *user, const tw_frame *f, int64_t end, tw_close_how how,
                  const tw_scope_times *t);
} tw_pairing_hooks;

typedef struct tw_pairing tw_pairing;

/* `hooks` may be NULL (pairing and diagnostics only). */
tw_pairing *tw_pairing_new(const tw_pairing_hooks *hooks, tw_diag_sink *diag);
/*
 * Time may run backwards on a thread by up to `ns` without a report: the
 * jitter a format is known to have (tw_format.jitter_ns).  Beyond it, an
 * event earlier than one before it on its thread is a time-goes-backwards
 * warning, reported once for the event (then that event's time is the new
 * reference).  Default 0.
 */
void tw_pairing_set_jitter(tw_pairing *p, int64_t ns);
/* Feed one event in stream order: TW_OK, or TW_ERR when out of memory. */
int tw_pairing_event(tw_pairing *p, const tw_event *ev);
/* Close every scope still open, at the end of its process's trace: the
 * latest time seen on any thread of the process, or the process's
 * trace_end metadata event (TW_META_TRACE_END) when that is later. */
int tw_pairing_finish(tw_pairing *p);
void tw_pairing_free(tw_pairing *p);
/* Distinct (pid, tid) seen so far, and their ids by dense index. */
size_t tw_pairing_thread_count(const tw_pairing *p);
void tw_pairing_thread(const tw_pairing *p, size_t i, uint32_t *pid, uint64_t *tid);

/* ------------------------------------------------------------------------ */
/* Statistics                                                                */
/* ------------------------------------------------------------------------ */

/* One figure: `n` values with their sum, min and max; `total` is the sum
 * with recursive re-entries counted once (gross, call) or the sum itself. */
typedef struct tw_stat {
    int64_t total;
    int64_t sum;
    int64_t min, max;
    uint64_t n;
} tw_stat;

/* Average rounded to the nearest ns (halves up), kept within [min, max]
 * (where a saturated sum would put it outside); 0 when n == 0. */
int64_t tw_stat_avg(const tw_stat *s);
/* Add one value (sums saturate instead of overflowing). */
void tw_stat_add(tw_stat *s, int64_t v, bool to_total);
/* Combine two figures of disjoint data (n saturates at INT64_MAX). */
void tw_stat_merge(tw_stat *into, const tw_stat *from);

typedef struct tw_scope_stats {
    const char *name;     /* NUL-terminated; may hold other NULs before len */
    size_t name_len;
    bool by_thread;       /* pid and tid are meaningful */
    uint32_t pid;
    uint64_t tid;
    /* The thread's name (the latest thread_name metadata event of its pid
     * and tid, TW_META_THREAD_NAME), NUL-terminated, thread_name_len bytes;
     * NULL when it has none or the row is not per thread. */
    const char *thread_name;
    size_t thread_name_len;
    uint64_t count;       /* invocations, complete or not */
    uint64_t incomplete;  /* closed by an outer end or at the end of input */
    tw_stat net, gross, call;
    tw_stat period;       /* no total */
    tw_stat outside;
} tw_scope_stats;

typedef struct tw_stats tw_stats;

tw_stats *tw_stats_new(tw_diag_sink *diag);
/* The time jitter tolerated on a thread (see tw_pairing_set_jitter). */
void tw_stats_set_jitter(tw_stats *s, int64_t ns);
/* Checks beyond pairing (tw_stats_set_checks), all off by default. */
enum {
    /*
     * Text that is not valid UTF-8: names, categories and attribute keys
     * (once each), messages and string attribute values (every time);
     * invalid-utf8 warnings.
     */
    TW_CHECK_UTF8 = 1u << 0,
    /*
     * A log's own statistics against the computed ones.  A reader passes
     * the figures the producing tool computed as metadata events named
     * "FORMAT.statistics" (Text1's STATISTICS sections): `msg` is the
     * scope's name; attributes "context" (the name of its thread; absent:
     * every thread), "count", and in ns "T.NET", "T.GROSS", "T.CALL",
     * "T.OUTSIDE", each also with ".MIN", ".MAX", ".AVG", and
     * "T.PERIOD.MIN", ".MAX", ".AVG".  tw_stats_finish() reports a
     * stats-mismatch for each such event whose figures differ (averages by
     * more than 1 ns of rounding), naming every differing figure with both
     * values; a figure without a value counts as 0, as the producing tools
     * write it.  Scopes the stream never mentions as scopes (areas a reader
     * skipped, variables) are not compared.
     */
    TW_CHECK_OWN_STATS = 1u << 1
};

/* Turn the TW_CHECK_* checks on (memory grows with the distinct strings
 * and the log's statistics entries): TW_OK, or TW_ERR when out of memory. */
int tw_stats_set_checks(tw_stats *s, unsigned checks);
/* Feed one event: TW_OK, or TW_ERR when out of memory (reported). */
int tw_stats_event(tw_stats *s, const tw_event *ev);
/* Feed n events in order (a run from tw_source_next_run(), say), as n
 * calls of tw_stats_event() would, without a call per event: TW_OK, or
 * TW_ERR at the first that fails (the rest are not fed). */
int tw_stats_events(tw_stats *s, const tw_event *ev, size_t n);
/* Close what is still open; the figures are complete afterwards. */
int tw_stats_finish(tw_stats *s);
void tw_stats_free(tw_stats *s);
/* Rows per (pid, tid, name), in order of first entry. */
size_t tw_stats_scope_count(const tw_stats *s);
const tw_scope_stats *tw_stats_scope(const tw_stats *s, size_t i);
uint64_t tw_stats_event_count(const tw_stats *s);
size_t tw_stats_thread_count(const tw_stats *s);
/* First and last ts of any event; false when there was none. */
bool tw_stats_bounds(const tw_stats *s, int64_t *first, int64_t *last);

/* ------------------------------------------------------------------------ */
/* Profiles: the report                                                      */
/* ------------------------------------------------------------------------ */

typedef struct tw_profile tw_profile;

typedef enum tw_sort {
    TW_SORT_NET = 0, TW_SORT_GROSS, TW_SORT_CALL, TW_SORT_COUNT, TW_SORT_NAME
} tw_sort;

typedef enum tw_profile_format {
    TW_PROFILE_TABLE = 0, TW_PROFILE_CSV, TW_PROFILE_JSON
} tw_profile_format;

tw_profile *tw_profile_new(void);
void tw_profile_free(tw_profile *p);
/* Record an input of the profile (path as given, format name). */
int tw_profile_add_input(tw_profile *p, const char *path, const char *format);
/* Take the figures of a finished tw_stats (per thread) and the trace's
 * info (for the origin of its clock). */
int tw_profile_add_stats(tw_profile *p, const tw_stats *s, const tw_trace_info *info,
                         const tw_diag_sink *diag);
/*
 * Read a report written by tw_profile_write(..., TW_PROFILE_JSON) and add
 * it (inputs, scopes, counts, problems).  Problems with the file are
 * reported to `diag` at their line and column; returns TW_OK or TW_ERR.
 */
int tw_profile_read_json(tw_profile *p, tw_input *in, tw_diag_sink *diag);
/* Merge the rows of each scope name (by_thread false) or keep one row per
 * (pid, tid, name) (by_thread true; every row must carry a thread). */
int tw_profile_group(tw_profile *p, bool by_thread, tw_diag_sink *diag);
/* Which rows to keep: names matching `regex` (a compiled regex_t * from
 * <regex.h>, or NULL), the given pid and/or tid, and threads whose name
 * matches `thread_regex` (or NULL).  Rows that are not per thread never
 * match a pid, a tid or a thread's name, so filter before grouping per
 * scope. */
typedef struct tw_row_filter {
    const void *regex;
    bool has_pid, has_tid;
    uint32_t pid;
    uint64_t tid;
    const void *thread_regex;
} tw_row_filter;

void tw_profile_filter(tw_profile *p, const tw_row_filter *f);
void tw_profile_sort(tw_profile *p, tw_sort by);
/* Keep the first n rows (0 = all). */
void tw_profile_truncate(tw_profile *p, size_t n);
size_t tw_profile_row_count(const tw_profile *p);
const tw_scope_stats *tw_profile_row(const tw_profile *p, size_t i);
void tw_profile_write(const tw_profile *p, tw_profile_format f, tw_output *out);

#ifdef __cplusplus
}
#endif
#endif /* TRACEWRIGHT_STATS_H */
