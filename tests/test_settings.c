/* test_settings.c - the settings file, profile files and the session's
 * results table (sort, filter), on fixed inputs. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/diag.h"
#include "common/outfile.h"
#include "data/profile.h"
#include "run/session.h"
#include "data/settings.h"
#include "store/store.h"
#include "suites.h"
#include "test_helpers.h"
#include "common/util.h"

START_TEST(parses_settings)
{
    struct settings s;
    struct diag dg;
    settings_init(&s);
    diag_init(&dg);
    int bad = settings_parse(&s,
        "# comment\n"
        "theme = ti\n"
        "budget = full\n"
        "tolerance= 15\n"
        "colour = blue\n"
        "updates = 0.5\n"
        "provider = kernel\n"
        "tolerance = -3\n"
        "no equals here\n", "cfg", &dg);
    ck_assert_int_eq(bad, 3);
    ck_assert_uint_eq(dg.n, 3);
    ck_assert_str_eq(dg.msgs[0], "cfg:5: unknown setting ('colour')");
    ck_assert_str_eq(dg.msgs[1], "cfg:8: tolerance is a percentage from 0.1 to 1000 "
                                 "('tolerance')");
    ck_assert_str_eq(dg.msgs[2], "cfg:9: expected 'key = value'");
    /* the good lines still apply; the bad tolerance left the good one */
    ck_assert_str_eq(s.theme, "ti");
    ck_assert(s.has_budget && !s.quick);
    ck_assert(s.has_tolerance);
    ck_assert_double_eq(s.tolerance_pct, 15);
    ck_assert(s.has_updates);
    ck_assert_double_eq(s.updates_per_s, 0.5);
    ck_assert(s.has_provider && s.provider == PROVIDER_KERNEL);
    diag_free(&dg);
}
END_TEST

START_TEST(settings_save_load)
{
    char dir[] = "/tmp/evmbench-settings.XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char *path = xasprintf("%s/a/b/config", dir);
    struct settings s, t;
    struct diag dg;
    settings_init(&s);
    diag_init(&dg);
    /* a missing file is no error */
    ck_assert_int_eq(settings_load(&s, path, &dg), 0);
    ck_assert_uint_eq(dg.n, 0);
    snprintf(s.theme, sizeof s.theme, "high-contrast");
    s.has_budget = s.quick = true;
    s.has_updates = true;
    s.updates_per_s = 2;
    ck_assert_int_eq(settings_save(&s, path), 0);
    settings_init(&t);
    ck_assert_int_eq(settings_load(&t, path, &dg), 0);
    ck_assert_str_eq(t.theme, "high-contrast");
    ck_assert(t.has_budget && t.quick);
    ck_assert(!t.has_tolerance && !t.has_provider);
    ck_assert_double_eq(t.updates_per_s, 2);
    /* XDG_CONFIG_HOME places it */
    setenv("XDG_CONFIG_HOME", dir, 1);
    char *def = settings_default_path();
    char *want = xasprintf("%s/evmbench/config", dir);
    ck_assert_str_eq(def, want);
    free(def);
    free(want);
    unsetenv("XDG_CONFIG_HOME");
    remove(path);
    char *p = xasprintf("%s/a/b", dir);
    rmdir(p);
    free(p);
    p = xasprintf("%s/a", dir);
    rmdir(p);
    free(p);
    rmdir(dir);
    free(path);
    diag_free(&dg);
}
END_TEST

/* Saving keeps what the user wrote: comments, blank lines, unknown keys
 * and bad lines stay; a setting's line is rewritten where it is; one not
 * in the file is added at the end; a cleared run target is "key =". */
