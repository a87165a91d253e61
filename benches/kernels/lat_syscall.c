/* lat_syscall.c - lmbench's lat_syscall: the cost of simple system calls.
 *
 *   lat_syscall-null    getppid()                  lmbench "Simple syscall"
 *   lat_syscall-read    read() 1 byte of /dev/zero "Simple read"
 *   lat_syscall-write   write() 1 byte to /dev/null "Simple write"
 *   lat_syscall-stat    stat() of a file           "Simple stat"
 *   lat_syscall-fstat   fstat() of that file       "Simple fstat"
 *   lat_syscall-open    open() + close() of it     "Simple open/close"
 *
 * TI's scripts name a file for stat/fstat/open (`lat_syscall open FILE`);
 * here it is a small file in a private directory under $TMPDIR (or /tmp),
 * removed at the end. Each metric is timed by kb_measure() (lmbench's
 * benchmp: intervals of `enough`, 11 recorded), one sample per interval in
 * microseconds per call; the summary is the median, as lmbench prints. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kernel/kernel.h"
#include "benches/kernels/kernel_util.h"
#include "common/util.h"

enum { SC_NULL, SC_READ, SC_WRITE, SC_STAT, SC_FSTAT, SC_OPEN, SC_COUNT };

static const struct kernel_metric sc_metrics[SC_COUNT] = {
    [SC_NULL]  = { .id = "lat_syscall-null", .unit = "us", .summary = SUMMARY_MEDIAN },
    [SC_READ]  = { .id = "lat_syscall-read", .unit = "us", .summary = SUMMARY_MEDIAN },
    [SC_WRITE] = { .id = "lat_syscall-write", .unit = "us", .summary = SUMMARY_MEDIAN },
    [SC_STAT]  = { .id = "lat_syscall-stat", .unit = "us", .summary = SUMMARY_MEDIAN },
    [SC_FSTAT] = { .id = "lat_syscall-fstat", .unit = "us", .summary = SUMMARY_MEDIAN },
    [SC_OPEN]  = { .id = "lat_syscall-open", .unit = "us", .summary = SUMMARY_MEDIAN },
};

struct sc_state {
    int fd;                 /* /dev/zero, /dev/null or the file */
    const char *file;
};

static int sc_fail(char *err, size_t len, const char *what)
{
    snprintf(err, len, "%s: %s", what, strerror(errno));
    return -1;
}

static int do_null(void *ctx, uint64_t n, char *err, size_t len)
{
    (void)ctx;
    (void)err;
    (void)len;
    uintptr_t sum = 0;
    while (n-- > 0)
        sum += (uintptr_t)getppid();
    kb_use(sum);
    return 0;
}

static int do_read(void *ctx, uint64_t n, char *err, size_t len)
{
    struct sc_state *s = ctx;
    char c;
    while (n-- > 0)
        if (read(s->fd, &c, 1) != 1)
            return sc_fail(err, len, "read /dev/zero");
    kb_use((unsigned char)c);
    return 0;
}

static int do_write(void *ctx, uint64_t n, char *err, size_t len)
{
    struct sc_state *s = ctx;
    char c = 0;
    while (n-- > 0)
        if (write(s->fd, &c, 1) != 1)
            return sc_fail(err, len, "write /dev/null");
    return 0;
}

static int do_stat(void *ctx, uint64_t n, char *err, size_t len)
{
    struct sc_state *s = ctx;
    struct stat st;
    while (n-- > 0)
        if (stat(s->file, &st) != 0)
            return sc_fail(err, len, "stat");
    kb_use((uintptr_t)st.st_size);
    return 0;
}

static int do_fstat(void *ctx, uint64_t n, char *err, size_t len)
{
    struct sc_state *s = ctx;
    struct stat st;
    while (n-- > 0)
        if (fstat(s->fd, &st) != 0)
            return sc_fail(err, len, "fstat");
    kb_use((uintptr_t)st.st_size);
    return 0;
}

