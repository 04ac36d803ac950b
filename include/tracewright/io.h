/*
 * tracewright/io.h - input and output.
 *
 * tw_input reads a file (memory-mapped when it is a regular file), a pipe or
 * standard input (buffered reads), or a memory block.  It hands out lines
 * (LF or CRLF, the last one may lack its newline) or raw bytes, and keeps
 * track of byte offsets and line numbers.
 *
 * tw_output is a buffered writer over a file descriptor or a growable memory
 * block.  It remembers the first write error; tw_output_close() returns it.
 * It also carries the JSON and CSV emit helpers used by writers and reports.
 */
#ifndef TRACEWRIGHT_IO_H
#define TRACEWRIGHT_IO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "diag.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Input                                                                     */
/* ------------------------------------------------------------------------ */

typedef struct tw_input tw_input;

/* How many bytes tw_input_head() shows to format probes. */
#define TW_HEAD_MAX 4096

/* Default longest line accepted, in bytes (see tw_input_opts.max_line). */
#define TW_DEFAULT_MAX_LINE ((size_t)64 << 20)

typedef struct tw_input_opts {
    size_t max_line;  /* longest line in bytes; 0 = TW_DEFAULT_MAX_LINE */
    bool no_mmap;     /* read regular files with read(2) too */
} tw_input_opts;

/*
 * Open `path` ("-" = standard input).  Problems (missing file, directory,
 * permission) are reported to `diag` with rule io-error; the result is then
 * -1.  `opts` may be NULL.  The sink must outlive the input.
 */
int tw_input_open(const char *path, const tw_input_opts *opts,
                  tw_diag_sink *diag, tw_input **out);
/* Read from a memory block (not copied; must outlive the input). */
int tw_input_open_mem(const void *data, size_t len, const char *name,
                      const tw_input_opts *opts, tw_diag_sink *diag,
                      tw_input **out);
void tw_input_close(tw_input *in);
/*
 * For a program that reads files that another program may truncate while
 * they are read (a log rotated with copytruncate): a regular file is read
 * through a memory map, and an access beyond the end of a file that shrank
 * raises SIGBUS.  This installs a SIGBUS handler that maps zeros over the
 * rest of the input instead; the input then reports io-error ("the file
 * was truncated to N bytes by another program while it was read") and ends
 * there.  At its end a mapped input looks at the file's size again, which
 * tells a cut within the last page (that one faults nowhere).  A SIGBUS of
 * anything else ends the process as before.  Call it once, before inputs
 * are opened.  Returns 0, or -1 (errno) when the handler cannot be set.
 */
int tw_input_guard_truncation(void);

/* The display name of standard input. */
#define TW_STDIN_NAME "<stdin>"
/* Display name used in diagnostics: the path, or TW_STDIN_NAME. */
const char *tw_input_name(const tw_input *in);
/* The path as given, or NULL for standard input and memory blocks. */
const char *tw_input_path(const tw_input *in);
/* Total size in bytes when known (regular files, memory), else -1. */
int64_t tw_input_size(const tw_input *in);

/*
 * The first bytes of the input (at most TW_HEAD_MAX) without consuming
 * them.  Call before reading anything.  Returns the number of bytes.
 */
size_t tw_input_head(tw_input *in, const unsigned char **p);

typedef struct tw_line {
    const char *s;    /* the line without its LF / CRLF */
    size_t len;
    uint64_t no;      /* 1-based line number */
    uint64_t offset;  /* byte offset of the first byte of the line */
    bool eol;         /* the line ended with a newline; s[len] is then its CR
                       * or LF (readers may scan up to it) */
} tw_line;

/*
 * The next line: 1 = got one, 0 = end of input, -1 = read error (reported).
 * A line longer than the limit is reported (line-too-long) and skipped.
 * The line stays valid until the next call on this input.
 */
int tw_input_getline(tw_input *in, tw_line *line);

