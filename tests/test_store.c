/* test_store.c - the results store, baselines and the export formats. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "cli/cli.h"
#include "run/check.h"
#include "run/deviation.h"
#include "run/export.h"
#include "run/result.h"
#include "store/store.h"
#include "suites.h"
#include "test_helpers.h"
#include "common/util.h"

static char *dir;

static void setup(void)
{
    dir = test_tmpdir("store-test");
}

static void teardown(void)
{
    test_rmtree(dir);
    free(dir);
}

/* A row as a run of 10 repeats files it: its value, and 10 run values
 * spread by 0.4 % round it (so a comparison has an interval). */
static json_t *row(const char *bench, const char *metric, const char *unit, double value)
{
    json_t *runs = json_array();
    for (int i = 0; i < 10; i++)
        json_array_append_new(runs, json_real(value * (1 + 0.004 * (i / 4.5 - 1))));
    return json_pack("{ss ss ss sf ss ss ss si so}", "bench", bench, "metric", metric, "unit",
                     unit, "value", value, "status", "ok", "verdict", "none", "provider",
                     "kernel:test", "runs", 10, "run_values", runs);
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

static bool diag_has(const struct diag *d, const char *needle)
{
    for (size_t i = 0; i < d->n; i++)
        if (strstr(d->msgs[i], needle))
            return true;
    return false;
}

/* Written row by row, read back whole; the header keeps the caller's
 * members; the end line marks it complete. */
START_TEST(run_round_trip)
{
    struct diag wd;
    diag_init(&wd);
    json_t *h = json_pack("{ss}", "board", "am62xx_sk-fs");
    struct store_writer *w = store_begin(dir, "AM62x SK", h, &wd);
    json_decref(h);
    ck_assert_msg(w != NULL, "%s", diag_last(&wd));
    ck_assert(str_starts_with(store_writer_path(w), dir));
    ck_assert(str_ends_with(store_writer_id(w), "-am62x_sk"));
    char *id = xstrdup(store_writer_id(w));
    for (int i = 0; i < 3; i++) {
        json_t *r = row("stream", i == 0 ? "copy" : i == 1 ? "scale" : "add", "mb/s", 100 + i);
        ck_assert_int_eq(store_append(w, r, &wd), 0);
        json_decref(r);
    }
    ck_assert_int_eq(store_finish(w, true, &wd), 0);

    struct diag d;
    diag_init(&d);
    struct stored_run r;
    ck_assert_int_eq(store_find(dir, "latest", &r, &d), 0);
    ck_assert_uint_eq(d.n, 0);
    ck_assert_str_eq(r.id, id);
    ck_assert(r.complete);
    ck_assert_str_eq(json_string_value(json_object_get(r.header, "board")), "am62xx_sk-fs");
    ck_assert_str_eq(json_string_value(json_object_get(r.header, "format")), STORE_RUN_FORMAT);
    ck_assert_uint_eq(json_array_size(r.rows), 3);
    ck_assert_double_eq(json_number_value(json_object_get(json_array_get(r.rows, 2), "value")),
                        102);
    stored_run_free(&r);
    /* a unique prefix finds it too */
    ck_assert_int_eq(store_find(dir, "2", &r, &d), 0);
    stored_run_free(&r);
    diag_free(&d);
    free(id);
    diag_free(&wd);
}
END_TEST

/* A run cut off (no end line, a torn last line) keeps every whole row
 * and says where the damage is. */
START_TEST(interrupted_run_keeps_what_finished)
{
    struct diag wd;
    diag_init(&wd);
    struct store_writer *w = store_begin(dir, "x", NULL, &wd);
    ck_assert_ptr_nonnull(w);
    char *path = xstrdup(store_writer_path(w));
    json_t *r = row("lmbench", "lat_pipe", "microsec", 42);
    ck_assert_int_eq(store_append(w, r, &wd), 0);
    json_decref(r);
    ck_assert_int_eq(store_finish(w, false, &wd), 0);
    /* the power went off in the middle of the next line */
    FILE *f = fopen(path, "a");
    fputs("{\"row\": {\"bench\": \"lmb", f);
    fclose(f);

    struct diag d;
    diag_init(&d);
    struct stored_run run;
    ck_assert_int_eq(store_read_run(path, &run, &d), 0);
    ck_assert(!run.complete);
    ck_assert_uint_eq(json_array_size(run.rows), 1);
    char *where = xasprintf("%s:3:", path);
    ck_assert_msg(diag_has(&d, where), "%s", d.n ? d.msgs[0] : "no diagnostic");
    free(where);
    stored_run_free(&run);
    diag_free(&d);
    free(path);
    diag_free(&wd);
}
END_TEST

/* Foreign, empty and binary files in the store are skipped with a
 * warning naming them, and prune never deletes them. */
START_TEST(foreign_files_skipped_and_kept)
{
    struct diag wd;
    diag_init(&wd);
    for (int i = 0; i < 3; i++) {
        struct store_writer *w = store_begin(dir, "b", NULL, &wd);
        ck_assert_ptr_nonnull(w);
        ck_assert_int_eq(store_finish(w, true, &wd), 0);
    }
    char *runs = path_join(dir, "runs");
    char *garbage = path_join(runs, "zz-garbage.evmrun");
    char *empty = path_join(runs, "zz-empty.evmrun");
    char *foreign = path_join(runs, "zz-foreign.evmrun");
    char *binary = path_join(runs, "zz-binary.evmrun");
    write_text(garbage, "not json at all\n");
    write_text(empty, "");
    write_text(foreign, "{\"format\": \"something-else/2\"}\n");
    FILE *f = fopen(binary, "w");
    fwrite("{\0\1\2", 1, 4, f);
    fclose(f);

    struct diag d;
    diag_init(&d);
    struct stored_run *list;
    size_t n = store_list(dir, &list, &d);
    ck_assert_uint_eq(n, 3);
    ck_assert(diag_has(&d, "zz-garbage.evmrun:1: not a run file"));
    ck_assert(diag_has(&d, "zz-empty.evmrun: empty"));
    ck_assert(diag_has(&d, "format is something-else/2"));
    ck_assert(diag_has(&d, "binary data"));
    store_runs_free(list, n);
    diag_free(&d);

    diag_init(&d);
    ck_assert_int_eq(store_prune(dir, 1, &d), 2);
    n = store_list(dir, &list, &d);
    ck_assert_uint_eq(n, 1);
    store_runs_free(list, n);
    ck_assert_int_eq(access(garbage, F_OK), 0);
    ck_assert_int_eq(access(foreign, F_OK), 0);
    diag_free(&d);
    free(runs);
    free(garbage);
    free(empty);
    free(foreign);
    free(binary);
    diag_free(&wd);
}
END_TEST

START_TEST(store_that_cannot_be_written)
{
    if (geteuid() == 0) {
        /* root writes anywhere: a regular file in the way stands in */
        char *blocker = path_join(dir, "file");
        write_text(blocker, "x");
        struct diag wd;
        diag_init(&wd);
        ck_assert_ptr_null(store_begin(blocker, "b", NULL, &wd));
        ck_assert_ptr_nonnull(strstr(diag_last(&wd), "cannot create"));
        free(blocker);
        diag_free(&wd);
        return;
    }
    chmod(dir, 0500);
    struct diag wd;
    diag_init(&wd);
    ck_assert_ptr_null(store_begin(dir, "b", NULL, &wd));
    ck_assert_ptr_nonnull(strstr(diag_last(&wd), "Permission denied"));
    chmod(dir, 0700);
    diag_free(&wd);
}
END_TEST

START_TEST(baselines)
{
    struct diag wd;
    diag_init(&wd);
    json_t *rows = json_array();
    json_array_append_new(rows, row("stream", "copy", "mb/s", 2000));
    json_array_append_new(rows, row("lmbench", "lat_pipe", "microsec", 40));
    ck_assert_int_eq(store_save_baseline(dir, "before-ddr", "r1", rows, false, &wd), 0);
    ck_assert_int_eq(store_save_baseline(dir, "../evil", NULL, rows, false, &wd), -1);
    ck_assert_ptr_nonnull(strstr(diag_last(&wd), "letters, digits"));

    struct diag d;
    diag_init(&d);
    json_t *base = store_load_baseline(dir, "before-ddr", &d);
    ck_assert_ptr_nonnull(base);
    ck_assert_uint_eq(json_array_size(base), 2);

    /* now: copy 10 % slower (worse), pipe 10 % faster (better) */
    json_t *now = json_array();
    json_array_append_new(now, row("stream", "copy", "mb/s", 1800));
    json_array_append_new(now, row("lmbench", "lat_pipe", "microsec", 36));
    json_array_append_new(now, row("lmbench", "lat_unix", "microsec", 50));
    export_add_baseline(now, base, 5);
    json_t *copy = json_array_get(now, 0), *pipe = json_array_get(now, 1);
    ck_assert_double_eq_tol(json_number_value(json_object_get(copy, "change_pct")), -10, 1e-9);
    ck_assert_str_eq(json_string_value(json_object_get(copy, "outcome")), "slower");
    ck_assert_str_eq(json_string_value(json_object_get(pipe, "outcome")), "faster");
    ck_assert_int_eq(json_integer_value(json_object_get(copy, "baseline_compared_n")), 10);
    char why[160];
    ck_assert(export_row_failure(copy, 5, why, sizeof why));
    ck_assert_msg(strncmp(why, "-10.0% (-10.", 12) == 0 &&
                  str_ends_with(why, "%) against the baseline's 2000, 10 runs against 10: "
                                     "slower beyond the limit 5%"), "%s", why);
    ck_assert(!export_row_failure(copy, 15, why, sizeof why));
    ck_assert(!export_row_failure(pipe, 5, why, sizeof why));
    /* compared with the baseline, which lacks it: nothing to judge by */
    json_t *unix_row = json_array_get(now, 2);
    ck_assert(json_is_null(json_object_get(unix_row, "baseline_value")));
    ck_assert(!export_row_failure(unix_row, 5, why, sizeof why));

    ck_assert_ptr_null(store_load_baseline(dir, "nosuch", &d));
    ck_assert(diag_has(&d, "no baseline or run 'nosuch'"));
    ck_assert_ptr_null(store_baseline_existing(dir, "nosuch"));
    json_decref(now);
    json_decref(base);
    json_decref(rows);
    diag_free(&d);
    diag_free(&wd);
}
END_TEST

/* The run id a baseline file was saved from, or "" */
static const char *baseline_run(const char *name, json_t **keep)
{
    char *path = xasprintf("%s/baselines/%s.json", dir, name);
    json_error_t e;
    *keep = json_load_file(path, 0, &e);
    free(path);
    const char *id = json_string_value(json_object_get(*keep, "run"));
    return id ? id : "";
}

/* A baseline is never lost: an existing name is refused (naming the file,
 * EEXIST, the file untouched) unless replace; replacing keeps the old one
 * as NAME.prev, which loads as a baseline; an old one that cannot be read
 * is not replaced. */
START_TEST(baseline_never_lost)
{
    json_t *rows = json_array();
    json_array_append_new(rows, row("stream", "copy", "mb/s", 2000));
    struct diag d;
    diag_init(&d);
    json_t *keep;
    ck_assert_int_eq(store_save_baseline(dir, "before", "r1", rows, false, &d), 0);
    char *path = store_baseline_existing(dir, "before");
    ck_assert_ptr_nonnull(path);
    ck_assert_ptr_nonnull(strstr(path, "/baselines/before.json"));

    errno = 0;
    ck_assert_int_eq(store_save_baseline(dir, "before", "r2", rows, false, &d), -1);
    ck_assert_int_eq(errno, EEXIST);
    ck_assert_msg(strstr(diag_last(&d), path) && strstr(diag_last(&d), "exists"), "%s",
                  diag_last(&d));
    ck_assert_str_eq(baseline_run("before", &keep), "r1");
    json_decref(keep);
    ck_assert_ptr_null(store_baseline_existing(dir, "before.prev"));

    ck_assert_msg(store_save_baseline(dir, "before", "r2", rows, true, &d) == 0, "%s",
                  diag_last(&d));
    ck_assert_str_eq(baseline_run("before", &keep), "r2");
    json_decref(keep);
    ck_assert_str_eq(baseline_run("before.prev", &keep), "r1");
    json_decref(keep);
    json_t *prev = store_load_baseline(dir, "before.prev", &d);
    ck_assert_ptr_nonnull(prev);
    ck_assert_uint_eq(json_array_size(prev), 1);
    json_decref(prev);
    /* a second replacement: .prev is the one just replaced */
    ck_assert_int_eq(store_save_baseline(dir, "before", "r3", rows, true, &d), 0);
    ck_assert_str_eq(baseline_run("before.prev", &keep), "r2");
    json_decref(keep);

    /* a name of 100 characters: its .prev loads too */
    char name[101];
    memset(name, 'n', 100);
    name[100] = '\0';
    ck_assert_int_eq(store_save_baseline(dir, name, "r1", rows, false, &d), 0);
    ck_assert_int_eq(store_save_baseline(dir, name, "r2", rows, true, &d), 0);
    char *pname = xasprintf("%s.prev", name);
    prev = store_load_baseline(dir, pname, &d);
    ck_assert_msg(prev != NULL, "%s", diag_last(&d));
    json_decref(prev);
    free(pname);

    /* what is there cannot be read (a directory): not replaced, said why */
    char *blocked = xasprintf("%s/baselines/odd.json", dir);
    ck_assert_int_eq(mkdir(blocked, 0755), 0);
    ck_assert_int_eq(store_save_baseline(dir, "odd", NULL, rows, true, &d), -1);
    ck_assert_msg(strstr(diag_last(&d), "not replaced"), "%s", diag_last(&d));
    struct stat st;
    ck_assert(stat(blocked, &st) == 0 && S_ISDIR(st.st_mode));
    ck_assert_ptr_null(store_baseline_existing(dir, "odd.prev"));
    free(blocked);
    free(path);
    json_decref(rows);
    diag_free(&d);
}
END_TEST

/* A FIFO and a directory named like run files, and a FIFO named like a
 * baseline: listed runs skip them with a message naming each, prune
 * leaves them, a named one is refused; nothing blocks (the alarm turns a
 * hang into a failure). */
START_TEST(non_regular_files_skipped)
{
    struct diag wd;
    diag_init(&wd);
    struct store_writer *w = store_begin(dir, "b", NULL, &wd);
    ck_assert_ptr_nonnull(w);
    ck_assert_int_eq(store_finish(w, true, &wd), 0);
    char *fifo = xasprintf("%s/runs/x.evmrun", dir);
    char *sub = xasprintf("%s/runs/sub.evmrun", dir);
    char *bdir = xasprintf("%s/baselines", dir);
    char *bfifo = xasprintf("%s/baselines/pipe.json", dir);
    ck_assert_int_eq(mkfifo(fifo, 0600), 0);
    ck_assert_int_eq(mkdir(sub, 0700), 0);
    ck_assert_int_eq(mkdir(bdir, 0700), 0);
    ck_assert_int_eq(mkfifo(bfifo, 0600), 0);
    alarm(20);

    struct diag d;
    diag_init(&d);
    struct stored_run *list;
    size_t n = store_list(dir, &list, &d);
    ck_assert_uint_eq(n, 1);
    ck_assert(diag_has(&d, "/runs/x.evmrun: not a regular file (a FIFO); skipped"));
    ck_assert(diag_has(&d, "/runs/sub.evmrun: not a regular file (a directory); skipped"));
    ck_assert_uint_eq(d.n, 2);
    store_runs_free(list, n);
    diag_free(&d);

    diag_init(&d);
    ck_assert_int_eq(store_prune(dir, 0, &d), 1);
    ck_assert(diag_has(&d, "x.evmrun: not a regular file (a FIFO); skipped"));
    struct stat st;
    ck_assert_int_eq(lstat(fifo, &st), 0);
    ck_assert(S_ISFIFO(st.st_mode));
    ck_assert_int_eq(lstat(sub, &st), 0);
    ck_assert(S_ISDIR(st.st_mode));
    diag_free(&d);

    /* named: refused, not "skipped" */
    diag_init(&d);
    struct stored_run r;
    ck_assert_int_eq(store_find(dir, fifo, &r, &d), -1);
    ck_assert(diag_has(&d, "x.evmrun: not a regular file (a FIFO)"));
    ck_assert(!diag_has(&d, "skipped"));
    diag_free(&d);

    diag_init(&d);
    ck_assert_ptr_null(store_load_baseline(dir, "pipe", &d));
    ck_assert(diag_has(&d, "baselines/pipe.json: not a regular file (a FIFO)"));
    diag_free(&d);
    alarm(0);
    free(fifo);
    free(sub);
    free(bdir);
    free(bfifo);
    diag_free(&wd);
}
END_TEST

/* A row whose strings are not UTF-8 (a reason quoting a tool, a metric
 * named from outside) keeps every one of them, bad bytes as U+FFFD, in
 * the JSON row and through the store. */
START_TEST(row_strings_not_utf8_kept)
{
    struct result_row r = { .bench = "fake", .metric = "m\xC3", .unit = "MB/s\xFF",
                            .samples = 0, .status = STATUS_FAILED,
                            .error = "exit status 1; output ends: caf\xE9 \xE2\x82" };
    snprintf(r.provider, sizeof r.provider, "tool:f\xED\xA0\x80");
    json_t *j = result_row_json(&r);
    ck_assert_str_eq(json_string_value(json_object_get(j, "metric")), "m\xEF\xBF\xBD");
    ck_assert_str_eq(json_string_value(json_object_get(j, "unit")), "MB/s\xEF\xBF\xBD");
    ck_assert_str_eq(json_string_value(json_object_get(j, "error")),
                     "exit status 1; output ends: caf\xEF\xBF\xBD \xEF\xBF\xBD\xEF\xBF\xBD");
    ck_assert_str_eq(json_string_value(json_object_get(j, "provider")),
                     "tool:f\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");
    ck_assert(json_is_null(json_object_get(j, "ref_source")));
    struct diag wd;
    diag_init(&wd);
    struct store_writer *w = store_begin(dir, "b", NULL, &wd);
    ck_assert_ptr_nonnull(w);
    ck_assert_int_eq(store_append(w, j, &wd), 0);
    ck_assert_int_eq(store_finish(w, true, &wd), 0);
    json_decref(j);
    struct diag d;
    diag_init(&d);
    struct stored_run run;
    ck_assert_int_eq(store_find(dir, "latest", &run, &d), 0);
    json_t *back = json_array_get(run.rows, 0);
    ck_assert_str_eq(json_string_value(json_object_get(back, "error")),
                     "exit status 1; output ends: caf\xEF\xBF\xBD \xEF\xBF\xBD\xEF\xBF\xBD");
    stored_run_free(&run);
    diag_free(&d);
    diag_free(&wd);
}
END_TEST

static char *capture(const char *format, json_t *rows, double fail_pct)
{
    char *buf;
    size_t len;
    FILE *f = open_memstream(&buf, &len);
    export_rows(f, format, rows, fail_pct, "suite");
    fclose(f);
    return buf;
}

START_TEST(export_formats)
{
    json_t *rows = json_array();
    json_t *ok = row("stream", "copy", "mb/s", 1838.5);
    json_object_set_new(ok, "ref_avg", json_real(1838.92));
    json_object_set_new(ok, "deviation_pct", json_real(-0.02));
    json_object_set_new(ok, "better", json_false());
    json_object_set_new(ok, "verdict", json_string("in_range"));
    json_array_append_new(rows, ok);
    json_t *bad = json_pack("{ss ss ss sn ss ss ss ss}", "bench", "lmbench", "metric",
                            "lat_tcp", "unit", "microsec", "value", "status", "failed",
                            "verdict", "none", "provider", "kernel:lat_ipc", "error",
                            "no loopback: \"lo\" is down, <sad> & gone");
    json_array_append_new(rows, bad);

    char *lava = capture("lava", rows, 0);
    ck_assert_str_eq(lava,
        "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=stream.copy RESULT=pass UNITS=mb_s "
        "MEASUREMENT=1838.5>\n"
        "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=lmbench.lat_tcp RESULT=fail>\n");
    free(lava);

    char *csv = capture("csv", rows, 0);
    ck_assert(str_starts_with(csv, "bench,metric,unit,value,"));
    /* a person reads the unit column: the screens' spelling (units.h) */
    ck_assert_ptr_nonnull(strstr(csv, "\nstream,copy,MB/s,1838.5,"));
    ck_assert_ptr_nonnull(strstr(csv, "\nlmbench,lat_tcp,us,,"));
    /* the verdict comes last, after the columns scripts already count:
     * empty without a limit; a benchmark that did not run fails */
    ck_assert_ptr_nonnull(strstr(csv, ",error,fail,ref_guess,change_low,change_high,compared,"
                                      "compared_n,baseline_compared_n,outcome\n"));
    ck_assert_ptr_nonnull(strstr(csv, ",kernel:test,,,,,,,,,,,\n"));
    ck_assert_ptr_nonnull(strstr(csv, "\"no loopback: \"\"lo\"\" is down, <sad> & gone\",did not run,,,,,,,\n"));
    free(csv);
    csv = capture("csv", rows, 5);
    ck_assert_ptr_nonnull(strstr(csv, ",kernel:test,,,,no,,,,,,,\n"));
    ck_assert_ptr_nonnull(strstr(csv, "gone\",did not run,,,,,,,\n"));
    free(csv);

    char *xml = capture("junit", rows, 0);
    ck_assert_ptr_nonnull(strstr(xml, "<testsuite name=\"suite\" tests=\"2\" failures=\"0\" errors=\"1\">"));
    ck_assert_ptr_nonnull(strstr(xml, "no loopback: &quot;lo&quot; is down, &lt;sad&gt; &amp; gone"));
    ck_assert_ptr_nonnull(strstr(xml, "<testcase classname=\"stream\" name=\"copy\">"));
    ck_assert_ptr_nonnull(strstr(xml, "1838.5 MB/s"));
    free(xml);

    char *text = capture("text", rows, 0);
    char *line = text;
    for (char *nl; (nl = strchr(line, '\n')); line = nl + 1)
        ck_assert_msg(nl - line <= 80, "over 80 columns: %.*s", (int)(nl - line), line);
    ck_assert_ptr_nonnull(strstr(text, "in_range"));
    ck_assert_ptr_nonnull(strstr(text, " MB/s "));
    ck_assert_ptr_null(strstr(text, "mb/s"));
    ck_assert_ptr_null(strstr(text, "microsec"));
    free(text);

    ck_assert_str_eq(export_format_for_path("out/r.XML"), "junit");
    ck_assert_str_eq(export_format_for_path("r.csv"), "csv");
    ck_assert_ptr_null(export_format_for_path("r.bin"));
    json_decref(rows);
}
END_TEST

/* Every format against a fixed run (tests/data/export/rows.json): byte
 * for byte the golden file; with EVMBENCH_UPDATE_GOLDEN set, the golden
 * files are written instead (review the diff before committing). */
START_TEST(export_golden_files)
{
    char *in = test_data_path("export/rows.json");
    json_error_t e;
    json_t *rows = json_load_file(in, 0, &e);
    ck_assert_msg(rows != NULL, "%s:%d: %s", in, e.line, e.text);
    static const struct { const char *format, *file; double fail_pct; } cases[] = {
        { "text", "export/golden.txt", 0 }, { "text", "export/golden-fail5.txt", 5 },
        { "csv", "export/golden.csv", 0 }, { "csv", "export/golden-fail5.csv", 5 },
        { "lava", "export/golden.lava", 0 },
        { "lava", "export/golden-fail5.lava", 5 }, { "junit", "export/golden.xml", 0 },
        { "junit", "export/golden-fail5.xml", 5 },
    };
    for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
        char *got = capture(cases[i].format, rows, cases[i].fail_pct);
        char *path = test_data_path(cases[i].file);
        if (getenv("EVMBENCH_UPDATE_GOLDEN")) {
            write_text(path, got);
        } else {
            size_t len;
            char *want = read_file(path, 1 << 20, &len);
            ck_assert_msg(want != NULL, "%s: missing", path);
            ck_assert_msg(strcmp(got, want) == 0, "%s differs:\n%s", path, got);
            free(want);
        }
        /* the XML is well formed as far as tags go: every open tag closed */
        if (strcmp(cases[i].format, "junit") == 0) {
            int depth = 0;
            for (const char *p = got; (p = strchr(p, '<')); p++) {
                if (p[1] == '?')
                    continue;
                const char *close = strchr(p, '>');
                ck_assert_ptr_nonnull(close);
                if (p[1] == '/')
                    depth--;
                else if (close[-1] != '/')
                    depth++;
                ck_assert_int_ge(depth, 0);
            }
            ck_assert_int_eq(depth, 0);
        }
        /* a reference placed by a guess is not shown as certain: the
         * importer's note is beside it (LAVA's signal carries none) */
        if (strcmp(cases[i].format, "lava") != 0)
            ck_assert_msg(strstr(got, "a guess: 3 of 4 value cells") != NULL,
                          "%s: stream triad's guessed reference not marked", cases[i].file);
        /* LAVA ids and units carry no space and no '=' */
        if (strcmp(cases[i].format, "lava") == 0)
            ck_assert_ptr_nonnull(strstr(got, "TEST_CASE_ID=openssl_performance.aes-128-cbc_16_B "
                                              "RESULT=pass UNITS=KBytes_Sec"));
        free(path);
        free(got);
    }
    json_decref(rows);
    free(in);
}
END_TEST

