/* engine.h - one measurement engine for every front end.
 *
 * `evmbench run`, the screens' job (and through it --demo and --check),
 * LAVA and JUnit output all run benchmarks through this: it watches the
 * CPU around a batch of CPU-bound kernels, starts the batch, makes the
 * result rows of each run that ended (with the CPU time other processes
 * took on the worker's core meanwhile, "other_cpu_pct", which the verdict
 * weighs: deviation.h) and files them at once into the
 * results store (a pulled serial cable loses nothing that finished; the
 * screens' views make rows of the same runs again only to show them
 * against the reference board chosen now), records the system
 * state at the start and at the end, loads and saves baselines, compares
 * the rows with the baseline and judges them (run/check.h), and decides
 * the exit status. The front ends only print what it reports through
 * struct engine_hooks; no curses here.
 *
 * Like the runner it never blocks unless asked to (engine_wait): poll
 * batch_fd(engine_batch()) and call engine_pump(). */
#ifndef EVMBENCH_ENGINE_H
#define EVMBENCH_ENGINE_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "app.h"
#include "common/diag.h"
#include "run/batch.h"
#include "run/check.h"
#include "run/result.h"

/* --- repeats ----------------------------------------------------------------
 * A kernel whose first run took at most ENGINE_REPEAT_CHEAP_S runs again
 * while one of its metrics wants more samples (run/repeat.h) and the
 * next run would end within ENGINE_REPEAT_FACTOR times its first run or
 * ENGINE_REPEAT_MIN_S, whichever is longer. On the quick profile that is
 * at most about 10 passes. A metric still inconclusive when the time ran
 * out carries "samples_to_tell" and "seconds_to_tell" (about how many
 * samples a side, and how much longer, an answer would take). */
#define ENGINE_REPEAT_CHEAP_S 10.0
#define ENGINE_REPEAT_FACTOR 10.0
#define ENGINE_REPEAT_MIN_S 3.0

/* How a message reads. */
enum engine_level { ENGINE_NOTE, ENGINE_WARN, ENGINE_ERROR };

/* One metric of a finished run, as filed. */
struct engine_row {
    struct result_row row;  /* points into the run: valid during on_rows */
    json_t *json;           /* result_row_json, with export_add_baseline's
                             * fields when a baseline is set; borrowed */
};

/* What the engine tells its front end; any member may be NULL. */
struct engine_hooks {
    /* The batch's live events (on_start, on_sample, on_progress, on_note)
     * are forwarded as they come; its on_done after on_rows. */
    const struct sink *live;
    /* Every metric of a run that ended, in the run's order, after they
     * were filed into the store. */
    void (*on_rows)(void *ctx, const struct run *run, const struct engine_row *rows, size_t n);
    /* The CPU watch's warnings from index `from` on: what would spoil a
     * CPU-bound result, before the batch (from 0), and the throttling
     * seen during it, after its last kernel. */
    void (*cpu_warnings)(void *ctx, const struct cpucheck_list *w, size_t from);
    /* A message for the user: the store could not be written ... */
    void (*say)(void *ctx, enum engine_level level, const char *text);
};

struct engine_config {
    struct app *app;
    /* The results store: baselines are read from it; NULL: none. */
    const char *store_dir;
    /* Runs are filed into the store (false: --no-save; baselines are
     * still read from and saved to it). */
    bool save;
    /* When the run file opens: at the first engine_start (`run`), else
     * when the first run ends (the screens: an idle session leaves no
     * file). */
    bool open_at_start;
    /* Fields of the run file's header beyond the engine's own (version,
     * board, board_name, quick, system); borrowed, may be NULL. */
    json_t *header;
    const char *mode;           /* the header's "mode" ("tui"); NULL: none */
    /* The tolerance a comparison with the baseline is decided at
     * (--fail-on-deviation's PCT, else the tolerance); 0: the app's. */
    double judge_pct;
    /* Cheap benchmarks run again until a comparison can tell (with a
     * baseline set) or a later one could (without: a baseline to be
     * saved), within the time the engine allows each (engine_repeat). */
    bool repeat;
    const struct engine_hooks *hooks;
    void *ctx;
};

struct engine {
    struct engine_config cfg;
    struct store_writer *store; /* this run's file, NULL before or without */
    bool store_failed;          /* said once, not tried again */
    char *run_id;               /* the run file's id once it is open */
    json_t *system;             /* the system record of the start, NULL unread */
    struct cpu_watch watch;     /* around the last batch */
    struct batch *batch;        /* the live (or last) batch, until taken */
    bool failed;                /* engine_failed() */
    json_t *baseline;           /* rows compared with, NULL: none */
    json_t *baseline_system;    /* its system record, NULL: none */
    char baseline_name[128];
};

/* An idle engine; cfg is copied (what it points to is the caller's). */
void engine_init(struct engine *e, const struct engine_config *cfg);
/* Finishes the run file (complete: it ended normally; then the end of the
 * system record is read, merged into engine_system() and kept in the
 * file). 0, or -1 with the store's reason in d. The system record and the
 * run id stay until engine_free. */
