/*
 * Input layer.  Three modes share one interface:
 *   MAP     a regular file, memory-mapped; pages far behind the read
 *           position are released so resident memory stays flat;
 *   MEM     a caller's memory block (tests, fuzzers) or an empty file;
 *   STREAM  pipes, terminals, sockets: read(2) into a growable window;
 *           another thread may read the next block while it waits for
 *           the reading one (tw_input_read_ahead()).
 */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tracewright/io.h"
#include "util.h"

enum mode { MODE_MEM, MODE_MAP, MODE_STREAM };

#define STREAM_BLOCK ((size_t)1 << 20)   /* bytes asked of read(2) at once */
/* fcntl(F_SETPIPE_SZ), Linux since 2.6.35; <fcntl.h> names it only
 * with _GNU_SOURCE */
#if defined(F_SETPIPE_SZ)
#define TW_SETPIPE_SZ F_SETPIPE_SZ
#elif defined(__linux__)
#define TW_SETPIPE_SZ 1031
#endif
/* tw_input_read_ahead(): a block of up to SIDE_BLOCK bytes, read after
 * SIDE_HEAD bytes of room, where the part line in front of it is copied
 * when the reading thread takes it in place of its own buffer; at most
 * SIDE_STEP bytes per call, so that the thread that reads ahead is soon
 * back to what it waits for */
#define SIDE_BLOCK STREAM_BLOCK
#define SIDE_HEAD ((size_t)64 << 10)
#define SIDE_STEP ((size_t)64 << 10)
enum { SIDE_IDLE, SIDE_READING, SIDE_FILLING };
#define RELEASE_STEP ((size_t)1 << 20)   /* release mapped pages in steps */
#define RELEASE_KEEP ((size_t)256 << 10) /* keep this much behind the cursor */
/* tw_input_map_ahead(): map up to AHEAD_LEAD bytes past the position it is
 * given, AHEAD_STEP at a time (MADV_POPULATE_READ, Linux 5.14) */
#if defined(MADV_POPULATE_READ)
#define TW_POPULATE_READ MADV_POPULATE_READ
#elif defined(__linux__)
#define TW_POPULATE_READ 22
#endif
#define AHEAD_LEAD ((size_t)512 << 10)
#define AHEAD_STEP ((size_t)64 << 10)

struct tw_input {
    enum mode mode;
    char *name;
    char *path;
    int fd;
    bool own_fd;
    tw_diag_sink *diag;
    size_t max_line;
    int64_t size;
    /* MEM and MAP */
    const unsigned char *data;
    size_t len;
    void *map;
    size_t page;
    uint64_t release_at;  /* pos from which release_behind has work to do */
    /* MAP: what the reading thread releases and another maps ahead of it
     * (tw_input_map_ahead()), under ahead_mu: offsets in the mapping */
    pthread_mutex_t ahead_mu;  /* made with the mapping, or for a STREAM */
    size_t released;      /* pages below are released (or being released) */
    int slot;             /* in mapped[], or -1 */
    /* the file shrank under the mapping: 1 + the offset in the mapping of
     * the first page that faulted (set by the SIGBUS handler, which mapped
     * zeros from there on); 0 while it has not */
    _Atomic size_t shrunk;
    bool shrunk_told;     /* reported, and len cut to what is left */
    bool end_checked;     /* its size looked at again at its end */
    uint64_t base_off;    /* MAP: the file offset of data[0] */
    size_t ahead_done;    /* mapped ahead up to here */
    size_t ahead_from;    /* while `ahead_busy`: being mapped from here on */
    bool ahead_busy, ahead_off;
    /* STREAM: buf[0..end) holds input bytes [base, base+end) (modulo 2^64:
     * after a block read ahead is taken, the bytes start at an index above
     * 0 and base may have wrapped) */
    unsigned char *buf;
    size_t cap, end;
    uint64_t base;
    bool eof;
    bool failed;  /* a read failed and was reported: every later fill fails */
    /* STREAM: the next block, read by another thread (tw_input_read_ahead())
     * into `side`, under ahead_mu: who reads the input now (side_state:
     * SIDE_READING this thread, SIDE_FILLING the other, SIDE_IDLE neither);
     * side_n bytes read ahead, and after them the end of the input
     * (side_end) or an error (side_err) when set; side_stop: read no more
     * ahead (the end or an error was met, or poll() failed).  The side
     * belongs to the thread that the state names, and to neither while it
     * is SIDE_IDLE. */
    pthread_cond_t side_cv;
    unsigned char *side;
    size_t side_cap, side_n;
    int side_state, side_err;
    bool side_end, side_stop;
    bool side_off;  /* no lock could be made: no reading ahead */
    /* STREAM: tw_input_set_wait(), for the thread `wait_owner` only */
    tw_wait_fn wait_fn;
    void *wait_user;
    pthread_t wait_owner;
    /* all modes */
    uint64_t pos;     /* offset of the next unread byte */
    uint64_t lineno;  /* lines returned or skipped so far */
};

