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

/* --- freeing ------------------------------------------------------------ */

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

/* An array of n templates. */
static void tmpls_free(struct tmpl *t, size_t n)
{
    for (size_t i = 0; i < n; i++)
        rcp_tmpl_free(&t[i]);
    free(t);
}

/* A template allocated on its own ("row", "cwd" ...); NULL is fine. */
static void tmpl_drop(struct tmpl *t)
{
    rcp_tmpl_free(t);
    free(t);
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
    for (size_t i = 0; i < a->nargs; i++)
        tmpls_free(a->args[i].words, a->args[i].nwords);
    free(a->args);
}

/* The element frees of the member table: each frees what one element
 * of its array (or the one embedded structure) holds, not the element. */

static void emit_free(void *p)
{
    struct emit *e = p;
    tmpls_free(e->metrics, e->nmetrics);
    free(e->unit);
    tmpl_drop(e->row);
    tmpl_drop(e->column);
    tmpl_drop(e->table);
    tmpls_free(e->factors, e->nfactors);
}

static void capture_free(struct capture *c)
{
    free(c->name);
    strv_free(c->from, c->n);
    strv_free(c->to, c->to ? c->n : 0);
}

static void pattern_free(void *e)
{
    struct pattern *p = e;
    pcre2_code_free(p->re);
    for (size_t j = 0; j < p->nemits; j++)
        emit_free(&p->emits[j]);
    free(p->emits);
    for (size_t j = 0; j < p->ncaps; j++)
        capture_free(&p->caps[j]);
    free(p->caps);
    strv_free(p->requires, p->nrequires);
    only_free(&p->only);
}

/* A parameter's values (a benchmark's parameter replaces the file's). */
static void param_clear(struct param *pm)
{
    free(pm->full);
    free(pm->quick);
    free(pm->missing);
    free(pm->option);
    pm->full = pm->quick = pm->missing = pm->option = NULL;
}

static void param_free(void *e)
{
    struct param *pm = e;
    free(pm->name);
    param_clear(pm);
}

static void var_value_free(struct var_value *vv)
{
    free(vv->value);
    strv_free(vv->fnames, vv->nfields);
    tmpls_free(vv->fvalues, vv->nfields);
}

static void var_free(void *e)
{
    struct var *v = e;
    for (size_t j = 0; j < v->nvalues; j++)
        var_value_free(&v->values[j]);
    free(v->values);
    free(v->name);
}

static void binary_free(void *e)
{
    struct binary *bin = e;
    free(bin->name);
    argv_tmpl_free(&bin->args);
}

static void env_entry_free(void *e)
{
    struct env_entry *en = e;
    free(en->name);
    tmpl_drop(en->value);
}

static void errpat_free(void *e)
{
    struct errpat *ep = e;
    pcre2_code_free(ep->re);
    free(ep->reason);
}

static void rfile_free(void *e)
{
    struct rfile *f = e;
    free(f->name);
    free(f->content);
    tmpl_drop(f->link);
}

static void need_free(void *e)
{
    struct need *n = e;
    free(n->path);
    free(n->reason);
    only_free(&n->only);
}

/* What derive_metrics() made. */
static void derived_free(struct recipe_bench *b)
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
const char *recipe_sdk(const struct recipe_bench *b)
{
    return b->sdk == RECIPE_SDK_MCU ? "mcu+" : "linux";
}
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

/* --- JSON values --------------------------------------------------------- */

/* A number from minimum to maximum into *d; false (reported) otherwise. */
static bool in_range(struct ld *l, const json_t *v, const char *path, double minimum,
                     double maximum, double *d)
{
    if (!rcp_get_num(l, v, path, d))
        return false;
    if (*d >= minimum && *d <= maximum)
        return true;
    rcp_bad(l, path, "must be from %g to %g", minimum, maximum);
    return false;
}

/* A number, or {"full": x, "quick": y}; what is not given keeps its value. */
static void full_quick(struct ld *l, const json_t *v, const char *path, double *full,
                       double *quick, double minimum, double maximum)
{
    double d;
    if (!json_is_object(v)) {
        if (in_range(l, v, path, minimum, maximum, &d))
            *full = *quick = d;
        return;
    }
    const char *k;
    json_t *x;
    json_object_foreach((json_t *)v, k, x) {
        char *pk = xasprintf("%s.%s", path, k);
        if (strcmp(k, "full") != 0 && strcmp(k, "quick") != 0)
            rcp_bad(l, pk, "unknown member (expected \"full\" or \"quick\")");
        else if (in_range(l, x, pk, minimum, maximum, &d))
            *(strcmp(k, "full") == 0 ? full : quick) = d;
        free(pk);
    }
}

/* --- loading: walking JSON with paths ------------------------------------ */

/* Loading one benchmark: its object, the file's top level (defaults of
 * some members) and the benchmark's JSON path ("benchmarks[2]"). */
struct bctx {
    struct ld *l;
    struct recipe_bench *b;
    const json_t *file;
    const json_t *o;
    const char *path;
};

/* Readers called for each element of an array or member of an object,
 * with its path; into is what they fill. */
typedef void elem_fn(const struct bctx *c, void *into, const json_t *v, const char *path);
typedef void member_fn(const struct bctx *c, void *into, const char *key, const json_t *v,
                       const char *path);

/* fn for each element of array a, at "PATH[i]". */
static void each_elem(const struct bctx *c, const json_t *a, const char *path, elem_fn *fn,
                      void *into)
{
    size_t i;
    json_t *v;
    json_array_foreach(a, i, v) {
        char *p = xasprintf("%s[%zu]", path, i);
        fn(c, into, v, p);
        free(p);
    }
}

/* fn for each member of object o, at "PATH.key". */
static void each_member(const struct bctx *c, const json_t *o, const char *path, member_fn *fn,
                        void *into)
{
    const char *k;
    json_t *v;
    json_object_foreach((json_t *)o, k, v) {
        char *p = xasprintf("%s.%s", path, k);
        fn(c, into, k, v, p);
        free(p);
    }
}

