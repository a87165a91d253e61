/* test_cli.c - the command-line contract: JSON shapes and exit codes. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "cli.h"
#include "suites.h"
#include "util.h"

struct outcome {
    int rc;
    char *out, *err;
};

/* Runs cli_main with the words of a NULL-terminated list. */
static struct outcome run_cli(const char *first, ...)
{
    char *argv[64];
    int argc = 0;
    argv[argc++] = (char *)"evmbench";
    va_list ap;
    va_start(ap, first);
    for (const char *a = first; a && argc < 63; a = va_arg(ap, const char *))
        argv[argc++] = (char *)a;
    va_end(ap);
    argv[argc] = NULL;
    struct outcome o = { 0 };
    o.rc = test_cli_argv(argc, argv, &o.out, &o.err);
    return o;
}

static void outcome_free(struct outcome *o)
{
    free(o->out);
    free(o->err);
}

static json_t *parse(const struct outcome *o)
{
    json_error_t e;
    json_t *j = json_loads(o->out, 0, &e);
    ck_assert_msg(j != NULL, "not JSON (%s): %s", e.text, o->out);
    return j;
}

static char *fixture_refs(void)
{
    return test_data_path("refs/good.json");
}

START_TEST(version_and_help)
{
    struct outcome o = run_cli("--version", NULL);
    ck_assert_int_eq(o.rc, 0);
    ck_assert_str_eq(o.out, PACKAGE_STRING "\n");
    outcome_free(&o);
    o = run_cli("--help", NULL);
    ck_assert_int_eq(o.rc, 0);
    ck_assert_ptr_nonnull(strstr(o.out, "evmbench run"));
    outcome_free(&o);
}
END_TEST

START_TEST(usage_errors_exit_2_with_one_line)
{
    static const char *const cases[][4] = {
        { "--bogus", NULL },
        { "frobnicate", NULL },
        { "run", NULL },
        { "run", "nosuchbench", NULL },
        { "sysinfo", "--format", "xml", NULL },
        { "run", "stream", "--timeout", "-3" },
        { "--board", NULL },
        { "list", "extra", NULL },
    };
    char *refs = fixture_refs();
    for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
        struct outcome o = run_cli("--refs", refs, cases[i][0], cases[i][1], cases[i][2],
                                   cases[i][3], NULL);
        ck_assert_msg(o.rc == EXIT_USAGE, "case %zu: rc %d", i, o.rc);
        ck_assert_msg(str_starts_with(o.err, "evmbench: "), "case %zu: %s", i, o.err);
        ck_assert_msg(strchr(o.err, '\n') == o.err + strlen(o.err) - 1, "case %zu: %s", i, o.err);
        outcome_free(&o);
    }
    /* a board no guide knows */
    struct outcome o = run_cli("run", "stream", "--board", "nosuch_board", "--refs", refs, NULL);
    ck_assert_int_eq(o.rc, EXIT_USAGE);
    ck_assert_ptr_nonnull(strstr(o.err, "am62xx_sk-fs"));
    outcome_free(&o);
    /* reference-only benchmark */
    o = run_cli("run", "resume_latency_performance", "--refs", refs, NULL);
    ck_assert_int_eq(o.rc, EXIT_USAGE);
    ck_assert_ptr_nonnull(strstr(o.err, "reference numbers only"));
    outcome_free(&o);
    free(refs);
}
END_TEST

