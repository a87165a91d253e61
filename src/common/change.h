/* change.h - how much a metric changed between two sets of samples, with
 * a confidence interval.
 *
 * The change is the ratio now/before, taken as a shift of log values:
 *
 *   estimate   the Hodges-Lehmann estimate: the median of the n_before x
 *              n_now pairwise differences log(now_j) - log(before_i)
 *   interval   the distribution-free interval that goes with it: the k-th
 *              smallest and the k-th largest of those differences, k the
 *              largest whose Mann-Whitney U tail P(U < k) is at most
 *              (1 - CHANGE_CONFIDENCE) / 2, with U's exact distribution
 *              under no change (no normal approximation, so it is right
 *              for 4 samples and for 64)
 *
 * all reported in percent of the value before: exp(x) * 100 - 100. The
 * method assumes only that each side's samples are independent draws
 * from distributions that differ by a factor; it needs no normality, and
 * an outlier moves the estimate by one pair in n x m. Ties (quantised
 * values) make the interval a little conservative.
 *
 * Too few samples for the confidence (fewer than 4 a side, or 3 against
 * 5 ...) give the estimate without an interval. */
#ifndef EVMBENCH_CHANGE_H
#define EVMBENCH_CHANGE_H

#include <stdbool.h>
#include <stddef.h>

#define CHANGE_CONFIDENCE 0.95

struct change {
    size_t n_before, n_now;     /* the samples used: positive and finite */
    bool has_estimate;          /* a sample on each side */
    double pct;                 /* the estimate, % of the value before */
    bool has_interval;          /* enough samples for the confidence */
    double low, high;           /* the interval of pct, low <= pct <= high */
    double confidence;          /* the interval's exact coverage, >= 0.95 */
    bool per_run;               /* the caller's: each value is a run's own
                                 * (else a single sample); change_estimate
                                 * leaves it false */
};

/* The change from before[0 .. nb) to now[0 .. nn). Samples that are not
 * finite or not above zero (a ratio needs positive values) are left out
 * and not counted. Returns c->has_estimate. */
bool change_estimate(const double *before, size_t nb, const double *now, size_t nn,
                     struct change *c);

/* The largest k >= 1 with P(U < k) <= alpha / 2 under no change, for n
 * and m samples (U counts the pairs where the later sample is the
 * smaller one); 0 when even k = 1 misses it (too few samples). *coverage,
 * when not NULL, is set to 1 - 2 P(U < k). Exact; n, m <= 4096. */
size_t change_rank_bound(size_t n, size_t m, double alpha, double *coverage);

#endif
