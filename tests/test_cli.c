/* test_cli.c - the command-line contract: JSON shapes and exit codes. */
#include "config.h"

#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "cli/cli.h"
#include "data/settings.h"
#include "store/store.h"
#include "suites.h"
#include "test_helpers.h"
#include "common/util.h"

struct outcome {
    int rc;
    char *out, *err;
};

/* Runs cli_main with the words of a NULL-terminated list. */
static struct outcome run_cli(const char *first, ...)
{
    struct outcome o = { 0 };
    va_list ap;
    va_start(ap, first);
    o.rc = test_cli_va(&o.out, &o.err, first, ap);
    va_end(ap);
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
    /* list and refs refuse it as run does, not print some other guide */
    o = run_cli("list", "--board", "nosuch_board", "--refs", refs, NULL);
    ck_assert_int_eq(o.rc, EXIT_USAGE);
    ck_assert_msg(strstr(o.err, "no guide has numbers for board 'nosuch_board'"), "%s", o.err);
    ck_assert_str_eq(o.out, "");
    outcome_free(&o);
    /* a section filter nothing matches: an error, not an empty table */
    o = run_cli("refs", "--section", "nosuch", "--refs", refs, NULL);
    ck_assert_int_eq(o.rc, EXIT_USAGE);
    ck_assert_msg(strstr(o.err, "--section nosuch: no section"), "%s", o.err);
    ck_assert_str_eq(o.out, "");
    outcome_free(&o);
    /* a demo profile that does not exist: refused before the screens */
    o = run_cli("--demo=nosuch", "--refs", refs, NULL);
    ck_assert_int_eq(o.rc, EXIT_USAGE);
    ck_assert_msg(strstr(o.err, "--demo=nosuch: not a usable profile"), "%s", o.err);
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

static void assert_fits_80(const char *text)
{
    for (const char *line = text; *line;) {
        const char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) : strlen(line);
        ck_assert_msg(len <= 80, "line too long (%zu): %.*s", len, (int)len, line);
        line += len + (nl != NULL);
    }
}

/* How sure the detection is (issue 17): an emulated AM62x SK (no soc0,
 * the host's 4482 MHz clock) is doubted in sysinfo's JSON and text; a
 * real-looking one is confirmed. */
START_TEST(sysinfo_says_how_sure)
{
    char *emu = test_data_path("sysroots/am62xx_sk-fs-emulated");
    struct outcome o = run_cli("sysinfo", "--sysroot", emu, "--format", "json", NULL);
    ck_assert_int_eq(o.rc, 0);
    json_t *j = parse(&o);
    json_t *m = json_object_get(j, "match");
    ck_assert(json_is_object(m));
    ck_assert_str_eq(json_string_value(json_object_get(m, "board")), "am62xx_sk-fs");
    ck_assert_str_eq(json_string_value(json_object_get(m, "confidence")), "doubtful");
    ck_assert_int_eq(json_integer_value(json_object_get(m, "contradicts")), 2);
    json_t *checks = json_object_get(m, "checks");
    static const char *const want[] = { "contradicts", "confirms", "confirms", "contradicts" };
    ck_assert_uint_eq(json_array_size(checks), ARRAY_SIZE(want));
    for (size_t i = 0; i < ARRAY_SIZE(want); i++)
        ck_assert_str_eq(json_string_value(json_object_get(json_array_get(checks, i), "result")),
                         want[i]);
    json_decref(j);
    outcome_free(&o);

    o = run_cli("sysinfo", "--sysroot", emu, NULL);
    ck_assert_int_eq(o.rc, 0);
    ck_assert_ptr_nonnull(strstr(o.out, "\nMatch:        doubtful: 2 of 4 checks contradict"));
    ck_assert_ptr_nonnull(strstr(o.out, "\nContradicts:  soc0: no /sys/devices/soc0"));
    ck_assert_ptr_nonnull(strstr(o.out, "3.20x the guide's 1400 MHz"));
    assert_fits_80(o.out);
    outcome_free(&o);
    free(emu);

    char *sk = test_data_path("sysroots/am62xx_sk-fs");
    o = run_cli("sysinfo", "--sysroot", sk, NULL);
    ck_assert_int_eq(o.rc, 0);
    ck_assert_ptr_nonnull(strstr(o.out, "\nMatch:        confirmed: 4 of 4 checks confirm"));
    ck_assert_ptr_null(strstr(o.out, "Contradicts:"));
    outcome_free(&o);
    free(sk);
}
END_TEST

/* A run on a board that does not match the guide's says so above the
 * results; STREAM's arrays are sized for the board's caches, and the run
 * says which and from where. */
