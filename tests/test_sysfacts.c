/* test_sysfacts.c - the facts sysinfo prints and the system screen shows
 * (src/sysfacts.h), read under fixture sysroots: the DDR rate with its
 * source, every clock with its source, nothing of this machine in a
 * tree's facts (its cores are not measured, its load and cpufreq are the
 * tree's), and the warnings in the text as in the JSON. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "app.h"
#include "benches/kernels/registry.h"
#include "common/util.h"
#include "suites.h"
#include "sysfacts.h"

#define MEASURE_S 0.01      /* asked for: a tree's cores must still not be measured */

struct facts_text {
    char *text;             /* sysfacts_print_text() */
    json_t *json;           /* sysfacts_to_json() */
};

/* The facts of tests/data/REL (board: --board KEY, NULL to detect). */
static struct facts_text facts_of(const char *rel, const char *board)
{
    char *root = test_data_path(rel);
    struct app_config cfg = { .sysroot = root, .board = board, .kernels = kernel_registry,
                              .nkernels = kernel_registry_count };
    struct app a;
    app_init(&a, &cfg);
    struct sysfacts f;
    sysfacts_read(&f, &a, MEASURE_S);
    struct facts_text t = { 0 };
    size_t len = 0;
    FILE *out = open_memstream(&t.text, &len);
    ck_assert_ptr_nonnull(out);
    sysfacts_print_text(&f, out);
    fclose(out);
    t.json = sysfacts_to_json(&f);
    sysfacts_free(&f);
    app_free(&a);
    free(root);
    return t;
}

static void facts_free(struct facts_text *t)
{
    free(t->text);
    json_decref(t->json);
}

static void has(const struct facts_text *t, const char *want)
{
    ck_assert_msg(strstr(t->text, want) != NULL, "no \"%s\" in:\n%s", want, t->text);
}

static void lacks(const struct facts_text *t, const char *unwanted)
{
    ck_assert_msg(strstr(t->text, unwanted) == NULL, "\"%s\" in:\n%s", unwanted, t->text);
}

/* How many lines start with `label`. */
static size_t lines_starting(const char *text, const char *label)
{
    size_t n = 0;
    for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
        n += str_starts_with(l, label);
    return n;
}

/* The CPUn lines: each holds `want`. */
static void every_core_says(const struct facts_text *t, const char *want, size_t cores)
{
    size_t n = 0;
    for (const char *l = t->text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
        if (strncmp(l, "CPU", 3) != 0 || l[3] < '0' || l[3] > '9')
            continue;
        size_t len = strcspn(l, "\n");
        ck_assert_msg(memmem(l, len, want, strlen(want)) != NULL, "no \"%s\" in \"%.*s\"",
                      want, (int)len, l);
        n++;
    }
    ck_assert_uint_eq(n, cores);
}

/* The DDR rate and clock with their source, each core's and the board's
 * clock with theirs; a tree's cores are not this machine's, so none is
 * measured. */
START_TEST(facts_name_their_sources)
{
    struct facts_text t = facts_of("sysroots-sys/am62x-ddr1600", NULL);
    has(&t, "\nDDR rate:     1600 MT/s (clk_summary: clk:170:1 at 400.0 MHz x 4)\n");
    has(&t, "\nDDR clock:    400.0 MHz (clk_summary: clk:170:1)\n");
    has(&t, "\nCPU clock:    1400 MHz (cpufreq current); maximum 1400 MHz (cpufreq)\n");
    every_core_says(&t, "cpufreq current 1400 MHz, range 200-1400 MHz", 4);
    every_core_says(&t, "not measured", 4);
    has(&t, "\nNot measured: a --sysroot tree");
    lacks(&t, "MHz measured");
    has(&t, "\nConfirms:     clock: cpufreq maximum 1400 MHz, the guide's 1400 MHz\n");
    lacks(&t, "no cpufreq");
    json_t *cpu = json_object_get(t.json, "cpu");
    ck_assert_str_eq(json_string_value(json_object_get(cpu, "mhz_source")), "cpufreq current");
    facts_free(&t);

    /* a PC's clock from /proc/cpuinfo says so */
    t = facts_of("sysroots/pc-x86", NULL);
    has(&t, "\nCPU clock:    2096 MHz (/proc/cpuinfo \"cpu MHz\"); no cpufreq\n");
    facts_free(&t);
}
END_TEST

/* No cpufreq in the tree: the board's clock, every core and the warnings
 * say so alike, and no cpufreq figure of this machine shows up. */
START_TEST(no_cpufreq_said_alike)
{
    struct facts_text t = facts_of("sysroots-cpu/pc-no-cpufreq", "am62xx_sk-fs");
    has(&t, "\nCPU clock:    unknown: no cpufreq");
    every_core_says(&t, "no cpufreq", 2);
    has(&t, "\nWarning:      no cpufreq in sysfs");
    lacks(&t, "cpufreq current");
    lacks(&t, "MHz measured");
    facts_free(&t);
}
END_TEST

/* The warnings are the tree's: its load and governors, the match's doubts;
 * an idle tree at `performance` has none of those. The JSON lists the
 * same warnings as the text. */
START_TEST(warnings_are_the_trees)
{
    struct facts_text busy = facts_of("sysroots-cpu/am62x-schedutil-busy", "am62xx_sk-fs");
    has(&busy, "\nWarning:      the 1-minute load average is 1.50");
    has(&busy, "schedutil");
    has(&busy, "\nWarning:      this board does not match the guide's AM62x SK");
    struct facts_text idle = facts_of("sysroots-cpu/am62x-perf-idle", "am62xx_sk-fs");
    lacks(&idle, "load average");
    lacks(&idle, "governor '");
    struct facts_text sk = facts_of("sysroots-sys/am62x-ddr1600", NULL);
    lacks(&sk, "Warning:");
    has(&sk, "\nWarnings:     none");

    const struct facts_text *all[] = { &busy, &idle, &sk };
    for (size_t i = 0; i < ARRAY_SIZE(all); i++) {
        json_t *w = json_object_get(all[i]->json, "warnings");
        ck_assert(json_is_array(w));
        ck_assert_uint_eq(json_array_size(w), lines_starting(all[i]->text, "Warning: "));
    }
    facts_free(&busy);
    facts_free(&idle);
    facts_free(&sk);
}
END_TEST

/* Without a guide board there is nothing to compare with, and it says so
 * as a warning. */
START_TEST(no_reference_is_a_warning)
{
    struct facts_text t = facts_of("sysroots/ti-am64x-sk", NULL);
    has(&t, "\nWarning:      no guide describes this board");
    facts_free(&t);
}
END_TEST

Suite *suite_sysfacts(void)
{
    Suite *s = suite_create("sysfacts");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, facts_name_their_sources);
    tcase_add_test(tc, no_cpufreq_said_alike);
    tcase_add_test(tc, warnings_are_the_trees);
    tcase_add_test(tc, no_reference_is_a_warning);
    suite_add_tcase(s, tc);
    return s;
}
