/*
 * tracewright/tracewright.h - umbrella header of libtracewright.
 *
 *   event.h   the event model, interned strings, trace information
 *   diag.h    diagnostics: severities, rule ids, the sink
 *   io.h      input (files, pipes, memory) and buffered output
 *   format.h  format descriptors, registry, detection, readers, writers
 *   source.h  one merged event stream from several inputs
 *   stats.h   scope pairing, per-scope statistics, profiles (reports)
 */
#ifndef TRACEWRIGHT_H
#define TRACEWRIGHT_H

#include "diag.h"
#include "event.h"
#include "format.h"
#include "io.h"
#include "source.h"
#include "stats.h"

#define TW_VERSION_MAJOR 0
#define TW_VERSION_MINOR 1
#define TW_VERSION_PATCH 0
#define TW_VERSION_STRING "0.1.0"

#ifdef __cplusplus
extern "C" {
#endif

/* The library's version string, e.g. "0.1.0". */
const char *tw_version(void);

#ifdef __cplusplus
}
#endif
#endif /* TRACEWRIGHT_H */
