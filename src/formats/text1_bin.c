/*
 * text1-bin - the binary timeline of winIDEA's Text1 export (`x.txt.BIN`).
 *
 * Headerless 24-byte little-endian records, one per event, in time order:
 *
 *   u32 handle | u32 flags | u64 data | i64 time (ns)
 *
 * Layout 1.1: event type in flags bits 0-3, core index in bits 4-11 (0xFF =
 * unknown).  Layout 1.0: event type in bits 24-27 (the other bits are
 * undocumented: bits 0-23 must be 0 for detection, and are ignored when
 * 1.0 is given).  Types: 3 entry, 2 resume, 1 suspend, 0 exit, 4 write.
 * Nothing in the file says which layout it has; it is detected from the
 * flags words (or given with --text1-bin-version).  The names of the
 * handles are in the companion text export (x.txt), read with the text1
 * reader.  The core index is the thread.  See docs/formats/text1.md.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "text1.h"

#define REC 24
#define CHUNK (REC * 4096)
#define WINDOW ((size_t)REC << 15) /* what detection sees: 32768 records */
#define MAX_BAD 10                  /* records that do not fit, reported one by one */

static uint32_t le32(const unsigned char *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t le64(const unsigned char *p) { return (uint64_t)le32(p + 4) << 32 | le32(p); }

static bool fits11(uint32_t w) { return (w & 0xFFFFF000u) == 0 && (w & 0xF) <= 4; }
static bool fits10(uint32_t w) { return (w & 0x00FFFFFFu) == 0 && (w >> 24 & 0xF) <= 4; }
/* Layout 1.0 given by the user: only the type (bits 24-27) is documented,
 * the other bits are not looked at. */
static bool type10(uint32_t w) { return (w >> 24 & 0xF) <= 4; }

/* ---- probe ---------------------------------------------------------------- */

static int bin_probe(const unsigned char *head, size_t len, const char *path) {
    size_t pl = path ? strlen(path) : 0;
    bool ext = pl > 4 && strcasecmp(path + pl - 4, ".bin") == 0;
    if (len < REC) return 0;
    bool v11 = true, v10 = true, sorted = true;
    int64_t prev = INT64_MIN;
    for (size_t i = 0; i + REC <= len; i += REC) {
        uint32_t h = le32(head + i), w = le32(head + i + 4);
        int64_t t = (int64_t)le64(head + i + 16);
        if (h >> 28 > 5) return 0;
        v11 = v11 && fits11(w);
        v10 = v10 && fits10(w);
        if (t < prev) sorted = false;
        prev = t;
    }
    if (!v11 && !v10) return 0;
    int score = sorted ? 45 : 20;
    return ext ? score + 45 : score;
}

/* ---- reader --------------------------------------------------------------- */

typedef struct bin_reader {
    tw_read_ctx ctx;
    const char *file;
    tw_input *names_in;
    const char *companions[2];  /* names_in's path, for tw_trace_info */
    t1_reader *names;
    int version;              /* 10 or 11 */
    bool forced, eof;
    bool queued;              /* t1_next() may have events: the companion's, a record's */
    const unsigned char *p;   /* current chunk */
    size_t avail;
    uint64_t rec;             /* index of the next record */
    uint64_t misfits;         /* records that did not fit the layout */
    bool odd_bits;            /* a forced 1.0 record with bits 0-23 set was reported */
    unsigned char cores[32];  /* bitset: cores named */
} bin_reader;

/* Open the companion text export: --names, else x.txt.BIN -> x.txt,
 * x.BIN -> x.txt or x, y -> y.txt. */
static int open_names(bin_reader *r) {
    const char *given = tw_opt_str(r->ctx.opts, T1_OPT_NAMES);
    const char *path = tw_input_path(r->ctx.in);
    char *cand[2] = {NULL, NULL};
    if (given && strcmp(given, "-") == 0) {
        /* (the command line refuses it earlier where --names is the
         * reader's alone: convert to text1-bin shares it with the writer) */
        if (!path && strcmp(r->file, TW_STDIN_NAME) == 0) {
            tw_report(r->ctx.diag, TW_R_BAD_OPTION, NULL,
                      "standard input ('-') can be read only once: the .BIN is read from it, so "
                      "--" T1_OPT_NAMES "=- cannot read its companion from it too; give --"
                      T1_OPT_NAMES "=FILE");
            return TW_ERR;
        }
        if (isatty(STDIN_FILENO)) {  /* names typed by hand are never meant */
            tw_report(r->ctx.diag, TW_R_IO_ERROR, NULL,
                      "standard input is a terminal; give a FILE or redirect the input (--"
                      T1_OPT_NAMES "=- reads the companion from it)");
            return TW_ERR;
        }
        if (tw_input_open(given, NULL, r->ctx.diag, &r->names_in) != 0) return TW_ERR;
    } else if (given && *given) {
        if (tw_input_open(given, NULL, r->ctx.diag, &r->names_in) != 0) return TW_ERR;
    } else if (path) {
        size_t n = strlen(path);
        bool bin = n > 4 && strcasecmp(path + n - 4, ".bin") == 0;
        size_t base = bin ? n - 4 : n;
        for (int i = 0; i < 2; i++) {
            cand[i] = malloc(base + 5);
            if (!cand[i]) break;
            memcpy(cand[i], path, base);
            cand[i][base] = '\0';
        }
        if (!cand[0] || !cand[1]) {
            free(cand[0]);
            free(cand[1]);
            tw_report(r->ctx.diag, TW_R_OUT_OF_MEMORY, NULL, "out of memory");
            return TW_ERR;
        }
        bool has_txt = base > 4 && strcasecmp(cand[0] + base - 4, ".txt") == 0;
        if (!bin || !has_txt) memcpy(cand[0] + base, ".txt", 5);
        if (!bin || has_txt) {
            free(cand[1]);
            cand[1] = NULL;
        }
        for (int i = 0; i < 2 && !r->names_in; i++)
            if (cand[i] && t1_is_file(cand[i]) &&
                tw_input_open(cand[i], NULL, r->ctx.diag, &r->names_in) != 0) {
                free(cand[0]);
                free(cand[1]);
                return TW_ERR;
            }
    }
    if (!r->names_in) {
        tw_loc loc = {.file = r->file, .kind = TW_LOC_FILE};
        if (cand[0])
            tw_report(r->ctx.diag, TW_R_T1_NO_NAMES, &loc,
                      "no companion text export (looked for %s%s%s); handles are used as names "
                      "(give --" T1_OPT_NAMES "=FILE)",
                      cand[0], cand[1] ? " and " : "", cand[1] ? cand[1] : "");
        else
            tw_report(r->ctx.diag, TW_R_T1_NO_NAMES, &loc,
                      "no companion text export for standard input; handles are used as names "
                      "(give --" T1_OPT_NAMES "=FILE)");
    }
    free(cand[0]);
    free(cand[1]);
    if (r->names_in && (r->companions[0] = tw_input_path(r->names_in)) != NULL)
        r->ctx.info->companions = r->companions;
    tw_read_ctx nctx = r->ctx;
    nctx.in = r->names_in;
    return t1_open(&nctx, true, &r->names);
}

/* (field by field: an initializer of the 48 bytes may become a `rep stos`
 * in the per-record path, plain_record()) */
static tw_loc rec_loc(const bin_reader *r, uint64_t rec) {
    tw_loc loc;
    loc.file = r->file;
    loc.line = loc.col = 0;
    loc.offset = rec * REC;
    loc.record = rec;
    loc.kind = TW_LOC_BINARY;
    loc.length = REC;
    return loc;
}

/* Decide the layout from the first records (the window); records after it
 * are checked one by one. */
static int detect(bin_reader *r) {
    const char *v = tw_opt_str(r->ctx.opts, T1_OPT_BIN_VERSION);
    if (strcmp(v, "auto") != 0) {
        r->version = strcmp(v, "1.0") == 0 ? 10 : 11;
        r->forced = true;
        return TW_OK;
    }
    const unsigned char *p;
    size_t got;
    if (tw_input_peek(r->ctx.in, WINDOW, &p, &got) != 0) return TW_ERR;
    int64_t only11 = -1, only10 = -1;
    for (uint64_t i = 0; i < got / REC; i++) {
        uint32_t w = le32(p + i * REC + 4);
        bool a = fits11(w), b = fits10(w);
        if (!a && !b) {
            tw_loc loc = rec_loc(r, i);
            tw_report(r->ctx.diag, TW_R_T1_LAYOUT, &loc,
                      "flags word 0x%08X fits neither binary layout (1.1: type in bits 0-3, core "
                      "in bits 4-11; 1.0: type in bits 24-27); not a Text1 .BIN timeline, or "
                      "give --" T1_OPT_BIN_VERSION,
                      (unsigned)w);
            return TW_ERR;
        }
        if (a && !b && only11 < 0) only11 = (int64_t)i;
        if (b && !a && only10 < 0) only10 = (int64_t)i;
    }
    if (only11 >= 0 && only10 >= 0) {
        tw_loc loc = rec_loc(r, (uint64_t)(only11 > only10 ? only11 : only10));
        tw_report(r->ctx.diag, TW_R_T1_LAYOUT, &loc,
                  "cannot tell the binary layout: record %lld fits only version 1.1 and record "
                  "%lld only version 1.0; give --" T1_OPT_BIN_VERSION "=1.0 or 1.1",
                  (long long)only11, (long long)only10);
        return TW_ERR;
    }
    r->version = only10 >= 0 ? 10 : 11;
    return TW_OK;
}

static void bin_close(void *state);

static int bin_open(const tw_read_ctx *ctx, void **state) {
    bin_reader *r = tw_state_alloc(ctx->diag, sizeof *r);
    if (!r) return TW_ERR;
    r->ctx = *ctx;
    r->file = tw_input_name(ctx->in);
    if (detect(r) != TW_OK || open_names(r) != TW_OK) {
        bin_close(r);
        return TW_ERR;
    }
    ctx->info->resolution_ns = 1;
    r->queued = true;
    *state = r;
    return TW_OK;
}

static const char CODES[5] = {'X', 'S', 'R', 'E', 'W'}; /* by event type */

/* The commonest record: an entry (E, S, R or X) of a named function on a
 * core already named (layout 1.1) or of layout 1.0, read straight into *ev
 * by t1_plain_entry() (what that returns); 0, having changed nothing, for
 * record() to take. */
static TW_INLINE int plain_record(bin_reader *r, const unsigned char *p, tw_event *ev) {
    uint32_t w = le32(p + 4);
    unsigned type;
    uint64_t tid;
    if (r->version == 11) {
        tid = w >> 4 & 0xFF;
        if (!fits11(w) || !(r->cores[tid / 8] & 1u << (tid % 8))) return 0;
        type = w & 0xF;
    } else {
        if (!fits10(w)) return 0;
        tid = 0;
        type = w >> 24 & 0xF;
    }
    if (type > 3) return 0; /* W */
    tw_loc loc = rec_loc(r, r->rec);
    int taken = t1_plain_entry(r->names, le32(p), CODES[type], tid, (int64_t)le64(p + 16), &loc, ev);
    if (taken) r->rec++;
    return taken;
}

static TW_NOINLINE void record(bin_reader *r, const unsigned char *p) {
    uint64_t i = r->rec++;
    uint32_t handle = le32(p), w = le32(p + 4);
    uint64_t data = le64(p + 8);
    int64_t ts = (int64_t)le64(p + 16);
    tw_loc loc = rec_loc(r, i);
    bool ok = r->version == 11 ? fits11(w) : r->forced ? type10(w) : fits10(w);
    if (ok && r->version == 10 && (w & 0x00FFFFFFu) && !r->odd_bits) {
        r->odd_bits = true; /* forced 1.0 (detection admits no such word) */
        tw_report(r->ctx.diag, TW_R_UNSUPPORTED, &loc,
                  "flags word 0x%08X sets bits 0-23, which layout 1.0 does not document; the "
                  "event type is read from bits 24-27 and the other bits are ignored (reported "
                  "once)",
                  (unsigned)w);
    }
    if (!ok) {
        if (++r->misfits <= MAX_BAD)
            tw_report(r->ctx.diag, TW_R_T1_LAYOUT, &loc,
                      "flags word 0x%08X does not fit binary layout %s%s; record skipped",
                      (unsigned)w, r->version == 11 ? "1.1" : "1.0",
                      r->forced ? "" : " (detected from the first records)");
        return;
    }
    unsigned type = r->version == 11 ? (w & 0xF) : (w >> 24 & 0xF);
    uint64_t tid = r->version == 11 ? (w >> 4 & 0xFF) : 0;
    bool state = handle >> 28 == T1_STATE || handle >> 28 == T1_AUX_STATE;
    if (r->version == 11 && !state && !(r->cores[tid / 8] & 1u << (tid % 8))) {
        r->cores[tid / 8] |= (unsigned char)(1u << (tid % 8));
        char name[32];
        t1_core_name(tid, name, sizeof name);
        t1_thread_name(r->names, tid, name, ts, &loc);
    }
    t1_timeline(r->names, handle, CODES[type], data, true, tid, ts, &loc);
}

static TW_INLINE int bin_next_one(void *state, tw_event *ev) {
    bin_reader *r = state;
    for (;;) {
        if (r->queued) { /* the companion's events, or a record's after its first */
            int rc = t1_next(r->names, ev);
            if (rc != TW_EOF) return rc;
            r->queued = false;
        }
        if (r->eof) return TW_EOF;
        if (tw_diag_stopped(r->ctx.diag)) return TW_ERR;
        if (r->avail < REC) {
            if (tw_input_peek(r->ctx.in, CHUNK, &r->p, &r->avail) != 0) return TW_ERR;
            if (r->avail < REC) {
                if (r->avail) {
                    tw_loc loc = rec_loc(r, r->rec);
                    loc.length = (uint32_t)r->avail;  /* what is left of the record */
                    tw_report(r->ctx.diag, TW_R_TRUNCATED_FILE, &loc,
                              "the last %zu %s not make a whole 24-byte record (the file "
                              "size is not a multiple of 24); ignored",
                              r->avail, r->avail == 1 ? "byte does" : "bytes do");
                    tw_input_skip(r->ctx.in, r->avail);
                }
                r->eof = true;
                if (r->misfits > MAX_BAD) {
                    tw_loc floc = {.file = r->file, .kind = TW_LOC_FILE};
                    tw_report(r->ctx.diag, TW_R_T1_LAYOUT, &floc,
                              "%llu records in all did not fit binary layout %s and were "
                              "skipped",
                              (unsigned long long)r->misfits, r->version == 11 ? "1.1" : "1.0");
                }
                t1_finish(r->names);
                r->queued = true;
                continue;
            }
        }
        bool direct = plain_record(r, r->p, ev) != 0;
        if (!direct) {
            t1_begin(r->names, ev);
            record(r, r->p);
            r->queued = true;
        }
        r->p += REC;
        r->avail -= REC;
        tw_input_skip(r->ctx.in, REC);
        if (direct || t1_first(r->names)) return TW_OK;
    }
}

static void bin_close(void *state) {
    bin_reader *r = state;
    t1_close(r->names);
    if (r->names_in) tw_input_close(r->names_in);
    free(r);
}

static int bin_wbegin(const tw_write_ctx *ctx, void **state) {
    return t1_write_begin(ctx, true, state);
}

/* ---- descriptor ------------------------------------------------------------ */

static const char *const bin_aliases[] = {"winidea-bin", NULL};
static const char *const bin_exts[] = {".bin", NULL};
static const tw_option bin_options[] = {
    {T1_OPT_BIN_VERSION, TW_OPT_CHOICE, "auto", "auto|1.0|1.1", TW_OPT_READ,
     "layout of the .BIN records read (auto: detected from the flags words)"},
    {T1_OPT_BIN_WRITE, TW_OPT_CHOICE, "1.1", "1.1|1.0", TW_OPT_WRITE,
     "layout of the .BIN records written (1.0 has no core index)"},
    {T1_OPT_NAMES, TW_OPT_STRING, "", NULL, TW_OPT_READ | TW_OPT_WRITE,
     "the text export that names a .BIN's handles (default: X.BIN -> X.txt, X)"},
    {NULL, 0, NULL, NULL, 0, NULL}};

/* What the reader produces and the writer keeps (see tw_fidelity). */
static const tw_fidelity bin_fidelity = {
    .family = "text1",
    .produces = T1_PRODUCES,
    .keeps = TW_KEEP_THREADS | TW_KEEP_NESTING | TW_KEEP_NEGATIVE | TW_KEEP_SUSPEND |
        TW_KEEP_COUNTERS,
    .read_clock_ns = 1,
    .write_clock_ns = 1,
    .read_origin_ns = 0,
    .write_origin_ns = 0,
    .partly = TW_PARTLY_COUNTER_THREADS | TW_PARTLY_NO_STATE_THREADS,
};

static int bin_next(void *state, tw_event *ev) { return bin_next_one(state, ev); }

/* A run of events (tw_batch), as tw_read_batch_with() reads it with
 * bin_next(), but the usual records go straight into the batch without a
 * call each, their bytes skipped at once: they end no run (no message,
 * attributes or transient name), and bin_next_one()'s first steps hold
 * for the next one unless this one's order was checked (which may have
 * reported). */
static int bin_batch(void *state, tw_batch *b) {
    bin_reader *r = state;
    while (b->n < b->cap) {
        if (!r->queued && !r->eof && !tw_diag_stopped(r->ctx.diag)) {
            size_t n0 = b->n, k = 0;
            int taken = 0;
            while (b->n < b->cap && r->avail - k >= REC &&
                   (taken = plain_record(r, r->p + k, &b->ev[b->n]))) {
                k += REC;
                if (taken == T1_PLAIN_CHECKED) break;
                b->n++;
            }
            r->p += k;
            r->avail -= k;
            tw_input_skip(r->ctx.in, k);
            if (taken == T1_PLAIN_CHECKED) {
                /* a record after which reading stops gives no event */
                if (tw_diag_stopped(b->stop)) return TW_ERR;
                b->n++;
                continue;
            }
            if (b->n > n0) continue;
        }
        int rc; /* any other: one event the general way */
        if (!tw_read_one_with(bin_next, r, b, &rc)) return rc;
    }
    return TW_OK;
}

static const tw_format bin_format = {
    .abi = TW_FORMAT_ABI,
    .name = "text1-bin",
    .aliases = bin_aliases,
    .extensions = bin_exts,
    .description = "iSYSTEM winIDEA Text1 binary timeline (.BIN, with its text export)",
    .flags = TW_FMT_BINARY | TW_FMT_THREADS | TW_FMT_WRITER_TRANSIENT,
    .options = bin_options,
    .probe = bin_probe,
    .read_open = bin_open,
    .read_next = bin_next,
    .read_batch = bin_batch,
    .read_close = bin_close,
    .write_begin = bin_wbegin,
    .write_event = t1_write_event,
    .write_end = t1_write_end,
    .write_free = t1_write_free,
    .fidelity = &bin_fidelity,
};

TW_FORMAT_EXPORT(text1_bin, bin_format)
