/* screen_results.c - what the session measured: the latest value of each
 * metric (from a run that ended and was not cancelled) with the run that
 * measured it, beside the reference and its deviation; `h` lists every
 * value instead (older runs, cancelled and running ones dimmed). Sortable,
 * filtered to the rows that need a look (warn, off, failed); the columns
 * follow the terminal's width, and the lines below the table say
 * everything about the selected row (min, max, samples, the guide's band,
 * why it failed). Rows are made afresh on each draw, so a new reference
 * board re-judges them. With a baseline (B: a saved baseline or run of the
 * store) a column is the change from it; S saves the latest values as a
 * named baseline, asking before it replaces one. */
#include "config.h"
#define EVMBENCH_UI_PRIVATE 1
#include "screens/ui.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"

#define HEAD_ROWS 3     /* title, blank, column header */
#define FOOT_ROWS 4     /* the selected row's details (3), the position */

struct results {
    struct list list;
    enum session_sort sort;
    bool problems;      /* only warn, off and failed rows */
    bool all;           /* every value, not only the latest */
};

static const struct binding keys[] = {
    { '\t', ACT_SORT },  { '>', ACT_SORT },
    { 'f', ACT_FILTER },
    { 'h', ACT_HISTORY },
    { 'B', ACT_BASELINE },
    { 'S', ACT_SAVE_BASELINE },
    { 0, ACT_NONE },
};

static const struct hint hints[] = {
    { ACT_SORT, "sort" },
    { ACT_FILTER, "warn/off" },
    { ACT_HISTORY, "history" },
    { ACT_BASELINE, "baseline" },
    { ACT_SAVE_BASELINE, "save" },
    { ACT_COMPARE, "compare" },
    { ACT_HELP, "help" },
    { ACT_BACK, "back" },
    { ACT_NONE, NULL },
};

/* The baseline name typed at S, while its replacement is asked. */
static char pending_name[128];

static size_t rows_now(const struct screen *s, struct session_row **out)
{
    const struct results *r = s->priv;
    unsigned flags = (r->problems ? SESSION_PROBLEMS : 0) | (r->all ? SESSION_ALL : 0);
    size_t n = job_results(ui_job(s->ui), flags, out);
    session_sort(*out, n, r->sort);
    return n;
}

static void results_enter(struct screen *s, const struct screen_arg *arg)
{
    struct results *r = xcalloc(1, sizeof *r);
    (void)arg;
    r->list = (struct list){ .head = HEAD_ROWS, .foot = FOOT_ROWS };
    s->priv = r;
}

static void results_leave(struct screen *s)
{
    free(s->priv);
}

static void draw_title(struct screen *s, WINDOW *w, size_t n, json_t *base,
                       const char *bname)
{
    const struct results *r = s->priv;
    char line[256];
    int o;
    if (r->all)
        o = snprintf(line, sizeof line, "Results: every value measured (%zu%s), sorted by %s",
                     n, r->problems ? " at warn, off or failed" : "",
                     session_sort_name(r->sort));
    else {
        size_t hidden = job_results_hidden(ui_job(s->ui));
        o = snprintf(line, sizeof line, "Results: %zu metric%s%s, sorted by %s", n,
                     n == 1 ? "" : "s", r->problems ? " at warn, off or failed" : " measured",
                     session_sort_name(r->sort));
        if (hidden && o < (int)sizeof line)
            o += snprintf(line + o, sizeof line - (size_t)o, " (+%zu older: h)", hidden);
    }
    if (base && o < (int)sizeof line)
        snprintf(line + o, sizeof line - (size_t)o, ", baseline %s", bname);
    widget_text(w, 0, 1, getmaxx(w) - 2, ROLE_HEADER, line, ui_utf8(s->ui));
}

static enum role row_role(const struct session_row *sr, bool sel)
{
    const struct result_row *row = &sr->row;
    if (sel)
        return ROLE_SELECTION;
    if (sr->state != SESSION_DONE || !sr->latest)
        return ROLE_DIM;        /* cancelled, running, or older */
    if (row->status != STATUS_OK)
        return ROLE_ERROR;
    return theme_verdict_role(row->dev.verdict,
                              row->dev.better && unit_direction(row->unit) != DIR_NEUTRAL);
}

/* The selected row in full, wrapped on the lines below the table. */
static void draw_detail(struct screen *s, WINDOW *w, const struct session_row *sr)
{
    char text[768], line[256];
    int width = getmaxx(w), y = getmaxy(w) - FOOT_ROWS;
    bool utf8 = ui_utf8(s->ui);
    const char *rest = fmt_result_detail(text, sizeof text, &sr->row, sr->number,
                                         job_store_id(ui_job(s->ui)));
    enum role role = sr->row.status != STATUS_OK && sr->state == SESSION_DONE ? ROLE_ERROR
                   : ROLE_DIM;
    for (int i = 0; i < FOOT_ROWS - 1 && rest; i++) {
        rest = fmt_wrap(line, sizeof line, rest, width - 2, utf8);
        if (rest && i == FOOT_ROWS - 2) {
            /* the last line says that more is cut */
            size_t len = strlen(line);
            if (len > 1)
                line[len - 1] = '~';
        }
        widget_text(w, y + i, 1, width - 2, role, line, utf8);
    }
}

