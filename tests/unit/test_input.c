/* Unit tests of the input layer: lines (CRLF, no final newline, limits) in
 * memory, mmap and stream mode; byte access; open errors; mapping ahead;
 * reading a stream ahead. */
#define _XOPEN_SOURCE 700 /* posix_openpt(), grantpt(), unlockpt(), ptsname() */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"

static const char TEXT[] = "first\r\nsecond\n\nfourth\r\nlast without newline";

static void check_lines(tw_input *in) {
    tw_line l;
    CHECK_EQ_I(tw_input_getline(in, &l), 1);
    CHECK_MEM(l.s, l.len, "first");
    CHECK_EQ_U(l.no, 1);
    CHECK_EQ_U(l.offset, 0);
    CHECK(l.eol);
    CHECK_EQ_I(l.s[l.len], '\r'); /* a line with eol is followed by its CR or LF */
    CHECK_EQ_I(tw_input_getline(in, &l), 1);
    CHECK_MEM(l.s, l.len, "second");
    CHECK_EQ_U(l.no, 2);
    CHECK_EQ_U(l.offset, 7);
    CHECK_EQ_I(l.s[l.len], '\n');
    CHECK_EQ_I(tw_input_getline(in, &l), 1);
    CHECK_EQ_U(l.len, 0);
    CHECK_EQ_U(l.no, 3);
    CHECK_EQ_I(l.s[l.len], '\n');
    CHECK_EQ_I(tw_input_getline(in, &l), 1);
    CHECK_MEM(l.s, l.len, "fourth");
    CHECK_EQ_I(tw_input_getline(in, &l), 1);
    CHECK_MEM(l.s, l.len, "last without newline");
    CHECK(!l.eol);
    CHECK_EQ_U(l.no, 5);
    CHECK_EQ_U(l.offset, 23);
    CHECK_EQ_I(tw_input_getline(in, &l), 0);
    CHECK_EQ_I(tw_input_getline(in, &l), 0);
}

void test_input_lines_mem(void) {
    tu_diags d;
    tu_diags_init(&d);
    tw_input *in;
    CHECK(tw_input_open_mem(TEXT, sizeof TEXT - 1, "mem", NULL, &d.sink, &in) == 0);
    CHECK_EQ_I(tw_input_size(in), (int64_t)sizeof TEXT - 1);
    CHECK_STR(tw_input_name(in), "mem");
    CHECK(tw_input_path(in) == NULL);
    const unsigned char *h;
    CHECK_EQ_U(tw_input_head(in, &h), sizeof TEXT - 1);
    check_lines(in);
    tw_input_close(in);
    /* the same through mmap */
    const char *path = tu_tempfile(0, ".txt", TEXT, sizeof TEXT - 1);
    CHECK(tw_input_open(path, NULL, &d.sink, &in) == 0);
    CHECK_STR(tw_input_path(in), path);
    check_lines(in);
    tw_input_close(in);
    unlink(path);
    CHECK_EQ_U(d.n, 0);
}

/* Standard input from a pipe, opened (its pipe then holds 1 MiB); *wr is
 * the pipe's other end, *saved the standard input to put back. */
static tw_input *open_pipe(tu_diags *d, int *wr, int *saved) {
    int p[2];
    CHECK(pipe(p) == 0);
    *saved = dup(0);
    dup2(p[0], 0);
    close(p[0]);
    *wr = p[1];
    tw_input *in = NULL;
    CHECK(tw_input_open("-", NULL, &d->sink, &in) == 0);
    return in;
}

static void close_pipe(tw_input *in, int wr, int saved) {
    tw_input_close(in);
    if (wr >= 0) close(wr);
    dup2(saved, 0);
    close(saved);
}

