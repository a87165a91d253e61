/* test_import.c - `evmbench results import`: real saved tool logs become
 * runs in the results store that show and compare read. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli/cli.h"
#include "suites.h"
#include "test_helpers.h"
#include "common/util.h"

static char *dir;

static void setup(void)
{
    dir = test_tmpdir("import-test");
}

static void teardown(void)
{
    test_rmtree(dir);
    free(dir);
}

/* Imports data/import/NAME; returns the exit status, *out and *err set. */
static int import(const char *name, const char *tool, char **out, char **err)
{
    char *rel = path_join("import", name);
    char *path = test_data_path(rel);
    int rc = test_cli(out, err, "results", "import", path, "--tool", tool, "--board", "am62xx_sk-fs",
                 "--results-dir", dir, NULL);
    free(path);
    free(rel);
    return rc;
}

/* `results show latest --format json` as a document. */
static json_t *show_latest(void)
{
    char *out, *err;
    int rc = test_cli(&out, &err, "results", "show", "latest", "--results-dir", dir, "--format",
                 "json", NULL);
    ck_assert_msg(rc == 0, "show: %s", err);
    json_t *j = json_loads(out, 0, NULL);
    ck_assert_ptr_nonnull(j);
    free(out);
    free(err);
    return j;
}

static json_t *find_row(json_t *run, const char *metric)
{
    size_t i;
    json_t *r;
    json_array_foreach(json_object_get(run, "results"), i, r)
        if (strcmp(json_string_value(json_object_get(r, "metric")), metric) == 0)
            return r;
    return NULL;
}

static double row_avg(json_t *run, const char *metric)
{
    json_t *r = find_row(run, metric);
    ck_assert_msg(r, "no row %s", metric);
    return json_number_value(json_object_get(r, "avg"));
}

/* A console log of thirteen lmbench runs: every value goes to the metric
 * of the command above it, judged against the AM62x reference. */
START_TEST(lmbench_console_log)
{
    char *out, *err;
    int rc = import("lmbench-console.log", "lmbench", &out, &err);
    ck_assert_msg(rc == 0, "rc %d: %s", rc, err);
    ck_assert_msg(strstr(out, "imported 28 metrics of 10 benchmarks"), "%s", out);
    ck_assert_str_eq(err, "");
    free(out);
    free(err);
    json_t *run = show_latest();
    json_t *imp = json_object_get(run, "imported");
    ck_assert_str_eq(json_string_value(json_object_get(imp, "tool")), "lmbench");
    ck_assert(strstr(json_string_value(json_object_get(imp, "file")),
                     "/import/lmbench-console.log"));
    ck_assert_str_eq(json_string_value(json_object_get(run, "board")), "am62xx_sk-fs");
    ck_assert(json_is_true(json_object_get(run, "complete")));
    /* two-number lines: only the command line above says whose they are */
    ck_assert_double_eq_tol(row_avg(run, "bw_mem-rd-16mb"), 66752.85, 1e-6);
    ck_assert_double_eq_tol(row_avg(run, "bw_mem-bcopy-16mb"), 20137.83, 1e-6);
    ck_assert_double_eq_tol(row_avg(run, "lat_mmap-1m"), 154, 1e-9);
    ck_assert_double_eq_tol(row_avg(run, "bw_mmap_rd-o2c-1mb"), 2479.25, 1e-6);
    ck_assert_ptr_null(find_row(run, "bw_mem-rd-1mb"));
    /* lat_syscall's line does not name the operation either */
    ck_assert_double_eq_tol(row_avg(run, "lat_syscall-null"), 0.9857, 1e-9);
    ck_assert_double_eq_tol(row_avg(run, "lat_syscall-read"), 1.2076, 1e-9);
    ck_assert_double_eq_tol(row_avg(run, "lat_syscall-open"), 3.1274, 1e-9);
    ck_assert_ptr_null(find_row(run, "lat_syscall-write"));
    ck_assert_double_eq_tol(row_avg(run, "lat_ctx-4-128k"), 12.68, 1e-9);
    ck_assert_double_eq_tol(row_avg(run, "lat_fs-10k"), 3210, 1e-9);
    json_t *r = find_row(run, "lat_syscall-null");
    ck_assert_str_eq(json_string_value(json_object_get(r, "provider")), "tool:lat_syscall");
    ck_assert(json_is_number(json_object_get(r, "ref_avg")));
    ck_assert(json_is_number(json_object_get(r, "deviation_pct")));
    json_decref(run);
}
END_TEST

/* Without the command lines the bare two-number lines could be anyone's:
 * they are left out with a warning, never misread; the rest is imported. */
START_TEST(lmbench_bare_log)
{
    char *out, *err;
    int rc = import("lmbench-bare.log", "lmbench", &out, &err);
    ck_assert_msg(rc == 0, "rc %d: %s", rc, err);
    ck_assert_msg(strstr(err, "bw_mem: 6 lines not imported: the log does not say which"), "%s",
                  err);
    ck_assert_msg(strstr(err, "lat_syscall: 3 lines not imported"), "%s", err);
    free(out);
    free(err);
    json_t *run = show_latest();
    ck_assert_ptr_null(find_row(run, "bw_mem-rd-16mb"));
    ck_assert_ptr_null(find_row(run, "lat_mmap-1m"));
    ck_assert_ptr_null(find_row(run, "lat_syscall-null"));
    ck_assert_double_eq_tol(row_avg(run, "bw_pipe"), 4093.86, 1e-6);
    ck_assert_double_eq_tol(row_avg(run, "lat_fs-0k"), 4434, 1e-9);
    json_decref(run);
}
END_TEST

