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

#define VERDICT_LINES 3      /* the verdict's sentence wraps onto at most this many */
#define SYSTEM_LINES 3       /* and so does the system's change */
#define MOVES_SHOWN 6        /* moved metrics listed; the rest are counted */

struct summary_view {
    char title[128];
    size_t since;       /* the batches numbered from this one */
    bool verdict;       /* a check: the verdict first */
    struct check_verdict check;
    char *headline;     /* "AS FAST AS BEFORE: all 9 metrics ..." */
    char *tolerance;    /* "Tolerance: 10% (--fail-on-deviation); ..." */
    char *system;       /* "System: DDR 1600 -> 1333 MT/s ..." */
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

/* The system now against the baseline's (or alone without one). */
static char *system_words(struct ui *ui, const char *base_name)
{
    char *text = engine_system_now(&ui_job(ui)->engine);
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
    json_decref(rows);
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
    free(v);
}

/* text on up to max_lines lines of width columns from row y, broken at
 * spaces (a word longer than a line is cut); the last line ends in "..."
 * when the text does not fit. Returns the lines used. */
static int wrapped(WINDOW *w, int y, int x, int width, int max_lines, enum role r,
                   const char *text, bool utf8)
{
    int used = 0;
    const char *p = text;
    char line[512];
    while (*p && used < max_lines && width > 3) {
        size_t len = strlen(p), cut = len;
        if ((int)fmt_columns(p) > width) {
            /* the longest prefix that fits, back to a space */
            size_t fit = 0;
            for (size_t i = 1; i <= len && i < sizeof line; i++) {
                memcpy(line, p, i);
                line[i] = '\0';
                if (fmt_columns(line) > width)
                    break;
                fit = i;
            }
            cut = fit;
            for (size_t i = fit; i > fit / 2; i--)
                if (p[i] == ' ') {
                    cut = i;
                    break;
                }
        }
        bool last = used == max_lines - 1 && cut < len;
        snprintf(line, sizeof line, "%.*s%s", (int)(last && cut > 3 ? cut - 3 : cut), p,
                 last ? "..." : "");
        widget_text(w, y + used, x, width, r, line, utf8);
        used++;
        p += cut;
        while (*p == ' ')
            p++;
    }
    return used;
}

/* The verdict's lines from row 1; returns the next free row. */
static int draw_verdict(const struct summary_view *v, WINDOW *w, int width, bool utf8)
{
    const struct check_verdict *c = &v->check;
    enum role r = c->outcome == CHECK_AS_FAST ? ROLE_BETTER
                : c->outcome == CHECK_SLOWER ? ROLE_ERROR : ROLE_WARN;
    int y = 1 + wrapped(w, 1, 1, width - 2, VERDICT_LINES, r, v->headline, utf8);
    struct strbuf sb;
    sb_init(&sb);
    size_t shown = c->nmoves <= MOVES_SHOWN ? c->nmoves : MOVES_SHOWN - 1;
    for (size_t i = 0; i < shown; i++) {
        sb_clear(&sb);
        check_move_text(&c->moves[i], &sb);
        widget_text(w, y++, 2, width - 3, c->moves[i].worse ? ROLE_WORSE : ROLE_BETTER, sb.buf,
                    utf8);
    }
    if (shown < c->nmoves) {
        sb_clear(&sb);
        sb_addf(&sb, "+%zu more moved beyond the tolerance (v lists every result)",
                c->nmoves - shown);
        widget_text(w, y++, 2, width - 3, ROLE_DIM, sb.buf, utf8);
    }
    sb_free(&sb);
    widget_text(w, y++, 1, width - 2, ROLE_NORMAL, v->tolerance, utf8);
    y += wrapped(w, y, 1, width - 2, SYSTEM_LINES, ROLE_NORMAL, v->system, utf8);
    return y;
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

    int y = 1;
    if (v->verdict) {
        snprintf(line, sizeof line, "Check: %s against %s%s", v->title,
                 v->check.against ? "baseline " : "the guide",
                 v->check.against ? v->check.against : "");
        widget_text(w, 0, 1, width - 2, ROLE_HEADER, line, utf8);
        y = draw_verdict(v, w, width, utf8);
    } else {
        snprintf(line, sizeof line, "Summary: %s", v->title);
        widget_text(w, 0, 1, width - 2, ROLE_HEADER, line, utf8);
        count_line(counts, sizeof counts, rs, n);
        widget_text(w, y++, 1, width - 2, ROLE_NORMAL, counts, utf8);
    }
    if (id)
        snprintf(line, sizeof line, "saved in the results store as run %s", id);
    else
        snprintf(line, sizeof line, "not saved: %s", job_saves(ui_job(s->ui))
                 ? "the results store could not be written" : "no results store (--no-save)");
    widget_text(w, y++, 1, width - 2, id ? ROLE_NORMAL : ROLE_WARN, line, utf8);
    int head = y + 2;           /* a blank line, the column header */

    int unit_w = 0;
    for (size_t i = 0; i < n; i++) {
        int c = fmt_columns(fmt_unit(rs[i].row.unit));
        unit_w = c > unit_w ? c : unit_w;
    }
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