/*
 * Lines read in place, for a reader's commonest line.  tw_input_window()
 * shows the bytes after the cursor that are in memory already (it reads
 * none), at most one more than the longest line allowed: a line found in
 * them that ends in an LF is one tw_input_getline() would return whole.
 * tw_input_take_line() then consumes such a line of `len` bytes (not
 * counting its LF; it must not end in a CR) and its LF, and sets *line as
 * tw_input_getline() would have.  Nothing is consumed until it is called.
 * A window stays valid until the next call on the input other than
 * tw_input_take_line(); what is left of it after the lines taken is a
 * window too.
 */
size_t tw_input_window(tw_input *in, const unsigned char **p);
void tw_input_take_line(tw_input *in, size_t len, tw_line *line);

/*
 * Binary access: make up to `want` bytes at the current position available
 * at *p and set *got (fewer than `want` only at the end of the input).
 * Returns 0, or -1 on a read error (reported).  `want` may not exceed
 * 1 MiB for pipes.  The bytes stay valid until the next call.
 */
int tw_input_peek(tw_input *in, size_t want, const unsigned char **p,
                  size_t *got);
/* Consume `n` bytes previously made available by tw_input_peek(). */
void tw_input_skip(tw_input *in, size_t n);
/* At the start of the input, consume a UTF-8 byte order mark (EF BB BF)
 * if there is one, as a text reader does before its first line (which
 * then starts at offset 3, its columns counted after the mark); true when
 * there was one. */
bool tw_input_skip_bom(tw_input *in);
/* Byte offset of the current position. */
uint64_t tw_input_offset(const tw_input *in);
/*
 * For a thread other than the one reading, while it has nothing else to
 * do: map one more step of a mapped file's pages at or past offset `pos`
 * (where the reading thread is, or a little behind it), up to 512 KiB past
 * it, 64 KiB at a time, so that the reading thread finds them mapped and
 * spends no time in page faults.  Pages the reading thread has released are
 * never mapped again (none within 256 KiB above them is mapped here, so
 * that what the kernel maps around a fault stays above them too).  True
 * when it mapped a step (there may be more to do); false when there is
 * nothing to do, the input is not a mapped file, or the system cannot do
 * it (Linux before 5.14, other systems).
 */
bool tw_input_map_ahead(tw_input *in, uint64_t pos);
/*
 * The same for a pipe, a terminal or a socket (or a file read as one): for
 * a thread other than the one reading, while it has nothing else to do,
 * read the block that comes next (up to 1 MiB, only what the input holds
 * already: it never waits) into a buffer of its own, which the reading
 * thread takes in place of its own read(2) when it has used what it has;
 * its buffer then serves for the next block.  The bytes and diagnostics
 * are those of reading on one thread.  True when it read a block (or met
 * the end); false when there is nothing to do: a block is waiting to be
 * taken, nothing is there yet, the input has ended, or it is not a stream.
 */
bool tw_input_read_ahead(tw_input *in);

/*
 * Something to do while the input waits for the bytes of a stream (a pipe
 * whose writer is slow or stalled), such as redrawing a progress line: on
 * the thread that set it only, fn(user) is called after every read(2) of
 * a stream (a pipe, a terminal, a socket, a file read without mmap) that
 * fills the input's window, and every TW_WAIT_TICK_MS while one waits for
 * its bytes (not for tw_input_read_ahead(), which never waits).  fn must
 * not use the input (errno is kept for it).  NULL (the default): nothing,
 * and a read waits without waking.  A mapped file or a memory block never
 * calls it.  Set it before another thread reads the input.
 */
#define TW_WAIT_TICK_MS 250
typedef void (*tw_wait_fn)(void *user);
void tw_input_set_wait(tw_input *in, tw_wait_fn fn, void *user);

/* ------------------------------------------------------------------------ */
/* Output                                                                    */
/* ------------------------------------------------------------------------ */

typedef struct tw_output {
    unsigned char *buf;
    size_t len, cap;
    int fd;          /* -1 for a memory output */
    int err;         /* errno of the first failure, 0 if none */
    bool own_fd;
    uint64_t flushed;
    char *name;
    char *tmp_path;  /* a regular file is written here, then renamed to name */
} tw_output;