/* Whether v has that type; reports "must be WHAT, not TYPE" otherwise. */
static bool want(struct ld *l, const json_t *v, json_type type, const char *path,
                 const char *what)
{
    if (json_typeof(v) == type)
        return true;
    rcp_bad(l, path, "must be %s, not %s", what, rcp_type_name(v));
    return false;
}

static bool nonempty_array(struct ld *l, const json_t *v, const char *path)
{
    if (json_is_array(v) && json_array_size(v) > 0)
        return true;
    rcp_bad(l, path, "must be a non-empty array");
    return false;
}

/* Reports a message at "path.key". */
static void bad_member(struct ld *l, const char *path, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void bad_member(struct ld *l, const char *path, const char *key, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *m = xvasprintf(fmt, ap);
    va_end(ap);
    char *p = xasprintf("%s.%s", path, key);
    rcp_bad(l, p, "%s", m);
    free(p);
    free(m);
}

/* Reports each of names that is not a parameter of b. */
static void check_params_named(struct ld *l, const struct recipe_bench *b, char *const *names,
                               size_t n, const char *path)
{
    for (size_t i = 0; i < n; i++)
        if (!rcp_find_param(b, names[i]))
            rcp_bad(l, path, "\"%s\" is not a parameter", names[i]);
}

static void load_strings(struct ld *l, const json_t *a, const char *path, char ***out, size_t *n)
{
    if (!a || !want(l, a, JSON_ARRAY, path, "an array of strings"))
        return;
    size_t i;
    json_t *v;
    json_array_foreach(a, i, v) {
        if (!json_is_string(v)) {
            char *p = xasprintf("%s[%zu]", path, i);
            rcp_bad(l, p, "must be a string, not %s", rcp_type_name(v));
            free(p);
            continue;
        }
        *out = xrealloc(*out, (*n + 1) * sizeof **out);
        (*out)[(*n)++] = xstrdup(json_string_value(v));
    }
}

/* --- loading: templates, patterns, summaries ------------------------------ */

/* Parses string v into t[*n] and counts it; false (reported at path) when
 * v is not a string or not a template. */
static bool tmpl_add(struct ld *l, const json_t *v, const char *path, struct tmpl *t, size_t *n)
{
    if (!json_is_string(v)) {
        rcp_bad(l, path, "must be a string, not %s", rcp_type_name(v));
        return false;
    }
    if (!rcp_tmpl_parse(l, json_string_value(v), path, &t[*n]))
        return false;
    (*n)++;
    return true;
}

/* A template of its own from string v; NULL (reported) when bad. */
static struct tmpl *tmpl_new(struct ld *l, const json_t *v, const char *path)
{
    struct tmpl *t = xcalloc(1, sizeof *t);
    size_t n = 0;
    if (tmpl_add(l, v, path, t, &n))
        return t;
    free(t);
    return NULL;
}

/* The same, its references checked (captures of pat allowed). */
static struct tmpl *tmpl_of(struct ld *l, const struct recipe_bench *b, const json_t *v,
                            const struct pattern *pat, const char *path)
{
    struct tmpl *t = tmpl_new(l, v, path);
    if (t)
        rcp_tmpl_check(l, b, t, pat, path);
    return t;
}

/* An optional template member; NULL when absent or bad. */
static struct tmpl *opt_tmpl(struct ld *l, const struct recipe_bench *b, const json_t *o,
                             const char *key, const struct pattern *pat, const char *path)
{
    json_t *v = json_object_get(o, key);
    if (!v)
        return NULL;
    char *p = xasprintf("%s.%s", path, key);
    struct tmpl *t = tmpl_of(l, b, v, pat, p);
    free(p);
    return t;
}

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
    return re;
}

/* The compiled member "regex" of o; NULL (reported) when absent or bad. */
static pcre2_code *regex_member(struct ld *l, const json_t *o, const char *path)
{
    char *src = rcp_get_str(l, o, "regex", path, true);
    if (!src)
        return NULL;
    char *pr = xasprintf("%s.regex", path);
    pcre2_code *re = compile_re(l, src, pr);
    free(pr);
    free(src);
    return re;
}

static int parse_summary(struct ld *l, const char *s, const char *path)
{
    if (strcmp(s, "median") == 0) return SUMMARY_MEDIAN;
    if (strcmp(s, "mean") == 0) return SUMMARY_MEAN;
    if (strcmp(s, "max") == 0) return SUMMARY_MAX;
    if (strcmp(s, "min") == 0) return SUMMARY_MIN;
    rcp_bad(l, path, "unknown summary \"%s\" (median, mean, max, min)", s);
    return SUMMARY_MEDIAN;
}

/* The member "summary" of o, when given, into *out. */
static void opt_summary(struct ld *l, const json_t *o, const char *path, enum summary *out)
{
    char *s = rcp_get_str(l, o, "summary", path, false);
    if (!s)
        return;
    char *p = xasprintf("%s.summary", path);
    *out = parse_summary(l, s, p);
    free(p);
    free(s);
}

/* --- loading: command lines, variables, parameters, environment ---------- */

static void load_word(const struct bctx *c, void *into, const json_t *v, const char *path)
{
    struct arg *g = into;
    tmpl_add(c->l, v, path, g->words, &g->nwords);
}

/* One argument: a word, or a group of words given all or none. */
static void load_arg(const struct bctx *c, void *into, const json_t *v, const char *path)
{
    struct argv_tmpl *out = into;
    struct arg *g = &out->args[out->nargs];
    if (json_is_string(v)) {
        g->words = xcalloc(1, sizeof *g->words);
        tmpl_add(c->l, v, path, g->words, &g->nwords);
        out->nargs++;
    } else if (json_is_array(v) && json_array_size(v) > 0) {
        g->words = xcalloc(json_array_size(v), sizeof *g->words);
        each_elem(c, v, path, load_word, g);
        out->nargs++;
    } else {
        rcp_bad(c->l, path, "must be a string or a non-empty array of strings, not %s",
            rcp_type_name(v));
    }
}

