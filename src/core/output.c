/*
 * Buffered output with sticky error reporting, plus the number, JSON, CSV
 * and base64 emit helpers every writer uses.
 */
#define _DEFAULT_SOURCE /* realpath() */
#include <errno.h>
#include <limits.h>
#include <stdatomic.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tracewright/io.h"
#include "util.h"

#define OUT_BUF ((size_t)256 << 10)

static tw_output *new_output(int fd, const char *name, size_t cap) {
    tw_output *o = tw_calloc_lines(1, sizeof *o);
    if (!o) return NULL;
    o->buf = malloc(cap);
    o->name = strdup(name);
    if (!o->buf || !o->name) {
        free(o->buf);
        free(o->name);
        free(o);
        errno = ENOMEM;
        return NULL;
    }
    o->cap = cap;
    o->fd = fd;
    return o;
}

/* ---- temporary files, removed on a signal ---------------------------------- */

/* The temporary files and directories being written, for
 * tw_remove_temporaries(): slots a signal handler reads without a lock (a
 * path is stored complete before its slot is set, and freed after its slot
 * is cleared). */
#define TEMP_SLOTS 1024 /* a ctf output's stream files count too */
/* a directory's path is tagged in its lowest bit (malloc'ed: even) */
static _Atomic uintptr_t temp_slot[TEMP_SLOTS];

void tw_temporary_add(char *path, bool dir) {
    uintptr_t v = (uintptr_t)path | (dir ? 1u : 0u);
    for (size_t i = 0; i < TEMP_SLOTS; i++) {
        uintptr_t none = 0;
        if (atomic_compare_exchange_strong(&temp_slot[i], &none, v)) return;
    }
    /* more at once than the slots hold: that one is not removed on a signal */
}

void tw_temporary_drop(const char *path) {
    for (size_t i = 0; i < TEMP_SLOTS; i++) {
        uintptr_t v = atomic_load(&temp_slot[i]);
        if ((v & ~(uintptr_t)1) == (uintptr_t)path &&
            atomic_compare_exchange_strong(&temp_slot[i], &v, 0))
            return;
    }
}

void tw_remove_temporaries(void) {
    /* files first: a directory goes only once it is empty */
    for (uintptr_t pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < TEMP_SLOTS; i++) {
            uintptr_t v = atomic_load(&temp_slot[i]);
            if (!v || (v & 1) != pass) continue;
            const char *p = (const char *)(v & ~(uintptr_t)1);
            if (pass == 0) unlink(p);
            else rmdir(p);
        }
}

/* ---- opening ----------------------------------------------------------------- */

/* A temporary name beside `target` ("DIR/.NAME.XXXXXX", with `suffix`
 * instead of ".XXXXXX"'s dot when given), its last part cut to fit NAME_MAX;
 * malloc'ed, NULL (errno ENOMEM) when out of memory. */
char *tw_temporary_name(const char *target, bool hidden, const char *suffix) {
    size_t n = strlen(target), sl = strlen(suffix);
    const char *slash = strrchr(target, '/');
    size_t dirlen = slash ? (size_t)(slash - target) + 1 : 0, base = n - dirlen;
    size_t room = (size_t)NAME_MAX - sl - (hidden ? 1 : 0);
    if (base > room) base = room;  /* a name near the limit: the temporary is shorter */
    char *tmp = malloc(n + sl + 2);
    if (!tmp) {
        errno = ENOMEM;
        return NULL;
    }
    memcpy(tmp, target, dirlen);
    snprintf(tmp + dirlen, n + sl + 2 - dirlen, "%s%.*s%s", hidden ? "." : "", (int)base,
             target + dirlen, suffix);
    return tmp;
}

/* Write `target` (name: what the output is called) through a temporary file
 * beside it; `st` is the target's, or NULL when it does not exist yet. */
