/* tracewright formats: the table of formats and their options. */
#include <string.h>

#include "cli.h"

enum { O_HELP = 1 };

static const cli_opt opts[] = {
    {"help", 'h', false, O_HELP},
    {NULL, 0, false, 0},
};

static void help(void) {
    printf("Usage: tracewright formats\n"
           "\n"
           "List every format: its name, whether it can be read and written, whether\n"
           "it is text or binary, its file extensions and a description; then the\n"
           "options of each format, given to commands as --NAME=VALUE.\n");
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
    while ((id = cli_next(&p, opts, &arg, NULL)) != CLI_DONE) {
        switch (id) {
        case CLI_ERROR: return EXIT_TROUBLE;
        case CLI_OPERAND: return cli_usage_error("formats", "unexpected operand '%s'", arg);
        case O_HELP: help(); return EXIT_OK;
        }
    }
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

