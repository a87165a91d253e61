/* util.h - allocation, strings and files shared by every module.
 *
 * Allocation failure is not recoverable in a benchmark tool: the x*()
 * family prints one message and exits with status 70 (EX_SOFTWARE), after
 * running the hook set with util_set_fatal_hook() (the TUI restores the
 * terminal there). */
#ifndef EVMBENCH_UTIL_H
#define EVMBENCH_UTIL_H

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

#include <jansson.h>

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

/* errno of open_regular() and read_file() for a path that names something
 * other than a regular file or a directory (a FIFO, a socket, a device);
 * a directory gives EISDIR. file_strerror() says which. */
#define ERR_NOT_REGULAR EMEDIUMTYPE

/* Opens a regular file for reading (close-on-exec), never blocking: the
 * path is stat()ed and the descriptor fstat()ed, and anything that is not
 * a regular file (a FIFO, a device, a socket, a directory) is refused
 * without a read, -1 with errno ERR_NOT_REGULAR or EISDIR. Otherwise the
 * descriptor, in blocking mode, and its fstat() in *st (may be NULL). */
int open_regular(const char *path, struct stat *st);

/* strerror(), but for ERR_NOT_REGULAR and EISDIR what the refused file
 * was: "not a regular file (a FIFO)", "not a regular file (a directory)". */
const char *file_strerror(int err);

/* Reads a whole regular file into a NUL-terminated buffer, at most `limit`
 * bytes (0 = 64 MiB), opened by open_regular(). Returns NULL with errno set
 * on failure (EFBIG: larger than the limit, refused unread; ERR_NOT_REGULAR
 * or EISDIR: not a regular file, refused unread, see file_strerror());
 * *len gets the size. */
char *read_file(const char *path, size_t limit, size_t *len);

/* json_load_file(), but through read_file(): a FIFO or a device is refused
 * instead of read, and the file is at most 64 MiB. When the file cannot be
 * read, error->line is -1 and error->text says why (file_strerror()). */
json_t *json_read_file(const char *path, size_t flags, json_error_t *error);

/* Reads the first line of a small file (sysfs style) with trailing
 * whitespace removed. NULL when the file cannot be read or is empty. */
char *read_line_file(const char *path);

/* Writes all n bytes of buf to fd, again after a signal (EINTR) or a short
 * write. false when write() fails (errno says why) or writes nothing
 * (errno ENOSPC). */
bool write_all(int fd, const void *buf, size_t n);

/* In-place trim of leading and trailing whitespace; returns s. */
char *str_trim(char *s);
bool str_starts_with(const char *s, const char *prefix);
bool str_ends_with(const char *s, const char *suffix);

/* --- UTF-8 from outside: tool output, device tree, file names ----------
 * jansson takes only well-formed UTF-8 (json_string() returns NULL for
 * anything else), so text from outside is made valid before it becomes
 * JSON. Well-formed is Unicode's table 3-7: no stray continuation byte,
 * no overlong form, no surrogate (U+D800..U+DFFF), nothing above
 * U+10FFFF, no truncated sequence. */

/* The length (1-4) of the well-formed character that s starts with, or 0
 * when s does not start one (or is at its NUL). */
size_t utf8_char_len(const char *s);
/* True when all of s is well-formed UTF-8. */
bool utf8_valid(const char *s);
/* A copy of s in which each byte that is not part of a well-formed
 * character is replaced by U+FFFD (EF BF BD); valid text is copied as it
 * is. Caller frees. */
char *utf8_valid_dup(const char *s);
/* Where to cut s (NUL-terminated, of length len) to keep at most max
 * bytes without splitting a character: max moved back to the start of a
 * well-formed character that would straddle it; len when len <= max. */
size_t utf8_cut(const char *s, size_t len, size_t max);
/* json_string() of text from outside: invalid bytes replaced as by
 * utf8_valid_dup(), never NULL; NULL s gives JSON null. */
json_t *json_string_from_outside(const char *s);

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
