/*
 * A small strict JSON parser producing a tree, for documents tracewright
 * writes itself and reads back (statistics reports).  Numbers must be
 * integers from INT64_MIN to UINT64_MAX.  Internal to the library.
 */
#ifndef TW_CORE_JSON_H
#define TW_CORE_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum { TW_JNULL, TW_JBOOL, TW_JINT, TW_JSTR, TW_JARR, TW_JOBJ } tw_jtype;

typedef struct tw_jval tw_jval;
struct tw_jval {
    tw_jtype type;
    uint64_t line, col;     /* 1-based position of the value */
    bool b;                 /* TW_JBOOL */
    int64_t i;              /* TW_JINT, when it fits (see big) */
    uint64_t u;             /* TW_JINT, when not negative */
    bool big;               /* TW_JINT above INT64_MAX: only `u` holds it */
    char *s;                /* TW_JSTR: decoded, NUL-terminated */
    size_t len;             /* TW_JSTR bytes; TW_JARR / TW_JOBJ items */
    tw_jval *items;         /* TW_JARR: values; TW_JOBJ: values */
    char **keys;            /* TW_JOBJ: keys, parallel to items */
};

/* Parse a whole document.  NULL on error, with a message and its 1-based
 * line and column. */
tw_jval *tw_json_parse(const char *text, size_t len, char *err, size_t errlen, uint64_t *line,
                       uint64_t *col);
void tw_json_free(tw_jval *v);
/* Member of an object by key, or NULL. */
const tw_jval *tw_json_get(const tw_jval *obj, const char *key);

#endif
