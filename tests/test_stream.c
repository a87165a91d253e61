/* test_stream.c - the STREAM kernel run in-process, and the registry. */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "run/kernel.h"
#include "run/report.h"
#include "suites.h"
#include "common/util.h"

static const char *const guide_rows[] = { "copy", "scale", "add", "triad" };

/* Everything a run reported, copied out of the (transient) events. */
struct events {
    int samples[4];         /* per guide_rows[] entry */
    double best[4];
    int unknown_samples;
    int bad_values;         /* samples <= 0 or not finite */
    int fails[4];
    int unknown_fails;
    char *fail_text;        /* the first failure message */
    int progress;
    double last_done, last_total, prev_done;
    bool progress_backwards;
    int notes;
    char *notes_text;       /* all notes, '|' separated */
};

static int row_index(const char *metric)
{
    for (size_t i = 0; i < ARRAY_SIZE(guide_rows); i++)
        if (metric && strcmp(metric, guide_rows[i]) == 0)
            return (int)i;
    return -1;
}

static void collect(void *ctx, const struct report_event *ev)
{
    struct events *e = ctx;
    int i;
    switch (ev->kind) {
    case REPORT_SAMPLE:
        i = row_index(ev->metric);
        if (i < 0)
            e->unknown_samples++;
        else {
            e->samples[i]++;
            e->best[i] = fmax(e->best[i], ev->value);
        }
        if (!isfinite(ev->value) || ev->value <= 0)
            e->bad_values++;
        break;
    case REPORT_PROGRESS:
        if (e->progress && ev->value < e->prev_done)
            e->progress_backwards = true;
        e->prev_done = e->last_done = ev->value;
        e->last_total = ev->total;
        e->progress++;
        break;
    case REPORT_NOTE: {
        char *joined = xasprintf("%s%s|", e->notes_text ? e->notes_text : "", ev->text);
        free(e->notes_text);
        e->notes_text = joined;
        e->notes++;
        break;
    }
    case REPORT_FAIL:
        i = row_index(ev->metric);
        if (i < 0)
            e->unknown_fails++;
        else
            e->fails[i]++;
        if (!e->fail_text)
            e->fail_text = xstrdup(ev->text);
        break;
    }
}

static int run_stream(const struct kernel_params *p, struct events *e)
{
    memset(e, 0, sizeof *e);
    const struct kernel *k = kernel_find("stream");
    ck_assert_ptr_nonnull(k);
    struct report r;
    report_to_callback(&r, collect, e);
    return k->run(p, &r);
}

static void events_free(struct events *e)
{
    free(e->fail_text);
    free(e->notes_text);
}

START_TEST(registry_lookups)
{
    ck_assert_uint_ge(kernel_registry_count, 1);
    const struct kernel *k = kernel_find("stream");
    ck_assert_ptr_nonnull(k);
    ck_assert_ptr_eq(kernel_find("STREAM"), k);
    ck_assert_ptr_eq(kernel_find("Stream"), k);
    ck_assert_ptr_null(kernel_find("nosuchkernel"));
    ck_assert_ptr_null(kernel_find(""));
    ck_assert_ptr_null(kernel_find(NULL));

    bool listed = false;
    for (size_t i = 0; i < kernel_registry_count; i++)
        listed |= kernel_registry[i] == k;
    ck_assert(listed);

    ck_assert_ptr_eq(kernel_metric_find(k, "triad"), &k->metrics[3]);
    ck_assert_ptr_eq(kernel_metric_find(k, "Copy"), &k->metrics[0]);
    ck_assert_ptr_null(kernel_metric_find(k, "bw_mem"));
    ck_assert_ptr_null(kernel_metric_find(k, NULL));
    ck_assert_ptr_null(kernel_metric_find(NULL, "copy"));
}
END_TEST

/* The guide's Stream table: rows copy, scale, add, triad in mb/s; STREAM
 * reports the best rate. */
START_TEST(metrics_match_the_guide)
{
    const struct kernel *k = kernel_find("stream");
    ck_assert_str_eq(k->name, "stream");
    ck_assert_str_eq(k->section, "stream");
    ck_assert_ptr_nonnull(k->description);
    ck_assert_uint_eq(k->nmetrics, ARRAY_SIZE(guide_rows));
    for (size_t i = 0; i < k->nmetrics; i++) {
        ck_assert_str_eq(k->metrics[i].id, guide_rows[i]);
        ck_assert_str_eq(k->metrics[i].unit, "mb/s");
        ck_assert_int_eq(k->metrics[i].summary, SUMMARY_MAX);
    }
    ck_assert(k->budget_quick_s > 0);
    ck_assert(k->budget_full_s >= k->budget_quick_s);
    ck_assert_ptr_nonnull(k->run);
}
END_TEST

