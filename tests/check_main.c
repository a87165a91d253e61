/* check_main.c - the one test runner: every module's suite, one report.
 * Run a single suite with CK_RUN_SUITE=name, a case with CK_RUN_CASE.
 *
 * Test names say what holds, in lower-case snake_case without a test_
 * prefix: START_TEST(replace_keeps_mode), START_TEST(version_and_help).
 * Helpers more than one suite uses live here (suites.h) or in
 * test_helpers.c (test_helpers.h), not in copies. */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "suites.h"
#include "common/util.h"

char *test_data_path(const char *rel)
{
    const char *base = getenv("TESTS_DATA");
    return path_join(base ? base : "tests/data", rel);
}

double test_memcpy_mbs(size_t bytes)
{
    char *a = xcalloc(bytes, 1), *b = xcalloc(bytes, 1);
    double best = INFINITY;
    for (int rep = 0; rep < 5; rep++) {
        a[0] = (char)rep;   /* not the same bytes every time */
        double t0 = now_seconds();
        memcpy(b, a, bytes);
        double t = now_seconds() - t0;
        if (t > 0 && t < best)
            best = t;
    }
    ck_assert_int_eq(b[0], 4);
    free(a);
    free(b);
    ck_assert_msg(isfinite(best), "a memcpy of %zu bytes took no measurable time", bytes);
    return 2.0 * (double)bytes / 1e6 / best;
}

int test_cli_words(const char *const *words, unsigned closed, char **out, char **err)
{
    char *argv[64];
    int argc = 0;
    argv[argc++] = (char *)"evmbench";
    for (size_t i = 0; words[i] && argc < 63; i++)
        argv[argc++] = (char *)words[i];
    argv[argc] = NULL;
    size_t no, ne;
    FILE *fo = open_memstream(out, &no), *fe = open_memstream(err, &ne);
    int rc = cli_main_std(argc, argv, fo, fe, closed);
    fclose(fo);
    fclose(fe);
    return rc;
}

int test_cli_va(char **out, char **err, const char *first, va_list ap)
{
    const char *words[64];
    size_t n = 0;
    for (const char *a = first; a && n < 63; a = va_arg(ap, const char *))
        words[n++] = a;
    words[n] = NULL;
    return test_cli_words(words, 0, out, err);
}

int test_cli(char **out, char **err, const char *first, ...)
{
    va_list ap;
    va_start(ap, first);
    int rc = test_cli_va(out, err, first, ap);
    va_end(ap);
    return rc;
}

int main(void)
{
    /* runs in the tests go to a store of their own, not the user's */
    char store[] = "/tmp/evmbench-check-XXXXXX";
    if (!mkdtemp(store))
        return EXIT_FAILURE;
    setenv("XDG_DATA_HOME", store, 1);
    Suite *(*const suites[])(void) = {
        suite_util, suite_stats, suite_change, suite_report, suite_runner, suite_refdb,
        suite_deviation, suite_catalog, suite_board, suite_guide_import,
        suite_stream, suite_memory, suite_os, suite_cpu, suite_nbench,
        suite_recipe, suite_cpuload, suite_cli, suite_widgets, suite_list, suite_format, suite_job, suite_engine, suite_store, suite_settings,
        suite_import, suite_embedded, suite_privilege, suite_outfile,
        suite_spawn, suite_sysstate, suite_sysfacts, suite_select, suite_gunzip,
    };
    SRunner *sr = srunner_create(NULL);
    for (size_t i = 0; i < ARRAY_SIZE(suites); i++)
        srunner_add_suite(sr, suites[i]());
    srunner_run_all(sr, CK_ENV);       /* CK_VERBOSITY, default normal */
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    char *rm = xasprintf("rm -rf '%s'", store);
    if (system(rm) != 0)
        failed++;
    free(rm);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