START_TEST(refs_json_rows)
{
    char *refs = fixture_refs();
    struct outcome o = run_cli("refs", "--board", "am62xx_sk-fs", "--format", "json",
                               "--refs", refs, NULL);
    ck_assert_int_eq(o.rc, 0);
    json_t *j = parse(&o);
    ck_assert(json_is_array(j));
    /* 4 stream + 2 dhrystone + 2 openssl + 1 low power rows for this board */
    ck_assert_uint_eq(json_array_size(j), 9);
    json_t *row = json_array_get(j, 1);
    static const char *const keys[] = { "source", "board", "section", "table", "metric",
                                        "column", "unit", "avg", "min", "max" };
    for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
        ck_assert_msg(json_object_get(row, keys[i]) != NULL, "missing %s", keys[i]);
    ck_assert_str_eq(json_string_value(json_object_get(row, "metric")), "copy");
    ck_assert_str_eq(json_string_value(json_object_get(row, "section")), "System Benchmarks / Stream");
    ck_assert_double_eq_tol(json_number_value(json_object_get(row, "avg")), 1838.92, 1e-9);
    ck_assert_double_eq_tol(json_number_value(json_object_get(row, "max")), 2245.2, 1e-9);
    json_t *ossl = json_array_get(j, 6);
    ck_assert_str_eq(json_string_value(json_object_get(ossl, "metric")), "aes-128-cbc 1024");
    ck_assert_str_eq(json_string_value(json_object_get(ossl, "unit")), "KBytes/Sec");
    json_decref(j);
    outcome_free(&o);

    o = run_cli("refs", "--section", "crypto", "--format", "csv", "--refs", refs, NULL);
    ck_assert_int_eq(o.rc, 0);
    ck_assert(str_starts_with(o.out, "source,board,section,table,metric,column,unit,avg,min,max\n"));
    ck_assert_ptr_nonnull(strstr(o.out, "aes-128-cbc 1024"));
    ck_assert_ptr_null(strstr(o.out, "copy"));
    outcome_free(&o);
    free(refs);
}
END_TEST

START_TEST(sysinfo_json_shape)
{
    char *root = test_data_path("sysroots/am62xx_sk-fs");
    struct outcome o = run_cli("sysinfo", "--sysroot", root, "--format", "json", NULL);
    ck_assert_int_eq(o.rc, 0);
    json_t *j = parse(&o);
    static const char *const keys[] = { "board", "board_name", "family", "machine", "revision",
                                        "compatible", "cpu", "mem_mb", "kernel", "how" };
    for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
        ck_assert_msg(json_object_get(j, keys[i]) != NULL, "missing %s", keys[i]);
    ck_assert_str_eq(json_string_value(json_object_get(j, "board")), "am62xx_sk-fs");
    ck_assert(json_is_array(json_object_get(j, "compatible")));
    json_t *cpu = json_object_get(j, "cpu");
    static const char *const cpukeys[] = { "cores", "part", "mhz", "governor" };
    for (size_t i = 0; i < ARRAY_SIZE(cpukeys); i++)
        ck_assert_msg(json_object_get(cpu, cpukeys[i]) != NULL, "missing cpu.%s", cpukeys[i]);
    /* the guide's Evaluation Modules facts for this board (shipped refs) */
    json_t *evm = json_object_get(j, "evm");
    ck_assert(json_is_object(evm));
    ck_assert_double_eq_tol(json_number_value(json_object_get(evm, "cpu_mhz")), 1400, 1e-9);
    ck_assert_double_eq_tol(json_number_value(json_object_get(evm, "ddr_mts")), 1600, 1e-9);
    json_decref(j);
    outcome_free(&o);
    free(root);
}
END_TEST

