/* change.c - the change between two sets of samples, with its interval
 * (change.h). */
#include "config.h"
#include "common/change.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"

static int cmp_double(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    return a < b ? -1 : a > b ? 1 : 0;
}

/* The median of v[0 .. n), n > 0, sorting v. */
static double median_sorting(double *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The bounds at the confidence for up to 64 samples a side, worked out
 * once each: a check asks for the same few again and again. */
#define RANK_CACHE 65
static struct { size_t k; double coverage; bool done; } rank_cache[RANK_CACHE][RANK_CACHE];

static size_t rank_bound_exact(size_t n, size_t m, double alpha, double *coverage);

size_t change_rank_bound(size_t n, size_t m, double alpha, double *coverage)
{
    if (coverage)
        *coverage = 0;
    if (n == 0 || m == 0 || n > 4096 || m > 4096)
        return 0;
    double any;
    if (fabs(alpha - (1 - CHANGE_CONFIDENCE)) > 1e-12 || n >= RANK_CACHE || m >= RANK_CACHE)
        return rank_bound_exact(n, m, alpha, coverage ? coverage : &any);
    if (!rank_cache[n][m].done) {
        rank_cache[n][m].k = rank_bound_exact(n, m, alpha, &rank_cache[n][m].coverage);
        rank_cache[n][m].done = true;
    }
    if (coverage)
        *coverage = rank_cache[n][m].coverage;
    return rank_cache[n][m].k;
}

static size_t rank_bound_exact(size_t n, size_t m, double alpha, double *coverage)
{
    /* The number of arrangements with U = u are the coefficients of the
     * Gaussian binomial [n+m choose n]_q = prod_{i=1..n} (1 - q^(m+i)) /
     * (1 - q^i). Each step keeps a polynomial of nonnegative coefficients
     * after its division; only the low tail is needed, and it is built
     * from low coefficients only, so it is exact to rounding. */
    size_t deg = n * m;
    double *c = xcalloc(deg + 1, sizeof *c);
    c[0] = 1;
    size_t top = 0;                     /* degree so far */
    for (size_t i = 1; i <= n; i++) {
        size_t up = m + i;
        top += m;                       /* (m+i) added, i taken away */
        for (size_t u = top; u >= up; u--)     /* times (1 - q^(m+i)) */
            c[u] -= c[u - up];
        for (size_t u = i; u <= top; u++)      /* over (1 - q^i) */
            c[u] += c[u - i];
    }
    double total = 0;
    for (size_t u = 0; u <= deg; u++)
        total += c[u];
    double tail = 0;
    size_t k = 0;
    for (size_t u = 0; u <= deg / 2; u++) {
        double next = tail + c[u] / total;
        if (next > alpha / 2)
            break;
        tail = next;
        k = u + 1;                      /* P(U < u + 1) = tail <= alpha / 2 */
    }
    free(c);
    *coverage = k ? 1 - 2 * tail : 0;
    return k;
}

/* The positive, finite samples of v, logged, into out; their count. */
static size_t logs_of(const double *v, size_t n, double *out)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (isfinite(v[i]) && v[i] > 0)
            out[k++] = log(v[i]);
    return k;
}

static double pct_of(double log_ratio)
{
    return expm1(log_ratio) * 100.0;
}

bool change_estimate(const double *before, size_t nb, const double *now, size_t nn,
                     struct change *c)
{
    *c = (struct change){ 0 };
    double *lb = xcalloc(nb ? nb : 1, sizeof *lb), *ln = xcalloc(nn ? nn : 1, sizeof *ln);
    c->n_before = logs_of(before, nb, lb);
    c->n_now = logs_of(now, nn, ln);
    size_t pairs = c->n_before * c->n_now;
    if (pairs) {
        double *d = xcalloc(pairs, sizeof *d);
        size_t k = 0;
        for (size_t i = 0; i < c->n_before; i++)
            for (size_t j = 0; j < c->n_now; j++)
                d[k++] = ln[j] - lb[i];
        c->has_estimate = true;
        c->pct = pct_of(median_sorting(d, pairs));     /* d is sorted now */
        size_t r = change_rank_bound(c->n_before, c->n_now, 1 - CHANGE_CONFIDENCE,
                                     &c->confidence);
        if (r) {
            c->has_interval = true;
            c->low = pct_of(d[r - 1]);
            c->high = pct_of(d[pairs - r]);
        }
        free(d);
    }
    free(lb);
    free(ln);
    return c->has_estimate;
}
