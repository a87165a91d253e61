/* diag.h - the one way recoverable errors travel: a list of messages.
 *
 * A function that can fail for a reason the user should read (a bad data
 * file, a file that cannot be written, a full disk) takes a `struct diag *`
 * and adds its message there with diag_add: "file:line[:col]: message" for
 * data files, "PATH: reason" for files written. It never prints and never
 * exits; it returns -1 or NULL as its contract says and carries on with what
 * is sound where it can. The caller decides where messages go: the CLI
 * prints them to the command's error stream (c->err) with "evmbench: ", the
 * screens show them on the status line. die() (common/util.h) is only
 * for a failed allocation, which nothing can recover from. A NULL diag is
 * fine: the messages are then dropped. */
#ifndef EVMBENCH_DIAG_H
#define EVMBENCH_DIAG_H

#include <stdarg.h>
#include <stddef.h>

struct diag {
    char **msgs;
    size_t n, cap;
};

void diag_init(struct diag *d);
/* Adds one message, formatted as printf does, with every control character
 * but the newline written as a C escape ("\t", "\x1b"): messages quote
 * files, and none may move a terminal's cursor; a newline starts a line of
 * the same message (an indented list of reasons). Keeps errno as it was,
 * so a caller can add a message and still return with errno set. */
void diag_add(struct diag *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The same with the arguments in ap, for functions that take a format. */
void diag_addv(struct diag *d, const char *fmt, va_list ap)
    __attribute__((format(printf, 2, 0)));
/* The message added last, or "" when there is none (or d is NULL); valid
 * until the next diag_add or diag_free. */
const char *diag_last(const struct diag *d);
void diag_free(struct diag *d);

#endif