/* "args": ["16M", ["-N", "{reps}"], "{op}"] */
static void load_argv(const struct bctx *c, const json_t *a, const char *path,
                      struct argv_tmpl *out)
{
    memset(out, 0, sizeof *out);
    if (!want(c->l, a, JSON_ARRAY, path, "an array of strings (or arrays of strings)"))
        return;
    out->args = xcalloc(json_array_size(a) + 1, sizeof *out->args);
    each_elem(c, a, path, load_arg, out);
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

/* A field of a variable's value: "FIELD": "template". */
static void load_var_field(const struct bctx *c, void *into, const char *key, const json_t *v,
                           const char *path)
{
    struct var_value *vv = into;
    if (strcmp(key, "value") != 0 && tmpl_add(c->l, v, path, vv->fvalues, &vv->nfields))
        vv->fnames[vv->nfields - 1] = xstrdup(key);
}

/* Whether `word` is one word that can name an invocation on a command line
 * ("size=16M op=rd"): not empty, no space or control character, and for a
 * variable's name no "=". */
static bool one_word(const char *word, bool name)
{
    if (!*word)
        return false;
    for (const unsigned char *p = (const unsigned char *)word; *p; p++)
        if (*p <= ' ' || *p == 0x7f || (name && *p == '='))
            return false;
    return true;
}

/* Whether `value` cannot be a value of v, said at path: it is not one word,
 * or an earlier value is the same (two invocations with one label: the
 * second could be neither named nor told apart in the results). */
static bool var_value_bad(const struct bctx *c, const struct var *v, const char *value,
                          const char *path)
{
    if (!one_word(value, false)) {
        rcp_bad(c->l, path, "\"%s\" is not one word (no spaces): it names its invocation",
                value);
        return true;
    }
    for (size_t i = 0; i < v->nvalues; i++)
        if (strcmp(v->values[i].value, value) == 0) {
            rcp_bad(c->l, path, "\"%s\" is already value %zu of this variable", value, i);
            return true;
        }
    return false;
}

/* A value of a variable: "v" or {"value": "v", "FIELD": "template" ...}. */
static void load_var_value(const struct bctx *c, void *into, const json_t *x, const char *path)
{
    struct var *v = into;
    struct var_value *vv = &v->values[v->nvalues];
    if (json_is_string(x)) {
        if (var_value_bad(c, v, json_string_value(x), path))
            return;
        vv->value = xstrdup(json_string_value(x));
        v->nvalues++;
    } else if (json_is_object(x)) {
        vv->value = rcp_get_str(c->l, x, "value", path, true);
        if (!vv->value)
            return;
        if (var_value_bad(c, v, vv->value, path)) {
            free(vv->value);
            vv->value = NULL;
            return;
        }
        vv->fnames = xcalloc(json_object_size(x), sizeof *vv->fnames);
        vv->fvalues = xcalloc(json_object_size(x), sizeof *vv->fvalues);
        each_member(c, x, path, load_var_field, vv);
        v->nvalues++;
    } else {
        rcp_bad(c->l, path, "must be a string or an object with \"value\", not %s",
            rcp_type_name(x));
    }
}

static void load_var(const struct bctx *c, void *into, const char *name, const json_t *vals,
                     const char *path)
{
    (void)into;
    struct recipe_bench *b = c->b;
    if (!one_word(name, true)) {
        rcp_bad(c->l, path, "a variable's name is one word without \"=\" (NAME=VALUE names "
                "an invocation)");
        return;
    }
    if (!nonempty_array(c->l, vals, path))
        return;
    struct var *v = &b->vars[b->nvars++];
    v->name = xstrdup(name);
    v->values = xcalloc(json_array_size(vals), sizeof *v->values);
    each_elem(c, vals, path, load_var_value, v);
}

/* "vars": {"NAME": [values]}: one invocation per combination. */
static void read_vars(const struct bctx *c, const json_t *o, const char *path)
{
    if (!want(c->l, o, JSON_OBJECT, path, "an object of value lists"))
        return;
    c->b->vars = xcalloc(json_object_size(o) + 1, sizeof *c->b->vars);
    each_member(c, o, path, load_var, NULL);
}

/* {"value" | "full", "quick", "source", "option", "missing"} */
static void load_param_object(struct ld *l, const json_t *v, const char *p, struct param *pm)
{
    static const char *const known[] = { "value", "full", "quick", "source",
                                         "option", "missing", NULL };
    rcp_check_keys(l, v, p, known, sizeof *known);
    char *val = rcp_get_str(l, v, "value", p, false);
    pm->full = rcp_get_str(l, v, "full", p, false);
    pm->quick = rcp_get_str(l, v, "quick", p, false);
    if (val) {
        if (!pm->full)
            pm->full = xstrdup(val);
        if (!pm->quick)
            pm->quick = xstrdup(val);
        free(val);
    }
    pm->missing = rcp_get_str(l, v, "missing", p, false);
    char *src = rcp_get_str(l, v, "source", p, false);
    if (src) {
        if (strcmp(src, "cpufreq_khz") == 0)
            pm->source = P_CPUFREQ_KHZ;
        else if (strcmp(src, "cpufreq_mhz") == 0)
            pm->source = P_CPUFREQ_MHZ;
        else if (strcmp(src, "option") == 0)
            pm->source = P_OPTION;
        else
            bad_member(l, p, "source", "unknown source \"%s\" (cpufreq_khz, cpufreq_mhz, option)",
                       src);
        free(src);
    }
    pm->option = rcp_get_str(l, v, "option", p, pm->source == P_OPTION);
    if (pm->option && !recipe_option_known(pm->option))
        bad_member(l, p, "option", "unknown option \"%s\" (storage_dir, storage_target, peer)",
                   pm->option);
}

/* A parameter: "value" or an object; a later one of the same name
 * replaces the values of the earlier. */
static void load_param(const struct bctx *c, void *into, const char *name, const json_t *v,
                       const char *path)
{
    (void)into;
    struct recipe_bench *b = c->b;
    struct param *pm = (struct param *)rcp_find_param(b, name);
    if (pm) {
        param_clear(pm);
    } else {
        b->params = xrealloc(b->params, (b->nparams + 1) * sizeof *b->params);
        pm = &b->params[b->nparams++];
        *pm = (struct param){ .name = xstrdup(name) };
    }
    pm->source = P_FIXED;
    if (json_is_string(v)) {
        pm->full = xstrdup(json_string_value(v));
        pm->quick = xstrdup(pm->full);
    } else if (json_is_object(v)) {
        load_param_object(c->l, v, path, pm);
    } else {
        rcp_bad(c->l, path, "must be a string or an object, not %s", rcp_type_name(v));
    }
}

/* Parameters of the file and of the benchmark (the benchmark's win). */
static void load_params(const struct bctx *c, const json_t *o, const char *path)
{
    if (o && want(c->l, o, JSON_OBJECT, path, "an object"))
        each_member(c, o, path, load_param, NULL);
}

static void load_env_var(const struct bctx *c, void *into, const char *name, const json_t *v,
                         const char *path)
{
    (void)into;
    struct recipe_bench *b = c->b;
    struct tmpl *t = tmpl_new(c->l, v, path);
    if (!t)
        return;
    b->env = xrealloc(b->env, (b->nenv + 1) * sizeof *b->env);
    b->env[b->nenv++] = (struct env_entry){ xstrdup(name), t };
}

static void load_env(const struct bctx *c, const json_t *o, const char *path)
{
    if (o && want(c->l, o, JSON_OBJECT, path, "an object of strings"))
        each_member(c, o, path, load_env_var, NULL);
}

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
            if (tmpl_add(l, v, pi, e->factors, &e->nfactors))
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
        if (tmpl_add(l, v, p, e->metrics, &e->nmetrics))
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
    e->row = opt_tmpl(l, b, o, "row", pat, path);
    e->column = opt_tmpl(l, b, o, "column", pat, path);
    e->table = opt_tmpl(l, b, o, "table", pat, path);
    opt_summary(l, o, path, &e->summary);
    load_scale(l, b, json_object_get(o, "scale"), path, e);
    char *conv = rcp_get_str(l, o, "convert", path, false);
    if (conv && strcmp(conv, "duration") == 0)
        e->duration = true;
    else if (conv)
        bad_member(l, path, "convert", "unknown conversion \"%s\" (duration)", conv);
    free(conv);
    json_t *cb = json_object_get(o, "cpu_bound");
    if (cb && !json_is_boolean(cb))
        bad_member(l, path, "cpu_bound", "must be true or false");
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
        each_member(c, map, p, load_map_entry, cp);
    } else {
        load_strings(c->l, vals, p, &cp->from, &cp->n);
    }
    free(p);
}

