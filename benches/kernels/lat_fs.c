/* lat_fs.c - lmbench's lat_fs: file creation and deletion.
 *
 * For each file size (0, 1, 4, 10 KiB) lmbench times two loops with its
 * benchmp harness: creating n files (creat(), write the size, close())
 * and deleting n files (unlink()), in a fresh directory per interval with
 * at most 100 entries per directory; naming, directories and the files to
 * delete are prepared outside the timed part. It prints
 *
 *     <size>k <TAB> n <TAB> creations/s <TAB> deletions/s
 *
 * where n is the iteration count of the median creation interval: the
 * number of files its calibration settled on so that one interval lasts
 * about `enough` (1.1 x enough / time per file). That count is the guide's
 * lat_fs-<size> "num_files" (checked against lmbench 3 built here: the
 * second column equals 1.07-1.1 x ENOUGH x creations/s / 10^6 for ENOUGH =
 * 5000 and 50000). It is a count, not a rate: it scales with ENOUGH and with
 * the file system's speed. TI's numbers (259 files of 0k on AM62x, about
 * 49000 creations/s) fit ENOUGH = 5000 us, the value lmbench's
 * compute_enough() picks on a quiet board, so this kernel always uses
 * 5 ms intervals (quick or not) for lat_fs.
 *
 * Metrics: lat_fs-<size> (num_files) = the count of each recorded
 * creation interval (summary: median of the counts; lmbench prints the
 * count of the interval with the median rate, which is the same or a
 * neighbour, as the counts only change when calibration does); extras lat_fs-<size>-creates and
 * lat_fs-<size>-deletes (files/s, summary: median, lmbench's third and
 * fourth columns). The files live in a private directory under $TMPDIR
 * (or /tmp), emptied after every interval and removed at the end; after a
 * SIGKILL that directory (evmbench-lat_fs-XXXXXX) can remain. */
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

#define FS_PER_DIR  100                 /* lmbench's -n default */
#define FS_CHUNK    (128u * 1024u)      /* lmbench's mkfile() buffer */
#define FS_NSIZES   4

static const size_t fs_sizes[FS_NSIZES] = { 0, 1024, 4096, 10 * 1024 };

#define FS_NUM(id_)  { .id = id_, .unit = "num_files", .summary = SUMMARY_MEDIAN }
#define FS_RATE(id_) { .id = id_, .unit = "files/s", .summary = SUMMARY_MEDIAN }
static const struct kernel_metric fs_metrics[3 * FS_NSIZES] = {
    FS_NUM("lat_fs-0k"), FS_NUM("lat_fs-1k"), FS_NUM("lat_fs-4k"), FS_NUM("lat_fs-10k"),
    FS_RATE("lat_fs-0k-creates"), FS_RATE("lat_fs-1k-creates"),
    FS_RATE("lat_fs-4k-creates"), FS_RATE("lat_fs-10k-creates"),
    FS_RATE("lat_fs-0k-deletes"), FS_RATE("lat_fs-1k-deletes"),
    FS_RATE("lat_fs-4k-deletes"), FS_RATE("lat_fs-10k-deletes"),
};

struct fs {
    const char *base;       /* private directory */
    size_t size;
    unsigned serial;        /* one fresh top directory per interval */
    char *top;
    char **names;           /* n file paths */
    char **dirs;            /* directories, parents first */
    size_t n, ndirs;
    struct report *r;
    int idx;                /* size index */
    const struct kernel_params *p;  /* which rows are reported (p->only) */
};

/* Reports metric m of lat_fs when p->only wants it. */
static void fs_report(const struct fs *f, int m, double v)
{
    if (kernel_wants(f->p, fs_metrics[m].id))
        report_sample(f->r, fs_metrics[m].id, v);
}

static char fs_buf[FS_CHUNK];

static int fs_err(char *err, size_t len, const char *what, const char *path)
{
    snprintf(err, len, "%s %s: %s", what, path, strerror(errno));
    return -1;
}

