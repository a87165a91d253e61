/* batch.c - kernels in sequence. */
#include "config.h"
#include "run/batch.h"

#include <poll.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"

/* Starts kernels from `current` on until one starts or none is left. */
static void start_from_current(struct batch *b)
{
    while (b->current < b->n && !b->cancelled) {
        struct diag d;
        diag_init(&d);
        struct run_options opt = b->opt;
        if (b->nonly) {
            opt.params.only = (const char *const *)b->only[b->current];
            opt.params.nonly = b->nonly[b->current];
        }
        struct run *r = runner_start(b->kernels[b->current], &opt, b->sink,
                                     b->sink_ctx, &d);
        if (r) {
            b->runs[b->current] = r;
            return;
        }
        /* kept as the kernel's reason for not running, shown with its row */
        b->start_errors[b->current] = xstrdup(diag_last(&d));
        diag_free(&d);
        b->current++;
    }
}

struct batch *batch_start(const struct kernel *const *kernels, size_t n,
                          const struct run_options *opt, const struct sink *sink,
                          void *sink_ctx)
{
    return batch_start_picked(kernels, NULL, n, opt, sink, sink_ctx);
}

struct batch *batch_start_picked(const struct kernel *const *kernels,
                                 const struct metric_pick *picks, size_t n,
                                 const struct run_options *opt, const struct sink *sink,
                                 void *sink_ctx)
{
    struct batch *b = xcalloc(1, sizeof *b);
    b->n = n;
    b->kernels = xcalloc(n ? n : 1, sizeof *b->kernels);
    memcpy(b->kernels, kernels, n * sizeof *kernels);
    b->runs = xcalloc(n ? n : 1, sizeof *b->runs);
    b->start_errors = xcalloc(n ? n : 1, sizeof *b->start_errors);
    b->only = xcalloc(n ? n : 1, sizeof *b->only);
    b->nonly = xcalloc(n ? n : 1, sizeof *b->nonly);
    for (size_t i = 0; picks && i < n; i++) {
        b->nonly[i] = picks[i].n;
        b->only[i] = xcalloc(picks[i].n ? picks[i].n : 1, sizeof *b->only[i]);
        for (size_t m = 0; m < picks[i].n; m++)
            b->only[i][m] = xstrdup(picks[i].ids[m] ? picks[i].ids[m] : "");
    }
    b->opt = *opt;
    b->sink = sink;
    b->sink_ctx = sink_ctx;
    start_from_current(b);
    return b;
}

bool batch_done(const struct batch *b)
{
    return b->current >= b->n || b->cancelled;
}

struct run *batch_run(const struct batch *b)
{
    for (size_t i = b->current < b->n ? b->current + 1 : b->n; i-- > 0;)
        if (b->runs[i])
            return b->runs[i];
    return NULL;
}

int batch_fd(const struct batch *b)
{
    return batch_done(b) || !b->runs[b->current] ? -1 : runner_fd(b->runs[b->current]);
}

bool batch_pump(struct batch *b)
{
    if (batch_done(b))
        return false;
    struct run *r = b->runs[b->current];
    if (r && runner_pump(r))
        return true;
    b->current++;
    start_from_current(b);
    return !batch_done(b);
}

bool batch_wait(struct batch *b, int ms)
{
    double deadline = ms < 0 ? -1 : now_seconds() + ms / 1000.0;
    while (!batch_done(b)) {
        int left = 250;     /* the runner checks its time limit when pumped */
        if (deadline >= 0) {
            double d = deadline - now_seconds();
            if (d <= 0)
                break;
            if (d * 1000 < left)
                left = (int)(d * 1000) + 1;
        }
        struct pollfd p = { .fd = batch_fd(b), .events = POLLIN };
        poll(&p, 1, left);
        batch_pump(b);
    }
    return !batch_done(b);
}

void batch_cancel(struct batch *b)
{
    if (batch_done(b))
        return;
    if (b->runs[b->current])
        runner_cancel(b->runs[b->current]);
    b->cancelled = true;
}

void batch_free(struct batch *b)
{
    if (!b)
        return;
    batch_cancel(b);
    for (size_t i = 0; i < b->n; i++) {
        runner_free(b->runs[i]);
        free(b->start_errors[i]);
        for (size_t m = 0; b->nonly && m < b->nonly[i]; m++)
            free(b->only[i][m]);
        if (b->only)
            free(b->only[i]);
    }
    free(b->only);
    free(b->nonly);
    free(b->runs);
    free(b->start_errors);
    free(b->kernels);
    free(b->group);
    free(b);
}

static double budget(const struct batch *b, size_t i)
{
    const struct kernel *k = b->kernels[i];
    double s = b->opt.params.quick ? k->budget_quick_s : k->budget_full_s;
    if (s <= 0)
        s = 1;
    /* a kernel measuring some of its metrics takes about their share */
    if (b->nonly && b->nonly[i] && k->nmetrics > b->nonly[i])
        s *= (double)b->nonly[i] / (double)k->nmetrics;
    return s;
}

double batch_progress(const struct batch *b)
{
    double total = 0, done = 0;
    for (size_t i = 0; i < b->n; i++) {
        total += budget(b, i);
        if (i < b->current)
            done += budget(b, i);
        else if (i == b->current && b->runs[i])
            done += budget(b, i) * b->runs[i]->progress;
    }
    return total > 0 ? done / total : 1;
}

double batch_eta(const struct batch *b, double elapsed)
{
    if (batch_done(b))
        return 0;
    double p = batch_progress(b);
    if (p >= 1)
        return 0;
    if (p > 0.05 && elapsed > 0)
        return elapsed * (1 - p) / p;
    double left = 0;
    for (size_t i = b->current; i < b->n; i++)
        left += budget(b, i) * (i == b->current && b->runs[i] ? 1 - b->runs[i]->progress : 1);
    return left;
}

void batch_set_groups(struct batch *b, const size_t *group, size_t ngroups)
{
    free(b->group);
    b->group = xcalloc(b->n ? b->n : 1, sizeof *b->group);
    memcpy(b->group, group, b->n * sizeof *group);
    b->ngroups = ngroups;
}

size_t batch_group_now(const struct batch *b)
{
    if (!b->group || !b->n)
        return 0;
    return b->group[b->current < b->n ? b->current : b->n - 1];
}

bool batch_ok(const struct batch *b)
{
    for (size_t i = 0; i < b->n; i++)
        if (!b->runs[i] || !b->runs[i]->finished || b->runs[i]->status != STATUS_OK)
            return false;
    return true;
}
