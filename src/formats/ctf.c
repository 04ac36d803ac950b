/*
 * CTF 1.8 (Common Trace Format) trace directory, for babeltrace2, Trace
 * Compass and other CTF tools:
 *
 *   DIR/metadata            TSDL text, starting with the "CTF 1.8" mark
 *   DIR/stream-PID-TID      one binary data stream per thread
 *
 * Each stream is a sequence of packets of at most about 64 KiB of events:
 * a packet header (magic, trace UUID, stream class 0, the stream's index),
 * a packet context (first and last timestamp, content and packet size in
 * bits, sequence number, 0 events discarded), then the events, each an
 * event header (uint32 class id, uint64 timestamp on a 1 GHz clock) and a
 * payload.  Everything is little-endian and byte-aligned.  Event classes,
 * one per event kind: begin, end, instant, suspend, resume, counter, meta;
 * each has the fields pid, tid and name (the key, for meta), and some more
 * (category, message, value).
 *
 * Timestamps are 64-bit and never wrap.  A stream's time never goes back
 * (an event earlier than the one before it on its thread is moved forward,
 * counted); times are relative to 0, or to the whole second before the
 * first event when that is negative (then env.ts_offset_ns gives it).  The clock's offset places it on the
 * wall clock when the input has an origin.  Metadata is written last, when
 * every thread is known.  Write-only; -o DIR is required.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "formats.h"

#define PACKET_BYTES ((size_t)64 << 10) /* events per packet, about */
#define HEADER_BYTES 80                 /* packet header + context */
#define CTF_MAGIC 0xC1FC1FC1u
/* How our metadata starts: also how an earlier output is recognised */
#define METADATA_HEAD "/* CTF 1.8 */\n\n/* written by tracewright "

enum { EV_BEGIN, EV_END, EV_INSTANT, EV_SUSPEND, EV_RESUME, EV_COUNTER, EV_META };

typedef struct cstream {
    tw_buf events;        /* the open packet's events */
    int64_t first, last;  /* the open packet's first and last time (relative) */
    int64_t prev;         /* the latest time written (relative) */
    bool have_prev;
    uint64_t seq;         /* packets written */
} cstream;

typedef struct ctf_writer {
    tw_write_ctx ctx;
    tw_tidmap map;        /* (pid, tid) -> stream index */
    cstream *streams;
    size_t scap;
    int64_t base;         /* subtracted from every ts */
    bool have_base;
    unsigned char uuid[16];
    bool have_uuid;
    tw_buf tmp;           /* one event */
    bool failed;
} ctf_writer;

static void fail(ctf_writer *w, const char *what, int err) {
    if (!w->failed)
        tw_report(w->ctx.diag, err == ENOMEM ? TW_R_OUT_OF_MEMORY : TW_R_IO_ERROR, NULL,
                  "cannot write the CTF trace '%s': %s%s%s", tw_outdir_path(w->ctx.dir), what,
                  err ? ": " : "", err ? strerror(err) : "");
    w->failed = true;
}

static void put_le(tw_buf *b, uint64_t v, size_t bytes, ctf_writer *w) {
    unsigned char le[8];
    for (size_t i = 0; i < bytes; i++) le[i] = (unsigned char)(v >> (8 * i));
    if (!tw_buf_append(b, le, bytes)) fail(w, "out of memory", ENOMEM);
}

/* A CTF string: UTF-8 ending in NUL.  NUL bytes and bytes that are not
 * UTF-8 become U+FFFD (counted). */
static void put_str(ctf_writer *w, tw_buf *b, const char *s, size_t n) {
    const unsigned char *u = (const unsigned char *)s;
    bool replaced = false;
    size_t i = 0;
    while (i < n) {
        size_t k = u[i] ? tw_utf8_seq(u + i, n - i) : 0;
        if (k) {
            if (!tw_buf_append(b, u + i, k)) fail(w, "out of memory", ENOMEM);
            i += k;
        } else {
            if (!tw_buf_append(b, "\xEF\xBF\xBD", 3)) fail(w, "out of memory", ENOMEM);
            replaced = true;
            i++;
        }
    }
    if (!tw_buf_append(b, "", 1)) fail(w, "out of memory", ENOMEM);
    if (replaced) tw_loss_add(w->ctx.loss, "NUL bytes and bytes that are not UTF-8 in texts (written as U+FFFD)", 1);
}

