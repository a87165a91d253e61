/* lat_mem_rd.c - memory load latency, the way lmbench's lat_mem_rd measures it.
 *
 * Written from lat_mem_rd(8): a block is threaded into a ring of pointers
 * `stride` bytes apart, each pointing to the next higher address and the
 * last back to the first; the timed loop follows the ring (p = *p), so
 * every load waits for the one before. Result: nanoseconds per load.
 * Stride 128 as in TI's `lat_mem_rd 1M 128`.
 *
 * Which block sizes the guide's rows are. `lat_mem_rd 1M 128` prints one
 * line per block size, the size in MB (2^20 bytes) with %.5f: 0.00049,
 * 0.00098, ... 0.03125, 0.03516, ... 0.06250, ... 0.12500, ... 0.25000,
 * ... 0.50000, ... 1.00000 (see tests/data or the captures of the real
 * tool). TI's rows name points of that list by the printed MB figure
 * times 1000, cut to an integer with a "k":
 *
 *   sz50    0.00049 MB =     512 B  (the first point, lmbench's smallest
 *                                    block; its L1 value, ~3 cycles on the
 *                                    A53, confirms it; the name is the
 *                                    figure rounded, 0.0005 x 10^5)
 *   sz31k   0.03125 MB =  32 KiB
 *   sz62k   0.06250 MB =  64 KiB
 *   sz125k  0.12500 MB = 128 KiB
 *   sz250k  0.25000 MB = 256 KiB
 *   sz500k  0.50000 MB = 512 KiB
 *   sz1000k 1.00000 MB =   1 MiB     (the last point of `lat_mem_rd 1M`)
 *
 * latency_for_0.50_mb_block_size and latency_for_1.00_mb_block_size are
 * the same measurements as sz500k and sz1000k under the guide's other
 * names (the AM62x guide prints identical numbers for 0.50 and sz500k),
 * so every sample goes to both ids.
 *
 * One row beyond the guide: sz64000k, the 64.00000 point of
 * `lat_mem_rd 64M 128`, named by the guide's rule. 1 MiB still fits in
 * the L2 or MSMC RAM of the larger Jacinto parts (and in any x86 L3), so
 * the guide has no row that is sure to time DRAM; 64 MiB is beyond every
 * cache of the supported SoCs, and the check after a DDR change needs
 * exactly that row. The points below it do not depend on the size
 * argument (lat_mem_rd times each block on its own), so the tool recipe
 * runs `lat_mem_rd 64M 128` and reads every row from one run.
 *
 * Timing (kernel_util.h, KB_BUDGET_MEM): intervals of at least 100 ms
 * (lat_mem_rd asks benchmp for 100000 us), 11 of them; lat_mem_rd keeps
 * the minimum (save_minimum), so the summary is SUMMARY_MIN. The block
 * is written before timing.
 *
 * p->size (bytes) is lmbench's size argument, the largest block (64 MiB
 * by default): rows whose block exceeds it fail with that reason. When
 * half of MemAvailable cannot hold the default, the DRAM row fails and
 * the rest run in 1 MiB; a --size that cannot be had fails every row.
 *
 * p->only (a profile's `bench lat_mem_rd lat_mem_rd-stride128-sz50 ...`)
 * selects points: a point is timed when its row (or its alias) is wanted,
 * and without --size the block allocated is the largest wanted point's. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/kernel.h"
#include "benches/kernels/kernel_util.h"
#include "common/util.h"

#define LMR_STRIDE          128
#define LMR_FULL_INTERVAL_S 0.1
#define LMR_GUIDE_LEN       (1u << 20)  /* lmbench 1M: the guide's last point */
#define LMR_DEFAULT_LEN     (64u << 20) /* lmbench 64M: the DRAM row */

enum { LMR_50, LMR_31K, LMR_62K, LMR_125K, LMR_250K, LMR_500K, LMR_1000K,
       LMR_64000K, LMR_0_50, LMR_1_00, LMR_NMETRICS };
enum { LMR_NPOINTS = LMR_64000K + 1 };

static const struct kernel_metric lmr_metrics[LMR_NMETRICS] = {
    [LMR_50]    = { .id = "lat_mem_rd-stride128-sz50", .unit = "ns", .summary = SUMMARY_MIN },
    [LMR_31K]   = { .id = "lat_mem_rd-stride128-sz31k", .unit = "ns", .summary = SUMMARY_MIN },
    [LMR_62K]   = { .id = "lat_mem_rd-stride128-sz62k", .unit = "ns", .summary = SUMMARY_MIN },
    [LMR_125K]  = { .id = "lat_mem_rd-stride128-sz125k", .unit = "ns", .summary = SUMMARY_MIN },
    [LMR_250K]  = { .id = "lat_mem_rd-stride128-sz250k", .unit = "ns", .summary = SUMMARY_MIN },
    [LMR_500K]  = { .id = "lat_mem_rd-stride128-sz500k", .unit = "ns", .summary = SUMMARY_MIN },
    [LMR_1000K] = { .id = "lat_mem_rd-stride128-sz1000k", .unit = "ns", .summary = SUMMARY_MIN },
    [LMR_64000K] = { .id = "lat_mem_rd-stride128-sz64000k", .unit = "ns", .summary = SUMMARY_MIN },
    [LMR_0_50]  = { .id = "latency_for_0.50_mb_block_size", .unit = "nanosec", .summary = SUMMARY_MIN },
    [LMR_1_00]  = { .id = "latency_for_1.00_mb_block_size", .unit = "nanosec", .summary = SUMMARY_MIN },
};

/* Block bytes of each point. */
static const size_t lmr_blocks[LMR_NPOINTS] = {
    512, 32u << 10, 64u << 10, 128u << 10, 256u << 10, 512u << 10,
    LMR_GUIDE_LEN, LMR_DEFAULT_LEN,
};

