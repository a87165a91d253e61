/* report.c - the worker side of the runner protocol (see report.h). */
#include "config.h"
#include "kernel/report.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/util.h"

void report_to_fd(struct report *r, int fd)
{
    r->fd = fd;
    r->callback = NULL;
    r->ctx = NULL;
}

void report_to_callback(struct report *r,
                        void (*cb)(void *, const struct report_event *), void *ctx)
{
    r->fd = -1;
    r->callback = cb;
    r->ctx = ctx;
}

/* Texts travel as one line: newlines and control characters become spaces. */
static void flatten(char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f)
            *s = ' ';
}

static void emit(struct report *r, const struct report_event *ev)
{
    if (r->callback) {
        r->callback(r->ctx, ev);
        return;
    }
    if (r->fd < 0)
        return;
    char *line = NULL;
    switch (ev->kind) {
    case REPORT_SAMPLE:
        line = xasprintf("S %s %.17g\n", ev->metric, ev->value);
        break;
    case REPORT_PROGRESS:
        line = xasprintf("P %.17g %.17g\n", ev->value, ev->total);
        break;
    case REPORT_NOTE:
        line = xasprintf("N %s\n", ev->text);
        break;
    case REPORT_FAIL:
        line = xasprintf("F %s %s\n", ev->metric, ev->text);
        break;
    }
    (void)write_all(r->fd, line, strlen(line));  /* a parent gone: nothing to tell */
    free(line);
}

void report_sample(struct report *r, const char *metric, double value)
{
    struct report_event ev = { .kind = REPORT_SAMPLE, .metric = metric, .value = value };
    emit(r, &ev);
}

void report_progress(struct report *r, double done, double total)
{
    struct report_event ev = { .kind = REPORT_PROGRESS, .value = done, .total = total };
    emit(r, &ev);
}

void report_note(struct report *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *text = xvasprintf(fmt, ap);
    va_end(ap);
    flatten(text);
    struct report_event ev = { .kind = REPORT_NOTE, .text = text };
    emit(r, &ev);
    free(text);
}

void report_fail(struct report *r, const char *metric, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *text = xvasprintf(fmt, ap);
    va_end(ap);
    flatten(text);
    struct report_event ev = { .kind = REPORT_FAIL, .metric = metric, .text = text };
    emit(r, &ev);
    free(text);
}

static bool parse_number(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end || errno == ERANGE || !isfinite(v))
        return false;
    *out = v;
    return true;
}

bool report_parse_line(char *line, struct report_event *ev)
{
    memset(ev, 0, sizeof *ev);
    if (!line[0] || line[1] != ' ')
        return false;
    char *rest = line + 2;
    char *sp;
    switch (line[0]) {
    case 'S':
        sp = strchr(rest, ' ');
        if (!sp || sp == rest)
            return false;
        *sp = '\0';
        ev->kind = REPORT_SAMPLE;
        ev->metric = rest;
        return parse_number(sp + 1, &ev->value);
    case 'P':
        sp = strchr(rest, ' ');
        if (!sp)
            return false;
        *sp = '\0';
        ev->kind = REPORT_PROGRESS;
        return parse_number(rest, &ev->value) && parse_number(sp + 1, &ev->total) &&
               ev->total > 0 && ev->value >= 0;
    case 'N':
        ev->kind = REPORT_NOTE;
        ev->text = rest;
        return true;
    case 'F':
        sp = strchr(rest, ' ');
        ev->kind = REPORT_FAIL;
        ev->metric = rest;
        if (sp) {
            *sp = '\0';
            ev->text = sp + 1;
        } else {
            ev->text = "failed";
        }
        return *ev->metric != '\0';
    default:
        return false;
    }
}
