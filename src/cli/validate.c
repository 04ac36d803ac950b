/*
 * tracewright validate: read every input completely, through its reader and
 * the pairing engine, and report every problem as text, JSON Lines or
 * SARIF 2.1.0 on standard output.  The exit status is the verdict.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

enum { O_FORMAT = 1, O_STRICT, O_HELP };
enum { FORM_TEXT, FORM_JSON, FORM_SARIF };

static const cli_opt opts[] = {
    CLI_READING_OPTS,
    CLI_JITTER_OPT,
    {"format", 0, true, O_FORMAT},
    {"strict", 0, false, O_STRICT},
    {"help", 'h', false, O_HELP},
    {NULL, 0, false, 0},
};

static void help(void) {
    printf("Usage: tracewright validate [-f FORMAT] [OPTIONS] [FILE...]\n"
           "\n"
           "Read each log completely and report every problem in it: lines or records\n"
           "that match no grammar, violations of the format's own rules, and scopes that\n"
           "do not pair (ends without a begin, scopes left open, time running backwards).\n"
           "Each file is checked on its own.\n"
           "\n"
           "Options:\n"
           "  -f, --from FORMAT        format of the inputs (default: detected per file)\n"
           "      --format text|json|sarif\n"
           "                           text: one GCC-style line per problem and a summary;\n"
           "                           json: JSON Lines, one object per problem;\n"
           "                           sarif: one SARIF 2.1.0 log (for code scanning)\n"
           "      --strict             warnings fail the check too\n"
           "      --jitter DURATION    time may go back this much on a thread without a\n"
           "                           warning (default: the format's, see 'formats')\n"
           "      --max-diagnostics N  report at most N problems (default 0: all)\n"
           "      --max-line-length N  skip lines longer than N bytes (default 67108864)\n"
           "      --max-names N        stop at more than N distinct names (default 16777216;\n"
           "                           0: no limit)\n"
           "      --progress           show a progress line on standard error once reading\n"
           "                           takes more than a second (default: only when\n"
           "                           standard error is a terminal); --no-progress: never\n"
           "      --threads N          1, 2 (read ahead on a second thread) or auto (2\n"
           "                           with two usable CPUs and 8 MiB or more of\n"
           "                           input, while measured to be the faster); the\n"
           "                           output is the same; default\n"
           "                           $TRACEWRIGHT_THREADS, else auto\n"
           "  -v, --verbose            after reading, say on standard error how much was\n"
           "                           read, how fast, and on how many threads\n"
           "  -h, --help               show this help and exit\n"
           "\n"
           "Format options (see 'tracewright formats') are given as --NAME=VALUE.\n"
           "The rules are explained in docs/diagnostics.md.\n"
           "\n"
           "Exit status: 0 no errors (warnings allowed); 1 errors found, or warnings with\n"
           "--strict; 2 trouble (usage, unreadable or undetectable input, write error).\n"
           "\n"
           "Examples:\n"
           "  tracewright validate startup_4711.log\n"
           "  tracewright validate --strict --format sarif logs/*.csv > tracewright.sarif\n");
}

typedef struct validator {
    tw_diag_sink sink;
    int form;
    tw_output *out;
    tw_output *notes;  /* SARIF: problems tied to no input, written at the end */
    unsigned long long max, shown, hidden;
    bool results;  /* a SARIF result was written (for the commas) */
    bool shared;   /* out goes where standard error goes (the progress line) */
    /* SARIF: the input whose lines are read back for columns (sarif_column) */
    char *col_file;
    int col_fd;    /* -1: not open, or not a regular file */
    /* the last line counted: from the line's start at line_at, `units`
     * before the character at col_at (0: none) */
    uint64_t line_at, col_at, units;
} validator;

/* A path as a URI reference: bytes outside RFC 3986's unreserved set and
 * '/' are percent-encoded; a relative path stays relative (to the
 * directory the run started in), an absolute one becomes a file: URI
 * (file:///tmp/x.log; a path that starts with several slashes is the same
 * file on this system with one). */
