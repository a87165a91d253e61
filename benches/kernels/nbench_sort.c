/* nbench_sort.c - BYTEmark numeric sort, string sort and assignment.
 *
 * Numeric sort: heapsort of arrays of 8111 signed 32-bit integers; an
 * iteration is one array sorted.
 * String sort: heapsort of an 8111-byte array of strings of random length
 * (4 to 80 bytes) kept packed, each preceded by its length, and found
 * through an array of offsets. Exchanging two strings of different
 * lengths resizes their slots, which moves every string after them: the
 * byte-wide, unaligned moves BYTE designed the test around. An iteration
 * is one array sorted.
 * Assignment: the task assignment problem on a 101 x 101 matrix of costs
 * (0 to 4,999,999), solved by the textbook method (reduce rows and
 * columns, assign lone zeros, cover the zeros with the fewest lines,
 * shift the smallest uncovered cost, repeat). An iteration is one matrix
 * solved; the result is checked against the optimum found by shortest
 * augmenting paths.
 *
 * The sorts and the assignment work in place, so each timed call works
 * on `units` copies reloaded by prepare(), as BYTEmark does. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benches/kernels/nbench.h"

/* --- numeric sort ------------------------------------------------------- */

static void sift_i32(int32_t *a, size_t root, size_t n)
{
    for (;;) {
        size_t child = 2 * root + 1;
        if (child >= n)
            return;
        if (child + 1 < n && a[child] < a[child + 1])
            child++;
        if (!(a[root] < a[child]))
            return;
        int32_t t = a[root];
        a[root] = a[child];
        a[child] = t;
        root = child;
    }
}

void nb_heapsort_i32(int32_t *a, size_t n)
{
    if (n < 2)
        return;
    for (size_t i = n / 2; i-- > 0;)
        sift_i32(a, i, n);
    for (size_t end = n - 1; end > 0; end--) {
        int32_t t = a[0];
        a[0] = a[end];
        a[end] = t;
        sift_i32(a, 0, end);
    }
}

struct numsort {
    size_t units;
    int32_t *orig;
    int32_t *data;
    uint64_t sum, sumsq;    /* multiset fingerprint of orig */
};

static void numsort_destroy(void *p)
{
    struct numsort *s = p;
    if (!s)
        return;
    free(s->orig);
    free(s->data);
    free(s);
}

static void *numsort_create(size_t units)
{
    struct numsort *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->units = units;
    s->orig = malloc(NB_NUMSORT_SIZE * sizeof *s->orig);
    s->data = units <= SIZE_MAX / (NB_NUMSORT_SIZE * sizeof *s->data)
              ? malloc(units * NB_NUMSORT_SIZE * sizeof *s->data) : NULL;
    if (!s->orig || !s->data) {
        numsort_destroy(s);
        return NULL;
    }
    struct nb_rng g;
    nb_rng_seed(&g, 13);
    for (size_t i = 0; i < NB_NUMSORT_SIZE; i++) {
        int32_t v = (int32_t)nb_rng_next(&g);
        s->orig[i] = v;
        s->sum += (uint64_t)(int64_t)v;
        s->sumsq += (uint64_t)((int64_t)v * v);
    }
    return s;
}

static void numsort_prepare(void *p)
{
    struct numsort *s = p;
    for (size_t u = 0; u < s->units; u++)
        memcpy(s->data + u * NB_NUMSORT_SIZE, s->orig, NB_NUMSORT_SIZE * sizeof *s->orig);
}

static double numsort_run(void *p)
{
    struct numsort *s = p;
    for (size_t u = 0; u < s->units; u++)
        nb_heapsort_i32(s->data + u * NB_NUMSORT_SIZE, NB_NUMSORT_SIZE);
    return (double)s->units;
}

static bool numsort_check(void *p, char *why, size_t len)
{
    struct numsort *s = p;
    for (size_t u = 0; u < s->units; u++) {
        const int32_t *a = s->data + u * NB_NUMSORT_SIZE;
        uint64_t sum = 0, sumsq = 0;
        for (size_t i = 0; i < NB_NUMSORT_SIZE; i++) {
            if (i && a[i - 1] > a[i]) {
                snprintf(why, len, "array %zu not sorted at element %zu", u, i);
                return false;
            }
            sum += (uint64_t)(int64_t)a[i];
            sumsq += (uint64_t)((int64_t)a[i] * a[i]);
        }
        if (sum != s->sum || sumsq != s->sumsq) {
            snprintf(why, len, "array %zu: sorted values differ from the input", u);
            return false;
        }
    }
    return true;
}