static void io_error(tw_input *in, const char *what, int err) {
    tw_loc loc = {.file = in->name, .kind = TW_LOC_FILE, .offset = in->pos};
    tw_report(in->diag, TW_R_IO_ERROR, &loc, "%s: %s", what, strerror(err));
}

static tw_input *new_input(const char *name, const char *path,
                           const tw_input_opts *opts, tw_diag_sink *diag) {
    tw_input *in = tw_calloc_lines(1, sizeof *in);
    if (!in) return NULL;
    in->release_at = UINT64_MAX;  /* nothing to give back unless mapped */
    in->name = strdup(name);
    in->path = path ? strdup(path) : NULL;
    if (!in->name || (path && !in->path)) {
        free(in->name);
        free(in->path);
        free(in);
        return NULL;
    }
    in->fd = -1;
    in->diag = diag;
    in->max_line = opts && opts->max_line ? opts->max_line : TW_DEFAULT_MAX_LINE;
    in->size = -1;
    return in;
}

void tw_input_set_diag(tw_input *in, tw_diag_sink *diag) { in->diag = diag; }

int tw_input_open_mem(const void *data, size_t len, const char *name,
                      const tw_input_opts *opts, tw_diag_sink *diag,
                      tw_input **out) {
    tw_input *in = new_input(name ? name : "<memory>", NULL, opts, diag);
    if (!in) {
        tw_report(diag, TW_R_OUT_OF_MEMORY, NULL, "out of memory");
        return -1;
    }
    in->mode = MODE_MEM;
    in->data = data;
    in->len = len;
    in->size = (int64_t)len;
    *out = in;
    return 0;
}

/* ---- a mapped file that shrinks -------------------------------------------- */

/* The inputs with a mapping, for the SIGBUS handler (tw_input_guard_truncation()):
 * a file truncated while it is mapped (a log rotated by copytruncate) makes
 * every access beyond its new end a SIGBUS.  The handler maps zeros over the
 * rest of that input's mapping and marks the input, which then reports it
 * and ends there (check_shrunk()).  A slot is set once the input's mapping
 * is complete, and cleared before it is unmapped. */
#define MAP_SLOTS 256
static tw_input *_Atomic mapped[MAP_SLOTS];
static _Atomic bool guarded;

static void on_sigbus(int sig, siginfo_t *si, void *uc) {
    (void)uc;
    const unsigned char *a = si->si_addr;
    for (size_t i = 0; a && i < MAP_SLOTS; i++) {
        tw_input *in = atomic_load(&mapped[i]);
        if (!in) continue;
        unsigned char *b = in->map;
        if (a < b || a >= b + in->cap) continue;
        size_t off = (size_t)(a - b);
        off -= off % in->page;
        /* one call for the rest, so that no other page of it faults; the
         * pages go with the input's munmap() */
        const int flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED;
        /* cppcheck-suppress invalidFunctionArg ; fd -1 is what an anonymous map takes */
        void *z = mmap(b + off, in->cap - off, PROT_READ, flags, -1, 0);
        if (z == MAP_FAILED) break;
        size_t none = 0;
        atomic_compare_exchange_strong(&in->shrunk, &none, off + 1);
        return;  /* the access is made again, and reads zeros */
    }
    /* not a mapping of ours, or it cannot be mended: as without a handler
     * (a fault comes again when the access is made again; a signal sent
     * with kill() does not, and is raised again) */
    signal(sig, SIG_DFL);
    if (si->si_code <= 0) (void)raise(sig);
}

int tw_input_guard_truncation(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_sigbus;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGBUS, &sa, NULL) != 0) return -1;
    atomic_store(&guarded, true);
    return 0;
}

