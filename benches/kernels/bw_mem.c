/* bw_mem.c - memory and file-read bandwidth, the way lmbench counts them.
 *
 * Three kernels for the guide's "LMBench" section, written from lmbench 3's
 * documentation (bw_mem(8), bw_file_rd(8), bw_mmap_rd(8)) and its observed
 * behaviour:
 *
 *   bw_mem      bw_mem-<op>-<N>mb, op in rd wr rdwr cp frd fwr fcp bzero
 *               bcopy, N in 1 2 4 8 16: `bw_mem <N>M <op>`.
 *   bw_file_rd  bw_file_rd-io-1mb (io_only), bw_file_rd-o2c-1mb
 *               (open2close): read() 1 MB of a 16 MB file in 64 KB chunks
 *               and sum every word, without / with open and close.
 *   bw_mmap_rd  bw_mmap_rd-mo-1mb (mmap_only), bw_mmap_rd-o2c-1mb: sum
 *               every word of a 1 MB mapping of that file, the mapping
 *               made once / made and removed (with open, close) each time.
 *
 * Counting: the size suffix is lmbench's size argument, N x 2^20 bytes;
 * the rate is that many bytes per pass in MB/s with 1 MB = 10^6 bytes
 * (16mb prints as 16.78 MB in lmbench). A copy counts the bytes once.
 * Words are 4-byte ints, buffers are walked in 512-byte chunks:
 *   rd    reads one word every 16 bytes (4 per 64-byte line), summed
 *   wr    writes one word every 16 bytes
 *   rdwr  reads then writes one word every 16 bytes
 *   cp    copies one word every 16 bytes to a second buffer
 *   frd / fwr / fcp   the same over every word ("fast": all words)
 *   bzero memset(), bcopy memcpy() of the whole buffer
 *
 * Timing (kutil.h): 11 intervals of at least 50 ms (lmbench's TRIES and
 * TI's ENOUGH=50000), the pass count calibrated first; each interval gives
 * one sample. lmbench reports the median interval, so SUMMARY_MEDIAN.
 * Buffers are page-aligned and written once before anything is timed.
 *
 * p->size (bytes), when set, replaces every row's size (a note says so):
 * for small boards and tests. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kernel.h"
#include "kutil.h"
#include "util.h"

#define BW_FULL_INTERVAL_S  0.05        /* lmbench ENOUGH as TI runs it */
#define BW_CHUNK_WORDS      128         /* 512-byte chunks, as lmbench */
#define BW_MIN_BYTES        512u

enum bw_op { BW_RD, BW_WR, BW_RDWR, BW_CP, BW_FRD, BW_FWR, BW_FCP, BW_BZERO,
             BW_BCOPY, BW_NOPS };
enum { BW_NSIZES = 5 };

static const unsigned bw_sizes_mb[BW_NSIZES] = { 1, 2, 4, 8, 16 };

#define BW_ROWS(op) \
    { .id = "bw_mem-" op "-1mb", .unit = "mb/s", .summary = SUMMARY_MEDIAN }, \
    { .id = "bw_mem-" op "-2mb", .unit = "mb/s", .summary = SUMMARY_MEDIAN }, \
    { .id = "bw_mem-" op "-4mb", .unit = "mb/s", .summary = SUMMARY_MEDIAN }, \
    { .id = "bw_mem-" op "-8mb", .unit = "mb/s", .summary = SUMMARY_MEDIAN }, \
    { .id = "bw_mem-" op "-16mb", .unit = "mb/s", .summary = SUMMARY_MEDIAN }

/* Index = op * BW_NSIZES + size index. */
static const struct kernel_metric bw_mem_metrics[BW_NOPS * BW_NSIZES] = {
    BW_ROWS("rd"), BW_ROWS("wr"), BW_ROWS("rdwr"), BW_ROWS("cp"),
    BW_ROWS("frd"), BW_ROWS("fwr"), BW_ROWS("fcp"), BW_ROWS("bzero"),
    BW_ROWS("bcopy"),
};

struct bw_ctx {
    enum bw_op op;
    unsigned *src, *dst;
    size_t bytes;               /* a multiple of 512 */
};

/* One 512-byte chunk is one straight-line statement list, lmbench's
 * shape: the compiler schedules the 32 or 128 accesses freely (a read
 * chunk is one expression, which it may reassociate) but sees no loop to
 * turn into a memset() or memcpy() call. */
