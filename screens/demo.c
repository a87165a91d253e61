/* demo.c - --demo: the profile's benchmarks in a loop, no input needed.
 * Each runs on the live screen measuring only the rows the profile lists
 * (all without a list; job_measure_only, as `run --profile`: a kernel
 * that several lines name runs once, with the first, measuring the rows
 * of all of them; a line whose kernels all ran so is passed over), its
 * result stays DEMO_RESULT_S, then the comparison with the other boards
 * of each listed row (of its headline metric without a list) DEMO_COMPARE_S;
 * after the last benchmark the summary of the pass stays DEMO_SUMMARY_S.
 * Any key stops it. --check and --profile
 * NAME (demo_start_check) make one pass: each result CHECK_RESULT_S, no
 * comparisons, then the summary with the check's verdict, which stays. */
#include "config.h"
#include "screens/ui_impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/util.h"
#include "run/profile_run.h"

#define DEMO_RESULT_S 4.0   /* the demo shows each result this long */
#define DEMO_COMPARE_S 6.0  /* and then each comparison */
#define DEMO_SUMMARY_S 10.0 /* the summary after each pass of the profile */
#define CHECK_RESULT_S 1.0  /* --check shows each result this long */

static void check_finish(struct ui *ui);
static void demo_stop(struct ui *ui);

/* Opens the live screen of the demo's next benchmark over home. */
static void demo_next(struct ui *ui)
{
    struct demo *d = &ui->demo;
    while (ui->stack.depth > 1)
        ui_pop_now(ui);
    for (size_t tries = 0; tries < d->profile.n; tries++) {
        bool first = d->next == 0;
        if (d->once && first && d->pass_first) {
            check_finish(ui);       /* the rest could not run: the pass is over */
            return;
        }
        const struct profile_bench *pb = &d->profile.benches[d->next];
        d->bench = d->next;
        d->next = (d->next + 1) % d->profile.n;
        const struct cat_bench *b = catalog_find_bench(ui->app->catalog, pb->name);
        if (!b || !b->nkernels || job_profile_line_repeats(&ui->job, &d->profile, d->bench))
            continue;
        struct screen_arg arg = { .category = b->category, .bench = b,
                                  .kernel = app_find_kernel(ui->app, pb->name) };
        /* the kernels measure the profile's rows, and the screens show them */
        job_measure_only(&ui->job, &d->profile, d->bench);
        ui_push(ui, &screen_run, &arg);
        job_measure_only(&ui->job, NULL, 0);
        if (!job_batch(&ui->job)) {
            ui_pop_now(ui);
            continue;
        }
        /* the lines that measured with this one: the pass may end here */
        while (d->next && job_profile_line_repeats(&ui->job, &d->profile, d->next))
            d->next = (d->next + 1) % d->profile.n;
        if (first || !d->pass_first)
            d->pass_first = job_batch_number(&ui->job);
        d->compared = 0;
        d->phase = DEMO_RUN;
        if (d->once)
            ui_message(ui, ROLE_NOTE, "check (%s profile, %zu of %zu): %s - any key stops it",
                       d->profile.name, d->bench + 1, d->profile.n, b->title);
        else
            ui_message(ui, ROLE_NOTE, "demo (%s profile): %s - press any key to stop",
                       d->profile.name, b->title);
        return;
    }
    ui_message(ui, ROLE_ERROR, "%s: nothing in %s can run here", d->once ? "check" : "demo",
               d->profile.path);
    demo_stop(ui);
}

/* The demo's benchmarks that exist here; bad names are reported with
 * their file and line. False when none is left. */
static bool demo_check(struct ui *ui, struct diag *dg)
{
    struct profile *p = &ui->demo.profile;
    size_t ok = 0;
    for (size_t i = 0; i < p->n; i++) {
        const struct cat_bench *b = catalog_find_bench(ui->app->catalog, p->benches[i].name);
        const char *bad = b ? profile_run_unknown_metric(app_profile_scope(ui->app),
                                                         &p->benches[i]) : NULL;
        if (bad)
            diag_add(dg, "%s:%d: %s cannot measure '%s'", p->path, p->benches[i].line,
                     p->benches[i].name, bad);
        else if (!b)
            diag_add(dg, "%s:%d: no benchmark named '%s'", p->path, p->benches[i].line,
                     p->benches[i].name);
        else if (!b->nkernels)
            diag_add(dg, "%s:%d: %s is reference only", p->path, p->benches[i].line,
                     p->benches[i].name);
        else
            ok++;
    }
    if (!ok && !dg->n)
        diag_add(dg, "%s: no 'bench' lines", p->path);
    return ok > 0;
}

/* Loads the profile (bad lines said on the bottom line) and opens its
 * first benchmark; nothing happens when none of it can run. */
