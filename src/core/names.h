/*
 * Process and thread names from the metadata of a stream (process_name and
 * thread_name events), for writers that label processes and threads.  The
 * latest name given wins.  Not part of the public API.
 */
#ifndef TW_CORE_NAMES_H
#define TW_CORE_NAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracewright/event.h"

typedef struct tw_names {
    struct tw_name *v;
    size_t n, cap;
} tw_names;

/*
 * When ev names a process or a thread, keep the name and return true (the
 * event is consumed); *oom is set when it could not be kept.  False for any
 * other event.
 */
bool tw_names_note(tw_names *names, const tw_event *ev, bool *oom);
/* The name of process pid / thread (pid, tid), or NULL when none was given. */
const char *tw_names_process(const tw_names *nm, uint32_t pid, size_t *len);
const char *tw_names_thread(const tw_names *nm, uint32_t pid, uint64_t tid, size_t *len);
void tw_names_free(tw_names *nm);

#endif
