/* runner.h - runs one benchmark in a worker process and aggregates it.
 *
 * The runner forks a worker, pins it to one CPU, puts it in its own
 * process group (run/spawn.h) and reads its report lines (report.h) from
 * a pipe. The
 * parent never blocks on the worker: it sleeps in poll() (runner_wait) or
 * the caller polls runner_fd() together with other descriptors (the TUI
 * polls the keyboard too) and calls runner_pump() when it is readable.
 *
 * Every event is turned into a call on the sink. A worker that crashes,
 * exits non-zero or exceeds its time limit ends the run with that status;
 * metrics that finished before keep their samples. The whole process
 * group is killed on timeout and on runner_cancel().
 *
 * The worker runs with TMPDIR set to a work directory of its own
 * (run/workdir.h: "$TMPDIR/evmbench-KERNEL-XXXXXX"), which the runner
 * makes before it starts the worker and removes, with whatever the kernel
 * and its tools left there, once the worker is reaped and no process of
 * its group is alive, however the run ended: a worker killed with SIGKILL
 * cannot clean up itself. Without a writable TMPDIR the worker keeps the
 * caller's. */
#ifndef EVMBENCH_RUNNER_H
#define EVMBENCH_RUNNER_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "common/diag.h"
#include "common/cpuload.h"
#include "kernel/kernel.h"
#include "common/stats.h"
#include "common/status.h"

struct run_metric {
    const struct kernel_metric *def;
    struct stats stats;
    /* The summary (def->summary) of each run's own samples, one value per
     * run: what a comparison counts as its samples, since the samples of
     * one run share its process, its memory layout and its moment and
     * are not independent of each other. */
    struct stats per_run;
    bool failed;
    char *fail_reason;      /* owned, NULL unless failed */
};

/* Adds sample v to m's statistics, unless it is impossible: a latency
 * (a metric in a unit of time, unit_is_time) is never zero or below, and
 * such a value would show as the metric's minimum on every view. It is
 * dropped and fails m, naming the value (the first failure's reason
 * stays); m's other samples stay. Returns true when v was added. */
bool run_metric_push(struct run_metric *m, double v);

/* Runs shorter than this are too short for the kernel's tick to tell
 * the other processes' load. */
#define RUNNER_LOAD_MIN_S 0.2

struct run {
    const struct kernel *kernel;
    struct kernel_params params;
    struct run_metric *metrics;     /* one per metric measured: every kernel
                                     * metric, or those params.only selects;
                                     * in the kernel's order */
    size_t nmetrics;
    enum status status;             /* STATUS_OK until the run ends */
    bool finished;
    char *error;                    /* owned; why the run failed */
    char **notes;                   /* owned notes reported by the worker */
    size_t nnotes;
    double progress;                /* 0..1 */
    double started, ended;          /* now_seconds() */
    double timeout_s;
    int cpu;                        /* CPU the worker is pinned to, -1 none */
    double cpu_seconds;             /* CPU time the worker and the children
                                     * it waited for used; NAN until reaped */
    double other_cpu_pct;           /* CPU time other processes (and
                                     * interrupts) took on the worker's core
                                     * during the run, % of its wall time;
                                     * NAN unknown or shorter than
                                     * RUNNER_LOAD_MIN_S */
    size_t runs;                    /* times the kernel ran: 1, more after
                                     * runner_absorb */
    /* private */
    const char **only;              /* params.only as the kernel's own ids */
    pid_t pid;
    int fd;
    struct cpuload_sample load0;    /* the worker's core as it started */
    bool load_read;
    const char *sysroot;
    char *workdir;                  /* the worker's TMPDIR, NULL: none */
    char linebuf[1024];
    size_t linelen;
    const struct sink *sink;
    void *sink_ctx;
};

/* The consumers of a run: live screen, line printer, result store,
 * exporters. Any callback may be NULL. `metric` indexes run->metrics. */
struct sink {
    void (*on_start)(void *ctx, const struct run *run);
    void (*on_sample)(void *ctx, const struct run *run, size_t metric, double value);
    void (*on_progress)(void *ctx, const struct run *run);
    void (*on_note)(void *ctx, const struct run *run, const char *text);
    void (*on_done)(void *ctx, const struct run *run);
};

struct run_options {
    struct kernel_params params;
    const char *sysroot;    /* where proc/stat is read for the load; NULL "/" */
    double timeout_s;       /* 0: 4 x the kernel's budget + 30 s */
    int cpu;                /* -1: the last online CPU */
};

/* Starts the worker. opt->params.only, when set, selects the metrics
 * the kernel measures (the run has only those; the array need not
 * outlive the call). Returns NULL, with the reason added to d, when no
 * process could be created or the selection names a metric the kernel
 * does not have. */
struct run *runner_start(const struct kernel *k, const struct run_options *opt,
                         const struct sink *sink, void *sink_ctx, struct diag *d);
/* Descriptor to poll for POLLIN; -1 once the run has finished. */
int runner_fd(const struct run *run);
/* Reads what is available, dispatches it, checks the time limit and reaps
 * the worker at EOF. Never blocks. Returns true while the run goes on. */
bool runner_pump(struct run *run);
/* Blocks up to `ms` milliseconds (-1 = until the run ends) in poll(),
 * pumping events. Returns true while the run goes on. A stop signal
 * caught meanwhile (common/stopsig.h) cancels the run. */
bool runner_wait(struct run *run, int ms);
/* Another run of the same kernel and metrics (`again`, finished) counts
 * as part of `into` (finished, ok): into takes its end time, adds its
 * worker's CPU time, a run and each metric's per-run value (per_run),
 * and the other processes' load is measured
 * anew over the whole span from into's start (so runs too short for the
 * load alone are measured together). The samples are not copied: the
 * caller adds them to into as they come (run_metric_push). */
void runner_absorb(struct run *into, const struct run *again);
/* Kills the worker's process group; the run ends as CANCELLED, "cancelled
 * by the user" (status_message), or `why` with runner_cancel_because. */
void runner_cancel(struct run *run);
void runner_cancel_because(struct run *run, const char *why);
void runner_free(struct run *run);

/* The CPU workers are pinned to unless told otherwise: the highest one this
 * process may use (on the EVMs core 0 takes most interrupts). -1 unknown. */
int runner_default_cpu(void);

/* Runs the kernel in-process, without a worker (tests, the worker itself). */
int runner_run_inline(const struct kernel *k, const struct kernel_params *p,
                      struct report *r);

#endif
