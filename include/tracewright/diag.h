/*
 * tracewright/diag.h - diagnostics: severities, stable rule ids, the sink.
 *
 * The library never prints.  Everything it has to say about an input or an
 * output goes to a tw_diag_sink as a tw_diag with a severity, a stable
 * kebab-case rule id, a location and a message.  The caller (the CLI)
 * decides how to render it.
 */
#ifndef TRACEWRIGHT_DIAG_H
#define TRACEWRIGHT_DIAG_H

#include <stdarg.h>
#include <stdint.h>

#include <stdbool.h>

#include "event.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum tw_severity {
    TW_SEV_NOTE = 0,
    TW_SEV_WARNING,
    TW_SEV_ERROR,
    TW_SEV_COUNT
} tw_severity;

/* "note", "warning", "error". */
const char *tw_severity_name(tw_severity sev);

/*
 * Every rule the library reports.  The ids (see tw_rule_info) are part of
 * the interface: scripts match on them, so they never change meaning.
 */
typedef enum tw_rule {
    /* input and output */
    TW_R_IO_ERROR = 0,    /* io-error */
    TW_R_OUT_OF_MEMORY,   /* out-of-memory */
    TW_R_LIMIT,           /* limit-exceeded */
    TW_R_UNKNOWN_FORMAT,  /* unknown-format */
    TW_R_BAD_OPTION,      /* bad-option */
    /* every format */
    TW_R_BAD_RECORD,      /* bad-record */
    TW_R_LINE_TOO_LONG,   /* line-too-long */
    TW_R_TRUNCATED_FILE,  /* truncated-file */
    TW_R_TIME_OVERFLOW,   /* time-overflow */
    TW_R_INVALID_UTF8,    /* invalid-utf8 */
    TW_R_UNKNOWN_FIELD,   /* unknown-field */
    /* merging several inputs */
    TW_R_NO_COMMON_CLOCK, /* no-common-clock */
    TW_R_PID_COLLISION,   /* pid-collision */
    /* writers */
    TW_R_LOSSY,           /* lossy-conversion */
    TW_R_PRECISION,       /* precision-loss */
    /* RTL logfile */
    TW_R_RTL_HEADER,      /* rtl-header */
    TW_R_RTL_REOPENED,    /* rtl-reopened */
    TW_R_RTL_INTERLEAVED, /* interleaved-record */
    /* LMS CSV */
    TW_R_LMS_UNMAPPED,    /* lms-unmapped-id */
    TW_R_LMS_ID_ORDER,    /* lms-id-order */
    TW_R_LMS_DUP_LABEL,   /* lms-duplicate-label */
    TW_R_LMS_REDEFINED,   /* lms-id-redefined */
    TW_R_LMS_LEGACY,      /* lms-legacy-format */
    /* scope pairing and statistics */
    TW_R_UNMATCHED_END,   /* unmatched-end */
    TW_R_UNCLOSED_SCOPE,  /* unclosed-scope */
    TW_R_UNCLOSED_AT_EOF, /* unclosed-at-eof */
    TW_R_UNMATCHED_SUSPEND, /* unmatched-suspend */
    TW_R_TIME_BACKWARDS,  /* time-goes-backwards */
    TW_R_DUPLICATE_INPUT, /* duplicate-input */
    /* added with the CoreProfiler format */
    TW_R_UNKNOWN_RECORD,  /* unknown-record */
    TW_R_UNSUPPORTED,     /* unsupported-data */
    TW_R_CP_STACK,        /* cp-stack-mismatch */
    TW_R_CP_UNNAMED,      /* cp-unnamed */
    TW_R_CP_START,        /* cp-start-time */
    /* added with the winIDEA Text1 formats */
    TW_R_T1_TEMPLATE,     /* text1-template */
    TW_R_T1_UNKNOWN_HANDLE, /* text1-unknown-handle */
    TW_R_T1_NO_NAMES,     /* text1-no-names */
    TW_R_T1_LAYOUT,       /* text1-bin-layout */
    /* added with the Boost StackTrack format */
    TW_R_ST_PROLOGUE,     /* stacktrack-prologue */
    TW_R_ST_INFO_RUN,     /* stacktrack-info-run */
    TW_R_ST_UNDEF_SCOPE,  /* stacktrack-undefined-scope */
    TW_R_ST_UNDEF_FILE,   /* stacktrack-undefined-file */
    TW_R_ST_TIME_BASE,    /* stacktrack-time-base */
    /* added with validate */
    TW_R_RTL_NO_TRAILER,  /* rtl-no-trailer */
    TW_R_CP_UNKNOWN_THREAD, /* cp-unknown-thread */
    TW_R_ST_SEQUENCE,     /* stacktrack-sequence */
    TW_R_T1_ORDER,        /* text1-order */
    TW_R_STATS_MISMATCH,  /* stats-mismatch */
    TW_R_T1_NO_TIMELINE,  /* text1-no-timeline */
    /* new rules are added here, so that the numbers of the others stay */
    TW_RULE_COUNT
} tw_rule;

typedef struct tw_rule_info {
    const char *id;        /* stable kebab-case id, e.g. "bad-record" */
    tw_severity severity;  /* default severity */
    const char *summary;   /* one line, lowercase, no full stop */
} tw_rule_info;

const tw_rule_info *tw_rule_get(tw_rule rule);
/* Look a rule up by its id; NULL if unknown. */
const tw_rule_info *tw_rule_find(const char *id);

typedef struct tw_diag {
    tw_rule rule;
    const char *rule_id;
    tw_severity severity;
    tw_loc loc;
    const char *message;  /* lowercase first word, no full stop */
} tw_diag;

typedef void (*tw_diag_fn)(void *user, const tw_diag *diag);

/* Where diagnostics go.  The counts are maintained by tw_report(). */
typedef struct tw_diag_sink {
    tw_diag_fn fn;    /* may be NULL: diagnostics are only counted */
    void *user;
    uint64_t count[TW_SEV_COUNT];
    uint64_t problems[TW_RULE_COUNT]; /* warnings and errors, per rule */
} tw_diag_sink;

/* Report with the rule's default severity.  `loc` may be NULL. */
void tw_report(tw_diag_sink *sink, tw_rule rule, const tw_loc *loc,
               const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/* Report with an explicit severity. */
void tw_report_sev(tw_diag_sink *sink, tw_severity sev, tw_rule rule,
                   const tw_loc *loc, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;
void tw_vreport(tw_diag_sink *sink, tw_severity sev, tw_rule rule,
                const tw_loc *loc, const char *fmt, va_list ap);
/* Make `len` bytes of text one line of valid UTF-8 in out[cap] (cap of 8
 * or more), as every diagnostic's message is made: control characters and
 * bytes that are not UTF-8 become \xNN, and text that does not fit (or
 * that was `cut` already) ends on a whole character with "...". */
void tw_clean_message(const char *in, size_t len, bool cut, char *out, size_t cap);
/* Pass a diagnostic reported elsewhere on to `sink`: counted, and given to
 * its function.  `sink` may be NULL. */
void tw_diag_forward(tw_diag_sink *sink, const tw_diag *d);
/* Whether a limit was reached or memory ran out (limit-exceeded or
 * out-of-memory was reported to the sink): reading then stops, since what
 * follows cannot be read faithfully. */
static inline bool tw_diag_stopped(const tw_diag_sink *sink) {
    return sink && (sink->problems[TW_R_LIMIT] || sink->problems[TW_R_OUT_OF_MEMORY]);
}

#ifdef __cplusplus
}
#endif
#endif /* TRACEWRIGHT_DIAG_H */
