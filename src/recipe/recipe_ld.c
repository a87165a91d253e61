/* recipe_ld.c - the loading context of the recipe modules: reporting a
 * bad recipe as "tools/FILE.json: JSON.path: message", and reading JSON
 * members, arrays and objects with their paths. The loaders
 * (recipe_load.c, recipe_schema.c, recipe_read*.c, recipe_metric.c) and
 * recipe_template.c use it; it uses none of them. */
#include "config.h"
#include "recipe/recipe_impl.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"

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

const char *rcp_type_name(const json_t *j)
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

char *rcp_str(struct ld *l, const json_t *v, const char *path)
{
    if (!json_is_string(v)) {
        rcp_bad(l, path, "must be a string, not %s", rcp_type_name(v));
        return NULL;
    }
    return xstrdup(json_string_value(v));
}

char *rcp_get_str(struct ld *l, const json_t *o, const char *key, const char *path, bool req)
{
    json_t *v = json_object_get(o, key);
    if (!v) {
        if (req)
            rcp_bad(l, path, "missing \"%s\"", key);
        return NULL;
    }
    char *p = xasprintf("%s.%s", path, key);
    char *s = rcp_str(l, v, p);
    free(p);
    return s;
}

bool rcp_get_num(struct ld *l, const json_t *v, const char *path, double *out)
{
    if (!json_is_number(v)) {
        rcp_bad(l, path, "must be a number, not %s", rcp_type_name(v));
        return false;
    }
    *out = json_number_value(v);
    return true;
}

void rcp_check_keys(struct ld *l, const json_t *o, const char *path, const char *const *known,
                    size_t stride)
{
    const char *k;
    json_t *v;
    json_object_foreach((json_t *)o, k, v) {
        bool ok = false;
        for (const char *const *p = known; *p && !ok;
             p = (const char *const *)(const void *)((const char *)p + stride))
            ok = strcmp(*p, k) == 0;
        if (!ok)
            rcp_bad(l, path, "unknown member \"%s\"", k);
    }
}

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

void rcp_full_quick(struct ld *l, const json_t *v, const char *path, double *full,
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

void rcp_each_elem(const struct bctx *c, const json_t *a, const char *path, elem_fn *fn,
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

void rcp_each_member(const struct bctx *c, const json_t *o, const char *path, member_fn *fn,
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

bool rcp_want(struct ld *l, const json_t *v, json_type type, const char *path,
              const char *what)
{
    if (json_typeof(v) == type)
        return true;
    rcp_bad(l, path, "must be %s, not %s", what, rcp_type_name(v));
    return false;
}

void rcp_bad_member(struct ld *l, const char *path, const char *key, const char *fmt, ...)
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

void rcp_load_strings(struct ld *l, const json_t *a, const char *path, char ***out, size_t *n)
{
    if (!a || !rcp_want(l, a, JSON_ARRAY, path, "an array of strings"))
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