/* The stream's file name. */
static void stream_name(const ctf_writer *w, size_t i, char *buf, size_t n) {
    snprintf(buf, n, "stream-%lu-%llu", (unsigned long)w->map.pids[i],
             (unsigned long long)w->map.tids[i]);
}

/* The trace's UUID: a hash of the first packet and the trace's facts, so
 * that the same input gives the same trace and others differ. */
static void make_uuid(ctf_writer *w, const cstream *s) {
    const tw_trace_info *ti = w->ctx.info;
    /* "FORMAT ORIGIN_NS ORIGIN_TS HAS_ORIGIN"; the format's name comes from
     * the input (a jsonl header) and may be of any length */
    const char *format = ti->format ? ti->format : "";
    char nums[80];
    int k = snprintf(nums, sizeof nums, " %lld %lld %d", (long long)ti->origin_ns,
                     (long long)ti->origin_ts, ti->has_origin);
    tw_buf facts = {0};
    if (!tw_buf_append(&facts, format, strlen(format)) ||
        !tw_buf_append(&facts, nums, (size_t)k))
        fail(w, "out of memory", ENOMEM);
    uint64_t h1 = tw_hash(s->events.p, s->events.len);
    uint64_t h2 = tw_hash(facts.p ? facts.p : "", facts.len) ^ (h1 * 0x9e3779b97f4a7c15ULL);
    tw_buf_free(&facts);
    for (int i = 0; i < 8; i++) {
        w->uuid[i] = (unsigned char)(h1 >> (8 * i));
        w->uuid[8 + i] = (unsigned char)(h2 >> (8 * i));
    }
    w->uuid[6] = (unsigned char)((w->uuid[6] & 0x0F) | 0x40); /* version 4 */
    w->uuid[8] = (unsigned char)((w->uuid[8] & 0x3F) | 0x80); /* RFC 4122 variant */
    w->have_uuid = true;
}

/* Write the open packet of stream i to its file. */
static void flush_packet(ctf_writer *w, size_t i) {
    cstream *s = &w->streams[i];
    if (!s->events.len || w->failed) return;
    if (!w->have_uuid) make_uuid(w, s);
    tw_buf h = {0};
    uint64_t bits = (uint64_t)(HEADER_BYTES + s->events.len) * 8;
    put_le(&h, CTF_MAGIC, 4, w);
    if (!tw_buf_append(&h, w->uuid, 16)) fail(w, "out of memory", ENOMEM);
    put_le(&h, 0, 4, w);                    /* stream_id */
    put_le(&h, i, 8, w);                    /* stream_instance_id */
    put_le(&h, (uint64_t)s->first, 8, w);   /* timestamp_begin */
    put_le(&h, (uint64_t)s->last, 8, w);    /* timestamp_end */
    put_le(&h, bits, 8, w);                 /* content_size */
    put_le(&h, bits, 8, w);                 /* packet_size */
    put_le(&h, s->seq, 8, w);               /* packet_seq_num */
    put_le(&h, 0, 8, w);                    /* events_discarded */
    char name[64];
    stream_name(w, i, name, sizeof name);
    tw_output *o = s->seq ? tw_outdir_append(w->ctx.dir, name) : tw_outdir_create(w->ctx.dir, name);
    if (!o) {
        fail(w, name, errno);
    } else if (!w->failed) {
        tw_out_write(o, h.p, h.len);
        tw_out_write(o, s->events.p, s->events.len);
        int err = tw_output_close(o);
        if (err) fail(w, name, err);
    } else {
        tw_output_abort(o);
    }
    tw_buf_free(&h);
    s->seq++;
    tw_buf_clear(&s->events);
}

