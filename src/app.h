/* app.h - the state one invocation works on: board, references, catalog.
 *
 * Built once by app_init() for every command that needs it (the TUI, run,
 * refs, list). Load problems never stop the program: they are collected in
 * `diag` and shown by the caller. */
#ifndef EVMBENCH_APP_H
#define EVMBENCH_APP_H

#include <stdbool.h>

#include "board/board.h"
#include "data/catalog.h"
#include "kernel/cpucheck.h"
#include "common/diag.h"
#include "data/refdb.h"
#include "recipe/recipe.h"
#include "run/profile_run.h"
#include "run/result.h"
#include "run/runner.h"

struct app_config {
    const char *sysroot;        /* NULL = "/" */
    const char *board;          /* --board KEY, or NULL to detect */
    const char *refs;           /* --refs FILE|DIR, or NULL for the shipped data */
    bool quick;                 /* --quick */
    double tolerance_pct;       /* 0 = DEFAULT_TOLERANCE_PCT */
    double timeout_s;           /* 0 = per kernel default */
    size_t size;                /* --size: kernel working set; 0 = default */
    int iterations;             /* --iterations; 0 = default */
    int threads;                /* --threads: > 0 also runs the extra,
                                 * multi-threaded kernels with that many */
    const char *tools_dir;      /* --tools-dir: searched first for tools */
    enum provider_pref provider;    /* --provider */
    /* The embedded kernels (the program's registry, which the commands
     * hand over); with the tools' kernels they make app.kernels. */
    const struct kernel *const *kernels;
    size_t nkernels;
};

struct app {
    struct board_info board;
    const char *ref_board;      /* key used for references, NULL when none */
    bool ref_picked;            /* ref_board was chosen on the board screen */
    /* What detection found before --board, in a few words: the guide key
     * of a known board, "none" without a device tree, ... (app_init). */
    char *detected;
    struct refdb *refdb;
    struct catalog *catalog;
    struct diag diag;
    double tolerance_pct;
    struct compare cmp;         /* what results are compared with */
    struct run_options run_opts;
    bool extras;                /* run the extra kernels too (--threads) */
    enum provider_pref provider;
    struct recipe_set *recipes; /* external tool recipes (benches/tools) */
    const struct kernel **tool_kernels;
    size_t ntool_kernels;
    const struct kernel **kernels;  /* embedded then tool kernels */
    size_t nkernels;
    char *refs_path;            /* what was loaded */
    int refs_loaded;            /* reference files loaded from it */
    const char *sysroot;        /* where the board and CPU state are read */
    struct soc_facts socs;      /* benches/soc/cpu.json */
};

void app_init(struct app *a, const struct app_config *cfg);
/* Compares with guide column `key` from now on (a key of a->refdb, or
 * NULL for none): ref_board, cmp.board and the guide's clock follow. */
void app_set_ref_board(struct app *a, const char *key);
/* app_set_ref_board for a board chosen by the user on the board screen:
 * ref_picked is set, so the screens say so. */
void app_pick_board(struct app *a, const char *key);
/* How ref_board was chosen, for the screens: "detected", "chosen with
 * --board", "picked with b", or "none" when there is no reference. */
const char *app_board_source(const struct app *a);
/* The one name a person reads for guide board `key`: evmbench's own
 * (boards.def), else the guide's, else the key itself. */
const char *app_board_name(const struct app *a, const char *key);
/* The tolerance (percent) of every later comparison. */
void app_set_tolerance(struct app *a, double pct);
void app_free(struct app *a);
/* Holds the board against the guide board it is compared with (ref_board;
 * its EVM clock from the guide) at clock_mhz found as clock_from (see
 * board_clock()). Release m with board_match_free(). */
void app_board_match(const struct app *a, double clock_mhz, const char *clock_from,
                     struct board_match *m);

/* What is watched around a run of CPU-bound kernels. */
struct cpu_watch {
    bool active;                /* some kernel had CPU-bound metrics */
    bool ended;                 /* app_cpu_watch_end() ran */
    int cpu;                    /* the core the workers use */
    struct cpucheck_snapshot before;
    struct cpucheck_list warnings;  /* before the run, then after it */
};

/* Before kernels run: when any of them has CPU-bound metrics, snapshots
 * the CPU state, lists what would spoil the result (governor, load, a
 * capped clock) and measures the worker core's real clock into
 * a->cmp.live_mhz for the at-clock comparison (about 0.2 s). */
void app_cpu_watch_begin(struct app *a, const struct kernel *const *ks, size_t n,
                         struct cpu_watch *w);
/* After the run: appends throttling seen since begin (cpufreq, thermal). */
void app_cpu_watch_end(struct app *a, struct cpu_watch *w);
void app_cpu_watch_free(struct cpu_watch *w);

/* Why kernel k cannot run here, or NULL when it can: an embedded kernel
 * always can; a tool kernel cannot when its program is not found (where
 * evmbench looked and what provides it) or when its recipe needs a run
 * option that is unset (--peer, --storage-dir, --audio-device: the
 * recipe's own "needs ..." text). The one notion of "runs here" behind
 * list, run, the counts and runs-here column of the screens and 'a'.
 * Caller frees. */
char *app_kernel_unrunnable(const struct kernel *k);
/* !app_kernel_unrunnable(k): whether a kernel runs here. */
bool app_kernel_available(const struct kernel *k);
/* Whether a tool kernel's program is found (whatever it needs besides);
 * true for an embedded kernel. */
bool app_tool_found(const struct kernel *k);
/* Why no kernel of b runs here with provider preference pref (the app's,
 * or one chosen in the screens), or NULL when one does: the first reason
 * of its kernels ("needs --peer HOST"), or "reference only" when it has
 * none. Caller frees. */
char *app_bench_unrunnable(const struct app *a, const struct cat_bench *b,
                           enum provider_pref pref);
/* A kernel by name (embedded or tool) as the provider preference picks it:
 * auto takes the tool when it is installed. NULL when no kernel has it. */
const struct kernel *app_find_kernel(const struct app *a, const char *name);
/* Where profile_run looks up a profile's lines: the app's kernels as
 * a->provider picks them, and its catalog (valid while a is). */
struct profile_scope app_profile_scope(const struct app *a);
/* The kernels a run of b starts under the app's settings (see
 * cat_bench_runnable); out has room for b->nkernels. */
size_t app_bench_kernels(const struct app *a, const struct cat_bench *b,
                         const struct kernel **out);

#endif
