/* sim_verdicts.c - the before/after verdict against a fake tool whose
 * samples are seeded draws, decided by the production rule alone.
 *
 * Each trial does what the engine does for one metric:
 *
 *   1. saves a baseline: runs the fake tool (one value a run: what a
 *      comparison counts, the run's own summary) while
 *      repeat_wants_more(NULL, 0, ...) asks for more and the repeat
 *      budget below allows;
 *   2. runs it again, its samples now shifted by the true change, while
 *      repeat_wants_more(baseline, ...) asks for more and the budget
 *      allows;
 *   3. takes the outcome: change_estimate() of the two sample sets, then
 *      deviation_outcome() at the tolerance PCT.
 *
 * Every decision (when to stop, what the verdict is) is a call of
 * common/change.h, run/repeat.h and run/deviation.h; this file only
 * draws numbers and counts. Nothing is timed: the draws are seeded, so
 * the figures are the same on any machine.
 *
 * The budget is the engine's (engine.h) in runs: 64, what a row keeps,
 * for a cheap tool (a run of a few ms: its time allows more), and 10 for
 * a benchmark whose first run takes 0.3 s or more (10 times its first
 * run). The detection claim is for the cheap tool; the 10-run rows show
 * what a longer benchmark can tell in its time.
 *
 * A fake value is the metric's true value times a noise factor with the
 * scenario's CV (lognormal, or normal), slowed now and then as a
 * preempted run is (a rate divided, a time multiplied by the outlier
 * factor), and shifted by the true change on the second side (a rate
 * lower, a time higher by that many % of the value).
 *
 * Claims (exit 0 when both hold, 1 when not; the rates are printed
 * either way):
 *   - no control scenario (no true change) with a CV up to
 *     SIM_CLAIM_MAX_CV % gives a single `slower`, and those with a larger
 *     CV give one in no more than SIM_NOISY_FALSE_MAX of their trials (at CV
 *     20 % a 95 % interval is about as wide as a 10 % tolerance: the
 *     chance that all of it lies beyond -PCT by noise alone is small, not
 *     nil; the rate is printed);
 *   - a true change SIM_CLAIM_SHIFT % worse at PCT SIM_CLAIM_PCT, with a
 *     CV up to SIM_CLAIM_MAX_CV %, outliers or not, is `slower` in at
 *     least SIM_CLAIM_DETECTION of the trials of each scenario of the
 *     cheap tool.
 *
 * Seeds: trial t of scenario # draws from seed  base + # * 2^20 + t, base
 * being SIM_BASE_SEED or --seed, # the scenario's place in the grid (the
 * same under every tolerance and noise family, which thus see the same
 * draws); all fixed before any trial runs.
 *
 * Usage: sim_verdicts [--trials N] [--seed S] [--pct P[,P...]]
 *                     [--dist lognormal|normal|both] [--quiet]
 * Exit: 0 the claims hold, 1 they do not, 2 a usage error. */
#include "config.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/change.h"
#include "run/deviation.h"
#include "run/repeat.h"

/* What a row and a baseline keep (REPEAT_MAX_SAMPLES), and the runs the
 * engine's time allows a cheap tool (all of those) and a benchmark whose
 * runs take 0.3 s or more (ENGINE_REPEAT_FACTOR times the first). */
#define SIM_MAX_SAMPLES REPEAT_MAX_SAMPLES
#define SIM_CHEAP_RUNS REPEAT_MAX_SAMPLES
#define SIM_LONG_RUNS 10

/* The seed every figure comes from, chosen once, before any trial ran. */
#define SIM_BASE_SEED UINT64_C(0x24e1b0a8d5c3f617)
/* Trials per scenario without --trials: enough for `make check`. */
#define SIM_DEFAULT_TRIALS 100
/* Trials a scenario may have: the seed of each is base + s * 2^20 + t. */
#define SIM_SEED_STRIDE (UINT64_C(1) << 20)

/* A preempted run: this share of the samples, slowed by a factor. */
#define SIM_OUTLIER_SHARE 0.05

