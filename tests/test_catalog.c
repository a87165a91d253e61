/* test_catalog.c - the guide's sections as the menu. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "data/catalog.h"
#include "suites.h"
#include "common/util.h"

static int run_nothing(const struct kernel_params *p, struct report *r)
{
    (void)p;
    (void)r;
    return 0;
}

static const struct kernel_metric m[] = { { .id = "copy", .unit = "mb/s", .summary = SUMMARY_MAX } };
static const struct kernel k_stream = { .name = "stream", .section = "stream", .metrics = m,
                                        .nmetrics = 1, .run = run_nothing };
static const struct kernel k_stream2 = { .name = "stream_mt", .section = "stream", .metrics = m,
                                         .nmetrics = 1, .run = run_nothing };
static const struct kernel k_orphan = { .name = "orphan", .section = "nowhere", .metrics = m,
                                        .nmetrics = 1, .run = run_nothing };

START_TEST(categories_follow_the_guide)
{
    struct diag dg;
    diag_init(&dg);
    struct refdb *db = refdb_new();
    char *p = test_data_path("refs");
    refdb_load_path(db, p, &dg);
    free(p);
    const struct kernel *ks[] = { &k_stream, &k_orphan, &k_stream2 };
    struct catalog *c = catalog_build(db, ks, 3);

    ck_assert_uint_eq(c->ncats, 4);
    ck_assert_str_eq(c->cats[0].title, "System Benchmarks");
    ck_assert_str_eq(c->cats[1].title, "Crypto");
    ck_assert_str_eq(c->cats[2].title, "Low Power Performance");
    ck_assert_str_eq(c->cats[3].title, "Other");
    /* Stream from two guides is one benchmark with two tables */
    ck_assert_uint_eq(c->cats[0].nbenches, 2);
    const struct cat_bench *b = catalog_find_bench(c, "stream");
    ck_assert_ptr_nonnull(b);
    ck_assert_str_eq(b->title, "Stream");
    ck_assert_uint_eq(b->ntables, 2);
    ck_assert_uint_eq(b->nkernels, 2);     /* two kernels serve one section */
    ck_assert_ptr_eq(b->kernels[0], &k_stream);
    ck_assert_ptr_eq(b->kernels[1], &k_stream2);
    ck_assert_ptr_eq(catalog_find_bench(c, "stream_mt"), b);
    ck_assert_ptr_eq(b->category, &c->cats[0]);
    ck_assert_uint_eq(cat_bench_count_metrics(b), 4);
    b = catalog_find_bench(c, "DHRYSTONE");
    ck_assert_ptr_nonnull(b);
    ck_assert_uint_eq(b->nkernels, 0);  /* reference only */
    b = catalog_find_bench(c, "orphan");
    ck_assert_ptr_nonnull(b);
    ck_assert_str_eq(b->category->title, "Other");
    ck_assert_ptr_null(catalog_find_bench(c, "nosuch"));
    ck_assert_ptr_nonnull(catalog_find_category(c, "system_benchmarks"));
    ck_assert_ptr_nonnull(catalog_find_category(c, "Crypto"));
    ck_assert_ptr_null(catalog_find_category(c, "nope"));
    catalog_free(c);
    refdb_free(db);
    diag_free(&dg);
}
END_TEST

START_TEST(empty_database_still_lists_kernels)
{
    const struct kernel *ks[] = { &k_stream };
    struct catalog *c = catalog_build(NULL, ks, 1);
    ck_assert_uint_eq(c->ncats, 1);
    ck_assert_str_eq(c->cats[0].title, "Other");
    ck_assert_ptr_nonnull(catalog_find_bench(c, "stream"));
    catalog_free(c);
}
END_TEST

Suite *suite_catalog(void)
{
    Suite *s = suite_create("catalog");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, categories_follow_the_guide);
    tcase_add_test(tc, empty_database_still_lists_kernels);
    suite_add_tcase(s, tc);
    return s;
}
