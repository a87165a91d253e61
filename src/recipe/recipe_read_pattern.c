/* recipe_read_pattern.c - readers of a benchmark's output patterns:
 * "patterns" (regex, captures, restrictions) with what each match emits
 * (metric ids, unit, value capture, scale, conversion), and "cpu_load",
 * the metric every invocation adds. Applying them to output is
 * recipe_parse.c's job. */
#include "config.h"
#include "recipe/recipe_impl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"

/* --- loading: patterns ---------------------------------------------------- */

/* "scale": a number, a template naming a variable (field) or parameter
 * whose value is a number ("{format.bits}"), or a list of these, all
 * multiplied. Templates are expanded per match. */
static void load_scale(struct ld *l, const struct recipe_bench *b, const json_t *sc,
                       const char *path, struct emit *e)
{
    if (!sc)
        return;
    char *p = xasprintf("%s.scale", path);
    json_t *list = json_is_array(sc) ? json_incref((json_t *)sc) : json_pack("[O]", sc);
    if (json_array_size(list) == 0)
        rcp_bad(l, p, "must not be an empty list");
    e->factors = xcalloc(json_array_size(list) + 1, sizeof *e->factors);
    size_t i;
    json_t *v;
    json_array_foreach(list, i, v) {
        char *pi = json_is_array(sc) ? xasprintf("%s[%zu]", p, i) : xstrdup(p);
        double d;
        if (json_is_string(v)) {
            if (rcp_tmpl_add(l, v, pi, e->factors, &e->nfactors))
                rcp_tmpl_check(l, b, &e->factors[e->nfactors - 1], NULL, pi);
        } else if (!json_is_number(v)) {
            rcp_bad(l, pi, "must be a number or a template string, not %s", rcp_type_name(v));
        } else if (rcp_get_num(l, v, pi, &d) && !(d != 0 && isfinite(d))) {
            rcp_bad(l, pi, "must be a finite non-zero number");
        } else {
            e->scale *= d;
        }
        free(pi);
    }
    json_decref(list);
    free(p);
}

/* "metric": "template" or "metrics": ["template" ...] of an emit. */
static void load_metric_ids(struct ld *l, const struct recipe_bench *b,
                            const struct pattern *pat, const json_t *o, const char *path,
                            struct emit *e)
{
    json_t *m = json_object_get(o, "metric");
    json_t *ms = json_object_get(o, "metrics");
    if (m && ms)
        rcp_bad(l, path, "give \"metric\" or \"metrics\", not both");
    json_t *list = json_array();
    if (m)
        json_array_append(list, m);
    else if (json_is_array(ms))
        json_array_extend(list, ms);
    else
        rcp_bad(l, path, "\"metrics\" must be an array of strings, not %s", rcp_type_name(ms));
    e->metrics = xcalloc(json_array_size(list) + 1, sizeof *e->metrics);
    size_t i;
    json_t *v;
    json_array_foreach(list, i, v) {
        char *p = m ? xasprintf("%s.metric", path) : xasprintf("%s.metrics[%zu]", path, i);
        if (rcp_tmpl_add(l, v, p, e->metrics, &e->nmetrics))
            rcp_tmpl_check(l, b, &e->metrics[e->nmetrics - 1], pat, p);
        free(p);
    }
    json_decref(list);
}

/* "value": the capture with the number (a name or a number; absent: the
 * one named "value", else the first). */
static void load_value_group(struct ld *l, const struct pattern *pat, const json_t *val,
                             const char *path, struct emit *e)
{
    uint32_t ngroups = 0;
    pcre2_pattern_info(pat->re, PCRE2_INFO_CAPTURECOUNT, &ngroups);
    char *pv = xasprintf("%s.value", path);
    if (!val) {
        int n = pcre2_substring_number_from_name(pat->re, (PCRE2_SPTR) "value");
        e->group = n >= 0 ? n : 1;
        if (ngroups < 1)
            rcp_bad(l, pv, "the regex has no capture for the value");
    } else if (json_is_string(val)) {
        int n = pcre2_substring_number_from_name(pat->re, (PCRE2_SPTR)json_string_value(val));
        if (n < 0)
            rcp_bad(l, pv, "the regex has no capture named \"%s\"", json_string_value(val));
        e->group = n;
    } else if (json_is_integer(val)) {
        json_int_t n = json_integer_value(val);
        if (n < 1 || n > (json_int_t)ngroups)
            rcp_bad(l, pv, "capture %lld does not exist (the regex has %u)", (long long)n,
                (unsigned)ngroups);
        e->group = (int)n;
    } else {
        rcp_bad(l, pv, "must be a capture name or number, not %s", rcp_type_name(val));
    }
    free(pv);
}