#define EVERY4(M, b)   M(b) M(b + 4) M(b + 8) M(b + 12)
#define CHUNK_SPARSE(M) EVERY4(M, 0) EVERY4(M, 16) EVERY4(M, 32) EVERY4(M, 48) \
                        EVERY4(M, 64) EVERY4(M, 80) EVERY4(M, 96) EVERY4(M, 112)
#define EVERY1(M, b)   M(b) M(b + 1) M(b + 2) M(b + 3)
#define DENSE16(M, b)  EVERY1(M, b) EVERY1(M, b + 4) EVERY1(M, b + 8) EVERY1(M, b + 12)
#define CHUNK_DENSE(M)  DENSE16(M, 0) DENSE16(M, 16) DENSE16(M, 32) DENSE16(M, 48) \
                        DENSE16(M, 64) DENSE16(M, 80) DENSE16(M, 96) DENSE16(M, 112)

#define LOAD(i)     p[i] +
#define STORE(i)    p[i] = 1;
#define LOADSTORE(i) sum += p[i]; p[i] = 1;
#define COPY(i)     d[i] = p[i];

static uint64_t bw_pass(const struct bw_ctx *c)
{
    unsigned *p = c->src, *d = c->dst;
    unsigned *end = c->src + c->bytes / sizeof(unsigned);
    unsigned sum = 0;

    switch (c->op) {
    case BW_RD:
        for (; p < end; p += BW_CHUNK_WORDS)
            sum += CHUNK_SPARSE(LOAD) 0;
        break;
    case BW_WR:
        for (; p < end; p += BW_CHUNK_WORDS) {
            CHUNK_SPARSE(STORE)
        }
        break;
    case BW_RDWR:
        for (; p < end; p += BW_CHUNK_WORDS) {
            CHUNK_SPARSE(LOADSTORE)
        }
        break;
    case BW_CP:
        for (; p < end; p += BW_CHUNK_WORDS, d += BW_CHUNK_WORDS) {
            CHUNK_SPARSE(COPY)
        }
        sum = c->dst[0];
        break;
    case BW_FRD:
        for (; p < end; p += BW_CHUNK_WORDS)
            sum += CHUNK_DENSE(LOAD) 0;
        break;
    case BW_FWR:
        for (; p < end; p += BW_CHUNK_WORDS) {
            CHUNK_DENSE(STORE)
        }
        break;
    case BW_FCP:
        for (; p < end; p += BW_CHUNK_WORDS, d += BW_CHUNK_WORDS) {
            CHUNK_DENSE(COPY)
        }
        sum = c->dst[0];
        break;
    case BW_BZERO:
        memset(c->src, 0, c->bytes);
        break;
    case BW_BCOPY:
        memcpy(c->dst, c->src, c->bytes);
        sum = c->dst[0];
        break;
    case BW_NOPS:
        break;
    }
    return sum + c->src[0];
}

static uint64_t bw_body(void *ctx, uint64_t n)
{
    uint64_t v = 0;
    for (uint64_t i = 0; i < n; i++)
        v += bw_pass(ctx);
    return v;
}

struct bw_sample_ctx {
    struct report *r;
    const char *metric;
    double mb;                  /* 10^6-byte units per pass */
};

static void bw_sample(void *ctx, double secs)
{
    struct bw_sample_ctx *s = ctx;
    report_sample(s->r, s->metric, s->mb / (secs > 0 ? secs : 1e-12));
}