static tw_output *open_replacing(const char *target, const struct stat *st) {
    char *tmp = tw_temporary_name(target, true, ".XXXXXX");
    if (!tmp) return NULL;
    int fd = mkstemp(tmp);
    if (fd < 0) {
        int e = errno;
        free(tmp);
        errno = e;
        return NULL;
    }
    tw_temporary_add(tmp, false);
    mode_t mode;
    if (st) {
        mode = st->st_mode & 07777;
    } else {
        mode_t mask = umask(0);
        umask(mask);
        mode = 0666 & ~mask;
    }
    tw_output *o = new_output(fd, target, OUT_BUF);
    if (!o || fchmod(fd, mode) != 0) {
        int e = o ? errno : ENOMEM;
        close(fd);
        unlink(tmp);
        tw_temporary_drop(tmp);
        free(tmp);
        if (o) {
            free(o->buf);
            free(o->name);
            free(o);
        }
        errno = e;
        return NULL;
    }
    fcntl(fd, F_SETFD, FD_CLOEXEC);
    o->own_fd = true;
    o->tmp_path = tmp;
    return o;
}

tw_output *tw_output_open(const char *path) {
    if (!path || strcmp(path, "-") == 0) return tw_output_fd(STDOUT_FILENO, "<stdout>");
    struct stat st;
    bool exists = lstat(path, &st) == 0;
    if (exists && S_ISLNK(st.st_mode)) {
        /* a link to a regular file: that file is replaced as any other, the
         * link kept (written in place, its truncation would empty the file
         * before it is read when it is also an input) */
        struct stat t;
        char *real = stat(path, &t) == 0 && S_ISREG(t.st_mode) ? realpath(path, NULL) : NULL;
        if (real) {
            tw_output *o = open_replacing(real, &t);
            int e = errno;
            free(real);
            errno = e;
            return o;
        }
    }
    if (exists && !S_ISREG(st.st_mode)) {  /* device, pipe, dangling link: in place */
        int fd;
        do fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
        while (fd < 0 && errno == EINTR);
        if (fd < 0) return NULL;
        return tw_output_fd_owned(fd, path);
    }
    return open_replacing(path, exists ? &st : NULL);
}

tw_output *tw_output_fd(int fd, const char *name) { return new_output(fd, name, OUT_BUF); }

tw_output *tw_output_fd_owned(int fd, const char *name) {
    tw_output *o = new_output(fd, name, OUT_BUF);
    if (!o) {
        int e = errno;
        close(fd);
        errno = e;
        return NULL;
    }
    o->own_fd = true;
    return o;
}

tw_output *tw_output_mem(void) { return new_output(-1, "<memory>", 4096); }

const char *tw_output_mem_data(const tw_output *o, size_t *len) {
    *len = o->len;
    return (const char *)o->buf;
}


/* Write p[0..len) to the file, noting the first failure. */
static void write_all(tw_output *o, const unsigned char *p, size_t len) {
    size_t off = 0;
    while (off < len && !o->err) {
        ssize_t n = write(o->fd, p + off, len - off);
        if (n > 0) {
            off += (size_t)n;
        } else if (n < 0 && errno == EINTR) {
            continue;
        } else {
            o->err = n < 0 ? errno : EIO;
        }
    }
    o->flushed += off;
}

static void drain(tw_output *o) {
    write_all(o, o->buf, o->len);
    o->len = 0;
}

void tw_out_write_slow(tw_output *o, const void *p, size_t n) {
    const unsigned char *s = p;
    if (o->fd < 0) {  /* memory: grow */
        if (o->err) return;
        size_t need = o->len + n;
        if (need < o->len) {
            o->err = ENOMEM;
            return;
        }
        size_t cap = o->cap;
        while (cap < need) cap *= 2;
        unsigned char *nb = realloc(o->buf, cap);
        if (!nb) {
            o->err = ENOMEM;
            return;
        }
        o->buf = nb;
        o->cap = cap;
        memcpy(o->buf + o->len, s, n);
        o->len += n;
        return;
    }
    while (n) {
        if (o->err) {  /* after a failure, drop output quietly */
            o->len = 0;
            return;
        }
        if (o->len == 0 && o->cap && n >= o->cap) {  /* a whole buffer or more: no copy */
            size_t k = n - n % o->cap;
            write_all(o, s, k);
            s += k;
            n -= k;
            continue;
        }
        size_t room = o->cap - o->len;
        if (room == 0) {
            drain(o);
            continue;
        }
        size_t k = n < room ? n : room;
        memcpy(o->buf + o->len, s, k);
        o->len += k;
        s += k;
        n -= k;
    }
}