/* What a match of the pattern gives: one number under metric ids. */
static void load_emit(struct ld *l, struct recipe_bench *b, struct pattern *pat, const json_t *o,
                      const char *path, struct emit *e)
{
    memset(e, 0, sizeof *e);
    e->scale = 1;
    e->summary = b->summary;
    e->group = -1;
    if (!json_object_get(o, "metric") && !json_object_get(o, "metrics")) {
        rcp_bad(l, path, "missing \"metric\" (or \"metrics\")");
        return;
    }
    load_metric_ids(l, b, pat, o, path, e);
    e->unit = rcp_get_str(l, o, "unit", path, true);
    e->row = rcp_opt_tmpl(l, b, o, "row", pat, path);
    e->column = rcp_opt_tmpl(l, b, o, "column", pat, path);
    e->table = rcp_opt_tmpl(l, b, o, "table", pat, path);
    rcp_opt_summary(l, o, path, &e->summary);
    load_scale(l, b, json_object_get(o, "scale"), path, e);
    char *conv = rcp_get_str(l, o, "convert", path, false);
    if (conv && strcmp(conv, "duration") == 0)
        e->duration = true;
    else if (conv)
        rcp_bad_member(l, path, "convert", "unknown conversion \"%s\" (duration)", conv);
    free(conv);
    json_t *cb = json_object_get(o, "cpu_bound");
    if (cb && !json_is_boolean(cb))
        rcp_bad_member(l, path, "cpu_bound", "must be true or false");
    e->cpu_bound = json_is_true(cb);
    json_t *mn = json_object_get(o, "min");
    if (mn) {
        char *p = xasprintf("%s.min", path);
        e->has_min = rcp_get_num(l, mn, p, &e->min);
        free(p);
    }
    load_value_group(l, pat, json_object_get(o, "value"), path, e);
}

static void load_map_entry(const struct bctx *c, void *into, const char *key, const json_t *v,
                           const char *path)
{
    struct capture *cp = into;
    char *to = rcp_str(c->l, v, path);
    if (!to)
        return;
    cp->from[cp->n] = xstrdup(key);
    cp->to[cp->n++] = to;
}

/* A capture: {"map": {"from": "to" ...}} or {"values": [accepted ...]}. */
static void load_capture(const struct bctx *c, void *into, const char *name, const json_t *v,
                         const char *path)
{
    struct pattern *pat = into;
    if (!rcp_re_has_group(pat->re, name)) {
        rcp_bad(c->l, path, "the regex has no capture named \"%s\"", name);
        return;
    }
    json_t *map = json_is_object(v) ? json_object_get(v, "map") : NULL;
    json_t *vals = json_is_object(v) ? json_object_get(v, "values") : NULL;
    if (!json_is_object(v) || (!map == !vals)) {
        rcp_bad(c->l, path, "must be {\"map\": {...}} or {\"values\": [...]}");
        return;
    }
    struct capture *cp = &pat->caps[pat->ncaps++];
    cp->name = xstrdup(name);
    char *p = xasprintf("%s.%s", path, map ? "map" : "values");
    if (map && !json_is_object(map)) {
        rcp_bad(c->l, path, "\"map\" must be an object of strings");
    } else if (map) {
        cp->from = xcalloc(json_object_size(map) + 1, sizeof *cp->from);
        cp->to = xcalloc(json_object_size(map) + 1, sizeof *cp->to);
        rcp_each_member(c, map, p, load_map_entry, cp);
    } else {
        rcp_load_strings(c->l, vals, p, &cp->from, &cp->n);
    }
    free(p);
}

static void load_emit_entry(const struct bctx *c, void *into, const json_t *v, const char *path)
{
    static const char *const known[] = { "metric", "metrics", "unit", "value", "scale",
                                         "convert", "min", "summary", "cpu_bound", "row",
                                         "column", "table", "comment", NULL };
    struct pattern *pat = into;
    if (!rcp_want(c->l, v, JSON_OBJECT, path, "an object"))
        return;
    rcp_check_keys(c->l, v, path, known, sizeof *known);
    load_emit(c->l, c->b, pat, v, path, &pat->emits[pat->nemits++]);
}