/* --- through the command line ---------------------------------------------- */

/* A run is saved as it goes; a baseline far above this machine fails
 * --fail-on-deviation with exit 1; results show/compare/export read it. */
START_TEST(cli_run_saves_and_judges)
{
    char *out, *err;
    char *refs = test_data_path("refs/good.json");
    int rc = test_cli(&out, &err, "run", "stream", "--quick", "--iterations", "2", "--board",
                 "am62xx_sk-fs", "--refs", refs, "--results-dir", dir, "--format", "lava",
                 "--save-baseline", "first", NULL);
    ck_assert_msg(rc == 0, "rc %d: %s", rc, err);
    ck_assert_ptr_nonnull(strstr(out, "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=stream.copy RESULT="));
    free(out);
    free(err);

    /* a baseline a thousand times faster than this machine's first run,
     * whatever its speed: every row worse */
    struct diag dg;
    diag_init(&dg);
    json_t *first = store_load_baseline(dir, "first", &dg);
    ck_assert_ptr_nonnull(first);
    diag_free(&dg);
    ck_assert_uint_eq(json_array_size(first), 4);
    json_t *rows = json_array();
    size_t fi;
    json_t *fr;
    json_array_foreach(first, fi, fr) {
        double v = json_number_value(json_object_get(fr, "value"));
        ck_assert(v > 0 && isfinite(v));
        json_array_append_new(rows, row("stream", json_string_value(json_object_get(fr, "metric")),
                                        "mb/s", 1000 * v));
    }
    json_decref(first);
    struct diag wd;
    diag_init(&wd);
    ck_assert_msg(store_save_baseline(dir, "fast", NULL, rows, false, &wd) == 0, "%s", diag_last(&wd));
    diag_free(&wd);
    json_decref(rows);
    rc = test_cli(&out, &err, "run", "stream", "--quick", "--iterations", "2", "--board",
             "am62xx_sk-fs", "--refs", refs, "--results-dir", dir, "--format", "json",
             "--baseline", "fast", "--fail-on-deviation", "50", NULL);
    json_t *j = json_loads(out, 0, NULL);
    ck_assert_ptr_nonnull(j);
    ck_assert(json_is_string(json_object_get(j, "run_id")));
    json_t *r0 = json_array_get(json_object_get(j, "results"), 0);
    ck_assert(json_object_get(r0, "change_pct") != NULL);
    ck_assert(json_number_value(json_object_get(r0, "change_pct")) < -99);
    /* slower, status 1; but when other processes had the worker's core
     * meanwhile (a busy machine) it cannot tell, says so, and exits 0 */
    json_t *other = json_object_get(r0, "other_cpu_pct");
    bool loaded = json_is_number(other) && json_number_value(other) >= DEVIATION_LOAD_PCT;
    ck_assert_msg(rc == (loaded ? 0 : 1), "rc %d (other processes %g%%): %s", rc,
                  json_number_value(other), err);
    ck_assert_str_eq(json_string_value(json_object_get(r0, "outcome")),
                     loaded ? "inconclusive" : "slower");
    json_decref(j);
    free(out);
    free(err);

    /* the same against its own first run: within 50 %, exit 0 */
    rc = test_cli(&out, &err, "results", "compare", "first", "latest", "--results-dir", dir,
             "--format", "json", NULL);
    ck_assert_msg(rc == 0, "rc %d: %s", rc, err);
    j = json_loads(out, 0, NULL);
    ck_assert_uint_eq(json_array_size(json_object_get(j, "metrics")), 4);
    json_decref(j);
    free(out);
    free(err);

    rc = test_cli(&out, &err, "results", "list", "--results-dir", dir, "--format", "json", NULL);
    ck_assert_int_eq(rc, 0);
    j = json_loads(out, 0, NULL);
    ck_assert_uint_eq(json_array_size(j), 2);
    ck_assert(json_is_true(json_object_get(json_array_get(j, 0), "complete")));
    json_decref(j);
    free(out);
    free(err);

    char *xml = path_join(dir, "r.xml");
    rc = test_cli(&out, &err, "results", "export", "latest", "--results-dir", dir, "-o", xml, NULL);
    ck_assert_int_eq(rc, 0);
    size_t len;
    char *text = read_file(xml, 1 << 20, &len);
    ck_assert_ptr_nonnull(text);
    ck_assert_ptr_nonnull(strstr(text, "<testsuite"));
    free(text);
    free(xml);
    free(out);
    free(err);

    rc = test_cli(&out, &err, "results", "show", "nosuch", "--results-dir", dir, NULL);
    ck_assert_int_eq(rc, 1);
    ck_assert_ptr_nonnull(strstr(err, "no run 'nosuch'"));
    free(out);
    free(err);
    rc = test_cli(&out, &err, "results", "prune", "--results-dir", dir, NULL);
    ck_assert_int_eq(rc, 2);
    free(out);
    free(err);
    free(refs);
}
END_TEST

