/* recipe_read.c - readers of a benchmark's members from JSON: templates,
 * regexes and summaries; command lines, variables, parameters and the
 * environment; "only" restrictions; the files and paths a benchmark needs;
 * its binaries and error patterns. Each reports what is wrong at its JSON
 * path and fills struct recipe_bench; recipe_schema.c names them in its
 * table of members. */
#include "config.h"
#include "recipe/recipe_impl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"

static bool nonempty_array(struct ld *l, const json_t *v, const char *path)
{
    if (json_is_array(v) && json_array_size(v) > 0)
        return true;
    rcp_bad(l, path, "must be a non-empty array");
    return false;
}

void rcp_check_params_named(struct ld *l, const struct recipe_bench *b, char *const *names,
                            size_t n, const char *path)
{
    for (size_t i = 0; i < n; i++)
        if (!rcp_find_param(b, names[i]))
            rcp_bad(l, path, "\"%s\" is not a parameter", names[i]);
}

/* --- loading: templates, regexes, summaries ------------------------------ */

bool rcp_tmpl_add(struct ld *l, const json_t *v, const char *path, struct tmpl *t, size_t *n)
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
    if (rcp_tmpl_add(l, v, path, t, &n))
        return t;
    free(t);
    return NULL;
}

struct tmpl *rcp_tmpl_of(struct ld *l, const struct recipe_bench *b, const json_t *v,
                         const struct pattern *pat, const char *path)
{
    struct tmpl *t = tmpl_new(l, v, path);
    if (t)
        rcp_tmpl_check(l, b, t, pat, path);
    return t;
}

struct tmpl *rcp_opt_tmpl(struct ld *l, const struct recipe_bench *b, const json_t *o,
                          const char *key, const struct pattern *pat, const char *path)
{
    json_t *v = json_object_get(o, key);
    if (!v)
        return NULL;
    char *p = xasprintf("%s.%s", path, key);
    struct tmpl *t = rcp_tmpl_of(l, b, v, pat, p);
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

pcre2_code *rcp_regex_member(struct ld *l, const json_t *o, const char *path)
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

int rcp_parse_summary(struct ld *l, const char *s, const char *path)
{
    if (strcmp(s, "median") == 0) return SUMMARY_MEDIAN;
    if (strcmp(s, "mean") == 0) return SUMMARY_MEAN;
    if (strcmp(s, "max") == 0) return SUMMARY_MAX;
    if (strcmp(s, "min") == 0) return SUMMARY_MIN;
    rcp_bad(l, path, "unknown summary \"%s\" (median, mean, max, min)", s);
    return SUMMARY_MEDIAN;
}

void rcp_opt_summary(struct ld *l, const json_t *o, const char *path, enum summary *out)
{
    char *s = rcp_get_str(l, o, "summary", path, false);
    if (!s)
        return;
    char *p = xasprintf("%s.summary", path);
    *out = rcp_parse_summary(l, s, p);
    free(p);
    free(s);
}

/* --- loading: command lines, variables, parameters, environment ---------- */

static void load_word(const struct bctx *c, void *into, const json_t *v, const char *path)
{
    struct arg *g = into;
    rcp_tmpl_add(c->l, v, path, g->words, &g->nwords);
}

/* One argument: a word, or a group of words given all or none. */
static void load_arg(const struct bctx *c, void *into, const json_t *v, const char *path)
{
    struct argv_tmpl *out = into;
    struct arg *g = &out->args[out->nargs];
    if (json_is_string(v)) {
        g->words = xcalloc(1, sizeof *g->words);
        rcp_tmpl_add(c->l, v, path, g->words, &g->nwords);
        out->nargs++;
    } else if (json_is_array(v) && json_array_size(v) > 0) {
        g->words = xcalloc(json_array_size(v), sizeof *g->words);
        rcp_each_elem(c, v, path, load_word, g);
        out->nargs++;
    } else {
        rcp_bad(c->l, path, "must be a string or a non-empty array of strings, not %s",
            rcp_type_name(v));
    }
}

void rcp_load_argv(const struct bctx *c, const json_t *a, const char *path,
                   struct argv_tmpl *out)
{
    memset(out, 0, sizeof *out);
    if (!rcp_want(c->l, a, JSON_ARRAY, path, "an array of strings (or arrays of strings)"))
        return;
    out->args = xcalloc(json_array_size(a) + 1, sizeof *out->args);
    rcp_each_elem(c, a, path, load_arg, out);
}

void rcp_check_argv(struct ld *l, const struct recipe_bench *b, const struct argv_tmpl *a,
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
    if (strcmp(key, "value") != 0 && rcp_tmpl_add(c->l, v, path, vv->fvalues, &vv->nfields))
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
        rcp_each_member(c, x, path, load_var_field, vv);
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
    rcp_each_elem(c, vals, path, load_var_value, v);
}

void rcp_read_vars(const struct bctx *c, const json_t *o, const char *path)
{
    if (!rcp_want(c->l, o, JSON_OBJECT, path, "an object of value lists"))
        return;
    c->b->vars = xcalloc(json_object_size(o) + 1, sizeof *c->b->vars);
    rcp_each_member(c, o, path, load_var, NULL);
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
            rcp_bad_member(l, p, "source",
                           "unknown source \"%s\" (cpufreq_khz, cpufreq_mhz, option)", src);
        free(src);
    }
    pm->option = rcp_get_str(l, v, "option", p, pm->source == P_OPTION);
    if (pm->option && !recipe_option_known(pm->option))
        rcp_bad_member(l, p, "option",
                       "unknown option \"%s\" (storage_dir, storage_target, peer)", pm->option);
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
        rcp_param_clear(pm);
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
    if (o && rcp_want(c->l, o, JSON_OBJECT, path, "an object"))
        rcp_each_member(c, o, path, load_param, NULL);
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
    if (o && rcp_want(c->l, o, JSON_OBJECT, path, "an object of strings"))
        rcp_each_member(c, o, path, load_env_var, NULL);
}

