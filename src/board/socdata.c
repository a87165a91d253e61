/* socdata.c - reading a SoC data file (socdata.h). */
#include "config.h"
#include "board/socdata.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"

#define SOCDATA_LIMIT (1u << 20)

void socdata_skip(struct socdata_entry *e, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *why = xvasprintf(fmt, ap);
    va_end(ap);
    diag_add(e->diag, "%s: %s: skipped: %s", e->label, e->path, why);
    free(why);
    e->skipped++;
}

/* What a JSON value is, for "socs is ..., not a list". */
static const char *json_kind(const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT:  return "an object";
    case JSON_STRING:  return "a string";
    case JSON_INTEGER:
    case JSON_REAL:    return "a number";
    case JSON_TRUE:
    case JSON_FALSE:   return "a boolean";
    case JSON_NULL:    return "null";
    default:           return "a list";
    }
}

/* The socs[] of root, or NULL (and why) when root is not a file of kind k. */
static json_t *socs_of(const struct socdata_kind *k, json_t *root, const char *label,
                       struct diag *d)
{
    const char *fmt = json_string_value(json_object_get(root, "format"));
    json_t *socs = json_object_get(root, "socs");
    if (!fmt || strcmp(fmt, k->format) != 0) {
        diag_add(d, "%s: not a %s data file (format %s, not %s, with a \"socs\" list)",
                 label, k->what, fmt ? fmt : "missing", k->format);
        return NULL;
    }
    if (!json_is_array(socs)) {
        diag_add(d, "%s: not a %s data file: socs is %s, not a list", label, k->what,
                 socs ? json_kind(socs) : "missing");
        return NULL;
    }
    return socs;
}

int socdata_parse(const struct socdata_kind *k, const char *text, const char *label,
                  socdata_entry_fn fn, void *ctx, struct diag *d)
{
    json_error_t e;
    json_t *root = json_loads(text, JSON_REJECT_DUPLICATES, &e);
    if (!root) {
        diag_add(d, "%s:%d:%d: %s", label, e.line, e.column, e.text);
        return -1;
    }
    json_t *socs = socs_of(k, root, label, d);
    if (!socs) {
        json_decref(root);
        return -1;
    }
    struct socdata_entry entry = { .label = label, .diag = d };
    size_t i;
    json_t *o;
    json_array_foreach(socs, i, o) {
        char path[32];
        snprintf(path, sizeof path, "socs[%zu]", i);
        entry.json = o;
        entry.path = path;
        if (json_is_object(o))
            fn(&entry, ctx);
        else
            socdata_skip(&entry, "not an object");
    }
    json_decref(root);
    return entry.skipped < INT_MAX ? (int)entry.skipped : INT_MAX;
}

int socdata_load(const struct socdata_kind *k, const struct data_dir *dir,
                 socdata_entry_fn fn, void *ctx, struct diag *d)
{
    struct data_dir own;
    if (!dir) {
        data_dir_default(&own, "soc");
        dir = &own;
    }
    char *label = data_dir_file_label(dir, k->name);
    char *text = data_dir_read(dir, k->name, SOCDATA_LIMIT, NULL);
    int rc = 0;
    if (text) {
        rc = socdata_parse(k, text, label, fn, ctx, d);
    } else if (errno != ENOENT || !k->optional) {
        diag_add(d, "%s: cannot read: %s", label, file_strerror(errno));
        rc = -1;
    }
    free(text);
    free(label);
    if (dir == &own)
        data_dir_free(&own);
    return rc;
}
