/*
 * tracewright compare: per-scope timing of a baseline against a current
 * run, and a performance gate on it.  Each side is a trace (any readable
 * format) or a report saved with 'stats --format json'.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"

enum { O_METRIC = 1, O_STAT, O_THRESHOLD, O_MINTIME, O_FORMAT, O_OUTPUT, O_HELP };
enum { M_NET, M_GROSS, M_CALL };
enum { S_TOTAL, S_AVG, S_MAX };
enum { F_TABLE, F_JSON };

static const cli_opt opts[] = {
    CLI_READING_OPTS,
    CLI_JITTER_OPT,
    {"metric", 0, true, O_METRIC},
    {"stat", 0, true, O_STAT},
    {"threshold", 0, true, O_THRESHOLD},
    {"min-time", 0, true, O_MINTIME},
    {"format", 0, true, O_FORMAT},
    {"output", 'o', true, O_OUTPUT},
    {"help", 'h', false, O_HELP},
    {NULL, 0, false, 0},
};

static const char *const metrics[] = {"net", "gross", "call"};
static const char *const stats_[] = {"total", "avg", "max"};

static void help(void) {
    printf("Usage: tracewright compare [OPTIONS] BASE CURRENT\n"
           "\n"
           "Compare the per-scope timing of a baseline run with a current one and fail\n"
           "when a scope got slower than the threshold allows: the performance gate a CI\n"
           "pipeline puts after a benchmark run.  BASE and CURRENT are traces in any\n"
           "readable format or reports saved with 'tracewright stats --format json'\n"
           "(either may be '-', standard input).\n"
           "\n"
           "Options:\n"
           "      --metric net|gross|call   the time compared (default net)\n"
           "      --stat total|avg|max      its figure: the total as stats gives it (gross\n"
           "                                and call: outermost invocations only), the\n"
           "                                average or the longest (default total)\n"
           "      --threshold PCT           a scope regressed when it is more than PCT\n"
           "                                percent slower (default 10)\n"
           "      --min-time DURATION       ignore scopes below DURATION in both runs,\n"
           "                                such as 50us or 1.5ms (default 0)\n"
           "      --format table|json       table for people, or JSON (tracewright-compare/1,\n"
           "                                see docs/compare.md); default: json when the\n"
           "                                -o file ends in .json (in any case), else table\n"
           "  -o, --output FILE             write to FILE instead of standard output\n"
           "  -f, --from FORMAT             format of trace inputs (default: detected)\n"
           "      --jitter DURATION         time may go back this much on a thread without\n"
           "                                a warning (default: the format's)\n"
           "      --max-diagnostics N       print at most N diagnostics (default 100)\n"
           "      --max-line-length N       skip lines longer than N bytes\n"
           "      --max-names N             stop at more than N distinct names\n"
           "      --progress                show a progress line on standard error once\n"
           "                                reading a trace takes more than a second\n"
           "                                (default: only when standard error is a\n"
           "                                terminal); --no-progress: never\n"
           "      --threads N               1, 2 (read ahead on a second thread) or auto (2\n"
           "                                with two usable CPUs and 8 MiB or more of\n"
           "                                input, while measured to be the faster); the\n"
           "                                output is the same; default\n"
           "                                $TRACEWRIGHT_THREADS, else auto\n"
           "  -v, --verbose                 after reading, say on standard error how much\n"
           "                                was read, how fast, and on how many threads\n"
           "  -h, --help                    show this help and exit\n"
           "\n"
           "Rows are sorted by regression: regressed scopes first (largest change\n"
           "first), then the others by change, then scopes that appeared, vanished, or\n"
           "stayed below --min-time.  Appeared and vanished scopes are listed but do not\n"
           "fail the gate.\n"
           "\n"
           "Exit status: 0 no scope regressed; 1 a scope regressed beyond the threshold;\n"
           "2 trouble (usage, unreadable or undetectable input, write error).\n"
           "\n"
           "Examples:\n"
           "  tracewright compare baseline.json current.log\n"
           "  tracewright compare --metric gross --stat avg --threshold 5 --min-time 100us \\\n"
           "      main.json pr.json\n");
}

/* What happened to a scope, in the order rows are listed. */
typedef enum status { ST_REGRESSED, ST_CHANGED, ST_NEW, ST_GONE, ST_SMALL } status;

typedef struct cmp_row {
    const tw_scope_stats *base, *cur;  /* NULL: not in that run */
    int64_t b, c;                      /* the compared figure, ns */
    double pct;                        /* (c - b) / b * 100; b == 0: +inf */
    status st;
    bool improved, same;
} cmp_row;