void rcp_read_params(const struct bctx *c, const json_t *v, const char *path)
{
    load_params(c, json_object_get(c->file, "params"), "params");
    load_params(c, v, path);
}

void rcp_read_env(const struct bctx *c, const json_t *v, const char *path)
{
    load_env(c, json_object_get(c->file, "env"), "env");
    load_env(c, v, path);
    for (size_t i = 0; i < c->b->nenv; i++)
        rcp_tmpl_check(c->l, c->b, c->b->env[i].value, NULL, path);
}

/* --- loading: what holds for some invocations only ------------------------ */

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
    rcp_load_strings(c->l, a, path, &out->values[k], &out->nvalues[k]);
    json_decref(a);
    for (size_t i = 0; i < out->nvalues[k]; i++) {
        bool known = false;
        for (size_t j = 0; j < var->nvalues && !known; j++)
            known = strcmp(var->values[j].value, out->values[k][i]) == 0;
        if (!known)
            rcp_bad(c->l, path, "\"%s\" is not a value of \"%s\"", out->values[k][i], name);
    }
}

void rcp_load_only(const struct bctx *c, const json_t *o, const char *path, struct only *out)
{
    memset(out, 0, sizeof *out);
    if (!o || !rcp_want(c->l, o, JSON_OBJECT, path, "an object of variable: [values]"))
        return;
    size_t n = json_object_size(o);
    out->var = xcalloc(n + 1, sizeof *out->var);
    out->values = xcalloc(n + 1, sizeof *out->values);
    out->nvalues = xcalloc(n + 1, sizeof *out->nvalues);
    rcp_each_member(c, o, path, load_only_var, out);
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
        rcp_bad_member(l, path, "fill", "must be \"zero\" or \"random\"");
    free(fill);
}

bool rcp_read_file_entry(const struct bctx *c, void *slot, const json_t *o, const char *path)
{
    static const char *const known[] = { "name", "size", "fill", "content", "dir", "link",
                                         NULL };
    struct ld *l = c->l;
    struct rfile *f = slot;
    if (!rcp_want(l, o, JSON_OBJECT, path, "an object"))
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
        f->link = rcp_tmpl_of(l, c->b, link, NULL, pl);
        free(pl);
    } else if (json_is_true(json_object_get(o, "dir"))) {
        f->kind = RF_DIR;
    } else {
        rcp_bad(l, path, "give \"size\", \"content\", \"link\" or \"dir\": true");
    }
    return true;
}

bool rcp_read_need(const struct bctx *c, void *slot, const json_t *v, const char *path)
{
    struct need *n = slot;
    if (!rcp_want(c->l, v, JSON_OBJECT, path, "an object"))
        return false;
    n->path = rcp_get_str(c->l, v, "path", path, true);
    n->reason = rcp_get_str(c->l, v, "reason", path, false);
    char *po = xasprintf("%s.only", path);
    rcp_load_only(c, json_object_get(v, "only"), po, &n->only);
    free(po);
    return true;
}

/* --- a benchmark: members that need more than their kind's reader ------- */

bool rcp_read_binary(const struct bctx *c, void *slot, const json_t *v, const char *path)
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
            rcp_load_argv(c, ba, pa, &bin->args);
            rcp_check_argv(l, c->b, &bin->args, pa);
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
    rcp_argv_tmpl_free(&bin->args);
    memset(bin, 0, sizeof *bin);    /* the next one uses the slot */
    return false;
}

bool rcp_read_error(const struct bctx *c, void *slot, const json_t *v, const char *path)
{
    if (!rcp_want(c->l, v, JSON_OBJECT, path, "an object"))
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
