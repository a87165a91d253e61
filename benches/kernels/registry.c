/* registry.c - the kernels built into evmbench. */
#include "config.h"

#include "benches/kernels/registry.h"

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
    return kernel_find_in(kernel_registry, kernel_registry_count, name);
}