static void numsort_corrupt(void *p)
{
    struct numsort *s = p;
    int32_t t = s->data[0];
    s->data[0] = s->data[1];
    s->data[1] = t;
    s->data[0] ^= 1;
}

const struct nb_workload nb_numeric_sort = {
    .id = "numeric_sort",
    .what = "heapsort of 8111 32-bit integers; iterations = arrays sorted",
    .unit_start = 1,
    .unit_bytes = NB_NUMSORT_SIZE * sizeof(int32_t),
    .create = numsort_create,
    .destroy = numsort_destroy,
    .prepare = numsort_prepare,
    .run = numsort_run,
    .check = numsort_check,
    .corrupt = numsort_corrupt,
};

/* --- string sort -------------------------------------------------------- */

#define STR_SLACK 128   /* a slot may grow by one string while swapping */

/* a < b: bytes compared up to the shorter length, then the shorter first. */
static int str_cmp(const struct nb_strings *s, size_t a, size_t b)
{
    const uint8_t *pa = s->buf + s->off[a], *pb = s->buf + s->off[b];
    size_t la = pa[0], lb = pb[0];
    int c = memcmp(pa + 1, pb + 1, la < lb ? la : lb);
    if (c)
        return c;
    return (la > lb) - (la < lb);
}

/* Puts the string src (length byte first) into slot k, moving every
 * later string when the length changes. */
static void str_put(struct nb_strings *s, size_t k, const uint8_t *src)
{
    size_t at = s->off[k];
    size_t oldlen = s->buf[at], newlen = src[0];
    if (newlen != oldlen && k + 1 < s->n) {
        size_t from = s->off[k + 1];
        memmove(s->buf + at + 1 + newlen, s->buf + from, s->used - from);
        for (size_t j = k + 1; j < s->n; j++)
            s->off[j] = (uint32_t)(s->off[j] + newlen - oldlen);
    }
    s->used = s->used + newlen - oldlen;
    memcpy(s->buf + at, src, newlen + 1);
}

static void str_swap(struct nb_strings *s, size_t a, size_t b)
{
    uint8_t ta[NB_STR_MAX + 1], tb[NB_STR_MAX + 1];
    memcpy(ta, s->buf + s->off[a], s->buf[s->off[a]] + 1u);
    memcpy(tb, s->buf + s->off[b], s->buf[s->off[b]] + 1u);
    str_put(s, a, tb);
    str_put(s, b, ta);
}

static void str_sift(struct nb_strings *s, size_t root, size_t n)
{
    for (;;) {
        size_t child = 2 * root + 1;
        if (child >= n)
            return;
        if (child + 1 < n && str_cmp(s, child, child + 1) < 0)
            child++;
        if (str_cmp(s, root, child) >= 0)
            return;
        str_swap(s, root, child);
        root = child;
    }
}

void nb_strsort(struct nb_strings *s)
{
    if (s->n < 2)
        return;
    for (size_t i = s->n / 2; i-- > 0;)
        str_sift(s, i, s->n);
    for (size_t end = s->n - 1; end > 0; end--) {
        str_swap(s, 0, end);
        str_sift(s, 0, end);
    }
}

bool nb_strings_sorted(const struct nb_strings *s)
{
    for (size_t k = 1; k < s->n; k++)
        if (str_cmp(s, k - 1, k) > 0)
            return false;
    return true;
}

struct strsort {
    size_t units, n;
    uint8_t *orig_buf, *buf;
    uint32_t *orig_off, *off;
    size_t used;
    uint64_t print;         /* order-independent fingerprint of the strings */
};

static uint64_t str_hash(const uint8_t *p)
{
    uint64_t h = 1469598103934665603u;
    for (size_t i = 0; i <= p[0]; i++)
        h = (h ^ p[i]) * 1099511628211u;
    return h;
}

static uint64_t strings_print(const uint8_t *buf, const uint32_t *off, size_t n)
{
    uint64_t sum = 0;
    for (size_t k = 0; k < n; k++)
        sum += str_hash(buf + off[k]);
    return sum;
}