/* Take a slot for a mapped input; false when none is free. */
static bool map_register(tw_input *in) {
    for (int i = 0; i < MAP_SLOTS; i++) {
        tw_input *none = NULL;
        if (atomic_compare_exchange_strong(&mapped[i], &none, in)) {
            in->slot = i;
            return true;
        }
    }
    return false;
}

/* The file shrank to `now` bytes (seen by the handler, or at the end):
 * report it once, and end the input where its bytes ended, or where the
 * reader is when that is further (what it read past the cut was zeros). */
static TW_NOINLINE void report_shrunk(tw_input *in, uint64_t now) {
    in->shrunk_told = true;
    size_t from = now > in->base_off ? (size_t)(now - in->base_off) : 0; /* of the input */
    size_t f = atomic_load(&in->shrunk);
    size_t skew = (size_t)(in->data - (const unsigned char *)in->map);
    if (f) {
        size_t fault = f - 1 > skew ? f - 1 - skew : 0; /* the first page read as zeros */
        if (fault < from) from = fault;
    }
    size_t end = from < in->pos ? (size_t)in->pos : from;
    if (end < in->len) in->len = end;
    tw_loc loc = {.file = in->name, .kind = TW_LOC_FILE};
    tw_report(in->diag, TW_R_IO_ERROR, &loc,
              "the file was truncated to %llu bytes by another program while it was read; "
              "its bytes from %llu on were gone (read as zeros), and reading stopped",
              (unsigned long long)now, (unsigned long long)(in->base_off + from));
}

static uint64_t size_now(const tw_input *in) {
    struct stat st;
    return fstat(in->fd, &st) == 0 && st.st_size >= 0 ? (uint64_t)st.st_size : 0;
}

/* At the end of a mapped input, once: whether the file is shorter than it
 * was (a cut within its last page faults nowhere: the kernel fills the rest
 * of that page with zeros).  True when that was reported now. */
static TW_NOINLINE bool end_check(tw_input *in) {
    in->end_checked = true;
    uint64_t now = size_now(in);
    if (in->shrunk_told || now >= in->base_off + (uint64_t)in->size) return false;
    report_shrunk(in, now);
    return true;
}

static inline bool check_shrunk(tw_input *in) {
    if (in->mode == MODE_MAP && !in->shrunk_told &&
        atomic_load_explicit(&in->shrunk, memory_order_relaxed)) {
        report_shrunk(in, size_now(in));
        return true;
    }
    return false;
}

/* check_shrunk(), and at the end of a mapped input its size once more */
static inline bool check_end(tw_input *in) {
    if (check_shrunk(in)) return true;
    return in->mode == MODE_MAP && !in->end_checked && end_check(in);
}

