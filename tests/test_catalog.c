/* test_catalog.c - the guide's sections as the menu. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "data/catalog.h"
#include "suites.h"
#include "common/util.h"
#include "data/datadir.h"

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
    struct catalog *c = catalog_build(db, NULL, ks, 3);

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
    ck_assert_uint_eq(cat_bench_count_metrics(b, NULL), 4);
    /* a board's count is of the rows with its numbers: the LP SK has no
     * scale, and the newer table's copy (the SK's only) hides no older one */
    ck_assert_uint_eq(cat_bench_count_metrics(b, "am62xx_sk-fs"), 4);
    ck_assert_uint_eq(cat_bench_count_metrics(b, "am62xx_lp_sk-fs"), 3);
    ck_assert_uint_eq(cat_bench_count_metrics(b, "nosuch"), 0);
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

/* The newer guide's table first: its copy row has no LP SK number, and
 * the older table's copy, which has one, still counts. */
START_TEST(board_count_is_of_rows_with_its_numbers)
{
    struct diag dg;
    diag_init(&dg);
    struct refdb *db = refdb_new();
    char *p = test_data_path("refs/newer.json");
    refdb_load_file(db, p, &dg);
    free(p);
    p = test_data_path("refs/good.json");
    refdb_load_file(db, p, &dg);
    free(p);
    const struct kernel *ks[] = { &k_stream };
    struct catalog *c = catalog_build(db, NULL, ks, 1);
    const struct cat_bench *b = catalog_find_bench(c, "stream");
    ck_assert_ptr_nonnull(b);
    ck_assert_uint_eq(b->ntables, 2);
    ck_assert_uint_eq(b->tables[0]->nrows, 1);        /* newer.json's, first */
    ck_assert_uint_eq(cat_bench_count_metrics(b, "am62xx_lp_sk-fs"), 3);
    ck_assert_uint_eq(cat_bench_count_metrics(b, "am62xx_sk-fs"), 4);
    ck_assert_uint_eq(cat_bench_count_metrics(b, NULL), 4);
    catalog_free(c);
    refdb_free(db);
    diag_free(&dg);
}
END_TEST

START_TEST(empty_database_still_lists_kernels)
{
    const struct kernel *ks[] = { &k_stream };
    struct catalog *c = catalog_build(NULL, NULL, ks, 1);
    ck_assert_uint_eq(c->ncats, 1);
    ck_assert_str_eq(c->cats[0].title, "Other");
    ck_assert_ptr_nonnull(catalog_find_bench(c, "stream"));
    catalog_free(c);
}
END_TEST

/* The shipped guides (benches/refs) and, when asked, their alias table. */
static struct catalog *shipped_catalog(struct refdb **db, bool with_aliases)
{
    struct diag dg;
    diag_init(&dg);
    *db = refdb_new();
    struct data_dir d;
    data_dir_default(&d, "refs");
    ck_assert_int_ge(refdb_load_dir(*db, &d, &dg), 5);
    data_dir_free(&d);
    struct cat_aliases al;
    cat_aliases_init(&al);
    if (with_aliases)
        ck_assert_int_eq(cat_aliases_load_default(&al, &dg), 0);
    ck_assert_msg(dg.n == 0, "%s", diag_last(&dg));
    diag_free(&dg);
    ck_assert(!with_aliases || al.ngroups > 4);
    struct catalog *c = catalog_build(*db, with_aliases ? &al : NULL, NULL, 0);
    ck_assert_uint_eq(al.ngroups, 0);   /* moved into the catalog */
    cat_aliases_free(&al);
    return c;
}

static const struct cat_category *view_find(const struct cat_view *v, const char *title)
{
    for (size_t i = 0; i < v->ncats; i++)
        if (strcmp(v->cats[i].title, title) == 0)
            return &v->cats[i];
    return NULL;
}

static const struct cat_category *catalog_cat(const struct catalog *c, const char *title)
{
    for (size_t i = 0; i < c->ncats; i++)
        if (strcmp(c->cats[i].title, title) == 0)
            return &c->cats[i];
    return NULL;
}

/* An AM62x SK sees its own guide, in its order; J721E's categories and
 * the MCU+ SDK's sit behind one entry each. */
