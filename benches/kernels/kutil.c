/* kutil.c - timing and housekeeping shared by the embedded kernels. */
#include "config.h"
#include "kutil.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"

static volatile uint64_t kutil_sink;

void kutil_consume(uint64_t v)
{
    kutil_sink = kutil_sink * 31 + v;
}

uint64_t kutil_checksum(void)
{
    return kutil_sink;
}

void kutil_plan_init(struct kutil_plan *pl, const struct kernel_params *p,
                     double full_interval_s)
{
    if (p->quick) {
        pl->interval_s = KUTIL_QUICK_INTERVAL_S;
        pl->reps = KUTIL_QUICK_REPS;
        pl->max_s = KUTIL_QUICK_MAX_S;
    } else {
        pl->interval_s = full_interval_s;
        pl->reps = KUTIL_FULL_REPS;
        pl->max_s = KUTIL_FULL_MAX_S;
    }
    if (p->iterations > 0)
        pl->reps = p->iterations;
}

/* Seconds for n units, the body's result folded into the checksum. */
static double timed(kutil_body body, void *ctx, uint64_t n)
{
    double t0 = now_seconds();
    uint64_t v = body(ctx, n);
    double t = now_seconds() - t0;
    kutil_consume(v);
    return t;
}

/* Units for the next interval given that n units took t seconds. */
static uint64_t rescale(uint64_t n, double t, double target)
{
    if (t <= 0)
        return n * 8;
    double want = (double)n * target * 1.05 / t + 1.0;
    if (want > (double)(UINT64_C(1) << 40))
        want = (double)(UINT64_C(1) << 40);
    return want < 1.0 ? 1 : (uint64_t)want;
}

int kutil_measure(kutil_body body, void *ctx, const struct kutil_plan *pl,
                  kutil_sample_fn on_sample, void *sample_ctx)
{
    double start = now_seconds();
    double target = pl->interval_s;

    /* Calibration, which doubles as the warm-up: grow the count until an
     * interval lasts 95 % of the target (lmbench's acceptance rule). */
    uint64_t n = 1;
    double t = timed(body, ctx, n);
    for (int tries = 0; t < 0.95 * target && tries < 40; tries++) {
        n = t * 8 < target ? n * 8 : rescale(n, t, target);
        t = timed(body, ctx, n);
        if (now_seconds() - start > pl->max_s)
            break;
    }

    int taken = 0;
    for (int i = 0; i < pl->reps; i++) {
        t = timed(body, ctx, n);
        on_sample(sample_ctx, t / (double)n);
        taken++;
        /* Keep intervals near the target as the machine's load changes. */
        if (t < 0.9 * target || t > 1.5 * target)
            n = rescale(n, t, target);
        if (now_seconds() - start + t > pl->max_s)
            break;
    }
    return taken;
}

uint64_t kutil_mem_available(void)
{
    char *buf = read_file("/proc/meminfo", 1 << 16, NULL);
    if (!buf)
        return 0;
    uint64_t kb = 0;
    const char *keys[] = { "MemAvailable:", "MemFree:" };
    for (size_t k = 0; k < ARRAY_SIZE(keys) && !kb; k++) {
        const char *line = strstr(buf, keys[k]);
        if (line)
            kb = strtoull(line + strlen(keys[k]), NULL, 10);
    }
    free(buf);
    return kb * 1024;
}

size_t kutil_page_size(void)
{
    long page = sysconf(_SC_PAGESIZE);
    return page > 0 ? (size_t)page : 4096;
}

double kutil_mib(double bytes)
{
    return bytes / (1024.0 * 1024.0);
}

void *kutil_alloc_touched(size_t bytes)
{
    size_t page = kutil_page_size();
    if (bytes == 0 || bytes > SIZE_MAX - page) {
        errno = ENOMEM;
        return NULL;
    }
    void *mem = NULL;
    int err = posix_memalign(&mem, page, bytes);
    if (err) {
        errno = err;
        return NULL;
    }
    memset(mem, 0, bytes);
    return mem;
}
