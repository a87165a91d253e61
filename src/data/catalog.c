/* catalog.c - the guide's sections as a menu, with their providers. */
#include "config.h"
#include "data/catalog.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/util.h"

#define OTHER_CATEGORY "Other"

/* Categories match by a key, not the title as printed: SDK releases title
 * the same section with and without " Driver" ("CRYPTO" / "CRYPTO Driver"). */
static char *category_key(const char *title)
{
    char *key = str_slug(title);
    size_t n = strlen(key);
    if (n > 7 && strcmp(key + n - 7, "_driver") == 0)
        key[n - 7] = '\0';
    return key;
}

static struct cat_category *category_get(struct catalog *c, const char *title)
{
    char *key = category_key(title);
    for (size_t i = 0; i < c->ncats; i++) {
        char *other = category_key(c->cats[i].title);
        bool same = strcmp(other, key) == 0;
        free(other);
        if (same) {
            free(key);
            return &c->cats[i];
        }
    }
    free(key);
    c->cats = xrealloc(c->cats, (c->ncats + 1) * sizeof *c->cats);
    struct cat_category *cat = &c->cats[c->ncats++];
    memset(cat, 0, sizeof *cat);
    cat->title = xstrdup(title);
    return cat;
}

/* The category of a table: the heading just above its section, so that a
 * guide which nests everything under one heading (the AM62x guide numbers
 * Ethernet, CRYPTO and Low Power under "System Benchmarks") still shows
 * them as categories of their own. A top-level section is its own
 * category. Sections of a non-Linux SDK say which SDK they are from: their
 * numbers are for another core (the MCU+ SDK's are for the R5F). */
static char *category_title(const struct ref_table *t)
{
    const char *title = t->section[t->nsection >= 2 ? t->nsection - 2 : 0];
    const char *sdk = t->source->sdk;
    if (sdk && strcasecmp(sdk, "linux") != 0) {
        char *upper = xstrdup(sdk);
        for (char *p = upper; *p; p++)
            *p = (char)toupper((unsigned char)*p);
        char *s = xasprintf("%s (%s SDK)", title, upper);
        free(upper);
        return s;
    }
    return xstrdup(title);
}

static struct cat_bench *bench_get(struct cat_category *cat, const char *slug,
                                   const char *title)
{
    for (size_t i = 0; i < cat->nbenches; i++)
        if (strcmp(cat->benches[i]->slug, slug) == 0)
            return cat->benches[i];
    struct cat_bench *b = xcalloc(1, sizeof *b);
    b->slug = xstrdup(slug);
    b->title = xstrdup(title);
    cat->benches = xrealloc(cat->benches, (cat->nbenches + 1) * sizeof *cat->benches);
    cat->benches[cat->nbenches++] = b;
    return b;
}

static void add_kernel(struct cat_bench *b, const struct kernel *k)
{
    b->kernels = xrealloc(b->kernels, (b->nkernels + 1) * sizeof *b->kernels);
    b->kernels[b->nkernels++] = k;
}


/* Pointers to categories move while the array grows: link them at the end. */
static void link_categories(struct catalog *c)
{
    for (size_t i = 0; i < c->ncats; i++)
        for (size_t j = 0; j < c->cats[i].nbenches; j++)
            c->cats[i].benches[j]->category = &c->cats[i];
}

struct catalog *catalog_build(const struct refdb *db,
                              const struct kernel *const *kernels, size_t nkernels)
{
    struct catalog *c = xcalloc(1, sizeof *c);
    for (size_t i = 0; db && i < db->ntables; i++) {
        const struct ref_table *t = db->tables[i];
        char *title = category_title(t);
        struct cat_category *cat = category_get(c, title);
        free(title);
        struct cat_bench *b = bench_get(cat, t->section_slug, t->section[t->nsection - 1]);
        b->tables = xrealloc(b->tables, (b->ntables + 1) * sizeof *b->tables);
        b->tables[b->ntables++] = t;
    }
    for (size_t k = 0; k < nkernels; k++) {
        bool placed = false;
        for (size_t i = 0; i < c->ncats; i++)
            for (size_t j = 0; j < c->cats[i].nbenches; j++)
                if (strcasecmp(c->cats[i].benches[j]->slug, kernels[k]->section) == 0) {
                    add_kernel(c->cats[i].benches[j], kernels[k]);
                    placed = true;
                }
        if (!placed) {
            struct cat_category *other = category_get(c, OTHER_CATEGORY);
            add_kernel(bench_get(other, kernels[k]->section, kernels[k]->section),
                       kernels[k]);
        }
    }
    link_categories(c);
    return c;
}

