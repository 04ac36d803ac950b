/*
 * tracewright/source.h - one event stream from one or several inputs.
 *
 * A tw_source opens each input, detects its format (unless one is forced),
 * runs its reader and merges the streams by timestamp (ties keep input
 * order).  A single input passes through unchanged.  When every input has a
 * wall-clock origin, the streams are put on the clock of the input that
 * started first (so no time moves backwards) and logs of several processes
 * line up; otherwise they are merged on their own clocks and a
 * no-common-clock warning says so.
 */
#ifndef TRACEWRIGHT_SOURCE_H
#define TRACEWRIGHT_SOURCE_H

#include "format.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tw_source tw_source;

typedef struct tw_source_opts {
    const tw_format *format;  /* reader for every input; NULL = detect */
    const tw_optset *opts;    /* format options; may be NULL */
    tw_input_opts input;
    /* Read ahead on a second thread: the readers parse the next events while
     * the caller handles the last ones.  Events and diagnostics come exactly
     * as without it.  The caller must then not use the string table from
     * another thread while it reads events (for example by interning into
     * it): it is the reading thread's until tw_source_next() returns an end.
     * Falls back to one thread when one cannot be started. */
    bool threads;
    /* With `threads`: start the second thread only when the inputs' sizes
     * add up to at least this many bytes, or, with an input whose size is
     * not known (a pipe), once that many bytes have been read; below it one
     * thread reads, as a thread's start and hand-overs would cost more than
     * they save.  0: at once (tw_source_reading_ahead() tells whether the
     * events are read ahead). */
    uint64_t threads_min_bytes;
    /* With `threads`: measure, as the events are read, whether reading
     * ahead pays against reading on the caller's thread, and read on the
     * caller's thread while it does not (a second CPU that is busy, or that
     * shares its core or its host's time with the first, can make two
     * threads slower than one): a stretch one way, then a short probe of
     * the other, kept when it was faster by a tenth; the stretches double,
     * so the probes cost a few per cent of the first second and less after.
     * Events and diagnostics come as always, whichever thread read them
     * (tw_source_reading_info() tells how much was read on the caller's). */
    bool threads_steer;
    /* For tests, with `threads_steer`: switch between the two every this
     * many batches of events instead of measuring (0: measure); the
     * stretches read on the caller's thread count in turn as probes and as
     * kept (tw_source_reading_info()). */
    unsigned threads_switch_every;
    /* Without a second thread the events are still read in runs, a batch
     * of a few hundred at a time when the caller has used the last, with
     * the diagnostics held in their places as with a thread (one call of the
     * reader for many events).  `lockstep` reads each event only when it is
     * asked for instead, and never on a second thread: for a caller whose
     * own work must come between the reading of two events, such as one
     * that interns into the same string table (the names are then added,
     * and a limit of names reached, in the order of the events). */
    bool lockstep;
    /* The caller takes instant names that are not interned (see
     * TW_STR_TRANSIENT and tw_read_ctx.transient_names), so that memory
     * does not grow with distinct message texts. */
    bool transient_names;
    /* The caller reads no event's message or attributes (`msg`, `attrs`)
     * but a metadata event's (TW_META: a thread's name, say): when the
     * events are read in runs (on a second thread or not) the others are
     * handed over without them (msg NULL, msg_len 0, no attributes), which
     * saves copying them into the batch.  Everything else is as always. */
    bool drop_details;
    /* The caller does little with each event (pairing and statistics, say):
     * when the events are read ahead, the checks a reader may leave to the
     * consumer (tw_format.read_check: text1's order of entries and exits)
     * then run on the caller's thread, off the reading thread, which is the
     * slower one (for one input of known size: from a pipe, the caller's
     * thread reads ahead instead).  A caller that does much with each event
     * (a conversion) leaves it false: its own thread is then the slower
     * one. */
    bool defer_checks;
} tw_source_opts;

/*
 * Detect the format of `in` from its first bytes and its name.  On failure
 * an unknown-format error naming the candidates is reported and NULL is
 * returned.  *score (may be NULL) receives the winning confidence.
 */
