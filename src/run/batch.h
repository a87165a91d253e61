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

struct batch;

/* Whether kernel i's run `acc` (ended ok; the samples of all its runs so
 * far) should run once more (batch_set_repeat); `first_s`: how long its
 * first run took. */
typedef bool (*batch_repeat_fn)(void *ctx, const struct batch *b, size_t i,
                                const struct run *acc, double first_s);

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
    /* private: repeats */
    batch_repeat_fn repeat;
    void *repeat_ctx;
    struct run *again;          /* the live repeat of runs[current], or NULL */
    bool want_again;            /* the run that just ended asked for one */
    bool want_retry;            /* the first run failed: it runs again */
    bool retried;               /* runs[current] is that second first run */
    double first_s;             /* how long runs[current]'s first run took */
    struct sink own;            /* what the runs report to */
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
/* Blocks up to ms (-1: until all done). True while work remains. A stop
 * signal caught meanwhile (common/stopsig.h) cancels the batch. */
bool batch_wait(struct batch *b, int ms);
/* Stops the live run and starts no other; the run's reason is `why`
 * with batch_cancel_because (NULL: runner_cancel's). */
void batch_cancel(struct batch *b);
void batch_cancel_because(struct batch *b, const char *why);
void batch_free(struct batch *b);
/* Overall progress 0..1, each kernel weighted by its time budget. */
double batch_progress(const struct batch *b);
/* Seconds left for the whole batch, given `elapsed` seconds since it
 * started: from the progress so far once it is past 5 % (the board's own
 * pace), else from the kernels' time budgets; 0 when done. */
double batch_eta(const struct batch *b, double elapsed);
/* Runs each kernel again, as long as `fn` asks after each run (fn NULL:
 * once). A repeat is invisible to the sink but for its samples, which
 * are added to runs[i] as they come and reported as runs[i]'s (with its
 * notes, less those runs[i] already has); runs[i]'s on_done comes once,
 * after its last repeat (runner_absorb). A repeat that does not end ok
 * ends the repeats, with a note; the samples before it stay. A first run
 * that reported a failure or nothing (lat_ctx under load: "the
 * difference is noise") is run again from the start, once, with a note;
 * a crash or a time limit is not. */
void batch_set_repeat(struct batch *b, batch_repeat_fn fn, void *ctx);
/* Marks the kernels' benchmarks (group[i] for kernel i, copied). */
void batch_set_groups(struct batch *b, const size_t *group, size_t ngroups);
/* The benchmark (group) of the live run, or of the last one when done;
 * 0 without groups. */
size_t batch_group_now(const struct batch *b);
/* True when every kernel started and ended with STATUS_OK. */
bool batch_ok(const struct batch *b);

#endif