void catalog_free(struct catalog *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->ncats; i++) {
        for (size_t j = 0; j < c->cats[i].nbenches; j++) {
            struct cat_bench *b = c->cats[i].benches[j];
            free(b->slug);
            free(b->title);
            free(b->tables);
            free(b->kernels);
            free(b);
        }
        free(c->cats[i].benches);
        free(c->cats[i].title);
    }
    free(c->cats);
    free(c);
}

const struct cat_bench *catalog_find_bench(const struct catalog *c, const char *name)
{
    for (size_t i = 0; c && i < c->ncats; i++)
        for (size_t j = 0; j < c->cats[i].nbenches; j++) {
            const struct cat_bench *b = c->cats[i].benches[j];
            if (strcasecmp(b->slug, name) == 0)
                return b;
            for (size_t k = 0; k < b->nkernels; k++)
                if (strcasecmp(b->kernels[k]->name, name) == 0)
                    return b;
        }
    return NULL;
}

const struct cat_category *catalog_find_category(const struct catalog *c, const char *name)
{
    for (size_t i = 0; c && i < c->ncats; i++) {
        char *slug = str_slug(c->cats[i].title);
        bool match = strcasecmp(c->cats[i].title, name) == 0 || strcasecmp(slug, name) == 0;
        free(slug);
        if (match)
            return &c->cats[i];
    }
    return NULL;
}

static const char *const provider_names[] = { "auto", "kernel", "tool" };

int provider_pref_parse(const char *s)
{
    for (size_t i = 0; i < ARRAY_SIZE(provider_names); i++)
        if (strcmp(s, provider_names[i]) == 0)
            return (int)i;
    return -1;
}

const char *provider_pref_name(enum provider_pref p)
{
    return (size_t)p < ARRAY_SIZE(provider_names) ? provider_names[p] : "auto";
}

static bool is_tool(const struct kernel *k)
{
    return k->provider && strcmp(k->provider, "tool") == 0;
}

/* True when the available tool kernels of b produce every metric of k. */
static bool covered_by_tools(const struct cat_bench *b, const struct kernel *k,
                             kernel_available_fn available)
{
    for (size_t m = 0; m < k->nmetrics; m++) {
        bool found = false;
        for (size_t t = 0; t < b->nkernels && !found; t++) {
            const struct kernel *tk = b->kernels[t];
            found = is_tool(tk) && (!available || available(tk)) &&
                    kernel_metric_find(tk, k->metrics[m].id) != NULL;
        }
        if (!found)
            return false;
    }
    return true;
}

size_t cat_bench_runnable(const struct cat_bench *b, bool extras, enum provider_pref pref,
                          kernel_available_fn available, const struct kernel **out)
{
    size_t n = 0;
    for (size_t i = 0; i < b->nkernels; i++) {
        const struct kernel *k = b->kernels[i];
        if (k->extra && !extras)
            continue;
        bool tool = is_tool(k);
        if (pref == PROVIDER_KERNEL && tool)
            continue;
        if (pref == PROVIDER_TOOL && !tool)
            continue;
        if (pref == PROVIDER_AUTO) {
            if (tool && available && !available(k))
                continue;
            if (!tool && covered_by_tools(b, k, available))
                continue;
        }
        out[n++] = k;
    }
    return n;
}

size_t cat_bench_count_metrics(const struct cat_bench *b)
{
    size_t n = 0;
    for (size_t t = 0; t < b->ntables; t++)
        for (size_t r = 0; r < b->tables[t]->nrows; r++) {
            bool seen = false;
            for (size_t u = 0; u < t && !seen; u++)
                for (size_t q = 0; q < b->tables[u]->nrows && !seen; q++)
                    seen = strcmp(b->tables[u]->rows[q].slug, b->tables[t]->rows[r].slug) == 0;
            for (size_t q = 0; q < r && !seen; q++)
                seen = strcmp(b->tables[t]->rows[q].slug, b->tables[t]->rows[r].slug) == 0;
            n += !seen;
        }
    return n;
}
