/* recipe_template.c - recipe templates ("{op}", "{size.bytes}", "{peer}"):
 * parsing, checking against the benchmark's names, expansion; parameters,
 * variables, invocations and the argument vectors built from them. */
#include "config.h"
#include "recipe/recipe_impl.h"

#include <ctype.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/cpuclock.h"
#include "common/util.h"

/* --- templates: parsing and validation ---------------------------------- */

static bool tmpl_parse(struct ld *l, const char *src, const char *path, struct tmpl *t)
{
    memset(t, 0, sizeof *t);
    t->src = xstrdup(src);
    size_t cap = 0;
    struct strbuf lit;
    sb_init(&lit);
    const char *p = src;
    while (*p) {
        if (p[0] == '{' && p[1] == '{') {
            sb_addn(&lit, "{", 1);
            p += 2;
            continue;
        }
        if (p[0] == '}' && p[1] == '}') {
            sb_addn(&lit, "}", 1);
            p += 2;
            continue;
        }
        if (*p != '{') {
            sb_addn(&lit, p, 1);
            p++;
            continue;
        }
        const char *end = strchr(p, '}');
        if (!end) {
            rcp_bad(l, path, "unclosed '{' at offset %zu", (size_t)(p - src));
            sb_free(&lit);
            return false;
        }
        if (lit.len) {
            xgrow(&t->segs, &cap, t->nsegs + 1, sizeof *t->segs);
            t->segs[t->nsegs++] = (struct seg){ .text = sb_steal(&lit) };
        }
        char *ref = xstrndup(p + 1, (size_t)(end - p - 1));
        struct seg s = { .ref = true };
        char *bar = strchr(ref, '|');
        if (bar) {
            *bar = '\0';
            const char *f = bar + 1;
            if (strcmp(f, "lower") == 0)
                s.filter = F_LOWER;
            else if (strcmp(f, "upper") == 0)
                s.filter = F_UPPER;
            else if (strcmp(f, "slug") == 0)
                s.filter = F_SLUG;
            else {
                rcp_bad(l, path, "unknown filter \"%s\" (lower, upper, slug)", f);
                free(ref);
                sb_free(&lit);
                return false;
            }
        }
        char *dot = strchr(ref, '.');
        if (dot) {
            *dot = '\0';
            s.field = xstrdup(dot + 1);
        }
        bool ok = *ref != '\0';
        for (const char *c = ref; *c; c++)
            ok &= isalnum((unsigned char)*c) || *c == '_';
        if (!ok) {
            rcp_bad(l, path, "bad reference \"{%s}\" at offset %zu", ref, (size_t)(p - src));
            free(ref);
            free(s.field);
            sb_free(&lit);
            return false;
        }
        s.text = ref;
        xgrow(&t->segs, &cap, t->nsegs + 1, sizeof *t->segs);
        t->segs[t->nsegs++] = s;
        p = end + 1;
    }
    if (lit.len) {
        xgrow(&t->segs, &cap, t->nsegs + 1, sizeof *t->segs);
        t->segs[t->nsegs++] = (struct seg){ .text = sb_steal(&lit) };
    }
    sb_free(&lit);
    return true;
}

bool rcp_tmpl_parse(struct ld *l, const char *src, const char *path, struct tmpl *t)
{
    if (tmpl_parse(l, src, path, t))
        return true;
    rcp_tmpl_free(t);
    memset(t, 0, sizeof *t);
    return false;
}

const struct var *rcp_find_var(const struct recipe_bench *b, const char *name)
{
    for (size_t i = 0; i < b->nvars; i++)
        if (strcmp(b->vars[i].name, name) == 0)
            return &b->vars[i];
    return NULL;
}

const struct param *rcp_find_param(const struct recipe_bench *b, const char *name)
{
    for (size_t i = 0; i < b->nparams; i++)
        if (strcmp(b->params[i].name, name) == 0)
            return &b->params[i];
    return NULL;
}

static bool is_builtin(const char *name)
{
    return strcmp(name, "tmpdir") == 0 || strcmp(name, "bindir") == 0 ||
           strcmp(name, "binary") == 0;
}

