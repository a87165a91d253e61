/* screen_category.c - the benchmarks of one category: can each run here,
 * how many reference metrics it has, whether the board has numbers. */
#include "config.h"
#define EVMBENCH_UI_PRIVATE 1
#include "screens/ui.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"

#define HEAD_ROWS 3     /* title, blank, column header */
#define RUNS_MIN_W 20    /* "runs here" gets at least this, its widest text at most */
#define METRICS_W 7
#define REFS_W 12
/* What the benchmark and "runs here" columns share: the width less the
 * mark, the separators, the metric count and the refs column. */
#define SHARED_W(width) ((width) - 2 - 1 - 1 - METRICS_W - 2 - REFS_W - 1)

struct category {
    const struct cat_category *cat;
    struct list list;
};

static const struct binding keys[] = {
    { 'a', ACT_RUN_ALL },
    { 'P', ACT_PROVIDER },
    { 0, ACT_NONE },
};

static const struct hint hints[] = {
    { ACT_ENTER, "run" },
    { ACT_RUN_ALL, "run all" },
    { ACT_PROVIDER, "provider" },
    { ACT_SEARCH, "search" },
    { ACT_RESULTS, "results" },
    { ACT_HELP, "help" },
    { ACT_BACK, "back" },
    { ACT_NONE, NULL },
};

static void category_enter(struct screen *s, const struct screen_arg *arg)
{
    struct category *c = xcalloc(1, sizeof *c);
    c->cat = arg->category;
    c->list = (struct list){ .head = HEAD_ROWS };
    s->priv = c;
}

static void category_leave(struct screen *s)
{
    free(s->priv);
}

/* True when one of b's tables has a column for the board. */
static bool has_board_column(const struct cat_bench *b, const char *board)
{
    if (!board)
        return false;
    for (size_t t = 0; t < b->ntables; t++)
        for (size_t k = 0; k < b->tables[t]->ncols; k++) {
            const char *cb = b->tables[t]->cols[k].board;
            if (cb && strcmp(cb, board) == 0)
                return true;
        }
    return false;
}

/* How many benchmarks of the category 'a' would run here: each as
 * job_bench_kernels picks its kernels (the provider chosen with P, the
 * tools found), the same function 'a' starts them with. *provided: how
 * many have a kernel or tool at all. */
static size_t count_runnable(struct screen *s, const struct cat_category *cat,
                             size_t *provided)
{
    size_t n = 0;
    *provided = 0;
    for (size_t i = 0; cat && i < cat->nbenches; i++) {
        const struct cat_bench *b = cat->benches[i];
        const struct kernel **ks = xcalloc(b->nkernels ? b->nkernels : 1, sizeof *ks);
        n += job_bench_kernels(ui_job(s->ui), b, ks) > 0;
        *provided += b->nkernels > 0;
        free(ks);
    }
    return n;
}

static int int_max(int a, int b) { return a > b ? a : b; }
static int int_min(int a, int b) { return a < b ? a : b; }

/* Why a benchmark does not run here (app_bench_unrunnable), in the few
 * words of the "runs here" column; Enter says the whole reason. A missing
 * run option by its name ("needs --peer": what the settings need), a
 * missing tool ("no: fio not found"), else the provider's "none here". */
static void runs_why(const char *why, char *buf, size_t size)
{
    if (strncmp(why, "needs --", 8) == 0)
        snprintf(buf, size, "%.*s", (int)strcspn(why + 8, " ;(") + 8, why);
    else if (strstr(why, " not found"))
        snprintf(buf, size, "no: %.*s", (int)(strstr(why, " not found") - why + 10), why);
    else
        snprintf(buf, size, "no (none here)");
}

/* What a run of b starts here, for the "runs here" column: "yes (kernel
 * stream)", "yes (13 kernels)", "needs --peer" (runs_why), "reference only";
 * a '*' after yes: the provider was chosen here (P), not by the settings. */
