/* batch.c - kernels in sequence. */
#include "config.h"
#include "run/batch.h"

#include <poll.h>
#include <stdlib.h>
#include <string.h>

#include "common/stopsig.h"
#include "common/util.h"

/* --- the sink between the runs and the batch's sink: repeats ------------- */

static struct run *primary(const struct batch *b)
{
    return b->current < b->n ? b->runs[b->current] : NULL;
}

static void on_start(void *ctx, const struct run *run)
{
    struct batch *b = ctx;
    if (run != b->again && b->sink->on_start)
        b->sink->on_start(b->sink_ctx, run);
}

static void on_sample(void *ctx, const struct run *run, size_t m, double v)
{
    struct batch *b = ctx;
    struct run *p = primary(b);
    if (run == b->again && p && m < p->nmetrics) {
        run_metric_push(&p->metrics[m], v);
        run = p;
    }
    if (b->sink->on_sample)
        b->sink->on_sample(b->sink_ctx, run, m, v);
}

static void on_progress(void *ctx, const struct run *run)
{
    struct batch *b = ctx;
    if (run != b->again && b->sink->on_progress)
        b->sink->on_progress(b->sink_ctx, run);
}

static bool has_note(const struct run *r, const char *text)
{
    for (size_t i = 0; i < r->nnotes; i++)
        if (strcmp(r->notes[i], text) == 0)
            return true;
    return false;
}

static void on_note(void *ctx, const struct run *run, const char *text)
{
    struct batch *b = ctx;
    struct run *p = primary(b);
    if (run == b->again && p) {
        if (has_note(p, text))
            return;
        run = p;
    }
    if (b->sink->on_note)
        b->sink->on_note(b->sink_ctx, run, text);
}

static void add_note(struct batch *b, struct run *r, char *text)
{
    r->notes = xrealloc(r->notes, (r->nnotes + 1) * sizeof *r->notes);
    r->notes[r->nnotes++] = text;
    if (b->sink->on_note)
        b->sink->on_note(b->sink_ctx, r, text);
}

/* Whether a kernel's first run failed in a way another run may not: it
 * reported a failure or nothing (a crash or a time limit is not tried
 * again: that costs as much once more). */
static bool first_run_failed(const struct run *r)
{
    if (r->status == STATUS_FAILED || r->status == STATUS_NO_DATA)
        return true;
    for (size_t i = 0; r->status == STATUS_OK && i < r->nmetrics; i++)
        if (r->metrics[i].failed)
            return true;
    return false;
}

/* A run ended: a repeat is absorbed; then once more, or the run's end. */
static void on_done(void *ctx, const struct run *run)
{
    struct batch *b = ctx;
    struct run *p = primary(b);
    if (!p)
        return;
    if (run == p)
        b->first_s = p->ended - p->started;
    if (run == b->again) {
        if (run->status != STATUS_OK) {
            add_note(b, p, xasprintf("run %zu of %s ended early (%s): its samples and "
                                     "those before it are kept", p->runs + 1, p->kernel->name,
                                     run->error ? run->error : status_name(run->status)));
            p->ended = run->ended;
        } else {
            runner_absorb(p, run);
        }
    }
    if (run == p && b->repeat && !b->cancelled && !b->retried && first_run_failed(p)) {
        b->want_retry = true;   /* once more from the start (batch_pump) */
        return;
    }
    bool ok = run->status == STATUS_OK && p->status == STATUS_OK;
    if (ok && !b->cancelled && b->repeat &&
        b->repeat(b->repeat_ctx, b, b->current, p, b->first_s)) {
        b->want_again = true;
        return;
    }
    if (b->sink->on_done)
        b->sink->on_done(b->sink_ctx, p);
}

/* Starts kernels from `current` on until one starts or none is left. */
static struct run *start_kernel(struct batch *b, struct diag *d)
{
    struct run_options opt = b->opt;
    if (b->nonly) {
        opt.params.only = (const char *const *)b->only[b->current];
        opt.params.nonly = b->nonly[b->current];
    }
    return runner_start(b->kernels[b->current], &opt, &b->own, b, d);
}