static void put_uri(tw_output *o, const char *path) {
    static const char hex[] = "0123456789ABCDEF";
    char buf[8];
    if (path[0] == '/') {
        tw_out_str(o, "file://");
        while (path[1] == '/') path++;
    }
    for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
        if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
            strchr("-._~/", *p)) {
            tw_out_putc(o, (char)*p);
        } else {
            buf[0] = '%';
            buf[1] = hex[*p >> 4];
            buf[2] = hex[*p & 15];
            tw_out_write(o, buf, 3);
        }
    }
}

/* The artifactLocation of an input: its URI, or for standard input, which
 * has none, a description. */
static void put_artifact(tw_output *o, const char *file) {
    if (strcmp(file, TW_STDIN_NAME) == 0) {
        tw_out_str(o, "{\"description\":{\"text\":\"standard input\"}}");
        return;
    }
    tw_out_str(o, "{\"uri\":\"");
    put_uri(o, file);
    tw_out_str(o, "\"}");
}

static const char *sarif_level(tw_severity sev) {
    return sev == TW_SEV_ERROR ? "error" : sev == TW_SEV_WARNING ? "warning" : "note";
}

static void put_str(tw_output *o, const char *s) { tw_out_json_str(o, s, strlen(s)); }

static void json_line(tw_output *o, const tw_diag *d) {
    const tw_loc *l = &d->loc;
    tw_out_putc(o, '{');
    if (l->kind != TW_LOC_NONE && l->file) {
        tw_out_str(o, "\"file\":");
        size_t n = strlen(l->file);
        if (!tw_out_json_str(o, l->file, n)) {  /* not UTF-8: the exact bytes too */
            tw_out_str(o, ",\"file_base64\":\"");
            tw_out_base64(o, l->file, n);
            tw_out_putc(o, '"');
        }
        tw_out_putc(o, ',');
    }
    if (l->kind == TW_LOC_TEXT) {
        tw_out_printf(o, "\"line\":%llu,", (unsigned long long)l->line);
        if (l->col) tw_out_printf(o, "\"column\":%llu,", (unsigned long long)l->col);
    } else if (l->kind == TW_LOC_BINARY) {
        tw_out_printf(o, "\"offset\":%llu,\"record\":%llu,", (unsigned long long)l->offset,
                      (unsigned long long)l->record);
    }
    tw_out_printf(o, "\"severity\":\"%s\",\"rule\":\"%s\",\"message\":",
                  tw_severity_name(d->severity), d->rule_id);
    put_str(o, d->message);
    tw_out_str(o, "}\n");
}

/* A problem of the run rather than of an input (an input that cannot be
 * opened): a tool execution notification. */
static void sarif_notification(validator *v, const tw_diag *d) {
    tw_output *o = v->notes;
    tw_out_printf(o,
                  "%s\n        {\"level\":\"%s\",\"associatedRule\":{\"id\":\"%s\",\"index\":%u},"
                  "\"message\":{\"text\":",
                  o->len ? "," : "", sarif_level(d->severity), d->rule_id, (unsigned)d->rule);
    put_str(o, d->message);
    tw_out_str(o, "}}");
}

/* Forget the input read back (each input is opened again: a file of the
 * same name may be another by then). */
static void col_forget(validator *v) {
    if (v->col_fd >= 0) close(v->col_fd);
    free(v->col_file);
    v->col_file = NULL;
    v->col_fd = -1;
    v->col_at = 0;
}

/* The input named `file`, open for reading back its lines: a descriptor
 * kept while the diagnostics name the same file; -1 when it cannot be
 * read back (standard input, which is gone; a file that is not regular,
 * or that cannot be opened). */
static int col_input(validator *v, const char *file) {
    if (v->col_file && strcmp(v->col_file, file) == 0) return v->col_fd;
    col_forget(v);
    v->col_file = strdup(file);
    if (!v->col_file || strcmp(file, TW_STDIN_NAME) == 0) return -1;
    int fd; /* not blocking: a FIFO, read once already, has no writer left */
    do fd = open(file, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    while (fd < 0 && errno == EINTR);
    struct stat st;
    if (fd >= 0 && (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))) {
        close(fd);
        fd = -1;
    }
    return v->col_fd = fd;
}

