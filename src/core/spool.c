/*
 * A spool: bytes appended to numbered channels in any interleaving, read
 * back channel by channel.  Writers whose output groups by thread while
 * their input interleaves threads (speedscope's one profile per thread)
 * keep each channel's latest bytes in memory and move full chunks to one
 * shared temporary file, so memory stays bounded by the number of channels
 * whatever the size of the input.  In the file a chunk is a header (the
 * offset of its channel's next chunk, its length) and its bytes: a channel
 * is a list through the file, and all memory holds of it is where its first
 * and last chunks are, not an index that would grow with the input.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "spool.h"
#include "tracewright/io.h"
#include "util.h"

/* The header of a chunk in the file, before its bytes. */
typedef struct chunk_head {
    uint64_t next;  /* offset of the channel's next chunk; NO_CHUNK for none */
    uint64_t len;   /* bytes after this header */
} chunk_head;
#define NO_CHUNK UINT64_MAX

tw_spool *tw_spool_new(size_t chunk_size) {
    tw_spool *s = calloc(1, sizeof *s);
    if (s) s->chunk_size = chunk_size ? chunk_size : 65536;
    return s;
}

static bool fail(tw_spool *s, int err) {
    if (!s->err) s->err = err ? err : ENOMEM;
    return false;
}

const char *tw_tmpdir(void) {
    const char *dir = getenv("TMPDIR");
    return dir && *dir ? dir : "/tmp";
}

FILE *tw_tmpfile(void) {
    const char *dir = tw_tmpdir();
    size_t n = strlen(dir);
    while (n > 1 && dir[n - 1] == '/') n--;
    static const char leaf[] = "/tracewright-XXXXXX";
    char *path = n < 4096 ? malloc(n + sizeof leaf) : NULL;
    if (!path) {
        errno = n < 4096 ? ENOMEM : ENAMETOOLONG;
        return NULL;
    }
    snprintf(path, n + sizeof leaf, "%.*s%s", (int)n, dir, leaf);
    int fd = mkstemp(path);
    int err = errno;
    if (fd >= 0) unlink(path);
    free(path);
    if (fd < 0) {
        errno = err;
        return NULL;
    }
    FILE *f = fdopen(fd, "w+b");
    if (!f) {
        err = errno;
        close(fd);
        errno = err;
    }
    return f;
}

/* n bytes at offset off of the file (by offset, without stdio's buffer):
 * true, or false with the failure recorded. */
static bool put_at(tw_spool *s, const void *p, size_t n, uint64_t off) {
    for (size_t done = 0; done < n;) {
        ssize_t k = pwrite(fileno(s->file), (const char *)p + done, n - done, (off_t)(off + done));
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return fail(s, k < 0 ? errno : EIO);
        done += (size_t)k;
    }
    return true;
}

static bool get_at(tw_spool *s, void *p, size_t n, uint64_t off) {
    for (size_t done = 0; done < n;) {
        ssize_t k = pread(fileno(s->file), (char *)p + done, n - done, (off_t)(off + done));
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return fail(s, k < 0 ? errno : EIO);
        done += (size_t)k;
    }
    return true;
}

/* Move a channel's tail to the end of the file as a chunk, and link the
 * channel's previous chunk to it. */
bool tw_spool_spill(tw_spool *s, tw_spool_channel *c) {
    if (!s->file && !(s->file = tw_tmpfile())) {
        s->tmp_failed = !s->err;
        return fail(s, errno);
    }
    chunk_head h = {.next = NO_CHUNK, .len = c->tail.len};
    uint64_t at = s->end;
    if (!put_at(s, &h, sizeof h, at) || !put_at(s, c->tail.p, c->tail.len, at + sizeof h) ||
        (c->last != NO_CHUNK &&
         !put_at(s, &at, sizeof at, c->last + offsetof(chunk_head, next))))
        return false;
    if (c->first == NO_CHUNK) c->first = at;
    c->last = at;
    s->end = at + sizeof h + c->tail.len;
    tw_buf_clear(&c->tail);
    return true;
}

