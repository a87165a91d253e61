/* linpack.c - the classic 100x100 LINPACK benchmark, in Kflops.
 *
 * Written for evmbench from the published description of the LINPACK
 * benchmark (J. J. Dongarra, "Performance of various computers using
 * standard linear equations software"): factor a dense 100 x 100 matrix
 * by Gaussian elimination with partial pivoting (LINPACK's xGEFA, column
 * oriented, built on the level-1 BLAS IxAMAX, xSCAL and xAXPY) and solve
 * A x = b with the factors (xGESL), counting 2/3 n^3 + 2 n^2 floating-
 * point operations per solve. Matrices are stored by columns with a
 * leading dimension of 201, as in the benchmark's first table.
 *
 * TI's `linpack` binary, whose number the guide lists (although the
 * guide's text says double precision), is this benchmark built with
 * unrolled BLAS (xAXPY by 4, xSCAL by 5, as the reference BLAS unroll
 * them) in SINGLE precision, timing 10 repetitions ("Unrolled Single
 * Precision ... Kflops ; 10 Reps"). So the guide's row `linpack` is single
 * precision here too; `linpack-double` is the same code in double
 * precision (no reference in the guide).
 *
 * Every repetition factors a fresh copy of the same random matrix; only
 * the factor and solve are timed, in CPU time of the worker. After each sample the solution is
 * checked: the normalised residual ||A x - b|| / (n ||A|| ||x|| eps) must
 * stay below LINPACK_RESID_MAX, and b is chosen so that x is all ones.
 * p->size = matrix order (default 100), p->iterations = samples. */
#include "config.h"

#include <float.h>
#include <math.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/cpucheck.h"
#include "kernel/cpuclock.h"
#include "kernel/kernel.h"
#include "common/util.h"

#define LINPACK_N            100
#define LINPACK_N_MAX        2000
#define LINPACK_REPS_MIN     10     /* TI's binary: 10 reps per timing */
#define LINPACK_SAMPLE_FULL  1.0    /* seconds per sample and precision */
#define LINPACK_SAMPLE_QUICK 0.3
#define LINPACK_SAMPLES_FULL  5
#define LINPACK_SAMPLES_QUICK 3
#define KERNEL_WALL_FACTOR   3.0    /* a sample ends after 3 x its time in wall time */
#define LINPACK_RESID_MAX    10.0   /* "norm. resid" is O(1) when correct */
#define LINPACK_X_TOL        1e-2   /* |x_i - 1| in single precision */

enum { M_SINGLE, M_DOUBLE, M_COUNT };

static const struct kernel_metric lp_metrics[M_COUNT] = {
    [M_SINGLE] = { .id = "linpack", .unit = "kflops", .summary = SUMMARY_MEDIAN,
                   .cpu_bound = true },
    [M_DOUBLE] = { .id = "linpack-double", .unit = "kflops", .summary = SUMMARY_MEDIAN,
                   .cpu_bound = true },
};

/* One problem: the matrix a (factored in place) with its pristine copy,
 * the right-hand side b (solution in place) with its copy, the pivots. */
struct lp_problem {
    void *a, *a0, *b, *b0;
    int *ipvt;
    int n, lda;
};

/* The LINPACK routines for one floating-point type. Column-major:
 * element (i, j) is a[j * lda + i]. */
#define LINPACK_DEFINE(SFX, REAL)                                                  \
                                                                                   \
/* y += alpha * x, unrolled by 4 like the reference xAXPY. */                      \
static void axpy_##SFX(int n, REAL alpha, const REAL *restrict x, REAL *restrict y) \
{                                                                                  \
    if (n <= 0 || alpha == 0)                                                      \
        return;                                                                    \
    int m = n % 4;                                                                 \
    for (int i = 0; i < m; i++)                                                    \
        y[i] = y[i] + alpha * x[i];                                                \
    for (int i = m; i < n; i += 4) {                                               \
        y[i] = y[i] + alpha * x[i];                                                \
        y[i + 1] = y[i + 1] + alpha * x[i + 1];                                    \
        y[i + 2] = y[i + 2] + alpha * x[i + 2];                                    \
        y[i + 3] = y[i + 3] + alpha * x[i + 3];                                    \
    }                                                                              \
}                                                                                  \
                                                                                   \
