/* screen_run.c - a benchmark running live: progress, per metric the
 * rolling statistics beside the guide's reference, then the outcome. A
 * section served by several kernels runs them in turn (a batch); the table
 * lists the metrics of every kernel that has started.
 *
 * Every value comes from result_row_make(); this file only formats. The
 * columns are sized from the terminal's width, the names of every metric
 * the batch can report and the units of the rows shown, so they stay put
 * while a kernel runs and a redraw changes few cells. Above the
 * table the selected metric's samples as a sparkline and its value on a
 * bar against the guide's band; below it the latest warning on a line of
 * its own, so the bottom line keeps the keys ('w' shows the full text). */
#include "config.h"
#define EVMBENCH_UI_PRIVATE 1
#include "screens/ui.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"

#define HEAD_ROWS 7     /* title, progress, state, reference, selected, trend,
                         * header */
#define TREND_ROW (HEAD_ROWS - 2)
#define BAR_W 42
#define MAX_NOTES 3

struct run_view {
    const struct cat_category *category;
    bool all;                       /* every runnable bench of category */
    const struct cat_bench *bench;
    const struct kernel *kernel;    /* NULL: all of the bench's kernels */
    struct list table;              /* the selected metric ('c' compares it) */
    bool follow;                    /* the selection follows the newest metric */
    size_t log_from;                /* warnings said since this batch began */
    struct metric_layout layout;    /* the table's columns */
    const struct batch *laid_for;   /* the batch `names` are of */
    const char **names;             /* every metric name the batch can show */
    size_t nnames;
    int name_w;                     /* the longest */
    char (*fitted)[FMT_NAME_CELL];  /* names[i] as its column shows it */
    int fitted_w;                   /* at this width (0: not yet) */
};

static const struct hint hints_running[] = {
    { ACT_BACK, "cancel and back" },
    { ACT_COMPARE, "compare" },
    { ACT_RUN, "restart" },
    { ACT_DETAILS, "full text" },
    { ACT_HELP, "help" },
    { ACT_NONE, NULL },
};

static const struct hint hints_done[] = {
    { ACT_RUN, "run again" },
    { ACT_COMPARE, "compare" },
    { ACT_DETAILS, "full text" },
    { ACT_HELP, "help" },
    { ACT_BACK, "back" },
    { ACT_NONE, NULL },
};

static const struct hint *run_hints(const struct screen *s)
{
    const struct batch *b = job_batch(ui_job(s->ui));
    return b && !batch_done(b) ? hints_running : hints_done;
}

/* One line of the table: metric `index` of `run`. */
struct metric_ref {
    const struct run *run;
    size_t index;
};

/* The metrics of every started run that the job shows (a profile's list),
 * in order; caller frees. */
static struct metric_ref *batch_metrics(const struct job *j, size_t *n)
{
    const struct batch *b = job_batch(j);
    size_t total = 0;
    for (size_t i = 0; b && i < b->n; i++)
        total += b->runs[i] ? b->runs[i]->nmetrics : 0;
    struct metric_ref *m = xcalloc(total ? total : 1, sizeof *m);
    *n = 0;
    for (size_t i = 0; b && i < b->n; i++)
        for (size_t k = 0; b->runs[i] && k < b->runs[i]->nmetrics; k++)
            if (job_metric_shown(j, b->runs[i], k))
                m[(*n)++] = (struct metric_ref){ b->runs[i], k };
    return m;
}

static bool start(struct ui *ui, struct run_view *v)
{
    v->log_from = ui_log_count(ui);
    v->laid_for = NULL;     /* a new batch may reuse the old one's address */
    return v->all ? job_run_start_category(ui_job(ui), v->category)
                  : job_run_start(ui_job(ui), v->bench, v->kernel);
}

static void run_enter(struct screen *s, const struct screen_arg *arg)
{
    struct run_view *v = xcalloc(1, sizeof *v);
    v->category = arg->category;
    v->all = arg->all && arg->category;
    v->bench = arg->bench;
    v->kernel = arg->kernel;
    v->follow = true;
    v->table = (struct list){ .head = HEAD_ROWS };
    s->priv = v;
    start(s->ui, v);
}

static void run_leave(struct screen *s)
{
    struct run_view *v = s->priv;
    job_close(ui_job(s->ui));
    free(v->names);
    free(v->fitted);
    free(v);
}

/* A metric id as the table shows it: without the part every metric of
 * its kernel shares. */
