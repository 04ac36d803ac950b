/* Shared code of the fuzz targets; see fuzz.h. */
#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void tw_fuzz_fail(const char *file, int line, const char *what) {
    fprintf(stderr, "%s:%d: broken promise: %s\n", file, line, what);
    abort();
}

static void check_diag(void *user, const tw_diag *d) {
    (void)user;
    TW_FUZZ_CHECK((unsigned)d->rule < TW_RULE_COUNT, "diagnostic with an unknown rule");
    TW_FUZZ_CHECK((unsigned)d->severity < TW_SEV_COUNT, "diagnostic with an unknown severity");
    TW_FUZZ_CHECK(d->rule_id && tw_rule_find(d->rule_id) == tw_rule_get(d->rule),
                  "diagnostic rule id does not match its rule");
    TW_FUZZ_CHECK(d->message && d->message[0], "diagnostic without a message");
    for (const char *p = d->message; *p; p++)
        TW_FUZZ_CHECK(*p != '\n' && *p != '\r', "diagnostic message spans lines");
    TW_FUZZ_CHECK(tw_utf8_valid(d->message, strlen(d->message)),
                  "diagnostic message is not UTF-8");
    if (d->loc.kind != TW_LOC_NONE) TW_FUZZ_CHECK(d->loc.file != NULL, "location without a file");
    if (d->loc.kind == TW_LOC_TEXT) TW_FUZZ_CHECK(d->loc.line >= 1, "text location without a line");
}

void tw_fuzz_sink(tw_diag_sink *sink) {
    memset(sink, 0, sizeof *sink);
    sink->fn = check_diag;
}

void tw_fuzz_check_event(const tw_event *ev) {
    TW_FUZZ_CHECK((unsigned)ev->kind < TW_KIND_COUNT, "event of an unknown kind");
    TW_FUZZ_CHECK(ev->name != NULL, "event without a name");
    TW_FUZZ_CHECK(ev->name->s[ev->name->len] == '\0', "name not terminated");
    TW_FUZZ_CHECK(!tw_str_transient(ev->name) || ev->kind == TW_INSTANT,
                  "a transient name on an event that is not an instant");
    TW_FUZZ_CHECK(ev->msg != NULL || ev->msg_len == 0, "message length without a message");
    TW_FUZZ_CHECK(ev->attrs != NULL || ev->nattrs == 0, "attribute count without attributes");
    for (size_t i = 0; i < ev->nattrs; i++) {
        TW_FUZZ_CHECK(ev->attrs[i].key != NULL, "attribute without a key");
        TW_FUZZ_CHECK(ev->attrs[i].type != TW_ATTR_STR || ev->attrs[i].s || !ev->attrs[i].slen,
                      "string attribute without bytes");
    }
}

int tw_fuzz_read(const char *format, const tw_optset *opts, const uint8_t *data,
                 size_t size, const tw_fuzz_consumer *c) {
    tw_diag_sink sink;
    tw_fuzz_sink(&sink);
    tw_strtab *strtab = tw_strtab_new();
    tw_input *in = NULL;
    tw_input_opts io = {.max_line = 1 << 16};
    TW_FUZZ_CHECK(strtab != NULL, "no string table");
    TW_FUZZ_CHECK(tw_input_open_mem(data, size, "fuzz", &io, &sink, &in) == 0, "no input");

    const tw_format *fmt = NULL;
    if (format) {
        fmt = tw_format_find(format);
        TW_FUZZ_CHECK(fmt && tw_format_can_read(fmt), "no such reader");
    } else {
        const unsigned char *head;
        size_t n = tw_input_head(in, &head);
        tw_probe_result res[32];
        size_t nres = tw_detect(head, n, NULL, res, 32);
        fmt = tw_detect_pick(res, nres < 32 ? nres : 32);
        if (!fmt) fmt = tw_format_find("jsonl");
    }

    tw_reader *r = NULL;
    uint64_t errors = sink.count[TW_SEV_ERROR];
    /* a reader's own fuzzer (no consumer) reads every other input with
     * transient instant names, as stats and validate do */
    unsigned flags = !c && (size >> 3) & 1 ? TW_READ_TRANSIENT_NAMES : 0;
    int rc = tw_reader_open_ex(fmt, in, strtab, &sink, opts, flags, &r);
    if (rc != TW_OK) {
        TW_FUZZ_CHECK(sink.count[TW_SEV_ERROR] > errors, "reader failed to open silently");
    } else {
        if (c && c->start) c->start(c->user, strtab, tw_reader_info(r));
        tw_event ev;
        if (!c && (size >> 4) & 1) {
            /* every other input in runs, as the thread that reads ahead
             * does, of 1 to 7 events */
            tw_event run[7];
            do {
                tw_batch b = {.ev = run, .cap = 1 + (size >> 5) % 7};
                rc = tw_reader_next_batch(r, &b);
                TW_FUZZ_CHECK(b.n <= b.cap, "run overfilled");
                TW_FUZZ_CHECK(rc != TW_OK || b.n > 0, "empty run");
                for (size_t i = 0; i < b.n; i++) tw_fuzz_check_event(&run[i]);
            } while (rc == TW_OK);
        } else {
            while ((rc = tw_reader_next(r, &ev)) == TW_OK) {
                tw_fuzz_check_event(&ev);
                if (c && c->event) c->event(c->user, &ev);
            }
        }
        TW_FUZZ_CHECK(rc == TW_EOF || sink.count[TW_SEV_ERROR] > errors,
                      "reader failed silently");
        if (c && c->finish) c->finish(c->user);
        tw_reader_close(r);
    }
    tw_input_close(in);
    tw_strtab_free(strtab);
    return rc;
}

static void set(tw_optset *o, const char *name, const char *value) {
    char err[256];
    if (tw_optset_set(o, name, value, err, sizeof err) != 0) tw_fuzz_fail(__FILE__, __LINE__, err);
}

tw_optset *tw_fuzz_options(const char *format, size_t size) {
    tw_optset *o = tw_optset_new();
    TW_FUZZ_CHECK(o != NULL, "no option set");
    if (!strcmp(format, "rtl")) {
        set(o, "rtl-subscopes", size & 1 ? "no" : "yes");
    } else if (!strcmp(format, "text1") || !strcmp(format, "text1-bin")) {
        set(o, "text1-lines", size & 1 ? "yes" : "no");
        if (!strcmp(format, "text1-bin")) {
            static const char *const versions[] = {"auto", "1.0", "1.1"};
            set(o, "text1-bin-version", versions[(size >> 1) % 3]);
            set(o, "names", TW_FUZZ_DIR "/text1-bin-names.txt");
        }
    } else if (!strcmp(format, "stacktrack")) {
        set(o, "stacktrack-all-instants", size & 1 ? "yes" : "no");
    }
    return o;
}
