/*
 * The format registry: every format the library knows, in the order
 * `tracewright formats` lists them and detection breaks ties.
 *
 * Adding a format: write src/formats/<name>.c ending in
 * TW_FORMAT_EXPORT(<name>, <descriptor>) and add one X(<name>) line below.
 */
#include "formats.h"

#define TW_FORMATS(X) \
    X(rtl)            \
    X(lms)            \
    X(coreprofiler)   \
    X(text1)          \
    X(text1_bin)      \
    X(stacktrack)     \
    X(stacktrack_xml) \
    X(chrome)         \
    X(ctf)            \
    X(folded)         \
    X(svg)            \
    X(speedscope)     \
    X(jsonl)

#define DECLARE(name) const tw_format *tw_format_##name(void);
TW_FORMATS(DECLARE)
#undef DECLARE

#define ENTRY(name) tw_format_##name,
static const tw_format *(*const table[])(void) = {TW_FORMATS(ENTRY)};
#undef ENTRY

size_t tw_format_count(void) { return sizeof table / sizeof table[0]; }

const tw_format *tw_format_at(size_t i) { return i < tw_format_count() ? table[i]() : NULL; }