START_TEST(menu_is_the_boards_guide)
{
    struct refdb *db;
    struct catalog *c = shipped_catalog(&db, true);
    struct cat_menu *menu = catalog_menu(c, "am62xx_sk-fs");
    ck_assert_ptr_nonnull(menu->guide);
    ck_assert_str_eq(menu->guide->title, "Linux 12.00.00 Performance Guide");
    ck_assert_str_eq(menu->soc, "AM62x");
    const struct cat_view *main = &menu->part[MENU_MAIN];
    ck_assert_uint_eq(main->nguides, 1);
    ck_assert_uint_eq(main->ncats, 11);
    ck_assert_str_eq(main->cats[0].title, "System Benchmarks");
    ck_assert_str_eq(main->cats[1].title, "Boot-time Measurement");
    ck_assert_str_eq(main->cats[10].title, "Low Power Performance");
    ck_assert_ptr_null(view_find(main, "UBoot UFS Driver"));
    ck_assert_ptr_null(view_find(main, "PCIe Driver"));
    ck_assert_ptr_null(view_find(main, "IPC performance (MCU+ SDK)"));
    /* USB: only the AM62x guide's benchmark, not J721E's host controller */
    const struct cat_category *usb = view_find(main, "USB");
    ck_assert_ptr_nonnull(usb);
    ck_assert_uint_eq(usb->nbenches, 1);
    ck_assert_str_eq(usb->benches[0]->slug, "usb_device_controller");
    /* the MCU+ SDK guide of the AM62x, and not the AM62P's */
    const struct cat_view *mcu = &menu->part[MENU_MCU];
    ck_assert_uint_eq(mcu->nguides, 1);
    ck_assert_ptr_nonnull(view_find(mcu, "IPC performance (MCU+ SDK)"));
    ck_assert_ptr_null(view_find(mcu, "TCP/IP Performance (MCU+ SDK)"));
    const struct cat_view *others = &menu->part[MENU_OTHERS];
    ck_assert_uint_eq(others->nguides, 3);
    ck_assert_ptr_nonnull(view_find(others, "PCIe Driver"));
    ck_assert_ptr_nonnull(view_find(others, "TCP/IP Performance (MCU+ SDK)"));
    cat_menu_free(menu);

    /* two guides of AM68 SK? the newest; J721E: its own, "Driver" titles */
    menu = catalog_menu(c, "j721e-idk-gw");
    ck_assert_str_eq(menu->guide->title, "Performance Guide");
    ck_assert_ptr_nonnull(view_find(&menu->part[MENU_MAIN], "UBoot UFS Driver"));
    ck_assert_ptr_nonnull(view_find(&menu->part[MENU_MAIN], "ALSA SoC Audio Driver"));
    ck_assert_ptr_null(menu->soc);
    ck_assert_uint_eq(menu->part[MENU_MCU].ncats, 0);
    cat_menu_free(menu);

    /* no board, or one no guide has: every guide, as the catalog */
    for (int k = 0; k < 2; k++) {
        menu = catalog_menu(c, k ? "nosuch_board" : NULL);
        ck_assert_ptr_null(menu->guide);
        ck_assert_uint_eq(menu->part[MENU_MAIN].ncats, c->ncats);
        ck_assert_uint_eq(menu->part[MENU_MAIN].nguides, db->nsources);
        ck_assert_uint_eq(menu->part[MENU_OTHERS].ncats, 0);
        cat_menu_free(menu);
    }
    catalog_free(c);
    refdb_free(db);
}
END_TEST

/* The same benchmark under the guides' different titles is one category
 * where guides meet; the table that says so is data (sections.conf). */
