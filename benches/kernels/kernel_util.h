/* kernel_util.h - helpers shared by the embedded kernels.
 *
 * kb_measure() is a timing harness modelled on lmbench 3's benchmp(): the
 * operation runs in timed batches ("intervals") whose iteration count is
 * calibrated until one batch lasts about `enough` seconds; each batch that
 * lasts at least 0.95 x enough is recorded, until `reps` are recorded
 * (lmbench's TRIES = 11). The summary lmbench prints is the median
 * interval, sorted by time per iteration (kb_median()).
 *
 * The other helpers make a private temporary directory and remove it, and
 * widen the CPU affinity that the runner's pinning gave the worker. */
#ifndef EVMBENCH_KERNEL_UTIL_H
#define EVMBENCH_KERNEL_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sched.h>
#include <sys/types.h>

#include "kernel.h"
#include "report.h"

/* lmbench's timing constants (bench.h), in seconds. */
#define KB_TRIES        11          /* recorded intervals per measurement */
#define KB_ENOUGH_S     0.005       /* compute_enough()'s usual choice on a quiet board */
#define KB_SHORT_S      1.0         /* SHORT: lat_pipe, lat_sem */
#define KB_MEDIUM_S     2.0         /* MEDIUM: lat_tcp, bw_pipe, bw_unix */

/* Runs the operation `iters` times. Returns 0, or -1 after writing why
 * into err (size errlen); the measurement then stops. */
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

/* Folds a value into a sink the compiler cannot see through, so work
 * whose result is otherwise unused is not removed. */
void kb_use(uintptr_t v);
extern volatile uintptr_t kb_sink;

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

/* Wall-time limits per measurement: quick mode keeps every metric under
 * a second; full mode only guards against a run that never settles. */
#define KB_QUICK_LIMIT_S    0.8
#define KB_FULL_LIMIT_S     60.0

/* Options for a kernel's parameters: enough = KB_ENOUGH_S, raised to
 * full_enough_s (lmbench's SHORT/MEDIUM minimum of that test) unless
 * quick; reps = p->iterations or KB_TRIES; the limits above. */
void kb_opts_for(struct kb_opts *o, const struct kernel_params *p, double full_enough_s);

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

/* Returns 0 with *median = the value of lmbench's median interval, or -1
 * after report_fail() for id and alias. */
int kb_metric_run(struct report *r, const struct kb_metric_spec *m, kb_fn fn, void *ctx,
                  const struct kb_opts *o, double *median);

/* Forks a helper process that runs fn(arg) and then _exit(0)s; it gets
 * SIGKILL when the calling thread's process dies (PR_SET_PDEATHSIG), and
 * is in the caller's process group, which the runner kills on cancel.
 * Returns the pid, or -1 with err filled. */
pid_t kb_fork(void (*fn)(void *arg), void *arg, char *err, size_t errlen);
/* SIGKILLs and reaps a helper (pid <= 0: nothing). */
void kb_reap(pid_t pid);

/* Reports the same failure for several metrics. */
void kb_fail_ids(struct report *r, const char *const *ids, size_t n, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#endif
