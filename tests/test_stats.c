/* test_stats.c - running statistics against hand-computed values. */
#include "config.h"

#include <math.h>

#include "common/stats.h"
#include "suites.h"
#include "common/util.h"

START_TEST(known_series)
{
    /* 2 4 4 4 5 5 7 9: mean 5, sample variance 32/7, median 4.5 */
    static const double v[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
    struct stats s;
    stats_init(&s);
    for (size_t i = 0; i < ARRAY_SIZE(v); i++)
        stats_push(&s, v[i]);
    ck_assert_uint_eq(s.count, 8);
    ck_assert_double_eq_tol(s.min, 2, 1e-12);
    ck_assert_double_eq_tol(s.max, 9, 1e-12);
    ck_assert_double_eq_tol(s.mean, 5, 1e-12);
    ck_assert_double_eq_tol(stats_stddev(&s), sqrt(32.0 / 7.0), 1e-12);
    ck_assert_double_eq_tol(stats_median(&s), 4.5, 1e-12);
    ck_assert_double_eq_tol(s.last, 9, 1e-12);
    stats_free(&s);
}
END_TEST

START_TEST(odd_count_median_and_summaries)
{
    struct stats s;
    stats_init(&s);
    stats_push(&s, 3);
    stats_push(&s, 1);
    stats_push(&s, 2);
    ck_assert_double_eq_tol(stats_median(&s), 2, 1e-12);
    ck_assert_double_eq_tol(stats_summary(&s, SUMMARY_MAX), 3, 1e-12);
    ck_assert_double_eq_tol(stats_summary(&s, SUMMARY_MIN), 1, 1e-12);
    ck_assert_double_eq_tol(stats_summary(&s, SUMMARY_MEAN), 2, 1e-12);
    ck_assert_double_eq_tol(stats_summary(&s, SUMMARY_MEDIAN), 2, 1e-12);
    /* the samples keep their arrival order after a median */
    ck_assert_double_eq_tol(s.samples[0], 3, 1e-12);
    ck_assert_str_eq(summary_name(SUMMARY_MAX), "max");
    stats_free(&s);
}
END_TEST

START_TEST(empty_and_single)
{
    struct stats s;
    stats_init(&s);
    ck_assert(isnan(stats_median(&s)));
    ck_assert(isnan(stats_summary(&s, SUMMARY_MEAN)));
    ck_assert_double_eq_tol(stats_stddev(&s), 0, 1e-12);
    stats_push(&s, 42);
    ck_assert_double_eq_tol(stats_stddev(&s), 0, 1e-12);
    ck_assert_double_eq_tol(stats_median(&s), 42, 1e-12);
    stats_reset(&s);
    ck_assert_uint_eq(s.count, 0);
    stats_push(&s, 7);
    ck_assert_double_eq_tol(s.min, 7, 1e-12);
    stats_free(&s);
}
END_TEST

START_TEST(large_offset_is_stable)
{
    /* Welford keeps precision where the naive sum of squares does not. */
    struct stats s;
    stats_init(&s);
    for (int i = 0; i < 1000; i++)
        stats_push(&s, 1e9 + (i % 2 ? 1 : -1));
    ck_assert_double_eq_tol(s.mean, 1e9, 1e-6);
    ck_assert_double_eq_tol(stats_stddev(&s), sqrt(1000.0 / 999.0), 1e-6);
    stats_free(&s);
}
END_TEST

Suite *suite_stats(void)
{
    Suite *s = suite_create("stats");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, known_series);
    tcase_add_test(tc, odd_count_median_and_summaries);
    tcase_add_test(tc, empty_and_single);
    tcase_add_test(tc, large_offset_is_stable);
    suite_add_tcase(s, tc);
    return s;
}
