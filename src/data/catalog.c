/* catalog.c - the guide's sections as a menu, with their providers. */
#include "config.h"
#include "data/catalog.h"

#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/lines.h"
#include "common/util.h"
#include "data/datadir.h"

#define OTHER_CATEGORY "Other"
#define ALIAS_FILE "sections.conf"

/* --- the alias table -------------------------------------------------------- */

void cat_aliases_init(struct cat_aliases *al)
{
    memset(al, 0, sizeof *al);
}

void cat_aliases_free(struct cat_aliases *al)
{
    for (size_t i = 0; i < al->ngroups; i++) {
        for (size_t j = 0; j < al->groups[i].nnames; j++)
            free(al->groups[i].names[j]);
        free(al->groups[i].names);
    }
    for (size_t i = 0; i < al->nsocs; i++) {
        for (size_t j = 0; j < al->socs[i].nboards; j++)
            free(al->socs[i].boards[j]);
        free(al->socs[i].boards);
        free(al->socs[i].name);
        free(al->socs[i].guide);
    }
    free(al->groups);
    free(al->socs);
    cat_aliases_init(al);
}

/* True when name ("Title" or "Parent / Title") names the section title
 * under parent. */
static bool alias_matches(const char *name, const char *parent, const char *title)
{
    const char *sep = strstr(name, " / ");
    char *want = str_slug(sep ? sep + 3 : name), *got = str_slug(title);
    bool same = strcmp(want, got) == 0;
    free(want);
    free(got);
    if (same && sep) {
        char *pname = xstrndup(name, (size_t)(sep - name));
        want = str_slug(pname);
        got = str_slug(parent ? parent : "");
        same = strcmp(want, got) == 0;
        free(pname);
        free(want);
        free(got);
    }
    return same;
}

int cat_aliases_group(const struct cat_aliases *al, const char *parent, const char *title)
{
    for (size_t i = 0; al && i < al->ngroups; i++)
        for (size_t j = 0; j < al->groups[i].nnames; j++)
            if (alias_matches(al->groups[i].names[j], parent, title))
                return (int)i;
    return -1;
}

/* The line of an earlier group that has name, or 0. */
static int alias_line_of(const struct cat_aliases *al, const char *name)
{
    char *slug = str_slug(name);
    int line = 0;
    for (size_t i = 0; i < al->ngroups && !line; i++)
        for (size_t j = 0; j < al->groups[i].nnames && !line; j++) {
            char *other = str_slug(al->groups[i].names[j]);
            if (strcmp(other, slug) == 0)
                line = al->groups[i].line;
            free(other);
        }
    free(slug);
    return line;
}

/* "same A = B [= C ...]": false, with the reason in *why, when wrong. */
static bool parse_same(struct cat_aliases *al, char *rest, int lineno, char *why, size_t size)
{
    struct cat_alias_group g = { .line = lineno };
    bool ok = true;
    for (char *p = rest; ok && p;) {
        char *eq = strchr(p, '=');
        if (eq)
            *eq = '\0';
        char *name = str_trim(p);
        p = eq ? eq + 1 : NULL;
        char *slug = str_slug(name);
        int earlier = *slug ? alias_line_of(al, name) : 0;
        free(slug);
        if (!*name || strspn(name, "/ ") == strlen(name)) {
            snprintf(why, size, "an empty name (expected: same NAME = NAME [= NAME...])");
            ok = false;
        } else if (earlier) {
            snprintf(why, size, "'%s' is already named on line %d", name, earlier);
            ok = false;
        } else {
            g.names = xrealloc(g.names, (g.nnames + 1) * sizeof *g.names);
            g.names[g.nnames++] = xstrdup(name);
        }
    }
    if (ok && g.nnames < 2) {
        snprintf(why, size, "a group needs two names or more (same NAME = NAME [= NAME...])");
        ok = false;
    }
    if (!ok) {
        for (size_t j = 0; j < g.nnames; j++)
            free(g.names[j]);
        free(g.names);
        return false;
    }
    al->groups = xrealloc(al->groups, (al->ngroups + 1) * sizeof *al->groups);
    al->groups[al->ngroups++] = g;
    return true;
}

