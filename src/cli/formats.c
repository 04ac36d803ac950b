/* tracewright formats: the table of formats and their options. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

enum { O_HELP = 1, O_MATRIX };

static const cli_opt opts[] = {
    {"help", 'h', false, O_HELP},
    {"matrix", 0, false, O_MATRIX},
    {NULL, 0, false, 0},
};

static void help(void) {
    printf("Usage: tracewright formats [--matrix]\n"
           "\n"
           "List every format: its name, whether it can be read and written, whether\n"
           "it is text or binary, its file extensions and a description; then how far\n"
           "time may go back on a thread of each format without a warning (its jitter),\n"
           "and the options of each format, given to commands as --NAME=VALUE.\n"
           "\n"
           "Options:\n"
           "      --matrix  print instead what a conversion from each readable format\n"
           "                (row) into each writable format (column) loses, in short\n"
           "                codes explained below the table; '-' is lossless\n"
           "  -h, --help    show this help and exit\n"
           "\n"
           "Exit status: 0 ok, 2 trouble (usage, write error).\n");
}

/* A unit for a clock: "ms", "us", "s", or "N ns". */
static const char *unit(int64_t ns, char *buf, size_t n) {
    if (ns == 1000000000) return "s";
    if (ns == 1000000) return "ms";
    if (ns == 1000) return "us";
    snprintf(buf, n, "%lldns", (long long)ns);
    return buf;
}

/* The cell of one conversion: codes of the parts lost, "t:UNIT" when times
 * are rounded and "org:UNIT" when the origin is only rounded. */
static void cell(const tw_format *r, const tw_format *w, char *buf, size_t n) {
    bool rt, ro;
    unsigned lost = tw_conversion_loses(r, w, &rt, &ro);
    const tw_fidelity *wf = tw_format_fidelity(w);
    char u[32];
    size_t off = 0;
    buf[0] = '\0';
    if (rt)
        off += (size_t)snprintf(buf + off, n - off, "t:%s",
                                unit(wf->write_clock_ns, u, sizeof u));
    for (unsigned b = 1; b & TW_KEEP_ALL && off < n; b <<= 1) {
        if (!(lost & b)) continue;
        if (b == TW_KEEP_ORIGIN && ro)
            off += (size_t)snprintf(buf + off, n - off, "%sorg:%s", off ? "," : "",
                                    unit(wf->write_origin_ns, u, sizeof u));
        else
            off += (size_t)snprintf(buf + off, n - off, "%s%s", off ? "," : "", tw_keep_code(b));
    }
    if (!off) snprintf(buf, n, "-");
}

static bool in_matrix(const tw_format *f, bool reader) {
    const tw_fidelity *d = tw_format_fidelity(f);
    return d && (reader ? tw_format_can_read(f) && d->read_clock_ns
                        : tw_format_can_write(f) && d->write_clock_ns);
}

static int matrix(void) {
    size_t nf = tw_format_count();
    int wname = (int)strlen("FROM \\ TO");
    int *width = calloc(nf, sizeof *width);
    if (!width) {
        cli_error("out of memory");
        return EXIT_TROUBLE;
    }
    char buf[256];
    for (size_t j = 0; j < nf; j++) {
        const tw_format *w = tw_format_at(j);
        if (!in_matrix(w, false)) continue;
        width[j] = (int)strlen(w->name);
        for (size_t i = 0; i < nf; i++) {
            const tw_format *r = tw_format_at(i);
            if (!in_matrix(r, true)) continue;
            if ((int)strlen(r->name) > wname) wname = (int)strlen(r->name);
            cell(r, w, buf, sizeof buf);
            if ((int)strlen(buf) > width[j]) width[j] = (int)strlen(buf);
        }
    }
    printf("What a conversion from a format (row) into a format (column) loses:\n\n");
    size_t last = 0; /* the last column is not padded */
    for (size_t j = 0; j < nf; j++)
        if (width[j]) last = j;
    printf("%-*s", wname, "FROM \\ TO");
    for (size_t j = 0; j < nf; j++)
        if (width[j]) printf("  %-*s", j == last ? 0 : width[j], tw_format_at(j)->name);
    printf("\n");
    for (size_t i = 0; i < nf; i++) {
        const tw_format *r = tw_format_at(i);
        if (!in_matrix(r, true)) continue;
        printf("%-*s", wname, r->name);
        for (size_t j = 0; j < nf; j++) {
            if (!width[j]) continue;
            cell(r, tw_format_at(j), buf, sizeof buf);
            printf("  %-*s", j == last ? 0 : width[j], buf);
        }
        printf("\n");
    }
    free(width);
    printf("\n  -         lossless\n"
           "  t:UNIT    times rounded to the nearest UNIT (one precision-loss warning)\n"
           "  org:UNIT  the wall-clock origin rounded to UNIT\n");
    for (unsigned b = 1; b & TW_KEEP_ALL; b <<= 1)
        printf("  %-8s  %s\n", tw_keep_code(b), tw_keep_text(b));
    printf("\nEverything but rounding is listed in one lossy-conversion warning at the end\n"
           "of a conversion; docs/formats/FORMAT.md states what a conversion to FORMAT\n"
           "loses, precisely.\n");
    return EXIT_OK;
}