START_TEST(run_says_board_doubts)
{
    static const struct { const char *dir; bool warns; const char *caches; } cases[] = {
        { "sysroots/am62xx_sk-fs-emulated", true,
          "caches 544 KiB (AM62X facts in soc/cpu.json: 32K+512K)" },
        { "sysroots/am62xx_sk-fs-wrongcpu", true, "caches 544 KiB (sysfs: L1d 32K + L2 512K)" },
        { "sysroots/am62xx_sk-fs", false, "caches 544 KiB (sysfs: L1d 32K + L2 512K)" },
    };
    for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
        char *root = test_data_path(cases[i].dir);
        struct outcome o = run_cli("run", "stream", "--sysroot", root, "--quick",
                                   "--size", "100000", "--iterations", "2", NULL);
        ck_assert_msg(o.rc == 0 || o.rc == 1, "%s: exit %d: %s", cases[i].dir, o.rc, o.err);
        const char *warn = strstr(o.out, "does not match the guide's AM62x SK");
        ck_assert_msg((warn != NULL) == cases[i].warns, "%s: %s", cases[i].dir, o.out);
        if (warn) {
            const char *table = strstr(o.out, "copy");
            ck_assert_msg(table && warn < table, "the warning is not above the results: %s",
                          o.out);
        }
        ck_assert_msg(strstr(o.err, cases[i].caches), "%s: %s", cases[i].dir, o.err);
        assert_fits_80(o.out);
        outcome_free(&o);

        o = run_cli("run", "stream", "--sysroot", root, "--quick", "--size", "100000",
                    "--iterations", "2", "--format", "json", NULL);
        json_t *j = parse(&o);
        ck_assert_str_eq(json_string_value(json_object_get(json_object_get(j, "match"),
                                                           "confidence")),
                         cases[i].warns ? "doubtful" : "confirmed");
        json_decref(j);
        outcome_free(&o);
        free(root);
    }
}
END_TEST

/* good.json with every Stream reference (avg, min, max) times `factor`,
 * in a new temporary file (caller unlinks and frees): a reference far
 * below or far above what this machine measures, whatever its speed. */
static char *scaled_refs(double factor)
{
    char *good = fixture_refs();
    json_error_t e;
    json_t *j = json_load_file(good, 0, &e);
    ck_assert_msg(j != NULL, "%s:%d: %s", good, e.line, e.text);
    static const char *const keys[] = { "avg", "min", "max" };
    size_t ti, ri, vi;
    json_t *t, *row, *v;
    json_array_foreach(json_object_get(j, "tables"), ti, t) {
        const char *sec = json_string_value(json_array_get(json_object_get(t, "section"), 1));
        if (!sec || strcmp(sec, "Stream") != 0)
            continue;
        json_array_foreach(json_object_get(t, "rows"), ri, row) {
            json_array_foreach(json_object_get(row, "values"), vi, v) {
                for (size_t k = 0; k < ARRAY_SIZE(keys); k++) {
                    json_t *n = json_object_get(v, keys[k]);
                    if (json_is_number(n))
                        json_object_set_new(v, keys[k], json_real(json_number_value(n) * factor));
                }
            }
        }
    }
    char *path = xstrdup("/tmp/evmbench-test-refs-XXXXXX");
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    ck_assert_int_eq(json_dump_file(j, path, JSON_REAL_PRECISION(17)), 0);
    json_decref(j);
    free(good);
    return path;
}

/* x and y agree to `rel` of `scale` (the size of the numbers they were
 * computed from, so that printed digits count, not the machine's speed). */
static void assert_close(const char *what, double x, double y, double rel, double scale)
{
    ck_assert_msg(fabs(x - y) <= rel * fabs(scale), "%s: %.17g, expected %.17g (within %g of %g)",
                  what, x, y, rel, scale);
}

/* The JSON numbers have 10 significant digits: a deviation derived from
 * the printed value and reference agrees with the printed deviation to
 * about 1e-9 of the numbers involved, however far the measured value is
 * from the guide. The references are the fixture's, then 1000 times
 * smaller (deviations of +10^5 % and more) and 1000 times larger (-99.9 %). */
START_TEST(run_stream_json_against_reference)
{
    static const double factors[] = { 1, 1e-3, 1e3 };
    double factor = factors[_i];
    char *refs = factor == 1 ? fixture_refs() : scaled_refs(factor);
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
        ck_assert(value > 0 && isfinite(value) && ref > 0 && isfinite(dev));
        assert_close(metrics[i], dev, (value - ref) / ref * 100, 1e-8,
                     fabs(dev) + 100 * value / ref);
        /* the sign follows the measured value, not this machine's speed */
        ck_assert_msg((dev > 0) == (value > ref), "%s: %g against %g: %+g %%", metrics[i],
                      value, ref, dev);
    }
    json_t *copy = json_array_get(results, 0);
    double ref_avg = json_number_value(json_object_get(copy, "ref_avg"));
    double ref_min = json_number_value(json_object_get(copy, "ref_min"));
    assert_close("copy ref_avg", ref_avg, 1838.92 * factor, 1e-9, 1838.92 * factor);
    assert_close("copy ref_min", ref_min, 1650.2 * factor, 1e-9, 1650.2 * factor);
    json_decref(j);
    outcome_free(&o);
    if (factor != 1)
        unlink(refs);
    free(refs);
}
END_TEST

/* No board: references are null, the run still works. */
START_TEST(run_stream_json_without_board)
{
    char *refs = fixture_refs();
    char *pc = test_data_path("sysroots/pc-x86");
    struct outcome o = run_cli("run", "stream", "--sysroot", pc, "--format", "json", "--quick",
                               "--size", "400000", "--iterations", "2", "--refs", refs, NULL);
    free(pc);
    ck_assert_int_eq(o.rc, 0);
    json_t *j = parse(&o);
    ck_assert(json_is_null(json_object_get(j, "board")));
    json_t *r0 = json_array_get(json_object_get(j, "results"), 0);
    ck_assert(json_is_null(json_object_get(r0, "ref_avg")));
    ck_assert(json_is_null(json_object_get(r0, "deviation_pct")));
    json_decref(j);
    outcome_free(&o);
    free(refs);
}
END_TEST