void *tw_out_space_slow(tw_output *o, size_t min, size_t *room) {
    if (o->cap - o->len < min) {
        if (o->fd >= 0) {
            drain(o);
        } else if (!o->err) {
            unsigned char *nb = o->cap <= SIZE_MAX / 2 ? realloc(o->buf, o->cap * 2) : NULL;
            if (nb) {
                o->buf = nb;
                o->cap *= 2;
            } else {
                o->err = ENOMEM;
            }
        }
    }
    if (o->err) {
        if (o->fd >= 0) o->len = 0;  /* a file drops output after a failure */
        return NULL;
    }
    *room = o->cap - o->len;
    return o->buf + o->len;
}

int tw_output_flush(tw_output *o) {
    if (o->fd >= 0) drain(o);
    return o->err;
}

static void free_output(tw_output *o) {
    free(o->buf);
    free(o->name);
    free(o->tmp_path);
    free(o);
}

int tw_output_close(tw_output *o) {
    if (!o) return 0;
    int err = tw_output_flush(o);
    if (o->own_fd && close(o->fd) != 0 && !err) err = errno;
    if (o->tmp_path) {
        if (!err && rename(o->tmp_path, o->name) != 0) err = errno;
        if (err) unlink(o->tmp_path);
        tw_temporary_drop(o->tmp_path);
    }
    free_output(o);
    return err;
}

void tw_output_abort(tw_output *o) {
    if (!o) return;
    if (o->own_fd) close(o->fd);
    if (o->tmp_path) {
        unlink(o->tmp_path);
        tw_temporary_drop(o->tmp_path);
    }
    free_output(o);
}

#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* The eight decimal digits of v < 10^8 as the bytes of a little-endian
 * word, most significant first, each 0-9 (not yet ASCII): the halves, the
 * hundreds and the tens are split in all lanes of the word at once. */
static inline uint64_t digits8(uint32_t v) {
    uint64_t x = v / 10000 | (uint64_t)(v % 10000) << 32;      /* 2 x 0..9999 */
    uint64_t h = (x * 10486) >> 20 & 0x0000007F0000007FULL;    /* each / 100 */
    x = (x - h * 100) << 16 | h;                                /* 4 x 0..99 */
    uint64_t t = (x * 103) >> 10 & 0x000F000F000F000FULL;      /* each / 10 */
    return (x - t * 10) << 8 | t;                               /* 8 x 0..9 */
}

#define ASCII8 0x3030303030303030ULL

/* v < 10^8 without leading zeros (8 bytes written). */
static inline char *put_upto8(char *p, uint32_t v) {
    uint64_t d = digits8(v);
    unsigned zeros = d ? (unsigned)__builtin_ctzll(d) / 8 : 7; /* leading '0's */
    uint64_t w = (d + ASCII8) >> (8 * zeros);
    memcpy(p, &w, 8);
    return p + 8 - zeros;
}

/* v < 10^8 in eight digits, leading zeros kept. */
static inline char *put8(char *p, uint32_t v) {
    uint64_t w = digits8(v) + ASCII8;
    memcpy(p, &w, 8);
    return p + 8;
}