int tw_input_open(const char *path, const tw_input_opts *opts,
                  tw_diag_sink *diag, tw_input **out) {
    bool is_stdin = strcmp(path, "-") == 0;
    tw_input *in = new_input(is_stdin ? TW_STDIN_NAME : path,
                             is_stdin ? NULL : path, opts, diag);
    if (!in) {
        tw_report(diag, TW_R_OUT_OF_MEMORY, NULL, "out of memory");
        return -1;
    }
    if (is_stdin) {
        in->fd = STDIN_FILENO;
    } else {
        int fd;
        do fd = open(path, O_RDONLY | O_CLOEXEC);
        while (fd < 0 && errno == EINTR);
        if (fd < 0) {
            tw_report(diag, TW_R_IO_ERROR, NULL, "cannot open '%s': %s", path,
                      strerror(errno));
            tw_input_close(in);
            return -1;
        }
        in->fd = fd;
        in->own_fd = true;
    }
    struct stat st;
    if (fstat(in->fd, &st) != 0) {
        tw_report(diag, TW_R_IO_ERROR, NULL, "cannot examine '%s': %s", in->name,
                  strerror(errno));
        tw_input_close(in);
        return -1;
    }
    if (S_ISDIR(st.st_mode)) {
        tw_report(diag, TW_R_IO_ERROR, NULL, "cannot read '%s': %s", in->name,
                  strerror(EISDIR));
        tw_input_close(in);
        return -1;
    }
    in->mode = MODE_STREAM;
#ifdef TW_SETPIPE_SZ
    /* a pipe of STREAM_BLOCK instead of 64 KiB: the writer and this
     * reader wake each other 16 times less often (advice: failure is fine) */
    if (S_ISFIFO(st.st_mode)) (void)fcntl(in->fd, TW_SETPIPE_SZ, (int)STREAM_BLOCK);
#endif
    if (S_ISREG(st.st_mode)) {
        off_t here = is_stdin ? lseek(in->fd, 0, SEEK_CUR) : 0;
        if (here < 0) here = 0;
        in->size = (int64_t)(st.st_size - here);
        if (in->size < 0) in->size = 0;
        if (in->size == 0) {
            /* empty, or a file that only shows its contents when read
             * (/proc, /sys): read it like a pipe */
            in->size = -1;
        } else if (!(opts && opts->no_mmap) && (uint64_t)st.st_size <= SIZE_MAX) {
            long pg = sysconf(_SC_PAGESIZE);
            off_t aligned = here - (pg > 0 ? here % pg : 0);
            size_t maplen = (size_t)(st.st_size - aligned);
            void *m = mmap(NULL, maplen, PROT_READ, MAP_PRIVATE, in->fd, aligned);
            if (m != MAP_FAILED && pthread_mutex_init(&in->ahead_mu, NULL) != 0) {
                munmap(m, maplen);
                m = MAP_FAILED;  /* read it as a stream */
            }
            if (m != MAP_FAILED) {
                in->page = pg > 0 ? (size_t)pg : 4096;
#ifdef MADV_SEQUENTIAL
                madvise(m, maplen, MADV_SEQUENTIAL);
#endif
#ifdef MADV_NOHUGEPAGE
                /* small pages only: a huge page of the file mapped at once
                 * would count 2 MiB towards the peak RSS ahead of the
                 * cursor (1 MiB more at the peak, measured) */
                madvise(m, maplen, MADV_NOHUGEPAGE);
#endif
                in->mode = MODE_MAP;
                in->map = m;
                in->slot = -1;
                in->released = 0;
                in->data = (const unsigned char *)m + (here - aligned);
                in->release_at = RELEASE_STEP + RELEASE_KEEP - (uint64_t)(here - aligned);
                in->base_off = (uint64_t)here;
                in->len = (size_t)in->size;
                /* the mapping length is kept in `cap` for munmap */
                in->cap = maplen;
                /* with the SIGBUS handler, a slot for it; without a free
                 * slot, read as a stream: a file cut under the mapping must
                 * not end the run */
                if (atomic_load(&guarded) && !map_register(in)) {
                    munmap(m, maplen);
                    pthread_mutex_destroy(&in->ahead_mu);
                    in->mode = MODE_STREAM;
                    in->map = NULL;
                    in->data = NULL;
                    in->len = in->cap = 0;
                    in->release_at = UINT64_MAX; /* nothing mapped to give back */
                }
            }
        }
    }
    if (in->mode == MODE_STREAM) {
        in->side_off = pthread_mutex_init(&in->ahead_mu, NULL) != 0;
        if (!in->side_off && pthread_cond_init(&in->side_cv, NULL) != 0) {
            pthread_mutex_destroy(&in->ahead_mu);
            in->side_off = true;
        }
    }
    *out = in;
    return 0;
}

void tw_input_close(tw_input *in) {
    if (!in) return;
    if (in->mode == MODE_MAP) {
        if (in->slot >= 0) atomic_store(&mapped[in->slot], NULL);
        munmap(in->map, in->cap);
        pthread_mutex_destroy(&in->ahead_mu);
    }
    if (in->mode == MODE_STREAM && !in->side_off) {
        pthread_cond_destroy(&in->side_cv);
        pthread_mutex_destroy(&in->ahead_mu);
    }
    if (in->own_fd && in->fd >= 0) close(in->fd);
    free(in->buf);
    free(in->side);
    free(in->name);
    free(in->path);
    free(in);
}

const char *tw_input_name(const tw_input *in) { return in->name; }
const char *tw_input_path(const tw_input *in) { return in->path; }
int64_t tw_input_size(const tw_input *in) { return in->size; }
uint64_t tw_input_offset(const tw_input *in) { return in->pos; }

/* ---- MAP / MEM ----------------------------------------------------------- */

