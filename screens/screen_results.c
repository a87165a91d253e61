/* screen_results.c - every metric measured since the program started:
 * value, reference, deviation, status, provider; sortable, and filtered
 * to the rows that need a look (warn, off, failed). Rows are made afresh
 * on each draw, so a new reference board re-judges them. With a baseline
 * (B: a saved baseline or run of the store) the last column is the change
 * from it; S saves the rows as a named baseline. */
#include "config.h"
#define EVMBENCH_UI_PRIVATE 1
#include "screens/ui.h"

#include <stdio.h>
#include <stdlib.h>

#include "common/util.h"

#define HEAD_ROWS 3     /* title, blank, column header */

struct results {
    struct list_pos pos;
    enum session_sort sort;
    bool problems;      /* only warn, off and failed rows */
};

static const struct binding keys[] = {
    { '\t', ACT_SORT },  { '>', ACT_SORT },
    { 'f', ACT_FILTER },
    { 'B', ACT_BASELINE },
    { 'S', ACT_SAVE_BASELINE },
    { 0, ACT_NONE },
};

static const struct hint hints[] = {
    { ACT_SORT, "sort" },
    { ACT_FILTER, "warn/off" },
    { ACT_BASELINE, "baseline" },
    { ACT_SAVE_BASELINE, "save" },
    { ACT_COMPARE, "compare" },
    { ACT_HELP, "help" },
    { ACT_BACK, "back" },
    { ACT_NONE, NULL },
};

static size_t visible(const struct screen *s)
{
    int rows = ui_body_rows(s->ui) - HEAD_ROWS - 1;
    return rows > 0 ? (size_t)rows : 1;
}

static size_t rows_now(const struct screen *s, struct session_row **out)
{
    const struct results *r = s->priv;
    size_t n = job_results(ui_job(s->ui), r->problems, out);
    session_sort(*out, n, r->sort);
    return n;
}

static void results_enter(struct screen *s, const struct screen_arg *arg)
{
    (void)arg;
    s->priv = xcalloc(1, sizeof(struct results));
}

static void results_leave(struct screen *s)
{
    free(s->priv);
}

static void results_draw(struct screen *s, WINDOW *w, bool full)
{
    struct results *r = s->priv;
    bool utf8 = ui_utf8(s->ui);
    int width = getmaxx(w), rows = getmaxy(w);
    char line[256];
    struct session_row *rs;
    size_t n = rows_now(s, &rs), vis = visible(s);
    const char *bname = NULL;
    json_t *base = job_baseline(ui_job(s->ui), &bname);
    (void)full;

    list_pos_clamp(&r->pos, n, vis);
    int o = snprintf(line, sizeof line, "Results: %zu metric%s%s, sorted by %s", n,
                     n == 1 ? "" : "s", r->problems ? " at warn, off or failed" : " measured",
                     session_sort_name(r->sort));
    if (base)
        snprintf(line + o, sizeof line - (size_t)o, ", baseline %s", bname);
    widget_text(w, 0, 1, width - 2, ROLE_HEADER, line, utf8);
    fmt_result_header_vs(line, sizeof line, base ? bname : NULL);
    widget_text(w, 2, 2, width - 2, ROLE_HEADER, line, utf8);
    if (!n)
        widget_text(w, HEAD_ROWS, 2, width - 2, ROLE_DIM, r->problems
                    ? "No metric at warn, off or failed (f shows all)."
                    : "Nothing measured yet: open a category and run a benchmark.", utf8);
    for (size_t i = r->pos.top; i < n && i < r->pos.top + vis; i++) {
        const struct result_row *row = &rs[i].row;
        bool sel = i == r->pos.sel;
        enum role role = sel ? ROLE_SELECTION
                       : row->status != STATUS_OK ? ROLE_ERROR
                       : row->dev.verdict == VERDICT_OFF ? ROLE_OFF
                       : row->dev.verdict == VERDICT_WARN ? ROLE_WARN : ROLE_NORMAL;
        int y = HEAD_ROWS + (int)(i - r->pos.top);
        widget_text(w, y, 0, 2, role, sel ? "> " : "  ", utf8);
        fmt_result_line_vs(line, sizeof line, row, base, utf8);
        widget_text(w, y, 2, width - 2, role, line, utf8);
    }
    if (n > vis) {
        snprintf(line, sizeof line, "rows %zu-%zu of %zu (PgUp/PgDn)", r->pos.top + 1,
                 r->pos.top + vis < n ? r->pos.top + vis : n, n);
        widget_text(w, rows - 1, 1, width - 2, ROLE_DIM, line, utf8);
    }
    free(rs);
}

static void save_done(struct ui *ui, const char *name)
{
    job_save_baseline(ui_job(ui), name);
}

static enum action results_action(struct screen *s, enum action a)
{
    struct results *r = s->priv;
    struct session_row *rs;
    size_t n = rows_now(s, &rs);
    enum action out = ACT_NONE;
    if (list_pos_move(&r->pos, n, visible(s), a)) {
        ui_dirty(s->ui);
    } else if (a == ACT_SORT) {
        r->sort = (enum session_sort)((r->sort + 1) % SESSION_SORT_COUNT);
        r->pos = (struct list_pos){ 0, 0 };
        ui_dirty(s->ui);
    } else if (a == ACT_FILTER) {
        r->problems = !r->problems;
        r->pos = (struct list_pos){ 0, 0 };
        ui_dirty(s->ui);
    } else if (a == ACT_BASELINE) {
        ui_push(s->ui, &screen_baselines, NULL);
    } else if (a == ACT_SAVE_BASELINE) {
        if (n)
            ui_prompt(s->ui, "save as baseline: ", save_done);
        else
            ui_message(s->ui, ROLE_NOTE, "nothing measured yet to save as a baseline");
    } else if ((a == ACT_COMPARE || a == ACT_ENTER) && n) {
        struct screen_arg arg = { .section = rs[r->pos.sel].row.bench,
                                  .metric = rs[r->pos.sel].row.metric };
        ui_push(s->ui, &screen_compare, &arg);
    } else if (a == ACT_ENTER || a == ACT_COMPARE) {
        ui_message(s->ui, ROLE_NOTE, "nothing measured to compare yet");
    } else {
        out = a;
    }
    free(rs);
    return out;
}

const struct screen_ops screen_results = {
    .name = "results",
    .keys = keys,
    .hints = hints,
    .enter = results_enter,
    .leave = results_leave,
    .draw = results_draw,
    .on_action = results_action,
};