static void bw_fail_size(struct report *r, size_t si, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void bw_fail_size(struct report *r, size_t si, const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    for (size_t op = 0; op < BW_NOPS; op++)
        report_fail(r, bw_mem_metrics[op * BW_NSIZES + si].id, "%s", msg);
}

static int bw_mem_run(const struct kernel_params *p, struct report *r)
{
    size_t override = 0;
    if (p->size) {
        override = p->size / BW_MIN_BYTES * BW_MIN_BYTES;
        if (override < BW_MIN_BYTES)
            override = BW_MIN_BYTES;
        report_note(r, "every row measured over %zu bytes (--size) instead of "
                    "its own size: not comparable with the guide", override);
    }
    struct kutil_plan plan;
    kutil_plan_init(&plan, p, BW_FULL_INTERVAL_S);
    uint64_t avail = kutil_mem_available();
    int ok = 0;
    size_t done = 0, total = BW_NOPS * BW_NSIZES;

    for (size_t si = 0; si < BW_NSIZES; si++) {
        size_t bytes = override ? override : (size_t)bw_sizes_mb[si] << 20;
        /* Two buffers: the second for cp, fcp and bcopy. */
        if (bytes > SIZE_MAX / 2 || (avail && 2.0 * (double)bytes > (double)avail)) {
            bw_fail_size(r, si, "2 buffers of %.1f MiB do not fit in the %.1f MiB "
                         "available", kutil_mib((double)bytes), kutil_mib((double)avail));
            done += BW_NOPS;
            report_progress(r, (double)done, (double)total);
            continue;
        }
        struct bw_ctx c = { .bytes = bytes };
        c.src = kutil_alloc_touched(bytes);
        c.dst = c.src ? kutil_alloc_touched(bytes) : NULL;
        if (!c.src || !c.dst) {
            bw_fail_size(r, si, "cannot allocate 2 x %.1f MiB: %s",
                         kutil_mib((double)bytes), strerror(errno));
            free(c.src);
            done += BW_NOPS;
            report_progress(r, (double)done, (double)total);
            continue;
        }
        for (size_t op = 0; op < BW_NOPS; op++) {
            c.op = (enum bw_op)op;
            struct bw_sample_ctx s = {
                .r = r, .metric = bw_mem_metrics[op * BW_NSIZES + si].id,
                .mb = (double)bytes / 1e6,
            };
            if (kutil_measure(bw_body, &c, &plan, bw_sample, &s) > 0)
                ok++;
            report_progress(r, (double)++done, (double)total);
        }
        free(c.src);
        free(c.dst);
    }
    return ok ? 0 : -1;
}

const struct kernel kernel_bw_mem = {
    .name = "bw_mem",
    .section = "lmbench",
    .description = "lmbench bw_mem: memory read/write/copy bandwidth, 1-16 MB "
                   "(size = bytes, replaces every row's size)",
    .metrics = bw_mem_metrics,
    .nmetrics = ARRAY_SIZE(bw_mem_metrics),
    /* 45 rows: ~0.15 s each when quick; 11 x 50 ms + calibration full. */
    .budget_quick_s = 8.0,
    .budget_full_s = 35.0,
    .run = bw_mem_run,
};

/* --- bw_file_rd, bw_mmap_rd ------------------------------------------- */

#define FILE_BYTES      (16u << 20)     /* the file TI's scripts read */
#define FILE_READ_BYTES (1u << 20)      /* the rows' 1mb */
#define FILE_XFER       (64u << 10)     /* lmbench's XFERSIZE */

enum { FR_IO, FR_O2C, FR_NMETRICS };
enum { MR_MO, MR_O2C, MR_NMETRICS };

static const struct kernel_metric bw_file_rd_metrics[FR_NMETRICS] = {
    [FR_IO]  = { .id = "bw_file_rd-io-1mb", .unit = "mb/s", .summary = SUMMARY_MEDIAN },
    [FR_O2C] = { .id = "bw_file_rd-o2c-1mb", .unit = "mb/s", .summary = SUMMARY_MEDIAN },
};
static const struct kernel_metric bw_mmap_rd_metrics[MR_NMETRICS] = {
    [MR_MO]  = { .id = "bw_mmap_rd-mo-1mb", .unit = "mb/s", .summary = SUMMARY_MEDIAN },
    [MR_O2C] = { .id = "bw_mmap_rd-o2c-1mb", .unit = "mb/s", .summary = SUMMARY_MEDIAN },
};

/* The test file. It is unlinked as soon as it is written and lives on
 * only as the open descriptor `fd`, so nothing is left behind whatever
 * ends the worker (the runner SIGKILLs the process group on cancel).
 * "open" is timed by re-opening it through /proc/self/fd/<fd>, a path
 * lookup and open like lmbench's open(filename). */
struct file_ctx {
    int fd;
    char path[64];              /* /proc/self/fd/<fd> */
    size_t bytes;               /* read per pass */
    long *buf;                  /* FILE_XFER bytes, for read() */
    const void *map;            /* mmap_only mapping */
    bool failed;
    char why[160];
};

/* Sums every long word of [p, p + bytes): lmbench's bread(). */
static uint64_t sum_words(const void *p, size_t bytes)
{
    const long *w = p;
    size_t n = bytes / sizeof(long);
    unsigned long sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += (unsigned long)w[i];
    return sum;
}

static void file_error(struct file_ctx *c, const char *what)
{
    if (!c->failed)
        snprintf(c->why, sizeof c->why, "%s: %s", what, strerror(errno));
    c->failed = true;
}

/* read() c->bytes from fd in FILE_XFER chunks, summing each chunk. */
static uint64_t read_pass(struct file_ctx *c, int fd)
{
    uint64_t sum = 0;
    size_t left = c->bytes;
    while (left > 0) {
        size_t want = left < FILE_XFER ? left : FILE_XFER;
        ssize_t got = read(fd, c->buf, want);
        if (got <= 0) {
            if (got < 0)
                file_error(c, "read");
            else {
                errno = EIO;
                file_error(c, "short file");
            }
            break;
        }
        sum += sum_words(c->buf, (size_t)got);
        left -= (size_t)got;
    }
    return sum;
}

static uint64_t body_io_only(void *ctx, uint64_t n)
{
    struct file_ctx *c = ctx;
    uint64_t v = 0;
    for (uint64_t i = 0; i < n && !c->failed; i++) {
        if (lseek(c->fd, 0, SEEK_SET) < 0) {
            file_error(c, "lseek");
            break;
        }
        v += read_pass(c, c->fd);
    }
    return v;
}

static uint64_t body_read_o2c(void *ctx, uint64_t n)
{
    struct file_ctx *c = ctx;
    uint64_t v = 0;
    for (uint64_t i = 0; i < n && !c->failed; i++) {
        int fd = open(c->path, O_RDONLY);
        if (fd < 0) {
            file_error(c, "open");
            break;
        }
        v += read_pass(c, fd);
        close(fd);
    }
    return v;
}

static uint64_t body_mmap_only(void *ctx, uint64_t n)
{
    struct file_ctx *c = ctx;
    uint64_t v = 0;
    for (uint64_t i = 0; i < n; i++)
        v += sum_words(c->map, c->bytes);
    return v;
}

static uint64_t body_mmap_o2c(void *ctx, uint64_t n)
{
    struct file_ctx *c = ctx;
    uint64_t v = 0;
    for (uint64_t i = 0; i < n && !c->failed; i++) {
        int fd = open(c->path, O_RDONLY);
        if (fd < 0) {
            file_error(c, "open");
            break;
        }
        void *m = mmap(NULL, c->bytes, PROT_READ, MAP_SHARED, fd, 0);
        if (m == MAP_FAILED) {
            file_error(c, "mmap");
            close(fd);
            break;
        }
        v += sum_words(m, c->bytes);
        close(fd);
        munmap(m, c->bytes);
    }
    return v;
}

/* Creates the unlinked 16 MB file in $TMPDIR (else /tmp) and fills c.
 * Returns 0, or -1 with c->why set. */
static int file_open(struct file_ctx *c, size_t read_bytes)
{
    memset(c, 0, sizeof *c);
    c->fd = -1;
    c->bytes = read_bytes;
    const char *dir = getenv("TMPDIR");
    if (!dir || !*dir)
        dir = "/tmp";
    char *tmpl = xasprintf("%s/evmbench-file.XXXXXX", dir);
    int fd = mkstemp(tmpl);
    if (fd < 0) {
        snprintf(c->why, sizeof c->why, "cannot create a file in %s: %s", dir,
                 strerror(errno));
        free(tmpl);
        return -1;
    }
    unlink(tmpl);
    free(tmpl);
    c->fd = fd;
    snprintf(c->path, sizeof c->path, "/proc/self/fd/%d", fd);

    size_t page = kutil_page_size();
    if (posix_memalign((void **)&c->buf, page, FILE_XFER) != 0) {
        snprintf(c->why, sizeof c->why, "cannot allocate %u bytes", FILE_XFER);
        return -1;
    }
    /* Distinct words, so the sums mean something. */
    long *w = c->buf;
    size_t nw = FILE_XFER / sizeof(long);
    for (size_t off = 0; off < FILE_BYTES; off += FILE_XFER) {
        for (size_t i = 0; i < nw; i++)
            w[i] = (long)(off / sizeof(long) + i);
        size_t put = 0;
        while (put < FILE_XFER) {
            ssize_t k = write(fd, (char *)w + put, FILE_XFER - put);
            if (k < 0 && errno == EINTR)
                continue;
            if (k <= 0) {
                if (k == 0)
                    errno = ENOSPC;
                snprintf(c->why, sizeof c->why, "cannot write the %u MiB test file in %s: %s",
                         FILE_BYTES >> 20, dir, strerror(errno));
                return -1;
            }
            put += (size_t)k;
        }
    }
    int probe = open(c->path, O_RDONLY);
    if (probe < 0) {
        snprintf(c->why, sizeof c->why, "cannot re-open the test file through %s: %s",
                 c->path, strerror(errno));
        return -1;
    }
    close(probe);
    return 0;
}

static void file_close(struct file_ctx *c)
{
    if (c->map)
        munmap((void *)c->map, c->bytes);
    if (c->fd >= 0)
        close(c->fd);
    free(c->buf);
    c->map = NULL;
    c->fd = -1;
    c->buf = NULL;
}

struct file_metric {
    const struct kernel_metric *def;
    kutil_body body;
    bool mapped;                /* needs the persistent mapping */
};

static size_t file_read_bytes(const struct kernel_params *p, struct report *r)
{
    if (!p->size)
        return FILE_READ_BYTES;
    size_t b = p->size / sizeof(long) * sizeof(long);
    if (b < sizeof(long))
        b = sizeof(long);
    report_note(r, "reading %zu bytes per pass (--size) instead of 1 MiB", b);
    return b;
}

static int file_run(const struct file_metric *fm, size_t nm,
                    const struct kernel_params *p, struct report *r)
{
    size_t bytes = file_read_bytes(p, r);
    if (bytes > FILE_BYTES) {
        for (size_t i = 0; i < nm; i++)
            report_fail(r, fm[i].def->id, "cannot read %zu bytes per pass from the "
                        "%u MiB test file", bytes, FILE_BYTES >> 20);
        return -1;
    }
    struct file_ctx c;
    if (file_open(&c, bytes) != 0) {
        for (size_t i = 0; i < nm; i++)
            report_fail(r, fm[i].def->id, "%s", c.why);
        file_close(&c);
        return -1;
    }
    struct kutil_plan plan;
    kutil_plan_init(&plan, p, BW_FULL_INTERVAL_S);
    int ok = 0;
    for (size_t i = 0; i < nm; i++) {
        c.failed = false;
        if (fm[i].mapped && !c.map) {
            void *m = mmap(NULL, bytes, PROT_READ, MAP_SHARED, c.fd, 0);
            if (m == MAP_FAILED) {
                report_fail(r, fm[i].def->id, "mmap: %s", strerror(errno));
                report_progress(r, (double)(i + 1), (double)nm);
                continue;
            }
            c.map = m;
        }
        struct bw_sample_ctx s = { .r = r, .metric = fm[i].def->id,
                                   .mb = (double)bytes / 1e6 };
        kutil_measure(fm[i].body, &c, &plan, bw_sample, &s);
        /* A failed system call cut the passes short: no sample holds. */
        if (c.failed)
            report_fail(r, fm[i].def->id, "%s", c.why);
        else
            ok++;
        report_progress(r, (double)(i + 1), (double)nm);
    }
    file_close(&c);
    return ok ? 0 : -1;
}

static int bw_file_rd_run(const struct kernel_params *p, struct report *r)
{
    const struct file_metric fm[] = {
        { &bw_file_rd_metrics[FR_IO], body_io_only, false },
        { &bw_file_rd_metrics[FR_O2C], body_read_o2c, false },
    };
    return file_run(fm, ARRAY_SIZE(fm), p, r);
}

static int bw_mmap_rd_run(const struct kernel_params *p, struct report *r)
{
    const struct file_metric fm[] = {
        { &bw_mmap_rd_metrics[MR_MO], body_mmap_only, true },
        { &bw_mmap_rd_metrics[MR_O2C], body_mmap_o2c, false },
    };
    return file_run(fm, ARRAY_SIZE(fm), p, r);
}

const struct kernel kernel_bw_file_rd = {
    .name = "bw_file_rd",
    .section = "lmbench",
    .description = "lmbench bw_file_rd: read() bandwidth of a cached 16 MB file, "
                   "1 MB per pass (size = bytes per pass)",
    .metrics = bw_file_rd_metrics,
    .nmetrics = FR_NMETRICS,
    .budget_quick_s = 2.0,      /* includes writing the 16 MB file */
    .budget_full_s = 3.0,
    .run = bw_file_rd_run,
};

const struct kernel kernel_bw_mmap_rd = {
    .name = "bw_mmap_rd",
    .section = "lmbench",
    .description = "lmbench bw_mmap_rd: read bandwidth of a mapped 16 MB file, "
                   "1 MB per pass (size = bytes per pass)",
    .metrics = bw_mmap_rd_metrics,
    .nmetrics = MR_NMETRICS,
    .budget_quick_s = 2.0,
    .budget_full_s = 3.0,
    .run = bw_mmap_rd_run,
};
