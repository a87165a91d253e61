/* test_change.c - the change between two sample sets, its interval, the
 * outcome at a tolerance and the need for more samples, against values
 * worked out by hand and the published Mann-Whitney tables. */
#include "config.h"

#include <math.h>

#include "common/change.h"
#include "run/deviation.h"
#include "run/repeat.h"
#include "suites.h"
#include "common/util.h"

START_TEST(rank_bound_matches_the_tables)
{
    /* two-sided 5 % critical values of U (the largest u with P(U <= u)
     * <= 2.5 %): n = m = 5: 2, 10: 23, 20: 127, 8 and 12: 22; k is one
     * more */
    ck_assert_uint_eq(change_rank_bound(5, 5, 0.05, NULL), 3);
    ck_assert_uint_eq(change_rank_bound(10, 10, 0.05, NULL), 24);
    ck_assert_uint_eq(change_rank_bound(20, 20, 0.05, NULL), 128);
    ck_assert_uint_eq(change_rank_bound(8, 12, 0.05, NULL), 23);
    /* 4 against 4: only U = 0 (1 of 70 arrangements) is in the tail */
    double cover;
    ck_assert_uint_eq(change_rank_bound(4, 4, 0.05, &cover), 1);
    ck_assert_double_eq_tol(cover, 1 - 2.0 / 70, 1e-12);
    /* 3 against 3 cannot reach 95 %: 1 of 20 is already 5 % */
    ck_assert_uint_eq(change_rank_bound(3, 3, 0.05, &cover), 0);
    ck_assert_double_eq(cover, 0);
    /* one against n: U = 0 is 1 of n + 1 arrangements */
    ck_assert_uint_eq(change_rank_bound(1, 38, 0.05, NULL), 0);
    ck_assert_uint_eq(change_rank_bound(1, 39, 0.05, NULL), 1);
    ck_assert_uint_eq(change_rank_bound(0, 5, 0.05, NULL), 0);
    /* large and symmetric: the normal approximation is close there */
    size_t k = change_rank_bound(64, 64, 0.05, &cover);
    double z = (64.0 * 64 / 2 - (double)k) / sqrt(64.0 * 64 * 129 / 12);
    ck_assert_double_eq_tol(z, 1.96, 0.02);
    ck_assert(cover >= 0.95 && cover < 0.96);
}
END_TEST

START_TEST(estimate_of_a_pure_shift)
{
    double before[12], now[12];
    for (size_t i = 0; i < 12; i++) {
        before[i] = 1000 + 10.0 * (double)i;
        now[i] = before[i] * 0.8;
    }
    struct change c;
    ck_assert(change_estimate(before, 12, now, 12, &c));
    ck_assert_uint_eq(c.n_before, 12);
    ck_assert_uint_eq(c.n_now, 12);
    ck_assert_double_eq_tol(c.pct, -20, 1e-9);
    ck_assert(c.has_interval);
    ck_assert(c.low <= c.pct && c.pct <= c.high);
    ck_assert(c.low > -30 && c.high < -10);
    ck_assert(c.confidence >= 0.95);
    /* the same samples on both sides: no change, an interval round 0 */
    ck_assert(change_estimate(before, 12, before, 12, &c));
    ck_assert_double_eq_tol(c.pct, 0, 1e-9);
    ck_assert(c.low < 0 && c.high > 0);
    ck_assert(!change_is_small(&c));
}
END_TEST

START_TEST(outlier_and_bad_samples)
{
    double before[] = { 100, 101, 99, 100, 102, 98, 100, 101 };
    double now[] = { 100, 101, 99, 100, 102, 98, 100, 1e6 };     /* one wild */
    struct change c;
    change_estimate(before, 8, now, 8, &c);
    ck_assert(fabs(c.pct) < 1.5);
    ck_assert(c.high < 5);
    /* zero, negative and non-finite samples are left out and not counted */
    double odd[] = { 0, -3, NAN, INFINITY, 100, 100, 100, 100 };
    change_estimate(before, 8, odd, 8, &c);
    ck_assert_uint_eq(c.n_now, 4);
    ck_assert(c.has_interval);
    /* one sample a side: the ratio, no interval */
    double a = 200, b = 150;
    change_estimate(&a, 1, &b, 1, &c);
    ck_assert(c.has_estimate && !c.has_interval);
    ck_assert_double_eq_tol(c.pct, -25, 1e-9);
    ck_assert(!change_estimate(&a, 1, odd, 2, &c));
    ck_assert(!c.has_estimate);
}
END_TEST

static struct change interval(double low, double pct, double high)
{
    return (struct change){ .n_before = 20, .n_now = 20, .has_estimate = true, .pct = pct,
                            .has_interval = true, .low = low, .high = high, .confidence = 0.95 };
}

