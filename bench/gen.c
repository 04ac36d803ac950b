/*
 * gen.c - synthetic benchmark inputs for tracewright.
 *
 *   gen FORMAT SIZE SEED OUTFILE
 *
 * FORMAT is one of rtl, lms, coreprofiler, text1, text1-bin, stacktrack.
 * SIZE is a byte count with an optional suffix k, M or G (decimal: 10^3,
 * 10^6, 10^9).  SEED is an unsigned decimal number.  OUTFILE `-` is standard
 * output (not for text1-bin, which also writes a companion text export:
 * OUTFILE x.txt.BIN or x.BIN gets x.txt, any other name NAME gets NAME.txt,
 * the names tracewright's text1-bin reader looks for; an existing file of
 * that name with a TIMELINE section, a full text1 export, is not replaced).
 * Exit status: 0 written, 1 an I/O error, 2 bad usage.
 *
 * All data is synthetic, made up by this program.  The same FORMAT, SIZE and
 * SEED always give the same bytes (own PRNG: splitmix64 seeding xoshiro256**;
 * no rand(), no clock).
 *
 * The workload, the same for every format:
 *   - 4 threads whose events interleave in time order in the file (a run of
 *     events stays on one thread with probability 3/4, else a random thread
 *     is picked);
 *   - per thread a call stack driven by a random walk: push with probability
 *     0.5 + 0.04 * (10 - depth) up to depth 12 (at most 0.95), 0.42 beyond,
 *     so that the depth stays around 5 to 15 and now and then reaches the
 *     limit of 30, never more;
 *   - 500 distinct scope names, 30 to 80 characters, shaped like C++
 *     qualified names (::render::SceneGraph::updateBoundingVolumes_17); each
 *     thread has its own root function, every function has 8 callees drawn
 *     once (skewed towards a set of hot functions), and a function never
 *     calls itself, directly or through others (no recursion on a stack);
 *   - messages on about 5% of the events where the format has messages;
 *   - a clock that never goes back, advanced by small random steps in the
 *     format's own unit (ms for rtl and coreprofiler: 0-5, mostly 0; us for
 *     lms: 1-64; ns for text1 and text1-bin: 20-2018; 100-ns ticks for
 *     stacktrack: 0-31), so that it cannot overflow even at 10 GB.
 * Once SIZE bytes are written every open scope of every thread is closed (so
 * the trace is well formed) and the format's trailer, if any, is written; the
 * output exceeds SIZE by those closing records only.
 *
 * What each format gets:
 *   rtl           the RTL_LOGFILE header (opening log file / corresponding to /
 *                 Process id is), `T TID { NAME`, `T TID } NAME`,
 *                 `T TID | CONTEXT : MESSAGE`, the unterminated
 *                 `closing log file at T`; 4 thread ids.
 *   lms           `2,ID,LABEL` mappings just before first use, `0,ID,DIFF` and
 *                 `1,ID,DIFF`.  LMS records no thread, and the reader puts
 *                 everything on one track, where the scopes of 4 interleaved
 *                 threads would not nest: the lms output is one thread.  No
 *                 messages (the format has none).
 *   coreprofiler  `prf stm`, `prf cfg` (Instrumentation mode), app domain,
 *                 assembly and module records, 4 managed threads (`thr crt`,
 *                 `thr aos`), `fun inf` + `fun nam` just before a function's
 *                 first use, one `sam str` per enter or leave (COUNT 0), and
 *                 `prc cpu` / `thr cpu` every 100 ms (the format has no
 *                 messages).
 *   text1         the winIDEA Text1 export: CONTEXTS (4 tasks), HANDLE(Functions)
 *                 (all 500 functions, so the file is at least ~30 kB whatever
 *                 SIZE says), HANDLE(Data), then the TIMELINE with E/X of each
 *                 call, S/R of the caller around each call (as winIDEA records
 *                 calls), and variable writes (W) as the "messages".  No INFO
 *                 (the session length is not known before the timeline) and no
 *                 STATISTICS.
 *   text1-bin     the same timeline as 24-byte .BIN records, layout 1.1, the
 *                 thread as the core index 0-3; the companion text export
 *                 (INFO, CONTEXTS, HANDLE sections) is written at the end.
 *   stacktrack    Boost StackTrack raw_event buffers, little-endian, 24 bytes:
 *                 PROLOGUE, PROCINFO, TIMETYPE (10^7 ticks per second),
 *                 TIMEINFO; FLOC and SLOC (with their INFO runs) the first time
 *                 a checkpoint is hit; one entry (style 3) and one exit (style 4)
 *                 checkpoint per function; messages as hits of value
 *                 checkpoints (style 6) with an INFO text.
 *
 * Speed: one 64-bit random draw per step, a 1 MiB buffer written with
 * write(2), hand-written number formatting; about 300-600 MB/s on one core
 * (lms, whose lines are ~9 bytes, is the slowest).  Memory is constant.
 *
 * Build: cc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -o gen gen.c
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ------------------------------------------------------------------------ */
/* PRNG                                                                      */

static uint64_t rng_s[4];

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static void rng_seed(uint64_t seed)
{
    for (int i = 0; i < 4; i++)
        rng_s[i] = splitmix64(&seed);
}

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t rng_next(void)
{
    uint64_t r = rotl(rng_s[1] * 5, 7) * 9;
    uint64_t t = rng_s[1] << 17;
    rng_s[2] ^= rng_s[0];
    rng_s[3] ^= rng_s[1];
    rng_s[1] ^= rng_s[2];
    rng_s[0] ^= rng_s[3];
    rng_s[2] ^= t;
    rng_s[3] = rotl(rng_s[3], 45);
    return r;
}

/* uniform in [0, n) for n < 2^32 (multiply-shift; the bias is negligible) */
static inline uint32_t rnd(uint32_t n)
{
    return (uint32_t)(((rng_next() >> 32) * (uint64_t)n) >> 32);
}