static void demo_start(struct ui *ui, const char *name)
{
    struct demo *d = &ui->demo;
    struct diag dg;
    diag_init(&dg);
    profile_load(&d->profile, name, &dg);
    bool ok = demo_check(ui, &dg);
    if (dg.n)
        ui_message(ui, ROLE_ERROR, "%s%s", dg.msgs[0], dg.n > 1 ? " (and more)" : "");
    diag_free(&dg);
    if (!ok) {
        profile_free(&d->profile);
        return;
    }
    d->quick_before = ui->app->run_opts.params.quick;
    ui->app->run_opts.params.quick = d->profile.quick;
    d->next = 0;
    char keep[sizeof ui->line.msg];
    snprintf(keep, sizeof keep, "%s", ui->line.msg);
    demo_next(ui);
    if (keep[0])
        ui_message(ui, ROLE_ERROR, "%s", keep);     /* a bad line stays visible */
}

/* Restores the budget; the screens stay. */
static void demo_stop(struct ui *ui)
{
    struct demo *d = &ui->demo;
    if (d->phase == DEMO_OFF)
        return;
    d->phase = DEMO_OFF;
    ui->app->run_opts.params.quick = d->quick_before;
    profile_free(&d->profile);
    ui_message(ui, ROLE_NOTE, d->once ? "check stopped: no verdict without the whole profile"
                                      : "demo stopped");
    d->once = false;
}

/* --check, --profile NAME: the profile's benchmarks once, each result
 * shown briefly, then the summary with the verdict (ui->opt's baseline
 * and fail_pct); the screens stay there. */
static void demo_start_check(struct ui *ui, const char *profile)
{
    ui->demo.once = true;
    ui->demo.pass_first = 0;
    demo_start(ui, profile);
    if (ui->demo.phase == DEMO_OFF)
        ui->demo.once = false;
}

/* --check: the pass is over; the summary with the verdict stays. */
static void check_finish(struct ui *ui)
{
    struct demo *d = &ui->demo;
    char title[160];
    snprintf(title, sizeof title, "the %s profile", d->profile.name);
    struct screen_arg sum = { .title = title, .since_run = d->pass_first, .verdict = true,
                              .fail_pct = ui->opt->fail_pct };
    while (ui->stack.depth > 1)
        ui_pop_now(ui);
    ui_push(ui, &screen_summary, &sum);
    ui->line.msg[0] = '\0';    /* "any key stops it" is over: the summary's keys */
    d->phase = DEMO_OFF;
    d->once = false;
    d->pass_first = 0;
    ui->app->run_opts.params.quick = d->quick_before;
    profile_free(&d->profile);
}

/* What the demo compares when the profile lists no rows: the headline of
 * the benchmarks that have one (STREAM triad, Dhrystone's DMIPS/MHz ...). */
static const char *const headlines[] = {
    "triad", "dhrystone_per_mhz", "whetstone", "linpack",
};

/* Boards the guides have metric m of section for (0: none). */
static size_t boards_with(const struct ui *ui, const char *section, const char *m)
{
    const char **keys;
    size_t n = refdb_boards_with(ui->app->refdb, section, m, &keys);
    free(keys);
    return n;
}

/* Metric `id` of the live batch (in any case, as a profile may spell
 * it), measured and in a guide: its section, and *own the kernel's
 * spelling of the id when own is not NULL. */
static const char *measured_section(const struct ui *ui, const char *id, const char **own)
{
    const struct batch *b = job_batch(&ui->job);
    for (size_t i = 0; b && i < b->n; i++)
        for (size_t k = 0; b->runs[i] && k < b->runs[i]->nmetrics; k++) {
            const struct run *r = b->runs[i];
            const char *mid = r->metrics[k].def->id;
            if (r->metrics[k].stats.count && strcasecmp(mid, id) == 0 &&
                boards_with(ui, r->kernel->section, mid)) {
                if (own)
                    *own = mid;
                return r->kernel->section;
            }
        }
    return NULL;
}

/* Whether row i of line e of p is listed before (by e or an earlier line). */
static bool listed_before(const struct profile *p, size_t e, size_t i)
{
    for (size_t f = 0; f <= e; f++)
        for (size_t m = 0; m < (f < e ? p->benches[f].nmetrics : i); m++)
            if (strcasecmp(p->benches[f].metrics[m], p->benches[e].metrics[i]) == 0)
                return true;
    return false;
}

/* The index-th metric the demo compares for the bench just run: the rows
 * the profile lists that the batch measured (the lines that ran with it
 * too), in the profile's order, else, when its own line lists none, the
 * headline, else the first metric the guides have for several boards
 * (else for one). */
