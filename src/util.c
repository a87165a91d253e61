/* util.c - allocation, strings and files. */
#include "config.h"
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static void (*fatal_hook)(void);

void util_set_fatal_hook(void (*hook)(void))
{
    fatal_hook = hook;
}

_Noreturn void die(const char *fmt, ...)
{
    va_list ap;
    if (fatal_hook)
        fatal_hook();
    fputs("evmbench: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(70);
}

void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        die("out of memory (%zu bytes)", n);
    return p;
}

void *xcalloc(size_t count, size_t size)
{
    void *p = calloc(count ? count : 1, size ? size : 1);
    if (!p)
        die("out of memory (%zu x %zu bytes)", count, size);
    return p;
}

void *xrealloc(void *p, size_t n)
{
    p = realloc(p, n ? n : 1);
    if (!p)
        die("out of memory (%zu bytes)", n);
    return p;
}

void xgrow(void *pp, size_t *cap, size_t need, size_t elem)
{
    void **p = pp;
    if (need <= *cap)
        return;
    size_t n = *cap ? *cap : 8;
    while (n < need) {
        if (n > ((size_t)-1) / 2 / elem)
            die("array too large");
        n *= 2;
    }
    *p = xrealloc(*p, n * elem);
    *cap = n;
}

char *xstrdup(const char *s)
{
    return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
    char *p = xmalloc(n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

char *xvasprintf(const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0)
        die("bad format string");
    char *p = xmalloc((size_t)n + 1);
    vsnprintf(p, (size_t)n + 1, fmt, ap);
    return p;
}

char *xasprintf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *p = xvasprintf(fmt, ap);
    va_end(ap);
    return p;
}

char *read_file(const char *path, size_t limit, size_t *len)
{
    if (!limit)
        limit = 64u << 20;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    struct stat st;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (uintmax_t)st.st_size > limit) {
        close(fd);          /* a 1 GB file is refused at once, unread */
        errno = EFBIG;
        return NULL;
    }
    size_t cap = limit < 4096 ? limit : 4096, n = 0;
    char *buf = xmalloc(cap + 2);
    for (;;) {
        if (n == cap) {
            char probe;
            ssize_t more = cap >= limit ? read(fd, &probe, 1) : 1;
            if (more > 0 && cap >= limit) {
                free(buf);
                close(fd);
                errno = EFBIG;
                return NULL;
            }
            if (more == 0)
                break;
            cap = cap * 2 > limit ? limit : cap * 2;
            buf = xrealloc(buf, cap + 1);
        }
        ssize_t r = read(fd, buf + n, cap - n);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            int e = errno;
            free(buf);
            close(fd);
            errno = e;
            return NULL;
        }
        if (r == 0)
            break;
        n += (size_t)r;
    }
    close(fd);
    buf[n] = '\0';
    if (len)
        *len = n;
    return buf;
}

char *read_line_file(const char *path)
{
    char *s = read_file(path, 1 << 16, NULL);
    if (!s)
        return NULL;
    char *nl = strchr(s, '\n');
    if (nl)
        *nl = '\0';
    str_trim(s);
    if (!*s) {
        free(s);
        return NULL;
    }
    return s;
}

char *str_trim(char *s)
{
    char *start = s;
    while (isspace((unsigned char)*start))
        start++;
    size_t n = strlen(start);
    while (n && isspace((unsigned char)start[n - 1]))
        n--;
    memmove(s, start, n);
    s[n] = '\0';
    return s;
}

bool str_starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

bool str_ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

char *str_slug(const char *s)
{
    size_t n = strlen(s);
    char *out = xmalloc(n + 1);
    size_t o = 0;
    bool pending = false;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        int c = tolower(*p);
        if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
            c == '.' || c == '-' || c == '_') {
            if (pending && o)
                out[o++] = '_';
            pending = false;
            out[o++] = (char)c;
        } else {
            pending = true;
        }
    }
    while (o && out[o - 1] == '_')
        o--;
    out[o] = '\0';
    return out;
}

char *path_join(const char *a, const char *b)
{
    size_t la = strlen(a);
    while (la > 1 && a[la - 1] == '/')
        la--;
    while (*b == '/')
        b++;
    if (!*b)
        return xstrndup(a, la);
    if (la && a[la - 1] == '/')     /* the root itself */
        return xasprintf("%.*s%s", (int)la, a, b);
    return xasprintf("%.*s/%s", (int)la, a, b);
}

void close_fds_from(int lowest)
{
#ifdef SYS_close_range
    if (syscall(SYS_close_range, (unsigned)lowest, ~0u, 0) == 0)
        return;
#endif
    long max = sysconf(_SC_OPEN_MAX);
    if (max < 0 || max > 65536)
        max = 65536;
    for (int fd = lowest; fd < max; fd++)
        close(fd);
}

int make_dirs(const char *path, unsigned mode)
{
    char *p = xstrdup(path);
    int rc = 0;
    for (char *s = p + 1; *s && rc == 0; s++) {
        if (*s != '/')
            continue;
        *s = '\0';
        if (mkdir(p, (mode_t)mode) != 0 && errno != EEXIST)
            rc = -1;
        *s = '/';
    }
    if (rc == 0 && mkdir(p, (mode_t)mode) != 0 && errno != EEXIST)
        rc = -1;
    free(p);
    return rc;
}

void utc_time(char *buf, size_t n, const char *fmt)
{
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    if (!strftime(buf, n, fmt ? fmt : UTC_ISO8601, &tm) && n)
        buf[0] = '\0';
}

double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void sb_init(struct strbuf *sb)
{
    sb->buf = NULL;
    sb->len = sb->cap = 0;
}

void sb_addn(struct strbuf *sb, const char *s, size_t n)
{
    xgrow(&sb->buf, &sb->cap, sb->len + n + 1, 1);
    memcpy(sb->buf + sb->len, s, n);
    sb->len += n;
    sb->buf[sb->len] = '\0';
}

void sb_add(struct strbuf *sb, const char *s)
{
    sb_addn(sb, s, strlen(s));
}

void sb_addf(struct strbuf *sb, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = xvasprintf(fmt, ap);
    va_end(ap);
    sb_add(sb, s);
    free(s);
}

void sb_clear(struct strbuf *sb)
{
    sb->len = 0;
    if (sb->buf)
        sb->buf[0] = '\0';
}

char *sb_steal(struct strbuf *sb)
{
    char *s = sb->buf ? sb->buf : xstrdup("");
    sb_init(sb);
    return s;
}

void sb_free(struct strbuf *sb)
{
    free(sb->buf);
    sb_init(sb);
}