START_TEST(aliases_merge_where_guides_meet)
{
    struct refdb *db;
    struct catalog *c = shipped_catalog(&db, true);
    static const char *const gone[] = { "ALSA SoC Audio Driver", "MMC/SD Driver",
                                        "UBoot EMMC Driver", "UBoot MMC/SD Driver",
                                        "OSPI Flash Driver", "CRYPTO Driver" };
    for (size_t i = 0; i < ARRAY_SIZE(gone); i++)
        ck_assert_msg(!catalog_cat(c, gone[i]), "%s is a category of its own", gone[i]);
    static const char *const same[][2] = {
        { "alsa_soc_audio_driver", "alsa_soc_audio" },
        { "mmc_sd_driver", "mmc_ext4" },
        { "uboot_emmc_driver", "uboot_emmc" },
        { "uboot_mmc_sd_driver", "uboot_mmcsd_fat" },
        { "raw", "ospi_raw" },
    };
    for (size_t i = 0; i < ARRAY_SIZE(same); i++) {
        const struct cat_bench *a = catalog_find_bench(c, same[i][0]);
        const struct cat_bench *b = catalog_find_bench(c, same[i][1]);
        ck_assert_ptr_nonnull(a);
        ck_assert_ptr_nonnull(b);
        ck_assert_msg(a->category == b->category, "%s in %s, %s in %s", same[i][0],
                      a->category->title, same[i][1], b->category->title);
    }
    /* the compare screen's sections: ALSA SoC Audio is J721E's ... Driver */
    const char **secs;
    size_t n = catalog_same_sections(c, "alsa_soc_audio", &secs);
    ck_assert_uint_eq(n, 2);
    ck_assert_str_eq(secs[0], "alsa_soc_audio");
    ck_assert_str_eq(secs[1], "alsa_soc_audio_driver");
    free(secs);
    n = catalog_same_sections(c, "stream", &secs);
    ck_assert_uint_eq(n, 1);
    free(secs);
    /* the "Other guides" of an AM68 SK: AM62x's and J721E's MMC/SD as one */
    struct cat_menu *menu = catalog_menu(c, "am68_sk-fs");
    ck_assert_str_eq(menu->guide->title, "Linux 09.00.00 Performance Guide");
    const struct cat_category *mmc = view_find(&menu->part[MENU_OTHERS], "MMCSD");
    ck_assert_ptr_nonnull(mmc);
    ck_assert_ptr_null(view_find(&menu->part[MENU_OTHERS], "MMC/SD Driver"));
    bool j721e = false;
    for (size_t i = 0; i < mmc->nbenches; i++)
        j721e |= strcmp(mmc->benches[i]->slug, "mmc_sd_driver") == 0;
    ck_assert(j721e);
    cat_menu_free(menu);
    /* a guide's own title still finds the category it joined */
    const struct cat_category *joined = catalog_find_category(c, "MMC/SD Driver");
    ck_assert_ptr_nonnull(joined);
    ck_assert_str_eq(joined->title, "MMCSD");
    ck_assert_ptr_eq(catalog_find_category(c, "crypto_driver"), catalog_cat(c, "CRYPTO"));
    catalog_free(c);
    refdb_free(db);

    /* without the table they stay apart: nothing of it is in the code */
    c = shipped_catalog(&db, false);
    ck_assert_ptr_nonnull(catalog_cat(c, "MMC/SD Driver"));
    ck_assert_ptr_nonnull(catalog_cat(c, "CRYPTO Driver"));
    catalog_free(c);
    refdb_free(db);
}
END_TEST

