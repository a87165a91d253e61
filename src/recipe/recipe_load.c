/* recipe_load.c - reads recipe files (schema: benches/tools/README.md):
 * validation with "tools/FILE.json: JSON.path: message" diagnostics, the
 * metrics each invocation produces, freeing and the accessors. */
#include "config.h"
#include "recipe/recipe_impl.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "data/datadir.h"
#include "common/util.h"

/* --- small helpers ------------------------------------------------------ */

static void strv_free(char **v, size_t n)
{
    if (!v)
        return;
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

void recipe_strv_free(char **v)
{
    if (!v)
        return;
    for (char **p = v; *p; p++)
        free(*p);
    free(v);
}

static void only_free(struct only *o)
{
    for (size_t i = 0; i < o->n; i++)
        strv_free(o->values[i], o->nvalues[i]);
    free(o->var);
    free(o->values);
    free(o->nvalues);
}

static void argv_tmpl_free(struct argv_tmpl *a)
{
    for (size_t i = 0; i < a->nargs; i++) {
        for (size_t j = 0; j < a->args[i].nwords; j++)
            rcp_tmpl_free(&a->args[i].words[j]);
        free(a->args[i].words);
    }
    free(a->args);
}

static void bench_free(struct recipe_bench *b)
{
    if (!b)
        return;
    free(b->file);
    free(b->tool);
    free(b->name);
    free(b->section);
    free(b->description);
    free(b->provided_by);
    for (size_t i = 0; i < b->nbins; i++) {
        free(b->bins[i].name);
        argv_tmpl_free(&b->bins[i].args);
    }
    free(b->bins);
    strv_free(b->search, b->nsearch);
    argv_tmpl_free(&b->args);
    argv_tmpl_free(&b->setup);
    argv_tmpl_free(&b->teardown);
    for (size_t i = 0; i < b->nenv; i++) {
        free(b->env[i].name);
        rcp_tmpl_free(b->env[i].value);
        free(b->env[i].value);
    }
    free(b->env);
    rcp_tmpl_free(b->cwd);
    free(b->cwd);
    for (size_t i = 0; i < b->nvars; i++) {
        struct var *v = &b->vars[i];
        for (size_t j = 0; j < v->nvalues; j++) {
            free(v->values[j].value);
            strv_free(v->values[j].fnames, v->values[j].nfields);
            for (size_t k = 0; k < v->values[j].nfields; k++)
                rcp_tmpl_free(&v->values[j].fvalues[k]);
            free(v->values[j].fvalues);
        }
        free(v->values);
        free(v->name);
    }
    free(b->vars);
    for (size_t i = 0; i < b->nparams; i++) {
        free(b->params[i].name);
        free(b->params[i].full);
        free(b->params[i].quick);
        free(b->params[i].missing);
        free(b->params[i].option);
    }
    free(b->params);
    for (size_t i = 0; i < b->npats; i++) {
        struct pattern *p = &b->pats[i];
        pcre2_code_free(p->re);
        for (size_t j = 0; j < p->nemits; j++) {
            for (size_t k = 0; k < p->emits[j].nmetrics; k++)
                rcp_tmpl_free(&p->emits[j].metrics[k]);
            free(p->emits[j].metrics);
            free(p->emits[j].unit);
            rcp_tmpl_free(p->emits[j].row);
            free(p->emits[j].row);
            rcp_tmpl_free(p->emits[j].column);
            free(p->emits[j].column);
            rcp_tmpl_free(p->emits[j].table);
            free(p->emits[j].table);
            for (size_t k = 0; k < p->emits[j].nfactors; k++)
                rcp_tmpl_free(&p->emits[j].factors[k]);
            free(p->emits[j].factors);
        }
        free(p->emits);
        for (size_t j = 0; j < p->ncaps; j++) {
            free(p->caps[j].name);
            strv_free(p->caps[j].from, p->caps[j].n);
            strv_free(p->caps[j].to, p->caps[j].to ? p->caps[j].n : 0);
        }
        free(p->caps);
        strv_free(p->requires, p->nrequires);
        only_free(&p->only);
    }
    free(b->pats);
    strv_free(b->requires, b->nrequires);
    for (size_t k = 0; k < b->cpu_load.nmetrics; k++)
        rcp_tmpl_free(&b->cpu_load.metrics[k]);
    free(b->cpu_load.metrics);
    free(b->cpu_load.unit);
    rcp_tmpl_free(b->cpu_load.row);
    free(b->cpu_load.row);
    rcp_tmpl_free(b->cpu_load.column);
    free(b->cpu_load.column);
    rcp_tmpl_free(b->cpu_load.table);
    free(b->cpu_load.table);
    rcp_tmpl_free(b->scratch);
    free(b->scratch);
    for (size_t i = 0; i < b->nerrs; i++) {
        pcre2_code_free(b->errs[i].re);
        free(b->errs[i].reason);
    }
    free(b->errs);
    for (size_t i = 0; i < b->nfiles; i++) {
        free(b->files[i].name);
        free(b->files[i].content);
        rcp_tmpl_free(b->files[i].link);
        free(b->files[i].link);
    }
    free(b->files);
    for (size_t i = 0; i < b->nneeds; i++) {
        free(b->needs[i].path);
        free(b->needs[i].reason);
        only_free(&b->needs[i].only);
    }
    free(b->needs);
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
    free(b);
}

void recipe_set_free(struct recipe_set *set)
{
    if (!set)
        return;
    for (size_t i = 0; i < set->n; i++)
        bench_free(set->benches[i]);
    free(set->benches);
    free(set);
}

size_t recipe_count(const struct recipe_set *set)
{
    return set ? set->n : 0;
}

const struct recipe_bench *recipe_get(const struct recipe_set *set, size_t i)
{
    return set && i < set->n ? set->benches[i] : NULL;
}

const struct recipe_bench *recipe_find(const struct recipe_set *set, const char *name)
{
    for (size_t i = 0; set && name && i < set->n; i++)
        if (strcmp(set->benches[i]->name, name) == 0)
            return set->benches[i];
    return NULL;
}

const char *recipe_name(const struct recipe_bench *b) { return b->name; }
const char *recipe_tool(const struct recipe_bench *b) { return b->tool; }
const char *recipe_section(const struct recipe_bench *b) { return b->section; }
const char *recipe_description(const struct recipe_bench *b) { return b->description; }
const char *recipe_provided_by(const struct recipe_bench *b) { return b->provided_by; }
enum recipe_stream recipe_stream(const struct recipe_bench *b) { return b->stream; }
bool recipe_pinned(const struct recipe_bench *b) { return b->pin; }
bool recipe_has_server(const struct recipe_bench *b) { return b->has_setup || b->has_teardown; }
size_t recipe_invocation_count(const struct recipe_bench *b) { return b->ninv; }

const struct recipe_metric *recipe_metrics(const struct recipe_bench *b, size_t *n)
{
    *n = b->nmetrics;
    return b->metrics;
}

double recipe_timeout(const struct recipe_bench *b, bool quick)
{
    return quick ? b->timeout_quick : b->timeout_full;
}

int recipe_runs(const struct recipe_bench *b, bool quick)
{
    return quick ? b->runs_quick : b->runs_full;
}

double recipe_budget(const struct recipe_bench *b, bool quick)
{
    double one = quick ? b->budget_quick : b->budget_full;
    double steps = (b->has_setup ? 1 : 0) + (b->has_teardown ? 1 : 0);
    return one * (double)b->ninv * recipe_runs(b, quick) + steps * 0.5;
}

/* --- JSON reading with paths --------------------------------------------- */

void rcp_bad(struct ld *l, const char *path, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *m = xvasprintf(fmt, ap);
    va_end(ap);
    diag_add(l->d, "%s: %s: %s", l->label, path, m);
    free(m);
    l->bad = true;
}

static const char *type_name(const json_t *j)
{
    switch (json_typeof(j)) {
    case JSON_OBJECT: return "an object";
    case JSON_ARRAY: return "an array";
    case JSON_STRING: return "a string";
    case JSON_INTEGER: case JSON_REAL: return "a number";
    case JSON_TRUE: case JSON_FALSE: return "a boolean";
    default: return "null";
    }
}

/* A string member: NULL when absent (complains when required) or mistyped. */
static char *get_str(struct ld *l, const json_t *o, const char *key, const char *path, bool req)
{
    json_t *v = json_object_get(o, key);
    if (!v) {
        if (req)
            rcp_bad(l, path, "missing \"%s\"", key);
        return NULL;
    }
    if (!json_is_string(v)) {
        char *p = xasprintf("%s.%s", path, key);
        rcp_bad(l, p, "must be a string, not %s", type_name(v));
        free(p);
        return NULL;
    }
    return xstrdup(json_string_value(v));
}

static bool get_num(struct ld *l, const json_t *v, const char *path, double *out)
{
    if (!json_is_number(v)) {
        rcp_bad(l, path, "must be a number, not %s", type_name(v));
        return false;
    }
    *out = json_number_value(v);
    return true;
}

/* A number, or {"full": x, "quick": y}; absent: the defaults stay. */
static void get_full_quick(struct ld *l, const json_t *o, const char *key, const char *path,
                           double *full, double *quick, double minimum)
{
    json_t *v = json_object_get(o, key);
    if (!v)
        return;
    char *p = xasprintf("%s.%s", path, key);
    if (json_is_object(v)) {
        const char *k;
        json_t *x;
        json_object_foreach(v, k, x) {
            char *pk = xasprintf("%s.%s", p, k);
            double d;
            if (strcmp(k, "full") != 0 && strcmp(k, "quick") != 0)
                rcp_bad(l, pk, "unknown member (expected \"full\" or \"quick\")");
            else if (get_num(l, x, pk, &d)) {
                if (d < minimum)
                    rcp_bad(l, pk, "must be at least %g", minimum);
                else
                    *(strcmp(k, "full") == 0 ? full : quick) = d;
            }
            free(pk);
        }
    } else {
        double d;
        if (get_num(l, v, p, &d)) {
            if (d < minimum)
                rcp_bad(l, p, "must be at least %g", minimum);
            else
                *full = *quick = d;
        }
    }
    free(p);
}

/* Rejects members a schema object does not know (typos must not pass). */
static void check_keys(struct ld *l, const json_t *o, const char *path, const char *const *known)
{
    const char *k;
    json_t *v;
    json_object_foreach((json_t *)o, k, v) {
        bool ok = false;
        for (const char *const *p = known; *p && !ok; p++)
            ok = strcmp(*p, k) == 0;
        if (!ok)
            rcp_bad(l, path, "unknown member \"%s\"", k);
    }
}

/* --- loading: pieces ---------------------------------------------------- */

static pcre2_code *compile_re(struct ld *l, const char *src, const char *path)
{
    int err;
    PCRE2_SIZE off;
    pcre2_compile_context *cc = pcre2_compile_context_create(NULL);
    pcre2_set_newline(cc, PCRE2_NEWLINE_ANYCRLF);
    pcre2_code *re = pcre2_compile((PCRE2_SPTR)src, PCRE2_ZERO_TERMINATED, PCRE2_MULTILINE,
                                   &err, &off, cc);
    pcre2_compile_context_free(cc);
    if (!re) {
        PCRE2_UCHAR msg[256];
        pcre2_get_error_message(err, msg, sizeof msg);
        rcp_bad(l, path, "%s at offset %zu", (const char *)msg, (size_t)off);
        return NULL;
    }
    pcre2_jit_compile(re, PCRE2_JIT_COMPLETE);
    return re;
}

/* "args": ["16M", ["-N", "{reps}"], "{op}"] */
static void load_argv(struct ld *l, const json_t *a, const char *path, struct argv_tmpl *out)
{
    memset(out, 0, sizeof *out);
    if (!json_is_array(a)) {
        rcp_bad(l, path, "must be an array of strings (or arrays of strings), not %s",
            type_name(a));
        return;
    }
    out->args = xcalloc(json_array_size(a) + 1, sizeof *out->args);
    size_t i;
    json_t *v;
    json_array_foreach(a, i, v) {
        char *p = xasprintf("%s[%zu]", path, i);
        struct arg *g = &out->args[out->nargs];
        if (json_is_string(v)) {
            g->words = xcalloc(1, sizeof *g->words);
            if (rcp_tmpl_parse(l, json_string_value(v), p, &g->words[0]))
                g->nwords = 1;
            out->nargs++;
        } else if (json_is_array(v) && json_array_size(v) > 0) {
            g->words = xcalloc(json_array_size(v), sizeof *g->words);
            size_t j;
            json_t *w;
            json_array_foreach(v, j, w) {
                char *pj = xasprintf("%s[%zu]", p, j);
                if (!json_is_string(w))
                    rcp_bad(l, pj, "must be a string, not %s", type_name(w));
                else if (rcp_tmpl_parse(l, json_string_value(w), pj, &g->words[g->nwords]))
                    g->nwords++;
                free(pj);
            }
            out->nargs++;
        } else {
            rcp_bad(l, p, "must be a string or a non-empty array of strings, not %s",
                type_name(v));
        }
        free(p);
    }
}

static void check_argv(struct ld *l, const struct recipe_bench *b, const struct argv_tmpl *a,
                       const char *path)
{
    for (size_t i = 0; i < a->nargs; i++)
        for (size_t j = 0; j < a->args[i].nwords; j++) {
            char *p = xasprintf("%s[%zu]", path, i);
            rcp_tmpl_check(l, b, &a->args[i].words[j], NULL, p);
            free(p);
        }
}

static enum summary parse_summary(struct ld *l, const char *s, const char *path)
{
    if (strcmp(s, "median") == 0) return SUMMARY_MEDIAN;
    if (strcmp(s, "mean") == 0) return SUMMARY_MEAN;
    if (strcmp(s, "max") == 0) return SUMMARY_MAX;
    if (strcmp(s, "min") == 0) return SUMMARY_MIN;
    rcp_bad(l, path, "unknown summary \"%s\" (median, mean, max, min)", s);
    return SUMMARY_MEDIAN;
}

static void load_vars(struct ld *l, struct recipe_bench *b, const json_t *o, const char *path)
{
    if (!json_is_object(o)) {
        rcp_bad(l, path, "must be an object of value lists, not %s", type_name(o));
        return;
    }
    b->vars = xcalloc(json_object_size(o) + 1, sizeof *b->vars);
    const char *name;
    json_t *vals;
    json_object_foreach((json_t *)o, name, vals) {
        char *p = xasprintf("%s.%s", path, name);
        if (!json_is_array(vals) || json_array_size(vals) == 0) {
            rcp_bad(l, p, "must be a non-empty array");
            free(p);
            continue;
        }
        struct var *v = &b->vars[b->nvars++];
        v->name = xstrdup(name);
        v->values = xcalloc(json_array_size(vals), sizeof *v->values);
        size_t i;
        json_t *x;
        json_array_foreach(vals, i, x) {
            char *pi = xasprintf("%s[%zu]", p, i);
            struct var_value *vv = &v->values[v->nvalues];
            if (json_is_string(x)) {
                vv->value = xstrdup(json_string_value(x));
                v->nvalues++;
            } else if (json_is_object(x)) {
                vv->value = get_str(l, x, "value", pi, true);
                if (vv->value) {
                    vv->fnames = xcalloc(json_object_size(x), sizeof *vv->fnames);
                    vv->fvalues = xcalloc(json_object_size(x), sizeof *vv->fvalues);
                    const char *fk;
                    json_t *fv;
                    json_object_foreach(x, fk, fv) {
                        if (strcmp(fk, "value") == 0)
                            continue;
                        char *pf = xasprintf("%s.%s", pi, fk);
                        if (!json_is_string(fv))
                            rcp_bad(l, pf, "must be a string, not %s", type_name(fv));
                        else if (rcp_tmpl_parse(l, json_string_value(fv), pf,
                                            &vv->fvalues[vv->nfields])) {
                            vv->fnames[vv->nfields++] = xstrdup(fk);
                        }
                        free(pf);
                    }
                    v->nvalues++;
                }
            } else {
                rcp_bad(l, pi, "must be a string or an object with \"value\", not %s",
                    type_name(x));
            }
            free(pi);
        }
        free(p);
    }
}

/* Parameters of the file and of the benchmark (the benchmark's win). */
static void load_params(struct ld *l, struct recipe_bench *b, const json_t *o, const char *path)
{
    if (!o)
        return;
    if (!json_is_object(o)) {
        rcp_bad(l, path, "must be an object, not %s", type_name(o));
        return;
    }
    const char *name;
    json_t *v;
    json_object_foreach((json_t *)o, name, v) {
        char *p = xasprintf("%s.%s", path, name);
        struct param *pm = (struct param *)rcp_find_param(b, name);
        if (pm) {
            free(pm->full);
            free(pm->quick);
            free(pm->missing);
            free(pm->option);
        } else {
            b->params = xrealloc(b->params, (b->nparams + 1) * sizeof *b->params);
            pm = &b->params[b->nparams++];
            pm->name = xstrdup(name);
        }
        pm->full = pm->quick = pm->missing = pm->option = NULL;
        pm->source = P_FIXED;
        if (json_is_string(v)) {
            pm->full = xstrdup(json_string_value(v));
            pm->quick = xstrdup(pm->full);
        } else if (json_is_object(v)) {
            static const char *const known[] = { "value", "full", "quick", "source",
                                                 "option", "missing", NULL };
            check_keys(l, v, p, known);
            char *val = get_str(l, v, "value", p, false);
            pm->full = get_str(l, v, "full", p, false);
            pm->quick = get_str(l, v, "quick", p, false);
            if (val) {
                if (!pm->full)
                    pm->full = xstrdup(val);
                if (!pm->quick)
                    pm->quick = xstrdup(val);
                free(val);
            }
            pm->missing = get_str(l, v, "missing", p, false);
            char *src = get_str(l, v, "source", p, false);
            if (src) {
                if (strcmp(src, "cpufreq_khz") == 0)
                    pm->source = P_CPUFREQ_KHZ;
                else if (strcmp(src, "cpufreq_mhz") == 0)
                    pm->source = P_CPUFREQ_MHZ;
                else if (strcmp(src, "option") == 0)
                    pm->source = P_OPTION;
                else {
                    char *ps = xasprintf("%s.source", p);
                    rcp_bad(l, ps, "unknown source \"%s\" (cpufreq_khz, cpufreq_mhz, option)",
                        src);
                    free(ps);
                }
                free(src);
            }
            pm->option = get_str(l, v, "option", p, pm->source == P_OPTION);
            if (pm->option && !recipe_option_known(pm->option)) {
                char *ps = xasprintf("%s.option", p);
                rcp_bad(l, ps, "unknown option \"%s\" (storage_dir, storage_target, peer)",
                    pm->option);
                free(ps);
            }
        } else {
            rcp_bad(l, p, "must be a string or an object, not %s", type_name(v));
        }
        free(p);
    }
}

static void load_env(struct ld *l, struct recipe_bench *b, const json_t *o, const char *path)
{
    if (!o)
        return;
    if (!json_is_object(o)) {
        rcp_bad(l, path, "must be an object of strings, not %s", type_name(o));
        return;
    }
    const char *name;
    json_t *v;
    json_object_foreach((json_t *)o, name, v) {
        char *p = xasprintf("%s.%s", path, name);
        if (!json_is_string(v)) {
            rcp_bad(l, p, "must be a string, not %s", type_name(v));
        } else {
            struct tmpl *t = xcalloc(1, sizeof *t);
            if (rcp_tmpl_parse(l, json_string_value(v), p, t)) {
                b->env = xrealloc(b->env, (b->nenv + 1) * sizeof *b->env);
                b->env[b->nenv++] = (struct env_entry){ xstrdup(name), t };
            } else {
                rcp_tmpl_free(t);
                free(t);
            }
        }
        free(p);
    }
}

static void load_strings(struct ld *l, const json_t *a, const char *path, char ***out, size_t *n)
{
    if (!a)
        return;
    if (!json_is_array(a)) {
        rcp_bad(l, path, "must be an array of strings, not %s", type_name(a));
        return;
    }
    size_t i;
    json_t *v;
    json_array_foreach(a, i, v) {
        if (!json_is_string(v)) {
            char *p = xasprintf("%s[%zu]", path, i);
            rcp_bad(l, p, "must be a string, not %s", type_name(v));
            free(p);
            continue;
        }
        *out = xrealloc(*out, (*n + 1) * sizeof **out);
        (*out)[(*n)++] = xstrdup(json_string_value(v));
    }
}

/* An optional template member; NULL when absent or bad. */
static struct tmpl *opt_tmpl(struct ld *l, const struct recipe_bench *b, const json_t *o,
                             const char *key, const struct pattern *pat, const char *path)
{
    char *src = get_str(l, o, key, path, false);
    if (!src)
        return NULL;
    char *p = xasprintf("%s.%s", path, key);
    struct tmpl *t = xcalloc(1, sizeof *t);
    if (rcp_tmpl_parse(l, src, p, t)) {
        rcp_tmpl_check(l, b, t, pat, p);
    } else {
        rcp_tmpl_free(t);
        free(t);
        t = NULL;
    }
    free(p);
    free(src);
    return t;
}

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
            if (rcp_tmpl_parse(l, json_string_value(v), pi, &e->factors[e->nfactors])) {
                rcp_tmpl_check(l, b, &e->factors[e->nfactors], NULL, pi);
                e->nfactors++;
            }
        } else if (!json_is_number(v)) {
            rcp_bad(l, pi, "must be a number or a template string, not %s", type_name(v));
        } else if (get_num(l, v, pi, &d) && !(d != 0 && isfinite(d))) {
            rcp_bad(l, pi, "must be a finite non-zero number");
        } else {
            e->scale *= d;
        }
        free(pi);
    }
    json_decref(list);
    free(p);
}