START_TEST(run_stream_json_against_reference)
{
    char *refs = fixture_refs();
    struct outcome o = run_cli("run", "stream", "--board", "am62xx_sk-fs", "--format", "json",
                               "--quick", "--size", "400000", "--iterations", "3",
                               "--refs", refs, NULL);
    ck_assert_msg(o.rc == 0, "rc %d: %s", o.rc, o.err);
    json_t *j = parse(&o);
    ck_assert_str_eq(json_string_value(json_object_get(j, "board")), "am62xx_sk-fs");
    json_t *results = json_object_get(j, "results");
    ck_assert_uint_eq(json_array_size(results), 4);
    static const char *const metrics[] = { "copy", "scale", "add", "triad" };
    static const char *const keys[] = { "bench", "metric", "unit", "samples", "min", "max",
                                        "avg", "stddev", "ref_avg", "ref_min", "ref_max",
                                        "deviation_pct", "status", "provider" };
    for (size_t i = 0; i < 4; i++) {
        json_t *r = json_array_get(results, i);
        for (size_t k = 0; k < ARRAY_SIZE(keys); k++)
            ck_assert_msg(json_object_get(r, keys[k]) != NULL, "missing %s", keys[k]);
        ck_assert_str_eq(json_string_value(json_object_get(r, "bench")), "stream");
        ck_assert_str_eq(json_string_value(json_object_get(r, "metric")), metrics[i]);
        ck_assert_str_eq(json_string_value(json_object_get(r, "unit")), "mb/s");
        ck_assert_str_eq(json_string_value(json_object_get(r, "status")), "ok");
        ck_assert_str_eq(json_string_value(json_object_get(r, "provider")), "kernel:stream");
        ck_assert_int_ge(json_integer_value(json_object_get(r, "samples")), 1);
        double avg = json_number_value(json_object_get(r, "avg"));
        ck_assert(avg > 0 && isfinite(avg));
        ck_assert(json_is_number(json_object_get(r, "ref_avg")));
        double value = json_number_value(json_object_get(r, "value"));
        double ref = json_number_value(json_object_get(r, "ref_avg"));
        double dev = json_number_value(json_object_get(r, "deviation_pct"));
        ck_assert_double_eq_tol(dev, (value - ref) / ref * 100, 1e-6);
    }
    json_t *copy = json_array_get(results, 0);
    ck_assert_double_eq_tol(json_number_value(json_object_get(copy, "ref_avg")), 1838.92, 1e-9);
    ck_assert_double_eq_tol(json_number_value(json_object_get(copy, "ref_min")), 1650.2, 1e-9);
    json_decref(j);
    outcome_free(&o);

    /* no board: references are null, the run still works */
    o = run_cli("run", "stream", "--sysroot", "/nonexistent", "--format", "json", "--quick",
                "--size", "400000", "--iterations", "2", "--refs", refs, NULL);
    ck_assert_int_eq(o.rc, 0);
    j = parse(&o);
    ck_assert(json_is_null(json_object_get(j, "board")));
    json_t *r0 = json_array_get(json_object_get(j, "results"), 0);
    ck_assert(json_is_null(json_object_get(r0, "ref_avg")));
    ck_assert(json_is_null(json_object_get(r0, "deviation_pct")));
    json_decref(j);
    outcome_free(&o);
    free(refs);
}
END_TEST

static void assert_fits_80(const char *text)
{
    for (const char *line = text; *line;) {
        const char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) : strlen(line);
        ck_assert_msg(len <= 80, "line too long (%zu): %.*s", len, (int)len, line);
        line += len + (nl != NULL);
    }
}

START_TEST(run_text_fits_80_columns)
{
    char *refs = fixture_refs();
    struct outcome o = run_cli("run", "stream", "--board", "am62xx_sk-fs", "--quick",
                               "--size", "400000", "--iterations", "2", "--refs", refs, NULL);
    ck_assert_int_eq(o.rc, 0);
    ck_assert_ptr_nonnull(strstr(o.out, "copy"));
    ck_assert_ptr_nonnull(strstr(o.out, "1838.92"));
    assert_fits_80(o.out);
    outcome_free(&o);
    free(refs);
}
END_TEST