typedef struct compare {
    int metric, stat, format;
    int64_t threshold_bp;  /* in 1/100 % */
    int64_t min_time;
    tw_profile *side[2];
    cmp_row *rows;
    size_t n;
} compare;

/* a - b, saturated (reports may hold any figure) */
static int64_t sat_sub(int64_t a, int64_t b) {
    if (b < 0 && a > INT64_MAX + b) return INT64_MAX;
    if (b > 0 && a < INT64_MIN + b) return INT64_MIN;
    return a - b;
}

static int64_t figure(const compare *k, const tw_scope_stats *s) {
    const tw_stat *st = k->metric == M_NET ? &s->net : k->metric == M_GROSS ? &s->gross : &s->call;
    if (st->n == 0) return 0;
    return k->stat == S_TOTAL ? st->total : k->stat == S_AVG ? tw_stat_avg(st) : st->max;
}

/* Whether input `in` holds a tracewright-stats report (by its first bytes). */
static bool is_report(tw_input *in) {
    const unsigned char *p;
    size_t n = tw_input_head(in, &p);
    size_t i = 0;
    while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\n' || p[i] == '\r')) i++;
    if (i >= n || p[i] != '{') return false;
    static const char tag[] = "\"tracewright-stats/";
    for (size_t j = i; j + sizeof tag - 1 <= n && j < i + 256; j++)
        if (memcmp(p + j, tag, sizeof tag - 1) == 0) return true;
    return false;
}

/* Load one side into prof (rows per scope): a report, or a trace read from
 * the same input (a pipe cannot be opened twice). */
static bool load(const char *path, const cli_reading *rd, cli_diag *diag, tw_profile *prof) {
    /* (not cli_source_opts(): a report is not a log, and what is said
     * about reading logs is said only when one is read) */
    tw_input_opts io = {.max_line = (size_t)rd->maxline};
    tw_input *in;
    if (tw_input_open(path, &io, &diag->sink, &in) != 0) return false;
    int rc;
    if (is_report(in)) {
        rc = tw_profile_read_json(prof, in, &diag->sink);
        tw_input_close(in);
    } else {
        rc = cli_profile_inputs(NULL, 1, in, rd, diag, prof);
    }
    /* (and a trace read to its end: not cut while it was read) */
    return rc == TW_OK && !diag->sink.problems[TW_R_IO_ERROR] &&
           tw_profile_group(prof, false, &diag->sink) == TW_OK;
}

static int by_name(const void *a, const void *b) {
    const tw_scope_stats *x = *(const tw_scope_stats *const *)a, *y = *(const tw_scope_stats *const *)b;
    size_t n = x->name_len < y->name_len ? x->name_len : y->name_len;
    int c = memcmp(x->name, y->name, n);
    if (c) return c;
    return x->name_len < y->name_len ? -1 : x->name_len > y->name_len;
}

/* The size of a row's change, for ties: the delta, or the time of a scope
 * that appeared (current) or vanished (baseline). */
static int64_t size_key(const cmp_row *r) {
    return r->st == ST_NEW ? r->c : r->st == ST_GONE ? r->b : sat_sub(r->c, r->b);
}

static int rank_order(const void *a, const void *b) {
    const cmp_row *x = a, *y = b;
    if (x->st != y->st) return x->st < y->st ? -1 : 1;
    if (x->st <= ST_CHANGED && x->pct != y->pct) return x->pct > y->pct ? -1 : 1;
    int64_t dx = size_key(x), dy = size_key(y);
    if (dx != dy) return dx > dy ? -1 : 1;
    const tw_scope_stats *sx = x->cur ? x->cur : x->base, *sy = y->cur ? y->cur : y->base;
    return by_name(&sx, &sy);
}

/* Rows of a profile sorted by name (malloc'ed); NULL when out of memory. */
static const tw_scope_stats **sorted(const tw_profile *p, size_t *n) {
    *n = tw_profile_row_count(p);
    const tw_scope_stats **v = malloc((*n ? *n : 1) * sizeof *v);
    if (!v) return NULL;
    for (size_t i = 0; i < *n; i++) v[i] = tw_profile_row(p, i);
    qsort(v, *n, sizeof *v, by_name);
    return v;
}

