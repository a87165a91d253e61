/* screen_home.c - the menu: the categories of the board's own guide, in
 * the guide's order, then one entry for the MCU+ SDK sections of the same
 * SoC and one for every other guide (catalog.h, struct cat_menu). The
 * same screen, as screen_guides, lists one of those two parts. */
#include "config.h"
#define EVMBENCH_UI_PRIVATE 1
#include "screens/ui.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"

#define HEAD_ROWS 2     /* title line and a blank line above the list */

/* What a row of the list is. */
enum entry_kind { ENTRY_BOARD, ENTRY_CATEGORY, ENTRY_PART };

struct entry {
    enum entry_kind kind;
    const struct cat_category *cat;     /* ENTRY_CATEGORY */
    enum cat_menu_part part;            /* ENTRY_PART */
};

struct home {
    enum cat_menu_part part;    /* MENU_MAIN on home, else the part listed */
    struct cat_menu *menu;
    char *board;                /* the board the menu is for (NULL: none) */
    struct entry *entries;
    size_t nentries;
    struct list list;
};

static const struct hint hints[] = {
    { ACT_ENTER, "open" },
    { ACT_SEARCH, "search" },
    { ACT_RESULTS, "results" },
    { ACT_BOARD, "board" },
    { ACT_SETTINGS, "settings" },
    { ACT_HELP, "help" },
    { ACT_BACK, "quit" },
    { ACT_NONE, NULL },
};

static const struct hint part_hints[] = {
    { ACT_ENTER, "open" },
    { ACT_SEARCH, "search" },
    { ACT_RESULTS, "results" },
    { ACT_BOARD, "board" },
    { ACT_HELP, "help" },
    { ACT_BACK, "back" },
    { ACT_NONE, NULL },
};

static void add_entry(struct home *h, enum entry_kind kind, const struct cat_category *cat,
                      enum cat_menu_part part)
{
    h->entries = xrealloc(h->entries, (h->nentries + 1) * sizeof *h->entries);
    h->entries[h->nentries++] = (struct entry){ .kind = kind, .cat = cat, .part = part };
}

/* (Re)builds the menu when the reference board changed since it was made. */
static void menu_refresh(struct screen *s)
{
    struct home *h = s->priv;
    const struct app *a = ui_app(s->ui);
    const char *board = a->ref_board;
    if (h->menu && (board ? h->board && strcmp(board, h->board) == 0 : !h->board))
        return;
    cat_menu_free(h->menu);
    free(h->board);
    free(h->entries);
    h->entries = NULL;
    h->nentries = 0;
    h->board = board ? xstrdup(board) : NULL;
    h->menu = a->catalog ? catalog_menu(a->catalog, board) : NULL;
    if (!h->menu)
        return;
    if (h->part == MENU_MAIN && !h->menu->guide)
        add_entry(h, ENTRY_BOARD, NULL, MENU_MAIN);
    const struct cat_view *v = &h->menu->part[h->part];
    for (size_t i = 0; i < v->ncats; i++)
        add_entry(h, ENTRY_CATEGORY, &v->cats[i], h->part);
    if (h->part == MENU_MAIN) {
        if (h->menu->part[MENU_MCU].ncats)
            add_entry(h, ENTRY_PART, NULL, MENU_MCU);
        if (h->menu->part[MENU_OTHERS].ncats)
            add_entry(h, ENTRY_PART, NULL, MENU_OTHERS);
    }
    list_pos_clamp(&h->list.pos, h->nentries, 1);
}

static void home_enter(struct screen *s, const struct screen_arg *arg)
{
    struct home *h = xcalloc(1, sizeof *h);
    h->part = (enum cat_menu_part)arg->menu_part;
    /* the list's last row says "more" when it does not fit */
    h->list = (struct list){ .head = HEAD_ROWS, .marker = true };
    s->priv = h;
    menu_refresh(s);
}

static void home_leave(struct screen *s)
{
    struct home *h = s->priv;
    cat_menu_free(h->menu);
    free(h->board);
    free(h->entries);
    free(h);
}

/* "N benchmarks, M runnable": M counts what 'a' would start here, the
 * provider chosen for each benchmark (job_bench_kernels, as 'a' does). */
static void category_counts(struct screen *s, const struct cat_category *cat, char *buf,
                            size_t size)
{
    size_t runnable = 0, provided = 0;
    for (size_t b = 0; b < cat->nbenches; b++) {
        const struct cat_bench *bench = cat->benches[b];
        const struct kernel **ks = xcalloc(bench->nkernels ? bench->nkernels : 1, sizeof *ks);
        runnable += job_bench_kernels(ui_job(s->ui), bench, ks) > 0;
        provided += bench->nkernels > 0;
        free(ks);
    }
    if (!runnable && provided)
        snprintf(buf, size, "%zu benchmark%s, none runnable here", cat->nbenches,
                 cat->nbenches == 1 ? "" : "s");
    else
        fmt_bench_counts(buf, size, cat->nbenches, runnable);
}

/* The text of a row: its name and what it holds. */
static void entry_text(struct screen *s, const struct entry *e, char *name, size_t nsize,
                       char *what, size_t wsize)
{
    const struct home *h = s->priv;
    switch (e->kind) {
    case ENTRY_BOARD:
        snprintf(name, nsize, "Choose the board (b) ...");
        snprintf(what, wsize, "%s", h->board ? "no guide has this board" : "no board chosen");
        break;
    case ENTRY_CATEGORY:
        snprintf(name, nsize, "%s", e->cat->title);
        category_counts(s, e->cat, what, wsize);
        break;
    case ENTRY_PART: {
        const struct cat_view *v = &h->menu->part[e->part];
        snprintf(name, nsize, "%s ...", e->part == MENU_MCU ? v->title : "Other guides");
        snprintf(what, wsize, "%zu categor%s of %zu guide%s", v->ncats,
                 v->ncats == 1 ? "y" : "ies", v->nguides, v->nguides == 1 ? "" : "s");
        break;
    }
    }
}

