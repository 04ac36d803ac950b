/*
 * rtl - OpenOffice.org / LibreOffice RTL_LOGFILE profiling time stamps.
 *
 *   opening log file <secs.usecs> seconds past January 1st 1970
 *   corresponding to <ms> ms after timer start
 *   Process id is <pid>
 *   <ms,%06> <thread> { NAME               scope begin
 *   <ms,%06> <thread> } NAME               scope end
 *   <ms,%06> <thread> | NAME : MESSAGE     message (NAME may be empty)
 *   closing log file at <ms>               (no newline)
 *
 * Mapping: ts = ms * 10^6 on the log's timer; the header gives the wall
 * clock at timer value <ms>.  A message "{ x" / "} x" is a logical
 * sub-scope named x, with the context NAME as its category.  See
 * docs/formats/rtl.md.
 */
#include <stdlib.h>
#include <string.h>

#include "formats.h"

#define WRAP_MS (UINT64_C(1) << 32)
#define MAX_MS ((uint64_t)(INT64_MAX / TW_NS_PER_MS))

static const char OPENING[] = "opening log file ";
static const char OPENING_TAIL[] = " seconds past January 1st 1970";
static const char CORRESPONDING[] = "corresponding to ";
static const char CORRESPONDING_TAIL[] = " ms after timer start";
static const char PROCESS[] = "Process id is ";
static const char CLOSING[] = "closing log file at ";

#define LIT_LEN(s) (sizeof(s) - 1)

static bool starts_with(const char *s, size_t n, const char *lit, size_t litn) {
    return n >= litn && memcmp(s, lit, litn) == 0;
}

/* ---- probe --------------------------------------------------------------- */

/* Does s[0..n) look like "<time> <thread> <{|}|>" followed by a space or
 * the end of the line, with at least `min_time_digits` time digits? */
static bool looks_like_record(const char *s, size_t n, size_t min_time_digits) {
    uint64_t v;
    bool ovf;
    size_t k = tw_scan_u64(s, n, &v, &ovf);
    if (k == 0 || k < min_time_digits || k + 1 >= n || s[k] != ' ') return false;
    size_t t = tw_scan_u64(s + k + 1, n - k - 1, &v, &ovf);
    size_t at = k + 1 + t; /* the space before the kind character */
    if (t == 0 || at + 1 >= n || s[at] != ' ') return false;
    char c = s[at + 1];
    if (c != '{' && c != '}' && c != '|') return false;
    return at + 2 == n || s[at + 2] == ' ';
}

static bool pid_from_name(const char *path, uint32_t *pid);

static int rtl_probe(const unsigned char *head, size_t len, const char *path) {
    const char *s = (const char *)head;
    int score = 0, records = 0, others = 0;
    size_t pos = 0, n;
    const char *l;
    for (int lines = 0; lines < 32 && tw_head_line(s, len, &pos, &l, &n); lines++) {
        if (n == 0) continue;
        if (lines == 0 && starts_with(l, n, OPENING, LIT_LEN(OPENING))) return 100;
        if (starts_with(l, n, PROCESS, LIT_LEN(PROCESS)) ||
            starts_with(l, n, CORRESPONDING, LIT_LEN(CORRESPONDING)) ||
            starts_with(l, n, CLOSING, LIT_LEN(CLOSING)))
            score = score < 90 ? 90 : score;
        else if (looks_like_record(l, n, 1))
            records++;
        else
            others++;
    }
    if (score == 0 && records > 0) score = records > others * 4 ? 75 : (records > others ? 45 : 0);
    uint32_t pid;
    if (score > 0 && path && pid_from_name(path, &pid)) score += 10;
    return score > 100 ? 100 : score;
}

/* ---- reader -------------------------------------------------------------- */

typedef struct rtl_reader {
    tw_read_ctx ctx;  /* input, names, diagnostics, trace info, options */
    const char *file;
    bool subscopes;
    uint32_t pid;
    /* header */
    bool have_open, have_corr, have_pid_line;
    bool header_seen;      /* a header line, even a malformed one */
    bool pid_seen;         /* a 'Process id is' line, even a malformed one */
    uint64_t header_line;  /* of the 'opening' or 'corresponding' line */
    int64_t open_ns;
    uint64_t corr_ms;
    bool seen_record;
    /* trailer: the last line was 'closing log file at', and the last line */
    bool closed;
    uint64_t last_line;
    /* timer wrap-around */
    bool have_prev;
    uint64_t prev_ms, wrap_ms;
    /* the first non-header line, read during open */
    bool have_held;
    tw_line held;
    /* a message interrupted by another thread's record, waiting for its text */
    bool split;
    tw_event split_ev;
    uint64_t split_line;
    /* events produced by the current line: one per record in it, plus an
     * interrupted message flushed by each record nested inside another.
     * The first is made in place in the caller's event (`out`, the event
     * rtl_next() is filling), so the usual line of one record costs no
     * copy; q[1 ..] hold the others (q[0] is not used). */
    tw_event *out;
    tw_event *q;
    size_t qhead, qn, qcap;
    /* their message texts as transient names (ctx.transient_names): held in
     * tnames; tname[i] is the offset + 1 of the i-th event's there, 0 when
     * interned */
    tw_buf tnames;
    size_t *tname, tname_cap;
    const tw_str *empty, *meta_end;
    /* the input's window for lines read in place (tw_input_window()), kept
     * from one line to the next; nwin 0 once a line was read otherwise */
    const unsigned char *win;
    size_t nwin;
} rtl_reader;

static bool pid_from_name(const char *path, uint32_t *pid) {
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t n = strlen(base);
    if (n < 6 || strcmp(base + n - 4, ".log") != 0) return false;
    size_t end = n - 4, i = end;
    while (i > 0 && base[i - 1] >= '0' && base[i - 1] <= '9') i--;
    if (i == end) return false;
    bool neg = i > 0 && base[i - 1] == '-';
    size_t us = i - neg;
    if (us == 0 || base[us - 1] != '_') return false;
    int64_t v;
    if (!tw_parse_i64(base + us, end - us, &v) || v < INT32_MIN || v > (int64_t)UINT32_MAX)
        return false;
    *pid = (uint32_t)v;
    return true;
}

