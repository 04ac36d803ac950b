/* Helpers shared by the unit tests. */
#include <stdlib.h>
#include <unistd.h>

#include "harness.h"

static void record(void *user, const tw_diag *d) {
    tu_diags *td = user;
    for (size_t i = 0; i < sizeof td->skip / sizeof td->skip[0] && td->skip[i]; i++)
        if (strcmp(td->skip[i], d->rule_id) == 0) return;
    if (td->n >= TU_MAX_DIAGS) return;
    td->rule[td->n] = d->rule_id;
    td->sev[td->n] = d->severity;
    td->line[td->n] = d->loc.line;
    td->col[td->n] = d->loc.col;
    snprintf(td->msg[td->n], sizeof td->msg[0], "%s", d->message);
    td->n++;
}

void tu_diags_init(tu_diags *d) {
    memset(d, 0, sizeof *d);
    d->sink.fn = record;
    d->sink.user = d;
}

void tu_diags_skip(tu_diags *d, const char *id) {
    size_t i = 0;
    while (i < sizeof d->skip / sizeof d->skip[0] - 1 && d->skip[i]) i++;
    d->skip[i] = id;
}

int tu_diag_find(const tu_diags *d, const char *rule) {
    for (size_t i = 0; i < d->n; i++)
        if (strcmp(d->rule[i], rule) == 0) return (int)i;
    return -1;
}

static void copy(char *dst, size_t cap, const char *s, size_t n) {
    if (n >= cap) n = cap - 1;
    memcpy(dst, s, n);
    dst[n] = '\0';
}

int tu_read(const char *fmtname, const char *name, const void *text, size_t len,
            const tw_optset *opts, tu_diags *d, tw_trace_info *info, tu_event *ev, int cap) {
    const tw_format *fmt = tw_format_find(fmtname);
    tw_strtab *st = tw_strtab_new();
    tw_input *in = NULL;
    tw_reader *r = NULL;
    int n = -1;
    if (!fmt || !st) goto out;
    const char *path = NULL;
    if (strchr(name, '/')) path = name;
    if (path) {
        if (tw_input_open(path, NULL, &d->sink, &in) != 0) goto out;
    } else if (tw_input_open_mem(text, len, name, NULL, &d->sink, &in) != 0) {
        goto out;
    }
    if (tw_reader_open(fmt, in, st, &d->sink, opts, &r) != TW_OK) goto out;
    if (info) *info = *tw_reader_info(r);
    tw_event e;
    int rc;
    n = 0;
    while ((rc = tw_reader_next(r, &e)) == TW_OK) {
        if (n < cap) {
            tu_event *t = &ev[n];
            memset(t, 0, sizeof *t);
            t->kind = e.kind;
            t->ts = e.ts;
            t->pid = e.pid;
            t->tid = e.tid;
            copy(t->name, sizeof t->name, e.name->s, e.name->len);
            if (e.cat) {
                t->has_cat = true;
                copy(t->cat, sizeof t->cat, e.cat->s, e.cat->len);
            }
            if (e.msg) {
                t->has_msg = true;
                copy(t->msg, sizeof t->msg, e.msg, e.msg_len);
            }
            t->line = e.loc.line;
        }
        n++;
    }
    if (rc == TW_ERR) n = -1;
    if (info) *info = *tw_reader_info(r);
    if (info && info->format) info->format = "(copied)";
out:
    tw_reader_close(r);
    tw_input_close(in);
    tw_strtab_free(st);
    return n;
}

char *tu_convert(const char *jsonl, const char *fmtname, tu_diags *d, size_t *len) {
    tw_strtab *st = tw_strtab_new();
    tw_input *in = NULL;
    tw_reader *r = NULL;
    tw_writer *w = NULL;
    tw_output *out = tw_output_mem();
    char *result = NULL;
    if (tw_input_open_mem(jsonl, strlen(jsonl), "in.jsonl", NULL, &d->sink, &in) != 0) goto done;
    if (tw_reader_open(tw_format_find("jsonl"), in, st, &d->sink, NULL, &r) != TW_OK) goto done;
    if (tw_writer_open(tw_format_find(fmtname), out, st, &d->sink, NULL, tw_reader_info(r), &w) !=
        TW_OK)
        goto done;
    tw_event e;
    while (tw_reader_next(r, &e) == TW_OK) tw_writer_event(w, &e);
    tw_writer_finish(w);
    size_t n;
    const char *data = tw_output_mem_data(out, &n);
    result = malloc(n + 1);
    memcpy(result, data, n);
    result[n] = '\0';
    *len = n;
done:
    tw_writer_free(w);
    tw_reader_close(r);
    tw_input_close(in);
    tw_output_close(out);
    tw_strtab_free(st);
    return result;
}

const char *tu_tempfile(int slot, const char *suffix, const void *text, size_t len) {
    static char paths[4][256];
    char *p = paths[slot & 3];
    snprintf(p, sizeof paths[0], "%s/tw-unit-%d-%d%s", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp",
             (int)getpid(), slot, suffix);
    FILE *f = fopen(p, "wb");
    if (!f) return NULL;
    fwrite(text, 1, len, f);
    fclose(f);
    return p;
}

bool tu_under_valgrind(void) {
    const char *p = getenv("LD_PRELOAD");
    return p && strstr(p, "vgpreload") != NULL;
}
