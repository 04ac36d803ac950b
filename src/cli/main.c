/*
 * tracewright - convert, analyse and check profiler logs.
 *
 * main() dispatches to one function per subcommand (table below) and holds
 * the services they share: argument parsing and diagnostics on stderr.
 */
#if defined(__linux__) && !defined(_GNU_SOURCE)
/* NOLINTNEXTLINE(bugprone-reserved-identifier,cert-dcl37-c,cert-dcl51-cpp): glibc's feature macro */
#define _GNU_SOURCE  /* sched_getaffinity(), CPU_COUNT() */
#endif
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static int cmd_help(int argc, char **argv);

static const struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} commands[] = {
    {"stats", cmd_stats, "report per-scope net, gross and call times"},
    {"convert", cmd_convert, "convert logs from one format to another"},
    {"validate", cmd_validate, "check logs and report every problem (text, JSON Lines, SARIF)"},
    {"compare", cmd_compare, "compare per-scope timing of two runs; fail on regressions"},
    {"detect", cmd_detect, "tell the format of each file"},
    {"formats", cmd_formats, "list the formats, their capabilities and options"},
    {"help", cmd_help, "show help for a command"},
};

#define NCOMMANDS (sizeof commands / sizeof commands[0])

static void usage(FILE *f) {
    fprintf(f,
            "Usage: tracewright COMMAND [OPTIONS] [FILE...]\n"
            "\n"
            "Convert, analyse and check profiler logs.\n"
            "\n"
            "Commands:\n");
    for (size_t i = 0; i < NCOMMANDS; i++)
        fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fprintf(f,
            "\n"
            "Options:\n"
            "  -h, --help     show this help and exit\n"
            "  -V, --version  show the version and exit\n"
            "\n"
            "FILE '-' or no FILE means standard input.  'tracewright COMMAND --help'\n"
            "describes a command.  Exit status: 0 ok, 1 findings, 2 trouble.\n");
}

static void version(void) {
    printf("tracewright %s\n"
           "Copyright (c) 2026 The tracewright authors.  MIT License.\n"
           "Formats:",
           tw_version());
    for (size_t i = 0; i < tw_format_count(); i++) printf(" %s", tw_format_at(i)->name);
    printf("\n");
}

static const struct command *find_command(const char *name) {
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (strcmp(commands[i].name, name) == 0) return &commands[i];
    return NULL;
}

static void help_usage(void) {
    printf("Usage: tracewright help [COMMAND]\n"
           "\n"
           "Describe COMMAND, as 'tracewright COMMAND --help' does; without one, list\n"
           "the commands, as 'tracewright --help' does.\n"
           "\n"
           "Options:\n"
           "  -h, --help  show this help and exit\n"
           "\n"
           "Exit status: 0 ok, 2 an unknown command.\n");
}

static int cmd_help(int argc, char **argv) {
    if (argc < 2) {
        usage(stdout);
        return EXIT_OK;
    }
    const char *a = argv[1];
    if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0 || strcmp(a, "help") == 0) {
        help_usage();
        return EXIT_OK;
    }
    const struct command *c = find_command(a);
    if (!c || argc > 2) {
        if (c) fprintf(stderr, "tracewright help: one COMMAND only; got a second, '%s'\n", argv[2]);
        else if (a[0] == '-') fprintf(stderr, "tracewright help: unknown option '%s'\n", a);
        else fprintf(stderr, "tracewright help: unknown command '%s'\n", a);
        fprintf(stderr, "Try 'tracewright --help' for the list of commands.\n");
        return EXIT_TROUBLE;
    }
    char *args[] = {argv[1], "--help", NULL};
    return c->run(2, args);
}

/* Ended by a signal: the outputs being written go (their temporary files;
 * what was there before stays), then the signal ends the process as it
 * would have. */
static void on_fatal_signal(int sig) {
    tw_remove_temporaries();
    signal(sig, SIG_DFL);
    (void)raise(sig);
}

/* A standard descriptor that is closed is opened on /dev/null the wrong
 * way round (0 for writing, 1 and 2 for reading): a file opened later
 * cannot take its number (an output would get the diagnostics written
 * into it), and using it still fails as it did. */
