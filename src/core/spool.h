/*
 * Spool: per-channel byte streams, appended in any interleaving and read
 * back one channel at a time, with full chunks kept in one temporary file.
 * Memory: about one chunk per channel.  Not part of the public API.
 */
#ifndef TW_CORE_SPOOL_H
#define TW_CORE_SPOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tracewright/io.h"
#include "util.h"

typedef struct tw_spool tw_spool;

/* (What the inline tw_spool_space() and tw_spool_commit() below use; the
 * rest is spool.c's.) */
typedef struct tw_spool_channel {
    tw_buf tail;        /* the latest bytes, not yet in the file */
    uint64_t first;     /* offset of its first chunk in the file, NO_CHUNK for none */
    uint64_t last;      /* and of its last */
    size_t size;        /* bytes in all */
} tw_spool_channel;

struct tw_spool {
    size_t chunk_size;
    tw_spool_channel *ch;
    size_t nch, cap;
    FILE *file;
    uint64_t end;       /* bytes in the file */
    int err;            /* errno of the first failure, 0 if none */
    bool tmp_failed;    /* that failure was making the temporary file */
    char text[320];     /* tw_spool_error_text() */
};

/* chunk_size 0 = 64 KiB.  NULL when out of memory. */
tw_spool *tw_spool_new(size_t chunk_size);
/* Append to a channel (channels are numbered from 0 and made on first
 * use).  The bytes of one call stay together: tw_spool_piece() hands them
 * out in one piece.  False after any failure; tw_spool_error() tells
 * which. */
bool tw_spool_write(tw_spool *s, size_t channel, const void *p, size_t n);
/* Room for n bytes at the end of a channel, to be filled and then added
 * by tw_spool_commit() (as one write): a write without a copy.  NULL after
 * any failure. */
static inline void *tw_spool_space(tw_spool *s, size_t channel, size_t n);
static inline bool tw_spool_commit(tw_spool *s, size_t channel, size_t n);
/* Bytes written to a channel so far. */
size_t tw_spool_size(const tw_spool *s, size_t channel);
/* Write everything of a channel, in order, to `out`. */
bool tw_spool_copy(tw_spool *s, size_t channel, tw_output *out);
/*
 * Read a channel back one piece at a time, in order: a cursor starts on a
 * channel (tw_spool_cursor_at), and each call gives the channel's next
 * piece, read into *b (a chunk of the file) or in place (the channel's
 * latest bytes, valid until the next write to it).  A piece holds whole
 * writes.  Returns 1 with the piece at *p, *n (never empty), 0 at the
 * channel's end, -1 on a failure of the spool (a read, or a chunk that is
 * not as it was written).  A piece starts exactly where the channel's
 * latest bytes were empty when a write came (tw_spool_fresh()), so a
 * writer can make each piece readable on its own, and hand pieces to other
 * threads; the spool itself is not safe to use from two threads at once.
 */
typedef struct tw_spool_cursor {
    size_t channel;
    uint64_t at;    /* the next chunk in the file */
    bool started, done;
} tw_spool_cursor;
tw_spool_cursor tw_spool_cursor_at(size_t channel);
int tw_spool_piece(tw_spool *s, tw_spool_cursor *c, tw_buf *b, const char **p, size_t *n);
/* Whether the next write to a channel starts a piece (its latest bytes are
 * empty); valid after tw_spool_space() gave room on it. */
static inline bool tw_spool_fresh(const tw_spool *s, size_t channel) {
    return s->ch[channel].tail.len == 0;
}
/* errno of the first failure (ENOMEM when out of memory), 0 if none. */
int tw_spool_error(const tw_spool *s);
/* The first failure in words: its strerror(), or "cannot create a temporary
 * file in 'DIR': ..." when that is what failed. */
const char *tw_spool_error_text(tw_spool *s);
void tw_spool_free(tw_spool *s);

/* An anonymous temporary file, read and write, in $TMPDIR (when set and not
 * empty) or /tmp; it is removed from the directory at once, so it goes
 * away when closed.  NULL with errno set on failure. */
FILE *tw_tmpfile(void);
/* The directory tw_tmpfile() uses. */
const char *tw_tmpdir(void);

/* (inline: a writer spools per event; the slow paths are spool.c's) */
void *tw_spool_space_slow(tw_spool *s, size_t channel, size_t n);
bool tw_spool_spill(tw_spool *s, tw_spool_channel *c);

static inline void *tw_spool_space(tw_spool *s, size_t channel, size_t n) {
    if (channel < s->nch && !s->err) {
        tw_buf *t = &s->ch[channel].tail;
        if (t->cap - t->len >= n) return t->p + t->len;
    }
    return tw_spool_space_slow(s, channel, n);
}

static inline bool tw_spool_commit(tw_spool *s, size_t channel, size_t n) {
    tw_spool_channel *c = &s->ch[channel];
    c->tail.len += n;
    c->size += n;
    return c->tail.len < s->chunk_size || tw_spool_spill(s, c);
}

#endif