static const tw_str *intern(rtl_reader *r, const char *s, size_t n, const tw_loc *loc) {
    return tw_intern_at(&r->ctx, s, n, loc);
}

/* A new event at the end of the queue; NULL (reported) when out of memory. */
static tw_event *push(rtl_reader *r) {
    if (!tw_grow(&r->q, &r->qcap, r->qn + 1, sizeof *r->q, 4) ||
        !tw_grow(&r->tname, &r->tname_cap, r->qn + 1, sizeof *r->tname, 4)) {
        tw_report(r->ctx.diag, TW_R_OUT_OF_MEMORY, NULL, "out of memory; event dropped");
        return NULL;
    }
    r->tname[r->qn] = 0;
    tw_event *e = r->qn ? &r->q[r->qn] : r->out;
    r->qn++;
    tw_event_clear(e);
    e->pid = r->pid;
    return e;
}

/* Name the message just queued (e) by its text: a transient name when the
 * consumer takes one, so that distinct texts do not fill the string table,
 * else interned.  False (reported, e taken back) on failure. */
static bool name_message(rtl_reader *r, tw_event *e, const char *s, size_t n,
                         const tw_loc *loc) {
    if (r->ctx.transient_names) {
        size_t off;
        if (tw_buf_transient(&r->tnames, s, n, &off)) {
            r->tname[r->qn - 1] = off + 1;
            e->name = r->empty;  /* until rtl_next hands it out */
            return true;
        }
        tw_report(r->ctx.diag, TW_R_OUT_OF_MEMORY, loc, "out of memory; event dropped");
    } else if ((e->name = intern(r, s, n, loc)) != NULL) {
        return true;
    }
    r->qn--;
    return false;
}

/* The wrap-around rule: the time of timer value ms after a record at
 * `prev`, with the wraps so far in *wrap (the reader's, and the writer's
 * check of what the reader will make of the times it writes). */
static uint64_t wrap_rule(uint64_t ms, uint64_t prev, uint64_t *wrap) {
    uint64_t eff = ms + *wrap;
    if (ms < WRAP_MS) {
        if (prev > eff && prev - eff > WRAP_MS / 2) {
            *wrap += WRAP_MS;  /* the 32-bit timer wrapped */
            eff += WRAP_MS;
        } else if (*wrap && eff > prev && eff - prev > WRAP_MS / 2) {
            eff -= WRAP_MS;  /* a late record from before the wrap */
        }
    }
    return eff;
}

/* Timer ms -> ns with wrap-around handling; false (reported) on overflow. */
static TW_NOINLINE bool convert_ms(rtl_reader *r, uint64_t ms, bool ovf, const char *digits,
                                   size_t ndigits, const tw_loc *loc, int64_t *ts) {
    uint64_t eff = !ovf && r->have_prev ? wrap_rule(ms, r->prev_ms, &r->wrap_ms) : ms + r->wrap_ms;
    if (ovf || eff < ms || eff > MAX_MS) {
        tw_report(r->ctx.diag, TW_R_TIME_OVERFLOW, loc,
                  "time stamp %.*s%s ms%s does not fit in 64-bit nanoseconds; line skipped",
                  (int)(ndigits > 40 ? 40 : ndigits), digits, ndigits > 40 ? "..." : "",
                  !ovf && eff >= ms && r->wrap_ms ? " (with the 32-bit timer's wrap-arounds)" : "");
        return false;
    }
    r->have_prev = true;
    r->prev_ms = eff;
    *ts = (int64_t)eff * TW_NS_PER_MS;
    return true;
}

/* convert_ms() for the usual record, one less than half a wrap after or
 * before the previous one: true with *ts set; false, with nothing changed,
 * for every other case, which convert_ms() then takes. */
static TW_INLINE bool convert_ms_near(rtl_reader *r, uint64_t ms, int64_t *ts) {
    uint64_t eff = ms + r->wrap_ms;
    if (!r->have_prev || ms >= WRAP_MS || eff > MAX_MS) return false;
    if (eff >= r->prev_ms ? r->wrap_ms && eff - r->prev_ms > WRAP_MS / 2
                          : r->prev_ms - eff > WRAP_MS / 2)
        return false;
    r->prev_ms = eff;
    *ts = (int64_t)eff * TW_NS_PER_MS;
    return true;
}

static void trim(const char **s, size_t *n) {
    while (*n && ((*s)[0] == ' ' || (*s)[0] == '\t')) (*s)++, (*n)--;
    while (*n && ((*s)[*n - 1] == ' ' || (*s)[*n - 1] == '\t')) (*n)--;
}

/* Emit the interrupted message, with whatever text it has. */
/* Queue the message set aside, if any; the event queued (NULL if none, or
 * out of memory: reported). */
static tw_event *flush_split(rtl_reader *r) {
    if (!r->split) return NULL;
    r->split = false;
    tw_event *e = push(r);
    if (e) tw_event_copy(e, &r->split_ev);
    return e;
}

/* The head of a record, "TIME THREAD X": the index of X, the kind
 * character (not checked here), with the time in *ms (its *ndigits digits;
 * *ovf when they are more than 64 bits hold) and the thread in *tid; 0 when
 * s[0..n) does not start so (or the thread does not fit in 64 bits). */
static TW_INLINE size_t record_head(const char *s, size_t n, uint64_t *ms, bool *ovf,
                                    size_t *ndigits, uint64_t *tid) {
    bool tovf;
    size_t k = *ndigits = tw_scan_u64(s, n, ms, ovf);
    if (k == 0 || k + 1 >= n || s[k] != ' ') return 0;
    size_t t = tw_scan_u64(s + k + 1, n - k - 1, tid, &tovf);
    size_t kc = k + 1 + t + 1;
    if (t == 0 || tovf || kc >= n || s[kc - 1] != ' ') return 0;
    return kc;
}