static const char *exts(const tw_format *f, char *buf, size_t n) {
    buf[0] = '\0';
    size_t off = 0;
    for (const char *const *e = f->extensions; e && *e && off < n; e++)
        off += (size_t)snprintf(buf + off, n - off, "%s%s", off ? " " : "", *e);
    return off ? buf : "-";
}

int cmd_formats(int argc, char **argv) {
    cli_parser p;
    cli_parser_init(&p, "formats", argc, argv);
    const char *arg;
    int id;
    bool want_matrix = false;
    while ((id = cli_next(&p, opts, &arg, NULL)) != CLI_DONE) {
        switch (id) {
        case CLI_ERROR: return EXIT_TROUBLE;
        case CLI_OPERAND: return cli_usage_error("formats", "unexpected operand '%s'", arg);
        case O_HELP: help(); return EXIT_OK;
        case O_MATRIX: want_matrix = true; break;
        }
    }
    if (want_matrix) return matrix();
    size_t wname = strlen("NAME"), wext = strlen("EXTENSIONS");
    char buf[128];
    for (size_t i = 0; i < tw_format_count(); i++) {
        const tw_format *f = tw_format_at(i);
        if (strlen(f->name) > wname) wname = strlen(f->name);
        if (strlen(exts(f, buf, sizeof buf)) > wext) wext = strlen(exts(f, buf, sizeof buf));
    }
    printf("%-*s  READ  WRITE  KIND    %-*s  DESCRIPTION\n", (int)wname, "NAME", (int)wext,
           "EXTENSIONS");
    for (size_t i = 0; i < tw_format_count(); i++) {
        const tw_format *f = tw_format_at(i);
        printf("%-*s  %-4s  %-5s  %-6s  %-*s  %s\n", (int)wname, f->name,
               tw_format_can_read(f) ? "yes" : "no", tw_format_can_write(f) ? "yes" : "no",
               f->flags & TW_FMT_BINARY ? "binary" : "text", (int)wext, exts(f, buf, sizeof buf),
               f->description);
    }
    bool jitter = false;
    for (size_t i = 0; i < tw_format_count(); i++) {
        const tw_format *f = tw_format_at(i);
        if (f->jitter_ns <= 0) continue;
        if (!jitter)
            printf("\nTime jitter: how far time may go back on one thread without a warning\n"
                   "(stats, validate, compare; --jitter overrides; other formats: 0):\n");
        jitter = true;
        tw_duration_format(f->jitter_ns, buf, sizeof buf);
        printf("  %-*s  %s\n", (int)wname, f->name, buf);
    }
    /* two passes over the options: the width of the left column, then the lines */
    int wopt = 0;
    bool any = false;
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < tw_format_count(); i++) {
            const tw_format *f = tw_format_at(i);
            for (const tw_option *o = f->options; o && o->name; o++) {
                const char *type = o->type == TW_OPT_BOOL     ? "yes|no"
                                   : o->type == TW_OPT_INT    ? "N"
                                   : o->type == TW_OPT_CHOICE ? o->choices
                                                              : "TEXT";
                char lhs[128];
                int n = snprintf(lhs, sizeof lhs, "--%s=%s", o->name, type);
                if (pass == 0) {
                    if (n > wopt) wopt = n;
                    continue;
                }
                if (!any) printf("\nFormat options:\n");
                any = true;
                bool dflt = o->def && *o->def;
                printf("  %-*s  %s (%s%s%s%s%s)\n", wopt, lhs, o->help,
                       o->applies & TW_OPT_READ ? "reading" : "",
                       (o->applies & TW_OPT_READ) && (o->applies & TW_OPT_WRITE) ? " and " : "",
                       o->applies & TW_OPT_WRITE ? "writing" : "", dflt ? "; default " : "",
                       dflt ? o->def : "");
            }
        }
    }
    return EXIT_OK;
}

