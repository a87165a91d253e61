/* util.c - allocation, strings and files. */
#include "config.h"
#include "common/util.h"

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

/* What open_regular() last refused, for file_strerror(). */
static _Thread_local const char *refused_as;

static const char *kind_of(mode_t mode)
{
    if (S_ISFIFO(mode))
        return "not a regular file (a FIFO)";
    if (S_ISCHR(mode))
        return "not a regular file (a character device)";
    if (S_ISBLK(mode))
        return "not a regular file (a block device)";
    if (S_ISSOCK(mode))
        return "not a regular file (a socket)";
    if (S_ISDIR(mode))
        return "not a regular file (a directory)";
    return "not a regular file";
}

/* -1 with errno (and refused_as) set when mode is not a regular file's. */
static int refuse_unless_regular(mode_t mode)
{
    if (S_ISREG(mode))
        return 0;
    refused_as = kind_of(mode);
    errno = S_ISDIR(mode) ? EISDIR : ERR_NOT_REGULAR;
    return -1;
}

int open_regular(const char *path, struct stat *st)
{
    struct stat own;
    if (!st)
        st = &own;
    /* a device is not even opened (opening one can have effects) ... */
    if (stat(path, st) == 0 && refuse_unless_regular(st->st_mode) != 0)
        return -1;
    /* ... and a FIFO swapped in since cannot block the open */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    if (fstat(fd, st) != 0 || refuse_unless_regular(st->st_mode) != 0) {
        int e = errno;
        close(fd);
        errno = e;
        return -1;
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0)
        (void)fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    return fd;
}

const char *file_strerror(int err)
{
    if (err == ERR_NOT_REGULAR)
        return refused_as ? refused_as : "not a regular file";
    if (err == EISDIR)
        return "not a regular file (a directory)";
    return strerror(err);
}

char *read_file(const char *path, size_t limit, size_t *len)
{
    if (!limit)
        limit = 64u << 20;
    struct stat st;
    int fd = open_regular(path, &st);
    if (fd < 0)
        return NULL;
    if ((uintmax_t)st.st_size > limit) {
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

json_t *json_read_file(const char *path, size_t flags, json_error_t *error)
{
    size_t len;
    char *text = read_file(path, 0, &len);
    if (!text) {
        int e = errno;
        memset(error, 0, sizeof *error);
        error->line = error->column = -1;
        error->position = 0;
        snprintf(error->source, sizeof error->source, "%s", path);
        snprintf(error->text, sizeof error->text, "%s",
                 e == EFBIG ? "larger than 64 MB" : file_strerror(e));
        errno = e;
        return NULL;
    }
    json_t *j = json_loadb(text, len, flags, error);
    free(text);
    return j;
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

size_t utf8_char_len(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    unsigned char c = p[0];
    if (c == 0)
        return 0;
    if (c < 0x80)
        return 1;
    /* the lead byte fixes the length and the range of the second byte
     * (which rules out overlong forms, surrogates and > U+10FFFF) */
    size_t n;
    unsigned char lo = 0x80, hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF) {
        n = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        if (c == 0xE0)
            lo = 0xA0;          /* below: overlong */
        else if (c == 0xED)
            hi = 0x9F;          /* above: U+D800..U+DFFF, surrogates */
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        if (c == 0xF0)
            lo = 0x90;          /* below: overlong */
        else if (c == 0xF4)
            hi = 0x8F;          /* above: beyond U+10FFFF */
    } else {
        return 0;               /* 80..C1 (continuation, overlong lead), F5..FF */
    }
    if (p[1] < lo || p[1] > hi)
        return 0;
    for (size_t i = 2; i < n; i++)
        if (p[i] < 0x80 || p[i] > 0xBF)     /* also stops at the NUL */
            return 0;
    return n;
}

bool utf8_valid(const char *s)
{
    while (*s) {
        size_t n = utf8_char_len(s);
        if (!n)
            return false;
        s += n;
    }
    return true;
}

char *utf8_valid_dup(const char *s)
{
    struct strbuf sb;
    sb_init(&sb);
    sb_add(&sb, "");
    while (*s) {
        size_t n = 0;
        while (s[n]) {          /* the valid run from here */
            size_t k = utf8_char_len(s + n);
            if (!k)
                break;
            n += k;
        }
        sb_addn(&sb, s, n);
        s += n;
        if (*s) {
            sb_add(&sb, "\xEF\xBF\xBD");        /* U+FFFD for one bad byte */
            s++;
        }
    }
    return sb_steal(&sb);
}

size_t utf8_cut(const char *s, size_t len, size_t max)
{
    if (len <= max)
        return len;
    /* a character straddles max when one of the 3 bytes before it leads a
     * well-formed character that ends past it */
    for (size_t back = 1; back <= 3 && back <= max; back++) {
        unsigned char c = (unsigned char)s[max - back];
        if (c < 0x80)
            break;
        if (c >= 0xC0) {
            size_t n = utf8_char_len(s + max - back);
            return n > back ? max - back : max;
        }
    }
    return max;
}

json_t *json_string_from_outside(const char *s)
{
    if (!s)
        return json_null();
    json_t *j;
    if (utf8_valid(s)) {
        j = json_string(s);
    } else {
        char *v = utf8_valid_dup(s);
        j = json_string(v);
        free(v);
    }
    if (!j)
        die("out of memory (a JSON string)");
    return j;
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

bool write_all(int fd, const void *buf, size_t n)
{
    const char *p = buf;
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w == 0)
            errno = ENOSPC;
        if (w <= 0)
            return false;
        p += w;
        n -= (size_t)w;
    }
    return true;
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
