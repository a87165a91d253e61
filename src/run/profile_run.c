/* profile_run.c - a profile's metric lists as the kernels' selections. */
#include "config.h"
#include "run/profile_run.h"

#include <stdbool.h>
#include <stdlib.h>

#include "common/util.h"

#define LINE_KERNELS_MAX 256

/* The kernels a profile line names, whatever this board can run, as
 * `run` takes the name: the kernel with that name and its section's
 * extras (stream-threads beside stream, which `run --threads` adds), or
 * every kernel of the benchmark or of the category's benchmarks (list has
 * room for LINE_KERNELS_MAX). A kernel's name is not its section's other
 * kernels: `bench lat_mem_rd bw_mem-rd-16mb` names no bw_mem metric. */
static size_t line_kernels(const struct profile_scope *s, const struct profile_bench *pb,
                           const struct kernel **list)
{
    const struct kernel *k = kernels_find_provided(s->kernels, s->nkernels, pb->name,
                                                   s->provider, s->available);
    const struct cat_bench *b = catalog_find_bench(s->catalog, pb->name);
    const struct cat_category *cat = catalog_find_category(s->catalog, pb->name);
    size_t n = 0;
    if (k) {
        list[n++] = k;
        for (size_t i = 0; b && i < b->nkernels && n < LINE_KERNELS_MAX; i++)
            if (b->kernels[i]->extra && b->kernels[i] != k)
                list[n++] = b->kernels[i];
        return n;
    }
    for (size_t i = 0; b && i < b->nkernels && n < LINE_KERNELS_MAX; i++)
        list[n++] = b->kernels[i];
    for (size_t j = 0; !b && cat && j < cat->nbenches; j++)
        for (size_t i = 0; i < cat->benches[j]->nkernels && n < LINE_KERNELS_MAX; i++)
            list[n++] = cat->benches[j]->kernels[i];
    return n;
}

const char *profile_run_unknown_metric(struct profile_scope s, const struct profile_bench *pb)
{
    const struct kernel *list[LINE_KERNELS_MAX];
    return profile_bench_unknown(pb, list, line_kernels(&s, pb, list));
}

static bool line_names(const struct profile_scope *s, const struct profile_bench *pb,
                       const struct kernel *k)
{
    const struct kernel *list[LINE_KERNELS_MAX];
    size_t n = line_kernels(s, pb, list);
    for (size_t i = 0; i < n; i++)
        if (list[i] == k)
            return true;
    return false;
}

struct metric_pick *profile_run_picks(struct profile_scope s, const struct profile *p,
                                      const struct kernel **ks, size_t *nk)
{
    if (!p->n)
        return NULL;
    struct metric_pick *picks = xcalloc(*nk ? *nk : 1, sizeof *picks);
    size_t kept = 0;
    for (size_t i = 0; i < *nk; i++) {
        const struct kernel *k = ks[i];
        const char **ids = xcalloc(k->nmetrics ? k->nmetrics : 1, sizeof *ids);
        size_t n = 0;
        bool named = false, all = false;
        for (size_t e = 0; e < p->n && !all; e++) {
            if (!line_names(&s, &p->benches[e], k))
                continue;
            named = true;
            all = !p->benches[e].nmetrics;
            profile_bench_pick(&p->benches[e], k, ids, &n);
        }
        if (named && !n) {
            free(ids);
            continue;           /* its lines list metrics of other kernels */
        }
        ks[kept] = k;
        picks[kept].ids = ids;
        picks[kept].n = all || !named ? 0 : n;
        kept++;
    }
    *nk = kept;
    return picks;
}

void profile_run_free_picks(struct metric_pick *picks, size_t n)
{
    for (size_t i = 0; picks && i < n; i++)
        free((void *)picks[i].ids);
    free(picks);
}
