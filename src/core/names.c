/* Process and thread names from metadata events; see names.h. */
#include <stdlib.h>
#include <string.h>

#include "names.h"
#include "util.h"

struct tw_name {
    uint32_t pid;
    uint64_t tid;
    bool thread;
    char *s;
    size_t len;
};

bool tw_names_note(tw_names *nm, const tw_event *ev, bool *oom) {
    if (ev->kind != TW_META || !ev->msg) return false;
    bool thread = tw_str_is(ev->name, TW_META_THREAD_NAME);
    if (!thread && !tw_str_is(ev->name, TW_META_PROCESS_NAME)) return false;
    uint64_t tid = thread ? ev->tid : 0;
    char *s = malloc(ev->msg_len + 1);
    if (s) {
        memcpy(s, ev->msg, ev->msg_len);
        s[ev->msg_len] = '\0';
    }
    for (size_t i = 0; s && i < nm->n; i++) {  /* a new name replaces the old */
        struct tw_name *f = &nm->v[i];
        if (f->thread == thread && f->pid == ev->pid && f->tid == tid) {
            free(f->s);
            f->s = s;
            f->len = ev->msg_len;
            return true;
        }
    }
    if (!s || !tw_grow(&nm->v, &nm->cap, nm->n + 1, sizeof *nm->v, 8)) {
        free(s);
        *oom = true;
        return true;
    }
    nm->v[nm->n++] = (struct tw_name){ev->pid, tid, thread, s, ev->msg_len};
    return true;
}

static const char *find(const tw_names *nm, bool thread, uint32_t pid, uint64_t tid, size_t *len) {
    for (size_t i = 0; i < nm->n; i++) {
        const struct tw_name *f = &nm->v[i];
        if (f->thread == thread && f->pid == pid && f->tid == tid) {
            *len = f->len;
            return f->s;
        }
    }
    return NULL;
}

const char *tw_names_process(const tw_names *nm, uint32_t pid, size_t *len) {
    return find(nm, false, pid, 0, len);
}

const char *tw_names_thread(const tw_names *nm, uint32_t pid, uint64_t tid, size_t *len) {
    return find(nm, true, pid, tid, len);
}

void tw_names_free(tw_names *nm) {
    for (size_t i = 0; i < nm->n; i++) free(nm->v[i].s);
    free(nm->v);
    memset(nm, 0, sizeof *nm);
}