static void load_emit(struct ld *l, struct recipe_bench *b, struct pattern *pat, const json_t *o,
                      const char *path, struct emit *e)
{
    memset(e, 0, sizeof *e);
    e->scale = 1;
    e->summary = b->summary;
    e->group = -1;
    json_t *m = json_object_get(o, "metric");
    json_t *ms = json_object_get(o, "metrics");
    if (!m && !ms) {
        rcp_bad(l, path, "missing \"metric\" (or \"metrics\")");
        return;
    }
    if (m && ms)
        rcp_bad(l, path, "give \"metric\" or \"metrics\", not both");
    json_t *list = json_array();
    if (m)
        json_array_append(list, m);
    else if (json_is_array(ms))
        json_array_extend(list, ms);
    else
        rcp_bad(l, path, "\"metrics\" must be an array of strings, not %s", type_name(ms));
    e->metrics = xcalloc(json_array_size(list) + 1, sizeof *e->metrics);
    size_t i;
    json_t *v;
    json_array_foreach(list, i, v) {
        char *p = m ? xasprintf("%s.metric", path) : xasprintf("%s.metrics[%zu]", path, i);
        if (!json_is_string(v))
            rcp_bad(l, p, "must be a string, not %s", type_name(v));
        else if (rcp_tmpl_parse(l, json_string_value(v), p, &e->metrics[e->nmetrics])) {
            rcp_tmpl_check(l, b, &e->metrics[e->nmetrics], pat, p);
            e->nmetrics++;
        }
        free(p);
    }
    json_decref(list);
    e->unit = get_str(l, o, "unit", path, true);
    e->row = opt_tmpl(l, b, o, "row", pat, path);
    e->column = opt_tmpl(l, b, o, "column", pat, path);
    e->table = opt_tmpl(l, b, o, "table", pat, path);
    char *s = get_str(l, o, "summary", path, false);
    if (s) {
        char *p = xasprintf("%s.summary", path);
        e->summary = parse_summary(l, s, p);
        free(p);
        free(s);
    }
    load_scale(l, b, json_object_get(o, "scale"), path, e);
    char *conv = get_str(l, o, "convert", path, false);
    if (conv) {
        if (strcmp(conv, "duration") == 0) {
            e->duration = true;
        } else {
            char *p = xasprintf("%s.convert", path);
            rcp_bad(l, p, "unknown conversion \"%s\" (duration)", conv);
            free(p);
        }
        free(conv);
    }
    json_t *cb = json_object_get(o, "cpu_bound");
    if (cb && !json_is_boolean(cb)) {
        char *p = xasprintf("%s.cpu_bound", path);
        rcp_bad(l, p, "must be true or false");
        free(p);
    }
    e->cpu_bound = json_is_true(cb);
    json_t *mn = json_object_get(o, "min");
    if (mn) {
        char *p = xasprintf("%s.min", path);
        e->has_min = get_num(l, mn, p, &e->min);
        free(p);
    }
    json_t *val = json_object_get(o, "value");
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
        rcp_bad(l, pv, "must be a capture name or number, not %s", type_name(val));
    }
    free(pv);
}

