/* app.c - board, references and catalog for one invocation. */
#include "config.h"
#include "app.h"

#include <stdlib.h>
#include <string.h>

#include "data/datadir.h"
#include "run/deviation.h"
#include "kernel/cpuclock.h"
#include "kernel/kernel.h"
#include "recipe/recipe.h"
#include "recipe/toolkernel.h"
#include "common/util.h"

/* What board_detect found, before --board replaces it. */
static char *detected_words(const struct board_info *b)
{
    switch (b->kind) {
    case BOARD_KNOWN:
        return xstrdup(b->key ? b->key : b->name ? b->name : "a guide board");
    case BOARD_TI_UNKNOWN:
        return xasprintf("%s, a TI board with no guide column", b->name ? b->name : "?");
    case BOARD_OTHER_DT:
        return xasprintf("%s, not a TI board", b->name ? b->name : "?");
    case BOARD_NO_DT:
    case BOARD_OVERRIDE:
        break;
    }
    return xstrdup("none");
}

void app_init(struct app *a, const struct app_config *cfg)
{
    memset(a, 0, sizeof *a);
    diag_init(&a->diag);
    board_detect(&a->board, cfg->sysroot);
    a->detected = detected_words(&a->board);
    if (cfg->board)
        board_override(&a->board, cfg->board);
    a->ref_board = a->board.key;
    soc_facts_load_default(&a->socs, &a->diag);
    board_cache_from_facts(&a->board, &a->socs);

    a->sysroot = cfg->sysroot;
    a->refdb = refdb_new();
    if (cfg->refs) {
        a->refs_path = xstrdup(cfg->refs);
        a->refs_loaded = refdb_load_path(a->refdb, a->refs_path, &a->diag);
    } else {
        struct data_dir refs;
        data_dir_default(&refs, "refs");
        a->refs_path = xstrdup(refs.label);
        a->refs_loaded = refdb_load_dir(a->refdb, &refs, &a->diag);
        data_dir_free(&refs);
    }

    /* the providers: embedded kernels, then the SDK's tools as recipes say */
    if (cfg->tools_dir)
        recipe_set_tools_dir(cfg->tools_dir);
    if (cfg->timeout_s > 0)
        toolkernel_set_time_limit(cfg->timeout_s);     /* a tool call fits in it */
    a->recipes = recipe_load_default(&a->diag);
    toolkernel_build(a->recipes, cfg->kernels, cfg->nkernels, &a->tool_kernels,
                     &a->ntool_kernels);
    a->nkernels = cfg->nkernels + a->ntool_kernels;
    a->kernels = xcalloc(a->nkernels + 1, sizeof *a->kernels);
    if (cfg->nkernels)
        memcpy(a->kernels, cfg->kernels, cfg->nkernels * sizeof *a->kernels);
    memcpy(a->kernels + cfg->nkernels, a->tool_kernels,
           a->ntool_kernels * sizeof *a->kernels);
    struct cat_aliases aliases;
    cat_aliases_init(&aliases);
    cat_aliases_load_default(&aliases, &a->diag);
    a->catalog = catalog_build(a->refdb, &aliases, a->kernels, a->nkernels);
    a->provider = cfg->provider;

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
        .cache_bytes = a->board.cache_bytes,
    };
    a->run_opts.params.quick = cfg->quick;
    a->run_opts.params.size = cfg->size;
    a->run_opts.params.iterations = cfg->iterations;
    a->run_opts.params.threads = cfg->threads;
    a->run_opts.params.cache_bytes = a->board.cache_bytes;
    a->run_opts.params.cache_from = a->board.cache_from;
    a->extras = cfg->threads > 0;
    a->run_opts.timeout_s = cfg->timeout_s;
    a->run_opts.sysroot = cfg->sysroot;
    a->run_opts.cpu = -1;
}

void app_set_ref_board(struct app *a, const char *key)
{
    const struct ref_board *evm = refdb_board(a->refdb, key);
    a->ref_board = key;
    a->cmp.board = key;
    a->cmp.guide_mhz = evm ? evm->cpu_mhz : 0;
}

void app_pick_board(struct app *a, const char *key)
{
    app_set_ref_board(a, key);
    a->ref_picked = true;
}

const char *app_board_source(const struct app *a)
{
    if (!a->ref_board)
        return "none";
    if (a->ref_picked)
        return "picked with b";
    return a->board.kind == BOARD_OVERRIDE ? "chosen with --board" : "detected";
}

const char *app_board_name(const struct app *a, const char *key)
{
    const char *name = board_key_name(key);
    const struct ref_board *rb = name ? NULL : refdb_board(a->refdb, key);
    return name ? name : rb && rb->name ? rb->name : key;
}