/* x *= alpha, unrolled by 5 like the reference xSCAL. */                          \
static void scal_##SFX(int n, REAL alpha, REAL *x)                                 \
{                                                                                  \
    int m = n % 5;                                                                 \
    for (int i = 0; i < m; i++)                                                    \
        x[i] = alpha * x[i];                                                       \
    for (int i = m; i < n; i += 5) {                                               \
        x[i] = alpha * x[i];                                                       \
        x[i + 1] = alpha * x[i + 1];                                               \
        x[i + 2] = alpha * x[i + 2];                                               \
        x[i + 3] = alpha * x[i + 3];                                               \
        x[i + 4] = alpha * x[i + 4];                                               \
    }                                                                              \
}                                                                                  \
                                                                                   \
/* Index of the element of largest magnitude (the first of equals). */             \
static int iamax_##SFX(int n, const REAL *x)                                       \
{                                                                                  \
    int best = 0;                                                                  \
    REAL big = (REAL)fabs((double)x[0]);                                           \
    for (int i = 1; i < n; i++) {                                                  \
        REAL v = (REAL)fabs((double)x[i]);                                         \
        if (v > big) {                                                             \
            big = v;                                                               \
            best = i;                                                              \
        }                                                                          \
    }                                                                              \
    return best;                                                                   \
}                                                                                  \
                                                                                   \
/* xGEFA: a = L U with row interchanges ipvt; returns -1, or the index of          \
 * a zero pivot (the matrix is singular). */                                       \
static int gefa_##SFX(REAL *a, int lda, int n, int *ipvt)                          \
{                                                                                  \
    int info = -1;                                                                 \
    for (int k = 0; k < n - 1; k++) {                                              \
        REAL *colk = a + (size_t)k * lda;                                          \
        int l = iamax_##SFX(n - k, colk + k) + k;                                  \
        ipvt[k] = l;                                                               \
        if (colk[l] == 0) {                                                        \
            info = k;                                                              \
            continue;                                                              \
        }                                                                          \
        if (l != k) {                                                              \
            REAL t = colk[l];                                                      \
            colk[l] = colk[k];                                                     \
            colk[k] = t;                                                           \
        }                                                                          \
        scal_##SFX(n - k - 1, (REAL)-1 / colk[k], colk + k + 1);                   \
        for (int j = k + 1; j < n; j++) {                                          \
            REAL *colj = a + (size_t)j * lda;                                      \
            REAL t = colj[l];                                                      \
            if (l != k) {                                                          \
                colj[l] = colj[k];                                                 \
                colj[k] = t;                                                       \
            }                                                                      \
            axpy_##SFX(n - k - 1, t, colk + k + 1, colj + k + 1);                  \
        }                                                                          \
    }                                                                              \
    ipvt[n - 1] = n - 1;                                                           \
    if (a[(size_t)(n - 1) * lda + n - 1] == 0)                                     \
        info = n - 1;                                                              \
    return info;                                                                   \
}                                                                                  \
                                                                                   \
/* xGESL: solves A x = b with the factors of gefa; b becomes x. */                 \
static void gesl_##SFX(const REAL *a, int lda, int n, const int *ipvt, REAL *b)    \
{                                                                                  \
    for (int k = 0; k < n - 1; k++) {                                              \
        int l = ipvt[k];                                                           \
        REAL t = b[l];                                                             \
        if (l != k) {                                                              \
            b[l] = b[k];                                                           \
            b[k] = t;                                                              \
        }                                                                          \
        axpy_##SFX(n - k - 1, t, a + (size_t)k * lda + k + 1, b + k + 1);          \
    }                                                                              \
    for (int k = n - 1; k >= 0; k--) {                                             \
        b[k] /= a[(size_t)k * lda + k];                                            \
        axpy_##SFX(k, -b[k], a + (size_t)k * lda, b);                              \
    }                                                                              \
}                                                                                  \
                                                                                   \