static const char *shown_name(const struct kernel *k, const char *id)
{
    return id + metric_name_skip(k, id);
}

/* The names of every metric batch b can show (the siblings a name is
 * told apart from) and the longest, kept while the batch lives. */
static void batch_names(struct run_view *v, const struct batch *b)
{
    if (v->laid_for == b && b)
        return;
    size_t total = 0;
    for (size_t i = 0; b && i < b->n; i++)
        total += b->kernels[i]->nmetrics;
    free(v->names);
    v->names = xcalloc(total ? total : 1, sizeof *v->names);
    free(v->fitted);
    v->fitted = xcalloc(total ? total : 1, sizeof *v->fitted);
    v->fitted_w = 0;
    v->nnames = 0;
    v->name_w = 0;
    for (size_t i = 0; b && i < b->n; i++) {
        const struct kernel *k = b->kernels[i];
        for (size_t m = 0; m < k->nmetrics; m++) {
            const char *name = shown_name(k, k->metrics[m].id);
            int nw = fmt_columns(name);
            v->names[v->nnames++] = name;
            v->name_w = nw > v->name_w ? nw : v->name_w;
        }
    }
    v->laid_for = b;
}

/* The columns at `cols` columns for the table rows [from, to): the names
 * of the whole batch (so the name column stays put while it runs), the
 * units of the rows shown (a kernel's units are alike, so the columns
 * move only when another kernel's rows come into view). */
static void layout_rows(struct run_view *v, const struct metric_ref *mr, size_t from,
                        size_t to, int cols)
{
    int unit_w = 0;
    for (size_t i = from; i < to; i++) {
        const char *unit = mr[i].run->metrics[mr[i].index].def->unit;
        int uw = fmt_columns(fmt_unit(unit));
        unit_w = uw > unit_w ? uw : unit_w;
    }
    metric_layout_make(&v->layout, cols, unit_w, v->name_w);
    /* no two names read the same (the whole batch's, at this width) */
    int w = v->layout.width[MCOL_NAME];
    if (w != v->fitted_w) {
        fmt_names_fit(v->names, v->nnames, w, true, v->fitted);
        v->fitted_w = w;
    }
}

/* The column's form of a metric's shown name (one of v->names). */
static const char *fitted_name(const struct run_view *v, const char *name)
{
    for (size_t i = 0; i < v->nnames; i++)
        if (v->names[i] == name)
            return v->fitted[i];
    return name;
}

/* Rows below the metric table: notes, outcome summary, the warning line,
 * footnote. */
static int tail_rows(const struct run *run)
{
    size_t notes = run ? run->nnotes : 0;
    return 1 + 2 * (int)(notes > MAX_NOTES ? MAX_NOTES : notes) + 1 + 1 + 1;
}

/* The table as it is now: below it the rows of the run's notes and the
 * lines after them. Returns the body's rows. */
static int table_now(struct run_view *v, const struct screen *s, const struct run *run)
{
    v->table.foot = tail_rows(run);
    return ui_body_rows(s->ui);
}

static void draw_title(WINDOW *w, const struct job *job, const struct run_view *v,
                       const struct batch *b, const struct run *run, bool utf8)
{
    char line[256], which[32] = "";
    const struct cat_bench *bench = v->all ? job_batch_bench(job) : v->bench;
    const struct kernel *k = run ? run->kernel : bench ? bench->kernels[0] : NULL;
    size_t i = b ? (b->current < b->n ? b->current : b->n - 1) : 0;
    if (v->all && b && b->ngroups) {
        /* a whole category: which benchmark of how many */
        snprintf(line, sizeof line, "%s: all - benchmark %zu of %zu: %s (%s %s)",
                 v->category->title, batch_group_now(b) + 1, b->ngroups,
                 bench ? bench->title : "?", k && k->provider ? k->provider : "kernel",
                 k ? k->name : "?");
        widget_text(w, 0, 1, getmaxx(w) - 2, ROLE_HEADER, line, utf8);
        return;
    }
    if (!bench) {
        snprintf(line, sizeof line, "%s: all", v->category ? v->category->title : "?");
        widget_text(w, 0, 1, getmaxx(w) - 2, ROLE_HEADER, line, utf8);
        return;
    }
    if (b && b->n > 1)
        snprintf(which, sizeof which, " (%zu of %zu)", i + 1, b->n);
    /* a tool recipe is titled as a tool, an embedded kernel as a kernel */
    snprintf(line, sizeof line, "%s (%s) - %s %s%s: %s", bench->title,
             bench->category ? bench->category->title : "?",
             k && k->provider ? k->provider : "kernel", k ? k->name : "?", which,
             k && k->description ? k->description : "");
    widget_text(w, 0, 1, getmaxx(w) - 2, ROLE_HEADER, line, utf8);
}