static void classify(const compare *k, cmp_row *r) {
    r->b = r->base ? figure(k, r->base) : 0;
    r->c = r->cur ? figure(k, r->cur) : 0;
    if (!r->base) r->st = ST_NEW;
    else if (!r->cur) r->st = ST_GONE;
    else if (r->b < k->min_time && r->c < k->min_time) r->st = ST_SMALL;
    else r->st = ST_CHANGED;
    if (r->b) r->pct = ((double)r->c - (double)r->b) * 100.0 / (double)r->b;
    else r->pct = r->c ? 1e300 : 0.0;
    if (r->st != ST_CHANGED) return;
    double limit = (double)k->threshold_bp / 100.0;
    if (r->pct > limit) r->st = ST_REGRESSED;
    else if (r->pct < -limit) r->improved = true;
    else r->same = true;
}

/* Join the two sides by scope name. */
static bool join(compare *k) {
    size_t nb, nc;
    const tw_scope_stats **b = sorted(k->side[0], &nb), **c = sorted(k->side[1], &nc);
    k->rows = calloc(nb + nc + 1, sizeof *k->rows);
    if (!b || !c || !k->rows) {
        free(b);
        free(c);
        return false;
    }
    size_t i = 0, j = 0;
    while (i < nb || j < nc) {
        cmp_row *r = &k->rows[k->n++];
        int o = i == nb ? 1 : j == nc ? -1 : by_name(&b[i], &c[j]);
        if (o <= 0) r->base = b[i++];
        if (o >= 0) r->cur = c[j++];
        classify(k, r);
    }
    free(b);
    free(c);
    if (k->n > 1) qsort(k->rows, k->n, sizeof *k->rows, rank_order);
    return true;
}

static const char *status_name(const cmp_row *r) {
    switch (r->st) {
    case ST_REGRESSED: return "regressed";
    case ST_NEW: return "new";
    case ST_GONE: return "gone";
    case ST_SMALL: return "below-min-time";
    default: return r->improved ? "improved" : "unchanged";
    }
}

/* "+12.5%", "-100.0%", "new" for a change from 0. */
static void fmt_pct(char *buf, size_t n, const cmp_row *r) {
    if (!r->base || !r->cur) snprintf(buf, n, "-");
    else if (r->pct >= 1e299) snprintf(buf, n, "from 0");
    else snprintf(buf, n, "%+.1f%%", r->pct);
}

static void fmt_time(char *buf, size_t n, const tw_scope_stats *s, int64_t v) {
    if (!s) snprintf(buf, n, "-");
    else tw_duration_format(v, buf, n);
}

/* Right-align s in `width` columns. */
static void put_right(tw_output *o, const char *s, size_t width) {
    for (size_t cols = tw_display_width(s, strlen(s)); cols < width; cols++) tw_out_putc(o, ' ');
    tw_out_str(o, s);
}

/* "10", "2.5", "49.99" */
static void fmt_threshold(char *buf, size_t n, int64_t bp) {
    if (bp % 100 == 0) snprintf(buf, n, "%lld", (long long)(bp / 100));
    else if (bp % 10 == 0) snprintf(buf, n, "%lld.%lld", (long long)(bp / 100), (long long)(bp % 100 / 10));
    else snprintf(buf, n, "%lld.%02lld", (long long)(bp / 100), (long long)(bp % 100));
}

/* Names are shown on one line, cut to NAME_SHOWN terminal columns. */
enum { NAME_SHOWN = 60 };

static void write_table(const compare *k, const size_t count[], tw_output *o) {
    size_t w = 5;
    char name[TW_DISPLAY_CELL_BYTES(NAME_SHOWN)];
    for (size_t i = 0; i < k->n; i++) {
        const tw_scope_stats *s = k->rows[i].cur ? k->rows[i].cur : k->rows[i].base;
        /* NOLINTNEXTLINE(clang-analyzer-core.NullDereference): join() gives every row a side */
        size_t cols = tw_display_cell(s->name, s->name_len, NAME_SHOWN, name);
        if (cols > w) w = cols;
    }
    tw_out_printf(o, "%-*s  %14s  %14s  %15s  %8s  %s\n", (int)w, "SCOPE", "BASELINE", "CURRENT",
                  "DELTA", "DELTA%", "STATUS");
    for (size_t i = 0; i < k->n; i++) {
        const cmp_row *r = &k->rows[i];
        const tw_scope_stats *s = r->cur ? r->cur : r->base;
        char b[40], c[40], d[40], p[40];
        fmt_time(b, sizeof b, r->base, r->b);
        fmt_time(c, sizeof c, r->cur, r->c);
        if (r->base && r->cur) {
            tw_duration_format(sat_sub(r->c, r->b), d + 1, sizeof d - 1);
            d[0] = '+';
            if (d[1] == '-') memmove(d, d + 1, strlen(d));  /* keep the sign of a decrease */
        } else {
            snprintf(d, sizeof d, "-");
        }
        fmt_pct(p, sizeof p, r);
        size_t shown = tw_display_cell(s->name, s->name_len, NAME_SHOWN, name);
        tw_out_str(o, name);
        for (size_t pad = shown; pad < w; pad++) tw_out_putc(o, ' ');
        const char *cells[] = {b, c, d, p};
        static const size_t widths[] = {14, 14, 15, 8};
        for (int j = 0; j < 4; j++) {
            tw_out_str(o, "  ");
            put_right(o, cells[j], widths[j]);
        }
        tw_out_printf(o, "  %s\n", status_name(r));
    }
    char mt[40], th[24];
    tw_duration_format(k->min_time, mt, sizeof mt);
    fmt_threshold(th, sizeof th, k->threshold_bp);
    tw_out_printf(o,
                  "%zu regressed, %zu improved, %zu unchanged, %zu new, %zu gone, %zu below "
                  "--min-time (%s); %s time (%s) compared, threshold %s%%\n",
                  count[0], count[1], count[2], count[3], count[4], count[5], mt,
                  metrics[k->metric], stats_[k->stat], th);
}