/* ------------------------------------------------------------------------ */
/* output                                                                    */

#define OUT_CAP (1u << 20)
#define OUT_SLACK 4096 /* the longest record written at once is far shorter */

static char out_buf[OUT_CAP]; /* a static array: stores into it cannot alias the globals */
static size_t out_pos;
static uint64_t out_flushed;
static int out_fd = -1;
static const char *out_name = "-";

static void die(const char *msg)
{
    fprintf(stderr, "gen: %s\n", msg);
    exit(1);
}

static void out_flush(void)
{
    size_t off = 0;
    while (off < out_pos) {
        ssize_t n = write(out_fd, out_buf + off, out_pos - off);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            fprintf(stderr, "gen: %s: write error: %s\n", out_name, strerror(errno));
            exit(1);
        }
        off += (size_t)n;
    }
    out_flushed += out_pos;
    out_pos = 0;
}

static inline void reserve(void)
{
    if (out_pos > OUT_CAP - OUT_SLACK)
        out_flush();
}

static inline uint64_t written(void) { return out_flushed + out_pos; }

static inline void put_c(char c) { out_buf[out_pos++] = c; }

static inline void put_mem(const char *s, size_t n)
{
    memcpy(out_buf + out_pos, s, n);
    out_pos += n;
}

#define PUT_LIT(s) put_mem((s), sizeof(s) - 1)

static inline void put_s(const char *s) { put_mem(s, strlen(s)); }

static const char digits2[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

static const uint64_t pow10_tab[20] = {
    1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL, 10000000ULL,
    100000000ULL, 1000000000ULL, 10000000000ULL, 100000000000ULL, 1000000000000ULL,
    10000000000000ULL, 100000000000000ULL, 1000000000000000ULL, 10000000000000000ULL,
    100000000000000000ULL, 1000000000000000000ULL, 10000000000000000000ULL,
};

/* decimal, at least `width` digits (zero-padded); written in place, from the
   right, two digits at a time */
static inline void put_u(uint64_t v, int width)
{
    int len = 1;
    while (len < 20 && v >= pow10_tab[len])
        len++;
    if (len < width)
        len = width;
    char *p = out_buf + out_pos + len;
    out_pos += (size_t)len;
    while (v >= 100) {
        unsigned q = (unsigned)(v % 100);
        v /= 100;
        *--p = digits2[2 * q + 1];
        *--p = digits2[2 * q];
    }
    if (v >= 10) {
        *--p = digits2[2 * v + 1];
        *--p = digits2[2 * v];
    } else {
        *--p = (char)('0' + v);
    }
    while (p > out_buf + out_pos - len)
        *--p = '0';
}

static const char hex_lc[] = "0123456789abcdef";
static const char hex_uc[] = "0123456789ABCDEF";

/* hexadecimal with exactly `digits` digits */
static inline void put_hex(uint64_t v, int digits, const char *tab)
{
    for (int i = digits - 1; i >= 0; i--)
        out_buf[out_pos++] = tab[(v >> (4 * i)) & 15];
}

/* hexadecimal without leading zeros (0x%x) */
static inline void put_hex_short(uint64_t v)
{
    int digits = 1;
    while (digits < 16 && (v >> (4 * digits)))
        digits++;
    put_hex(v, digits, hex_lc);
}

static inline void put_le(uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; i++)
        out_buf[out_pos++] = (char)((v >> (8 * i)) & 0xFF);
}

static inline void put_zeros(int n)
{
    memset(out_buf + out_pos, 0, (size_t)n);
    out_pos += (size_t)n;
}

/* ------------------------------------------------------------------------ */
/* names                                                                     */

#define NNAMES 500
#define NTHREADS 4
#define MAXDEPTH 30
#define NCALLEES 8
#define NAME_MAX_LEN 80
#define NAME_MIN_LEN 30

static const char *const w_ns[] = {
    "render", "core", "io", "net", "audio", "physics", "ui", "db", "script", "anim",
    "gfx", "mem", "sched", "fs", "util", "json", "http", "cache", "scene", "text",
    "image", "input", "platform", "crypto", "log", "detail", "impl", "vk", "gl", "task",
};
static const char *const w_class[] = {
    "SceneGraph", "TextureCache", "ShaderCompiler", "MeshLoader", "FrameScheduler",
    "ConnectionPool", "RequestRouter", "JsonParser", "ThreadPool", "EventDispatcher",
    "GlyphAtlas", "AudioMixer", "RigidBodySolver", "CollisionWorld", "LayoutEngine",
    "QueryPlanner", "BufferAllocator", "ScriptVM", "AnimationBlender", "ResourceManager",
    "StreamDecoder", "FileWatcher", "HttpSession", "TlsContext", "CommandBuffer",
    "DescriptorPool", "WidgetTree", "InputMapper", "LogSink", "PageCache",
    "IndexBuilder", "Tokenizer", "PathResolver", "ImageDecoder", "SpatialHash",
};
static const char *const w_method[] = {
    "updateBoundingVolumes", "flush", "resolve", "compileVariant", "dispatchPending",
    "parseObject", "acquire", "release", "rebuild", "submit", "tick", "evaluate",
    "decodeChunk", "allocate", "collectGarbage", "invalidate", "measure", "layout",
    "paint", "serialize", "deserialize", "handleRequest", "readBlock", "writeBlock",
    "lookup", "insert", "mergeRanges", "sortByDepth", "uploadToDevice", "waitForFence",
    "computeTangents", "integrateForces", "broadPhase", "narrowPhase", "applyConstraints",
    "scheduleJobs", "runPass", "beginFrame", "endFrame", "processEvents", "compress",
    "validateHeader", "buildIndex", "refreshLayout", "hitTest", "prefetch",
};
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static char names[NNAMES][NAME_MAX_LEN + 1];
static uint8_t name_len[NNAMES];
static char files[NNAMES][64];   /* source file of a function (stacktrack) */
static uint16_t name_file[NNAMES]; /* index into files[] */
static int nfiles;
static uint16_t callees[NNAMES][NCALLEES];

