/*
 * sarif-check FILE: checks that FILE is a SARIF 2.1.0 log with the structure
 * GitHub code scanning requires of an upload: "version" 2.1.0, "runs" with
 * "tool.driver" (a name and rules with unique ids), and results whose
 * ruleId names a rule (ruleIndex pointing at it), whose level is known,
 * with message.text and locations[].physicalLocation (artifactLocation.uri
 * and region.startLine >= 1); a columnKind, when there is one, is one of
 * the two SARIF knows.  Prints "ok: ..." or the first problem.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/json.h"

static int fail(const char *what, size_t i) {
    printf("not valid: %s (result %zu)\n", what, i);
    return 1;
}

static const tw_jval *get(const tw_jval *v, const char *key, tw_jtype type) {
    const tw_jval *m = v && v->type == TW_JOBJ ? tw_json_get(v, key) : NULL;
    return m && m->type == type ? m : NULL;
}

int main(int argc, char **argv) {
    if (argc != 2) return 2;
    FILE *f = fopen(argv[1], "rb");
    if (!f) return 2;
    static char buf[1 << 22];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    char err[128];
    uint64_t line, col;
    tw_jval *doc = tw_json_parse(buf, n, err, sizeof err, &line, &col);
    if (!doc) {
        printf("not JSON: %s at %llu:%llu\n", err, (unsigned long long)line,
               (unsigned long long)col);
        return 1;
    }
    int rc = 0;
    const tw_jval *ver = get(doc, "version", TW_JSTR), *runs = get(doc, "runs", TW_JARR);
    size_t nres = 0, nrules = 0;
    if (!ver || strcmp(ver->s, "2.1.0") != 0) rc = fail("version is not \"2.1.0\"", 0);
    else if (!runs || !runs->len) rc = fail("no runs", 0);
    for (size_t r = 0; !rc && r < runs->len; r++) {
        const tw_jval *run = &runs->items[r];
        const tw_jval *driver = get(get(run, "tool", TW_JOBJ), "driver", TW_JOBJ);
        const tw_jval *rules = get(driver, "rules", TW_JARR);
        const tw_jval *results = get(run, "results", TW_JARR);
        const tw_jval *ck = run->type == TW_JOBJ ? tw_json_get(run, "columnKind") : NULL;
        if (ck && (ck->type != TW_JSTR ||
                   (strcmp(ck->s, "utf16CodeUnits") && strcmp(ck->s, "unicodeCodePoints"))))
            rc = fail("columnKind is neither utf16CodeUnits nor unicodeCodePoints", 0);
        else if (!driver || !get(driver, "name", TW_JSTR)) rc = fail("no tool.driver.name", 0);
        else if (!rules) rc = fail("no tool.driver.rules", 0);
        else if (!results) rc = fail("no results", 0);
        for (size_t i = 0; !rc && i < rules->len; i++) {
            const tw_jval *id = get(&rules->items[i], "id", TW_JSTR);
            if (!id) rc = fail("a rule without an id", i);
            for (size_t j = 0; !rc && j < i; j++)
                if (strcmp(get(&rules->items[j], "id", TW_JSTR)->s, id->s) == 0)
                    rc = fail("two rules with one id", i);
        }
        nrules += rc ? 0 : rules->len;
        for (size_t i = 0; !rc && i < results->len; i++) {
            const tw_jval *res = &results->items[i];
            const tw_jval *rid = get(res, "ruleId", TW_JSTR), *idx = get(res, "ruleIndex", TW_JINT);
            const tw_jval *level = get(res, "level", TW_JSTR);
            const tw_jval *locs = get(res, "locations", TW_JARR);
            if (!rid) {
                rc = fail("no ruleId", i);
                break;
            }
            if (!idx || idx->i < 0 || (size_t)idx->i >= rules->len ||
                strcmp(get(&rules->items[idx->i], "id", TW_JSTR)->s, rid->s) != 0)
                rc = fail("ruleIndex does not point at the ruleId", i);
            else if (!level || (strcmp(level->s, "error") && strcmp(level->s, "warning") &&
                                strcmp(level->s, "note") && strcmp(level->s, "none")))
                rc = fail("no known level", i);
            else if (!get(get(res, "message", TW_JOBJ), "text", TW_JSTR))
                rc = fail("no message.text", i);
            else if (!locs || !locs->len)
                rc = fail("no locations", i);
            for (size_t k = 0; !rc && k < locs->len; k++) {
                const tw_jval *pl = get(&locs->items[k], "physicalLocation", TW_JOBJ);
                const tw_jval *sl = get(get(pl, "region", TW_JOBJ), "startLine", TW_JINT);
                if (!get(get(pl, "artifactLocation", TW_JOBJ), "uri", TW_JSTR))
                    rc = fail("no physicalLocation.artifactLocation.uri", i);
                else if (!sl || sl->i < 1)
                    rc = fail("no physicalLocation.region.startLine", i);
            }
        }
        nres += rc ? 0 : results->len;
    }
    if (!rc) printf("ok: SARIF 2.1.0, %zu results, %zu rules\n", nres, nrules);
    tw_json_free(doc);
    return rc;
}