void test_input_lines_stream(void) {
    tu_diags d;
    tu_diags_init(&d);
    const char *path = tu_tempfile(0, ".txt", TEXT, sizeof TEXT - 1);
    tw_input_opts o = {.no_mmap = true};
    tw_input *in;
    CHECK(tw_input_open(path, &o, &d.sink, &in) == 0);
    const unsigned char *h;
    CHECK_EQ_U(tw_input_head(in, &h), sizeof TEXT - 1);
    CHECK_MEM(h, 5, "first");
    check_lines(in);
    tw_input_close(in);
    /* a line far longer than one read block, across block boundaries */
    size_t big = (3u << 20) + 17;
    char *text = malloc(big + 8);
    memset(text, 'y', big);
    memcpy(text + big, "\nend\n", 5);
    path = tu_tempfile(0, ".txt", text, big + 5);
    CHECK(tw_input_open(path, &o, &d.sink, &in) == 0);
    tw_line l;
    CHECK_EQ_I(tw_input_getline(in, &l), 1);
    CHECK_EQ_U(l.len, big);
    CHECK(l.s[0] == 'y' && l.s[big - 1] == 'y');
    CHECK_EQ_I(tw_input_getline(in, &l), 1);
    CHECK_MEM(l.s, l.len, "end");
    CHECK_EQ_U(l.offset, big + 1);
    CHECK_EQ_I(tw_input_getline(in, &l), 0);
    tw_input_close(in);
    /* standard input from a pipe */
    int wr, saved;
    in = open_pipe(&d, &wr, &saved);
    CHECK(write(wr, "a\nb", 3) == 3);
    close(wr);
    CHECK_STR(tw_input_name(in), "<stdin>");
    CHECK_EQ_I(tw_input_size(in), -1);
    CHECK_EQ_I(tw_input_getline(in, &l), 1);
    CHECK_MEM(l.s, l.len, "a");
    CHECK_EQ_I(tw_input_getline(in, &l), 1);
    CHECK_MEM(l.s, l.len, "b");
    CHECK_EQ_I(tw_input_getline(in, &l), 0);
    close_pipe(in, -1, saved);
    free(text);
    unlink(path);
    CHECK_EQ_U(d.n, 0);
}

/* Lines read in place (tw_input_window, tw_input_take_line) mixed with
 * tw_input_getline: the same line numbers and offsets as getline alone, in
 * memory, through mmap and as a stream; the window is capped at one byte
 * more than the longest line allowed. */
static void check_window(tw_input *in) {
    const unsigned char *w;
    size_t n = tw_input_window(in, &w);
    CHECK_EQ_U(n, 9);  /* "ab\ncdef\ngh" capped at max_line + 1 */
    CHECK_MEM(w, 3, "ab\n");
    tw_line l;
    tw_input_take_line(in, 2, &l);
    CHECK_MEM(l.s, l.len, "ab");
    CHECK_EQ_U(l.no, 1);
    CHECK_EQ_U(l.offset, 0);
    CHECK(l.eol);
    CHECK_EQ_U(tw_input_offset(in), 3);
    CHECK_EQ_I(tw_input_getline(in, &l), 1);  /* getline goes on after it */
    CHECK_MEM(l.s, l.len, "cdef");
    CHECK_EQ_U(l.no, 2);
    CHECK_EQ_U(l.offset, 3);
    n = tw_input_window(in, &w);
    CHECK_EQ_U(n, 6);  /* what is left: "gh\nij\n" */
    CHECK_MEM(w, n, "gh\nij\n");
    tw_input_take_line(in, 2, &l);
    CHECK_EQ_U(l.no, 3);
    CHECK_EQ_U(l.offset, 8);
    tw_input_take_line(in, 2, &l);  /* a second line from the same window */
    CHECK_MEM(l.s, l.len, "ij");
    CHECK_EQ_U(l.no, 4);
    CHECK_EQ_U(l.offset, 11);
    CHECK_EQ_U(tw_input_window(in, &w), 0);
    CHECK_EQ_I(tw_input_getline(in, &l), 0);
}

void test_input_window(void) {
    static const char text[] = "ab\ncdef\ngh\nij\n";
    tu_diags d;
    tu_diags_init(&d);
    tw_input_opts o = {.max_line = 8};
    tw_input *in;
    CHECK(tw_input_open_mem(text, sizeof text - 1, "mem", &o, &d.sink, &in) == 0);
    check_window(in);
    tw_input_close(in);
    const char *path = tu_tempfile(0, ".txt", text, sizeof text - 1);
    for (int stream = 0; stream < 2; stream++) {
        o.no_mmap = stream;
        CHECK(tw_input_open(path, &o, &d.sink, &in) == 0);
        if (stream) {  /* a stream shows what it has read: nothing before a read */
            const unsigned char *w;
            CHECK_EQ_U(tw_input_window(in, &w), 0);
            const unsigned char *h;
            CHECK_EQ_U(tw_input_head(in, &h), sizeof text - 1);
        }
        check_window(in);
        tw_input_close(in);
    }
    unlink(path);
    CHECK_EQ_U(d.n, 0);
}

