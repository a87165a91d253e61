/* diag.c - collected diagnostics. */
#include "config.h"
#include "common/diag.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"

void diag_init(struct diag *d)
{
    d->msgs = NULL;
    d->n = d->cap = 0;
}

/* Whether byte c is escaped: a control character other than the newline
 * (a message may have lines of its own, each reason indented). */
static bool escaped(unsigned char c)
{
    return (c < ' ' && c != '\n') || c == 0x7f;
}

/* m with every escaped byte written as a C escape ("\t", "\x1b"): a
 * message quotes files and tool output, and an escape sequence from there
 * must not reach a terminal. Takes m. */
static char *escape_controls(char *m)
{
    size_t extra = 0;
    for (const unsigned char *p = (const unsigned char *)m; *p; p++)
        extra += escaped(*p) ? 3 : 0;
    if (!extra)
        return m;
    char *out = xmalloc(strlen(m) + extra + 1), *o = out;
    for (const unsigned char *p = (const unsigned char *)m; *p; p++) {
        if (*p == '\t' || *p == '\r') {
            *o++ = '\\';
            *o++ = *p == '\t' ? 't' : 'r';
        } else if (escaped(*p)) {
            o += sprintf(o, "\\x%02x", *p);
        } else {
            *o++ = (char)*p;
        }
    }
    *o = '\0';
    free(m);
    return out;
}

void diag_addv(struct diag *d, const char *fmt, va_list ap)
{
    if (!d)
        return;
    int e = errno;
    char *m = escape_controls(xvasprintf(fmt, ap));
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
