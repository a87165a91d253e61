/* job.h - the TUI's work behind the screens: the one live batch of
 * kernels, what the session measured, the results store it is saved to,
 * the baseline the results are compared with, and the provider chosen per
 * benchmark on the category screen. The batch, the store, the system
 * record and the baseline are the engine's (engine/engine.h), which runs
 * `evmbench run` alike; the job adds what the screens need around it.
 *
 * No curses here: the job tells its front end what happened through two
 * hooks (a message for the bottom line, an event that says what to draw
 * again), so the tests drive it without a terminal. Like the runner it
 * never blocks: poll job_fd() and call job_pump(). */
#ifndef EVMBENCH_JOB_H
#define EVMBENCH_JOB_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "app.h"
#include "common/diag.h"
#include "data/profile.h"
#include "engine/engine.h"
#include "run/batch.h"
#include "run/session.h"

/* How a message reads: a note, a warning, an error. */
enum job_level { JOB_NOTE, JOB_WARN, JOB_ERROR };

enum job_event {
    JOB_BEGIN,      /* a batch is about to start: show it from its start */
    JOB_LIVE,       /* a run started, sampled, progressed or noted */
    JOB_ENDED,      /* a run ended (its rows are in the store) */
    JOB_CHANGED,    /* the live job or the baseline changed */
};

struct job_hooks {
    void (*say)(void *ctx, enum job_level level, const char *text);
    void (*event)(void *ctx, enum job_event e);
};

/* The category screen's provider choice for one benchmark. */
struct job_pref {
    const struct cat_bench *bench;
    enum provider_pref pref;
};

struct job {
    struct app *app;
    const char *results_dir;    /* the results store; NULL: none */
    const struct job_hooks *hooks;
    void *ctx;
    struct engine engine;       /* runs the live batch, files and compares */
    size_t number;              /* the live batch's number: 1, 2, ... (session.h) */
    char **keep;                /* the live batch shows only these metrics */
    size_t nkeep;
    char **next_keep;           /* job_show_only(): for the next batch */
    size_t next_nkeep;
    struct profile next_pick;   /* job_measure_only(): its lines, n 0: none */
    size_t next_line;           /* the line of next_pick the next batch runs */
    bool summary_due;           /* a category batch ended: job_take_summary() */
    const struct cat_bench **benches;   /* of a category batch, by group */
    struct session session;     /* the batches that ran before */
    struct job_pref *prefs;
    size_t nprefs, cap_prefs;
};

/* An idle job on a (kept by the caller, as are results_dir and hooks).
 * Runs are saved into the results store results_dir when `save`; its
 * baselines are read and saved either way (--no-save keeps only the runs
 * out). results_dir NULL: no store, baselines are refused. */
void job_init(struct job *j, struct app *a, const char *results_dir, bool save,
              const struct job_hooks *hooks, void *ctx);
/* Closes the live batch, finishes the store's run file (`complete`: the
 * session ended normally) and frees everything. Returns 0, or -1 with the
 * store's reason added to d when the run file could not be finished. */
int job_end(struct job *j, bool complete, struct diag *d);

/* Starts a batch of b's kernels (as the provider choice picks them), or
 * of kernel k alone when k is not NULL; closes any previous batch first.
 * False, with an error message, when nothing of b can run or the first
 * kernel cannot start. */
bool job_run_start(struct job *j, const struct cat_bench *b, const struct kernel *k);
/* 'a' on a category: every benchmark of c that can run here, each with
 * its provider choice, as one batch (batch_set_groups marks which kernel
 * belongs to which benchmark). */
bool job_run_start_category(struct job *j, const struct cat_category *c);
/* Cancels the live batch and keeps what it measured in the session. */
void job_close(struct job *j);
/* Signal `sig` (or a terminal gone: SIGHUP) ends the session: the live
 * batch is cancelled at once, "stopped by signal N (NAME)" its reason
 * (common/stopsig.h); job_end then files and closes as after q. */
void job_stop(struct job *j, int sig);
/* Descriptor to poll for the live run, -1 when none. */
int job_fd(const struct job *j);
/* Pumps the live batch; after its last kernel ends, warns about the CPU
 * throttling seen meanwhile. True while it runs. */
