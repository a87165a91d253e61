/* test_deviation.c - direction of units and verdicts, hand-computed. */
#include "config.h"

#include "run/deviation.h"
#include "data/refdb.h"
#include "run/result.h"
#include "suites.h"
#include "common/util.h"

START_TEST(unit_directions)
{
    static const struct { const char *unit; enum direction dir; } cases[] = {
        { "mb/s", DIR_HIGHER_BETTER }, { "MB/s", DIR_HIGHER_BETTER },
        { "Mbits/sec", DIR_HIGHER_BETTER }, { "dmips/mhz", DIR_HIGHER_BETTER },
        { "dhrystonep", DIR_HIGHER_BETTER }, { "kflops", DIR_HIGHER_BETTER },
        { "MIPS", DIR_HIGHER_BETTER }, { "Fps", DIR_HIGHER_BETTER },
        { "microsec", DIR_LOWER_BETTER }, { "ns", DIR_LOWER_BETTER },
        { "ms", DIR_LOWER_BETTER }, { "%", DIR_LOWER_BETTER },
        { "mhz", DIR_NEUTRAL }, { "bytes", DIR_NEUTRAL }, { NULL, DIR_NEUTRAL },
        { "", DIR_NEUTRAL },
    };
    for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
        ck_assert_msg(unit_direction(cases[i].unit) == cases[i].dir, "unit %s",
                      cases[i].unit ? cases[i].unit : "(null)");
}
END_TEST

START_TEST(band_verdicts)
{
    /* AM62x SK STREAM copy: 1838.92 (min 1650.20, max 2245.20) */
    struct ref_value ref = { .present = true, .avg = 1838.92, .has_min = true, .min = 1650.2,
                             .has_max = true, .max = 2245.2 };
    struct deviation d = deviation_compute(1700, &ref, DIR_HIGHER_BETTER, 10);
    ck_assert(d.has_ref);
    ck_assert_double_eq_tol(d.pct, (1700 - 1838.92) / 1838.92 * 100, 1e-9);
    ck_assert(!d.better);
    ck_assert_int_eq(d.verdict, VERDICT_IN_RANGE);

    /* 100 below min: 100/1838.92 = 5.4 % of avg -> warn */
    d = deviation_compute(1550.2, &ref, DIR_HIGHER_BETTER, 10);
    ck_assert_int_eq(d.verdict, VERDICT_WARN);
    /* 400 below min: 21.8 % -> off */
    d = deviation_compute(1250.2, &ref, DIR_HIGHER_BETTER, 10);
    ck_assert_int_eq(d.verdict, VERDICT_OFF);
    /* far above: off, but better */
    d = deviation_compute(4000, &ref, DIR_HIGHER_BETTER, 10);
    ck_assert_int_eq(d.verdict, VERDICT_OFF);
    ck_assert(d.better);
    ck_assert_double_eq_tol(d.pct, (4000 - 1838.92) / 1838.92 * 100, 1e-9);
}
END_TEST

START_TEST(point_reference_and_lower_is_better)
{
    /* J721E lat af_unix 17.57 us, no band */
    struct ref_value ref = { .present = true, .avg = 17.57 };
    struct deviation d = deviation_compute(17.57 * 1.04, &ref, DIR_LOWER_BETTER, 10);
    ck_assert_int_eq(d.verdict, VERDICT_IN_RANGE);  /* within 5 % */
    ck_assert(!d.better);
    d = deviation_compute(17.57 * 0.92, &ref, DIR_LOWER_BETTER, 10);
    ck_assert_int_eq(d.verdict, VERDICT_WARN);
    ck_assert(d.better);
    d = deviation_compute(17.57 * 1.5, &ref, DIR_LOWER_BETTER, 10);
    ck_assert_int_eq(d.verdict, VERDICT_OFF);
    ck_assert_double_eq_tol(d.pct, 50, 1e-9);
}
END_TEST

START_TEST(no_reference)
{
    struct ref_value none = { .present = false };
    struct deviation d = deviation_compute(1, &none, DIR_HIGHER_BETTER, 10);
    ck_assert(!d.has_ref);
    ck_assert_int_eq(d.verdict, VERDICT_NONE);
    d = deviation_compute(1, NULL, DIR_HIGHER_BETTER, 10);
    ck_assert(!d.has_ref);
    struct ref_value zero = { .present = true, .avg = 0 };
    d = deviation_compute(1, &zero, DIR_HIGHER_BETTER, 10);
    ck_assert(!d.has_ref);
    ck_assert_str_eq(verdict_name(VERDICT_IN_RANGE), "in_range");
}
END_TEST

START_TEST(reference_scaled_to_the_live_clock)
{
    /* AM62x SK Dhrystone: 6789289.58 (min 6451613, max 7142857) at 1400 MHz;
     * a board run at 1000 MHz should do 1000/1400 of it. */
    struct ref_value dhry = { .present = true, .avg = 6789289.58, .has_min = true,
                              .min = 6451613, .has_max = true, .max = 7142857 };
    struct ref_value s;
    ck_assert(result_scale_to_clock(&dhry, DIR_HIGHER_BETTER, 1400, 1000, &s));
    ck_assert_double_eq_tol(s.avg, 6789289.58 * 1000 / 1400, 1e-6);
    ck_assert_double_eq_tol(s.min, 6451613.0 * 1000 / 1400, 1e-6);
    ck_assert_double_eq_tol(s.max, 7142857.0 * 1000 / 1400, 1e-6);
    /* 4.85 M measured at 1000 MHz: off against the guide, in range at clock */
    struct deviation d = deviation_compute(4.85e6, &dhry, DIR_HIGHER_BETTER, 10);
    ck_assert_int_eq(d.verdict, VERDICT_OFF);
    d = deviation_compute(4.85e6, &s, DIR_HIGHER_BETTER, 10);
    ck_assert_int_eq(d.verdict, VERDICT_IN_RANGE);

    /* an operation latency of 2.86 ns at 1400 MHz takes 4.004 ns at 1000 MHz */
    struct ref_value lat = { .present = true, .avg = 2.86 };
    ck_assert(result_scale_to_clock(&lat, DIR_LOWER_BETTER, 1400, 1000, &s));
    ck_assert_double_eq_tol(s.avg, 4.004, 1e-9);
    /* unknown clocks or a neutral unit: nothing to scale */
    ck_assert(!result_scale_to_clock(&lat, DIR_LOWER_BETTER, 0, 1000, &s));
    ck_assert(!result_scale_to_clock(&lat, DIR_LOWER_BETTER, 1400, 0, &s));
    ck_assert(!result_scale_to_clock(&lat, DIR_NEUTRAL, 1400, 1000, &s));
}
END_TEST

Suite *suite_deviation(void)
{
    Suite *s = suite_create("deviation");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, unit_directions);
    tcase_add_test(tc, band_verdicts);
    tcase_add_test(tc, point_reference_and_lower_is_better);
    tcase_add_test(tc, no_reference);
    tcase_add_test(tc, reference_scaled_to_the_live_clock);
    suite_add_tcase(s, tc);
    return s;
}