static void append(char *buf, size_t *len, const char *s)
{
    size_t n = strlen(s);
    if (*len + n < 160)
        memcpy(buf + *len, s, n + 1), *len += n;
}

static void make_names(void)
{
    /* a fixed seed: the name pool is the same for every SEED and format */
    rng_seed(0x7472616365777269ULL);
    for (int i = 0; i < NNAMES; i++) {
        int target = NAME_MIN_LEN + (int)rnd(NAME_MAX_LEN - NAME_MIN_LEN + 1);
        char best[160] = "";
        size_t best_len = 0;
        int best_ns = 0, best_cls = 0;
        for (int attempt = 0; attempt < 200; attempt++) {
            char buf[160], num[16];
            size_t len = 0;
            buf[0] = 0;
            int nns = 1 + (int)rnd(4);
            int ns0 = (int)rnd(COUNT(w_ns));
            int cls = (int)rnd(COUNT(w_class));
            for (int k = 0; k < nns; k++) {
                append(buf, &len, "::");
                append(buf, &len, w_ns[k == 0 ? ns0 : (int)rnd(COUNT(w_ns))]);
            }
            append(buf, &len, "::");
            append(buf, &len, w_class[cls]);
            if (rnd(3) == 0) {
                append(buf, &len, "::");
                append(buf, &len, w_class[rnd(COUNT(w_class))]);
            }
            append(buf, &len, "::");
            append(buf, &len, w_method[rnd(COUNT(w_method))]);
            snprintf(num, sizeof num, "_%d", i);
            append(buf, &len, num);
            if (len < NAME_MIN_LEN || len > NAME_MAX_LEN)
                continue;
            int d = (int)len - target, bd = (int)best_len - target;
            if (best_len == 0 || abs(d) < abs(bd)) {
                memcpy(best, buf, len + 1);
                best_len = len;
                best_ns = ns0;
                best_cls = cls;
            }
            if (abs(d) <= 2)
                break;
        }
        if (best_len == 0) /* cannot happen with the word lists above */
            die("internal error: no name in range");
        memcpy(names[i], best, best_len + 1);
        name_len[i] = (uint8_t)best_len;
        /* its source file: src/NS/Class.cpp, shared by the functions of a class */
        char path[64];
        snprintf(path, sizeof path, "src/%s/%s.cpp", w_ns[best_ns], w_class[best_cls]);
        int f;
        for (f = 0; f < nfiles; f++)
            if (strcmp(files[f], path) == 0)
                break;
        if (f == nfiles)
            memcpy(files[nfiles++], path, strlen(path) + 1);
        name_file[i] = (uint16_t)f;
    }
    /* the call graph: names 0..3 are the threads' roots and never callees;
       half of the callees come from a hot set (skewed towards low indexes) */
    for (int i = 0; i < NNAMES; i++)
        for (int k = 0; k < NCALLEES; k++) {
            uint32_t c;
            if (rnd(2))
                c = rnd(NNAMES - NTHREADS);
            else
                c = (rnd(NNAMES - NTHREADS) * rnd(NNAMES - NTHREADS)) / (NNAMES - NTHREADS);
            callees[i][k] = (uint16_t)(NTHREADS + c);
        }
}

/* ------------------------------------------------------------------------ */
/* messages                                                                  */

static char msg_buf[128];
static size_t msg_len;

static void msg_put(const char *s)
{
    size_t n = strlen(s);
    memcpy(msg_buf + msg_len, s, n);
    msg_len += n;
}

static void msg_u(uint64_t v)
{
    char tmp[24];
    int n = 0;
    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n)
        msg_buf[msg_len++] = tmp[--n];
}

/* a log line of the kind programs write; never starts with a brace and never
   contains " : " (RTL splits messages there).  Returns its kind, 0-7. */
#define NMSGKINDS 8
static int make_message(void)
{
    int kind = (int)rnd(NMSGKINDS);
    msg_len = 0;
    switch (kind) {
    case 0: msg_put("cache miss for key "); msg_u(rng_next() & 0xFFFFFF); break;
    case 1: msg_put("loaded "); msg_u(rnd(5000)); msg_put(" entries in "); msg_u(rnd(90000)); msg_put(" us"); break;
    case 2: msg_put("queue depth "); msg_u(rnd(64)); break;
    case 3: msg_put("frame "); msg_u(rnd(1000000)); msg_put(" submitted"); break;
    case 4: msg_put("retrying request "); msg_u(rnd(100000)); msg_put(" (attempt "); msg_u(1 + rnd(5)); msg_put(")"); break;
    case 5: msg_put("allocated "); msg_u(64 * (1 + rnd(4096))); msg_put(" bytes from pool"); break;
    case 6: msg_put("state changed to "); msg_put(rnd(2) ? "ready" : "busy"); break;
    default: msg_put("checkpoint reached"); break;
    }
    msg_buf[msg_len] = 0;
    return kind;
}

/* ------------------------------------------------------------------------ */
/* formats                                                                   */

enum fmt { F_RTL, F_LMS, F_CP, F_TEXT1, F_TEXT1BIN, F_ST };
static enum fmt fmt;

static int nthreads = NTHREADS;
static uint64_t now;                /* in the format's unit */
static uint32_t pid;
static uint32_t tids[NTHREADS];     /* OS thread ids (rtl, coreprofiler, stacktrack) */
static char tid_str[NTHREADS][12];
static uint8_t tid_str_len[NTHREADS];
static int stack[NTHREADS][MAXDEPTH];
static int depth[NTHREADS];
static int max_depth_seen;
static uint64_t depth_hist[MAXDEPTH + 1];

static const char *const ctx_names[NTHREADS] = {
    "TSK: MainLoop", "TSK: RenderWorker", "TSK: IoWorker", "TSK: NetWorker",
};