static void hold_std_fds(void) {
    for (int fd = 0; fd <= 2; fd++) {
        if (fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
        int n = open("/dev/null", fd == 0 ? O_WRONLY : O_RDONLY);
        if (n >= 0 && n != fd) close(n); /* (the lowest free number is fd) */
    }
}

int main(int argc, char **argv) {
    hold_std_fds();
    /* a log cut while it is read ends with a message, not SIGBUS */
    (void)tw_input_guard_truncation();
    /* `tracewright ... | head` ends quietly, like other filters */
    signal(SIGPIPE, SIG_DFL);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_fatal_signal;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < 3; i++) {
        static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
        struct sigaction old_sa;
        /* not a signal ignored by whoever started us (nohup, a shell's
         * background job) */
        if (sigaction(sigs[i], NULL, &old_sa) == 0 && old_sa.sa_handler != SIG_IGN)
            sigaction(sigs[i], &sa, NULL);
    }
    if (argc < 2) {
        usage(stderr);
        return EXIT_TROUBLE;
    }
    const char *a = argv[1];
    int rc;
    const struct command *c = find_command(a);
    if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
        usage(stdout);
        rc = EXIT_OK;
    } else if (strcmp(a, "-V") == 0 || strcmp(a, "--version") == 0) {
        version();
        rc = EXIT_OK;
    } else if (!c) {
        if (a[0] == '-') fprintf(stderr, "tracewright: unknown option '%s'\n", a);
        else fprintf(stderr, "tracewright: unknown command '%s'\n", a);
        fprintf(stderr, "Try 'tracewright --help' for more information.\n");
        return EXIT_TROUBLE;
    } else {
        rc = c->run(argc - 1, argv + 1);
    }
    /* what went to standard output through stdio must have arrived */
    if (fflush(stdout) != 0 || ferror(stdout)) {
        if (errno != EPIPE) cli_error("cannot write to standard output: %s", strerror(errno));
        return EXIT_TROUBLE;
    }
    return rc;
}

/* ---- argument parsing ---------------------------------------------------- */

void cli_parser_init(cli_parser *p, const char *cmd, int argc, char **argv) {
    memset(p, 0, sizeof *p);
    p->cmd = cmd;
    p->argc = argc;
    p->argv = argv;
    p->i = 1;
}

int cli_usage_error(const char *cmd, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "tracewright %s: ", cmd);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\nTry 'tracewright %s --help' for more information.\n", cmd);
    va_end(ap);
    return EXIT_TROUBLE;
}

int cli_next(cli_parser *p, const cli_opt *opts, const char **arg, const char **name) {
    *arg = NULL;
    if (name) *name = NULL;
    if (p->bundle && *p->bundle) {
        char c = *p->bundle++;
        for (const cli_opt *o = opts; o->lng || o->shrt; o++) {
            if (o->shrt != c) continue;
            if (o->has_arg) {
                if (*p->bundle) {
                    *arg = p->bundle;
                } else if (p->i < p->argc) {
                    *arg = p->argv[p->i++];
                } else {
                    cli_usage_error(p->cmd, "option '-%c' needs a value", c);
                    return CLI_ERROR;
                }
                p->bundle = NULL;
            }
            return o->id;
        }
        cli_usage_error(p->cmd, "unknown option '-%c'", c);
        return CLI_ERROR;
    }
    p->bundle = NULL;
    if (p->i >= p->argc) return CLI_DONE;
    char *a = p->argv[p->i++];
    if (p->only_operands || a[0] != '-' || a[1] == '\0') {
        *arg = a;
        return CLI_OPERAND;
    }
    if (strcmp(a, "--") == 0) {
        p->only_operands = true;
        return cli_next(p, opts, arg, name);
    }
    if (a[1] != '-') {
        p->bundle = a + 1;
        return cli_next(p, opts, arg, name);
    }
    const char *body = a + 2;
    const char *eq = strchr(body, '=');
    size_t n = eq ? (size_t)(eq - body) : strlen(body);
    for (const cli_opt *o = opts; o->lng || o->shrt; o++) {
        if (!o->lng || strlen(o->lng) != n || memcmp(o->lng, body, n) != 0) continue;
        if (o->has_arg) {
            if (eq) {
                *arg = eq + 1;
            } else if (p->i < p->argc) {
                *arg = p->argv[p->i++];
            } else {
                cli_usage_error(p->cmd, "option '--%s' needs a value", o->lng);
                return CLI_ERROR;
            }
        } else if (eq) {
            cli_usage_error(p->cmd, "option '--%s' takes no value", o->lng);
            return CLI_ERROR;
        }
        return o->id;
    }
    if (!name || n >= sizeof p->namebuf) {
        cli_usage_error(p->cmd, "unknown option '%s'", a);
        return CLI_ERROR;
    }
    memcpy(p->namebuf, body, n);
    p->namebuf[n] = '\0';
    *name = p->namebuf;
    *arg = eq ? eq + 1 : NULL;
    return CLI_UNKNOWN;
}