bool job_pump(struct job *j);

/* The live batch (or the last one, until closed); NULL when none. */
struct batch *job_batch(const struct job *j);
/* The run going now, or the last one that ran; NULL when none. */
struct run *job_run(const struct job *j);
/* The benchmark the live category batch is at (or ended on); NULL when
 * the batch is not a category batch. */
const struct cat_bench *job_batch_bench(const struct job *j);

/* The metrics measured since the start (session.h), the live run's last,
 * judged against the current reference board: the latest value of each,
 * or with SESSION_ALL every value (older and cancelled ones too);
 * SESSION_PROBLEMS: only warn, off and failed. *out is allocated. */
size_t job_results(const struct job *j, unsigned flags, struct session_row **out);
/* How many values the latest view leaves out (older, cancelled, running). */
size_t job_results_hidden(const struct job *j);
/* The number of the live batch (or the last one), 0 before any. */
size_t job_batch_number(const struct job *j);
/* Whether the live batch shows metric m of run (job_show_only). */
bool job_metric_shown(const struct job *j, const struct run *run, size_t m);
/* The next batch started shows only these metric ids (a profile's list;
 * copied; n 0: all). Batches after it show all again. */
void job_show_only(struct job *j, char *const *metrics, size_t n);
/* The next batch job_run_start() starts is line `line` of profile p, as
 * `run --profile` runs it (profile_run_picks): its kernels that an
 * earlier line of p starts do not start again (they measured with that
 * line), each of the others measures what all the lines of p naming it
 * list, and the batch shows those rows; a kernel that measures none of
 * them does not start. p is copied; NULL: every metric. Batches after it
 * measure all again. */
void job_measure_only(struct job *j, const struct profile *p, size_t line);
/* True when every kernel line `line` of p would start is started by an
 * earlier line of p: the line measured with those, and starts nothing
 * of its own. False too when it starts nothing at all. */
bool job_profile_line_repeats(const struct job *j, const struct profile *p, size_t line);
/* True once after a category batch ('a') ran to its end: time for the
 * summary. */
bool job_take_summary(struct job *j);
/* The id of this session's run file in the store, NULL before the first
 * run ended or without a store. */
const char *job_store_id(const struct job *j);
/* The results store, NULL when none. */
const char *job_results_dir(const struct job *j);
/* Whether runs are saved into it (a store, and no --no-save). */
bool job_saves(const struct job *j);

/* Compares the results with baseline or run `name` of the store from now
 * on (NULL: none). False, with an error message, when it cannot be
 * loaded. */
bool job_set_baseline(struct job *j, const char *name);
/* The baseline's rows and *name, or NULL when none is chosen. */
json_t *job_baseline(const struct job *j, const char **name);
/* The system record of the baseline (read when it was chosen, so that
 * "latest" is the run before this session), NULL when none is chosen or
 * it has none. */
json_t *job_baseline_system(const struct job *j);
/* True when the store has a saved baseline `name` (*rows: its metrics). */
bool job_baseline_exists(const struct job *j, const char *name, size_t *rows);
/* Saves the latest value of every metric measured so far as baseline
 * `name`, replacing one of that name (ask first: job_baseline_exists) and
 * keeping it as `name`.prev; says how it went. */
bool job_save_baseline(struct job *j, const char *name);

/* The provider preference of b (*chosen: set on the category screen,
 * else the app's). */
enum provider_pref job_bench_provider(const struct job *j, const struct cat_bench *b,
                                      bool *chosen);
/* The kernels a run of b starts under that choice; out has room for
 * b->nkernels. */
size_t job_bench_kernels(const struct job *j, const struct cat_bench *b,
                         const struct kernel **out);
/* True when b has both an embedded kernel and an installed tool. */
bool job_bench_has_choice(const struct job *j, const struct cat_bench *b);
/* Cycles b's provider: the app's preference -> kernel -> tool -> back.
 * False (nothing changes) when b has not both. */
bool job_bench_provider_next(struct job *j, const struct cat_bench *b);

#endif