/* SARIF counts a column in UTF-16 code units (the run's columnKind), the
 * diagnostics in bytes: the line's bytes before the column are read back
 * from the input and counted, from the last column counted when it is
 * on the same line before this one (a line with many results is read
 * once).  0 when they cannot be read back (standard input, a pipe): the
 * result then names the line only. */
static uint64_t sarif_column(validator *v, const tw_loc *l) {
    uint64_t before = l->col - 1;  /* bytes of the line before the column */
    if (!before) return 1;
    if (l->offset < before) return 0;
    int fd = col_input(v, l->file);
    if (fd < 0) return 0;
    uint64_t start = l->offset - before, at = start, units = 0;
    if (v->col_at && v->line_at == start && v->col_at <= l->offset) {
        at = v->col_at;
        units = v->units;
    }
    char buf[65536];
    uint64_t left = l->offset - at;
    size_t kept = 0;  /* bytes of a character cut at the end of the last read */
    while (left) {
        size_t want = sizeof buf - kept < left ? sizeof buf - kept : (size_t)left;
        ssize_t got = pread(fd, buf + kept, want, (off_t)(at + kept));
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) return 0;  /* shorter than when it was read */
        left -= (uint64_t)got;
        size_t n = kept + (size_t)got, used;
        units += tw_utf16_units(buf, n, &used);
        at += used;
        kept = n - used;
        memmove(buf, buf + used, kept);
    }
    v->line_at = start;
    v->col_at = at; /* a character starts there */
    v->units = units;
    return units + tw_utf16_units(buf, kept, NULL) + 1;
}

static void sarif_result(validator *v, const tw_diag *d) {
    tw_output *o = v->out;
    const tw_loc *l = &d->loc;
    if (l->kind == TW_LOC_NONE || !l->file) {
        sarif_notification(v, d);
        return;
    }
    tw_out_str(o, v->results ? ",\n" : "\n");
    v->results = true;
    tw_out_printf(o,
                  "        {\"ruleId\":\"%s\",\"ruleIndex\":%u,\"level\":\"%s\","
                  "\"message\":{\"text\":",
                  d->rule_id, (unsigned)d->rule, sarif_level(d->severity));
    put_str(o, d->message);
    tw_out_str(o, "},\"locations\":[{\"physicalLocation\":{\"artifactLocation\":");
    put_artifact(o, l->file);
    tw_out_str(o, ",\"region\":{");
    if (l->kind == TW_LOC_TEXT) {
        tw_out_printf(o, "\"startLine\":%llu", (unsigned long long)l->line);
        uint64_t col = l->col ? sarif_column(v, l) : 0;
        if (col) tw_out_printf(o, ",\"startColumn\":%llu", (unsigned long long)col);
    } else if (l->kind == TW_LOC_BINARY) {
        /* code scanning places every result on a line: the first */
        tw_out_printf(o, "\"startLine\":1,\"byteOffset\":%llu,\"byteLength\":%u",
                      (unsigned long long)l->offset, (unsigned)l->length);
    } else {
        tw_out_str(o, "\"startLine\":1");
    }
    tw_out_str(o, "}}}]}");
}

static void on_diag(void *user, const tw_diag *d) {
    validator *v = user;
    if (v->max && v->shown >= v->max && !cli_diag_is_trouble(d)) {
        v->hidden++;
        return;
    }
    v->shown++;
    if (v->shared) cli_progress_clear();
    switch (v->form) {
    case FORM_TEXT: {
        char pre[CLI_PREFIX_MAX];
        size_t n = cli_diag_prefix(d, pre, sizeof pre);
        tw_out_write(v->out, pre, n);
        tw_out_printf(v->out, "%s [%s]\n", d->message, d->rule_id);
        break;
    }
    case FORM_JSON: json_line(v->out, d); break;
    default: sarif_result(v, d); break;
    }
}

