/* demo.c - --demo: the profile's benchmarks in a loop, no input needed.
 * Each runs on the live screen, its result stays DEMO_RESULT_S, then a
 * comparison with the other boards DEMO_COMPARE_S; any key stops it. */
#include "config.h"
#include "screens/ui_impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define DEMO_RESULT_S 4.0   /* the demo shows each result this long */
#define DEMO_COMPARE_S 6.0  /* and then its comparison */

/* Opens the live screen of the demo's next benchmark over home. */
static void demo_next(struct ui *ui)
{
    struct demo *d = &ui->demo;
    while (ui->stack.depth > 1)
        ui_pop_now(ui);
    for (size_t tries = 0; tries < d->profile.n; tries++) {
        const struct profile_bench *pb = &d->profile.benches[d->next];
        d->next = (d->next + 1) % d->profile.n;
        const struct cat_bench *b = catalog_find_bench(ui->app->catalog, pb->name);
        if (!b || !b->nkernels)
            continue;
        struct screen_arg arg = { .category = b->category, .bench = b,
                                  .kernel = app_find_kernel(ui->app, pb->name) };
        ui_push(ui, &screen_run, &arg);
        if (!job_batch(&ui->job)) {
            ui_pop_now(ui);
            continue;
        }
        d->phase = DEMO_RUN;
        ui_message(ui, ROLE_NOTE, "demo (%s profile): %s - press any key to stop",
                   d->profile.name, b->title);
        return;
    }
    ui_message(ui, ROLE_ERROR, "demo: nothing in %s can run here", d->profile.path);
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
        if (!b)
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

void demo_start(struct ui *ui, const char *name)
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

void demo_stop(struct ui *ui)
{
    struct demo *d = &ui->demo;
    if (d->phase == DEMO_OFF)
        return;
    d->phase = DEMO_OFF;
    ui->app->run_opts.params.quick = d->quick_before;
    profile_free(&d->profile);
    ui_message(ui, ROLE_NOTE, "demo stopped");
}

/* The first metric of the live batch that the guides have for several
 * boards (else for one): what the demo compares. */
static bool demo_metric(const struct ui *ui, struct screen_arg *arg)
{
    const struct batch *b = job_batch(&ui->job);
    bool found = false;
    for (size_t i = 0; b && i < b->n; i++)
        for (size_t k = 0; b->runs[i] && k < b->runs[i]->nmetrics; k++) {
            const struct run *r = b->runs[i];
            if (!r->metrics[k].stats.count)
                continue;
            const char **keys;
            size_t n = refdb_boards_with(ui->app->refdb, r->kernel->section,
                                         r->metrics[k].def->id, &keys);
            free(keys);
            if (n && (!found || n > 1)) {
                arg->section = r->kernel->section;
                arg->metric = r->metrics[k].def->id;
                found = true;
                if (n > 1)
                    return true;
            }
        }
    return found;
}

void demo_tick(struct ui *ui, double now)
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
        d->until = now + DEMO_RESULT_S;
        return;
    case DEMO_RESULT: {
        if (now < d->until)
            return;
        struct screen_arg arg = { 0 };
        if (demo_metric(ui, &arg)) {
            ui_push(ui, &screen_compare, &arg);
            d->phase = DEMO_COMPARE;
            d->until = now + DEMO_COMPARE_S;
            return;
        }
        demo_next(ui);
        return;
    }
    case DEMO_COMPARE:
        if (now >= d->until)
            demo_next(ui);
        return;
    }
}

int demo_wait_ms(const struct demo *d, double now)
{
    if (d->phase != DEMO_RESULT && d->phase != DEMO_COMPARE)
        return -1;
    double left = d->until - now;
    return left > 0 ? (int)ceil(left * 1000) : 0;
}