const struct capture *rcp_find_cap(const struct pattern *p, const char *name)
{
    for (size_t i = 0; p && i < p->ncaps; i++)
        if (strcmp(p->caps[i].name, name) == 0)
            return &p->caps[i];
    return NULL;
}

bool rcp_re_has_group(const pcre2_code *re, const char *name)
{
    return pcre2_substring_number_from_name(re, (PCRE2_SPTR)name) >= 0;
}

/* Every reference must resolve: a capture of the pattern (metric templates
 * only, and it must list its values), a variable (and its field), a
 * parameter or a built-in. */
void rcp_tmpl_check(struct ld *l, const struct recipe_bench *b, const struct tmpl *t,
                       const struct pattern *pat, const char *path)
{
    for (size_t i = 0; i < t->nsegs; i++) {
        const struct seg *s = &t->segs[i];
        if (!s->ref)
            continue;
        if (pat && rcp_re_has_group(pat->re, s->text)) {
            if (s->field)
                rcp_bad(l, path, "capture \"%s\" has no fields", s->text);
            else if (!rcp_find_cap(pat, s->text))
                rcp_bad(l, path, "capture \"%s\" is used in a metric id: list its values in "
                    "\"captures\" (\"map\" or \"values\")", s->text);
            continue;
        }
        const struct var *v = rcp_find_var(b, s->text);
        if (v) {
            if (!s->field)
                continue;
            bool any = false;
            for (size_t j = 0; j < v->nvalues && !any; j++)
                for (size_t k = 0; k < v->values[j].nfields && !any; k++)
                    any = strcmp(v->values[j].fnames[k], s->field) == 0;
            if (!any)
                rcp_bad(l, path, "no value of variable \"%s\" has a field \"%s\"", s->text,
                    s->field);
            continue;
        }
        if (s->field) {
            rcp_bad(l, path, "\"{%s.%s}\": \"%s\" is not a variable", s->text, s->field, s->text);
            continue;
        }
        if (!rcp_find_param(b, s->text) && !is_builtin(s->text))
            rcp_bad(l, path, "unknown name \"%s\" (not a variable, parameter%s or built-in)",
                s->text, pat ? ", capture" : "");
    }
}

void rcp_tmpl_free(struct tmpl *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->nsegs; i++) {
        free(t->segs[i].text);
        free(t->segs[i].field);
    }
    free(t->segs);
    free(t->src);
}

/* --- templates: expansion ------------------------------------------------ */

/* Index of variable k's value in invocation inv: the first variable
 * varies slowest. */
static size_t var_index(const struct recipe_bench *b, size_t inv, size_t k)
{
    size_t stride = 1;
    for (size_t j = b->nvars; j-- > k + 1;)
        stride *= b->vars[j].nvalues;
    return (inv / stride) % b->vars[k].nvalues;
}

bool rcp_only_applies(const struct recipe_bench *b, const struct only *o, size_t inv)
{
    for (size_t i = 0; i < o->n; i++) {
        const char *v = b->vars[o->var[i]].values[var_index(b, inv, o->var[i])].value;
        bool in = false;
        for (size_t j = 0; j < o->nvalues[i] && !in; j++)
            in = strcmp(o->values[i][j], v) == 0;
        if (!in)
            return false;
    }
    return true;
}

char *rcp_param_value(const struct param *p, const struct recipe_env *env)
{
    bool quick = env && env->quick;
    size_t nl = strlen(p->name);
    for (const char *const *o = env ? env->params : NULL; o && *o; o++)
        if (strncmp(*o, p->name, nl) == 0 && (*o)[nl] == '=')
            return xstrdup(*o + nl + 1);
    if (p->source == P_FIXED) {
        const char *v = quick ? p->quick : p->full;
        return v ? xstrdup(v) : NULL;
    }
    if (p->source == P_OPTION) {
        const char *v = recipe_option(p->option);
        return v ? xstrdup(v) : NULL;
    }
    if (!env || env->saved_log)
        return NULL;
    int cpu = sched_getcpu();
    double mhz = cpuclock_cpufreq_cur_mhz(NULL, cpu < 0 ? 0 : cpu);
    if (mhz <= 0)
        return NULL;
    if (p->source == P_CPUFREQ_KHZ)
        return xasprintf("%.0f", mhz * 1000);
    return xasprintf("%.0f", mhz);
}

