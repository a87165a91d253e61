/* app.c - board, references and catalog for one invocation. */
#include "config.h"
#include "app.h"

#include <stdlib.h>
#include <string.h>

#include "datadir.h"
#include "deviation.h"
#include "kernel.h"
#include "util.h"

void app_init(struct app *a, const struct app_config *cfg)
{
    memset(a, 0, sizeof *a);
    diag_init(&a->diag);
    board_detect(&a->board, cfg->sysroot);
    if (cfg->board)
        board_override(&a->board, cfg->board);
    a->ref_board = a->board.key;

    a->refs_path = cfg->refs ? xstrdup(cfg->refs) : datadir_path("refs");
    a->refdb = refdb_new();
    refdb_load_path(a->refdb, a->refs_path, &a->diag);
    a->catalog = catalog_build(a->refdb, kernel_registry, kernel_registry_count);

    a->tolerance_pct = cfg->tolerance_pct > 0 ? cfg->tolerance_pct : DEFAULT_TOLERANCE_PCT;
    const struct ref_board *evm = refdb_board(a->refdb, a->ref_board);
    a->cmp = (struct compare){
        .db = a->refdb,
        .board = a->ref_board,
        .tolerance_pct = a->tolerance_pct,
        .guide_mhz = evm ? evm->cpu_mhz : 0,
        /* the clock a CPU-bound kernel will run at: the top of the range
         * the governor may use */
        .live_mhz = a->board.cpu_max_mhz > 0 ? a->board.cpu_max_mhz : a->board.cpu_mhz,
    };
    a->run_opts.params.quick = cfg->quick;
    a->run_opts.params.size = cfg->size;
    a->run_opts.params.iterations = cfg->iterations;
    a->run_opts.params.threads = cfg->threads;
    a->extras = cfg->threads > 0;
    a->run_opts.timeout_s = cfg->timeout_s;
    a->run_opts.cpu = -1;
}

void app_free(struct app *a)
{
    catalog_free(a->catalog);
    refdb_free(a->refdb);
    board_free(&a->board);
    diag_free(&a->diag);
    free(a->refs_path);
    memset(a, 0, sizeof *a);
}