char *tw_put_u64(char *p, uint64_t v) {
    const uint64_t e8 = 100000000;
    if (v < e8) return put_upto8(p, (uint32_t)v);
    uint64_t hi = v / e8;
    if (hi < e8) {
        p = put_upto8(p, (uint32_t)hi);
    } else { /* up to 20 digits: 4, 8 and 8 */
        p = put_upto8(p, (uint32_t)(hi / e8));
        p = put8(p, (uint32_t)(hi % e8));
    }
    return put8(p, (uint32_t)(v % e8));
}
#else
/* Decimal digits of v ending at `end`, two at a time; returns how many. */
static size_t fmt_u64(uint64_t v, char *end) {
    static const char pairs[201] =
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
        "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
        "8081828384858687888990919293949596979899";
    char *p = end;
    while (v > UINT32_MAX) {
        unsigned d = (unsigned)(v % 100);
        v /= 100;
        p -= 2;
        memcpy(p, pairs + 2 * d, 2);
    }
    uint32_t x = (uint32_t)v;  /* the rest in 32-bit arithmetic: cheaper */
    while (x >= 100) {
        unsigned d = x % 100;
        x /= 100;
        p -= 2;
        memcpy(p, pairs + 2 * d, 2);
    }
    if (x >= 10) {
        p -= 2;
        memcpy(p, pairs + 2 * x, 2);
    } else {
        *--p = (char)('0' + x);
    }
    return (size_t)(end - p);
}

static unsigned digits10(uint64_t v) {
    unsigned n = 1;
    for (; v >= 10000; v /= 10000) n += 4;
    return n + (v >= 10) + (v >= 100) + (v >= 1000);
}

char *tw_put_u64(char *p, uint64_t v) {
    unsigned n = digits10(v);
    fmt_u64(v, p + n);
    return p + n;
}
#endif

void tw_out_u64(tw_output *o, uint64_t v) {
    if (o->cap - o->len >= TW_U64_ROOM) {  /* straight into the buffer */
        char *b = (char *)o->buf + o->len;
        o->len += (size_t)(tw_put_u64(b, v) - b);
        return;
    }
    char tmp[TW_U64_ROOM];
    tw_out_write(o, tmp, (size_t)(tw_put_u64(tmp, v) - tmp));
}

void tw_out_i64(tw_output *o, int64_t v) {
    if (v < 0) {
        tw_out_putc(o, '-');
        tw_out_u64(o, 0 - (uint64_t)v);
    } else {
        tw_out_u64(o, (uint64_t)v);
    }
}

void tw_out_u64_pad(tw_output *o, uint64_t v, unsigned width) {
    char tmp[TW_U64_ROOM] = {0};  /* (copied whole below) */
    size_t n = (size_t)(tw_put_u64(tmp, v) - tmp), pad = n < width ? width - n : 0;
    if (pad <= 8 && o->cap - o->len >= 8 + sizeof tmp) {  /* the usual: in place */
        char *p = (char *)o->buf + o->len;
        memset(p, '0', 8);
        memcpy(p + pad, tmp, sizeof tmp);
        o->len += pad + n;
        return;
    }
    for (size_t k = n; k < width; k++) tw_out_putc(o, '0');
    tw_out_write(o, tmp, n);
}