/* Two STREAM logs: show and compare work on imported runs. */
START_TEST(stream_logs_compare)
{
    char *out, *err;
    int rc = import("stream_c.log", "stream", &out, &err);
    ck_assert_msg(rc == 0, "rc %d: %s", rc, err);
    free(out);
    free(err);
    json_t *run = show_latest();
    ck_assert_uint_eq(json_array_size(json_object_get(run, "results")), 4);
    ck_assert_double_eq_tol(row_avg(run, "triad"), 37890.4, 1e-6);
    char *first = xstrdup(json_string_value(json_object_get(run, "id")));
    json_decref(run);
    rc = import("stream_c_2M.log", "stream_c", &out, &err);
    ck_assert_msg(rc == 0, "rc %d: %s", rc, err);
    free(out);
    free(err);
    rc = test_cli(&out, &err, "results", "compare", first, "latest", "--results-dir", dir,
             "--format", "json", NULL);
    ck_assert_msg(rc == 0, "compare: %s", err);
    json_t *j = json_loads(out, 0, NULL);
    ck_assert_uint_eq(json_array_size(json_object_get(j, "metrics")), 4);
    json_decref(j);
    free(out);
    free(err);
    rc = test_cli(&out, &err, "results", "show", "latest", "--results-dir", dir, NULL);
    ck_assert_int_eq(rc, 0);
    ck_assert_msg(strstr(out, "Imported: ") && strstr(out, "stream_c_2M.log (--tool stream_c)"),
                  "%s", out);
    free(out);
    free(err);
    free(first);
}
END_TEST

/* An unknown tool is a usage error; a log without the tool's output, a
 * missing file and a missing --tool are errors that save nothing. */
/* lmbench prints 0.00 where an operation is below its resolution (lat_ops
 * add on a fast core): no latency is zero, so the row fails, naming the
 * value, and shows no minimum of 0; the other row is imported. */
START_TEST(zero_latency_is_not_imported)
{
    char *log = path_join(dir, "ops.log");
    FILE *f = fopen(log, "w");
    ck_assert_ptr_nonnull(f);
    fputs("integer add: 0.00 nanoseconds\ninteger mul: 2.85 nanoseconds\n", f);
    ck_assert_int_eq(fclose(f), 0);
    char *out, *err;
    int rc = test_cli(&out, &err, "results", "import", log, "--tool", "lmbench", "--board",
                      "am62xx_sk-fs", "--results-dir", dir, NULL);
    ck_assert_msg(rc == 0, "rc %d: %s", rc, err);
    free(out);
    free(err);
    free(log);
    json_t *run = show_latest();
    ck_assert_double_eq_tol(row_avg(run, "lat_ops-int-mul"), 2.85, 1e-9);
    json_t *r = find_row(run, "lat_ops-int-add");
    ck_assert_msg(r, "no row lat_ops-int-add");
    json_t *mn = json_object_get(r, "min");
    ck_assert_msg(!json_is_number(mn) || json_number_value(mn) > 0, "min %g ns",
                  json_number_value(mn));
    const char *why = json_string_value(json_object_get(r, "error"));
    ck_assert_msg(why && strstr(why, "reported 0 ns"), "error: %s", why ? why : "none");
    json_decref(run);
}
END_TEST

START_TEST(import_errors)
{
    char *out, *err;
    ck_assert_int_eq(import("stream_c.log", "nosuch", &out, &err), 2);
    ck_assert_msg(strstr(err, "no tool recipe is called 'nosuch'"), "%s", err);
    free(out);
    free(err);
    ck_assert_int_eq(import("stream_c.log", "lmbench", &out, &err), 1);
    ck_assert_msg(strstr(err, "no output of lmbench found"), "%s", err);
    free(out);
    free(err);
    ck_assert_int_eq(import("nosuch.log", "stream", &out, &err), 1);
    ck_assert_msg(strstr(err, "nosuch.log: No such file"), "%s", err);
    free(out);
    free(err);
    ck_assert_int_eq(test_cli(&out, &err, "results", "import", "x.log", "--results-dir", dir, NULL),
                     2);
    ck_assert_msg(strstr(err, "results import LOG --tool TOOL"), "%s", err);
    free(out);
    free(err);
    ck_assert_int_eq(test_cli(&out, &err, "results", "list", "--tool", "stream", "--results-dir", dir,
                         NULL), 2);
    ck_assert_msg(strstr(err, "--tool is for 'results import"), "%s", err);
    free(out);
    free(err);
    ck_assert_int_eq(test_cli(&out, &err, "results", "list", "--results-dir", dir, "--format",
                         "json", NULL), 0);
    ck_assert_str_eq(out, "[]\n");
    free(out);
    free(err);
}
END_TEST

Suite *suite_import(void)
{
    Suite *s = suite_create("import");
    TCase *tc = tcase_create("import");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, lmbench_console_log);
    tcase_add_test(tc, lmbench_bare_log);
    tcase_add_test(tc, stream_logs_compare);
    tcase_add_test(tc, import_errors);
    tcase_add_test(tc, zero_latency_is_not_imported);
    suite_add_tcase(s, tc);
    return s;
}
