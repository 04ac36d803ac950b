/*
 * The checks tw_stats_set_checks() adds to the statistics engine: UTF-8
 * of the text, and a log's own statistics (metadata events
 * "FORMAT.statistics") against the computed ones.
 */
#ifndef TW_STATS_CHECKS_H
#define TW_STATS_CHECKS_H

#include "tracewright/stats.h"

typedef struct tw_xcheck tw_xcheck;

tw_xcheck *tw_xcheck_new(unsigned checks);  /* TW_CHECK_* */
void tw_xcheck_free(tw_xcheck *x);
/* Check one event and take what the statistics check needs (claims,
 * thread names, names seen); false when out of memory. */
bool tw_xcheck_event(tw_xcheck *x, const tw_event *ev, tw_diag_sink *diag);
/* Compare every claim with the finished statistics `s`; report
 * stats-mismatch for each claim whose figures differ.  False when out of
 * memory. */
bool tw_xcheck_run(tw_xcheck *x, const tw_stats *s, tw_diag_sink *diag);

#endif /* TW_STATS_CHECKS_H */