/* When the first run started and the last one ended (or now). */
static double batch_elapsed(const struct batch *b)
{
    double start = 0, end = 0;
    for (size_t i = 0; i < b->n; i++) {
        const struct run *r = b->runs[i];
        if (!r)
            continue;
        if (!start)
            start = r->started;
        end = r->finished ? r->ended : now_seconds();
    }
    return start ? end - start : 0;
}

static void draw_progress(WINDOW *w, const struct batch *b, bool utf8)
{
    char el[16], eta[16], text[64];
    double elapsed = batch_elapsed(b);
    bool done = batch_done(b);
    double p = done && batch_ok(b) ? 1.0 : batch_progress(b);
    fmt_duration(el, sizeof el, elapsed);
    widget_progress(w, 1, 1, BAR_W, p, utf8);
    if (!done && p < 1) {
        fmt_duration(eta, sizeof eta, batch_eta(b, elapsed));
        snprintf(text, sizeof text, "%3.0f%%  %s elapsed, ~%s left", p * 100, el, eta);
    } else {
        snprintf(text, sizeof text, "%3.0f%%  %s elapsed", p * 100, el);
    }
    widget_text(w, 1, 1 + BAR_W + 1, getmaxx(w) - BAR_W - 3, ROLE_NORMAL, text, utf8);
}

static void draw_state(WINDOW *w, const struct batch *b, const struct run *run, bool utf8)
{
    char line[256], el[16];
    enum role r = ROLE_NORMAL;
    double took = batch_elapsed(b);
    /* The first kernel that did not finish well speaks for the batch. */
    for (size_t i = 0; batch_done(b) && i < b->n; i++)
        if (b->runs[i] && b->runs[i]->finished && b->runs[i]->status != STATUS_OK) {
            run = b->runs[i];
            break;
        }
    if (took < 60)
        snprintf(el, sizeof el, "%.1f s", took > 0 ? took : 0.0);
    else
        fmt_duration(el, sizeof el, took);
    if (!run->finished) {
        int n = snprintf(line, sizeof line, "running");
        if (run->cpu >= 0)
            n += snprintf(line + n, sizeof line - (size_t)n, " on CPU %d", run->cpu);
        snprintf(line + n, sizeof line - (size_t)n, ", %s budget, time limit %.0f s",
                 run->params.quick ? "quick" : "full", run->timeout_s);
    } else if (run->status == STATUS_OK && b->cancelled) {
        snprintf(line, sizeof line, "cancelled after %s; finished metrics kept", el);
        r = ROLE_WARN;
    } else if (run->status == STATUS_OK) {
        snprintf(line, sizeof line, "finished in %s", el);
        r = ROLE_IN_RANGE;
    } else if (run->status == STATUS_CANCELLED) {
        snprintf(line, sizeof line, "cancelled after %s; finished metrics kept", el);
        r = ROLE_WARN;
    } else {
        snprintf(line, sizeof line, "%s: %s", status_name(run->status),
                 run->error ? run->error : status_message(run->status));
        r = ROLE_ERROR;
    }
    widget_text(w, 2, 1, getmaxx(w) - 2, r, line, utf8);
}

static void draw_reference(WINDOW *w, const struct app *a, const char *source,
                           bool utf8)
{
    char line[256];
    const char *name = a->ref_board ? app_board_name(a, a->ref_board) : NULL;
    if (!a->ref_board)
        snprintf(line, sizeof line, "reference: none (board not known; choose one "
                                    "with --board KEY)");
    else if (source)
        snprintf(line, sizeof line, "reference: %s [%s], %s", name ? name : a->ref_board,
                 a->ref_board, source);
    else
        snprintf(line, sizeof line, "reference: %s [%s], no numbers for this "
                                    "benchmark", name ? name : a->ref_board, a->ref_board);
    widget_text(w, 3, 1, getmaxx(w) - 2, ROLE_REFERENCE, line, utf8);
}

/* What the metric table found: the guide quoted first, the statistic
 * compared, and the verdicts against the guide and at this board's clock. */
