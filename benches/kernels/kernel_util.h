/* kernel_util.h - timing and housekeeping shared by the embedded kernels.
 *
 * kb_measure() is a timing harness modelled on lmbench 3's benchmp(): the
 * operation runs in timed batches ("intervals") whose iteration count is
 * calibrated until one batch lasts about `enough` seconds; each batch that
 * lasts at least 0.95 x enough is recorded, until `reps` are recorded
 * (lmbench's TRIES = 11). The summary lmbench prints is the median
 * interval, sorted by time per iteration (kb_median()); lat_mem_rd keeps
 * the minimum, which the runner takes from the reported samples.
 *
 * kb_opts_for() gives a kernel its budget (interval, recorded intervals,
 * wall-time cap) for --quick and full runs; kb_metric_run() measures one
 * metric and reports every recorded interval as a sample at once, so the
 * live view moves.
 *
 * The other helpers: a checksum sink, memory (MemAvailable, page size,
 * page-aligned buffers), a private temporary directory, CPU affinity
 * for multi-process tests, helper processes, failures of several rows.
 * Nothing here holds state but the sink. */
#ifndef EVMBENCH_KERNEL_UTIL_H
#define EVMBENCH_KERNEL_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sched.h>
#include <sys/types.h>

#include "kernel/kernel.h"
#include "kernel/report.h"

/* lmbench's timing constants (bench.h), in seconds. */
#define KB_TRIES        11          /* recorded intervals per measurement */
#define KB_ENOUGH_S     0.005       /* compute_enough()'s usual choice on a quiet board */
#define KB_SHORT_S      1.0         /* SHORT: lat_pipe, lat_sem */
#define KB_MEDIUM_S     2.0         /* MEDIUM: lat_tcp, bw_pipe, bw_unix */

/* Runs the operation `iters` times. Returns 0, or -1 after writing why
 * into err (size errlen); the measurement then stops. Work whose result
 * is otherwise unused goes to kb_use(). */
typedef int (*kb_fn)(void *ctx, uint64_t iters, char *err, size_t errlen);

struct kb_interval {
    double secs;            /* wall time of the batch */
    uint64_t n;             /* iterations in the batch */
};

struct kb_opts {
    double enough_s;        /* target interval; <= 0: KB_ENOUGH_S */
    int reps;               /* intervals to record; <= 0: KB_TRIES */
    double limit_s;         /* stop recording after this long (0: no limit);
                               at least one interval is always recorded */
    /* Untimed work around every batch, lmbench's per-interval initialize
     * and cleanup (may be NULL; same contract as kb_fn). */
    kb_fn before, after;
    /* Called for each recorded interval (may be NULL). */
    void (*on_interval)(void *cb_ctx, const struct kb_interval *iv);
    void *cb_ctx;
    /* The kernel's parameters (set by kb_opts_for; may be NULL): which
     * metrics kb_metric_run() measures and reports (kernel_wants()). */
    const struct kernel_params *params;
};

struct kb_result {
    struct kb_interval *iv; /* recorded intervals, in order (owned) */
    int count;
    double elapsed_s;       /* including calibration */
};

/* Measures fn. Returns 0 with at least one interval in res (free it with
 * kb_result_free), or -1 with err filled (nothing to free). */
int kb_measure(kb_fn fn, void *ctx, const struct kb_opts *o, struct kb_result *res,
               char *err, size_t errlen);
void kb_result_free(struct kb_result *res);

/* lmbench's save_median(): intervals sorted by time per iteration, the
 * middle one, or the mean of the two middle ones for an even count. */
struct kb_interval kb_median(const struct kb_result *res);

/* Seconds per iteration of an interval (0 when n == 0). */
double kb_per_op(const struct kb_interval *iv);

/* Budgets of one measurement, quick and full. p->iterations > 0 replaces
 * the number of recorded intervals of either.
 *   KB_BUDGET_OS   the OS kernels (lat_syscall ... lat_fs): lmbench's own
 *                  5 ms interval, raised to the tool's SHORT/MEDIUM when
 *                  full; 11 intervals; capped at 0.8 s quick, 60 s full.
 *   KB_BUDGET_MEM  the memory and CPU kernels (bw_mem, bw_file_rd,
 *                  bw_mmap_rd, lat_mem_rd, lat_ops): 5 x 20 ms, capped at
 *                  0.9 s, when quick; 11 x 50 ms (TI's ENOUGH=50000), or
 *                  the tool's longer interval, capped at 10 s, when full. */
enum kb_budget { KB_BUDGET_OS, KB_BUDGET_MEM };