static void sarif_begin(tw_output *o) {
    tw_out_str(o, "{\n  \"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\",\n"
                  "  \"version\": \"2.1.0\",\n  \"runs\": [{\n    \"tool\": {\"driver\": {"
                  "\"name\": \"tracewright\", \"version\": \"" TW_VERSION_STRING "\", "
                  "\"rules\": [");
    for (int i = 0; i < TW_RULE_COUNT; i++) {
        const tw_rule_info *ri = tw_rule_get((tw_rule)i);
        tw_out_printf(o, "%s\n      {\"id\":\"%s\",\"shortDescription\":{\"text\":", i ? "," : "",
                      ri->id);
        put_str(o, ri->summary);
        tw_out_printf(o, "},\"defaultConfiguration\":{\"level\":\"%s\"}}",
                      sarif_level(ri->severity));
    }
    tw_out_str(o, "\n    ]}},\n    \"columnKind\": \"utf16CodeUnits\",\n    \"results\": [");
}

static void sarif_end(validator *v, bool ok) {
    tw_output *o = v->out;
    tw_out_printf(o, "%s]", v->results ? "\n    " : "");
    tw_out_printf(o, ",\n    \"invocations\": [{\"executionSuccessful\": %s", ok ? "true" : "false");
    size_t n;
    const char *notes = tw_output_mem_data(v->notes, &n);
    if (n) {
        tw_out_str(o, ", \"toolExecutionNotifications\": [");
        tw_out_write(o, notes, n);
        tw_out_str(o, "\n    ]");
    }
    tw_out_str(o, "}]\n  }]\n}\n");
}

/* Read one input completely into the pairing engine; false on trouble
 * (unreadable, undetectable, read error), which was reported. */
static bool check(const char *path, const cli_reading *rd, validator *v) {
    col_forget(v);
    tw_strtab *strtab = cli_strtab(rd);
    tw_stats *stats = tw_stats_new(&v->sink);
    tw_source *src = NULL;
    bool ok = false;
    if (!strtab || !stats) {
        tw_report(&v->sink, TW_R_OUT_OF_MEMORY, NULL, "out of memory");
        goto done;
    }
    tw_source_opts so = cli_source_opts(rd);
    uint64_t io_errors = v->sink.problems[TW_R_IO_ERROR];
    if (tw_source_open(&path, 1, &so, strtab, &v->sink, &src) != TW_OK) goto done;
    tw_stats_set_jitter(stats, cli_jitter(rd, src));
    /* a reader that checks UTF-8 itself reports it at the exact byte */
    unsigned checks = TW_CHECK_OWN_STATS;
    if (!(tw_source_input_format(src, 0)->flags & TW_FMT_UTF8)) checks |= TW_CHECK_UTF8;
    if (tw_stats_set_checks(stats, checks) != TW_OK) {
        tw_report(&v->sink, TW_R_OUT_OF_MEMORY, NULL, "out of memory");
        goto done;
    }
    cli_progress_start(src, rd->progress, v->out);
    int r;
    if (cli_feed_stats(src, stats, &r) != TW_OK) goto done;
    cli_progress_end();
    /* an input that could not be read to its end (cut while it was read) */
    ok = r == TW_EOF && tw_stats_finish(stats) == TW_OK &&
         v->sink.problems[TW_R_IO_ERROR] == io_errors;
    if (rd->verbose && v->shared) (void)tw_output_flush(v->out);  /* the problems go first */
    cli_read_summary(rd, src, NULL, NULL);
done:
    cli_progress_end();
    tw_source_close(src);
    tw_stats_free(stats);
    tw_strtab_free(strtab);
    return ok;
}

static const char *plural(uint64_t n, const char *one, const char *many) {
    return n == 1 ? one : many;
}