struct tally {
    const char *source;
    enum summary compared;
    size_t verdicts[VERDICT_COUNT], at_clock[VERDICT_COUNT], with_samples, scaled;
};

static void tally_row(struct tally *t, const struct result_row *row, bool first)
{
    if (!t->source && row->has_ref)
        t->source = row->ref_source;
    if (first)
        t->compared = row->summary;
    if (row->samples && row->dev.has_ref && (unsigned)row->dev.verdict < VERDICT_COUNT)
        t->verdicts[row->dev.verdict]++;
    if (row->samples && row->has_scaled &&
        (unsigned)row->dev_scaled.verdict < VERDICT_COUNT) {
        t->at_clock[row->dev_scaled.verdict]++;
        t->scaled++;
    }
    t->with_samples += row->samples > 0;
}

/* The selection follows the newest metric with a sample (the one measured
 * last). The table turns a page when it leaves the visible rows, so that
 * the rows move once a page and not once a metric (each move rewrites
 * every row on the terminal). */
static void follow_newest(struct run_view *v, const struct metric_ref *mr, size_t n,
                          size_t vis)
{
    struct list_pos *p = &v->table.pos;
    p->sel = 0;
    for (size_t i = n; i-- > 0;)
        if (mr[i].run->metrics[mr[i].index].stats.count) {
            p->sel = i;
            break;
        }
    if (p->sel < p->top || p->sel >= p->top + vis)
        p->top = p->sel;
}

/* The selected metric's trend line: its last samples as a sparkline,
 * and its value on a bar against the guide's average and band. */
static void draw_trend(WINDOW *w, const struct stats *st, const struct result_row *row)
{
    char spark[160], bar[160], line[400];
    int width = getmaxx(w) - 2;
    /* " samples " spark "  vs guide " bar [legend] */
    bool legend = width >= 110;
    int room = width - 9 - 11 - (legend ? 36 : 0);
    int sw = room * 2 / 5, bw = room - sw;
    if (sw > (int)sizeof spark - 1)
        sw = (int)sizeof spark - 1;
    if (bw > (int)sizeof bar - 1)
        bw = (int)sizeof bar - 1;
    fmt_sparkline(spark, sizeof spark, st->samples, st->samples ? st->count : 0, sw);
    fmt_ref_bar(bar, sizeof bar, row->samples ? row->value : NAN,
                row->has_ref ? row->ref_avg : NAN, row->has_ref_min, row->ref_min,
                row->has_ref_max, row->ref_max, bw);
    if (!row->has_ref)
        fmt_fit(bar, sizeof bar, "(no reference)", bw, false, false);
    snprintf(line, sizeof line, "samples %s  vs guide %s%s", spark, bar,
             legend && row->has_ref ? "  * measured, | guide avg, = band" : "");
    widget_text(w, TREND_ROW, 1, width, ROLE_DIM, line, false);
}

/* Table line y: metric m; the selected one's name cell is highlighted and
 * the two lines above the header name it and show its trend. */
static void draw_metric(WINDOW *w, int y, struct run_view *v, const struct metric_ref *m,
                        const struct result_row *row, bool selected, const struct app *a,
                        bool utf8)
{
    struct metric_cells cells;
    const struct metric_layout *l = &v->layout;
    const char *name = shown_name(m->run->kernel, m->run->metrics[m->index].def->id);
    metric_cells_make(&cells, l, row, fitted_name(v, name), 0, 0,
                      m->run->metrics[m->index].stats.last, a->ref_board);
    widget_metric_row(w, y, l, &cells, utf8);
    if (!selected)
        return;
    char line[256];
    attr_t sa = theme_attr(ROLE_SELECTION);
    mvwchgat(w, y, 0, l->width[MCOL_NAME], sa & ~A_COLOR, (short)PAIR_NUMBER(sa), NULL);
    snprintf(line, sizeof line, "selected: %s %s (Up/Down moves, c compares)",
             row->bench, row->metric);
    widget_text(w, TREND_ROW - 1, 1, getmaxx(w) - 2, ROLE_DIM, line, utf8);
    draw_trend(w, &m->run->metrics[m->index].stats, row);
}

/* One result row per metric, the visible ones drawn; returns the line
 * below the table. */