static int do_open(void *ctx, uint64_t n, char *err, size_t len)
{
    struct sc_state *s = ctx;
    while (n-- > 0) {
        int fd = open(s->file, O_RDONLY);
        if (fd < 0)
            return sc_fail(err, len, "open");
        close(fd);
    }
    return 0;
}

static const kb_fn sc_fns[SC_COUNT] = {
    do_null, do_read, do_write, do_stat, do_fstat, do_open,
};

/* The file stat/fstat/open use: 1 KiB in a private directory. */
static char *sc_make_file(const char *dir, char *err, size_t len)
{
    char *path = path_join(dir, "lat_syscall.file");
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
    char buf[1024];
    memset(buf, 'x', sizeof buf);
    if (fd < 0 || write(fd, buf, sizeof buf) != (ssize_t)sizeof buf) {
        snprintf(err, len, "cannot create %s: %s", path, strerror(errno));
        if (fd >= 0) {
            close(fd);
            unlink(path);
        }
        free(path);
        return NULL;
    }
    close(fd);
    return path;
}

static int sc_run(const struct kernel_params *p, struct report *r)
{
    struct kb_opts o;
    kb_opts_for(&o, p, KB_BUDGET_OS, 0);
    char err[512] = "";
    /* the file only for the wanted rows that use it (p->only) */
    bool file_wanted = kernel_wants(p, sc_metrics[SC_STAT].id) ||
                       kernel_wants(p, sc_metrics[SC_FSTAT].id) ||
                       kernel_wants(p, sc_metrics[SC_OPEN].id);
    char *dir = file_wanted ? kb_tmpdir("lat_syscall", err, sizeof err) : NULL;
    char *file = dir ? sc_make_file(dir, err, sizeof err) : NULL;
    int ok = 0, total = 0, done = 0;
    for (int i = 0; i < SC_COUNT; i++)
        total += kernel_wants(p, sc_metrics[i].id);

    for (int i = 0; i < SC_COUNT; i++) {
        struct kb_metric_spec m = { sc_metrics[i].id, NULL, KB_TIME, 1e6 };
        struct sc_state s = { .fd = -1, .file = file };
        bool needs_file = i == SC_STAT || i == SC_FSTAT || i == SC_OPEN;

        if (!kernel_wants(p, m.id))
            continue;
        report_progress(r, done++, total);
        if (needs_file && !file) {
            report_fail(r, m.id, "%s", err);
            continue;
        }
        if (i == SC_READ && (s.fd = open("/dev/zero", O_RDONLY)) < 0) {
            report_fail(r, m.id, "cannot open /dev/zero: %s", strerror(errno));
            continue;
        }
        if (i == SC_WRITE && (s.fd = open("/dev/null", O_WRONLY)) < 0) {
            report_fail(r, m.id, "cannot open /dev/null: %s", strerror(errno));
            continue;
        }
        if (i == SC_FSTAT && (s.fd = open(file, O_RDONLY)) < 0) {
            report_fail(r, m.id, "cannot open %s: %s", file, strerror(errno));
            continue;
        }
        if (kb_metric_run(r, &m, sc_fns[i], &s, &o, NULL) == 0)
            ok++;
        if (s.fd >= 0)
            close(s.fd);
    }
    report_progress(r, total, total);
    if (file) {
        unlink(file);
        free(file);
    }
    if (dir) {
        kb_rmtree(dir);
        free(dir);
    }
    return ok ? 0 : -1;
}

const struct kernel kernel_lat_syscall = {
    .name = "lat_syscall",
    .section = "lmbench",
    .description = "lmbench lat_syscall: null (getppid), read, write, stat, fstat, "
                   "open/close latency in microseconds",
    .metrics = sc_metrics,
    .nmetrics = SC_COUNT,
    /* 6 x (calibration + 11 x 5 ms). */
    .budget_quick_s = 1.5,
    .budget_full_s = 1.5,
    .run = sc_run,
};