/* The pattern's "only", "captures", "requires" (each at its own path). */
static void load_pattern_limits(const struct bctx *c, const json_t *o, const char *path,
                                struct pattern *pat)
{
    char *po = xasprintf("%s.only", path);
    rcp_load_only(c, json_object_get(o, "only"), po, &pat->only);
    free(po);
    char *pc = xasprintf("%s.captures", path);
    json_t *caps = json_object_get(o, "captures");
    if (caps && rcp_want(c->l, caps, JSON_OBJECT, pc, "an object")) {
        pat->caps = xcalloc(json_object_size(caps) + 1, sizeof *pat->caps);
        rcp_each_member(c, caps, pc, load_capture, pat);
    }
    free(pc);
    char *pq = xasprintf("%s.requires", path);
    rcp_load_strings(c->l, json_object_get(o, "requires"), pq, &pat->requires, &pat->nrequires);
    rcp_check_params_named(c->l, c->b, pat->requires, pat->nrequires, pq);
    free(pq);
}

bool rcp_load_pattern(const struct bctx *c, void *slot, const json_t *o, const char *path)
{
    static const char *const known[] = { "regex", "multi", "metric", "metrics", "unit", "value",
                                         "scale", "convert", "min", "summary", "emit", "captures",
                                         "requires", "cpu_bound", "only", "row", "column",
                                         "table", "comment", NULL };
    struct pattern *pat = slot;
    memset(pat, 0, sizeof *pat);
    if (!rcp_want(c->l, o, JSON_OBJECT, path, "an object"))
        return true;
    rcp_check_keys(c->l, o, path, known, sizeof *known);
    pat->re = rcp_regex_member(c->l, o, path);
    if (!pat->re)
        return true;
    json_t *multi = json_object_get(o, "multi");
    if (multi && !json_is_boolean(multi))
        rcp_bad_member(c->l, path, "multi", "must be true or false, not %s", rcp_type_name(multi));
    pat->multi = json_is_true(multi);
    load_pattern_limits(c, o, path, pat);
    json_t *emit = json_object_get(o, "emit");
    char *pe = xasprintf("%s.emit", path);
    if (!emit) {
        pat->emits = xcalloc(1, sizeof *pat->emits);
        load_emit(c->l, c->b, pat, o, path, &pat->emits[pat->nemits++]);
    } else if (!json_is_array(emit) || json_array_size(emit) == 0) {
        rcp_bad(c->l, pe, "must be a non-empty array of objects");
    } else {
        pat->emits = xcalloc(json_array_size(emit), sizeof *pat->emits);
        rcp_each_elem(c, emit, pe, load_emit_entry, pat);
    }
    free(pe);
    return true;
}

/* --- loading: the CPU load of every invocation ---------------------------- */

void rcp_read_cpu_load(const struct bctx *c, const json_t *o, const char *path)
{
    static const char *const known[] = { "metric", "unit", "scope", "row", "column",
                                         "table", "summary", "comment", NULL };
    struct ld *l = c->l;
    struct recipe_bench *b = c->b;
    struct emit *e = &b->cpu_load;
    memset(e, 0, sizeof *e);
    e->summary = b->summary;
    if (!rcp_want(l, o, JSON_OBJECT, path, "an object"))
        return;
    rcp_check_keys(l, o, path, known, sizeof *known);
    json_t *m = json_object_get(o, "metric");     /* parsed last, as before */
    char *id = rcp_get_str(l, o, "metric", path, true);
    e->unit = rcp_get_str(l, o, "unit", path, false);
    if (!e->unit)
        e->unit = xstrdup("%");
    char *scope = rcp_get_str(l, o, "scope", path, false);
    b->cpu_scope = CPULOAD_SYSTEM;
    if (scope && strcmp(scope, "process") == 0)
        b->cpu_scope = CPULOAD_PROCESS;
    else if (scope && strcmp(scope, "system") != 0)
        rcp_bad_member(l, path, "scope", "unknown scope \"%s\" (system, process)", scope);
    free(scope);
    rcp_opt_summary(l, o, path, &e->summary);
    e->row = rcp_opt_tmpl(l, b, o, "row", NULL, path);
    e->column = rcp_opt_tmpl(l, b, o, "column", NULL, path);
    e->table = rcp_opt_tmpl(l, b, o, "table", NULL, path);
    if (id) {
        e->metrics = xcalloc(1, sizeof *e->metrics);
        char *pm = xasprintf("%s.metric", path);
        if (rcp_tmpl_add(l, m, pm, e->metrics, &e->nmetrics)) {
            rcp_tmpl_check(l, b, &e->metrics[0], NULL, pm);
            b->has_cpu_load = true;
        }
        free(pm);
        free(id);
    }
}
