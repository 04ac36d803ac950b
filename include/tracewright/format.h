/*
 * tracewright/format.h - pluggable formats and the format registry.
 *
 * A format is one constant tw_format descriptor: names, file extensions,
 * capability flags, its own options, a probe, and a reader and/or a writer
 * as plain function pointers.  All formats are listed in one registry table
 * (src/formats/registry.c).  This header is both the contract a format
 * implements and the API the CLI uses to find and run formats.
 */
#ifndef TRACEWRIGHT_FORMAT_H
#define TRACEWRIGHT_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "event.h"
#include "io.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Version of the descriptor layout; new fields are only ever appended
 * (2: read_batch; 3: read_check). */
#define TW_FORMAT_ABI 3

/* Status codes of reader and writer functions. */
enum {
    TW_OK = 0,    /* an event was produced / accepted */
    TW_EOF = 1,   /* no more events */
    TW_ERR = -1   /* unrecoverable; already reported to the diagnostics sink */
};

/* Capability flags (tw_format.flags). */
enum {
    TW_FMT_TEXT = 1u << 0,     /* line-oriented text */
    TW_FMT_BINARY = 1u << 1,   /* binary records */
    TW_FMT_LOSSLESS = 1u << 2, /* holds every event field (the canonical stream) */
    TW_FMT_THREADS = 1u << 3,  /* records thread ids */
    TW_FMT_ORIGIN = 1u << 4,   /* may carry an absolute wall-clock origin */
    TW_FMT_UTF8 = 1u << 5,     /* the reader reports text that is not UTF-8 itself */
    TW_FMT_DIRECTORY = 1u << 6, /* the writer makes a directory (tw_writer_open_dir) */
    /* the writer adds strings to the trace's string table, so the events
     * cannot be read ahead on a second thread (tw_source_opts.threads) */
    TW_FMT_WRITER_INTERNS = 1u << 7,
    /* the writer takes instant names that are not interned (TW_STR_TRANSIENT) */
    TW_FMT_WRITER_TRANSIENT = 1u << 8
};

/* ------------------------------------------------------------------------ */
/* Format options                                                            */
/* ------------------------------------------------------------------------ */

typedef enum tw_opt_type {
    TW_OPT_BOOL = 0, /* yes/no, true/false, on/off, 1/0 */
    TW_OPT_INT,      /* signed decimal */
    TW_OPT_STRING,
    TW_OPT_CHOICE    /* one of `choices` ("a|b|c") */
} tw_opt_type;

enum { TW_OPT_READ = 1u << 0, TW_OPT_WRITE = 1u << 1 };

/*
 * One option of a format.  Names carry the format's name as a prefix
 * ("rtl-subscopes") so that they are unique across the registry; the CLI
 * accepts them as --NAME[=VALUE] (and --no-NAME for booleans).
 */
typedef struct tw_option {
    const char *name;
    tw_opt_type type;
    const char *def;      /* default value, as text */
    const char *choices;  /* TW_OPT_CHOICE only */
    unsigned applies;     /* TW_OPT_READ and/or TW_OPT_WRITE */
    const char *help;     /* one line */
} tw_option;

/* A set of option values given by the user. */
typedef struct tw_optset tw_optset;

tw_optset *tw_optset_new(void);
void tw_optset_free(tw_optset *set);
/*
 * Set option `name` (without dashes) to `value` (NULL = a bare flag, which
 * means "yes" for booleans).  The name must belong to a registered format
 * and the value must fit its type; otherwise a message is written to `err`
 * and -1 is returned.
 */
int tw_optset_set(tw_optset *set, const char *name, const char *value,
                  char *err, size_t errlen);
/* Values as the formats read them; defaults come from the option table. */
bool tw_opt_bool(const tw_optset *set, const char *name);
int64_t tw_opt_int(const tw_optset *set, const char *name);
const char *tw_opt_str(const tw_optset *set, const char *name);

/* ------------------------------------------------------------------------ */
/* What a reader and a writer are given                                      */
/* ------------------------------------------------------------------------ */