bool cli_format_option(cli_parser *p, tw_optset *set, const char *name, const char *arg) {
    char err[256];
    const char *value = arg;
    const tw_option *neg = strncmp(name, "no-", 3) == 0 && !tw_option_find(name, NULL)
                               ? tw_option_find(name + 3, NULL)
                               : NULL;
    if (neg && neg->type == TW_OPT_BOOL) {
        if (arg) {
            cli_usage_error(p->cmd, "option '--%s' takes no value", name);
            return false;
        }
        name += 3;
        value = "no";
    }
    const tw_option *fo = tw_option_find(name, NULL);
    if (fo && fo->type != TW_OPT_BOOL && !value && p->i < p->argc) value = p->argv[p->i++];
    if (tw_optset_set(set, name, value, err, sizeof err) != 0) {
        cli_usage_error(p->cmd, "%s", err);
        return false;
    }
    return true;
}

/* "1", "2" or "auto" (CLI_THREADS_AUTO) into *out; false for anything else. */
static bool parse_threads(const char *s, unsigned long long *out) {
    if (strcmp(s, "1") == 0 || strcmp(s, "2") == 0)
        *out = s[0] == '2' ? 2 : 1;
    else if (strcmp(s, "auto") == 0)
        *out = CLI_THREADS_AUTO;
    else
        return false;
    return true;
}

/* The CPUs this process may run on: its affinity mask (Linux), else the
 * online ones. */
static long allowed_cpus(void) {
#ifdef __linux__
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) return CPU_COUNT(&set);
#endif
#ifdef _SC_NPROCESSORS_ONLN
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    if (online > 0) return online;
#endif
    return 1;
}

/* How many CPUs this process may keep busy at once: allowed_cpus(), capped
 * by a cgroup v2 CPU quota (a container given 1.5 CPUs has no second one to
 * spare). */
static long usable_cpus(void) {
    long n = allowed_cpus();
#ifdef __linux__
    int fd = open("/sys/fs/cgroup/cpu.max", O_RDONLY | O_CLOEXEC);  /* "QUOTA PERIOD" or "max ..." */
    if (fd >= 0) {
        char buf[64];
        ssize_t k = read(fd, buf, sizeof buf - 1);
        close(fd);
        if (k > 0) {
            buf[k] = '\0';
            char *end;
            errno = 0;
            long long quota = strtoll(buf, &end, 10);
            long long period = end != buf ? strtoll(end, &end, 10) : 0;
            if (errno == 0 && quota > 0 && period > 0 && quota / period < n)
                n = quota / period > 1 ? (long)(quota / period) : 1;
        }
    }
#endif
    return n;
}

bool cli_reading_init(cli_reading *r) {
    memset(r, 0, sizeof *r);
    r->maxdiag = 100;
    r->maxnames = CLI_DEFAULT_MAX_NAMES;
    r->progress = CLI_PROGRESS_AUTO;
    r->threads = CLI_THREADS_AUTO;
    const char *env = getenv("TRACEWRIGHT_THREADS");
    if (env && *env) {  /* as zstd does with ZSTD_CLEVEL: a bad value is ignored, said once */
        if (parse_threads(env, &r->threads)) r->threads_env = true;
        else r->threads_bad = env;
    }
    r->fopts = tw_optset_new();
    if (!r->fopts) cli_error("out of memory");
    return r->fopts != NULL;
}

