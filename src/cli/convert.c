/* tracewright convert: read one or more logs, write them in another format. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

enum { O_TO = 1, O_OUTPUT, O_HELP };

static const cli_opt opts[] = {
    CLI_READING_OPTS,
    {"to", 't', true, O_TO},
    {"output", 'o', true, O_OUTPUT},
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
           "  -o, --output FILE        write to FILE instead of standard output (ctf: the\n"
           "                           directory to make; an earlier ctf output there is\n"
           "                           replaced, anything else is left alone)\n"
           "      --max-diagnostics N  print at most N diagnostics (default 100; 0 = all)\n"
           "      --max-line-length N  skip lines longer than N bytes (default 67108864)\n"
           "      --max-names N        stop at more than N distinct names (default 16777216;\n"
           "                           0: no limit)\n"
           "      --progress           show a progress line on standard error once reading\n"
           "                           takes more than a second (default: only when\n"
           "                           standard error is a terminal that the output does\n"
           "                           not go to); --no-progress: never\n"
           "      --threads N          1, 2 (read ahead on a second thread; chrome also\n"
           "                           writes on both at the end) or auto (2 with two\n"
           "                           usable CPUs and 8 MiB or more of input, while\n"
           "                           measured to be the faster); the output is the\n"
           "                           same; default $TRACEWRIGHT_THREADS, else auto\n"
           "  -v, --verbose            after reading, say on standard error how much was\n"
           "                           read, how fast, and on how many threads\n"
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
           "  tracewright convert -t jsonl soffice_*.log > merged.jsonl\n"
           "  tracewright convert -o startup.trace.json startup_4711.log   (for Perfetto UI)\n"
           "  tracewright convert -t ctf -o startup-ctf startup_4711.log   (for babeltrace2)\n");
}

/* The format of -t: one that can be written. */
static const tw_format *output_format(const char *name) {
    const tw_format *f = tw_format_find(name);
    if (!f) {
        cli_usage_error("convert", "unknown format '%s' (see 'tracewright formats')", name);
        return NULL;
    }
    if (!tw_format_can_write(f)) {
        cli_usage_error("convert", "the %s format cannot be written", f->name);
        return NULL;
    }
    return f;
}