/* A random matrix with entries in [-2, 2) and b = A (1, ..., 1). */               \
static void matgen_##SFX(struct lp_problem *pr)                                    \
{                                                                                  \
    REAL *a = pr->a0, *b = pr->b0;                                                 \
    uint32_t seed = 20240601u;                                                     \
    memset(a, 0, sizeof(REAL) * (size_t)pr->lda * (size_t)pr->n);                  \
    for (int j = 0; j < pr->n; j++)                                                \
        for (int i = 0; i < pr->n; i++) {                                          \
            seed = seed * 1664525u + 1013904223u;                                  \
            a[(size_t)j * pr->lda + i] = (REAL)((double)(seed >> 16) / 16384.0 - 2.0); \
        }                                                                          \
    for (int i = 0; i < pr->n; i++) {                                              \
        REAL s = 0;                                                                \
        for (int j = 0; j < pr->n; j++)                                            \
            s += a[(size_t)j * pr->lda + i];                                       \
        b[i] = s;                                                                  \
    }                                                                              \
}                                                                                  \
                                                                                   \
/* A fresh copy of the system, as every repetition starts from. */          \
static void restore_##SFX(struct lp_problem *pr)                                   \
{                                                                                  \
    memcpy(pr->a, pr->a0, sizeof(REAL) * (size_t)pr->lda * (size_t)pr->n);         \
    memcpy(pr->b, pr->b0, sizeof(REAL) * (size_t)pr->n);                           \
}                                                                                  \
                                                                                   \
