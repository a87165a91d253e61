/* registry.h - the kernels built into this program.
 *
 * The commands (src/cli) hand this list to app_init() (app_config.kernels);
 * the core never includes this header and knows the kernels only as the
 * list it was given. Tests use it to reach a kernel by name. */
#ifndef EVMBENCH_REGISTRY_H
#define EVMBENCH_REGISTRY_H

#include <stddef.h>

#include "kernel/kernel.h"

extern const struct kernel *const kernel_registry[];
extern const size_t kernel_registry_count;
/* kernel_find_in() over kernel_registry[]. */
const struct kernel *kernel_find(const char *name);

#endif
