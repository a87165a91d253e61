/* test_helpers.c - helpers several suites share (test_helpers.h). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "kernel/report.h"
#include "test_helpers.h"
#include "common/util.h"
#include "benches/kernels/registry.h"

int test_metric_find(const struct kernel *k, const char *id)
{
    for (size_t i = 0; id && i < k->nmetrics; i++)
        if (strcmp(k->metrics[i].id, id) == 0)
            return (int)i;
    return -1;
}

size_t run_events_index(const struct run_events *e, const char *id)
{
    int i = test_metric_find(e->k, id);
    ck_assert_msg(i >= 0, "%s has no metric %s", e->k->name, id ? id : "(null)");
    return (size_t)i;
}

static void on_sample(struct run_events *e, const struct report_event *ev)
{
    int i = test_metric_find(e->k, ev->metric);
    if (i < 0) {
        e->unknown_samples++;
        return;
    }
    double v = ev->value;
    bool allowed = e->nonpositive_ok && e->nonpositive_ok(ev->metric);
    if (!isfinite(v) || (v <= 0 && !allowed)) {
        if (!e->bad_values++)
            snprintf(e->bad_text, sizeof e->bad_text, "%s = %g", ev->metric, v);
    }
    if (!e->samples[i] || v < e->min[i])
        e->min[i] = v;
    if (!e->samples[i] || v > e->max[i])
        e->max[i] = v;
    if (!e->samples[i])
        e->first[i] = v;
    e->last[i] = v;
    e->sum[i] += v;
    e->samples[i]++;
}

static void on_fail(struct run_events *e, const struct report_event *ev)
{
    int i = test_metric_find(e->k, ev->metric);
    e->nfails++;
    if (i < 0) {
        e->unknown_fails++;
    } else {
        e->fails[i]++;
        if (!e->fail_texts[i])
            e->fail_texts[i] = xstrdup(ev->text);
    }
    if (!e->fail_text) {
        e->fail_text = xstrdup(ev->text);
        e->fail_metric = xstrdup(ev->metric ? ev->metric : "");
    }
}

static void collect(void *ctx, const struct report_event *ev)
{
    struct run_events *e = ctx;
    switch (ev->kind) {
    case REPORT_SAMPLE:
        on_sample(e, ev);
        break;
    case REPORT_FAIL:
        on_fail(e, ev);
        break;
    case REPORT_PROGRESS:
        if (e->progress && ev->value < e->last_done)
            e->progress_backwards = true;
        if (ev->value > ev->total * 1.0001)
            e->progress_over = true;
        e->last_done = ev->value;
        e->last_total = ev->total;
        e->progress++;
        break;
    case REPORT_NOTE: {
        char *joined = xasprintf("%s%s|", e->notes_text ? e->notes_text : "", ev->text);
        free(e->notes_text);
        e->notes_text = joined;
        e->notes++;
        break;
    }
    }
}

int run_events_kernel(const char *name, const struct kernel_params *p,
                      bool (*nonpositive_ok)(const char *metric), struct run_events *e)
{
    memset(e, 0, sizeof *e);
    e->k = kernel_find(name);
    ck_assert_msg(e->k != NULL, "kernel %s not registered", name);
    size_t n = e->k->nmetrics;
    e->samples = xcalloc(n, sizeof *e->samples);
    e->fails = xcalloc(n, sizeof *e->fails);
    e->first = xcalloc(n, sizeof *e->first);
    e->last = xcalloc(n, sizeof *e->last);
    e->min = xcalloc(n, sizeof *e->min);
    e->max = xcalloc(n, sizeof *e->max);
    e->sum = xcalloc(n, sizeof *e->sum);
    e->fail_texts = xcalloc(n, sizeof *e->fail_texts);
    e->nonpositive_ok = nonpositive_ok;
    struct report r;
    report_to_callback(&r, collect, e);
    struct kernel_params params = *p;
    params.self = e->k;
    return e->k->run(&params, &r);
}

void run_events_free(struct run_events *e)
{
    for (size_t i = 0; e->k && e->fail_texts && i < e->k->nmetrics; i++)
        free(e->fail_texts[i]);
    free(e->fail_texts);
    free(e->samples);
    free(e->fails);
    free(e->first);
    free(e->last);
    free(e->min);
    free(e->max);
    free(e->sum);
    free(e->fail_text);
    free(e->fail_metric);
    free(e->notes_text);
    memset(e, 0, sizeof *e);
}

char *test_tmpdir(const char *name)
{
    char *dir = xasprintf("/tmp/evmbench-%s-XXXXXX", name);
    ck_assert_msg(mkdtemp(dir) != NULL, "cannot make %s", dir);
    return dir;
}

void test_rmtree(const char *dir)
{
    char *cmd = xasprintf("rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
    free(cmd);
}