/* --- lms --- */
static int lms_id[NNAMES];
static int lms_next;
static uint64_t lms_last;
static char lms_idstr[NNAMES][8]; /* ",ID," */
static uint8_t lms_idlen[NNAMES];

/* TYPE,ID,DIFF: the hot path of the format with the shortest lines, kept
   free of loops and data-dependent branches where it is cheap to do so */
static inline void lms_marker(char type, int name)
{
    uint64_t diff = now - lms_last;
    lms_last = now;
    char *p = out_buf + out_pos;
    *p++ = type;
    memcpy(p, lms_idstr[name], 8);
    p += lms_idlen[name];
    if (diff < 100) {
        char a = digits2[2 * diff], b = digits2[2 * diff + 1];
        int one = diff < 10;
        p[0] = one ? b : a;
        p[1] = b;
        p[2 - one] = '\n';
        out_pos = (size_t)(p + 3 - one - out_buf);
    } else {
        out_pos = (size_t)(p - out_buf);
        put_u(diff, 0);
        put_c('\n');
    }
}

/* --- coreprofiler --- */
static int cp_iid[NNAMES];
static int cp_next;
static uint64_t cp_next_cpu;

/* --- text1 / text1-bin --- */
#define NVARS 6
static const char *const var_names[NVARS] = {
    "g_frameCounter", "g_queueDepth", "g_bytesInFlight", "g_errorCount", "s_cacheHits",
    "g_renderState",
};
static uint64_t var_value[NVARS];

/* --- stacktrack --- */
#define ST_TDIV 10000000ULL /* ticks per second */
#define ST_START_HIRES 84213377731ULL
#define NVALUES NMSGKINDS /* one value checkpoint per kind of message */
static const char *const value_names[NVALUES] = {
    "cache_key", "load_summary", "queue_depth", "frame_id", "retry", "pool_alloc", "state",
    "progress",
};
static uint16_t st_entry_cp[NNAMES], st_exit_cp[NNAMES], st_value_cp[NVALUES];
static uint16_t st_entry_line[NNAMES];
static uint16_t st_file_num[NNAMES]; /* FLOC number per files[] index, 0 = not yet */
static uint16_t st_next_cp, st_next_file;
static uint32_t st_seq;

/* advance the clock by a small random step in the format's unit; r is a
   uniform number in [0, 1000) */
static inline void tick(uint32_t r)
{
    switch (fmt) {
    case F_RTL:
    case F_CP: /* milliseconds: most records share a millisecond */
        now += r < 600 ? 0 : r < 900 ? 1 : 2 + (r & 3);
        break;
    case F_LMS: /* microseconds */
        now += 1 + (r & 63);
        break;
    case F_TEXT1:
    case F_TEXT1BIN: /* nanoseconds */
        now += 20 + r * 2;
        break;
    case F_ST: /* 100-ns ticks */
        now += r & 31;
        break;
    }
}

/* ---- rtl ---- */

static void rtl_header(void)
{
    uint64_t secs = 1700000000ULL + rnd(100000000);
    PUT_LIT("opening log file ");
    put_u(secs, 0);
    put_c('.');
    put_u(rnd(1000000), 6);
    PUT_LIT(" seconds past January 1st 1970\ncorresponding to 0 ms after timer start\nProcess id is ");
    put_u(pid, 0);
    put_c('\n');
}

static inline void rtl_prefix(int t)
{
    put_u(now, 6);
    put_c(' ');
    put_mem(tid_str[t], tid_str_len[t]);
}

/* ---- coreprofiler ---- */

static void cp_header(void)
{
    static const char *const cfg =
        "prf cfg CollectionMethod Instrumentation\n"
        "prf cfg SamplingTimeoutMs 10\n"
        "prf cfg HighGranularityEnabled F\n"
        "prf cfg TracingSuspendedOnStart F\n"
        "prf cfg LineTraceEnabled F\n"
        "prf cfg CpuTraceProcessEnabled T\n"
        "prf cfg CpuTraceThreadEnabled T\n"
        "prf cfg CpuTraceTimeoutMs 100\n"
        "prf cfg ExecutionTraceEnabled T\n"
        "prf cfg MemoryTraceEnabled F\n"
        "prf cfg StackTrackingEnabled T\n"
        "apd crf 0xB6F01000 0x00000001 0x00000000 \"BenchApp\"\n"
        "asm ldf 0xB6F02000 0xB6F01000 0xB6F03000 0x00000000 \"BenchApp\"\n"
        "mod ldf 0xB6F03000 0xA1C00000 0xB6F02000 0x00000000 \"/opt/usr/globalapps/org.example.benchapp/bin/BenchApp.dll\"\n"
        "mod ata 0xB6F03000 0xB6F02000\n";
    PUT_LIT("prf stm 2024-05-17 10:21:");
    put_u(rnd(60), 2);
    put_c('.');
    put_u(rnd(1000), 3);
    PUT_LIT(" +09:00\n");
    put_s(cfg);
    for (int t = 0; t < nthreads; t++) {
        PUT_LIT("thr crt 0x");
        put_hex(0xB4F11000u + 0x8800u * (unsigned)t, 8, hex_uc);
        PUT_LIT(" 0x");
        put_hex((unsigned)t, 8, hex_lc);
        PUT_LIT("\nthr aos 0x");
        put_hex((unsigned)t, 8, hex_lc);
        put_c(' ');
        put_mem(tid_str[t], tid_str_len[t]);
        put_c('\n');
    }
}

