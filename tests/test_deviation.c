/* test_deviation.c - direction of units and verdicts, hand-computed. */
#include "config.h"

#include <math.h>
#include <string.h>

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

    /* 100 below min: 100/1650.2 = 6.1 % of the edge -> warn */
    d = deviation_compute(1550.2, &ref, DIR_HIGHER_BETTER, 10);
    ck_assert_int_eq(d.verdict, VERDICT_WARN);
    /* 400 below min: 24.2 % -> off */
    d = deviation_compute(1250.2, &ref, DIR_HIGHER_BETTER, 10);
    ck_assert_int_eq(d.verdict, VERDICT_OFF);
    /* far above: better, never off */
    d = deviation_compute(4000, &ref, DIR_HIGHER_BETTER, 10);
    ck_assert_str_eq(verdict_name(d.verdict), "better");
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
    d = deviation_compute(17.57 * 1.08, &ref, DIR_LOWER_BETTER, 10);
    ck_assert_int_eq(d.verdict, VERDICT_WARN);      /* 8 % worse */
    ck_assert(!d.better);
    d = deviation_compute(17.57 * 0.92, &ref, DIR_LOWER_BETTER, 10);
    ck_assert_str_eq(verdict_name(d.verdict), "in_range");  /* 8 % better: no word */
    ck_assert(d.better);
    d = deviation_compute(17.57 * 0.85, &ref, DIR_LOWER_BETTER, 10);
    ck_assert_str_eq(verdict_name(d.verdict), "better");
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

/* The band rule of deviation.h case by case: both directions and none,
 * a band and a single number, inside, within the tolerance outside on
 * either side, beyond it on either side. Tolerance 10 %; the edges are
 * 90 and 110 (a band) or 100 (a single number). */
START_TEST(verdict_table)
{
    static const struct ref_value band = { .present = true, .avg = 100, .has_min = true,
                                           .min = 90, .has_max = true, .max = 110 };
    static const struct ref_value point = { .present = true, .avg = 100 };
    enum { H = DIR_HIGHER_BETTER, L = DIR_LOWER_BETTER, N = DIR_NEUTRAL };
    static const struct {
        int dir;
        const struct ref_value *ref;
        double value;
        const char *verdict;
    } cases[] = {
        { H, &band, 100, "in_range" },  { H, &band, 90, "in_range" },
        { H, &band, 85, "warn" },       /* 5.6 % below min */
        { H, &band, 80, "off" },        /* 11.1 % below min: v < min(1 - p) */
        { H, &band, 115, "in_range" },  /* 4.5 % above max: no word for it */
        { H, &band, 125, "better" },    /* 13.6 % above max: v > max(1 + p) */
        { H, &band, 1000, "better" },
        { L, &band, 100, "in_range" },  { L, &band, 110, "in_range" },
        { L, &band, 115, "warn" },      /* 4.5 % above max */
        { L, &band, 125, "off" },       /* v > max(1 + p) */
        { L, &band, 85, "in_range" },   /* 5.6 % below min */
        { L, &band, 75, "better" },     /* v < min(1 - p) */
        { L, &band, 1, "better" },
        { N, &band, 85, "warn" },       { N, &band, 115, "warn" },
        { N, &band, 80, "off" },        { N, &band, 125, "off" },
        { N, &band, 100, "in_range" },
        { H, &point, 96, "in_range" },  /* within half the tolerance */
        { H, &point, 93, "warn" },      { H, &point, 85, "off" },
        { H, &point, 108, "in_range" }, { H, &point, 115, "better" },
        { L, &point, 104, "in_range" }, { L, &point, 107, "warn" },
        { L, &point, 115, "off" },      { L, &point, 92, "in_range" },
        { L, &point, 85, "better" },
    };
    for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
        struct deviation d = deviation_compute(cases[i].value, cases[i].ref,
                                               (enum direction)cases[i].dir, 10);
        ck_assert_msg(strcmp(verdict_name(d.verdict), cases[i].verdict) == 0,
                      "case %zu (dir %d, %g, %s): %s", i, cases[i].dir, cases[i].value,
                      cases[i].ref == &band ? "band" : "point", verdict_name(d.verdict));
    }
}
END_TEST