bool tw_input_map_ahead(tw_input *in, uint64_t pos) {
    if (in->mode != MODE_MAP) return false;
    size_t skew = (size_t)(in->data - (const unsigned char *)in->map);
    if (pos > in->len) pos = in->len;
    size_t at = (size_t)pos + skew, to = at + AHEAD_LEAD;
    if (to >= in->cap) to = in->cap;  /* the last page may be partial */
    else to -= to % in->page;
    pthread_mutex_lock(&in->ahead_mu);
    /* never below the reader's release, nor within RELEASE_KEEP above it:
     * the pages the kernel maps around a fault (fault-around, a folio of
     * the page cache) then stay above what was released, as they do for
     * the reader's own faults, which come that far above it; the reader
     * has passed those pages anyway */
    size_t from = in->ahead_done;
    if (from < in->released + RELEASE_KEEP) from = in->released + RELEASE_KEEP;
    if (from < at - at % in->page) from = at - at % in->page;
    bool work = !in->ahead_off && from < to && (to - from >= AHEAD_STEP || to == in->cap);
    if (work) {
        if (to - from > AHEAD_STEP) to = from + AHEAD_STEP;
        in->ahead_busy = true;
        in->ahead_from = from;
    }
    pthread_mutex_unlock(&in->ahead_mu);
    if (!work) return false;
#ifdef TW_POPULATE_READ
    bool ok = madvise((char *)in->map + from, to - from, TW_POPULATE_READ) == 0;
#else
    bool ok = false;  /* no way to do it here */
#endif
    pthread_mutex_lock(&in->ahead_mu);
    in->ahead_busy = false;
    in->ahead_done = to;
    in->ahead_off = !ok;  /* a kernel before 5.14, another system: not again */
    pthread_mutex_unlock(&in->ahead_mu);
    return ok;
}

static TW_NOINLINE void release_pages(tw_input *in) {
    check_shrunk(in);
    size_t skew = (size_t)(in->data - (const unsigned char *)in->map);
#ifdef MADV_DONTNEED
    size_t consumed = (size_t)in->pos + skew;
    size_t upto = consumed - RELEASE_KEEP;
    upto -= upto % in->page;
    /* claimed under the lock, released after it: pages another thread is
     * mapping ahead stay (the next step releases them), and it maps none
     * below the claim */
    pthread_mutex_lock(&in->ahead_mu);
    size_t from = in->released;
    if (in->ahead_busy && in->ahead_from < upto) upto = in->ahead_from;
    if (upto > from) in->released = upto;
    pthread_mutex_unlock(&in->ahead_mu);
    if (upto > from) madvise((char *)in->map + from, upto - from, MADV_DONTNEED);
    in->release_at = (upto > from ? upto : from) + RELEASE_STEP + RELEASE_KEEP - skew;
    /* held back by a step being mapped far behind: ask again a little on,
     * not at every line */
    if (in->release_at <= in->pos) in->release_at = in->pos + AHEAD_STEP;
#else
    (void)skew;
    in->release_at = UINT64_MAX;
#endif
}

/* Give back the mapped pages well behind the cursor (a compare per call
 * until there is a step's worth). */
static inline void release_behind(tw_input *in) {
    if (in->pos >= in->release_at) release_pages(in);
}

/* ---- STREAM -------------------------------------------------------------- */

/* Move the bytes from `keep_from` (an index into buf) to its start, and
 * make room for `room` bytes after them (the buffer doubled as needed);
 * false (reported) when out of memory. */
static bool stream_keep(tw_input *in, size_t keep_from, size_t room) {
    if (keep_from > 0) {
        memmove(in->buf, in->buf + keep_from, in->end - keep_from);
        in->end -= keep_from;
        in->base += keep_from;
    }
    if (in->cap - in->end < room) {
        size_t ncap = in->cap ? in->cap : STREAM_BLOCK;
        while (ncap - in->end < room) ncap *= 2;
        unsigned char *nb = realloc(in->buf, ncap);
        if (!nb) {
            tw_report(in->diag, TW_R_OUT_OF_MEMORY, NULL,
                      "out of memory reading '%s'", in->name);
            return false;
        }
        in->buf = nb;
        in->cap = ncap;
    }
    return true;
}

/* Wait until the stream has bytes (or its end, or an error, which read(2)
 * then meets), calling the wait function every TW_WAIT_TICK_MS meanwhile. */
static void await_bytes(tw_input *in) {
    struct pollfd pf = {.fd = in->fd, .events = POLLIN};
    int pr;
    while ((pr = poll(&pf, 1, TW_WAIT_TICK_MS)) == 0 || (pr < 0 && errno == EINTR))
        if (pr == 0) in->wait_fn(in->wait_user);
}

