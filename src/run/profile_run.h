/* profile_run.h - a profile applied to the kernels: which kernels of a
 * `run --profile` start, and which metrics each measures.
 *
 * A `bench NAME METRIC...` line names a kernel, a benchmark (all its
 * kernels, whatever the provider) or a category (all its benchmarks'
 * kernels). A kernel that lines name measures the union of the metrics
 * they list, or every metric when one of them lists none; a kernel that
 * lines name but none of whose metrics they list does not run. */
#ifndef EVMBENCH_PROFILE_RUN_H
#define EVMBENCH_PROFILE_RUN_H

#include <stddef.h>

#include "data/catalog.h"
#include "data/profile.h"
#include "run/batch.h"

/* Where a line's NAME is looked up: a kernel of kernels[0 .. nkernels)
 * as provider and available pick it (kernels_find_provided), else a
 * benchmark or a category of the catalog. Everything it points to
 * outlives the calls below; app_profile_scope() fills it from the app. */
struct profile_scope {
    const struct catalog *catalog;
    const struct kernel *const *kernels;
    size_t nkernels;
    enum provider_pref provider;
    kernel_available_fn available;  /* NULL: every tool kernel is installed */
};

/* The first metric pb lists that no kernel it names in s can produce, or
 * NULL. */
const char *profile_run_unknown_metric(struct profile_scope s, const struct profile_bench *pb);

/* The picks of kernels ks[0 .. *nk) under profile p, its lines looked up
 * in s (for batch_start_picked): ks is compacted to the kernels that run
 * and *nk set to their count. NULL when p has no lines (every metric of
 * every kernel). Free with profile_run_free_picks(picks, *nk). */
struct metric_pick *profile_run_picks(struct profile_scope s, const struct profile *p,
                                      const struct kernel **ks, size_t *nk);
void profile_run_free_picks(struct metric_pick *picks, size_t n);

#endif