static void load_captures(struct ld *l, struct pattern *pat, const json_t *o, const char *path)
{
    if (!o)
        return;
    if (!json_is_object(o)) {
        rcp_bad(l, path, "must be an object, not %s", type_name(o));
        return;
    }
    pat->caps = xcalloc(json_object_size(o) + 1, sizeof *pat->caps);
    const char *name;
    json_t *v;
    json_object_foreach((json_t *)o, name, v) {
        char *p = xasprintf("%s.%s", path, name);
        if (!rcp_re_has_group(pat->re, name)) {
            rcp_bad(l, p, "the regex has no capture named \"%s\"", name);
            free(p);
            continue;
        }
        json_t *map = json_is_object(v) ? json_object_get(v, "map") : NULL;
        json_t *vals = json_is_object(v) ? json_object_get(v, "values") : NULL;
        if (!json_is_object(v) || (!map == !vals)) {
            rcp_bad(l, p, "must be {\"map\": {...}} or {\"values\": [...]}");
            free(p);
            continue;
        }
        struct capture *c = &pat->caps[pat->ncaps++];
        c->name = xstrdup(name);
        if (map) {
            if (!json_is_object(map)) {
                rcp_bad(l, p, "\"map\" must be an object of strings");
            } else {
                c->from = xcalloc(json_object_size(map) + 1, sizeof *c->from);
                c->to = xcalloc(json_object_size(map) + 1, sizeof *c->to);
                const char *k;
                json_t *t;
                json_object_foreach(map, k, t) {
                    if (!json_is_string(t)) {
                        char *pk = xasprintf("%s.map.%s", p, k);
                        rcp_bad(l, pk, "must be a string, not %s", type_name(t));
                        free(pk);
                        continue;
                    }
                    c->from[c->n] = xstrdup(k);
                    c->to[c->n++] = xstrdup(json_string_value(t));
                }
            }
        } else {
            char *pv = xasprintf("%s.values", p);
            load_strings(l, vals, pv, &c->from, &c->n);
            free(pv);
        }
        free(p);
    }
}

