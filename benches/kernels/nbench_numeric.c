/* nbench_numeric.c - BYTEmark Fourier coefficients, neural net and LU
 * decomposition (the floating-point index).
 *
 * Fourier: the first n Fourier coefficients of (x+1)^x, taken as a wave
 * of period 2 on [0,2], each integrated with the trapezoidal rule over
 * 200 steps (pow, sin and cos dominate). The iteration count is the
 * number of coefficients, 2n - 1 (there is no B[0]).
 * Neural net: a back-propagation network after Maureen Caudill's BYTE
 * article, 35 input neurodes (a 5 x 7 character image), 8 middle and 8
 * output neurodes (the character's 8-bit ASCII code), sigmoid units,
 * learning rate and momentum 0.09, taught the letters A to J until every
 * output of every pattern is within 0.1 of its target. Learning cycles
 * start from fresh random weights (+-0.25). BYTE's iteration is one
 * learning cycle, which it documents as 780 passes over its patterns;
 * cycles on these glyphs take fewer passes (about 200, it depends on the
 * weights), so iterations are counted in BYTE's cycles: passes / 780.
 * The time per pass is what is measured either way.
 * LU decomposition: a 101 x 101 system A x = b with a known solution,
 * built from a random diagonal matrix whose rows are scrambled by adding
 * rows to one another and scaling them, solved by Crout's method with
 * implicit partial pivoting and back substitution (after Numerical
 * Recipes). An iteration is one system solved. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benches/kernels/nbench.h"

/* --- Fourier ------------------------------------------------------------- */

static double wave(double x, double omega_n, int kind)
{
    double y = pow(x + 1.0, x);
    return kind == 0 ? y : kind == 1 ? y * cos(omega_n * x) : y * sin(omega_n * x);
}

static double trapezoid(double omega_n, int kind)
{
    const double x0 = 0.0, x1 = 2.0;
    const double dx = (x1 - x0) / NB_FOURIER_STEPS;
    double sum = (wave(x0, omega_n, kind) + wave(x1, omega_n, kind)) / 2.0;
    for (int k = 1; k < NB_FOURIER_STEPS; k++)
        sum += wave(x0 + k * dx, omega_n, kind);
    return sum * dx;
}

void nb_fourier_coeffs(double *a, double *b, size_t n)
{
    const double omega = 3.14159265358979323846;     /* 2 pi / period 2 */
    a[0] = trapezoid(0.0, 0) / 2.0;
    b[0] = 0.0;
    for (size_t i = 1; i < n; i++) {
        a[i] = trapezoid(omega * (double)i, 1);
        b[i] = trapezoid(omega * (double)i, 2);
    }
}

struct fourier {
    size_t n;
    double *a, *b;
};

static void fourier_destroy(void *p)
{
    struct fourier *s = p;
    if (!s)
        return;
    free(s->a);
    free(s->b);
    free(s);
}

static void *fourier_create(size_t units)
{
    struct fourier *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->n = units < 4 ? 4 : units;
    s->a = calloc(s->n, sizeof *s->a);
    s->b = calloc(s->n, sizeof *s->b);
    if (!s->a || !s->b) {
        fourier_destroy(s);
        return NULL;
    }
    return s;
}

static void fourier_prepare(void *p)
{
    struct fourier *s = p;
    memset(s->a, 0, s->n * sizeof *s->a);
    memset(s->b, 0, s->n * sizeof *s->b);
}

static double fourier_run(void *p)
{
    struct fourier *s = p;
    nb_fourier_coeffs(s->a, s->b, s->n);
    return 2.0 * (double)s->n - 1.0;
}

static bool fourier_check(void *p, char *why, size_t len)
{
    /* The integrals to 1e-12 (Simpson, 2e5 steps); 200 trapezoids are
     * within 1e-3 of them for these terms. */
    static const struct { char ab; int i; double v; } exact[] = {
        { 'A', 0, 2.8819181375448206 },
        { 'A', 1, 1.1340355956736536 }, { 'B', 1, -1.8820902650209945 },
        { 'A', 2, 0.3622204698650990 }, { 'B', 2, -1.1648064092784105 },
        { 'A', 3, 0.1703170826627614 }, { 'B', 3, -0.8147093206839401 },
    };
    struct fourier *s = p;
    for (size_t k = 0; k < sizeof exact / sizeof *exact; k++) {
        double got = (exact[k].ab == 'A' ? s->a : s->b)[exact[k].i];
        if (!(fabs(got - exact[k].v) <= 2e-3)) {
            snprintf(why, len, "%c[%d] = %.6g, expected %.6g", exact[k].ab, exact[k].i,
                     got, exact[k].v);
            return false;
        }
    }
    for (size_t i = 0; i < s->n; i++)
        if (!isfinite(s->a[i]) || !isfinite(s->b[i]) || fabs(s->a[i]) > 10 || fabs(s->b[i]) > 10) {
            snprintf(why, len, "coefficient %zu is out of range (%g, %g)", i, s->a[i], s->b[i]);
            return false;
        }
    return true;
}

