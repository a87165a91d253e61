/* diag.c - collected diagnostics. */
#include "config.h"
#include "common/diag.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>

#include "common/util.h"

void diag_init(struct diag *d)
{
    d->msgs = NULL;
    d->n = d->cap = 0;
}

void diag_addv(struct diag *d, const char *fmt, va_list ap)
{
    if (!d)
        return;
    int e = errno;
    char *m = xvasprintf(fmt, ap);
    xgrow(&d->msgs, &d->cap, d->n + 1, sizeof *d->msgs);
    d->msgs[d->n++] = m;
    errno = e;
}

void diag_add(struct diag *d, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_addv(d, fmt, ap);
    va_end(ap);
}

const char *diag_last(const struct diag *d)
{
    return d && d->n ? d->msgs[d->n - 1] : "";
}

void diag_free(struct diag *d)
{
    for (size_t i = 0; i < d->n; i++)
        free(d->msgs[i]);
    free(d->msgs);
    diag_init(d);
}
