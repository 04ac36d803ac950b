/* tracewright stats: per-scope net/gross timing reports, and merging them. */
#include <errno.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"

enum { O_BY = 1, O_SORT, O_TOP, O_FORMAT, O_SCOPE, O_PID, O_TID, O_THREAD, O_MERGE, O_OUTPUT, O_HELP };

static const cli_opt opts[] = {
    CLI_READING_OPTS,
    CLI_JITTER_OPT,
    {"by", 0, true, O_BY},
    {"sort", 0, true, O_SORT},
    {"top", 0, true, O_TOP},
    {"format", 0, true, O_FORMAT},
    {"scope", 0, true, O_SCOPE},
    {"pid", 0, true, O_PID},
    {"tid", 0, true, O_TID},
    {"thread-name", 0, true, O_THREAD},
    {"merge", 0, false, O_MERGE},
    {"output", 'o', true, O_OUTPUT},
    {"help", 'h', false, O_HELP},
    {NULL, 0, false, 0},
};

static void help(void) {
    printf("Usage: tracewright stats [-f FORMAT] [OPTIONS] [FILE...]\n"
           "       tracewright stats --merge [OPTIONS] [REPORT.json...]\n"
           "\n"
           "Pair the begin and end events of the logs into scopes and report, per scope,\n"
           "how often it ran and where the time went: net (self) time, gross time (with\n"
           "callees), call time (with preemption), period and outside time.  With --merge,\n"
           "combine reports saved with --format json into one.\n"
           "\n"
           "Options:\n"
           "  -f, --from FORMAT        format of the inputs (default: detected per file)\n"
           "      --by scope|thread    one row per scope (default), or per thread and scope\n"
           "      --sort net|gross|call|count|name\n"
           "                           order of the rows (default net: largest first)\n"
           "      --top N              show the first N rows only\n"
           "      --format table|csv|json\n"
           "                           table for people, CSV with integer ns, or JSON\n"
           "                           (tracewright-stats/1, see docs/stats.md); default:\n"
           "                           from the -o file's extension (.csv, .json, in any\n"
           "                           case), else table\n"
           "      --scope REGEX        only scopes whose name matches (POSIX extended regex)\n"
           "      --pid N              only scopes of process N\n"
           "      --tid N              only scopes of thread N (in any process)\n"
           "      --thread-name REGEX  only scopes of threads whose name matches\n"
           "      --merge              the FILEs are JSON reports to combine\n"
           "      --jitter DURATION    time may go back this much on a thread without a\n"
           "                           warning (default: the format's, see 'formats')\n"
           "  -o, --output FILE        write to FILE instead of standard output\n"
           "      --max-diagnostics N  print at most N diagnostics (default 100; 0 = all)\n"
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
           "\n"
           "Exit status: 0 report written; 1 report written, but the input had errors;\n"
           "2 trouble (usage, unreadable or undetectable input, write error).\n"
           "\n"
           "Examples:\n"
           "  tracewright stats startup_4711.log\n"
           "  tracewright stats --by thread --sort gross --top 10 startup_4711.log\n"
           "  tracewright stats --format json run1.log > run1.json\n"
           "  tracewright stats --merge run*.json\n");
}

/* Compile the POSIX extended regular expression of `option`; false (a
 * usage error reported) when it is invalid. */
static bool compile(const char *option, const char *expr, regex_t *re) {
    int e = regcomp(re, expr, REG_EXTENDED | REG_NOSUB);
    if (e == 0) return true;
    char msg[128];
    regerror(e, re, msg, sizeof msg);
    regfree(re);
    cli_usage_error("stats", "invalid %s expression '%s': %s", option, expr, msg);
    return false;
}

int cli_feed_stats(tw_source *src, tw_stats *stats, int *end) {
    const tw_event *ev;
    size_t nev;
    while ((*end = tw_source_next_run(src, &ev, &nev)) == TW_OK) {
        cli_progress_ticks(nev);
        if (tw_stats_events(stats, ev, nev) != TW_OK) return TW_ERR;
    }
    return TW_OK;
}

