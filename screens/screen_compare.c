/* screen_compare.c - one metric on this board beside every board of the
 * guides that has it: horizontal ASCII bars scaled to the largest value,
 * so a customer sees at a glance where the board stands. n and p step
 * through the metrics measured so far. */
#include "config.h"
#define EVMBENCH_UI_PRIVATE 1
#include "screens/ui.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"

#define HEAD_ROWS 4     /* title, source, blank, this board */

struct compare_view {
    const char *section, *metric;   /* NULL: nothing measured yet */
    struct list scroll;             /* the boards: a text */
};

static const struct hint hints[] = {
    { ACT_NEXT, "next metric" },
    { ACT_PREV, "previous" },
    { ACT_BOARD, "board" },
    { ACT_HELP, "help" },
    { ACT_BACK, "back" },
    { ACT_NONE, NULL },
};

/* The latest measured row of (section, metric); false when none. */
static bool measured(const struct screen *s, const char *section, const char *metric,
                     struct result_row *out)
{
    struct session_row *rs;
    size_t n = job_results(ui_job(s->ui), false, &rs);
    bool found = false;
    for (size_t i = n; i-- > 0 && !found;)
        if (rs[i].row.samples && strcmp(rs[i].row.bench, section) == 0 &&
            strcmp(rs[i].row.metric, metric) == 0) {
            *out = rs[i].row;
            found = true;
        }
    free(rs);
    return found;
}

/* The boards with a number for the metric in the section or in one the
 * alias table makes the same (another guide's title for it), each once,
 * in the order refdb_boards_with gives them. *out is allocated. */
static size_t boards_with(const struct app *a, const char *section, const char *metric,
                          const char ***out)
{
    const char **sections, **keys = NULL;
    size_t ns = catalog_same_sections(a->catalog, section, &sections), n = 0;
    for (size_t i = 0; i < ns; i++) {
        const char **some;
        size_t k = refdb_boards_with(a->refdb, sections[i], metric, &some);
        keys = xrealloc(keys, (n + k + 1) * sizeof *keys);
        for (size_t j = 0; j < k; j++) {
            bool dup = false;
            for (size_t q = 0; q < n && !dup; q++)
                dup = strcmp(keys[q], some[j]) == 0;
            if (!dup)
                keys[n++] = some[j];
        }
        free(some);
    }
    free(sections);
    *out = keys;
    return n;
}

/* refdb_lookup in the section or the first of its aliases that has it. */
static bool lookup(const struct app *a, const char *board, const char *section,
                   const char *metric, struct ref_hit *hit)
{
    const char **sections;
    size_t ns = catalog_same_sections(a->catalog, section, &sections);
    bool found = false;
    for (size_t i = 0; i < ns && !found; i++)
        found = refdb_lookup(a->refdb, board, sections[i], metric, NULL, hit);
    free(sections);
    return found;
}

static void compare_enter(struct screen *s, const struct screen_arg *arg)
{
    struct compare_view *v = xcalloc(1, sizeof *v);
    /* the boards between this board's line and the legend */
    v->scroll = (struct list){ .head = HEAD_ROWS, .foot = 2, .text = true };
    s->priv = v;
    if (arg->section && arg->metric) {
        v->section = arg->section;
        v->metric = arg->metric;
        return;
    }
    /* the metric measured last */
    struct session_row *rs;
    size_t n = job_results(ui_job(s->ui), false, &rs);
    for (size_t i = n; i-- > 0;)
        if (rs[i].row.samples) {
            v->section = rs[i].row.bench;
            v->metric = rs[i].row.metric;
            break;
        }
    free(rs);
}

static void compare_leave(struct screen *s)
{
    free(s->priv);
}

/* The rows step_metric looks through, and the metric shown among them. */
struct step {
    const struct session_row *rs;
    const struct compare_view *v;
    bool have;                      /* the metric shown is one of rs */
};

/* Row i is a measured metric other than the one shown. */
static bool other_measured(void *ctx, size_t i, const char *q)
{
    const struct step *st = ctx;
    const struct result_row *row = &st->rs[i].row;
    (void)q;
    return row->samples && !(st->have && strcmp(row->bench, st->v->section) == 0 &&
                             strcmp(row->metric, st->v->metric) == 0);
}

/* Moves to the next (step 1) or previous (-1) distinct measured metric. */
static bool step_metric(struct screen *s, int step)
{
    struct compare_view *v = s->priv;
    struct session_row *rs;
    size_t n = job_results(ui_job(s->ui), false, &rs), cur = 0;
    struct step st = { .rs = rs, .v = v };
    for (size_t i = 0; v->section && i < n; i++)
        if (strcmp(rs[i].row.bench, v->section) == 0 &&
            strcmp(rs[i].row.metric, v->metric) == 0) {
            cur = i;
            st.have = true;
            break;
        }
    /* round the rows from the one after (before) the metric shown */
    size_t i = list_find(cur, n, step, other_measured, &st, NULL);
    if (i < n) {
        v->section = rs[i].row.bench;
        v->metric = rs[i].row.metric;
        v->scroll.pos.top = 0;
    }
    free(rs);
    return i < n;
}