/* The `|` part: rest = "NAME : MESSAGE".  Returns false when nothing was
 * produced because of an error (already reported).  When another thread's
 * record starts inside the message, this message is set aside to wait for
 * its text and *nested gets the column where that record starts. */
static bool message(rtl_reader *r, const tw_line *l, size_t at, int64_t ts, uint64_t tid,
                    size_t *nested) {
    const char *rest = l->s + at;
    size_t n = l->len - at;
    const char *name = rest, *msg = rest + n;
    size_t name_n = n, msg_n = 0;
    if (n >= 1 && rest[0] == ':' && (n == 1 || rest[1] == ' ')) {
        name_n = 0;
        msg = rest + (n >= 2 ? 2 : 1);
        msg_n = n - (size_t)(msg - rest);
    } else if (n >= 3) {
        /* the first " : ": a space at 0 .. n-3 followed by ": " (memchr for
         * the space: context names run to 60 bytes and more, full of "::"
         * and seldom with a space) */
        const char *p = rest, *end = rest + n - 2;
        while ((p = memchr(p, ' ', (size_t)(end - p))) != NULL) {
            if (p[1] == ':' && p[2] == ' ') {
                name_n = (size_t)(p - rest);
                msg = p + 3;
                msg_n = n - name_n - 3;
                break;
            }
            if (++p >= end) break;
        }
    }
    tw_loc loc = tw_text_loc(r->file, l, 0);
    const tw_str *cat = intern(r, name, name_n, &loc);
    if (!cat) return false;
    size_t msg_col = (size_t)(msg - l->s);
    if (looks_like_record(msg, msg_n, 6)) {
        /* another thread's record was written into this one */
        tw_loc mloc = tw_text_loc(r->file, l, msg_col);
        tw_report(r->ctx.diag, TW_R_RTL_INTERLEAVED, &mloc,
                  "another thread's record starts inside this message; the two are "
                  "separated and the message text is expected on a later line");
        flush_split(r);
        tw_event *e = &r->split_ev;
        tw_event_clear(e);
        e->kind = TW_INSTANT;
        e->ts = ts;
        e->tid = tid;
        e->pid = r->pid;
        e->cat = cat;
        e->name = r->empty;
        e->loc = loc;
        r->split = true;
        r->split_line = l->no;
        *nested = msg_col;
        return true;
    }
    tw_event *e = push(r);
    if (!e) return false;
    e->ts = ts;
    e->tid = tid;
    e->cat = cat;
    e->loc = loc;
    if (r->subscopes && msg_n && (msg[0] == '{' || msg[0] == '}')) {
        e->kind = msg[0] == '{' ? TW_BEGIN : TW_END;
        const char *sub = msg + 1;
        size_t sub_n = msg_n - 1;
        trim(&sub, &sub_n);
        e->name = intern(r, sub, sub_n, &loc);
        if (!e->name) {
            r->qn--;
            return false;
        }
        return true;
    }
    e->kind = TW_INSTANT;
    return name_message(r, e, msg, msg_n, &loc);
}

/* The line (from byte `at`) as the text of the message interrupted and set
 * aside (r->split); false when out of memory (reported). */
static bool split_text(rtl_reader *r, const tw_line *l, size_t at) {
    tw_loc loc = tw_text_loc(r->file, l, at);
    tw_report(r->ctx.diag, TW_R_RTL_INTERLEAVED, &loc,
              "line taken as the text of the message interrupted on line %llu",
              (unsigned long long)r->split_line);
    tw_event *e = flush_split(r);
    return e && name_message(r, e, l->s + at, l->len - at, &loc);
}

/* A record starting at byte `at` of the line, and any records of other
 * threads written into its message (handled in a loop, not by recursion). */
static bool parse_record(rtl_reader *r, const tw_line *l, size_t at, bool nested) {
    for (;;) {
        const char *s = l->s + at;
        size_t n = l->len - at;
        tw_loc loc = tw_text_loc(r->file, l, at);
        uint64_t ms, tid;
        bool ovf;
        size_t k;
        size_t kc = record_head(s, n, &ms, &ovf, &k, &tid); /* index of the kind character */
        if (kc == 0 || (s[kc] != '{' && s[kc] != '}' && s[kc] != '|')) {
            if (nested) {
                /* looks_like_record() took it for a record, and so it is
                 * separated (as one whose time overflows is), but its
                 * thread id does not fit in 64 bits: skipped, and said so;
                 * the message it interrupted still waits for its text */
                tw_report(r->ctx.diag, TW_R_BAD_RECORD, &loc,
                          "the record inside this message has a thread id that does not fit "
                          "in 64 bits; skipped");
                return false;
            }
            if (r->split) return split_text(r, l, at);
            if (!l->eol)  /* the writer was killed in the middle of this line */
                tw_report(r->ctx.diag, TW_R_TRUNCATED_FILE, &loc,
                          "the last line is incomplete (no RTL record); skipped");
            else if (looks_like_record(s, n, 1)) {  /* all but a thread id that overflows */
                tw_loc at_tid = tw_text_loc(r->file, l, at + k + 1);
                tw_report(r->ctx.diag, TW_R_BAD_RECORD, &at_tid,
                          "thread id does not fit in 64 bits; line skipped");
            }
            else
                tw_report(r->ctx.diag, TW_R_BAD_RECORD, &loc,
                          "line matches no RTL record (expected 'TIME THREAD {|}|| TEXT'); "
                          "skipped");
            return false;
        }
        int64_t ts;
        if (!convert_ms(r, ms, ovf, s, k, &loc, &ts)) return false;
        r->seen_record = true;
        size_t rest = kc + 1;
        if (rest < n && s[rest] == ' ') rest++;
        if (s[kc] == '|') {
            size_t inner = 0;
            bool ok = message(r, l, at + rest, ts, tid, &inner);
            if (!inner) return ok;
            at = inner;
            nested = true;
            continue;
        }
        tw_event *e = push(r);
        if (!e) return false;
        e->kind = s[kc] == '{' ? TW_BEGIN : TW_END;
        e->ts = ts;
        e->tid = tid;
        tw_loc_copy(&e->loc, &loc);
        e->name = intern(r, s + rest, n - rest, &loc);
        if (!e->name) {
            r->qn--;
            return false;
        }
        return true;
    }
}