struct chase {
    void **p;                   /* where the walk stands */
    uint64_t loads;             /* per unit of work */
};

#define CHASE1  p = (void **)*p;
#define CHASE10 CHASE1 CHASE1 CHASE1 CHASE1 CHASE1 CHASE1 CHASE1 CHASE1 CHASE1 CHASE1

/* One unit: loads / 100 rounds of 100 dependent loads. */
static int chase_body(void *ctx, uint64_t n, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    struct chase *c = ctx;
    void **p = c->p;
    uint64_t rounds = c->loads / 100;
    for (uint64_t i = 0; i < n; i++)
        for (uint64_t j = 0; j < rounds; j++) {
            CHASE10 CHASE10 CHASE10 CHASE10 CHASE10
            CHASE10 CHASE10 CHASE10 CHASE10 CHASE10
        }
    c->p = p;                   /* the next interval goes on from here */
    return 0;
}

/* Threads the first `range` bytes of base into the ring. */
static void chase_build(char *base, size_t range, size_t stride)
{
    size_t i;
    for (i = stride; i < range; i += stride)
        *(void **)(base + i - stride) = base + i;
    *(void **)(base + i - stride) = base;
}

static const char *lmr_alias(int point)
{
    if (point == LMR_500K)
        return lmr_metrics[LMR_0_50].id;
    if (point == LMR_1000K)
        return lmr_metrics[LMR_1_00].id;
    return NULL;
}

/* id when p wants it, else NULL (for kb_fail_ids). */
static const char *lmr_want_id(const struct kernel_params *p, const char *id)
{
    return kernel_wants(p, id) ? id : NULL;
}

static bool lmr_wanted(const struct kernel_params *p, int point)
{
    const char *ids[] = { lmr_metrics[point].id, lmr_alias(point) };
    return kernel_wants_any(p, ids, ARRAY_SIZE(ids));
}

/* The largest wanted point's block: what a run without --size allocates. */
static size_t lmr_largest_wanted(const struct kernel_params *p)
{
    size_t len = 0;
    for (int i = 0; i < LMR_NPOINTS; i++)
        if (lmr_wanted(p, i) && lmr_blocks[i] > len)
            len = lmr_blocks[i];
    return len;
}

static int lmr_run(const struct kernel_params *p, struct report *r)
{
    size_t len = p->size ? p->size / LMR_STRIDE * LMR_STRIDE : lmr_largest_wanted(p);
    if (len < LMR_STRIDE)
        len = LMR_STRIDE;
    uint64_t avail = kb_mem_available();
    void *mem = NULL;
    size_t want = len;
    for (;;) {
        if (avail && (double)len > (double)avail / 2)
            errno = ENOMEM;
        else
            mem = kb_alloc_touched(len);
        if (mem || p->size || len <= LMR_GUIDE_LEN)
            break;
        len = LMR_GUIDE_LEN;    /* the default size: go on without the DRAM row */
    }
    if (!mem) {
        for (int i = 0; i < LMR_NPOINTS; i++) {
            const char *ids[] = { lmr_want_id(p, lmr_metrics[i].id),
                                  lmr_want_id(p, lmr_alias(i)) };
            kb_fail_ids(r, ids, ARRAY_SIZE(ids), "cannot allocate the %zu-byte block "
                        "(%.1f MiB available)", len, kb_mib((double)avail));
        }
        return -1;
    }
    struct kb_opts o;
    kb_opts_for(&o, p, KB_BUDGET_MEM, LMR_FULL_INTERVAL_S);

    int ok = 0, total = 0, done = 0;
    for (int i = 0; i < LMR_NPOINTS; i++)
        total += lmr_wanted(p, i);
    for (int i = 0; i < LMR_NPOINTS; i++) {
        size_t range = lmr_blocks[i];
        const char *ids[] = { lmr_want_id(p, lmr_metrics[i].id),
                              lmr_want_id(p, lmr_alias(i)) };
        if (!ids[0] && !ids[1])
            continue;
        if (range > len) {
            if (range <= want)
                kb_fail_ids(r, ids, ARRAY_SIZE(ids), "cannot allocate the %zu-byte "
                            "block (%.1f MiB available)", range, kb_mib((double)avail));
            else
                kb_fail_ids(r, ids, ARRAY_SIZE(ids), "not measured: the %zu-byte block "
                            "exceeds --size %zu", range, len);
            report_progress(r, ++done, total);
            continue;
        }
        chase_build(mem, range, LMR_STRIDE);
        /* At least one lap of the ring per unit, in rounds of 100. */
        uint64_t loads = (range / LMR_STRIDE / 100 + 1) * 100;
        struct chase c = { .p = mem, .loads = loads };
        struct kb_metric_spec m = { lmr_metrics[i].id, lmr_alias(i), KB_TIME,
                                    1e9 / (double)loads };
        if (kb_metric_run(r, &m, chase_body, &c, &o, NULL) == 0)
            ok++;
        report_progress(r, ++done, total);
    }
    free(mem);
    return ok ? 0 : -1;
}

const struct kernel kernel_lat_mem_rd = {
    .name = "lat_mem_rd",
    .section = "lmbench",
    .description = "lmbench lat_mem_rd 64M 128: load latency at stride 128 B, "
                   "the guide's 512 B to 1 MB blocks and a 64 MB one (size = largest "
                   "block, bytes)",
    .metrics = lmr_metrics,
    .nmetrics = LMR_NMETRICS,
    /* 8 points: ~0.15 s each when quick; 11 x 100 ms + calibration full. */
    .budget_quick_s = 2.5,
    .budget_full_s = 12.0,
    .run = lmr_run,
};