static void strsort_destroy(void *p)
{
    struct strsort *s = p;
    if (!s)
        return;
    free(s->orig_buf);
    free(s->buf);
    free(s->orig_off);
    free(s->off);
    free(s);
}

#define STR_STRIDE (NB_STRSORT_SIZE + STR_SLACK)

static void *strsort_create(size_t units)
{
    struct strsort *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->units = units;
    s->orig_buf = malloc(STR_STRIDE);
    s->orig_off = malloc(NB_STRSORT_SIZE / (NB_STR_MIN + 1) * sizeof *s->orig_off + 16);
    if (!s->orig_buf || !s->orig_off)
        goto fail;

    /* Random strings until the array is full; the last one takes what is
     * left. Bytes are 1..254, as printable as BYTE's. */
    struct nb_rng g;
    nb_rng_seed(&g, 13);
    size_t at = 0;
    while (at + 1 < NB_STRSORT_SIZE) {
        size_t len = NB_STR_MIN + nb_rng_below(&g, NB_STR_MAX - NB_STR_MIN + 1);
        if (at + 1 + len > NB_STRSORT_SIZE)
            len = NB_STRSORT_SIZE - at - 1;
        s->orig_off[s->n++] = (uint32_t)at;
        s->orig_buf[at] = (uint8_t)len;
        for (size_t i = 1; i <= len; i++)
            s->orig_buf[at + i] = (uint8_t)(1 + nb_rng_below(&g, 254));
        at += len + 1;
    }
    s->used = at;
    s->print = strings_print(s->orig_buf, s->orig_off, s->n);

    if (units > SIZE_MAX / STR_STRIDE || units > SIZE_MAX / (s->n * sizeof *s->off))
        goto fail;
    s->buf = malloc(units * STR_STRIDE);
    s->off = malloc(units * s->n * sizeof *s->off);
    if (!s->buf || !s->off)
        goto fail;
    return s;
fail:
    strsort_destroy(s);
    return NULL;
}

static void strsort_prepare(void *p)
{
    struct strsort *s = p;
    for (size_t u = 0; u < s->units; u++) {
        memcpy(s->buf + u * STR_STRIDE, s->orig_buf, s->used);
        memcpy(s->off + u * s->n, s->orig_off, s->n * sizeof *s->off);
    }
}

static struct nb_strings strsort_array(struct strsort *s, size_t u)
{
    return (struct nb_strings) {
        .buf = s->buf + u * STR_STRIDE, .off = s->off + u * s->n,
        .n = s->n, .used = s->used,
    };
}

static double strsort_run(void *p)
{
    struct strsort *s = p;
    for (size_t u = 0; u < s->units; u++) {
        struct nb_strings a = strsort_array(s, u);
        nb_strsort(&a);
    }
    return (double)s->units;
}

static bool strsort_check(void *p, char *why, size_t len)
{
    struct strsort *s = p;
    for (size_t u = 0; u < s->units; u++) {
        struct nb_strings a = strsort_array(s, u);
        if (!nb_strings_sorted(&a)) {
            snprintf(why, len, "string array %zu is not sorted", u);
            return false;
        }
        size_t end = a.off[a.n - 1] + a.buf[a.off[a.n - 1]] + 1u;
        if (end != s->used || strings_print(a.buf, a.off, a.n) != s->print) {
            snprintf(why, len, "string array %zu: sorted strings differ from the input", u);
            return false;
        }
    }
    return true;
}

static void strsort_corrupt(void *p)
{
    struct strsort *s = p;
    s->buf[s->off[0] + 1] = 255;    /* the first string now sorts last */
}

const struct nb_workload nb_string_sort = {
    .id = "string_sort",
    .what = "heapsort of 8111 bytes of 4-80 byte strings, moved in place; "
            "iterations = arrays sorted",
    .unit_start = 1,
    .unit_bytes = STR_STRIDE + NB_STRSORT_SIZE / 2 * sizeof(uint32_t),
    .create = strsort_create,
    .destroy = strsort_destroy,
    .prepare = strsort_prepare,
    .run = strsort_run,
    .check = strsort_check,
    .corrupt = strsort_corrupt,
};

/* --- assignment --------------------------------------------------------- */

enum { FREE = 0, ASSIGNED = 1, CROSSED = 2 };