/* The rtl-reopened note; `anchored`: the new header has the time anchor
 * (it starts with 'opening log file'; without it, 'Process id is'). */
static const char *reopened_text(const rtl_reader *r, bool anchored) {
    return r->ctx.info->has_origin
               ? "the log was opened again; the first header's time anchor is kept"
           : anchored ? "the log was opened again; its time anchor comes after the first records "
                        "and is not used"
                      : "the log was opened again; neither header has a time anchor";
}

/* The 'Process id is' line that starts at byte `at` of the line (0, or
 * after a trailer it is glued to). */
static void pid_line(rtl_reader *r, const tw_line *l, size_t at) {
    const char *s = l->s;
    size_t n = l->len;
    tw_loc loc = tw_text_loc(r->file, l, at);
    r->header_seen = r->pid_seen = true;
    size_t p = at + LIT_LEN(PROCESS);
    uint64_t pid;
    if (!tw_parse_u64(s + p, n - p, &pid) || pid > UINT32_MAX) {
        loc = tw_text_loc(r->file, l, p);
        tw_report_sev(r->ctx.diag, TW_SEV_ERROR, TW_R_RTL_HEADER, &loc,
                      "malformed 'Process id is' line (expected 'Process id is PID')");
        return;
    }
    if (r->have_pid_line && pid != r->pid) {
        tw_report(r->ctx.diag, TW_R_RTL_HEADER, &loc,
                  "process id changes from %lu to %llu; keeping %lu",
                  (unsigned long)r->pid, (unsigned long long)pid, (unsigned long)r->pid);
    } else if (!r->have_pid_line) {
        if (r->seen_record && r->pid != pid)
            tw_report(r->ctx.diag, TW_R_RTL_HEADER, &loc,
                      "'Process id is %llu' comes after the first records; ignored, the "
                      "events keep process id %lu",
                      (unsigned long long)pid, (unsigned long)r->pid);
        else {
            r->pid = (uint32_t)pid;
            r->ctx.info->has_pid = true;
            r->ctx.info->pid = r->pid;
        }
        r->have_pid_line = true;
    }
}

/* Header and trailer lines; returns false if the line is none of them. */
static bool header_line(rtl_reader *r, const tw_line *l, bool at_start) {
    const char *s = l->s;
    size_t n = l->len;
    tw_loc loc = tw_text_loc(r->file, l, 0);
    if (starts_with(s, n, OPENING, LIT_LEN(OPENING))) {
        r->header_seen = true;
        size_t p = LIT_LEN(OPENING);
        uint64_t secs, frac = 0;
        bool ovf;
        size_t k = tw_scan_u64(s + p, n - p, &secs, &ovf);
        size_t q = p + k, fdigits = 0;
        if (k && q < n && s[q] == '.') {
            for (q++; q < n && s[q] >= '0' && s[q] <= '9'; q++, fdigits++)
                if (fdigits < 9) frac = frac * 10 + (uint64_t)(s[q] - '0');
        }
        for (size_t d = fdigits; d < 9; d++) frac *= 10;
        int64_t ns;
        if (!k || ovf || n - q != LIT_LEN(OPENING_TAIL) ||
            memcmp(s + q, OPENING_TAIL, LIT_LEN(OPENING_TAIL)) != 0 ||
            secs > (uint64_t)(INT64_MAX / TW_NS_PER_S) ||
            !tw_add_i64((int64_t)secs * TW_NS_PER_S, (int64_t)frac, &ns)) {
            loc = tw_text_loc(r->file, l, p);
            tw_report_sev(r->ctx.diag, TW_SEV_ERROR, TW_R_RTL_HEADER, &loc,
                          "malformed 'opening log file' line (expected 'opening log file "
                          "SECONDS.MICROSECONDS seconds past January 1st 1970')");
            return true;
        }
        if (!at_start) {
            tw_report(r->ctx.diag, TW_R_RTL_REOPENED, &loc, "%s", reopened_text(r, true));
            return true;
        }
        r->have_open = true;
        r->open_ns = ns;
        r->header_line = l->no;
        return true;
    }
    if (starts_with(s, n, CORRESPONDING, LIT_LEN(CORRESPONDING))) {
        r->header_seen = true;
        size_t p = LIT_LEN(CORRESPONDING);
        uint64_t ms;
        bool ovf;
        size_t k = tw_scan_u64(s + p, n - p, &ms, &ovf);
        if (!k || ovf || ms > MAX_MS || n - p - k != LIT_LEN(CORRESPONDING_TAIL) ||
            memcmp(s + p + k, CORRESPONDING_TAIL, LIT_LEN(CORRESPONDING_TAIL)) != 0) {
            loc = tw_text_loc(r->file, l, p);
            tw_report_sev(r->ctx.diag, TW_SEV_ERROR, TW_R_RTL_HEADER, &loc,
                          "malformed 'corresponding to' line (expected 'corresponding to "
                          "MILLISECONDS ms after timer start')");
            return true;
        }
        if (at_start) {
            r->have_corr = true;
            r->corr_ms = ms;
            r->header_line = l->no;
        }
        return true;
    }
    if (starts_with(s, n, PROCESS, LIT_LEN(PROCESS))) {
        pid_line(r, l, 0);
        return true;
    }
    if (starts_with(s, n, CLOSING, LIT_LEN(CLOSING))) {
        /* the trailer ends the log: a message still waiting for its text
         * gets none, and comes out before the trailer's event */
        flush_split(r);
        size_t p = LIT_LEN(CLOSING);
        uint64_t ms;
        bool ovf;
        size_t k = tw_scan_u64(s + p, n - p, &ms, &ovf);
        /* the trailer has no newline, so a re-opened log's header may follow
         * it on the same line: 'opening log file', or 'Process id is' when
         * the writer could not read the system time */
        bool reopen = false, anchored = false;
        if (k && p + k != n) {
            anchored = starts_with(s + p + k, n - p - k, OPENING, LIT_LEN(OPENING));
            reopen = anchored || starts_with(s + p + k, n - p - k, PROCESS, LIT_LEN(PROCESS));
        }
        if (!k || (p + k != n && !reopen)) {
            r->closed = true;  /* malformed, but a trailer */
            loc = tw_text_loc(r->file, l, p);
            tw_report(r->ctx.diag, TW_R_BAD_RECORD, &loc,
                      "malformed 'closing log file at' line (expected 'closing log file at "
                      "MILLISECONDS'); skipped");
            return true;
        }
        int64_t ts;
        tw_loc tloc = tw_text_loc(r->file, l, p);
        tw_event *e;
        if (convert_ms(r, ms, ovf, s + p, k, &tloc, &ts) && (e = push(r))) {
            e->kind = TW_META;
            e->ts = ts;
            e->name = r->meta_end;
            e->loc = loc;
        }
        r->closed = !reopen;
        if (reopen) {  /* "closing log file at Topening log file ..." */
            tw_loc rloc = tw_text_loc(r->file, l, p + k);
            tw_report(r->ctx.diag, TW_R_RTL_REOPENED, &rloc, "%s", reopened_text(r, anchored));
            if (!anchored) pid_line(r, l, p + k);  /* "... TProcess id is P" */
        }
        return true;
    }
    return false;
}

