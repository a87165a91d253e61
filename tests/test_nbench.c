/* test_nbench.c - the BYTEmark workloads on small inputs, and the nbench
 * kernel run in-process (quick, one sample per metric). */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/kernel.h"
#include "benches/kernels/nbench.h"
#include "kernel/report.h"
#include "suites.h"
#include "test_helpers.h"
#include "common/util.h"
#include "benches/kernels/registry.h"

/* The guide's NBench rows, in the guide's order. */
static const char *const guide_rows[] = {
    "numeric_sort", "string_sort", "fp_emulation", "fourier", "assignment",
    "idea", "huffman", "neural_net", "lu_decomposition",
};
#define NROWS ARRAY_SIZE(guide_rows)

static int cmp_i32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* --- the metrics ---------------------------------------------------------- */

START_TEST(metrics_match_the_guide)
{
    const struct kernel *k = kernel_find("nbench");
    ck_assert_ptr_nonnull(k);
    ck_assert_str_eq(k->name, "nbench");
    ck_assert_str_eq(k->section, "nbench");
    ck_assert_uint_eq(k->nmetrics, NROWS);
    ck_assert_uint_eq(nb_workload_count, NROWS);
    for (size_t i = 0; i < NROWS; i++) {
        ck_assert_str_eq(k->metrics[i].id, guide_rows[i]);
        ck_assert_str_eq(k->metrics[i].unit, "iterations");
        ck_assert_int_eq(k->metrics[i].summary, SUMMARY_MEAN);
        ck_assert(k->metrics[i].cpu_bound);
        ck_assert_str_eq(nb_workloads[i]->id, guide_rows[i]);
    }
    ck_assert(k->budget_quick_s > 0 && k->budget_quick_s <= 2.0 * NROWS);
    ck_assert(k->budget_full_s >= k->budget_quick_s);
}
END_TEST

/* --- the generator ---------------------------------------------------------- */

START_TEST(rng_is_deterministic)
{
    struct nb_rng a, b;
    nb_rng_seed(&a, 13);
    nb_rng_seed(&b, 13);
    for (int i = 0; i < 1000; i++) {
        ck_assert_uint_eq(nb_rng_next(&a), nb_rng_next(&b));
        ck_assert_uint_lt(nb_rng_below(&a, 7), 7);
        nb_rng_below(&b, 7);
    }
    nb_rng_seed(&b, 14);
    ck_assert_uint_ne(nb_rng_next(&a), nb_rng_next(&b));
}
END_TEST

/* --- numeric sort --------------------------------------------------------- */

static const size_t sort_sizes[] = { 0, 1, 2, 3, 17, 256, 1001 };

START_TEST(heapsort_sorts)
{
    size_t n = sort_sizes[_i];
    int32_t *a = xmalloc((n + 1) * sizeof *a), *want = xmalloc((n + 1) * sizeof *a);
    struct nb_rng g;
    nb_rng_seed(&g, n + 1);
    for (size_t i = 0; i < n; i++)      /* with duplicates and extremes */
        a[i] = want[i] = i % 5 == 0 ? (int32_t)nb_rng_below(&g, 4) - 2
                       : i % 7 == 0 ? (i % 2 ? INT32_MIN : INT32_MAX)
                       : (int32_t)nb_rng_next(&g);
    nb_heapsort_i32(a, n);
    qsort(want, n, sizeof *want, cmp_i32);
    for (size_t i = 0; i < n; i++)
        ck_assert_int_eq(a[i], want[i]);
    free(a);
    free(want);
}
END_TEST

/* --- string sort ---------------------------------------------------------- */

struct str_copy {
    uint8_t bytes[NB_STR_MAX + 1];
};

static int cmp_str(const void *a, const void *b)
{
    const uint8_t *x = ((const struct str_copy *)a)->bytes;
    const uint8_t *y = ((const struct str_copy *)b)->bytes;
    int c = memcmp(x + 1, y + 1, x[0] < y[0] ? x[0] : y[0]);
    return c ? c : (x[0] > y[0]) - (x[0] < y[0]);
}