/* lat_ctx rows as a guide prints them (AM62x SK, us): the words follow
 * the numbers. Far below the band is better however far, and the word
 * does not depend on how wide the band is; above it, the edge decides,
 * not the avg: 92 us is 7.3 % above a max of 85.73 (warn, and
 * --fail-on-deviation 10 does not fail it), 17.6 % of the avg. */
START_TEST(lat_ctx_words_follow_the_numbers)
{
    static const struct ref_value ctx128 = { .present = true, .avg = 10.12, .has_min = true,
                                             .min = 8.9, .has_max = true, .max = 12.47 };
    static const struct ref_value ctx256 = { .present = true, .avg = 35.67, .has_min = true,
                                             .min = 9.1, .has_max = true, .max = 85.73 };
    static const struct ref_value wide = { .present = true, .avg = 35.67, .has_min = true,
                                           .min = 5.0, .has_max = true, .max = 85.73 };
    struct deviation a = deviation_compute(35.67 * (1 - 0.929), &wide, DIR_LOWER_BETTER, 10);
    struct deviation b = deviation_compute(10.12 * (1 - 0.618), &ctx128, DIR_LOWER_BETTER, 10);
    ck_assert_double_eq_tol(a.pct, -92.9, 1e-9);
    ck_assert_double_eq_tol(b.pct, -61.8, 1e-9);
    ck_assert_str_eq(verdict_name(a.verdict), "better");
    ck_assert_str_eq(verdict_name(b.verdict), "better");

    struct deviation c = deviation_compute(92, &ctx256, DIR_LOWER_BETTER, 10);
    ck_assert_str_eq(verdict_name(c.verdict), "warn");
    struct fail_input in = { .dir = DIR_LOWER_BETTER, .value = 92, .ref = &ctx256 };
    ck_assert(!deviation_fail_check(&in, 10).fails);
    c = deviation_compute(95, &ctx256, DIR_LOWER_BETTER, 10);
    ck_assert_str_eq(verdict_name(c.verdict), "off");
    in.value = 95;
    ck_assert(deviation_fail_check(&in, 10).fails);
}
END_TEST

/* One band rule: against the guide, "off" is exactly what
 * --fail-on-deviation at the tolerance fails, and "better" exactly what
 * the check's verdict counts better than the guide (the rule with the
 * direction turned round, run/check.c), over a sweep of values. */