typedef struct tw_read_ctx {
    tw_input *in;
    tw_strtab *strtab;
    tw_diag_sink *diag;
    const tw_optset *opts;   /* never NULL */
    tw_trace_info *info;     /* the reader fills this in during open */
    /* The consumer takes instant names that are not interned
     * (TW_STR_TRANSIENT): a reader whose instants are named by free-form
     * text may then leave that text out of the string table. */
    bool transient_names;
} tw_read_ctx;

/* Tally of what a writer could not represent; reported once at the end. */
typedef struct tw_loss tw_loss;

typedef struct tw_write_ctx {
    tw_output *out;
    tw_strtab *strtab;
    tw_diag_sink *diag;
    const tw_optset *opts;        /* never NULL */
    const tw_trace_info *info;    /* of the stream being written */
    tw_loss *loss;
    tw_outdir *dir;               /* TW_FMT_DIRECTORY writers: out is NULL */
    /* Threads the writer may use for the work it does in write_end: 1,
     * unless the caller allows more with tw_writer_set_threads(), which it
     * may do up to tw_writer_finish() (so read it in write_end, through
     * the ctx that write_begin was given: that lives as long as the
     * writer).  The output is the same whatever it is. */
    unsigned threads;
    /* Where write_end says it used more than one thread (it stores the
     * number; 1 is there before): tw_writer_threads_used() reads it. */
    unsigned *threads_used;
} tw_write_ctx;

/*
 * Count `n` items the writer could not hold, under a short plural noun
 * phrase with static storage ("instant events", "thread ids").  All of them
 * are summarised in one lossy-conversion warning when the writer finishes.
 */
void tw_loss_add(tw_loss *loss, const char *what, uint64_t n);
/* Count an event the writer drops as a whole, under a phrase naming its
 * kind ("instant events dropped", "thread and process names dropped", ...). */
void tw_loss_drop(tw_loss *loss, const tw_event *ev);
/* Count one timestamp rounded to the writer's clock, named by `unit`
 * ("millisecond"); reported in one precision-loss warning. */
void tw_loss_round(tw_loss *loss, const char *unit);

/* ------------------------------------------------------------------------ */
/* What a conversion keeps                                                   */
/* ------------------------------------------------------------------------ */

/*
 * Parts of a trace that a reader's events may carry and a writer may hold
 * (tw_fidelity.produces and .keeps).  A conversion from R to W loses
 * R.produces & ~W.keeps, and rounds times when R's clock is finer than W's.
 * A format's own vocabulary (its metadata keys, counters, categories and
 * attributes that only it understands) is not listed: it survives a
 * conversion into the same format, and is otherwise covered by the parts
 * below.  The exact projection of each writer is stated in
 * docs/formats/FORMAT.md ("What a conversion to FORMAT loses") and checked
 * by tests/cli/roundtrip/matrix.sh.
 */
enum {
    TW_KEEP_THREADS = 1u << 0,   /* thr: events of several threads */
    TW_KEEP_PID = 1u << 1,       /* pid: the process id */
    TW_KEEP_PROCESSES = 1u << 2, /* proc: events of several processes */
    TW_KEEP_ORIGIN = 1u << 3,    /* org: the wall-clock origin */
    TW_KEEP_NEGATIVE = 1u << 4,  /* neg: events before time 0 */
    TW_KEEP_INSTANTS = 1u << 5,  /* ins: instant events */
    TW_KEEP_SUSPEND = 1u << 6,   /* sr: suspend and resume events */
    TW_KEEP_COUNTERS = 1u << 7,  /* cnt: counter events */
    TW_KEEP_NAMES = 1u << 8,     /* nam: thread and process names */
    TW_KEEP_TRACE_END = 1u << 9, /* end: the end of the trace (trace_end) */
    TW_KEEP_CATEGORIES = 1u << 10, /* cat: categories */
    TW_KEEP_MESSAGES = 1u << 11, /* msg: message texts */
    TW_KEEP_ATTRIBUTES = 1u << 12, /* arg: event attributes */
    TW_KEEP_NESTING = 1u << 13,  /* nest: scopes that do not nest, as they are */
    TW_KEEP_OWN = 1u << 14,      /* own: another format's own metadata, counters
                                    and attributes (jsonl only) */
    TW_KEEP_IDS = 1u << 15,      /* ids: thread and process ids of any width */
    TW_KEEP_ALL = (1u << 16) - 1
};