static void load_only_var(const struct bctx *c, void *into, const char *name, const json_t *v,
                          const char *path)
{
    struct only *out = into;
    const struct var *var = rcp_find_var(c->b, name);
    if (!var) {
        rcp_bad(c->l, path, "\"%s\" is not a variable", name);
        return;
    }
    size_t k = out->n++;
    out->var[k] = (size_t)(var - c->b->vars);
    json_t *a = json_is_string(v) ? json_pack("[O]", v) : json_incref((json_t *)v);
    load_strings(c->l, a, path, &out->values[k], &out->nvalues[k]);
    json_decref(a);
    for (size_t i = 0; i < out->nvalues[k]; i++) {
        bool known = false;
        for (size_t j = 0; j < var->nvalues && !known; j++)
            known = strcmp(var->values[j].value, out->values[k][i]) == 0;
        if (!known)
            rcp_bad(c->l, path, "\"%s\" is not a value of \"%s\"", out->values[k][i], name);
    }
}

/* "only": {"VARIABLE": value or [values]}. */
static void load_only(const struct bctx *c, const json_t *o, const char *path, struct only *out)
{
    memset(out, 0, sizeof *out);
    if (!o || !want(c->l, o, JSON_OBJECT, path, "an object of variable: [values]"))
        return;
    size_t n = json_object_size(o);
    out->var = xcalloc(n + 1, sizeof *out->var);
    out->values = xcalloc(n + 1, sizeof *out->values);
    out->nvalues = xcalloc(n + 1, sizeof *out->nvalues);
    each_member(c, o, path, load_only_var, out);
}

static void load_emit_entry(const struct bctx *c, void *into, const json_t *v, const char *path)
{
    static const char *const known[] = { "metric", "metrics", "unit", "value", "scale",
                                         "convert", "min", "summary", "cpu_bound", "row",
                                         "column", "table", "comment", NULL };
    struct pattern *pat = into;
    if (!want(c->l, v, JSON_OBJECT, path, "an object"))
        return;
    rcp_check_keys(c->l, v, path, known, sizeof *known);
    load_emit(c->l, c->b, pat, v, path, &pat->emits[pat->nemits++]);
}

/* The pattern's "only", "captures", "requires" (each at its own path). */
static void load_pattern_limits(const struct bctx *c, const json_t *o, const char *path,
                                struct pattern *pat)
{
    char *po = xasprintf("%s.only", path);
    load_only(c, json_object_get(o, "only"), po, &pat->only);
    free(po);
    char *pc = xasprintf("%s.captures", path);
    json_t *caps = json_object_get(o, "captures");
    if (caps && want(c->l, caps, JSON_OBJECT, pc, "an object")) {
        pat->caps = xcalloc(json_object_size(caps) + 1, sizeof *pat->caps);
        each_member(c, caps, pc, load_capture, pat);
    }
    free(pc);
    char *pq = xasprintf("%s.requires", path);
    load_strings(c->l, json_object_get(o, "requires"), pq, &pat->requires, &pat->nrequires);
    check_params_named(c->l, c->b, pat->requires, pat->nrequires, pq);
    free(pq);
}