void tw_out_printf(tw_output *o, const char *fmt, ...) {
    char small[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    if ((size_t)n < sizeof small) {
        tw_out_write(o, small, (size_t)n);
        return;
    }
    char *big = malloc((size_t)n + 1);
    if (!big) {
        o->err = ENOMEM;
        return;
    }
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    tw_out_write(o, big, (size_t)n);
    free(big);
}

/* ---- JSON ---------------------------------------------------------------- */

static inline bool json_needs_escape(unsigned c) {
    return c < 0x20 || c == '"' || c == '\\' || c == 0x7f;
}

/* The high bit of each of the eight bytes of v that is not plain ASCII for
 * JSON: below 0x20, '"', '\\', 0x7f, or with the high bit set. */
static inline uint64_t json_special8(uint64_t v) {
    const uint64_t ones = 0x0101010101010101ULL, high = 0x8080808080808080ULL;
    return ((v - ones * 0x20) | ((v ^ (ones * '"')) - ones) | ((v ^ (ones * '\\')) - ones) |
            ((v ^ (ones * 0x7f)) - ones) | v) &
           high;
}

/* Whether all n bytes are plain ASCII for JSON, eight at a time: the last
 * word overlaps the one before, and a string under eight bytes is read as
 * its first, middle and last bytes (or first and last four) padded with
 * spaces, so no byte outside it is read. */
static inline bool json_plain_ascii(const unsigned char *s, size_t n) {
    if (n >= 8) {
        uint64_t acc = 0;
        size_t i = 0;
        for (; i + 8 < n; i += 8) acc |= json_special8(tw_load64(s + i));
        return !(acc | json_special8(tw_load64(s + n - 8)));
    }
    uint64_t v = 0x2020202020202020ULL;
    if (n >= 4) {
        uint32_t a, b;
        memcpy(&a, s, 4);
        memcpy(&b, s + n - 4, 4);
        v = (uint64_t)a | (uint64_t)b << 32;
    } else if (n) {
        v = (v << 24) | (uint64_t)s[0] | (uint64_t)s[n / 2] << 8 | (uint64_t)s[n - 1] << 16;
    }
    return !json_special8(v);
}

bool tw_out_json_str(tw_output *o, const char *str, size_t len) {
    static const char hex[] = "0123456789abcdef";
    const unsigned char *s = (const unsigned char *)str;
    tw_out_putc(o, '"');
    if (json_plain_ascii(s, len)) { /* the usual case: the bytes as they are */
        tw_out_write(o, s, len);
        tw_out_putc(o, '"');
        return true;
    }
    bool valid = true;
    size_t run = 0;  /* start of the pending run of plain bytes */
    for (size_t i = 0; i < len;) {
        /* eight plain ASCII bytes at a time */
        while (len - i >= 8 && !json_special8(tw_load64(s + i))) i += 8;
        if (i >= len) break;
        unsigned c = s[i];
        if (c < 0x80) {
            if (!json_needs_escape(c)) {
                i++;
                continue;
            }
            tw_out_write(o, s + run, i - run);
            char esc[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
            switch (c) {
            case '"': tw_out_write(o, "\\\"", 2); break;
            case '\\': tw_out_write(o, "\\\\", 2); break;
            case '\b': tw_out_write(o, "\\b", 2); break;
            case '\f': tw_out_write(o, "\\f", 2); break;
            case '\n': tw_out_write(o, "\\n", 2); break;
            case '\r': tw_out_write(o, "\\r", 2); break;
            case '\t': tw_out_write(o, "\\t", 2); break;
            default: tw_out_write(o, esc, 6); break;
            }
            run = ++i;
            continue;
        }
        size_t k = tw_utf8_seq(s + i, len - i);
        if (k) {
            i += k;
            continue;
        }
        tw_out_write(o, s + run, i - run);
        tw_out_write(o, "\xEF\xBF\xBD", 3);  /* U+FFFD */
        valid = false;
        run = ++i;
    }
    tw_out_write(o, s + run, len - run);
    tw_out_putc(o, '"');
    return valid;
}

/* Nothing to escape and valid UTF-8: the JSON string is the bytes. */
static bool json_plain(const unsigned char *s, size_t n) {
    for (size_t i = 0; i < n;) {
        if (s[i] < 0x80) {
            if (json_needs_escape(s[i])) return false;
            i++;
        } else {
            size_t k = tw_utf8_seq(s + i, n - i);
            if (!k) return false;
            i += k;
        }
    }
    return true;
}

/* What a name is for JSON (remembered by its id); 0 when it cannot be
 * remembered (transient, or out of memory). */
static TW_NOINLINE unsigned name_kind_slow(tw_json_names *c, const tw_str *s) {
    if (tw_str_transient(s)) return 0;  /* seen once */
    if (s->id >= c->cap) {
        size_t n = c->cap ? c->cap : 256;
        while (n <= s->id) n *= 2;
        unsigned char *k = realloc(c->kind, n);
        if (!k) return 0;
        memset(k + c->cap, 0, n - c->cap);
        c->kind = k;
        c->cap = n;
    }
    if (!c->kind[s->id])
        c->kind[s->id] = json_plain((const unsigned char *)s->s, s->len) ? TW_JSON_PLAIN
                         : tw_utf8_valid(s->s, s->len)                  ? TW_JSON_ESCAPED
                                                                         : TW_JSON_INVALID;
    return c->kind[s->id];
}

static inline unsigned name_kind(tw_json_names *c, const tw_str *s) {
    return s->id < c->cap && c->kind[s->id] ? c->kind[s->id] : name_kind_slow(c, s);
}

bool tw_json_name_valid_slow(tw_json_names *c, const tw_str *s) {
    unsigned k = name_kind_slow(c, s);
    return k ? k != TW_JSON_INVALID : tw_utf8_valid(s->s, s->len);
}

bool tw_out_json_name_slow(tw_output *o, tw_json_names *c, const tw_str *s) {
    if (name_kind(c, s) != TW_JSON_PLAIN) return tw_out_json_str(o, s->s, s->len);
    tw_out_json_plain(o, s);
    return true;
}

bool tw_out_json_attr(tw_output *o, tw_json_names *c, const tw_attr *a) {
    return a->str ? tw_out_json_name(o, c, a->str) : tw_out_json_str(o, a->s, a->slen);
}

void tw_json_names_free(tw_json_names *c) {
    free(c->kind);
    c->kind = NULL;
    c->cap = 0;
}

/* ---- XML ----------------------------------------------------------------- */

bool tw_out_xml_str(tw_output *o, const char *str, size_t len) {
    const unsigned char *s = (const unsigned char *)str;
    bool valid = true;
    size_t run = 0;  /* start of the pending run of plain bytes */
    for (size_t i = 0; i < len;) {
        unsigned c = s[i];
        const char *esc = NULL;
        size_t k = 1;
        if (c < 0x80) {
            switch (c) {
            case '&': esc = "&amp;"; break;
            case '<': esc = "&lt;"; break;
            case '>': esc = "&gt;"; break;
            case '"': esc = "&quot;"; break;
            case '\'': esc = "&apos;"; break;
            case '\t': esc = "&#9;"; break;
            case '\n': esc = "&#10;"; break;
            case '\r': esc = "&#13;"; break;
            default:
                if (c < 0x20) esc = "\xEF\xBF\xBD";  /* not allowed in XML 1.0 */
            }
        } else {
            k = tw_utf8_seq(s + i, len - i);
            /* U+FFFE and U+FFFF are not XML characters either */
            if (!k || (k == 3 && c == 0xEF && s[i + 1] == 0xBF && s[i + 2] >= 0xBE)) {
                esc = "\xEF\xBF\xBD";
                k = k ? k : 1;
            }
        }
        if (!esc) {
            i += k;
            continue;
        }
        if (esc[0] != '&') valid = false;
        tw_out_write(o, s + run, i - run);
        tw_out_str(o, esc);
        i += k;
        run = i;
    }
    tw_out_write(o, s + run, len - run);
    return valid;
}

static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

void tw_out_base64(tw_output *o, const void *p, size_t len) {
    const unsigned char *s = p;
    size_t i = 0;
    for (; i + 3 <= len; i += 3) {
        uint32_t v = (uint32_t)s[i] << 16 | (uint32_t)s[i + 1] << 8 | s[i + 2];
        char q[4] = {b64[v >> 18], b64[(v >> 12) & 63], b64[(v >> 6) & 63], b64[v & 63]};
        tw_out_write(o, q, 4);
    }
    if (len - i == 1) {
        uint32_t v = (uint32_t)s[i] << 16;
        char q[4] = {b64[v >> 18], b64[(v >> 12) & 63], '=', '='};
        tw_out_write(o, q, 4);
    } else if (len - i == 2) {
        uint32_t v = (uint32_t)s[i] << 16 | (uint32_t)s[i + 1] << 8;
        char q[4] = {b64[v >> 18], b64[(v >> 12) & 63], b64[(v >> 6) & 63], '='};
        tw_out_write(o, q, 4);
    }
}

size_t tw_base64_decode(const char *s, size_t n, unsigned char *out) {
    while (n && s[n - 1] == '=') n--;
    if (n % 4 == 1) return (size_t)-1;
    size_t o = 0;
    uint32_t acc = 0;
    unsigned bits = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        int v;
        if (c >= 'A' && c <= 'Z') v = c - 'A';
        else if (c >= 'a' && c <= 'z') v = c - 'a' + 26;
        else if (c >= '0' && c <= '9') v = c - '0' + 52;
        else if (c == '+') v = 62;
        else if (c == '/') v = 63;
        else return (size_t)-1;
        acc = acc << 6 | (uint32_t)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out[o++] = (unsigned char)(acc >> bits);
        }
    }
    /* leftover bits must be zero for a canonical encoding */
    if (bits && (acc & ((1u << bits) - 1))) return (size_t)-1;
    return o;
}

