/*
 * The tracewright command line: shared services of main.c used by the
 * subcommands (argument parsing, diagnostics on stderr, exit codes).
 * The CLI uses only the public headers of the library.
 */
#ifndef TW_CLI_H
#define TW_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "tracewright/tracewright.h"

/* Exit status: 0 ok, 1 findings, 2 trouble. */
enum { EXIT_OK = 0, EXIT_FINDINGS = 1, EXIT_TROUBLE = 2 };

/* ---- subcommands ---- */
int cmd_compare(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_detect(int argc, char **argv);
int cmd_formats(int argc, char **argv);
int cmd_stats(int argc, char **argv);
int cmd_validate(int argc, char **argv);

/* ---- argument parsing ---- */

typedef struct cli_opt {
    const char *lng;  /* long name without dashes, or NULL */
    char shrt;        /* short letter, or 0 */
    bool has_arg;
    int id;
} cli_opt;

enum {
    CLI_DONE = -1,     /* no more arguments */
    CLI_OPERAND = -2,  /* *arg is an operand */
    CLI_ERROR = -3,    /* a usage error was printed */
    CLI_UNKNOWN = -4   /* an unknown long option: *name and *arg (may be NULL) */
};

typedef struct cli_parser {
    const char *cmd;  /* "convert", for messages */
    int argc;
    char **argv;
    int i;
    bool only_operands;
    const char *bundle;  /* remaining letters of "-abc" */
    char namebuf[128];
} cli_parser;

void cli_parser_init(cli_parser *p, const char *cmd, int argc, char **argv);
/*
 * The next option id, CLI_OPERAND, CLI_UNKNOWN, CLI_DONE or CLI_ERROR.
 * *arg gets the option's argument or the operand; *name the long option
 * name for CLI_UNKNOWN.
 */
int cli_next(cli_parser *p, const cli_opt *opts, const char **arg, const char **name);

/* An option the command does not know may be a format option:
 * --NAME[=VALUE], --NAME VALUE (non-boolean) or --no-NAME (boolean).
 * False when it is not valid (message printed). */
bool cli_format_option(cli_parser *p, tw_optset *set, const char *name, const char *arg);

/* "tracewright CMD: MESSAGE" + a hint to --help, on stderr; returns 2. */
int cli_usage_error(const char *cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Which of the n `names` v is (*out); false, with a usage error naming
 * them all, when it is none. */
bool cli_choose(const char *cmd, const char *opt, const char *v, const char *const *names, int n,
                int *out);
/* Parse a non-negative decimal option value; false on error (printed). */
bool cli_parse_count(const char *cmd, const char *opt, const char *v, unsigned long long *out);

/* ---- options of every command that reads logs ---- */

enum {
    CLI_O_FROM = 1000,
    CLI_O_MAXDIAG,
    CLI_O_MAXLINE,
    CLI_O_MAXNAMES,
    CLI_O_JITTER,
    CLI_O_PROGRESS,
    CLI_O_NO_PROGRESS,
    CLI_O_THREADS,
    CLI_O_VERBOSE
};

/* --progress, --no-progress (cli_reading.progress; the last one given wins) */
enum { CLI_PROGRESS_AUTO = -1, CLI_PROGRESS_OFF = 0, CLI_PROGRESS_ON = 1 };

/* Default of --max-names: distinct names (and other strings) of a trace. */
#define CLI_DEFAULT_MAX_NAMES 16777216ull

/* Entries for a command's option table. */
#define CLI_READING_OPTS                                \
    {"from", 'f', true, CLI_O_FROM},                    \
    {"max-diagnostics", 0, true, CLI_O_MAXDIAG},        \
    {"max-line-length", 0, true, CLI_O_MAXLINE},        \
    {"max-names", 0, true, CLI_O_MAXNAMES},             \
    {"progress", 0, false, CLI_O_PROGRESS},             \
    {"no-progress", 0, false, CLI_O_NO_PROGRESS},       \
    {"threads", 0, true, CLI_O_THREADS},                \
    {"verbose", 'v', false, CLI_O_VERBOSE}

/* The entry for commands that pair scopes (stats, validate, compare). */
#define CLI_JITTER_OPT {"jitter", 0, true, CLI_O_JITTER}

typedef struct cli_reading {
    const char *from;           /* -f as given */
    const tw_format *format;    /* -f resolved by cli_reading_format(), or NULL */
    unsigned long long maxdiag; /* --max-diagnostics (default 100) */
    unsigned long long maxline; /* --max-line-length (0 = default) */
    unsigned long long maxnames; /* --max-names (0 = no limit) */
    tw_optset *fopts;           /* format options */
    bool fmt_opts;              /* a format option was given */
    bool has_jitter;            /* --jitter was given */
    int64_t jitter;             /* --jitter, ns */
    int progress;               /* CLI_PROGRESS_AUTO (default), _OFF or _ON */
    unsigned long long threads; /* --threads: 1, 2 (read ahead on a second thread)
                                 * or CLI_THREADS_AUTO (the default) */
    bool threads_env;           /* it comes from TRACEWRIGHT_THREADS */
    const char *threads_bad;    /* TRACEWRIGHT_THREADS when it is not a value
                                 * (warned about when a log is read) */
    bool verbose;               /* -v: a summary of each reading (cli_read_summary) */
} cli_reading;

/* --threads auto: a second thread when the process may use two CPUs and the
 * inputs hold at least CLI_THREADS_AUTO_MIN_BYTES (or a pipe has given that
 * much). */
#define CLI_THREADS_AUTO 0
#define CLI_THREADS_AUTO_MIN_BYTES ((uint64_t)8 << 20)

/* Why `src`, opened with cli_source_opts(r), was read on one thread
 * ("1 CPU usable", "under 8 MiB of input", ...), or NULL when a second
 * thread read ahead. */
const char *cli_one_thread_why(const cli_reading *r, const tw_source *src);

/* False when out of memory (printed). */
bool cli_reading_init(cli_reading *r);
void cli_reading_free(cli_reading *r);
/* Take option `id` (from cli_next) if it is one of CLI_READING_OPTS or an
 * unknown long option (a format option): 1 taken, 0 not ours, -1 error
 * (printed). */
int cli_reading_option(cli_parser *p, cli_reading *r, int id, const char *arg,
                       const char *name);
/* The source options the reading options give (-f, format options,
 * --max-line-length, --threads). */
tw_source_opts cli_source_opts(const cli_reading *r);
/* A string table for the trace, capped at --max-names; NULL when out of
 * memory (printed). */
tw_strtab *cli_strtab(const cli_reading *r);
/* Resolve -f, if given, to a readable format; false (printed) if it is not. */
bool cli_reading_format(const char *cmd, cli_reading *r);
/* The time jitter to tolerate on a thread: --jitter if given, else the
 * largest of the inputs' formats (tw_format.jitter_ns). */
int64_t cli_jitter(const cli_reading *r, const tw_source *src);
/* Parse a duration option value ("1.5ms"); false on error (printed). */
bool cli_parse_duration(const char *cmd, const char *opt, const char *v, int64_t *out);

/* ---- diagnostics ---- */

typedef struct cli_diag {
    tw_diag_sink sink;
    unsigned long long max;     /* 0 = no limit */
    unsigned long long shown;
    unsigned long long hidden;
} cli_diag;

/* The GCC-style start of a diagnostic line ("FILE:LINE:COL: SEVERITY: ",
 * "FILE: SEVERITY: offset N (record M): ", ...) into buf; its length. */
#define CLI_PREFIX_MAX 8192
size_t cli_diag_prefix(const tw_diag *d, char *buf, size_t n);
/* Whether d is trouble (exit status 2: an input that cannot be read or
 * detected, an option that cannot be used, memory or a limit): such a
 * diagnostic is shown whatever --max-diagnostics says, as it is the reason
 * of the exit status. */
bool cli_diag_is_trouble(const tw_diag *d);

/* A sink that prints GCC-style lines on stderr. */
void cli_diag_init(cli_diag *d, unsigned long long max);
/* Print the "N more diagnostics not shown" note if any were hidden. */
void cli_diag_finish(cli_diag *d);
/* Every event of src into stats, the progress line ticking (stats.c;
 * shared with validate): TW_OK, with the reading's last status (TW_EOF, or
 * TW_ERR: reported) in *end, or TW_ERR when the statistics failed
 * (reported; *end is TW_OK). */
int cli_feed_stats(tw_source *src, tw_stats *stats, int *end);
/* Read traces through one merged source, pair and aggregate into `prof`
 * (stats.c; shared with compare): the n files of `paths`, or with `in`
 * (paths NULL, n 1) that input, opened already, which is closed.  TW_OK or
 * TW_ERR (reported). */
int cli_profile_inputs(char *const *paths, size_t n, tw_input *in, const cli_reading *rd,
                       cli_diag *diag, tw_profile *prof);
/* The -o output (NULL or "-": standard output); NULL (printed) when it
 * cannot be opened. */
tw_output *cli_output_open(const char *path);
/* Complete it; false (printed, except a closed pipe) on a write error. */
bool cli_output_close(tw_output *o, const char *path);
/* Report a problem of the tool itself (not tied to an input). */
void cli_error(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* ---- the progress line (progress.c) ---- */

/*
 * While a source is read, a line on standard error such as
 *   "tracewright: big.log: 1.2 GiB of 3.4 GiB (35%), 48.1 M events/s"
 * (bytes read of all inputs, their total and the share when every size is
 * known, events per second since the start).  Nothing is shown in the
 * first second; then the line is redrawn over itself ("\r") at most four
 * times a second.  Mode CLI_PROGRESS_AUTO shows it only when standard
 * error is a terminal, _ON always, _OFF never.  On a terminal the end of
 * the line is erased with "\x1b[K" (not when TERM is dumb), elsewhere with
 * spaces.  One line at a time: cli_progress_start() ends an earlier one.
 * `sync` is an output the command writes to while reading, or NULL: when
 * it goes where standard error goes, it is flushed before each line.
 * The clock is read as the events come (cli_progress_tick()) and while the
 * source waits for a pipe or its reading thread (tw_source_set_wait()), so
 * that a slow or stalled pipe gets its line too.
 */
void cli_progress_start(tw_source *src, int mode, tw_output *sync);
/* Clear the line and stop; call before the source is closed. */
void cli_progress_end(void);
/*
 * With -v (rd->verbose), once `src` has been read (the loop that started
 * with cli_progress_start() is over): a line on standard error saying what
 * was read, in how long and on how many threads, as in
 *   "tracewright: big.log: 1.0 GiB, 23412345 events in 0.552 s
 *    (1.8 GiB/s, 42.4 M events/s); a second thread read ahead"
 * (one line).  `one_thread_why` is the caller's reason for opening `src`
 * with tw_source_opts.threads off whatever rd asks, or NULL; `writer`, the
 * name of a writer that finished on two threads (it is said), or NULL.
 */
void cli_read_summary(const cli_reading *rd, const tw_source *src, const char *one_thread_why,
                      const char *writer);
/* Clear the line, if it is shown, before something else is written where
 * it is (a diagnostic); the next update draws it again. */
void cli_progress_clear(void);
/* Whether descriptor `fd` is the file or terminal standard error is. */
bool cli_shares_stderr(int fd);

/* Once per event: a countdown; the clock is read only when it runs out
 * (every 64 to 65536 events, about 16 times a second). */
extern uint32_t cli_progress_countdown;
void cli_progress_check(void);
static inline void cli_progress_tick(void) {
    if (--cli_progress_countdown == 0) cli_progress_check();
}
/* The same, once per run of n events. */
static inline void cli_progress_ticks(size_t n) {
    if (cli_progress_countdown > n) cli_progress_countdown -= (uint32_t)n;
    else cli_progress_check();
}

/* Check the use of standard input by the inputs ("-", or none at all) and,
 * when `rd` is given, by --names=- (text1-bin's companion text export, read
 * from standard input): false (message printed) when it is read twice, or
 * by more than one input's companion, or is a terminal.  `rd` is NULL where
 * --names is not a reader's (convert to text1-bin: the writer's). */
bool cli_stdin_ok(const char *cmd, char *const *paths, int n, const cli_reading *rd);

#endif