void cli_reading_free(cli_reading *r) { tw_optset_free(r->fopts); }

/* TRACEWRIGHT_TEST_SWITCH=N, for the test suite (as git's GIT_TEST_*
 * variables): with a second thread, switch between reading ahead and reading
 * on this thread every N batches instead of measuring which pays, so that
 * small logs go through the switches; 0 when not set to a number from 1. */
static unsigned test_switch_every(void) {
    const char *env = getenv("TRACEWRIGHT_TEST_SWITCH");
    if (!env || *env < '1' || *env > '9') return 0;
    char *end;
    unsigned long n = strtoul(env, &end, 10);
    return *end || n > 1000000 ? 0 : (unsigned)n;
}

tw_source_opts cli_source_opts(const cli_reading *r) {
    /* said once, and only by a run that reads a log (not by --help, or
     * stats --merge, which reads reports) */
    static bool warned;
    if (r->threads_bad && !warned) {
        warned = true;
        fprintf(stderr,
                "tracewright: warning: TRACEWRIGHT_THREADS='%s' ignored: it must be 1, 2 or auto\n",
                r->threads_bad);
    }
    bool autom = r->threads == CLI_THREADS_AUTO;
    unsigned every = test_switch_every();
    tw_source_opts so = {.format = r->format, .opts = r->fopts,
                         .input = {.max_line = (size_t)r->maxline},
                         .threads = r->threads == 2 || (autom && usable_cpus() >= 2),
                         .threads_min_bytes = autom ? CLI_THREADS_AUTO_MIN_BYTES : 0,
                         /* auto measures whether the second thread pays */
                         .threads_steer = autom || every,
                         .threads_switch_every = every,
                         /* stats, validate and compare keep no instant's
                          * name; convert asks its writer */
                         .transient_names = true};
    return so;
}

const char *cli_one_thread_why(const cli_reading *r, const tw_source *src) {
    tw_source_reading how;
    tw_source_reading_info(src, &how);
    if (how.second_thread) return NULL;
    /* the reasons, in the order cli_source_opts() and the source's
     * threshold (tw_source_opts.threads_min_bytes) decide */
    if (r->threads == 1) return r->threads_env ? "TRACEWRIGHT_THREADS=1" : "--threads 1";
    if (r->threads == CLI_THREADS_AUTO) {
        if (usable_cpus() < 2) return "1 CPU usable";
        if (tw_source_bytes(src) < CLI_THREADS_AUTO_MIN_BYTES) return "under 8 MiB of input";
    }
    return "a second thread could not be started";
}

tw_strtab *cli_strtab(const cli_reading *r) {
    tw_strtab *t = tw_strtab_new();
    if (!t) {
        fprintf(stderr, "tracewright: out of memory\n");
        return NULL;
    }
    tw_strtab_set_limit(t, (size_t)r->maxnames);
    return t;
}

int cli_reading_option(cli_parser *p, cli_reading *r, int id, const char *arg,
                       const char *name) {
    switch (id) {
    case CLI_O_FROM:
        r->from = arg;
        return 1;
    case CLI_O_MAXDIAG:
        return cli_parse_count(p->cmd, "--max-diagnostics", arg, &r->maxdiag) ? 1 : -1;
    case CLI_O_MAXLINE:
        if (!cli_parse_count(p->cmd, "--max-line-length", arg, &r->maxline)) return -1;
        if (r->maxline == 0) {
            cli_usage_error(p->cmd, "option '--max-line-length' must be positive");
            return -1;
        }
        return 1;
    case CLI_O_MAXNAMES:
        return cli_parse_count(p->cmd, "--max-names", arg, &r->maxnames) ? 1 : -1;
    case CLI_O_PROGRESS:
        r->progress = CLI_PROGRESS_ON;
        return 1;
    case CLI_O_NO_PROGRESS:
        r->progress = CLI_PROGRESS_OFF;
        return 1;
    case CLI_O_THREADS:
        if (!parse_threads(arg, &r->threads)) {
            cli_usage_error(p->cmd, "option '--threads' must be 1, 2 or auto");
            return -1;
        }
        r->threads_env = false;
        r->threads_bad = NULL;  /* not used: no warning */
        return 1;
    case CLI_O_VERBOSE:
        r->verbose = true;
        return 1;
    case CLI_O_JITTER:
        r->has_jitter = true;
        return cli_parse_duration(p->cmd, "--jitter", arg, &r->jitter) ? 1 : -1;
    case CLI_UNKNOWN:
        if (!cli_format_option(p, r->fopts, name, arg)) return -1;
        r->fmt_opts = true;
        return 1;
    default:
        return 0;
    }
}

