/* screen_summary.c - one screen after a category batch ('a') or a pass of
 * a profile (--demo): per metric the value measured, the reference, the
 * deviation, the verdict and the run that measured it, with the run file
 * of the store it was saved in. Failures and the worst deviations come
 * first (better ones last); what does not fit is counted (v lists every
 * result). Enter, q or Esc returns.
 *
 * After a check (--check, --profile NAME: arg->verdict) the verdict comes
 * first, in words (run/check.h, as `run` prints it): as fast as before
 * (the baseline) or as the guide, or slower; each metric that moved beyond
 * the tolerance and which way; the tolerance; what changed in the system
 * since the baseline (sysstate_diff), or the system without one. */
#include "config.h"
#define EVMBENCH_UI_PRIVATE 1
#include "screens/ui.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "run/check.h"
#include "run/export.h"
#include "screens/format_check.h"

struct summary_view {
    char title[128];
    size_t since;       /* the batches numbered from this one */
    bool verdict;       /* a check: the verdict first */
    struct check_verdict check;
    char *headline;     /* "AS FAST AS BEFORE: all 9 metrics ..." */
    char *tolerance;    /* "Tolerance: 10% (--fail-on-deviation); ..." */
    char *system;       /* "System: DDR 1600 -> 1333 MT/s ..." */
    struct list scroll; /* the check's lines below its title */
    /* against a baseline: the rows compared with it (export_add_baseline)
     * and the table made of them (it borrows from them); NULL: the guide */
    json_t *compared;
    struct check_row *table;
    size_t ntable;
};