/* Frees the names; removes the directories (deepest first). */
static void fs_cleanup_names(struct fs *f)
{
    for (size_t i = 0; i < f->n; i++)
        free(f->names[i]);
    free(f->names);
    for (size_t i = f->ndirs; i-- > 0;) {
        rmdir(f->dirs[i]);
        free(f->dirs[i]);
    }
    free(f->dirs);
    if (f->top) {
        rmdir(f->top);
        free(f->top);
    }
    f->names = f->dirs = NULL;
    f->top = NULL;
    f->n = f->ndirs = 0;
}

/* Names n files under a new top directory, 100 per directory: file k is
 * top/<digits of k/100 in base 100>/<k mod 100>. Makes the directories. */
static int fs_setup_names(void *ctx, uint64_t n, char *err, size_t len)
{
    struct fs *f = ctx;
    int depth = 0;
    for (uint64_t cap = FS_PER_DIR; cap < n; cap *= FS_PER_DIR)
        depth++;
    f->top = xasprintf("%s/%u", f->base, f->serial++);
    if (mkdir(f->top, 0700) != 0) {
        fs_err(err, len, "mkdir", f->top);
        free(f->top);
        f->top = NULL;
        return -1;
    }
    f->names = xcalloc(n, sizeof *f->names);
    f->n = n;
    size_t cap = 0;
    for (uint64_t k = 0; k < n; k++) {
        char path[4096];
        int pos = snprintf(path, sizeof path, "%s", f->top);
        uint64_t leaf = k / FS_PER_DIR;
        for (int d = depth; d > 0; d--) {
            uint64_t div = 1;
            for (int e = 1; e < d; e++)
                div *= FS_PER_DIR;
            pos += snprintf(path + pos, sizeof path - (size_t)pos, "/%llu",
                            (unsigned long long)(leaf / div % FS_PER_DIR));
            /* a new directory when this is its first file */
            if (k % (div * FS_PER_DIR) == 0) {
                if (mkdir(path, 0700) != 0)
                    return fs_err(err, len, "mkdir", path);
                xgrow(&f->dirs, &cap, f->ndirs + 1, sizeof *f->dirs);
                f->dirs[f->ndirs++] = xstrdup(path);
            }
        }
        snprintf(path + pos, sizeof path - (size_t)pos, "/%llu",
                 (unsigned long long)(k % FS_PER_DIR));
        f->names[k] = xstrdup(path);
    }
    return 0;
}

static int fs_mkfile(const char *name, size_t size, char *err, size_t len)
{
    int fd = creat(name, 0666);
    if (fd < 0)
        return fs_err(err, len, "creat", name);
    while (size > 0) {
        size_t chunk = size > FS_CHUNK ? FS_CHUNK : size;
        if (write(fd, fs_buf, chunk) != (ssize_t)chunk) {
            close(fd);
            return fs_err(err, len, "write", name);
        }
        size -= chunk;
    }
    close(fd);
    return 0;
}

/* Timed: create the files, last name first, as lmbench. */
static int fs_create(void *ctx, uint64_t n, char *err, size_t len)
{
    struct fs *f = ctx;
    while (n-- > 0)
        if (fs_mkfile(f->names[n], f->size, err, len) < 0)
            return -1;
    return 0;
}

/* Timed: delete them. */
static int fs_delete(void *ctx, uint64_t n, char *err, size_t len)
{
    struct fs *f = ctx;
    while (n-- > 0)
        if (unlink(f->names[n]) != 0)
            return fs_err(err, len, "unlink", f->names[n]);
    return 0;
}

/* After creating: remove files (some may be missing after an error). */
static int fs_after_create(void *ctx, uint64_t n, char *err, size_t len)
{
    (void)err;
    (void)len;
    struct fs *f = ctx;
    for (uint64_t i = 0; i < n && i < f->n; i++)
        unlink(f->names[i]);
    fs_cleanup_names(f);
    return 0;
}

static int fs_before_delete(void *ctx, uint64_t n, char *err, size_t len)
{
    if (fs_setup_names(ctx, n, err, len) < 0 || fs_create(ctx, n, err, len) < 0) {
        fs_after_create(ctx, n, err, len);
        return -1;
    }
    return 0;
}

static int fs_after_delete(void *ctx, uint64_t n, char *err, size_t len)
{
    return fs_after_create(ctx, n, err, len);   /* leftovers after an error */
}