static int ctf_begin(const tw_write_ctx *ctx, void **state) {
    ctf_writer *w = tw_state_alloc(ctx->diag, sizeof *w);
    if (!w) return TW_ERR;
    w->ctx = *ctx;
    *state = w;
    return TW_OK;
}

static int ctf_event(void *state, const tw_event *ev) {
    ctf_writer *w = state;
    bool created;
    if (!tw_grow(&w->streams, &w->scap, w->map.n + 1, sizeof *w->streams, 8)) {
        fail(w, "out of memory", ENOMEM);
        return TW_ERR;
    }
    int64_t i = tw_tidmap_index(&w->map, ev->pid, ev->tid, &created);
    if (i < 0) {
        fail(w, "out of memory", ENOMEM);
        return TW_ERR;
    }
    cstream *s = &w->streams[i];
    if (created) memset(s, 0, sizeof *s);
    /* the time, relative to the base, never before the stream's latest */
    if (!w->have_base) {
        w->have_base = true;
        if (ev->ts < 0) w->base = tw_floor_to(ev->ts, TW_NS_PER_S);
    }
    int64_t t = tw_view_time(ev->ts, w->base);
    if (t < 0 || (s->have_prev && t < s->prev)) {
        t = s->have_prev && s->prev > 0 ? s->prev : 0;
        tw_loss_add(w->ctx.loss, "times moved forward to keep a thread's time in order", 1);
    }
    s->prev = t;
    s->have_prev = true;

    static const unsigned char ids[TW_KIND_COUNT] = {
        [TW_BEGIN] = EV_BEGIN, [TW_END] = EV_END, [TW_INSTANT] = EV_INSTANT,
        [TW_SUSPEND] = EV_SUSPEND, [TW_RESUME] = EV_RESUME, [TW_COUNTER] = EV_COUNTER,
        [TW_META] = EV_META};
    if ((unsigned)ev->kind >= TW_KIND_COUNT) {
        tw_loss_drop(w->ctx.loss, ev);
        return TW_OK;
    }
    unsigned id = ids[ev->kind];
    tw_buf *b = &w->tmp;
    tw_buf_clear(b);
    put_le(b, id, 4, w);
    put_le(b, (uint64_t)t, 8, w);
    put_le(b, ev->pid, 4, w);
    put_le(b, ev->tid, 8, w);
    put_str(w, b, ev->name->s, ev->name->len);
    /* which classes have a category and a message (meta: its value) */
    bool has_cat = id == EV_BEGIN || id == EV_END || id == EV_INSTANT;
    bool has_msg = id == EV_INSTANT || id == EV_META;
    if (has_cat) put_str(w, b, ev->cat ? ev->cat->s : "", ev->cat ? ev->cat->len : 0);
    else if (ev->cat) tw_loss_add(w->ctx.loss, "categories of counter, meta, suspend and resume events dropped", 1);
    if (has_msg) put_str(w, b, ev->msg ? ev->msg : "", ev->msg ? ev->msg_len : 0);
    else if (ev->msg) tw_loss_add(w->ctx.loss, "messages of events other than instants dropped", 1);
    if (id == EV_COUNTER) {
        put_le(b, (uint64_t)ev->value, 8, w);
        if (!ev->has_value) tw_loss_add(w->ctx.loss, "counters without a value (written as 0)", 1);
    }
    if (ev->nattrs) tw_loss_add(w->ctx.loss, "event attributes dropped", 1);
    if (w->failed) return TW_ERR;
    if (!s->events.len) s->first = t;
    s->last = t;
    if (!tw_buf_append(&s->events, b->p, b->len)) {
        fail(w, "out of memory", ENOMEM);
        return TW_ERR;
    }
    if (s->events.len >= PACKET_BYTES) flush_packet(w, (size_t)i);
    return w->failed ? TW_ERR : TW_OK;
}