static void fourier_corrupt(void *p)
{
    struct fourier *s = p;
    s->b[1] = -s->b[1];
}

const struct nb_workload nb_fourier = {
    .id = "fourier",
    .what = "Fourier coefficients of (x+1)^x, 200-step trapezoids; "
            "iterations = coefficients",
    .unit_start = 100,
    .unit_bytes = 2 * sizeof(double),
    .create = fourier_create,
    .destroy = fourier_destroy,
    .prepare = fourier_prepare,
    .run = fourier_run,
    .check = fourier_check,
    .corrupt = fourier_corrupt,
};

/* --- neural net ---------------------------------------------------------- */

#define NNET_RATE     0.09      /* learning rate (beta) */
#define NNET_MOMENTUM 0.09      /* momentum (alpha) */
#define NNET_STOP     0.1       /* learned when every error is below */
#define NNET_MAX_PASSES 100000
#define NNET_BYTE_PASSES 780     /* BYTE: "It should learn in 780 passes" */

/* Letters A..J, 5 x 7 pixels. */
static const char *const nnet_glyphs[NB_NNET_PATTERNS][7] = {
    { ".###.", "#...#", "#...#", "#####", "#...#", "#...#", "#...#" },
    { "####.", "#...#", "#...#", "####.", "#...#", "#...#", "####." },
    { ".###.", "#...#", "#....", "#....", "#....", "#...#", ".###." },
    { "####.", "#...#", "#...#", "#...#", "#...#", "#...#", "####." },
    { "#####", "#....", "#....", "####.", "#....", "#....", "#####" },
    { "#####", "#....", "#....", "####.", "#....", "#....", "#...." },
    { ".###.", "#...#", "#....", "#.###", "#...#", "#...#", ".###." },
    { "#...#", "#...#", "#...#", "#####", "#...#", "#...#", "#...#" },
    { ".###.", "..#..", "..#..", "..#..", "..#..", "..#..", ".###." },
    { "..###", "...#.", "...#.", "...#.", "...#.", "#..#.", ".##.." },
};

struct nb_nnet {
    double in[NB_NNET_PATTERNS][NB_NNET_IN];
    double target[NB_NNET_PATTERNS][NB_NNET_OUT];
    double w_mid[NB_NNET_MID][NB_NNET_IN], w_out[NB_NNET_OUT][NB_NNET_MID];
    double d_mid[NB_NNET_MID][NB_NNET_IN], d_out[NB_NNET_OUT][NB_NNET_MID];
    double mid[NB_NNET_MID], out[NB_NNET_OUT];
    double e_mid[NB_NNET_MID], e_out[NB_NNET_OUT];
};

struct nb_nnet *nb_nnet_new(void)
{
    struct nb_nnet *n = calloc(1, sizeof *n);
    if (!n)
        return NULL;
    for (int p = 0; p < NB_NNET_PATTERNS; p++) {
        for (int y = 0; y < 7; y++)
            for (int x = 0; x < 5; x++)
                n->in[p][y * 5 + x] = nnet_glyphs[p][y][x] == '#' ? 1.0 : 0.0;
        unsigned code = (unsigned)('A' + p);
        for (int b = 0; b < NB_NNET_OUT; b++)
            n->target[p][b] = (code >> (NB_NNET_OUT - 1 - b)) & 1 ? 1.0 : 0.0;
    }
    return n;
}

void nb_nnet_free(struct nb_nnet *n)
{
    free(n);
}

static double sigmoid(double x)
{
    return 1.0 / (1.0 + exp(-x));
}

static void nnet_forward(struct nb_nnet *n, int p)
{
    for (int j = 0; j < NB_NNET_MID; j++) {
        double sum = 0.0;
        for (int i = 0; i < NB_NNET_IN; i++)
            sum += n->w_mid[j][i] * n->in[p][i];
        n->mid[j] = sigmoid(sum);
    }
    for (int k = 0; k < NB_NNET_OUT; k++) {
        double sum = 0.0;
        for (int j = 0; j < NB_NNET_MID; j++)
            sum += n->w_out[k][j] * n->mid[j];
        n->out[k] = sigmoid(sum);
    }
}