void *tw_spool_space_slow(tw_spool *s, size_t channel_no, size_t n) {
    if (s->err) return NULL;
    if (channel_no >= s->nch) {
        if (!tw_grow(&s->ch, &s->cap, channel_no + 1, sizeof *s->ch, 8)) {
            fail(s, ENOMEM);
            return NULL;
        }
        for (size_t i = s->nch; i <= channel_no; i++)
            s->ch[i] = (tw_spool_channel){.first = NO_CHUNK, .last = NO_CHUNK};
        s->nch = channel_no + 1;
    }
    tw_spool_channel *c = &s->ch[channel_no];
    if (!tw_buf_reserve(&c->tail, n)) {
        fail(s, ENOMEM);
        return NULL;
    }
    return c->tail.p + c->tail.len;
}

bool tw_spool_write(tw_spool *s, size_t channel_no, const void *p, size_t n) {
    void *q = tw_spool_space(s, channel_no, n);
    if (!q) return false;
    if (n) memcpy(q, p, n);
    return tw_spool_commit(s, channel_no, n);
}

size_t tw_spool_size(const tw_spool *s, size_t channel_no) {
    if (channel_no >= s->nch) return 0;
    return s->ch[channel_no].size;
}

/* Read straight into the output's buffer: no copy on the way. */
bool tw_spool_copy(tw_spool *s, size_t channel_no, tw_output *out) {
    if (s->err) return false;
    if (channel_no >= s->nch) return true;
    tw_spool_channel *c = &s->ch[channel_no];
    for (uint64_t at = c->first; at != NO_CHUNK;) {
        chunk_head h;
        if (!get_at(s, &h, sizeof h, at)) return false;
        uint64_t off = at + sizeof h;
        for (uint64_t left = h.len; left > 0;) {
            size_t room;
            char *p = tw_out_space(out, 4096, &room);
            if (!p) return true;  /* the output's failure, reported by its owner */
            size_t k = left < room ? (size_t)left : room;
            if (!get_at(s, p, k, off)) return false;
            tw_out_commit(out, k);
            off += k;
            left -= k;
        }
        at = h.next;
    }
    tw_out_write(out, c->tail.p, c->tail.len);
    return true;
}

tw_spool_cursor tw_spool_cursor_at(size_t channel) {
    return (tw_spool_cursor){.channel = channel};
}

/* Each chunk is read whole into b (a chunk is whole writes: the tail is
 * moved to the file only after a write), then the tail is given in place. */
int tw_spool_piece(tw_spool *s, tw_spool_cursor *c, tw_buf *b, const char **p, size_t *n) {
    if (s->err) return -1;
    if (c->done || c->channel >= s->nch) return 0;
    tw_spool_channel *ch = &s->ch[c->channel];
    if (!c->started) {
        c->started = true;
        c->at = ch->first;
    }
    if (c->at != NO_CHUNK) {
        chunk_head h;
        if (!get_at(s, &h, sizeof h, c->at)) return -1;
        size_t len = (size_t)h.len;
        if (!len) {  /* never written so: the file was changed */
            fail(s, EIO);
            return -1;
        }
        tw_buf_clear(b);
        if (!tw_buf_reserve(b, len)) {
            fail(s, ENOMEM);
            return -1;
        }
        if (!get_at(s, b->p, len, c->at + sizeof h)) return -1;
        c->at = h.next;
        *p = b->p;
        *n = len;
        return 1;
    }
    c->done = true;
    if (!ch->tail.len) return 0;
    *p = ch->tail.p;
    *n = ch->tail.len;
    return 1;
}

int tw_spool_error(const tw_spool *s) { return s->err; }

const char *tw_spool_error_text(tw_spool *s) {
    /* the directory is named either way: a full $TMPDIR is not the disk of
     * the output */
    snprintf(s->text, sizeof s->text, "%stemporary file in '%s': %s",
             s->tmp_failed ? "cannot create a " : "", tw_tmpdir(), strerror(s->err));
    return s->text;
}

void tw_spool_free(tw_spool *s) {
    if (!s) return;
    for (size_t i = 0; i < s->nch; i++) tw_buf_free(&s->ch[i].tail);
    free(s->ch);
    if (s->file) fclose(s->file);
    free(s);
}
