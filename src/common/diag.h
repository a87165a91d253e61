/* diag.h - a list of diagnostics collected while loading data files.
 *
 * Loaders never print: they add "file:line[:col]: message" entries here and
 * carry on with what is sound. The caller decides where messages go (stderr
 * in the CLI, the status line in the TUI). */
#ifndef EVMBENCH_DIAG_H
#define EVMBENCH_DIAG_H

#include <stddef.h>

struct diag {
    char **msgs;
    size_t n, cap;
};

void diag_init(struct diag *d);
void diag_add(struct diag *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void diag_free(struct diag *d);

#endif
