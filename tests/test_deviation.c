/* test_deviation.c - direction of units and verdicts, hand-computed. */
#include "config.h"

#include "deviation.h"
#include "refdb.h"
#include "suites.h"
#include "util.h"

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

Suite *suite_deviation(void)
{
    Suite *s = suite_create("deviation");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, unit_directions);
    tcase_add_test(tc, band_verdicts);
    tcase_add_test(tc, point_reference_and_lower_is_better);
    tcase_add_test(tc, no_reference);
    suite_add_tcase(s, tc);
    return s;
}