static void runs_text(struct screen *s, const struct cat_bench *b, char *buf, size_t size)
{
    const struct kernel **ks = xcalloc(b->nkernels ? b->nkernels : 1, sizeof *ks);
    size_t nrun = job_bench_kernels(ui_job(s->ui), b, ks);
    const struct kernel *first = nrun ? ks[0] : NULL;
    free(ks);
    bool chosen = false;
    job_bench_provider(ui_job(s->ui), b, &chosen);
    if (nrun == 1)
        snprintf(buf, size, "yes%s (%s %s)", chosen ? "*" : "",
                 first->provider ? first->provider : "kernel", first->name);
    else if (nrun)
        snprintf(buf, size, "yes%s (%zu kernels)", chosen ? "*" : "", nrun);
    else if (b->nkernels) {
        char *why = app_bench_unrunnable(ui_app(s->ui), b,
                                         job_bench_provider(ui_job(s->ui), b, NULL));
        runs_why(why, buf, size);
        free(why);
    }
    else
        snprintf(buf, size, "reference only");
}

static void category_draw(struct screen *s, WINDOW *w, bool full)
{
    struct category *c = s->priv;
    const struct app *a = ui_app(s->ui);
    bool utf8 = ui_utf8(s->ui);
    int width = getmaxx(w);
    size_t n = c->cat ? c->cat->nbenches : 0;
    size_t vis = list_visible(&c->list, n, ui_body_rows(s->ui));
    const struct list_pos *p = &c->list.pos;
    char line[600], title[200], runs[64], refs[48], head[48];
    (void)full;

    list_clamp(&c->list, n, ui_body_rows(s->ui));
    /* Columns from the terminal width and the rows shown: "runs here" as
     * wide as its widest text (at least RUNS_MIN_W), the title the rest;
     * when both do not fit, the title keeps its widest and "runs here"
     * gives way down to RUNS_MIN_W. */
    int title_need = 9, runs_need = RUNS_MIN_W;     /* "benchmark" */
    for (size_t i = p->top; i < n && i < p->top + vis; i++) {
        const struct cat_bench *b = c->cat->benches[i];
        runs_text(s, b, line, sizeof line);
        runs_need = int_max(runs_need, fmt_columns(line));
        title_need = int_max(title_need, fmt_columns(b->title));
    }
    int shared = SHARED_W(width);
    int runs_w = int_min(runs_need, int_max(RUNS_MIN_W, shared - title_need));
    runs_w = int_min(runs_w, (int)sizeof runs - 1);
    int title_w = int_min(shared - runs_w, (int)sizeof title - 1);
    if (title_w < 1)
        title_w = 1;
    /* a title cut to fit stays unique among the category's */
    const char **titles = xcalloc(n ? n : 1, sizeof *titles);
    char (*fitted)[FMT_NAME_CELL] = xcalloc(n ? n : 1, sizeof *fitted);
    for (size_t i = 0; i < n; i++)
        titles[i] = c->cat->benches[i]->title;
    fmt_names_fit(titles, n, int_min(title_w, FMT_NAME_CELL - 1), utf8, fitted);
    size_t provided, runnable = count_runnable(s, c->cat, &provided);
    if (!runnable && provided)
        snprintf(runs, sizeof runs, "%zu benchmark%s, none runnable here", n,
                 n == 1 ? "" : "s");
    else
        fmt_bench_counts(runs, sizeof runs, n, runnable);
    snprintf(line, sizeof line, "%s: %s", c->cat ? c->cat->title : "?", runs);
    widget_text(w, 0, 1, width - 2, ROLE_HEADER, line, utf8);

    snprintf(head, sizeof head, "board refs");
    fmt_fit(title, sizeof title, "benchmark", title_w, false, false);
    fmt_fit(runs, sizeof runs, "runs here", runs_w, false, false);
    snprintf(line, sizeof line, "  %s %s %*s  %s", title, runs, METRICS_W, "metrics",
             head);
    widget_text(w, 2, 0, width, ROLE_HEADER, line, utf8);

    for (size_t i = p->top; i < n && i < p->top + vis; i++) {
        const struct cat_bench *b = c->cat->benches[i];
        bool sel = i == p->sel;
        snprintf(title, sizeof title, "%-*s", title_w, fitted[i]);
        runs_text(s, b, line, sizeof line);
        fmt_fit(runs, sizeof runs, line, runs_w, false, utf8);
        if (!a->ref_board)
            snprintf(refs, sizeof refs, "no board");
        else if (has_board_column(b, a->ref_board))
            snprintf(refs, sizeof refs, "%zu", cat_bench_count_metrics(b, a->ref_board));
        else
            snprintf(refs, sizeof refs, "no reference");
        snprintf(line, sizeof line, "%s %s %s %*zu  %s", sel ? ">" : " ", title, runs,
                 METRICS_W, cat_bench_count_metrics(b, NULL), refs);
        int y = HEAD_ROWS + (int)(i - p->top);
        enum role r = sel ? ROLE_SELECTION : b->nkernels ? ROLE_NORMAL : ROLE_DIM;
        widget_text(w, y, 0, width, r, line, utf8);
    }
    free(fitted);
    free(titles);
}

