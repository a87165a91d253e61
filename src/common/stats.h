/* stats.h - running statistics over the samples of one metric.
 *
 * Count, min, max and mean/standard deviation (Welford) are updated in
 * O(1) per sample; the samples are kept so the median is exact. */
#ifndef EVMBENCH_STATS_H
#define EVMBENCH_STATS_H

#include <stddef.h>

struct stats {
    size_t count;
    double min, max, mean;
    double m2;          /* sum of squared deviations from the mean */
    double last;
    double *samples;
    size_t cap;
};

void stats_init(struct stats *s);
void stats_push(struct stats *s, double v);
void stats_reset(struct stats *s);
void stats_free(struct stats *s);
/* Sample standard deviation (n-1); 0 for fewer than two samples. */
double stats_stddev(const struct stats *s);
/* Exact median; NAN when there is no sample. */
double stats_median(const struct stats *s);

/* How a metric's repeated samples are summarised into the one value that
 * is compared with the guide (STREAM keeps the best, lmbench the median). */
enum summary { SUMMARY_MEAN, SUMMARY_MEDIAN, SUMMARY_MAX, SUMMARY_MIN };
double stats_summary(const struct stats *s, enum summary how);
const char *summary_name(enum summary how);

#endif
