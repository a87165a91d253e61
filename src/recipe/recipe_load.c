/* recipe_load.c - reads recipe files (schema: benches/tools/README.md)
 * into a recipe set: one file or text, a folder of them, the built-in
 * tools, with "tools/FILE.json: JSON.path: message" diagnostics; freeing
 * a set and the accessors of a set and of a benchmark. A benchmark is
 * read by the table of its members (recipe_schema.c). */
#include "config.h"
#include "recipe/recipe_impl.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "data/datadir.h"
#include "common/util.h"

/* --- freeing, accessors -------------------------------------------------- */

void recipe_set_free(struct recipe_set *set)
{
    if (!set)
        return;
    for (size_t i = 0; i < set->n; i++)
        rcp_bench_free(set->benches[i]);
    free(set->benches);
    free(set);
}

void recipe_strv_free(char **v)
{
    if (!v)
        return;
    for (char **p = v; *p; p++)
        free(*p);
    free(v);
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

/* --- loading: a file, a folder ------------------------------------------- */

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
                struct recipe_bench *b = rcp_load_bench(&l, root, o, p, tool);
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
                    rcp_bench_free(b);
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
    rcp_strv_free(names, (size_t)n);
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
