/*
 * An interactive flame graph as one self-contained SVG file (no external
 * references: it opens without a network):
 *
 *   - the default, a flame graph: the stacks of every thread merged, the
 *     root "all" at the bottom, then the process (its process_name, else
 *     "pid N"), the thread (thread_name, else "tid N") and the scopes from
 *     the outermost; a frame's width is its gross (inclusive) time, and
 *     siblings are sorted by name, so the x axis is not time;
 *   - with --flamechart, a flame chart: one band per thread, x is time from
 *     the first to the last event, every invocation its own frame.
 *
 * Scopes are paired by the pairing engine, so input that does not nest is
 * repaired as 'tracewright stats' repairs it (counted in the loss ledger).
 * The flame graph is a tree keyed by (parent, name): memory grows with the
 * distinct stacks, not with the input.  The flame chart spools each closed
 * invocation to a tw_tmpfile() (48 bytes) and draws them at the end, when the
 * time span is known.  Frames narrower than --svg-min-width are left out and
 * counted.
 *
 * Each frame is a <g> with a <title> tooltip "NAME (DETAILS)" (DETAILS never
 * holds " ("), a <rect> and a <text> label cut to fit with ".."; names are
 * cut first (at character boundaries) and XML-escaped after, by
 * tw_out_xml_str(), which also replaces what XML 1.0 cannot hold by U+FFFD.
 * Names never go into the script: its CDATA section holds the fixed code
 * below and numbers.  Colours come from a hash of the name; the output
 * holds nothing that varies between runs.  Write-only.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/names.h"
#include "core/spool.h"
#include "formats.h"
#include "tracewright/stats.h"

#define OPT_CHART "flamechart"
#define OPT_TITLE "svg-title"
#define OPT_WIDTH "svg-width"
#define OPT_MIN "svg-min-width"

#define WIDTH_MIN 100     /* --svg-width bounds, pixels */
#define WIDTH_MAX 100000
#define XPAD 10           /* left and right margin */
#define FRAME_H 16        /* one row of frames */
#define RECT_H 15         /* a frame's rect, 1 px less than its row */
#define STR_(x) #x
#define STR(x) STR_(x)
#define TOP 54            /* below the title, the subtitle and the buttons */
#define BOTTOM 36         /* the details line */
#define LANE_HEAD 18      /* flame chart: the thread's name above its frames */
#define LANE_PAD 6
/* Labels: a 12 px monospace font, whose characters are 0.6 em = 7.2 px wide;
 * in hundredths of a pixel, with 3 px of room on either side. */
#define CHAR_CPX 720
#define LABEL_PAD_CPX 300

enum { K_ROOT, K_PROCESS, K_THREAD, K_SCOPE };

typedef struct node {       /* a frame of the flame graph: one distinct stack */
    const char *name;
    uint32_t len;
    uint8_t kind;
    bool drawn;
    uint32_t parent, child, next;  /* 0: none (the root, node 0, is nobody's child) */
    uint32_t depth;
    uint64_t count;         /* invocations (scopes) */
    int64_t gross, net;
    int64_t x, w;           /* layout: ns from the left edge, clamped width */
} node;

typedef struct rec {        /* a closed invocation of the flame chart */
    int64_t begin, end, gross, net;
    /* cppcheck-suppress unusedStructMember ; explicit padding: the record is spooled whole */
    uint32_t name, thread, depth, pad;
} rec;

typedef struct sthread {    /* by the pairing engine's dense thread index */
    uint32_t pid;
    uint64_t tid;
    uint32_t *stack;        /* flame graph: the node of each open frame */
    size_t cap;
    uint32_t tnode;         /* flame graph: the thread's node, 0 until known */
    uint64_t gen;           /* names generation tnode was found in */
    bool used;              /* it had scopes */
    /* flame chart layout */
    uint32_t rows;
    int64_t top;
    size_t rank;
} sthread;

typedef struct svg_writer {
    tw_write_ctx ctx;
    bool chart;
    int64_t width;          /* pixels */
    int64_t min_mpx;        /* thousandths of a pixel */
    const char *title;
    tw_diag_sink quiet;     /* the repairs of the pairing engine, counted */
    tw_pairing *pairing;
    sthread **threads;
    size_t nthreads, tcap;
    tw_names names;         /* of processes and threads */
    uint64_t gen;           /* bumped by every process or thread name */
    /* flame graph */
    node *nodes;
    size_t nnodes, nodecap;
    tw_u64map kids;         /* parent << 32 | name id -> node index */
    tw_strtab *labels;      /* process and thread labels */
    /* flame chart */
    FILE *spool;
    uint64_t nrecs;
    int64_t busy;           /* the outermost invocations' call time */
    bool have_ts;
    int64_t t0, t1;         /* first and last event */
    /* both */
    uint64_t replaced;      /* names with bytes XML cannot hold */
    uint64_t pruned;
    tw_buf buf;
    bool failed;
} svg_writer;

static void oom(svg_writer *w) {
    if (!w->failed)
        tw_report(w->ctx.diag, TW_R_OUT_OF_MEMORY, NULL, "out of memory for the svg writer");
    w->failed = true;
}

static int64_t sat_add(int64_t a, int64_t b) {
    int64_t r;
    return tw_add_i64(a, b, &r) ? r : b > 0 ? INT64_MAX : INT64_MIN;
}

/* ---- names ----------------------------------------------------------------- */

/* Append the name of a process or thread to w->buf: its latest name from
 * metadata, else "pid N" / "tid N". */
static bool label(svg_writer *w, bool thread, uint32_t pid, uint64_t tid) {
    char num[48];
    size_t len;
    const char *name = thread ? tw_names_thread(&w->names, pid, tid, &len)
                              : tw_names_process(&w->names, pid, &len);
    if (name) return tw_buf_append(&w->buf, name, len);
    int n = thread ? snprintf(num, sizeof num, "tid %llu", (unsigned long long)tid)
                   : snprintf(num, sizeof num, "pid %lu", (unsigned long)pid);
    return tw_buf_append(&w->buf, num, (size_t)n);
}

/* Columns a code point takes in a monospace font: 0 for combining marks,
 * 2 for East Asian wide characters and emoji (the script counts alike). */
static int cp_cols(uint32_t c) {
    if ((c >= 0x300 && c <= 0x36F) || (c >= 0x200B && c <= 0x200F) || (c >= 0xFE00 && c <= 0xFE0F))
        return 0;
    if ((c >= 0x1100 && c <= 0x115F) || (c >= 0x2E80 && c <= 0xA4CF && c != 0x303F) ||
        (c >= 0xAC00 && c <= 0xD7A3) || (c >= 0xF900 && c <= 0xFAFF) ||
        (c >= 0xFE30 && c <= 0xFE4F) || (c >= 0xFF00 && c <= 0xFF60) ||
        (c >= 0xFFE0 && c <= 0xFFE6) || (c >= 0x1F300 && c <= 0x1F64F) ||
        (c >= 0x1F900 && c <= 0x1F9FF) || (c >= 0x20000 && c <= 0x3FFFD))
        return 2;
    return 1;
}

