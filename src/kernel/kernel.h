/* kernel.h - the interface every embedded benchmark kernel implements.
 *
 * A kernel serves one section of the Performance Guide: `section` is the
 * slug of that section's title ("stream" for "Stream"), and every metric
 * `id` is the slug of a row key of that section's table ("copy"), with the
 * guide's unit. The catalog matches kernels to the guide by these strings;
 * a kernel metric the guide lacks is shown as "no reference".
 *
 * run() executes in a worker process (see runner.h), pinned to one CPU. It
 * reports samples and progress through `r` as it goes and returns 0, or
 * -1 after report_fail() when nothing useful could be measured. It must
 * free what it allocates: tests call it in-process too.
 *
 * The contract between the core and benches/kernels: a kernel includes
 * the headers of src/kernel/ (this one, report.h, cpuclock.h, cpucheck.h)
 * and of common/, nothing else of src/; the core knows the kernels only
 * as the list app_init() is handed (benches/kernels/registry.h, given by
 * the commands), never through a benches/kernels header
 * (tests/check-layers.sh checks both). */
#ifndef EVMBENCH_KERNEL_H
#define EVMBENCH_KERNEL_H

#include <stdbool.h>
#include <stddef.h>

#include "common/stats.h"
#include "kernel/report.h"

struct kernel;

struct kernel_params {
    const struct kernel *self;  /* the kernel being run (set by the runner);
                                 * data-driven kernels find their data here */
    bool quick;             /* small time budget (sanity check, tests) */
    size_t size;            /* kernel-specific working-set size; 0 = default */
    int iterations;         /* repetitions; 0 = default for the budget */
    int threads;            /* worker threads of multi-threaded kernels
                             * (stream-threads); 0 = all online CPUs. The
                             * guide's rows are always single-threaded. */
    size_t cache_bytes;     /* the caches a memory kernel must outgrow (cpu0's
                             * data and unified caches, summed); 0 unknown */
    const char *cache_from; /* where cache_bytes comes from, for the notes
                             * ("sysfs: L1d 32K + L2 512K"); NULL with 0 */

    /* Measure only these metrics (ids of self->metrics, e.g. a profile's
     * `bench bw_mem bw_mem-rd-16mb`); nonly == 0: every metric. A kernel
     * asks kernel_wants() before it sets up or times a metric, and
     * neither measures nor reports (samples or failures) one not wanted:
     * the selection is the kernel's sizes and cases, not a filter. */
    const char *const *only;
    size_t nonly;
};

struct kernel_metric {
    const char *id;         /* row slug in the guide's table */
    const char *unit;       /* unit as the guide prints it */
    enum summary summary;   /* which statistic is compared with the guide */
    bool cpu_bound;         /* scales with the CPU clock (Dhrystone, lat_ops):
                             * compared at the live clock too */
    const char *ref_row;    /* the guide row when it is not `id` (tables
                             * whose rows have several measured columns) */
    const char *ref_column; /* fnmatch pattern of the guide column ("Write *
                             * Throughput"); NULL: the board's first */
    const char *ref_table;  /* fnmatch pattern of the guide table's title
                             * ("CoreMarkPro*Two*"); NULL: any */
};

struct kernel {
    const char *name;       /* CLI name, e.g. "stream" */
    const char *section;    /* guide section slug it serves */
    const char *description;
    const struct kernel_metric *metrics;
    size_t nmetrics;
    double budget_quick_s;  /* expected run time, for ETA and time limits */
    double budget_full_s;
    int (*run)(const struct kernel_params *p, struct report *r);
    bool extra;             /* a measurement beyond the guide's (multi-threaded
                             * STREAM): runs when named, or with --threads,
                             * never just because its section runs */
    const char *provider;   /* "kernel" (NULL) or "tool": shown as provider:name */
    const void *data;       /* private data of data-driven kernels (tool recipes) */
    const char *sdk;        /* the SDK whose guide sections it measures: NULL
                             * or "linux" for the A cores under Linux, "mcu+"
                             * for the R5F (a recipe's "sdk") */
};

/* The kernel of the n in ks named `name` (case-insensitive); NULL when
 * none is, or name is NULL. */
const struct kernel *kernel_find_in(const struct kernel *const *ks, size_t n, const char *name);
/* Metric `id` of k (case-insensitive); NULL when k lacks it or either is
 * NULL. */
const struct kernel_metric *kernel_metric_find(const struct kernel *k, const char *id);
/* Whether metric `id` is to be measured under p: always without a
 * selection (p->nonly == 0), else when p->only names it (case-insensitive,
 * as kernel_metric_find). id NULL: false (an absent alias). */
bool kernel_wants(const struct kernel_params *p, const char *id);
/* Whether any of the n ids is wanted (several rows from one measurement). */
bool kernel_wants_any(const struct kernel_params *p, const char *const *ids, size_t n);
/* Who produces the numbers, as every view shows it: "kernel:stream",
 * "tool:bw_mem". */
void kernel_provider_id(const struct kernel *k, char *buf, size_t n);

#endif