/* Read the inputs, pair and aggregate; fill the profile. */
int cli_profile_inputs(char *const *paths, size_t n, tw_input *in, const cli_reading *rd,
                       cli_diag *diag, tw_profile *prof) {
    tw_strtab *strtab = cli_strtab(rd);
    tw_stats *stats = tw_stats_new(&diag->sink);
    tw_source *src = NULL;
    int rc = TW_ERR;
    if (!strtab || !stats) {
        cli_error("out of memory");
        tw_input_close(in);
        goto done;
    }
    tw_source_opts so = cli_source_opts(rd);
    so.drop_details = true;  /* pairing and statistics read neither */
    so.defer_checks = true;  /* and do little with each event */
    if ((in ? tw_source_open_inputs(&in, 1, &so, strtab, &diag->sink, &src)
            : tw_source_open((const char *const *)paths, n, &so, strtab, &diag->sink, &src)) !=
        TW_OK)
        goto done;
    tw_stats_set_jitter(stats, cli_jitter(rd, src));
    cli_progress_start(src, rd->progress, NULL);
    int r;
    if (cli_feed_stats(src, stats, &r) != TW_OK) goto done;
    cli_progress_end();
    if (r != TW_ERR && tw_stats_finish(stats) != TW_OK) r = TW_ERR;
    cli_read_summary(rd, src, NULL, NULL);
    if (r == TW_ERR) goto done;
    for (size_t i = 0; i < tw_source_input_count(src); i++)
        if (tw_profile_add_input(prof, tw_input_name(tw_source_input(src, i)),
                                 tw_source_input_format(src, i)->name) != TW_OK)
            goto oom;
    if (tw_profile_add_stats(prof, stats, tw_source_info(src), &diag->sink) != TW_OK) goto oom;
    rc = TW_OK;
    goto done;
oom:
    cli_error("out of memory");
done:
    cli_progress_end();
    tw_source_close(src);
    tw_stats_free(stats);
    tw_strtab_free(strtab);
    return rc;
}

static int merge_reports(char *const *paths, size_t n, size_t maxline, cli_diag *diag,
                         tw_profile *prof) {
    tw_input_opts io = {.max_line = maxline};
    for (size_t i = 0; i < n; i++) {
        tw_input *in;
        if (tw_input_open(paths[i], &io, &diag->sink, &in) != 0) return TW_ERR;
        int rc = tw_profile_read_json(prof, in, &diag->sink);
        tw_input_close(in);
        if (rc != TW_OK) return TW_ERR;
    }
    return TW_OK;
}