/* Without a terminal: one line per finished metric on stderr (none with
 * --quiet); --lava-kmsg writes the LAVA lines to the given file, one write
 * each; JSON carries timestamps, settings and the system facts. */
START_TEST(cli_progress_lines_kmsg_and_json)
{
    char *out, *err;
    int rc = test_cli(&out, &err, "run", "lat_syscall", "--quick", "--iterations", "2",
                 "--no-save", "--format", "csv", NULL);
    ck_assert_msg(rc == 0, "rc %d: %s", rc, err);
    ck_assert_ptr_nonnull(strstr(err, "evmbench: lmbench lat_syscall-null = "));
    ck_assert(str_starts_with(out, "bench,metric,"));
    free(out);
    free(err);

    rc = test_cli(&out, &err, "run", "lat_syscall", "--quick", "--iterations", "2", "--no-save",
             "--format", "csv", "--quiet", NULL);
    ck_assert_int_eq(rc, 0);
    ck_assert_ptr_null(strstr(err, "lat_syscall-null = "));
    ck_assert_ptr_null(strstr(err, "finished in"));
    free(out);
    free(err);

    char *kmsg = path_join(dir, "kmsg");
    write_text(kmsg, "");
    char *opt = xasprintf("--lava-kmsg=%s", kmsg);
    rc = test_cli(&out, &err, "run", "lat_syscall", "--quick", "--iterations", "2", "--no-save",
             opt, NULL);
    ck_assert_msg(rc == 0, "rc %d: %s", rc, err);
    ck_assert_str_eq(out, "");
    size_t len;
    char *text = read_file(kmsg, 1 << 20, &len);
    ck_assert(str_starts_with(text, "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=lmbench.lat_syscall-null "
                                    "RESULT=pass UNITS=us MEASUREMENT="));
    free(text);
    free(out);
    free(err);
    free(opt);
    /* a kmsg that cannot be opened: said first, and the lines go to stdout */
    rc = test_cli(&out, &err, "run", "lat_syscall", "--quick", "--iterations", "2", "--no-save",
             "--lava-kmsg=/nonexistent/kmsg", NULL);
    ck_assert_int_eq(rc, 0);
    ck_assert_ptr_nonnull(strstr(err, "/nonexistent/kmsg: No such file"));
    ck_assert_ptr_nonnull(strstr(out, "<LAVA_SIGNAL_TESTCASE"));
    free(out);
    free(err);
    free(kmsg);

    rc = test_cli(&out, &err, "run", "lat_syscall", "--quick", "--iterations", "2", "--no-save",
             "--format", "json", NULL);
    ck_assert_int_eq(rc, 0);
    json_t *j = json_loads(out, 0, NULL);
    ck_assert_ptr_nonnull(j);
    ck_assert(json_is_string(json_object_get(j, "started")));
    ck_assert(json_is_string(json_object_get(j, "ended")));
    ck_assert(json_is_true(json_object_get(json_object_get(j, "settings"), "quick")));
    ck_assert(json_is_object(json_object_get(j, "sysinfo")));
    json_decref(j);
    free(out);
    free(err);
}
END_TEST

