/* Diagnostics: the rule table and the reporting functions. */
#include <stdio.h>
#include <string.h>

#include "tracewright/diag.h"
#include "util.h"

static const tw_rule_info rules[TW_RULE_COUNT] = {
    [TW_R_IO_ERROR] = {"io-error", TW_SEV_ERROR,
                       "an input or output could not be read or written"},
    [TW_R_OUT_OF_MEMORY] = {"out-of-memory", TW_SEV_ERROR,
                            "memory ran out"},
    [TW_R_LIMIT] = {"limit-exceeded", TW_SEV_ERROR,
                    "a configured limit was exceeded"},
    [TW_R_UNKNOWN_FORMAT] = {"unknown-format", TW_SEV_ERROR,
                             "the format of an input could not be detected"},
    [TW_R_BAD_OPTION] = {"bad-option", TW_SEV_ERROR,
                         "a format or format option cannot be used as asked"},
    [TW_R_BAD_RECORD] = {"bad-record", TW_SEV_ERROR,
                         "a line or record matches no grammar of the format"},
    [TW_R_LINE_TOO_LONG] = {"line-too-long", TW_SEV_ERROR,
                            "a line is longer than the configured limit"},
    [TW_R_TRUNCATED_FILE] = {"truncated-file", TW_SEV_WARNING,
                             "the input ends in the middle of a record"},
    [TW_R_TIME_OVERFLOW] = {"time-overflow", TW_SEV_ERROR,
                            "a time does not fit in 64-bit nanoseconds"},
    [TW_R_INVALID_UTF8] = {"invalid-utf8", TW_SEV_WARNING,
                           "text is not valid UTF-8"},
    [TW_R_UNKNOWN_FIELD] = {"unknown-field", TW_SEV_WARNING,
                            "a record has a field the format does not define"},
    [TW_R_NO_COMMON_CLOCK] = {"no-common-clock", TW_SEV_WARNING,
                              "merged inputs have no common time base"},
    [TW_R_PID_COLLISION] = {"pid-collision", TW_SEV_WARNING,
                            "merged inputs use the same process id"},
    [TW_R_UNMATCHED_END] = {"unmatched-end", TW_SEV_WARNING,
                            "an end matches no open scope of its name on its thread"},
    [TW_R_UNCLOSED_SCOPE] = {"unclosed-scope", TW_SEV_WARNING,
                             "a scope is closed by the end of an enclosing scope"},
    [TW_R_UNCLOSED_AT_EOF] = {"unclosed-at-eof", TW_SEV_WARNING,
                              "a scope is still open at the end of the input"},
    [TW_R_UNMATCHED_SUSPEND] = {"unmatched-suspend", TW_SEV_WARNING,
                                "a suspend or resume matches no open scope"},
    [TW_R_TIME_BACKWARDS] = {"time-goes-backwards", TW_SEV_WARNING,
                             "time runs backwards on a thread (an end before its begin, an "
                             "entry before the previous one)"},
    [TW_R_DUPLICATE_INPUT] = {"duplicate-input", TW_SEV_WARNING,
                              "merged reports cover the same input more than once"},
    [TW_R_LOSSY] = {"lossy-conversion", TW_SEV_WARNING,
                    "the output format cannot hold everything in the input"},
    [TW_R_PRECISION] = {"precision-loss", TW_SEV_WARNING,
                        "timestamps were rounded to a coarser clock"},
    [TW_R_RTL_HEADER] = {"rtl-header", TW_SEV_WARNING,
                         "an RTL header line is malformed or incomplete"},
    [TW_R_RTL_REOPENED] = {"rtl-reopened", TW_SEV_NOTE,
                           "an RTL log was closed and opened again"},
    [TW_R_RTL_INTERLEAVED] = {"interleaved-record", TW_SEV_WARNING,
                              "a record was split by another thread's output"},
    [TW_R_LMS_UNMAPPED] = {"lms-unmapped-id", TW_SEV_ERROR,
                           "an LMS id is used before its mapping line"},
    [TW_R_UNKNOWN_RECORD] = {"unknown-record", TW_SEV_WARNING,
                             "a record type the format does not define (skipped)"},
    [TW_R_UNSUPPORTED] = {"unsupported-data", TW_SEV_NOTE,
                          "input data that the event model does not represent"},
    [TW_R_CP_STACK] = {"cp-stack-mismatch", TW_SEV_ERROR,
                       "a CoreProfiler stack diff does not fit the thread's previous stack"},
    [TW_R_CP_UNNAMED] = {"cp-unnamed", TW_SEV_WARNING,
                         "a CoreProfiler function or class is used before it is named"},
    [TW_R_CP_START] = {"cp-start-time", TW_SEV_WARNING,
                       "a CoreProfiler 'prf stm' start time is late or repeated"},
    [TW_R_T1_TEMPLATE] = {"text1-template", TW_SEV_ERROR,
                          "a Text1 section header whose entry format cannot be parsed"},
    [TW_R_T1_UNKNOWN_HANDLE] = {"text1-unknown-handle", TW_SEV_WARNING,
                                "a Text1 handle that no mapping section names"},
    [TW_R_T1_NO_NAMES] = {"text1-no-names", TW_SEV_WARNING,
                          "a .BIN timeline read without its companion text export"},
    [TW_R_T1_LAYOUT] = {"text1-bin-layout", TW_SEV_ERROR,
                        "a .BIN record that fits neither binary layout version"},
    [TW_R_LMS_ID_ORDER] = {"lms-id-order", TW_SEV_WARNING,
                           "LMS mapping ids do not ascend from 0"},
    [TW_R_LMS_DUP_LABEL] = {"lms-duplicate-label", TW_SEV_WARNING,
                            "an LMS label is mapped to more than one id"},
    [TW_R_LMS_REDEFINED] = {"lms-id-redefined", TW_SEV_WARNING,
                            "an LMS id is mapped a second time"},
    [TW_R_LMS_LEGACY] = {"lms-legacy-format", TW_SEV_NOTE,
                         "an LMS file uses the 2015 label-per-line variant"},
    [TW_R_ST_PROLOGUE] = {"stacktrack-prologue", TW_SEV_WARNING,
                          "a StackTrack file lacks a valid PROLOGUE buffer"},
    [TW_R_ST_INFO_RUN] = {"stacktrack-info-run", TW_SEV_WARNING,
                          "a StackTrack INFO run never ends, or an INFO buffer has no owner"},
    [TW_R_ST_UNDEF_SCOPE] = {"stacktrack-undefined-scope", TW_SEV_WARNING,
                             "a StackTrack HIT of a checkpoint that no SLOC defines"},
    [TW_R_ST_UNDEF_FILE] = {"stacktrack-undefined-file", TW_SEV_WARNING,
                            "a StackTrack record names a file that no FLOC defines"},
    [TW_R_ST_TIME_BASE] = {"stacktrack-time-base", TW_SEV_WARNING,
                           "StackTrack hits without a usable time base (raw clock ticks)"},
    [TW_R_RTL_NO_TRAILER] = {"rtl-no-trailer", TW_SEV_WARNING,
                             "an RTL log ends without its 'closing log file' trailer"},
    [TW_R_CP_UNKNOWN_THREAD] = {"cp-unknown-thread", TW_SEV_WARNING,
                                "a CoreProfiler record names a thread that was never created"},
    [TW_R_ST_SEQUENCE] = {"stacktrack-sequence", TW_SEV_WARNING,
                          "the sequence numbers of a StackTrack thread's hits go backwards"},
    [TW_R_T1_ORDER] = {"text1-order", TW_SEV_WARNING,
                       "a Text1 area's entry, exit, suspend and resume are out of order"},
    [TW_R_STATS_MISMATCH] = {"stats-mismatch", TW_SEV_WARNING,
                             "a log's own statistics disagree with the computed ones"},
    [TW_R_T1_NO_TIMELINE] = {"text1-no-timeline", TW_SEV_NOTE,
                             "a Text1 text export has no TIMELINE section"},
};