static int draw_table(struct screen *s, WINDOW *w, struct tally *t)
{
    struct run_view *v = s->priv;
    const struct app *a = ui_app(s->ui);
    bool utf8 = ui_utf8(s->ui);
    size_t n;
    const struct batch *b = job_batch(ui_job(s->ui));
    struct metric_ref *mr = batch_metrics(ui_job(s->ui), &n);
    int body = table_now(v, s, job_run(ui_job(s->ui)));
    size_t vis = list_visible(&v->table, n, body);
    const struct list_pos *p = &v->table.pos;
    batch_names(v, b);
    memset(t, 0, sizeof *t);
    t->compared = SUMMARY_MEAN;
    if (v->follow)
        follow_newest(v, mr, n, vis);
    list_clamp(&v->table, n, body);
    layout_rows(v, mr, p->top, p->top + vis < n ? p->top + vis : n, getmaxx(w));
    for (size_t i = 0; i < n; i++) {
        struct result_row row;
        result_row_make(&row, mr[i].run, mr[i].index, &a->cmp);
        tally_row(t, &row, i == 0);
        if (i >= p->top && i < p->top + vis)
            draw_metric(w, HEAD_ROWS + (int)(i - p->top), v, &mr[i], &row, i == p->sel, a,
                        utf8);
    }
    free(mr);
    int y = HEAD_ROWS + (int)(n < vis ? n : vis) + 1;
    if (n > vis) {
        char line[256];
        snprintf(line, sizeof line, "metrics %zu-%zu of %zu (scroll with j/k)",
                 p->top + 1, p->top + vis, n);
        widget_text(w, y - 1, 1, getmaxx(w) - 2, ROLE_DIM, line, utf8);
    }
    return y;
}

/* The finished batch against the guide (and at this board's clock) from
 * line y; returns the line below. */
static int draw_outcome(WINDOW *w, int y, const struct tally *t, const struct app *a,
                        bool utf8)
{
    char line[256];
    int width = getmaxx(w), rows = getmaxy(w);
    if (a->ref_board && t->source)
        snprintf(line, sizeof line, "against the guide: %zu in range, %zu warn, "
                 "%zu off, %zu better (tolerance %.0f%%)", t->verdicts[VERDICT_IN_RANGE],
                 t->verdicts[VERDICT_WARN], t->verdicts[VERDICT_OFF],
                 t->verdicts[VERDICT_BETTER], a->tolerance_pct);
    else
        snprintf(line, sizeof line, "no reference to compare with");
    /* beyond the band on the better side only is no alarm */
    enum role r = t->verdicts[VERDICT_OFF] ? ROLE_OFF : t->verdicts[VERDICT_WARN] ? ROLE_WARN
                : t->verdicts[VERDICT_BETTER] ? ROLE_AHEAD : ROLE_IN_RANGE;
    widget_text(w, y++, 1, width - 2, t->source ? r : ROLE_DIM, line, utf8);
    /* CPU-bound rows judged at this board's clock too (a board run at
     * another OPP than the guide's EVM) */
    if (t->scaled && y < rows - 2) {    /* the message line stays free */
        snprintf(line, sizeof line, "at this board's %.0f MHz (guide %.0f MHz): %zu in "
                 "range, %zu warn, %zu off, %zu better", a->cmp.live_mhz, a->cmp.guide_mhz,
                 t->at_clock[VERDICT_IN_RANGE], t->at_clock[VERDICT_WARN],
                 t->at_clock[VERDICT_OFF], t->at_clock[VERDICT_BETTER]);
        r = t->at_clock[VERDICT_OFF] ? ROLE_OFF : t->at_clock[VERDICT_WARN] ? ROLE_WARN
          : t->at_clock[VERDICT_BETTER] ? ROLE_AHEAD : ROLE_IN_RANGE;
        widget_text(w, y++, 1, width - 2, r, line, utf8);
    }
    return y;
}

/* The run's last notes from line y, each up to two lines, above the
 * message line and the footnote. */
static void draw_notes(WINDOW *w, int y, const struct run *run, bool utf8)
{
    char line[256];
    int width = getmaxx(w), rows = getmaxy(w);
    size_t first = run->nnotes > MAX_NOTES ? run->nnotes - MAX_NOTES : 0;
    for (size_t i = first; i < run->nnotes && y < rows - 2; i++) {
        const char *rest = run->notes[i];
        for (int k = 0; k < 2 && rest && y < rows - 2; k++, y++) {
            rest = fmt_wrap(line, sizeof line, rest, width - 8, utf8);
            size_t len = strlen(line);
            if (rest && (k == 1 || y == rows - 3) && len && (unsigned char)line[len - 1] < 0x80)
                line[len - 1] = '~';    /* more of it: w shows it whole */
            widget_text(w, y, 1, 6, ROLE_NOTE, k ? "" : "note:", utf8);
            widget_text(w, y, 7, width - 8, ROLE_NOTE, line, utf8);
        }
    }
}

