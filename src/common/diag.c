/* diag.c - collected diagnostics. */
#include "config.h"
#include "common/diag.h"

#include <stdarg.h>
#include <stdlib.h>

#include "common/util.h"

void diag_init(struct diag *d)
{
    d->msgs = NULL;
    d->n = d->cap = 0;
}

void diag_add(struct diag *d, const char *fmt, ...)
{
    if (!d)
        return;
    va_list ap;
    va_start(ap, fmt);
    char *m = xvasprintf(fmt, ap);
    va_end(ap);
    xgrow(&d->msgs, &d->cap, d->n + 1, sizeof *d->msgs);
    d->msgs[d->n++] = m;
}

void diag_free(struct diag *d)
{
    for (size_t i = 0; i < d->n; i++)
        free(d->msgs[i]);
    free(d->msgs);
    diag_init(d);
}