/*
 * Open `path` for writing ("-" or NULL = standard output).  A regular file
 * (new or existing) is written to a temporary file in the same directory
 * that tw_output_close() renames over `path` only when everything was
 * written, keeping an existing file's permissions; until then `path` is
 * untouched.  A symbolic link to a regular file replaces that file so
 * (the link stays); other files (devices, pipes, a link to nothing) are
 * written directly.  Returns NULL with errno set on failure.
 */
tw_output *tw_output_open(const char *path);
/* Remove the temporary files and directories of the outputs being written
 * (what tw_output_open() and tw_outdir_open() write before they are put in
 * place), for a program that ends on a signal: only unlink() and rmdir(),
 * so that a signal handler may call it.  The outputs must not be used
 * after it. */
void tw_remove_temporaries(void);
/* Buffered writer over an existing descriptor (not closed at the end). */
tw_output *tw_output_fd(int fd, const char *name);
/* The same, owning the descriptor: closed by tw_output_close(), and at
 * once when NULL is returned (errno set). */
tw_output *tw_output_fd_owned(int fd, const char *name);
/* Writer into a growable memory block; see tw_output_mem_data(). */
tw_output *tw_output_mem(void);
const char *tw_output_mem_data(const tw_output *out, size_t *len);

/*
 * An output directory, for formats that write several files (CTF).  It is
 * built in a new temporary directory next to `path` and put in place by
 * tw_outdir_commit(); until then `path` is untouched.  `path` may not exist
 * yet, be an empty directory, or be an earlier output of the same writer,
 * which is then replaced: only regular files, the `marker` file starting
 * with `signature` and the others named with `prefix`.  Anything else is
 * refused so that no one's data is lost.  NULL with errno set on failure
 * (EEXIST: `path` is something else).
 */
typedef struct tw_outdir tw_outdir;
typedef struct tw_outdir_spec {
    const char *marker;     /* "metadata" */
    const char *signature;  /* how the marker file starts; NULL: any */
    const char *prefix;     /* of the other files: "stream-" */
} tw_outdir_spec;
tw_outdir *tw_outdir_open(const char *path, const tw_outdir_spec *spec);
/* A new file `name` in the directory, written through a tw_output that the
 * caller closes with tw_output_close(); NULL with errno set on failure. */
tw_output *tw_outdir_create(tw_outdir *dir, const char *name);
/* Open an existing file of the directory to append to it (same ownership). */
tw_output *tw_outdir_append(tw_outdir *dir, const char *name);
/* The directory's final path. */
const char *tw_outdir_path(const tw_outdir *dir);
/* Put the directory in place (replacing an earlier output) and free it;
 * returns 0 or an errno (everything written is then removed). */
int tw_outdir_commit(tw_outdir *dir);
/* Remove everything written and free; `path` keeps what it had. */
void tw_outdir_abort(tw_outdir *dir);

/* Flush buffered bytes; returns 0 or the errno of the first failure. */
int tw_output_flush(tw_output *out);
/* Flush, close, put a temporary file in place, and free; returns 0 or the
 * errno of the first failure (the temporary file is then removed). */
int tw_output_close(tw_output *out);
/* Give up: close and free, removing a temporary file, so that the path
 * given to tw_output_open() keeps what it had. */
void tw_output_abort(tw_output *out);

void tw_out_write_slow(tw_output *out, const void *p, size_t n);
/* The free end of the buffer, for a caller that reads straight into it
 * (at least `min` bytes, min <= 4096; `*room` gets how many), then
 * tw_out_commit() with what it put there.  NULL after a failure. */
void *tw_out_space_slow(tw_output *out, size_t min, size_t *room);
static inline void *tw_out_space(tw_output *out, size_t min, size_t *room) {
    if (out->cap - out->len >= min && !out->err) {
        *room = out->cap - out->len;
        return out->buf + out->len;
    }
    return tw_out_space_slow(out, min, room);
}
static inline void tw_out_commit(tw_output *out, size_t n) { out->len += n; }