static const size_t str_counts[] = { 1, 2, 5, 60 };

START_TEST(string_sort_sorts_and_moves)
{
    size_t n = str_counts[_i];
    struct nb_strings s = {
        .buf = xmalloc(n * (NB_STR_MAX + 1) + 128),
        .off = xmalloc(n * sizeof *s.off),
        .n = n,
    };
    struct str_copy *want = xcalloc(n, sizeof *want);
    struct nb_rng g;
    nb_rng_seed(&g, 7);
    for (size_t k = 0; k < n; k++) {
        /* short alphabet and shared prefixes: ties and prefix rules */
        size_t len = k % 9 == 4 ? 4 : NB_STR_MIN + nb_rng_below(&g, NB_STR_MAX - NB_STR_MIN + 1);
        s.off[k] = (uint32_t)s.used;
        s.buf[s.used] = (uint8_t)len;
        for (size_t i = 1; i <= len; i++)
            s.buf[s.used + i] = (uint8_t)(i < 3 ? 'a' : 'a' + nb_rng_below(&g, 3));
        memcpy(want[k].bytes, s.buf + s.used, len + 1);
        s.used += len + 1;
    }
    size_t used = s.used;
    nb_strsort(&s);
    ck_assert(nb_strings_sorted(&s));
    ck_assert_uint_eq(s.used, used);
    qsort(want, n, sizeof *want, cmp_str);
    for (size_t k = 0; k < n; k++) {
        const uint8_t *got = s.buf + s.off[k];
        ck_assert_uint_eq(got[0], want[k].bytes[0]);
        ck_assert_mem_eq(got, want[k].bytes, got[0] + 1u);
        if (k)      /* packed: each string right after the previous one */
            ck_assert_uint_eq(s.off[k], s.off[k - 1] + s.buf[s.off[k - 1]] + 1u);
    }
    free(s.buf);
    free(s.off);
    free(want);
}
END_TEST

/* --- assignment ------------------------------------------------------------ */

static int64_t brute_force(const int32_t *c, size_t n, size_t row, uint32_t used)
{
    if (row == n)
        return 0;
    int64_t best = INT64_MAX;
    for (size_t j = 0; j < n; j++)
        if (!(used & (1u << j))) {
            int64_t v = c[row * n + j] + brute_force(c, n, row + 1, used | 1u << j);
            if (v < best)
                best = v;
        }
    return best;
}

/* Small matrices, some with many equal costs (many zeros to choose
 * from): the result is a permutation of optimal cost. */
START_TEST(assignment_is_optimal)
{
    static const struct { size_t n; uint32_t range; } cases[] = {
        { 1, 10 }, { 2, 10 }, { 5, 3 }, { 7, 100 }, { 7, 2 }, { 12, 5 }, { 30, 1000 },
        { 101, 5000000 },
    };
    size_t n = cases[_i].n;
    int32_t *c = xmalloc(n * n * sizeof *c), *work = xmalloc(n * n * sizeof *c);
    uint8_t *mark = xmalloc(n * n);
    int16_t *col = xmalloc(n * sizeof *col);
    struct nb_rng g;
    nb_rng_seed(&g, 100 + (uint64_t)_i);
    for (size_t i = 0; i < n * n; i++)
        c[i] = (int32_t)nb_rng_below(&g, cases[_i].range);
    memcpy(work, c, n * n * sizeof *c);
    ck_assert(nb_assign_solve(work, n, mark, col));

    bool seen[128] = { false };
    int64_t total = 0;
    for (size_t i = 0; i < n; i++) {
        ck_assert_int_ge(col[i], 0);
        ck_assert_int_lt(col[i], (int)n);
        ck_assert(!seen[col[i]]);
        seen[col[i]] = true;
        total += c[i * n + (size_t)col[i]];
    }
    int64_t best = nb_assign_optimum(c, n);
    ck_assert_int_eq(total, best);
    if (n <= 7)
        ck_assert_int_eq(best, brute_force(c, n, 0, 0));
    free(c);
    free(work);
    free(mark);
    free(col);
}
END_TEST

