/*
 * Profiles: the statistics report.  Rows per (pid, tid, scope) are taken
 * from finished tw_stats or read back from JSON reports, then grouped per
 * scope (or per thread and scope), filtered, sorted and written as a human
 * table, CSV or JSON.  Merging reports is adding their rows, counts,
 * problems and time bounds before grouping.  See docs/stats.md.
 */
#include <errno.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/json.h"
#include "core/util.h"
#include "tracewright/stats.h"

#define SCHEMA "tracewright-stats/1"

typedef struct input {
    char *path, *format;
} input;

typedef struct problem {
    char *id;
    uint64_t n;
} problem;

enum clock { CLOCK_NONE = 0, CLOCK_TRACE, CLOCK_WALL, CLOCK_MIXED };

struct tw_profile {
    tw_scope_stats *rows;  /* names and thread names are owned copies */
    size_t n, cap;
    input *inputs;
    size_t ninputs, icap;
    problem *problems;    /* in order of first report */
    size_t nproblems, problem_cap;
    tw_strtab *problem_ids; /* id -> index in `problems` (the string's id) */
    uint64_t events, threads;
    enum clock clock;
    int64_t first, last;
    bool by_thread;
    size_t grouped;   /* rows after filtering and grouping, before --top */
    tw_strtab *paths; /* input paths seen in merged reports */
};

static const char *const clock_names[] = {"none", "trace", "wall", "mixed"};

/* a + b for counts, saturated at INT64_MAX: what a report can hold (its
 * numbers are signed 64-bit integers), however many are merged */
static uint64_t count_add(uint64_t a, uint64_t b) {
    uint64_t s = a + b;
    return s < a || s > (uint64_t)INT64_MAX ? (uint64_t)INT64_MAX : s;
}

tw_profile *tw_profile_new(void) {
    tw_profile *p = tw_calloc_lines(1, sizeof *p);
    if (p) p->by_thread = true;
    return p;
}

/* Free what a row owns: its name and its thread's. */
static void free_row(tw_scope_stats *r) {
    free((char *)r->name);
    free((char *)r->thread_name);
}

void tw_profile_free(tw_profile *p) {
    if (!p) return;
    for (size_t i = 0; i < p->n; i++) free_row(&p->rows[i]);
    for (size_t i = 0; i < p->ninputs; i++) {
        free(p->inputs[i].path);
        free(p->inputs[i].format);
    }
    free(p->rows);
    free(p->inputs);
    free(p->problems);
    tw_strtab_free(p->paths);
    tw_strtab_free(p->problem_ids);
    free(p);
}

