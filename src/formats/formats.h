/*
 * Internal header for format implementations: the public contract plus the
 * core helpers, and small utilities shared by several formats.
 */
#ifndef TW_FORMATS_FORMATS_H
#define TW_FORMATS_FORMATS_H

#include <stdlib.h>

#include "tracewright/tracewright.h"
#include "core/util.h"

/* A reader's tw_format.read_batch, `name`, made of its read_next, `next`:
 * the loop calls next() directly, and may inline it. */
#define TW_READ_BATCH(name, next) \
    static int name(void *state, tw_batch *b) { return tw_read_batch_with(next, state, b); }

/* A reader's read_next `next` and read_batch `batch` around its inline
 * (TW_INLINE) `one`, which the run then has inline too: no call per event. */
#define TW_READ_NEXT_BATCH(next, batch, one)                              \
    static int next(void *state, tw_event *ev) { return one(state, ev); } \
    static int batch(void *state, tw_batch *b) { TW_READ_BATCH_BODY(one, state, b); }

/* Ends every format file: makes its static descriptor known to the
 * registry (src/formats/registry.c). */
#define TW_FORMAT_EXPORT(name, descriptor)  \
    const tw_format *tw_format_##name(void); \
    const tw_format *tw_format_##name(void) { return &(descriptor); }

/*
 * The next complete line of a probe's head, from *pos, without its LF or
 * CRLF; false when no complete line is left (a line cut off by the head
 * limit does not count).
 */
static inline bool tw_head_line(const char *s, size_t len, size_t *pos, const char **line,
                                size_t *n) {
    const char *nl = *pos < len ? memchr(s + *pos, '\n', len - *pos) : NULL;
    if (!nl) return false;
    *line = s + *pos;
    *n = (size_t)(nl - *line);
    *pos += *n + 1;
    if (*n && (*line)[*n - 1] == '\r') (*n)--;
    return true;
}

/* Location of byte `col0` (0-based) of a text line. */
static inline tw_loc tw_text_loc(const char *file, const tw_line *l, size_t col0) {
    tw_loc loc = {.file = file, .kind = TW_LOC_TEXT, .line = l->no,
                  .col = (uint64_t)col0 + 1, .offset = l->offset + col0};
    return loc;
}

/*
 * A writer's view of a timestamp on a coarser clock: ts / unit_ns rounded
 * to nearest; an inexact conversion is tallied in the loss ledger.
 */
static inline int64_t tw_write_time(const tw_write_ctx *ctx, int64_t ts, int64_t unit_ns,
                                    const char *unit_name) {
    bool inexact;
    int64_t v = tw_round_div(ts, unit_ns, &inexact), back;
    /* at the ends of the range, round towards zero so that v * unit_ns (what
     * the reader computes) still fits */
    if (!tw_mul_i64(v, unit_ns, &back)) v += v > 0 ? -1 : 1;
    if (inexact) tw_loss_round(ctx->loss, unit_name);
    return v;
}

/* Zeroed memory for a reader's or writer's state; out-of-memory is reported. */
static inline void *tw_state_alloc(tw_diag_sink *diag, size_t size) {
    void *p = tw_calloc_lines(1, size);
    if (!p) tw_report(diag, TW_R_OUT_OF_MEMORY, NULL, "out of memory");
    return p;
}

/* Report that a name (`what`: "name", "label") could not be interned:
 * the limit of distinct names was reached, or memory ran out (a reader's,
 * or, _in, any string table's). */
static inline void tw_intern_failed_in(const tw_strtab *strtab, tw_diag_sink *diag,
                                       const tw_loc *loc, const char *what) {
    if (tw_strtab_full(strtab))
        tw_report(diag, TW_R_LIMIT, loc,
                  "cannot store %s: the trace has more than %zu distinct names (the limit; "
                  "see --max-names)", what, tw_strtab_limit(strtab));
    else
        tw_report(diag, TW_R_OUT_OF_MEMORY, loc, "cannot store %s: out of memory", what);
}
static inline void tw_intern_failed(const tw_read_ctx *ctx, const tw_loc *loc, const char *what) {
    tw_intern_failed_in(ctx->strtab, ctx->diag, loc, what);
}

/*
 * Lines read in place (tw_input_window()): a reader keeps the window in
 * `win` and `nwin` from one line to the next, and sets nwin to 0 when it
 * reads a line otherwise.  tw_window_line(): the line at the cursor, when
 * the window (asked for again when empty) holds its LF and the line is not
 * empty and ends in no CR: its bytes, *n its length; NULL otherwise, with
 * nothing consumed.  tw_window_take(): consume such a line of `len` bytes
 * and its LF (tw_input_take_line()); what is left of the window is one.
 */
static inline const char *tw_window_line(tw_input *in, const unsigned char **win, size_t *nwin,
                                         size_t *n) {
    if (!*nwin && !(*nwin = tw_input_window(in, win))) return NULL;
    const char *s = (const char *)*win, *nl = memchr(s, '\n', *nwin);
    if (!nl || nl == s || nl[-1] == '\r') return NULL;
    *n = (size_t)(nl - s);
    return s;
}
static inline void tw_window_take(tw_input *in, const unsigned char **win, size_t *nwin,
                                  size_t len, tw_line *line) {
    tw_input_take_line(in, len, line);
    *win += len + 1;
    *nwin -= len + 1;
}