void test_input_long_lines(void) {
    static const char text[] = "short\n0123456789abcdef\nok\n0123456789abcdefXX";
    tw_input_opts o = {.max_line = 12};
    for (int mode = 0; mode < 2; mode++) {
        tu_diags d;
        tu_diags_init(&d);
        tw_input *in;
        const char *path = NULL;
        if (mode == 0) {
            CHECK(tw_input_open_mem(text, sizeof text - 1, "m", &o, &d.sink, &in) == 0);
        } else {
            tw_input_opts so = {.max_line = 12, .no_mmap = true};
            path = tu_tempfile(1, ".txt", text, sizeof text - 1);
            CHECK(tw_input_open(path, &so, &d.sink, &in) == 0);
        }
        tw_line l;
        CHECK_EQ_I(tw_input_getline(in, &l), 1);
        CHECK_MEM(l.s, l.len, "short");
        CHECK_EQ_I(tw_input_getline(in, &l), 1);
        CHECK_MEM(l.s, l.len, "ok");
        CHECK_EQ_U(l.no, 3);
        CHECK_EQ_I(tw_input_getline(in, &l), 0);
        CHECK_EQ_U(d.n, 2);
        CHECK_STR(d.rule[0], "line-too-long");
        CHECK_EQ_U(d.line[0], 2);
        CHECK_EQ_U(d.line[1], 4);
        tw_input_close(in);
        if (path) unlink(path);
    }
}

void test_input_peek(void) {
    static const unsigned char bytes[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    for (int mode = 0; mode < 2; mode++) {
        tu_diags d;
        tu_diags_init(&d);
        tw_input *in;
        const char *path = tu_tempfile(2, ".bin", bytes, sizeof bytes);
        tw_input_opts o = {.no_mmap = mode == 1};
        CHECK(tw_input_open(path, &o, &d.sink, &in) == 0);
        const unsigned char *p;
        size_t got;
        CHECK(tw_input_peek(in, 4, &p, &got) == 0);
        CHECK_EQ_U(got, 4);
        CHECK(p[0] == 1 && p[3] == 4);
        tw_input_skip(in, 4);
        CHECK_EQ_U(tw_input_offset(in), 4);
        CHECK(tw_input_peek(in, 8, &p, &got) == 0);
        CHECK_EQ_U(got, 6); /* only six left */
        CHECK(p[0] == 5);
        tw_input_skip(in, 6);
        CHECK(tw_input_peek(in, 8, &p, &got) == 0);
        CHECK_EQ_U(got, 0);
        tw_input_close(in);
        unlink(path);
    }
}

void test_input_open_errors(void) {
    tu_diags d;
    tu_diags_init(&d);
    tw_input *in = NULL;
    CHECK(tw_input_open("/nonexistent/file.log", NULL, &d.sink, &in) == -1);
    CHECK(tw_input_open("/tmp", NULL, &d.sink, &in) == -1);
    CHECK_EQ_U(d.n, 2);
    CHECK_STR(d.rule[0], "io-error");
    CHECK_STR(d.msg[0], "cannot open '/nonexistent/file.log': No such file or directory");
    CHECK_STR(d.msg[1], "cannot read '/tmp': Is a directory");
    /* an empty file is fine and has no lines */
    const char *path = tu_tempfile(3, ".log", "", 0);
    CHECK(tw_input_open(path, NULL, &d.sink, &in) == 0);
    tw_line l;
    CHECK_EQ_I(tw_input_getline(in, &l), 0);
    CHECK_EQ_I(tw_input_size(in), -1); /* read like a pipe: size 0 may not mean empty */
    tw_input_close(in);
    unlink(path);
    /* files that claim size 0 but have contents (procfs) are read in full */
    if (tw_input_open("/proc/self/status", NULL, &d.sink, &in) == 0) {
        CHECK_EQ_I(tw_input_getline(in, &l), 1);
        CHECK(l.len > 5 && memcmp(l.s, "Name:", 5) == 0);
        tw_input_close(in);
    }
}

/* The resident size in KiB of the mapping of this process that holds
 * `addr`, from /proc/self/smaps (counted from the page tables: exact), or
 * -1 where there is none. */
static long mapped_kib(const void *addr) {
    FILE *f = fopen("/proc/self/smaps", "r");
    if (!f) return -1;
    char line[512];
    bool in = false;
    long kib = -1;
    while (fgets(line, sizeof line, f)) {
        unsigned long lo, hi;
        if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, '-') < strchr(line, ' ')) {
            in = (uintptr_t)addr >= lo && (uintptr_t)addr < hi;
        } else if (in && sscanf(line, "Rss: %ld kB", &kib) == 1) {
            break;
        }
    }
    fclose(f);
    return kib;
}

/* Whether this is Linux 5.14 or later, which maps ahead
 * (MADV_POPULATE_READ). */
static bool kernel_maps_ahead(void) {
#ifdef __linux__
    struct utsname u;
    int major = 0, minor = 0;
    if (uname(&u) != 0 || sscanf(u.release, "%d.%d", &major, &minor) != 2) return false;
    return major > 5 || (major == 5 && minor >= 14);
#else
    return false;
#endif
}