/* --- the check's verdict (run/check.h) ------------------------------------ */

/* One metric against a baseline or the guide, judged at pct: the outcome,
 * and the one move expected (or none). */
static const struct verdict_case {
    const char *what;
    const char *unit;
    double value;
    bool with_baseline;
    double baseline;            /* NAN: the baseline lacks the metric */
    double ref_avg, ref_min, ref_max;   /* NAN: not given */
    const char *status;
    double pct;
    enum check_outcome outcome;
    int move;                   /* 0 none, 1 worse, -1 better */
    double move_pct;
} verdict_cases[] = {
    /* the interval of identical runs (+-0.4 %) is wider than a tiny PCT */
    { "identical, tiny PCT", "mb/s", 2000, true, 2000, NAN, NAN, NAN, "ok", 0.001,
      CHECK_UNCLEAR, -1, 0 },
    { "identical, PCT 1", "mb/s", 2000, true, 2000, NAN, NAN, NAN, "ok", 1,
      CHECK_AS_FAST, 0, 0 },
    { "50% worse than baseline, PCT 20", "mb/s", 1000, true, 2000, 5000, NAN, NAN, "ok", 20,
      CHECK_SLOWER, 1, 50 },
    { "50% worse than baseline, PCT 80: small and real", "mb/s", 1000, true, 2000, NAN, NAN,
      NAN, "ok", 80, CHECK_AS_FAST, 1, 50 },
    { "guide number off, baseline level", "mb/s", 1000, true, 1000, 5000, NAN, NAN, "ok", 5,
      CHECK_AS_FAST, 0, 0 },
    { "50% worse than the guide, PCT 20", "mb/s", 1000, false, NAN, 2000, NAN, NAN, "ok", 20,
      CHECK_SLOWER, 1, 50 },
    { "50% worse than the guide, PCT 80", "mb/s", 1000, false, NAN, 2000, NAN, NAN, "ok", 80,
      CHECK_AS_FAST, 0, 0 },
    { "inside the guide's band", "microsec", 41, false, NAN, 40, 38, 42, "ok", 1,
      CHECK_AS_FAST, 0, 0 },
    { "a latency above the band", "microsec", 50.4, false, NAN, 40, 38, 42, "ok", 10,
      CHECK_SLOWER, 1, 20 },
    { "a latency below the band: better", "microsec", 28, false, NAN, 40, 38, 42, "ok", 10,
      CHECK_AS_FAST, -1, 26.315789 },
    { "30% better than baseline", "mb/s", 2600, true, 2000, NAN, NAN, NAN, "ok", 20,
      CHECK_AS_FAST, -1, 30 },
    { "did not run", "mb/s", NAN, true, 2000, NAN, NAN, NAN, "failed", 20,
      CHECK_INCOMPLETE, 0, 0 },
    { "baseline lacks it", "mb/s", 1000, true, NAN, 2000, NAN, NAN, "ok", 20,
      CHECK_NO_BASIS, 0, 0 },
    { "a clock has no better side", "mhz", 1000, false, NAN, 1400, NAN, NAN, "ok", 20,
      CHECK_NO_BASIS, 0, 0 },
};