/* The message of the bottom line, or else the latest warning said since
 * this batch began, on line y: the bottom line keeps the keys. */
static void draw_message(struct screen *s, WINDOW *w, int y)
{
    const struct run_view *v = s->priv;
    enum role r = ROLE_NOTE;
    const char *text = ui_line_message(s->ui, &r);
    for (size_t i = ui_log_count(s->ui); !text && i-- > v->log_from;)
        if ((text = ui_log_text(s->ui, i, &r)))
            break;
    if (text)
        widget_text(w, y, 0, getmaxx(w) - 1, r, text, ui_utf8(s->ui));
}

static void run_draw(struct screen *s, WINDOW *w, bool full)
{
    struct run_view *v = s->priv;
    struct batch *bt = job_batch(ui_job(s->ui));
    struct run *run = job_run(ui_job(s->ui));
    const struct app *a = ui_app(s->ui);
    bool utf8 = ui_utf8(s->ui);
    int width = getmaxx(w), rows = getmaxy(w);
    char line[256];
    (void)full;

    draw_title(w, ui_job(s->ui), v, bt, run, utf8);
    if (!run) {
        widget_text(w, 2, 1, width - 2, ROLE_ERROR,
                    "not running: it could not be started (r tries again)", utf8);
        return;
    }
    draw_progress(w, bt, utf8);
    draw_state(w, bt, run, utf8);

    /* the first reference names the guide */
    struct tally t;
    int y = draw_table(s, w, &t);
    draw_reference(w, a, t.source, utf8);
    metric_header_text(line, sizeof line, &v->layout, t.compared);
    widget_text(w, HEAD_ROWS - 1, 0, width, ROLE_HEADER, line, utf8);
    /* deviations from the guide of a board the guide did not measure */
    const char *caveat = t.source ? ui_board_caveat(s->ui, width - 2) : NULL;
    if (caveat && y < rows - 2)
        widget_text(w, y++, 1, width - 2, ROLE_WARN, caveat, utf8);
    if (batch_done(bt) && t.with_samples)
        y = draw_outcome(w, y, &t, a, utf8);
    draw_notes(w, y, run, utf8);
    draw_message(s, w, rows - 2);
    snprintf(line, sizeof line, "%scompared with the guide's avg: the %s of the "
             "samples", t.compared == SUMMARY_MEDIAN ? "" : "* ", summary_name(t.compared));
    widget_text(w, rows - 1, 1, width - 2, ROLE_DIM, line, utf8);
}

static enum action run_action(struct screen *s, enum action a)
{
    struct run_view *v = s->priv;
    struct run *run = job_run(ui_job(s->ui));
    switch (a) {
    case ACT_RUN:
        start(s->ui, v);
        v->table.pos = (struct list_pos){ 0, 0 };
        v->follow = true;
        return ACT_NONE;
    case ACT_BACK:
        job_close(ui_job(s->ui));
        return ACT_BACK;
    case ACT_ENTER:
        return ACT_NONE;
    default:
        break;
    }
    size_t n = 0;
    struct metric_ref *mr = batch_metrics(ui_job(s->ui), &n);
    enum action out = a;
    if (list_key(&v->table, n, table_now(v, s, run), a)) {
        v->follow = false;
        ui_dirty(s->ui);
        out = ACT_NONE;
    } else if (a == ACT_COMPARE && v->table.pos.sel < n) {
        /* the selected metric, not the last measured */
        size_t sel = v->table.pos.sel;
        const struct run *r = mr[sel].run;
        struct screen_arg arg = { .section = r->kernel->section,
                                  .metric = r->metrics[mr[sel].index].def->id };
        ui_push(s->ui, &screen_compare, &arg);
        out = ACT_NONE;
    }
    free(mr);
    return out;
}

const struct screen_ops screen_run = {
    .name = "run",
    .keys = NULL,
    .hints = hints_done,
    .hints_now = run_hints,
    .own_message = true,
    .enter = run_enter,
    .leave = run_leave,
    .draw = run_draw,
    .on_action = run_action,
};
