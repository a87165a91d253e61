/* recipe_parse.c - applies a recipe's PCRE2 patterns to a tool's output:
 * error patterns, captures mapped to metric ids, unit scaling, template
 * factors and duration conversion. */
#include "config.h"
#include "recipe/recipe_impl.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"

/* --- parsing ------------------------------------------------------------ */

size_t recipe_expected(const struct recipe_bench *b, size_t inv, const struct recipe_env *env,
                       const struct recipe_metric ***metrics, const char ***why_not)
{
    size_t n = inv < b->ninv ? b->inv_nexpect[inv] : 0;
    *metrics = xcalloc(n + 1, sizeof **metrics);
    *why_not = xcalloc(n + 1, sizeof **why_not);
    for (size_t i = 0; i < n; i++) {
        const struct expect *e = &b->inv_expect[inv][i];
        (*metrics)[i] = &b->metrics[e->metric];
        if (e->pattern == CPU_LOAD_PATTERN)
            continue;
        const struct pattern *pat = &b->pats[e->pattern];
        for (size_t r = 0; r < pat->nrequires && !(*why_not)[i]; r++) {
            const struct param *p = rcp_find_param(b, pat->requires[r]);
            char *v = p ? rcp_param_value(p, env) : NULL;
            if (!v)
                (*why_not)[i] = p && p->missing ? p->missing : "a parameter it needs is unset";
            free(v);
        }
    }
    return n;
}

static bool requires_met(const struct recipe_bench *b, const struct pattern *pat,
                         const struct recipe_env *env)
{
    for (size_t r = 0; r < pat->nrequires; r++) {
        const struct param *p = rcp_find_param(b, pat->requires[r]);
        char *v = p ? rcp_param_value(p, env) : NULL;
        if (!v)
            return false;
        free(v);
    }
    return true;
}

/* The line of `text` around offset `off`, trimmed, at most 160 chars. */
static char *line_at(const char *text, size_t off)
{
    const char *s = text + off;
    while (s > text && s[-1] != '\n')
        s--;
    const char *e = strchr(text + off, '\n');
    size_t n = e ? (size_t)(e - s) : strlen(s);
    char *line = xstrndup(s, utf8_cut(s, n, 160));
    str_trim(line);
    return line;
}

static char *group_text(const char *subject, const PCRE2_SIZE *ov, int n)
{
    if (ov[2 * n] == PCRE2_UNSET)
        return NULL;
    return xstrndup(subject + ov[2 * n], ov[2 * n + 1] - ov[2 * n]);
}

/* A whole number: digits with optional sign, fraction and exponent,
 * trailing blanks allowed. */
static bool parse_number(const char *text, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    while (*end == ' ' || *end == '\t')
        end++;
    if (end == text || *end || errno == ERANGE || !isfinite(v))
        return false;
    *out = v;
    return true;
}

/* A duration of one or more number+unit parts as systemd prints them
 * ("1min 6.365s", "1h 2min", "850ms", "2.5s"; units us, ms, s, min, h,
 * d, blank-separated or not), in seconds. A plain number is seconds. */
static bool parse_duration(const char *text, double *out)
{
    static const struct { const char *unit; double secs; } units[] = {
        { "us", 1e-6 }, { "ms", 1e-3 }, { "min", 60 }, { "s", 1 }, { "h", 3600 },
        { "d", 86400 },
    };
    const char *p = text;
    double total = 0;
    int parts = 0;
    for (;;) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (!*p)
            break;
        if (!isdigit((unsigned char)*p) && *p != '.')
            return false;
        char *end;
        errno = 0;
        double v = strtod(p, &end);
        if (end == p || errno == ERANGE || !isfinite(v) || v < 0)
            return false;
        p = end;
        double mult = 0;
        for (size_t i = 0; i < sizeof units / sizeof units[0] && mult == 0; i++) {
            size_t n = strlen(units[i].unit);
            if (strncmp(p, units[i].unit, n) == 0 && !isalpha((unsigned char)p[n])) {
                mult = units[i].secs;
                p += n;
            }
        }
        if (mult == 0) {
            while (*p == ' ' || *p == '\t')
                p++;
            if (*p || parts > 0)
                return false;       /* a bare number only on its own */
            mult = 1;
        }
        total += v * mult;
        parts++;
    }
    if (parts == 0)
        return false;
    *out = total;
    return true;
}

/* Multiplies *v by the emit's template factors, expanded in sc. False,
 * with the factor and its value added to d, when one is unset or not a
 * number. */
static bool apply_factors(const struct emit *e, const struct scope *sc, double *v,
                          struct diag *d)
{
    for (size_t i = 0; i < e->nfactors; i++) {
        char *s = rcp_tmpl_expand(&e->factors[i], sc, 0);
        double f;
        if (!s || !parse_number(s, &f) || f == 0) {
            if (s)
                diag_add(d, "the scale factor %s is \"%s\", not a non-zero number",
                         e->factors[i].src, s);
            else
                diag_add(d, "the scale factor %s is unset", e->factors[i].src);
            free(s);
            return false;
        }
        *v *= f;
        free(s);
    }
    return true;
}