START_TEST(failed_benchmark_exits_3_and_says_why)
{
    char *refs = fixture_refs();
    /* 10^12 doubles per array: more than any machine has, refused cleanly */
    struct outcome o = run_cli("run", "stream", "--board", "am62xx_sk-fs", "--format", "json",
                               "--size", "1000000000000", "--refs", refs, NULL);
    ck_assert_int_eq(o.rc, EXIT_BENCH_FAILED);
    json_t *j = parse(&o);
    json_t *r0 = json_array_get(json_object_get(j, "results"), 0);
    ck_assert_str_eq(json_string_value(json_object_get(r0, "status")), "failed");
    ck_assert(json_is_string(json_object_get(r0, "error")));
    ck_assert_int_eq(json_integer_value(json_object_get(r0, "samples")), 0);
    ck_assert(json_is_null(json_object_get(r0, "avg")));
    ck_assert_ptr_nonnull(strstr(o.err, "stream failed"));
    json_decref(j);
    outcome_free(&o);
    free(refs);
}
END_TEST

START_TEST(list_shows_providers)
{
    char *refs = fixture_refs();
    struct outcome o = run_cli("list", "--format", "json", "--refs", refs, NULL);
    ck_assert_int_eq(o.rc, 0);
    json_t *j = parse(&o);
    json_t *stream = json_array_get(j, 0);
    ck_assert_str_eq(json_string_value(json_object_get(stream, "category")), "System Benchmarks");
    ck_assert_str_eq(json_string_value(json_object_get(stream, "bench")), "stream");
    ck_assert(json_is_true(json_object_get(stream, "runnable")));
    ck_assert_str_eq(json_string_value(json_array_get(json_object_get(stream, "providers"), 0)),
                     "kernel:stream");
    bool ref_only = false;
    size_t i;
    json_t *e;
    json_array_foreach(j, i, e) {
        if (strcmp(json_string_value(json_object_get(e, "bench")),
                   "resume_latency_performance") == 0) {
            ck_assert(json_is_false(json_object_get(e, "runnable")));
            ck_assert_uint_eq(json_array_size(json_object_get(e, "providers")), 0);
            ck_assert_int_eq(json_integer_value(json_object_get(e, "ref_metrics")), 1);
            ref_only = true;
        }
    }
    ck_assert(ref_only);
    json_decref(j);
    outcome_free(&o);
    free(refs);
}
END_TEST

/* --storage-dir, --allow-raw-device and --peer are checked before anything
 * runs; without them the storage and network recipes say what they need. */
START_TEST(tool_params_checked)
{
    static const char *const bad[][4] = {
        { "--peer", "300.1.1.1", "IPv4" },
        { "--peer", "host;reboot", "host name" },
        { "--peer", "-x", "host name" },
        { "--storage-dir", "/nonexistent/evmbench", "No such file" },
        { "--storage-dir", "/etc/passwd", "not a directory" },
        { "--allow-raw-device", NULL, "needs --storage-dir" },
        { "--audio-device", "hw:0,0;reboot", "not an ALSA PCM name" },
        { "--audio-device", "-Dx", "not an ALSA PCM name" },
    };
    for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
        struct outcome o = bad[i][1] ? run_cli("list", bad[i][0], bad[i][1], NULL)
                                     : run_cli("list", bad[i][0], NULL);
        ck_assert_msg(o.rc == EXIT_USAGE, "case %zu: rc %d", i, o.rc);
        ck_assert_msg(strstr(o.err, bad[i][2]), "case %zu: %s", i, o.err);
        outcome_free(&o);
    }
    struct outcome o = run_cli("list", NULL);
    ck_assert_int_eq(o.rc, 0);
    ck_assert_msg(strstr(o.out, "tool:fio_emmc not runnable: needs --storage-dir"), "%s", o.out);
    ck_assert_msg(strstr(o.out, "tool:audio_capture not runnable: needs --audio-device"), "%s",
                  o.out);
    outcome_free(&o);
    o = run_cli("list", "--audio-device", "plughw:CARD=sndsoc,DEV=0", NULL);
    ck_assert_int_eq(o.rc, 0);
    ck_assert_ptr_null(strstr(o.out, "needs --audio-device"));
    outcome_free(&o);
    char tmpl[] = "/tmp/evmbench-test-cli-XXXXXX";
    ck_assert(mkdtemp(tmpl));
    o = run_cli("list", "--format", "json", "--storage-dir", tmpl, "--peer", "::1", NULL);
    ck_assert_int_eq(o.rc, 0);
    ck_assert_ptr_null(strstr(o.out, "needs --storage-dir"));
    outcome_free(&o);
    /* run: the benchmark fails with the reason (or the tool is missing) */
    o = run_cli("run", "fio_emmc", "--provider", "tool", "--format", "json", NULL);
    ck_assert_int_eq(o.rc, EXIT_BENCH_FAILED);
    ck_assert_msg(strstr(o.out, "needs --storage-dir") || strstr(o.out, "not found"), "%s",
                  o.out);
    outcome_free(&o);
    rmdir(tmpl);
}
END_TEST

