/* screen_baselines.c - the baseline picker of the results screen: the
 * saved baselines and the runs of the results store, newest run first,
 * and "none". Enter makes the selected one the baseline the results are
 * compared with. */
#include "config.h"
#define EVMBENCH_UI_PRIVATE 1
#include "screens/ui.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/store.h"
#include "common/util.h"

#define HEAD_ROWS 3     /* title, blank, column header */

struct baselines {
    struct baseline_choice *c;
    size_t n;
    struct list list;       /* item 0 is "none", i + 1 is c[i] */
    char problem[256];      /* the first unreadable file, if any */
};

static const struct hint hints[] = {
    { ACT_ENTER, "choose" },
    { ACT_SEARCH, "search" },
    { ACT_HELP, "help" },
    { ACT_BACK, "back" },
    { ACT_NONE, NULL },
};

static void baselines_enter(struct screen *s, const struct screen_arg *arg)
{
    struct baselines *v = xcalloc(1, sizeof *v);
    const char *dir = job_results_dir(ui_job(s->ui)), *now = NULL;
    (void)arg;
    v->list = (struct list){ .head = HEAD_ROWS, .foot = 2 };
    s->priv = v;
    if (!dir)
        return;
    struct diag d;
    diag_init(&d);
    v->n = store_baseline_choices(dir, &v->c, &d);
    if (d.n)
        snprintf(v->problem, sizeof v->problem, "%s%s", d.msgs[0],
                 d.n > 1 ? " (and more)" : "");
    diag_free(&d);
    /* start on the baseline in use */
    if (job_baseline(ui_job(s->ui), &now))
        for (size_t i = 0; i < v->n; i++)
            if (strcmp(v->c[i].name, now) == 0) {
                v->list.pos.sel = i + 1;
                break;
            }
}

static void baselines_leave(struct screen *s)
{
    struct baselines *v = s->priv;
    store_baseline_choices_free(v->c, v->n);
    free(v);
}

static void baselines_draw(struct screen *s, WINDOW *w, bool full)
{
    struct baselines *v = s->priv;
    bool utf8 = ui_utf8(s->ui);
    int width = getmaxx(w), rows = getmaxy(w);
    size_t n = v->n + 1, vis = list_visible(&v->list, n, rows);
    const char *dir = job_results_dir(ui_job(s->ui)), *now = NULL;
    char line[320], name[64];
    (void)full;
    job_baseline(ui_job(s->ui), &now);
    list_clamp(&v->list, n, rows);
    const struct list_pos *p = &v->list.pos;
    snprintf(line, sizeof line, "Baseline: the results show their change from it (%s)",
             dir ? dir : "no results store");
    widget_text(w, 0, 1, width - 2, ROLE_HEADER, line, utf8);
    snprintf(line, sizeof line, "  %-40s %-9s %7s  %s", "name", "kind", "metrics", "");
    widget_text(w, 2, 0, width, ROLE_HEADER, line, utf8);
    for (size_t i = p->top; i < n && i < p->top + vis; i++) {
        bool sel = i == p->sel;
        int y = HEAD_ROWS + (int)(i - p->top);
        if (i == 0) {
            snprintf(line, sizeof line, "%c %-40s %-9s", sel ? '>' : ' ', "(none)", "");
        } else {
            const struct baseline_choice *c = &v->c[i - 1];
            bool in_use = now && now[0] && strcmp(now, c->name) == 0;
            fmt_fit_tail(name, sizeof name, c->name, 40, utf8);
            snprintf(line, sizeof line, "%c %-40s %-9s %7zu  %s%s", sel ? '>' : ' ', name,
                     c->is_run ? "run" : "baseline", c->rows,
                     c->complete ? "" : "incomplete ", in_use ? "(in use)" : "");
        }
        widget_text(w, y, 0, width, sel ? ROLE_SELECTION : ROLE_NORMAL, line, utf8);
    }
    if (!v->n)
        widget_text(w, HEAD_ROWS + 1, 2, width - 3, ROLE_DIM,
                    dir ? "No saved baselines or runs yet (S on the results screen saves one)."
                        : "No results store: runs are not saved (--no-save?).", utf8);
    if (v->problem[0])
        widget_text(w, rows - 1, 1, width - 2, ROLE_WARN, v->problem, utf8);
}

static enum action baselines_action(struct screen *s, enum action a)
{
    struct baselines *v = s->priv;
    if (list_key(&v->list, v->n + 1, ui_body_rows(s->ui), a)) {
        ui_dirty(s->ui);
        return ACT_NONE;
    }
    if (a == ACT_ENTER) {
        size_t sel = v->list.pos.sel;
        const char *name = sel ? v->c[sel - 1].name : NULL;
        if (job_set_baseline(ui_job(s->ui), name)) {
            if (name)
                ui_message(s->ui, ROLE_NOTE, "baseline: %s", name);
            else
                ui_message(s->ui, ROLE_NOTE, "no baseline");
            ui_pop(s->ui);
        }
        return ACT_NONE;
    }
    if (a == ACT_BASELINE)
        return ACT_NONE;
    return a;
}

/* Search: a baseline's or run's name ("none" has none). */
static bool choice_matches(void *ctx, size_t i, const char *q)
{
    const struct baselines *v = ctx;
    return i && list_text_matches(v->c[i - 1].name, q);
}

static bool baselines_search(struct screen *s, const char *q, int dir)
{
    struct baselines *v = s->priv;
    return list_search(&v->list, v->n + 1, ui_body_rows(s->ui), dir, choice_matches, v, q);
}

const struct screen_ops screen_baselines = {
    .name = "baselines",
    .keys = NULL,
    .hints = hints,
    .enter = baselines_enter,
    .leave = baselines_leave,
    .draw = baselines_draw,
    .on_action = baselines_action,
    .search = baselines_search,
};
