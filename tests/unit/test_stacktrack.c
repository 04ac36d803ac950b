/* StackTrack reader: what the event API promises about an event's data. */
#include <stdarg.h>

#include "harness.h"

/* Append one 24-byte little-endian buffer: flags, pid, sequence, then the
 * payload's fields (`nf` pairs of width in bytes and value). */
static size_t buf24(unsigned char *b, size_t at, unsigned flags, unsigned seq, int nf, ...) {
    unsigned char *p = b + at;
    memset(p, 0, 24);
    uint64_t head[3][2] = {{2, flags}, {2, 5}, {4, seq}};
    size_t o = 0;
    for (int i = 0; i < 3; i++)
        for (unsigned k = 0; k < head[i][0]; k++) p[o++] = (unsigned char)(head[i][1] >> (8 * k));
    va_list ap;
    va_start(ap, nf);
    for (int i = 0; i < nf; i++) {
        int w = va_arg(ap, int);
        uint64_t v = va_arg(ap, uint64_t);
        for (int k = 0; k < w; k++) p[o++] = (unsigned char)(v >> (8 * k));
    }
    va_end(ap);
    return at + 24;
}

#define U(v) ((uint64_t)(v))

/* An event's data stay valid until the next call that produces an event
 * (event.h), also when that call ends the input: here the last HIT's
 * checkpoint is defined again by the last buffer, and the event's
 * attributes (its file and line) point into the checkpoint. */
void test_stacktrack_event_outlives_eof(void) {
    unsigned char b[24 * 12];
    size_t n = 0;
    n = buf24(b, n, 0x0004, 0, 5, 4, U(0x12345678), 4, U(256), 1, U(16), 1, U(24), 1, U(8));
    n = buf24(b, n, 0x0007, 0, 2, 8, U(1000000000), 2, U(32));       /* TIMETYPE */
    n = buf24(b, n, 0x0101, 1, 3, 2, U(1), 2, U(0), 2, U(0));        /* FLOC 1 + INFO */
    n = buf24(b, n, 0x02FF, 1, 1, 3, U(0x632e70));                   /* "p.c" */
    n = buf24(b, n, 0x0103, 1, 5, 2, U(1), 2, U(3), 2, U(10), 2, U(0), 2, U(1)); /* SLOC */
    n = buf24(b, n, 0x02FF, 1, 1, 5, U(0x726574756f));               /* "outer" */
    n = buf24(b, n, 0x0000, 2, 3, 8, U(100), 2, U(1), 2, U(7));      /* HIT */
    n = buf24(b, n, 0x0000, 3, 3, 8, U(200), 2, U(1), 2, U(7));      /* HIT */
    n = buf24(b, n, 0x0003, 4, 5, 2, U(1), 2, U(3), 2, U(20), 2, U(0), 2, U(1)); /* SLOC again */
    tu_diags d;
    tu_diags_init(&d);
    tw_strtab *st = tw_strtab_new();
    tw_input *in;
    tw_reader *r;
    CHECK(tw_input_open_mem(b, n, "t", NULL, &d.sink, &in) == 0);
    CHECK(tw_reader_open(tw_format_find("stacktrack"), in, st, &d.sink, NULL, &r) == TW_OK);
    tw_event e, last = {0};
    int rc, events = 0;
    while ((rc = tw_reader_next(r, &e)) == TW_OK) {
        last = e;
        events++;
    }
    CHECK_EQ_I(rc, TW_EOF);
    CHECK_EQ_I(events, 2);
    CHECK_EQ_I(last.ts, 200); /* the second HIT */
    CHECK_STR(last.name->s, "outer");
    CHECK_EQ_U(last.nattrs, 2);
    if (last.nattrs == 2) {
        CHECK_STR(last.attrs[0].key->s, "file");
        CHECK_MEM(last.attrs[0].s, last.attrs[0].slen, "p.c");
        CHECK_STR(last.attrs[1].key->s, "line");
        CHECK_EQ_I(last.attrs[1].i, 10);
    }
    tw_reader_close(r);
    tw_input_close(in);
    tw_strtab_free(st);
}