static inline void tw_out_write(tw_output *out, const void *p, size_t n) {
    if (out->cap - out->len >= n) {
        memcpy(out->buf + out->len, p, n);
        out->len += n;
    } else {
        tw_out_write_slow(out, p, n);
    }
}
static inline void tw_out_putc(tw_output *out, char c) {
    if (out->len < out->cap) out->buf[out->len++] = (unsigned char)c;
    else tw_out_write_slow(out, &c, 1);
}
static inline void tw_out_str(tw_output *out, const char *s) {
    tw_out_write(out, s, strlen(s));  /* inline: a literal's length is known */
}
void tw_out_u64(tw_output *out, uint64_t v);
void tw_out_i64(tw_output *out, int64_t v);
/* Decimal, zero-padded to at least `width` digits. */
void tw_out_u64_pad(tw_output *out, uint64_t v, unsigned width);
void tw_out_printf(tw_output *out, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/*
 * A JSON string literal (with quotes).  Control characters are escaped,
 * other UTF-8 is written as is; each byte that is not part of valid UTF-8
 * is written as U+FFFD.  Returns false when such bytes were replaced.
 */
bool tw_out_json_str(tw_output *out, const char *s, size_t len);
/*
 * Text for an XML attribute value or element (without quotes): markup
 * characters become entities, tab/LF/CR character references; control
 * characters XML 1.0 cannot hold and bytes that are not valid UTF-8 become
 * U+FFFD.  Returns false when anything was replaced.
 */
bool tw_out_xml_str(tw_output *out, const char *s, size_t len);
/* Text for a line-oriented format: CR and LF are written as spaces.
 * Returns true when any were replaced. */
bool tw_out_oneline(tw_output *out, const char *s, size_t len);
/* Text for a table on a terminal: every control character (below 0x20,
 * and DEL) is written as a space, so that a name can neither break a row
 * nor send an escape sequence to the terminal. */
void tw_out_display(tw_output *out, const char *s, size_t len);
/* Base64 (RFC 4648, with padding) of `len` bytes, without quotes. */
void tw_out_base64(tw_output *out, const void *p, size_t len);
/* One CSV field, quoted per RFC 4180 when it needs to be. */
void tw_out_csv_field(tw_output *out, const char *s, size_t len);

/* ------------------------------------------------------------------------ */
/* Text helpers                                                              */
/* ------------------------------------------------------------------------ */

/* True when the bytes are valid UTF-8 (no overlongs, no surrogates). */
bool tw_utf8_valid(const char *s, size_t len);
/* The UTF-16 code units the bytes stand for, as UTF-8: one for each
 * character below U+10000, two above, one for each run of bytes that is
 * not a valid sequence (the U+FFFD a decoder shows for it: one for a lead
 * byte and the continuation bytes that could have followed it, else one
 * a byte).  With `used`, a
 * non-ASCII byte among the last three is left for a next call, with the
 * bytes that follow it (for text read in parts), and *used says how many
 * bytes were counted; without it, every byte is. */
uint64_t tw_utf16_units(const char *s, size_t len, size_t *used);
/* The terminal columns UTF-8 text takes: two for an East Asian wide or
 * fullwidth character (CJK, Hangul, fullwidth forms, most emoji), one for
 * any other character and for each byte that is not valid UTF-8. */
size_t tw_display_width(const char *s, size_t len);
/* Bytes tw_display_cell() may write for a cell of `cols` columns. */
#define TW_DISPLAY_CELL_BYTES(cols) ((cols) * 4 + 8)
/* Text for a table cell on a terminal: on one line (control characters
 * as spaces), cut at a character to at most `max_cols` columns with "..."
 * ending what is cut (no "..." in fewer than three columns).  Writes a NUL-terminated string to `out`, which has
 * room for TW_DISPLAY_CELL_BYTES(max_cols) bytes; returns its columns. */
size_t tw_display_cell(const char *s, size_t len, size_t max_cols, char *out);

#ifdef __cplusplus
}
#endif
#endif /* TRACEWRIGHT_IO_H */
