/* selfcheck.c - kernels and tools side by side. */
#include "config.h"
#include "selfcheck.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "run/batch.h"
#include "common/util.h"

/* A line at most this often while one kernel or tool runs on. */
#define PROGRESS_EVERY_S 30.0

/* The agreement aimed for (issue "Embedded kernels, memory and OS"):
 * a metric whose id starts with `prefix` in `section` should come within
 * `pct` percent of the tool. */
static const struct {
    const char *section, *prefix;
    double pct;
} targets[] = {
    { "stream", "", 10 },
    { "lmbench", "bw_mem-rd-16mb", 10 },
    { "lmbench", "bw_mem-wr-16mb", 10 },
    { "lmbench", "bw_mem-bcopy-16mb", 10 },
    { "lmbench", "bw_mem-bzero-16mb", 10 },
    { "lmbench", "lat_mem_rd-", 15 },
    { "lmbench", "lat_syscall-", 25 },
    { "lmbench", "lat_pipe", 25 },
};

static double target_pct(const char *section, const char *metric)
{
    for (size_t i = 0; i < ARRAY_SIZE(targets); i++)
        if (strcmp(targets[i].section, section) == 0 &&
            str_starts_with(metric, targets[i].prefix))
            return targets[i].pct;
    return 0;
}

/* The values of one metric from both sides, one per round, and the
 * ratio of each round where both sides measured it. */
struct pair {
    const char *section, *metric, *unit;
    char kprov[64], tprov[64];
    struct stats kernel, tool;
    double *kround, *tround;    /* per round, NAN when not measured */
};

struct check {
    struct pair *pairs;
    size_t n;
    int rounds, round;          /* round: the live one, from 0 */
};

static struct pair *pair_get(struct check *c, const char *section, const char *metric,
                             const char *unit)
{
    for (size_t i = 0; i < c->n; i++)
        if (strcmp(c->pairs[i].section, section) == 0 && strcmp(c->pairs[i].metric, metric) == 0)
            return &c->pairs[i];
    c->pairs = xrealloc(c->pairs, (c->n + 1) * sizeof *c->pairs);
    struct pair *p = &c->pairs[c->n++];
    memset(p, 0, sizeof *p);
    p->section = section;
    p->metric = metric;
    p->unit = unit;
    stats_init(&p->kernel);
    stats_init(&p->tool);
    p->kround = xcalloc((size_t)c->rounds, sizeof *p->kround);
    p->tround = xcalloc((size_t)c->rounds, sizeof *p->tround);
    for (int r = 0; r < c->rounds; r++)
        p->kround[r] = p->tround[r] = NAN;
    return p;
}

/* The median over the rounds of kernel / tool, each round's two values
 * taken minutes apart at most: the board's state drifts between rounds
 * (other load, memory traffic of a neighbour VM) and a ratio of the two
 * medians can pair a quiet round's kernel with a busy round's tool. NAN
 * when no round has both. */
static double pair_ratio(const struct pair *p, int rounds)
{
    struct stats r;
    stats_init(&r);
    for (int i = 0; i < rounds; i++)
        if (isfinite(p->kround[i]) && isfinite(p->tround[i]) && p->tround[i] != 0)
            stats_push(&r, p->kround[i] / p->tround[i]);
    double m = r.count ? stats_median(&r) : NAN;
    stats_free(&r);
    return m;
}

/* Progress of the whole check, on stderr: a line when each kernel or
 * tool ends and every PROGRESS_EVERY_S seconds while one runs on, each
 * with the time left. That is the time budgets of what remains, scaled
 * by the pace so far (seconds taken per budget second done): a loaded
 * board running at a fifth of the budgets' pace is told 5 x the budgets.
 * The plan (totals) is counted before anything runs. */
struct progress {
    FILE *err;
    bool quick;
    double t0;                  /* when the first run started; 0 before */
    double total, done;         /* budget seconds: planned, of finished runs */
    int runs_total, runs_done;
    int benches;                /* benchmarks with both sides */
    const char *bench;          /* the live one's slug */
    int round, rounds;
    double last_line;           /* now_seconds() of the last line */
};

static double kernel_budget(const struct kernel *k, bool quick)
{
    double s = quick ? k->budget_quick_s : k->budget_full_s;
    return s > 0 ? s : 1;
}

/* "45 s", "12 min", "1 h 5 min" */
static void fmt_duration(double secs, char *buf, size_t n)
{
    long s = secs > 0 ? lround(secs) : 0;
    if (s < 90)
        snprintf(buf, n, "%ld s", s);
    else if (s < 5400)
        snprintf(buf, n, "%ld min", (s + 30) / 60);
    else
        snprintf(buf, n, "%ld h %ld min", s / 3600, (s % 3600 + 30) / 60);
}