/* A bad line of the alias file: "file:line: why", the good lines kept. */
START_TEST(alias_file_errors)
{
    static const char text[] =
        "# comment\n"
        "same MMCSD = MMC/SD Driver\n"
        "same Lonely\n"
        "same A = = B\n"
        "alias X = Y\n"
        "same mmcsd = Other\n"
        "soc AM62x\n"
        "soc AM62x dir/mcu.json am62xx*\n"
        "soc AM62x mcu-am62x.json am62xx* am62sip*\n"
        "same OSPI RAW = OSPI Flash Driver / RAW\n";
    struct cat_aliases al;
    struct diag dg;
    cat_aliases_init(&al);
    diag_init(&dg);
    ck_assert_int_eq(cat_aliases_parse(&al, text, "x.conf", &dg), 6);
    ck_assert_uint_eq(dg.n, 6);
    ck_assert_ptr_nonnull(strstr(dg.msgs[0], "x.conf:3: a group needs two names"));
    ck_assert_ptr_nonnull(strstr(dg.msgs[1], "x.conf:4: an empty name"));
    ck_assert_ptr_nonnull(strstr(dg.msgs[2], "x.conf:5: unknown line 'alias'"));
    ck_assert_ptr_nonnull(strstr(dg.msgs[3], "x.conf:6: 'mmcsd' is already named on line 2"));
    ck_assert_ptr_nonnull(strstr(dg.msgs[4], "x.conf:7: expected: soc NAME"));
    ck_assert_ptr_nonnull(strstr(dg.msgs[5], "x.conf:8: 'dir/mcu.json'"));
    ck_assert_uint_eq(al.ngroups, 2);
    ck_assert_uint_eq(al.nsocs, 1);
    ck_assert_uint_eq(al.socs[0].nboards, 2);
    ck_assert_int_eq(cat_aliases_group(&al, NULL, "MMC/SD driver"), 0);
    ck_assert_int_eq(cat_aliases_group(&al, "OSPI Flash Driver", "RAW"), 1);
    ck_assert_int_eq(cat_aliases_group(&al, "UBIFS", "RAW"), -1);
    ck_assert_int_eq(cat_aliases_group(&al, NULL, "RAW"), -1);
    cat_aliases_free(&al);
    diag_free(&dg);
}
END_TEST

static const struct kernel k_stream_tool = { .name = "STREAM", .provider = "tool",
                                             .section = "stream", .metrics = m, .nmetrics = 1,
                                             .run = run_nothing };
static const struct kernel *installed;  /* the one tool kernel said to be found */

static bool is_installed(const struct kernel *k)
{
    return k == installed;
}

/* A kernel by name, the provider preference choosing between the
 * embedded kernel and the tool of that name; the first of each counts. */
START_TEST(kernel_by_name_as_the_provider_picks)
{
    const struct kernel *ks[] = { &k_stream, &k_orphan, &k_stream_tool, &k_stream };
    ck_assert_ptr_eq(kernels_find_provided(ks, 4, "stream", PROVIDER_KERNEL, is_installed),
                     &k_stream);
    ck_assert_ptr_eq(kernels_find_provided(ks, 4, "stream", PROVIDER_TOOL, is_installed),
                     &k_stream_tool);
    installed = NULL;
    ck_assert_ptr_eq(kernels_find_provided(ks, 4, "Stream", PROVIDER_AUTO, is_installed),
                     &k_stream);
    ck_assert_ptr_eq(kernels_find_provided(ks, 4, "stream", PROVIDER_AUTO, NULL),
                     &k_stream_tool);
    installed = &k_stream_tool;
    ck_assert_ptr_eq(kernels_find_provided(ks, 4, "stream", PROVIDER_AUTO, is_installed),
                     &k_stream_tool);
    /* a tool with no embedded kernel of its name, installed or not */
    installed = NULL;
    ck_assert_ptr_eq(kernels_find_provided(ks + 2, 1, "stream", PROVIDER_AUTO, is_installed),
                     &k_stream_tool);
    ck_assert_ptr_null(kernels_find_provided(ks + 2, 1, "stream", PROVIDER_KERNEL,
                                             is_installed));
    ck_assert_ptr_eq(kernels_find_provided(ks, 4, "orphan", PROVIDER_AUTO, is_installed),
                     &k_orphan);
    ck_assert_ptr_null(kernels_find_provided(ks, 4, "orphan", PROVIDER_TOOL, is_installed));
    ck_assert_ptr_null(kernels_find_provided(ks, 4, "nosuch", PROVIDER_AUTO, is_installed));
    ck_assert_ptr_null(kernels_find_provided(NULL, 0, "stream", PROVIDER_AUTO, NULL));
}
END_TEST

Suite *suite_catalog(void)
{
    Suite *s = suite_create("catalog");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, categories_follow_the_guide);
    tcase_add_test(tc, board_count_is_of_rows_with_its_numbers);
    tcase_add_test(tc, empty_database_still_lists_kernels);
    tcase_add_test(tc, menu_is_the_boards_guide);
    tcase_add_test(tc, aliases_merge_where_guides_meet);
    tcase_add_test(tc, alias_file_errors);
    tcase_add_test(tc, kernel_by_name_as_the_provider_picks);
    suite_add_tcase(s, tc);
    return s;
}