static void cp_define(int name)
{
    static const char *const rets[] = {"void", "System.Int32", "System.Boolean", "System.String"};
    static const char *const sigs[] = {"()", "(System.Int32)", "(System.String, System.Int32)", "(System.Object)"};
    int iid = cp_next++;
    cp_iid[name] = iid;
    PUT_LIT("fun inf 0x");
    put_hex((unsigned)iid, 8, hex_lc);
    PUT_LIT(" 0x");
    put_hex(0xB1A02000u + 0x40u * (unsigned)iid, 8, hex_uc);
    PUT_LIT(" 0x");
    put_hex(0xB6E00000u + 0x100u * name_file[name], 8, hex_uc);
    PUT_LIT(" 0xB6F03000 0x");
    put_hex(0x06000001u + (unsigned)iid, 8, hex_uc);
    PUT_LIT(" 0x");
    put_hex(0xA8B40000u + 0x200u * (unsigned)iid, 8, hex_uc);
    PUT_LIT(":0x");
    put_hex_short(0x40 + 8 * (unsigned)(name % 16));
    PUT_LIT("\nfun nam 0x");
    put_hex((unsigned)iid, 8, hex_lc);
    PUT_LIT(" \"");
    put_mem(names[name], name_len[name]);
    PUT_LIT("\" \"");
    put_s(rets[name % 4]);
    PUT_LIT("\" \"");
    put_s(sigs[(name / 4) % 4]);
    PUT_LIT("\"\n");
}

static inline void cp_sam_prefix(int t)
{
    PUT_LIT("sam str 0x");
    put_hex((unsigned)t, 8, hex_lc);
    put_c(' ');
    put_u(now, 0);
    PUT_LIT(" 0 ");
}

/* CPU records every CpuTraceTimeoutMs (100 ms) */
static void cp_cpu(void)
{
    while (now >= cp_next_cpu) {
        uint64_t at = cp_next_cpu;
        uint64_t sum = 0, us[NTHREADS];
        for (int t = 0; t < nthreads; t++)
            sum += us[t] = 20000 + rnd(80000);
        reserve();
        PUT_LIT("prc cpu ");
        put_u(at, 0);
        put_c(' ');
        put_u(sum + rnd(5000), 0);
        put_c('\n');
        for (int t = 0; t < nthreads; t++) {
            PUT_LIT("thr cpu 0x");
            put_hex((unsigned)t, 8, hex_lc);
            put_c(' ');
            put_u(at, 0);
            put_c(' ');
            put_u(us[t], 0);
            put_c('\n');
        }
        cp_next_cpu += 100;
    }
}

/* ---- text1 ---- */

static void text1_mapping(int with_info, uint64_t total)
{
    if (with_info) {
        PUT_LIT("* INFO %TOTAL_TIME%\n");
        put_u(total, 0);
        put_c('\n');
    }
    PUT_LIT("* CONTEXTS %NAME%,%HANDLE%\n");
    for (int t = 0; t < nthreads; t++) {
        put_s(ctx_names[t]);
        PUT_LIT(",0x");
        put_hex_short((unsigned)t);
        put_c('\n');
    }
    PUT_LIT("* HANDLE(Functions) %HANDLE%,%NAME%,%VALUE%\n");
    for (int i = 0; i < NNAMES; i++) {
        reserve();
        put_hex((unsigned)i, 8, hex_uc);
        put_c(',');
        put_mem(names[i], name_len[i]);
        PUT_LIT(",\n");
    }
    PUT_LIT("* HANDLE(Data) %HANDLE%,%NAME%,%VALUE%\n");
    for (int v = 0; v < NVARS; v++) {
        put_hex(0x20000000u + (unsigned)v, 8, hex_uc);
        put_c(',');
        put_s(var_names[v]);
        PUT_LIT(",\n");
    }
}

/* one timeline entry: HANDLE,EVENT,VALUE,TIME,CONTEXT */
static inline void text1_entry(uint32_t handle, char ev, int t)
{
    put_hex(handle, 8, hex_uc);
    put_c(',');
    put_c(ev);
    PUT_LIT(",,");
    put_u(now, 0);
    put_c(',');
    put_s(ctx_names[t]);
    put_c('\n');
}

enum { BIN_X = 0, BIN_S = 1, BIN_R = 2, BIN_E = 3, BIN_W = 4 };

static inline void bin_rec(uint32_t handle, int type, int t, uint64_t data)
{
    put_le(handle, 4);
    put_le((uint32_t)type | ((uint32_t)t << 4), 4);
    put_le(data, 8);
    put_le(now, 8);
}

/* ---- stacktrack ---- */

static inline void st_header(uint16_t flags, uint32_t seq)
{
    put_le(flags, 2);
    put_le(pid, 2);
    put_le(seq, 4);
}

/* an INFO run: 16-byte chunks, the last NUL-padded and marked INFO_END */
static void st_info(uint32_t seq, const char *s, size_t n)
{
    for (;;) {
        size_t c = n > 16 ? 16 : n;
        int last = n <= 16;
        st_header(last ? 0x02FF : 0x00FF, seq);
        put_mem(s, c);
        put_zeros((int)(16 - c));
        if (last)
            break;
        s += c;
        n -= c;
    }
}

static void st_prologue(void)
{
    st_header(0x0004, 0); /* PROLOGUE */
    put_le(0x12345678u, 4);
    put_le(256, 4);
    put_c(16);
    put_c(24);
    put_c(8);
    put_zeros(5);
    st_header(0x0005, 0); /* PROCINFO */
    put_le(pid, 2);
    put_le(1, 2);
    put_zeros(12);
    st_header(0x0007, 0); /* TIMETYPE */
    put_le(ST_TDIV, 8);
    put_le(0x0020, 2);
    put_zeros(6);
    st_header(0x0006, 0); /* TIMEINFO */
    put_le(ST_START_HIRES, 8);
    put_le(1700000000u + rnd(100000000), 4);
    put_zeros(4);
}

/* defines checkpoint `cp` (FLOC of its file first if needed) with the
   sequence number of the hit that follows */