/* A TSDL string literal, printable ASCII only (others become '?'). */
static void tsdl_str(tw_output *o, const char *s) {
    tw_out_putc(o, '"');
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') tw_out_putc(o, '\\');
        tw_out_putc(o, (char)(c < 0x20 || c > 0x7E ? '?' : c));
    }
    tw_out_putc(o, '"');
}

static void put_uuid(tw_output *o, const unsigned char *u) {
    static const char hex[] = "0123456789abcdef";
    tw_out_putc(o, '"');
    for (int i = 0; i < 16; i++) {
        if (i == 4 || i == 6 || i == 8 || i == 10) tw_out_putc(o, '-');
        tw_out_putc(o, hex[u[i] >> 4]);
        tw_out_putc(o, hex[u[i] & 15]);
    }
    tw_out_putc(o, '"');
}

static const char metadata_types[] =
    "typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
    "typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
    "typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n"
    "typealias integer { size = 64; align = 8; signed = true; } := int64_t;\n\n";

static const char metadata_events[] =
    "event {\n\tname = \"begin\";\n\tid = 0;\n\tstream_id = 0;\n"
    "\tfields := struct { uint32_t pid; uint64_t tid; string name; string category; };\n};\n\n"
    "event {\n\tname = \"end\";\n\tid = 1;\n\tstream_id = 0;\n"
    "\tfields := struct { uint32_t pid; uint64_t tid; string name; string category; };\n};\n\n"
    "event {\n\tname = \"instant\";\n\tid = 2;\n\tstream_id = 0;\n"
    "\tfields := struct { uint32_t pid; uint64_t tid; string name; string category; "
    "string message; };\n};\n\n"
    "event {\n\tname = \"suspend\";\n\tid = 3;\n\tstream_id = 0;\n"
    "\tfields := struct { uint32_t pid; uint64_t tid; string name; };\n};\n\n"
    "event {\n\tname = \"resume\";\n\tid = 4;\n\tstream_id = 0;\n"
    "\tfields := struct { uint32_t pid; uint64_t tid; string name; };\n};\n\n"
    "event {\n\tname = \"counter\";\n\tid = 5;\n\tstream_id = 0;\n"
    "\tfields := struct { uint32_t pid; uint64_t tid; string name; int64_t value; };\n};\n\n"
    "event {\n\tname = \"meta\";\n\tid = 6;\n\tstream_id = 0;\n"
    "\tfields := struct { uint32_t pid; uint64_t tid; string name; string value; };\n};\n";