START_TEST(settings_save_keeps_the_users_lines)
{
    char *dir = test_tmpdir("settings-keep");
    char *path = xasprintf("%s/config", dir);
    const char *before =
        "# my lab's EVM: keep the peer on the bench switch\n"
        "\n"
        "theme = ti   \n"
        "colour = blue\n"
        "tolerance = -3\n"
        "  # indented comment\n"
        "peer = 10.0.0.2\n"
        "no equals here\n"
        "theme = mono\n"
        "storage_dir = /mnt/sd";      /* no final newline */
    ck_assert_int_eq(outfile_write(path, before, strlen(before), NULL), 0);
    struct settings s;
    struct diag dg;
    settings_init(&s);
    diag_init(&dg);
    ck_assert_int_eq(settings_load(&s, path, &dg), 3);
    ck_assert_str_eq(s.theme, "mono");
    ck_assert_str_eq(s.peer, "10.0.0.2");
    ck_assert_str_eq(s.storage_dir, "/mnt/sd");
    /* the screen changes the theme and the budget, clears the peer and
     * sets the audio device */
    snprintf(s.theme, sizeof s.theme, "high-contrast");
    s.has_budget = s.quick = true;
    s.peer[0] = '\0';
    snprintf(s.audio_device, sizeof s.audio_device, "hw:0,0");
    ck_assert_int_eq(settings_save(&s, path), 0);
    char *after = read_file(path, 0, NULL);
    ck_assert_str_eq(after,
        "# my lab's EVM: keep the peer on the bench switch\n"
        "\n"
        "theme = high-contrast\n"
        "colour = blue\n"
        "tolerance = -3\n"
        "  # indented comment\n"
        "peer =\n"
        "no equals here\n"
        "theme = high-contrast\n"
        "storage_dir = /mnt/sd\n"
        "budget = quick\n"
        "audio_device = hw:0,0\n");
    free(after);
    /* it loads back as saved: the same three bad lines, the peer unset */
    struct settings t;
    settings_init(&t);
    diag_free(&dg);
    diag_init(&dg);
    ck_assert_int_eq(settings_load(&t, path, &dg), 3);
    ck_assert_str_eq(t.theme, "high-contrast");
    ck_assert_str_eq(t.peer, "");
    ck_assert_str_eq(t.audio_device, "hw:0,0");
    ck_assert(t.has_budget && t.quick);
    /* a file it cannot read as text is not replaced */
    char big[70000];
    memset(big, '#', sizeof big);
    ck_assert_int_eq(outfile_write(path, big, sizeof big, NULL), 0);
    errno = 0;
    ck_assert_int_eq(settings_save(&s, path), -1);
    ck_assert_int_eq(errno, EFBIG);
    size_t len = 0;
    free(read_file(path, 0, &len));
    ck_assert_uint_eq(len, sizeof big);
    ck_assert_int_eq(outfile_write(path, "theme = ti\n\0junk", 17, NULL), 0);
    ck_assert_int_eq(settings_save(&s, path), -1);
    free(read_file(path, 0, &len));
    ck_assert_uint_eq(len, 17);
    diag_free(&dg);
    free(path);
    test_rmtree(dir);
    free(dir);
}
END_TEST

START_TEST(parses_profiles)
{
    struct profile p;
    struct diag dg;
    memset(&p, 0, sizeof p);
    diag_init(&dg);
    int bad = profile_parse(&p,
        "# the demo\n"
        "description A quick look   # trailing comment\n"
        "budget full\n"
        "bench stream\n"
        "\n"
        "bench\n"
        "benchh dhrystone\n"
        "bench lat_syscall lat_syscall-null  lat_syscall-read\n", "q.profile", &dg);
    ck_assert_int_eq(bad, 2);
    ck_assert_str_eq(dg.msgs[0], "q.profile:6: bench takes a benchmark name and, if only "
                                 "some rows, their metric ids");
    ck_assert_str_eq(dg.msgs[1], "q.profile:7: unknown keyword (bench, budget or "
                                 "description)");
    ck_assert_str_eq(p.description, "A quick look");
    ck_assert(!p.quick);
    ck_assert_uint_eq(p.n, 2);
    ck_assert_str_eq(p.benches[0].name, "stream");
    ck_assert_int_eq(p.benches[0].line, 4);
    ck_assert(profile_bench_keeps(&p.benches[0], "copy"));
    ck_assert_str_eq(p.benches[1].name, "lat_syscall");
    ck_assert_int_eq(p.benches[1].line, 8);
    ck_assert_uint_eq(p.benches[1].nmetrics, 2);
    ck_assert(profile_bench_keeps(&p.benches[1], "lat_syscall-read"));
    ck_assert(!profile_bench_keeps(&p.benches[1], "lat_syscall-open"));
    profile_free(&p);
    diag_free(&dg);
}
END_TEST

/* The shipped quick profile parses and names benchmarks. */
START_TEST(profile_shipped)
{
    struct profile p;
    struct diag dg;
    char *path = test_data_path("../../benches/profiles/quick.profile");
    diag_init(&dg);
    ck_assert_int_eq(profile_load(&p, path, &dg), 0);
    ck_assert_str_eq(p.name, "quick");
    ck_assert(p.quick);
    ck_assert_uint_ge(p.n, 3);
    ck_assert_str_eq(p.benches[0].name, "stream");
    profile_free(&p);
    ck_assert_int_eq(profile_load(&p, "/nonexistent/x.profile", &dg), 1);
    ck_assert(str_starts_with(dg.msgs[0], "/nonexistent/x.profile: cannot read: "));
    profile_free(&p);
    diag_free(&dg);
    free(path);
}
END_TEST