/* The usual line's head, "TIME THREAD { " or "TIME THREAD } ", at s (its
 * n bytes): the index of the kind character and the time in *ts, the
 * timer not wrapping; 0, with nothing changed, for any other line. */
static TW_INLINE size_t plain_head(rtl_reader *r, const char *s, size_t n, int64_t *ts,
                                   uint64_t *tid) {
    uint64_t ms;
    bool ovf;
    size_t k;
    size_t kc = record_head(s, n, &ms, &ovf, &k, tid); /* index of the kind character */
    if (kc == 0 || ovf || (s[kc] != '{' && s[kc] != '}')) return 0;
    return convert_ms_near(r, ms, ts) ? kc : 0;
}

/* The usual line's event, its head taken by plain_head(). */
static TW_INLINE void plain_event(rtl_reader *r, const tw_line *l, size_t kc, int64_t ts,
                                  uint64_t tid, tw_event *ev) {
    const char *s = l->s;
    size_t n = l->len;
    /* seen_record is set already: convert_ms_near() needs have_prev */
    r->closed = false;
    r->last_line = l->no;
    size_t rest = kc + 1;
    if (rest < n && s[rest] == ' ') rest++;
    tw_event_clear(ev);
    ev->ts = ts;
    ev->tid = tid;
    ev->pid = r->pid;
    ev->kind = s[kc] == '{' ? TW_BEGIN : TW_END;
    ev->loc = tw_text_loc(r->file, l, 0);
    ev->name = intern(r, s + rest, n - rest, &ev->loc);
}

/* The usual line, "TIME THREAD { NAME" or "TIME THREAD } NAME" with the
 * timer not wrapping, straight into *ev: true when taken (ev->name NULL if
 * the name could not be interned: reported, no event); false, with nothing
 * changed, for any other line, which process_line() then takes.  Same
 * result as process_line() for the lines it takes, without the queue. */
static TW_INLINE bool plain_record(rtl_reader *r, const tw_line *l, tw_event *ev) {
    int64_t ts;
    uint64_t tid;
    size_t kc = plain_head(r, l->s, l->len, &ts, &tid);
    if (!kc) return false;
    plain_event(r, l, kc, ts, tid, ev);
    return true;
}

/* plain_record() of the line at the cursor, read in place (the input's
 * window, tw_input_window()) before a line reader looks for it: the same
 * lines, when they end in an LF (not a CRLF), with the same event; nothing
 * is consumed for any other line (the general way then reads it). */
static TW_INLINE bool plain_inplace(rtl_reader *r, tw_event *ev) {
    size_t n, kc;
    const char *s = tw_window_line(r->ctx.in, &r->win, &r->nwin, &n);
    int64_t ts;
    uint64_t tid;
    if (!s || !(kc = plain_head(r, s, n, &ts, &tid))) return false;
    tw_line l;
    tw_window_take(r->ctx.in, &r->win, &r->nwin, n, &l);
    plain_event(r, &l, kc, ts, tid, ev);
    return true;
}

/* Produce the events of one line into the queue. */
static void process_line(rtl_reader *r, const tw_line *l) {
    if (l->len == 0) {
        /* blank lines are ignored, but for the text of an interrupted
         * message: the message and its "\n" are separate writes, so an
         * empty message leaves a blank line */
        if (r->split) {
            r->last_line = l->no;
            split_text(r, l, 0);
        }
        return;
    }
    r->closed = false;  /* unless this is the trailer */
    r->last_line = l->no;
    /* records start with their time; header lines with a letter */
    bool digit = (unsigned)(unsigned char)l->s[0] - '0' <= 9;
    if (!digit && header_line(r, l, false)) return;
    parse_record(r, l, 0, false);
}

