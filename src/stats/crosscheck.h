/*
 * Cross-checking a log's own statistics (metadata events
 * "FORMAT.statistics") against the computed ones; used by tw_stats.
 */
#ifndef TW_STATS_CROSSCHECK_H
#define TW_STATS_CROSSCHECK_H

#include "tracewright/stats.h"

typedef struct tw_xcheck tw_xcheck;

tw_xcheck *tw_xcheck_new(void);
void tw_xcheck_free(tw_xcheck *x);
/* Take what matters of one event (claims, thread names, names seen);
 * false when out of memory. */
bool tw_xcheck_event(tw_xcheck *x, const tw_event *ev);
/* Compare every claim with the finished statistics `s`; report
 * stats-mismatch for each claim whose figures differ. */
void tw_xcheck_run(const tw_xcheck *x, const tw_stats *s, tw_diag_sink *diag);

#endif