/* "soc NAME GUIDE BOARD-PATTERN...": false, with *why, when wrong. */
static bool parse_soc(struct cat_aliases *al, char *rest, int lineno, char *why, size_t size)
{
    char *words[3 + 32];
    size_t n = 0;
    for (char *w = strtok(rest, " \t"); w; w = strtok(NULL, " \t")) {
        if (n == ARRAY_SIZE(words)) {
            snprintf(why, size, "too many board patterns (at most %zu)", ARRAY_SIZE(words) - 2);
            return false;
        }
        words[n++] = w;
    }
    if (n < 3) {
        snprintf(why, size, "expected: soc NAME GUIDE-FILE BOARD-PATTERN...");
        return false;
    }
    if (strchr(words[1], '/')) {
        snprintf(why, size, "'%s': the guide is a file name of the refs folder, without a '/'",
                 words[1]);
        return false;
    }
    struct cat_soc soc = { .name = xstrdup(words[0]), .guide = xstrdup(words[1]),
                           .line = lineno };
    soc.boards = xcalloc(n - 2, sizeof *soc.boards);
    for (size_t i = 2; i < n; i++)
        soc.boards[soc.nboards++] = xstrdup(words[i]);
    al->socs = xrealloc(al->socs, (al->nsocs + 1) * sizeof *al->socs);
    al->socs[al->nsocs++] = soc;
    return true;
}

int cat_aliases_parse(struct cat_aliases *al, const char *text, const char *file,
                      struct diag *dg)
{
    int errors = 0;
    struct lines it;
    lines_init(&it, text, LINES_HASH_FIRST);
    for (char *line; (line = lines_next(&it));) {
        char why[200];
        size_t kw = strcspn(line, " \t");
        char *rest = line + kw + strspn(line + kw, " \t");
        bool ok;
        if (kw == 4 && strncmp(line, "same", 4) == 0) {
            ok = parse_same(al, rest, it.lineno, why, sizeof why);
        } else if (kw == 3 && strncmp(line, "soc", 3) == 0) {
            ok = parse_soc(al, rest, it.lineno, why, sizeof why);
        } else {
            snprintf(why, sizeof why, "unknown line '%.*s' (expected 'same' or 'soc')",
                     (int)(kw > 40 ? 40 : kw), line);
            ok = false;
        }
        if (!ok) {
            diag_add(dg, "%s:%d: %s", file, it.lineno, why);
            errors++;
        }
    }
    return errors;
}

int cat_aliases_load_default(struct cat_aliases *al, struct diag *dg)
{
    struct data_dir d;
    data_dir_default(&d, "refs");
    char *label = data_dir_file_label(&d, ALIAS_FILE);
    char *text = data_dir_read(&d, ALIAS_FILE, 1 << 20, NULL);
    int problems = 0;
    if (text)
        problems = cat_aliases_parse(al, text, label, dg);
    else if (errno != ENOENT) {
        diag_add(dg, "%s: cannot read: %s", label, file_strerror(errno));
        problems = 1;
    }
    free(text);
    free(label);
    data_dir_free(&d);
    return problems;
}

/* --- placing a guide's tables in categories ---------------------------------- */

/* The title a table's category is shown with: the heading just above its
 * section, so that a guide which nests everything under one heading (the
 * AM62x guide numbers Ethernet, CRYPTO and Low Power under "System
 * Benchmarks") still shows them as categories of their own. A top-level
 * section is its own category. Sections of a non-Linux SDK say which SDK
 * they are from: their numbers are for another core (the MCU+ SDK's are
 * for the R5F). */
static const char *category_raw(const struct ref_table *t)
{
    return t->section[t->nsection >= 2 ? t->nsection - 2 : 0];
}

static bool is_linux(const struct ref_source *s)
{
    return !s->sdk || strcasecmp(s->sdk, "linux") == 0;
}

static char *category_title(const struct ref_table *t)
{
    const char *title = category_raw(t);
    if (!is_linux(t->source)) {
        char *upper = xstrdup(t->source->sdk);
        for (char *p = upper; *p; p++)
            *p = (char)toupper((unsigned char)*p);
        char *s = xasprintf("%s (%s SDK)", title, upper);
        free(upper);
        return s;
    }
    return xstrdup(title);
}

/* Categories being filled from several guides: where each alias group
 * went first. */
struct placer {
    const struct cat_aliases *al;
    ssize_t *group_cat;     /* per alias group: its category index, -1 */
};

static void placer_init(struct placer *p, const struct cat_aliases *al)
{
    p->al = al;
    size_t n = al ? al->ngroups : 0;
    p->group_cat = xcalloc(n ? n : 1, sizeof *p->group_cat);
    for (size_t i = 0; i < n; i++)
        p->group_cat[i] = -1;
}

static size_t category_add(struct cat_category **cats, size_t *ncats, const char *title)
{
    *cats = xrealloc(*cats, (*ncats + 1) * sizeof **cats);
    struct cat_category *cat = &(*cats)[*ncats];
    memset(cat, 0, sizeof *cat);
    cat->title = xstrdup(title);
    return (*ncats)++;
}