void test_input_map_ahead(void) {
    /* tw_input_map_ahead(), for a thread that waits for the reading one:
     * nothing to do for memory and streams; on a mapped file, one step of
     * 64 KiB per call, up to 512 KiB past the position given, each mapping
     * its pages (the mapping's resident size grows by them), then nothing
     * until the position moves on; never below what the reader has
     * released behind it, nor within 256 KiB above that */
    enum { LINE = 64, LINES = (16 << 20) / LINE };
    char *text = malloc((size_t)LINES * LINE);
    for (size_t i = 0; i < LINES; i++) {
        memset(text + i * LINE, 'a' + (int)(i % 26), LINE - 1);
        text[i * LINE + LINE - 1] = '\n';
    }
    tu_diags d;
    tu_diags_init(&d);
    tw_input *in;
    CHECK(tw_input_open_mem(text, (size_t)LINES * LINE, "mem", NULL, &d.sink, &in) == 0);
    CHECK(!tw_input_map_ahead(in, 0));
    tw_input_close(in);
    const char *path = tu_tempfile(0, ".txt", text, (size_t)LINES * LINE);
    tw_input_opts o = {.no_mmap = true};
    CHECK(tw_input_open(path, &o, &d.sink, &in) == 0);
    CHECK(!tw_input_map_ahead(in, 0));
    tw_input_close(in);
    CHECK(tw_input_open(path, NULL, &d.sink, &in) == 0);
    const unsigned char *w;
    CHECK(tw_input_window(in, &w) > 0);
    long before = mapped_kib(w);
    /* a system that cannot map ahead (Linux before 5.14, a sandbox that
     * refuses the advice, another system) says so at the first call, maps
     * nothing, and tries no more */
    bool can = tw_input_map_ahead(in, 0);
    CHECK(can || !kernel_maps_ahead());
    if (!can) {
        CHECK(!tw_input_map_ahead(in, 0));
        CHECK(!tw_input_map_ahead(in, 1u << 20));
        CHECK_EQ_I(mapped_kib(w), before);
    } else {
        /* from 256 KiB on: nothing within that of the release, the start */
        int steps = 1;
        while (steps < 100 && tw_input_map_ahead(in, 0)) steps++;
        CHECK_EQ_I(steps, 4);
        /* 256 KiB at least (a fault maps a whole folio of the page cache,
         * which can be larger) */
        CHECK(mapped_kib(w) - before >= 256);
        CHECK(!tw_input_map_ahead(in, 100));  /* 100 bytes on: no full step more */
        /* read 8 MiB: the reader releases behind it */
        tw_line l;
        for (size_t i = 0; i < LINES / 2; i++) CHECK_EQ_I(tw_input_getline(in, &l), 1);
        long read_half = mapped_kib(w);
        CHECK(read_half < 4096);  /* released behind the reader */
        CHECK(!tw_input_map_ahead(in, 0));  /* all of [0, 512 KiB) is released */
        CHECK(!tw_input_map_ahead(in, (4u << 20)));  /* and [4 MiB, 4.5 MiB) */
        CHECK_EQ_I(mapped_kib(w), read_half);
        steps = 0;
        while (steps < 100 && tw_input_map_ahead(in, tw_input_offset(in))) steps++;
        CHECK(steps >= 7 && steps <= 8);
        CHECK(mapped_kib(w) - read_half >= 384);
        /* the rest, read as before */
        size_t n = 0;
        while (tw_input_getline(in, &l) == 1)
            if (l.len == LINE - 1 && l.s[0] == 'a' + (int)((LINES / 2 + n) % 26)) n++;
        CHECK_EQ_U(n, LINES / 2);
        CHECK(mapped_kib(w) < 4096);
    }
    tw_input_close(in);
    unlink(path);
    free(text);
    CHECK_EQ_U(d.n, 0);
}

static void put(int fd, char c, size_t n) {
    char buf[4096];
    memset(buf, c, sizeof buf);
    while (n) {
        size_t k = n < sizeof buf ? n : sizeof buf;
        CHECK(write(fd, buf, k) == (ssize_t)k);
        n -= k;
    }
}

static void pause_ms(long ms) {
    struct timespec ts = {ms / 1000, ms % 1000 * 1000000L};
    nanosleep(&ts, NULL);
}

/* Writes `n` bytes of `c` into a pipe from a thread of its own, so that
 * the test does not rely on the pipe holding them all. */
typedef struct {
    int fd;
    char c;
    size_t n;
} filler;

static void *fill_pipe(void *arg) {
    filler *f = arg;
    put(f->fd, f->c, f->n);
    return NULL;
}