static void load_only(struct ld *l, const struct recipe_bench *b, const json_t *o,
                      const char *path, struct only *out)
{
    memset(out, 0, sizeof *out);
    if (!o)
        return;
    if (!json_is_object(o)) {
        rcp_bad(l, path, "must be an object of variable: [values], not %s", type_name(o));
        return;
    }
    size_t n = json_object_size(o);
    out->var = xcalloc(n + 1, sizeof *out->var);
    out->values = xcalloc(n + 1, sizeof *out->values);
    out->nvalues = xcalloc(n + 1, sizeof *out->nvalues);
    const char *name;
    json_t *v;
    json_object_foreach((json_t *)o, name, v) {
        char *p = xasprintf("%s.%s", path, name);
        const struct var *var = rcp_find_var(b, name);
        if (!var) {
            rcp_bad(l, p, "\"%s\" is not a variable", name);
            free(p);
            continue;
        }
        size_t k = out->n++;
        out->var[k] = (size_t)(var - b->vars);
        if (json_is_string(v)) {
            json_t *a = json_pack("[O]", v);
            load_strings(l, a, p, &out->values[k], &out->nvalues[k]);
            json_decref(a);
        } else {
            load_strings(l, v, p, &out->values[k], &out->nvalues[k]);
        }
        for (size_t i = 0; i < out->nvalues[k]; i++) {
            bool known = false;
            for (size_t j = 0; j < var->nvalues && !known; j++)
                known = strcmp(var->values[j].value, out->values[k][i]) == 0;
            if (!known)
                rcp_bad(l, p, "\"%s\" is not a value of \"%s\"", out->values[k][i], name);
        }
        free(p);
    }
}

