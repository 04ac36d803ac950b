/* tracewright convert: read one or more logs, write them in another format. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

enum { O_FROM = 1, O_TO, O_OUTPUT, O_MAXDIAG, O_MAXLINE, O_HELP };

static const cli_opt opts[] = {
    {"from", 'f', true, O_FROM},
    {"to", 't', true, O_TO},
    {"output", 'o', true, O_OUTPUT},
    {"max-diagnostics", 0, true, O_MAXDIAG},
    {"max-line-length", 0, true, O_MAXLINE},
    {"help", 'h', false, O_HELP},
    {NULL, 0, false, 0},
};

static void help(void) {
    printf("Usage: tracewright convert [-f FORMAT] -t FORMAT [-o FILE] [OPTIONS] [FILE...]\n"
           "\n"
           "Read the logs (standard input when there is no FILE or FILE is '-'), merge\n"
           "several inputs by timestamp, and write them in another format.\n"
           "\n"
           "Options:\n"
           "  -f, --from FORMAT        format of the inputs (default: detected per file)\n"
           "  -t, --to FORMAT          output format (default: from the -o file's extension)\n"
           "  -o, --output FILE        write to FILE instead of standard output\n"
           "      --max-diagnostics N  print at most N diagnostics (default 100; 0 = all)\n"
           "      --max-line-length N  skip lines longer than N bytes (default 67108864)\n"
           "  -h, --help               show this help and exit\n"
           "\n"
           "Format options (see 'tracewright formats') are given as --NAME=VALUE.\n"
           "\n"
           "Exit status: 0 converted; 1 converted, but the input had errors (the lines\n"
           "concerned were skipped); 2 trouble (usage, unreadable or undetectable input,\n"
           "write error).\n"
           "\n"
           "Examples:\n"
           "  tracewright convert -t jsonl startup_4711.log\n"
           "  tracewright convert -o profile.log profile.csv\n"
           "  tracewright convert -t jsonl soffice_*.log > merged.jsonl\n");
}

static const tw_format *format_arg(const char *name, bool writer) {
    const tw_format *f = tw_format_find(name);
    if (!f) {
        cli_usage_error("convert", "unknown format '%s' (see 'tracewright formats')", name);
        return NULL;
    }
    if (writer ? !tw_format_can_write(f) : !tw_format_can_read(f)) {
        cli_usage_error("convert", "the %s format cannot be %s", f->name,
                        writer ? "written" : "read");
        return NULL;
    }
    return f;
}

int cmd_convert(int argc, char **argv) {
    cli_parser p;
    cli_parser_init(&p, "convert", argc, argv);
    const char *from = NULL, *to = NULL, *output = NULL;
    unsigned long long maxdiag = 100, maxline = 0;
    char **inputs = calloc((size_t)argc + 1, sizeof *inputs);
    tw_optset *fopts = tw_optset_new();
    int ninputs = 0, rc = EXIT_TROUBLE;
    if (!inputs || !fopts) {
        cli_error("out of memory");
        goto out;
    }
    const char *arg, *name;
    int id;
    while ((id = cli_next(&p, opts, &arg, &name)) != CLI_DONE) {
        switch (id) {
        case CLI_ERROR: goto out;
        case CLI_OPERAND: inputs[ninputs++] = (char *)arg; break;
        case O_FROM: from = arg; break;
        case O_TO: to = arg; break;
        case O_OUTPUT: output = arg; break;
        case O_MAXDIAG:
            if (!cli_parse_count("convert", "--max-diagnostics", arg, &maxdiag)) goto out;
            break;
        case O_MAXLINE:
            if (!cli_parse_count("convert", "--max-line-length", arg, &maxline)) goto out;
            if (maxline == 0) {
                cli_usage_error("convert", "option '--max-line-length' must be positive");
                goto out;
            }
            break;
        case O_HELP:
            help();
            rc = EXIT_OK;
            goto out;
        case CLI_UNKNOWN:
            if (!cli_format_option(&p, fopts, name, arg)) goto out;
            break;
        }
    }
    const tw_format *fin = NULL, *fout = NULL;
    if (from && !(fin = format_arg(from, false))) goto out;
    if (to) {
        if (!(fout = format_arg(to, true))) goto out;
    } else if (output && strcmp(output, "-") != 0) {
        fout = tw_format_by_extension(output, true);
        if (!fout) {
            cli_usage_error("convert", "cannot tell the output format from '%s'; use -t FORMAT",
                            output);
            goto out;
        }
    } else {
        cli_usage_error("convert", "missing the output format (-t FORMAT)");
        goto out;
    }
    if (!cli_stdin_ok("convert", inputs, ninputs)) goto out;
    static char *const stdin_only[] = {"-", NULL};
    char *const *paths = ninputs ? inputs : stdin_only;
    size_t npaths = ninputs ? (size_t)ninputs : 1;

    cli_diag diag;
    cli_diag_init(&diag, maxdiag);
    tw_strtab *strtab = tw_strtab_new();
    tw_source *src = NULL;
    tw_output *out = NULL;
    tw_writer *w = NULL;
    if (!strtab) {
        cli_error("out of memory");
        goto done;
    }
    tw_source_opts so = {.format = fin, .opts = fopts, .input = {.max_line = maxline}};
    if (tw_source_open((const char *const *)paths, npaths, &so, strtab, &diag.sink, &src) !=
        TW_OK)
        goto done;
    /* a regular output file is replaced only at the end, so it may also be
     * one of the inputs */
    out = tw_output_open(output);
    if (!out) {
        cli_error("cannot open '%s' for writing: %s", output, strerror(errno));
        goto done;
    }
    if (tw_writer_open(fout, out, strtab, &diag.sink, fopts, tw_source_info(src), &w) != TW_OK)
        goto done;
    tw_event ev;
    int r;
    while ((r = tw_source_next(src, &ev)) == TW_OK) {
        if (tw_writer_event(w, &ev) != TW_OK) {
            r = TW_ERR;
            break;
        }
        if (out->err) break;
    }
    if (r == TW_ERR) goto done;
    if (tw_writer_finish(w) != TW_OK) goto done;
    rc = diag.sink.count[TW_SEV_ERROR] ? EXIT_FINDINGS : EXIT_OK;
done:
    tw_writer_free(w);
    if (out && rc == EXIT_TROUBLE) {
        tw_output_abort(out);  /* an existing output file keeps its contents */
    } else if (out) {
        const char *oname = output && strcmp(output, "-") ? output : "standard output";
        int werr = tw_output_close(out);
        if (werr) {
            cli_error("cannot write to '%s': %s", oname, strerror(werr));
            rc = EXIT_TROUBLE;
        }
    }
    tw_source_close(src);
    tw_strtab_free(strtab);
    cli_diag_finish(&diag);
out:
    tw_optset_free(fopts);
    free(inputs);
    return rc;
}