void test_input_read_ahead(void) {
    /* tw_input_read_ahead(), for a thread that waits for the reading one:
     * nothing to do for memory and mapped files; on a stream, what the
     * input holds already, 64 KiB a call, never waiting for more, which
     * the reader takes in place of its own read(2): the same lines, line
     * numbers and offsets as reading alone, whether the part line in front
     * of the block is short (the buffers trade places) or longer than the
     * 64 KiB of room in front of it (copied); the end of the input, and a
     * read error after bytes read ahead, where reading alone meets them */
    tu_diags d;
    tu_diags_init(&d);
    tw_input *in;
    CHECK(tw_input_open_mem(TEXT, sizeof TEXT - 1, "mem", NULL, &d.sink, &in) == 0);
    CHECK(!tw_input_read_ahead(in));
    tw_input_close(in);
    const char *path = tu_tempfile(0, ".txt", TEXT, sizeof TEXT - 1);
    CHECK(tw_input_open(path, NULL, &d.sink, &in) == 0);
    CHECK(!tw_input_read_ahead(in));
    tw_input_close(in);
    int wr, saved;
    in = open_pipe(&d, &wr, &saved);
    CHECK(!tw_input_read_ahead(in));  /* nothing there yet: does not wait */
    CHECK(write(wr, "alpha\nbe", 8) == 8);
    CHECK(tw_input_read_ahead(in));
    CHECK(!tw_input_read_ahead(in));  /* all of it read ahead */
    tw_line l;
    CHECK_EQ_I(tw_input_getline(in, &l), 1);
    CHECK_MEM(l.s, l.len, "alpha");
    CHECK_EQ_U(l.offset, 0);
    CHECK(write(wr, "ta\ngamma", 8) == 8);
    CHECK_EQ_I(tw_input_getline(in, &l), 1);  /* read by the reader itself */
    CHECK_MEM(l.s, l.len, "beta");
    CHECK_EQ_U(l.no, 2);
    CHECK_EQ_U(l.offset, 6);
    /* a block of 40001 bytes, "gamma" in front of it */
    CHECK(write(wr, "\n", 1) == 1);
    put(wr, 'x', 40000);
    CHECK(tw_input_read_ahead(in));
    CHECK(!tw_input_read_ahead(in));
    CHECK_EQ_I(tw_input_getline(in, &l), 1);
    CHECK_MEM(l.s, l.len, "gamma");
    CHECK_EQ_U(l.offset, 11);
    CHECK_EQ_U(tw_input_offset(in), 17);
    /* the end, read ahead: the last line without its LF */
    close(wr);
    wr = -1;
    CHECK(tw_input_read_ahead(in));
    CHECK(!tw_input_read_ahead(in));
    CHECK_EQ_I(tw_input_getline(in, &l), 1);
    CHECK_EQ_U(l.len, 40000);
    CHECK(!l.eol);
    CHECK(l.s[0] == 'x' && l.s[39999] == 'x');
    CHECK_EQ_U(l.no, 4);
    CHECK_EQ_U(l.offset, 17);
    CHECK_EQ_I(tw_input_getline(in, &l), 0);
    CHECK(!tw_input_read_ahead(in));
    close_pipe(in, wr, saved);
    /* a part line of 70000 bytes in front of the block: copied */
    in = open_pipe(&d, &wr, &saved);
    filler f = {wr, 'y', 70000};
    pthread_t ft;
    CHECK(pthread_create(&ft, NULL, fill_pipe, &f) == 0);
    const unsigned char *p;
    size_t got;
    CHECK(tw_input_peek(in, 70000, &p, &got) == 0);  /* read by the reader */
    CHECK_EQ_U(got, 70000);
    pthread_join(ft, NULL);
    CHECK(write(wr, "yyy\nz\n", 6) == 6);
    CHECK(tw_input_read_ahead(in));
    CHECK_EQ_I(tw_input_getline(in, &l), 1);
    CHECK_EQ_U(l.len, 70003);
    CHECK(l.eol && l.s[0] == 'y' && l.s[70002] == 'y');
    CHECK_EQ_I(tw_input_getline(in, &l), 1);
    CHECK_MEM(l.s, l.len, "z");
    CHECK_EQ_U(l.offset, 70004);
    close_pipe(in, wr, saved);
    CHECK_EQ_U(d.n, 0);
    /* a read error met reading ahead, after bytes read ahead (standard
     * input turned into a directory): the bytes, then the error, once */
    in = open_pipe(&d, &wr, &saved);
    CHECK(write(wr, "ok\npart", 7) == 7);
    CHECK(tw_input_read_ahead(in));
    int dir = open(".", O_RDONLY);
    CHECK(dir >= 0);
    dup2(dir, 0);
    close(dir);
    CHECK(tw_input_read_ahead(in));   /* the error */
    CHECK(!tw_input_read_ahead(in));  /* and no more */
    CHECK_EQ_I(tw_input_getline(in, &l), 1);
    CHECK_MEM(l.s, l.len, "ok");
    CHECK_EQ_U(d.n, 0);
    CHECK_EQ_I(tw_input_getline(in, &l), -1);
    CHECK_EQ_U(d.n, 1);
    CHECK_STR(d.rule[0], "io-error");
    CHECK(strstr(d.msg[0], "read failed") != NULL);
    /* asked again, the input fails again without a second report */
    CHECK_EQ_I(tw_input_getline(in, &l), -1);
    CHECK_EQ_I(tw_input_peek(in, 100, &p, &got), -1);  /* "part" and more */
    CHECK_EQ_U(d.n, 1);
    close_pipe(in, wr, saved);
    /* the same error met by the reading thread itself (nothing read
     * ahead): reported once, however often the input is asked */
    in = open_pipe(&d, &wr, &saved);
    CHECK(write(wr, "ok\npart", 7) == 7);
    CHECK_EQ_I(tw_input_getline(in, &l), 1);
    CHECK_MEM(l.s, l.len, "ok");
    dir = open(".", O_RDONLY);
    CHECK(dir >= 0);
    dup2(dir, 0);
    close(dir);
    CHECK_EQ_I(tw_input_getline(in, &l), -1);
    CHECK_EQ_I(tw_input_getline(in, &l), -1);
    CHECK_EQ_I(tw_input_peek(in, 100, &p, &got), -1);  /* "part" and more */
    CHECK_EQ_U(d.n, 2);
    CHECK_STR(d.rule[1], "io-error");
    close_pipe(in, wr, saved);
    unlink(path);
}