/* --- IDEA -------------------------------------------------------------------- */

/* The test vector of Lai and Massey's description (also in Schneier). */
START_TEST(idea_known_answer_and_round_trip)
{
    const uint16_t key[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
    const uint16_t plain[4] = { 0, 1, 2, 3 };
    const uint16_t cipher[4] = { 0x11fb, 0xed2b, 0x0198, 0x6de5 };
    uint16_t ek[52], dk[52], out[4], back[4];
    nb_idea_key(key, ek);
    nb_idea_invert(ek, dk);
    nb_idea_block(ek, plain, out);
    ck_assert_mem_eq(out, cipher, sizeof out);
    nb_idea_block(dk, out, back);
    ck_assert_mem_eq(back, plain, sizeof back);

    /* Random keys and blocks, including the all-zero and all-ones words
     * that multiplication mod 65537 treats specially. */
    struct nb_rng g;
    nb_rng_seed(&g, 5);
    for (int t = 0; t < 200; t++) {
        uint16_t k[8], in[4];
        for (int i = 0; i < 8; i++)
            k[i] = t % 3 == 0 ? 0 : t % 3 == 1 ? 0xffff : (uint16_t)nb_rng_next(&g);
        for (int i = 0; i < 4; i++)
            in[i] = t % 4 == 0 ? 0 : t % 4 == 1 ? 0xffff : (uint16_t)nb_rng_next(&g);
        nb_idea_key(k, ek);
        nb_idea_invert(ek, dk);
        nb_idea_block(ek, in, out);
        nb_idea_block(dk, out, back);
        ck_assert_mem_eq(back, in, sizeof in);
    }
}
END_TEST

/* --- Huffman ------------------------------------------------------------------ */

START_TEST(huffman_round_trips)
{
    static const char *const texts[] = {
        "a", "aaaaaaaa", "ab", "abracadabra", "The quick brown fox jumps over the lazy dog.",
    };
    uint8_t comp[4096], out[1024], in[1024];
    for (size_t t = 0; t < ARRAY_SIZE(texts); t++) {
        size_t n = strlen(texts[t]);
        memset(out, 0, sizeof out);
        size_t bits = nb_huff_roundtrip((const uint8_t *)texts[t], n, comp, out);
        ck_assert_uint_gt(bits, 0);
        ck_assert_mem_eq(out, texts[t], n);
        if (n > 2)
            ck_assert_uint_lt(bits, 8 * n);
    }
    /* Every byte value, with skewed frequencies. */
    for (size_t i = 0; i < 1024; i++)
        in[i] = (uint8_t)(i < 256 ? i : i % 7);
    size_t bits = nb_huff_roundtrip(in, sizeof in, comp, out);
    ck_assert_uint_gt(bits, 0);
    ck_assert_mem_eq(out, in, sizeof in);
    ck_assert_uint_eq(nb_huff_roundtrip(in, 0, comp, out), 0);
}
END_TEST

/* --- emulated floating point ------------------------------------------------- */

START_TEST(fp_emulation_matches_hardware)
{
    static const int32_t ints[] = {
        1, -1, 2, 3, 7, 10, -12345, 49999, -50000, 65535, 65536, 1 << 30, INT32_MAX, INT32_MIN + 1,
    };
    for (size_t i = 0; i < ARRAY_SIZE(ints); i++)
        for (size_t j = 0; j < ARRAY_SIZE(ints); j++) {
            struct nb_fpf x, y, d;
            nb_fpf_from_i32(ints[i], &x);
            nb_fpf_from_i32(ints[j], &y);
            double a = ints[i], b = ints[j];
            ck_assert_double_eq(nb_fpf_to_double(&x), a);
            nb_fpf_add(&x, &y, &d);
            ck_assert_double_eq_tol(nb_fpf_to_double(&d), a + b, 1e-15 * (fabs(a) + fabs(b)));
            nb_fpf_sub(&x, &y, &d);
            ck_assert_double_eq_tol(nb_fpf_to_double(&d), a - b, 1e-15 * (fabs(a) + fabs(b)));
            nb_fpf_mul(&x, &y, &d);
            ck_assert_double_eq_tol(nb_fpf_to_double(&d), a * b, 1e-15 * fabs(a * b));
            nb_fpf_div(&x, &y, &d);
            ck_assert_double_eq_tol(nb_fpf_to_double(&d), a / b, 1e-15 * fabs(a / b));
        }
    /* Zeros and the special results. */
    struct nb_fpf zero, one, d;
    nb_fpf_from_i32(0, &zero);
    nb_fpf_from_i32(1, &one);
    nb_fpf_sub(&one, &one, &d);
    ck_assert_int_eq(d.type, NB_FPF_ZERO);
    nb_fpf_mul(&one, &zero, &d);
    ck_assert_int_eq(d.type, NB_FPF_ZERO);
    nb_fpf_div(&one, &zero, &d);
    ck_assert_int_eq(d.type, NB_FPF_INF);
    nb_fpf_div(&zero, &zero, &d);
    ck_assert_int_eq(d.type, NB_FPF_NAN);
    nb_fpf_add(&zero, &one, &d);
    ck_assert_double_eq(nb_fpf_to_double(&d), 1.0);
}
END_TEST

/* --- Fourier -------------------------------------------------------------------- */

/* Against the integrals (Simpson's rule, 2e5 steps). */
START_TEST(fourier_coefficients)
{
    double a[4], b[4];
    nb_fourier_coeffs(a, b, 4);
    ck_assert_double_eq_tol(a[0], 2.8819181375, 2e-4);
    ck_assert_double_eq_tol(a[1], 1.1340355957, 5e-4);
    ck_assert_double_eq_tol(b[1], -1.8820902650, 5e-4);
    ck_assert_double_eq_tol(a[2], 0.3622204699, 5e-4);
    ck_assert_double_eq_tol(b[2], -1.1648064093, 1e-3);
    ck_assert_double_eq_tol(b[3], -0.8147093207, 1e-3);
}
END_TEST

/* --- LU decomposition --------------------------------------------------------- */

START_TEST(lu_solves_and_detects_singular)
{
    /* Needs a row exchange: a[0][0] = 0. */
    double a[9] = { 0, 2, 1,  1, 1, 1,  2, 1, 3 };
    double x[3] = { 1, -2, 3 }, b[3], scale[3];
    size_t perm[3];
    for (int i = 0; i < 3; i++)
        b[i] = a[i * 3] * x[0] + a[i * 3 + 1] * x[1] + a[i * 3 + 2] * x[2];
    ck_assert(nb_lu_solve(a, b, 3, scale, perm));
    for (int i = 0; i < 3; i++)
        ck_assert_double_eq_tol(b[i], x[i], 1e-12);

    double s[4] = { 1, 2, 2, 4 }, sb[2] = { 1, 2 };
    ck_assert(!nb_lu_solve(s, sb, 2, scale, perm));
    double z[4] = { 0, 0, 1, 1 }, zb[2] = { 1, 2 };
    ck_assert(!nb_lu_solve(z, zb, 2, scale, perm));
}
END_TEST

/* --- neural net ------------------------------------------------------------------ */

START_TEST(neural_net_learns_the_letters)
{
    struct nb_nnet *n = nb_nnet_new();
    ck_assert_ptr_nonnull(n);
    struct nb_rng g;
    nb_rng_seed(&g, 3);
    unsigned passes = nb_nnet_learn(n, &g, 100000);
    ck_assert_uint_gt(passes, 10);
    ck_assert_uint_lt(passes, 100000);
    for (int p = 0; p < NB_NNET_PATTERNS; p++)
        ck_assert_int_eq(nb_nnet_classify(n, p), p);
    /* Too few passes: reported as not learned. */
    ck_assert_uint_eq(nb_nnet_learn(n, &g, 2), 0);
    nb_nnet_free(n);
}
END_TEST

/* --- the kernel in-process -------------------------------------------------------- */

static int run_kernel(struct run_events *e)
{
    struct kernel_params p = { .quick = true, .iterations = 1 };
    return run_events_kernel("nbench", &p, NULL, e);
}

/* The index in the kernel's metrics of guide_rows[i]. */
static size_t row(const struct run_events *e, size_t i)
{
    return run_events_index(e, guide_rows[i]);
}

START_TEST(quick_run_reports_every_row)
{
    struct run_events e;
    nbench_set_fault(NULL, NB_FAULT_NONE);
    ck_assert_int_eq(run_kernel(&e), 0);
    for (size_t i = 0; i < NROWS; i++) {
        size_t m = row(&e, i);
        ck_assert_msg(e.fails[m] == 0, "%s failed: %s", guide_rows[i],
                      e.fail_texts[m] ? e.fail_texts[m] : "");
        ck_assert_int_eq(e.samples[m], 1);
    }
    ck_assert_int_eq(e.unknown_samples + e.unknown_fails, 0);
    ck_assert_int_eq(e.bad_values, 0);
    ck_assert(!e.progress_backwards);
    ck_assert_double_eq(e.last_done, (double)NROWS);
    ck_assert_double_eq(e.last_total, (double)NROWS);
    ck_assert_int_ge(e.notes, (int)NROWS);
    run_events_free(&e);
}
END_TEST

/* A failed check or allocation fails that metric only. */
START_TEST(failures_stay_with_their_metric)
{
    static const struct { const char *id; enum nb_fault fault; const char *text; } cases[] = {
        { "idea", NB_FAULT_CHECK, "check failed: decryption differs" },
        { "lu_decomposition", NB_FAULT_NOMEM, "cannot allocate" },
        { "string_sort", NB_FAULT_CHECK, "check failed: string array 0 is not sorted" },
    };
    struct run_events e;
    nbench_set_fault(cases[_i].id, cases[_i].fault);
    int rc = run_kernel(&e);
    nbench_set_fault(NULL, NB_FAULT_NONE);
    ck_assert_int_eq(rc, 0);
    size_t bad = run_events_index(&e, cases[_i].id);
    for (size_t i = 0; i < NROWS; i++) {
        size_t m = row(&e, i);
        if (m == bad) {
            ck_assert_int_eq(e.fails[m], 1);
            ck_assert_int_eq(e.samples[m], 0);
            ck_assert_ptr_nonnull(strstr(e.fail_texts[m], cases[_i].text));
        } else {
            ck_assert_int_eq(e.fails[m], 0);
            ck_assert_int_eq(e.samples[m], 1);
        }
    }
    run_events_free(&e);
}
END_TEST

Suite *suite_nbench(void)
{
    Suite *s = suite_create("nbench");
    TCase *tc = tcase_create("workloads");
    tcase_add_test(tc, metrics_match_the_guide);
    tcase_add_test(tc, rng_is_deterministic);
    tcase_add_loop_test(tc, heapsort_sorts, 0, (int)ARRAY_SIZE(sort_sizes));
    tcase_add_loop_test(tc, string_sort_sorts_and_moves, 0, (int)ARRAY_SIZE(str_counts));
    tcase_add_loop_test(tc, assignment_is_optimal, 0, 8);
    tcase_add_test(tc, idea_known_answer_and_round_trip);
    tcase_add_test(tc, huffman_round_trips);
    tcase_add_test(tc, fp_emulation_matches_hardware);
    tcase_add_test(tc, fourier_coefficients);
    tcase_add_test(tc, lu_solves_and_detects_singular);
    tcase_add_test(tc, neural_net_learns_the_letters);
    suite_add_tcase(s, tc);

    TCase *run = tcase_create("kernel");
    tcase_set_timeout(run, 120);
    tcase_add_test(run, quick_run_reports_every_row);
    tcase_add_loop_test(run, failures_stay_with_their_metric, 0, 3);
    suite_add_tcase(s, run);
    return s;
}