/* Output errors (target - output, the cross-entropy gradient), the middle
 * layer's back-propagated errors, then the delta rule with momentum.
 * Returns the pattern's worst output error before the update. */
static double nnet_backward(struct nb_nnet *n, int p)
{
    double worst = 0.0;
    for (int k = 0; k < NB_NNET_OUT; k++) {
        n->e_out[k] = n->target[p][k] - n->out[k];
        if (fabs(n->e_out[k]) > worst)
            worst = fabs(n->e_out[k]);
    }
    for (int j = 0; j < NB_NNET_MID; j++) {
        double sum = 0.0;
        for (int k = 0; k < NB_NNET_OUT; k++)
            sum += n->w_out[k][j] * n->e_out[k];
        n->e_mid[j] = n->mid[j] * (1.0 - n->mid[j]) * sum;
    }
    for (int k = 0; k < NB_NNET_OUT; k++)
        for (int j = 0; j < NB_NNET_MID; j++) {
            double d = NNET_RATE * n->e_out[k] * n->mid[j] + NNET_MOMENTUM * n->d_out[k][j];
            n->w_out[k][j] += d;
            n->d_out[k][j] = d;
        }
    for (int j = 0; j < NB_NNET_MID; j++)
        for (int i = 0; i < NB_NNET_IN; i++) {
            double d = NNET_RATE * n->e_mid[j] * n->in[p][i] + NNET_MOMENTUM * n->d_mid[j][i];
            n->w_mid[j][i] += d;
            n->d_mid[j][i] = d;
        }
    return worst;
}

/* Uniform in [-r, r], from 1e5 steps like BYTE's generator. */
static double nnet_weight(struct nb_rng *g, double r)
{
    return ((double)nb_rng_below(g, 100001) / 100000.0 - 0.5) * 2.0 * r;
}

unsigned nb_nnet_learn(struct nb_nnet *n, struct nb_rng *g, unsigned max_passes)
{
    for (int j = 0; j < NB_NNET_MID; j++)
        for (int i = 0; i < NB_NNET_IN; i++) {
            n->w_mid[j][i] = nnet_weight(g, 0.25);
            n->d_mid[j][i] = 0.0;
        }
    for (int k = 0; k < NB_NNET_OUT; k++)
        for (int j = 0; j < NB_NNET_MID; j++) {
            n->w_out[k][j] = nnet_weight(g, 0.25);
            n->d_out[k][j] = 0.0;
        }
    for (unsigned pass = 1; pass <= max_passes; pass++) {
        double worst = 0.0;
        for (int p = 0; p < NB_NNET_PATTERNS; p++) {
            nnet_forward(n, p);
            double w = nnet_backward(n, p);
            if (w > worst)
                worst = w;
        }
        if (worst < NNET_STOP)
            return pass;
    }
    return 0;
}

int nb_nnet_classify(const struct nb_nnet *n, int p)
{
    struct nb_nnet *t = malloc(sizeof *t);
    if (!t)
        return -1;
    *t = *n;
    nnet_forward(t, p);
    int best = -1;
    double best_err = INFINITY;
    for (int q = 0; q < NB_NNET_PATTERNS; q++) {
        double err = 0.0;
        for (int k = 0; k < NB_NNET_OUT; k++)
            err = fmax(err, fabs(t->target[q][k] - t->out[k]));
        if (err < best_err) {
            best_err = err;
            best = q;
        }
    }
    free(t);
    return best;
}

struct nnet {
    size_t loops;
    struct nb_nnet *net;
    struct nb_rng g;
    unsigned passes, failed;    /* of the last cycle; cycles that failed */
};

static void nnet_destroy(void *p)
{
    struct nnet *s = p;
    if (!s)
        return;
    nb_nnet_free(s->net);
    free(s);
}

static void *nnet_create(size_t units)
{
    struct nnet *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->loops = units;
    s->net = nb_nnet_new();
    if (!s->net) {
        nnet_destroy(s);
        return NULL;
    }
    return s;
}

static void nnet_prepare(void *p)
{
    struct nnet *s = p;
    nb_rng_seed(&s->g, 3);      /* every call learns from the same weights */
}

static double nnet_run(void *p)
{
    struct nnet *s = p;
    double passes = 0;
    s->failed = 0;
    for (size_t l = 0; l < s->loops; l++) {
        s->passes = nb_nnet_learn(s->net, &s->g, NNET_MAX_PASSES);
        passes += s->passes ? s->passes : NNET_MAX_PASSES;
        if (!s->passes)
            s->failed++;
    }
    return passes / NNET_BYTE_PASSES;
}