static void st_sloc(uint16_t cp, int style, uint16_t line, int file, const char *name, size_t len)
{
    if (st_file_num[file] == 0) {
        st_file_num[file] = ++st_next_file;
        st_header(0x0101, st_seq); /* FLOC with INFO */
        put_le(st_file_num[file], 2);
        put_le(0, 2);
        put_le(0, 2);
        put_zeros(10);
        st_info(st_seq, files[file], strlen(files[file]));
    }
    reserve();
    st_header(0x0103, st_seq); /* SLOC with INFO */
    put_le(cp, 2);
    put_le((unsigned)style, 2);
    put_le(line, 2);
    put_le(0, 2);
    put_le(st_file_num[file], 2);
    put_zeros(6);
    st_info(st_seq, name, len);
}

static inline void st_hit(uint16_t flags, uint16_t cp, int t)
{
    st_header(flags, st_seq);
    put_le(ST_START_HIRES + now, 8);
    put_le(cp, 2);
    put_le(tids[t], 2);
    put_zeros(4);
}

/* ------------------------------------------------------------------------ */
/* events                                                                    */

static void ev_begin(int t, int name, int d)
{
    reserve();
    switch (fmt) {
    case F_RTL:
        rtl_prefix(t);
        PUT_LIT(" { ");
        put_mem(names[name], name_len[name]);
        put_c('\n');
        break;
    case F_LMS:
        if (lms_id[name] < 0) {
            lms_id[name] = lms_next++;
            lms_idlen[name] = (uint8_t)snprintf(lms_idstr[name], sizeof lms_idstr[name], ",%d,", lms_id[name]);
            put_c('2');
            put_mem(lms_idstr[name], lms_idlen[name]);
            put_mem(names[name], name_len[name]);
            put_c('\n');
        }
        lms_marker('0', name);
        break;
    case F_CP:
        cp_cpu();
        if (cp_iid[name] < 0)
            cp_define(name);
        cp_sam_prefix(t);
        put_u((unsigned)d, 0);
        put_c(':');
        put_u((unsigned)d, 0);
        PUT_LIT(" 0x");
        put_hex_short((unsigned)cp_iid[name]);
        put_c('\n');
        break;
    case F_TEXT1:
        if (d > 0)
            text1_entry((uint32_t)stack[t][d - 1], 'S', t);
        text1_entry((uint32_t)name, 'E', t);
        break;
    case F_TEXT1BIN:
        if (d > 0)
            bin_rec((uint32_t)stack[t][d - 1], BIN_S, t, 0);
        bin_rec((uint32_t)name, BIN_E, t, 0);
        break;
    case F_ST:
        st_seq++;
        if (st_entry_cp[name] == 0) {
            st_entry_cp[name] = ++st_next_cp;
            st_sloc(st_entry_cp[name], 3, st_entry_line[name], name_file[name], names[name], name_len[name]);
        }
        st_hit(0, st_entry_cp[name], t);
        break;
    }
}

static void ev_end(int t, int name, int d)
{
    reserve();
    switch (fmt) {
    case F_RTL:
        rtl_prefix(t);
        PUT_LIT(" } ");
        put_mem(names[name], name_len[name]);
        put_c('\n');
        break;
    case F_LMS:
        lms_marker('1', name);
        break;
    case F_CP:
        cp_cpu();
        cp_sam_prefix(t);
        put_u((unsigned)d - 1, 0);
        put_c(':');
        put_u((unsigned)d, 0);
        put_c('\n');
        break;
    case F_TEXT1:
        text1_entry((uint32_t)name, 'X', t);
        if (d > 1)
            text1_entry((uint32_t)stack[t][d - 2], 'R', t);
        break;
    case F_TEXT1BIN:
        bin_rec((uint32_t)name, BIN_X, t, 0);
        if (d > 1)
            bin_rec((uint32_t)stack[t][d - 2], BIN_R, t, 0);
        break;
    case F_ST:
        st_seq++;
        if (st_exit_cp[name] == 0) {
            st_exit_cp[name] = ++st_next_cp;
            st_sloc(st_exit_cp[name], 4, (uint16_t)(st_entry_line[name] + 5 + name % 150),
                    name_file[name], names[name], name_len[name]);
        }
        st_hit(0, st_exit_cp[name], t);
        break;
    }
}

/* a message (rtl, stacktrack) or a variable write (text1, text1-bin) */
static void ev_message(int t)
{
    reserve();
    switch (fmt) {
    case F_RTL:
        make_message();
        rtl_prefix(t);
        PUT_LIT(" | ");
        if (depth[t] > 0) {
            int top = stack[t][depth[t] - 1];
            put_mem(names[top], name_len[top]);
            put_c(' ');
        }
        PUT_LIT(": ");
        put_mem(msg_buf, msg_len);
        put_c('\n');
        break;
    case F_TEXT1:
    case F_TEXT1BIN: {
        int v = (int)rnd(NVARS);
        var_value[v] += 1 + rnd(16);
        if (fmt == F_TEXT1) {
            put_hex(0x20000000u + (unsigned)v, 8, hex_uc);
            PUT_LIT(",W,");
            put_hex(var_value[v], 8, hex_uc);
            put_c(',');
            put_u(now, 0);
            PUT_LIT(",\n");
        } else {
            bin_rec(0x20000000u + (unsigned)v, BIN_W, t, var_value[v]);
        }
        break;
    }
    case F_ST: {
        int v = make_message();
        st_seq++;
        if (st_value_cp[v] == 0) {
            int file = name_file[NTHREADS + v];
            st_value_cp[v] = ++st_next_cp;
            st_sloc(st_value_cp[v], 6, (uint16_t)(100 + 17 * v), file, value_names[v], strlen(value_names[v]));
        }
        st_hit(0x0100, st_value_cp[v], t);
        st_info(st_seq, msg_buf, msg_len);
        break;
    }
    default:
        break;
    }
}

static uint8_t on_stack[NTHREADS][NNAMES]; /* is the name open on the thread */