START_TEST(bad_refs_still_start)
{
    char *bad = test_data_path("refs-bad/malformed.json");
    struct outcome o = run_cli("list", "--refs", bad, NULL);
    ck_assert_int_eq(o.rc, 0);
    ck_assert_ptr_nonnull(strstr(o.err, "malformed.json:5:"));
    ck_assert_ptr_nonnull(strstr(o.out, "stream"));     /* the kernel is still there */
    outcome_free(&o);
    free(bad);
}
END_TEST

/* selfcheck against stand-in tools (tests/data/tools/bin print captured
 * output): each row pairs the kernel's value with the tool's and their
 * ratio. lat_pipe is a tool whose kernel has another name (lat_ipc). */
static json_t *selfcheck_row(json_t *rows, const char *metric)
{
    size_t i;
    json_t *e;
    json_array_foreach(rows, i, e)
        if (strcmp(json_string_value(json_object_get(e, "metric")), metric) == 0)
            return e;
    return NULL;
}

START_TEST(selfcheck_pairs_kernel_and_tool)
{
    char *bin = test_data_path("tools/bin");
    struct outcome o = run_cli("selfcheck", "lat_pipe", "stream", "--tools-dir", bin,
                               "--quick", "--rounds", "1", "--format", "json", NULL);
    ck_assert_msg(o.rc == 0, "rc %d: %s", o.rc, o.err);
    json_t *j = parse(&o);
    struct { const char *metric; double tool, target; } want[] = {
        { "lat_pipe", 22.0887, 25 }, { "pipe_latency", 22.0887, 0 },
        { "copy", 37844.1, 10 }, { "triad", 37890.4, 10 },
    };
    for (size_t i = 0; i < ARRAY_SIZE(want); i++) {
        json_t *row = selfcheck_row(j, want[i].metric);
        ck_assert_msg(row != NULL, "no row %s in %s", want[i].metric, o.out);
        double k = json_real_value(json_object_get(row, "kernel"));
        double t = json_real_value(json_object_get(row, "tool"));
        ck_assert_double_eq_tol(t, want[i].tool, 1e-6);
        ck_assert(k > 0 && isfinite(k));
        ck_assert_double_eq_tol(json_real_value(json_object_get(row, "ratio")), k / t, 1e-9);
        if (want[i].target > 0)
            ck_assert_double_eq(json_real_value(json_object_get(row, "target_pct")),
                                want[i].target);
        else
            ck_assert(json_is_null(json_object_get(row, "target_pct")));
        ck_assert_str_eq(json_string_value(json_object_get(row, "tool_provider")),
                         strcmp(want[i].metric, "copy") && strcmp(want[i].metric, "triad")
                         ? "tool:lat_pipe" : "tool:stream_c");
    }
    /* only what both sides measured: lat_ipc's unix and tcp rows have no tool */
    ck_assert_ptr_null(selfcheck_row(j, "lat_unix"));
    json_decref(j);
    outcome_free(&o);
    free(bin);
}
END_TEST

/* run --profile: the profile's benchmarks, only the rows it lists, its
 * budget; an unknown name in it is a usage error at its line. */
