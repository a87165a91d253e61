/* outfile.c - writing files safely (outfile.h). */
#include "config.h"
#include "common/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/stopsig.h"
#include "common/util.h"

struct outfile {
    FILE *f;
    int fd;
    char *name;         /* as the caller gave it, for messages */
    char *target;       /* what the temporary replaces; NULL: written in place */
    char *tmp;          /* the temporary, NULL when written in place */
    mode_t mode;        /* the target's mode once finished */
    int slot;           /* in `pending`, or -1 */
    int write_errno;    /* why the first write failed, or 0 */
};

/* --- temporaries removed when a signal ends the program --------------------
 * The program is single-threaded (workers are processes), so the only
 * concurrency is a signal handler interrupting the code below: a slot's
 * path is complete before `used` says so. Each slot remembers its process,
 * so a forked worker that dies before it resets its signals (or exits)
 * never removes its parent's temporary. */
#define PENDING_MAX 8
static struct {
    volatile sig_atomic_t used;
    pid_t pid;
    char path[PATH_MAX];
} pending[PENDING_MAX];
static bool atexit_registered;
/* The signals that end a program by default and that a user or a board
 * farm sends (Ctrl-C, kill, a hang-up, Ctrl-\, a reader that went away,
 * SIGUSR1 ...): the stop signals of common/stopsig.h. */

/* Async-signal-safe: getpid and unlink only. */
static void remove_pending(void)
{
    pid_t me = getpid();
    for (size_t i = 0; i < PENDING_MAX; i++)
        if (pending[i].used && pending[i].pid == me)
            unlink(pending[i].path);
}

/* Removes the temporaries, then dies of the same signal as it would have
 * without this handler (so the exit status says which signal it was). */
static void on_fatal_signal(int sig)
{
    remove_pending();
    signal(sig, SIG_DFL);
    raise(sig);         /* blocked until this handler returns, then fatal */
}

/* Our handler for each fatal signal still at its default action; one
 * ignored (a background job's SIGINT) or handled by someone else (the
 * screens) is left alone. Checked for every temporary, since the screens
 * give the default back when they end. atexit covers exit() in the
 * middle of a write. */
static void install_handlers(void)
{
    if (!atexit_registered)
        atexit_registered = atexit(remove_pending) == 0;
    size_t n;
    const int *fatal_signals = stopsig_list(&n);
    for (size_t i = 0; i < n; i++) {
        struct sigaction old, sa;
        if (sigaction(fatal_signals[i], NULL, &old) != 0 || (old.sa_flags & SA_SIGINFO) ||
            old.sa_handler != SIG_DFL)
            continue;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_fatal_signal;
        sigfillset(&sa.sa_mask);
        sigaction(fatal_signals[i], &sa, NULL);
    }
}

static void block_fatal_signals(sigset_t *old)
{
    sigset_t set;
    sigemptyset(&set);
    size_t n;
    const int *fatal_signals = stopsig_list(&n);
    for (size_t i = 0; i < n; i++)
        sigaddset(&set, fatal_signals[i]);
    sigprocmask(SIG_BLOCK, &set, old);
}

/* A free slot for path, or -1 (then only a normal end removes it). */
static int register_pending(const char *path)
{
    if (strlen(path) >= sizeof pending[0].path)
        return -1;
    for (int i = 0; i < PENDING_MAX; i++)
        if (!pending[i].used) {
            pending[i].pid = getpid();
            memcpy(pending[i].path, path, strlen(path) + 1);
            pending[i].used = 1;
            return i;
        }
    return -1;
}

static void unregister_pending(int slot)
{
    if (slot >= 0)
        pending[slot].used = 0;
}

/* --- opening --------------------------------------------------------------- */