/*
 * Parts a writer holds only in part (tw_fidelity.partly), and the readers
 * whose events have the part it does not hold:
 *   TW_PARTLY_PROCESS_NAMES: the reader's names (nam) may name processes;
 *   TW_PARTLY_COUNTER_THREADS: the reader's counters (cnt) may be on
 *     several threads;
 *   TW_PARTLY_STATE_THREADS: the reader may give Text1 states (scopes of
 *     category state) any thread, not only their state's track;
 *   TW_PARTLY_NO_PROCESS_NAMES: the writer keeps thread names, not process
 *     names;
 *   TW_PARTLY_NO_COUNTER_THREADS: the writer keeps threads but writes
 *     counters without theirs;
 *   TW_PARTLY_NO_STATE_THREADS: the writer puts a state's events on its
 *     track.
 */
enum {
    TW_PARTLY_PROCESS_NAMES = 1u << 0,
    TW_PARTLY_COUNTER_THREADS = 1u << 1,
    TW_PARTLY_STATE_THREADS = 1u << 2,
    TW_PARTLY_NO_PROCESS_NAMES = 1u << 3,
    TW_PARTLY_NO_COUNTER_THREADS = 1u << 4,
    TW_PARTLY_NO_STATE_THREADS = 1u << 5
};

/* A format's fidelity (tw_format.fidelity): set by every format that is
 * both read and written as a trace format; NULL for the viewer formats. */
typedef struct tw_fidelity {
    const char *family;      /* formats of one family share their own vocabulary */
    unsigned produces;       /* TW_KEEP_* parts the reader's events may carry */
    unsigned keeps;          /* TW_KEEP_* parts the writer holds */
    int64_t read_clock_ns;   /* finest clock the reader produces (0: cannot read) */
    int64_t write_clock_ns;  /* what the writer rounds times to (0: cannot write) */
    int64_t read_origin_ns;  /* finest wall-clock origin read (0: none) */
    int64_t write_origin_ns; /* what the writer rounds the origin to (0: none) */
    unsigned partly;         /* TW_PARTLY_* */
} tw_fidelity;

/* ------------------------------------------------------------------------ */
/* The descriptor                                                            */
/* ------------------------------------------------------------------------ */

/*
 * Room for events read in a run (tw_reader_next_batch, tw_format.read_batch):
 * a run stores events at ev[n], counting n up as each is stored (so that a
 * diagnostic reported meanwhile is known to come before event n), and stops
 * when n reaches cap, at the end of the input or an error, or after an event
 * that points into the reader's own memory (a message, attributes or a
 * transient name: valid only until the reader's next event), so that the
 * caller can copy what it points to before reading on.  An event stored is
 * complete; a run's status is that of the last read_next() (TW_OK when the
 * run stopped for room or for an event to copy).
 */
typedef struct tw_batch {
    tw_event *ev;             /* room for cap events */
    size_t cap;
    size_t n;                 /* events stored: ev[0 .. n) */
    bool drop_details;        /* clear each event's msg and attrs as it is stored
                               * (but a metadata event's: thread names) */
    const tw_diag_sink *stop; /* reading stops (TW_ERR) once tw_diag_stopped(stop) */
    /* The batch is filled on another thread than the consumer's, which runs
     * the format's read_check() on its events when the reader says it left
     * checks in them (`deferred`): the reader may (see read_check).  Only
     * ever set for a reader opened with TW_READ_DEFER_CHECKS
     * (tw_reader_next_batch() sees to it). */
    bool defer_checks;
    /* Set by a reader that left the checks of some of these events to the
     * consumer (never cleared by it): without it, the consumer need not
     * run read_check() on them. */
    bool deferred;
} tw_batch;

