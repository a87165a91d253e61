/* kutil.h - timing and housekeeping shared by the embedded kernels.
 *
 * The measuring loop follows lmbench's benchmp() as its documentation
 * describes it: a timed interval runs the body enough times to last at
 * least `interval_s` (lmbench's ENOUGH; TI's runs use 50 ms), the count is
 * calibrated on untimed warm-up intervals, then `reps` timed intervals
 * each give one sample: seconds per call of the body's unit of work
 * (lmbench's TRIES = 11 repetitions). The caller reports each sample at
 * once, so the live view moves, and picks the summary (median, minimum).
 *
 * Any kernel may use this; it holds no state but the checksum sink. */
#ifndef EVMBENCH_KUTIL_H
#define EVMBENCH_KUTIL_H

#include <stddef.h>
#include <stdint.h>

#include "kernel.h"

/* Runs `n` units of work; returns a value derived from the work's results
 * (a sum, a pointer), which kutil_measure() folds into the checksum so the
 * compiler cannot drop the work. */
typedef uint64_t (*kutil_body)(void *ctx, uint64_t n);

/* Receives seconds per unit of work of one timed interval. */
typedef void (*kutil_sample_fn)(void *ctx, double secs_per_unit);

struct kutil_plan {
    double interval_s;  /* a timed interval lasts at least this long */
    int reps;           /* timed intervals, i.e. samples */
    double max_s;       /* soft cap for one measurement: stop taking
                           samples (after the first) once it would pass */
};

/* Lengths of the quick and full budgets. */
#define KUTIL_QUICK_INTERVAL_S  0.02
#define KUTIL_QUICK_REPS        5
#define KUTIL_QUICK_MAX_S       0.9    /* "at most 1 s per metric" */
#define KUTIL_FULL_REPS         11     /* lmbench's TRIES */
#define KUTIL_FULL_MAX_S        10.0

/* Plan for one metric: quick or full by p->quick; the full interval is
 * the tool's own (lmbench: 50 ms, lat_mem_rd 100 ms); p->iterations > 0
 * overrides the number of samples. */
void kutil_plan_init(struct kutil_plan *pl, const struct kernel_params *p,
                     double full_interval_s);

/* Calibrates, then takes the planned samples, calling on_sample after
 * each timed interval. Returns the number of samples taken (>= 1). */
int kutil_measure(kutil_body body, void *ctx, const struct kutil_plan *pl,
                  kutil_sample_fn on_sample, void *sample_ctx);

/* Folds v into a volatile checksum: results that are "used". */
void kutil_consume(uint64_t v);
uint64_t kutil_checksum(void);

/* MemAvailable (else MemFree) in bytes; 0 when unknown. */
uint64_t kutil_mem_available(void);
size_t kutil_page_size(void);
double kutil_mib(double bytes);

/* Page-aligned allocation of `bytes`, every page written (first touch
 * before timing). NULL with errno set on failure. Free with free(). */
void *kutil_alloc_touched(size_t bytes);

#endif
