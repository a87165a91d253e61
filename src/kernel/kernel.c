/* kernel.c - looking up kernels and their metrics (kernel.h). */
#include "config.h"
#include "kernel/kernel.h"

#include <stdio.h>
#include <strings.h>

const struct kernel *kernel_find_in(const struct kernel *const *ks, size_t n, const char *name)
{
    if (!name)
        return NULL;
    for (size_t i = 0; i < n; i++)
        if (ks[i] && strcasecmp(ks[i]->name, name) == 0)
            return ks[i];
    return NULL;
}

const struct kernel_metric *kernel_metric_find(const struct kernel *k, const char *id)
{
    if (!k || !id)
        return NULL;
    for (size_t i = 0; i < k->nmetrics; i++)
        if (strcasecmp(k->metrics[i].id, id) == 0)
            return &k->metrics[i];
    return NULL;
}

bool kernel_wants(const struct kernel_params *p, const char *id)
{
    if (!id)
        return false;
    if (!p || !p->nonly)
        return true;
    for (size_t i = 0; i < p->nonly; i++)
        if (p->only[i] && strcasecmp(p->only[i], id) == 0)
            return true;
    return false;
}

bool kernel_wants_any(const struct kernel_params *p, const char *const *ids, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (kernel_wants(p, ids[i]))
            return true;
    return false;
}

void kernel_provider_id(const struct kernel *k, char *buf, size_t n)
{
    snprintf(buf, n, "%s:%s", k->provider ? k->provider : "kernel", k->name);
}