START_TEST(verdict_agrees_with_the_fail_rule)
{
    static const struct ref_value refs[] = {
        { .present = true, .avg = 100, .has_min = true, .min = 90, .has_max = true, .max = 110 },
        { .present = true, .avg = 100 },
        { .present = true, .avg = 35.67, .has_min = true, .min = 9.1, .has_max = true,
          .max = 85.73 },
    };
    static const double tols[] = { 5, 10, 25 };
    static const enum direction dirs[] = { DIR_HIGHER_BETTER, DIR_LOWER_BETTER };
    for (size_t r = 0; r < ARRAY_SIZE(refs); r++)
        for (size_t t = 0; t < ARRAY_SIZE(tols); t++)
            for (size_t k = 0; k < ARRAY_SIZE(dirs); k++)
                for (double v = 0.5; v < 300; v += 0.37) {
                    struct deviation d = deviation_compute(v, &refs[r], dirs[k], tols[t]);
                    struct fail_input in = { .dir = dirs[k], .value = v, .ref = &refs[r] };
                    bool fails = deviation_fail_check(&in, tols[t]).fails;
                    in.dir = dirs[k] == DIR_HIGHER_BETTER ? DIR_LOWER_BETTER
                                                          : DIR_HIGHER_BETTER;
                    bool ahead = deviation_fail_check(&in, tols[t]).fails;
                    const char *w = verdict_name(d.verdict);
                    ck_assert_msg((strcmp(w, "off") == 0) == fails,
                                  "ref %zu tol %g dir %d v %g: %s", r, tols[t], dirs[k], v, w);
                    ck_assert_msg((strcmp(w, "better") == 0) == ahead,
                                  "ref %zu tol %g dir %d v %g: %s", r, tols[t], dirs[k], v, w);
                }
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

/* The failure rule of --fail-on-deviation (deviation.h), case by case:
 * with and without a baseline, better and worse, inside and outside the
 * guide's band, a single number, several PCT. */
START_TEST(fail_rule_table)
{
    static const struct ref_value band = { .present = true, .avg = 100, .has_min = true,
                                           .min = 90, .has_max = true, .max = 110 };
    static const struct ref_value point = { .present = true, .avg = 100 };
    static const struct ref_value off_guide = { .present = true, .avg = 200 };
    enum { H = DIR_HIGHER_BETTER, L = DIR_LOWER_BETTER, N = DIR_NEUTRAL };
    static const struct {
        const char *what;
        int dir;
        double value;
        bool with_base, has_base;
        double base;
        const struct ref_value *ref;
        double pct;
        bool fails;
        enum fail_basis basis;
        double worse;           /* expected worse %, < 0: not checked */
    } cases[] = {
        /* with a baseline: the change's interval decides, the guide is not
         * asked; an interval across -PCT (PCT 50, identical at a tiny
         * PCT) is inconclusive and never fails */
        { "identical, tiny PCT", H, 100, true, true, 100, &off_guide, 1e-6, false, BASIS_BASELINE, 0 },
        { "identical, PCT 1000000", H, 100, true, true, 100, &off_guide, 1e6, false, BASIS_BASELINE, 0 },
        { "identical lower-better", L, 40, true, true, 40, &off_guide, 0.001, false, BASIS_BASELINE, 0 },
        { "equal to 10 digits", H, 1838.123456789, true, true, 1838.123456788, NULL, 1e-9, false, BASIS_BASELINE, 0 },
        { "0.6% better, guide off", H, 100.6, true, true, 100, &off_guide, 80, false, BASIS_BASELINE, 0 },
        { "50% worse, PCT 20", H, 50, true, true, 100, NULL, 20, true, BASIS_BASELINE, 50 },
        { "50% worse, PCT 80", H, 50, true, true, 100, NULL, 80, false, BASIS_BASELINE, 50 },
        { "50% worse, PCT 50", H, 50, true, true, 100, NULL, 50, false, BASIS_BASELINE, 50 },
        { "50% worse, PCT 49.9", H, 50, true, true, 100, NULL, 49.9, true, BASIS_BASELINE, 50 },
        { "latency 50% worse, PCT 20", L, 60, true, true, 40, NULL, 20, true, BASIS_BASELINE, 50 },
        { "latency 50% better, PCT 1", L, 20, true, true, 40, NULL, 1, false, BASIS_BASELINE, 0 },
        { "twice as fast, PCT 1", H, 200, true, true, 100, NULL, 1, false, BASIS_BASELINE, 0 },
        { "not in the baseline", H, 1, true, false, 0, &band, 5, false, BASIS_NONE, -1 },
        { "baseline of 0", H, 1, true, true, 0, &band, 5, false, BASIS_NONE, -1 },
        { "neutral unit changed", N, 50, true, true, 100, NULL, 5, false, BASIS_NONE, -1 },
        { "PCT 0: off", H, 10, true, true, 100, NULL, 0, false, BASIS_BASELINE, 90 },
        /* without: the guide's band edge on the worse side */
        { "inside the band, below avg", H, 91, false, false, 0, &band, 1, false, BASIS_GUIDE_MIN, 0 },
        { "inside the band, lower-better", L, 109, false, false, 0, &band, 1, false, BASIS_GUIDE_MAX, 0 },
        { "below the band 50%, PCT 20", H, 45, false, false, 0, &band, 20, true, BASIS_GUIDE_MIN, 50 },
        { "below the band 50%, PCT 80", H, 45, false, false, 0, &band, 80, false, BASIS_GUIDE_MIN, 50 },
        { "above a latency band 50%, PCT 20", L, 165, false, false, 0, &band, 20, true, BASIS_GUIDE_MAX, 50 },
        { "above a latency band 50%, PCT 80", L, 165, false, false, 0, &band, 80, false, BASIS_GUIDE_MAX, 50 },
        { "far above the band (better)", H, 400, false, false, 0, &band, 1, false, BASIS_GUIDE_MIN, 0 },
        { "far below a latency band (better)", L, 10, false, false, 0, &band, 1, false, BASIS_GUIDE_MAX, 0 },
        { "single number 50% worse, PCT 20", H, 50, false, false, 0, &point, 20, true, BASIS_GUIDE_AVG, 50 },
        { "single number 50% worse, PCT 80", H, 50, false, false, 0, &point, 80, false, BASIS_GUIDE_AVG, 50 },
        { "single number -46%, PCT 80", H, 54, false, false, 0, &point, 80, false, BASIS_GUIDE_AVG, 46 },
        { "single number 10% worse, PCT 5", L, 110, false, false, 0, &point, 5, true, BASIS_GUIDE_AVG, 10 },
        { "no guide number", H, 1, false, false, 0, NULL, 5, false, BASIS_NONE, -1 },
        { "not measured", H, NAN, true, true, 100, NULL, 5, false, BASIS_NONE, -1 },
    };
    for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
        struct fail_input in = {
            .dir = (enum direction)cases[i].dir, .value = cases[i].value,
            .with_baseline = cases[i].with_base, .has_baseline = cases[i].has_base,
            .baseline = cases[i].base, .ref = cases[i].ref,
        };
        /* against a baseline: the change of the value, a narrow interval
         * round it (+-0.05 points), 20 runs a side */
        if (in.has_baseline && in.baseline != 0 && isfinite(in.value)) {
            double pct = (in.value / in.baseline - 1) * 100;
            in.has_change = true;
            in.change = (struct change){ .n_before = 20, .n_now = 20, .has_estimate = true,
                                         .pct = pct, .has_interval = true, .low = pct - 0.05,
                                         .high = pct + 0.05, .confidence = 0.95 };
        }
        struct fail_check fc = deviation_fail_check(&in, cases[i].pct);
        ck_assert_msg(fc.fails == cases[i].fails, "%s: fails %d", cases[i].what, fc.fails);
        ck_assert_msg(fc.basis == cases[i].basis, "%s: basis %d", cases[i].what, fc.basis);
        if (cases[i].worse >= 0)
            ck_assert_msg(fabs(fc.worse_pct - cases[i].worse) < 1e-9, "%s: worse %g",
                          cases[i].what, fc.worse_pct);
    }
}
END_TEST