/* Read more bytes into the window, keeping bytes from `keep_from` (an index
 * into buf) onwards, with read(2) on this thread.  Returns 1 when bytes
 * arrived, 0 at EOF, -1 on error. */
static int stream_read(tw_input *in, size_t keep_from, size_t min_room) {
    if (!stream_keep(in, keep_from, min_room)) return -1;
    bool waker = in->wait_fn && pthread_equal(pthread_self(), in->wait_owner);
    if (waker) await_bytes(in);
    for (;;) {
        ssize_t n = read(in->fd, in->buf + in->end, in->cap - in->end);
        if (waker && (n >= 0 || errno != EINTR)) {
            int err = errno;  /* (the function may change it) */
            in->wait_fn(in->wait_user);
            errno = err;
        }
        if (n > 0) {
            in->end += (size_t)n;
            return 1;
        }
        if (n == 0) {
            in->eof = true;
            return 0;
        }
        if (errno == EINTR) continue;
        io_error(in, "read failed", errno);
        return -1;
    }
}

/* The block another thread read ahead (this thread's while SIDE_READING),
 * as stream_read() would have read it.  The buffers trade places when the
 * bytes kept fit in front of the block (the block is not copied); else the
 * block is copied after them. */
static int stream_take(tw_input *in, size_t keep_from) {
    size_t n = in->side_n;
    if (!n) {
        if (in->side_err) {
            io_error(in, "read failed", in->side_err);
            return -1;
        }
        in->eof = true;
        return 0;
    }
    size_t kept = in->end - keep_from;
    if (kept <= SIDE_HEAD && in->cap > SIDE_HEAD) {
        in->base += keep_from;  /* the offset of the first byte kept */
        unsigned char *b = in->side;
        size_t at = SIDE_HEAD - kept, cap = in->side_cap;
        memcpy(b + at, in->buf + keep_from, kept);
        in->side = in->buf;
        in->side_cap = in->cap;
        in->buf = b;
        in->cap = cap;
        in->base -= at;  /* modulo 2^64 (see tw_input.base) */
        in->end = at + kept + n;
        if (in->side_cap > SIDE_HEAD + SIDE_BLOCK) {
            /* grown for a long line: not kept as well as the buffer in use
             * (tw_input_read_ahead() makes a new one of the usual size) */
            free(in->side);
            in->side = NULL;
            in->side_cap = 0;
        }
    } else {
        if (!stream_keep(in, keep_from, n)) return -1;
        memcpy(in->buf + in->end, in->side + SIDE_HEAD, n);
        in->end += n;
    }
    in->side_n = 0;
    if (in->side_end) in->eof = true;
    return 1;  /* an error after the bytes comes at the next call */
}

/* stream_fill() where another thread may read ahead: the block it read,
 * when there is one (or once it has read it), else read(2) here, the other
 * thread then reading nothing. */
static int stream_fill_shared(tw_input *in, size_t keep_from, size_t min_room) {
    pthread_mutex_lock(&in->ahead_mu);
    while (in->side_state == SIDE_FILLING) pthread_cond_wait(&in->side_cv, &in->ahead_mu);
    in->side_state = SIDE_READING;
    bool ahead = in->side_n || in->side_end || in->side_err;
    pthread_mutex_unlock(&in->ahead_mu);
    int r = ahead ? stream_take(in, keep_from) : stream_read(in, keep_from, min_room);
    pthread_mutex_lock(&in->ahead_mu);
    in->side_state = SIDE_IDLE;
    if (r <= 0) in->side_stop = true;  /* the end, or an error: no more ahead */
    pthread_mutex_unlock(&in->ahead_mu);
    return r;
}

/* Read more bytes into the window (as stream_read()).  A failure is
 * reported once, where it was met: every later call fails quietly. */
static int stream_fill(tw_input *in, size_t keep_from, size_t min_room) {
    if (in->eof) return 0;
    if (in->failed) return -1;
    int r = in->side_off ? stream_read(in, keep_from, min_room)
                         : stream_fill_shared(in, keep_from, min_room);
    if (r < 0) in->failed = true;
    return r;
}

void tw_input_set_wait(tw_input *in, tw_wait_fn fn, void *user) {
    in->wait_fn = fn;
    in->wait_user = user;
    in->wait_owner = pthread_self();
}

