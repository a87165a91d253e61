/* registry.c - the kernels built into evmbench. */
#include "config.h"

#include <stdio.h>
#include <strings.h>

#include "run/kernel.h"
#include "common/util.h"

/* Each kernel file exports one `const struct kernel`. */
extern const struct kernel kernel_stream;
extern const struct kernel kernel_stream_threads, kernel_bw_mem, kernel_bw_file_rd, kernel_bw_mmap_rd, kernel_lat_mem_rd, kernel_lat_ops;
extern const struct kernel kernel_lat_syscall, kernel_lat_sig, kernel_lat_ipc, kernel_bw_ipc;
extern const struct kernel kernel_lat_proc, kernel_lat_ctx, kernel_lat_vm, kernel_lat_fs;
extern const struct kernel kernel_dhrystone;
extern const struct kernel kernel_whetstone;
extern const struct kernel kernel_linpack;
extern const struct kernel kernel_nbench;

const struct kernel *const kernel_registry[] = {
    &kernel_stream,
    &kernel_stream_threads, &kernel_bw_mem, &kernel_bw_file_rd, &kernel_bw_mmap_rd, &kernel_lat_mem_rd, &kernel_lat_ops,
    &kernel_lat_syscall, &kernel_lat_sig, &kernel_lat_ipc, &kernel_bw_ipc,
    &kernel_lat_proc, &kernel_lat_ctx, &kernel_lat_vm, &kernel_lat_fs,
    &kernel_dhrystone,
    &kernel_whetstone,
    &kernel_linpack,
    &kernel_nbench,
};

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

void kernel_provider_id(const struct kernel *k, char *buf, size_t n)
{
    snprintf(buf, n, "%s:%s", k->provider ? k->provider : "kernel", k->name);
}