/* Seconds left, counting `live` (the run going on, or NULL) by its
 * reported progress. */
static double progress_left(const struct progress *pr, const struct run *live)
{
    double done = pr->done;
    if (live && !live->finished) {
        double f = live->progress < 0 ? 0 : live->progress > 1 ? 1 : live->progress;
        done += kernel_budget(live->kernel, pr->quick) * f;
    }
    double left = pr->total - done;
    if (left < 0)
        left = 0;
    double elapsed = pr->t0 > 0 ? now_seconds() - pr->t0 : 0;
    /* the budgets at face value until a tenth of them is done */
    if (done >= 0.1 * pr->total && done > 0 && elapsed > 0)
        left *= elapsed / done;
    return left;
}

static void progress_line(struct progress *pr, const struct run *run, const char *what)
{
    char prov[64], left[32];
    kernel_provider_id(run->kernel, prov, sizeof prov);
    fmt_duration(progress_left(pr, run), left, sizeof left);
    fprintf(pr->err, "evmbench: %s round %d of %d: %s %s; %d of %d runs done, "
            "about %s left\n", pr->bench, pr->round, pr->rounds, prov, what,
            pr->runs_done, pr->runs_total, left);
    fflush(pr->err);
    pr->last_line = now_seconds();
}

static void progress_on_start(void *ctx, const struct run *run)
{
    struct progress *pr = ctx;
    (void)run;
    if (pr->t0 == 0)
        pr->t0 = now_seconds();
    pr->last_line = now_seconds();
}

static void progress_on_done(void *ctx, const struct run *run)
{
    struct progress *pr = ctx;
    pr->done += kernel_budget(run->kernel, pr->quick);
    pr->runs_done++;
    char took[32], what[64];
    fmt_duration(run->ended - run->started, took, sizeof took);
    snprintf(what, sizeof what, "took %s", took);
    progress_line(pr, run, what);
}

/* A line now and then while one kernel or tool runs for long. */
static void progress_tick(struct progress *pr, const struct run *live)
{
    if (!live || live->finished || now_seconds() - pr->last_line < PROGRESS_EVERY_S)
        return;
    char ran[32], what[80];
    fmt_duration(now_seconds() - live->started, ran, sizeof ran);
    snprintf(what, sizeof what, "running for %s, %.0f %%", ran, live->progress * 100);
    progress_line(pr, live, what);
}

static const struct sink progress_sink = {
    .on_start = progress_on_start,
    .on_done = progress_on_done,
};

/* Runs the kernels as one batch and files each metric's value. */
static void run_side(struct check *c, const struct kernel **ks, size_t n, bool tool,
                     const struct run_options *opt, struct progress *pr, FILE *err)
{
    struct batch *b = batch_start(ks, n, opt, &progress_sink, pr);
    while (batch_wait(b, 1000))
        progress_tick(pr, batch_run(b));
    for (size_t i = 0; i < b->n; i++) {
        const struct run *r = b->runs[i];
        if (!r) {
            pr->done += kernel_budget(ks[i], pr->quick);
            pr->runs_done++;
            fprintf(err, "evmbench: %s: %s\n", ks[i]->name,
                    b->start_errors[i] ? b->start_errors[i] : "not started");
            continue;
        }
        if (r->status != STATUS_OK)
            fprintf(err, "evmbench: %s %s: %s\n", ks[i]->name, status_name(r->status),
                    r->error ? r->error : status_message(r->status));
        for (size_t m = 0; m < r->nmetrics; m++) {
            const struct run_metric *rm = &r->metrics[m];
            if (!rm->stats.count || rm->failed)
                continue;
            struct pair *p = pair_get(c, r->kernel->section, rm->def->id, rm->def->unit);
            double v = stats_summary(&rm->stats, rm->def->summary);
            stats_push(tool ? &p->tool : &p->kernel, v);
            (tool ? p->tround : p->kround)[c->round] = v;
            kernel_provider_id(r->kernel, tool ? p->tprov : p->kprov, sizeof p->kprov);
        }
    }
    batch_free(b);
}

static bool is_tool(const struct kernel *k)
{
    return k->provider && strcmp(k->provider, "tool") == 0;
}

static bool share_metric(const struct kernel *x, const struct kernel *y)
{
    for (size_t i = 0; i < x->nmetrics; i++)
        for (size_t j = 0; j < y->nmetrics; j++)
            if (strcmp(x->metrics[i].id, y->metrics[j].id) == 0)
                return true;
    return false;
}

