/* util.h - allocation, strings and files shared by every module.
 *
 * Allocation failure is not recoverable in a benchmark tool: the x*()
 * family prints one message and exits with status 70 (EX_SOFTWARE), after
 * running the hook set with util_set_fatal_hook() (the TUI restores the
 * terminal there). */
#ifndef EVMBENCH_UTIL_H
#define EVMBENCH_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

void *xmalloc(size_t n);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *p, size_t n);
/* Grows *p (an array of *cap elements of size elem) so index `need`-1 fits. */
void xgrow(void *pp, size_t *cap, size_t need, size_t elem);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *xvasprintf(const char *fmt, va_list ap);

/* Called before exiting on an unrecoverable error (terminal restore). */
void util_set_fatal_hook(void (*hook)(void));
_Noreturn void die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Reads a whole file into a NUL-terminated buffer, at most `limit` bytes
 * (0 = 64 MiB). Returns NULL with errno set on failure (EFBIG: larger than
 * the limit; a regular file is refused unread); *len gets the size. */
char *read_file(const char *path, size_t limit, size_t *len);

/* Reads the first line of a small file (sysfs style) with trailing
 * whitespace removed. NULL when the file cannot be read or is empty. */
char *read_line_file(const char *path);

/* In-place trim of leading and trailing whitespace; returns s. */
char *str_trim(char *s);
bool str_starts_with(const char *s, const char *prefix);
bool str_ends_with(const char *s, const char *suffix);

/* A stable identifier: lower case, runs of anything but [a-z0-9._-]
 * collapsed to one '_', no leading/trailing '_'. Caller frees. */
char *str_slug(const char *s);

/* Joins path parts with '/', collapsing duplicate slashes. Caller frees. */
char *path_join(const char *a, const char *b);
/* mkdir -p: path and every missing directory above it, with mode.
 * 0, or -1 with errno. */
int make_dirs(const char *path, unsigned mode);

/* Closes every file descriptor from `lowest` up (a child before it runs
 * other code: it keeps only what it needs). */
void close_fds_from(int lowest);

/* Monotonic clock in seconds. */
double now_seconds(void);
/* The time now in UTC, formatted by strftime (NULL: UTC_ISO8601). */
#define UTC_ISO8601 "%Y-%m-%dT%H:%M:%SZ"
void utc_time(char *buf, size_t n, const char *fmt);

/* A growable string buffer. */
struct strbuf {
    char *buf;
    size_t len, cap;
};
void sb_init(struct strbuf *sb);
void sb_add(struct strbuf *sb, const char *s);
void sb_addn(struct strbuf *sb, const char *s, size_t n);
void sb_addf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_clear(struct strbuf *sb);
char *sb_steal(struct strbuf *sb);   /* returns the string; sb is reset */
void sb_free(struct strbuf *sb);

#endif