static void reduce(int32_t *t, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        int32_t *row = t + i * n, lo = row[0];
        for (size_t j = 1; j < n; j++)
            if (row[j] < lo)
                lo = row[j];
        for (size_t j = 0; j < n; j++)
            row[j] -= lo;
    }
    for (size_t j = 0; j < n; j++) {
        int32_t lo = t[j];
        for (size_t i = 1; i < n; i++)
            if (t[i * n + j] < lo)
                lo = t[i * n + j];
        if (lo)
            for (size_t i = 0; i < n; i++)
                t[i * n + j] -= lo;
    }
}

/* Assigns zero (i, j) and crosses the other free zeros of its row and
 * of its column (a lone zero has no others on its own line). */
static void take(const int32_t *t, uint8_t *mark, size_t n, size_t i, size_t j,
                 bool row, bool col)
{
    for (size_t k = 0; k < n; k++) {
        if (row && t[i * n + k] == 0 && mark[i * n + k] == FREE)
            mark[i * n + k] = CROSSED;
        if (col && t[k * n + j] == 0 && mark[k * n + j] == FREE)
            mark[k * n + j] = CROSSED;
    }
    mark[i * n + j] = ASSIGNED;
}

/* Assigns lone zeros of rows, then of columns, until none is left, then
 * takes the first free zero of each row. Returns the assignments. */
static size_t assign_zeros(const int32_t *t, uint8_t *mark, size_t n)
{
    size_t total = 0, made;
    memset(mark, FREE, n * n);
    do {
        made = 0;
        for (size_t i = 0; i < n; i++) {
            size_t zeros = 0, at = 0;
            for (size_t j = 0; j < n; j++)
                if (t[i * n + j] == 0 && mark[i * n + j] == FREE) {
                    zeros++;
                    at = j;
                }
            if (zeros == 1) {
                take(t, mark, n, i, at, false, true);
                made++;
            }
        }
        for (size_t j = 0; j < n; j++) {
            size_t zeros = 0, at = 0;
            for (size_t i = 0; i < n; i++)
                if (t[i * n + j] == 0 && mark[i * n + j] == FREE) {
                    zeros++;
                    at = i;
                }
            if (zeros == 1) {
                take(t, mark, n, at, j, true, false);
                made++;
            }
        }
        total += made;
    } while (made);
    for (size_t i = 0; i < n && total < n; i++)
        for (size_t j = 0; j < n; j++)
            if (t[i * n + j] == 0 && mark[i * n + j] == FREE) {
                take(t, mark, n, i, j, true, true);
                total++;
                break;
            }
    return total;
}

/* Row i takes a zero column, moving the column's owner to another zero
 * when it can (an augmenting path). */
static bool augment(const int32_t *t, uint8_t *mark, size_t n, size_t i,
                    int16_t *row_of_col, uint8_t *seen)
{
    for (size_t j = 0; j < n; j++) {
        if (t[i * n + j] != 0 || seen[j])
            continue;
        seen[j] = 1;
        int owner = row_of_col[j];
        if (owner < 0 || augment(t, mark, n, (size_t)owner, row_of_col, seen)) {
            if (owner >= 0)
                mark[(size_t)owner * n + j] = CROSSED;
            row_of_col[j] = (int16_t)i;
            mark[i * n + j] = ASSIGNED;
            return true;
        }
    }
    return false;
}

/* The first choices among several zeros can leave rows unassigned that
 * could be assigned; then the lines may cover every column. Completes
 * the assignment along augmenting paths (rare with random costs: only
 * when the lines leave no cost uncovered). Returns the assignments. */
static size_t maximise(const int32_t *t, uint8_t *mark, size_t n, size_t total)
{
    int16_t row_of_col[256];
    uint8_t seen[256];
    bool has[256];
    for (size_t j = 0; j < n; j++)
        row_of_col[j] = -1;
    for (size_t i = 0; i < n; i++) {
        has[i] = false;
        for (size_t j = 0; j < n; j++)
            if (mark[i * n + j] == ASSIGNED) {
                row_of_col[j] = (int16_t)i;
                has[i] = true;
            }
    }
    for (size_t i = 0; i < n && total < n; i++)
        if (!has[i]) {
            memset(seen, 0, n);
            if (augment(t, mark, n, i, row_of_col, seen))
                total++;
        }
    return total;
}