void test_input_read_ahead_terminal(void) {
    /* standard input a terminal: what was typed is read ahead, and the end
     * typed (^D); nothing after it is read (a terminal goes on after an
     * end, where a pipe does not) */
    int m = posix_openpt(O_RDWR | O_NOCTTY);
    if (m < 0) {
        printf("input_read_ahead_terminal: no pseudo-terminal here (%s); not run\n",
               strerror(errno));
        return;
    }
    CHECK(grantpt(m) == 0 && unlockpt(m) == 0);
    int t = open(ptsname(m), O_RDWR | O_NOCTTY);
    CHECK(t >= 0);
    int saved = dup(0);
    dup2(t, 0);
    tu_diags d;
    tu_diags_init(&d);
    tw_input *in;
    CHECK(tw_input_open("-", NULL, &d.sink, &in) == 0);
    CHECK(!tw_input_read_ahead(in));  /* nothing typed yet */
    CHECK(write(m, "typed\n\004", 7) == 7);
    int steps = 0;  /* the line, then the end (one read each) */
    for (int i = 0; i < 2000 && steps < 2; i++)
        if (tw_input_read_ahead(in)) steps++;
        else pause_ms(1);
    CHECK_EQ_I(steps, 2);
    CHECK(write(m, "after\n", 6) == 6);
    pause_ms(10);
    CHECK(!tw_input_read_ahead(in));
    tw_line l;
    CHECK_EQ_I(tw_input_getline(in, &l), 1);
    CHECK_MEM(l.s, l.len, "typed");
    CHECK_EQ_I(tw_input_getline(in, &l), 0);
    tw_input_close(in);
    char buf[16];
    ssize_t n = read(t, buf, sizeof buf);  /* still there, unread */
    CHECK_MEM(buf, n > 0 ? (size_t)n : 0, "after\n");
    dup2(saved, 0);
    close(saved);
    close(t);
    close(m);
    CHECK_EQ_U(d.n, 0);
}

/* Three threads on one pipe: a writer, a reader taking its lines, and a
 * thread reading ahead as the consumer of a pump does while it waits. */
typedef struct {
    tw_input *in;
    int wr;
    atomic_bool done;
    atomic_size_t ahead;  /* blocks read ahead */
} ahead_run;

enum { AHEAD_LINES = 20000 };

/* Line i: "i:" and i % 97 * 13 letters, one line in 2000 of 70000. */
static size_t ahead_line(size_t i, char *buf, size_t cap) {
    int k = snprintf(buf, cap, "%zu:", i);
    size_t n = i % 2000 == 1999 ? 70000 : i % 97 * 13;
    for (size_t j = 0; j < n; j++) buf[k + j] = (char)('a' + (i + j) % 26);
    return (size_t)k + n;
}

static void *ahead_writer(void *arg) {
    ahead_run *r = arg;
    static char buf[80000];
    for (size_t i = 0; i < AHEAD_LINES; i++) {
        size_t n = ahead_line(i, buf, sizeof buf);
        buf[n++] = '\n';
        for (size_t at = 0; at < n;) {
            ssize_t w = write(r->wr, buf + at, n - at);
            if (w <= 0) return NULL;
            at += (size_t)w;
        }
    }
    close(r->wr);
    return NULL;
}

static void *ahead_helper(void *arg) {
    ahead_run *r = arg;
    while (!atomic_load(&r->done))
        if (tw_input_read_ahead(r->in)) atomic_fetch_add(&r->ahead, 1);
    return NULL;
}

