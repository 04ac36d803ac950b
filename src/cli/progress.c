/*
 * The progress line of the commands that read traces, on standard error:
 *
 *   tracewright: big.log: 1.2 GiB of 3.4 GiB (35%), 48.1 M events/s
 *
 * Nothing is shown in the first second of a source, so short runs never
 * show it; then it is redrawn at most four times a second, each time over
 * the last one ("\r"), and cleared at the end and before any diagnostic.
 * The event loop pays one decrement per event (cli_progress_tick() in
 * cli.h), or per run of events (cli_progress_ticks(), where the events
 * are fed a run at a time): the clock is read when the countdown runs
 * out, and the next countdown is sized from the event rate so that this
 * happens about 16 times a second.  Events that come slower than the
 * countdown (a slow pipe), or not at all for a while (a stalled one),
 * have the clock read as the source waits for them (tw_source_set_wait():
 * after every read of a pipe, and every quarter of a second of a wait).
 * Nothing here writes to standard output.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

#define NS_PER_S 1000000000ll
#define DELAY_NS NS_PER_S              /* nothing before a second has passed */
#define REDRAW_NS (NS_PER_S / 4)       /* then at most 4 lines a second */
#define CHECKS_PER_S 16                /* clock reads aimed at */
#define COUNTDOWN_FIRST 1024u          /* events before the first clock read */
#define COUNTDOWN_MIN 64u
#define COUNTDOWN_MAX 65536u
#define NAME_MAX_BYTES 1024            /* of the input name shown */
#define LINE_MAX_BYTES (NAME_MAX_BYTES + 256)

uint32_t cli_progress_countdown = UINT32_MAX;

static int64_t read_start;  /* of the last cli_progress_start(), for the summary */

static struct progress {
    const tw_source *src;  /* NULL: no progress line running */
    tw_output *sync;       /* flushed before the line is drawn, or NULL */
    bool term;             /* standard error is a terminal */
    bool esc;              /* ... that takes "\x1b[K" (TERM is not dumb) */
    bool shown;            /* the line is on the screen */
    size_t cols;           /* columns of the line shown */
    int64_t start, last_check, last_draw;
    uint64_t last_events;
} P;

static int64_t now_ns(void) {
    struct timespec ts;
    if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0) return 0;
    return (int64_t)ts.tv_sec * NS_PER_S + ts.tv_nsec;
}

