/* lat_vm.c - lmbench's lat_pagefault and lat_mmap on a file.
 *
 *   lat_pagefault  microseconds per page fault on a file mapping: lmbench
 *                  maps the file read-only MAP_SHARED, reads one word of
 *                  every page in a random order, unmaps and maps it again;
 *                  the cost of the unmap + map alone (measured first) is
 *                  subtracted, median from median as lmbench does, and the
 *                  rest divided by the page count ("Pagefaults on FILE"):
 *                  one value (kb_report_net), which fails with both
 *                  figures when it is not above zero
 *   lat_mmap-1m    microseconds to mmap() 1 MiB of the file read-write
 *                  MAP_SHARED, store to one byte every 16 KiB of its first
 *                  tenth, and munmap() it (lat_mmap 1m FILE)
 *
 * The file is 16 MiB (as lmbench's own runs here use) in a private
 * directory under $TMPDIR (or /tmp); it is opened, then unlinked and the
 * directory removed before anything is timed, so nothing remains on disk
 * even if the worker is killed. Timing: kb_measure() (lmbench's benchmp,
 * 5 ms intervals, 11 recorded), summary the median. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "kernel/kernel.h"
#include "benches/kernels/kernel_util.h"
#include "common/util.h"

#define VM_FILE_SIZE    (16u << 20)
#define VM_MMAP_SIZE    (1u << 20)      /* lat_mmap 1m */
#define VM_MMAP_STRIDE  (16u << 10)     /* lmbench PSIZE */
#define VM_MMAP_PART    10              /* lmbench N: first tenth */

enum { VM_PAGEFAULT, VM_MMAP, VM_COUNT };

static const struct kernel_metric vm_metrics[VM_COUNT] = {
    [VM_PAGEFAULT] = { .id = "lat_pagefault", .unit = "us", .summary = SUMMARY_MEDIAN },
    [VM_MMAP]      = { .id = "lat_mmap-1m",   .unit = "us", .summary = SUMMARY_MEDIAN },
};

struct vm {
    int fd;
    size_t size, pagesize, npages;
    size_t *pages;          /* page offsets in random order */
    char *where;            /* current read-only mapping, or NULL */
};

static int vm_err(char *err, size_t len, const char *what)
{
    snprintf(err, len, "%s: %s", what, strerror(errno));
    return -1;
}

/* Creates, fills and opens the file, then unlinks it: returns the fd. */
static int vm_make_file(size_t size, char *err, size_t len)
{
    char *dir = kb_tmpdir("lat_vm", err, len);
    if (!dir)
        return -1;
    char *path = path_join(dir, "file16M");
    int fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0600);
    if (fd < 0)
        vm_err(err, len, "cannot create the test file");
    unlink(path);
    rmdir(dir);
    free(path);
    free(dir);
    if (fd < 0)
        return -1;
    static char chunk[64 * 1024];
    for (size_t i = 0; i < sizeof chunk; i++)
        chunk[i] = (char)(i * 131 + 7);
    for (size_t done = 0; done < size;) {
        ssize_t w = write(fd, chunk, sizeof chunk);
        if (w <= 0) {
            snprintf(err, len, "cannot write the %zu MiB test file: %s", size >> 20,
                     w < 0 ? strerror(errno) : "no space");
            close(fd);
            return -1;
        }
        done += (size_t)w;
    }
    return fd;
}

static int vm_map(struct vm *v, char *err, size_t len)
{
    v->where = mmap(NULL, v->size, PROT_READ, MAP_SHARED, v->fd, 0);
    if (v->where == MAP_FAILED) {
        v->where = NULL;
        return vm_err(err, len, "mmap");
    }
    if (msync(v->where, v->size, MS_INVALIDATE) != 0)
        return vm_err(err, len, "msync");
    return 0;
}

static int vm_remap(struct vm *v, char *err, size_t len)
{
    munmap(v->where, v->size);
    v->where = NULL;
    return vm_map(v, err, len);
}

static int do_remap(void *ctx, uint64_t n, char *err, size_t len)
{
    struct vm *v = ctx;
    while (n-- > 0)
        if (vm_remap(v, err, len) < 0)
            return -1;
    return 0;
}

static int do_faults(void *ctx, uint64_t n, char *err, size_t len)
{
    struct vm *v = ctx;
    long sum = 0;
    while (n-- > 0) {
        for (size_t i = 0; i < v->npages; i++)
            sum += *(volatile char *)(v->where + v->pages[i]);
        if (vm_remap(v, err, len) < 0)
            return -1;
    }
    kb_use((uintptr_t)sum);
    return 0;
}