void test_input_read_ahead_threads(void) {
    /* the lines as written, in order, numbered, whoever read them from the
     * pipe; both the reader and the thread reading ahead read some */
    tu_diags d;
    tu_diags_init(&d);
    int saved;
    ahead_run r = {0};
    r.in = open_pipe(&d, &r.wr, &saved);
    atomic_init(&r.done, false);
    atomic_init(&r.ahead, 0);
    pthread_t wt, ht;
    CHECK(pthread_create(&wt, NULL, ahead_writer, &r) == 0);
    CHECK(pthread_create(&ht, NULL, ahead_helper, &r) == 0);
    /* the helper reads ahead before the reader starts, however the threads
     * are scheduled (on a busy machine the reader could otherwise take every
     * block itself); at most 10 s */
    for (int t = 0; t < 10000 && atomic_load(&r.ahead) == 0; t++) pause_ms(1);
    static char want[80000];
    tw_line l;
    size_t i = 0, bad = 0;
    uint64_t offset = 0;
    while (tw_input_getline(r.in, &l) == 1) {
        size_t n = ahead_line(i, want, sizeof want);
        if (l.len != n || memcmp(l.s, want, n) != 0 || l.no != i + 1 || l.offset != offset) bad++;
        offset += n + 1;
        i++;
    }
    atomic_store(&r.done, true);
    pthread_join(wt, NULL);
    pthread_join(ht, NULL);
    CHECK_EQ_U(i, AHEAD_LINES);
    CHECK_EQ_U(bad, 0);
    CHECK(atomic_load(&r.ahead) > 0);
    close_pipe(r.in, -1, saved);
    CHECK_EQ_U(d.n, 0);
}

/* tw_input_set_wait(): what the calls of the wait function were */
typedef struct {
    unsigned calls;
    pthread_t caller;
    bool other;  /* a call came on another thread than the setter's */
} waits;

static void on_wait(void *user) {
    waits *w = user;
    w->calls++;
    if (!pthread_equal(pthread_self(), w->caller)) w->other = true;
}

/* A pipe's writer: "a\n", a pause of 900 ms, "b\n", then the end. */
static void *slow_writer(void *arg) {
    int fd = *(int *)arg;
    CHECK(write(fd, "a\n", 2) == 2);
    pause_ms(900);
    CHECK(write(fd, "b\n", 2) == 2);
    close(fd);
    return NULL;
}

static void *getline_thread(void *arg) {
    tw_line l;
    CHECK_EQ_I(tw_input_getline(arg, &l), 1);
    return NULL;
}

void test_input_wait(void) {
    /* the wait function is called on the setter's thread after each read
     * of a pipe, and every TW_WAIT_TICK_MS (250) while it waits for bytes
     * (a 900 ms pause: 3 calls during it, 2 at least); never for another
     * thread's reads; never without one set; a memory block never waits */
    tu_diags d;
    tu_diags_init(&d);
    waits w = {0, pthread_self(), false};
    int wr, saved;
    tw_input *in = open_pipe(&d, &wr, &saved);
    tw_input_set_wait(in, on_wait, &w);
    pthread_t t;
    CHECK(pthread_create(&t, NULL, slow_writer, &wr) == 0);
    tw_line l;
    CHECK_EQ_I(tw_input_getline(in, &l), 1);
    CHECK_MEM(l.s, l.len, "a");
    unsigned after_a = w.calls;
    CHECK(after_a >= 1);  /* its read (and ticks if the writer was slow to start) */
    CHECK_EQ_I(tw_input_getline(in, &l), 1);
    CHECK_MEM(l.s, l.len, "b");
    CHECK(w.calls - after_a >= 3);  /* 2 or more ticks in 900 ms, and the read */
    CHECK_EQ_I(tw_input_getline(in, &l), 0);
    pthread_join(t, NULL);
    CHECK(!w.other);
    close_pipe(in, -1, saved);
    /* another thread's read: no call */
    w.calls = 0;
    in = open_pipe(&d, &wr, &saved);
    tw_input_set_wait(in, on_wait, &w);
    CHECK(write(wr, "c\n", 2) == 2);
    CHECK(pthread_create(&t, NULL, getline_thread, in) == 0);
    pthread_join(t, NULL);
    CHECK_EQ_U(w.calls, 0);
    /* and unset: none either */
    tw_input_set_wait(in, NULL, NULL);
    CHECK(write(wr, "d\n", 2) == 2);
    CHECK_EQ_I(tw_input_getline(in, &l), 1);
    CHECK_MEM(l.s, l.len, "d");
    CHECK_EQ_U(w.calls, 0);
    close_pipe(in, wr, saved);
    /* a memory block */
    CHECK(tw_input_open_mem(TEXT, sizeof TEXT - 1, "mem", NULL, &d.sink, &in) == 0);
    tw_input_set_wait(in, on_wait, &w);
    while (tw_input_getline(in, &l) == 1) {
    }
    CHECK_EQ_U(w.calls, 0);
    tw_input_close(in);
    CHECK_EQ_U(d.n, 0);
}