/* One of "patterns" (kept also when bad: the benchmark is dropped). */
static bool load_pattern(const struct bctx *c, void *slot, const json_t *o, const char *path)
{
    static const char *const known[] = { "regex", "multi", "metric", "metrics", "unit", "value",
                                         "scale", "convert", "min", "summary", "emit", "captures",
                                         "requires", "cpu_bound", "only", "row", "column",
                                         "table", "comment", NULL };
    struct pattern *pat = slot;
    memset(pat, 0, sizeof *pat);
    if (!want(c->l, o, JSON_OBJECT, path, "an object"))
        return true;
    rcp_check_keys(c->l, o, path, known, sizeof *known);
    pat->re = regex_member(c->l, o, path);
    if (!pat->re)
        return true;
    json_t *multi = json_object_get(o, "multi");
    if (multi && !json_is_boolean(multi))
        bad_member(c->l, path, "multi", "must be true or false, not %s", rcp_type_name(multi));
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
        each_elem(c, emit, pe, load_emit_entry, pat);
    }
    free(pe);
    return true;
}

/* --- loading: the files a benchmark needs ---------------------------------- */

/* "size" (and "fill") of a file entry at path. */
static void read_file_size(struct ld *l, const json_t *o, const json_t *size, const char *path,
                           struct rfile *f)
{
    double d = 0;
    char *ps = xasprintf("%s.size", path);
    bool got = rcp_get_num(l, size, ps, &d);
    if (got && !(d >= 0 && d <= 1024.0 * 1024 * 1024 && d == floor(d))) {
        rcp_bad(l, ps, "must be a whole number of bytes from 0 to 1 GiB");
        d = 0;      /* never converted out of range */
    }
    f->kind = RF_SIZED;
    f->size = (size_t)d;
    free(ps);
    char *fill = rcp_get_str(l, o, "fill", path, false);
    if (fill && strcmp(fill, "random") == 0)
        f->random = true;
    else if (fill && strcmp(fill, "zero") != 0)
        bad_member(l, path, "fill", "must be \"zero\" or \"random\"");
    free(fill);
}

/* One of "files"; false: no usable name, not kept. */
static bool read_file_entry(const struct bctx *c, void *slot, const json_t *o, const char *path)
{
    static const char *const known[] = { "name", "size", "fill", "content", "dir", "link",
                                         NULL };
    struct ld *l = c->l;
    struct rfile *f = slot;
    if (!want(l, o, JSON_OBJECT, path, "an object"))
        return false;
    rcp_check_keys(l, o, path, known, sizeof *known);
    f->name = rcp_get_str(l, o, "name", path, true);
    if (f->name && (strchr(f->name, '/') || strcmp(f->name, "..") == 0 || !*f->name)) {
        rcp_bad(l, path, "\"name\" must be a plain file name inside the temporary directory");
        free(f->name);
        f->name = NULL;
    }
    if (!f->name)
        return false;
    json_t *size = json_object_get(o, "size");
    json_t *link = json_object_get(o, "link");
    if (size) {
        read_file_size(l, o, size, path, f);
    } else if (json_object_get(o, "content")) {
        f->kind = RF_CONTENT;
        f->content = rcp_get_str(l, o, "content", path, true);
    } else if (link) {
        f->kind = RF_LINK;
        char *pl = xasprintf("%s.link", path);
        f->link = tmpl_of(l, c->b, link, NULL, pl);
        free(pl);
    } else if (json_is_true(json_object_get(o, "dir"))) {
        f->kind = RF_DIR;
    } else {
        rcp_bad(l, path, "give \"size\", \"content\", \"link\" or \"dir\": true");
    }
    return true;
}