static int rtl_open(const tw_read_ctx *ctx, void **state) {
    rtl_reader *r = tw_state_alloc(ctx->diag, sizeof *r);
    if (!r) return TW_ERR;
    r->ctx = *ctx;
    r->file = tw_input_name(ctx->in);
    r->subscopes = tw_opt_bool(ctx->opts, "rtl-subscopes");
    r->empty = tw_intern(r->ctx.strtab, "", 0);
    r->meta_end = tw_intern_cstr(r->ctx.strtab, TW_META_TRACE_END);
    if (!r->empty || !r->meta_end) {
        tw_own_names_failed(ctx);
        free(r->q);
        free(r);
        return TW_ERR;
    }
    ctx->info->resolution_ns = TW_NS_PER_MS;
    const char *path = tw_input_path(ctx->in);
    uint32_t pid;
    if (path && pid_from_name(path, &pid)) {
        r->pid = pid;
        ctx->info->has_pid = true;
        ctx->info->pid = pid;
    }
    /* the header: leading lines until the first record */
    tw_line l;
    int rc;
    while ((rc = tw_input_getline(r->ctx.in, &l)) == 1) {
        if (l.len == 0) continue;
        r->last_line = l.no;
        if (starts_with(l.s, l.len, CLOSING, LIT_LEN(CLOSING)) ||
            !header_line(r, &l, true)) {
            r->held = l;
            r->have_held = true;
            break;
        }
    }
    if (rc < 0) {
        free(r);
        return TW_ERR;
    }
    if (r->have_open && r->have_corr) {
        ctx->info->has_origin = true;
        ctx->info->origin_ns = r->open_ns;
        ctx->info->origin_ts = (int64_t)r->corr_ms * TW_NS_PER_MS;
    } else if (r->have_open != r->have_corr) {
        tw_loc loc = {.file = r->file, .kind = TW_LOC_TEXT, .line = r->header_line, .col = 1};
        tw_report(r->ctx.diag, TW_R_RTL_HEADER, &loc,
                  "the header has %s line but no %s line; absolute time is unknown",
                  r->have_open ? "an 'opening log file'" : "a 'corresponding to'",
                  r->have_open ? "'corresponding to'" : "'opening log file'");
    }
    if (r->have_held && !r->pid_seen) {
        /* the 'Process id is' line is always written: a log without it lost
         * its start */
        tw_loc loc = tw_text_loc(r->file, &r->held, 0);
        tw_report(r->ctx.diag, TW_R_RTL_HEADER, &loc,
                  "the log has no %s (no 'Process id is' line); the process id is %s",
                  r->header_seen ? "complete header" : "header",
                  ctx->info->has_pid ? "taken from the file name" : "unknown (0)");
    }
    *state = r;
    return TW_OK;
}

static TW_INLINE int rtl_next_one(void *state, tw_event *ev) {
    rtl_reader *r = state;
    r->out = ev;
    for (;;) {
        if (r->qhead < r->qn) {
            if (r->qhead) tw_event_copy(ev, &r->q[r->qhead]);  /* the first is in *ev already */
            if (r->tname[r->qhead])
                ev->name = (const tw_str *)(void *)(r->tnames.p + r->tname[r->qhead] - 1);
            r->qhead++;
            return TW_OK;
        }
        r->qhead = r->qn = 0;
        tw_buf_clear(&r->tnames);
        tw_line l;
        if (r->have_held) {
            r->have_held = false;
            /* the held line came from the header scan; it is still valid
             * because nothing was read since */
            l = r->held;
            process_line(r, &l);
            continue;
        }
        int rc = tw_window_read_line(&r->ctx, &r->win, &r->nwin, &l);
        if (rc < 0) return TW_ERR;
        if (rc == 0) {
            flush_split(r);
            if (r->qn) continue;
            if (r->last_line && !r->closed) {
                tw_loc loc = {.file = r->file, .kind = TW_LOC_TEXT, .line = r->last_line};
                tw_report(r->ctx.diag, TW_R_RTL_NO_TRAILER, &loc,
                          "the log ends without its 'closing log file at' trailer: the process "
                          "crashed or was killed, or the file was cut");
                r->closed = true;
            }
            return TW_EOF;
        }
        if (plain_record(r, &l, ev)) {
            if (ev->name) return TW_OK;
            continue;
        }
        process_line(r, &l);
    }
}

static void rtl_close(void *state) {
    rtl_reader *r = state;
    free(r->q);
    free(r->tname);
    tw_buf_free(&r->tnames);
    free(r);
}

/* ---- writer -------------------------------------------------------------- */

typedef struct rtl_writer {
    tw_write_ctx ctx;
    bool header_done;
    uint32_t pid;
    bool trailer_pending;
    int64_t trailer_ms;
    const tw_str *cat;      /* the last category written, and */
    const char *cat_loss;   /* what category_loss() said of it */
    /* the reader's timer wrap-around state (convert_ms()) after the times
     * written so far: its previous time and the wraps it added */
    uint64_t rb_prev, rb_wrap;
} rtl_writer;

static int rtl_begin(const tw_write_ctx *ctx, void **state) {
    rtl_writer *w = tw_state_alloc(ctx->diag, sizeof *w);
    if (!w) return TW_ERR;
    w->ctx = *ctx;
    *state = w;
    return TW_OK;
}

static void write_header(rtl_writer *w, uint32_t pid) {
    const tw_trace_info *ti = w->ctx.info;
    tw_output *o = w->ctx.out;
    w->header_done = true;
    w->pid = ti->has_pid ? ti->pid : pid;
    if (ti->has_origin) {
        /* the timer value C of line 2 and the wall clock F at that moment */
        int64_t c_ms = tw_round_div(ti->origin_ts, TW_NS_PER_MS, NULL);
        if (c_ms < 0) c_ms = 0;
        if (c_ms > (int64_t)MAX_MS) c_ms = (int64_t)MAX_MS;
        int64_t c_ns, delta, f_ns = 0, f_us = -1, check;
        bool inexact = false;
        bool in_range = tw_mul_i64(c_ms, TW_NS_PER_MS, &c_ns) &&
                        tw_sub_i64(c_ns, ti->origin_ts, &delta) &&
                        tw_add_i64(ti->origin_ns, delta, &f_ns);
        if (in_range && f_ns >= 0) {
            f_us = tw_round_div(f_ns, TW_NS_PER_US, &inexact);
            if (!tw_mul_i64(f_us, TW_NS_PER_US, &check)) f_us--; /* stay readable */
        }
        if (f_us >= 0) {
            if (inexact) tw_loss_add(w->ctx.loss, "wall-clock origin rounded to microseconds", 1);
            tw_out_str(o, "opening log file ");
            tw_out_u64(o, (uint64_t)(f_us / 1000000));
            tw_out_putc(o, '.');
            tw_out_u64_pad(o, (uint64_t)(f_us % 1000000), 6);
            tw_out_str(o, OPENING_TAIL);
            tw_out_str(o, "\ncorresponding to ");
            tw_out_u64(o, (uint64_t)c_ms);
            tw_out_str(o, CORRESPONDING_TAIL);
            tw_out_putc(o, '\n');
        } else {
            tw_loss_add(w->ctx.loss,
                        in_range ? "wall-clock origin before 1970 dropped"
                                 : "wall-clock origin out of range dropped",
                        1);
        }
    }
    tw_out_str(o, PROCESS);
    tw_out_u64(o, w->pid);
    tw_out_putc(o, '\n');
}