static const char *const sev_names[TW_SEV_COUNT] = {"note", "warning", "error"};

const char *tw_severity_name(tw_severity sev) {
    return (unsigned)sev < TW_SEV_COUNT ? sev_names[sev] : "error";
}

const tw_rule_info *tw_rule_get(tw_rule rule) {
    return (unsigned)rule < TW_RULE_COUNT ? &rules[rule] : NULL;
}

const tw_rule_info *tw_rule_find(const char *id) {
    for (size_t i = 0; i < TW_RULE_COUNT; i++)
        if (strcmp(rules[i].id, id) == 0) return &rules[i];
    return NULL;
}

/* (A message is made one line whatever bytes of the input it quotes.) */
void tw_clean_message(const char *in, size_t len, bool cut, char *out, size_t cap) {
    static const char hex[] = "0123456789ABCDEF";
    size_t o = 0, i = 0;
    const size_t room = cap - 4;  /* "..." and the NUL */
    while (i < len) {
        const unsigned char *p = (const unsigned char *)in + i;
        size_t n = tw_utf8_seq(p, len - i);
        if (n == 1 && (*p < 0x20 || *p == 0x7F)) n = 0;
        if (n == 0 && cut && len - i < 4 && *p >= 0xC2) break;  /* a character cut short */
        size_t w = n ? n : 4;
        if (o + w > room) break;
        if (n) {
            memcpy(out + o, p, n);
        } else {
            out[o] = '\\';
            out[o + 1] = 'x';
            out[o + 2] = hex[*p >> 4];
            out[o + 3] = hex[*p & 15];
            n = 1;
        }
        o += w;
        i += n;
    }
    if (cut || i < len) {
        memcpy(out + o, "...", 3);
        o += 3;
    }
    out[o] = '\0';
}