/* A row by hand: verdict v, deviation pct (better when pct > 0). */
static struct session_row row(size_t seq, const char *bench, const char *metric,
                              enum verdict v, double pct, enum status st,
                              const char *provider)
{
    struct session_row r;
    memset(&r, 0, sizeof r);
    r.seq = seq;
    r.row.bench = bench;
    r.row.metric = metric;
    r.row.status = st;
    snprintf(r.row.provider, sizeof r.row.provider, "%s", provider);
    r.row.dev = (struct deviation){ .has_ref = v != VERDICT_NONE, .pct = pct,
                                    .better = pct > 0, .verdict = v };
    return r;
}

static void order(const struct session_row *rs, size_t n, const size_t *want)
{
    for (size_t i = 0; i < n; i++)
        ck_assert_msg(rs[i].seq == want[i], "row %zu: seq %zu, want %zu", i, rs[i].seq,
                      want[i]);
}

START_TEST(sorts_sessions)
{
    struct session_row rs[] = {
        row(1, "stream", "copy", VERDICT_IN_RANGE, 2, STATUS_OK, "kernel:stream"),
        row(2, "stream", "add", VERDICT_OFF, -30, STATUS_OK, "kernel:stream"),
        row(3, "dhrystone", "dmips", VERDICT_WARN, -12, STATUS_OK, "tool:dhrystone"),
        row(4, "lmbench", "lat", VERDICT_NONE, 0, STATUS_OK, "kernel:lat"),
        row(5, "lmbench", "bw", VERDICT_OFF, 40, STATUS_OK, "kernel:bw"),
        row(6, "lmbench", "fs", VERDICT_NONE, NAN, STATUS_TIMEOUT, "kernel:fs"),
    };
    size_t n = ARRAY_SIZE(rs);
    session_sort(rs, n, SESSION_SORT_NAME);
    order(rs, n, (const size_t[]){ 3, 5, 6, 4, 2, 1 });
    session_sort(rs, n, SESSION_SORT_STATUS);
    order(rs, n, (const size_t[]){ 6, 2, 5, 3, 1, 4 });
    /* failures first, then the worst deviation: -30 % worse, -12 % worse,
     * +2 % better, +40 % better, no reference last */
    session_sort(rs, n, SESSION_SORT_DEVIATION);
    order(rs, n, (const size_t[]){ 6, 2, 3, 1, 5, 4 });
    session_sort(rs, n, SESSION_SORT_PROVIDER);
    order(rs, n, (const size_t[]){ 5, 6, 4, 1, 2, 3 });
    session_sort(rs, n, SESSION_SORT_ORDER);
    order(rs, n, (const size_t[]){ 1, 2, 3, 4, 5, 6 });
    ck_assert_str_eq(session_sort_name(SESSION_SORT_DEVIATION), "deviation");
    /* the warn/off filter */
    ck_assert(!session_row_problem(&rs[0].row));
    ck_assert(session_row_problem(&rs[1].row));
    ck_assert(session_row_problem(&rs[2].row));
    ck_assert(!session_row_problem(&rs[3].row));
    ck_assert(session_row_problem(&rs[5].row));
}
END_TEST

/* An empty session has no rows and frees cleanly. */
START_TEST(session_empty)
{
    struct session s;
    struct session_row *rs;
    struct compare cmp = { 0 };
    session_init(&s);
    session_keep(&s, NULL);
    ck_assert_uint_eq(session_rows(&s, NULL, &cmp, false, &rs), 0);
    ck_assert_ptr_nonnull(rs);
    free(rs);
    session_free(&s);
}
END_TEST

static struct result_row measured(const char *bench, const char *metric,
                                  const char *unit, double value)
{
    struct result_row r;
    memset(&r, 0, sizeof r);
    r.bench = bench;
    r.metric = metric;
    r.unit = unit;
    r.samples = 3;
    r.value = value;
    return r;
}