/* The code point at s (a byte that is not valid UTF-8 is one U+FFFD). */
static uint32_t decode(const unsigned char *s, size_t n, size_t *k) {
    *k = tw_utf8_seq(s, n);
    switch (*k) {
    case 1: return s[0];
    case 2: return (uint32_t)(s[0] & 0x1F) << 6 | (s[1] & 0x3F);
    case 3: return (uint32_t)(s[0] & 0x0F) << 12 | (uint32_t)(s[1] & 0x3F) << 6 | (s[2] & 0x3F);
    case 4:
        return (uint32_t)(s[0] & 0x07) << 18 | (uint32_t)(s[1] & 0x3F) << 12 |
               (uint32_t)(s[2] & 0x3F) << 6 | (s[3] & 0x3F);
    default: *k = 1; return 0xFFFD;
    }
}

/*
 * How many bytes of the name a label `w_cpx` hundredths of a pixel wide
 * shows, cut at a character boundary; *dots tells whether ".." follows.
 * The whole name when it fits, nothing when fewer than 3 characters fit.
 */
static size_t label_cut(const char *str, size_t n, int64_t w_cpx, bool *dots) {
    const unsigned char *s = (const unsigned char *)str;
    *dots = false;
    if (w_cpx < 2 * LABEL_PAD_CPX + 3 * CHAR_CPX) return 0;
    int64_t room = (w_cpx - 2 * LABEL_PAD_CPX) / CHAR_CPX, used = 0;
    size_t cut = SIZE_MAX;
    for (size_t i = 0, k; i < n; i += k) {
        int c = cp_cols(decode(s + i, n - i, &k));
        if (cut == SIZE_MAX && used + c > room - 2) cut = i;
        used += c;
        if (used > room) {
            *dots = true;
            return cut;
        }
    }
    return n;
}

/* ---- threads and the tree ----------------------------------------------------- */

static sthread *thread_at(svg_writer *w, const tw_frame *f) {
    while (w->nthreads <= f->thread) {
        if (!tw_grow(&w->threads, &w->tcap, w->nthreads + 1, sizeof *w->threads, 8)) return NULL;
        sthread *t = calloc(1, sizeof *t);
        if (!t) return NULL;
        w->threads[w->nthreads++] = t;
    }
    sthread *t = w->threads[f->thread];
    t->pid = f->pid;
    t->tid = f->tid;
    t->used = true;
    return t;
}

static uint32_t new_node(svg_writer *w, uint32_t parent, uint8_t kind, const char *s, size_t len) {
    if (w->nnodes >= UINT32_MAX - 1 ||
        !tw_grow(&w->nodes, &w->nodecap, w->nnodes + 1, sizeof *w->nodes, 256))
        return 0;
    uint32_t i = (uint32_t)w->nnodes++;
    node *n = &w->nodes[i];
    memset(n, 0, sizeof *n);
    n->name = s;
    n->len = (uint32_t)len;
    n->kind = kind;
    n->parent = parent;
    if (i) {
        node *p = &w->nodes[parent];
        n->depth = p->depth + 1;
        n->next = p->child;
        p->child = i;
    }
    return i;
}

/* The child of `parent` named by string `id` (of the string table of its
 * kind: the trace's for scopes, w->labels for processes and threads; one
 * parent's children are all of one kind); 0 when out of memory. */
static uint32_t child(svg_writer *w, uint32_t parent, uint8_t kind, const tw_str *name) {
    uint64_t key = (uint64_t)parent << 32 | name->id;
    uintptr_t v = (uintptr_t)tw_u64map_get(&w->kids, key);
    if (v) return (uint32_t)v;
    uint32_t i = new_node(w, parent, kind, name->s, name->len);
    if (!i || !tw_u64map_put(&w->kids, key, (void *)(uintptr_t)i)) return 0;
    return i;
}

/* The node of a thread (under its process), found again when a name came. */
static uint32_t thread_node(svg_writer *w, sthread *t) {
    if (t->tnode && t->gen == w->gen) return t->tnode;
    const tw_str *pl, *tl;
    uint32_t pn;
    tw_buf_clear(&w->buf);
    if (!label(w, false, t->pid, 0) || !(pl = tw_intern(w->labels, w->buf.p, w->buf.len)) ||
        !(pn = child(w, 0, K_PROCESS, pl)))
        return 0;
    tw_buf_clear(&w->buf);
    if (!label(w, true, t->pid, t->tid) ||
        !(tl = tw_intern(w->labels, w->buf.p, w->buf.len)))
        return 0;
    t->tnode = child(w, pn, K_THREAD, tl);
    t->gen = w->gen;
    return t->tnode;
}

static void on_open(void *user, const tw_frame *f) {
    svg_writer *w = user;
    if (w->failed) return;
    sthread *t = thread_at(w, f);
    if (!t) {
        oom(w);
        return;
    }
    if (w->chart) return;
    if (!tw_grow(&t->stack, &t->cap, f->depth + 1, sizeof *t->stack, 16)) {
        oom(w);
        return;
    }
    uint32_t parent = f->depth ? t->stack[f->depth - 1] : thread_node(w, t);
    uint32_t n = parent ? child(w, parent, K_SCOPE, f->name) : 0;
    if (!n) oom(w);
    t->stack[f->depth] = n;
}

static void on_close(void *user, const tw_frame *f, int64_t end, tw_close_how how,
                     const tw_scope_times *tm) {
    svg_writer *w = user;
    (void)how;
    if (w->failed || f->thread >= w->nthreads) return;
    if (w->chart) {
        rec r = {.begin = f->begin, .end = end, .gross = tm->gross, .net = tm->net,
                 .name = f->name->id, .thread = f->thread,
                 .depth = f->depth >= UINT32_MAX ? UINT32_MAX - 1 : (uint32_t)f->depth};
        if (fwrite(&r, sizeof r, 1, w->spool) != 1) {
            tw_report(w->ctx.diag, TW_R_IO_ERROR, NULL,
                      "cannot write the flame chart's temporary file: %s", strerror(errno));
            w->failed = true;
            return;
        }
        w->nrecs++;
        if (!f->depth) w->busy = sat_add(w->busy, tm->call);
        return;
    }
    node *n = &w->nodes[w->threads[f->thread]->stack[f->depth]];
    n->count++;
    n->gross = sat_add(n->gross, tm->gross);
    n->net = sat_add(n->net, tm->net);
    if (f->depth) return;
    for (uint32_t p = n->parent;; p = w->nodes[p].parent) {  /* thread, process, all */
        w->nodes[p].gross = sat_add(w->nodes[p].gross, tm->gross);
        w->nodes[p].count++;
        if (!p) break;
    }
}

/* ---- options ---------------------------------------------------------------- */