const tw_format *tw_detect_input(tw_input *in, tw_diag_sink *diag, int *score);

/* Open `n` inputs ("-" = standard input).  `o` may be NULL.  Returns TW_OK
 * or TW_ERR (reported). */
int tw_source_open(const char *const *paths, size_t n, const tw_source_opts *o,
                   tw_strtab *strtab, tw_diag_sink *diag, tw_source **out);
/* The same for `n` inputs opened by the caller (one whose first bytes it
 * looked at with tw_input_head(), say, that cannot be opened again: a pipe):
 * they are the source's from the call on, closed with it, or by the call
 * when it fails, and report to the source's sink (o->input is not used). */
int tw_source_open_inputs(tw_input *const *ins, size_t n, const tw_source_opts *o,
                          tw_strtab *strtab, tw_diag_sink *diag, tw_source **out);
/* The next event in time order: TW_OK, TW_EOF or TW_ERR (reported). */
int tw_source_next(tw_source *src, tw_event *ev);
/* The same without copying the event: on TW_OK, *ev points to it, and it
 * stays valid until the next call on src (or tw_source_close()).  When the
 * events are read ahead, this is the event where the reading thread put it,
 * which saves copying every event once more on the consumer's side. */
int tw_source_next_ref(tw_source *src, const tw_event **ev);
/* The same for several events in a row: on TW_OK, *ev points to *n events
 * (at least one) of the stream, in order, which stay valid until the next
 * call on src.  The diagnostics reported before each of them have been
 * passed on (none comes between two of them), so a caller that handles
 * them one after the other sees the stream as tw_source_next_ref() gives
 * it, with one call for many events when they are read ahead.  Calls of
 * the two may be mixed. */
int tw_source_next_run(tw_source *src, const tw_event **ev, size_t *n);
/* Put back the last k events of the run tw_source_next_run() gave last
 * (0 < k < its length): a caller that stops within a run (a writer
 * failed) says how many it did not use, so that the next call gives them
 * again and tw_source_event_count() counts only the events used, as with
 * single events.  Anything else is ignored. */
void tw_source_unread(tw_source *src, size_t k);
/* Trace information of the merged stream. */
const tw_trace_info *tw_source_info(const tw_source *src);
size_t tw_source_input_count(const tw_source *src);
tw_input *tw_source_input(const tw_source *src, size_t i);
const tw_format *tw_source_input_format(const tw_source *src, size_t i);
/* How the events were read so far (see tw_source_opts.threads,
 * threads_min_bytes and threads_steer). */
typedef struct tw_source_reading {
    bool second_thread;  /* a second thread was started to read ahead */
    bool ahead;          /* the events are read ahead on it: without steering,
                          * once it started; with steering, while it is
                          * measured to pay (at the end: as last measured) */
    uint64_t before;     /* input bytes read on the caller's thread before it
                          * started (a pipe's first bytes) */
    uint64_t here;       /* input bytes read on the caller's thread after it
                          * started, because one thread was measured faster */
    uint64_t probed;     /* ... and, to measure how fast one thread reads */
} tw_source_reading;
void tw_source_reading_info(const tw_source *src, tw_source_reading *out);
/* tw_source_reading_info()'s `ahead`. */
bool tw_source_reading_ahead(const tw_source *src);
/* Events delivered so far. */
uint64_t tw_source_event_count(const tw_source *src);
/* Input bytes read so far over all inputs (with threads: up to the events
 * delivered, give or take one batch). */
uint64_t tw_source_bytes(const tw_source *src);
/* Something to do while the source waits for its input (tw_input_set_wait()
 * on each input): fn(user) is called on the caller's thread after every
 * read of a pipe there and every wait for the reading thread, and every
 * TW_WAIT_TICK_MS while it waits for either, such as redrawing a progress
 * line.  Set it before the first event is read (tw_source_open() has read
 * the start of each input already: what the format is detected from, and
 * its header). */
void tw_source_set_wait(tw_source *src, tw_wait_fn fn, void *user);
void tw_source_close(tw_source *src);

#ifdef __cplusplus
}
#endif
#endif /* TRACEWRIGHT_SOURCE_H */