/* Covers the zeros with lines (unticked rows, ticked columns) and moves
 * the smallest uncovered cost. Returns false when nothing is uncovered. */
static bool shift_costs(int32_t *t, const uint8_t *mark, size_t n,
                        uint8_t *rowtick, uint8_t *coltick)
{
    memset(coltick, 0, n);
    for (size_t i = 0; i < n; i++) {
        rowtick[i] = 1;
        for (size_t j = 0; j < n; j++)
            if (mark[i * n + j] == ASSIGNED) {
                rowtick[i] = 0;
                break;
            }
    }
    size_t added;
    do {
        added = 0;
        for (size_t i = 0; i < n; i++)
            if (rowtick[i])
                for (size_t j = 0; j < n; j++)
                    if (t[i * n + j] == 0)
                        coltick[j] = 1;
        for (size_t j = 0; j < n; j++)
            if (coltick[j])
                for (size_t i = 0; i < n; i++)
                    if (mark[i * n + j] == ASSIGNED && !rowtick[i]) {
                        rowtick[i] = 1;
                        added++;
                    }
    } while (added);

    int32_t lo = INT32_MAX;
    for (size_t i = 0; i < n; i++)
        if (rowtick[i])
            for (size_t j = 0; j < n; j++)
                if (!coltick[j] && t[i * n + j] < lo)
                    lo = t[i * n + j];
    if (lo == INT32_MAX || lo == 0)
        return false;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++) {
            if (rowtick[i] && !coltick[j])
                t[i * n + j] -= lo;
            else if (!rowtick[i] && coltick[j])
                t[i * n + j] += lo;
        }
    return true;
}

#define ASSIGN_MAX_ROUNDS 100000

bool nb_assign_solve(int32_t *cost, size_t n, uint8_t *mark, int16_t *col)
{
    uint8_t rowtick[256], coltick[256];
    if (n == 0 || n > sizeof rowtick)
        return false;
    reduce(cost, n);
    int rounds = 0;
    for (;;) {
        size_t made = assign_zeros(cost, mark, n);
        if (made == n)
            break;
        if (++rounds > ASSIGN_MAX_ROUNDS)
            return false;
        if (shift_costs(cost, mark, n, rowtick, coltick))
            continue;
        /* No cost left uncovered: the first choices were not the most. */
        if (maximise(cost, mark, n, made) == n)
            break;
        if (!shift_costs(cost, mark, n, rowtick, coltick))
            return false;
    }
    for (size_t i = 0; i < n; i++) {
        col[i] = -1;
        for (size_t j = 0; j < n; j++)
            if (mark[i * n + j] == ASSIGNED)
                col[i] = (int16_t)j;
    }
    return true;
}

/* Shortest augmenting paths with row and column potentials, O(n^3). */
int64_t nb_assign_optimum(const int32_t *cost, size_t n)
{
    int64_t *u = calloc(n + 1, sizeof *u), *v = calloc(n + 1, sizeof *v);
    int64_t *minv = malloc((n + 1) * sizeof *minv);
    size_t *p = calloc(n + 1, sizeof *p), *way = calloc(n + 1, sizeof *way);
    bool *used = malloc((n + 1) * sizeof *used);
    int64_t total = -1;
    if (!u || !v || !minv || !p || !way || !used)
        goto out;
    for (size_t i = 1; i <= n; i++) {
        size_t j0 = 0;
        p[0] = i;
        for (size_t j = 0; j <= n; j++) {
            minv[j] = INT64_MAX;
            used[j] = false;
        }
        do {
            used[j0] = true;
            size_t i0 = p[j0], j1 = 0;
            int64_t delta = INT64_MAX;
            for (size_t j = 1; j <= n; j++)
                if (!used[j]) {
                    int64_t cur = cost[(i0 - 1) * n + (j - 1)] - u[i0] - v[j];
                    if (cur < minv[j]) {
                        minv[j] = cur;
                        way[j] = j0;
                    }
                    if (minv[j] < delta) {
                        delta = minv[j];
                        j1 = j;
                    }
                }
            for (size_t j = 0; j <= n; j++)
                if (used[j]) {
                    u[p[j]] += delta;
                    v[j] -= delta;
                } else {
                    minv[j] -= delta;
                }
            j0 = j1;
        } while (p[j0] != 0);
        do {
            size_t j1 = way[j0];
            p[j0] = p[j1];
            j0 = j1;
        } while (j0);
    }
    total = 0;
    for (size_t j = 1; j <= n; j++)
        total += cost[(p[j] - 1) * n + (j - 1)];
out:
    free(u);
    free(v);
    free(minv);
    free(p);
    free(way);
    free(used);
    return total;
}