static void fs_create_sample(void *ctx, const struct kb_interval *iv)
{
    struct fs *f = ctx;
    fs_report(f, f->idx, (double)iv->n);
    fs_report(f, FS_NSIZES + f->idx, iv->secs > 0 ? iv->n / iv->secs : 0);
}

static void fs_delete_sample(void *ctx, const struct kb_interval *iv)
{
    struct fs *f = ctx;
    fs_report(f, 2 * FS_NSIZES + f->idx, iv->secs > 0 ? iv->n / iv->secs : 0);
}

/* id when p->only wants it, else NULL (for kb_fail_ids). */
static const char *fs_want_id(const struct kernel_params *p, int m)
{
    return kernel_wants(p, fs_metrics[m].id) ? fs_metrics[m].id : NULL;
}

static int fs_run(const struct kernel_params *p, struct report *r)
{
    struct kb_opts o;
    kb_opts_for(&o, p, KB_BUDGET_OS, 0);  /* 5 ms intervals, quick or not (see above) */
    char err[512] = "";
    int ok = 0;
    char *base = kb_tmpdir("lat_fs", err, sizeof err);
    if (!base) {
        const char *ids[3 * FS_NSIZES];
        for (int i = 0; i < 3 * FS_NSIZES; i++)
            ids[i] = fs_want_id(p, i);
        kb_fail_ids(r, ids, ARRAY_SIZE(ids), "%s", err);
        return -1;
    }
    memset(fs_buf, 'a', sizeof fs_buf);

    for (int i = 0; i < FS_NSIZES; i++) {
        struct fs f = { .base = base, .size = fs_sizes[i], .r = r, .idx = i, .p = p };
        struct kb_result res;
        struct kb_opts oc = o, od = o;
        /* create gives two rows, delete one: each timed when wanted */
        const char *cids[] = { fs_want_id(p, i), fs_want_id(p, FS_NSIZES + i) };
        const char *did = fs_want_id(p, 2 * FS_NSIZES + i);

        report_progress(r, 2 * i, 2 * FS_NSIZES);
        if (cids[0] || cids[1]) {
            oc.before = fs_setup_names;
            oc.after = fs_after_create;
            oc.on_interval = fs_create_sample;
            oc.cb_ctx = &f;
            if (kb_measure(fs_create, &f, &oc, &res, err, sizeof err) < 0) {
                kb_fail_ids(r, cids, 2, "%s", err);
            } else {
                struct kb_interval m = kb_median(&res);
                report_note(r, "lat_fs %zuk: %llu files per interval, %.0f creations/s",
                            f.size >> 10, (unsigned long long)m.n, m.secs > 0 ? m.n / m.secs : 0);
                kb_result_free(&res);
                ok++;
            }
        }
        report_progress(r, 2 * i + 1, 2 * FS_NSIZES);
        if (did) {
            od.before = fs_before_delete;
            od.after = fs_after_delete;
            od.on_interval = fs_delete_sample;
            od.cb_ctx = &f;
            if (kb_measure(fs_delete, &f, &od, &res, err, sizeof err) < 0) {
                report_fail(r, did, "%s", err);
            } else {
                kb_result_free(&res);
                ok++;
            }
        }
        fs_cleanup_names(&f);
    }
    report_progress(r, 2 * FS_NSIZES, 2 * FS_NSIZES);
    kb_rmtree(base);
    free(base);
    return ok ? 0 : -1;
}

const struct kernel kernel_lat_fs = {
    .name = "lat_fs",
    .section = "lmbench",
    .description = "lmbench lat_fs: files created per 5 ms interval (num_files), "
                   "creations/s and deletions/s for 0, 1, 4, 10 KiB files",
    .metrics = fs_metrics,
    .nmetrics = 3 * FS_NSIZES,
    /* 8 measurements of 11 x 5 ms plus the untimed set-up: 1-2 s on
     * tmpfs; up to 8 x 0.8 s (quick) on a slow disk. */
    .budget_quick_s = 6.0,
    .budget_full_s = 8.0,
    .run = fs_run,
};