START_TEST(changes_the_session_baseline)
{
    json_t *base = json_pack("[{ss ss sf} {ss ss sf} {ss ss sf} {ss ss}]",
                             "bench", "stream", "metric", "copy", "value", 2000.0,
                             "bench", "lmbench", "metric", "lat", "value", 4.0,
                             "bench", "x", "metric", "zero", "value", 0.0,
                             "bench", "x", "metric", "novalue");
    double then, pct;
    bool better, neutral;
    /* higher is better: 1900 against 2000 is 5 % worse */
    struct result_row r = measured("stream", "copy", "mb/s", 1900);
    ck_assert(session_baseline_change(base, &r, &then, &pct, &better, &neutral));
    ck_assert_double_eq_tol(then, 2000, 1e-9);
    ck_assert_double_eq_tol(pct, -5.0, 1e-9);
    ck_assert(!better && !neutral);
    /* lower is better: 3 us against 4 us is 25 % better */
    r = measured("lmbench", "lat", "us", 3);
    ck_assert(session_baseline_change(base, &r, &then, &pct, &better, &neutral));
    ck_assert_double_eq_tol(pct, -25.0, 1e-9);
    ck_assert(better && !neutral);
    /* no such metric, a zero or missing value, nothing measured: none */
    r = measured("stream", "triad", "mb/s", 1);
    ck_assert(!session_baseline_change(base, &r, &then, &pct, &better, &neutral));
    r = measured("x", "zero", "mb/s", 1);
    ck_assert(!session_baseline_change(base, &r, &then, &pct, &better, &neutral));
    r = measured("x", "novalue", "mb/s", 1);
    ck_assert(!session_baseline_change(base, &r, &then, &pct, &better, &neutral));
    r = measured("stream", "copy", "mb/s", 1);
    r.samples = 0;
    ck_assert(!session_baseline_change(base, &r, &then, &pct, &better, &neutral));
    ck_assert(!session_baseline_change(NULL, &r, &then, &pct, &better, &neutral));
    json_decref(base);
}
END_TEST

START_TEST(lists_the_baseline_choices)
{
    char dir[] = "/tmp/evmbench-baselines.XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    struct diag d;
    diag_init(&d);
    struct diag dg;
    diag_init(&dg);
    /* a run, two baselines saved from the session's rows */
    json_t *h = json_pack("{ss}", "mode", "tui");
    struct store_writer *w = store_begin(dir, "board", h, &d);
    json_decref(h);
    ck_assert_msg(w != NULL, "%s", diag_last(&d));
    struct session_row rows[2];
    memset(rows, 0, sizeof rows);
    rows[0].row = measured("stream", "copy", "mb/s", 1800);
    rows[1].row = measured("stream", "add", "mb/s", 1500);
    json_t *j = session_rows_json(rows, 2);
    ck_assert_uint_eq(json_array_size(j), 2);
    ck_assert_double_eq_tol(json_number_value(json_object_get(json_array_get(j, 1), "value")),
                            1500, 1e-9);
    ck_assert_int_eq(store_append(w, json_array_get(j, 0), &d), 0);
    char *id = xstrdup(store_writer_id(w));
    ck_assert_int_eq(store_finish(w, true, &d), 0);
    ck_assert_int_eq(store_save_baseline(dir, "zeta", NULL, j, false, &d), 0);
    ck_assert_int_eq(store_save_baseline(dir, "before", id, j, false, &d), 0);
    json_decref(j);
    /* a broken baseline file is a diagnostic, not a choice */
    char *bad = xasprintf("%s/baselines/broken.json", dir);
    FILE *f = fopen(bad, "w");
    ck_assert_ptr_nonnull(f);
    fputs("{ not json", f);
    fclose(f);

    struct baseline_choice *c;
    size_t n = store_baseline_choices(dir, &c, &dg);
    ck_assert_uint_eq(n, 3);
    ck_assert_str_eq(c[0].name, "before");
    ck_assert(!c[0].is_run);
    ck_assert_uint_eq(c[0].rows, 2);
    ck_assert_str_eq(c[1].name, "zeta");
    ck_assert_str_eq(c[2].name, id);
    ck_assert(c[2].is_run && c[2].complete);
    ck_assert_uint_eq(c[2].rows, 1);
    ck_assert_uint_ge(dg.n, 1);
    store_baseline_choices_free(c, n);
    diag_free(&dg);
    unlink(bad);
    free(bad);
    free(id);
    test_rmtree(dir);
    diag_free(&d);
}
END_TEST

Suite *suite_settings(void)
{
    Suite *s = suite_create("settings");
    TCase *tc = tcase_create("files");
    tcase_add_test(tc, parses_settings);
    tcase_add_test(tc, settings_save_load);
    tcase_add_test(tc, settings_save_keeps_the_users_lines);
    tcase_add_test(tc, parses_profiles);
    tcase_add_test(tc, profile_shipped);
    suite_add_tcase(s, tc);
    tc = tcase_create("session");
    tcase_add_test(tc, sorts_sessions);
    tcase_add_test(tc, session_empty);
    tcase_add_test(tc, changes_the_session_baseline);
    tcase_add_test(tc, lists_the_baseline_choices);
    suite_add_tcase(s, tc);
    return s;
}