typedef struct tw_format {
    unsigned abi;                   /* TW_FORMAT_ABI */
    const char *name;               /* "rtl" */
    const char *const *aliases;     /* NULL-terminated, may be NULL */
    const char *const *extensions;  /* NULL-terminated (".log"), may be NULL */
    const char *description;        /* one line */
    unsigned flags;                 /* TW_FMT_* */
    const tw_option *options;       /* terminated by a NULL name; may be NULL */

    /*
     * Confidence 0..100 that `head` (the first bytes, at most TW_HEAD_MAX)
     * is in this format; `path` (may be NULL) is a hint.  Pure; never fails.
     * NULL for a format that cannot be read.
     */
    int (*probe)(const unsigned char *head, size_t len, const char *path);

    /* Reader (all NULL when the format cannot be read). */
    int (*read_open)(const tw_read_ctx *ctx, void **state);
    int (*read_next)(void *state, tw_event *ev);   /* TW_OK, TW_EOF, TW_ERR */
    void (*read_close)(void *state);

    /* Writer (all NULL when the format cannot be written). */
    int (*write_begin)(const tw_write_ctx *ctx, void **state);
    int (*write_event)(void *state, const tw_event *ev);
    int (*write_end)(void *state);   /* complete the output */
    void (*write_free)(void *state);

    /*
     * How far time may legitimately run backwards on one thread of this
     * format, in ns (a clock sampled before a lock is taken, a wall clock
     * that is adjusted).  Smaller inversions are not reported.
     */
    int64_t jitter_ns;

    /* TW_FMT_DIRECTORY writers: how an earlier output of theirs is known
     * (and may be replaced); see tw_outdir_open(). */
    tw_outdir_spec dir_spec;

    /* What the reader produces and the writer keeps, for conversions
     * between trace formats (tw_conversion_loses); NULL for the viewer
     * formats. */
    const tw_fidelity *fidelity;

    /*
     * Optional: read_next() in a loop, for reading in runs
     * (tw_reader_next_batch(): the source reads in runs on one thread or
     * ahead on a second).  NULL: the loop calls read_next() through its
     * pointer.  A format defines it as
     *     static int x_batch(void *st, tw_batch *b) {
     *         return tw_read_batch_with(x_next, st, b);
     *     }
     * so that the compiler can make the call to x_next() a direct one, or
     * with TW_READ_BATCH_BODY() around an inline function of its own.
     */
    int (*read_batch)(void *state, tw_batch *b);

    /*
     * Optional: the checks that keep state from one event to the next,
     * which the reader may leave to the consumer when it fills a batch on
     * another thread (tw_batch.defer_checks), so that they are off the
     * reading thread.  Run on the consumer's thread, in their order, on
     * the events of every batch the reader said it left checks in
     * (tw_batch.deferred), before they are used; the events are then those
     * the reader gives when it checks as it reads, its reports going to
     * `sink`.  Checks ev[0], reporting what it finds, then ev[1], ev[2],
     * ... for as long as they need no report, and returns how many it
     * checked: 1 to n, or 0 when ev[0]'s report stopped the reading
     * (tw_diag_stopped(sink)), the event then to be dropped and the
     * reading over.  The caller hands the checked events out, then calls
     * again from the first one not checked, so that a report comes after
     * what the events before it caused.  The reader may also check as it
     * reads (a batch read on the consumer's thread, or, ahead, until it
     * can switch): it must never check an event as it reads it while an
     * event it marked before waits for its check, so that the state the
     * checks keep is used by one thread at a time, in the events' order.
     * Until checked, an event may carry what its check needs in a field it
     * does not use (text1: `value`, has_value false), which read_check
     * clears.
     */
    size_t (*read_check)(void *state, tw_event *ev, size_t n, tw_diag_sink *sink);
} tw_format;

/* ------------------------------------------------------------------------ */
/* Registry and detection                                                    */
/* ------------------------------------------------------------------------ */

size_t tw_format_count(void);
const tw_format *tw_format_at(size_t i);
/* By name or alias (case-sensitive); NULL if none. */
const tw_format *tw_format_find(const char *name);
/* The format whose extension list holds the path's extension and that can
 * read (want_writer false) or write (true); NULL if none or several. */
const tw_format *tw_format_by_extension(const char *path, bool want_writer);
static inline bool tw_format_can_read(const tw_format *f) {
    return f->read_open != NULL;
}
static inline bool tw_format_can_write(const tw_format *f) {
    return f->write_begin != NULL;
}