/* Applies one pattern at one match. A capture that is not one of its
 * listed values makes the match no guide row: nothing is emitted. */
static void emit_match(const struct recipe_bench *b, size_t inv, const struct recipe_env *env,
                       const struct pattern *pat, const char *subject, const PCRE2_SIZE *ov,
                       recipe_match_fn fn, void *ctx, int *count)
{
    const char *names[MAX_TMPL_CAPS];
    char *vals[MAX_TMPL_CAPS];
    size_t nc = 0;
    bool ok = true;
    for (size_t c = 0; c < pat->ncaps && nc < MAX_TMPL_CAPS; c++) {
        const struct capture *cap = &pat->caps[c];
        int g = pcre2_substring_number_from_name(pat->re, (PCRE2_SPTR)cap->name);
        char *raw = g >= 0 ? group_text(subject, ov, g) : NULL;
        const char *to = NULL;
        for (size_t i = 0; raw && i < cap->n && !to; i++)
            if (strcmp(cap->from[i], raw) == 0)
                to = cap->to ? cap->to[i] : cap->from[i];
        free(raw);
        if (!to) {
            ok = false;
            break;
        }
        names[nc] = cap->name;
        vals[nc++] = xstrdup(to);
    }
    struct scope sc = { b, inv, env, names, (const char *const *)vals, nc };
    for (size_t ei = 0; ok && ei < pat->nemits; ei++) {
        const struct emit *e = &pat->emits[ei];
        char *text = e->group >= 0 ? group_text(subject, ov, e->group) : NULL;
        struct recipe_match m = { .unit = e->unit, .value = NAN, .offset = ov[0] };
        char *why = NULL;
        struct diag fd;
        diag_init(&fd);
        if (!text) {
            why = xstrdup("the value's capture did not take part in the match");
        } else {
            double v;
            bool num = e->duration ? parse_duration(text, &v) : parse_number(text, &v);
            if (!num) {
                why = xasprintf(e->duration ? "\"%s\" is not a duration"
                                            : "\"%s\" is not a number", text);
            } else if (!apply_factors(e, &sc, &v, &fd)) {
                why = xstrdup(diag_last(&fd));  /* which factor, and why */
            } else {
                v *= e->scale;
                if (e->has_min && v < e->min) {
                    char *line = line_at(subject, ov[0]);
                    why = xasprintf("the tool reported %s, a failed measurement (\"%s\")",
                                    text, line);
                    free(line);
                } else {
                    m.value = v;
                }
            }
        }
        m.invalid = why;
        for (size_t mi = 0; mi < e->nmetrics; mi++) {
            char *id = rcp_tmpl_expand(&e->metrics[mi], &sc, 0);
            if (!id)
                continue;
            m.metric = id;
            fn(ctx, &m);
            (*count)++;
            free(id);
        }
        free(why);
        diag_free(&fd);
        free(text);
    }
    for (size_t i = 0; i < nc; i++)
        free(vals[i]);
}

bool recipe_tool_error(const struct recipe_bench *b, const char *output, struct diag *d)
{
    if (!output)
        output = "";
    size_t len = strlen(output);
    for (size_t i = 0; i < b->nerrs; i++) {
        pcre2_match_data *md = pcre2_match_data_create_from_pattern(b->errs[i].re, NULL);
        bool found = pcre2_match(b->errs[i].re, (PCRE2_SPTR)output, len, 0, 0, md, NULL) > 0;
        if (found) {
            char *line = line_at(output, pcre2_get_ovector_pointer(md)[0]);
            diag_add(d, "%s (\"%s\")", b->errs[i].reason, line);
            free(line);
        }
        pcre2_match_data_free(md);
        if (found)
            return true;
    }
    return false;
}

int recipe_parse(const struct recipe_bench *b, size_t inv, const struct recipe_env *env,
                 const char *output, recipe_match_fn fn, void *ctx, struct diag *d)
{
    if (!output)
        output = "";
    if (recipe_tool_error(b, output, d))
        return -1;
    size_t len = strlen(output);
    pcre2_match_data *md = NULL;
    int count = 0;
    for (size_t pi = 0; pi < b->npats; pi++) {
        const struct pattern *pat = &b->pats[pi];
        if (!requires_met(b, pat, env) || (inv < b->ninv && !rcp_only_applies(b, &pat->only, inv)))
            continue;
        md = pcre2_match_data_create_from_pattern(pat->re, NULL);
        PCRE2_SIZE start = 0;
        while (start <= len) {
            int rc = pcre2_match(pat->re, (PCRE2_SPTR)output, len, start, 0, md, NULL);
            if (rc <= 0)
                break;
            PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
            emit_match(b, inv, env, pat, output, ov, fn, ctx, &count);
            if (!pat->multi && !(env && env->saved_log))
                break;
            start = ov[1] > ov[0] ? ov[1] : ov[0] + 1;
        }
        pcre2_match_data_free(md);
    }
    return count;
}