static void load_pattern(struct ld *l, struct recipe_bench *b, const json_t *o, const char *path,
                         struct pattern *pat)
{
    static const char *const known[] = { "regex", "multi", "metric", "metrics", "unit", "value",
                                         "scale", "convert", "min", "summary", "emit", "captures",
                                         "requires", "cpu_bound", "only", "row", "column",
                                         "table",
                                         "comment", NULL };
    memset(pat, 0, sizeof *pat);
    if (!json_is_object(o)) {
        rcp_bad(l, path, "must be an object, not %s", type_name(o));
        return;
    }
    check_keys(l, o, path, known);
    char *src = get_str(l, o, "regex", path, true);
    if (!src)
        return;
    char *pr = xasprintf("%s.regex", path);
    pat->re = compile_re(l, src, pr);
    free(pr);
    free(src);
    if (!pat->re)
        return;
    json_t *multi = json_object_get(o, "multi");
    if (multi && !json_is_boolean(multi)) {
        char *p = xasprintf("%s.multi", path);
        rcp_bad(l, p, "must be true or false, not %s", type_name(multi));
        free(p);
    }
    pat->multi = json_is_true(multi);
    char *po = xasprintf("%s.only", path);
    load_only(l, b, json_object_get(o, "only"), po, &pat->only);
    free(po);
    char *pc = xasprintf("%s.captures", path);
    load_captures(l, pat, json_object_get(o, "captures"), pc);
    free(pc);
    char *pq = xasprintf("%s.requires", path);
    load_strings(l, json_object_get(o, "requires"), pq, &pat->requires, &pat->nrequires);
    for (size_t i = 0; i < pat->nrequires; i++)
        if (!rcp_find_param(b, pat->requires[i]))
            rcp_bad(l, pq, "\"%s\" is not a parameter", pat->requires[i]);
    free(pq);
    json_t *emit = json_object_get(o, "emit");
    if (emit) {
        char *pe = xasprintf("%s.emit", path);
        if (!json_is_array(emit) || json_array_size(emit) == 0) {
            rcp_bad(l, pe, "must be a non-empty array of objects");
        } else {
            pat->emits = xcalloc(json_array_size(emit), sizeof *pat->emits);
            size_t i;
            json_t *v;
            json_array_foreach(emit, i, v) {
                char *pi = xasprintf("%s[%zu]", pe, i);
                static const char *const ekeys[] = { "metric", "metrics", "unit", "value",
                                                     "scale", "convert", "min", "summary",
                                                     "cpu_bound",
                                                     "row", "column", "table",
                                                     "comment", NULL };
                if (json_is_object(v)) {
                    check_keys(l, v, pi, ekeys);
                    load_emit(l, b, pat, v, pi, &pat->emits[pat->nemits++]);
                }
                else
                    rcp_bad(l, pi, "must be an object, not %s", type_name(v));
                free(pi);
            }
        }
        free(pe);
    } else {
        pat->emits = xcalloc(1, sizeof *pat->emits);
        load_emit(l, b, pat, o, path, &pat->emits[pat->nemits++]);
    }
}