/* Whether the event ends a run of a read_batch: it points into the
 * reader's memory (a message, attributes, a transient name), which the
 * caller must copy before the reader moves on. */
static inline bool tw_event_ends_run(const tw_event *e) {
    return e->msg || e->nattrs || tw_str_transient(e->name);
}

/*
 * The body of a read_batch (it returns from the function it is in) that
 * reads a run of events with `next(state, ev)` into the tw_batch *b, as
 * tw_batch describes; `next` may be a function (called directly, so that
 * a reader's own inline function is inlined into its run) or a pointer to
 * one.  `state` and `b` are evaluated once.
 */
#define TW_READ_BATCH_BODY(next, state, b)                                       \
    do {                                                                         \
        void *tw_rbb_state = (state);                                            \
        tw_batch *tw_rbb_b = (b);                                                \
        while (tw_rbb_b->n < tw_rbb_b->cap) {                                    \
            tw_event *tw_rbb_e = &tw_rbb_b->ev[tw_rbb_b->n];                     \
            int tw_rbb_rc = (next)(tw_rbb_state, tw_rbb_e);                      \
            /* a limit reached or memory run out: reading stops (reported) */    \
            if (tw_rbb_rc == TW_ERR || tw_diag_stopped(tw_rbb_b->stop)) return TW_ERR; \
            if (tw_rbb_rc != TW_OK) return tw_rbb_rc;                            \
            if (tw_rbb_b->drop_details && tw_rbb_e->kind != TW_META) {          \
                tw_rbb_e->msg = NULL;                                            \
                tw_rbb_e->msg_len = 0;                                           \
                tw_rbb_e->attrs = NULL;                                          \
                tw_rbb_e->nattrs = 0;                                            \
            }                                                                    \
            tw_rbb_b->n++;                                                       \
            if (tw_event_ends_run(tw_rbb_e)) break;                               \
        }                                                                        \
        return TW_OK;                                                            \
    } while (0)

/* A run of `next` (a format's read_next) into `b`, as tw_batch describes:
 * what every read_batch and the loop without one share. */
static inline int tw_read_batch_with(int (*next)(void *state, tw_event *ev), void *state,
                                     tw_batch *b) {
    TW_READ_BATCH_BODY(next, state, b);
}
/* An option of any format by name; *owner (may be NULL) gets its format. */
const tw_option *tw_option_find(const char *name, const tw_format **owner);

typedef struct tw_probe_result {
    const tw_format *format;
    int score;
} tw_probe_result;

/* A detection decision needs a unique best score of at least this. */
#define TW_DETECT_MIN_SCORE 50

/*
 * Run every readable format's probe.  Fills `res` with the formats that
 * scored above zero, best first (ties in registry order), and returns how
 * many there were (may exceed `cap`; only `cap` are stored).
 */
size_t tw_detect(const unsigned char *head, size_t len, const char *path,
                 tw_probe_result *res, size_t cap);
/* The detected format, or NULL when no format scored at least
 * TW_DETECT_MIN_SCORE or the best score is shared. */
const tw_format *tw_detect_pick(const tw_probe_result *res, size_t n);

/* ------------------------------------------------------------------------ */
/* Running a reader or a writer                                              */
/* ------------------------------------------------------------------------ */

typedef struct tw_reader tw_reader;

/* Open a reader of `fmt` on `in` (both must outlive it).  `opts` may be
 * NULL.  Returns TW_OK or TW_ERR (reported). */
int tw_reader_open(const tw_format *fmt, tw_input *in, tw_strtab *strtab,
                   tw_diag_sink *diag, const tw_optset *opts,
                   tw_reader **out);
/* The same with TW_READ_* flags. */
enum {
    TW_READ_TRANSIENT_NAMES = 1u << 0, /* see tw_read_ctx.transient_names */
    TW_READ_DEFER_CHECKS = 1u << 1     /* the caller runs tw_reader_check() on the
                                        * events the reader left checks in (see
                                        * tw_batch.defer_checks); for a format
                                        * without read_check, nothing */
};
int tw_reader_open_ex(const tw_format *fmt, tw_input *in, tw_strtab *strtab,
                      tw_diag_sink *diag, const tw_optset *opts, unsigned flags,
                      tw_reader **out);