/* Whether k is among those named `only`: by its own name, or, when no
 * kernel of the other side has that name, by sharing a metric with one
 * that has (the kernel lat_ipc measures what the tools lat_pipe, lat_unix
 * ... do, and selfcheck lat_pipe runs the two). */
static bool wanted(const struct cat_bench *b, const struct kernel *k, const char *only)
{
    if (!only || strcasecmp(k->name, only) == 0)
        return true;
    bool other_named = false;
    for (size_t i = 0; i < b->nkernels; i++) {
        const struct kernel *o = b->kernels[i];
        if (!o->extra && is_tool(o) != is_tool(k) && strcasecmp(o->name, only) == 0)
            other_named = true;
    }
    if (other_named)
        for (size_t i = 0; i < b->nkernels; i++) {
            const struct kernel *o = b->kernels[i];
            if (is_tool(o) != is_tool(k) && strcasecmp(o->name, only) == 0 &&
                share_metric(k, o))
                return true;
        }
    return false;
}

/* The embedded (non-extra) kernels and the installed tool kernels of b;
 * only those `wanted` when `only` is set (a kernel and its tool mostly
 * share the lmbench program's name: bw_mem, lat_mem_rd ...). */
static void split(const struct cat_bench *b, const char *only,
                  const struct kernel **ks, size_t *nk, const struct kernel **ts, size_t *nt)
{
    *nk = *nt = 0;
    for (size_t i = 0; i < b->nkernels; i++) {
        const struct kernel *k = b->kernels[i];
        if (k->extra || !wanted(b, k, only))
            continue;
        if (is_tool(k)) {
            if (app_kernel_available(k))
                ts[(*nt)++] = k;
        } else {
            ks[(*nk)++] = k;
        }
    }
}

/* Counts what checking b takes into pr (plan), or checks it. */
static void check_bench(struct check *c, const struct app *a, const struct cat_bench *b,
                        const char *only, bool named, bool plan, struct progress *pr,
                        FILE *err)
{
    const struct kernel **ks = xcalloc(b->nkernels + 1, sizeof *ks);
    const struct kernel **ts = xcalloc(b->nkernels + 1, sizeof *ts);
    size_t nk, nt;
    split(b, only, ks, &nk, ts, &nt);
    if (!nk || !nt) {
        if (named && !plan)
            fprintf(err, "evmbench: %s: %s\n", b->slug,
                    !nk ? "no embedded kernel runs it" : "none of its tools is installed "
                    "(see 'evmbench list'; --tools-dir DIR)");
    } else if (plan) {
        double one = 0;
        for (size_t i = 0; i < nk; i++)
            one += kernel_budget(ks[i], pr->quick);
        for (size_t i = 0; i < nt; i++)
            one += kernel_budget(ts[i], pr->quick);
        pr->total += one * pr->rounds;
        pr->runs_total += (int)(nk + nt) * pr->rounds;
        pr->benches++;
    } else {
        pr->bench = b->slug;
        for (int r = 0; r < pr->rounds; r++) {
            pr->round = r + 1;
            c->round = r;
            fprintf(err, "evmbench: %s: round %d of %d\n", b->slug, r + 1, pr->rounds);
            /* alternate who goes first: neither side always gets a warm machine */
            bool tool_first = r % 2;
            run_side(c, tool_first ? ts : ks, tool_first ? nt : nk, tool_first,
                     &a->run_opts, pr, err);
            run_side(c, tool_first ? ks : ts, tool_first ? nk : nt, !tool_first,
                     &a->run_opts, pr, err);
        }
    }
    free(ks);
    free(ts);
}