/* The reason names the basis, how much worse and the limit. */
START_TEST(fail_rule_reasons)
{
    static const struct ref_value band = { .present = true, .avg = 100, .has_min = true,
                                           .min = 90, .has_max = true, .max = 110 };
    char why[160];
    struct fail_input in = { .dir = DIR_HIGHER_BETTER, .value = 45, .ref = &band };
    struct fail_check fc = deviation_fail_check(&in, 20);
    deviation_fail_reason(&fc, 20, why, sizeof why);
    ck_assert_str_eq(why, "50.0% below the guide's band (min 90, limit 20%)");
    in = (struct fail_input){ .dir = DIR_LOWER_BETTER, .value = 60, .with_baseline = true,
                              .has_baseline = true, .baseline = 40, .has_change = true,
                              .change = { .n_before = 12, .n_now = 9, .has_estimate = true,
                                          .pct = 50, .has_interval = true, .low = 45.2,
                                          .high = 55.1, .per_run = true } };
    fc = deviation_fail_check(&in, 12.5);
    ck_assert(fc.fails);
    deviation_fail_reason(&fc, 12.5, why, sizeof why);
    ck_assert_str_eq(why, "+50.0% (+45.2 .. +55.1%) against the baseline's 40, 9 runs against "
                          "12: slower beyond the limit 12.5%");
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
    tcase_add_test(tc, verdict_table);
    tcase_add_test(tc, lat_ctx_words_follow_the_numbers);
    tcase_add_test(tc, verdict_agrees_with_the_fail_rule);
    tcase_add_test(tc, reference_scaled_to_the_live_clock);
    tcase_add_test(tc, fail_rule_table);
    tcase_add_test(tc, fail_rule_reasons);
    suite_add_tcase(s, tc);
    return s;
}