static const struct hint hints[] = {
    { ACT_ENTER, "back" },
    { ACT_RESULTS, "all results" },
    { ACT_DETAILS, "full text" },
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

/* The system against the baseline's (or alone without one), in the
 * words of run's verdict. */
static char *system_words(struct ui *ui, const char *base_name)
{
    char *text = engine_system_words(&ui_job(ui)->engine);
    struct strbuf sb;
    sb_init(&sb);
    sb_addf(&sb, "System%s%s%s: %s", base_name ? ", baseline " : "", base_name ? base_name : "",
            base_name ? " -> now" : "", text);
    free(text);
    return sb_steal(&sb);
}

/* The check's verdict on the rows summarized (check.h: the rule of
 * --fail-on-deviation, as `run` says it). */
static void judge(struct screen *s, const struct screen_arg *arg)
{
    struct summary_view *v = s->priv;
    struct job *j = ui_job(s->ui);
    const char *base_name = NULL;
    json_t *base = job_baseline(j, &base_name);
    struct session_row *rs;
    size_t n = summary_rows(s, &rs);
    json_t *rows = session_rows_json(rs, n);
    free(rs);
    double tol = ui_app(s->ui)->tolerance_pct;
    double pct = arg->fail_pct > 0 ? arg->fail_pct : tol > 0 ? tol : DEFAULT_TOLERANCE_PCT;
    engine_judge(&j->engine, rows, pct, &v->check);
    if (base) {
        /* the table says what the verdict says, row by row */
        export_add_baseline(rows, base, pct);
        v->ntable = check_table_rows(rows, pct, &v->table);
        v->compared = rows;
    } else {
        json_decref(rows);
    }
    /* the check ends with the status its verdict decides, as `run` does */
    struct engine_outcome out = { .bench_failed = engine_failed(&j->engine),
                                  .fail_on_deviation = arg->fail_pct > 0,
                                  .verdict = &v->check };
    ui_set_check_status(s->ui, engine_exit_status(&out));

    struct strbuf sb;
    sb_init(&sb);
    sb_addf(&sb, "%s: ", check_outcome_words(&v->check));
    check_headline(&v->check, &sb);
    v->headline = sb_steal(&sb);
    sb_addf(&sb, "Tolerance: %g%% (%s).", pct,
            arg->fail_pct > 0 ? "--fail-on-deviation" : "the tolerance setting, --tolerance");
    v->tolerance = sb_steal(&sb);
    v->system = system_words(s->ui, base ? base_name : NULL);
}

static void summary_enter(struct screen *s, const struct screen_arg *arg)
{
    struct summary_view *v = xcalloc(1, sizeof *v);
    snprintf(v->title, sizeof v->title, "%s", arg->title ? arg->title : "the run");
    v->since = arg->since_run ? arg->since_run : job_batch_number(ui_job(s->ui));
    v->verdict = arg->verdict;
    v->scroll = (struct list){ .marker = true, .text = true };
    s->priv = v;
    if (v->verdict)
        judge(s, arg);
}

static void summary_leave(struct screen *s)
{
    struct summary_view *v = s->priv;
    check_free(&v->check);
    free(v->headline);
    free(v->tolerance);
    free(v->system);
    free(v->table);
    json_decref(v->compared);
    free(v);
}

/* --- the check: its lines, scrolled --------------------------------- */

/* One line of the check's text as the screen shows it. */
struct vline {
    enum role role;
    int x;
    char text[512];
};

struct vlines {
    struct vline *v;
    size_t n, cap;
};

static void add_line(struct vlines *d, enum role r, int x, const char *text)
{
    xgrow(&d->v, &d->cap, d->n + 1, sizeof *d->v);
    struct vline *l = &d->v[d->n++];
    l->role = r;
    l->x = x;
    snprintf(l->text, sizeof l->text, "%s", text);
}

/* text wrapped to the columns from x to the edge, its continuation lines
 * two columns further in: nothing is cut. */
static void add_wrapped(struct vlines *d, enum role r, int x, int width, const char *text,
                        bool utf8)
{
    char part[512];
    const char *rest = text;
    bool first = true;
    while (rest) {
        int at = first ? x : x + 2;
        int room = width - at - 1;
        rest = fmt_wrap(part, sizeof part, rest, room > 8 ? room : 8, utf8);
        add_line(d, r, at, part);
        first = false;
    }
}

static enum role verdict_role(const struct check_verdict *c)
{
    return c->outcome == CHECK_AS_FAST ? ROLE_BETTER
         : c->outcome == CHECK_SLOWER ? ROLE_ERROR : ROLE_WARN;
}

static enum role word_role(enum check_word w)
{
    switch (w) {
    case CHECK_WORD_FAILED:
        return ROLE_ERROR;
    case CHECK_WORD_WORSE:
        return ROLE_WORSE;
    case CHECK_WORD_BETTER:
        return ROLE_BETTER;
    case CHECK_WORD_UNCLEAR:
        return ROLE_WARN;
    case CHECK_WORD_WITHIN:
    case CHECK_WORD_UNJUDGED:
        break;
    }
    return ROLE_NORMAL;
}

/* The table against the baseline (format_check.h). */
static void add_baseline_table(const struct summary_view *v, struct vlines *d, int width,
                               bool utf8)
{
    char line[512];
    int unit_w = 0;
    for (size_t i = 0; i < v->ntable; i++) {
        int c = fmt_columns(fmt_unit(v->table[i].unit));
        unit_w = c > unit_w ? c : unit_w;
    }
    struct check_layout lay;
    fmt_check_layout(&lay, width - 3, unit_w);
    add_line(d, ROLE_HEADER, 2, fmt_check_header(line, sizeof line, &lay));
    for (size_t i = 0; i < v->ntable; i++)
        add_line(d, word_role(v->table[i].word), 2,
                 fmt_check_line(line, sizeof line, &lay, &v->table[i], utf8));
}

/* The widest unit of the rows, in columns. */
static int unit_width(const struct session_row *rs, size_t n)
{
    int w = 0;
    for (size_t i = 0; i < n; i++) {
        int c = fmt_columns(fmt_unit(rs[i].row.unit));
        w = c > w ? c : w;
    }
    return w;
}

/* The table against the guide, as the summary without a check shows it. */
static void add_guide_table(struct vlines *d, const struct session_row *rs, size_t n,
                            int width, bool utf8)
{
    char line[512];
    int unit_w = unit_width(rs, n);
    struct result_layout lay;
    fmt_result_layout(&lay, width - 2, unit_w, false);
    add_line(d, ROLE_HEADER, 2, fmt_result_header(line, sizeof line, &lay, NULL));
    for (size_t i = 0; i < n; i++) {
        const struct result_row *r = &rs[i].row;
        enum role role = r->status != STATUS_OK ? ROLE_ERROR
                       : theme_verdict_role(r->dev.verdict,
                                            r->dev.better &&
                                            unit_direction(r->unit) != DIR_NEUTRAL);
        fmt_result_line(line, sizeof line, &lay, r, rs[i].number, rs[i].state, NULL, utf8);
        add_line(d, role, 2, line);
    }
}

/* "saved in the results store as run ID", or why not. */
static void saved_words(struct screen *s, char *buf, size_t size, bool *saved)
{
    const char *id = job_store_id(ui_job(s->ui));
    *saved = id != NULL;
    if (id)
        snprintf(buf, size, "saved in the results store as run %s", id);
    else
        snprintf(buf, size, "not saved: %s", job_saves(ui_job(s->ui))
                 ? "the results store could not be written" : "no results store (--no-save)");
}

/* Every line of the check below its title, for a window `width` wide:
 * the verdict, each moved metric, the tolerance, the system, where it was
 * saved, then the table. */
static void verdict_lines(struct screen *s, struct vlines *d, int width)
{
    const struct summary_view *v = s->priv;
    const struct check_verdict *c = &v->check;
    bool utf8 = ui_utf8(s->ui), saved;
    char line[512];
    struct strbuf sb;
    memset(d, 0, sizeof *d);
    add_wrapped(d, verdict_role(c), 1, width, v->headline, utf8);
    sb_init(&sb);
    for (size_t i = 0; i < c->nmoves; i++) {
        sb_clear(&sb);
        check_move_text(&c->moves[i], &sb);
        add_wrapped(d, c->moves[i].worse ? ROLE_WORSE : ROLE_BETTER, 2, width, sb.buf, utf8);
    }
    sb_free(&sb);
    add_wrapped(d, ROLE_NORMAL, 1, width, v->tolerance, utf8);
    add_wrapped(d, ROLE_NORMAL, 1, width, v->system, utf8);
    saved_words(s, line, sizeof line, &saved);
    add_wrapped(d, saved ? ROLE_NORMAL : ROLE_WARN, 1, width, line, utf8);
    add_line(d, ROLE_NORMAL, 0, "");
    if (v->table) {
        add_baseline_table(v, d, width, utf8);
        if (!v->ntable)
            add_line(d, ROLE_DIM, 2, "Nothing was measured to the end.");
        return;
    }
    struct session_row *rs;
    size_t n = summary_rows(s, &rs);
    const char *caveat = n ? ui_board_caveat(s->ui, width - 2) : NULL;
    if (caveat)
        add_line(d, ROLE_WARN, 1, caveat);
    add_guide_table(d, rs, n, width, utf8);
    if (!n)
        add_line(d, ROLE_DIM, 2, "Nothing was measured to the end.");
    free(rs);
}

/* The check from row 1 down, scrolled; the last row says where the rest
 * is when it does not all fit. */
static void draw_verdict(struct screen *s, WINDOW *w)
{
    struct summary_view *v = s->priv;
    bool utf8 = ui_utf8(s->ui);
    int width = getmaxx(w);
    struct vlines d;
    verdict_lines(s, &d, width);
    int body = getmaxy(w) - 1;
    size_t vis = list_visible(&v->scroll, d.n, body);
    list_clamp(&v->scroll, d.n, body);
    size_t top = v->scroll.pos.top;
    for (size_t i = top; i < d.n && i < top + vis; i++)
        widget_text(w, 1 + (int)(i - top), d.v[i].x, width - d.v[i].x - 1, d.v[i].role,
                    d.v[i].text, utf8);
    size_t below = top + vis < d.n ? d.n - top - vis : 0;
    char line[128];
    if (top && below)
        snprintf(line, sizeof line, " ^ %zu more above, v %zu more below", top, below);
    else if (below)
        snprintf(line, sizeof line, " v %zu more below (Down, PgDn, G)", below);
    else if (top)
        snprintf(line, sizeof line, " ^ %zu more above (Up, PgUp, g)", top);
    if (top || below)
        widget_text(w, 1 + (int)vis, 1, width - 2, ROLE_DIM, line, utf8);
    free(d.v);
}

/* "Check: the quick profile against baseline before-ddr". */
static void check_title(const struct summary_view *v, char *buf, size_t size)
{
    snprintf(buf, size, "Check: %s against %s%s", v->title,
             v->check.against ? "baseline " : "the guide",
             v->check.against ? v->check.against : "");
}

static void summary_draw(struct screen *s, WINDOW *w, bool full)
{
    struct summary_view *v = s->priv;
    bool utf8 = ui_utf8(s->ui);
    int width = getmaxx(w), rows = getmaxy(w);
    char line[512], counts[160];
    (void)full;

    if (v->verdict) {
        check_title(v, line, sizeof line);
        widget_text(w, 0, 1, width - 2, ROLE_HEADER, line, utf8);
        draw_verdict(s, w);
        return;
    }
    struct session_row *rs;
    size_t n = summary_rows(s, &rs);
    int y = 1;
    snprintf(line, sizeof line, "Summary: %s", v->title);
    widget_text(w, 0, 1, width - 2, ROLE_HEADER, line, utf8);
    fmt_verdict_counts(counts, sizeof counts, rs, n);
    widget_text(w, y++, 1, width - 2, ROLE_NORMAL, counts, utf8);
    bool saved;
    saved_words(s, line, sizeof line, &saved);
    widget_text(w, y++, 1, width - 2, saved ? ROLE_NORMAL : ROLE_WARN, line, utf8);
    int head = y + 2;           /* a blank line (or the caveat), the column header */
    const char *caveat = n ? ui_board_caveat(s->ui, width - 2) : NULL;
    if (caveat)
        widget_text(w, y, 1, width - 2, ROLE_WARN, caveat, utf8);

    int unit_w = unit_width(rs, n);
    struct result_layout lay;
    fmt_result_layout(&lay, width - 2, unit_w, false);
    fmt_result_header(line, sizeof line, &lay, NULL);
    if (head - 1 < rows)
        widget_text(w, head - 1, 2, width - 2, ROLE_HEADER, line, utf8);
    if (!n && head < rows)
        widget_text(w, head, 2, width - 2, ROLE_DIM,
                    "Nothing was measured to the end.", utf8);
    size_t room = rows > head ? (size_t)(rows - head) : 0;
    size_t shown = n <= room ? n : room ? room - 1 : 0;
    for (size_t i = 0; i < shown; i++) {
        const struct result_row *r = &rs[i].row;
        enum role role = r->status != STATUS_OK ? ROLE_ERROR
                       : theme_verdict_role(r->dev.verdict,
                                            r->dev.better &&
                                            unit_direction(r->unit) != DIR_NEUTRAL);
        fmt_result_line(line, sizeof line, &lay, r, rs[i].number, rs[i].state, NULL, utf8);
        widget_text(w, head + (int)i, 2, width - 2, role, line, utf8);
    }
    if (shown < n) {
        snprintf(line, sizeof line, "+%zu more not shown (worst first above): v lists every "
                 "result", n - shown);
        widget_text(w, rows - 1, 2, width - 2, ROLE_DIM, line, utf8);
    }
    free(rs);
}

/* Every line of the screen in full, one paragraph a line, for 'w': the
 * title, the verdict and what it lists (or the counts), where the rows
 * were saved, then each row in a sentence, failures with their reason. */
static char *full_text(struct screen *s)
{
    const struct summary_view *v = s->priv;
    struct strbuf sb;
    char line[512];
    bool saved;
    sb_init(&sb);
    struct session_row *rs;
    size_t n = summary_rows(s, &rs);
    if (v->verdict) {
        check_title(v, line, sizeof line);
        sb_addf(&sb, "%s\n%s\n", line, v->headline);
        for (size_t i = 0; i < v->check.nmoves; i++) {
            check_move_text(&v->check.moves[i], &sb);
            sb_add(&sb, "\n");
        }
        sb_addf(&sb, "%s\n%s\n", v->tolerance, v->system);
    } else {
        fmt_verdict_counts(line, sizeof line, rs, n);
        sb_addf(&sb, "Summary: %s\n%s\n", v->title, line);
    }
    saved_words(s, line, sizeof line, &saved);
    sb_addf(&sb, "%s\n", line);
    if (v->table) {
        for (size_t i = 0; i < v->ntable; i++) {
            fmt_check_sentence(&sb, &v->table[i], v->check.pct);
            sb_add(&sb, "\n");
        }
    } else {
        const char *caveat = n ? ui_board_caveat_full(s->ui) : NULL;
        if (caveat)
            sb_addf(&sb, "Caveat: %s\n", caveat);
        for (size_t i = 0; i < n; i++) {
            const struct result_row *r = &rs[i].row;
            char dev[32] = "";
            fmt_result_detail(line, sizeof line, r, rs[i].number, NULL);
            if (r->samples && r->dev.has_ref)
                fmt_deviation(dev, sizeof dev, &r->dev, unit_direction(r->unit));
            sb_addf(&sb, "%s; %s%s%s\n", line, dev, dev[0] ? ": " : "",
                    fmt_result_status(r, rs[i].state));
        }
    }
    free(rs);
    return sb_steal(&sb);
}

static enum action summary_action(struct screen *s, enum action a)
{
    struct summary_view *v = s->priv;
    if (v->verdict) {
        struct vlines d;
        verdict_lines(s, &d, COLS);
        bool moved = list_key(&v->scroll, d.n, ui_body_rows(s->ui) - 1, a);
        free(d.v);
        if (moved) {
            ui_dirty(s->ui);
            return ACT_NONE;
        }
    }
    if (a == ACT_DETAILS) {
        /* the full text screen, this screen's lines first */
        char *text = full_text(s);
        struct screen_arg arg = { .text = text };
        ui_push(s->ui, &screen_details, &arg);
        free(text);
        return ACT_NONE;
    }
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

/* Opens the summary over the screens when a category batch ('a') has just
 * run to its end (job_take_summary). */
static void summary_due(struct ui *ui)
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

const struct ticker_ops ticker_summary = {
    .pumped = summary_due,
};
