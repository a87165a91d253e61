/* nbench.c - the BYTEmark (nbench) kernel: nine workloads timed the way
 * BYTEmark times them, reported in iterations per second.
 *
 * Timing, after BYTE's "dynamic workload adjustment": a workload is first
 * calibrated by doubling its units (arrays, loops or coefficients) until
 * one timed call lasts enough clock ticks to be timed, 1 ms here (nbench's
 * Linux ports need only a few dozen ticks of a fine clock, so on these
 * CPUs nbench sorts one array per call, right after loading it, with the
 * data in cache, and so does this kernel).
 * Inputs are reloaded before every call, untimed, and the results of every
 * call are checked, untimed. Calls are accumulated into a sample of at
 * least the sample time (1 s; 0.1 s when quick); each sample is one live
 * value, iterations over timed seconds.
 *
 * Stopping: BYTEmark runs every test at least 5 times for 5 seconds
 * (MINSECONDS) and stops once the 95 % confidence half-interval of the
 * mean (Student's t) is within 5 % of the mean, at 30 runs at the latest.
 * Full runs do the same on the samples: at least 5 samples and 25 s, then
 * until the half-interval is within 5 %, at most 150 s. Quick runs need 3
 * samples and stop at the same criterion or after 1 s. An explicit
 * iteration count runs that many samples. The summary is the mean, as
 * nbench prints the mean of its runs.
 *
 * A failed check or allocation fails that metric only. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/kernel.h"
#include "benches/kernels/nbench.h"
#include "common/util.h"

#define NB_CALL_S           0.001
#define NB_SAMPLE_S_FULL    1.0
#define NB_SAMPLE_S_QUICK   0.1
#define NB_MIN_SAMPLES_FULL 5
#define NB_MIN_SAMPLES_QUICK 3
#define NB_MIN_TIME_FULL    25.0    /* nbench: 5 runs x MINSECONDS 5 */
#define NB_MAX_TIME_FULL    150.0   /* nbench: 30 runs x 5 s */
#define NB_MAX_TIME_QUICK   1.0
#define NB_CONFIDENCE       0.05    /* half-interval / mean */
#define NB_MAX_UNIT_BYTES   (64u << 20)
#define NB_MAX_UNITS        (1u << 24)

/* --- the generator: xorshift64*, seeded through splitmix64 ------------- */

void nb_rng_seed(struct nb_rng *g, uint64_t seed)
{
    uint64_t z = seed + 0x9e3779b97f4a7c15u;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    z ^= z >> 31;
    g->s = z ? z : 1;
}

uint32_t nb_rng_next(struct nb_rng *g)
{
    g->s ^= g->s >> 12;
    g->s ^= g->s << 25;
    g->s ^= g->s >> 27;
    return (uint32_t)((g->s * 0x2545f4914f6cdd1du) >> 32);
}

uint32_t nb_rng_below(struct nb_rng *g, uint32_t n)
{
    return (uint32_t)(((uint64_t)nb_rng_next(g) * n) >> 32);
}

/* --- the metrics --------------------------------------------------------- */

const struct nb_workload *const nb_workloads[] = {
    &nb_numeric_sort, &nb_string_sort, &nb_fp_emulation, &nb_fourier,
    &nb_assignment, &nb_idea, &nb_huffman, &nb_neural_net, &nb_lu_decomposition,
};
const size_t nb_workload_count = ARRAY_SIZE(nb_workloads);

/* nbench prints the mean of its runs; the work scales with the clock. */
#define NB_METRIC(name) \
    { .id = name, .unit = "iterations", .summary = SUMMARY_MEAN, .cpu_bound = true }

static const struct kernel_metric nbench_metrics[] = {
    NB_METRIC("numeric_sort"), NB_METRIC("string_sort"), NB_METRIC("fp_emulation"),
    NB_METRIC("fourier"), NB_METRIC("assignment"), NB_METRIC("idea"),
    NB_METRIC("huffman"), NB_METRIC("neural_net"), NB_METRIC("lu_decomposition"),
};

static const char *fault_id;
static enum nb_fault fault_kind;

void nbench_set_fault(const char *id, enum nb_fault fault)
{
    fault_id = fault == NB_FAULT_NONE ? NULL : id;
    fault_kind = fault;
}

static enum nb_fault fault_for(const struct nb_workload *w)
{
    return fault_id && strcmp(fault_id, w->id) == 0 ? fault_kind : NB_FAULT_NONE;
}

/* Student's t, two-sided 95 %, for 1..30 degrees of freedom. */
static double t95(size_t df)
{
    static const double t[] = {
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
        2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
        2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
    };
    if (df == 0)
        return INFINITY;
    return df <= ARRAY_SIZE(t) ? t[df - 1] : 1.960 + 2.5 / (double)df;
}

/* Welford's running mean and variance of the samples. */
struct tally {
    size_t n;
    double mean, m2, secs;
};

static void tally_add(struct tally *t, double v)
{
    t->n++;
    double d = v - t->mean;
    t->mean += d / (double)t->n;
    t->m2 += d * (v - t->mean);
}

static bool tally_confident(const struct tally *t)
{
    if (t->n < 2 || !(t->mean > 0))
        return false;
    double sd = sqrt(t->m2 / (double)(t->n - 1));
    return t95(t->n - 1) * sd / sqrt((double)t->n) <= NB_CONFIDENCE * t->mean;
}