int cmd_stats(int argc, char **argv) {
    static const char *const bys[] = {"scope", "thread"};
    static const char *const sorts[] = {"net", "gross", "call", "count", "name"};
    static const char *const formats[] = {"table", "csv", "json"};
    cli_parser p;
    cli_parser_init(&p, "stats", argc, argv);
    const char *output = NULL, *scope = NULL, *thread = NULL;
    int by = 0, sort = TW_SORT_NET, format = -1;
    bool merge = false, has_pid = false, has_tid = false;
    unsigned long long top = 0, pid = 0, tid = 0;
    char **files = calloc((size_t)argc + 1, sizeof *files);
    tw_profile *prof = tw_profile_new();
    cli_reading rd;
    bool have_rd = cli_reading_init(&rd);
    regex_t re, thread_re;
    bool have_re = false, have_thread_re = false;
    int nfiles = 0, rc = EXIT_TROUBLE;
    cli_diag diag;
    cli_diag_init(&diag, 100);
    if (!files || !have_rd || !prof) {
        if (have_rd) cli_error("out of memory");
        goto out;
    }
    const char *arg, *name;
    int id;
    while ((id = cli_next(&p, opts, &arg, &name)) != CLI_DONE) {
        switch (id) {
        case CLI_ERROR: goto out;
        case CLI_OPERAND: files[nfiles++] = (char *)arg; break;
        case O_BY:
            if (!cli_choose("stats", "--by", arg, bys, 2, &by)) goto out;
            break;
        case O_SORT:
            if (!cli_choose("stats", "--sort", arg, sorts, 5, &sort)) goto out;
            break;
        case O_FORMAT:
            if (!cli_choose("stats", "--format", arg, formats, 3, &format)) goto out;
            break;
        case O_TOP:
            if (!cli_parse_count("stats", "--top", arg, &top)) goto out;
            break;
        case O_PID:
            if (!cli_parse_count("stats", "--pid", arg, &pid)) goto out;
            if (pid > UINT32_MAX) {
                cli_usage_error("stats", "option '--pid' expects a process id up to 4294967295");
                goto out;
            }
            has_pid = true;
            break;
        case O_TID:
            if (!cli_parse_count("stats", "--tid", arg, &tid)) goto out;
            has_tid = true;
            break;
        case O_SCOPE: scope = arg; break;
        case O_THREAD: thread = arg; break;
        case O_MERGE: merge = true; break;
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
    if (!cli_reading_format("stats", &rd)) goto out;
    if (merge && (rd.from || rd.fmt_opts || rd.has_jitter)) {
        cli_usage_error("stats", "--merge reads JSON reports; -f, --jitter and format options do "
                                 "not apply");
        goto out;
    }
    if (format < 0) {  /* from the -o file's extension */
        size_t n = output ? strlen(output) : 0;  /* in any case, as convert's -t */
        format = n > 5 && strcasecmp(output + n - 5, ".json") == 0  ? TW_PROFILE_JSON
                 : n > 4 && strcasecmp(output + n - 4, ".csv") == 0 ? TW_PROFILE_CSV
                                                                    : TW_PROFILE_TABLE;
    }
    if ((scope && !(have_re = compile("--scope", scope, &re))) ||
        (thread && !(have_thread_re = compile("--thread-name", thread, &thread_re))))
        goto out;
    if (!cli_stdin_ok("stats", files, nfiles, merge ? NULL : &rd)) goto out;
    static char *const stdin_only[] = {"-", NULL};
    char *const *paths = nfiles ? files : stdin_only;
    size_t npaths = nfiles ? (size_t)nfiles : 1;

    if ((merge ? merge_reports(paths, npaths, (size_t)rd.maxline, &diag, prof)
               : cli_profile_inputs(paths, npaths, NULL, &rd, &diag, prof)) != TW_OK)
        goto out;
    /* filter the rows per thread, before they are merged per scope; merged
     * reports must have rows per thread for --pid, --tid and --thread-name */
    if ((has_pid || has_tid || thread) && tw_profile_group(prof, true, &diag.sink) != TW_OK)
        goto out;
    if (thread) {  /* say why nothing matches, where no thread has a name */
        bool named = false;
        for (size_t i = 0; i < tw_profile_row_count(prof) && !named; i++)
            named = tw_profile_row(prof, i)->thread_name != NULL;
        if (!named && tw_profile_row_count(prof))
            fputs("tracewright: note: --thread-name matches no row: no thread has a name "
                  "(names come from thread_name metadata events)\n", stderr);
    }
    tw_row_filter rf = {.regex = have_re ? &re : NULL, .has_pid = has_pid, .has_tid = has_tid,
                        .pid = (uint32_t)pid, .tid = tid,
                        .thread_regex = have_thread_re ? &thread_re : NULL};
    tw_profile_filter(prof, &rf);
    if (tw_profile_group(prof, by == 1, &diag.sink) != TW_OK) goto out;
    tw_profile_sort(prof, (tw_sort)sort);
    tw_profile_truncate(prof, (size_t)top);
    tw_output *o = cli_output_open(output);
    if (!o) goto out;
    tw_profile_write(prof, (tw_profile_format)format, o);
    if (!cli_output_close(o, output)) goto out;
    /* an input that could not be read to its end (cut while it was read) */
    rc = diag.sink.problems[TW_R_IO_ERROR]    ? EXIT_TROUBLE
         : diag.sink.count[TW_SEV_ERROR] ? EXIT_FINDINGS
                                       : EXIT_OK;
out:
    cli_diag_finish(&diag);
    if (have_re) regfree(&re);
    if (have_thread_re) regfree(&thread_re);
    tw_profile_free(prof);
    if (have_rd) cli_reading_free(&rd);
    free(files);
    return rc;
}