/* r: random bits to choose among the callees with */
static int pick_callee(int t, uint64_t r)
{
    int d = depth[t];
    if (d == 0)
        return t; /* the thread's root function */
    int parent = stack[t][d - 1];
    for (int tries = 0; tries < 4; tries++, r >>= 3) {
        int c = callees[parent][r & (NCALLEES - 1)];
        if (!on_stack[t][c])
            return c;
    }
    for (;;) { /* no recursion: any function not on the stack */
        int c = NTHREADS + (int)rnd(NNAMES - NTHREADS);
        if (!on_stack[t][c])
            return c;
    }
}

static void push(int t, uint64_t r)
{
    int name = pick_callee(t, r);
    int d = depth[t];
    ev_begin(t, name, d);
    stack[t][d] = name;
    on_stack[t][name] = 1;
    depth[t] = d + 1;
    if (d + 1 > max_depth_seen)
        max_depth_seen = d + 1;
}

static void pop(int t)
{
    int d = depth[t];
    int name = stack[t][d - 1];
    ev_end(t, name, d);
    on_stack[t][name] = 0;
    depth[t] = d - 1;
}

/* ------------------------------------------------------------------------ */
/* main                                                                      */

static void usage(FILE *f)
{
    fputs("usage: gen FORMAT SIZE SEED OUTFILE\n"
          "\n"
          "Writes a synthetic trace of about SIZE bytes in FORMAT to OUTFILE ('-': standard\n"
          "output), the same bytes for the same FORMAT, SIZE and SEED.\n"
          "\n"
          "  FORMAT   rtl, lms, coreprofiler, text1, text1-bin or stacktrack\n"
          "  SIZE     bytes, with an optional suffix k, M or G (decimal: 10^3, 10^6, 10^9);\n"
          "           generation stops once SIZE bytes are written, then every open scope\n"
          "           is closed, so the output exceeds SIZE by those records only\n"
          "  SEED     unsigned decimal number\n"
          "  OUTFILE  file to write; for text1-bin a file (not '-') whose companion text\n"
          "           export is written next to it: x.txt.BIN or x.BIN -> x.txt,\n"
          "           any other NAME -> NAME.txt (never replacing a full text1 export)\n"
          "\n"
          "Workload: 4 interleaved threads (lms: 1, it records no threads), nesting up to\n"
          "depth 30 (typically 5-15), 500 scope names of 30-80 characters, messages on\n"
          "about 5% of the events where the format has them.  All data is synthetic.\n",
          f);
}

static void bad_usage(const char *msg)
{
    fprintf(stderr, "gen: %s (try 'gen --help')\n", msg);
    exit(2);
}

static int parse_size(const char *s, uint64_t *out)
{
    uint64_t v = 0;
    const char *p = s;
    if (*p < '0' || *p > '9')
        return -1;
    for (; *p >= '0' && *p <= '9'; p++) {
        if (v > (UINT64_MAX - 9) / 10)
            return -1;
        v = v * 10 + (uint64_t)(*p - '0');
    }
    uint64_t mul = 1;
    if (*p == 'k' || *p == 'K')
        mul = 1000ULL, p++;
    else if (*p == 'M')
        mul = 1000000ULL, p++;
    else if (*p == 'G')
        mul = 1000000000ULL, p++;
    if (*p)
        return -1;
    if (v > UINT64_MAX / mul)
        return -1;
    *out = v * mul;
    return 0;
}

static int parse_u64(const char *s, uint64_t *out)
{
    uint64_t v = 0;
    if (!*s)
        return -1;
    for (const char *p = s; *p; p++) {
        if (*p < '0' || *p > '9')
            return -1;
        if (v > (UINT64_MAX - (uint64_t)(*p - '0')) / 10)
            return -1;
        v = v * 10 + (uint64_t)(*p - '0');
    }
    *out = v;
    return 0;
}

static int ends_with_ci(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    if (n < m)
        return 0;
    for (size_t i = 0; i < m; i++) {
        char a = s[n - m + i], b = suffix[i];
        if (a >= 'A' && a <= 'Z')
            a = (char)(a - 'A' + 'a');
        if (a != b)
            return 0;
    }
    return 1;
}

/* the companion text export of a .BIN, as tracewright's reader finds it */
static char *companion_name(const char *bin)
{
    size_t n = strlen(bin);
    char *s = malloc(n + 5);
    if (!s)
        die("out of memory");
    memcpy(s, bin, n + 1);
    if (ends_with_ci(s, ".txt.bin")) {
        s[n - 4] = 0;
    } else if (ends_with_ci(s, ".bin")) {
        memcpy(s + n - 4, ".txt", 5);
    } else {
        memcpy(s + n, ".txt", 5);
    }
    return s;
}

/* 1 if `path` is a text export with a TIMELINE section in its first MiB
   (a full export, perhaps a text1 benchmark input): not to be replaced by a
   .BIN's companion */
static int has_timeline(const char *path)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return 0;
    size_t n = 0;
    for (;;) {
        ssize_t r = read(fd, out_buf + n, OUT_CAP - 1 - n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        n += (size_t)r;
        if (n == OUT_CAP - 1)
            break;
    }
    close(fd);
    out_buf[n] = 0;
    static const char key[] = "* TIMELINE";
    for (size_t i = 0; i + sizeof key - 1 <= n; i++)
        if ((i == 0 || out_buf[i - 1] == '\n') && memcmp(out_buf + i, key, sizeof key - 1) == 0)
            return 1;
    return 0;
}

static int open_out(const char *path)
{
    if (strcmp(path, "-") == 0)
        return STDOUT_FILENO;
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) {
        fprintf(stderr, "gen: %s: %s\n", path, strerror(errno));
        exit(1);
    }
    return fd;
}

static void close_out(void)
{
    out_flush();
    if (out_fd != STDOUT_FILENO && close(out_fd) != 0) {
        fprintf(stderr, "gen: %s: %s\n", out_name, strerror(errno));
        exit(1);
    }
}