struct assign {
    size_t units;
    int32_t *orig, *work;
    uint8_t *mark;
    int16_t *col;           /* units x N */
    bool *solved;
    int64_t optimum;
};

#define ASSIGN_CELLS (NB_ASSIGN_N * NB_ASSIGN_N)

static void assign_destroy(void *p)
{
    struct assign *s = p;
    if (!s)
        return;
    free(s->orig);
    free(s->work);
    free(s->mark);
    free(s->col);
    free(s->solved);
    free(s);
}

static void *assign_create(size_t units)
{
    struct assign *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->units = units;
    s->orig = malloc(ASSIGN_CELLS * sizeof *s->orig);
    s->mark = malloc(ASSIGN_CELLS);
    if (units <= SIZE_MAX / (ASSIGN_CELLS * sizeof *s->work)) {
        s->work = malloc(units * ASSIGN_CELLS * sizeof *s->work);
        s->col = malloc(units * NB_ASSIGN_N * sizeof *s->col);
        s->solved = malloc(units * sizeof *s->solved);
    }
    if (!s->orig || !s->mark || !s->work || !s->col || !s->solved) {
        assign_destroy(s);
        return NULL;
    }
    struct nb_rng g;
    nb_rng_seed(&g, 13);
    for (size_t i = 0; i < ASSIGN_CELLS; i++)
        s->orig[i] = (int32_t)nb_rng_below(&g, 5000000);
    s->optimum = nb_assign_optimum(s->orig, NB_ASSIGN_N);
    if (s->optimum < 0) {
        assign_destroy(s);
        return NULL;
    }
    return s;
}

static void assign_prepare(void *p)
{
    struct assign *s = p;
    for (size_t u = 0; u < s->units; u++)
        memcpy(s->work + u * ASSIGN_CELLS, s->orig, ASSIGN_CELLS * sizeof *s->orig);
}

static double assign_run(void *p)
{
    struct assign *s = p;
    for (size_t u = 0; u < s->units; u++)
        s->solved[u] = nb_assign_solve(s->work + u * ASSIGN_CELLS, NB_ASSIGN_N,
                                       s->mark, s->col + u * NB_ASSIGN_N);
    return (double)s->units;
}

static bool assign_check(void *p, char *why, size_t len)
{
    struct assign *s = p;
    for (size_t u = 0; u < s->units; u++) {
        const int16_t *col = s->col + u * NB_ASSIGN_N;
        bool seen[NB_ASSIGN_N] = { false };
        int64_t total = 0;
        if (!s->solved[u]) {
            snprintf(why, len, "matrix %zu: the method found no complete assignment", u);
            return false;
        }
        for (size_t i = 0; i < NB_ASSIGN_N; i++) {
            if (col[i] < 0 || (size_t)col[i] >= NB_ASSIGN_N || seen[col[i]]) {
                snprintf(why, len, "matrix %zu: row %zu's column %d breaks the permutation",
                         u, i, col[i]);
                return false;
            }
            seen[col[i]] = true;
            total += s->orig[i * NB_ASSIGN_N + (size_t)col[i]];
        }
        if (total != s->optimum) {
            snprintf(why, len, "matrix %zu: total cost %lld, the optimum is %lld",
                     u, (long long)total, (long long)s->optimum);
            return false;
        }
    }
    return true;
}

static void assign_corrupt(void *p)
{
    struct assign *s = p;
    s->col[1] = s->col[0];
}

const struct nb_workload nb_assignment = {
    .id = "assignment",
    .what = "task assignment on a 101 x 101 cost matrix; iterations = matrices solved",
    .unit_start = 1,
    .unit_bytes = ASSIGN_CELLS * sizeof(int32_t) + NB_ASSIGN_N * sizeof(int16_t) + 1,
    .create = assign_create,
    .destroy = assign_destroy,
    .prepare = assign_prepare,
    .run = assign_run,
    .check = assign_check,
    .corrupt = assign_corrupt,
};