/* Adds the message to d, sets errno to e; returns NULL for the callers. */
static void *fail(int e, struct diag *d, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void *fail(int e, struct diag *d, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_addv(d, fmt, ap);
    va_end(ap);
    errno = e;
    return NULL;
}

static struct outfile *new_outfile(const char *name, int fd)
{
    struct outfile *o = xcalloc(1, sizeof *o);
    o->fd = fd;
    o->name = xstrdup(name);
    o->slot = -1;
    return o;
}

static void free_outfile(struct outfile *o)
{
    free(o->name);
    free(o->target);
    free(o->tmp);
    free(o);
}

/* The descriptor a name like /dev/stdout or /dev/fd/3 stands for, or -1. */
static int descriptor_of(const char *path)
{
    if (strcmp(path, "/dev/stdout") == 0)
        return STDOUT_FILENO;
    if (strcmp(path, "/dev/stderr") == 0)
        return STDERR_FILENO;
    const char *n = NULL;
    if (str_starts_with(path, "/dev/fd/"))
        n = path + strlen("/dev/fd/");
    else if (str_starts_with(path, "/proc/self/fd/"))
        n = path + strlen("/proc/self/fd/");
    if (!n || !*n || strlen(n) > 9 || strspn(n, "0123456789") != strlen(n))
        return -1;
    return atoi(n);
}

/* The stream's writes: all of buf, or -1 with the first reason kept (a
 * stdio stream forgets it, and a later flush may not fail again). */
static ssize_t stream_write(void *cookie, const char *buf, size_t n)
{
    struct outfile *o = cookie;
    size_t done = 0;
    while (done < n) {
        ssize_t w = write(o->fd, buf + done, n - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            if (!o->write_errno)
                o->write_errno = w < 0 ? errno : EIO;
            return done ? (ssize_t)done : -1;
        }
        done += (size_t)w;
    }
    return (ssize_t)done;
}

static int stream_close(void *cookie)
{
    struct outfile *o = cookie;
    return close(o->fd);
}

/* Wraps fd in a stream; on failure closes fd and frees o. */
static struct outfile *with_stream(struct outfile *o, struct diag *d)
{
    cookie_io_functions_t io = { .write = stream_write, .close = stream_close };
    o->f = fopencookie(o, "w", io);
    if (o->f)
        return o;
    int e = errno;
    close(o->fd);
    if (o->tmp)
        unlink(o->tmp);
    unregister_pending(o->slot);
    fail(e, d, "%s: %s", o->name, strerror(e));
    free_outfile(o);
    return NULL;
}

/* A descriptor the program already has: written through a copy of it. */
static struct outfile *open_descriptor(const char *path, int fd, struct diag *d)
{
    int copy = fcntl(fd, F_DUPFD_CLOEXEC, 3);
    if (copy < 0)
        return fail(errno, d, "%s: %s", path, strerror(errno));
    return with_stream(new_outfile(path, copy), d);
}

/* A character device or a FIFO: opened as it is, never created or
 * truncated; what was opened must still be one (not swapped meanwhile). */
static struct outfile *open_in_place(const char *path, struct diag *d)
{
    int fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        return fail(errno, d, "%s: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0 || !(S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))) {
        close(fd);
        return fail(EAGAIN, d, "%s: changed while it was opened; not written", path);
    }
    return with_stream(new_outfile(path, fd), d);
}

/* A temporary beside target, to replace it at the end with `mode`. */
static struct outfile *open_temporary(const char *name, char *target, mode_t mode,
                                      struct diag *d)
{
    const char *slash = strrchr(target, '/');
    char *dir = !slash ? xstrdup(".") : slash == target ? xstrdup("/")
              : xstrndup(target, (size_t)(slash - target));
    /* the base name shortened so that the temporary's name stays legal */
    char *tmp = xasprintf("%s/.%.200s.XXXXXX", dir, slash ? slash + 1 : target);
    install_handlers();
    sigset_t old;
    block_fatal_signals(&old);
    int fd = mkostemp(tmp, O_CLOEXEC);
    int e = errno;
    int slot = fd >= 0 ? register_pending(tmp) : -1;
    sigprocmask(SIG_SETMASK, &old, NULL);
    if (fd < 0) {
        fail(e, d, "%s: cannot create a temporary file in %s: %s", name, dir,
             strerror(e));
        free(dir);
        free(tmp);
        free(target);
        return NULL;
    }
    free(dir);
    struct outfile *o = new_outfile(name, fd);
    o->target = target;
    o->tmp = tmp;
    o->mode = mode;
    o->slot = slot;
    return with_stream(o, d);
}

static const char *kind_name(mode_t m)
{
    return S_ISDIR(m) ? "a directory" : S_ISSOCK(m) ? "a socket"
         : S_ISBLK(m) ? "a block device" : "not a regular file";
}

struct outfile *outfile_open(const char *path, struct diag *d)
{
    if (!*path)
        return fail(ENOENT, d, "'': an empty file name");
    int fd = descriptor_of(path);
    if (fd >= 0)
        return open_descriptor(path, fd, d);
    struct stat lst, st;
    if (lstat(path, &lst) != 0) {
        if (errno != ENOENT)
            return fail(errno, d, "%s: %s", path, strerror(errno));
        mode_t mask = umask(0);
        umask(mask);
        return open_temporary(path, xstrdup(path), 0666 & ~mask, d);
    }
    st = lst;
    if (S_ISLNK(lst.st_mode) && stat(path, &st) != 0) {
        int e = errno;
        char to[PATH_MAX];
        ssize_t n = readlink(path, to, sizeof to - 1);
        to[n > 0 ? n : 0] = '\0';
        if (e == ENOENT)
            return fail(e, d, "%s: a symbolic link to nothing (%s); not followed",
                        path, to);
        return fail(e, d, "%s: %s", path, strerror(e));
    }
    if (S_ISREG(st.st_mode)) {
        /* through a link: the file it names is replaced, the link stays */
        char *target = S_ISLNK(lst.st_mode) ? realpath(path, NULL) : xstrdup(path);
        if (!target)
            return fail(errno, d, "%s: %s", path, strerror(errno));
        return open_temporary(path, target, st.st_mode & 0777, d);
    }
    if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))
        return open_in_place(path, d);
    return fail(S_ISDIR(st.st_mode) ? EISDIR : EINVAL, d,
                "%s: is %s; only a regular file, a character device or a FIFO is written",
                path, kind_name(st.st_mode));
}