int main(int argc, char **argv)
{
    if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        usage(stdout);
        return 0;
    }
    if (argc != 5)
        bad_usage("expected FORMAT SIZE SEED OUTFILE");
    static const struct { const char *name; enum fmt f; } fmts[] = {
        {"rtl", F_RTL}, {"lms", F_LMS}, {"coreprofiler", F_CP},
        {"text1", F_TEXT1}, {"text1-bin", F_TEXT1BIN}, {"stacktrack", F_ST},
    };
    size_t k;
    for (k = 0; k < COUNT(fmts); k++)
        if (strcmp(argv[1], fmts[k].name) == 0)
            break;
    if (k == COUNT(fmts))
        bad_usage("unknown FORMAT (rtl, lms, coreprofiler, text1, text1-bin, stacktrack)");
    fmt = fmts[k].f;
    uint64_t size, seed;
    if (parse_size(argv[2], &size) != 0)
        bad_usage("SIZE must be a number of bytes with an optional suffix k, M or G");
    if (parse_u64(argv[3], &seed) != 0)
        bad_usage("SEED must be an unsigned decimal number");
    out_name = argv[4];
    if (fmt == F_TEXT1BIN && strcmp(out_name, "-") == 0)
        bad_usage("text1-bin needs an OUTFILE: its companion text export is written next to it");

    make_names();
    rng_seed(seed ^ 0x67656E2E63ULL);

    /* per-trace identities */
    pid = 2000 + rnd(30000);
    static const uint32_t tid_off[NTHREADS] = {0, 3, 7, 12};
    for (int t = 0; t < NTHREADS; t++) {
        tids[t] = pid + tid_off[t];
        tid_str_len[t] = (uint8_t)snprintf(tid_str[t], sizeof tid_str[t], "%u", (unsigned)tids[t]);
    }
    for (int i = 0; i < NNAMES; i++) {
        lms_id[i] = -1;
        cp_iid[i] = -1;
        st_entry_line[i] = (uint16_t)(20 + rnd(3000));
    }
    uint16_t pp[MAXDEPTH + 1]; /* push probability per depth, in 1/1000 */
    for (int d = 0; d <= MAXDEPTH; d++) {
        /* a pull towards depth 10, weaker beyond 12 so that the tail reaches 30 */
        int p = d <= 12 ? 500 + 40 * (10 - d) : 420;
        pp[d] = (uint16_t)(p > 950 ? 950 : p);
    }
    int has_messages = fmt == F_RTL || fmt == F_TEXT1 || fmt == F_TEXT1BIN || fmt == F_ST;
    if (fmt == F_LMS)
        nthreads = 1;

    char *companion = NULL;
    if (fmt == F_TEXT1BIN) {
        companion = companion_name(out_name);
        if (has_timeline(companion)) {
            fprintf(stderr, "gen: %s is a text export with a TIMELINE; not replacing it with the "
                            "companion of %s (choose another OUTFILE)\n", companion, out_name);
            exit(2);
        }
    }
    out_fd = open_out(out_name);

    /* header */
    switch (fmt) {
    case F_RTL: rtl_header(); break;
    case F_LMS: now = 100000 + rnd(200000); break; /* profiler creation to first marker */
    case F_CP: cp_header(); now = 5 + rnd(20); cp_next_cpu = 100; break;
    case F_TEXT1:
        text1_mapping(0, 0);
        PUT_LIT("* TIMELINE %HANDLE%,%EVENT%,%VALUE%,%TIME%,%CONTEXT%\n");
        now = 1000;
        break;
    case F_TEXT1BIN: now = 1000; break;
    case F_ST: st_prologue(); break;
    }

    /* the workload */
    int t = 0;
    uint64_t events = 0;
    while (written() < size) {
        /* one 64-bit draw per step: bits 0-3 the thread, 4-19 the clock step,
           20-35 message or not, 36-51 push or pop, 52-63 the callee */
        uint64_t r = rng_next();
        if (nthreads > 1 && (r & 3) == 0)
            t = (int)((r >> 2) & (NTHREADS - 1));
        tick((uint32_t)((((r >> 4) & 0xFFFF) * 1000) >> 16));
        events++;
        depth_hist[depth[t]]++;
        if (has_messages && ((((r >> 20) & 0xFFFF) * 1000) >> 16) < 50) {
            ev_message(t);
            continue;
        }
        int d = depth[t];
        if (d == 0 || (d < MAXDEPTH && ((((r >> 36) & 0xFFFF) * 1000) >> 16) < pp[d]))
            push(t, r >> 52);
        else
            pop(t);
    }
    /* close everything, thread by thread, innermost first */
    for (t = 0; t < nthreads; t++)
        while (depth[t] > 0) {
            tick(rnd(1000));
            pop(t);
        }
    /* trailer */
    if (fmt == F_RTL) {
        reserve();
        PUT_LIT("closing log file at ");
        put_u(now, 6);
    }
    close_out();

    if (fmt == F_TEXT1BIN) {
        out_name = companion;
        out_fd = open_out(companion);
        out_flushed = 0;
        text1_mapping(1, now);
        close_out();
        free(companion);
    }
    if (getenv("GEN_VERBOSE")) { /* the depth seen by the workload's steps */
        uint64_t sum = 0, acc = 0;
        int p10 = -1, p50 = -1, p90 = -1;
        for (int d = 0; d <= MAXDEPTH; d++)
            sum += depth_hist[d];
        for (int d = 0; d <= MAXDEPTH; d++) {
            acc += depth_hist[d];
            if (p10 < 0 && acc * 10 >= sum) p10 = d;
            if (p50 < 0 && acc * 2 >= sum) p50 = d;
            if (p90 < 0 && acc * 10 >= sum * 9) p90 = d;
        }
        fprintf(stderr, "gen: %llu workload steps; stack depth: 10%% %d, median %d, 90%% %d, max %d\n",
                (unsigned long long)events, p10, p50, p90, max_depth_seen);
    }
    return 0;
}
