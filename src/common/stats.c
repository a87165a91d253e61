/* stats.c - running statistics (Welford) with exact median. */
#include "config.h"
#include "common/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"

void stats_init(struct stats *s)
{
    memset(s, 0, sizeof *s);
}

void stats_reset(struct stats *s)
{
    double *keep = s->samples;
    size_t cap = s->cap;
    stats_init(s);
    s->samples = keep;
    s->cap = cap;
}

void stats_free(struct stats *s)
{
    free(s->samples);
    stats_init(s);
}

void stats_push(struct stats *s, double v)
{
    xgrow(&s->samples, &s->cap, s->count + 1, sizeof *s->samples);
    s->samples[s->count] = v;
    s->count++;
    if (s->count == 1) {
        s->min = s->max = v;
    } else {
        if (v < s->min)
            s->min = v;
        if (v > s->max)
            s->max = v;
    }
    double delta = v - s->mean;
    s->mean += delta / (double)s->count;
    s->m2 += delta * (v - s->mean);
    s->last = v;
}

double stats_stddev(const struct stats *s)
{
    if (s->count < 2)
        return 0.0;
    return sqrt(s->m2 / (double)(s->count - 1));
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double stats_median(const struct stats *s)
{
    if (!s->count)
        return NAN;
    double *tmp = xmalloc(s->count * sizeof *tmp);
    memcpy(tmp, s->samples, s->count * sizeof *tmp);
    qsort(tmp, s->count, sizeof *tmp, cmp_double);
    size_t mid = s->count / 2;
    double m = (s->count % 2) ? tmp[mid] : (tmp[mid - 1] + tmp[mid]) / 2.0;
    free(tmp);
    return m;
}

double stats_summary(const struct stats *s, enum summary how)
{
    if (!s->count)
        return NAN;
    switch (how) {
    case SUMMARY_MEDIAN: return stats_median(s);
    case SUMMARY_MAX:    return s->max;
    case SUMMARY_MIN:    return s->min;
    case SUMMARY_MEAN:   break;
    }
    return s->mean;
}

const char *summary_name(enum summary how)
{
    switch (how) {
    case SUMMARY_MEDIAN: return "median";
    case SUMMARY_MAX:    return "max";
    case SUMMARY_MIN:    return "min";
    case SUMMARY_MEAN:   break;
    }
    return "mean";
}
