/* check_main.c - the one test runner: every module's suite, one report.
 * Run a single suite with CK_RUN_SUITE=name, a case with CK_RUN_CASE. */
#include "config.h"

#include <stdlib.h>

#include "suites.h"
#include "util.h"

char *test_data_path(const char *rel)
{
    const char *base = getenv("TESTS_DATA");
    return path_join(base ? base : "tests/data", rel);
}

int main(void)
{
    Suite *(*const suites[])(void) = {
        suite_util, suite_stats, suite_report, suite_runner, suite_refdb,
        suite_deviation, suite_catalog, suite_board, suite_guide_import,
        suite_stream, suite_memory, suite_os, suite_cpu, suite_nbench,
        suite_recipe, suite_cpuload, suite_cli, suite_widgets,
    };
    SRunner *sr = srunner_create(NULL);
    for (size_t i = 0; i < ARRAY_SIZE(suites); i++)
        srunner_add_suite(sr, suites[i]());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