bool cli_reading_format(const char *cmd, cli_reading *r) {
    if (!r->from) return true;
    r->format = tw_format_find(r->from);
    if (!r->format) {
        cli_usage_error(cmd, "unknown format '%s' (see 'tracewright formats')", r->from);
        return false;
    }
    if (!tw_format_can_read(r->format)) {
        cli_usage_error(cmd, "the %s format cannot be read", r->format->name);
        return false;
    }
    return true;
}

int64_t cli_jitter(const cli_reading *r, const tw_source *src) {
    if (r->has_jitter) return r->jitter;
    int64_t j = 0;
    for (size_t i = 0; i < tw_source_input_count(src); i++) {
        const tw_format *f = tw_source_input_format(src, i);
        if (f->jitter_ns > j) j = f->jitter_ns;
    }
    return j;
}

/* Whether v is written as a duration (digits, a fraction, a unit), so
 * that tw_duration_parse() refused it for its size. */
static bool duration_form(const char *v) {
    static const char *const units[] = {"ns", "us", "\xc2\xb5s", "\xce\xbcs", "ms", "s"};
    size_t n = strspn(v, "0123456789");
    if (n == 0) return false;
    if (v[n] == '.') {
        size_t f = strspn(v + n + 1, "0123456789");
        if (f == 0) return false;
        n += 1 + f;
    }
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (strcmp(v + n, units[i]) == 0) return true;
    return false;
}

bool cli_parse_duration(const char *cmd, const char *opt, const char *v, int64_t *out) {
    if (tw_duration_parse(v, out)) return true;
    if (duration_form(v))
        cli_usage_error(cmd, "option '%s': '%s' is too long a duration (at most "
                             "9223372036.854775807s)",
                        opt, v);
    else
        cli_usage_error(cmd, "option '%s' expects a duration with its unit (ns, us, ms, s), as "
                             "in '1.5ms'; got '%s'",
                        opt, v);
    return false;
}

bool cli_parse_count(const char *cmd, const char *opt, const char *v, unsigned long long *out) {
    char *end;
    errno = 0;
    if (v[0] < '0' || v[0] > '9') goto bad;
    *out = strtoull(v, &end, 10);
    if (errno || *end) goto bad;
    return true;
bad:
    cli_usage_error(cmd, "option '%s' expects a non-negative integer, not '%s'", opt, v);
    return false;
}

bool cli_choose(const char *cmd, const char *opt, const char *v, const char *const *names, int n,
                int *out) {
    for (int i = 0; i < n; i++) {
        if (strcmp(v, names[i]) == 0) {
            *out = i;
            return true;
        }
    }
    char list[256] = "";
    size_t len = 0;
    for (int i = 0; i < n && len < sizeof list; i++)
        len += (size_t)snprintf(list + len, sizeof list - len, "%s%s",
                                i ? (i == n - 1 ? " or " : ", ") : "", names[i]);
    cli_usage_error(cmd, "option '%s' expects %s, not '%s'", opt, list, v);
    return false;
}

/* ---- diagnostics --------------------------------------------------------- */