static int do_mmap(void *ctx, uint64_t n, char *err, size_t len)
{
    struct vm *v = ctx;
    char c = (char)(VM_MMAP_SIZE & 0xff);
    while (n-- > 0) {
        char *w = mmap(NULL, VM_MMAP_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, v->fd, 0);
        if (w == MAP_FAILED)
            return vm_err(err, len, "mmap");
        for (char *p = w; p < w + VM_MMAP_SIZE / VM_MMAP_PART; p += VM_MMAP_STRIDE)
            *p = c;
        munmap(w, VM_MMAP_SIZE);
    }
    return 0;
}

static int vm_pagefault(struct vm *v, const struct kb_opts *o, struct report *r)
{
    char err[256] = "";
    struct kb_result res;
    v->npages = v->size / v->pagesize;
    v->pages = malloc(v->npages * sizeof *v->pages);
    if (!v->pages) {
        report_fail(r, vm_metrics[VM_PAGEFAULT].id, "cannot allocate the page list");
        return -1;
    }
    /* lmbench's permutation(): every page once, in a random order. */
    for (size_t i = 0; i < v->npages; i++)
        v->pages[i] = i * v->pagesize;
    unsigned seed = (unsigned)getpid();
    for (size_t i = v->npages - 1; i > 0; i--) {
        size_t j = (size_t)rand_r(&seed) % (i + 1);
        size_t t = v->pages[i];
        v->pages[i] = v->pages[j];
        v->pages[j] = t;
    }
    int rc = -1;
    bool measured = false;
    if (vm_map(v, err, sizeof err) < 0 ||
        kb_measure(do_remap, v, o, &res, err, sizeof err) < 0)
        goto out;
    /* per page, in us: the share of one unmap + map, and the faults with it */
    struct kb_interval m = kb_median(&res);
    double remap_us = kb_per_op(&m) * 1e6 / (double)v->npages;
    kb_result_free(&res);
    if (kb_measure(do_faults, v, o, &res, err, sizeof err) < 0)
        goto out;
    m = kb_median(&res);
    double gross_us = kb_per_op(&m) * 1e6 / (double)v->npages;
    kb_result_free(&res);
    const char *id = vm_metrics[VM_PAGEFAULT].id;
    measured = true;
    rc = kb_report_net(r, &id, 1, "us", gross_us, remap_us);   /* fails it itself */
out:
    if (!measured)
        report_fail(r, vm_metrics[VM_PAGEFAULT].id, "%s", err);
    if (v->where)
        munmap(v->where, v->size);
    v->where = NULL;
    free(v->pages);
    v->pages = NULL;
    return rc;
}

static int vm_run(const struct kernel_params *p, struct report *r)
{
    struct kb_opts o;
    kb_opts_for(&o, p, KB_BUDGET_OS, 0);
    char err[512] = "";
    long ps = sysconf(_SC_PAGESIZE);
    struct vm v = { .fd = -1, .size = VM_FILE_SIZE, .pagesize = ps > 0 ? (size_t)ps : 4096 };
    int ok = 0;

    report_progress(r, 0, 3);
    v.fd = vm_make_file(v.size, err, sizeof err);
    if (v.fd < 0) {
        const char *ids[] = { kernel_wants(p, vm_metrics[0].id) ? vm_metrics[0].id : NULL,
                              kernel_wants(p, vm_metrics[1].id) ? vm_metrics[1].id : NULL };
        kb_fail_ids(r, ids, 2, "%s", err);
        return -1;
    }
    report_progress(r, 1, 3);
    if (kernel_wants(p, vm_metrics[VM_PAGEFAULT].id) && vm_pagefault(&v, &o, r) == 0)
        ok++;
    report_progress(r, 2, 3);
    struct kb_metric_spec mm = { vm_metrics[VM_MMAP].id, NULL, KB_TIME, 1e6 };
    if (kb_metric_run(r, &mm, do_mmap, &v, &o, NULL) == 0)
        ok++;
    report_progress(r, 3, 3);
    close(v.fd);
    return ok ? 0 : -1;
}

const struct kernel kernel_lat_vm = {
    .name = "lat_vm",
    .section = "lmbench",
    .description = "lmbench lat_pagefault and lat_mmap 1m on a 16 MiB file; "
                   "microseconds",
    .metrics = vm_metrics,
    .nmetrics = VM_COUNT,
    .budget_quick_s = 1.5,
    .budget_full_s = 1.5,
    .run = vm_run,
};
