/* lat_ctx.c - lmbench's lat_ctx: context switch time between N processes
 * that each touch a working set of S bytes.
 *
 *   lat_ctx-<N>-<S>   N = 2, 4 processes; S = 128k, 256k (lat_ctx -s 128K
 *                     -N 100 2 and the like, as TI's scripts run it)
 *
 * As lmbench: N processes in a ring of pipes pass a 4-byte token; each
 * process, on receiving it, sums its own S-byte array (bread()) and
 * passes it on. One iteration is one trip around the ring, N switches.
 * The overhead, measured first in a single process with the same N pipes
 * (write, read, sum the array: passing the token without switching), is
 * subtracted, median from median as lmbench does:
 *
 *     switch time = median(interval / iterations) / N - median(overhead)  (us)
 *
 * A difference of two medians is one value, reported once (kb_report_net);
 * an interval less the overhead's median is no switch time, and came out
 * below zero where a switch costs little beside passing the token. A
 * difference not above zero fails with both figures.
 * Intervals: 5 ms; repetitions -N 100 in full mode, 11 when quick. lmbench
 * runs unpinned: the CPU affinity is widened to all CPUs for the run. The
 * ring's processes are killed and reaped after each metric. A case whose
 * row p->only does not want is skipped: no ring, no overhead loop. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernel/kernel.h"
#include "benches/kernels/kernel_util.h"
#include "common/util.h"

#define CTX_MAXPROCS    4
#define CTX_REPS_FULL   100     /* TI runs lat_ctx -N 100 */

#define CTX_METRIC(id_) { .id = id_, .unit = "us", .summary = SUMMARY_MEDIAN }
static const struct kernel_metric ctx_metrics[] = {
    CTX_METRIC("lat_ctx-2-128k"),
    CTX_METRIC("lat_ctx-2-256k"),
    CTX_METRIC("lat_ctx-4-128k"),
    CTX_METRIC("lat_ctx-4-256k"),
};
static const struct { int procs; size_t size; } ctx_cases[] = {
    { 2, 128 * 1024 }, { 2, 256 * 1024 }, { 4, 128 * 1024 }, { 4, 256 * 1024 },
};

struct ctx {
    int procs;
    size_t size;
    int p[CTX_MAXPROCS][2];
    pid_t pids[CTX_MAXPROCS];
    long *data;
    int child;              /* in a child: its index */
};

/* Sums the array so the process touches it, as lmbench's bread(): eight
 * independent partial sums, so the loop is bound by loads, not by one
 * chain of additions. */
static long ctx_sum(const long *data, size_t bytes)
{
    size_t n = bytes / sizeof(long), i = 0;
    long s0 = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0, s5 = 0, s6 = 0, s7 = 0;
    for (; i + 8 <= n; i += 8) {
        s0 += data[i];
        s1 += data[i + 1];
        s2 += data[i + 2];
        s3 += data[i + 3];
        s4 += data[i + 4];
        s5 += data[i + 5];
        s6 += data[i + 6];
        s7 += data[i + 7];
    }
    for (; i < n; i++)
        s0 += data[i];
    return s0 + s1 + s2 + s3 + s4 + s5 + s6 + s7;
}

/* A written (not just mapped) zeroed array, as lmbench's malloc + bzero:
 * calloc() of a large block maps the shared zero page until written. */
static long *ctx_alloc(size_t size)
{
    long *d = malloc(size ? size : 1);
    if (d)
        memset(d, 0, size ? size : 1);
    return d;
}

static void ctx_child(void *arg)
{
    struct ctx *c = arg;
    int i = c->child;
    int rd = c->p[i - 1][0], wr = c->p[i][1];
    for (int j = 0; j < c->procs; j++) {
        if (c->p[j][0] != rd)
            close(c->p[j][0]);
        if (c->p[j][1] != wr)
            close(c->p[j][1]);
    }
    long *data = c->size ? ctx_alloc(c->size) : NULL;
    if (c->size && !data)
        return;
    int msg;
    while (read(rd, &msg, sizeof msg) == (ssize_t)sizeof msg) {
        kb_use((uintptr_t)ctx_sum(data, c->size));     /* the touch is not dead code */
        if (write(wr, &msg, sizeof msg) != (ssize_t)sizeof msg)
            break;
    }
    free(data);
}

static int ctx_err(char *err, size_t len, const char *what)
{
    snprintf(err, len, "%s: %s", what, strerror(errno));
    return -1;
}

static void ctx_init(struct ctx *c, int procs, size_t size)
{
    memset(c, 0, sizeof *c);
    c->procs = procs;
    c->size = size;
    for (int i = 0; i < CTX_MAXPROCS; i++) {
        c->p[i][0] = c->p[i][1] = -1;
        c->pids[i] = -1;
    }
}

static void ctx_teardown(struct ctx *c)
{
    for (int i = 0; i < CTX_MAXPROCS; i++) {
        if (c->p[i][0] >= 0)
            close(c->p[i][0]);
        if (c->p[i][1] >= 0)
            close(c->p[i][1]);
        c->p[i][0] = c->p[i][1] = -1;
    }
    for (int i = 0; i < CTX_MAXPROCS; i++) {
        kb_reap(c->pids[i]);
        c->pids[i] = -1;
    }
    free(c->data);
    c->data = NULL;
}