int engine_finish(struct engine *e, bool complete, struct diag *d);
/* Frees the batch when not taken and everything else (after
 * engine_finish, or instead of it when nothing was run). */
void engine_free(struct engine *e);

/* The system record at the start (board/sysstate.h), read the first time
 * it is asked for (or at the first engine_start) the same way for every
 * front end: each core measured for SYSSTATE_MEASURE_S on the real root
 * (blocking for that long a core), none under a --sysroot tree; problems
 * reading it are said as warnings. The engine keeps it. */
json_t *engine_system(struct engine *e);
/* In words, for the verdict: what differs between the baseline's system
 * and this one (sysstate_diff) when a baseline is set, else NULL. */
char *engine_system_change(struct engine *e);
/* This system in a few words (sysstate_summary); NULL when unread. */
char *engine_system_summary(const struct engine *e);
/* What the verdict of a check says of the system, in `run` and in the
 * screens alike: engine_system_change() with a baseline, else the
 * record in a few words (sysstate_summary). Caller frees. */
char *engine_system_words(struct engine *e);

/* Starts kernels ks (picks: what each measures, NULL: all; group: their
 * benchmark per kernel, NULL for none) with opt. Closes (frees) a batch
 * not taken. Returns the batch (batch_run() NULL: the first kernel did not
 * start; batch->start_errors says why). */
struct batch *engine_start(struct engine *e, const struct kernel *const *ks,
                           const struct metric_pick *picks, size_t n, const size_t *group,
                           size_t ngroups, const struct run_options *opt);
/* Pumps the live batch; after its last kernel ends, the CPU watch's end
 * (throttling seen meanwhile). True while it runs. */
bool engine_pump(struct engine *e);
/* Runs the live batch to its end (blocks), then as engine_pump. */
void engine_wait(struct engine *e);
/* The live or last batch, NULL when none. */
struct batch *engine_batch(const struct engine *e);
/* Hands the batch over (the caller frees it); the engine forgets it. */
struct batch *engine_take_batch(struct engine *e);
/* The run file's id, NULL before it was opened or without a store. */
const char *engine_run_id(const struct engine *e);
/* Whether anything run so far failed: a kernel did not start or ended
 * other than ok, or a row filed did not measure. */
bool engine_failed(const struct engine *e);

/* Compares from now on with baseline or run `name` of the store (NULL:
 * none; "latest": the run before this one). False, with the reason in d,
 * when there is no store or it cannot be loaded. */
bool engine_set_baseline(struct engine *e, const char *name, struct diag *d);
/* The baseline's rows and *name (may be NULL), NULL when none is set. */
json_t *engine_baseline(const struct engine *e, const char **name);
/* The baseline's system record, NULL when none is set or it has none. */
json_t *engine_baseline_system(const struct engine *e);
/* The path of baseline `name` when the store has it (the caller frees);
 * NULL when not, or without a store. */
char *engine_baseline_existing(const struct engine *e, const char *name);
/* Whether the store has a saved baseline `name` (a valid name); *rows,
 * when not NULL: how many metrics it holds. */
bool engine_baseline_exists(const struct engine *e, const char *name, size_t *rows);
/* Saves rows (as JSON rows; the comparison's fields are dropped) as
 * baseline `name` of this run (of no run file with --no-save), replacing one of that name only when
 * `replace` (the old one is kept as NAME.prev). False, with the reason
 * in d, when it could not be. */
bool engine_save_baseline(struct engine *e, const char *name, json_t *rows, bool replace,
                          struct diag *d);

/* With a baseline set: on every row of rows compared with it, what
 * recorded system change could have moved it ("explained_by": cause.h,
 * this system's record of the start against the baseline's). Without one
 * the rows are left as they are. */
void engine_explain(struct engine *e, json_t *rows);
/* The verdict on rows (JSON rows; not changed) at tolerance pct (> 0):
 * against the baseline when one is set, each moved metric with its
 * likely cause (engine_explain), else against the guide (check.h). */
void engine_judge(struct engine *e, json_t *rows, double pct, struct check_verdict *v);

/* What decides how a run or a check ends. */
struct engine_outcome {
    bool bench_failed;          /* a benchmark did not start or failed, a
                                 * metric failed, or what it measured could
                                 * not be delivered (report, baseline) */
    int output_status;          /* the report could not be written: its
                                 * status (1), else 0 */
    bool fail_on_deviation;     /* --fail-on-deviation was given ... */
    const struct check_verdict *verdict;   /* ... and judged at its PCT */
};
/* The exit status of `run` and of --check alike (evmbench(1), EXIT
 * STATUS): 3 when a benchmark failed, else output_status when the report
 * could not be written, else 1 when, with --fail-on-deviation, a metric is
 * worse than its basis by more than PCT (the verdict's `worse`: the rule
 * of export_row_failure), else 0. */
int engine_exit_status(const struct engine_outcome *o);

#endif