/* The category index of a table: where its benchmark's alias went, else
 * where its category's alias went, else the category of the same title,
 * else a new one. */
static size_t place_table(struct placer *p, struct cat_category **cats, size_t *ncats,
                          const struct ref_table *t)
{
    const char *bench = t->section[t->nsection - 1];
    const char *parent = t->nsection >= 2 ? t->section[t->nsection - 2] : NULL;
    const char *raw = category_raw(t);
    const char *above = t->nsection >= 3 ? t->section[t->nsection - 3] : NULL;
    int gb = cat_aliases_group(p->al, parent, bench);
    int gc = cat_aliases_group(p->al, t->nsection >= 2 ? above : NULL, raw);
    ssize_t ci = gb >= 0 ? p->group_cat[gb] : -1;
    if (ci < 0 && gc >= 0)
        ci = p->group_cat[gc];
    char *title = category_title(t);
    for (size_t i = 0; ci < 0 && i < *ncats; i++)
        if (strcasecmp((*cats)[i].title, title) == 0)
            ci = (ssize_t)i;
    if (ci < 0)
        ci = (ssize_t)category_add(cats, ncats, title);
    free(title);
    if (gb >= 0 && p->group_cat[gb] < 0)
        p->group_cat[gb] = ci;
    if (gc >= 0 && p->group_cat[gc] < 0)
        p->group_cat[gc] = ci;
    return (size_t)ci;
}

/* --- the catalog ---------------------------------------------------------------- */