static char *apply_filter(char *s, enum filter f)
{
    if (f == F_LOWER || f == F_UPPER)
        for (char *c = s; *c; c++)
            *c = (char)(f == F_LOWER ? tolower((unsigned char)*c) : toupper((unsigned char)*c));
    if (f == F_SLUG) {
        char *t = str_slug(s);
        free(s);
        return t;
    }
    return s;
}

/* The value of one reference; NULL when unset. */
static char *resolve(const struct seg *s, const struct scope *sc, int depth)
{
    for (size_t i = 0; i < sc->ncaps; i++)
        if (strcmp(sc->cap_names[i], s->text) == 0)
            return xstrdup(sc->cap_values[i]);
    const struct recipe_bench *b = sc->b;
    for (size_t k = 0; k < b->nvars; k++) {
        if (strcmp(b->vars[k].name, s->text) != 0)
            continue;
        const struct var_value *vv = &b->vars[k].values[var_index(b, sc->inv, k)];
        if (!s->field)
            return xstrdup(vv->value);
        for (size_t f = 0; f < vv->nfields; f++)
            if (strcmp(vv->fnames[f], s->field) == 0)
                return depth < 4 ? rcp_tmpl_expand(&vv->fvalues[f], sc, depth + 1) : NULL;
        return NULL;
    }
    const struct param *p = rcp_find_param(b, s->text);
    if (p)
        return rcp_param_value(p, sc->env);
    const char *v = NULL;
    if (sc->env) {
        if (strcmp(s->text, "tmpdir") == 0)
            v = sc->env->tmpdir;
        else if (strcmp(s->text, "bindir") == 0)
            v = sc->env->bindir;
        else if (strcmp(s->text, "binary") == 0)
            v = sc->env->binary;
    }
    return v ? xstrdup(v) : NULL;
}

/* The expanded string, or NULL when a reference is unset. */
char *rcp_tmpl_expand(const struct tmpl *t, const struct scope *sc, int depth)
{
    struct strbuf sb;
    sb_init(&sb);
    sb_add(&sb, "");
    for (size_t i = 0; i < t->nsegs; i++) {
        const struct seg *s = &t->segs[i];
        if (!s->ref) {
            sb_add(&sb, s->text);
            continue;
        }
        char *v = resolve(s, sc, depth);
        if (!v) {
            sb_free(&sb);
            return NULL;
        }
        v = apply_filter(v, s->filter);
        sb_add(&sb, v);
        free(v);
    }
    return sb_steal(&sb);
}

/* --- invocations -------------------------------------------------------- */

bool recipe_invocation_lookup(const struct recipe_bench *b, const char *spec, size_t *inv)
{
    size_t idx[64] = { 0 };
    bool set[64] = { false };
    if (b->nvars > 64)
        return false;
    char *copy = xstrdup(spec ? spec : ""), *save = NULL;
    bool ok = true;
    for (char *w = strtok_r(copy, " \t", &save); w && ok; w = strtok_r(NULL, " \t", &save)) {
        char *eq = strchr(w, '=');
        if (!eq) {
            ok = false;
            break;
        }
        *eq = '\0';
        ok = false;
        for (size_t k = 0; k < b->nvars; k++) {
            if (strcmp(b->vars[k].name, w) != 0 || set[k])
                continue;
            for (size_t j = 0; j < b->vars[k].nvalues; j++)
                if (strcmp(b->vars[k].values[j].value, eq + 1) == 0) {
                    idx[k] = j;
                    set[k] = ok = true;
                    break;
                }
        }
    }
    free(copy);
    for (size_t k = 0; k < b->nvars && ok; k++)
        ok = set[k];
    if (!ok)
        return false;
    size_t n = 0;
    for (size_t k = 0; k < b->nvars; k++)
        n = n * b->vars[k].nvalues + idx[k];
    *inv = n;
    return true;
}

char *recipe_invocation_label(const struct recipe_bench *b, size_t inv)
{
    struct strbuf sb;
    sb_init(&sb);
    sb_add(&sb, "");
    for (size_t k = 0; k < b->nvars; k++)
        sb_addf(&sb, "%s%s=%s", k ? " " : "", b->vars[k].name,
                b->vars[k].values[var_index(b, inv, k)].value);
    return sb_steal(&sb);
}