static void load_files(struct ld *l, struct recipe_bench *b, const json_t *a, const char *path)
{
    if (!a)
        return;
    if (!json_is_array(a)) {
        rcp_bad(l, path, "must be an array of objects, not %s", type_name(a));
        return;
    }
    b->files = xcalloc(json_array_size(a) + 1, sizeof *b->files);
    size_t i;
    json_t *o;
    json_array_foreach(a, i, o) {
        char *p = xasprintf("%s[%zu]", path, i);
        static const char *const known[] = { "name", "size", "fill", "content", "dir", "link",
                                             NULL };
        if (!json_is_object(o)) {
            rcp_bad(l, p, "must be an object, not %s", type_name(o));
            free(p);
            continue;
        }
        check_keys(l, o, p, known);
        struct rfile *f = &b->files[b->nfiles];
        f->name = get_str(l, o, "name", p, true);
        if (f->name && (strchr(f->name, '/') || strcmp(f->name, "..") == 0 || !*f->name)) {
            rcp_bad(l, p, "\"name\" must be a plain file name inside the temporary directory");
            free(f->name);
            f->name = NULL;
        }
        json_t *size = json_object_get(o, "size");
        json_t *content = json_object_get(o, "content");
        json_t *link = json_object_get(o, "link");
        bool dir = json_is_true(json_object_get(o, "dir"));
        if (!f->name) {
            free(p);
            continue;
        }
        if (size) {
            double d = 0;
            char *ps = xasprintf("%s.size", p);
            if (get_num(l, size, ps, &d) && (d < 0 || d > 1024.0 * 1024 * 1024))
                rcp_bad(l, ps, "must be between 0 and 1 GiB");
            f->kind = RF_SIZED;
            f->size = (size_t)d;
            free(ps);
            char *fill = get_str(l, o, "fill", p, false);
            if (fill) {
                if (strcmp(fill, "random") == 0)
                    f->random = true;
                else if (strcmp(fill, "zero") != 0) {
                    char *pf = xasprintf("%s.fill", p);
                    rcp_bad(l, pf, "must be \"zero\" or \"random\"");
                    free(pf);
                }
                free(fill);
            }
        } else if (content) {
            f->kind = RF_CONTENT;
            f->content = get_str(l, o, "content", p, true);
        } else if (link) {
            f->kind = RF_LINK;
            char *pl = xasprintf("%s.link", p);
            f->link = xcalloc(1, sizeof *f->link);
            if (!json_is_string(link))
                rcp_bad(l, pl, "must be a string, not %s", type_name(link));
            else if (rcp_tmpl_parse(l, json_string_value(link), pl, f->link))
                rcp_tmpl_check(l, b, f->link, NULL, pl);
            free(pl);
        } else if (dir) {
            f->kind = RF_DIR;
        } else {
            rcp_bad(l, p, "give \"size\", \"content\", \"link\" or \"dir\": true");
        }
        b->nfiles++;
        free(p);
    }
}

/* --- derived data: the metrics of every invocation ----------------------- */

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


/* Enumerates every metric id each invocation can produce. */
static void derive_metrics(struct ld *l, struct recipe_bench *b, const char *path)
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

/* --- loading: a benchmark and a file ------------------------------------ */

/* "cpu_load": {"metric", "unit", "scope", "row", "column", "summary"}. */
static void load_cpu_load(struct ld *l, struct recipe_bench *b, const json_t *o,
                          const char *path)
{
    static const char *const known[] = { "metric", "unit", "scope", "row", "column",
                                         "table", "summary", "comment", NULL };
    struct emit *e = &b->cpu_load;
    memset(e, 0, sizeof *e);
    e->summary = b->summary;
    if (!json_is_object(o)) {
        rcp_bad(l, path, "must be an object, not %s", type_name(o));
        return;
    }
    check_keys(l, o, path, known);
    char *m = get_str(l, o, "metric", path, true);
    e->unit = get_str(l, o, "unit", path, false);
    if (!e->unit)
        e->unit = xstrdup("%");
    char *scope = get_str(l, o, "scope", path, false);
    b->cpu_scope = CPULOAD_SYSTEM;
    if (scope && strcmp(scope, "process") == 0) {
        b->cpu_scope = CPULOAD_PROCESS;
    } else if (scope && strcmp(scope, "system") != 0) {
        char *ps = xasprintf("%s.scope", path);
        rcp_bad(l, ps, "unknown scope \"%s\" (system, process)", scope);
        free(ps);
    }
    free(scope);
    char *s = get_str(l, o, "summary", path, false);
    if (s) {
        char *ps = xasprintf("%s.summary", path);
        e->summary = parse_summary(l, s, ps);
        free(ps);
        free(s);
    }
    e->row = opt_tmpl(l, b, o, "row", NULL, path);
    e->column = opt_tmpl(l, b, o, "column", NULL, path);
    e->table = opt_tmpl(l, b, o, "table", NULL, path);
    if (m) {
        char *pm = xasprintf("%s.metric", path);
        e->metrics = xcalloc(1, sizeof *e->metrics);
        if (rcp_tmpl_parse(l, m, pm, &e->metrics[0])) {
            rcp_tmpl_check(l, b, &e->metrics[0], NULL, pm);
            e->nmetrics = 1;
            b->has_cpu_load = true;
        }
        free(pm);
        free(m);
    }
}