static void write_metadata(ctf_writer *w) {
    tw_output *o = tw_outdir_create(w->ctx.dir, "metadata");
    if (!o) {
        fail(w, "metadata", errno);
        return;
    }
    const tw_trace_info *ti = w->ctx.info;
    tw_out_str(o, METADATA_HEAD TW_VERSION_STRING " */\n\n");
    tw_out_str(o, metadata_types);
    tw_out_str(o, "trace {\n\tmajor = 1;\n\tminor = 8;\n\tuuid = ");
    put_uuid(o, w->uuid);
    tw_out_str(o, ";\n\tbyte_order = le;\n\tpacket.header := struct {\n"
                  "\t\tuint32_t magic;\n\t\tuint8_t uuid[16];\n\t\tuint32_t stream_id;\n"
                  "\t\tuint64_t stream_instance_id;\n\t};\n};\n\n");
    tw_out_str(o, "env {\n\ttracer_name = \"tracewright\";\n\ttracer_version = \"" TW_VERSION_STRING
                  "\";\n\tsource_format = ");
    tsdl_str(o, ti->format ? ti->format : "");
    tw_out_str(o, ";\n");
    if (w->base) {  /* clock value 0 is this time of the input */
        tw_out_str(o, "\tts_offset_ns = ");
        tw_out_i64(o, w->base);
        tw_out_str(o, ";\n");
    }
    if (ti->has_pid) {
        tw_out_str(o, "\tpid = ");
        tw_out_u64(o, ti->pid);
        tw_out_str(o, ";\n");
    }
    tw_out_str(o, "};\n\n");
    /* the wall-clock time of clock value 0 */
    int64_t epoch0 = 0;
    bool absolute = ti->has_origin;
    if (absolute) {
        int64_t d;
        absolute = tw_sub_i64(ti->origin_ns, ti->origin_ts, &d) && tw_add_i64(d, w->base, &epoch0);
        if (!absolute) tw_loss_add(w->ctx.loss, "wall-clock origin dropped (out of range)", 1);
    }
    int64_t whole = tw_floor_to(epoch0, TW_NS_PER_S), offset_s = whole / TW_NS_PER_S;
    tw_out_str(o, "clock {\n\tname = tracewright;\n\tuuid = ");
    put_uuid(o, w->uuid);
    tw_out_str(o, ";\n\tdescription = ");
    tsdl_str(o, absolute ? "trace clock placed on the wall clock by the input's origin"
                         : "trace clock of the input");
    tw_out_str(o, ";\n\tfreq = 1000000000;\n\tprecision = ");
    tw_out_i64(o, ti->resolution_ns);
    tw_out_str(o, ";\n\toffset_s = ");
    tw_out_i64(o, offset_s);
    tw_out_str(o, ";\n\toffset = ");
    tw_out_i64(o, epoch0 - whole);
    tw_out_str(o, absolute ? ";\n\tabsolute = true;\n};\n\n" : ";\n\tabsolute = false;\n};\n\n");
    tw_out_str(o, "typealias integer { size = 64; align = 8; signed = false; "
                  "map = clock.tracewright.value; } := uint64_clock_t;\n\n");
    tw_out_str(o, "stream {\n\tid = 0;\n\tpacket.context := struct {\n"
                  "\t\tuint64_clock_t timestamp_begin;\n\t\tuint64_clock_t timestamp_end;\n"
                  "\t\tuint64_t content_size;\n\t\tuint64_t packet_size;\n"
                  "\t\tuint64_t packet_seq_num;\n\t\tuint64_t events_discarded;\n\t};\n"
                  "\tevent.header := struct {\n\t\tuint32_t id;\n\t\tuint64_clock_t timestamp;\n"
                  "\t};\n};\n\n");
    tw_out_str(o, metadata_events);
    int err = tw_output_close(o);
    if (err) fail(w, "metadata", err);
}

static int ctf_end(void *state) {
    ctf_writer *w = state;
    for (size_t i = 0; i < w->map.n; i++) flush_packet(w, i);
    if (!w->have_uuid) {  /* no events: the uuid of an empty trace */
        cstream none = {0};
        make_uuid(w, &none);
    }
    if (!w->failed) write_metadata(w);
    return w->failed ? TW_ERR : TW_OK;
}

static void ctf_free(void *state) {
    ctf_writer *w = state;
    for (size_t i = 0; i < w->map.n; i++) tw_buf_free(&w->streams[i].events);
    free(w->streams);
    tw_tidmap_free(&w->map);
    tw_buf_free(&w->tmp);
    free(w);
}

static const char *const ctf_exts[] = {".ctf", NULL};

static const tw_format ctf_format = {
    .abi = TW_FORMAT_ABI,
    .name = "ctf",
    .extensions = ctf_exts,
    .description = "CTF 1.8 trace directory (babeltrace2, Trace Compass); needs -o DIR",
    .flags = TW_FMT_BINARY | TW_FMT_THREADS | TW_FMT_ORIGIN | TW_FMT_DIRECTORY |
             TW_FMT_WRITER_TRANSIENT,
    .write_begin = ctf_begin,
    .write_event = ctf_event,
    .write_end = ctf_end,
    .write_free = ctf_free,
    .dir_spec = {"metadata", METADATA_HEAD, "stream-"},
};

TW_FORMAT_EXPORT(ctf, ctf_format)