/* Options for a kernel's parameters under budget b; full_enough_s is the
 * tool's own full interval when it is longer than the budget's (0: none). */
void kb_opts_for(struct kb_opts *o, const struct kernel_params *p, enum kb_budget b,
                 double full_enough_s);

/* One metric measured with kb_measure(), every recorded interval reported
 * as a sample of `id` and, when set, of `alias` (a second guide row that
 * prints the same lmbench number). KB_TIME: value = factor x seconds per
 * iteration (1e6 for microseconds); KB_RATE: value = factor / seconds per
 * iteration (bytes per iteration / 1e6 for MB/s). */
enum kb_kind { KB_TIME, KB_RATE };
struct kb_metric_spec {
    const char *id;
    const char *alias;
    enum kb_kind kind;
    double factor;
};

/* Returns 0 with *median (may be NULL) = the value of lmbench's median
 * interval, or -1 after report_fail() for id and alias. Only what
 * o->params wants is measured and reported: neither id nor alias wanted
 * returns 1 at once, nothing timed or reported; one of them wanted, only
 * that one gets the samples (or the failure). */
int kb_metric_run(struct report *r, const struct kb_metric_spec *m, kb_fn fn, void *ctx,
                  const struct kb_opts *o, double *median);

/* A latency lmbench measures with an overhead in it and then takes the
 * overhead away from: `gross` is the median (or minimum) of one whole
 * measurement, `overhead` that of the overhead measured on its own, both
 * per operation in `unit` ("us", "ns"). The difference of two such
 * figures is one value: it is reported once, as the one sample of each of
 * ids[0..n) (NULL entries skipped), when it is above zero. Otherwise (the
 * overhead's noise is larger than the difference, or a figure is not a
 * number) nothing is reported and every id fails with both figures:
 * a latency is never zero or below. Subtracting the overhead from each
 * interval instead would make intervals faster than the overhead's median
 * into latencies below zero. Returns 0 when reported, -1 after the
 * failure. */
int kb_report_net(struct report *r, const char *const *ids, size_t n, const char *unit,
                  double gross, double overhead);

/* Adds a value to a volatile sink in this file, so work whose result is
 * otherwise unused is not removed (lmbench's use_int(); out of line, as
 * lat_proc's procedure call relies on). */
void kb_use(uintptr_t v);

/* MemAvailable (MemFree on kernels without it) in bytes; 0 if unknown. */
uint64_t kb_mem_available(void);
size_t kb_page_size(void);
double kb_mib(double bytes);

/* Page-aligned buffer of `bytes`, not touched (the caller decides which
 * thread faults the pages in). NULL with errno set on failure (ENOMEM for
 * 0 or absurd sizes). Free with free(). */
void *kb_alloc_pages(size_t bytes);
/* The same, every page written (zero) before anything is timed. */
void *kb_alloc_touched(size_t bytes);

/* Creates a private directory "<base>/evmbench-<tag>-XXXXXX" where base
 * is $TMPDIR or /tmp. Returns the path (caller frees), or NULL with err
 * filled. */
char *kb_tmpdir(const char *tag, char *err, size_t errlen);
/* Removes a directory tree made by the kernels (depth-first; does not
 * follow symbolic links). Returns 0, or -1 if something remained. */
int kb_rmtree(const char *path);

/* lmbench runs unpinned; the runner pins the worker to one CPU. For
 * multi-process tests the kernels widen the affinity to every online CPU
 * (saved in *saved, restored by kb_affinity_restore). Returns true when
 * the affinity was changed. */
bool kb_affinity_widen(cpu_set_t *saved);
void kb_affinity_restore(const cpu_set_t *saved);

/* Forks a helper process that runs fn(arg) and then _exit(0)s; it gets
 * SIGKILL when the calling thread's process dies (PR_SET_PDEATHSIG), and
 * is in the caller's process group, which the runner kills on cancel.
 * Returns the pid, or -1 with err filled. */
pid_t kb_fork(void (*fn)(void *arg), void *arg, char *err, size_t errlen);
/* SIGKILLs and reaps a helper (pid <= 0: nothing). */
void kb_reap(pid_t pid);

/* Reports the same failure for several metrics: the ids (NULL entries
 * skipped), or the first n metrics of a table. */
void kb_fail_ids(struct report *r, const char *const *ids, size_t n, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void kb_fail_metrics(struct report *r, const struct kernel_metric *m, size_t n,
                     const char *fmt, ...) __attribute__((format(printf, 4, 5)));

#endif