/* "0.1" or "0.1px" (pixels) or "0.5%" (of the frames' width), to thousandths
 * of a pixel; digits beyond the third decimal are ignored. */
static bool parse_min_width(const char *s, int64_t avail_px, int64_t *mpx) {
    int64_t whole = 0, frac = 0;
    int fd = 0;
    const char *p = s;
    if (*p < '0' || *p > '9') return false;
    for (; *p >= '0' && *p <= '9'; p++) {
        whole = whole * 10 + (*p - '0');
        if (whole > WIDTH_MAX) return false;
    }
    if (*p == '.') {
        if (*++p < '0' || *p > '9') return false;
        for (; *p >= '0' && *p <= '9'; p++)
            if (fd < 3) frac = frac * 10 + (*p - '0'), fd++;
    }
    for (; fd < 3; fd++) frac *= 10;
    int64_t milli = whole * 1000 + frac;
    if (strcmp(p, "%") == 0) {
        if (milli > 100 * 1000) return false;
        *mpx = avail_px * milli / 100;
        return true;
    }
    if (*p && strcmp(p, "px") != 0) return false;
    if (milli > avail_px * 1000) return false;
    *mpx = milli;
    return true;
}

static void svg_free(void *state);

static int svg_begin(const tw_write_ctx *ctx, void **state) {
    svg_writer *w = tw_state_alloc(ctx->diag, sizeof *w);
    if (!w) return TW_ERR;
    w->ctx = *ctx;
    w->chart = tw_opt_bool(ctx->opts, OPT_CHART);
    w->title = tw_opt_str(ctx->opts, OPT_TITLE);
    if (!*w->title) w->title = w->chart ? "Flame chart" : "Flame graph";
    w->width = tw_opt_int(ctx->opts, OPT_WIDTH);
    const char *minw = tw_opt_str(ctx->opts, OPT_MIN);
    if (w->width < WIDTH_MIN || w->width > WIDTH_MAX) {
        tw_report(ctx->diag, TW_R_BAD_OPTION, NULL,
                  "--" OPT_WIDTH "=%lld: the width is %d to %d pixels", (long long)w->width,
                  WIDTH_MIN, WIDTH_MAX);
        free(w);
        return TW_ERR;
    }
    if (!parse_min_width(minw, w->width - 2 * XPAD, &w->min_mpx)) {
        tw_report(ctx->diag, TW_R_BAD_OPTION, NULL,
                  "--" OPT_MIN "=%s: expected pixels from 0 to %lld (such as 0.1) or a share of "
                  "the width from 0%% to 100%% (such as 0.5%%)",
                  minw, (long long)(w->width - 2 * XPAD));
        free(w);
        return TW_ERR;
    }
    tw_pairing_hooks h = {.user = w, .open = on_open, .close = on_close};
    w->pairing = tw_pairing_new(&h, &w->quiet);
    w->labels = tw_strtab_new();
    if (!w->pairing || !w->labels ||
        (!w->chart && (new_node(w, 0, K_ROOT, "all", 3), !w->nnodes))) {
        tw_report(ctx->diag, TW_R_OUT_OF_MEMORY, NULL, "out of memory");
        svg_free(w);
        return TW_ERR;
    }
    if (w->chart && !(w->spool = tw_tmpfile())) {
        tw_report(ctx->diag, TW_R_IO_ERROR, NULL,
                  "cannot create a temporary file in '%s' for the flame chart: %s", tw_tmpdir(),
                  strerror(errno));
        svg_free(w);
        return TW_ERR;
    }
    if (ctx->info->has_origin) tw_loss_add(ctx->loss, "wall-clock origin dropped", 1);
    *state = w;
    return TW_OK;
}

static int svg_event(void *state, const tw_event *ev) {
    svg_writer *w = state;
    if (ev->kind != TW_META || tw_str_is(ev->name, TW_META_TRACE_END)) {
        if (!w->have_ts || ev->ts < w->t0) w->t0 = ev->ts;
        if (!w->have_ts || ev->ts > w->t1) w->t1 = ev->ts;
        w->have_ts = true;
    }
    bool nomem = false;
    if (tw_names_note(&w->names, ev, &nomem)) {
        if (nomem) {
            oom(w);
            return TW_ERR;
        }
        w->gen++;
        return TW_OK;
    }
    tw_loss_scopes_only(w->ctx.loss, ev);
    if (tw_pairing_event(w->pairing, ev) != TW_OK) oom(w);
    return w->failed ? TW_ERR : TW_OK;
}

/* ---- drawing ------------------------------------------------------------------ */

/* A non-negative number of hundredths as "12.34". */
static void put_cpx(tw_output *o, int64_t v) {
    tw_out_i64(o, v / 100);
    tw_out_putc(o, '.');
    tw_out_u64_pad(o, (uint64_t)(v % 100), 2);
}

/* Text with the bytes XML cannot hold replaced; counted once per call. */
static void put_text(svg_writer *w, const char *s, size_t n) {
    if (!tw_out_xml_str(w->ctx.out, s, n)) w->replaced++;
}

/* A stable warm colour from the name's bytes; processes and threads get
 * cool ones, the root grey. */
static void put_fill(tw_output *o, uint8_t kind, const char *s, size_t n) {
    uint32_t h = 2166136261u;  /* FNV-1a, then mixed */
    for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 16777619u;
    h ^= h >> 15;
    h *= 0x2c1b3c6du;
    h ^= h >> 12;
    unsigned a = h & 0xFF, b = (h >> 8) & 0xFF, c = (h >> 16) & 0xFF, r, g, bl;
    switch (kind) {
    case K_ROOT: r = g = bl = 0xD0; break;
    case K_PROCESS: r = 160 + a * 30 / 255; g = 170 + b * 30 / 255; bl = 220 + c * 30 / 255; break;
    case K_THREAD: r = 150 + a * 30 / 255; g = 200 + b * 30 / 255; bl = 205 + c * 30 / 255; break;
    default: r = 205 + a * 50 / 255; g = 60 + b * 160 / 255; bl = 20 + c * 45 / 255; break;
    }
    tw_out_printf(o, "#%02x%02x%02x", r, g, bl);
}

/*
 * One frame: data-x and data-w are its range in ns (what the script zooms
 * by), x_cpx and w_cpx where it is drawn, in hundredths of a pixel from the
 * left margin; `details` ends the tooltip.
 */