/* A space as written: put_text() turns line breaks into spaces. */
static bool written_space(char c) { return c == ' ' || c == '\n' || c == '\r'; }

/* A blank as the reader trims it around a sub-scope's name, as written. */
static bool written_blank(char c) { return written_space(c) || c == '\t'; }

/* Why a category, written as "| CAT : ", reads back as another one (the
 * reader's rules: "| : MSG" has the empty category, else NAME ends at the
 * first ' : '), or NULL when it reads back as it is. */
static const char *category_loss(const char *s, size_t n) {
    if (n && s[0] == ':' && (n == 1 || written_space(s[1])))
        return "categories ':' or starting with ': ' (read back as part of the message)";
    for (size_t i = 0; i + 3 <= n; i++)
        if (s[i + 1] == ':' && written_space(s[i]) && written_space(s[i + 2]))
            return "categories containing ' : ' (read back split there)";
    /* " :" at the end and the space written after it make the first ' : ' */
    if (n >= 2 && written_space(s[n - 2]) && s[n - 1] == ':')
        return "categories ending in ' :' (read back split there)";
    return NULL;
}

/* Text without line breaks: CR and LF become spaces (tallied). */
static void put_text(rtl_writer *w, const char *s, size_t n) {
    if (tw_out_oneline(w->ctx.out, s, n))
        tw_loss_add(w->ctx.loss, "line breaks in names replaced by spaces", 1);
}

/* read_back() for the other cases: the reader's rule step by step.  The time
 * is at most MAX_MS (tw_write_time()), and so are the reader's times. */
static TW_NOINLINE void read_back_far(rtl_writer *w, uint64_t ms) {
    /* (before the first time, rb_prev and rb_wrap are 0: the rule moves
     * nothing, as the reader's without a previous record) */
    uint64_t eff = wrap_rule(ms, w->rb_prev, &w->rb_wrap);
    if (eff > MAX_MS) {  /* the reader skips it with a time-overflow error */
        tw_loss_add(w->ctx.loss,
                    "times pushed past 2^63 ns by the reader's wrap-around rule (skipped on "
                    "reading back)",
                    1);
        return;
    }
    w->rb_prev = eff;
    if (eff != ms)
        tw_loss_add(w->ctx.loss,
                    "times read back later by a multiple of 2^32 ms (steps of more than 2^31 "
                    "ms between records look like the 32-bit timer's wrap-around)",
                    1);
}

/* Follow the time ms written next as the reader's wrap-around rule takes
 * it, and count the times it does not read back as written.  The usual
 * time, with no wrap-around so far, not more than 2^31 ms before the
 * previous one, costs two compares. */
static TW_INLINE void read_back(rtl_writer *w, uint64_t ms) {
    if (!w->rb_wrap && ms + WRAP_MS / 2 >= w->rb_prev)
        w->rb_prev = ms;
    else
        read_back_far(w, ms);
}

static void put_trailer(rtl_writer *w, bool newline) {
    read_back(w, (uint64_t)w->trailer_ms);
    tw_out_str(w->ctx.out, CLOSING);
    tw_out_u64_pad(w->ctx.out, (uint64_t)w->trailer_ms, 6);
    if (newline) tw_out_putc(w->ctx.out, '\n');
    w->trailer_pending = false;
}