/* Whether s[0..len) has a byte below `limit` (at most 0x80), or DEL when
 * `del`: eight bytes a step, the last word overlapping the one before, for
 * the usual name, which has none. */
static inline bool any_control(const char *s, size_t len, unsigned char limit, bool del) {
    const uint64_t k = TW_BYTES8(limit), one = TW_BYTES8(0x01), d7f = TW_BYTES8(0x7f),
                   high = TW_BYTES8(0x80);
    uint64_t found = 0;
    if (len >= 8) {
        for (size_t i = 0; i + 8 < len; i += 8) {
            uint64_t w = tw_load64(s + i), d = w ^ d7f;
            found |= (w - k) & ~w & high;
            if (del) found |= (d - one) & ~d & high;
        }
        uint64_t w = tw_load64(s + len - 8), d = w ^ d7f;
        found |= (w - k) & ~w & high;
        if (del) found |= (d - one) & ~d & high;
    } else {
        for (size_t i = 0; i < len; i++)
            found |= (unsigned char)s[i] < limit || (del && s[i] == 0x7f);
    }
    return found != 0;
}

bool tw_out_oneline(tw_output *o, const char *s, size_t len) {
    /* the usual name has no byte below 0x0e (so neither CR nor LF): written
     * whole; else byte by byte */
    if (!any_control(s, len, 0x0e, false)) {
        tw_out_write(o, s, len);
        return false;
    }
    size_t run = 0;
    bool replaced = false;
    for (size_t i = 0; i < len; i++) {
        if (s[i] == '\n' || s[i] == '\r') {
            tw_out_write(o, s + run, i - run);
            tw_out_putc(o, ' ');
            run = i + 1;
            replaced = true;
        }
    }
    tw_out_write(o, s + run, len - run);
    return replaced;
}

void tw_out_display(tw_output *o, const char *s, size_t len) {
    if (!any_control(s, len, 0x20, true)) {  /* the usual name: written whole */
        tw_out_write(o, s, len);
        return;
    }
    size_t run = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x20 || c == 0x7f) {
            tw_out_write(o, s + run, i - run);
            tw_out_putc(o, ' ');
            run = i + 1;
        }
    }
    tw_out_write(o, s + run, len - run);
}

/* ---- CSV ----------------------------------------------------------------- */

void tw_out_csv_field(tw_output *o, const char *s, size_t len) {
    bool quote = false;
    for (size_t i = 0; i < len && !quote; i++)
        quote = s[i] == ',' || s[i] == '"' || s[i] == '\n' || s[i] == '\r';
    if (!quote) {
        tw_out_write(o, s, len);
        return;
    }
    tw_out_putc(o, '"');
    size_t run = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] == '"') {
            tw_out_write(o, s + run, i + 1 - run);
            tw_out_putc(o, '"');
            run = i + 1;
        }
    }
    tw_out_write(o, s + run, len - run);
    tw_out_putc(o, '"');
}