int cmd_validate(int argc, char **argv) {
    cli_parser p;
    cli_parser_init(&p, "validate", argc, argv);
    cli_reading rd;
    if (!cli_reading_init(&rd)) return EXIT_TROUBLE;
    rd.maxdiag = 0;
    validator v;
    memset(&v, 0, sizeof v);
    v.col_fd = -1;
    bool strict = false;
    char **paths = malloc(sizeof *paths * (size_t)(argc + 1));
    int npaths = 0, status = EXIT_TROUBLE;
    if (!paths) {
        cli_error("out of memory");
        goto out;
    }
    for (;;) {
        const char *arg = NULL, *name = NULL;
        int id = cli_next(&p, opts, &arg, &name);
        if (id == CLI_DONE) break;
        if (id == CLI_ERROR) goto out;
        if (id == CLI_OPERAND) {
            paths[npaths++] = (char *)arg;
            continue;
        }
        int taken = cli_reading_option(&p, &rd, id, arg, name);
        if (taken < 0) goto out;
        if (taken) continue;
        switch (id) {
        case O_FORMAT: {
            static const char *const forms[] = {"text", "json", "sarif"};
            if (!cli_choose("validate", "--format", arg, forms, 3, &v.form)) goto out;
            break;
        }
        case O_STRICT: strict = true; break;
        case O_HELP:
            help();
            status = EXIT_OK;
            goto out;
        default: break;
        }
    }
    if (!cli_reading_format("validate", &rd)) goto out;
    if (npaths == 0) paths[npaths++] = "-";
    if (!cli_stdin_ok("validate", paths, npaths, &rd)) goto out;
    v.out = tw_output_fd(1, "<stdout>");
    v.notes = tw_output_mem();
    if (!v.out || !v.notes) {
        cli_error("out of memory");
        goto out;
    }
    v.sink.fn = on_diag;
    v.sink.user = &v;
    v.max = rd.maxdiag;
    v.shared = cli_shares_stderr(v.out->fd);
    if (v.form == FORM_SARIF) sarif_begin(v.out);
    bool trouble = false;
    for (int i = 0; i < npaths; i++) trouble |= !check(paths[i], &rd, &v);
    uint64_t errors = v.sink.count[TW_SEV_ERROR], warnings = v.sink.count[TW_SEV_WARNING];
    status = trouble ? EXIT_TROUBLE : errors || (strict && warnings) ? EXIT_FINDINGS : EXIT_OK;
    if (v.form == FORM_SARIF && v.hidden) {  /* the log says it is not whole */
        tw_out_printf(v.notes,
                      "%s\n        {\"level\":\"note\",\"message\":{\"text\":\"%llu more "
                      "diagnostic%s not written (--max-diagnostics 0 writes all)\"}}",
                      v.notes->len ? "," : "", v.hidden, v.hidden == 1 ? "" : "s");
    }
    if (v.form == FORM_SARIF) sarif_end(&v, !trouble);
    if (v.hidden && v.form == FORM_TEXT)
        tw_out_printf(v.out, "tracewright: note: %llu more diagnostic%s not shown "
                             "(--max-diagnostics 0 shows all)\n",
                      v.hidden, v.hidden == 1 ? "" : "s");
    else if (v.hidden)
        fprintf(stderr, "tracewright: note: %llu more diagnostic%s not written "
                        "(--max-diagnostics 0 writes all)\n",
                v.hidden, v.hidden == 1 ? "" : "s");
    if (v.form == FORM_TEXT)
        tw_out_printf(v.out, "%llu %s, %llu %s in %d %s\n", (unsigned long long)errors,
                      plural(errors, "error", "errors"), (unsigned long long)warnings,
                      plural(warnings, "warning", "warnings"), npaths,
                      npaths == 1 ? "file" : "files");
    int werr = tw_output_close(v.out);
    if (werr) {
        if (werr != EPIPE) cli_error("cannot write to standard output: %s", strerror(werr));
        status = EXIT_TROUBLE;
    }
out:
    if (v.notes) tw_output_abort(v.notes);
    col_forget(&v);
    free(paths);
    cli_reading_free(&rd);
    return status;
}