void app_board_match(const struct app *a, double clock_mhz, const char *clock_from,
                     struct board_match *m)
{
    const struct ref_board *evm = refdb_board(a->refdb, a->ref_board);
    board_assess(&a->board, a->ref_board, &a->socs, evm ? evm->cpu_mhz : 0, clock_mhz,
                 clock_from, m);
}

void app_set_tolerance(struct app *a, double pct)
{
    a->tolerance_pct = pct > 0 ? pct : DEFAULT_TOLERANCE_PCT;
    a->cmp.tolerance_pct = a->tolerance_pct;
}

void app_cpu_watch_begin(struct app *a, const struct kernel *const *ks, size_t n,
                         struct cpu_watch *w)
{
    memset(w, 0, sizeof *w);
    for (size_t i = 0; i < n; i++)
        for (size_t m = 0; m < ks[i]->nmetrics; m++)
            w->active |= ks[i]->metrics[m].cpu_bound;
    if (!w->active)
        return;
    w->cpu = a->run_opts.cpu >= 0 ? a->run_opts.cpu : runner_default_cpu();
    cpucheck_snapshot(&w->before, a->sysroot);
    cpucheck_before(&w->before, &w->warnings);
    double mhz = cpuclock_measure(w->cpu, 0.2);
    if (mhz > 0)
        a->cmp.live_mhz = mhz;
}

void app_cpu_watch_end(struct app *a, struct cpu_watch *w)
{
    if (!w->active || w->ended)
        return;
    w->ended = true;
    struct cpucheck_snapshot after;
    cpucheck_snapshot(&after, a->sysroot);
    cpucheck_after(&w->before, &after, w->cpu, &w->warnings);
    cpucheck_snapshot_free(&after);
}

void app_cpu_watch_free(struct cpu_watch *w)
{
    if (w->active)
        cpucheck_snapshot_free(&w->before);
    cpucheck_list_free(&w->warnings);
    memset(w, 0, sizeof *w);
}

char *app_kernel_unrunnable(const struct kernel *k)
{
    const struct recipe_bench *b = toolkernel_recipe(k);
    if (!b)
        return NULL;
    if (!toolkernel_available(k, NULL))
        return recipe_not_found_reason(b);
    const char *needs = recipe_unrunnable(b, NULL);
    return needs ? xstrdup(needs) : NULL;
}

bool app_kernel_available(const struct kernel *k)
{
    char *why = app_kernel_unrunnable(k);
    free(why);
    return why == NULL;
}

bool app_tool_found(const struct kernel *k)
{
    return toolkernel_recipe(k) ? toolkernel_available(k, NULL) : true;
}

char *app_bench_unrunnable(const struct app *a, const struct cat_bench *b,
                           enum provider_pref pref)
{
    if (!b->nkernels)
        return xstrdup("reference only");
    const struct kernel **ks = xcalloc(b->nkernels, sizeof *ks);
    size_t n = cat_bench_runnable(b, a->extras, pref, app_kernel_available, ks);
    free(ks);
    if (n)
        return NULL;
    char *why = NULL;
    bool extras_only = false;
    for (size_t i = 0; i < b->nkernels && !why; i++) {
        const struct kernel *k = b->kernels[i];
        bool tool = toolkernel_recipe(k) != NULL;
        if ((pref == PROVIDER_KERNEL && tool) || (pref == PROVIDER_TOOL && !tool))
            continue;
        if (k->extra && !a->extras) {
            extras_only = true;
            continue;
        }
        why = app_kernel_unrunnable(k);
    }
    if (!why && extras_only)
        why = xstrdup("it runs only with --threads");
    if (!why)
        why = xasprintf("it has no %s (provider %s)",
                        pref == PROVIDER_TOOL ? "tool" : "embedded kernel",
                        provider_pref_name(pref));
    return why;
}

const struct kernel *app_find_kernel(const struct app *a, const char *name)
{
    return kernels_find_provided(a->kernels, a->nkernels, name, a->provider,
                                 app_kernel_available);
}

struct profile_scope app_profile_scope(const struct app *a)
{
    return (struct profile_scope){ .catalog = a->catalog, .kernels = a->kernels,
                                   .nkernels = a->nkernels, .provider = a->provider,
                                   .available = app_kernel_available };
}

size_t app_bench_kernels(const struct app *a, const struct cat_bench *b,
                         const struct kernel **out)
{
    return cat_bench_runnable(b, a->extras, a->provider, app_kernel_available, out);
}

void app_free(struct app *a)
{
    catalog_free(a->catalog);
    free(a->kernels);
    toolkernel_free(a->tool_kernels, a->ntool_kernels);
    recipe_set_free(a->recipes);
    refdb_free(a->refdb);
    board_free(&a->board);
    free(a->detected);
    soc_facts_free(&a->socs);
    diag_free(&a->diag);
    free(a->refs_path);
    memset(a, 0, sizeof *a);
}