FILE *outfile_stream(const struct outfile *o)
{
    return o->f;
}

/* --- finishing ------------------------------------------------------------- */

/* The reason a stream lost output, or 0: a failed flush says why; an
 * error seen earlier (the data then gone) is an I/O error. */
static int stream_error(FILE *f)
{
    errno = 0;
    if (fflush(f) != 0)
        return errno ? errno : EIO;
    return ferror(f) ? EIO : 0;
}

int outfile_commit(struct outfile *o, struct diag *d)
{
    const char *what = "", *why = NULL;
    int e = stream_error(o->f);
    if (e && o->write_errno)
        e = o->write_errno;
    if (!e && o->tmp && fchmod(o->fd, o->mode) != 0)
        e = errno;
    /* on the disk before it replaces the old file; a file system that
     * cannot sync (EINVAL) has nothing to wait for */
    if (!e && o->tmp && fsync(o->fd) != 0 && errno != EINVAL)
        e = errno;
    if (fclose(o->f) != 0 && !e)
        e = errno;
    /* a run takes minutes: what is at the target now must still be a file
     * (or a link, replaced itself, or nothing) for the rename */
    struct stat st;
    if (!e && o->tmp && lstat(o->target, &st) == 0 && !S_ISREG(st.st_mode) &&
        !S_ISLNK(st.st_mode)) {
        e = S_ISDIR(st.st_mode) ? EISDIR : EEXIST;
        why = "is no longer a regular file; not replaced";
    }
    if (!e && o->tmp && rename(o->tmp, o->target) != 0) {
        e = errno;
        what = "cannot replace it: ";
    }
    if (e && o->tmp)
        unlink(o->tmp);
    unregister_pending(o->slot);
    if (e)
        fail(e, d, "%s: %s%s", o->name, what, why ? why : strerror(e));
    free_outfile(o);
    errno = e;
    return e ? -1 : 0;
}

void outfile_abort(struct outfile *o)
{
    if (!o)
        return;
    fclose(o->f);
    if (o->tmp)
        unlink(o->tmp);
    unregister_pending(o->slot);
    free_outfile(o);
}

int outfile_write(const char *path, const void *data, size_t len, struct diag *d)
{
    struct outfile *o = outfile_open(path, d);
    if (!o)
        return -1;
    /* a short write leaves the stream's error set: commit reports it */
    if (len)
        fwrite(data, 1, len, o->f);
    return outfile_commit(o, d);
}

int outfile_check_stream(FILE *f, const char *name, struct diag *d)
{
    int e = stream_error(f);
    if (!e)
        return 0;
    fail(e, d, "%s: %s", name, strerror(e));
    return -1;
}