START_TEST(check_verdict_rule)
{
    const struct verdict_case *c = &verdict_cases[_i];
    json_t *r = row("stream", "copy", c->unit, isnan(c->value) ? 0 : c->value);
    if (isnan(c->value))
        json_object_set_new(r, "value", json_null());
    json_object_set_new(r, "status", json_string(c->status));
    if (!isnan(c->ref_avg))
        json_object_set_new(r, "ref_avg", json_real(c->ref_avg));
    if (!isnan(c->ref_min))
        json_object_set_new(r, "ref_min", json_real(c->ref_min));
    if (!isnan(c->ref_max))
        json_object_set_new(r, "ref_max", json_real(c->ref_max));
    json_t *rows = json_array();
    json_array_append_new(rows, r);
    if (c->with_baseline) {
        json_t *base = json_array();
        if (!isnan(c->baseline))
            json_array_append_new(base, row("stream", "copy", c->unit, c->baseline));
        export_add_baseline(rows, base, c->pct);
        json_decref(base);
    }
    struct check_verdict v;
    check_judge(&v, rows, c->with_baseline ? "before" : NULL, c->pct);
    ck_assert_msg(v.outcome == c->outcome, "%s: outcome %d, want %d", c->what, v.outcome,
                  c->outcome);
    ck_assert_msg(v.nmoves == (c->move ? 1u : 0u), "%s: %zu moves", c->what, v.nmoves);
    if (c->move) {
        ck_assert_msg(v.moves[0].worse == (c->move > 0), "%s: direction", c->what);
        ck_assert_msg(fabs(v.moves[0].pct - c->move_pct) < 1e-4, "%s: %g%%, want %g%%",
                      c->what, v.moves[0].pct, c->move_pct);
    }
    /* worse is what fails: the verdict and the FAIL marks agree */
    char why[160];
    bool fails = strcmp(c->status, "ok") == 0 && export_row_failure(r, c->pct, why, sizeof why);
    ck_assert_msg(fails == (v.worse == 1), "%s: export_row_failure %d, verdict worse %zu",
                  c->what, fails, v.worse);
    check_free(&v);
    json_decref(rows);
}
END_TEST