static void start_from_current(struct batch *b)
{
    while (b->current < b->n && !b->cancelled) {
        struct diag d;
        diag_init(&d);
        struct run *r = start_kernel(b, &d);
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
    static const struct sink none;
    b->sink = sink ? sink : &none;
    b->sink_ctx = sink_ctx;
    b->own = (struct sink){ .on_start = on_start, .on_sample = on_sample,
                            .on_progress = on_progress, .on_note = on_note,
                            .on_done = on_done };
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

/* The run now going: a repeat, or the kernel's own run. */
static struct run *live(const struct batch *b)
{
    return b->again ? b->again : b->runs[b->current];
}

int batch_fd(const struct batch *b)
{
    return batch_done(b) || !live(b) ? -1 : runner_fd(live(b));
}

void batch_set_repeat(struct batch *b, batch_repeat_fn fn, void *ctx)
{
    b->repeat = fn;
    b->repeat_ctx = ctx;
}

/* After a run that asked for another: start it; false when it could not
 * be (the kernel's end is reported then). */
static bool start_again(struct batch *b)
{
    struct run *p = b->runs[b->current];
    runner_free(b->again);
    b->again = NULL;
    b->want_again = false;
    struct diag d;
    diag_init(&d);
    b->again = start_kernel(b, &d);
    if (!b->again) {
        add_note(b, p, xasprintf("%s could not run again: %s", p->kernel->name,
                                 diag_last(&d)));
        if (b->sink->on_done)
            b->sink->on_done(b->sink_ctx, p);
    }
    diag_free(&d);
    return b->again != NULL;
}

/* After a first run that failed (with repeats): the kernel from the
 * start, once; false when it could not start (its failed run stays). */
static bool start_retry(struct batch *b)
{
    struct run *failed = b->runs[b->current];
    b->want_retry = false;
    b->retried = true;
    struct diag d;
    diag_init(&d);
    struct run *r = start_kernel(b, &d);
    diag_free(&d);
    if (!r) {
        if (b->sink->on_done)
            b->sink->on_done(b->sink_ctx, failed);
        return false;
    }
    b->runs[b->current] = r;
    add_note(b, r, xasprintf("%s's first run failed (%s): it runs again from the start",
                             failed->kernel->name,
                             failed->error ? failed->error : status_name(failed->status)));
    runner_free(failed);
    return true;
}

bool batch_pump(struct batch *b)
{
    if (batch_done(b))
        return false;
    struct run *r = live(b);
    if (r && runner_pump(r))
        return true;
    if (b->want_retry && start_retry(b))
        return true;
    if (b->want_again && start_again(b))
        return true;
    runner_free(b->again);
    b->again = NULL;
    b->current++;
    b->retried = false;
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
        struct pollfd p[2] = { { .fd = batch_fd(b), .events = POLLIN },
                               { .fd = stopsig_fd(), .events = POLLIN } };
        poll(p, 2, left);
        if (stopsig_caught()) {
            char *why = stopsig_reason(stopsig_caught());
            batch_cancel_because(b, why);
            free(why);
            break;
        }
        batch_pump(b);
    }
    return !batch_done(b);
}

void batch_cancel(struct batch *b)
{
    batch_cancel_because(b, NULL);
}

void batch_cancel_because(struct batch *b, const char *why)
{
    if (batch_done(b))
        return;
    b->cancelled = true;        /* first: the run's end asks for no repeat */
    if (live(b))
        runner_cancel_because(live(b), why);
    if (b->want_again || b->want_retry) {   /* ended, waiting: ends now */
        b->want_again = b->want_retry = false;
        if (b->sink->on_done && b->runs[b->current])
            b->sink->on_done(b->sink_ctx, b->runs[b->current]);
    }
}

void batch_free(struct batch *b)
{
    if (!b)
        return;
    batch_cancel(b);
    runner_free(b->again);
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