size_t cli_diag_prefix(const tw_diag *d, char *buf, size_t n) {
    const char *sev = tw_severity_name(d->severity);
    const tw_loc *l = &d->loc;
    int k;
    switch (l->kind) {
    case TW_LOC_TEXT:
        if (l->col)
            k = snprintf(buf, n, "%s:%llu:%llu: %s: ", l->file, (unsigned long long)l->line,
                         (unsigned long long)l->col, sev);
        else
            k = snprintf(buf, n, "%s:%llu: %s: ", l->file, (unsigned long long)l->line, sev);
        break;
    case TW_LOC_BINARY:
        k = snprintf(buf, n, "%s: %s: offset %llu (record %llu): ", l->file, sev,
                     (unsigned long long)l->offset, (unsigned long long)l->record);
        break;
    case TW_LOC_FILE:
        k = snprintf(buf, n, "%s: %s: ", l->file, sev);
        break;
    default:
        k = snprintf(buf, n, "tracewright: %s: ", sev);
        break;
    }
    size_t len = k < 0 ? 0 : (size_t)k < n ? (size_t)k : n - 1;
    /* one line per diagnostic: a control character of a file name is
     * shown as '?', as ls does on a terminal */
    for (size_t i = 0; i < len; i++)
        if ((unsigned char)buf[i] < 0x20 || buf[i] == 0x7f) buf[i] = '?';
    return len;
}

bool cli_diag_is_trouble(const tw_diag *d) {
    switch (d->rule) {
    case TW_R_IO_ERROR:
    case TW_R_OUT_OF_MEMORY:
    case TW_R_LIMIT:
    case TW_R_UNKNOWN_FORMAT:
    case TW_R_BAD_OPTION: return true;
    default: return false;
    }
}

static void print_diag(void *user, const tw_diag *d) {
    cli_diag *cd = user;
    if (cd->max && cd->shown >= cd->max && !cli_diag_is_trouble(d)) {
        cd->hidden++;
        return;
    }
    cd->shown++;
    cli_progress_clear();  /* not in the middle of the progress line */
    char pre[CLI_PREFIX_MAX];
    cli_diag_prefix(d, pre, sizeof pre);
    fprintf(stderr, "%s%s [%s]\n", pre, d->message, d->rule_id);
}

void cli_diag_init(cli_diag *d, unsigned long long max) {
    memset(d, 0, sizeof *d);
    d->sink.fn = print_diag;
    d->sink.user = d;
    d->max = max;
}

void cli_diag_finish(cli_diag *d) {
    if (d->hidden)
        fprintf(stderr,
                "tracewright: note: %llu more diagnostic%s not shown "
                "(--max-diagnostics 0 shows all)\n",
                d->hidden, d->hidden == 1 ? "" : "s");
}

tw_output *cli_output_open(const char *path) {
    tw_output *o = tw_output_open(path);
    if (!o)
        cli_error("cannot open '%s' for writing: %s", path ? path : "standard output",
                  strerror(errno));
    return o;
}

bool cli_output_close(tw_output *o, const char *path) {
    int werr = tw_output_close(o);
    if (werr && werr != EPIPE) {
        if (path && strcmp(path, "-")) cli_error("cannot write to '%s': %s", path, strerror(werr));
        else cli_error("cannot write to standard output: %s", strerror(werr));
    }
    return werr == 0;
}

void cli_error(const char *fmt, ...) {
    char raw[4096], msg[4096];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(raw, sizeof raw, fmt, ap);
    va_end(ap);
    if (n < 0) n = 0;
    bool cut = (size_t)n >= sizeof raw;
    /* one line, as a diagnostic: a path may hold any byte */
    tw_clean_message(raw, cut ? sizeof raw - 1 : (size_t)n, cut, msg, sizeof msg);
    cli_progress_clear();
    fprintf(stderr, "tracewright: error: %s\n", msg);
}

bool cli_stdin_ok(const char *cmd, char *const *paths, int n, const cli_reading *rd) {
    int uses = n == 0;
    for (int i = 0; i < n; i++) uses += strcmp(paths[i], "-") == 0;
    const char *names = rd ? tw_opt_str(rd->fopts, "names") : NULL;
    if (names && strcmp(names, "-") == 0) {
        /* each .BIN reads its companion: the first would take it all */
        if (uses || n > 1) {
            cli_usage_error(cmd, "--names=- reads the companion text export from standard input, "
                                 "which is read only once: %s; give --names=FILE",
                            uses ? "an input is read from it too" : "there is more than one input");
            return false;
        }
        uses++;
    }
    if (uses > 1) {
        cli_usage_error(cmd, "standard input ('-') can be read only once");
        return false;
    }
    if (uses && isatty(STDIN_FILENO)) {
        cli_error("standard input is a terminal; give a FILE or redirect the input");
        return false;
    }
    return true;
}