static void report(const struct check *c, bool json, FILE *out)
{
    json_t *arr = json_array();
    const char *section = NULL;
    for (size_t i = 0; i < c->n; i++) {
        const struct pair *p = &c->pairs[i];
        if (!p->kernel.count || !p->tool.count)
            continue;
        double k = stats_median(&p->kernel), t = stats_median(&p->tool);
        double ratio = pair_ratio(p, c->rounds);
        double want = target_pct(p->section, p->metric);
        bool within = want > 0 && isfinite(ratio) && fabs(ratio - 1) * 100 <= want;
        if (json) {
            json_t *o = json_object();
            json_object_set_new(o, "bench", json_string(p->section));
            json_object_set_new(o, "metric", json_string(p->metric));
            json_object_set_new(o, "unit", json_string(p->unit));
            json_object_set_new(o, "kernel", json_real(k));
            json_object_set_new(o, "tool", json_real(t));
            json_object_set_new(o, "ratio", isfinite(ratio) ? json_real(ratio) : json_null());
            json_object_set_new(o, "rounds", json_integer((json_int_t)p->kernel.count));
            json_t *rr = json_array();
            for (int r = 0; r < c->rounds; r++) {
                bool both = isfinite(p->kround[r]) && isfinite(p->tround[r]) &&
                            p->tround[r] != 0;
                json_array_append_new(rr, both ? json_real(p->kround[r] / p->tround[r])
                                               : json_null());
            }
            json_object_set_new(o, "round_ratios", rr);
            json_object_set_new(o, "kernel_provider", json_string(p->kprov));
            json_object_set_new(o, "tool_provider", json_string(p->tprov));
            json_object_set_new(o, "target_pct", want > 0 ? json_real(want) : json_null());
            json_object_set_new(o, "within_target", want > 0 ? json_boolean(within) : json_null());
            json_array_append_new(arr, o);
            continue;
        }
        if (!section || strcmp(section, p->section) != 0) {
            section = p->section;
            fprintf(out, "\n%s\n%-30s %12s %12s %8s %s\n", section, "METRIC", "KERNEL", "TOOL",
                    "RATIO", "TARGET");
        }
        char target[24] = "";
        if (want > 0)
            snprintf(target, sizeof target, "+-%.0f%% %s", want, within ? "ok" : "OUTSIDE");
        fprintf(out, "%-30.30s %12.4g %12.4g %8.3f %s\n", p->metric, k, t, ratio, target);
    }
    if (json) {
        json_dumpf(arr, out, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
        fputc('\n', out);
    }
    json_decref(arr);
}

/* Every benchmark named (plan: counted only), or all in the catalog.
 * 2 for an unknown name, else 0. */
static int check_all(struct check *c, struct app *a, const struct selfcheck_options *opt,
                     bool plan, struct progress *pr, FILE *err)
{
    if (!opt->nnames) {
        for (size_t i = 0; i < a->catalog->ncats; i++)
            for (size_t j = 0; j < a->catalog->cats[i].nbenches; j++)
                check_bench(c, a, a->catalog->cats[i].benches[j], NULL, false, plan, pr, err);
        return 0;
    }
    for (int i = 0; i < opt->nnames; i++) {
        const struct cat_bench *b = catalog_find_bench(a->catalog, opt->names[i]);
        if (!b) {
            fprintf(err, "evmbench: unknown benchmark '%s' (see 'evmbench list')\n",
                    opt->names[i]);
            return 2;
        }
        /* a kernel's name checks that kernel alone, else the section */
        const char *only = strcasecmp(b->slug, opt->names[i]) != 0 ? opt->names[i] : NULL;
        check_bench(c, a, b, only, true, plan, pr, err);
    }
    return 0;
}

int selfcheck_run(struct app *a, const struct selfcheck_options *opt, FILE *out, FILE *err)
{
    bool quick = a->run_opts.params.quick;
    struct progress pr = { .err = err, .quick = quick,
                           .rounds = opt->rounds > 0 ? opt->rounds : quick ? 1 : 3 };
    struct check c = { .rounds = pr.rounds };
    if (check_all(&c, a, opt, true, &pr, err) != 0)
        return 2;
    if (pr.runs_total) {
        char left[32];
        fmt_duration(pr.total, left, sizeof left);
        fprintf(err, "evmbench: selfcheck: %d benchmark%s, %d round%s, %d runs; about %s "
                "by the time budgets%s\n", pr.benches, pr.benches == 1 ? "" : "s",
                pr.rounds, pr.rounds == 1 ? "" : "s", pr.runs_total, left,
                quick ? "" : " (--quick for a first answer)");
    }
    check_all(&c, a, opt, false, &pr, err);
    size_t compared = 0;
    for (size_t i = 0; i < c.n; i++)
        compared += c.pairs[i].kernel.count && c.pairs[i].tool.count;
    if (compared)
        report(&c, opt->json, out);
    else
        fprintf(err, "evmbench: nothing to compare: no benchmark has both a kernel and an "
                     "installed tool (see 'evmbench list'; --tools-dir DIR)\n");
    for (size_t i = 0; i < c.n; i++) {
        stats_free(&c.pairs[i].kernel);
        stats_free(&c.pairs[i].tool);
        free(c.pairs[i].kround);
        free(c.pairs[i].tround);
    }
    free(c.pairs);
    return compared ? 0 : 3;
}