static void results_draw(struct screen *s, WINDOW *w, bool full)
{
    struct results *r = s->priv;
    bool utf8 = ui_utf8(s->ui);
    int width = getmaxx(w), rows = getmaxy(w);
    char line[512];
    struct session_row *rs;
    size_t n = rows_now(s, &rs), vis = list_visible(&r->list, n, rows);
    const struct list_pos *p = &r->list.pos;
    const char *bname = NULL;
    json_t *base = job_baseline(ui_job(s->ui), &bname);
    (void)full;

    list_clamp(&r->list, n, rows);
    draw_title(s, w, n, base, bname);
    const char *caveat = n ? ui_board_caveat(s->ui, width - 2) : NULL;
    if (caveat)
        widget_text(w, 1, 1, width - 2, ROLE_WARN, caveat, utf8);
    /* the unit column is as wide as the longest unit shown */
    int unit_w = 0;
    for (size_t i = 0; i < n; i++) {
        int c = fmt_columns(fmt_unit(rs[i].row.unit));
        unit_w = c > unit_w ? c : unit_w;
    }
    struct result_layout lay;
    fmt_result_layout(&lay, width - 2, unit_w, base != NULL);
    fmt_result_header(line, sizeof line, &lay, base ? bname : NULL);
    widget_text(w, 2, 2, width - 2, ROLE_HEADER, line, utf8);
    if (!n)
        widget_text(w, HEAD_ROWS, 2, width - 2, ROLE_DIM, r->problems
                    ? "No metric at warn, off or failed (f shows all)."
                    : r->all || !job_results_hidden(ui_job(s->ui))
                    ? "Nothing measured yet: open a category and run a benchmark."
                    : "Nothing measured to the end yet (h lists cancelled and running "
                      "values).", utf8);
    for (size_t i = p->top; i < n && i < p->top + vis; i++) {
        bool sel = i == p->sel;
        enum role role = row_role(&rs[i], sel);
        int y = HEAD_ROWS + (int)(i - p->top);
        widget_text(w, y, 0, 2, role, sel ? "> " : "  ", utf8);
        fmt_result_line(line, sizeof line, &lay, &rs[i].row, rs[i].number, rs[i].state,
                        base, utf8);
        widget_text(w, y, 2, width - 2, role, line, utf8);
    }
    if (n)
        draw_detail(s, w, &rs[p->sel < n ? p->sel : 0]);
    if (n > vis) {
        snprintf(line, sizeof line, "rows %zu-%zu of %zu (PgUp/PgDn)", p->top + 1,
                 p->top + vis < n ? p->top + vis : n, n);
        widget_text(w, rows - 1, 1, width - 2, ROLE_DIM, line, utf8);
    }
    free(rs);
}

static void replace_done(struct ui *ui, bool yes)
{
    if (yes)
        job_save_baseline(ui_job(ui), pending_name);
    else
        ui_message(ui, ROLE_NOTE, "baseline '%s' kept as it was", pending_name);
}

static void save_done(struct ui *ui, const char *name)
{
    size_t had = 0, n;
    struct session_row *rs;
    if (!job_baseline_exists(ui_job(ui), name, &had)) {
        job_save_baseline(ui_job(ui), name);
        return;
    }
    n = job_results(ui_job(ui), 0, &rs);
    free(rs);
    snprintf(pending_name, sizeof pending_name, "%s", name);
    char q[160];
    snprintf(q, sizeof q, "baseline '%.60s' exists (%zu metric%s): replace it with these %zu? ",
             name, had, had == 1 ? "" : "s", n);
    ui_confirm(ui, q, replace_done);
}

static enum action results_action(struct screen *s, enum action a)
{
    struct results *r = s->priv;
    struct session_row *rs;
    size_t n = rows_now(s, &rs);
    enum action out = ACT_NONE;
    if (list_key(&r->list, n, ui_body_rows(s->ui), a)) {
        ui_dirty(s->ui);
    } else if (a == ACT_SORT) {
        r->sort = (enum session_sort)((r->sort + 1) % SESSION_SORT_COUNT);
        r->list.pos = (struct list_pos){ 0, 0 };
        ui_dirty(s->ui);
    } else if (a == ACT_FILTER) {
        r->problems = !r->problems;
        r->list.pos = (struct list_pos){ 0, 0 };
        ui_dirty(s->ui);
    } else if (a == ACT_HISTORY) {
        r->all = !r->all;
        r->list.pos = (struct list_pos){ 0, 0 };
        ui_message(s->ui, ROLE_NOTE, r->all ? "every value measured, older and cancelled "
                   "ones dimmed (h: the latest only)" : "the latest value of each metric "
                   "(h: every value)");
        ui_dirty(s->ui);
    } else if (a == ACT_BASELINE) {
        ui_push(s->ui, &screen_baselines, NULL);
    } else if (a == ACT_SAVE_BASELINE) {
        struct session_row *latest;
        size_t nl = job_results(ui_job(s->ui), 0, &latest);
        free(latest);
        if (nl)
            ui_prompt(s->ui, "save as baseline: ", save_done);
        else
            ui_message(s->ui, ROLE_NOTE, "nothing measured to the end yet to save as a "
                       "baseline");
    } else if ((a == ACT_COMPARE || a == ACT_ENTER) && n) {
        size_t sel = r->list.pos.sel;
        struct screen_arg arg = { .section = rs[sel].row.bench, .metric = rs[sel].row.metric };
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
