/*
 * A spool: bytes appended to numbered channels in any interleaving, read
 * back channel by channel.  Writers whose output groups by thread while
 * their input interleaves threads (speedscope's one profile per thread)
 * keep each channel's latest bytes in memory and move full chunks to one
 * shared temporary file, so memory stays bounded by the number of channels
 * whatever the size of the input.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "spool.h"
#include "tracewright/io.h"
#include "util.h"

typedef struct chunk {
    uint64_t off;
    size_t len;
} chunk;

typedef struct channel {
    tw_buf tail;        /* the latest bytes, not yet in the file */
    chunk *chunks;      /* where the earlier ones are, in order */
    size_t nchunks, cap;
    size_t size;        /* bytes in all */
} channel;

struct tw_spool {
    size_t chunk_size;
    channel *ch;
    size_t nch, cap;
    FILE *file;
    uint64_t end;       /* bytes in the file */
    int err;            /* errno of the first failure, 0 if none */
    bool tmp_failed;    /* that failure was making the temporary file */
    char text[320];     /* tw_spool_error_text() */
};

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

/* Move a channel's tail to the file (written and read back by offset,
 * without stdio's buffer). */
static bool spill(tw_spool *s, channel *c) {
    if (!s->file && !(s->file = tw_tmpfile())) {
        s->tmp_failed = !s->err;
        return fail(s, errno);
    }
    if (!tw_grow(&c->chunks, &c->cap, c->nchunks + 1, sizeof *c->chunks, 8)) return fail(s, ENOMEM);
    int fd = fileno(s->file);
    for (size_t done = 0; done < c->tail.len;) {
        ssize_t k = pwrite(fd, c->tail.p + done, c->tail.len - done, (off_t)(s->end + done));
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return fail(s, k < 0 ? errno : EIO);
        done += (size_t)k;
    }
    c->chunks[c->nchunks++] = (chunk){s->end, c->tail.len};
    s->end += c->tail.len;
    tw_buf_clear(&c->tail);
    return true;
}

void *tw_spool_space(tw_spool *s, size_t channel_no, size_t n) {
    if (s->err) return NULL;
    if (channel_no >= s->nch) {
        if (!tw_grow(&s->ch, &s->cap, channel_no + 1, sizeof *s->ch, 8)) {
            fail(s, ENOMEM);
            return NULL;
        }
        memset(s->ch + s->nch, 0, (channel_no + 1 - s->nch) * sizeof *s->ch);
        s->nch = channel_no + 1;
    }
    channel *c = &s->ch[channel_no];
    if (!tw_buf_reserve(&c->tail, n)) {
        fail(s, ENOMEM);
        return NULL;
    }
    return c->tail.p + c->tail.len;
}

bool tw_spool_commit(tw_spool *s, size_t channel_no, size_t n) {
    channel *c = &s->ch[channel_no];
    c->tail.len += n;
    c->size += n;
    return c->tail.len < s->chunk_size || spill(s, c);
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
    channel *c = &s->ch[channel_no];
    for (size_t i = 0; i < c->nchunks; i++) {
        uint64_t off = c->chunks[i].off;
        for (size_t left = c->chunks[i].len; left > 0;) {
            size_t room;
            char *p = tw_out_space(out, 4096, &room);
            if (!p) return true;  /* the output's failure, reported by its owner */
            ssize_t k = pread(fileno(s->file), p, left < room ? left : room, (off_t)off);
            if (k < 0 && errno == EINTR) continue;
            if (k <= 0) return fail(s, k < 0 ? errno : EIO);
            tw_out_commit(out, (size_t)k);
            off += (uint64_t)k;
            left -= (size_t)k;
        }
    }
    tw_out_write(out, c->tail.p, c->tail.len);
    return true;
}

/* Each chunk is read whole into one buffer (a chunk is whole writes: the
 * tail is moved to the file only after a write). */
bool tw_spool_each(tw_spool *s, size_t channel_no,
                   bool (*fn)(void *user, const char *p, size_t n), void *user) {
    if (s->err) return false;
    if (channel_no >= s->nch) return true;
    channel *c = &s->ch[channel_no];
    tw_buf b = {0};
    bool ok = true, go = true;
    for (size_t i = 0; ok && go && i < c->nchunks; i++) {
        size_t len = c->chunks[i].len;
        tw_buf_clear(&b);
        if (!tw_buf_reserve(&b, len)) {
            ok = fail(s, ENOMEM);
            break;
        }
        for (size_t done = 0; done < len;) {
            ssize_t k = pread(fileno(s->file), b.p + done, len - done,
                              (off_t)(c->chunks[i].off + done));
            if (k < 0 && errno == EINTR) continue;
            if (k <= 0) {
                ok = fail(s, k < 0 ? errno : EIO);
                break;
            }
            done += (size_t)k;
        }
        if (ok) go = fn(user, b.p, len);
    }
    tw_buf_free(&b);
    if (ok && go && c->tail.len) fn(user, c->tail.p, c->tail.len);
    return ok;
}

int tw_spool_error(const tw_spool *s) { return s->err; }

const char *tw_spool_error_text(tw_spool *s) {
    if (!s->tmp_failed) return strerror(s->err);
    snprintf(s->text, sizeof s->text, "cannot create a temporary file in '%s': %s", tw_tmpdir(),
             strerror(s->err));
    return s->text;
}

void tw_spool_free(tw_spool *s) {
    if (!s) return;
    for (size_t i = 0; i < s->nch; i++) {
        tw_buf_free(&s->ch[i].tail);
        free(s->ch[i].chunks);
    }
    free(s->ch);
    if (s->file) fclose(s->file);
    free(s);
}