int cmd_convert(int argc, char **argv) {
    cli_parser p;
    cli_parser_init(&p, "convert", argc, argv);
    const char *to = NULL, *output = NULL;
    char **inputs = calloc((size_t)argc + 1, sizeof *inputs);
    cli_reading rd;
    int ninputs = 0, rc = EXIT_TROUBLE;
    bool have_rd = cli_reading_init(&rd);
    if (!inputs || !have_rd) {
        if (!inputs) cli_error("out of memory");
        goto out;
    }
    const char *arg, *name;
    int id;
    while ((id = cli_next(&p, opts, &arg, &name)) != CLI_DONE) {
        switch (id) {
        case CLI_ERROR: goto out;
        case CLI_OPERAND: inputs[ninputs++] = (char *)arg; break;
        case O_TO: to = arg; break;
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
    const tw_format *fout = NULL;
    if (!cli_reading_format("convert", &rd)) goto out;
    if (to) {
        if (!(fout = output_format(to))) goto out;
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
    if ((fout->flags & TW_FMT_DIRECTORY) && (!output || strcmp(output, "-") == 0)) {
        cli_usage_error("convert", "the %s format writes a directory: name it with -o DIR",
                        fout->name);
        goto out;
    }
    /* (--names is the writer's when it writes text1-bin) */
    if (!cli_stdin_ok("convert", inputs, ninputs,
                      strcmp(fout->name, "text1-bin") == 0 ? NULL : &rd))
        goto out;
    static char *const stdin_only[] = {"-", NULL};
    char *const *paths = ninputs ? inputs : stdin_only;
    size_t npaths = ninputs ? (size_t)ninputs : 1;

    cli_diag diag;
    cli_diag_init(&diag, rd.maxdiag);
    tw_strtab *strtab = cli_strtab(&rd);
    tw_source *src = NULL;
    tw_output *out = NULL;
    tw_writer *w = NULL;
    tw_outdir *dir = NULL;
    if (!strtab) {
        cli_error("out of memory");
        goto done;
    }
    tw_source_opts so = cli_source_opts(&rd);
    /* a writer that interns into the string table keeps reading on its thread */
    bool interns = (fout->flags & TW_FMT_WRITER_INTERNS) != 0;
    char why[96];  /* for -v */
    if (interns) {
        so.threads = false;
        so.lockstep = true;
        snprintf(why, sizeof why, "the %s writer adds names to the string table", fout->name);
    }
    so.transient_names = (fout->flags & TW_FMT_WRITER_TRANSIENT) != 0;
    if (tw_source_open((const char *const *)paths, npaths, &so, strtab, &diag.sink, &src) !=
        TW_OK)
        goto done;
    if (fout->flags & TW_FMT_DIRECTORY) {
        /* built next to its place and moved there at the end */
        if (!(dir = tw_outdir_open(output, &fout->dir_spec))) {
            if (errno == EEXIST)
                cli_error("'%s' exists and is not an empty directory or an earlier %s output; "
                          "not replacing it", output, fout->name);
            else
                cli_error("cannot create the directory '%s': %s", output, strerror(errno));
            goto done;
        }
        if (tw_writer_open_dir(fout, dir, strtab, &diag.sink, rd.fopts, tw_source_info(src),
                               &w) != TW_OK)
            goto done;
    } else {
        /* a regular output file is replaced only at the end, so it may also
         * be one of the inputs */
        out = tw_output_open(output);
        if (!out) {
            cli_error("cannot open '%s' for writing: %s", output, strerror(errno));
            goto done;
        }
        if (tw_writer_open(fout, out, strtab, &diag.sink, rd.fopts, tw_source_info(src), &w) !=
            TW_OK)
            goto done;
    }
    /* by default no progress line when the output goes to that terminal too:
     * the output would run through it */
    int pmode = rd.progress;
    if (pmode == CLI_PROGRESS_AUTO && out && cli_shares_stderr(out->fd)) pmode = CLI_PROGRESS_OFF;
    cli_progress_start(src, pmode, out);
    const tw_event *ev;
    size_t nev;
    int r;
    while ((r = tw_source_next_run(src, &ev, &nev)) == TW_OK) {
        size_t i = 0;
        for (; i < nev; i++) {
            cli_progress_tick();
            if (tw_writer_event(w, &ev[i]) != TW_OK) {
                r = TW_ERR;
                break;
            }
            if (out && out->err) break;
        }
        if (i < nev) {  /* stopped at event i: the rest was not used */
            tw_source_unread(src, nev - i - 1);
            break;
        }
    }
    cli_progress_end();
    /* what the writer does at the end may take the place of the reading
     * thread, done once the inputs were read to their end */
    tw_writer_set_threads(w, r == TW_EOF && tw_source_reading_ahead(src) && !(out && out->err)
                                 ? 2 : 1);
    if (r != TW_ERR && tw_writer_finish(w) != TW_OK) r = TW_ERR;
    if (out && rd.verbose && cli_shares_stderr(out->fd)) (void)tw_output_flush(out);
    cli_read_summary(&rd, src, interns ? why : NULL,
                     tw_writer_threads_used(w) > 1 ? fout->name : NULL);
    if (r == TW_ERR) goto done;
    /* an input that could not be read to its end (cut while it was read) */
    rc = diag.sink.problems[TW_R_IO_ERROR]    ? EXIT_TROUBLE
         : diag.sink.count[TW_SEV_ERROR] ? EXIT_FINDINGS
                                       : EXIT_OK;
done:
    cli_progress_end();
    tw_writer_free(w);
    if (dir && rc == EXIT_TROUBLE) {
        tw_outdir_abort(dir);  /* an existing directory keeps its contents */
    } else if (dir) {
        int derr = tw_outdir_commit(dir);
        if (derr) {
            cli_error("cannot put the directory '%s' in place: %s", output, strerror(derr));
            rc = EXIT_TROUBLE;
        }
    }
    if (out && rc == EXIT_TROUBLE) {
        tw_output_abort(out);  /* an existing output file keeps its contents */
    } else if (out) {
        if (!cli_output_close(out, output)) rc = EXIT_TROUBLE;
    }
    tw_source_close(src);
    tw_strtab_free(strtab);
    cli_diag_finish(&diag);
out:
    if (have_rd) cli_reading_free(&rd);
    free(inputs);
    return rc;
}
