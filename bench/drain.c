/*
 * drain - read a trace through the library and do nothing with its events:
 * the cost of reading alone, which no command that reads the same input
 * through the same reader can beat (bench/run.sh's "read only" row).
 *
 *   drain [--threads 1|2] FILE...
 *
 * The inputs are opened as `tracewright stats` opens them (format detected,
 * instant names not interned), and the events are fetched with
 * tw_source_next_run(), as the commands fetch them, and dropped.  With
 * --threads 2 the readers run on a second thread and hand their events
 * over, as the commands do by default on two CPUs; the default is one
 * thread.  Prints the number of events on
 * standard output.  Warnings and notes are counted, not printed (their
 * printing would be timed too); errors go to standard error.  Exit status
 * 0, or 2 when an input cannot be read or the reading stops on an error.
 * Uses only the public headers (include/tracewright/).
 */
#include <stdio.h>
#include <string.h>

#include "tracewright/tracewright.h"

static void on_diag(void *user, const tw_diag *d) {
    (void)user;
    if (d->severity != TW_SEV_ERROR) return;
    if (d->loc.file) fprintf(stderr, "drain: %s: %s [%s]\n", d->loc.file, d->message, d->rule_id);
    else fprintf(stderr, "drain: %s [%s]\n", d->message, d->rule_id);
}

static int usage(void) {
    fputs("usage: drain [--threads 1|2] FILE...\n", stderr);
    return 2;
}

int main(int argc, char **argv) {
    int threads = 1, first = 1;
    if (argc > 2 && strcmp(argv[1], "--threads") == 0) {
        if (strcmp(argv[2], "1") != 0 && strcmp(argv[2], "2") != 0) return usage();
        threads = argv[2][0] - '0';
        first = 3;
    }
    if (first >= argc) return usage();
    tw_strtab *tab = tw_strtab_new();
    if (!tab) {
        fputs("drain: out of memory\n", stderr);
        return 2;
    }
    tw_diag_sink diag = {.fn = on_diag};
    tw_source_opts so = {.threads = threads == 2, .transient_names = true};
    tw_source *src = NULL;
    int rc = 2;
    if (tw_source_open((const char *const *)(argv + first), (size_t)(argc - first), &so, tab,
                       &diag, &src) == TW_OK) {
        const tw_event *ev;
        size_t n;
        int r;
        while ((r = tw_source_next_run(src, &ev, &n)) == TW_OK) {
        }
        printf("%llu\n", (unsigned long long)tw_source_event_count(src));
        if (r == TW_EOF) rc = 0;
        tw_source_close(src);
    }
    tw_strtab_free(tab);
    return rc;
}