/* Pipes and the parent's array; the overhead needs only these. */
static int ctx_setup_pipes(struct ctx *c, char *err, size_t len)
{
    c->data = ctx_alloc(c->size);
    if (!c->data) {
        snprintf(err, len, "cannot allocate %zu bytes", c->size);
        return -1;
    }
    for (int i = 0; i < c->procs; i++)
        if (pipe(c->p[i]) != 0)
            return ctx_err(err, len, "pipe");
    return 0;
}

static int ctx_setup_ring(struct ctx *c, char *err, size_t len)
{
    if (ctx_setup_pipes(c, err, len) < 0)
        return -1;
    for (int i = 1; i < c->procs; i++) {
        c->child = i;
        c->pids[i] = kb_fork(ctx_child, c, err, len);
        if (c->pids[i] < 0)
            return -1;
    }
    int msg = 0;
    if (write(c->p[0][1], &msg, sizeof msg) != (ssize_t)sizeof msg ||
        read(c->p[c->procs - 1][0], &msg, sizeof msg) != (ssize_t)sizeof msg)
        return ctx_err(err, len, "first trip around the ring");
    return 0;
}

static int do_overhead(void *ctx, uint64_t n, char *err, size_t len)
{
    struct ctx *c = ctx;
    int i = 0, msg = 1;
    long sum = 0;
    while (n-- > 0) {
        if (write(c->p[i][1], &msg, sizeof msg) != (ssize_t)sizeof msg ||
            read(c->p[i][0], &msg, sizeof msg) != (ssize_t)sizeof msg)
            return ctx_err(err, len, "pipe write/read");
        if (++i == c->procs)
            i = 0;
        sum += ctx_sum(c->data, c->size);
    }
    kb_use((uintptr_t)sum);
    return 0;
}

static int do_ring(void *ctx, uint64_t n, char *err, size_t len)
{
    struct ctx *c = ctx;
    int msg = 0;
    long sum = 0;
    while (n-- > 0) {
        if (write(c->p[0][1], &msg, sizeof msg) != (ssize_t)sizeof msg ||
            read(c->p[c->procs - 1][0], &msg, sizeof msg) != (ssize_t)sizeof msg)
            return ctx_err(err, len, "token around the ring");
        sum += ctx_sum(c->data, c->size);
    }
    kb_use((uintptr_t)sum);
    return 0;
}

/* One metric; 0, or -1 after it failed. */
static int ctx_case(const struct kb_opts *o, struct report *r, const char *id,
                    int procs, size_t size)
{
    struct ctx c;
    struct kb_result res;
    char err[256] = "";
    int rc;

    ctx_init(&c, procs, size);
    if (ctx_setup_pipes(&c, err, sizeof err) < 0 ||
        kb_measure(do_overhead, &c, o, &res, err, sizeof err) < 0)
        goto out;
    struct kb_interval m = kb_median(&res);
    double overhead = kb_per_op(&m) * 1e6;
    kb_result_free(&res);
    ctx_teardown(&c);

    ctx_init(&c, procs, size);
    if (ctx_setup_ring(&c, err, sizeof err) < 0 ||
        kb_measure(do_ring, &c, o, &res, err, sizeof err) < 0)
        goto out;
    m = kb_median(&res);
    double gross = kb_per_op(&m) * 1e6 / procs;
    kb_result_free(&res);
    report_note(r, "%s: size=%zuk ovr=%.2f us, %d processes %.2f us", id, size / 1024,
                overhead, procs, gross - overhead);
    rc = kb_report_net(r, &id, 1, "us", gross, overhead);     /* fails it itself */
    ctx_teardown(&c);
    return rc;
out:
    report_fail(r, id, "%s", err);
    ctx_teardown(&c);
    return -1;
}

static int ctx_run(const struct kernel_params *p, struct report *r)
{
    cpu_set_t saved;
    bool widened = kb_affinity_widen(&saved);
    struct kb_opts o;
    kb_opts_for(&o, p, KB_BUDGET_OS, 0);
    if (!p->quick && p->iterations <= 0)
        o.reps = CTX_REPS_FULL;
    int ok = 0;
    size_t n = 0, done = 0;
    for (size_t i = 0; i < ARRAY_SIZE(ctx_cases); i++)
        n += kernel_wants(p, ctx_metrics[i].id);
    for (size_t i = 0; i < ARRAY_SIZE(ctx_cases); i++) {
        if (!kernel_wants(p, ctx_metrics[i].id))
            continue;
        report_progress(r, (double)done++, (double)n);
        if (ctx_case(&o, r, ctx_metrics[i].id, ctx_cases[i].procs, ctx_cases[i].size) == 0)
            ok++;
    }
    report_progress(r, (double)n, (double)n);
    if (widened)
        kb_affinity_restore(&saved);
    return ok ? 0 : -1;
}

const struct kernel kernel_lat_ctx = {
    .name = "lat_ctx",
    .section = "lmbench",
    .description = "lmbench lat_ctx: context switch time, 2 and 4 processes with "
                   "128 KiB and 256 KiB working sets; microseconds",
    .metrics = ctx_metrics,
    .nmetrics = ARRAY_SIZE(ctx_metrics),
    /* Full: 4 x 2 x 100 x 5 ms. */
    .budget_quick_s = 1.5,
    .budget_full_s = 6.0,
    .run = ctx_run,
};