/* The title line: which guide, for which board. */
static void title_line(struct screen *s, char *buf, size_t size)
{
    const struct home *h = s->priv;
    const struct cat_menu *m = h->menu;
    size_t n = m ? m->part[h->part].ncats : 0;
    if (h->part != MENU_MAIN)
        snprintf(buf, size, "%s: Performance Guide categories (%zu)",
                 m->part[h->part].title, n);
    else if (m && m->guide)
        snprintf(buf, size, "Performance Guide categories (%zu): %s", n,
                 m->part[MENU_MAIN].title);
    else if (h->board)
        snprintf(buf, size, "Performance Guide categories (%zu), every guide: none has %s",
                 n, h->board);
    else
        snprintf(buf, size, "Performance Guide categories (%zu), every guide: no board chosen",
                 n);
}

/* The last row when the list does not fit: where the rest is. */
static void more_marker(WINDOW *w, int y, int width, size_t top, size_t vis, size_t n,
                        bool utf8)
{
    char line[96];
    size_t below = top + vis < n ? n - top - vis : 0;
    if (!top && !below)
        return;
    if (top && below)
        snprintf(line, sizeof line, "  ^ %zu more above, v %zu more below", top, below);
    else if (below)
        snprintf(line, sizeof line, "  v %zu more below (Down, PgDn)", below);
    else
        snprintf(line, sizeof line, "  ^ %zu more above (Up, PgUp)", top);
    widget_text(w, y, 0, width, ROLE_DIM, line, utf8);
}

static void home_draw(struct screen *s, WINDOW *w, bool full)
{
    struct home *h = s->priv;
    bool utf8 = ui_utf8(s->ui);
    int width = getmaxx(w);
    char line[256], name[128], what[96], fitted[64];
    (void)full;

    menu_refresh(s);
    size_t n = h->nentries, vis = list_visible(&h->list, n, ui_body_rows(s->ui));
    list_clamp(&h->list, n, ui_body_rows(s->ui));
    title_line(s, line, sizeof line);
    widget_text(w, 0, 1, width - 2, ROLE_HEADER, line, utf8);
    if (!n) {
        widget_text(w, HEAD_ROWS, 1, width - 2, ROLE_DIM,
                    "No reference data loaded: nothing to show. "
                    "See 'evmbench refs'.", utf8);
        return;
    }
    const struct list_pos *p = &h->list.pos;
    for (size_t i = p->top; i < n && i < p->top + vis; i++) {
        const struct entry *e = &h->entries[i];
        bool sel = i == p->sel;
        entry_text(s, e, name, sizeof name, what, sizeof what);
        fmt_fit(fitted, sizeof fitted, name, 44, false, utf8);
        snprintf(line, sizeof line, "%s %s %s", sel ? ">" : " ", fitted, what);
        int y = HEAD_ROWS + (int)(i - p->top);
        widget_text(w, y, 0, width, sel ? ROLE_SELECTION : ROLE_NORMAL, line, utf8);
    }
    more_marker(w, HEAD_ROWS + (int)vis, width, p->top, vis, n, utf8);
}

static enum action home_action(struct screen *s, enum action a)
{
    struct home *h = s->priv;
    menu_refresh(s);
    size_t n = h->nentries;
    if (list_key(&h->list, n, ui_body_rows(s->ui), a)) {
        ui_dirty(s->ui);
        return ACT_NONE;
    }
    if ((a == ACT_ENTER || a == ACT_RUN) && n) {
        const struct entry *e = &h->entries[h->list.pos.sel];
        struct screen_arg arg = { .category = e->cat, .menu_part = (int)e->part };
        if (e->kind == ENTRY_BOARD)
            return ACT_BOARD;
        ui_push(s->ui, e->kind == ENTRY_PART ? &screen_guides : &screen_category, &arg);
        return ACT_NONE;
    }
    return a;
}

/* Search: an entry's name, or the key or title of a benchmark in its
 * category ("/stream" finds System Benchmarks). */
static bool entry_matches(void *ctx, size_t i, const char *q)
{
    struct screen *s = ctx;
    const struct home *h = s->priv;
    const struct entry *e = &h->entries[i];
    char name[128], what[96];
    entry_text(s, e, name, sizeof name, what, sizeof what);
    if (list_text_matches(name, q))
        return true;
    for (size_t b = 0; e->kind == ENTRY_CATEGORY && e->cat && b < e->cat->nbenches; b++)
        if (list_text_matches(e->cat->benches[b]->slug, q) ||
            list_text_matches(e->cat->benches[b]->title, q))
            return true;
    return false;
}

static bool home_search(struct screen *s, const char *q, int dir)
{
    struct home *h = s->priv;
    return list_search(&h->list, h->nentries, ui_body_rows(s->ui), dir, entry_matches, s, q);
}

const struct screen_ops screen_home = {
    .name = "home",
    .keys = NULL,
    .hints = hints,
    .enter = home_enter,
    .leave = home_leave,
    .draw = home_draw,
    .on_action = home_action,
    .search = home_search,
};

const struct screen_ops screen_guides = {
    .name = "guides",
    .keys = NULL,
    .hints = part_hints,
    .enter = home_enter,
    .leave = home_leave,
    .draw = home_draw,
    .on_action = home_action,
    .search = home_search,
};