bool tw_input_read_ahead(tw_input *in) {
    if (in->mode != MODE_STREAM || in->side_off) return false;
    pthread_mutex_lock(&in->ahead_mu);
    bool go = in->side_state == SIDE_IDLE && !in->side_stop;
    size_t n = 0, room = 0;
    if (go) {  /* the side is no thread's: it may be looked at */
        n = in->side_n;
        /* the room for a block: what the side holds after its head (a
         * buffer of the reading thread's, once they traded places), at
         * most SIDE_BLOCK */
        room = in->side ? in->side_cap - SIDE_HEAD : SIDE_BLOCK;
        if (room > SIDE_BLOCK) room = SIDE_BLOCK;
        go = n < room;
    }
    if (go) in->side_state = SIDE_FILLING;
    pthread_mutex_unlock(&in->ahead_mu);
    if (!go) return false;
    /* the side is this thread's now */
    if (!in->side && (in->side = malloc(SIDE_HEAD + SIDE_BLOCK))) in->side_cap = SIDE_HEAD + SIDE_BLOCK;
    if (room - n > SIDE_STEP) room = n + SIDE_STEP;
    ssize_t got = 0;
    int err = 0;
    bool end = false, stop = !in->side; /* out of memory: the reading thread reads it */
    if (!stop) {
        /* only what is there already (poll() first): this thread must
         * never wait for the input, as it has events to take */
        struct pollfd pf = {.fd = in->fd, .events = POLLIN};
        int pr;
        while ((pr = poll(&pf, 1, 0)) < 0 && errno == EINTR) {
        }
        if (pr < 0) stop = true;  /* the reading thread reads it */
        if (pr > 0) {
            while ((got = read(in->fd, in->side + SIDE_HEAD + n, room - n)) < 0 &&
                   errno == EINTR) {
            }
            end = got == 0;
            /* an error after bytes read ahead waits for them to be taken */
            if (got < 0) err = errno;
        }
    }
    pthread_mutex_lock(&in->ahead_mu);
    in->side_state = SIDE_IDLE;
    if (got > 0) in->side_n = n + (size_t)got;
    in->side_end = end;
    in->side_err = err;
    if (stop || end || err) in->side_stop = true;
    pthread_cond_signal(&in->side_cv);
    pthread_mutex_unlock(&in->ahead_mu);
    return got > 0 || end || err;
}

static inline size_t stream_index(const tw_input *in) { return (size_t)(in->pos - in->base); }

/* ---- lines --------------------------------------------------------------- */

static void set_line(tw_input *in, tw_line *line, const unsigned char *s, size_t len,
                     bool eol) {
    if (len && s[len - 1] == '\r') len--;
    line->s = (const char *)s;
    line->len = len;
    line->no = ++in->lineno;
    line->offset = in->pos;
    line->eol = eol;
}

static void too_long(tw_input *in, uint64_t offset) {
    if (check_shrunk(in)) return; /* zeros where the file was cut: that is said */
    tw_loc loc = {.file = in->name, .kind = TW_LOC_TEXT, .line = in->lineno + 1,
                  .col = 1, .offset = offset};
    tw_report(in->diag, TW_R_LINE_TOO_LONG, &loc,
              "line is longer than %zu bytes; skipped", in->max_line);
    in->lineno++;
}

/* A line longer than the limit at the cursor: report it and skip to the
 * next LF, giving back the pages behind, so that memory stays bounded
 * whatever the line's length. */
static TW_NOINLINE void skip_long_mem(tw_input *in, size_t look) {
    too_long(in, in->pos);
    in->pos += look;
    while (in->pos < in->len) {
        release_behind(in);
        const unsigned char *s = in->data + in->pos;
        size_t avail = in->len - (size_t)in->pos;
        size_t step = avail < RELEASE_STEP ? avail : RELEASE_STEP;
        const unsigned char *nl = memchr(s, '\n', step);
        if (nl) {
            in->pos += (size_t)(nl - s) + 1;
            break;
        }
        in->pos += step;
    }
    release_behind(in);
}

static inline int getline_mem(tw_input *in, tw_line *line) {
    for (;;) {
        if (in->pos >= in->len) return check_end(in) ? -1 : 0;
        const unsigned char *s = in->data + in->pos;
        size_t avail = in->len - (size_t)in->pos;
        /* look no further than the longest line allowed */
        size_t look = avail <= in->max_line ? avail : in->max_line + 1;
        const unsigned char *nl = memchr(s, '\n', look);
        if (!nl && look < avail) {
            skip_long_mem(in, look);
            continue;
        }
        size_t len = nl ? (size_t)(nl - s) : avail;
        set_line(in, line, s, len, nl != NULL);
        in->pos += len + (nl != NULL);
        release_behind(in);
        return 1;
    }
}