static void json_side(tw_output *o, const char *key, const tw_scope_stats *s, int64_t v) {
    if (s) tw_out_printf(o, ",\"%s\":%lld", key, (long long)v);
    else tw_out_printf(o, ",\"%s\":null", key);
}

/* "key":"text", and when text is not valid UTF-8 (shown with U+FFFD), its
 * exact bytes too: ,"key_base64":"..." (as stats writes names and paths) */
static void json_text(tw_output *o, const char *key, const char *s, size_t len) {
    tw_out_printf(o, "\"%s\":", key);
    if (tw_out_json_str(o, s, len)) return;
    tw_out_printf(o, ",\"%s_base64\":\"", key);
    tw_out_base64(o, s, len);
    tw_out_putc(o, '"');
}

static void write_json(const compare *k, const char *const paths[2], const size_t count[],
                       tw_output *o) {
    char th[24];
    fmt_threshold(th, sizeof th, k->threshold_bp);
    tw_out_printf(o, "{\"schema\":\"tracewright-compare/1\",\"unit\":\"ns\",\"metric\":\"%s\","
                     "\"stat\":\"%s\",\"threshold_pct\":%s,\"min_time_ns\":%lld,",
                  metrics[k->metric], stats_[k->stat], th, (long long)k->min_time);
    json_text(o, "baseline", paths[0], strlen(paths[0]));
    tw_out_putc(o, ',');
    json_text(o, "current", paths[1], strlen(paths[1]));
    tw_out_str(o, ",\n\"scopes\":[");
    for (size_t i = 0; i < k->n; i++) {
        const cmp_row *r = &k->rows[i];
        const tw_scope_stats *s = r->cur ? r->cur : r->base;
        tw_out_str(o, i ? ",\n{" : "\n{");
        json_text(o, "name", s->name, s->name_len);
        tw_out_printf(o, ",\"status\":\"%s\"", status_name(r));
        json_side(o, "baseline_ns", r->base, r->b);
        json_side(o, "current_ns", r->cur, r->c);
        if (r->base && r->cur) {
            tw_out_printf(o, ",\"delta_ns\":%lld", (long long)(sat_sub(r->c, r->b)));
            if (r->pct >= 1e299) tw_out_str(o, ",\"delta_pct\":null");
            else tw_out_printf(o, ",\"delta_pct\":%.2f", r->pct);
        } else {
            tw_out_str(o, ",\"delta_ns\":null,\"delta_pct\":null");
        }
        tw_out_putc(o, '}');
    }
    tw_out_printf(o, "],\n\"summary\":{\"regressed\":%zu,\"improved\":%zu,\"unchanged\":%zu,"
                     "\"new\":%zu,\"gone\":%zu,\"below_min_time\":%zu}}\n",
                  count[0], count[1], count[2], count[3], count[4], count[5]);
}

/* PCT as a non-negative decimal with up to two decimals ("10", "2.5",
 * "7.25%"), in 1/100 %. */
static bool parse_pct(const char *v, int64_t *bp) {
    const char *p = v;
    int64_t whole = 0, frac = 0;
    int digits = 0;
    if (*p < '0' || *p > '9') return false;
    for (; *p >= '0' && *p <= '9'; p++) {
        if (whole > 100000000) return false;
        whole = whole * 10 + (*p - '0');
    }
    if (*p == '.') {
        p++;
        for (; *p >= '0' && *p <= '9'; p++, digits++) {
            if (digits >= 2) return false;
            frac = frac * 10 + (*p - '0');
        }
        if (!digits) return false;
    }
    if (digits == 1) frac *= 10;
    if (*p == '%') p++;
    if (*p) return false;
    *bp = whole * 100 + frac;
    return true;
}