/* The claims. */
#define SIM_CLAIM_PCT 10.0
#define SIM_CLAIM_SHIFT 20.0
#define SIM_CLAIM_MAX_CV 10.0
#define SIM_CLAIM_DETECTION 0.95
#define SIM_NOISY_FALSE_MAX 0.005

/* The grid of scenarios. */
static const size_t run_budgets[] = { SIM_CHEAP_RUNS, SIM_LONG_RUNS };
static const double cvs[] = { 2, 5, 10, 20 };         /* % */
static const double outlier_factors[] = { 0, 1.5, 3 }; /* 0: none */
static const double shifts[] = { 0, 10, 15, 20 };     /* % worse, 0: control */
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

enum dist { DIST_LOGNORMAL, DIST_NORMAL };
static const char *const dist_names[] = { "lognormal", "normal" };

struct scenario {
    size_t index;               /* its place in the grid, part of its seeds */
    enum dist dist;
    enum direction dir;         /* a rate (MB/s) or a time (us) */
    size_t max_runs;            /* the budget: runs a side at most */
    double cv;                  /* % */
    double outlier;             /* the slowdown of a preempted run, 0: none */
    double shift;               /* % worse now than before */
    double pct;                 /* the tolerance */
};

struct tally {
    size_t trials;
    size_t outcomes[OUTCOME_INCONCLUSIVE + 1];
    size_t samples_before, samples_now;
};

/* --- seeded draws: splitmix64, Box-Muller ---------------------------------- */

struct rng {
    uint64_t state;
    bool has_spare;
    double spare;
};