START_TEST(run_profile_keeps_its_rows)
{
    char *refs = fixture_refs();
    char path[] = "/tmp/evmbench-profile-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    const char *text = "budget quick\nbench stream copy triad\nbench lat_syscall lat_syscall-null\n";
    ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    struct outcome o = run_cli("run", "--profile", path, "--iterations", "2", "--no-save",
                               "--format", "json", "--refs", refs, NULL);
    ck_assert_msg(o.rc == 0, "rc %d: %s", o.rc, o.err);
    json_t *j = parse(&o);
    json_t *rows = json_object_get(j, "results");
    ck_assert_uint_eq(json_array_size(rows), 3);
    const char *want[] = { "copy", "triad", "lat_syscall-null" };
    for (size_t i = 0; i < 3; i++)
        ck_assert_str_eq(json_string_value(json_object_get(json_array_get(rows, i), "metric")),
                         want[i]);
    ck_assert(json_is_true(json_object_get(j, "quick")));
    json_decref(j);
    outcome_free(&o);

    FILE *f = fopen(path, "a");
    fputs("bench nosuchbench\n", f);
    fclose(f);
    o = run_cli("run", "--profile", path, "--no-save", "--refs", refs, NULL);
    ck_assert_int_eq(o.rc, EXIT_USAGE);
    char *where = xasprintf("%s:4: no benchmark or category 'nosuchbench'", path);
    ck_assert_msg(strstr(o.err, where) != NULL, "%s", o.err);
    free(where);
    outcome_free(&o);
    unlink(path);
    free(refs);
}
END_TEST

START_TEST(shipped_refs_have_the_am62x_stream_table)
{
    /* the data the program ships, as found by datadir (EVMBENCH_DATADIR in tests) */
    struct outcome o = run_cli("refs", "--board", "am62xx_sk-fs", "--section", "stream",
                               "--format", "json", NULL);
    ck_assert_int_eq(o.rc, 0);
    json_t *j = parse(&o);
    bool copy = false;
    size_t i;
    json_t *row;
    json_array_foreach(j, i, row) {
        if (strcmp(json_string_value(json_object_get(row, "metric")), "copy") == 0 &&
            strstr(json_string_value(json_object_get(row, "source")), "12.00.00")) {
            ck_assert_double_eq_tol(json_number_value(json_object_get(row, "avg")), 1838.92, 1e-9);
            copy = true;
        }
    }
    ck_assert(copy);
    json_decref(j);
    outcome_free(&o);

    /* every table of every guide, as text: nothing wider than a terminal */
    o = run_cli("refs", NULL);
    ck_assert_int_eq(o.rc, 0);
    ck_assert_ptr_nonnull(strstr(o.out, "Low Power Performance"));
    assert_fits_80(o.out);
    outcome_free(&o);
    o = run_cli("refs", "--board", "j721e-idk-gw", NULL);
    ck_assert_int_eq(o.rc, 0);
    assert_fits_80(o.out);
    outcome_free(&o);
}
END_TEST

Suite *suite_cli(void)
{
    Suite *s = suite_create("cli");
    TCase *tc = tcase_create("contract");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, version_and_help);
    tcase_add_test(tc, usage_errors_exit_2_with_one_line);
    tcase_add_test(tc, refs_json_rows);
    tcase_add_test(tc, sysinfo_json_shape);
    tcase_add_test(tc, run_stream_json_against_reference);
    tcase_add_test(tc, run_text_fits_80_columns);
    tcase_add_test(tc, failed_benchmark_exits_3_and_says_why);
    tcase_add_test(tc, list_shows_providers);
    tcase_add_test(tc, bad_refs_still_start);
    tcase_add_test(tc, tool_params_checked);
    tcase_add_test(tc, shipped_refs_have_the_am62x_stream_table);
    tcase_add_test(tc, selfcheck_pairs_kernel_and_tool);
    tcase_add_test(tc, run_profile_keeps_its_rows);
    suite_add_tcase(s, tc);
    return s;
}
