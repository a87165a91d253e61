/* screen_home.c - the guide's categories, in the guide's order. */
#include "config.h"
#define EVMBENCH_UI_PRIVATE 1
#include "screens/ui.h"

#include <stdio.h>
#include <stdlib.h>

#include "common/util.h"

#define HEAD_ROWS 2     /* title line and a blank line above the list */

struct home {
    struct list_pos pos;
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

static const struct catalog *catalog_of(const struct screen *s)
{
    return ui_app(s->ui)->catalog;
}

static size_t count(const struct screen *s)
{
    const struct catalog *c = catalog_of(s);
    return c ? c->ncats : 0;
}

static size_t visible(const struct screen *s)
{
    int rows = ui_body_rows(s->ui) - HEAD_ROWS;
    return rows > 0 ? (size_t)rows : 1;
}

static void home_enter(struct screen *s, const struct screen_arg *arg)
{
    (void)arg;
    s->priv = xcalloc(1, sizeof(struct home));
}

static void home_leave(struct screen *s)
{
    free(s->priv);
}

static void home_draw(struct screen *s, WINDOW *w, bool full)
{
    struct home *h = s->priv;
    const struct catalog *c = catalog_of(s);
    bool utf8 = ui_utf8(s->ui);
    int width = getmaxx(w);
    size_t n = count(s), vis = visible(s);
    char line[160], counts[64];
    (void)full;

    list_pos_clamp(&h->pos, n, vis);
    snprintf(line, sizeof line, "Performance Guide categories (%zu)", n);
    widget_text(w, 0, 1, width - 2, ROLE_HEADER, line, utf8);
    if (!n) {
        widget_text(w, HEAD_ROWS, 1, width - 2, ROLE_DIM,
                    "No reference data loaded: nothing to show. "
                    "See 'evmbench refs'.", utf8);
        return;
    }
    for (size_t i = h->pos.top; i < n && i < h->pos.top + vis; i++) {
        const struct cat_category *cat = &c->cats[i];
        size_t runnable = 0;
        for (size_t b = 0; b < cat->nbenches; b++)
            runnable += cat->benches[b]->nkernels > 0;
        fmt_bench_counts(counts, sizeof counts, cat->nbenches, runnable);
        bool sel = i == h->pos.sel;
        char title[64];
        fmt_fit(title, sizeof title, cat->title, 44, false, utf8);
        snprintf(line, sizeof line, "%s %s %s", sel ? ">" : " ", title, counts);
        int y = HEAD_ROWS + (int)(i - h->pos.top);
        widget_text(w, y, 0, width, sel ? ROLE_SELECTION : ROLE_NORMAL, line, utf8);
    }
}

static enum action home_action(struct screen *s, enum action a)
{
    struct home *h = s->priv;
    size_t n = count(s);
    if (list_pos_move(&h->pos, n, visible(s), a)) {
        ui_dirty(s->ui);
        return ACT_NONE;
    }
    if ((a == ACT_ENTER || a == ACT_RUN) && n) {
        struct screen_arg arg = { .category = &catalog_of(s)->cats[h->pos.sel] };
        ui_push(s->ui, &screen_category, &arg);
        return ACT_NONE;
    }
    return a;
}

static bool home_search(struct screen *s, const char *q, int dir)
{
    struct home *h = s->priv;
    const struct catalog *c = catalog_of(s);
    size_t n = count(s);
    for (size_t k = dir ? 1 : 0; n && k < n + (dir ? 1 : 0); k++) {
        size_t i = ui_search_index(h->pos.sel, k, dir, n);
        if (ui_text_matches(c->cats[i].title, q)) {
            h->pos.sel = i;
            list_pos_clamp(&h->pos, n, visible(s));
            return true;
        }
    }
    return false;
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