static struct recipe_bench *load_bench(struct ld *l, const json_t *file, const json_t *o,
                                       const char *path, const char *tool)
{
    static const char *const known[] = {
        "name", "section", "description", "binaries", "search_paths", "provided_by", "args",
        "setup", "teardown", "env", "cwd", "stream", "timeout", "runs", "budget", "summary",
        "vars", "params", "patterns", "errors", "files", "needs", "pin", "requires",
        "cpu_load", "scratch", "comment", NULL
    };
    if (!json_is_object(o)) {
        rcp_bad(l, path, "must be an object, not %s", type_name(o));
        return NULL;
    }
    check_keys(l, o, path, known);
    struct recipe_bench *b = xcalloc(1, sizeof *b);
    b->file = xstrdup(l->label);
    b->tool = xstrdup(tool);
    b->name = get_str(l, o, "name", path, true);
    b->section = get_str(l, o, "section", path, true);
    b->description = get_str(l, o, "description", path, false);
    b->provided_by = get_str(l, o, "provided_by", path, false);
    if (!b->provided_by)
        b->provided_by = get_str(l, file, "provided_by", "", false);
    if (!b->description)
        b->description = xasprintf("%s (%s)", b->name ? b->name : "?", tool);
    b->stream = RECIPE_STDOUT;
    b->timeout_full = b->timeout_quick = 60;
    b->runs_full = b->runs_quick = 1;
    b->budget_full = b->budget_quick = 1;
    b->pin = true;
    b->summary = SUMMARY_MEDIAN;

    char *p;
    const json_t *sp = json_object_get(o, "search_paths");
    p = xasprintf("%s.search_paths", path);
    load_strings(l, sp ? sp : json_object_get(file, "search_paths"), p, &b->search, &b->nsearch);
    free(p);

    /* variables and parameters first: the templates refer to them */
    json_t *vars = json_object_get(o, "vars");
    if (vars) {
        p = xasprintf("%s.vars", path);
        load_vars(l, b, vars, p);
        free(p);
    }
    load_params(l, b, json_object_get(file, "params"), "params");
    p = xasprintf("%s.params", path);
    load_params(l, b, json_object_get(o, "params"), p);
    free(p);
    load_env(l, b, json_object_get(file, "env"), "env");
    p = xasprintf("%s.env", path);
    load_env(l, b, json_object_get(o, "env"), p);
    for (size_t i = 0; i < b->nenv; i++)
        rcp_tmpl_check(l, b, b->env[i].value, NULL, p);
    free(p);

    json_t *args = json_object_get(o, "args");
    p = xasprintf("%s.args", path);
    if (args) {
        load_argv(l, args, p, &b->args);
        check_argv(l, b, &b->args, p);
    }
    free(p);
    const char *steps[] = { "setup", "teardown" };
    for (int s = 0; s < 2; s++) {
        json_t *a = json_object_get(o, steps[s]);
        if (!a)
            continue;
        p = xasprintf("%s.%s", path, steps[s]);
        struct argv_tmpl *t = s == 0 ? &b->setup : &b->teardown;
        load_argv(l, a, p, t);
        check_argv(l, b, t, p);
        *(s == 0 ? &b->has_setup : &b->has_teardown) = true;
        free(p);
    }

    json_t *bins = json_object_get(o, "binaries");
    p = xasprintf("%s.binaries", path);
    if (!bins) {
        rcp_bad(l, path, "missing \"binaries\"");
    } else if (!json_is_array(bins) || json_array_size(bins) == 0) {
        rcp_bad(l, p, "must be a non-empty array");
    } else {
        b->bins = xcalloc(json_array_size(bins), sizeof *b->bins);
        size_t i;
        json_t *v;
        json_array_foreach(bins, i, v) {
            char *pi = xasprintf("%s[%zu]", p, i);
            struct binary *bin = &b->bins[b->nbins];
            if (json_is_string(v)) {
                bin->name = xstrdup(json_string_value(v));
            } else if (json_is_object(v)) {
                bin->name = get_str(l, v, "name", pi, true);
                json_t *ba = json_object_get(v, "args");
                if (ba) {
                    char *pa = xasprintf("%s.args", pi);
                    load_argv(l, ba, pa, &bin->args);
                    check_argv(l, b, &bin->args, pa);
                    bin->has_args = true;
                    free(pa);
                }
            } else {
                rcp_bad(l, pi, "must be a string or {\"name\", \"args\"}, not %s", type_name(v));
            }
            if (bin->name && (!*bin->name || strchr(bin->name, '/'))) {
                rcp_bad(l, pi, "must be a file name without '/' (use \"search_paths\")");
                free(bin->name);
                bin->name = NULL;
            }
            if (bin->name)
                b->nbins++;
            else
                argv_tmpl_free(&bin->args);
            free(pi);
        }
    }
    free(p);

    json_t *cwd = json_object_get(o, "cwd");
    if (cwd) {
        p = xasprintf("%s.cwd", path);
        b->cwd = xcalloc(1, sizeof *b->cwd);
        if (!json_is_string(cwd))
            rcp_bad(l, p, "must be a string, not %s", type_name(cwd));
        else if (rcp_tmpl_parse(l, json_string_value(cwd), p, b->cwd))
            rcp_tmpl_check(l, b, b->cwd, NULL, p);
        free(p);
    }
    char *stream = get_str(l, o, "stream", path, false);
    if (stream) {
        if (strcmp(stream, "stdout") == 0)
            b->stream = RECIPE_STDOUT;
        else if (strcmp(stream, "stderr") == 0)
            b->stream = RECIPE_STDERR;
        else if (strcmp(stream, "both") == 0)
            b->stream = RECIPE_BOTH;
        else {
            p = xasprintf("%s.stream", path);
            rcp_bad(l, p, "must be \"stdout\", \"stderr\" or \"both\"");
            free(p);
        }
        free(stream);
    }
    get_full_quick(l, o, "timeout", path, &b->timeout_full, &b->timeout_quick, 0.1);
    double rf = b->runs_full, rq = b->runs_quick;
    get_full_quick(l, o, "runs", path, &rf, &rq, 1);
    b->runs_full = (int)rf;
    b->runs_quick = (int)rq;
    get_full_quick(l, o, "budget", path, &b->budget_full, &b->budget_quick, 0);
    json_t *pin = json_object_get(o, "pin");
    if (pin) {
        if (!json_is_boolean(pin)) {
            p = xasprintf("%s.pin", path);
            rcp_bad(l, p, "must be true or false");
            free(p);
        }
        b->pin = json_is_true(pin);
    }
    char *summary = get_str(l, o, "summary", path, false);
    if (summary) {
        p = xasprintf("%s.summary", path);
        b->summary = parse_summary(l, summary, p);
        free(p);
        free(summary);
    }

    p = xasprintf("%s.files", path);
    load_files(l, b, json_object_get(o, "files"), p);
    free(p);

    json_t *needs = json_object_get(o, "needs");
    if (needs) {
        p = xasprintf("%s.needs", path);
        if (!json_is_array(needs)) {
            rcp_bad(l, p, "must be an array of {\"path\", \"reason\"}");
        } else {
            b->needs = xcalloc(json_array_size(needs) + 1, sizeof *b->needs);
            size_t i;
            json_t *v;
            json_array_foreach(needs, i, v) {
                char *pi = xasprintf("%s[%zu]", p, i);
                if (json_is_object(v)) {
                    b->needs[b->nneeds].path = get_str(l, v, "path", pi, true);
                    b->needs[b->nneeds].reason = get_str(l, v, "reason", pi, false);
                    char *po = xasprintf("%s.only", pi);
                    load_only(l, b, json_object_get(v, "only"), po, &b->needs[b->nneeds].only);
                    free(po);
                    b->nneeds++;
                } else {
                    rcp_bad(l, pi, "must be an object, not %s", type_name(v));
                }
                free(pi);
            }
        }
        free(p);
    }

    p = xasprintf("%s.requires", path);
    load_strings(l, json_object_get(o, "requires"), p, &b->requires, &b->nrequires);
    for (size_t i = 0; i < b->nrequires; i++)
        if (!rcp_find_param(b, b->requires[i]))
            rcp_bad(l, p, "\"%s\" is not a parameter", b->requires[i]);
    free(p);
    b->scratch = opt_tmpl(l, b, o, "scratch", NULL, path);
    json_t *cl = json_object_get(o, "cpu_load");
    if (cl) {
        p = xasprintf("%s.cpu_load", path);
        load_cpu_load(l, b, cl, p);
        free(p);
    }

    json_t *pats = json_object_get(o, "patterns");
    p = xasprintf("%s.patterns", path);
    if (!pats) {
        rcp_bad(l, path, "missing \"patterns\"");
    } else if (!json_is_array(pats) || json_array_size(pats) == 0) {
        rcp_bad(l, p, "must be a non-empty array");
    } else {
        b->pats = xcalloc(json_array_size(pats), sizeof *b->pats);
        size_t i;
        json_t *v;
        json_array_foreach(pats, i, v) {
            char *pi = xasprintf("%s[%zu]", p, i);
            load_pattern(l, b, v, pi, &b->pats[b->npats++]);
            free(pi);
        }
    }
    free(p);

    json_t *errs = json_object_get(o, "errors");
    if (errs) {
        p = xasprintf("%s.errors", path);
        if (!json_is_array(errs)) {
            rcp_bad(l, p, "must be an array of {\"regex\", \"reason\"}");
        } else {
            b->errs = xcalloc(json_array_size(errs) + 1, sizeof *b->errs);
            size_t i;
            json_t *v;
            json_array_foreach(errs, i, v) {
                char *pi = xasprintf("%s[%zu]", p, i);
                if (!json_is_object(v)) {
                    rcp_bad(l, pi, "must be an object, not %s", type_name(v));
                } else {
                    char *src = get_str(l, v, "regex", pi, true);
                    char *reason = get_str(l, v, "reason", pi, true);
                    char *pr = xasprintf("%s.regex", pi);
                    pcre2_code *re = src ? compile_re(l, src, pr) : NULL;
                    free(pr);
                    free(src);
                    if (re && reason)
                        b->errs[b->nerrs++] = (struct errpat){ re, reason };
                    else {
                        pcre2_code_free(re);
                        free(reason);
                    }
                }
                free(pi);
            }
        }
        free(p);
    }

    if (!l->bad)
        derive_metrics(l, b, path);
    return b;
}