static bool demo_metric(const struct ui *ui, size_t index, struct screen_arg *arg)
{
    const struct profile *p = &ui->demo.profile;
    const struct profile_bench *pb = &p->benches[ui->demo.bench];
    size_t found = 0;
    for (size_t e = 0; e < p->n; e++)
        for (size_t i = 0; i < p->benches[e].nmetrics; i++) {
            const char *id = p->benches[e].metrics[i];
            if (listed_before(p, e, i))
                continue;
            const char *sec = measured_section(ui, id, &id);
            if (sec && found++ == index) {
                arg->section = sec;
                arg->metric = id;
                return true;
            }
        }
    if (pb->nmetrics || index > 0 || found)
        return false;
    for (size_t i = 0; i < ARRAY_SIZE(headlines); i++) {
        const char *sec = measured_section(ui, headlines[i], NULL);
        if (sec) {
            arg->section = sec;
            arg->metric = headlines[i];
            return true;
        }
    }
    const struct batch *b = job_batch(&ui->job);
    bool have = false;
    for (size_t i = 0; b && i < b->n; i++)
        for (size_t k = 0; b->runs[i] && k < b->runs[i]->nmetrics; k++) {
            const struct run *r = b->runs[i];
            if (!r->metrics[k].stats.count)
                continue;
            size_t n = boards_with(ui, r->kernel->section, r->metrics[k].def->id);
            if (n && (!have || n > 1)) {
                arg->section = r->kernel->section;
                arg->metric = r->metrics[k].def->id;
                have = true;
                if (n > 1)
                    return true;
            }
        }
    return have;
}

/* The next comparison of the bench just run; after the last one the next
 * bench, or the summary when the pass is over. */
static void demo_after_result(struct ui *ui, double now)
{
    struct demo *d = &ui->demo;
    struct screen_arg arg = { 0 };
    if (d->once) {              /* no comparisons: the next, or the verdict */
        if (d->next == 0)
            check_finish(ui);
        else
            demo_next(ui);
        return;
    }
    if (demo_metric(ui, d->compared, &arg)) {
        while (ui->stack.depth > 2)
            ui_pop_now(ui);         /* the last comparison */
        d->compared++;
        ui_push(ui, &screen_compare, &arg);
        d->phase = DEMO_COMPARE;
        d->until = now + DEMO_COMPARE_S;
        return;
    }
    if (d->next == 0 && d->pass_first) {
        char title[160];
        snprintf(title, sizeof title, "the %s profile", d->profile.name);
        struct screen_arg sum = { .title = title, .since_run = d->pass_first };
        while (ui->stack.depth > 1)
            ui_pop_now(ui);
        ui_push(ui, &screen_summary, &sum);
        d->pass_first = 0;
        d->phase = DEMO_SUMMARY;
        d->until = now + DEMO_SUMMARY_S;
        return;
    }
    demo_next(ui);
}

/* Moves the demo on: result, comparison, next benchmark. */
static void demo_tick(struct ui *ui, double now)
{
    struct demo *d = &ui->demo;
    const struct batch *b = job_batch(&ui->job);
    switch (d->phase) {
    case DEMO_OFF:
        return;
    case DEMO_RUN:
        if (b && !batch_done(b))
            return;
        d->phase = DEMO_RESULT;
        d->until = now + (d->once ? CHECK_RESULT_S : DEMO_RESULT_S);
        return;
    case DEMO_RESULT:
    case DEMO_COMPARE:
        if (now >= d->until)
            demo_after_result(ui, now);
        return;
    case DEMO_SUMMARY:
        if (now >= d->until)
            demo_next(ui);
        return;
    }
}

/* Milliseconds until the demo moves on by itself; -1 when it waits for
 * the run. */
static int demo_wait_ms(const struct demo *d, double now)
{
    if (d->phase != DEMO_RESULT && d->phase != DEMO_COMPARE && d->phase != DEMO_SUMMARY)
        return -1;
    double left = d->until - now;
    return left > 0 ? (int)ceil(left * 1000) : 0;
}

/* --- the ticker ------------------------------------------------------------ */

/* --demo NAME; else --check or --profile NAME once its baseline loaded. */
static bool demo_ticker_start(struct ui *ui, bool base_ok)
{
    if (ui->opt->demo) {
        demo_start(ui, ui->opt->demo);
        return true;
    }
    if (ui->opt->check && base_ok) {
        demo_start_check(ui, ui->opt->check);
        return true;
    }
    return false;
}

static int demo_ticker_wait_ms(const struct ui *ui, double now)
{
    return demo_wait_ms(&ui->demo, now);
}

/* Any key ends the demo or the check; the screens stay. */
static bool demo_ticker_key(struct ui *ui, int key)
{
    (void)key;
    if (ui->demo.phase == DEMO_OFF)
        return false;
    demo_stop(ui);
    return true;
}

const struct ticker_ops ticker_demo = {
    .start = demo_ticker_start,
    .tick = demo_tick,
    .wait_ms = demo_ticker_wait_ms,
    .key = demo_ticker_key,
    .stop = demo_stop,
};
