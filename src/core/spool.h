/*
 * Spool: per-channel byte streams, appended in any interleaving and read
 * back one channel at a time, with full chunks kept in one temporary file.
 * Memory: about one chunk per channel.  Not part of the public API.
 */
#ifndef TW_CORE_SPOOL_H
#define TW_CORE_SPOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "tracewright/io.h"

typedef struct tw_spool tw_spool;

/* chunk_size 0 = 64 KiB.  NULL when out of memory. */
tw_spool *tw_spool_new(size_t chunk_size);
/* Append to a channel (channels are numbered from 0 and made on first
 * use).  False after any failure; tw_spool_error() tells which. */
bool tw_spool_write(tw_spool *s, size_t channel, const void *p, size_t n);
/* Bytes written to a channel so far. */
size_t tw_spool_size(const tw_spool *s, size_t channel);
/* Write everything of a channel, in order, to `out`. */
bool tw_spool_copy(tw_spool *s, size_t channel, tw_output *out);
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

#endif
