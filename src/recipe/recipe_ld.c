/* recipe_ld.c - the loading context of the recipe modules: reporting a
 * bad recipe as "tools/FILE.json: JSON.path: message", and reading JSON
 * members with their paths. recipe_load.c and recipe_template.c both use
 * it; it uses neither. */
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