/* A mapped file cut by another program while it is read: with the guard,
 * no SIGBUS, but an io-error saying so, and the input ends soon after the
 * cut (getline and peek give the end, or -1); what was read before the cut
 * is intact.  Without the guard this ends the process. */
void test_input_truncated(void) {
    /* valgrind does not make again, as the machine does, an access that the
     * SIGBUS handler mended (it resumes with registers of its own) */
    if (tu_under_valgrind()) return;
    CHECK_EQ_I(tw_input_guard_truncation(), 0);
    enum { LINES = 100000, W = 32 };
    size_t len = (size_t)LINES * W;
    char *text = malloc(len + 1);
    CHECK(text != NULL);
    if (!text) return;
    for (size_t i = 0; i < LINES; i++) snprintf(text + i * W, W + 1, "%0*zu\n", W - 1, i);
    for (int binary = 0; binary < 2; binary++) {
        const char *path = tu_tempfile(0, ".txt", text, len);
        CHECK(path != NULL);
        if (!path) break;
        tu_diags d;
        tu_diags_init(&d);
        tw_input *in;
        CHECK(tw_input_open(path, NULL, &d.sink, &in) == 0);
        if (!in) break;
        size_t n = 0;
        volatile unsigned sum = 0; /* the bytes are read: that is where the fault comes */
        bool intact = true;
        /* read a tenth, cut the file to 64 KiB (2048 records), read on */
        for (bool cut = false;; n++) {
            if (n == LINES / 10 && !cut) {
                CHECK_EQ_I(truncate(path, 65536), 0);
                cut = true;
            }
            const unsigned char *p;
            size_t got = 0;
            tw_line l;
            if (binary) {
                if (tw_input_peek(in, W, &p, &got) != 0 || got < W) break;
                for (size_t k = 0; k < W; k++) sum += p[k];
                if (n < LINES / 10) intact &= memcmp(p, text + n * W, W) == 0;
                tw_input_skip(in, W);
            } else {
                if (tw_input_getline(in, &l) != 1) break;
                if (l.len) sum += (unsigned char)l.s[0];
                if (n < LINES / 10) intact &= l.len == W - 1 && memcmp(l.s, text + n * W, W - 1) == 0;
            }
        }
        CHECK(intact);
        /* it stopped soon after the cut: within the 1 MiB read as zeros
         * before the input looks again */
        CHECK(n >= LINES / 10 && n < LINES / 2);
        int k = tu_diag_find(&d, "io-error");
        CHECK(k >= 0);
        if (k >= 0)
            CHECK(strstr(d.msg[k], "the file was truncated to 65536 bytes by another program "
                                   "while it was read") != NULL);
        tw_input_close(in);
        unlink(path);
    }
    free(text);
}

/* A cut within the file's last page faults nowhere (the kernel fills the
 * rest of the page with zeros): the input looks at the file's size at its
 * end and reports the cut all the same. */
void test_input_truncated_last_page(void) {
    /* valgrind does not make again, as the machine does, an access that the
     * SIGBUS handler mended (it resumes with registers of its own) */
    if (tu_under_valgrind()) return;
    CHECK_EQ_I(tw_input_guard_truncation(), 0);
    char text[6150];
    for (size_t i = 0; i < sizeof text; i++) text[i] = i % 50 == 49 ? '\n' : 'x';
    const char *path = tu_tempfile(1, ".txt", text, sizeof text);
    CHECK(path != NULL);
    if (!path) return;
    tu_diags d;
    tu_diags_init(&d);
    tw_input *in;
    CHECK(tw_input_open(path, NULL, &d.sink, &in) == 0);
    if (!in) return;
    tw_line l;
    CHECK_EQ_I(tw_input_getline(in, &l), 1);
    CHECK_EQ_I(truncate(path, 5000), 0);
    int rc;
    size_t n = 1;
    while ((rc = tw_input_getline(in, &l)) == 1) n++;
    CHECK_EQ_I(rc, -1);
    CHECK(n <= 123); /* 100 lines were left, and 1150 zeros read as one more */
    int k = tu_diag_find(&d, "io-error");
    CHECK(k >= 0);
    if (k >= 0)
        CHECK_STR(d.msg[k], "the file was truncated to 5000 bytes by another program while it was "
                            "read; its bytes from 5000 on were gone (read as zeros), and reading "
                            "stopped");
    tw_input_close(in);
    unlink(path);
}