/* The verdict in words: the outcome, how many were compared, each move
 * with how far, from what, which way; the system given; worse first. */
START_TEST(check_verdict_words)
{
    json_t *rows = json_array();
    json_array_append_new(rows, row("stream", "copy", "mb/s", 1250));
    json_array_append_new(rows, row("stream", "triad", "mb/s", 1600));
    json_array_append_new(rows, row("lmbench", "lat", "microsec", 43));
    json_array_append_new(rows, row("lmbench", "new", "microsec", 43));
    json_t *base = json_array();
    json_array_append_new(base, row("stream", "copy", "mb/s", 1500));
    json_array_append_new(base, row("stream", "triad", "mb/s", 1400));
    json_array_append_new(base, row("lmbench", "lat", "microsec", 40));
    export_add_baseline(rows, base, 10);
    struct check_verdict v;
    check_judge(&v, rows, "before-ddr", 10);
    struct strbuf sb;
    sb_init(&sb);
    check_paragraph(&v, "--fail-on-deviation", "DDR 1600 -> 1333 MT/s (clk_summary)", &sb);
    ck_assert_str_eq(sb.buf,
        "Verdict: SLOWER THAN BEFORE: 1 of 3 metrics compared with baseline before-ddr is "
        "slower by more than 10% (the whole 95% interval beyond it). 1 changed by less than "
        "10%: a small, real change. 1 is faster. 1 without a value in the baseline or without "
        "a better direction was not judged.\n"
        "  stream copy: -16.7% (-16.9 .. -16.4) at 1250 MB/s, was 1500; 10 runs against 10: "
        "slower\n"
        "  lmbench lat: +7.5% (+7.2 .. +7.8) at 43 us, was 40; 10 runs against 10: a small, "
        "real change, within 10%\n"
        "  stream triad: +14.3% (+14.0 .. +14.6) at 1600 MB/s, was 1400; 10 runs against 10: "
        "faster\n"
        "Tolerance: 10% (--fail-on-deviation); compared with baseline before-ddr.\n"
        "System: DDR 1600 -> 1333 MT/s (clk_summary)\n");
    sb_free(&sb);
    check_free(&v);
    json_decref(base);

    /* without a baseline: the guide, its band's edge named */
    json_decref(rows);
    rows = json_array();
    json_t *r = row("stream", "triad", "mb/s", 1160);
    json_object_set_new(r, "ref_avg", json_real(1400));
    json_object_set_new(r, "ref_min", json_real(1300));
    json_object_set_new(r, "ref_max", json_real(1500));
    json_array_append_new(rows, r);
    check_judge(&v, rows, NULL, 10);
    ck_assert_str_eq(check_outcome_words(&v), "SLOWER THAN THE GUIDE");
    sb_init(&sb);
    check_move_text(&v.moves[0], &sb);
    ck_assert_str_eq(sb.buf, "stream triad: 10.8% worse than the guide (1160 MB/s, its band "
                             "from 1300)");
    sb_free(&sb);
    check_free(&v);
    json_decref(rows);
}
END_TEST

Suite *suite_store(void)
{
    Suite *s = suite_create("store");
    TCase *tc = tcase_create("store");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, run_round_trip);
    tcase_add_test(tc, interrupted_run_keeps_what_finished);
    tcase_add_test(tc, foreign_files_skipped_and_kept);
    tcase_add_test(tc, store_that_cannot_be_written);
    tcase_add_test(tc, baselines);
    tcase_add_test(tc, baseline_never_lost);
    tcase_add_test(tc, non_regular_files_skipped);
    tcase_add_test(tc, row_strings_not_utf8_kept);
    tcase_add_test(tc, export_formats);
    tcase_add_test(tc, export_golden_files);
    tcase_add_test(tc, cli_run_saves_and_judges);
    tcase_add_test(tc, cli_progress_lines_kmsg_and_json);
    tcase_add_loop_test(tc, check_verdict_rule, 0, (int)ARRAY_SIZE(verdict_cases));
    tcase_add_test(tc, check_verdict_words);
    suite_add_tcase(s, tc);
    return s;
}