struct plan {
    bool quick;
    int samples;            /* > 0: exactly this many */
    double call_s, sample_s;
};

/* One untimed reload, one timed call, one untimed check. Returns the
 * iterations (and seconds through *secs), or -1 after a failed check. */
static double timed_call(const struct nb_workload *w, void *st, double *secs,
                         char *why, size_t len)
{
    w->prepare(st);
    double t0 = now_seconds();
    double iters = w->run(st);
    *secs = now_seconds() - t0;
    if (fault_for(w) == NB_FAULT_CHECK)
        w->corrupt(st);
    if (!w->check(st, why, len))
        return -1;
    return iters;
}

static void *create(const struct nb_workload *w, size_t units)
{
    if (fault_for(w) == NB_FAULT_NOMEM)
        return NULL;
    return w->create(units);
}

static double mib(double bytes)
{
    return bytes / (1024.0 * 1024.0);
}

/* Runs one workload; returns true when it reported a result. */
static bool run_workload(const struct nb_workload *w, const struct plan *pl,
                         size_t index, size_t count, struct report *r)
{
    char why[400];
    size_t units = w->unit_start;
    void *st = create(w, units);
    double secs = 0, iters;

    if (!st) {
        report_fail(r, w->id, "cannot allocate the data for %zu unit%s (%.1f MiB)", units,
                    units == 1 ? "" : "s", mib((double)units * (double)w->unit_bytes));
        return false;
    }
    /* Calibration: double the units until one call is long enough. */
    for (;;) {
        iters = timed_call(w, st, &secs, why, sizeof why);
        if (iters < 0)
            goto failed;
        if (secs >= pl->call_s)
            break;
        size_t next = units * 2;
        if (next > NB_MAX_UNITS || (double)next * (double)w->unit_bytes > NB_MAX_UNIT_BYTES)
            break;
        void *bigger = create(w, next);
        if (!bigger)
            break;      /* keep the smaller calls; samples add them up */
        w->destroy(st);
        st = bigger;
        units = next;
    }
    report_note(r, "%s: %s; %zu unit%s per timed call (%.3f s)", w->id, w->what, units,
                units == 1 ? "" : "s", secs);

    struct tally t = { 0 };
    double budget = pl->quick ? NB_MAX_TIME_QUICK : NB_MAX_TIME_FULL;
    for (;;) {
        double sum_iters = 0, sum_secs = 0;
        do {
            iters = timed_call(w, st, &secs, why, sizeof why);
            if (iters < 0)
                goto failed;
            sum_iters += iters;
            sum_secs += secs;
        } while (sum_secs < pl->sample_s);
        double rate = sum_iters / sum_secs;
        report_sample(r, w->id, rate);
        tally_add(&t, rate);
        t.secs += sum_secs;

        double frac;
        if (pl->samples > 0) {
            frac = (double)t.n / pl->samples;
            if ((int)t.n >= pl->samples)
                break;
        } else {
            size_t min_n = pl->quick ? NB_MIN_SAMPLES_QUICK : NB_MIN_SAMPLES_FULL;
            double min_s = pl->quick ? 0 : NB_MIN_TIME_FULL;
            frac = pl->quick ? t.secs / budget : t.secs / NB_MIN_TIME_FULL;
            if (t.secs >= budget)
                break;
            if (t.n >= min_n && t.secs >= min_s && tally_confident(&t))
                break;
        }
        report_progress(r, (double)index + fmin(frac, 0.99), (double)count);
    }
    if (!tally_confident(&t) && t.n >= 2)
        report_note(r, "%s: the 95 %% confidence half-interval is over %.0f %% of the mean "
                    "after %zu samples", w->id, NB_CONFIDENCE * 100, t.n);
    w->destroy(st);
    return true;
failed:
    report_fail(r, w->id, "check failed: %s", why);
    w->destroy(st);
    return false;
}

static int nbench_run(const struct kernel_params *p, struct report *r)
{
    struct plan pl = {
        .quick = p->quick,
        .samples = p->iterations > 0 ? p->iterations : 0,
        .call_s = NB_CALL_S,
        .sample_s = p->quick ? NB_SAMPLE_S_QUICK : NB_SAMPLE_S_FULL,
    };
    if (p->size)
        report_note(r, "size %zu ignored: BYTEmark's array sizes are fixed", p->size);
    size_t ok = 0, total = 0, done = 0;
    for (size_t i = 0; i < nb_workload_count; i++)
        total += kernel_wants(p, nb_workloads[i]->id);
    for (size_t i = 0; i < nb_workload_count; i++) {
        if (!kernel_wants(p, nb_workloads[i]->id))
            continue;       /* a workload p->only does not want: not run */
        if (run_workload(nb_workloads[i], &pl, done, total, r))
            ok++;
        report_progress(r, (double)++done, (double)total);
    }
    return ok ? 0 : -1;
}

const struct kernel kernel_nbench = {
    .name = "nbench",
    .section = "nbench",
    .description = "BYTEmark (nbench) workloads: numeric and string sort, FP emulation, "
                   "Fourier, assignment, IDEA, Huffman, neural net, LU decomposition",
    .metrics = nbench_metrics,
    .nmetrics = ARRAY_SIZE(nbench_metrics),
    /* Quick: calibration plus 1 s per workload; full: 25 s per workload
     * like nbench's 5 x 5 s, more when the results scatter. */
    .budget_quick_s = 12.0,
    .budget_full_s = 240.0,
    .run = nbench_run,
};