static void put_frame(svg_writer *w, uint8_t kind, const char *name, size_t len, int64_t dx,
                      int64_t dw, int64_t x_cpx, int64_t w_cpx, int64_t y, const char *details) {
    tw_output *o = w->ctx.out;
    tw_out_str(o, "<g class=\"f\" data-x=\"");
    tw_out_i64(o, dx);
    tw_out_str(o, "\" data-w=\"");
    tw_out_i64(o, dw);
    tw_out_str(o, "\"><title>");
    put_text(w, name, len);
    tw_out_str(o, " (");
    tw_out_str(o, details);
    tw_out_str(o, ")</title><rect x=\"");
    put_cpx(o, XPAD * 100 + x_cpx);
    tw_out_str(o, "\" y=\"");
    tw_out_i64(o, y);
    tw_out_str(o, "\" width=\"");
    put_cpx(o, w_cpx);
    tw_out_str(o, "\" height=\"" STR(RECT_H) "\" fill=\"");
    put_fill(o, kind, name, len);
    tw_out_str(o, "\"/><text x=\"");
    put_cpx(o, XPAD * 100 + x_cpx + LABEL_PAD_CPX);
    tw_out_str(o, "\" y=\"");
    tw_out_i64(o, y + 11);
    tw_out_str(o, "\">");
    bool dots;
    size_t cut = label_cut(name, len, w_cpx, &dots);
    tw_out_xml_str(o, name, cut);  /* escaped after cutting */
    if (dots) tw_out_str(o, "..");
    tw_out_str(o, "</text></g>\n");
}

static const char style[] =
    "<style type=\"text/css\">\n"
    "text { font-family: monospace; font-size: 12px; fill: #000; }\n"
    "#title { font-family: sans-serif; font-size: 17px; text-anchor: middle; }\n"
    "#subtitle, #empty { fill: #444; text-anchor: middle; }\n"
    "#search, #ic, #matched { text-anchor: end; }\n"
    ".btn { cursor: pointer; fill: #224; }\n"
    ".btn:hover { text-decoration: underline; }\n"
    ".off { display: none; }\n"
    ".on { font-weight: bold; fill: #b00; }\n"
    ".f { cursor: pointer; }\n"
    ".f rect { rx: 2px; ry: 2px; }\n"
    ".f:hover rect { stroke: #000; stroke-width: 0.5; }\n"
    ".f text { pointer-events: none; }\n"
    ".p { opacity: 0.55; }\n"
    ".band0 { fill: #fff; fill-opacity: 0.45; }\n"
    ".band1 { fill: #000; fill-opacity: 0.04; }\n"
    ".lane { font-weight: bold; fill: #333; }\n"
    "</style>\n";

/* "0.1 px" for thousandths of a pixel. */
static void fmt_px(int64_t mpx, char *buf, size_t n) {
    int len = snprintf(buf, n, "%lld.%03lld", (long long)(mpx / 1000), (long long)(mpx % 1000));
    while (len > 0 && buf[len - 1] == '0') buf[--len] = '\0';
    if (len > 0 && buf[len - 1] == '.') buf[--len] = '\0';
    snprintf(buf + len, n - (size_t)len, " px");
}

/* The document up to the frames: title, subtitle (`sub`, then the note on
 * pruned frames) and, when `interactive`, the buttons and the details line. */