void tw_vreport(tw_diag_sink *sink, tw_severity sev, tw_rule rule,
                const tw_loc *loc, const char *fmt, va_list ap) {
    if (!sink) return;
    if ((unsigned)sev >= TW_SEV_COUNT) sev = TW_SEV_ERROR;
    sink->count[sev]++;
    if (sev != TW_SEV_NOTE && (unsigned)rule < TW_RULE_COUNT) sink->problems[rule]++;
    if (!sink->fn) return;
    char raw[1024], msg[1024];
    int n = vsnprintf(raw, sizeof raw, fmt, ap);
    if (n < 0) n = 0;
    bool cut = (size_t)n >= sizeof raw;
    tw_clean_message(raw, cut ? sizeof raw - 1 : (size_t)n, cut, msg, sizeof msg);
    tw_diag d;
    memset(&d, 0, sizeof d);
    d.rule = rule;
    d.rule_id = tw_rule_get(rule) ? tw_rule_get(rule)->id : "internal";
    d.severity = sev;
    if (loc) d.loc = *loc;
    d.message = msg;
    sink->fn(sink->user, &d);
}

void tw_diag_forward(tw_diag_sink *sink, const tw_diag *d) {
    if (!sink) return;
    tw_severity sev = (unsigned)d->severity < TW_SEV_COUNT ? d->severity : TW_SEV_ERROR;
    sink->count[sev]++;
    if (sev != TW_SEV_NOTE && (unsigned)d->rule < TW_RULE_COUNT) sink->problems[d->rule]++;
    if (sink->fn) sink->fn(sink->user, d);
}

void tw_report(tw_diag_sink *sink, tw_rule rule, const tw_loc *loc,
               const char *fmt, ...) {
    const tw_rule_info *ri = tw_rule_get(rule);
    va_list ap;
    va_start(ap, fmt);
    tw_vreport(sink, ri ? ri->severity : TW_SEV_ERROR, rule, loc, fmt, ap);
    va_end(ap);
}

void tw_report_sev(tw_diag_sink *sink, tw_severity sev, tw_rule rule,
                   const tw_loc *loc, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    tw_vreport(sink, sev, rule, loc, fmt, ap);
    va_end(ap);
}