bool recipe_load_file(struct recipe_set *set, const char *path, const char *label,
                      struct diag *d)
{
    char *own_label = NULL;
    if (!label) {
        const char *base = strrchr(path, '/');
        own_label = xasprintf("tools/%s", base ? base + 1 : path);
        label = own_label;
    }
    errno = 0;
    size_t len = 0;
    char *text = read_file(path, 0, &len);
    bool ok = false;
    if (text)
        ok = recipe_load_text(set, text, len, label, d);
    else
        diag_add(d, "%s: cannot read: %s", label, file_strerror(errno ? errno : EIO));
    free(text);
    free(own_label);
    return ok;
}

bool recipe_load_text(struct recipe_set *set, const char *text, size_t len, const char *label,
                      struct diag *d)
{
    struct ld l = { label, d, false };
    json_error_t jerr;
    json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
    if (!root) {
        if (jerr.line > 0)
            diag_add(d, "%s:%d:%d: %s", label, jerr.line, jerr.column, jerr.text);
        else
            diag_add(d, "%s: %s", label, jerr.text);
        return false;
    }
    bool ok = false;
    static const char *const known[] = { "format", "tool", "description", "provided_by",
                                         "search_paths", "params", "env", "benchmarks",
                                         "comment", NULL };
    const char *fmt = json_is_object(root) ?
        json_string_value(json_object_get(root, "format")) : NULL;
    if (!json_is_object(root)) {
        diag_add(d, "%s: the top level must be an object", label);
    } else if (!fmt || strcmp(fmt, RECIPE_FORMAT) != 0) {
        diag_add(d, "%s: format: must be \"%s\"", label, RECIPE_FORMAT);
    } else {
        check_keys(&l, root, "(top level)", known);
        l.bad = false;      /* an unknown top-level member costs nothing */
        const char *tool = json_string_value(json_object_get(root, "tool"));
        json_t *benches = json_object_get(root, "benchmarks");
        if (!tool) {
            diag_add(d, "%s: tool: missing (a string naming the tool family)", label);
        } else if (!json_is_array(benches)) {
            diag_add(d, "%s: benchmarks: missing or not an array", label);
        } else {
            ok = true;
            size_t i;
            json_t *o;
            json_array_foreach(benches, i, o) {
                char *p = xasprintf("benchmarks[%zu]", i);
                l.bad = false;
                struct recipe_bench *b = load_bench(&l, root, o, p, tool);
                if (b && !l.bad && recipe_find(set, b->name)) {
                    diag_add(d, "%s: %s.name: benchmark \"%s\" is defined twice", label, p,
                             b->name);
                    l.bad = true;
                }
                if (b && !l.bad) {
                    xgrow(&set->benches, &set->cap, set->n + 1, sizeof *set->benches);
                    set->benches[set->n++] = b;
                } else {
                    if (b && b->name)
                        diag_add(d, "%s: %s: benchmark \"%s\" skipped", label, p, b->name);
                    bench_free(b);
                }
                free(p);
            }
        }
    }
    json_decref(root);
    return ok;
}

struct recipe_set *recipe_load_from(const struct data_dir *dd, struct diag *d)
{
    struct recipe_set *set = xcalloc(1, sizeof *set);
    char **names = NULL;
    ssize_t n = data_dir_list(dd, ".json", &names);
    if (n < 0) {
        diag_add(d, "%s: cannot read the tool recipes: %s", dd->label, strerror(errno));
        return set;
    }
    for (ssize_t i = 0; i < n; i++) {
        char *label = xasprintf("tools/%s", names[i]);
        size_t len = 0;
        errno = 0;
        char *text = data_dir_read(dd, names[i], 0, &len);
        if (text)
            recipe_load_text(set, text, len, label, d);
        else
            diag_add(d, "%s: cannot read: %s", label, file_strerror(errno ? errno : EIO));
        free(text);
        free(label);
    }
    strv_free(names, (size_t)n);
    return set;
}

struct recipe_set *recipe_load_dir(const char *dir, struct diag *d)
{
    struct data_dir dd;
    data_dir_at(&dd, dir);
    struct recipe_set *set = recipe_load_from(&dd, d);
    data_dir_free(&dd);
    return set;
}

struct recipe_set *recipe_load_default(struct diag *d)
{
    struct data_dir dd;
    data_dir_default(&dd, "tools");
    struct recipe_set *set = recipe_load_from(&dd, d);
    data_dir_free(&dd);
    return set;
}