static bool nnet_check(void *p, char *why, size_t len)
{
    struct nnet *s = p;
    if (s->failed) {
        snprintf(why, len, "%u of %zu learning cycles did not converge in %d passes",
                 s->failed, s->loops, NNET_MAX_PASSES);
        return false;
    }
    for (int q = 0; q < NB_NNET_PATTERNS; q++) {
        int got = nb_nnet_classify(s->net, q);
        if (got != q) {
            snprintf(why, len, "the trained net reads letter %c as %c", 'A' + q,
                     got < 0 ? '?' : 'A' + got);
            return false;
        }
    }
    return true;
}

static void nnet_corrupt(void *p)
{
    struct nnet *s = p;
    for (int k = 0; k < NB_NNET_OUT; k++)
        for (int j = 0; j < NB_NNET_MID; j++)
            s->net->w_out[k][j] = 0.0;
}

const struct nb_workload nb_neural_net = {
    .id = "neural_net",
    .what = "back-propagation net 35-8-8 taught letters A-J; "
            "iterations = learning cycles of 780 passes (BYTE's)",
    .unit_start = 1,
    .create = nnet_create,
    .destroy = nnet_destroy,
    .prepare = nnet_prepare,
    .run = nnet_run,
    .check = nnet_check,
    .corrupt = nnet_corrupt,
};

/* --- LU decomposition ------------------------------------------------------ */

bool nb_lu_solve(double *a, double *b, size_t n, double *scale, size_t *perm)
{
    /* Implicit pivoting: each row weighed by its largest element. */
    for (size_t i = 0; i < n; i++) {
        double big = 0.0;
        for (size_t j = 0; j < n; j++)
            big = fmax(big, fabs(a[i * n + j]));
        if (big == 0.0)
            return false;
        scale[i] = 1.0 / big;
    }
    /* Crout, column by column: U above the diagonal, L below it. */
    for (size_t j = 0; j < n; j++) {
        for (size_t i = 0; i < j; i++) {
            double sum = a[i * n + j];
            for (size_t k = 0; k < i; k++)
                sum -= a[i * n + k] * a[k * n + j];
            a[i * n + j] = sum;
        }
        double big = 0.0;
        size_t imax = j;
        for (size_t i = j; i < n; i++) {
            double sum = a[i * n + j];
            for (size_t k = 0; k < j; k++)
                sum -= a[i * n + k] * a[k * n + j];
            a[i * n + j] = sum;
            double w = scale[i] * fabs(sum);
            if (w >= big) {
                big = w;
                imax = i;
            }
        }
        if (imax != j) {
            for (size_t k = 0; k < n; k++) {
                double t = a[imax * n + k];
                a[imax * n + k] = a[j * n + k];
                a[j * n + k] = t;
            }
            scale[imax] = scale[j];
        }
        perm[j] = imax;
        if (a[j * n + j] == 0.0)
            return false;
        double inv = 1.0 / a[j * n + j];
        for (size_t i = j + 1; i < n; i++)
            a[i * n + j] *= inv;
    }
    /* Forward substitution with the row exchanges, then backward. */
    for (size_t i = 0; i < n; i++) {
        double sum = b[perm[i]];
        b[perm[i]] = b[i];
        for (size_t k = 0; k < i; k++)
            sum -= a[i * n + k] * b[k];
        b[i] = sum;
    }
    for (size_t i = n; i-- > 0;) {
        double sum = b[i];
        for (size_t k = i + 1; k < n; k++)
            sum -= a[i * n + k] * b[k];
        b[i] = sum / a[i * n + i];
    }
    return true;
}

#define LU_CELLS (NB_LU_N * NB_LU_N)

struct lu {
    size_t units;
    double *a0, *b0, *x;    /* the problem and its known solution */
    double *a, *b;          /* units copies */
    double scale[NB_LU_N];
    size_t perm[NB_LU_N];
    bool *ok;
};

static void lu_destroy(void *p)
{
    struct lu *s = p;
    if (!s)
        return;
    free(s->a0);
    free(s->b0);
    free(s->x);
    free(s->a);
    free(s->b);
    free(s->ok);
    free(s);
}

/* A diagonal system with a known solution, rows then mixed so that the
 * solution stays the same: row i += row j, row i -= row j, row i *= 2. */