/* One repetition: factor and solve; false when the matrix is singular. */        \
static bool solve_##SFX(struct lp_problem *pr)                                     \
{                                                                                  \
    if (gefa_##SFX(pr->a, pr->lda, pr->n, pr->ipvt) >= 0)                          \
        return false;                                                              \
    gesl_##SFX(pr->a, pr->lda, pr->n, pr->ipvt, pr->b);                            \
    return true;                                                                   \
}                                                                                  \
                                                                                   \
/* Normalised residual of the solution in b against the pristine system,          \
 * computed in double; *xerr gets max |x_i - 1|. */                                \
static double resid_##SFX(const struct lp_problem *pr, double *xerr)               \
{                                                                                  \
    const REAL *a = pr->a0, *b0 = pr->b0, *x = pr->b;                              \
    double rmax = 0, anorm = 0, xnorm = 0;                                         \
    *xerr = 0;                                                                     \
    for (int i = 0; i < pr->n; i++) {                                              \
        double s = 0;                                                              \
        for (int j = 0; j < pr->n; j++) {                                          \
            double aij = a[(size_t)j * pr->lda + i];                               \
            s += aij * (double)x[j];                                               \
            if (fabs(aij) > anorm)                                                 \
                anorm = fabs(aij);                                                 \
        }                                                                          \
        double r = fabs(s - (double)b0[i]);                                        \
        if (!(r <= rmax))                                                          \
            rmax = r;                                                              \
        if (!(fabs((double)x[i]) <= xnorm))                                        \
            xnorm = fabs((double)x[i]);                                            \
        double e = fabs((double)x[i] - 1.0);                                       \
        if (!(e <= *xerr))                                                         \
            *xerr = e;                                                             \
    }                                                                              \
    double eps = sizeof(REAL) == sizeof(float) ? FLT_EPSILON : DBL_EPSILON;        \
    return rmax / ((double)pr->n * anorm * xnorm * eps);                           \
}

LINPACK_DEFINE(s, float)
LINPACK_DEFINE(d, double)

/* The operations of one solve, as the benchmark counts them. */
static double linpack_ops(int n)
{
    double dn = n;
    return 2.0 * dn * dn * dn / 3.0 + 2.0 * dn * dn;
}

struct lp_kind {
    size_t elem;
    void (*restore)(struct lp_problem *);
    bool (*solve)(struct lp_problem *);
    double (*resid)(const struct lp_problem *, double *);
    void (*matgen)(struct lp_problem *);
    double xtol;
};

static const struct lp_kind lp_kinds[M_COUNT] = {
    [M_SINGLE] = { sizeof(float), restore_s, solve_s, resid_s, matgen_s, LINPACK_X_TOL },
    [M_DOUBLE] = { sizeof(double), restore_d, solve_d, resid_d, matgen_d, LINPACK_X_TOL * 1e-6 },
};

static void lp_free(struct lp_problem *pr)
{
    free(pr->a);
    free(pr->a0);
    free(pr->b);
    free(pr->b0);
    free(pr->ipvt);
}

static void lp_alloc(struct lp_problem *pr, int n, size_t elem)
{
    pr->n = n;
    pr->lda = 2 * n + 1;        /* 201 for n = 100 */
    size_t mat = (size_t)pr->lda * (size_t)n * elem;
    pr->a = xmalloc(mat);
    pr->a0 = xmalloc(mat);
    pr->b = xmalloc((size_t)n * elem);
    pr->b0 = xmalloc((size_t)n * elem);
    pr->ipvt = xmalloc((size_t)n * sizeof(int));
}

/* Checks the last solution; false after report_fail(). */
static bool lp_check(int m, const struct lp_problem *pr, struct report *r)
{
    double xerr;
    double resid = lp_kinds[m].resid(pr, &xerr);
    if (!(resid < LINPACK_RESID_MAX) || !(xerr < lp_kinds[m].xtol)) {
        report_fail(r, lp_metrics[m].id, "wrong solution: normalised residual %.3g "
                    "(must be below %g), max |x - 1| = %.3g", resid, LINPACK_RESID_MAX, xerr);
        return false;
    }
    return true;
}

/* CPU seconds of up to `reps` factor-and-solves, each timed alone after
 * its fresh copy (the copy is not counted, as the benchmark leaves out
 * the matrix generation). *done gets the repetitions made: fewer when the
 * wall clock passes `deadline` (a crowded core). -1 when singular. */
static double lp_time(int m, struct lp_problem *pr, int reps, double deadline, int *done)
{
    const struct lp_kind *k = &lp_kinds[m];
    double t = 0;
    int n = 0;
    while (n < reps) {
        k->restore(pr);
        double t0 = cpuclock_thread_seconds();
        bool ok = k->solve(pr);
        t += cpuclock_thread_seconds() - t0;
        if (!ok)
            return -1;
        n++;
        if (n >= LINPACK_REPS_MIN && (n & 15) == 0 && deadline > 0 && now_seconds() > deadline)
            break;
    }
    *done = n;
    return t > 0 ? t : 1e-9;
}

static int lp_run(const struct kernel_params *p, struct report *r)
{
    int n = LINPACK_N;
    if (p->size) {
        n = p->size > LINPACK_N_MAX ? LINPACK_N_MAX : p->size < 2 ? 2 : (int)p->size;
        report_note(r, "order %d instead of the benchmark's %d: not comparable with the "
                    "guide", n, LINPACK_N);
    }
    int samples = p->iterations > 0 ? p->iterations
                  : p->quick ? LINPACK_SAMPLES_QUICK : LINPACK_SAMPLES_FULL;
    double target = p->quick ? LINPACK_SAMPLE_QUICK : LINPACK_SAMPLE_FULL;
    double ops = linpack_ops(n);

    struct lp_problem pr[M_COUNT];
    int reps[M_COUNT];
    bool ok[M_COUNT];
    double resid_seen[M_COUNT];
    int wanted = 0;
    for (int m = 0; m < M_COUNT; m++) {
        memset(&pr[m], 0, sizeof pr[m]);
        reps[m] = 0;
        resid_seen[m] = 0;
        /* a precision p->only does not want is not set up nor timed */
        ok[m] = kernel_wants(p, lp_metrics[m].id);
        if (!ok[m])
            continue;
        wanted++;
        lp_alloc(&pr[m], n, lp_kinds[m].elem);
        lp_kinds[m].matgen(&pr[m]);
        /* Calibrate: repetitions for the sample time, at least 10. */
        int k = LINPACK_REPS_MIN;
        double t;
        for (;;) {
            int made;
            t = lp_time(m, &pr[m], k, 0, &made);
            if (t < 0 || t >= target / 20 || k >= 10000000)
                break;
            k *= 2;
        }
        reps[m] = 0;
        if (t < 0) {
            report_fail(r, lp_metrics[m].id, "the test matrix is singular");
            ok[m] = false;
        } else {
            double want = target / (t / k);
            reps[m] = want < LINPACK_REPS_MIN ? LINPACK_REPS_MIN
                      : want > 1e8 ? 100000000 : (int)want;
            ok[m] = lp_check(m, &pr[m], r);
            double xerr;
            resid_seen[m] = lp_kinds[m].resid(&pr[m], &xerr);
        }
    }

    /* Samples alternate between the precisions, so that a noisy moment
     * on a shared machine does not fall on one of them only. */
    double total = (double)samples * wanted, done = 0;
    double wall0 = now_seconds(), cpu0 = cpuclock_thread_seconds();
    for (int s = 0; s < samples; s++) {
        for (int m = 0; m < M_COUNT; m++) {
            if (!kernel_wants(p, lp_metrics[m].id))
                continue;
            if (!ok[m]) {
                done++;
                continue;
            }
            int made = 0;
            double deadline = p->size ? 0 : now_seconds() + KERNEL_WALL_FACTOR * target;
            double secs = lp_time(m, &pr[m], reps[m], deadline, &made);
            if (secs < 0)
                report_fail(r, lp_metrics[m].id, "the test matrix became singular");
            if (secs < 0 || !lp_check(m, &pr[m], r)) {
                ok[m] = false;
                done++;
                continue;
            }
            report_sample(r, lp_metrics[m].id, ops * made / secs / 1000.0);
            report_progress(r, ++done, total);
        }
    }

    cpucheck_share_note(r, sched_getcpu(), now_seconds() - wall0,
                        cpuclock_thread_seconds() - cpu0);
    int rc = ok[M_SINGLE] || ok[M_DOUBLE] ? 0 : -1;
    if (ok[M_SINGLE] && ok[M_DOUBLE])
        report_note(r, "order %d, leading dimension %d, unrolled BLAS; %d (single) and "
                    "%d (double) repetitions per sample; normalised residual %.2f (single), "
                    "%.2f (double)", n, pr[0].lda, reps[M_SINGLE], reps[M_DOUBLE],
                    resid_seen[M_SINGLE], resid_seen[M_DOUBLE]);
    for (int m = 0; m < M_COUNT; m++)
        if (kernel_wants(p, lp_metrics[m].id))
            lp_free(&pr[m]);
    return rc;
}

const struct kernel kernel_linpack = {
    .name = "linpack",
    .section = "linpack",
    .description = "LINPACK 100x100 solve with partial pivoting, unrolled BLAS: single "
                   "precision (the SDK binary, the guide's row) and double, in Kflops "
                   "(size = matrix order)",
    .metrics = lp_metrics,
    .nmetrics = M_COUNT,
    .budget_quick_s = 2.2,
    .budget_full_s = 11.0,
    .run = lp_run,
};
