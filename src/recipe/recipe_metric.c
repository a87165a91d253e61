/* recipe_metric.c - the metrics a loaded benchmark derives from its
 * patterns: every metric id each invocation can produce, expanded from
 * the metric templates over variables and capture values, with its unit,
 * summary and guide row, column and table (one unit per id). */
#include "config.h"
#include "recipe/recipe_impl.h"

#include <stdlib.h>
#include <string.h>

#include "common/util.h"

/* --- derived data: the metrics of every invocation ----------------------- */

void rcp_derived_free(struct recipe_bench *b)
{
    for (size_t i = 0; i < b->nmetrics; i++) {
        free(b->metrics[i].id);
        free(b->metrics[i].unit);
        free(b->metrics[i].row);
        free(b->metrics[i].column);
        free(b->metrics[i].table);
    }
    free(b->metrics);
    if (b->inv_expect)
        for (size_t i = 0; i < b->ninv; i++)
            free(b->inv_expect[i]);
    free(b->inv_expect);
    free(b->inv_nexpect);
}

static size_t metric_add(struct ld *l, struct recipe_bench *b, const char *id, const char *unit,
                         enum summary summary, bool cpu_bound, char *row, char *column,
                         char *table, const char *path)
{
    for (size_t i = 0; i < b->nmetrics; i++)
        if (strcmp(b->metrics[i].id, id) == 0) {
            if (strcmp(b->metrics[i].unit, unit) != 0)
                rcp_bad(l, path, "metric \"%s\" has unit \"%s\" here and \"%s\" elsewhere", id,
                    unit, b->metrics[i].unit);
            free(row);
            free(column);
            free(table);
            return i;
        }
    xgrow(&b->metrics, &b->capmetrics, b->nmetrics + 1, sizeof *b->metrics);
    b->metrics[b->nmetrics] = (struct recipe_metric){ xstrdup(id), xstrdup(unit), summary,
                                                      cpu_bound, row, column, table };
    return b->nmetrics++;
}

/* Capture references of a metric template, in order, without repeats. */
static size_t tmpl_captures(const struct tmpl *t, const struct pattern *pat,
                            const struct capture **out, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < t->nsegs; i++) {
        if (!t->segs[i].ref)
            continue;
        const struct capture *c = rcp_find_cap(pat, t->segs[i].text);
        if (!c)
            continue;
        bool seen = false;
        for (size_t j = 0; j < n; j++)
            seen |= out[j] == c;
        if (!seen && n < max)
            out[n++] = c;
    }
    return n;
}

static void expect_add(struct recipe_bench *b, size_t inv, size_t *cap, size_t metric,
                       size_t pattern)
{
    for (size_t i = 0; i < b->inv_nexpect[inv]; i++)
        if (b->inv_expect[inv][i].metric == metric)
            return;
    xgrow(&b->inv_expect[inv], cap, b->inv_nexpect[inv] + 1, sizeof **b->inv_expect);
    b->inv_expect[inv][b->inv_nexpect[inv]++] = (struct expect){ metric, pattern };
}


void rcp_derive_metrics(struct ld *l, struct recipe_bench *b, const char *path)
{
    b->ninv = 1;
    for (size_t k = 0; k < b->nvars; k++) {
        b->ninv *= b->vars[k].nvalues;
        if (b->ninv > 10000) {
            rcp_bad(l, path, "more than 10000 invocations");
            return;
        }
    }
    b->inv_expect = xcalloc(b->ninv, sizeof *b->inv_expect);
    b->inv_nexpect = xcalloc(b->ninv, sizeof *b->inv_nexpect);
    for (size_t inv = 0; inv < b->ninv; inv++) {
        size_t cap = 0;
        for (size_t pi = 0; pi < b->npats; pi++) {
            const struct pattern *pat = &b->pats[pi];
            if (!rcp_only_applies(b, &pat->only, inv))
                continue;
            for (size_t ei = 0; ei < pat->nemits; ei++) {
                const struct emit *e = &pat->emits[ei];
                for (size_t mi = 0; mi < e->nmetrics; mi++) {
                    const struct capture *cs[MAX_TMPL_CAPS];
                    size_t nc = tmpl_captures(&e->metrics[mi], pat, cs, MAX_TMPL_CAPS);
                    size_t combos = 1;
                    for (size_t c = 0; c < nc; c++)
                        combos *= cs[c]->n ? cs[c]->n : 1;
                    for (size_t combo = 0; combo < combos && !l->bad; combo++) {
                        const char *names[MAX_TMPL_CAPS], *vals[MAX_TMPL_CAPS];
                        size_t rest = combo;
                        for (size_t c = nc; c-- > 0;) {
                            size_t idx = cs[c]->n ? rest % cs[c]->n : 0;
                            rest /= cs[c]->n ? cs[c]->n : 1;
                            names[c] = cs[c]->name;
                            vals[c] = cs[c]->n ? (cs[c]->to ? cs[c]->to[idx] : cs[c]->from[idx])
                                               : "";
                        }
                        struct scope sc = { b, inv, NULL, names, vals, nc };
                        char *id = rcp_tmpl_expand(&e->metrics[mi], &sc, 0);
                        char *p = xasprintf("%s.patterns[%zu]", path, pi);
                        if (!id) {
                            /* a variable field this invocation lacks: no such metric here */
                        } else if (!*id || strpbrk(id, " \t\r\n")) {
                            rcp_bad(l, p, "metric id \"%s\" is empty or has white space", id);
                        } else {
                            char *row = e->row ? rcp_tmpl_expand(e->row, &sc, 0) : NULL;
                            char *col = e->column ? rcp_tmpl_expand(e->column, &sc, 0) : NULL;
                            char *tab = e->table ? rcp_tmpl_expand(e->table, &sc, 0) : NULL;
                            size_t m = metric_add(l, b, id, e->unit ? e->unit : "",
                                                  e->summary, e->cpu_bound, row, col, tab, p);
                            expect_add(b, inv, &cap, m, pi);
                        }
                        free(p);
                        free(id);
                    }
                }
            }
        }
        if (b->has_cpu_load) {
            const struct emit *e = &b->cpu_load;
            struct scope sc = { b, inv, NULL, NULL, NULL, 0 };
            char *id = rcp_tmpl_expand(&e->metrics[0], &sc, 0);
            char *p = xasprintf("%s.cpu_load.metric", path);
            if (id && (!*id || strpbrk(id, " \t\r\n"))) {
                rcp_bad(l, p, "metric id \"%s\" is empty or has white space", id);
            } else if (id) {
                char *row = e->row ? rcp_tmpl_expand(e->row, &sc, 0) : NULL;
                char *col = e->column ? rcp_tmpl_expand(e->column, &sc, 0) : NULL;
                char *tab = e->table ? rcp_tmpl_expand(e->table, &sc, 0) : NULL;
                size_t m = metric_add(l, b, id, e->unit, e->summary, false, row, col, tab, p);
                expect_add(b, inv, &cap, m, CPU_LOAD_PATTERN);
            }
            free(p);
            free(id);
        }
    }
}
