/* check_core.c - the core library links alone.
 *
 * Linked with every object of libevmbench.a (--whole-archive) and only
 * PCRE2 and jansson: no ncurses, no screens, no commands. A core file that
 * calls curses or a function of an upper layer makes this program fail to
 * link, which is the test (tests/check-layers.sh checks the includes).
 * Run, it checks the list the commands hand the core: every kernel of
 * the registry (benches/kernels/registry.h) is found by its name. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "kernel/kernel.h"
#include "benches/kernels/registry.h"

int main(void)
{
    int bad = 0;
    for (size_t i = 0; i < kernel_registry_count; i++) {
        const struct kernel *k = kernel_registry[i];
        if (kernel_find(k->name) != k) {
            fprintf(stderr, "check_core: kernel_find(\"%s\") is not registry entry %zu\n",
                    k->name, i);
            bad = 1;
        }
    }
    printf("check_core: the core links without ncurses or the upper layers; "
           "%zu kernels in the registry, each found by name\n", kernel_registry_count);
    return bad;
}