bool cli_shares_stderr(int fd) {
    struct stat a, b;
    if (fd < 0 || fstat(fd, &a) != 0 || fstat(STDERR_FILENO, &b) != 0) return false;
    return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

/* The source's wait function (tw_source_set_wait()): the clock read, and
 * the line drawn when it is due, while the events do not come. */
static void on_wait(void *user) {
    (void)user;
    cli_progress_check();
}

void cli_progress_start(tw_source *src, int mode, tw_output *sync) {
    cli_progress_end();
    read_start = now_ns();
    bool term = isatty(STDERR_FILENO) != 0;
    if (!src || mode == CLI_PROGRESS_OFF || (mode != CLI_PROGRESS_ON && !term)) return;
    tw_source_set_wait(src, on_wait, NULL);
    const char *t = getenv("TERM");
    P.src = src;
    P.sync = sync && cli_shares_stderr(sync->fd) ? sync : NULL;
    P.term = term;
    P.esc = term && !(t && strcmp(t, "dumb") == 0);
    P.start = P.last_check = read_start;
    P.last_events = tw_source_event_count(src);
    cli_progress_countdown = COUNTDOWN_FIRST;
}

/* Write the whole buffer to standard error (unbuffered: one write). */
static void put_err(const char *s, size_t n) {
    if (fwrite(s, 1, n, stderr) != n) clearerr(stderr);
}

void cli_progress_clear(void) {
    if (!P.shown) return;
    static const char erase[] = "\r\x1b[K";
    if (P.esc) {
        put_err(erase, sizeof erase - 1);
    } else {
        char buf[LINE_MAX_BYTES + 2];
        size_t k = P.cols < LINE_MAX_BYTES ? P.cols : LINE_MAX_BYTES;
        buf[0] = '\r';
        memset(buf + 1, ' ', k);
        buf[k + 1] = '\r';
        put_err(buf, k + 2);
    }
    P.shown = false;
    P.cols = 0;
}

void cli_progress_end(void) {
    cli_progress_clear();
    memset(&P, 0, sizeof P);
    cli_progress_countdown = UINT32_MAX;
}

/* "512 B", "1.2 KiB", ..., "3.4 GiB" */
static void fmt_bytes(char *buf, size_t n, uint64_t v) {
    static const char *const units[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    if (v < 1024) {
        snprintf(buf, n, "%u B", (unsigned)v);
        return;
    }
    double d = (double)v / 1024.0;
    size_t u = 0;
    while (d >= 1023.95 && u + 1 < sizeof units / sizeof units[0]) {
        d /= 1024.0;
        u++;
    }
    snprintf(buf, n, "%.1f %s", d, units[u]);
}

/* "950 events/s", "12.3 k events/s", "48.1 M events/s", "1.2 G events/s" */
static void fmt_rate(char *buf, size_t n, double r) {
    if (r < 999.5) snprintf(buf, n, "%.0f events/s", r);
    else if (r < 999.95e3) snprintf(buf, n, "%.1f k events/s", r / 1e3);
    else if (r < 999.95e6) snprintf(buf, n, "%.1f M events/s", r / 1e6);
    else snprintf(buf, n, "%.1f G events/s", r / 1e9);
}

/* Columns of UTF-8 text: one per byte that does not continue a character. */
static size_t columns(const char *s, size_t n) {
    size_t c = 0;
    for (size_t i = 0; i < n; i++) c += ((unsigned char)s[i] & 0xC0) != 0x80;
    return c;
}

/* The name to show: the input's, or "N inputs"; control characters as '?'. */
static size_t source_name(const tw_source *src, char *buf, size_t n) {
    size_t count = tw_source_input_count(src);
    if (count != 1) {
        int k = snprintf(buf, n, "%zu inputs", count);
        return k < 0 ? 0 : (size_t)k < n ? (size_t)k : n - 1;
    }
    const char *s = tw_input_name(tw_source_input(src, 0));
    size_t len = 0;
    for (; s[len] && len + 1 < n; len++) {
        unsigned char c = (unsigned char)s[len];
        buf[len] = s[len];
        if (c < 0x20 || c == 0x7F) buf[len] = '?';
    }
    buf[len] = '\0';
    return len;
}

/* Width of standard error's terminal, or 80. */
static size_t width(void) {
#ifdef TIOCGWINSZ
    struct winsize ws;
    if (P.term && ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20)
        return ws.ws_col;
#endif
    return 80;
}

static void draw(int64_t t, uint64_t events) {
    /* what the command has written to the same place goes first */
    if (P.sync) (void)tw_output_flush(P.sync);
    uint64_t done = tw_source_bytes(P.src), total = 0;  /* safe beside a reading thread */
    bool known = true;
    for (size_t i = 0; i < tw_source_input_count(P.src); i++) {
        int64_t size = tw_input_size(tw_source_input(P.src, i));
        if (size < 0) known = false;
        else total += (uint64_t)size;
    }
    char a[32], r[40], body[160];
    fmt_bytes(a, sizeof a, done);
    double secs = (double)(t - P.start) / (double)NS_PER_S;
    fmt_rate(r, sizeof r, secs > 0 ? (double)events / secs : 0.0);
    if (known && total > 0) {
        char b[32];
        fmt_bytes(b, sizeof b, total);
        uint64_t pct = done >= total ? 100 : (uint64_t)((double)done * 100.0 / (double)total);
        snprintf(body, sizeof body, "%s of %s (%u%%), %s", a, b, (unsigned)pct, r);
    } else {
        snprintf(body, sizeof body, "%s read, %s", a, r);
    }
    char name[NAME_MAX_BYTES];
    size_t nlen = source_name(P.src, name, sizeof name);
    size_t skip = 0;
    /* the line fits in the terminal's width less one column: the name
     * loses its start (shown as "..."), or on a very narrow terminal is
     * left out */
    static const char pre[] = "tracewright: ";
    size_t fixed = (sizeof pre - 1) + 2 + strlen(body);
    size_t room = width() - 1;
    size_t ncols = columns(name, nlen);
    bool with_name = true, dots = false;
    if (fixed + ncols > room) {
        if (fixed + 4 <= room) {
            size_t keep = room - fixed - 3;  /* columns of the name's end */
            for (; skip < nlen && ncols > keep; skip++)
                if (((unsigned char)name[skip] & 0xC0) != 0x80) ncols--;
            while (skip < nlen && ((unsigned char)name[skip] & 0xC0) == 0x80) skip++;
            dots = true;
        } else {
            with_name = false;
        }
    }
    /* one write: "\r", the line, then what erases the rest of a longer
     * line before it */
    char line[2 * LINE_MAX_BYTES];
    int k;
    if (with_name)
        k = snprintf(line, sizeof line, "\r%s%s%.*s: %s", pre, dots ? "..." : "",
                     (int)(nlen - skip), name + skip, body);
    else
        k = snprintf(line, sizeof line, "\r%s%s", pre, body);
    if (k < 1) return;
    size_t n = (size_t)k < LINE_MAX_BYTES ? (size_t)k : LINE_MAX_BYTES - 1;
    size_t cols = columns(line + 1, n - 1);
    if (cols > room) {  /* a very narrow terminal: cut (the line is ASCII then) */
        n = room + 1;
        cols = room;
    }
    if (P.esc) {
        line[n++] = '\x1b';
        line[n++] = '[';
        line[n++] = 'K';
    } else if (P.shown && P.cols > cols) {
        size_t m = P.cols - cols < LINE_MAX_BYTES ? P.cols - cols : LINE_MAX_BYTES;
        memset(line + n, ' ', m);
        n += m;
    }
    put_err(line, n);
    P.shown = true;
    P.cols = cols;
    P.last_draw = t;
}

void cli_progress_check(void) {
    if (!P.src) {
        cli_progress_countdown = UINT32_MAX;
        return;
    }
    int64_t t = now_ns();
    uint64_t events = tw_source_event_count(P.src);
    /* the next countdown: about 1/CHECKS_PER_S seconds of events */
    uint64_t n = events - P.last_events, dt = t > P.last_check ? (uint64_t)(t - P.last_check) : 0;
    if (n > COUNTDOWN_MAX * 64ull) n = COUNTDOWN_MAX * 64ull;
    uint64_t next = dt ? n * (uint64_t)(NS_PER_S / CHECKS_PER_S) / dt : COUNTDOWN_MAX;
    cli_progress_countdown = next < COUNTDOWN_MIN   ? COUNTDOWN_MIN
                             : next > COUNTDOWN_MAX ? COUNTDOWN_MAX
                                                    : (uint32_t)next;
    P.last_check = t;
    P.last_events = events;
    if (t - P.start < DELAY_NS) return;
    if (P.last_draw && t - P.last_draw < REDRAW_NS) return;
    draw(t, events);
}

/* part of whole, as "37 %" (rounded down; "under 1 %" above 0), in buf (16 bytes). */
static const char *fmt_share(char *buf, uint64_t part, uint64_t whole) {
    unsigned pct = whole ? (unsigned)((double)part * 100 / (double)whole) : 0;
    if (pct > 100) pct = 100;
    snprintf(buf, 16, "%s%u %%", part && !pct ? "under " : "", part && !pct ? 1 : pct);
    return buf;
}

void cli_read_summary(const cli_reading *rd, const tw_source *src, const char *one_thread_why,
                      const char *writer) {
    if (!rd->verbose || !src) return;
    double secs = (double)(now_ns() - read_start) / (double)NS_PER_S;
    uint64_t bytes = tw_source_bytes(src), events = tw_source_event_count(src);
    char name[NAME_MAX_BYTES], size[32], speed[40], rate[40];
    source_name(src, name, sizeof name);
    fmt_bytes(size, sizeof size, bytes);
    fmt_bytes(speed, sizeof speed, secs > 0 ? (uint64_t)((double)bytes / secs) : 0);
    fmt_rate(rate, sizeof rate, secs > 0 ? (double)events / secs : 0.0);
    const char *one = one_thread_why ? one_thread_why : cli_one_thread_why(rd, src);
    /* with auto, one thread reads now and then, to compare, and reads on
     * while it is the faster */
    tw_source_reading how;
    tw_source_reading_info(src, &how);
    char part[128] = "";
    if (!one) {
        char kept[16], probed[16];
        fmt_share(kept, how.here, bytes);
        fmt_share(probed, how.probed, bytes);
        if (how.here && how.probed)
            snprintf(part, sizeof part,
                     " but for %s of the input, which one thread read faster (and %s to compare)",
                     kept, probed);
        else if (how.here)
            snprintf(part, sizeof part, " but for %s of the input, which one thread read faster",
                     kept);
        else if (how.probed)
            snprintf(part, sizeof part, " (one thread read %s of the input, to compare)", probed);
    }
    char also[64] = "";
    if (writer) snprintf(also, sizeof also, ", and the %s writer finished on two", writer);
    fprintf(stderr, "tracewright: %s: %s, %llu event%s in %.3f s (%s/s, %s); %s%s%s%s\n", name, size,
            (unsigned long long)events, events == 1 ? "" : "s", secs, speed, rate,
            one ? "one thread: " : "a second thread read ahead", one ? one : "", part, also);
}