static int rtl_event(void *state, const tw_event *ev) {
    rtl_writer *w = state;
    tw_output *o = w->ctx.out;
    if (!w->header_done) write_header(w, ev->pid);
    if (ev->kind == TW_META && tw_str_is(ev->name, TW_META_TRACE_END)) {
        if (ev->ts < 0) {
            tw_loss_add(w->ctx.loss, "events before time zero dropped", 1);
            return TW_OK;
        }
        if (w->trailer_pending) put_trailer(w, true);
        w->trailer_ms = tw_write_time(&w->ctx, ev->ts, TW_NS_PER_MS, "millisecond");
        w->trailer_pending = true;
        return TW_OK;
    }
    if (ev->kind != TW_BEGIN && ev->kind != TW_END && ev->kind != TW_INSTANT) {
        tw_loss_drop(w->ctx.loss, ev);
        return TW_OK;
    }
    if (ev->ts < 0) {
        tw_loss_add(w->ctx.loss, "events before time zero dropped", 1);
        return TW_OK;
    }
    if (w->trailer_pending) put_trailer(w, true);
    if (ev->pid != w->pid)
        tw_loss_add(w->ctx.loss, "events of other processes written under this log's process id", 1);
    if (ev->nattrs) tw_loss_add(w->ctx.loss, "event attributes dropped", 1);
    if (ev->has_value) tw_loss_add(w->ctx.loss, "event values dropped", 1);
    if (ev->kind != TW_INSTANT && ev->msg)
        tw_loss_add(w->ctx.loss, "message texts of scope events dropped", 1);
    int64_t ms = tw_write_time(&w->ctx, ev->ts, TW_NS_PER_MS, "millisecond");
    read_back(w, (uint64_t)ms);
    tw_out_u64_pad(o, (uint64_t)ms, 6);
    tw_out_putc(o, ' ');
    tw_out_u64(o, ev->tid);
    if (ev->kind == TW_INSTANT || ev->cat) {
        /* "| CAT : TEXT"; scopes with a category are logical sub-scopes */
        tw_out_write(o, ev->cat && ev->cat->len ? " | " : " | :", ev->cat && ev->cat->len ? 3 : 4);
        if (ev->cat && ev->cat->len) {
            put_text(w, ev->cat->s, ev->cat->len);
            tw_out_str(o, " :");
            if (ev->cat != w->cat) {  /* interned: the same pointer, the same text */
                w->cat = ev->cat;
                w->cat_loss = category_loss(ev->cat->s, ev->cat->len);
            }
            if (w->cat_loss) tw_loss_add(w->ctx.loss, w->cat_loss, 1);
        }
        tw_out_putc(o, ' ');
        if (ev->kind != TW_INSTANT) {
            tw_out_str(o, ev->kind == TW_BEGIN ? "{ " : "} ");
            /* the reader trims spaces and tabs around a sub-scope's name */
            size_t len = ev->name->len;
            if (len && (written_blank(ev->name->s[0]) || written_blank(ev->name->s[len - 1])))
                tw_loss_add(w->ctx.loss,
                            "sub-scope names with leading or trailing blanks (read back trimmed)",
                            1);
        } else if (ev->name->len && (ev->name->s[0] == '{' || ev->name->s[0] == '}'))
            tw_loss_add(w->ctx.loss, "messages starting with a brace (read back as sub-scopes)", 1);
        else if (looks_like_record(ev->name->s, ev->name->len, 6))
            tw_loss_add(w->ctx.loss, "messages that look like records (read back as two)", 1);
        put_text(w, ev->name->s, ev->name->len);
        if (ev->kind == TW_INSTANT && ev->msg && ev->msg_len) {
            tw_out_str(o, " : ");
            put_text(w, ev->msg, ev->msg_len);
            tw_loss_add(w->ctx.loss, "message texts joined to their names", 1);
        }
    } else {
        tw_out_write(o, ev->kind == TW_BEGIN ? " {" : " }", 2);
        if (ev->name->len) {
            tw_out_putc(o, ' ');
            put_text(w, ev->name->s, ev->name->len);
        }
    }
    tw_out_putc(o, '\n');
    return TW_OK;
}

static int rtl_end(void *state) {
    rtl_writer *w = state;
    if (!w->header_done) write_header(w, 0);
    if (w->trailer_pending) put_trailer(w, false);
    return TW_OK;
}

static void rtl_free(void *state) { free(state); }

/* ---- descriptor ---------------------------------------------------------- */

static const char *const rtl_aliases[] = {"rtl-logfile", "oolog", NULL};
static const char *const rtl_exts[] = {".log", ".nopid", NULL};
static const tw_option rtl_options[] = {
    {"rtl-subscopes", TW_OPT_BOOL, "yes", NULL, TW_OPT_READ,
     "read messages starting with '{' or '}' as logical sub-scopes"},
    {NULL, 0, NULL, NULL, 0, NULL}};

/* What the reader produces and the writer keeps (see tw_fidelity). */
static const tw_fidelity rtl_fidelity = {
    .family = "rtl",
    .produces = TW_KEEP_THREADS | TW_KEEP_NESTING | TW_KEEP_IDS | TW_KEEP_PID | TW_KEEP_ORIGIN |
        TW_KEEP_INSTANTS | TW_KEEP_TRACE_END | TW_KEEP_CATEGORIES,
    .keeps = TW_KEEP_THREADS | TW_KEEP_NESTING | TW_KEEP_IDS | TW_KEEP_PID | TW_KEEP_ORIGIN |
        TW_KEEP_INSTANTS | TW_KEEP_TRACE_END | TW_KEEP_CATEGORIES,
    .read_clock_ns = TW_NS_PER_MS,
    .write_clock_ns = TW_NS_PER_MS,
    .read_origin_ns = TW_NS_PER_US,
    .write_origin_ns = TW_NS_PER_US,
    .partly = 0,
};

static int rtl_next(void *state, tw_event *ev) { return rtl_next_one(state, ev); }

/* A run of events (tw_batch), as tw_read_batch_with() reads it with
 * rtl_next(), but the usual lines, read in place, go straight into the
 * batch without a call each: they end no run (no message, attributes or
 * transient name), and only a name that could not be interned (reported,
 * no event) changes whether reading stops. */
static int rtl_batch(void *state, tw_batch *b) {
    rtl_reader *r = state;
    while (b->n < b->cap) {
        /* rtl_next_one()'s first steps, for the usual line */
        if (r->qhead >= r->qn && !r->have_held && !tw_diag_stopped(r->ctx.diag)) {
            bool taken;
            while ((taken = plain_inplace(r, &b->ev[b->n])) && b->ev[b->n].name)
                if (++b->n == b->cap) return TW_OK;
            if (taken) {
                if (tw_diag_stopped(b->stop)) return TW_ERR;
                continue;
            }
        }
        int rc; /* any other: one event the general way */
        if (!tw_read_one_with(rtl_next, r, b, &rc)) return rc;
    }
    return TW_OK;
}

static const tw_format rtl_format = {
    .abi = TW_FORMAT_ABI,
    .name = "rtl",
    .aliases = rtl_aliases,
    .extensions = rtl_exts,
    .description = "OpenOffice.org RTL_LOGFILE profiling time stamps",
    .flags = TW_FMT_TEXT | TW_FMT_THREADS | TW_FMT_ORIGIN | TW_FMT_WRITER_TRANSIENT,
    .options = rtl_options,
    .probe = rtl_probe,
    .read_open = rtl_open,
    .read_next = rtl_next,
    .read_batch = rtl_batch,
    .read_close = rtl_close,
    .write_begin = rtl_begin,
    .write_event = rtl_event,
    .write_end = rtl_end,
    .write_free = rtl_free,
    .jitter_ns = 5 * TW_NS_PER_MS, /* see the format's spec and docs/formats/rtl.md */
    .fidelity = &rtl_fidelity,
};

TW_FORMAT_EXPORT(rtl, rtl_format)