static char *dup_bytes(const char *s, size_t n) {
    char *d = malloc(n + 1);
    if (!d) return NULL;
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

int tw_profile_add_input(tw_profile *p, const char *path, const char *format) {
    if (!tw_grow(&p->inputs, &p->icap, p->ninputs + 1, sizeof *p->inputs, 4)) return TW_ERR;
    input *in = &p->inputs[p->ninputs];
    in->path = dup_bytes(path, strlen(path));
    in->format = dup_bytes(format, strlen(format));
    if (!in->path || !in->format) {
        free(in->path);
        free(in->format);
        return TW_ERR;
    }
    p->ninputs++;
    return TW_OK;
}

/* Count n problems of rule `id`. */
static int add_problem(tw_profile *p, const char *id, size_t idlen, uint64_t n) {
    if (!p->problem_ids && !(p->problem_ids = tw_strtab_new())) return TW_ERR;
    size_t known = tw_strtab_count(p->problem_ids);
    const tw_str *s = tw_intern(p->problem_ids, id, idlen);
    if (!s) return TW_ERR;
    if (s->id < known) { /* interned in order: its id is its index */
        p->problems[s->id].n += n;
        return TW_OK;
    }
    if (!tw_grow(&p->problems, &p->problem_cap, p->nproblems + 1, sizeof *p->problems, 8))
        return TW_ERR;
    p->problems[p->nproblems].id = (char *)s->s; /* owned by problem_ids */
    p->problems[p->nproblems].n = n;
    p->nproblems++;
    return TW_OK;
}

static int cmp_problem(const void *a, const void *b) {
    return strcmp((*(const problem *const *)a)->id, (*(const problem *const *)b)->id);
}

/* The problems in order of rule id, as a malloc'ed array (NULL if none or
 * out of memory). */
static const problem **sorted_problems(const tw_profile *p) {
    if (!p->nproblems) return NULL;
    const problem **v = malloc(p->nproblems * sizeof *v);
    if (!v) return NULL;
    for (size_t i = 0; i < p->nproblems; i++) v[i] = &p->problems[i];
    tw_qsort(v, p->nproblems, sizeof *v, cmp_problem);
    return v;
}

/* Widen the time bounds by [first, last] on the given clock. */
static void add_bounds(tw_profile *p, enum clock c, int64_t first, int64_t last) {
    if (p->clock == CLOCK_NONE) {
        p->clock = c;
        p->first = first;
        p->last = last;
        return;
    }
    if (p->clock != c) p->clock = CLOCK_MIXED;
    if (first < p->first) p->first = first;
    if (last > p->last) p->last = last;
}

/* A new row holding `src`'s figures, with copies of its name and its
 * thread's name (NULL: none). */
static tw_scope_stats *new_row(tw_profile *p, const tw_scope_stats *src) {
    if (!tw_grow(&p->rows, &p->cap, p->n + 1, sizeof *p->rows, 64)) return NULL;
    tw_scope_stats *r = &p->rows[p->n];
    *r = *src;
    r->name = dup_bytes(src->name, src->name_len);
    r->thread_name = src->thread_name ? dup_bytes(src->thread_name, src->thread_name_len) : NULL;
    if (!r->name || (src->thread_name && !r->thread_name)) {
        free_row(r);
        return NULL;
    }
    p->n++;
    return r;
}

int tw_profile_add_stats(tw_profile *p, const tw_stats *s, const tw_trace_info *info,
                         const tw_diag_sink *diag) {
    for (size_t i = 0; i < tw_stats_scope_count(s); i++)
        if (!new_row(p, tw_stats_scope(s, i))) return TW_ERR;
    p->events = count_add(p->events, tw_stats_event_count(s));
    p->threads = count_add(p->threads, tw_stats_thread_count(s));
    int64_t first, last;
    if (tw_stats_bounds(s, &first, &last)) {
        if (info && info->has_origin) {
            /* on the wall clock, so that reports of other inputs line up */
            int64_t zero;
            if (tw_sub_i64(info->origin_ns, info->origin_ts, &zero) &&
                tw_add_i64(first, zero, &first) && tw_add_i64(last, zero, &last))
                add_bounds(p, CLOCK_WALL, first, last);
            else
                add_bounds(p, CLOCK_TRACE, first, last);
        } else {
            add_bounds(p, CLOCK_TRACE, first, last);
        }
    }
    for (int rule = 0; diag && rule < TW_RULE_COUNT; rule++) {
        /* how this run combined its inputs is not a problem of the inputs
         * (and a merge of per-input reports could not count it) */
        if (!diag->problems[rule] || rule == TW_R_NO_COMMON_CLOCK || rule == TW_R_PID_COLLISION)
            continue;
        const char *id = tw_rule_get((tw_rule)rule)->id;
        if (add_problem(p, id, strlen(id), diag->problems[rule]) != TW_OK) return TW_ERR;
    }
    return TW_OK;
}

/* ---- grouping, filtering, sorting ---------------------------------------- */

/* Bytes compared as unsigned, a prefix first. */
static int cmp_bytes(const char *a, size_t an, const char *b, size_t bn) {
    int c = memcmp(a, b, an < bn ? an : bn);
    if (c) return c;
    return an < bn ? -1 : an > bn;
}

static int cmp_name(const tw_scope_stats *a, const tw_scope_stats *b) {
    return cmp_bytes(a->name, a->name_len, b->name, b->name_len);
}

static int cmp_key(const void *pa, const void *pb, bool by_thread) {
    const tw_scope_stats *a = pa, *b = pb;
    int c = cmp_name(a, b);
    if (c || !by_thread) return c;
    if (a->pid != b->pid) return a->pid < b->pid ? -1 : 1;
    if (a->tid != b->tid) return a->tid < b->tid ? -1 : 1;
    return 0;
}

static int cmp_scope(const void *a, const void *b) { return cmp_key(a, b, false); }

/* By (name, pid, tid), and rows of the same key by thread name: a named
 * thread first, then by bytes; so that when merged reports name a thread
 * differently, grouping keeps the same name whatever their order. */
static int cmp_thread(const void *pa, const void *pb) {
    int c = cmp_key(pa, pb, true);
    if (c) return c;
    const tw_scope_stats *a = pa, *b = pb;
    if (!a->thread_name || !b->thread_name) return !a->thread_name - !b->thread_name;
    return cmp_bytes(a->thread_name, a->thread_name_len, b->thread_name, b->thread_name_len);
}

int tw_profile_group(tw_profile *p, bool by_thread, tw_diag_sink *diag) {
    if (by_thread) {
        for (size_t i = 0; i < p->n; i++) {
            if (!p->rows[i].by_thread) {
                tw_report(diag, TW_R_BAD_OPTION, NULL,
                          "rows per thread are needed (--by thread, --pid, --tid, --thread-name), but a "
                          "report has rows per scope only (it was made without --by thread)");
                return TW_ERR;
            }
        }
    }
    if (p->n > 1) tw_qsort(p->rows, p->n, sizeof *p->rows, by_thread ? cmp_thread : cmp_scope);
    size_t out = 0;
    for (size_t i = 0; i < p->n; i++) {
        tw_scope_stats *r = &p->rows[i];
        if (out && cmp_key(&p->rows[out - 1], r, by_thread) == 0) {
            tw_scope_stats *into = &p->rows[out - 1];
            into->count = count_add(into->count, r->count);
            into->incomplete = count_add(into->incomplete, r->incomplete);
            tw_stat_merge(&into->net, &r->net);
            tw_stat_merge(&into->gross, &r->gross);
            tw_stat_merge(&into->call, &r->call);
            tw_stat_merge(&into->period, &r->period);
            tw_stat_merge(&into->outside, &r->outside);
            free_row(r);
            continue;
        }
        if (!by_thread) {
            r->by_thread = false;
            r->pid = 0;
            r->tid = 0;
            free((char *)r->thread_name);
            r->thread_name = NULL;
            r->thread_name_len = 0;
        }
        p->rows[out++] = *r;
    }
    p->n = out;
    p->by_thread = by_thread;
    p->grouped = out;
    return TW_OK;
}

void tw_profile_filter(tw_profile *p, const tw_row_filter *f) {
    size_t out = 0;
    for (size_t i = 0; i < p->n; i++) {
        tw_scope_stats *r = &p->rows[i];
        bool keep = (!f->regex || regexec(f->regex, r->name, 0, NULL, 0) == 0) &&
                    (!f->has_pid || (r->by_thread && r->pid == f->pid)) &&
                    (!f->has_tid || (r->by_thread && r->tid == f->tid)) &&
                    (!f->thread_regex ||
                     (r->by_thread && r->thread_name &&
                      regexec(f->thread_regex, r->thread_name, 0, NULL, 0) == 0));
        if (keep) p->rows[out++] = *r;
        else free_row(r);
    }
    p->n = out;
}

static tw_sort sort_key;  /* for qsort's comparator (no qsort_r in C11/POSIX 2008) */

static int cmp_sorted(const void *pa, const void *pb) {
    const tw_scope_stats *a = pa, *b = pb;
    int64_t x = 0, y = 0;
    switch (sort_key) {
    case TW_SORT_NET: x = a->net.total, y = b->net.total; break;
    case TW_SORT_GROSS: x = a->gross.total, y = b->gross.total; break;
    case TW_SORT_CALL: x = a->call.total, y = b->call.total; break;
    case TW_SORT_COUNT:
        if (a->count != b->count) return a->count > b->count ? -1 : 1;
        break;
    case TW_SORT_NAME: break;
    }
    if (x != y) return x > y ? -1 : 1;  /* largest first */
    return cmp_key(a, b, true);
}

void tw_profile_sort(tw_profile *p, tw_sort by) {
    sort_key = by;
    if (p->n > 1) tw_qsort(p->rows, p->n, sizeof *p->rows, cmp_sorted);
}

void tw_profile_truncate(tw_profile *p, size_t n) {
    if (!n || n >= p->n) return;
    for (size_t i = n; i < p->n; i++) free_row(&p->rows[i]);
    p->n = n;
}

size_t tw_profile_row_count(const tw_profile *p) { return p->n; }
const tw_scope_stats *tw_profile_row(const tw_profile *p, size_t i) { return &p->rows[i]; }

static int64_t span_of(const tw_profile *p) {
    int64_t span;
    if (p->clock == CLOCK_NONE) return 0;
    return tw_sub_i64(p->last, p->first, &span) ? span : INT64_MAX;
}

/* ---- table ----------------------------------------------------------------- */

/* Per mille of the span, as "24.6%"; "-" without a span. */
static void fmt_pct(char *buf, size_t n, int64_t v, int64_t span) {
    if (span <= 0) {
        snprintf(buf, n, "-");
        return;
    }
    /* per mille = v * 1000 / span, rounded, without overflowing 64 bits */
    uint64_t uv = v < 0 ? 0 : (uint64_t)v, us = (uint64_t)span;
    while (us > UINT64_MAX / 1000) {  /* spans beyond 213 days: drop precision nobody sees */
        us /= 2;
        uv /= 2;
    }
    if (us == 0) us = 1;
    uint64_t pm = uv / us * 1000 + ((uv % us) * 1000 + us / 2) / us;
    snprintf(buf, n, "%llu.%llu%%", (unsigned long long)(pm / 10), (unsigned long long)(pm % 10));
}

enum { COLS = 11 };

/* The THREAD column: a thread's name on one line, cut to THREAD_SHOWN
 * columns, "..." ending what is cut. */
enum { THREAD_SHOWN = 32, THREAD_CELL = TW_DISPLAY_CELL_BYTES(THREAD_SHOWN) };

static void thread_cell(const tw_scope_stats *r, char *out) {
    if (!r->thread_name) memcpy(out, "-", 2);
    else tw_display_cell(r->thread_name, r->thread_name_len, THREAD_SHOWN, out);
}

static void pad(tw_output *o, const char *cell, size_t w) {
    for (size_t k = tw_display_width(cell, strlen(cell)); k < w; k++) tw_out_putc(o, ' ');
    tw_out_str(o, cell);
}

static void write_table(const tw_profile *p, tw_output *o) {
    int64_t span = span_of(p);
    char buf[64];
    size_t shown = p->ninputs > 10 ? 10 : p->ninputs;
    /* cppcheck-suppress knownConditionTrueFalse ; false positive: cppcheck takes ninputs for 0 */
    for (size_t i = 0; i < shown; i++) {
        tw_out_str(o, "input:  ");
        tw_out_display(o, p->inputs[i].path, strlen(p->inputs[i].path));
        tw_out_printf(o, " (%s)\n", p->inputs[i].format);
    }
    if (p->ninputs > shown) tw_out_printf(o, "input:  ... and %zu more\n", p->ninputs - shown);
    tw_duration_format(span, buf, sizeof buf);
    tw_out_printf(o, "span:   %s   events: %llu   threads: %llu   scopes: %zu", buf,
                  (unsigned long long)p->events, (unsigned long long)p->threads,
                  p->grouped > p->n ? p->grouped : p->n);
    if (p->grouped > p->n) tw_out_printf(o, " (%zu shown)", p->n);
    tw_out_str(o, "\n\n");

    /* cells first, to size the columns */
    static const char *const heads[COLS] = {"COUNT", "INC", "NET", "NET%", "GROSS", "CALL",
                                            "NET AVG", "NET MIN", "NET MAX", "PID", "TID"};
    size_t ncols = p->by_thread ? COLS : COLS - 2;
    size_t w[COLS];
    for (size_t c = 0; c < COLS; c++) w[c] = strlen(heads[c]);
    /* the THREAD column when rows per thread name some thread */
    bool named = false;
    for (size_t i = 0; p->by_thread && i < p->n; i++) named |= p->rows[i].thread_name != NULL;
    size_t wthread = strlen("THREAD");
    char (*cells)[COLS][40] = p->n ? malloc(p->n * sizeof *cells) : NULL;
    char (*threads)[THREAD_CELL] = named ? malloc(p->n * sizeof *threads) : NULL;
    if ((p->n && !cells) || (named && !threads)) {
        free(cells);
        free(threads);
        o->err = o->err ? o->err : ENOMEM;
        return;
    }
    for (size_t i = 0; i < p->n; i++) {
        const tw_scope_stats *r = &p->rows[i];
        char(*c)[40] = cells[i];
        size_t cw;
        snprintf(c[0], 40, "%llu", (unsigned long long)r->count);
        snprintf(c[1], 40, "%llu", (unsigned long long)r->incomplete);
        tw_duration_format(r->net.total, c[2], 40);
        fmt_pct(c[3], 40, r->net.total, span);
        tw_duration_format(r->gross.total, c[4], 40);
        tw_duration_format(r->call.total, c[5], 40);
        tw_duration_format(tw_stat_avg(&r->net), c[6], 40);
        tw_duration_format(r->net.min, c[7], 40);
        tw_duration_format(r->net.max, c[8], 40);
        snprintf(c[9], 40, "%lu", (unsigned long)r->pid);
        snprintf(c[10], 40, "%llu", (unsigned long long)r->tid);
        for (size_t k = 0; k < ncols; k++)
            if ((cw = tw_display_width(c[k], strlen(c[k]))) > w[k]) w[k] = cw;
        if (named) {
            thread_cell(r, threads[i]);
            if ((cw = tw_display_width(threads[i], strlen(threads[i]))) > wthread) wthread = cw;
        }
    }
    for (size_t k = 0; k < ncols; k++) {
        pad(o, heads[k], w[k]);
        tw_out_str(o, "  ");
    }
    if (named) tw_out_printf(o, "%-*s  ", (int)wthread, "THREAD");
    tw_out_str(o, "SCOPE\n");
    for (size_t i = 0; i < p->n; i++) {
        for (size_t k = 0; k < ncols; k++) {
            pad(o, cells[i][k], w[k]);
            tw_out_str(o, "  ");
        }
        if (named) { /* left-aligned, as the scope */
            tw_out_str(o, threads[i]);
            size_t k = tw_display_width(threads[i], strlen(threads[i]));
            for (; k < wthread + 2; k++) tw_out_putc(o, ' ');
        }
        tw_out_display(o, p->rows[i].name, p->rows[i].name_len);
        tw_out_putc(o, '\n');
    }
    free(cells);
    free(threads);
    tw_out_str(o, "\nproblems: ");
    const problem **probs = sorted_problems(p);
    if (!probs) tw_out_str(o, p->nproblems ? "(out of memory)" : "none");
    for (size_t k = 0; probs && k < p->nproblems; k++)
        tw_out_printf(o, "%s%llu %s", k ? ", " : "", (unsigned long long)probs[k]->n,
                      probs[k]->id);
    free(probs);
    tw_out_putc(o, '\n');
}

/* ---- CSV --------------------------------------------------------------------- */

static void csv_num(tw_output *o, int64_t v, bool present) {
    tw_out_putc(o, ',');
    if (present) tw_out_i64(o, v);
}

static void csv_stat(tw_output *o, const tw_stat *s, bool with_total) {
    bool any = s->n > 0;
    if (with_total) csv_num(o, s->total, any);
    csv_num(o, s->min, any);
    csv_num(o, s->max, any);
    csv_num(o, tw_stat_avg(s), any);
}

static void write_csv(const tw_profile *p, tw_output *o) {
    tw_out_str(o, p->by_thread ? "scope,pid,tid,thread," : "scope,");
    tw_out_str(o, "count,incomplete,net_total,net_min,net_max,net_avg,gross_total,gross_min,"
                  "gross_max,gross_avg,call_total,call_min,call_max,call_avg,period_min,"
                  "period_max,period_avg,outside_total,outside_min,outside_max,outside_avg\r\n");
    for (size_t i = 0; i < p->n; i++) {
        const tw_scope_stats *r = &p->rows[i];
        tw_out_csv_field(o, r->name, r->name_len);
        if (p->by_thread) {
            csv_num(o, r->pid, true);
            tw_out_putc(o, ',');
            tw_out_u64(o, r->tid);
            tw_out_putc(o, ',');
            if (r->thread_name) tw_out_csv_field(o, r->thread_name, r->thread_name_len);
        }
        tw_out_putc(o, ',');
        tw_out_u64(o, r->count);
        tw_out_putc(o, ',');
        tw_out_u64(o, r->incomplete);
        csv_stat(o, &r->net, true);
        csv_stat(o, &r->gross, true);
        csv_stat(o, &r->call, true);
        csv_stat(o, &r->period, false);
        csv_stat(o, &r->outside, true);
        tw_out_str(o, "\r\n");
    }
}

/* ---- JSON -------------------------------------------------------------------- */

static void json_key(tw_output *o, const char *key, int64_t v, bool first) {
    tw_out_printf(o, "%s\"%s\":", first ? "" : ",", key);
    tw_out_i64(o, v);
}

/* {"total":..,["sum":..,]"min":..,"max":..,"avg":..} */
static void json_stat(tw_output *o, const char *name, const tw_stat *s, bool with_sum) {
    tw_out_printf(o, ",\"%s\":{", name);
    json_key(o, "total", s->total, true);
    if (with_sum) json_key(o, "sum", s->sum, false);
    json_key(o, "min", s->min, false);
    json_key(o, "max", s->max, false);
    json_key(o, "avg", tw_stat_avg(s), false);
    tw_out_putc(o, '}');
}

/* period: {"count","sum","min","max","avg"}, outside: {"count","total",...}
 * (the outside total is its sum), or null when there was none */
static void json_interval(tw_output *o, const char *name, const tw_stat *s, bool with_total) {
    tw_out_printf(o, ",\"%s\":", name);
    if (!s->n) {
        tw_out_str(o, "null");
        return;
    }
    tw_out_putc(o, '{');
    json_key(o, "count", (int64_t)s->n, true);
    json_key(o, with_total ? "total" : "sum", with_total ? s->total : s->sum, false);
    json_key(o, "min", s->min, false);
    json_key(o, "max", s->max, false);
    json_key(o, "avg", tw_stat_avg(s), false);
    tw_out_putc(o, '}');
}

static void json_string(tw_output *o, const char *key, const char *s, size_t n) {
    tw_out_printf(o, "\"%s\":", key);
    if (!tw_out_json_str(o, s, n)) {
        tw_out_printf(o, ",\"%s_base64\":\"", key);
        tw_out_base64(o, s, n);
        tw_out_putc(o, '"');
    }
}

static void write_json(const tw_profile *p, tw_output *o) {
    tw_out_str(o, "{\"schema\":\"" SCHEMA "\",\"unit\":\"ns\"");
    json_key(o, "span_ns", span_of(p), false);
    json_key(o, "events", (int64_t)p->events, false);
    json_key(o, "threads", (int64_t)p->threads, false);
    tw_out_printf(o, ",\"clock\":\"%s\"", clock_names[p->clock]);
    if (p->clock != CLOCK_NONE) {
        json_key(o, "begin_ns", p->first, false);
        json_key(o, "end_ns", p->last, false);
    }
    tw_out_str(o, ",\n\"inputs\":[");
    for (size_t i = 0; i < p->ninputs; i++) {
        tw_out_str(o, i ? ",\n{" : "{");
        json_string(o, "path", p->inputs[i].path, strlen(p->inputs[i].path));
        tw_out_putc(o, ',');
        json_string(o, "format", p->inputs[i].format, strlen(p->inputs[i].format));
        tw_out_putc(o, '}');
    }
    tw_out_str(o, "],\n\"scopes\":[");
    for (size_t i = 0; i < p->n; i++) {
        const tw_scope_stats *r = &p->rows[i];
        tw_out_str(o, i ? ",\n{" : "\n{");
        json_string(o, "name", r->name, r->name_len);
        if (p->by_thread) {
            json_key(o, "pid", r->pid, false);
            tw_out_str(o, ",\"tid\":");
            tw_out_u64(o, r->tid);
            if (r->thread_name) {
                tw_out_putc(o, ',');
                json_string(o, "thread", r->thread_name, r->thread_name_len);
            }
        }
        json_key(o, "count", (int64_t)r->count, false);
        json_key(o, "incomplete", (int64_t)r->incomplete, false);
        json_stat(o, "net", &r->net, false);
        json_stat(o, "gross", &r->gross, true);
        json_stat(o, "call", &r->call, true);
        json_interval(o, "period", &r->period, false);
        json_interval(o, "outside", &r->outside, true);
        tw_out_putc(o, '}');
    }
    tw_out_str(o, "],\n\"problems\":{");
    const problem **probs = sorted_problems(p);
    if (!probs && p->nproblems) o->err = o->err ? o->err : ENOMEM;
    for (size_t k = 0; probs && k < p->nproblems; k++) {
        if (k) tw_out_putc(o, ',');
        tw_out_json_str(o, probs[k]->id, strlen(probs[k]->id));
        tw_out_putc(o, ':');
        tw_out_u64(o, probs[k]->n);
    }
    free(probs);
    tw_out_str(o, "}}\n");
}

/* ---- reading a JSON report ---------------------------------------------------- */

typedef struct reading {
    tw_profile *p;
    tw_diag_sink *diag;
    const char *file;
} reading;

static bool bad(reading *rd, const tw_jval *at, const char *fmt, const char *what) {
    tw_loc loc = {.file = rd->file, .kind = TW_LOC_TEXT, .line = at ? at->line : 1,
                  .col = at ? at->col : 1};
    char msg[256];
    snprintf(msg, sizeof msg, fmt, what);
    tw_report(rd->diag, TW_R_BAD_RECORD, &loc, "%s", msg);
    return false;
}

static bool get_int(reading *rd, const tw_jval *obj, const char *key, int64_t *out) {
    *out = 0;
    const tw_jval *v = tw_json_get(obj, key);
    if (!v || v->type != TW_JINT) return bad(rd, v ? v : obj, "expected an integer '%s'", key);
    if (v->big) return bad(rd, v, "'%s' out of range", key);
    *out = v->i;
    return true;
}

static bool get_count(reading *rd, const tw_jval *obj, const char *key, uint64_t *out) {
    int64_t v = 0;
    if (!get_int(rd, obj, key, &v)) return false;
    if (v < 0) return bad(rd, tw_json_get(obj, key), "'%s' must not be negative", key);
    *out = (uint64_t)v;
    return true;
}

/* A string member; "<key>_base64" holds the exact bytes when present. */
static bool get_str(reading *rd, const tw_jval *obj, const char *key, const char **s, size_t *n) {
    char k64[64];
    snprintf(k64, sizeof k64, "%s_base64", key);
    const tw_jval *v = tw_json_get(obj, k64);
    if (v && v->type == TW_JSTR) {
        size_t len = tw_base64_decode(v->s, v->len, (unsigned char *)v->s);
        if (len == (size_t)-1) return bad(rd, v, "invalid base64 in '%s'", k64);
        v->s[len] = '\0';
        ((tw_jval *)v)->len = len;
    } else {
        v = tw_json_get(obj, key);
    }
    if (!v || v->type != TW_JSTR) return bad(rd, v ? v : obj, "expected a string '%s'", key);
    *s = v->s;
    *n = v->len;
    return true;
}

/* What no report of tracewright's holds: a minimum above the maximum, or
 * (`nonneg`: net and gross times, periods and outside times, which the
 * engine never makes negative) a negative time.  `o` is the figure's
 * object, named `key`. */
static bool consistent(reading *rd, const tw_jval *o, const char *key, const tw_stat *st,
                       bool nonneg) {
    if (st->min > st->max) return bad(rd, o, "'min' above 'max' in '%s'", key);
    if (nonneg && (st->min < 0 || st->total < 0 || st->sum < 0))
        return bad(rd, o, "a negative time in '%s'", key);
    return true;
}

/* net: {total,min,max,avg}; gross, call: {total,sum,min,max,avg} */
static bool get_stat(reading *rd, const tw_jval *row, const char *key, uint64_t count,
                     bool with_sum, tw_stat *st) {
    const tw_jval *o = tw_json_get(row, key);
    if (!o || o->type != TW_JOBJ) return bad(rd, o ? o : row, "expected an object '%s'", key);
    memset(st, 0, sizeof *st);
    st->n = count;
    if (!get_int(rd, o, "total", &st->total) || !get_int(rd, o, "min", &st->min) ||
        !get_int(rd, o, "max", &st->max))
        return false;
    st->sum = st->total;
    if (with_sum && !get_int(rd, o, "sum", &st->sum)) return false;
    /* call is end - begin, which time running backwards may make negative */
    return consistent(rd, o, key, st, strcmp(key, "call") != 0);
}

/* period: null or {count,sum,min,max,avg}; outside: null or
 * {count,total,min,max,avg}; at most `most` of them */
static bool get_interval(reading *rd, const tw_jval *row, const char *key, bool with_total,
                         uint64_t most, tw_stat *st) {
    const tw_jval *o = tw_json_get(row, key);
    memset(st, 0, sizeof *st);
    if (o && o->type == TW_JNULL) return true;
    if (!o || o->type != TW_JOBJ) return bad(rd, o ? o : row, "expected an object or null '%s'", key);
    if (!get_count(rd, o, "count", &st->n) || !get_int(rd, o, "min", &st->min) ||
        !get_int(rd, o, "max", &st->max) || !get_int(rd, o, with_total ? "total" : "sum", &st->sum))
        return false;
    if (with_total) st->total = st->sum;
    if (st->n > most)
        return bad(rd, tw_json_get(o, "count"), "more intervals in '%s' than entries after the first", key);
    return !st->n || consistent(rd, o, key, st, true);
}

static bool read_row(reading *rd, const tw_jval *row) {
    if (row->type != TW_JOBJ) return bad(rd, row, "expected an object in '%s'", "scopes");
    const char *name;
    size_t len;
    if (!get_str(rd, row, "name", &name, &len)) return false;
    tw_scope_stats r;
    memset(&r, 0, sizeof r);
    const tw_jval *pid = tw_json_get(row, "pid"), *tid = tw_json_get(row, "tid");
    if (pid || tid) {
        int64_t vp = 0;
        if (!get_int(rd, row, "pid", &vp)) return false;
        if (vp < 0 || vp > (int64_t)UINT32_MAX) return bad(rd, pid, "'%s' out of range", "pid");
        if (!tid || tid->type != TW_JINT) return bad(rd, tid ? tid : row, "expected an integer '%s'", "tid");
        if (!tid->big && tid->i < 0) return bad(rd, tid, "'%s' out of range", "tid");
        r.by_thread = true;
        r.pid = (uint32_t)vp;
        r.tid = tid->u; /* the whole unsigned 64-bit range */
    }
    const tw_jval *thread = tw_json_get(row, "thread");
    if (thread || tw_json_get(row, "thread_base64")) {
        if (!r.by_thread) return bad(rd, thread ? thread : row, "'%s' without 'pid' and 'tid'", "thread");
        if (!get_str(rd, row, "thread", &r.thread_name, &r.thread_name_len)) return false;
        if (!r.thread_name_len) r.thread_name = NULL;  /* an empty name is none */
    }
    if (!get_count(rd, row, "count", &r.count) || !get_count(rd, row, "incomplete", &r.incomplete))
        return false;
    /* a row is made by an entry of its scope; an incomplete one is one of them */
    if (r.count == 0)
        return bad(rd, tw_json_get(row, "count"), "'%s' is 0: a scope has a row once entered", "count");
    if (r.incomplete > r.count)
        return bad(rd, tw_json_get(row, "incomplete"), "'%s' above 'count'", "incomplete");
    /* the first entry on a thread has neither (unless the counts of a
     * merge saturated) */
    uint64_t most = r.count == (uint64_t)INT64_MAX ? r.count : r.count - 1;
    if (!get_stat(rd, row, "net", r.count, false, &r.net) ||
        !get_stat(rd, row, "gross", r.count, true, &r.gross) ||
        !get_stat(rd, row, "call", r.count, true, &r.call) ||
        !get_interval(rd, row, "period", false, most, &r.period) ||
        !get_interval(rd, row, "outside", true, most, &r.outside))
        return false;
    r.name = name;
    r.name_len = len;
    if (!new_row(rd->p, &r)) {
        tw_report(rd->diag, TW_R_OUT_OF_MEMORY, NULL, "out of memory");
        return false;
    }
    return true;
}

static bool read_doc(reading *rd, const tw_jval *doc) {
    const tw_jval *schema = tw_json_get(doc, "schema");
    if (doc->type != TW_JOBJ || !schema || schema->type != TW_JSTR || strcmp(schema->s, SCHEMA))
        return bad(rd, schema ? schema : doc,
                   "not a tracewright statistics report (expected \"schema\":\"%s\")", SCHEMA);
    const tw_jval *unit = tw_json_get(doc, "unit");
    if (!unit || unit->type != TW_JSTR || strcmp(unit->s, "ns") != 0)
        return bad(rd, unit ? unit : doc, "expected \"unit\":\"%s\"", "ns");
    uint64_t events, threads;
    if (!get_count(rd, doc, "events", &events) || !get_count(rd, doc, "threads", &threads))
        return false;
    const tw_jval *clock = tw_json_get(doc, "clock");
    int c = -1;
    for (int k = 0; clock && clock->type == TW_JSTR && k < 4; k++)
        if (strcmp(clock->s, clock_names[k]) == 0) c = k;
    if (c < 0)
        return bad(rd, clock ? clock : doc, "expected \"%s\" to be none, trace, wall or mixed",
                   "clock");
    int64_t first = 0, last = 0;
    if (c != CLOCK_NONE &&
        (!get_int(rd, doc, "begin_ns", &first) || !get_int(rd, doc, "end_ns", &last)))
        return false;
    if (last < first)
        return bad(rd, tw_json_get(doc, "end_ns"), "'%s' before 'begin_ns'", "end_ns");
    const tw_jval *inputs = tw_json_get(doc, "inputs"), *scopes = tw_json_get(doc, "scopes"),
                  *problems = tw_json_get(doc, "problems");
    if (!inputs || inputs->type != TW_JARR) return bad(rd, inputs ? inputs : doc, "expected an array '%s'", "inputs");
    if (!scopes || scopes->type != TW_JARR) return bad(rd, scopes ? scopes : doc, "expected an array '%s'", "scopes");
    if (!problems || problems->type != TW_JOBJ)
        return bad(rd, problems ? problems : doc, "expected an object '%s'", "problems");
    for (size_t i = 0; i < inputs->len; i++) {
        const char *path, *format;
        size_t pn, fn;
        if (!get_str(rd, &inputs->items[i], "path", &path, &pn) ||
            !get_str(rd, &inputs->items[i], "format", &format, &fn))
            return false;
        if (!rd->p->paths && !(rd->p->paths = tw_strtab_new())) return false;
        size_t seen = tw_strtab_count(rd->p->paths);
        if (!tw_intern(rd->p->paths, path, pn)) return false;
        if (tw_strtab_count(rd->p->paths) == seen) {
            tw_loc loc = {.file = rd->file, .kind = TW_LOC_TEXT, .line = inputs->items[i].line,
                          .col = inputs->items[i].col};
            tw_report(rd->diag, TW_R_DUPLICATE_INPUT, &loc,
                      "input '%s' is also in an earlier report; its figures are counted twice",
                      path);
        }
        if (tw_profile_add_input(rd->p, path, format) != TW_OK) return false;
    }
    for (size_t i = 0; i < scopes->len; i++)
        if (!read_row(rd, &scopes->items[i])) return false;
    for (size_t i = 0; i < problems->len; i++) {
        const tw_jval *n = &problems->items[i];
        if (n->type != TW_JINT || n->i < 0) return bad(rd, n, "expected a count for '%s'", problems->keys[i]);
        if (add_problem(rd->p, problems->keys[i], strlen(problems->keys[i]), (uint64_t)n->i) != TW_OK)
            return false;
    }
    rd->p->events = count_add(rd->p->events, events);
    rd->p->threads = count_add(rd->p->threads, threads);
    if (c != CLOCK_NONE && rd->p->clock != CLOCK_NONE && rd->p->clock != (enum clock)c) {
        tw_loc loc = {.file = rd->file, .kind = TW_LOC_TEXT, .line = clock->line,
                      .col = clock->col};
        tw_report(rd->diag, TW_R_NO_COMMON_CLOCK, &loc,
                  "this report is on the %s clock, earlier ones on the %s clock; the span of "
                  "the merged report means little",
                  clock_names[c], clock_names[rd->p->clock]);
    }
    if (c != CLOCK_NONE) add_bounds(rd->p, (enum clock)c, first, last);
    return true;
}

int tw_profile_read_json(tw_profile *p, tw_input *in, tw_diag_sink *diag) {
    tw_buf text = {0};
    tw_line l;
    int rc;
    uint64_t next = 1;  /* a line skipped (too long) is kept as an empty one:
                         * the parser's line numbers are the file's */
    while ((rc = tw_input_getline(in, &l)) == 1) {
        bool ok = true;
        for (; next < l.no && ok; next++) ok = tw_buf_append(&text, "\n", 1);
        next = l.no + 1;
        if (!ok || !tw_buf_append(&text, l.s, l.len) || !tw_buf_append(&text, "\n", 1)) {
            tw_report(diag, TW_R_OUT_OF_MEMORY, NULL, "out of memory");
            tw_buf_free(&text);
            return TW_ERR;
        }
    }
    if (rc < 0) {
        tw_buf_free(&text);
        return TW_ERR;
    }
    reading rd = {.p = p, .diag = diag, .file = tw_input_name(in)};
    if (text.len == 0) {
        tw_loc loc = {.file = rd.file, .kind = TW_LOC_FILE};
        tw_report(diag, TW_R_BAD_RECORD, &loc,
                  "empty input, not a tracewright statistics report (\"schema\":\"%s\")", SCHEMA);
        return TW_ERR;
    }
    char err[128];
    uint64_t line, col;
    tw_jval *doc = tw_json_parse(text.p, text.len, err, sizeof err, &line, &col);
    tw_buf_free(&text);
    if (!doc) {
        tw_loc loc = {.file = rd.file, .kind = TW_LOC_TEXT, .line = line, .col = col};
        tw_report(diag, TW_R_BAD_RECORD, &loc, "%s", err);
        return TW_ERR;
    }
    bool ok = read_doc(&rd, doc);
    tw_json_free(doc);
    return ok ? TW_OK : TW_ERR;
}

void tw_profile_write(const tw_profile *p, tw_profile_format f, tw_output *out) {
    switch (f) {
    case TW_PROFILE_TABLE: write_table(p, out); break;
    case TW_PROFILE_CSV: write_csv(p, out); break;
    case TW_PROFILE_JSON: write_json(p, out); break;
    }
}
