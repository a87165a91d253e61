/* batch.h - several kernels run one after the other, as one job.
 *
 * A guide section may be served by several kernels (LMBench: memory
 * bandwidth, latencies, OS kernels ...); running the section runs them in
 * order. The batch owns its runs; runs[i] is NULL until kernel i starts.
 * Like the runner it never blocks: poll batch_fd() and call batch_pump(),
 * or let batch_wait() do it. When a run ends the next one starts; a run
 * that fails does not stop the batch, a cancel does. */
#ifndef EVMBENCH_BATCH_H
#define EVMBENCH_BATCH_H

#include <stdbool.h>
#include <stddef.h>

#include "run/runner.h"

struct batch {
    const struct kernel **kernels;
    struct run **runs;
    char **start_errors;        /* why kernel i could not start, or NULL */
    size_t n;
    size_t current;             /* the live run; == n when all are done */
    bool cancelled;
    /* Which benchmark (0 .. ngroups-1) kernel i belongs to, when the job
     * runs several (a whole category); NULL: one benchmark. */
    size_t *group;
    size_t ngroups;
    struct run_options opt;
    char ***only;               /* kernel i measures only these metrics */
    size_t *nonly;              /* (0, or nonly NULL: all; kernel_params.only) */
    const struct sink *sink;
    void *sink_ctx;
};

/* Starts the first kernel at once. kernels is copied. */
struct batch *batch_start(const struct kernel *const *kernels, size_t n,
                          const struct run_options *opt, const struct sink *sink,
                          void *sink_ctx);

/* Which metrics one kernel of a batch measures: ids of its metrics;
 * n == 0: all of them. */
struct metric_pick {
    const char *const *ids;
    size_t n;
};
/* batch_start() where kernel i measures only picks[i] (picks NULL: all,
 * as batch_start). The picks are copied. A pick that names a metric its
 * kernel lacks keeps that kernel from starting, with the reason as its
 * start error. */
struct batch *batch_start_picked(const struct kernel *const *kernels,
                                 const struct metric_pick *picks, size_t n,
                                 const struct run_options *opt, const struct sink *sink,
                                 void *sink_ctx);
bool batch_done(const struct batch *b);
/* The run now going, or the last one started; NULL before any started. */
struct run *batch_run(const struct batch *b);
/* Descriptor of the live run, -1 when none. */
int batch_fd(const struct batch *b);
/* Pumps the live run; starts the next when it ends. True while work remains. */
bool batch_pump(struct batch *b);
/* Blocks up to ms (-1: until all done). True while work remains. */
bool batch_wait(struct batch *b, int ms);
/* Stops the live run and starts no other. */
void batch_cancel(struct batch *b);
void batch_free(struct batch *b);
/* Overall progress 0..1, each kernel weighted by its time budget. */
double batch_progress(const struct batch *b);
/* Seconds left for the whole batch, given `elapsed` seconds since it
 * started: from the progress so far once it is past 5 % (the board's own
 * pace), else from the kernels' time budgets; 0 when done. */
double batch_eta(const struct batch *b, double elapsed);
/* Marks the kernels' benchmarks (group[i] for kernel i, copied). */
void batch_set_groups(struct batch *b, const size_t *group, size_t ngroups);
/* The benchmark (group) of the live run, or of the last one when done;
 * 0 without groups. */
size_t batch_group_now(const struct batch *b);
/* True when every kernel started and ended with STATUS_OK. */
bool batch_ok(const struct batch *b);

#endif