int tw_reader_next(tw_reader *r, tw_event *ev);  /* TW_OK, TW_EOF, TW_ERR */
/* Read a run of events into `b` (see tw_batch; b->stop is set to the
 * reader's sink): the events tw_reader_next() would give, one call for
 * many. */
int tw_reader_next_batch(tw_reader *r, tw_batch *b);
/* Whether the reader may leave checks to its consumer (opened with
 * TW_READ_DEFER_CHECKS, its format having read_check): the consumer then
 * passes the events of every batch flagged tw_batch.deferred, and every
 * event it reads one at a time, through tw_reader_check() before it uses
 * them. */
bool tw_reader_defers_checks(const tw_reader *r);
/* The format's read_check() (which see) on events of this reader, its
 * reports going to `sink`: how many of ev[0..n) were checked (1 to n), or 0
 * when the reading stops at ev[0].  Every event passes when the reader
 * checks as it reads. */
size_t tw_reader_check(tw_reader *r, tw_event *ev, size_t n, tw_diag_sink *sink);
const tw_trace_info *tw_reader_info(const tw_reader *r);
void tw_reader_close(tw_reader *r);

typedef struct tw_writer tw_writer;

int tw_writer_open(const tw_format *fmt, tw_output *out, tw_strtab *strtab,
                   tw_diag_sink *diag, const tw_optset *opts,
                   const tw_trace_info *info, tw_writer **outw);
/* The same for a TW_FMT_DIRECTORY format, writing into `dir` (which the
 * caller commits or aborts after tw_writer_finish). */
int tw_writer_open_dir(const tw_format *fmt, tw_outdir *dir, tw_strtab *strtab,
                       tw_diag_sink *diag, const tw_optset *opts,
                       const tw_trace_info *info, tw_writer **outw);
int tw_writer_event(tw_writer *w, const tw_event *ev);  /* TW_OK / TW_ERR */
/* Allow the writer up to n threads (default 1) for the work it does when
 * it finishes; the output is the same.  chrome renders the events it held
 * back (every thread's but the first) on two.  Call before
 * tw_writer_finish(), when no other thread of the caller's is busy (the
 * reading is done). */
void tw_writer_set_threads(tw_writer *w, unsigned n);
/* How many threads the writer used when it finished (1 or 2). */
unsigned tw_writer_threads_used(const tw_writer *w);
/* Complete the output and report what was lost or rounded. */
int tw_writer_finish(tw_writer *w);
void tw_writer_free(tw_writer *w);

/* ------------------------------------------------------------------------ */
/* What a conversion loses                                                   */
/* ------------------------------------------------------------------------ */

/* f->fidelity, or NULL (no format, or a viewer format, which only draws
 * scopes). */
const tw_fidelity *tw_format_fidelity(const tw_format *f);
/* The short code ("thr") and the phrase ("several threads") of one
 * TW_KEEP_* bit; NULL for anything else. */
const char *tw_keep_code(unsigned bit);
const char *tw_keep_text(unsigned bit);
/* What converting `from` into `to` loses (TW_KEEP_* bits); *rounds_time
 * and *rounds_origin (may be NULL) say whether times and the origin are
 * rounded to a coarser clock (a rounded origin counts as TW_KEEP_ORIGIN
 * in the result too).  A format into itself, and text1 and
 * text1-bin into each other, lose only what the other one cannot hold.
 * text1 holds some parts only in part: the threads of counters (lost when
 * the reader's counters may be on several threads), process names (lost
 * when the reader has them), and, like text1-bin, the threads of states
 * (on their track; lost when the reader may put them elsewhere: jsonl).
 * Both formats must have a description. */
unsigned tw_conversion_loses(const tw_format *from, const tw_format *to, bool *rounds_time,
                             bool *rounds_origin);

#ifdef __cplusplus
}
#endif
#endif /* TRACEWRIGHT_FORMAT_H */