static uint64_t rng_next(struct rng *r)
{
    uint64_t z = (r->state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static void rng_seed(struct rng *r, uint64_t seed)
{
    r->state = seed;
    r->state = rng_next(r);     /* neighbouring seeds start far apart */
    r->has_spare = false;
}

/* Uniform in (0, 1): never 0, so its log is finite. */
static double rng_uniform(struct rng *r)
{
    return ((double)(rng_next(r) >> 11) + 0.5) / 9007199254740992.0;
}

/* Standard normal, two at a time (Box-Muller). */
static double rng_normal(struct rng *r)
{
    if (r->has_spare) {
        r->has_spare = false;
        return r->spare;
    }
    double radius = sqrt(-2 * log(rng_uniform(r)));
    double angle = 2 * M_PI * rng_uniform(r);
    r->spare = radius * sin(angle);
    r->has_spare = true;
    return radius * cos(angle);
}

/* --- the fake tool ----------------------------------------------------------- */

/* One sample: the true value (1000 MB/s, 10 us), times noise of mean 1 and
 * the scenario's CV, slowed when preempted, worse by `shift` %. A normal
 * draw may (at CV 20 %, once in millions) fall to 0 or below: the
 * production code leaves such a sample out, as it would a tool's. */
static double fake_sample(const struct scenario *sc, struct rng *r, double shift)
{
    double cv = sc->cv / 100, z = rng_normal(r), noise;
    if (sc->dist == DIST_LOGNORMAL) {
        double sigma = sqrt(log1p(cv * cv));    /* the lognormal of that CV */
        noise = exp(sigma * z - sigma * sigma / 2);
    } else {
        noise = 1 + cv * z;
    }
    bool preempted = sc->outlier > 0 && rng_uniform(r) < SIM_OUTLIER_SHARE;
    if (sc->dir == DIR_HIGHER_BETTER) {
        double v = 1000 * noise * (1 - shift / 100);
        return preempted ? v / sc->outlier : v;
    }
    double v = 10 * noise * (1 + shift / 100);
    return preempted ? v * sc->outlier : v;
}

/* Runs the fake tool, one value a run, while the repeat rule wants more
 * (against before[0 .. nb), or none) and the budget allows; the values
 * into v, their count returned. The first run always happens. */
static size_t run_repeated(const struct scenario *sc, struct rng *r, double shift,
                           const double *before, size_t nb, double *v)
{
    size_t n = 0;
    do
        v[n++] = fake_sample(sc, r, shift);
    while (n < sc->max_runs && n < SIM_MAX_SAMPLES &&
           repeat_wants_more(before, nb, v, n, sc->dir, sc->pct));
    return n;
}

/* One comparison: a baseline saved, a run against it, its outcome. */
static enum outcome run_trial(const struct scenario *sc, uint64_t seed, struct tally *t)
{
    struct rng r;
    rng_seed(&r, seed);
    double before[SIM_MAX_SAMPLES], now[SIM_MAX_SAMPLES];
    size_t nb = run_repeated(sc, &r, 0, NULL, 0, before);
    size_t nn = run_repeated(sc, &r, sc->shift, before, nb, now);
    struct change c;
    change_estimate(before, nb, now, nn, &c);
    enum outcome o = deviation_outcome(&c, sc->dir, sc->pct);
    t->trials++;
    t->outcomes[o]++;
    t->samples_before += nb;
    t->samples_now += nn;
    return o;
}

/* --- the scenarios and the claims -------------------------------------------- */

static uint64_t trial_seed(uint64_t base, const struct scenario *sc, size_t trial)
{
    return base + (uint64_t)sc->index * SIM_SEED_STRIDE + trial;
}

static double rate_of(const struct tally *t, enum outcome o)
{
    return t->trials ? (double)t->outcomes[o] / (double)t->trials : 0;
}

static void print_header(void)
{
    printf("%4s %-9s %-4s %4s %3s %4s %5s %4s %6s  %-13s %-13s %-13s %-13s %6s %6s\n",
           "#", "noise", "unit", "runs", "cv%", "outl", "worse", "pct", "trials",
           "slower", "faster", "unchanged", "inconclusive", "n_base", "n_now");
}

static void print_row(const struct scenario *sc, const struct tally *t)
{
    char outl[16];
    if (sc->outlier > 0)
        snprintf(outl, sizeof outl, "x%g", sc->outlier);
    else
        snprintf(outl, sizeof outl, "none");
    printf("%4zu %-9s %-4s %4zu %3g %4s %4g%% %4g %6zu ", sc->index, dist_names[sc->dist],
           sc->dir == DIR_HIGHER_BETTER ? "MB/s" : "us", sc->max_runs, sc->cv, outl, sc->shift,
           sc->pct, t->trials);
    static const enum outcome order[] = { OUTCOME_SLOWER, OUTCOME_FASTER, OUTCOME_UNCHANGED,
                                          OUTCOME_INCONCLUSIVE };
    for (size_t i = 0; i < COUNT(order); i++)
        printf(" %5zu %6.1f%%", t->outcomes[order[i]], 100 * rate_of(t, order[i]));
    double n = t->trials ? (double)t->trials : 1;
    printf(" %6.1f %6.1f\n", (double)t->samples_before / n, (double)t->samples_now / n);
}

struct claims {
    size_t control_scenarios, control_trials, control_slower;
    size_t noisy_scenarios, noisy_trials, noisy_slower;
    double noisy_highest;       /* the highest rate of slower among them */
    size_t detect_scenarios, detect_failed;
    double detect_lowest;       /* the lowest rate of slower among them */
    size_t detect_lowest_index;
};

/* Counts a scenario's tally into the claims; whether it breaks one. */
static bool judge(const struct scenario *sc, const struct tally *t, struct claims *cl)
{
    if (sc->shift == 0 && sc->cv > SIM_CLAIM_MAX_CV) {
        double rate = rate_of(t, OUTCOME_SLOWER);
        cl->noisy_scenarios++;
        cl->noisy_trials += t->trials;
        cl->noisy_slower += t->outcomes[OUTCOME_SLOWER];
        if (rate > cl->noisy_highest)
            cl->noisy_highest = rate;
        return t->outcomes[OUTCOME_SLOWER] > 0;
    }
    if (sc->shift == 0) {
        cl->control_scenarios++;
        cl->control_trials += t->trials;
        cl->control_slower += t->outcomes[OUTCOME_SLOWER];
        return t->outcomes[OUTCOME_SLOWER] > 0;
    }
    if (sc->shift != SIM_CLAIM_SHIFT || sc->pct != SIM_CLAIM_PCT ||
        sc->cv > SIM_CLAIM_MAX_CV || sc->max_runs != SIM_CHEAP_RUNS)
        return false;
    double rate = rate_of(t, OUTCOME_SLOWER);
    if (cl->detect_scenarios++ == 0 || rate < cl->detect_lowest) {
        cl->detect_lowest = rate;
        cl->detect_lowest_index = sc->index;
    }
    if (rate >= SIM_CLAIM_DETECTION)
        return false;
    cl->detect_failed++;
    return true;
}

struct options {
    size_t trials;
    uint64_t seed;
    bool quiet;
    double pcts[8];
    size_t n_pcts;
    bool dists[2];
};

/* The scenario at `index` of the grid of one tolerance and noise family:
 * index runs over unit, run budget, CV, outliers and shift, the last
 * fastest. The index is part of the seeds, so each tolerance and family
 * sees the same draws. */
#define GRID_SIZE (2 * COUNT(run_budgets) * COUNT(cvs) * COUNT(outlier_factors) * \
                   COUNT(shifts))

static void grid_scenario(size_t index, enum dist dist, double pct, struct scenario *sc)
{
    size_t i = index;
    sc->index = index;
    sc->dist = dist;
    sc->pct = pct;
    sc->shift = shifts[i % COUNT(shifts)];
    i /= COUNT(shifts);
    sc->outlier = outlier_factors[i % COUNT(outlier_factors)];
    i /= COUNT(outlier_factors);
    sc->cv = cvs[i % COUNT(cvs)];
    i /= COUNT(cvs);
    sc->max_runs = run_budgets[i % COUNT(run_budgets)];
    i /= COUNT(run_budgets);
    sc->dir = i ? DIR_LOWER_BETTER : DIR_HIGHER_BETTER;
}

/* Runs every scenario of the grid; whether both claims hold. */
static bool run_grid(const struct options *o)
{
    struct claims cl = { 0 };
    bool header = false;
    for (size_t p = 0; p < o->n_pcts; p++) {
        for (size_t d = 0; d < COUNT(o->dists); d++) {
            if (!o->dists[d])
                continue;
            for (size_t index = 0; index < GRID_SIZE; index++) {
                struct scenario sc;
                grid_scenario(index, (enum dist)d, o->pcts[p], &sc);
                struct tally t = { 0 };
                for (size_t i = 0; i < o->trials; i++)
                    run_trial(&sc, trial_seed(o->seed, &sc, i), &t);
                bool broken = judge(&sc, &t, &cl);
                if (o->quiet && !broken)
                    continue;
                if (!header)
                    print_header();
                header = true;
                print_row(&sc, &t);
            }
        }
    }
    bool hold1 = cl.control_slower == 0, hold2 = cl.detect_failed == 0,
         hold3 = cl.noisy_slower <= SIM_NOISY_FALSE_MAX * (double)cl.noisy_trials;
    printf("claim: no control comparison at CV <= %g %% is slower: %zu slower in %zu trials of "
           "%zu control scenarios (%.3f%%): %s\n", SIM_CLAIM_MAX_CV, cl.control_slower,
           cl.control_trials, cl.control_scenarios,
           cl.control_trials ? 100.0 * (double)cl.control_slower / (double)cl.control_trials : 0,
           hold1 ? "holds" : "FAILS");
    printf("claim: control comparisons at a larger CV are slower in at most %g %% of the "
           "trials: %zu slower in %zu trials of %zu scenarios (%.3f%%), at most %.1f %% in one: "
           "%s\n", 100 * SIM_NOISY_FALSE_MAX, cl.noisy_slower, cl.noisy_trials,
           cl.noisy_scenarios,
           cl.noisy_trials ? 100.0 * (double)cl.noisy_slower / (double)cl.noisy_trials : 0,
           100 * cl.noisy_highest, hold3 ? "holds" : "FAILS");
    printf("claim: %g %% worse at PCT %g, CV <= %g %%, is slower in >= %g %% of trials: "
           "%zu of %zu scenarios below, lowest %.1f %% (#%zu): %s\n", SIM_CLAIM_SHIFT,
           SIM_CLAIM_PCT, SIM_CLAIM_MAX_CV, 100 * SIM_CLAIM_DETECTION, cl.detect_failed,
           cl.detect_scenarios, 100 * cl.detect_lowest, cl.detect_lowest_index,
           cl.detect_scenarios == 0 ? "not tested" : hold2 ? "holds" : "FAILS");
    return hold1 && hold2 && hold3;
}

/* --- the command line -------------------------------------------------------- */

static int usage(const char *why)
{
    fprintf(stderr, "sim_verdicts: %s\n"
            "usage: sim_verdicts [--trials N] [--seed S] [--pct P[,P...]]\n"
            "                    [--dist lognormal|normal|both] [--quiet]\n", why);
    return 2;
}

static bool parse_pcts(const char *arg, struct options *o)
{
    o->n_pcts = 0;
    for (const char *p = arg; *p;) {
        char *end;
        double v = strtod(p, &end);
        if (end == p || !(v > 0) || o->n_pcts == COUNT(o->pcts))
            return false;
        o->pcts[o->n_pcts++] = v;
        p = *end == ',' ? end + 1 : end;
        if (*end && *end != ',')
            return false;
    }
    return o->n_pcts > 0;
}

static int parse_args(int argc, char **argv, struct options *o)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        char *end = NULL;
        if (strcmp(a, "--quiet") == 0) {
            o->quiet = true;
            continue;
        }
        if (!val)
            return usage("an option without its value, or an unknown one");
        i++;
        if (strcmp(a, "--trials") == 0) {
            unsigned long long n = strtoull(val, &end, 10);
            if (*end || n == 0 || n >= SIM_SEED_STRIDE)
                return usage("--trials takes a number from 1 to 1048575");
            o->trials = (size_t)n;
        } else if (strcmp(a, "--seed") == 0) {
            o->seed = strtoull(val, &end, 0);
            if (*end || !*val)
                return usage("--seed takes a number (0x... for hexadecimal)");
        } else if (strcmp(a, "--pct") == 0) {
            if (!parse_pcts(val, o))
                return usage("--pct takes tolerances above 0, separated by commas");
        } else if (strcmp(a, "--dist") == 0) {
            bool both = strcmp(val, "both") == 0;
            o->dists[DIST_LOGNORMAL] = both || strcmp(val, "lognormal") == 0;
            o->dists[DIST_NORMAL] = both || strcmp(val, "normal") == 0;
            if (!o->dists[DIST_LOGNORMAL] && !o->dists[DIST_NORMAL])
                return usage("--dist is lognormal, normal or both");
        } else {
            return usage("an unknown option");
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    struct options o = { .trials = SIM_DEFAULT_TRIALS, .seed = SIM_BASE_SEED,
                         .pcts = { SIM_CLAIM_PCT }, .n_pcts = 1,
                         .dists = { true, false } };
    int bad = parse_args(argc, argv, &o);
    if (bad)
        return bad;
    printf("sim_verdicts: base seed 0x%016llx; trial t of scenario # draws from seed "
           "base + # * 2^20 + t\n", (unsigned long long)o.seed);
    printf("budget: one value a run, at most %d runs a side (a cheap tool) or %d (runs of "
           "0.3 s or more); outliers: %g %% of the runs, a rate divided and a time multiplied "
           "by the factor; %zu trials a scenario\n", SIM_CHEAP_RUNS, SIM_LONG_RUNS,
           100 * SIM_OUTLIER_SHARE, o.trials);
    return run_grid(&o) ? 0 : 1;
}
