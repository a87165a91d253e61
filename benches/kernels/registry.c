/* registry.c - the kernels built into evmbench. */
#include "config.h"

#include <stdio.h>
#include <strings.h>

#include "run/kernel.h"
#include "common/util.h"

/* Each kernel file exports one `const struct kernel kernel_NAME`; this list
 * names them, one line each. A new
 * kernel is its file (and its line in Makefile.am) plus one line here. */
#define KERNELS(X) \
    X(stream) \
    X(stream_threads) \
    X(bw_mem) \
    X(bw_file_rd) \
    X(bw_mmap_rd) \
    X(lat_mem_rd) \
    X(lat_ops) \
    X(lat_syscall) \
    X(lat_sig) \
    X(lat_ipc) \
    X(bw_ipc) \
    X(lat_proc) \
    X(lat_ctx) \
    X(lat_vm) \
    X(lat_fs) \
    X(dhrystone) \
    X(whetstone) \
    X(linpack) \
    X(nbench)

#define DECLARE_KERNEL(name) extern const struct kernel kernel_##name;
KERNELS(DECLARE_KERNEL)

#define KERNEL_ENTRY(name) &kernel_##name,
const struct kernel *const kernel_registry[] = { KERNELS(KERNEL_ENTRY) };

const size_t kernel_registry_count = ARRAY_SIZE(kernel_registry);

const struct kernel *kernel_find(const char *name)
{
    if (!name)
        return NULL;
    for (size_t i = 0; i < kernel_registry_count; i++)
        if (strcasecmp(kernel_registry[i]->name, name) == 0)
            return kernel_registry[i];
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