/* The text table stays within 80 columns however far the measured value
 * is from the reference (the fixture's, 1000 times smaller, larger). */
START_TEST(run_text_fits_80_columns)
{
    static const double factors[] = { 1, 1e-3, 1e3 };
    double factor = factors[_i];
    char *refs = factor == 1 ? fixture_refs() : scaled_refs(factor);
    struct outcome o = run_cli("run", "stream", "--board", "am62xx_sk-fs", "--quick",
                               "--size", "400000", "--iterations", "2", "--refs", refs, NULL);
    ck_assert_int_eq(o.rc, 0);
    ck_assert_ptr_nonnull(strstr(o.out, "copy"));
    ck_assert_ptr_nonnull(strstr(o.out, factor == 1 ? "1838.92" : factor < 1 ? "1.84" : "1838920"));
    /* the unit as the screens spell it (common/units.h), not the guide's */
    ck_assert_msg(strstr(o.out, " MB/s ") && !strstr(o.out, "mb/s"), "%s", o.out);
    assert_fits_80(o.out);
    outcome_free(&o);
    if (factor != 1)
        unlink(refs);
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

/* list follows the board: its guide, the rest named at the end; --all
 * lists every guide. */
START_TEST(list_follows_the_board)
{
    struct outcome o = run_cli("list", "--board", "am62xx_sk-fs", NULL);
    ck_assert_int_eq(o.rc, 0);
    ck_assert_msg(strstr(o.out, "# am62xx_sk-fs: Linux 12.00.00 Performance Guide"), "%s", o.out);
    ck_assert_ptr_nonnull(strstr(o.out, "\nUSB\n  usb_device_controller"));
    ck_assert_ptr_null(strstr(o.out, "pcie-nvme-ssd"));
    ck_assert_ptr_null(strstr(o.out, "ipc_rpmsg"));
    ck_assert_ptr_nonnull(strstr(o.out, "# MCU+ SDK sections for AM62x: 6 categories"));
    ck_assert_ptr_nonnull(strstr(o.out, "# Other guides: "));
    outcome_free(&o);
    o = run_cli("list", "--board", "am62xx_sk-fs", "--all", NULL);
    ck_assert_int_eq(o.rc, 0);
    ck_assert_ptr_nonnull(strstr(o.out, "pcie-nvme-ssd"));
    ck_assert_ptr_nonnull(strstr(o.out, "ipc_rpmsg"));
    ck_assert_ptr_null(strstr(o.out, "MMC/SD Driver\n"));     /* one with MMCSD */
    outcome_free(&o);
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

/* "Runs here" is one notion: a tool found but missing what it needs
 * (--peer, --storage-dir, --audio-device) is not runnable in list's JSON
 * either, and 'run' of its benchmark refuses with what it needs instead
 * of starting rows that all fail. The tools here are stand-ins in a
 * --tools-dir of this test's, so the machine's own tools do not matter. */
static json_t *list_entry(json_t *list, const char *bench)
{
    size_t i;
    json_t *e;
    json_array_foreach(list, i, e)
        if (strcmp(json_string_value(json_object_get(e, "bench")), bench) == 0)
            return e;
    return NULL;
}

START_TEST(runs_here_needs_what_the_tool_needs)
{
    char dir[] = "/tmp/evmbench-test-needs-XXXXXX";
    ck_assert(mkdtemp(dir));
    static const char *const tools[] = { "fio", "netperf", "iperf3", "arecord", "aplay" };
    for (size_t i = 0; i < ARRAY_SIZE(tools); i++) {
        char *p = xasprintf("%s/%s", dir, tools[i]);
        FILE *f = fopen(p, "w");
        ck_assert_ptr_nonnull(f);
        fputs("#!/bin/sh\nexit 1\n", f);
        fclose(f);
        ck_assert_int_eq(chmod(p, 0755), 0);
        free(p);
    }
    static const char *const needy[] = { "alsa_soc_audio", "tcp_bidirectional_throughput",
                                         "udp_throughput", "emmc_ext4_fio_1g",
                                         "mmc_ext4_fio_1g" };
    struct outcome o = run_cli("list", "--board", "am62xx_sk-fs", "--format", "json",
                               "--tools-dir", dir, NULL);
    ck_assert_int_eq(o.rc, 0);
    json_t *j = parse(&o);
    for (size_t i = 0; i < ARRAY_SIZE(needy); i++) {
        json_t *e = list_entry(j, needy[i]);
        ck_assert_msg(e != NULL, "%s not listed", needy[i]);
        ck_assert_msg(json_is_false(json_object_get(e, "runnable")), "%s said runnable",
                      needy[i]);
        ck_assert_uint_gt(json_array_size(json_object_get(e, "available")), 0);
        ck_assert_uint_gt(json_object_size(json_object_get(e, "not_runnable")), 0);
    }
    json_decref(j);
    outcome_free(&o);
    /* given what they need, they run here */
    o = run_cli("list", "--board", "am62xx_sk-fs", "--format", "json", "--tools-dir", dir,
                "--storage-dir", dir, "--peer", "192.0.2.1", "--audio-device", "hw:0,0", NULL);
    ck_assert_int_eq(o.rc, 0);
    j = parse(&o);
    for (size_t i = 0; i < ARRAY_SIZE(needy); i++)
        ck_assert_msg(json_is_true(json_object_get(list_entry(j, needy[i]), "runnable")),
                      "%s not runnable with its needs given", needy[i]);
    json_decref(j);
    outcome_free(&o);
    /* run of the benchmark: refused before anything starts, with the need */
    o = run_cli("run", "emmc_ext4_fio_1g", "--board", "am62xx_sk-fs", "--tools-dir", dir,
                NULL);
    ck_assert_int_eq(o.rc, EXIT_USAGE);
    ck_assert_msg(strstr(o.err, "'emmc_ext4_fio_1g' cannot run here: needs --storage-dir DIR"),
                  "%s", o.err);
    outcome_free(&o);
    o = run_cli("run", "udp_throughput", "--board", "am62xx_sk-fs", "--tools-dir", dir, NULL);
    ck_assert_int_eq(o.rc, EXIT_USAGE);
    ck_assert_msg(strstr(o.err, "'udp_throughput' cannot run here: needs --peer HOST"), "%s",
                  o.err);
    outcome_free(&o);
    for (size_t i = 0; i < ARRAY_SIZE(tools); i++) {
        char *p = xasprintf("%s/%s", dir, tools[i]);
        unlink(p);
        free(p);
    }
    rmdir(dir);
}
END_TEST

/* list's text never cuts a key (what 'run' takes) nor a title, at 80
 * columns: the keys of its rows are exactly those of its JSON. */
START_TEST(list_text_keys_are_whole)
{
    struct outcome t = run_cli("list", "--all", NULL);
    struct outcome j = run_cli("list", "--all", "--format", "json", NULL);
    ck_assert_int_eq(t.rc, 0);
    ck_assert_int_eq(j.rc, 0);
    assert_fits_80(t.out);
    json_t *arr = parse(&j);
    size_t i, nkeys = 0;
    json_t *e;
    json_array_foreach(arr, i, e) {
        /* a row starts "  KEY" and the key is followed by a blank or the
         * end of its line (a long key: the row goes on below) */
        char *pat = xasprintf("\n  %s", json_string_value(json_object_get(e, "bench")));
        bool found = false;
        for (const char *p = strstr(t.out, pat); p && !found; p = strstr(p + 1, pat)) {
            char after = p[strlen(pat)];
            found = after == ' ' || after == '\n';
        }
        ck_assert_msg(found, "key %s not whole in the text list", pat + 3);
        free(pat);
    }
    /* and no other row */
    for (const char *p = t.out; (p = strstr(p, "\n  ")); p++)
        nkeys += p[3] != ' ';
    ck_assert_uint_eq(nkeys, json_array_size(arr));
    ck_assert_ptr_nonnull(strstr(t.out, "\n  tcp_bidirectional_throughput_interrupt_pacing\n"));
    json_decref(arr);
    outcome_free(&t);
    outcome_free(&j);
}
END_TEST

/* refs' text cuts neither a name nor a band, at 80 columns: every line
 * longer than 80 is a heading or a name alone (a name is never cut), and
 * every value's band is printed as the guide wrote it (0.13-0.32, not
 * 0-0), for every board of every shipped guide. */
static bool line_is(const char *line, size_t len, const char *a, const char *b)
{
    char *want = b ? xasprintf("%-15s %s", a, b) : xstrdup(a);
    bool same = strlen(want) == len && strncmp(line, want, len) == 0;
    free(want);
    return same;
}

START_TEST(refs_text_cuts_nothing)
{
    static const char *const boards[] = { NULL, "am62xx_sk-fs", "j721e-idk-gw" };
    for (size_t bi = 0; bi < ARRAY_SIZE(boards); bi++) {
        struct outcome t = boards[bi] ? run_cli("refs", "--board", boards[bi], NULL)
                                      : run_cli("refs", NULL);
        struct outcome j = boards[bi] ? run_cli("refs", "--board", boards[bi], "--format",
                                                "json", NULL)
                                      : run_cli("refs", "--format", "json", NULL);
        ck_assert_int_eq(t.rc, 0);
        ck_assert_int_eq(j.rc, 0);
        json_t *arr = parse(&j);
        size_t i;
        json_t *e;
        for (const char *line = t.out; *line;) {
            const char *nl = strchr(line, '\n');
            size_t len = nl ? (size_t)(nl - line) : strlen(line);
            bool ok = len <= 80;
            json_array_foreach(arr, i, e) {
                if (ok)
                    break;
                const char *board = json_string_value(json_object_get(e, "board"));
                const char *metric = json_string_value(json_object_get(e, "metric"));
                char *title = xasprintf("  %s", json_string_value(json_object_get(e, "table")));
                ok = line_is(line, len, json_string_value(json_object_get(e, "section")), NULL) ||
                     line_is(line, len, title, NULL) ||
                     (boards[bi] ? line_is(line, len, metric, NULL)
                                 : line_is(line, len, board ? board : "-", metric));
                free(title);
            }
            ck_assert_msg(ok, "a line of %zu columns that is not a name alone: %.*s", len,
                          (int)len, line);
            line += len + (nl != NULL);
        }
        json_array_foreach(arr, i, e) {
            json_t *mn = json_object_get(e, "min"), *mx = json_object_get(e, "max");
            if (!json_is_number(mn) || !json_is_number(mx))
                continue;
            char band[80];
            snprintf(band, sizeof band, "(%.10g-%.10g)", json_number_value(mn),
                     json_number_value(mx));
            ck_assert_msg(strstr(t.out, band), "band %s of %s not printed whole", band,
                          json_string_value(json_object_get(e, "metric")));
        }
        /* one spelling per unit for a person (the JSON keeps the guide's) */
        ck_assert_ptr_null(strstr(t.out, " microsec "));
        ck_assert_ptr_nonnull(strstr(j.out, "\"microsec\""));
        json_decref(arr);
        outcome_free(&t);
        outcome_free(&j);
    }
}
END_TEST

START_TEST(bad_refs_still_start)
{
    char *bad = test_data_path("refs-bad/malformed.json");
    /* list shows the guides' categories: without one it has nothing to
     * show and says so instead of listing an empty "Other" */
    struct outcome o = run_cli("list", "--refs", bad, NULL);
    ck_assert_int_eq(o.rc, 1);
    ck_assert_ptr_nonnull(strstr(o.err, "malformed.json:5:"));
    ck_assert_msg(strstr(o.err, "no reference file could be loaded from"), "%s", o.err);
    ck_assert_ptr_null(strstr(o.out, "Other"));
    outcome_free(&o);
    /* sysinfo still describes the board, and says why there is no guide EVM */
    o = run_cli("sysinfo", "--refs", bad, NULL);
    ck_assert_int_eq(o.rc, 0);
    ck_assert_msg(strstr(o.out, "unknown (no reference file was loaded)"), "%s", o.out);
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
        /* 10 significant digits printed: relative to the ratio, which
         * is as large or small as this machine is fast */
        assert_close(want[i].metric, json_real_value(json_object_get(row, "ratio")), k / t,
                     1e-8, k / t);
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

/* selfcheck says what it will run and how long that should take before
 * starting, then a line per kernel and tool as each ends, with the runs
 * done and the time left (lmbench in full mode runs for half an hour on
 * a loaded board; it used to be silent between rounds). */
START_TEST(selfcheck_shows_progress_and_time_left)
{
    char *bin = test_data_path("tools/bin");
    struct outcome o = run_cli("selfcheck", "stream", "--tools-dir", bin, "--quick",
                               "--rounds", "2", "--format", "json", NULL);
    ck_assert_msg(o.rc == 0, "rc %d: %s", o.rc, o.err);
    const char *want[] = {
        "evmbench: selfcheck: 1 benchmark, 2 rounds, 4 runs; about ",
        "evmbench: stream round 1 of 2: kernel:stream took ",
        "evmbench: stream round 1 of 2: tool:stream_c took ",
        "evmbench: stream round 2 of 2: tool:stream_c took ",
        "; 1 of 4 runs done, about ",
        "; 4 of 4 runs done, about 0 s left\n",
    };
    for (size_t i = 0; i < ARRAY_SIZE(want); i++)
        ck_assert_msg(strstr(o.err, want[i]), "no \"%s\" in:\n%s", want[i], o.err);
    /* the plan comes first, and stdout stays the JSON alone */
    ck_assert(str_starts_with(o.err, want[0]));
    json_decref(parse(&o));
    outcome_free(&o);
    free(bin);
}
END_TEST

/* --quick is the first answer: one round unless --rounds says more. */
START_TEST(selfcheck_quick_is_one_round)
{
    char *bin = test_data_path("tools/bin");
    struct outcome o = run_cli("selfcheck", "stream", "--tools-dir", bin, "--quick",
                               "--format", "json", NULL);
    ck_assert_msg(o.rc == 0, "rc %d: %s", o.rc, o.err);
    ck_assert_msg(str_starts_with(o.err, "evmbench: selfcheck: 1 benchmark, 1 round, 2 runs;"),
                  "%s", o.err);
    json_t *j = parse(&o);
    json_t *row = selfcheck_row(j, "copy");
    ck_assert_ptr_nonnull(row);
    ck_assert_int_eq(json_integer_value(json_object_get(row, "rounds")), 1);
    json_decref(j);
    outcome_free(&o);
    free(bin);
}
END_TEST

/* The ratio is the median of the rounds' own ratios (kernel and tool of
 * one round run back to back), not the ratio of the two medians, which
 * pairs one round's kernel with another round's tool. A stand-in
 * stream_c reports 1000 MB/s in round 1 and 8000 in round 2: the median
 * (here mean) of k1/1000 and k2/8000 is 1.9-3.2 times mean(k)/4500 for
 * any kernel rates within a factor 2 of each other. */
START_TEST(selfcheck_ratio_pairs_each_round)
{
    char *dir = test_tmpdir("selfcheck-rounds");
    char *tool = xasprintf("%s/stream_c", dir);
    FILE *f = fopen(tool, "w");
    ck_assert_ptr_nonnull(f);
    fputs("#!/bin/sh\n"
          "n=$(cat \"$(dirname \"$0\")/calls\" 2>/dev/null || echo 0)\n"
          "echo $((n + 1)) >\"$(dirname \"$0\")/calls\"\n"
          "v=1000; [ \"$n\" = 1 ] && v=8000\n"
          "for op in Copy Scale Add Triad; do echo \"$op: $v 0.1 0.1 0.1\"; done\n", f);
    ck_assert_int_eq(fclose(f), 0);
    ck_assert_int_eq(chmod(tool, 0755), 0);
    struct outcome o = run_cli("selfcheck", "stream", "--tools-dir", dir, "--quick",
                               "--rounds", "2", "--format", "json", NULL);
    ck_assert_msg(o.rc == 0, "rc %d: %s", o.rc, o.err);
    json_t *j = parse(&o);
    json_t *row = selfcheck_row(j, "triad");
    ck_assert_msg(row != NULL, "%s", o.out);
    ck_assert_double_eq_tol(json_real_value(json_object_get(row, "tool")), 4500, 1e-9);
    double k = json_real_value(json_object_get(row, "kernel"));
    double ratio = json_real_value(json_object_get(row, "ratio"));
    ck_assert_msg(ratio / (k / 4500) > 1.5, "ratio %g, kernel median %g: the ratio of the "
                  "medians, not of each round", ratio, k);
    json_t *rr = json_object_get(row, "round_ratios");
    ck_assert_msg(json_array_size(rr) == 2, "%s", o.out);
    double r0 = json_real_value(json_array_get(rr, 0)), r1 = json_real_value(json_array_get(rr, 1));
    assert_close("triad", ratio, (r0 + r1) / 2, 1e-8, ratio);
    json_decref(j);
    outcome_free(&o);
    test_rmtree(dir);
    free(tool);
    free(dir);
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

    /* every table of every guide, as text (within 80 columns but for a
     * name too long to fit, printed whole: refs_text_cuts_nothing) */
    o = run_cli("refs", NULL);
    ck_assert_int_eq(o.rc, 0);
    ck_assert_ptr_nonnull(strstr(o.out, "Low Power Performance"));
    outcome_free(&o);
}
END_TEST

/* --- issue 13: options checked before any work ----------------------------- */

/* Each case: the command line, then what the one-line message must hold. */
struct usage_case {
    const char *argv[8];
    const char *says[2];
};

static void expect_usage_errors(const struct usage_case *cases, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const char *const *a = cases[i].argv;
        struct outcome o = run_cli(a[0], a[1], a[2], a[3], a[4], a[5], a[6], NULL);
        ck_assert_msg(o.rc == EXIT_USAGE, "case %zu (%s %s %s): rc %d, %s", i, a[0], a[1], a[2],
                      o.rc, o.err);
        ck_assert_msg(str_starts_with(o.err, "evmbench: ") &&
                      strchr(o.err, '\n') == o.err + strlen(o.err) - 1, "case %zu: %s", i, o.err);
        for (size_t k = 0; k < 2 && cases[i].says[k]; k++)
            ck_assert_msg(strstr(o.err, cases[i].says[k]), "case %zu: no '%s' in: %s", i,
                          cases[i].says[k], o.err);
        ck_assert_str_eq(o.out, "");
        outcome_free(&o);
    }
}

START_TEST(options_that_do_not_apply_are_usage_errors)
{
    static const struct usage_case cases[] = {
        { { "refs", "--layout", "rst" }, { "--layout is for 'import-guide'", "not for 'refs'" } },
        { { "list", "--rounds", "3" }, { "--rounds is for 'selfcheck'", "not for 'list'" } },
        { { "refs", "--peer", "x" }, { "--peer", "not for 'refs'" } },
        { { "import-guide", "--profile", "quick", "x.txt" }, { "--profile", "'import-guide'" } },
        { { "sysinfo", "--baseline", "b" },
          { "--baseline is for the screens or 'run'", "not for 'sysinfo'" } },
        { { "results", "list", "--tool", "stream" },
          { "--tool is for 'results import'", "not for 'results list'" } },
        { { "run", "stream", "--keep", "3" }, { "--keep", "not for 'run'" } },
        { { "results", "prune", "--keep", "1", "--format", "json" }, { "--format", "'results prune'" } },
        { { "--layout", "rst" }, { "--layout", "not for the screens" } },
        { { "sysinfo", "--category", "x" }, { "--category", "'sysinfo'" } },
        { { "list", "-o", "x.json", "--section", "s" }, { "--section", "'list'" } },
    };
    expect_usage_errors(cases, ARRAY_SIZE(cases));
}
END_TEST

START_TEST(empty_paths_are_usage_errors)
{
    static const struct usage_case cases[] = {
        { { "results", "list", "--results-dir", "" }, { "--results-dir needs a path" } },
        { { "run", "stream", "--results-dir", "" }, { "--results-dir needs a path" } },
        { { "sysinfo", "--sysroot", "" }, { "--sysroot needs a path" } },
        { { "refs", "--refs", "" }, { "--refs needs a path" } },
        { { "list", "-o", "" }, { "-o needs a path" } },
        { { "list", "--output", "" }, { "--output needs a path" } },
        { { "list", "--tools-dir", "" }, { "--tools-dir needs a path" } },
        { { "run", "stream", "--storage-dir", "" }, { "--storage-dir needs a path" } },
        { { "run", "stream", "--lava-kmsg=" }, { "--lava-kmsg needs a path" } },
        { { "--theme", "" }, { "--theme needs a path" } },
        { { "run", "--profile", "" }, { "--profile needs a name" } },
        { { "import-guide", "" }, { "import-guide: argument 1 is an empty file name" } },
        { { "results", "import", "", "--tool", "stream" }, { "results import: argument 1" } },
    };
    expect_usage_errors(cases, ARRAY_SIZE(cases));
}
END_TEST

START_TEST(numeric_options_keep_their_stated_range)
{
    static const struct usage_case cases[] = {
        { { "run", "stream", "--timeout", "0.5" }, { "--timeout takes seconds from 1 to 86400" } },
        { { "run", "stream", "--timeout", "86401" }, { "--timeout", "'86401'" } },
        { { "run", "stream", "--timeout", "nan" }, { "--timeout" } },
        { { "run", "stream", "--tolerance", "0" }, { "--tolerance takes a percentage above 0" } },
        { { "run", "stream", "--tolerance", "1000.5" }, { "at most 1000," } },
        { { "run", "stream", "--size", "2.5" }, { "--size takes a whole number from 1" } },
        { { "run", "stream", "--iterations", "1000001" }, { "--iterations" } },
        { { "run", "stream", "--threads", "1025" }, { "--threads takes a whole number from 1 to 1024" } },
        { { "selfcheck", "--rounds", "0" }, { "--rounds takes a whole number from 1 to 100" } },
        { { "run", "stream", "--fail-on-deviation", "0" }, { "--fail-on-deviation" } },
        { { "results", "prune", "--keep", "-1" }, { "--keep takes a whole number from 0" } },
        { { "results", "prune", "--keep", "1.5" }, { "--keep" } },
    };
    expect_usage_errors(cases, ARRAY_SIZE(cases));
    /* the ends of each range are accepted: the error is then about the
     * unknown benchmark, not the option */
    static const char *const edges[][2] = {
        { "--timeout", "1" }, { "--timeout", "86400" }, { "--timeout", "2.5" },
        { "--tolerance", "0.01" }, { "--tolerance", "1000" }, { "--threads", "1024" },
        { "--iterations", "1000000" }, { "--fail-on-deviation", "0.5" },
    };
    char *refs = fixture_refs();
    for (size_t i = 0; i < ARRAY_SIZE(edges); i++) {
        struct outcome o = run_cli("--refs", refs, "run", "nosuchbench", edges[i][0], edges[i][1],
                                   NULL);
        ck_assert_int_eq(o.rc, EXIT_USAGE);
        ck_assert_msg(strstr(o.err, "unknown benchmark"), "%s %s refused: %s", edges[i][0],
                      edges[i][1], o.err);
        outcome_free(&o);
    }
    free(refs);
}
END_TEST

START_TEST(sysroot_must_be_a_directory)
{
    char *file = test_data_path("refs/good.json");
    static const struct usage_case cases[] = {
        { { "sysinfo", "--sysroot", "/nonexistent/sysroot" },
          { "--sysroot /nonexistent/sysroot: No such file or directory" } },
    };
    expect_usage_errors(cases, ARRAY_SIZE(cases));
    struct outcome o = run_cli("sysinfo", "--sysroot", file, NULL);
    ck_assert_int_eq(o.rc, EXIT_USAGE);
    ck_assert_msg(strstr(o.err, "good.json: not a directory"), "%s", o.err);
    outcome_free(&o);
    free(file);
}
END_TEST

START_TEST(bad_baseline_name_is_refused_before_the_run)
{
    char tmpl[] = "/tmp/evmbench-cli-baseline-XXXXXX";
    ck_assert(mkdtemp(tmpl));
    char *store = path_join(tmpl, "store");
    static const char *const names[] = { "../up", ".hidden", "a b", "x/y" };
    for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
        struct outcome o = run_cli("run", "lat_syscall", "--quick", "--provider", "kernel",
                                   "--results-dir", store, "--save-baseline", names[i], NULL);
        ck_assert_msg(o.rc == EXIT_USAGE, "'%s': rc %d: %s", names[i], o.rc, o.err);
        ck_assert_msg(strstr(o.err, "--save-baseline"), "%s", o.err);
        ck_assert_str_eq(o.out, "");
        /* nothing ran: the store was not even created */
        ck_assert_msg(access(store, F_OK) != 0, "'%s' ran before it was refused", names[i]);
        outcome_free(&o);
    }
    free(store);
    rmdir(tmpl);
}
END_TEST

START_TEST(lava_kmsg_that_cannot_be_opened_falls_back_to_stdout)
{
    struct outcome o = run_cli("run", "lat_syscall", "--quick", "--provider", "kernel",
                               "--no-save", "--lava-kmsg=/nonexistent/kmsg", NULL);
    ck_assert_msg(o.rc == 0, "rc %d: %s", o.rc, o.err);
    /* the warning first, before any progress */
    ck_assert_msg(str_starts_with(o.err, "evmbench: warning: /nonexistent/kmsg: "), "%s", o.err);
    ck_assert_msg(strstr(o.err, "go to standard output instead"), "%s", o.err);
    ck_assert_msg(strstr(o.out, "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=lmbench.lat_syscall-null"),
                  "no LAVA lines on stdout: %s", o.out);
    outcome_free(&o);
}
END_TEST

/* As run_cli, with stdout marked closed as main does after >&-. */
static struct outcome run_cli_stdout_closed(const char *const *words)
{
    struct outcome o = { 0 };
    o.rc = test_cli_words(words, CLI_STDOUT_CLOSED, &o.out, &o.err);
    return o;
}

START_TEST(output_to_a_closed_stdout_is_an_error)
{
    char *refs = fixture_refs();
    const char *const to_stdout[][7] = {
        { "list", "--format", "json", "--refs", refs },
        { "refs", "--refs", refs },
        { "--version" },
        { "results", "list" },
        { "run", "lat_syscall", "--quick", "--no-save", "--refs", refs },
    };
    for (size_t i = 0; i < ARRAY_SIZE(to_stdout); i++) {
        struct outcome o = run_cli_stdout_closed(to_stdout[i]);
        ck_assert_msg(o.rc == 1, "%s: rc %d", to_stdout[i][0], o.rc);
        ck_assert_msg(str_starts_with(o.err, "evmbench: standard output is closed"), "%s", o.err);
        ck_assert_str_eq(o.out, "");
        outcome_free(&o);
    }
    /* -o FILE needs no stdout */
    char tmpl[] = "/tmp/evmbench-cli-closed-XXXXXX";
    ck_assert(mkdtemp(tmpl));
    char *file = path_join(tmpl, "list.json");
    const char *const to_file[] = { "list", "--format", "json", "--refs", refs, "-o", file, NULL };
    struct outcome o = run_cli_stdout_closed(to_file);
    ck_assert_msg(o.rc == 0, "rc %d: %s", o.rc, o.err);
    ck_assert_int_eq(access(file, R_OK), 0);
    outcome_free(&o);
    unlink(file);
    rmdir(tmpl);
    free(file);
    free(refs);
}
END_TEST

/* The XDG Base Directory spec: a relative XDG_DATA_HOME or XDG_CONFIG_HOME
 * is invalid and ignored; $HOME/.local/share and $HOME/.config are used. */
START_TEST(relative_xdg_dirs_are_ignored)
{
    char *data = getenv("XDG_DATA_HOME") ? xstrdup(getenv("XDG_DATA_HOME")) : NULL;
    char *home = getenv("HOME") ? xstrdup(getenv("HOME")) : NULL;
    setenv("HOME", "/home/someone", 1);
    setenv("XDG_DATA_HOME", "relative/data", 1);
    setenv("XDG_CONFIG_HOME", "relative/config", 1);
    char *store = store_default_dir(), *settings = settings_default_path();
    ck_assert_str_eq(store, "/home/someone/.local/share/evmbench");
    ck_assert_str_eq(settings, "/home/someone/.config/evmbench/config");
    free(store);
    free(settings);
    setenv("XDG_DATA_HOME", "/abs/data", 1);
    store = store_default_dir();
    ck_assert_str_eq(store, "/abs/data/evmbench");
    free(store);
    if (data)
        setenv("XDG_DATA_HOME", data, 1);
    if (home)
        setenv("HOME", home, 1);
    unsetenv("XDG_CONFIG_HOME");
    free(data);
    free(home);
}
END_TEST

/* The screens without a terminal: the reason goes to the command's error
 * stream, like every other message, not straight to the process's stderr. */
START_TEST(screens_without_a_terminal_say_so_on_the_error_stream)
{
    char *refs = fixture_refs();
    int saved = dup(STDIN_FILENO);
    ck_assert_int_ge(saved, 0);
    int null = open("/dev/null", O_RDONLY);
    ck_assert_int_ge(null, 0);
    ck_assert_int_eq(dup2(null, STDIN_FILENO), STDIN_FILENO);
    close(null);
    struct outcome o = run_cli("--no-save", "--refs", refs, NULL);
    ck_assert_int_eq(dup2(saved, STDIN_FILENO), STDIN_FILENO);
    close(saved);
    ck_assert_int_eq(o.rc, 1);
    ck_assert_msg(strstr(o.err, "evmbench: the TUI needs a terminal; use a subcommand such as "
                                "'evmbench run stream' or --ui=line\n"), "%s", o.err);
    ck_assert_str_eq(o.out, "");
    outcome_free(&o);
    free(refs);
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
    tcase_add_test(tc, sysinfo_says_how_sure);
    tcase_add_test(tc, run_says_board_doubts);
    tcase_add_loop_test(tc, run_stream_json_against_reference, 0, 3);
    tcase_add_test(tc, run_stream_json_without_board);
    tcase_add_loop_test(tc, run_text_fits_80_columns, 0, 3);
    tcase_add_test(tc, failed_benchmark_exits_3_and_says_why);
    tcase_add_test(tc, list_shows_providers);
    tcase_add_test(tc, list_follows_the_board);
    tcase_add_test(tc, list_text_keys_are_whole);
    tcase_add_test(tc, refs_text_cuts_nothing);
    tcase_add_test(tc, bad_refs_still_start);
    tcase_add_test(tc, tool_params_checked);
    tcase_add_test(tc, runs_here_needs_what_the_tool_needs);
    tcase_add_test(tc, shipped_refs_have_the_am62x_stream_table);
    tcase_add_test(tc, selfcheck_pairs_kernel_and_tool);
    tcase_add_test(tc, selfcheck_shows_progress_and_time_left);
    tcase_add_test(tc, selfcheck_ratio_pairs_each_round);
    tcase_add_test(tc, selfcheck_quick_is_one_round);
    tcase_add_test(tc, run_profile_keeps_its_rows);
    tcase_add_test(tc, options_that_do_not_apply_are_usage_errors);
    tcase_add_test(tc, empty_paths_are_usage_errors);
    tcase_add_test(tc, numeric_options_keep_their_stated_range);
    tcase_add_test(tc, sysroot_must_be_a_directory);
    tcase_add_test(tc, bad_baseline_name_is_refused_before_the_run);
    tcase_add_test(tc, lava_kmsg_that_cannot_be_opened_falls_back_to_stdout);
    tcase_add_test(tc, output_to_a_closed_stdout_is_an_error);
    tcase_add_test(tc, relative_xdg_dirs_are_ignored);
    tcase_add_test(tc, screens_without_a_terminal_say_so_on_the_error_stream);
    suite_add_tcase(s, tc);
    return s;
}