static void lu_problem(double *a, double *b, double *x, size_t n)
{
    struct nb_rng g;
    nb_rng_seed(&g, 13);
    memset(a, 0, n * n * sizeof *a);
    for (size_t i = 0; i < n; i++) {
        double d = 1.0 + nb_rng_below(&g, 1000);
        b[i] = 1.0 + nb_rng_below(&g, 100);
        a[i * n + i] = d;
        x[i] = b[i] / d;
    }
    for (size_t round = 0; round < 8 * n; round++) {
        size_t i = nb_rng_below(&g, (uint32_t)n), j = nb_rng_below(&g, (uint32_t)n);
        if (i == j)
            continue;
        switch (nb_rng_below(&g, 5)) {
        case 0: case 1:
            for (size_t k = 0; k < n; k++)
                a[i * n + k] += a[j * n + k];
            b[i] += b[j];
            break;
        case 2: case 3:
            for (size_t k = 0; k < n; k++)
                a[i * n + k] -= a[j * n + k];
            b[i] -= b[j];
            break;
        default:
            for (size_t k = 0; k < n; k++)
                a[i * n + k] *= 2.0;
            b[i] *= 2.0;
            break;
        }
    }
}

static void *lu_create(size_t units)
{
    struct lu *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->units = units;
    s->a0 = malloc(LU_CELLS * sizeof *s->a0);
    s->b0 = malloc(NB_LU_N * sizeof *s->b0);
    s->x = malloc(NB_LU_N * sizeof *s->x);
    if (units <= SIZE_MAX / (LU_CELLS * sizeof *s->a)) {
        s->a = malloc(units * LU_CELLS * sizeof *s->a);
        s->b = malloc(units * NB_LU_N * sizeof *s->b);
        s->ok = malloc(units * sizeof *s->ok);
    }
    if (!s->a0 || !s->b0 || !s->x || !s->a || !s->b || !s->ok) {
        lu_destroy(s);
        return NULL;
    }
    lu_problem(s->a0, s->b0, s->x, NB_LU_N);
    return s;
}

static void lu_prepare(void *p)
{
    struct lu *s = p;
    for (size_t u = 0; u < s->units; u++) {
        memcpy(s->a + u * LU_CELLS, s->a0, LU_CELLS * sizeof *s->a0);
        memcpy(s->b + u * NB_LU_N, s->b0, NB_LU_N * sizeof *s->b0);
    }
}

static double lu_run(void *p)
{
    struct lu *s = p;
    for (size_t u = 0; u < s->units; u++)
        s->ok[u] = nb_lu_solve(s->a + u * LU_CELLS, s->b + u * NB_LU_N, NB_LU_N,
                               s->scale, s->perm);
    return (double)s->units;
}

static bool lu_check(void *p, char *why, size_t len)
{
    struct lu *s = p;
    for (size_t u = 0; u < s->units; u++) {
        const double *x = s->b + u * NB_LU_N;
        if (!s->ok[u]) {
            snprintf(why, len, "system %zu: the matrix is singular", u);
            return false;
        }
        /* Residual of the original system and distance to the solution. */
        double rmax = 0.0, amax = 0.0, xmax = 0.0;
        for (size_t i = 0; i < NB_LU_N; i++) {
            double r = -s->b0[i];
            for (size_t k = 0; k < NB_LU_N; k++) {
                r += s->a0[i * NB_LU_N + k] * x[k];
                amax = fmax(amax, fabs(s->a0[i * NB_LU_N + k]));
            }
            rmax = fmax(rmax, fabs(r));
            xmax = fmax(xmax, fabs(x[i]));
        }
        double resid = rmax / (NB_LU_N * amax * xmax * 2.220446049250313e-16);
        for (size_t i = 0; i < NB_LU_N; i++)
            if (!(fabs(x[i] - s->x[i]) <= 1e-9 * fabs(s->x[i])) || !(resid < 100.0)) {
                snprintf(why, len, "system %zu: x[%zu] = %.17g, expected %.17g "
                         "(normalised residual %.3g)", u, i, x[i], s->x[i], resid);
                return false;
            }
    }
    return true;
}

static void lu_corrupt(void *p)
{
    struct lu *s = p;
    s->b[NB_LU_N / 2] *= 1.001;
}

const struct nb_workload nb_lu_decomposition = {
    .id = "lu_decomposition",
    .what = "Crout LU with implicit pivoting and solve of a 101 x 101 system; "
            "iterations = systems solved",
    .unit_start = 1,
    .unit_bytes = (LU_CELLS + NB_LU_N) * sizeof(double) + 1,
    .create = lu_create,
    .destroy = lu_destroy,
    .prepare = lu_prepare,
    .run = lu_run,
    .check = lu_check,
    .corrupt = lu_corrupt,
};