static size_t category_get(struct cat_category **cats, size_t *ncats, const char *title)
{
    for (size_t i = 0; i < *ncats; i++)
        if (strcasecmp((*cats)[i].title, title) == 0)
            return i;
    return category_add(cats, ncats, title);
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

/* True when k measures what some table of b holds: the tables of an MCU+
 * SDK guide are numbers of the R5F, which only a kernel that says it runs
 * there ("sdk": "mcu+" in its recipe) measures; without one the section
 * is reference-only. */
static bool same_sdk(const struct cat_bench *b, const struct kernel *k)
{
    const char *ksdk = k->sdk ? k->sdk : "linux";
    for (size_t t = 0; t < b->ntables; t++) {
        const char *tsdk = b->tables[t]->source->sdk;
        if (strcasecmp(tsdk ? tsdk : "linux", ksdk) == 0)
            return true;
    }
    return b->ntables == 0;
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

struct catalog *catalog_build(const struct refdb *db, struct cat_aliases *aliases,
                              const struct kernel *const *kernels, size_t nkernels)
{
    struct catalog *c = xcalloc(1, sizeof *c);
    c->db = db;
    if (aliases) {
        c->aliases = *aliases;
        cat_aliases_init(aliases);
    }
    size_t ntables = db ? db->ntables : 0;
    c->bench_of = xcalloc(ntables ? ntables : 1, sizeof *c->bench_of);
    struct placer pl;
    placer_init(&pl, &c->aliases);
    for (size_t i = 0; i < ntables; i++) {
        const struct ref_table *t = db->tables[i];
        size_t ci = place_table(&pl, &c->cats, &c->ncats, t);
        struct cat_bench *b = bench_get(&c->cats[ci], t->section_slug,
                                        t->section[t->nsection - 1]);
        b->tables = xrealloc(b->tables, (b->ntables + 1) * sizeof *b->tables);
        b->tables[b->ntables++] = t;
        c->bench_of[i] = b;
    }
    free(pl.group_cat);
    for (size_t k = 0; k < nkernels; k++) {
        bool placed = false;
        for (size_t i = 0; i < c->ncats; i++)
            for (size_t j = 0; j < c->cats[i].nbenches; j++)
                if (strcasecmp(c->cats[i].benches[j]->slug, kernels[k]->section) == 0 &&
                    same_sdk(c->cats[i].benches[j], kernels[k])) {
                    add_kernel(c->cats[i].benches[j], kernels[k]);
                    placed = true;
                }
        if (!placed) {
            size_t other = category_get(&c->cats, &c->ncats, OTHER_CATEGORY);
            add_kernel(bench_get(&c->cats[other], kernels[k]->section, kernels[k]->section),
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
    free(c->bench_of);
    cat_aliases_free(&c->aliases);
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
    /* a guide's own title of a category that joined another one */
    size_t ntables = c && c->db ? c->db->ntables : 0;
    for (size_t i = 0; i < ntables; i++) {
        const char *raw = category_raw(c->db->tables[i]);
        char *slug = str_slug(raw);
        bool match = strcasecmp(raw, name) == 0 || strcasecmp(slug, name) == 0;
        free(slug);
        if (match)
            return c->bench_of[i]->category;
    }
    return NULL;
}

/* --- the menu ------------------------------------------------------------------ */

static void bench_add_unique(struct cat_category *cat, struct cat_bench *b)
{
    for (size_t i = 0; i < cat->nbenches; i++)
        if (cat->benches[i] == b)
            return;
    cat->benches = xrealloc(cat->benches, (cat->nbenches + 1) * sizeof *cat->benches);
    cat->benches[cat->nbenches++] = b;
}

static void view_free(struct cat_view *v)
{
    for (size_t i = 0; i < v->ncats; i++) {
        free(v->cats[i].title);
        free(v->cats[i].benches);
    }
    free(v->cats);
    free(v->title);
    memset(v, 0, sizeof *v);
}

/* The file name of a refs file's path ("built-in:refs/x.json": "x.json"). */
static const char *source_file(const struct ref_source *s)
{
    const char *slash = strrchr(s->path, '/');
    return slash ? slash + 1 : s->path;
}

/* True when a table of source s has a column for board. */
static bool source_has_board(const struct refdb *db, const struct ref_source *s,
                             const char *board)
{
    for (size_t i = 0; i < db->ntables; i++) {
        const struct ref_table *t = db->tables[i];
        for (size_t k = 0; t->source == s && k < t->ncols; k++)
            if (t->cols[k].board && strcmp(t->cols[k].board, board) == 0)
                return true;
    }
    return false;
}

/* The Linux guide with a column for board, the newest when several have
 * one (the later loaded when their versions tie); NULL when none. */
static const struct ref_source *board_guide(const struct refdb *db, const char *board)
{
    const struct ref_source *best = NULL;
    for (size_t i = 0; board && db && i < db->nsources; i++) {
        const struct ref_source *s = db->sources[i];
        if (is_linux(s) && source_has_board(db, s, board) &&
            (!best || ref_version_cmp(s->version, best->version) >= 0))
            best = s;
    }
    return best;
}

/* The SoC entry of the alias table whose board patterns match board. */
static const struct cat_soc *board_soc(const struct cat_aliases *al, const char *board)
{
    for (size_t i = 0; board && i < al->nsocs; i++)
        for (size_t j = 0; j < al->socs[i].nboards; j++)
            if (fnmatch(al->socs[i].boards[j], board, 0) == 0)
                return &al->socs[i];
    return NULL;
}

/* True when source s is an MCU+ SDK guide of the SoC named soc. */
static bool soc_guide(const struct cat_aliases *al, const char *soc, const struct ref_source *s)
{
    if (!soc || is_linux(s))
        return false;
    for (size_t i = 0; i < al->nsocs; i++)
        if (strcmp(al->socs[i].name, soc) == 0 && strcmp(al->socs[i].guide, source_file(s)) == 0)
            return true;
    return false;
}

/* Which part of the menu the tables of source s are in. */
static enum cat_menu_part source_part(const struct catalog *c, const struct cat_menu *m,
                                      const struct ref_source *s)
{
    if (!m->guide || s == m->guide)
        return MENU_MAIN;
    return soc_guide(&c->aliases, m->soc, s) ? MENU_MCU : MENU_OTHERS;
}

/* Fills the three views: each table's benchmark into its part, placed as
 * the catalog places them but among that part's guides alone. */
static void menu_fill(const struct catalog *c, struct cat_menu *m)
{
    struct placer pl[3];
    for (int p = 0; p < 3; p++)
        placer_init(&pl[p], &c->aliases);
    size_t ntables = c->db ? c->db->ntables : 0;
    for (size_t i = 0; i < ntables; i++) {
        const struct ref_table *t = c->db->tables[i];
        enum cat_menu_part p = source_part(c, m, t->source);
        struct cat_view *v = &m->part[p];
        size_t ci = place_table(&pl[p], &v->cats, &v->ncats, t);
        bench_add_unique(&v->cats[ci], c->bench_of[i]);
        bool seen = false;
        for (size_t k = 0; k < i && !seen; k++)
            seen = c->db->tables[k]->source == t->source;
        v->nguides += !seen;
    }
    for (int p = 0; p < 3; p++)
        free(pl[p].group_cat);
    /* kernels no guide has: with the board's own benchmarks */
    for (size_t i = 0; i < c->ncats; i++)
        for (size_t j = 0; j < c->cats[i].nbenches; j++)
            if (!c->cats[i].benches[j]->ntables) {
                struct cat_view *v = &m->part[MENU_MAIN];
                size_t ci = category_get(&v->cats, &v->ncats, c->cats[i].title);
                bench_add_unique(&v->cats[ci], c->cats[i].benches[j]);
            }
}

struct cat_menu *catalog_menu(const struct catalog *c, const char *board)
{
    struct cat_menu *m = xcalloc(1, sizeof *m);
    m->guide = board_guide(c->db, board);
    const struct cat_soc *soc = board_soc(&c->aliases, board);
    m->soc = soc ? soc->name : NULL;
    menu_fill(c, m);
    if (m->guide)
        m->part[MENU_MAIN].title = xstrdup(m->guide->title ? m->guide->title
                                           : source_file(m->guide));
    else
        m->part[MENU_MAIN].title = xstrdup("every guide");
    m->part[MENU_MCU].title = xasprintf("MCU+ SDK sections for %s", m->soc ? m->soc : "?");
    m->part[MENU_OTHERS].title = xstrdup("Other guides");
    return m;
}

void cat_menu_free(struct cat_menu *m)
{
    if (!m)
        return;
    for (int p = 0; p < 3; p++)
        view_free(&m->part[p]);
    free(m);
}

size_t catalog_same_sections(const struct catalog *c, const char *section, const char ***out)
{
    size_t n = 0, ntables = c && c->db ? c->db->ntables : 0;
    const char **slugs = xcalloc(ntables + 1, sizeof *slugs);
    slugs[n++] = section;
    int group = -1;
    for (size_t i = 0; i < ntables && group < 0; i++) {
        const struct ref_table *t = c->db->tables[i];
        if (strcmp(t->section_slug, section) == 0)
            group = cat_aliases_group(&c->aliases, t->nsection >= 2
                                      ? t->section[t->nsection - 2] : NULL,
                                      t->section[t->nsection - 1]);
    }
    for (size_t i = 0; i < ntables && group >= 0; i++) {
        const struct ref_table *t = c->db->tables[i];
        if (cat_aliases_group(&c->aliases, t->nsection >= 2 ? t->section[t->nsection - 2] : NULL,
                              t->section[t->nsection - 1]) != group)
            continue;
        bool dup = false;
        for (size_t k = 0; k < n && !dup; k++)
            dup = strcmp(slugs[k], t->section_slug) == 0;
        if (!dup)
            slugs[n++] = t->section_slug;
    }
    *out = slugs;
    return n;
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
        if (tool && available && !available(k))
            continue;
        if (pref == PROVIDER_AUTO && !tool && covered_by_tools(b, k, available))
            continue;
        out[n++] = k;
    }
    return n;
}

const struct kernel *kernels_find_provided(const struct kernel *const *kernels, size_t n,
                                           const char *name, enum provider_pref pref,
                                           kernel_available_fn available)
{
    const struct kernel *embedded = NULL, *tool = NULL;
    for (size_t i = 0; i < n; i++) {
        const struct kernel *k = kernels[i];
        if (strcasecmp(k->name, name) != 0)
            continue;
        if (is_tool(k))
            tool = tool ? tool : k;
        else
            embedded = embedded ? embedded : k;
    }
    switch (pref) {
    case PROVIDER_KERNEL: return embedded;
    case PROVIDER_TOOL:   return tool;
    case PROVIDER_AUTO:   break;
    }
    if (tool && (!embedded || !available || available(tool)))
        return tool;
    return embedded;
}

/* Whether row r of table t has a number for board (any row: NULL). */
static bool row_has_board(const struct ref_table *t, size_t r, const char *board)
{
    if (!board)
        return true;
    for (size_t c = 0; c < t->ncols; c++)
        if (t->cols[c].board && strcmp(t->cols[c].board, board) == 0 &&
            t->rows[r].values[c].present && !t->rows[r].values[c].text)
            return true;
    return false;
}

size_t cat_bench_count_metrics(const struct cat_bench *b, const char *board)
{
    size_t n = 0;
    for (size_t t = 0; t < b->ntables; t++)
        for (size_t r = 0; r < b->tables[t]->nrows; r++) {
            if (!row_has_board(b->tables[t], r, board))
                continue;
            bool seen = false;
            /* counted already: the same row earlier, with a number too */
            const char *slug = b->tables[t]->rows[r].slug;
            for (size_t u = 0; u <= t && !seen; u++)
                for (size_t q = 0; q < (u < t ? b->tables[u]->nrows : r) && !seen; q++)
                    seen = strcmp(b->tables[u]->rows[q].slug, slug) == 0 &&
                           row_has_board(b->tables[u], q, board);
            n += !seen;
        }
    return n;
}
