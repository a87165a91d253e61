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
 * Timing (kernel_util.h, KB_BUDGET_MEM): 11 intervals of at least 50 ms
 * (lmbench's TRIES and TI's ENOUGH=50000), the pass count calibrated
 * first; each interval gives one sample. lmbench reports the median
 * interval, so SUMMARY_MEDIAN.
 * Buffers are page-aligned and written once before anything is timed.
 *
 * p->size (bytes), when set, replaces every row's size (a note says so):
 * for small boards and tests.
 *
 * p->only (a profile's `bench bw_mem bw_mem-rd-16mb ...`) selects rows:
 * a size none of whose rows is wanted is not even allocated, an op not
 * wanted at a size is not timed. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kernel/kernel.h"
#include "benches/kernels/kernel_util.h"
#include "common/util.h"

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

/* Every op stores 0 or 1, or copies: the words are always 0 or 1, so an
 * int sum of at most BW_SEGMENT_WORDS words cannot overflow. */
struct bw_ctx {
    enum bw_op op;
    int *src, *dst;
    size_t bytes;               /* a multiple of 512 */
};

#define BW_SEGMENT_WORDS    (1u << 28)  /* rdwr's int sum restarts after */

/* One 512-byte chunk is one straight-line statement list, lmbench's
 * shape: the compiler schedules the 32 or 128 accesses freely but sees
 * no loop to turn into a memset() or memcpy() call.
 *
 * Sums are lmbench's: int words added into an int, rd and frd as one
 * expression per chunk, rdwr one add after the other. The compiler may
 * not reassociate signed adds (overflow is undefined), so each stays one
 * chain of dependent adds. An unsigned sum it may split into parallel
 * chains, and does (GCC 12 on AArch64: 4 chains for rd, 2 for frd and
 * rdwr, the loads hoisted further ahead; on x86-64 rdwr summed each
 * chunk apart): more loads in flight than lmbench's code has. */
#define EVERY4(M, b)   M(b) M(b + 4) M(b + 8) M(b + 12)
#define CHUNK_SPARSE(M) EVERY4(M, 0) EVERY4(M, 16) EVERY4(M, 32) EVERY4(M, 48) \
                        EVERY4(M, 64) EVERY4(M, 80) EVERY4(M, 96) EVERY4(M, 112)
#define EVERY1(M, b)   M(b) M(b + 1) M(b + 2) M(b + 3)
#define DENSE16(M, b)  EVERY1(M, b) EVERY1(M, b + 4) EVERY1(M, b + 8) EVERY1(M, b + 12)
#define CHUNK_DENSE(M)  DENSE16(M, 0) DENSE16(M, 16) DENSE16(M, 32) DENSE16(M, 48) \
                        DENSE16(M, 64) DENSE16(M, 80) DENSE16(M, 96) DENSE16(M, 112)

#define LOAD(i)     p[i] +
#define STORE(i)    p[i] = 1;
#define LOADSTORE(i) seg += p[i]; p[i] = 1;
#define COPY(i)     d[i] = p[i];

static uint64_t bw_pass(const struct bw_ctx *c)
{
    int *p = c->src, *d = c->dst;
    int *end = c->src + c->bytes / sizeof(int);
    unsigned sum = 0;

    switch (c->op) {
    case BW_RD:
        for (; p < end; p += BW_CHUNK_WORDS)
            sum += (unsigned)(CHUNK_SPARSE(LOAD) 0);
        break;
    case BW_WR:
        for (; p < end; p += BW_CHUNK_WORDS) {
            CHUNK_SPARSE(STORE)
        }
        break;
    case BW_RDWR:
        while (p < end) {
            int *stop = (size_t)(end - p) > BW_SEGMENT_WORDS ? p + BW_SEGMENT_WORDS : end;
            int seg = 0;
            for (; p < stop; p += BW_CHUNK_WORDS) {
                CHUNK_SPARSE(LOADSTORE)
            }
            sum += (unsigned)seg;
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
            sum += (unsigned)(CHUNK_DENSE(LOAD) 0);
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
    return sum + (unsigned)c->src[0];
}

static int bw_body(void *ctx, uint64_t n, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    uint64_t v = 0;
    for (uint64_t i = 0; i < n; i++)
        v += bw_pass(ctx);
    kb_use((uintptr_t)v);
    return 0;
}

/* A rate in MB/s (10^6 bytes) of `bytes` per pass. */
static struct kb_metric_spec bw_spec(const char *id, size_t bytes)
{
    return (struct kb_metric_spec){ id, NULL, KB_RATE, (double)bytes / 1e6 };
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
    struct kb_opts o;
    kb_opts_for(&o, p, KB_BUDGET_MEM, 0);
    uint64_t avail = kb_mem_available();
    int ok = 0;
    size_t done = 0, total = 0;
    for (size_t i = 0; i < ARRAY_SIZE(bw_mem_metrics); i++)
        total += kernel_wants(p, bw_mem_metrics[i].id);

    for (size_t si = 0; si < BW_NSIZES; si++) {
        size_t bytes = override ? override : (size_t)bw_sizes_mb[si] << 20;
        const char *ids[BW_NOPS];       /* the wanted ops at this size, NULL others */
        size_t nwanted = 0;
        for (size_t op = 0; op < BW_NOPS; op++) {
            ids[op] = bw_mem_metrics[op * BW_NSIZES + si].id;
            if (kernel_wants(p, ids[op]))
                nwanted++;
            else
                ids[op] = NULL;
        }
        if (!nwanted)
            continue;
        /* Two buffers: the second for cp, fcp and bcopy. */
        if (bytes > SIZE_MAX / 2 || (avail && 2.0 * (double)bytes > (double)avail)) {
            kb_fail_ids(r, ids, BW_NOPS, "2 buffers of %.1f MiB do not fit in the %.1f MiB "
                        "available", kb_mib((double)bytes), kb_mib((double)avail));
            done += nwanted;
            report_progress(r, (double)done, (double)total);
            continue;
        }
        struct bw_ctx c = { .bytes = bytes };
        c.src = kb_alloc_touched(bytes);
        c.dst = c.src ? kb_alloc_touched(bytes) : NULL;
        if (!c.src || !c.dst) {
            kb_fail_ids(r, ids, BW_NOPS, "cannot allocate 2 x %.1f MiB: %s",
                        kb_mib((double)bytes), strerror(errno));
            free(c.src);
            done += nwanted;
            report_progress(r, (double)done, (double)total);
            continue;
        }
        for (size_t op = 0; op < BW_NOPS; op++) {
            if (!ids[op])
                continue;
            c.op = (enum bw_op)op;
            struct kb_metric_spec m = bw_spec(ids[op], bytes);
            if (kb_metric_run(r, &m, bw_body, &c, &o, NULL) == 0)
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
    char why[160];              /* why file_open() failed */
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

/* Writes "what: strerror(errno)" into err; returns -1. */
static int file_error(const char *what, char *err, size_t errlen)
{
    snprintf(err, errlen, "%s: %s", what, strerror(errno));
    return -1;
}

/* read() c->bytes from fd in FILE_XFER chunks, summing each chunk into
 * *sum. Returns 0, or -1 with err filled. */
static int read_pass(struct file_ctx *c, int fd, uint64_t *sum, char *err, size_t errlen)
{
    size_t left = c->bytes;
    while (left > 0) {
        size_t want = left < FILE_XFER ? left : FILE_XFER;
        ssize_t got = read(fd, c->buf, want);
        if (got < 0)
            return file_error("read", err, errlen);
        if (got == 0) {
            errno = EIO;
            return file_error("short file", err, errlen);
        }
        *sum += sum_words(c->buf, (size_t)got);
        left -= (size_t)got;
    }
    return 0;
}

static int body_io_only(void *ctx, uint64_t n, char *err, size_t errlen)
{
    struct file_ctx *c = ctx;
    uint64_t v = 0;
    for (uint64_t i = 0; i < n; i++) {
        if (lseek(c->fd, 0, SEEK_SET) < 0)
            return file_error("lseek", err, errlen);
        if (read_pass(c, c->fd, &v, err, errlen) < 0)
            return -1;
    }
    kb_use((uintptr_t)v);
    return 0;
}

static int body_read_o2c(void *ctx, uint64_t n, char *err, size_t errlen)
{
    struct file_ctx *c = ctx;
    uint64_t v = 0;
    for (uint64_t i = 0; i < n; i++) {
        int fd = open(c->path, O_RDONLY);
        if (fd < 0)
            return file_error("open", err, errlen);
        int rc = read_pass(c, fd, &v, err, errlen);
        close(fd);
        if (rc < 0)
            return -1;
    }
    kb_use((uintptr_t)v);
    return 0;
}

static int body_mmap_only(void *ctx, uint64_t n, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    struct file_ctx *c = ctx;
    uint64_t v = 0;
    for (uint64_t i = 0; i < n; i++)
        v += sum_words(c->map, c->bytes);
    kb_use((uintptr_t)v);
    return 0;
}

static int body_mmap_o2c(void *ctx, uint64_t n, char *err, size_t errlen)
{
    struct file_ctx *c = ctx;
    uint64_t v = 0;
    for (uint64_t i = 0; i < n; i++) {
        int fd = open(c->path, O_RDONLY);
        if (fd < 0)
            return file_error("open", err, errlen);
        void *m = mmap(NULL, c->bytes, PROT_READ, MAP_SHARED, fd, 0);
        if (m == MAP_FAILED) {
            file_error("mmap", err, errlen);
            close(fd);
            return -1;
        }
        v += sum_words(m, c->bytes);
        close(fd);
        munmap(m, c->bytes);
    }
    kb_use((uintptr_t)v);
    return 0;
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

    c->buf = kb_alloc_pages(FILE_XFER);
    if (!c->buf) {
        snprintf(c->why, sizeof c->why, "cannot allocate %u bytes", FILE_XFER);
        return -1;
    }
    /* Distinct words, so the sums mean something. */
    long *w = c->buf;
    size_t nw = FILE_XFER / sizeof(long);
    for (size_t off = 0; off < FILE_BYTES; off += FILE_XFER) {
        for (size_t i = 0; i < nw; i++)
            w[i] = (long)(off / sizeof(long) + i);
        if (!write_all(fd, w, FILE_XFER)) {
            snprintf(c->why, sizeof c->why, "cannot write the %u MiB test file in %s: %s",
                     FILE_BYTES >> 20, dir, strerror(errno));
            return -1;
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
    kb_fn body;
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
    const char *ids[4] = { NULL };      /* the wanted rows, NULL others */
    size_t total = 0, done = 0;
    for (size_t i = 0; i < nm && i < ARRAY_SIZE(ids); i++)
        if (kernel_wants(p, fm[i].def->id)) {
            ids[i] = fm[i].def->id;
            total++;
        }
    size_t bytes = file_read_bytes(p, r);
    if (bytes > FILE_BYTES) {
        kb_fail_ids(r, ids, nm, "cannot read %zu bytes per pass from the %u MiB test file",
                    bytes, FILE_BYTES >> 20);
        return -1;
    }
    struct file_ctx c;
    if (file_open(&c, bytes) != 0) {
        kb_fail_ids(r, ids, nm, "%s", c.why);
        file_close(&c);
        return -1;
    }
    struct kb_opts o;
    kb_opts_for(&o, p, KB_BUDGET_MEM, 0);
    int ok = 0;
    for (size_t i = 0; i < nm; i++) {
        if (!ids[i])
            continue;
        if (fm[i].mapped && !c.map) {
            void *m = mmap(NULL, bytes, PROT_READ, MAP_SHARED, c.fd, 0);
            if (m == MAP_FAILED) {
                report_fail(r, fm[i].def->id, "mmap: %s", strerror(errno));
                report_progress(r, (double)++done, (double)total);
                continue;
            }
            c.map = m;
        }
        struct kb_metric_spec m = bw_spec(fm[i].def->id, bytes);
        if (kb_metric_run(r, &m, fm[i].body, &c, &o, NULL) == 0)
            ok++;
        report_progress(r, (double)++done, (double)total);
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