/* In a reader's own run (read_batch, around a loop of its usual lines or
 * records), an event that loop does not take, read with `next` as
 * tw_read_batch_with() would, one event long: true when the run goes on;
 * false when it is over, *rc then being what read_batch returns (TW_OK
 * after an event that ends the run, TW_EOF, TW_ERR). */
static inline bool tw_read_one_with(int (*next)(void *state, tw_event *ev), void *state,
                                    tw_batch *b, int *rc) {
    size_t cap = b->cap;
    b->cap = b->n + 1;
    *rc = tw_read_batch_with(next, state, b);
    b->cap = cap;
    return *rc == TW_OK && !tw_event_ends_run(&b->ev[b->n - 1]);
}

/* A reader's open could not intern the names it uses itself (keys,
 * categories): reported for the whole input, as tw_intern_failed(). */
static inline void tw_own_names_failed(const tw_read_ctx *ctx) {
    tw_loc loc = {.file = ctx->in ? tw_input_name(ctx->in) : NULL, .kind = TW_LOC_FILE};
    tw_intern_failed(ctx, ctx->in ? &loc : NULL, "the reader's own names");
}

/* The next line of a text reader's input, as tw_input_getline(), but -1
 * once tw_diag_stopped(): a reader's loop then ends instead of failing
 * again on every line after a limit. */
static inline int tw_read_line(const tw_read_ctx *ctx, tw_line *line) {
    return tw_diag_stopped(ctx->diag) ? -1 : tw_input_getline(ctx->in, line);
}

/* tw_read_line() for a reader that reads lines in place: the line is taken
 * from the window (tw_window_line()) when that holds it, without the line
 * reader's second search for its end; else the line reader reads it, and
 * the window is asked for again after. */
static inline int tw_window_read_line(const tw_read_ctx *ctx, const unsigned char **win,
                                      size_t *nwin, tw_line *line) {
    size_t n;
    if (tw_diag_stopped(ctx->diag)) return -1;
    if (tw_window_line(ctx->in, win, nwin, &n)) {
        tw_window_take(ctx->in, win, nwin, n, line);
        return 1;
    }
    *nwin = 0;
    return tw_input_getline(ctx->in, line);
}

/* Intern a name a reader found; when that fails (out of memory, or the
 * limit of distinct names) it is reported at `loc` and NULL returned. */
static inline const tw_str *tw_intern_at(const tw_read_ctx *ctx, const char *s, size_t n,
                                         const tw_loc *loc) {
    const tw_str *str = tw_intern(ctx->strtab, s, n);
    if (!str) tw_intern_failed(ctx, loc, "name");
    return str;
}

/*
 * Count in the loss ledger what the pairing engine repaired, from the
 * problems tallied by the quiet sink a writer gave it: ends without an open
 * scope, scopes closed by an outer end, scopes closed at the end of input.
 */
static inline void tw_loss_repairs(tw_loss *loss, const tw_diag_sink *quiet) {
    const uint64_t *pr = quiet->problems;
    if (pr[TW_R_UNMATCHED_END])
        tw_loss_add(loss, "ends without an open scope ignored", pr[TW_R_UNMATCHED_END]);
    if (pr[TW_R_UNCLOSED_SCOPE])
        tw_loss_add(loss, "scopes closed by an outer end", pr[TW_R_UNCLOSED_SCOPE]);
    if (pr[TW_R_UNCLOSED_AT_EOF])
        tw_loss_add(loss, "scopes closed at the end of the input", pr[TW_R_UNCLOSED_AT_EOF]);
}

/*
 * Count what a writer that draws only scopes cannot hold of an event: the
 * category, attributes and message of a begin or end, and every event that
 * is not a scope event (instants, counters, metadata) as a whole.  Suspend
 * and resume are left to the caller.  The writer still gives every event to
 * its pairing engine, so that scopes left open at the end close at the last
 * event of their thread, as in stats.
 */
static inline void tw_loss_scopes_only(tw_loss *loss, const tw_event *ev) {
    switch (ev->kind) {
    case TW_BEGIN:
    case TW_END:
        if (ev->cat) tw_loss_add(loss, "categories dropped", 1);
        if (ev->nattrs) tw_loss_add(loss, "event attributes dropped", 1);
        if (ev->msg) tw_loss_add(loss, "message texts dropped", 1);
        break;
    case TW_SUSPEND:
    case TW_RESUME:
        break;
    default:
        tw_loss_drop(loss, ev);
        break;
    }
}

/*
 * What a writer for JavaScript viewers subtracts from every time so that a
 * double holds the ns exactly: 0 when the trace's first time is within
 * +-2^52 ns (the times stay those of the trace), else the whole second at
 * or before it.
 */
static inline int64_t tw_view_base(int64_t first_ts) {
    const int64_t exact = INT64_C(1) << 52;
    if (first_ts < exact && first_ts > -exact) return 0;
    return tw_floor_to(first_ts, TW_NS_PER_S);
}

/* t - base, saturated at the ends of the range. */
static inline int64_t tw_view_time(int64_t t, int64_t base) {
    int64_t rel;
    if (!tw_sub_i64(t, base, &rel)) rel = t < base ? INT64_MIN : INT64_MAX;
    return rel;
}

/* The value of a hexadecimal digit of either case, or -1. */
static inline int tw_hexval(char ch) { return (int)tw_hex_digit1[(unsigned char)ch] - 1; }


#endif