/* 2 M elements, 3 passes: the first is a warm-up, so 2 samples each. */
START_TEST(quick_run_validates)
{
    struct kernel_params p = { .quick = true, .size = 2000000, .iterations = 3 };
    struct events e;
    int rc = run_stream(&p, &e);
    ck_assert_msg(rc == 0, "run failed: %s", e.fail_text ? e.fail_text : "?");
    for (size_t i = 0; i < ARRAY_SIZE(guide_rows); i++) {
        ck_assert_int_eq(e.samples[i], 2);
        ck_assert_int_eq(e.fails[i], 0);
    }
    ck_assert_int_eq(e.unknown_samples, 0);
    ck_assert_int_eq(e.unknown_fails, 0);
    ck_assert_int_eq(e.bad_values, 0);
    ck_assert_int_eq(e.progress, 3);
    ck_assert(!e.progress_backwards);
    ck_assert_double_eq(e.last_total, 3);
    ck_assert_double_eq(e.last_done, e.last_total);
    ck_assert_int_ge(e.notes, 1);       /* the array sizes are stated */
    ck_assert_ptr_nonnull(strstr(e.notes_text, "2000000"));
    events_free(&e);
}
END_TEST

/* Rates in MB/s, judged against a memcpy timed here on the same arrays'
 * size, not against a speed assumed for the machine: a wrong byte count
 * or unit (bytes, KB, ns) is off by a factor of 1000 or more; the kernels'
 * loops and a library memcpy (vector code, ASan or an emulator) differ by
 * far less than the factor of 50 allowed. The four kernels run at
 * comparable speeds. */
START_TEST(rates_are_plausible)
{
    struct kernel_params p = { .quick = true, .size = 2000000, .iterations = 3 };
    struct events e;
    ck_assert_int_eq(run_stream(&p, &e), 0);
    double here = test_memcpy_mbs(p.size * sizeof(double));
    double lo = INFINITY, hi = 0;
    for (size_t i = 0; i < ARRAY_SIZE(guide_rows); i++) {
        ck_assert_msg(e.best[i] > here / 50 && e.best[i] < here * 50,
                      "%s: %g MB/s, a memcpy here %g MB/s", guide_rows[i], e.best[i], here);
        lo = fmin(lo, e.best[i]);
        hi = fmax(hi, e.best[i]);
    }
    ck_assert_msg(hi / lo < 20, "rates from %g to %g MB/s", lo, hi);
    events_free(&e);
}
END_TEST

START_TEST(one_iteration_is_raised_to_two)
{
    struct kernel_params p = { .quick = true, .size = 100000, .iterations = 1 };
    struct events e;
    ck_assert_int_eq(run_stream(&p, &e), 0);
    for (size_t i = 0; i < ARRAY_SIZE(guide_rows); i++)
        ck_assert_int_eq(e.samples[i], 1);
    ck_assert_double_eq(e.last_total, 2);
    ck_assert_ptr_nonnull(strstr(e.notes_text, "warm-up"));
    events_free(&e);
}
END_TEST

/* 16 elements take nanoseconds: the timer guideline must be reported,
 * and the run still validates. */
START_TEST(tiny_arrays_warn_about_the_clock)
{
    struct kernel_params p = { .quick = true, .size = 16, .iterations = 3 };
    struct events e;
    ck_assert_int_eq(run_stream(&p, &e), 0);
    ck_assert_int_eq(e.bad_values, 0);
    ck_assert_ptr_nonnull(e.notes_text);
    ck_assert_ptr_nonnull(strstr(e.notes_text, "clock ticks"));
    ck_assert_ptr_nonnull(strstr(e.notes_text, "4x the last-level cache"));
    events_free(&e);
}
END_TEST

START_TEST(impossible_size_fails_cleanly)
{
    struct kernel_params p = { .quick = true, .size = SIZE_MAX / 4, .iterations = 3 };
    struct events e;
    ck_assert_int_eq(run_stream(&p, &e), -1);
    for (size_t i = 0; i < ARRAY_SIZE(guide_rows); i++) {
        ck_assert_int_eq(e.fails[i], 1);
        ck_assert_int_eq(e.samples[i], 0);
    }
    ck_assert_ptr_nonnull(e.fail_text);
    ck_assert_ptr_nonnull(strstr(e.fail_text, "too large"));
    events_free(&e);
}
END_TEST

/* Fits the address space but not the machine: refused before allocation
 * (when /proc/meminfo is readable) or by the allocator, never a crash. */
START_TEST(oversized_request_fails_cleanly)
{
    struct kernel_params p = { .quick = true, .size = SIZE_MAX / 64, .iterations = 3 };
    struct events e;
    ck_assert_int_eq(run_stream(&p, &e), -1);
    for (size_t i = 0; i < ARRAY_SIZE(guide_rows); i++)
        ck_assert_int_eq(e.fails[i], 1);
    ck_assert_int_eq(e.progress, 0);
    events_free(&e);
}
END_TEST

Suite *suite_stream(void)
{
    Suite *s = suite_create("stream");
    TCase *tc = tcase_create("registry");
    tcase_add_test(tc, registry_lookups);
    tcase_add_test(tc, metrics_match_the_guide);
    suite_add_tcase(s, tc);

    tc = tcase_create("run");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, quick_run_validates);
    tcase_add_test(tc, rates_are_plausible);
    tcase_add_test(tc, one_iteration_is_raised_to_two);
    tcase_add_test(tc, tiny_arrays_warn_about_the_clock);
    tcase_add_test(tc, impossible_size_fails_cleanly);
    tcase_add_test(tc, oversized_request_fails_cleanly);
    suite_add_tcase(s, tc);
    return s;
}
