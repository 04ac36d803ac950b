/*
 * Shared by the two winIDEA Text1 formats (src/formats/text1.c and
 * src/formats/text1_bin.c): the text export's reader, which also serves as
 * the name table of a .BIN timeline, and the writer both formats use.
 */
#ifndef TW_FORMATS_TEXT1_H
#define TW_FORMATS_TEXT1_H

#include <stdio.h>

#include "formats.h"

/* Area types: the top nibble of a handle. */
enum { T1_FUNCTION = 0, T1_LINE, T1_VARIABLE, T1_STATE, T1_AUX, T1_AUX_STATE };

/* The text reader; also the name table of a .BIN timeline. */
typedef struct t1_reader t1_reader;

/*
 * Open the text reader on ctx->in.  With `companion`, only the sections
 * before a TIMELINE are read (the timeline comes from a .BIN file);
 * ctx->in may then be NULL: no names are known, handles serve as names
 * and are not reported one by one.
 */
int t1_open(const tw_read_ctx *ctx, bool companion, t1_reader **out);
/* The next event: TW_OK, TW_EOF or TW_ERR. */
int t1_next(t1_reader *r, tw_event *ev);
void t1_close(t1_reader *r);

/*
 * Queue the events of one timeline entry, read from a .BIN record:
 * `code` is one of E S R X W, `data` the record's DATA (or the entry's
 * VALUE; has_data false when it was empty), `tid` the thread.
 * Take them with t1_next().
 */
void t1_timeline(t1_reader *r, uint32_t handle, char code, uint64_t data, bool has_data,
                 uint64_t tid, int64_t ts, const tw_loc *loc);

/* The commonest .BIN record: entry `code` (E, S, R or X) of a named
 * function, read straight into *ev, which gets a copy of *loc, with the
 * events and reports t1_timeline() would give, when no event waits
 * (t1_next() gave TW_EOF): T1_PLAIN, or T1_PLAIN_CHECKED when its order
 * was checked the general way, which may have reported (none queues an
 * event); 0, having changed nothing, for any other entry: t1_timeline()
 * takes it. */
enum { T1_PLAIN = 1, T1_PLAIN_CHECKED = 2 };
int t1_plain_entry(t1_reader *r, uint32_t handle, char code, uint64_t tid, int64_t ts,
                   const tw_loc *loc, tw_event *ev);

/* Around the t1_timeline() and t1_thread_name() calls of one record:
 * its first event goes straight to `out`, and t1_first() tells whether
 * there was one (the others are taken with t1_next()). */
void t1_begin(t1_reader *r, tw_event *out);
bool t1_first(t1_reader *r);

/* Queue a thread name. */
void t1_thread_name(t1_reader *r, uint64_t tid, const char *name, int64_t ts,
                    const tw_loc *loc);
/* Report what the reader skipped (at the end of the timeline). */
void t1_finish(t1_reader *r);

/* Is `path` a regular file (a companion export or a .BIN beside the input)? */
bool t1_is_file(const char *path);

/* The thread name of core `tid` of a .BIN timeline ("core 3", "unknown core"). */
static inline void t1_core_name(uint64_t tid, char *buf, size_t n) {
    if (tid == 0xFF) snprintf(buf, n, "unknown core");
    else snprintf(buf, n, "core %llu", (unsigned long long)tid);
}

/* Writer: the text export (binary false) or the .BIN timeline plus its
 * companion text export (binary true). */
int t1_write_begin(const tw_write_ctx *ctx, bool binary, void **state);
int t1_write_event(void *state, const tw_event *ev);
int t1_write_end(void *state);
void t1_write_free(void *state);

/* The options both formats read. */
/* What the Text1 reader produces, from a text export or a .BIN (tw_fidelity) */
#define T1_PRODUCES                                                                        \
    (TW_KEEP_THREADS | TW_KEEP_NESTING | TW_KEEP_IDS | TW_KEEP_NEGATIVE | TW_KEEP_SUSPEND | \
     TW_KEEP_COUNTERS | TW_KEEP_NAMES | TW_KEEP_CATEGORIES | TW_KEEP_ATTRIBUTES | TW_KEEP_OWN)

#define T1_OPT_LINES "text1-lines"
#define T1_OPT_BIN_VERSION "text1-bin-version"
#define T1_OPT_BIN_WRITE "text1-bin-write-version"
#define T1_OPT_NAMES "names"

#endif
