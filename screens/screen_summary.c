/* screen_summary.c - one screen after a category batch ('a') or a pass of
 * a profile (--demo): per metric the value measured, the reference, the
 * deviation, the verdict and the run that measured it, with the run file
 * of the store it was saved in. Failures and the worst deviations come
 * first (better ones last); what does not fit is counted (v lists every
 * result). Enter, q or Esc returns. */
#include "config.h"
#define EVMBENCH_UI_PRIVATE 1
#include "screens/ui.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"

#define HEAD_ROWS 5     /* title, counts, where saved, blank, column header */

struct summary_view {
    char title[128];
    size_t since;       /* the batches numbered from this one */
};

static const struct hint hints[] = {
    { ACT_ENTER, "back" },
    { ACT_RESULTS, "all results" },
    { ACT_HELP, "help" },
    { ACT_NONE, NULL },
};

/* The latest rows of the batches summarized, failures and the worst
 * deviations first. */
static size_t summary_rows(const struct screen *s, struct session_row **out)
{
    const struct summary_view *v = s->priv;
    size_t n = job_results(ui_job(s->ui), 0, out), kept = 0;
    for (size_t i = 0; i < n; i++)
        if ((*out)[i].number >= v->since)
            (*out)[kept++] = (*out)[i];
    session_sort(*out, kept, SESSION_SORT_DEVIATION);
    return kept;
}

static void summary_enter(struct screen *s, const struct screen_arg *arg)
{
    struct summary_view *v = xcalloc(1, sizeof *v);
    snprintf(v->title, sizeof v->title, "%s", arg->title ? arg->title : "the run");
    v->since = arg->since_run ? arg->since_run : job_batch_number(ui_job(s->ui));
    s->priv = v;
}

static void summary_leave(struct screen *s)
{
    free(s->priv);
}

/* "23 metrics: 18 in range, 2 warn, 3 off (1 of them better), 1 failed". */
static void count_line(char *buf, size_t size, const struct session_row *rs, size_t n)
{
    size_t in = 0, warn = 0, off = 0, ahead = 0, failed = 0, none = 0;
    for (size_t i = 0; i < n; i++) {
        const struct result_row *r = &rs[i].row;
        bool better = r->dev.better && unit_direction(r->unit) != DIR_NEUTRAL;
        if (r->status != STATUS_OK)
            failed++;
        else if (r->dev.verdict == VERDICT_IN_RANGE)
            in++;
        else if (r->dev.verdict == VERDICT_WARN)
            warn++, ahead += better;
        else if (r->dev.verdict == VERDICT_OFF)
            off++, ahead += better;
        else
            none++;
    }
    int o = snprintf(buf, size, "%zu metric%s: %zu in range, %zu warn, %zu off", n,
                     n == 1 ? "" : "s", in, warn, off);
    if (ahead && o > 0 && (size_t)o < size)
        o += snprintf(buf + o, size - (size_t)o, " (%zu of them better)", ahead);
    if (failed && o > 0 && (size_t)o < size)
        o += snprintf(buf + o, size - (size_t)o, ", %zu failed", failed);
    if (none && o > 0 && (size_t)o < size)
        snprintf(buf + o, size - (size_t)o, ", %zu no reference", none);
}

static void summary_draw(struct screen *s, WINDOW *w, bool full)
{
    const struct summary_view *v = s->priv;
    bool utf8 = ui_utf8(s->ui);
    int width = getmaxx(w), rows = getmaxy(w);
    char line[512], counts[160];
    struct session_row *rs;
    size_t n = summary_rows(s, &rs);
    const char *id = job_store_id(ui_job(s->ui));
    (void)full;

    snprintf(line, sizeof line, "Summary: %s", v->title);
    widget_text(w, 0, 1, width - 2, ROLE_HEADER, line, utf8);
    count_line(counts, sizeof counts, rs, n);
    widget_text(w, 1, 1, width - 2, ROLE_NORMAL, counts, utf8);
    if (id)
        snprintf(line, sizeof line, "saved in the results store as run %s", id);
    else
        snprintf(line, sizeof line, "not saved: %s", job_results_dir(ui_job(s->ui))
                 ? "the results store could not be written" : "no results store (--no-save)");
    widget_text(w, 2, 1, width - 2, id ? ROLE_NORMAL : ROLE_WARN, line, utf8);

    int unit_w = 0;
    for (size_t i = 0; i < n; i++) {
        int c = fmt_columns(fmt_unit(rs[i].row.unit));
        unit_w = c > unit_w ? c : unit_w;
    }
    struct result_layout lay;
    fmt_result_layout(&lay, width - 2, unit_w, false);
    fmt_result_header(line, sizeof line, &lay, NULL);
    widget_text(w, HEAD_ROWS - 1, 2, width - 2, ROLE_HEADER, line, utf8);
    if (!n)
        widget_text(w, HEAD_ROWS, 2, width - 2, ROLE_DIM,
                    "Nothing was measured to the end.", utf8);
    size_t room = rows > HEAD_ROWS ? (size_t)(rows - HEAD_ROWS) : 0;
    size_t shown = n <= room ? n : room ? room - 1 : 0;
    for (size_t i = 0; i < shown; i++) {
        const struct result_row *r = &rs[i].row;
        enum role role = r->status != STATUS_OK ? ROLE_ERROR
                       : theme_verdict_role(r->dev.verdict,
                                            r->dev.better &&
                                            unit_direction(r->unit) != DIR_NEUTRAL);
        fmt_result_line(line, sizeof line, &lay, r, rs[i].number, rs[i].state, NULL, utf8);
        widget_text(w, HEAD_ROWS + (int)i, 2, width - 2, role, line, utf8);
    }
    if (shown < n) {
        snprintf(line, sizeof line, "+%zu more not shown (worst first above): v lists every "
                 "result", n - shown);
        widget_text(w, rows - 1, 2, width - 2, ROLE_DIM, line, utf8);
    }
    free(rs);
}

static enum action summary_action(struct screen *s, enum action a)
{
    (void)s;
    return a == ACT_ENTER ? ACT_BACK : a;
}

const struct screen_ops screen_summary = {
    .name = "summary",
    .hints = hints,
    .enter = summary_enter,
    .leave = summary_leave,
    .draw = summary_draw,
    .on_action = summary_action,
};

void screen_summary_due(struct ui *ui)
{
    struct job *j = ui_job(ui);
    if (!job_take_summary(j))
        return;
    const struct cat_bench *b = job_batch_bench(j);
    char title[128];
    snprintf(title, sizeof title, "%s, all", b && b->category ? b->category->title
                                              : "the category");
    struct screen_arg arg = { .title = title, .since_run = job_batch_number(j) };
    ui_push(ui, &screen_summary, &arg);
}