static void put_head(svg_writer *w, int64_t height, const char *sub, bool interactive) {
    tw_output *o = w->ctx.out;
    long long wd = (long long)w->width, ht = (long long)height;
    tw_out_str(o, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    tw_out_printf(o, "<svg version=\"1.1\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%lld\" "
                     "height=\"%lld\" viewBox=\"0 0 %lld %lld\">\n", wd, ht, wd, ht);
    tw_out_str(o, "<defs><linearGradient id=\"bg\" x1=\"0\" y1=\"0\" x2=\"0\" y2=\"1\">"
                  "<stop offset=\"0\" stop-color=\"#f6f6f6\"/>"
                  "<stop offset=\"1\" stop-color=\"#f1ecd8\"/></linearGradient></defs>\n");
    tw_out_str(o, style);
    tw_out_printf(o, "<rect x=\"0\" y=\"0\" width=\"%lld\" height=\"%lld\" fill=\"url(#bg)\"/>\n",
                  wd, ht);
    tw_out_printf(o, "<text id=\"title\" x=\"%lld\" y=\"24\">", wd / 2);
    put_text(w, w->title, strlen(w->title));
    tw_out_printf(o, "</text>\n<text id=\"subtitle\" x=\"%lld\" y=\"42\">Source: ", wd / 2);
    const char *fmt = w->ctx.info->format ? w->ctx.info->format : "unknown";
    put_text(w, fmt, strlen(fmt));
    tw_out_str(o, sub);
    if (w->pruned) {
        char px[48];
        fmt_px(w->min_mpx, px, sizeof px);
        tw_out_printf(o, "; %llu %s narrower than %s not drawn", (unsigned long long)w->pruned,
                      w->chart ? w->pruned == 1 ? "invocation" : "invocations"
                               : w->pruned == 1 ? "frame" : "frames", px);
    }
    tw_out_str(o, "</text>\n");
    if (!interactive) return;
    tw_out_printf(o,
                  "<g><title>Show everything again (Escape)</title><text id=\"unzoom\" "
                  "class=\"btn off\" x=\"%d\" y=\"24\">Reset zoom</text></g>\n"
                  "<g><title>Highlight the frames whose names match a regular expression "
                  "(Ctrl-F or /)</title><text id=\"search\" class=\"btn\" x=\"%lld\" "
                  "y=\"24\">Search</text></g>\n"
                  "<g><title>Search ignoring case</title><text id=\"ic\" class=\"btn\" "
                  "x=\"%lld\" y=\"24\">ic</text></g>\n"
                  "<text id=\"details\" x=\"%d\" y=\"%lld\"> </text>\n"
                  "<text id=\"matched\" x=\"%lld\" y=\"%lld\"> </text>\n",
                  XPAD, wd - XPAD - 24, wd - XPAD, XPAD, ht - 14, wd - XPAD, ht - 14);
}

/* A valid SVG that says there is nothing to draw. */
static void put_empty(svg_writer *w, const char *why) {
    tw_output *o = w->ctx.out;
    put_head(w, TOP + 40 + BOTTOM, "", false);
    tw_out_printf(o, "<text id=\"empty\" x=\"%lld\" y=\"%d\">%s</text>\n</svg>\n",
                  (long long)(w->width / 2), TOP + 30, why);
}

/* The script (it holds no names: they stay in the document, escaped). */
static const char *const script[] = {
    "(function (cfg) {\n",
    "    \"use strict\";\n",
    "    var HIGHLIGHT = \"#d24cd2\";\n",
    "    var frames = [], zoomed = null, term = \"\", icase = false;\n",
    "    var details, matched, unzoomBtn, searchBtn, icBtn;\n",
    "\n",
    "    /* Columns a code point takes in a monospace font (as the writer counts). */\n",
    "    function cols(c) {\n",
    "        if ((c >= 0x300 && c <= 0x36f) || (c >= 0x200b && c <= 0x200f) ||\n",
    "            (c >= 0xfe00 && c <= 0xfe0f)) return 0;\n",
    "        if ((c >= 0x1100 && c <= 0x115f) || (c >= 0x2e80 && c <= 0xa4cf && c !== 0x303f) ||\n",
    "            (c >= 0xac00 && c <= 0xd7a3) || (c >= 0xf900 && c <= 0xfaff) ||\n",
    "            (c >= 0xfe30 && c <= 0xfe4f) || (c >= 0xff00 && c <= 0xff60) ||\n",
    "            (c >= 0xffe0 && c <= 0xffe6) || (c >= 0x1f300 && c <= 0x1f64f) ||\n",
    "            (c >= 0x1f900 && c <= 0x1f9ff) || (c >= 0x20000 && c <= 0x3fffd)) return 2;\n",
    "        return 1;\n",
    "    }\n",
    "\n",
    "    /* What a label `px` pixels wide shows of `s`: all of it, the part that\n",
    "     * fits followed by \"..\", or nothing. */\n",
    "    function fit(s, px) {\n",
    "        var room = Math.floor((px - 6) / cfg.charw), used = 0, cut = -1, i, c, w;\n",
    "        if (room < 3) return \"\";\n",
    "        for (i = 0; i < s.length; i += c > 0xffff ? 2 : 1) {\n",
    "            c = s.codePointAt(i);\n",
    "            w = cols(c);\n",
    "            if (cut < 0 && used + w > room - 2) cut = i;\n",
    "            used += w;\n",
    "            if (used > room) return s.substring(0, cut) + \"..\";\n",
    "        }\n",
    "        return s;\n",
    "    }\n",
    "\n",
    "    /* A frame's name: its tooltip up to the last \" (\". */\n",
    "    function nameOf(f) {\n",
    "        if (f.name === undefined) {\n",
    "            var t = f.title.textContent, k = t.lastIndexOf(\" (\");\n",
    "            f.name = k >= 0 ? t.substring(0, k) : t;\n",
    "        }\n",
    "        return f.name;\n",
    "    }\n",
    "\n",
    "    /* The lane (flame chart) a frame at `y` is in: cfg.lanes holds their tops. */\n",
    "    function laneOf(y) {\n",
    "        var lo = 0, hi = cfg.lanes.length - 1, mid;\n",
    "        while (lo < hi) {\n",
    "            mid = (lo + hi + 1) >> 1;\n",
    "            if (cfg.lanes[mid] <= y) lo = mid;\n",
    "            else hi = mid - 1;\n",
    "        }\n",
    "        return lo;\n",
    "    }\n",
    "\n",
    "    function frameOf(el) {\n",
    "        for (; el && el.nodeType === 1; el = el.parentNode)\n",
    "            if (el.twFrame !== undefined) return frames[el.twFrame];\n",
    "        return null;\n",
    "    }\n",
    "\n",
    "    function saveState() {\n",
    "        try {\n",
    "            var p = new URLSearchParams(window.location.search), q;\n",
    "            [\"x\", \"y\", \"s\", \"i\"].forEach(function (k) { p.delete(k); });\n",
    "            if (zoomed) {\n",
    "                p.set(\"x\", zoomed.g.getAttribute(\"data-x\"));\n",
    "                p.set(\"y\", zoomed.rect.getAttribute(\"y\"));\n",
    "            }\n",
    "            if (term) p.set(\"s\", term);\n",
    "            if (icase) p.set(\"i\", \"1\");\n",
    "            q = p.toString();\n",
    "            window.history.replaceState(null, \"\", window.location.pathname +\n",
    "                                        (q ? \"?\" + q : \"\") + window.location.hash);\n",
    "        } catch (e) {\n",
    "            /* no history to keep the state in (a data: URL, an older viewer) */\n",
    "        }\n",
    "    }\n",
    "\n",
    "    /* Show the range of frame f (null: everything) across the full width. */\n",
    "    function zoom(f) {\n",
    "        var x0 = f ? f.x : 0, x1 = f ? f.x + f.w : cfg.xmax, i, g, a, b, px, pw, scale;\n",
    "        if (f && !(f.w > 0)) return;\n",
    "        scale = (cfg.width - 2 * cfg.xpad) / (x1 - x0);\n",
    "        zoomed = f;\n",
    "        for (i = 0; i < frames.length; i++) {\n",
    "            g = frames[i];\n",
    "            if (!f) {\n",
    "                g.g.style.display = \"\";\n",
    "                g.g.setAttribute(\"class\", \"f\");\n",
    "                g.rect.setAttribute(\"x\", g.rx);\n",
    "                g.rect.setAttribute(\"width\", g.rw);\n",
    "                g.text.setAttribute(\"x\", g.tx);\n",
    "                g.text.textContent = g.label;\n",
    "                continue;\n",
    "            }\n",
    "            a = g.x;\n",
    "            b = g.x + g.w;\n",
    "            if (b <= x0 || a >= x1) {\n",
    "                g.g.style.display = \"none\";\n",
    "                continue;\n",
    "            }\n",
    "            if (a < x0) a = x0;\n",
    "            if (b > x1) b = x1;\n",
    "            px = cfg.xpad + (a - x0) * scale;\n",
    "            pw = (b - a) * scale;\n",
    "            g.g.style.display = \"\";\n",
    "            /* in a flame graph the frames below the zoomed one are its callers */\n",
    "            g.g.setAttribute(\"class\", !cfg.chart && g.y > f.y ? \"f p\" : \"f\");\n",
    "            g.rect.setAttribute(\"x\", px.toFixed(2));\n",
    "            g.rect.setAttribute(\"width\", pw.toFixed(2));\n",
    "            g.text.setAttribute(\"x\", (px + 3).toFixed(2));\n",
    "            g.text.textContent = fit(nameOf(g), pw);\n",
    "        }\n",
    "        unzoomBtn.setAttribute(\"class\", f ? \"btn\" : \"btn off\");\n",
    "        saveState();\n",
    "    }\n",
    "\n",
    "    /* A test for names: the term as a regular expression, or as plain text\n",
    "     * when it is not a valid one. */\n",
    "    function matcher(t) {\n",
    "        var re = null, lt;\n",
    "        try {\n",
    "            re = new RegExp(t, icase ? \"i\" : \"\");\n",
    "        } catch (e) {\n",
    "            re = null;\n",
    "        }\n",
    "        if (re) return function (s) { return re.test(s); };\n",
    "        lt = icase ? t.toLowerCase() : t;\n",
    "        return function (s) { return (icase ? s.toLowerCase() : s).indexOf(lt) >= 0; };\n",
    "    }\n",
    "\n",
    "    /* Highlight the frames whose names match `t` (\"\" clears), and show the\n",
    "     * share of the time they cover, nested matches counted once. */\n",
    "    function search(t) {\n",
    "        var m, hits = [], i, f, hit, sum = 0, lane = -1, end = 0;\n",
    "        term = t || \"\";\n",
    "        m = term ? matcher(term) : null;\n",
    "        for (i = 0; i < frames.length; i++) {\n",
    "            f = frames[i];\n",
    "            hit = m !== null && m(nameOf(f));\n",
    "            f.rect.setAttribute(\"fill\", hit ? HIGHLIGHT : f.fill);\n",
    "            if (hit) hits.push(f);\n",
    "        }\n",
    "        hits.sort(function (p, q) { return p.lane - q.lane || p.x - q.x || q.w - p.w; });\n",
    "        for (i = 0; i < hits.length; i++) {\n",
    "            f = hits[i];\n",
    "            if (f.lane !== lane) {\n",
    "                lane = f.lane;\n",
    "                end = -Infinity;\n",
    "            }\n",
    "            if (f.x + f.w <= end) continue;\n",
    "            sum += f.x + f.w - Math.max(f.x, end);\n",
    "            end = f.x + f.w;\n",
    "        }\n",
    "        matched.textContent = !m ? \" \" : \"Matched: \" +\n",
    "            (cfg.total > 0 ? (100 * sum / cfg.total).toFixed(1) + \"%\" : \"-\") +\n",
    "            \" (\" + hits.length + (hits.length === 1 ? \" frame)\" : \" frames)\");\n",
    "        searchBtn.textContent = m ? \"Reset search\" : \"Search\";\n",
    "        saveState();\n",
    "    }\n",
    "\n",
    "    function ask() {\n",
    "        var t = window.prompt(\"Search for (a regular expression, or text)\" +\n",
    "                              (icase ? \", ignoring case\" : \"\") + \":\", term);\n",
    "        if (t !== null) search(t);\n",
    "    }\n",
    "\n",
    "    function setCase(on) {\n",
    "        icase = on;\n",
    "        icBtn.setAttribute(\"class\", on ? \"btn on\" : \"btn\");\n",
    "    }\n",
    "\n",
    "    function restore() {\n",
    "        var p, x, y, i;\n",
    "        try {\n",
    "            p = new URLSearchParams(window.location.search);\n",
    "        } catch (e) {\n",
    "            return;\n",
    "        }\n",
    "        setCase(p.get(\"i\") === \"1\");\n",
    "        x = p.get(\"x\");\n",
    "        y = p.get(\"y\");\n",
    "        if (x !== null && y !== null) {\n",
    "            for (i = 0; i < frames.length; i++) {\n",
    "                if (frames[i].g.getAttribute(\"data-x\") === x &&\n",
    "                    frames[i].rect.getAttribute(\"y\") === y) {\n",
    "                    zoom(frames[i]);\n",
    "                    break;\n",
    "                }\n",
    "            }\n",
    "        }\n",
    "        if (p.get(\"s\")) search(p.get(\"s\"));\n",
    "    }\n",
    "\n",
    "    function init() {\n",
    "        var box = document.getElementById(\"frames\"), list = box.children, i, g, r, t, f;\n",
    "        details = document.getElementById(\"details\");\n",
    "        matched = document.getElementById(\"matched\");\n",
    "        unzoomBtn = document.getElementById(\"unzoom\");\n",
    "        searchBtn = document.getElementById(\"search\");\n",
    "        icBtn = document.getElementById(\"ic\");\n",
    "        for (i = 0; i < list.length; i++) {\n",
    "            g = list[i];\n",
    "            r = g.getElementsByTagName(\"rect\")[0];\n",
    "            t = g.getElementsByTagName(\"text\")[0];\n",
    "            f = {g: g, rect: r, text: t, title: g.getElementsByTagName(\"title\")[0],\n",
    "                 x: parseFloat(g.getAttribute(\"data-x\")),\n",
    "                 w: parseFloat(g.getAttribute(\"data-w\")),\n",
    "                 y: parseFloat(r.getAttribute(\"y\")), rx: r.getAttribute(\"x\"),\n",
    "                 rw: r.getAttribute(\"width\"), tx: t.getAttribute(\"x\"),\n",
    "                 label: t.textContent, fill: r.getAttribute(\"fill\")};\n",
    "            f.lane = cfg.chart ? laneOf(f.y) : 0;\n",
    "            g.twFrame = frames.length;\n",
    "            frames.push(f);\n",
    "        }\n",
    "        box.addEventListener(\"click\", function (e) {\n",
    "            var fr = frameOf(e.target);\n",
    "            if (fr) zoom(fr);\n",
    "        });\n",
    "        box.addEventListener(\"mouseover\", function (e) {\n",
    "            var fr = frameOf(e.target);\n",
    "            if (fr) details.textContent = fit(fr.title.textContent, cfg.width * 0.7);\n",
    "        });\n",
    "        box.addEventListener(\"mouseout\", function () { details.textContent = \" \"; });\n",
    "        unzoomBtn.addEventListener(\"click\", function () { zoom(null); });\n",
    "        searchBtn.addEventListener(\"click\", function () {\n",
    "            if (term) search(\"\");\n",
    "            else ask();\n",
    "        });\n",
    "        icBtn.addEventListener(\"click\", function () {\n",
    "            setCase(!icase);\n",
    "            if (term) search(term);\n",
    "            else saveState();\n",
    "        });\n",
    "        document.addEventListener(\"keydown\", function (e) {\n",
    "            if (((e.ctrlKey || e.metaKey) && (e.key === \"f\" || e.key === \"F\")) ||\n",
    "                (e.key === \"/\" && !e.ctrlKey && !e.metaKey && !e.altKey)) {\n",
    "                e.preventDefault();\n",
    "                ask();\n",
    "            } else if (e.key === \"Escape\") {\n",
    "                zoom(null);\n",
    "            }\n",
    "        });\n",
    "        restore();\n",
    "    }\n",
    "\n",
    "    init();\n",
    "})(TW);\n",
};

static void put_script(svg_writer *w, int64_t xmax, int64_t total, const int64_t *lanes,
                       size_t nlanes) {
    tw_output *o = w->ctx.out;
    tw_out_printf(o,
                  "<script type=\"text/ecmascript\"><![CDATA[\n"
                  "var TW = {chart: %s, width: %lld, xpad: %d, charw: %d.%d, xmax: %lld, "
                  "total: %lld, lanes: [",
                  w->chart ? "true" : "false", (long long)w->width, XPAD, CHAR_CPX / 100,
                  CHAR_CPX / 10 % 10, (long long)xmax, (long long)total);
    for (size_t i = 0; i < nlanes; i++)
        tw_out_printf(o, "%s%lld", i ? ", " : "", (long long)lanes[i]);
    tw_out_str(o, "]};\n");
    for (size_t i = 0; i < sizeof script / sizeof script[0]; i++) tw_out_str(o, script[i]);
    tw_out_str(o, "]]></script>\n</svg>\n");
}

/* The share of `total` as "12.34%". */
static void fmt_pct(int64_t v, int64_t total, char *buf, size_t n) {
    int64_t p;
    if (total <= 0 || !tw_muldiv_i64(v, 10000, total, &p)) p = 0;
    snprintf(buf, n, "%lld.%02lld%%", (long long)(p / 100), (long long)(p % 100));
}

static int cmp_name(const void *a, const void *b) {
    const node *x = *(const node *const *)a, *y = *(const node *const *)b;
    int c = memcmp(x->name, y->name, x->len < y->len ? x->len : y->len);
    return c ? c : x->len < y->len ? -1 : x->len > y->len;
}

static size_t threads_used(const svg_writer *w) {
    size_t n = 0;
    for (size_t i = 0; i < w->nthreads; i++) n += w->threads[i]->used;
    return n;
}

static int graph_end(svg_writer *w) {
    tw_output *o = w->ctx.out;
    node *nodes = w->nodes;
    size_t n = w->nnodes, nused = threads_used(w);
    int64_t total = nodes[0].gross, avail = w->width - 2 * XPAD;
    char sub[160], g[40], net[40], pct[40], details[200];
    if (total <= 0) {
        put_empty(w, n > 1 ? "Nothing to draw: no scope takes any time"
                           : "Nothing to draw: the input has no scopes");
        return TW_OK;
    }
    /* lay out from the root: children by name, each as wide as its gross
     * time (clamped to its parent's range), the narrow ones pruned */
    uint32_t *stack = malloc(n * sizeof *stack), *order = malloc(n * sizeof *order);
    node **kids = malloc(n * sizeof *kids);
    if (!stack || !order || !kids) {
        free(stack);
        free(order);
        free(kids);
        oom(w);
        return TW_ERR;
    }
    size_t sp = 0, drawn = 0;
    uint32_t maxdepth = 0;
    nodes[0].x = 0;
    nodes[0].w = total;
    stack[sp++] = 0;
    while (sp) {
        node *nd = &nodes[stack[--sp]];
        int64_t m;
        if (!tw_muldiv_i64(nd->w, avail * 1000, total, &m) || m < w->min_mpx) continue;
        nd->drawn = true;
        order[drawn++] = (uint32_t)(nd - nodes);
        if (nd->depth > maxdepth) maxdepth = nd->depth;
        size_t nk = 0;
        for (uint32_t c = nd->child; c; c = nodes[c].next) kids[nk++] = &nodes[c];
        tw_qsort(kids, nk, sizeof *kids, cmp_name);
        int64_t at = nd->x, end = nd->x + nd->w;
        for (size_t k = 0; k < nk; k++) {
            kids[k]->x = at;
            kids[k]->w = kids[k]->gross < end - at ? kids[k]->gross : end - at;
            if (kids[k]->w < 0) kids[k]->w = 0;
            at += kids[k]->w;
        }
        for (size_t k = nk; k > 0; k--) stack[sp++] = (uint32_t)(kids[k - 1] - nodes);
    }
    w->pruned = n - drawn;  /* every other node is in a pruned subtree */
    tw_duration_format(total, g, sizeof g);
    snprintf(sub, sizeof sub, "; total %s (gross time of the outermost scopes) on %zu thread%s", g,
             nused, nused == 1 ? "" : "s");
    put_head(w, TOP + (int64_t)(maxdepth + 1) * FRAME_H + BOTTOM, sub, true);
    tw_out_str(o, "<g id=\"frames\">\n");
    for (size_t i = 0; i < drawn; i++) {
        const node *nd = &nodes[order[i]];
        int64_t x0 = 0, x1 = 0;
        tw_muldiv_i64(nd->x, avail * 100, total, &x0);
        tw_muldiv_i64(nd->x + nd->w, avail * 100, total, &x1);
        tw_duration_format(nd->gross, g, sizeof g);
        fmt_pct(nd->gross, total, pct, sizeof pct);
        if (nd->kind == K_SCOPE) {
            tw_duration_format(nd->net, net, sizeof net);
            snprintf(details, sizeof details, "gross %s, net %s, %llu call%s, %s", g, net,
                     (unsigned long long)nd->count, nd->count == 1 ? "" : "s", pct);
        } else {
            snprintf(details, sizeof details, "%sgross %s, %s",
                     nd->kind == K_PROCESS ? "process, " : nd->kind == K_THREAD ? "thread, " : "",
                     g, pct);
        }
        put_frame(w, nd->kind, nd->name, nd->len, nd->x, nd->w, x0, x1 - x0,
                  TOP + (int64_t)(maxdepth - nd->depth) * FRAME_H, details);
    }
    tw_out_str(o, "</g>\n");
    int64_t lane = TOP;
    put_script(w, total, total, &lane, 1);
    free(stack);
    free(order);
    free(kids);
    return TW_OK;
}

/* Where an invocation of the flame chart goes: its range in ns from the
 * first event, and in hundredths of a pixel; false when it is too narrow. */
static bool place(const svg_writer *w, const rec *r, int64_t span, int64_t *dx, int64_t *dw,
                  int64_t *x0, int64_t *x1) {
    int64_t avail = w->width - 2 * XPAD, m;
    if (!tw_sub_i64(r->begin, w->t0, dx) || *dx > span) *dx = span;
    if (*dx < 0) *dx = 0;
    if (!tw_sub_i64(r->end, r->begin, dw) || *dw > span - *dx) *dw = span - *dx;
    if (*dw < 0) *dw = 0;
    if (!tw_muldiv_i64(*dw, avail * 1000, span, &m) || m < w->min_mpx) return false;
    tw_muldiv_i64(*dx, avail * 100, span, x0);
    tw_muldiv_i64(*dx + *dw, avail * 100, span, x1);
    return true;
}

static int cmp_lane(const void *a, const void *b) {
    const sthread *x = *(const sthread *const *)a, *y = *(const sthread *const *)b;
    if (x->rank != y->rank) return x->rank > y->rank ? 1 : -1;
    return (x->top > y->top) - (x->top < y->top);
}

static int chart_io(svg_writer *w) {
    tw_report(w->ctx.diag, TW_R_IO_ERROR, NULL,
              "cannot read the flame chart's temporary file back: %s",
              ferror(w->spool) ? strerror(errno) : "it is shorter than written");
    return TW_ERR;
}

static int chart_end(svg_writer *w) {
    tw_output *o = w->ctx.out;
    int64_t span = 0, avail = w->width - 2 * XPAD, dx, dw, x0, x1;
    if (w->have_ts && !tw_sub_i64(w->t1, w->t0, &span)) span = INT64_MAX;
    char sub[160], at[40], g[40], net[40], call[40], details[200];
    if (!w->nrecs || span <= 0) {
        put_empty(w, w->nrecs ? "Nothing to draw: no scope takes any time"
                              : "Nothing to draw: the input has no scopes");
        return TW_OK;
    }
    rec r;
    if (fflush(w->spool) != 0 || fseek(w->spool, 0, SEEK_SET) != 0) return chart_io(w);
    for (uint64_t i = 0; i < w->nrecs; i++) {  /* the rows each thread needs */
        if (fread(&r, sizeof r, 1, w->spool) != 1) return chart_io(w);
        if (!place(w, &r, span, &dx, &dw, &x0, &x1)) {
            w->pruned++;
            continue;
        }
        sthread *t = w->threads[r.thread];
        if (r.depth + 1 > t->rows) t->rows = r.depth + 1;
    }
    /* one lane per thread with scopes, the threads of a process together */
    sthread **lanes = malloc((w->nthreads ? w->nthreads : 1) * sizeof *lanes);
    int64_t *tops = malloc((w->nthreads ? w->nthreads : 1) * sizeof *tops);
    tw_u64map pids = {0};
    size_t nl = 0;
    if (!lanes || !tops) goto oom;
    for (size_t i = 0; i < w->nthreads; i++) {
        sthread *t = w->threads[i];
        if (!t->used) continue;
        uintptr_t rank = (uintptr_t)tw_u64map_get(&pids, t->pid);
        if (!rank && !tw_u64map_put(&pids, t->pid, (void *)(uintptr_t)(rank = pids.n + 1)))
            goto oom;
        t->rank = rank;
        t->top = (int64_t)i;  /* for the sort: order of first sight */
        lanes[nl++] = t;
    }
    tw_qsort(lanes, nl, sizeof *lanes, cmp_lane);
    int64_t y = TOP;
    for (size_t k = 0; k < nl; k++) {
        tops[k] = lanes[k]->top = y;
        y += LANE_HEAD + (int64_t)lanes[k]->rows * FRAME_H + LANE_PAD;
    }
    tw_duration_format(span, g, sizeof g);
    snprintf(sub, sizeof sub, "; %s from the first to the last event on %zu thread%s", g, nl,
             nl == 1 ? "" : "s");
    put_head(w, y + BOTTOM, sub, true);
    for (size_t k = 0; k < nl; k++) {
        sthread *t = lanes[k];
        tw_out_printf(o,
                      "<rect class=\"band%d\" x=\"0\" y=\"%lld\" width=\"%lld\" "
                      "height=\"%lld\"/>\n",
                      (int)(k % 2), (long long)t->top, (long long)w->width,
                      (long long)(LANE_HEAD + (int64_t)t->rows * FRAME_H + LANE_PAD));
        tw_buf_clear(&w->buf);
        if (!label(w, false, t->pid, 0) || !tw_buf_append(&w->buf, " / ", 3) ||
            !label(w, true, t->pid, t->tid))
            goto oom;
        bool dots;
        size_t cut = label_cut(w->buf.p, w->buf.len, avail * 100, &dots);
        tw_out_printf(o, "<text class=\"lane\" x=\"%d\" y=\"%lld\">", XPAD,
                      (long long)(t->top + 13));
        put_text(w, w->buf.p, cut);
        tw_out_str(o, dots ? "..</text>\n" : "</text>\n");
    }
    tw_out_str(o, "<g id=\"frames\">\n");
    if (fseek(w->spool, 0, SEEK_SET) != 0) goto io;
    for (uint64_t i = 0; i < w->nrecs; i++) {
        if (fread(&r, sizeof r, 1, w->spool) != 1) goto io;
        if (!place(w, &r, span, &dx, &dw, &x0, &x1)) continue;
        const tw_str *name = tw_strtab_at(w->ctx.strtab, r.name);
        const sthread *t = w->threads[r.thread];
        tw_duration_format(dx, at, sizeof at);
        tw_duration_format(r.gross, g, sizeof g);
        tw_duration_format(r.net, net, sizeof net);
        int64_t c;
        if (!tw_sub_i64(r.end, r.begin, &c)) c = INT64_MAX;
        tw_duration_format(c, call, sizeof call);
        snprintf(details, sizeof details, "at %s, gross %s, net %s%s%s", at, g, net,
                 c != r.gross ? ", call " : "", c != r.gross ? call : "");
        put_frame(w, K_SCOPE, name->s, name->len, dx, dw, x0, x1 - x0,
                  t->top + LANE_HEAD + (int64_t)r.depth * FRAME_H, details);
    }
    tw_out_str(o, "</g>\n");
    put_script(w, span, w->busy, tops, nl);
    free(lanes);
    free(tops);
    tw_u64map_free(&pids);
    return TW_OK;
io:
    free(lanes);
    free(tops);
    tw_u64map_free(&pids);
    return chart_io(w);
oom:
    free(lanes);
    free(tops);
    tw_u64map_free(&pids);
    oom(w);
    return TW_ERR;
}

static int svg_end(void *state) {
    svg_writer *w = state;
    if (w->failed || tw_pairing_finish(w->pairing) != TW_OK || w->failed) return TW_ERR;
    tw_loss_repairs(w->ctx.loss, &w->quiet);
    int rc = w->chart ? chart_end(w) : graph_end(w);
    if (w->pruned)
        tw_loss_add(w->ctx.loss,
                    w->chart ? "invocations narrower than the minimum width not drawn"
                             : "frames narrower than the minimum width not drawn",
                    w->pruned);
    if (w->replaced)
        tw_loss_add(w->ctx.loss,
                    "names with invalid UTF-8 or control characters (replaced by U+FFFD)",
                    w->replaced);
    return rc;
}

static void svg_free(void *state) {
    svg_writer *w = state;
    for (size_t i = 0; i < w->nthreads; i++) {
        free(w->threads[i]->stack);
        free(w->threads[i]);
    }
    free(w->threads);
    tw_names_free(&w->names);
    free(w->nodes);
    tw_u64map_free(&w->kids);
    tw_strtab_free(w->labels);
    tw_pairing_free(w->pairing);
    if (w->spool) fclose(w->spool);
    tw_buf_free(&w->buf);
    free(w);
}

static const tw_option svg_options[] = {
    {OPT_CHART, TW_OPT_BOOL, "no", NULL, TW_OPT_WRITE,
     "draw the svg as a flame chart (a band per thread along time), not a flame graph"},
    {OPT_TITLE, TW_OPT_STRING, "", NULL, TW_OPT_WRITE,
     "title of the svg (empty: Flame graph, or Flame chart)"},
    {OPT_WIDTH, TW_OPT_INT, "1200", NULL, TW_OPT_WRITE,
     "width of the svg in pixels, 100 to 100000"},
    {OPT_MIN, TW_OPT_STRING, "0.1", NULL, TW_OPT_WRITE,
     "svg frames narrower than this are left out: pixels, or N% of the width"},
    {NULL, 0, NULL, NULL, 0, NULL},
};

static const char *const svg_exts[] = {".svg", NULL};

static const tw_format svg_format = {
    .abi = TW_FORMAT_ABI,
    .name = "svg",
    .extensions = svg_exts,
    .description = "interactive flame graph or flame chart (self-contained SVG with its script)",
    .flags = TW_FMT_TEXT | TW_FMT_THREADS | TW_FMT_WRITER_TRANSIENT,
    .options = svg_options,
    .write_begin = svg_begin,
    .write_event = svg_event,
    .write_end = svg_end,
    .write_free = svg_free,
};

TW_FORMAT_EXPORT(svg, svg_format)