/* One of "needs": {"path", "reason", "only"}. */
static bool read_need(const struct bctx *c, void *slot, const json_t *v, const char *path)
{
    struct need *n = slot;
    if (!want(c->l, v, JSON_OBJECT, path, "an object"))
        return false;
    n->path = rcp_get_str(c->l, v, "path", path, true);
    n->reason = rcp_get_str(c->l, v, "reason", path, false);
    char *po = xasprintf("%s.only", path);
    load_only(c, json_object_get(v, "only"), po, &n->only);
    free(po);
    return true;
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

/* --- a benchmark: members that need more than their kind's reader ------- */

/* One of "binaries": "name" or {"name", "args"}; false: not kept. */
static bool read_binary(const struct bctx *c, void *slot, const json_t *v, const char *path)
{
    struct ld *l = c->l;
    struct binary *bin = slot;
    if (json_is_string(v)) {
        bin->name = xstrdup(json_string_value(v));
    } else if (json_is_object(v)) {
        bin->name = rcp_get_str(l, v, "name", path, true);
        json_t *ba = json_object_get(v, "args");
        if (ba) {
            char *pa = xasprintf("%s.args", path);
            load_argv(c, ba, pa, &bin->args);
            check_argv(l, c->b, &bin->args, pa);
            bin->has_args = true;
            free(pa);
        }
    } else {
        rcp_bad(l, path, "must be a string or {\"name\", \"args\"}, not %s", rcp_type_name(v));
    }
    if (bin->name && (!*bin->name || strchr(bin->name, '/'))) {
        rcp_bad(l, path, "must be a file name without '/' (use \"search_paths\")");
        free(bin->name);
        bin->name = NULL;
    }
    if (bin->name)
        return true;
    argv_tmpl_free(&bin->args);
    memset(bin, 0, sizeof *bin);    /* the next one uses the slot */
    return false;
}

/* One of "errors": {"regex", "reason"}. */
static bool read_error(const struct bctx *c, void *slot, const json_t *v, const char *path)
{
    if (!want(c->l, v, JSON_OBJECT, path, "an object"))
        return false;
    pcre2_code *re = NULL;
    char *src = rcp_get_str(c->l, v, "regex", path, true);
    char *reason = rcp_get_str(c->l, v, "reason", path, true);
    if (src) {
        char *pr = xasprintf("%s.regex", path);
        re = compile_re(c->l, src, pr);
        free(pr);
        free(src);
    }
    if (re && reason) {
        *(struct errpat *)slot = (struct errpat){ re, reason };
        return true;
    }
    pcre2_code_free(re);
    free(reason);
    return false;
}

/* "cpu_load": {"metric", "unit", "scope", "row", "column", "table", "summary"}. */
static void read_cpu_load(const struct bctx *c, const json_t *o, const char *path)
{
    static const char *const known[] = { "metric", "unit", "scope", "row", "column",
                                         "table", "summary", "comment", NULL };
    struct ld *l = c->l;
    struct recipe_bench *b = c->b;
    struct emit *e = &b->cpu_load;
    memset(e, 0, sizeof *e);
    e->summary = b->summary;
    if (!want(l, o, JSON_OBJECT, path, "an object"))
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
        bad_member(l, path, "scope", "unknown scope \"%s\" (system, process)", scope);
    free(scope);
    opt_summary(l, o, path, &e->summary);
    e->row = opt_tmpl(l, b, o, "row", NULL, path);
    e->column = opt_tmpl(l, b, o, "column", NULL, path);
    e->table = opt_tmpl(l, b, o, "table", NULL, path);
    if (id) {
        e->metrics = xcalloc(1, sizeof *e->metrics);
        char *pm = xasprintf("%s.metric", path);
        if (tmpl_add(l, m, pm, e->metrics, &e->nmetrics)) {
            rcp_tmpl_check(l, b, &e->metrics[0], NULL, pm);
            b->has_cpu_load = true;
        }
        free(pm);
        free(id);
    }
}

/* --- a benchmark: the table of its members -------------------------------- */

/* The benchmark's own "params" after the file's (the benchmark's win). */
static void read_params(const struct bctx *c, const json_t *v, const char *path)
{
    load_params(c, json_object_get(c->file, "params"), "params");
    load_params(c, v, path);
}

/* The file's "env", then the benchmark's; then every value is checked. */
static void read_env(const struct bctx *c, const json_t *v, const char *path)
{
    load_env(c, json_object_get(c->file, "env"), "env");
    load_env(c, v, path);
    for (size_t i = 0; i < c->b->nenv; i++)
        rcp_tmpl_check(c->l, c->b, c->b->env[i].value, NULL, path);
}

/* Absent: "NAME (TOOL)". */
static void default_description(const struct bctx *c, const json_t *v, const char *path)
{
    (void)v;
    (void)path;
    if (!c->b->description)
        c->b->description = xasprintf("%s (%s)", c->b->name ? c->b->name : "?", c->b->tool);
}

/* Absent: the file's "provided_by" (its messages say ".provided_by"). */
static void default_provider(const struct bctx *c, const json_t *v, const char *path)
{
    (void)v;
    (void)path;
    if (!c->b->provided_by)
        c->b->provided_by = rcp_get_str(c->l, c->file, "provided_by", "", false);
}

static void check_requires(const struct bctx *c, const json_t *v, const char *path)
{
    (void)v;
    check_params_named(c->l, c->b, c->b->requires, c->b->nrequires, path);
}

static int parse_stream(struct ld *l, const char *s, const char *path)
{
    if (strcmp(s, "stdout") == 0) return RECIPE_STDOUT;
    if (strcmp(s, "stderr") == 0) return RECIPE_STDERR;
    if (strcmp(s, "both") == 0) return RECIPE_BOTH;
    rcp_bad(l, path, "must be \"stdout\", \"stderr\" or \"both\"");
    return RECIPE_STDOUT;
}

static int parse_sdk(struct ld *l, const char *s, const char *path)
{
    if (strcmp(s, "linux") == 0) return RECIPE_SDK_LINUX;
    if (strcmp(s, "mcu+") == 0) return RECIPE_SDK_MCU;
    rcp_bad(l, path, "must be \"linux\" or \"mcu+\"");
    return RECIPE_SDK_LINUX;
}

/* How a member is read and freed: a generic reader and free per kind. */
enum mkind {
    MK_STR,         /* char *                                              */
    MK_STRV,        /* char ** at off, its count (size_t) at aux           */
    MK_ARGV,        /* struct argv_tmpl; aux: a bool set when given, or NO_AUX */
    MK_TMPL,        /* struct tmpl * (references checked, no captures)     */
    MK_NUMS,        /* double full at off, quick at aux: x or {"full", "quick"} */
    MK_COUNTS,      /* the same as ints                                    */
    MK_BOOL,        /* bool                                                */
    MK_ENUM,        /* an enum (int-sized) that parse() names               */
    MK_LIST,        /* an array of elements (size bytes each) at off, their
                     * count at aux: elem() reads one, drop() frees one     */
    MK_SPECIAL,     /* hook() reads it; drop() frees each of the aux elements
                     * at off (aux NO_AUX: the one structure at off)        */
    MK_NOTE,        /* for people ("comment"): accepted, not read          */
};

#define M_REQUIRED 1u   /* absent: "missing \"KEY\"" */
#define M_FILE 2u       /* absent: the file's top-level member, read as the benchmark's */
#define M_ALWAYS 4u     /* the hook also runs when the member is absent (v NULL) */
#define NO_AUX SIZE_MAX
#define DAY_S 86400.0   /* the longest timeout or budget a recipe may ask for */
#define RUNS_MAX 1000   /* the most runs of one invocation */

struct member {
    const char *key;    /* first: rcp_check_keys() reads the table's keys */
    enum mkind kind;
    unsigned flags;
    size_t off, aux;    /* fields of struct recipe_bench (see enum mkind) */
    size_t size;        /* MK_LIST, MK_SPECIAL: the size of an element */
    double dflt;        /* MK_NUMS, MK_COUNTS, MK_BOOL, MK_ENUM: when absent */
    double min, max;    /* MK_NUMS, MK_COUNTS: the values accepted (a count is
                         * then converted to int: max keeps it in range) */
    int (*parse)(struct ld *l, const char *s, const char *path);          /* MK_ENUM */
    /* MK_LIST: the message for a value that is not an array (%s: its type);
     * NULL: "must be a non-empty array" (and an empty one is refused too) */
    const char *what;
    /* MK_LIST: reads one element into slot; false: not kept (slot reused) */
    bool (*elem)(const struct bctx *c, void *slot, const json_t *v, const char *path);
    /* MK_SPECIAL: reads the member; other kinds: runs after the reader */
    void (*hook)(const struct bctx *c, const json_t *v, const char *path);
    void (*drop)(void *elem);                               /* MK_LIST, MK_SPECIAL */
};

#define AT(b, off, type) ((type *)(void *)((char *)(b) + (off)))
#define OFF(field) offsetof(struct recipe_bench, field)
#define LIST(field, count, type) .off = OFF(field), .aux = OFF(count), .size = sizeof(type)

_Static_assert(sizeof(enum summary) == sizeof(int) && sizeof(enum recipe_stream) == sizeof(int),
               "MK_ENUM stores an int");

/* One row per member, read in this order: variables and parameters come
 * before the templates that refer to them, "summary" before the patterns
 * and "cpu_load" that default to it. */
static const struct member bench_members[] = {
    { .key = "name", .kind = MK_STR, .flags = M_REQUIRED, .off = OFF(name) },
    { .key = "section", .kind = MK_STR, .flags = M_REQUIRED, .off = OFF(section) },
    { .key = "description", .kind = MK_STR, .flags = M_ALWAYS, .off = OFF(description),
      .hook = default_description },
    { .key = "provided_by", .kind = MK_STR, .flags = M_ALWAYS, .off = OFF(provided_by),
      .hook = default_provider },
    { .key = "search_paths", .kind = MK_STRV, .flags = M_FILE, .off = OFF(search),
      .aux = OFF(nsearch) },
    { .key = "vars", .kind = MK_SPECIAL, LIST(vars, nvars, struct var), .hook = read_vars,
      .drop = var_free },
    { .key = "params", .kind = MK_SPECIAL, .flags = M_ALWAYS,
      LIST(params, nparams, struct param), .hook = read_params, .drop = param_free },
    { .key = "env", .kind = MK_SPECIAL, .flags = M_ALWAYS, LIST(env, nenv, struct env_entry),
      .hook = read_env, .drop = env_entry_free },
    { .key = "args", .kind = MK_ARGV, .off = OFF(args), .aux = NO_AUX },
    { .key = "setup", .kind = MK_ARGV, .off = OFF(setup), .aux = OFF(has_setup) },
    { .key = "teardown", .kind = MK_ARGV, .off = OFF(teardown), .aux = OFF(has_teardown) },
    { .key = "binaries", .kind = MK_LIST, .flags = M_REQUIRED,
      LIST(bins, nbins, struct binary), .elem = read_binary, .drop = binary_free },
    { .key = "cwd", .kind = MK_TMPL, .off = OFF(cwd) },
    { .key = "stream", .kind = MK_ENUM, .off = OFF(stream), .dflt = RECIPE_STDOUT,
      .parse = parse_stream },
    { .key = "timeout", .kind = MK_NUMS, .off = OFF(timeout_full), .aux = OFF(timeout_quick),
      .dflt = 60, .min = 0.1, .max = DAY_S },
    { .key = "runs", .kind = MK_COUNTS, .off = OFF(runs_full), .aux = OFF(runs_quick),
      .dflt = 1, .min = 1, .max = RUNS_MAX },
    { .key = "budget", .kind = MK_NUMS, .off = OFF(budget_full), .aux = OFF(budget_quick),
      .dflt = 1, .min = 0, .max = DAY_S },
    { .key = "pin", .kind = MK_BOOL, .off = OFF(pin), .dflt = 1 },
    { .key = "sdk", .kind = MK_ENUM, .off = OFF(sdk), .dflt = RECIPE_SDK_LINUX,
      .parse = parse_sdk },
    { .key = "summary", .kind = MK_ENUM, .off = OFF(summary), .dflt = SUMMARY_MEDIAN,
      .parse = parse_summary },
    { .key = "files", .kind = MK_LIST, LIST(files, nfiles, struct rfile),
      .what = "must be an array of objects, not %s", .elem = read_file_entry,
      .drop = rfile_free },
    { .key = "needs", .kind = MK_LIST, LIST(needs, nneeds, struct need),
      .what = "must be an array of {\"path\", \"reason\"}", .elem = read_need,
      .drop = need_free },
    { .key = "requires", .kind = MK_STRV, .off = OFF(requires), .aux = OFF(nrequires),
      .hook = check_requires },
    { .key = "scratch", .kind = MK_TMPL, .off = OFF(scratch) },
    { .key = "cpu_load", .kind = MK_SPECIAL, .off = OFF(cpu_load), .aux = NO_AUX,
      .hook = read_cpu_load, .drop = emit_free },
    { .key = "patterns", .kind = MK_LIST, .flags = M_REQUIRED,
      LIST(pats, npats, struct pattern), .elem = load_pattern, .drop = pattern_free },
    { .key = "errors", .kind = MK_LIST, LIST(errs, nerrs, struct errpat),
      .what = "must be an array of {\"regex\", \"reason\"}", .elem = read_error,
      .drop = errpat_free },
    { .key = "comment", .kind = MK_NOTE },
    { .key = NULL },
};

/* --- a benchmark: the generic readers ------------------------------------- */

static void rd_str(const struct bctx *c, const struct member *m, const json_t *v, const char *p)
{
    *AT(c->b, m->off, char *) = rcp_str(c->l, v, p);
}

static void rd_strv(const struct bctx *c, const struct member *m, const json_t *v, const char *p)
{
    load_strings(c->l, v, p, AT(c->b, m->off, char **), AT(c->b, m->aux, size_t));
}

static void rd_argv(const struct bctx *c, const struct member *m, const json_t *v, const char *p)
{
    struct argv_tmpl *a = AT(c->b, m->off, struct argv_tmpl);
    load_argv(c, v, p, a);
    check_argv(c->l, c->b, a, p);
    if (m->aux != NO_AUX)
        *AT(c->b, m->aux, bool) = true;
}

static void rd_tmpl(const struct bctx *c, const struct member *m, const json_t *v, const char *p)
{
    *AT(c->b, m->off, struct tmpl *) = tmpl_of(c->l, c->b, v, NULL, p);
}

static void rd_nums(const struct bctx *c, const struct member *m, const json_t *v, const char *p)
{
    full_quick(c->l, v, p, AT(c->b, m->off, double), AT(c->b, m->aux, double), m->min, m->max);
}

static void rd_counts(const struct bctx *c, const struct member *m, const json_t *v,
                      const char *p)
{
    int *full = AT(c->b, m->off, int), *quick = AT(c->b, m->aux, int);
    double f = *full, q = *quick;
    full_quick(c->l, v, p, &f, &q, m->min, m->max);
    if (f != floor(f) || q != floor(q)) {
        rcp_bad(c->l, p, "must be a whole number");
        return;
    }
    *full = (int)f;
    *quick = (int)q;
}

static void rd_bool(const struct bctx *c, const struct member *m, const json_t *v, const char *p)
{
    if (!json_is_boolean(v))
        rcp_bad(c->l, p, "must be true or false");
    *AT(c->b, m->off, bool) = json_is_true(v);
}

static void rd_enum(const struct bctx *c, const struct member *m, const json_t *v, const char *p)
{
    char *s = rcp_str(c->l, v, p);
    if (s)
        *AT(c->b, m->off, int) = m->parse(c->l, s, p);
    free(s);
}

static void rd_list(const struct bctx *c, const struct member *m, const json_t *v, const char *p)
{
    if (!json_is_array(v) || (!m->what && json_array_size(v) == 0)) {
        rcp_bad(c->l, p, m->what ? m->what : "must be a non-empty array", rcp_type_name(v));
        return;
    }
    char **arr = AT(c->b, m->off, char *);
    size_t *n = AT(c->b, m->aux, size_t);
    *arr = xcalloc(json_array_size(v) + 1, m->size);
    size_t i;
    json_t *x;
    json_array_foreach(v, i, x) {
        char *pi = xasprintf("%s[%zu]", p, i);
        if (m->elem(c, *arr + *n * m->size, x, pi))
            (*n)++;
        free(pi);
    }
}

typedef void reader_fn(const struct bctx *c, const struct member *m, const json_t *v,
                       const char *path);

static reader_fn *const readers[] = {
    [MK_STR] = rd_str, [MK_STRV] = rd_strv, [MK_ARGV] = rd_argv, [MK_TMPL] = rd_tmpl,
    [MK_NUMS] = rd_nums, [MK_COUNTS] = rd_counts, [MK_BOOL] = rd_bool, [MK_ENUM] = rd_enum,
    [MK_LIST] = rd_list, [MK_SPECIAL] = NULL, [MK_NOTE] = NULL,
};

static void member_default(struct recipe_bench *b, const struct member *m)
{
    switch (m->kind) {
    case MK_NUMS:
        *AT(b, m->off, double) = *AT(b, m->aux, double) = m->dflt;
        break;
    case MK_COUNTS:
        *AT(b, m->off, int) = *AT(b, m->aux, int) = (int)m->dflt;
        break;
    case MK_BOOL:
        *AT(b, m->off, bool) = m->dflt != 0;
        break;
    case MK_ENUM:
        *AT(b, m->off, int) = (int)m->dflt;
        break;
    default:
        break;
    }
}

static void read_member(const struct bctx *c, const struct member *m)
{
    const json_t *v = json_object_get(c->o, m->key);
    if (!v && (m->flags & M_FILE))
        v = json_object_get(c->file, m->key);
    if (!v && (m->flags & M_REQUIRED))
        rcp_bad(c->l, c->path, "missing \"%s\"", m->key);
    if (!v && !(m->flags & M_ALWAYS))
        return;
    char *p = xasprintf("%s.%s", c->path, m->key);
    if (v && readers[m->kind])
        readers[m->kind](c, m, v, p);
    if (m->hook)
        m->hook(c, v, p);
    free(p);
}

/* Frees the elements of an MK_LIST or MK_SPECIAL member, and its array. */
static void elements_free(struct recipe_bench *b, const struct member *m)
{
    if (m->aux == NO_AUX) {
        m->drop(AT(b, m->off, void));
        return;
    }
    char *arr = *AT(b, m->off, char *);
    for (size_t i = 0; i < *AT(b, m->aux, size_t); i++)
        m->drop(arr + i * m->size);
    free(arr);
}

static void member_free(struct recipe_bench *b, const struct member *m)
{
    switch (m->kind) {
    case MK_STR:
        free(*AT(b, m->off, char *));
        break;
    case MK_STRV:
        strv_free(*AT(b, m->off, char **), *AT(b, m->aux, size_t));
        break;
    case MK_ARGV:
        argv_tmpl_free(AT(b, m->off, struct argv_tmpl));
        break;
    case MK_TMPL:
        tmpl_drop(*AT(b, m->off, struct tmpl *));
        break;
    case MK_LIST:
    case MK_SPECIAL:
        elements_free(b, m);
        break;
    default:
        break;
    }
}

/* --- loading: a benchmark and a file ------------------------------------ */

static void bench_free(struct recipe_bench *b)
{
    if (!b)
        return;
    for (const struct member *m = bench_members; m->key; m++)
        member_free(b, m);
    derived_free(b);
    free(b->file);
    free(b->tool);
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

static struct recipe_bench *load_bench(struct ld *l, const json_t *file, const json_t *o,
                                       const char *path, const char *tool)
{
    if (!want(l, o, JSON_OBJECT, path, "an object"))
        return NULL;
    rcp_check_keys(l, o, path, &bench_members[0].key, sizeof bench_members[0]);
    struct recipe_bench *b = xcalloc(1, sizeof *b);
    b->file = xstrdup(l->label);
    b->tool = xstrdup(tool);
    const struct member *m;
    for (m = bench_members; m->key; m++)
        member_default(b, m);
    const struct bctx c = { .l = l, .b = b, .file = file, .o = o, .path = path };
    for (m = bench_members; m->key; m++)
        read_member(&c, m);
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
        rcp_check_keys(&l, root, "(top level)", known, sizeof *known);
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

