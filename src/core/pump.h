/*
 * The event pump: a second thread that runs the readers ahead of the
 * consumer, handing events over in batches, so that parsing and what is done
 * with the events (pairing, statistics, writing) use two cores; or, without
 * a thread, the same batches filled on the consumer's thread when it runs
 * out of events, so that the readers are called once per run of events
 * rather than once per event (tw_pump_start_here()).
 *
 * The stream the consumer sees is the one it would see without the pump,
 * diagnostics included: what the readers report goes to the pump's sink,
 * which records each diagnostic at its place between two events; the
 * consumer passes it on to the real sink when it reaches that place.  The
 * bytes an event points to outside the string table (message, attributes)
 * are copied into the batch, so they stay valid after the reader moves on.
 * Internal to the core (used by tw_source).
 */
#ifndef TW_CORE_PUMP_H
#define TW_CORE_PUMP_H

#include "tracewright/diag.h"
#include "tracewright/event.h"
#include "tracewright/format.h" /* TW_OK, TW_EOF, TW_ERR, tw_batch */

typedef struct tw_pump tw_pump;

/* Produces a run of events into b (tw_batch; b->ev, cap and n are set):
 * TW_OK, TW_EOF or TW_ERR. */
typedef int (*tw_pump_fn)(void *user, tw_batch *b);
/* How many input bytes have been read so far (asked once per batch). */
typedef uint64_t (*tw_pump_bytes_fn)(void *user);

/* A pump delivering to `out`; NULL when out of memory. */
tw_pump *tw_pump_new(tw_diag_sink *out);
/* The sink the producing side reports to.  While no batch is being filled
 * (before the start, after the stream ended, between two batches read
 * here) it passes diagnostics straight on to `out`. */
tw_diag_sink *tw_pump_sink(tw_pump *p);
/* Allocate the batches and start the producing thread; false when either
 * fails (the caller then produces events itself, and the sink keeps passing
 * straight on). */
bool tw_pump_start(tw_pump *p, tw_pump_fn fn, tw_pump_bytes_fn bytes_fn, void *user);
/* Read in batches on the caller's thread instead: each tw_pump_next_run()
 * that has no event left fills one batch with fn on the spot.  The events
 * and diagnostics come as with a thread, with one call of the reader for
 * many events.  False when out of memory (nothing changed).  Either this or
 * tw_pump_start(), once. */
bool tw_pump_start_here(tw_pump *p, tw_pump_fn fn, tw_pump_bytes_fn bytes_fn, void *user);
/* With a thread: measure, as the events are taken, whether reading ahead
 * pays against reading on the consumer's thread, and read on the one that
 * pays (a machine whose second CPU is busy, or shares its core or its host
 * with the first, can make two threads slower than one): a stretch one way,
 * a short probe the other, in input bytes per second of the clock.  The
 * events and diagnostics come as always, whichever way each batch was read.
 * `switch_every`, for tests: instead of measuring, switch every that many
 * batches (the stretches read here count in turn as probes and as kept,
 * for tw_pump_here_bytes()).  Call after tw_pump_start(). */
void tw_pump_steer(tw_pump *p, unsigned switch_every);
/* Work for the consumer's thread while it waits for the reading thread (a
 * step of it per call, the input bytes behind the batch it took last in
 * `bytes`; true when it did a step and may have more): the source maps the
 * input's pages ahead of the reader (tw_input_map_ahead()), or reads a
 * pipe's next block for it (tw_input_read_ahead()). */
typedef bool (*tw_pump_idle_fn)(void *user, uint64_t bytes);
void tw_pump_set_idle(tw_pump *p, tw_pump_idle_fn fn, void *user);
/* Called on the consumer's thread after every wait for the reading
 * thread, and every TW_WAIT_TICK_MS while one lasts (tw_input_set_wait(),
 * for the pump).  Set before the first tw_pump_next_run(). */
void tw_pump_set_wait(tw_pump *p, tw_wait_fn fn, void *user);
/* The clock steering reads, in ns (for tests; CLOCK_MONOTONIC by default). */
typedef int64_t (*tw_pump_clock_fn)(void *user);
void tw_pump_set_clock(tw_pump *p, tw_pump_clock_fn clock, void *user);
/* Whether the events are read ahead on the thread: without steering,
 * always; with it, while it is measured to pay (in a probe of reading here,
 * as before the probe). */
bool tw_pump_ahead(const tw_pump *p);
/* The input bytes read on the consumer's thread while steering had the
 * thread parked; *probed: how many of them in probes. */
uint64_t tw_pump_here_bytes(const tw_pump *p, uint64_t *probed);
/* The next events, as fn gave them: TW_OK, TW_EOF or TW_ERR.  *ev points
 * to *n (at least one) in their batch, where the producing thread left them
 * (no copy), as many in a row as no diagnostic comes between; they and
 * their data stay valid until the next call.  Read here, also TW_PUMP_STEP,
 * once, at the end of a batch whose runs were so short (most events ending
 * one, to be copied) that reading event by event costs less: the caller
 * then reads the rest that way, and the pump's sink passes its diagnostics
 * straight on.  The events are the caller's until the next call: it may
 * change them (the source's checks do, tw_reader_check()). */
enum { TW_PUMP_STEP = 2 };
int tw_pump_next_run(tw_pump *p, const tw_event **ev, size_t *n);
/* Whether the run tw_pump_next_run() gave last comes from a batch whose
 * reader left checks to the consumer (tw_batch.deferred). */
bool tw_pump_run_deferred(const tw_pump *p);
/* Input bytes read when the delivered events were produced. */
uint64_t tw_pump_bytes(const tw_pump *p);
/* Stop the thread (if running) and free everything. */
void tw_pump_free(tw_pump *p);

#endif /* TW_CORE_PUMP_H */