static void compare_draw(struct screen *s, WINDOW *w, bool full)
{
    struct compare_view *v = s->priv;
    const struct app *a = ui_app(s->ui);
    bool utf8 = ui_utf8(s->ui);
    int width = getmaxx(w), rows = getmaxy(w);
    char line[512], label[128];
    (void)full;

    if (!v->section) {
        widget_text(w, 0, 1, width - 2, ROLE_HEADER, "Compare", utf8);
        widget_text(w, 2, 1, width - 2, ROLE_DIM, "Nothing measured yet: run a "
                    "benchmark, then c compares its metrics with every board.", utf8);
        return;
    }
    const char **keys;
    size_t nb = boards_with(a, v->section, v->metric, &keys);
    struct result_row me = { 0 };
    bool have_me = measured(s, v->section, v->metric, &me);
    double *vals = xcalloc(nb ? nb : 1, sizeof *vals);
    double max = have_me && isfinite(me.value) ? me.value : 0;
    const char *unit = have_me ? me.unit : NULL, *source = NULL;
    for (size_t i = 0; i < nb; i++) {
        struct ref_hit hit;
        vals[i] = NAN;
        if (lookup(a, keys[i], v->section, v->metric, &hit)) {
            vals[i] = hit.value->avg;
            if (!unit)
                unit = hit.unit;
            if (!source)
                source = hit.table->source->title;
            if (vals[i] > max)
                max = vals[i];
        }
    }
    enum direction dir = unit_direction(unit);
    snprintf(line, sizeof line, "Compare: %s %s (%s%s)", v->section, v->metric,
             unit ? fmt_unit(unit) : "no unit", dir == DIR_HIGHER_BETTER ? ", higher is better"
             : dir == DIR_LOWER_BETTER ? ", lower is better" : "");
    widget_text(w, 0, 1, width - 2, ROLE_HEADER, line, utf8);
    snprintf(line, sizeof line, "reference numbers: %s; %zu board%s",
             source ? source : "none in the guides", nb, nb == 1 ? "" : "s");
    widget_text(w, 1, 1, width - 2, ROLE_REFERENCE, line, utf8);
    const char *caveat = have_me && nb ? ui_board_caveat(s->ui, width - 2) : NULL;
    if (caveat)
        widget_text(w, 2, 1, width - 2, ROLE_WARN, caveat, utf8);

    fmt_compare_row(line, sizeof line, '>', "this board (measured)",
                    have_me ? me.value : NAN, max, width - 1, utf8);
    widget_text(w, 3, 0, width, ROLE_VALUE, line, utf8);
    if (!have_me)
        widget_text(w, 3, 2 + COMPARE_LABEL_W + 1 + COMPARE_VALUE_W + 1,
                    width - 36, ROLE_DIM, "not measured", utf8);

    size_t vis = list_visible(&v->scroll, nb, rows);
    list_clamp(&v->scroll, nb, rows);
    size_t top = v->scroll.pos.top;
    for (size_t i = top; i < nb && i < top + vis; i++) {
        bool mine = a->ref_board && strcmp(a->ref_board, keys[i]) == 0;
        snprintf(label, sizeof label, "%s", app_board_name(a, keys[i]));
        fmt_compare_row(line, sizeof line, mine ? '*' : ' ', label, vals[i], max,
                        width - 1, utf8);
        widget_text(w, HEAD_ROWS + (int)(i - top), 0, width,
                    mine ? ROLE_REFERENCE : ROLE_NORMAL, line, utf8);
    }
    char mx[16];
    fmt_value(mx, sizeof mx, max, 8);
    snprintf(line, sizeof line, "> this board  * reference board  bars: full width = %s"
             "%s", mx, nb > vis ? "  (more: PgDn)" : "");
    widget_text(w, rows - 1, 1, width - 2, ROLE_DIM, line, utf8);
    free(vals);
    free(keys);
}

static enum action compare_action(struct screen *s, enum action a)
{
    struct compare_view *v = s->priv;
    if (a == ACT_NEXT || a == ACT_PREV) {
        if (step_metric(s, a == ACT_NEXT ? 1 : -1))
            ui_dirty(s->ui);
        else
            ui_message(s->ui, ROLE_NOTE, "no other metric measured");
        return ACT_NONE;
    }
    if (a == ACT_COMPARE || a == ACT_ENTER)
        return ACT_NONE;
    if (v->section) {
        const char **keys;
        size_t nb = boards_with(ui_app(s->ui), v->section, v->metric, &keys);
        free(keys);
        if (list_key(&v->scroll, nb, ui_body_rows(s->ui), a)) {
            ui_dirty(s->ui);
            return ACT_NONE;
        }
    }
    return a;
}

const struct screen_ops screen_compare = {
    .name = "compare",
    .keys = NULL,
    .hints = hints,
    .enter = compare_enter,
    .leave = compare_leave,
    .draw = compare_draw,
    .on_action = compare_action,
};