int cmd_compare(int argc, char **argv) {
    cli_parser p;
    cli_parser_init(&p, "compare", argc, argv);
    compare k;
    memset(&k, 0, sizeof k);
    k.threshold_bp = 1000;
    k.format = -1;
    const char *paths[2] = {NULL, NULL}, *output = NULL;
    int npaths = 0, rc = EXIT_TROUBLE;
    cli_reading rd;
    bool have_rd = cli_reading_init(&rd);
    cli_diag diag;
    cli_diag_init(&diag, 100);
    k.side[0] = tw_profile_new();
    k.side[1] = tw_profile_new();
    if (!have_rd || !k.side[0] || !k.side[1]) {
        if (have_rd) cli_error("out of memory");
        goto out;
    }
    const char *arg, *name;
    int id;
    while ((id = cli_next(&p, opts, &arg, &name)) != CLI_DONE) {
        switch (id) {
        case CLI_ERROR: goto out;
        case CLI_OPERAND:
            if (npaths == 2) {
                cli_usage_error("compare", "expected two inputs, BASE and CURRENT; got a third, "
                                           "'%s'", arg);
                goto out;
            }
            paths[npaths++] = arg;
            break;
        case O_METRIC:
            if (!cli_choose("compare", "--metric", arg, metrics, 3, &k.metric)) goto out;
            break;
        case O_STAT:
            if (!cli_choose("compare", "--stat", arg, stats_, 3, &k.stat)) goto out;
            break;
        case O_FORMAT: {
            static const char *const forms[] = {"table", "json"};
            if (!cli_choose("compare", "--format", arg, forms, 2, &k.format)) goto out;
            break;
        }
        case O_THRESHOLD:
            if (!parse_pct(arg, &k.threshold_bp)) {
                cli_usage_error("compare", "option '--threshold' expects a percentage such as "
                                           "10 or 2.5; got '%s'", arg);
                goto out;
            }
            break;
        case O_MINTIME:
            if (!cli_parse_duration("compare", "--min-time", arg, &k.min_time)) goto out;
            break;
        case O_OUTPUT: output = arg; break;
        case O_HELP:
            help();
            rc = EXIT_OK;
            goto out;
        default:
            if (cli_reading_option(&p, &rd, id, arg, name) < 0) goto out;
            break;
        }
    }
    diag.max = rd.maxdiag;
    if (npaths != 2) {
        cli_usage_error("compare", "expected two inputs, BASE and CURRENT");
        goto out;
    }
    if (strcmp(paths[0], "-") == 0 && strcmp(paths[1], "-") == 0) {
        cli_usage_error("compare", "standard input ('-') can be only one of the two inputs");
        goto out;
    }
    if (!cli_stdin_ok("compare", (char *const *)paths, 2, &rd)) goto out;  /* a terminal */
    if (k.format < 0) {  /* from the -o file's extension, as stats does */
        size_t n = output ? strlen(output) : 0;
        k.format = n > 5 && strcasecmp(output + n - 5, ".json") == 0 ? F_JSON : F_TABLE;
    }
    if (!cli_reading_format("compare", &rd)) goto out;
    for (int i = 0; i < 2; i++)
        if (!load(paths[i], &rd, &diag, k.side[i])) goto out;
    if (!join(&k)) {
        cli_error("out of memory");
        goto out;
    }
    size_t count[6] = {0};
    for (size_t i = 0; i < k.n; i++) {
        const cmp_row *r = &k.rows[i];
        count[r->st == ST_REGRESSED ? 0 : r->st == ST_NEW ? 3 : r->st == ST_GONE ? 4
              : r->st == ST_SMALL ? 5 : r->improved ? 1 : 2]++;
    }
    tw_output *o = cli_output_open(output);
    if (!o) goto out;
    if (k.format == F_JSON) write_json(&k, paths, count, o);
    else write_table(&k, count, o);
    if (!cli_output_close(o, output)) goto out;
    rc = count[0] ? EXIT_FINDINGS : EXIT_OK;
out:
    cli_diag_finish(&diag);
    free(k.rows);
    tw_profile_free(k.side[0]);
    tw_profile_free(k.side[1]);
    if (have_rd) cli_reading_free(&rd);
    return rc;
}