static TW_NOINLINE int getline_stream(tw_input *in, tw_line *line) {
    size_t scanned = 0;  /* bytes after the cursor known to hold no LF */
    bool skipping = false;
    for (;;) {
        size_t at = stream_index(in);
        size_t avail = in->end - at;
        const unsigned char *s = in->buf + at;
        const unsigned char *nl =
            avail > scanned ? memchr(s + scanned, '\n', avail - scanned) : NULL;
        if (nl) {
            size_t len = (size_t)(nl - s);
            if (skipping || len > in->max_line) {
                if (!skipping) too_long(in, in->pos);
                in->pos += len + 1;
                skipping = false;
                scanned = 0;
                continue;
            }
            set_line(in, line, s, len, true);
            in->pos += len + 1;
            return 1;
        }
        scanned = avail;
        if (!skipping && avail > in->max_line) {
            too_long(in, in->pos);
            skipping = true;
        }
        if (skipping) {  /* drop what we have, keep looking for the LF */
            in->pos += avail;
            scanned = 0;
            at = stream_index(in);
        }
        if (in->eof) {
            if (avail == 0 || skipping) return 0;
            set_line(in, line, s, avail, false);
            in->pos += avail;
            return 1;
        }
        int r = stream_fill(in, at, STREAM_BLOCK / 2);
        if (r < 0) return -1;
    }
}

int tw_input_getline(tw_input *in, tw_line *line) {
    return in->mode == MODE_STREAM ? getline_stream(in, line) : getline_mem(in, line);
}

size_t tw_input_window(tw_input *in, const unsigned char **p) {
    size_t avail;
    if (in->mode == MODE_STREAM) {
        avail = in->end - stream_index(in);
        *p = avail ? in->buf + stream_index(in) : in->buf;  /* NULL before the first read */
    } else {
        if (check_shrunk(in)) return tw_input_window(in, p);
        *p = in->data + in->pos;
        avail = in->pos < in->len ? in->len - (size_t)in->pos : 0;
        if (!avail && check_end(in)) return tw_input_window(in, p);
    }
    return avail <= in->max_line ? avail : in->max_line + 1;
}

void tw_input_take_line(tw_input *in, size_t len, tw_line *line) {
    line->s = (const char *)(in->mode == MODE_STREAM ? in->buf + stream_index(in)
                                                     : in->data + in->pos);
    line->len = len;
    line->no = ++in->lineno;
    line->offset = in->pos;
    line->eol = true;
    in->pos += len + 1;
    release_behind(in);
}

/* ---- bytes --------------------------------------------------------------- */

int tw_input_peek(tw_input *in, size_t want, const unsigned char **p, size_t *got) {
    if (in->mode != MODE_STREAM) {
        size_t avail = in->pos < in->len ? in->len - (size_t)in->pos : 0;
        if (avail < want && check_end(in)) return -1;
        *p = in->data + in->pos;
        *got = avail < want ? avail : want;
        return 0;
    }
    while (in->end - stream_index(in) < want && !in->eof) {
        size_t at = stream_index(in);
        size_t room = want - (in->end - at);
        if (stream_fill(in, at, room < STREAM_BLOCK ? STREAM_BLOCK : room) < 0) return -1;
    }
    size_t avail = in->end - stream_index(in);
    *p = in->buf + stream_index(in);
    *got = avail < want ? avail : want;
    return 0;
}

void tw_input_skip(tw_input *in, size_t n) {
    in->pos += n;
    release_behind(in);
}

bool tw_input_skip_bom(tw_input *in) {
    const unsigned char *p;
    size_t got;
    if (in->pos != 0 || tw_input_peek(in, 3, &p, &got) != 0 || !tw_has_bom(p, got))
        return false;
    tw_input_skip(in, 3);
    return true;
}

size_t tw_input_head(tw_input *in, const unsigned char **p) {
    size_t got = 0;
    if (tw_input_peek(in, TW_HEAD_MAX, p, &got) != 0) {
        *p = (const unsigned char *)"";
        return 0;
    }
    return got;
}