static enum action category_action(struct screen *s, enum action a)
{
    struct category *c = s->priv;
    size_t n = c->cat ? c->cat->nbenches : 0;
    if (list_key(&c->list, n, ui_body_rows(s->ui), a)) {
        ui_dirty(s->ui);
        return ACT_NONE;
    }
    if ((a == ACT_ENTER || a == ACT_RUN) && n) {
        const struct cat_bench *b = c->cat->benches[c->list.pos.sel];
        if (!b->nkernels) {
            ui_message(s->ui, ROLE_NOTE,
                       "%s is reference only: no kernel or tool here runs it",
                       b->title);
            return ACT_NONE;
        }
        char *why = app_bench_unrunnable(ui_app(s->ui), b,
                                         job_bench_provider(ui_job(s->ui), b, NULL));
        if (why) {      /* the need first (the row is selected): nothing starts to fail */
            /* a run target the settings screen sets */
            bool settable = strstr(why, "--peer") || strstr(why, "--storage-dir") ||
                            strstr(why, "--audio-device");
            ui_message(s->ui, ROLE_WARN, "%s: %s cannot run here%s", why, b->title,
                       settable ? " (o: set it in the settings)" : "");
            free(why);
            return ACT_NONE;
        }
        struct screen_arg arg = { .category = c->cat, .bench = b };
        ui_push(s->ui, &screen_run, &arg);
        return ACT_NONE;
    }
    if (a == ACT_RUN_ALL && n) {
        size_t provided;
        if (!count_runnable(s, c->cat, &provided)) {
            ui_message(s->ui, ROLE_NOTE, "nothing in %s can run here%s: nothing started",
                       c->cat->title, provided ? "" : " (reference only)");
            return ACT_NONE;
        }
        struct screen_arg arg = { .category = c->cat, .all = true };
        ui_push(s->ui, &screen_run, &arg);
        return ACT_NONE;
    }
    if (a == ACT_PROVIDER && n) {
        const struct cat_bench *b = c->cat->benches[c->list.pos.sel];
        if (job_bench_provider_next(ui_job(s->ui), b)) {
            bool chosen;
            enum provider_pref p = job_bench_provider(ui_job(s->ui), b, &chosen);
            ui_message(s->ui, ROLE_NOTE, "%s runs with: %s%s", b->title,
                       provider_pref_name(p), chosen ? "" : " (the settings' preference)");
        } else {
            ui_message(s->ui, ROLE_NOTE, "%s: no choice here (kernel and tool both needed)",
                       b->title);
        }
        ui_dirty(s->ui);
        return ACT_NONE;
    }
    return a;
}

/* Search: a benchmark's title or slug. */
static bool bench_matches(void *ctx, size_t i, const char *q)
{
    const struct category *c = ctx;
    const struct cat_bench *b = c->cat->benches[i];
    return list_text_matches(b->title, q) || list_text_matches(b->slug, q);
}

static bool category_search(struct screen *s, const char *q, int dir)
{
    struct category *c = s->priv;
    size_t n = c->cat ? c->cat->nbenches : 0;
    return list_search(&c->list, n, ui_body_rows(s->ui), dir, bench_matches, c, q);
}

const struct screen_ops screen_category = {
    .name = "category",
    .keys = keys,
    .hints = hints,
    .enter = category_enter,
    .leave = category_leave,
    .draw = category_draw,
    .on_action = category_action,
    .search = category_search,
};