START_TEST(outcome_at_the_tolerance)
{
    struct change c;
    /* a rate: lower is worse */
    c = interval(-19.2, -16.8, -14.1);
    ck_assert_int_eq(deviation_outcome(&c, DIR_HIGHER_BETTER, 10), OUTCOME_SLOWER);
    c = interval(-15, -10, -5);         /* straddles -PCT */
    ck_assert_int_eq(deviation_outcome(&c, DIR_HIGHER_BETTER, 10), OUTCOME_INCONCLUSIVE);
    c = interval(-8, -5, -2);           /* small and real */
    ck_assert_int_eq(deviation_outcome(&c, DIR_HIGHER_BETTER, 10), OUTCOME_UNCHANGED);
    ck_assert(change_is_small(&c));
    c = interval(-3, 0.5, 4);
    ck_assert_int_eq(deviation_outcome(&c, DIR_HIGHER_BETTER, 10), OUTCOME_UNCHANGED);
    ck_assert(!change_is_small(&c));
    c = interval(3, 12, 25);
    ck_assert_int_eq(deviation_outcome(&c, DIR_HIGHER_BETTER, 10), OUTCOME_FASTER);
    c = interval(-2, 8, 25);
    ck_assert_int_eq(deviation_outcome(&c, DIR_HIGHER_BETTER, 10), OUTCOME_INCONCLUSIVE);
    /* a time: higher is worse */
    c = interval(14.1, 16.8, 19.2);
    ck_assert_int_eq(deviation_outcome(&c, DIR_LOWER_BETTER, 10), OUTCOME_SLOWER);
    c = interval(-19.2, -16.8, -14.1);
    ck_assert_int_eq(deviation_outcome(&c, DIR_LOWER_BETTER, 10), OUTCOME_FASTER);
    c = interval(14.1, 16.8, 19.2);
    /* no direction, no estimate, no interval */
    ck_assert_int_eq(deviation_outcome(&c, DIR_NEUTRAL, 10), OUTCOME_NONE);
    c.has_interval = false;
    ck_assert_int_eq(deviation_outcome(&c, DIR_LOWER_BETTER, 10), OUTCOME_INCONCLUSIVE);
    c.has_estimate = false;
    ck_assert_int_eq(deviation_outcome(&c, DIR_LOWER_BETTER, 10), OUTCOME_NONE);
    for (enum outcome o = OUTCOME_UNCHANGED; o <= OUTCOME_INCONCLUSIVE; o++)
        ck_assert_int_eq(outcome_from_name(outcome_name(o)), o);
    ck_assert_ptr_null(outcome_name(OUTCOME_NONE));
    ck_assert_int_eq(outcome_from_name("better"), OUTCOME_NONE);
}
END_TEST

/* More samples: a baseline takes all the time allows; a comparison looks
 * only at 8, 16, 32, 64 and stops once it can tell. */
START_TEST(repeats_look_four_times)
{
    double base[30], now[64];
    for (size_t i = 0; i < 64; i++)
        now[i] = 100 + (double)(i % 5);
    for (size_t i = 0; i < 30; i++)
        base[i] = now[i];
    ck_assert(repeat_is_look(8) && repeat_is_look(16) && repeat_is_look(32) &&
              repeat_is_look(64));
    ck_assert(!repeat_is_look(7) && !repeat_is_look(12) && !repeat_is_look(0));
    /* no baseline: up to the most a row keeps */
    ck_assert(repeat_wants_more(NULL, 0, now, 3, DIR_HIGHER_BETTER, 10));
    ck_assert(repeat_wants_more(NULL, 0, now, 40, DIR_HIGHER_BETTER, 10));
    ck_assert(!repeat_wants_more(NULL, 0, now, REPEAT_MAX_SAMPLES, DIR_HIGHER_BETTER, 10));
    /* against one: more between the looks, stop at a look that tells */
    ck_assert(repeat_wants_more(base, 30, now, 5, DIR_HIGHER_BETTER, 10));
    ck_assert(repeat_wants_more(base, 30, now, 12, DIR_HIGHER_BETTER, 10));
    ck_assert(!repeat_wants_more(base, 30, now, 8, DIR_HIGHER_BETTER, 10));
    ck_assert(!repeat_wants_more(base, 30, now, 16, DIR_HIGHER_BETTER, 10));
    ck_assert(!repeat_wants_more(base, 30, now, 12, DIR_NEUTRAL, 10));
    ck_assert(!repeat_wants_more(base, 30, now, REPEAT_MAX_SAMPLES, DIR_HIGHER_BETTER, 10));
    /* a baseline of one sample and 64 now still gives an interval (U = 0
     * is 1 of 65 arrangements): worth repeating; a baseline of none is
     * no baseline */
    ck_assert(repeat_wants_more(base, 1, now, 8, DIR_HIGHER_BETTER, 10));
    /* a change right at the tolerance cannot be decided by any number */
    for (size_t i = 0; i < 30; i++)
        now[i] = base[i] * 0.9;
    ck_assert(repeat_wants_more(base, 30, now, 16, DIR_HIGHER_BETTER, 10));
    ck_assert_uint_eq(repeat_samples_to_tell(base, 30, now, 16, DIR_HIGHER_BETTER, 10), 0);
    /* 5 % worse with a wide interval: more samples would tell */
    double wide[12];
    for (size_t i = 0; i < 12; i++)
        wide[i] = 95 * (1 + 0.08 * ((double)(i % 4) - 1.5));
    size_t need = repeat_samples_to_tell(base, 30, wide, 12, DIR_HIGHER_BETTER, 10);
    ck_assert(need == 0 || need > 12);
}
END_TEST

Suite *suite_change(void)
{
    Suite *s = suite_create("change");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, rank_bound_matches_the_tables);
    tcase_add_test(tc, estimate_of_a_pure_shift);
    tcase_add_test(tc, outlier_and_bad_samples);
    tcase_add_test(tc, outcome_at_the_tolerance);
    tcase_add_test(tc, repeats_look_four_times);
    suite_add_tcase(s, tc);
    return s;
}
