/*
 * libFuzzer target: a decoded stream through every writer and the
 * statistics engine (see fuzz.h).
 *
 * The input is read with the format detection picks (jsonl when none
 * does, so the fuzzer can write any event), and each event goes to every
 * writer at once, into memory (the directory writers into a temporary
 * directory that is thrown away), and to tw_stats with all its checks.
 * The jsonl output is read back and written again: the canonical stream
 * must come back byte for byte.
 */
#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_WRITERS 32

typedef struct run {
    tw_diag_sink sink;
    tw_writer *w[MAX_WRITERS];
    tw_output *out[MAX_WRITERS];
    tw_outdir *dir[MAX_WRITERS];
    const tw_format *fmt[MAX_WRITERS];
    size_t nw;
    tw_stats *stats;
    tw_optset *opts;
    tw_output *jsonl;   /* the jsonl writer's output */
} run;

static char dirpath[64];

static void remove_tempdir(void) { rmdir(dirpath); }

static const char *tempdir(void) {
    if (!dirpath[0]) {
        const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
        snprintf(dirpath, sizeof dirpath, "%s/tw-fuzz-%ld", base, (long)getpid());
        TW_FUZZ_CHECK(mkdir(dirpath, 0700) == 0 || access(dirpath, W_OK) == 0, "no temp dir");
        atexit(remove_tempdir);
    }
    return dirpath;
}

static void start(void *user, tw_strtab *strtab, const tw_trace_info *info) {
    run *r = user;
    for (size_t i = 0; i < tw_format_count() && r->nw < MAX_WRITERS; i++) {
        const tw_format *f = tw_format_at(i);
        if (!tw_format_can_write(f)) continue;
        size_t k = r->nw;
        uint64_t errors = r->sink.count[TW_SEV_ERROR];
        int rc;
        r->fmt[k] = f;
        if (f->flags & TW_FMT_DIRECTORY) {
            char path[128];
            snprintf(path, sizeof path, "%s/%s", tempdir(), f->name);
            r->dir[k] = tw_outdir_open(path, &f->dir_spec);
            TW_FUZZ_CHECK(r->dir[k] != NULL, "cannot open an output directory");
            rc = tw_writer_open_dir(f, r->dir[k], strtab, &r->sink, r->opts, info, &r->w[k]);
        } else {
            r->out[k] = tw_output_mem();
            TW_FUZZ_CHECK(r->out[k] != NULL, "no memory output");
            rc = tw_writer_open(f, r->out[k], strtab, &r->sink, r->opts, info, &r->w[k]);
        }
        if (rc != TW_OK) {
            TW_FUZZ_CHECK(r->sink.count[TW_SEV_ERROR] > errors, "writer failed to open silently");
            r->w[k] = NULL;
        }
        if (!strcmp(f->name, "jsonl")) r->jsonl = r->out[k];
        r->nw++;
    }
    r->stats = tw_stats_new(&r->sink);
    TW_FUZZ_CHECK(r->stats != NULL, "no stats");
    tw_stats_set_checks(r->stats, TW_CHECK_UTF8 | TW_CHECK_OWN_STATS);
}

static void event(void *user, const tw_event *ev) {
    run *r = user;
    for (size_t k = 0; k < r->nw; k++) {
        if (!r->w[k]) continue;
        uint64_t errors = r->sink.count[TW_SEV_ERROR];
        if (tw_writer_event(r->w[k], ev) != TW_OK) {
            TW_FUZZ_CHECK(r->sink.count[TW_SEV_ERROR] > errors, "writer failed silently");
            tw_writer_free(r->w[k]);
            r->w[k] = NULL;
        }
    }
    tw_stats_event(r->stats, ev);
}

static void finish(void *user) {
    run *r = user;
    for (size_t k = 0; k < r->nw; k++) {
        if (!r->w[k]) continue;
        uint64_t errors = r->sink.count[TW_SEV_ERROR];
        if (tw_writer_finish(r->w[k]) != TW_OK)
            TW_FUZZ_CHECK(r->sink.count[TW_SEV_ERROR] > errors, "writer failed to finish silently");
        if (r->out[k] && r->out[k] != r->jsonl) TW_FUZZ_CHECK(r->out[k]->err == 0, "memory output failed");
    }
    TW_FUZZ_CHECK(tw_stats_finish(r->stats) == TW_OK, "stats failed");
}

/* The jsonl output written once more through jsonl must not change. */
typedef struct again {
    tw_diag_sink sink;
    tw_writer *w;
    tw_output *out;
} again;

static void again_start(void *user, tw_strtab *strtab, const tw_trace_info *info) {
    again *a = user;
    a->out = tw_output_mem();
    TW_FUZZ_CHECK(a->out != NULL, "no memory output");
    TW_FUZZ_CHECK(tw_writer_open(tw_format_find("jsonl"), a->out, strtab, &a->sink, NULL, info,
                                 &a->w) == TW_OK, "jsonl writer failed to open");
}

static void again_event(void *user, const tw_event *ev) {
    again *a = user;
    TW_FUZZ_CHECK(tw_writer_event(a->w, ev) == TW_OK, "jsonl writer failed");
}

static void again_finish(void *user) {
    again *a = user;
    TW_FUZZ_CHECK(tw_writer_finish(a->w) == TW_OK, "jsonl writer failed to finish");
}

static void check_jsonl(const char *first, size_t len) {
    again a = {0};
    tw_fuzz_sink(&a.sink);
    tw_fuzz_consumer c = {again_start, again_event, again_finish, &a};
    int rc = tw_fuzz_read("jsonl", NULL, (const uint8_t *)first, len, &c);
    TW_FUZZ_CHECK(rc == TW_EOF, "jsonl output does not read back");
    size_t len2;
    const char *second = tw_output_mem_data(a.out, &len2);
    if (len2 != len || memcmp(first, second, len)) {
        fprintf(stderr, "--- first\n%.*s--- second\n%.*s", (int)len, first, (int)len2, second);
        tw_fuzz_fail(__FILE__, __LINE__, "jsonl output changes when read back");
    }
    tw_writer_free(a.w);
    tw_output_close(a.out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    run r;
    memset(&r, 0, sizeof r);
    tw_fuzz_sink(&r.sink);
    r.opts = tw_optset_new();
    if (size & 1) {
        char err[128];
        tw_optset_set(r.opts, "flamechart", NULL, err, sizeof err);
    }
    tw_fuzz_consumer c = {start, event, finish, &r};
    int rc = tw_fuzz_read(NULL, NULL, data, size, &c);
    /* a stream read to its end and written without error reads back */
    bool clean = rc == TW_EOF && r.sink.count[TW_SEV_ERROR] == 0 && r.jsonl;
    for (size_t k = 0; k < r.nw; k++) {
        if (r.w[k]) tw_writer_free(r.w[k]);
        if (r.out[k] && r.out[k] != r.jsonl) tw_output_close(r.out[k]);
        if (r.dir[k]) tw_outdir_abort(r.dir[k]);
    }
    if (clean) {
        size_t len;
        const char *text = tw_output_mem_data(r.jsonl, &len);
        check_jsonl(text, len);
    }
    if (r.jsonl) tw_output_close(r.jsonl);
    tw_stats_free(r.stats);
    tw_optset_free(r.opts);
    return 0;
}