static void strv_push(char ***v, size_t *n, size_t *cap, char *s)
{
    xgrow(v, cap, *n + 2, sizeof **v);
    (*v)[(*n)++] = s;
    (*v)[*n] = NULL;
}

char **recipe_argv(const struct recipe_bench *b, size_t inv, const struct recipe_env *env,
                   const char *step)
{
    const struct argv_tmpl *t = &b->args;
    if (step && strcmp(step, "setup") == 0) {
        if (!b->has_setup)
            return NULL;
        t = &b->setup;
    } else if (step && strcmp(step, "teardown") == 0) {
        if (!b->has_teardown)
            return NULL;
        t = &b->teardown;
    } else if (env && env->binary) {
        const char *base = strrchr(env->binary, '/');
        base = base ? base + 1 : env->binary;
        for (size_t i = 0; i < b->nbins; i++)
            if (strcmp(b->bins[i].name, base) == 0 && b->bins[i].has_args)
                t = &b->bins[i].args;
    }
    char **v = NULL;
    size_t n = 0, cap = 0;
    strv_push(&v, &n, &cap, xstrdup(env && env->binary ? env->binary : b->bins[0].name));
    struct scope sc = { b, inv, env, NULL, NULL, 0 };
    for (size_t i = 0; i < t->nargs; i++) {
        const struct arg *g = &t->args[i];
        char *words[16];
        size_t nw = 0;
        bool unset = false;
        for (size_t j = 0; j < g->nwords && j < 16; j++) {
            words[nw] = rcp_tmpl_expand(&g->words[j], &sc, 0);
            if (!words[nw])
                unset = true;
            else
                nw++;
        }
        for (size_t j = 0; j < nw; j++) {
            if (unset)
                free(words[j]);
            else
                strv_push(&v, &n, &cap, words[j]);
        }
    }
    return v;
}

char **recipe_envv(const struct recipe_bench *b, size_t inv, const struct recipe_env *env)
{
    char **v = NULL;
    size_t n = 0, cap = 0;
    xgrow(&v, &cap, 1, sizeof *v);
    v[0] = NULL;
    struct scope sc = { b, inv, env, NULL, NULL, 0 };
    for (size_t i = 0; i < b->nenv; i++) {
        char *val = rcp_tmpl_expand(b->env[i].value, &sc, 0);
        if (val) {
            strv_push(&v, &n, &cap, xasprintf("%s=%s", b->env[i].name, val));
            free(val);
        }
    }
    return v;
}

char *recipe_cwd(const struct recipe_bench *b, size_t inv, const struct recipe_env *env)
{
    if (!b->cwd)
        return NULL;
    struct scope sc = { b, inv, env, NULL, NULL, 0 };
    return rcp_tmpl_expand(b->cwd, &sc, 0);
}

/* --- run parameters, CPU load, scratch files ----------------------------- */

const char *recipe_unrunnable(const struct recipe_bench *b, const struct recipe_env *env)
{
    for (size_t i = 0; i < b->nrequires; i++) {
        const struct param *p = rcp_find_param(b, b->requires[i]);
        char *v = p ? rcp_param_value(p, env) : NULL;
        if (!v)
            return p && p->missing ? p->missing : "a parameter it needs is unset";
        free(v);
    }
    return NULL;
}

char *recipe_cpu_load_metric(const struct recipe_bench *b, size_t inv,
                             const struct recipe_env *env, enum cpuload_scope *scope)
{
    if (!b->has_cpu_load || inv >= b->ninv)
        return NULL;
    if (scope)
        *scope = b->cpu_scope;
    struct scope sc = { b, inv, env, NULL, NULL, 0 };
    return rcp_tmpl_expand(&b->cpu_load.metrics[0], &sc, 0);
}

char *recipe_scratch(const struct recipe_bench *b, const struct recipe_env *env)
{
    if (!b->scratch)
        return NULL;
    struct scope sc = { b, 0, env, NULL, NULL, 0 };
    return rcp_tmpl_expand(b->scratch, &sc, 0);
}
