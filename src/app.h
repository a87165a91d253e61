/* app.h - the state one invocation works on: board, references, catalog.
 *
 * Built once by app_init() for every command that needs it (the TUI, run,
 * refs, list). Load problems never stop the program: they are collected in
 * `diag` and shown by the caller. */
#ifndef EVMBENCH_APP_H
#define EVMBENCH_APP_H

#include <stdbool.h>

#include "board.h"
#include "catalog.h"
#include "diag.h"
#include "refdb.h"
#include "result.h"
#include "runner.h"

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
};

struct app {
    struct board_info board;
    const char *ref_board;      /* key used for references, NULL when none */
    struct refdb *refdb;
    struct catalog *catalog;
    struct diag diag;
    double tolerance_pct;
    struct compare cmp;         /* what results are compared with */
    struct run_options run_opts;
    bool extras;                /* run the extra kernels too (--threads) */
    char *refs_path;            /* what was loaded */
};

void app_init(struct app *a, const struct app_config *cfg);
void app_free(struct app *a);

#endif
