/* test_engine.c - the one engine (src/engine/engine.c) without a front end:
 * each row of a run that ended made once and filed into the store before
 * the front end sees it, --no-save keeping runs out but baselines in, the
 * comparison with a baseline, a failure counted, a store that cannot be
 * written said once, and the exit status run and --check share. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/cause.h"
#include "engine/engine.h"
#include "board/sysstate.h"
#include "run/export.h"
#include "run/repeat.h"
#include "run/result.h"
#include "store/store.h"
#include "suites.h"
#include "common/util.h"

/* --- kernels built by hand ---------------------------------------------------- */

static const struct kernel_metric metrics[] = {
    { .id = "alpha", .unit = "mb/s", .summary = SUMMARY_MAX },
    { .id = "beta", .unit = "us", .summary = SUMMARY_MEDIAN },
};

static double scale = 1.0;      /* what the next run of k_two measures: x scale */

static int run_two(const struct kernel_params *p, struct report *r)
{
    (void)p;
    for (int i = 1; i <= 3; i++) {
        report_sample(r, "alpha", 100.0 * i * scale);
        report_sample(r, "beta", (10.0 + i) / scale);
    }
    return 0;
}

static int run_broken(const struct kernel_params *p, struct report *r)
{
    (void)p;
    report_fail(r, "alpha", "the device is gone");
    return -1;
}

/* 100 samples of alpha (1 ... 100), 3 of beta. */
static int run_many(const struct kernel_params *p, struct report *r)
{
    (void)p;
    for (int i = 1; i <= 100; i++)
        report_sample(r, "alpha", i);
    for (int i = 1; i <= 3; i++)
        report_sample(r, "beta", 10.0 * i);
    return 0;
}

/* Fails its first run (the flag file does not exist yet: it makes it),
 * measures from the second on: lat_ctx under load, "the difference is
 * noise". */
static char flaky_flag[512];

static int run_flaky(const struct kernel_params *p, struct report *r)
{
    (void)p;
    if (access(flaky_flag, F_OK) != 0) {
        FILE *f = fopen(flaky_flag, "w");
        if (f)
            fclose(f);
        report_fail(r, "alpha", "the difference is noise");
        return -1;
    }
    report_sample(r, "alpha", 100.0);
    return 0;
}

static const struct kernel k_flaky = {
    .name = "flaky", .section = "flaky", .metrics = metrics, .nmetrics = 1,
    .budget_quick_s = 1, .budget_full_s = 1, .run = run_flaky,
};

static const struct kernel k_two = {
    .name = "two", .section = "two", .metrics = metrics, .nmetrics = 2,
    .budget_quick_s = 1, .budget_full_s = 1, .run = run_two,
};
static const struct kernel k_many = {
    .name = "many", .section = "many", .metrics = metrics, .nmetrics = 2,
    .budget_quick_s = 1, .budget_full_s = 1, .run = run_many,
};
static const struct kernel k_broken = {
    .name = "broken", .section = "broken", .metrics = metrics, .nmetrics = 1,
    .budget_quick_s = 1, .budget_full_s = 1, .run = run_broken,
};

/* --- the front end: what the engine handed over ---------------------------------- */

struct front {
    size_t batches_of_rows;     /* on_rows calls */
    size_t rows, done;
    json_t *seen;               /* copies of every row JSON handed over */
    size_t stored_when_seen;    /* rows in the run file at the first on_rows */
    size_t nsaid;
    char said[4][512];
};

static char *dir;
static struct app app;
static struct front front;
static struct engine eng;

static size_t rows_in_store(void);

static void front_rows(void *ctx, const struct run *run, const struct engine_row *rows,
                       size_t n)
{
    struct front *f = ctx;
    (void)run;
    if (!f->batches_of_rows++)
        f->stored_when_seen = rows_in_store();
    f->rows += n;
    for (size_t i = 0; i < n; i++)
        json_array_append_new(f->seen, json_deep_copy(rows[i].json));
}

static void front_done(void *ctx, const struct run *run)
{
    (void)run;
    ((struct front *)ctx)->done++;
}

static void front_say(void *ctx, enum engine_level level, const char *text)
{
    struct front *f = ctx;
    (void)level;
    if (f->nsaid < 4)
        snprintf(f->said[f->nsaid++], sizeof f->said[0], "%s", text);
}

static const struct sink live = { .on_done = front_done };
static const struct engine_hooks hooks = { .live = &live, .on_rows = front_rows,
                                           .say = front_say };

/* All rows of all run files of the store. */
static size_t rows_in_store(void)
{
    struct stored_run *runs;
    struct diag d;
    diag_init(&d);
    size_t n = store_list(dir, &runs, &d), rows = 0;
    for (size_t i = 0; i < n; i++)
        rows += json_array_size(runs[i].rows);
    store_runs_free(runs, n);
    diag_free(&d);
    return rows;
}

static size_t runs_in_store(void)
{
    struct stored_run *runs;
    struct diag d;
    diag_init(&d);
    size_t n = store_list(dir, &runs, &d);
    store_runs_free(runs, n);
    diag_free(&d);
    return n;
}

static bool repeat;              /* the next start() repeats cheap kernels */

static void start(const char *store, bool save)
{
    memset(&front, 0, sizeof front);
    front.seen = json_array();
    engine_init(&eng, &(struct engine_config){ .app = &app, .store_dir = store, .save = save,
                                               .hooks = &hooks, .ctx = &front,
                                               .repeat = repeat });
}

static void stop(void)
{
    engine_finish(&eng, true, NULL);
    engine_free(&eng);
    json_decref(front.seen);
    front.seen = NULL;
}

/* Runs kernel k to its end through the engine. */
static void run_kernel(const struct kernel *k)
{
    const struct kernel *ks[] = { k };
    engine_start(&eng, ks, NULL, 1, NULL, 0, &app.run_opts);
    engine_wait(&eng);
}

static void setup(void)
{
    char tmpl[] = "/tmp/evmbench-engine-test-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(tmpl));
    dir = xstrdup(tmpl);
    memset(&app, 0, sizeof app);
    /* the load is read below the store's folder, which has no proc/stat:
     * unknown, so no verdict here depends on what else this machine runs */
    app.run_opts = (struct run_options){ .params = { .quick = true }, .timeout_s = 30,
                                         .cpu = -1, .sysroot = dir };
    app.board.name = (char *)"test-board";
    app.cmp.tolerance_pct = 10;
    app.tolerance_pct = 10;
    scale = 1.0;
    repeat = false;
    snprintf(flaky_flag, sizeof flaky_flag, "%s/flaky-ran", dir);
}

static void teardown(void)
{
    char *cmd = xasprintf("rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
    free(cmd);
    free(dir);
}

/* --- tests --------------------------------------------------------------------------- */

/* Each metric's row is made once, in the store before the front end sees
 * it, and the front end gets every row, then on_done. */
START_TEST(rows_filed_before_they_are_shown)
{
    start(dir, true);
    run_kernel(&k_two);
    ck_assert_uint_eq(front.batches_of_rows, 1);
    ck_assert_uint_eq(front.rows, 2);
    ck_assert_uint_eq(front.done, 1);
    ck_assert_uint_eq(front.stored_when_seen, 2);
    ck_assert_ptr_nonnull(engine_run_id(&eng));
    ck_assert(!engine_failed(&eng));
    json_t *alpha = json_array_get(front.seen, 0);
    ck_assert_str_eq(json_string_value(json_object_get(alpha, "metric")), "alpha");
    ck_assert_double_eq(json_real_value(json_object_get(alpha, "value")), 300.0);
    ck_assert_ptr_null(json_object_get(alpha, "baseline_value"));
    stop();
    ck_assert_uint_eq(runs_in_store(), 1);
    ck_assert_uint_eq(rows_in_store(), 2);
}
END_TEST

/* Repeats: without a baseline (one to be saved) a cheap kernel runs as
 * often as a row keeps (or its time allows: 3 s, far more than 64 runs of
 * this one need), each run's value kept; the front end sees one kernel:
 * one on_done, one set of rows. */
START_TEST(repeats_until_enough)
{
    repeat = true;
    start(dir, true);
    run_kernel(&k_two);
    ck_assert_uint_eq(front.done, 1);
    ck_assert_uint_eq(front.batches_of_rows, 1);
    json_t *alpha = json_array_get(front.seen, 0);
    json_int_t runs = json_integer_value(json_object_get(alpha, "runs"));
    ck_assert_msg(runs >= REPEAT_MIN_SAMPLES && runs <= REPEAT_MAX_SAMPLES, "%d runs", (int)runs);
    ck_assert_int_eq(json_integer_value(json_object_get(alpha, "samples")), 3 * runs);
    ck_assert_uint_eq(json_array_size(json_object_get(alpha, "run_values")), (size_t)runs);
    ck_assert_double_eq(json_number_value(json_array_get(json_object_get(alpha, "run_values"),
                                                         0)), 300.0);
    ck_assert(!engine_failed(&eng));
    stop();
    /* without repeats: once */
    repeat = false;
    start(dir, true);
    run_kernel(&k_two);
    alpha = json_array_get(front.seen, 0);
    ck_assert_int_eq(json_integer_value(json_object_get(alpha, "runs")), 1);
    stop();
}
END_TEST

/* With repeats, a first run that failed runs again from the start, once:
 * the second one's rows are filed, with a note; without, it fails. */
START_TEST(first_failure_tried_again)
{
    repeat = false;
    start(dir, true);
    run_kernel(&k_flaky);
    ck_assert(engine_failed(&eng));
    stop();
    unlink(flaky_flag);
    repeat = true;
    start(dir, true);
    run_kernel(&k_flaky);
    ck_assert_uint_eq(front.done, 1);
    ck_assert_uint_eq(front.batches_of_rows, 1);
    json_t *alpha = json_array_get(front.seen, 0);
    ck_assert_str_eq(json_string_value(json_object_get(alpha, "status")), "ok");
    ck_assert(!engine_failed(&eng));
    const struct run *r = batch_run(engine_batch(&eng));
    ck_assert(r->nnotes >= 1);
    ck_assert_msg(strstr(r->notes[0], "flaky's first run failed (alpha: the difference is "
                                      "noise): it runs again from the start") != NULL, "%s",
                  r->notes[0]);
    stop();
}
END_TEST

/* --no-save: no run file, but baselines are read from the store and saved
 * to it, and the rows are compared with the baseline. */
START_TEST(no_save_keeps_baselines)
{
    repeat = true;                      /* a comparison needs runs a side */
    start(dir, true);
    run_kernel(&k_two);
    struct diag d;
    diag_init(&d);
    ck_assert_msg(engine_save_baseline(&eng, "before", front.seen, false, &d), "%s",
                  diag_last(&d));
    stop();
    size_t rows = 0;
    start(dir, false);
    ck_assert(engine_baseline_exists(&eng, "before", &rows));
    ck_assert_uint_eq(rows, 2);
    ck_assert_msg(engine_set_baseline(&eng, "before", &d), "%s", diag_last(&d));
    scale = 0.5;                        /* half as fast */
    run_kernel(&k_two);
    ck_assert_ptr_null(engine_run_id(&eng));
    json_t *alpha = json_array_get(front.seen, 0);
    ck_assert_double_eq(json_real_value(json_object_get(alpha, "baseline_value")), 300.0);
    /* judged against the baseline at 10 %: both metrics worse */
    struct check_verdict v;
    engine_judge(&eng, front.seen, 10, &v);
    ck_assert_int_eq(v.outcome, CHECK_SLOWER);
    ck_assert_str_eq(v.against, "before");
    ck_assert_uint_eq(v.worse, 2);
    struct engine_outcome o = { .fail_on_deviation = true, .verdict = &v };
    ck_assert_int_eq(engine_exit_status(&o), 1);
    check_free(&v);
    /* replacing needs asking */
    ck_assert(!engine_save_baseline(&eng, "before", front.seen, false, &d));
    ck_assert(engine_save_baseline(&eng, "before", front.seen, true, &d));
    stop();
    diag_free(&d);
    ck_assert_uint_eq(runs_in_store(), 1);      /* the first run's only */
}
END_TEST

/* Without a store: nothing saved, baselines refused with the reason. */
START_TEST(without_a_store)
{
    start(NULL, true);
    run_kernel(&k_two);
    ck_assert_uint_eq(front.rows, 2);
    struct diag d;
    diag_init(&d);
    ck_assert(!engine_set_baseline(&eng, "before", &d));
    ck_assert_ptr_nonnull(strstr(diag_last(&d), "no results store"));
    ck_assert(!engine_save_baseline(&eng, "before", front.seen, false, &d));
    diag_free(&d);
    ck_assert_ptr_null(engine_run_id(&eng));
    stop();
}
END_TEST

/* A kernel that fails: its row is filed as failed and the run fails. */
START_TEST(a_failure_fails_the_run)
{
    start(dir, true);
    run_kernel(&k_broken);
    ck_assert_uint_eq(front.rows, 1);
    ck_assert(engine_failed(&eng));
    ck_assert_str_ne(json_string_value(json_object_get(json_array_get(front.seen, 0),
                                                       "status")), "ok");
    struct engine_outcome o = { .bench_failed = engine_failed(&eng) };
    ck_assert_int_eq(engine_exit_status(&o), 3);
    stop();
    ck_assert_uint_eq(rows_in_store(), 1);
}
END_TEST

/* A store that cannot be written: said once, the run goes on. */
START_TEST(store_failure_said_once)
{
    char *file = xasprintf("%s/not-a-folder", dir);
    FILE *f = fopen(file, "w");
    ck_assert_ptr_nonnull(f);
    fclose(f);
    start(file, true);
    run_kernel(&k_two);
    run_kernel(&k_two);
    ck_assert_uint_eq(front.rows, 4);
    ck_assert_uint_eq(front.nsaid, 1);
    ck_assert_ptr_nonnull(strstr(front.said[0], "results not saved: "));
    ck_assert(!engine_failed(&eng));
    stop();
    free(file);
}
END_TEST

/* A row keeps its samples, at most RESULT_SAMPLES_KEPT evenly spaced over
 * the run in order, and a baseline saved from the rows keeps them. */
START_TEST(rows_keep_their_samples)
{
    start(dir, true);
    run_kernel(&k_many);
    json_t *alpha = json_object_get(json_array_get(front.seen, 0), "sample_values");
    json_t *beta = json_object_get(json_array_get(front.seen, 1), "sample_values");
    ck_assert_uint_eq(json_array_size(alpha), RESULT_SAMPLES_KEPT);
    ck_assert_double_eq(json_real_value(json_array_get(alpha, 0)), 1.0);
    for (size_t i = 1; i < json_array_size(alpha); i++)
        ck_assert(json_real_value(json_array_get(alpha, i)) >
                  json_real_value(json_array_get(alpha, i - 1)));
    ck_assert(json_real_value(json_array_get(alpha, RESULT_SAMPLES_KEPT - 1)) >= 95.0);
    ck_assert_uint_eq(json_array_size(beta), 3);
    ck_assert_double_eq(json_real_value(json_array_get(beta, 2)), 30.0);
    struct diag d;
    diag_init(&d);
    ck_assert(engine_save_baseline(&eng, "kept", front.seen, false, &d));
    ck_assert(engine_set_baseline(&eng, "kept", &d));
    json_t *base = engine_baseline(&eng, NULL);
    ck_assert_uint_eq(json_array_size(json_object_get(json_array_get(base, 0),
                                                      "sample_values")), RESULT_SAMPLES_KEPT);
    diag_free(&d);
    stop();
}
END_TEST

/* Which recorded change could have moved a metric: a DDR-bound bandwidth
 * with the DDR rate, a CPU-bound metric with the clock (a rate with it, a
 * time against it), each at most by the ratio; other changes by name. */
#define PCT(x) ((struct cause_change){ .pct = (x) })

START_TEST(cause_named_within_the_ratio)
{
    struct sysstate_change ddr = { .ddr_from = 1600, .ddr_to = 1333 };
    const struct {
        const char *bench, *metric, *unit;
        bool cpu_bound;
        double pct;
        const struct sysstate_change *c;
        const char *words;      /* NULL: no cause */
    } cases[] = {
        { "stream", "copy", "mb/s", false, -16.8, &ddr,
          "consistent with the DDR rate change (1600 -> 1333 MT/s, -16.7%)" },
        { "stream", "copy", "mb/s", false, -9.0, &ddr,
          "consistent with the DDR rate change (1600 -> 1333 MT/s, -16.7%)" },
        { "stream", "triad", "mb/s", false, -30.0, &ddr,
          "more than the DDR rate change (1600 -> 1333 MT/s, -16.7%) explains" },
        { "stream", "copy", "mb/s", false, +5.0, &ddr, NULL },     /* the other way */
        { "lmbench", "bw_mem-rd-16mb", "mb/s", false, -15.0, &ddr,
          "consistent with the DDR rate change (1600 -> 1333 MT/s, -16.7%)" },
        { "lmbench", "lat_syscall-null", "us", false, +20.0, &ddr, NULL },  /* not DDR-bound */
    };
    for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
        struct cause_change ch = { .pct = cases[i].pct };
        char *w = cause_of(cases[i].bench, cases[i].metric, cases[i].unit, cases[i].cpu_bound,
                           false,
                           &ch, cases[i].c);
        if (cases[i].words)
            ck_assert_msg(w && strcmp(w, cases[i].words) == 0, "case %zu: %s", i,
                          w ? w : "NULL");
        else
            ck_assert_msg(!w, "case %zu: %s", i, w);
        free(w);
    }
    struct sysstate_change clk = { .cpu_from = 1400, .cpu_to = 1000, .cpu_measured = true };
    char *w = cause_of("dhrystone", "dhrystone_per_second", "dhry/s", true, false, &PCT(-28.0),
                       &clk);
    ck_assert_str_eq(w, "consistent with the CPU clock change (1400 -> 1000 MHz measured, "
                        "-28.6%)");
    free(w);
    /* a time */
    w = cause_of("lmbench", "lat_ops-int-add", "ns", true, false, &PCT(+40.0), &clk);
    ck_assert_str_eq(w, "consistent with the CPU clock change (1400 -> 1000 MHz measured, "
                        "+40.0%)");
    free(w);
    ck_assert_ptr_null(cause_of("lmbench", "lat_ops-int-add", "ns", false, false, &PCT(+40.0),
                                &clk));
    struct sysstate_change both = { .ddr_from = 1600, .ddr_to = 1333, .kernel = true };
    w = cause_of("stream", "copy", "mb/s", false, false, &PCT(-16.0), &both);
    ck_assert_str_eq(w, "consistent with the DDR rate change (1600 -> 1333 MT/s, -16.7%); "
                        "also changed: the kernel");
    free(w);
    struct sysstate_change gov = { .governor = (char *)"ondemand -> performance",
                                   .device_tree = true };
    w = cause_of("lmbench", "lat_syscall-null", "us", false, false, &PCT(-30.0), &gov);
    ck_assert_str_eq(w, "possibly caused by a change of the governor (ondemand -> performance), "
                        "the device tree");
    free(w);
    struct sysstate_change none = { 0 };
    ck_assert_ptr_null(cause_of("stream", "copy", "mb/s", false, false, &PCT(-40.0), &none));
    /* with an interval: consistent while it reaches inside the bound, more
     * than it explains when all of it lies beyond */
    struct cause_change wide = { .pct = -25, .has_interval = true, .low = -31, .high = -15 };
    w = cause_of("stream", "copy", "mb/s", false, false, &wide, &ddr);
    ck_assert_str_eq(w, "consistent with the DDR rate change (1600 -> 1333 MT/s, -16.7%)");
    free(w);
    /* a latency whose block outgrows the caches goes against the rate,
     * by at most 1600 / 1333: +20 %; one inside them is not DDR-bound */
    w = cause_of("lmbench", "lat_mem_rd-stride128-sz64000k", "ns", false, true, &PCT(+15.0),
                 &ddr);
    ck_assert_str_eq(w, "consistent with the DDR rate change (1600 -> 1333 MT/s, +20.0%)");
    free(w);
    ck_assert_ptr_null(cause_of("lmbench", "lat_mem_rd-stride128-sz50", "ns", false, false,
                                &PCT(+15.0), &ddr));
    ck_assert(result_memory_bound("lmbench", "lat_mem_rd-stride128-sz64000k", "ns", 557056));
    ck_assert(result_memory_bound("lmbench", "lat_mem_rd-stride128-sz1000k", "ns", 557056));
    ck_assert(!result_memory_bound("lmbench", "lat_mem_rd-stride128-sz500k", "ns", 557056));
    ck_assert(!result_memory_bound("lmbench", "lat_mem_rd-stride128-sz50", "ns", 557056));
    ck_assert(result_memory_bound("lmbench", "latency_for_1.00_mb_block_size", "nanosec",
                                  557056));
    ck_assert(!result_memory_bound("lmbench", "lat_mem_rd-stride128-sz64000k", "ns", 0));
    ck_assert(result_memory_bound("stream", "copy", "mb/s", 0));
    ck_assert(!result_memory_bound("lmbench", "lat_syscall-null", "us", 557056));
    struct cause_change far = { .pct = -30, .has_interval = true, .low = -33, .high = -27 };
    w = cause_of("stream", "copy", "mb/s", false, false, &far, &ddr);
    ck_assert_str_eq(w, "more than the DDR rate change (1600 -> 1333 MT/s, -16.7%) explains");
    free(w);
}
END_TEST

/* The change between the records of two fixture boards, DDR at 1600 and
 * 1333 MT/s, and the rows it explains. */
START_TEST(changes_between_two_records)
{
    char *a = test_data_path("sysroots-sys/am62x-ddr1600");
    char *b = test_data_path("sysroots-sys/am62x-ddr1333");
    json_t *ra = sysstate_read_board(a, "AM62X", 0, NULL, NULL);
    json_t *rb = sysstate_read_board(b, "AM62X", 0, NULL, NULL);
    struct sysstate_change c;
    sysstate_changes(ra, rb, &c);
    ck_assert_double_eq(c.ddr_from, 1600);
    ck_assert_double_eq_tol(c.ddr_to, 1333.3, 0.1);
    ck_assert(!c.kernel && !c.cmdline && !c.device_tree);
    json_t *rows = json_pack("[{ss ss ss sb sf} {ss ss ss sb}]", "bench", "stream", "metric",
                             "copy", "unit", "mb/s", "cpu_bound", 0, "change_pct",
                             -16.0, "bench", "stream", "metric", "triad", "unit", "mb/s",
                             "cpu_bound", 0);
    cause_explain(rows, &c);
    ck_assert_str_eq(json_string_value(json_object_get(json_array_get(rows, 0), "explained_by")),
                     "consistent with the DDR rate change (1600 -> 1333 MT/s, -16.7%)");
    ck_assert_ptr_null(json_object_get(json_array_get(rows, 1), "explained_by"));
    sysstate_changes(ra, ra, &c);
    ck_assert(c.ddr_from == 0 && c.cpu_from == 0 && !c.governor && !c.kernel);
    sysstate_changes(NULL, rb, &c);            /* a run from before records */
    ck_assert(c.ddr_from == 0 && !c.kernel);
    sysstate_change_free(&c);
    json_decref(rows);
    json_decref(ra);
    json_decref(rb);
    free(a);
    free(b);
}
END_TEST

/* A change of pct % with the interval lo .. hi, 20 runs a side. */
static struct change runs_change(double lo, double pct, double hi)
{
    return (struct change){ .n_before = 20, .n_now = 20, .has_estimate = true, .pct = pct,
                            .has_interval = true, .low = lo, .high = hi, .confidence = 0.95,
                            .per_run = true };
}

/* Ten run values of v, spread by 0.4 %. */
static json_t *ten_runs(double v)
{
    json_t *a = json_array();
    for (int i = 0; i < 10; i++)
        json_array_append_new(a, json_real(v * (1 + 0.004 * (i / 4.5 - 1))));
    return a;
}

/* Load is evidence: a metric slower than its baseline while other
 * processes took DEVIATION_LOAD_PCT or more of the worker's core is
 * inconclusive and never fails, however much slower (a preempted timed
 * interval is slowed by the scheduler's slice, not by the share); below
 * that load it fails as before; better and unchanged are not affected. */
START_TEST(load_is_evidence)
{
    struct fail_input in = { .dir = DIR_HIGHER_BETTER, .value = 80, .with_baseline = true,
                             .has_baseline = true, .baseline = 100, .other_cpu_pct = 25,
                             .has_change = true, .change = runs_change(-22, -20, -18) };
    struct fail_check fc = deviation_fail_check(&in, 10);
    ck_assert(!fc.fails && fc.loaded);
    ck_assert_int_eq(fc.outcome, OUTCOME_INCONCLUSIVE);
    in.other_cpu_pct = DEVIATION_LOAD_PCT - 1;
    fc = deviation_fail_check(&in, 10);
    ck_assert(fc.fails && !fc.loaded);
    ck_assert_int_eq(fc.outcome, OUTCOME_SLOWER);
    in.other_cpu_pct = NAN;
    ck_assert(deviation_fail_check(&in, 10).fails);
    in.change = runs_change(-91, -90, -89);     /* however much slower */
    in.other_cpu_pct = 25;
    fc = deviation_fail_check(&in, 10);
    ck_assert(!fc.fails && fc.loaded);
    in.dir = DIR_LOWER_BETTER;           /* a time, 150% longer */
    in.change = runs_change(140, 150, 160);
    fc = deviation_fail_check(&in, 10);
    ck_assert(!fc.fails && fc.loaded);
    in.other_cpu_pct = 5;
    ck_assert(deviation_fail_check(&in, 10).fails);
    in.other_cpu_pct = 25;
    in.dir = DIR_HIGHER_BETTER;
    in.change = runs_change(-6, -5, -4); /* within the limit: nothing to excuse */
    in.other_cpu_pct = 50;
    fc = deviation_fail_check(&in, 10);
    ck_assert(!fc.fails && !fc.loaded);
    ck_assert_int_eq(fc.outcome, OUTCOME_UNCHANGED);

    json_t *rows = json_pack("[{ss ss ss ss sf sf so} {ss ss ss ss sf so}]",
                             "bench", "b", "metric", "copy", "unit", "mb/s", "status", "ok",
                             "value", 80.0, "other_cpu_pct", 40.0, "run_values", ten_runs(80),
                             "bench", "b", "metric", "triad", "unit", "mb/s", "status", "ok",
                             "value", 99.0, "run_values", ten_runs(99));
    json_t *base = json_pack("[{ss ss sf so} {ss ss sf so}]",
                             "bench", "b", "metric", "copy", "value", 100.0,
                             "run_values", ten_runs(100),
                             "bench", "b", "metric", "triad", "value", 100.0,
                             "run_values", ten_runs(100));
    export_add_baseline(rows, base, 10);
    ck_assert_str_eq(json_string_value(json_object_get(json_array_get(rows, 0), "outcome")),
                     "inconclusive");
    ck_assert_str_eq(json_string_value(json_object_get(json_array_get(rows, 1), "outcome")),
                     "unchanged");
    struct check_verdict v;
    check_judge(&v, rows, "before", 10);
    ck_assert_int_eq(v.outcome, CHECK_UNCLEAR);
    ck_assert_uint_eq(v.unclear, 1);
    ck_assert_uint_eq(v.worse, 0);
    ck_assert_str_eq(check_outcome_words(&v), "COULD NOT TELL");
    struct strbuf sb;
    sb_init(&sb);
    check_headline(&v, &sb);
    ck_assert_str_eq(sb.buf, "1 of 2 metrics compared with baseline before could not be told "
                             "at 10% (1 worse while other processes took CPU time on the "
                             "worker's core, which can make it slower by any amount). The "
                             "other 1 is unchanged within 10% or faster (95% intervals). 1 "
                             "changed by less than 10%: a small, real change.");
    sb_free(&sb);
    sb_init(&sb);
    check_move_text(&v.moves[0], &sb);
    ck_assert_str_eq(sb.buf, "b copy: -20.0% (-20.2 .. -19.8) at 80 MB/s, was 100; 10 runs "
                             "against 10: slower, but other processes took 40% of the worker's "
                             "core meanwhile: could not tell");
    sb_free(&sb);
    char why[160];
    ck_assert(!export_row_failure(json_array_get(rows, 0), 10, why, sizeof why));
    struct engine_outcome o = { .fail_on_deviation = true, .verdict = &v };
    ck_assert_int_eq(engine_exit_status(&o), 0);
    check_free(&v);
    /* without the load the same samples fail */
    json_object_del(json_array_get(rows, 0), "other_cpu_pct");
    export_add_baseline(rows, base, 10);
    ck_assert(export_row_failure(json_array_get(rows, 0), 10, why, sizeof why));
    ck_assert_msg(strstr(why, "-20.0% (-20.2 .. -19.8%) against the baseline's 100, 10 runs "
                         "against 10: slower beyond the limit 10%") != NULL, "%s", why);
    check_judge(&v, rows, "before", 10);
    ck_assert_int_eq(v.outcome, CHECK_SLOWER);
    ck_assert_int_eq(engine_exit_status(&o), 1);
    check_free(&v);
    json_decref(rows);
    json_decref(base);
}
END_TEST

/* An all-inconclusive check says so in its first line; one value a side
 * is never slower, however far apart. */
START_TEST(too_few_samples_never_fail)
{
    json_t *rows = json_pack("[{ss ss ss ss sf} {ss ss ss ss sf}]",
                             "bench", "b", "metric", "copy", "unit", "mb/s", "status", "ok",
                             "value", 50.0,
                             "bench", "b", "metric", "lat", "unit", "us", "status", "ok",
                             "value", 20.0);
    json_t *base = json_pack("[{ss ss sf} {ss ss sf}]", "bench", "b", "metric", "copy",
                             "value", 100.0, "bench", "b", "metric", "lat", "value", 10.0);
    export_add_baseline(rows, base, 10);
    json_t *r0 = json_array_get(rows, 0);
    ck_assert_str_eq(json_string_value(json_object_get(r0, "outcome")), "inconclusive");
    ck_assert_double_eq_tol(json_number_value(json_object_get(r0, "change_pct")), -50, 1e-9);
    ck_assert(json_is_null(json_object_get(r0, "change_low")));
    ck_assert_str_eq(json_string_value(json_object_get(r0, "compared")), "samples");
    char why[160];
    ck_assert(!export_row_failure(r0, 10, why, sizeof why));
    struct check_verdict v;
    check_judge(&v, rows, "b0", 10);
    struct strbuf sb;
    sb_init(&sb);
    check_paragraph(&v, "--fail-on-deviation", NULL, &sb);
    ck_assert_msg(strncmp(sb.buf, "Verdict: COULD NOT TELL: none of the 2 metrics compared with "
                          "baseline b0 could be told at 10% (2 with too few samples).\n",
                          strlen("Verdict: COULD NOT TELL: none of the 2 metrics compared "
                                 "with baseline b0 could be told at 10% (2 with too few "
                                 "samples).\n")) == 0, "%s", sb.buf);
    ck_assert_msg(strstr(sb.buf, "b copy: -50.0% at 50 MB/s, was 100; 1 sample against 1: too "
                                 "few samples to tell (the baseline has 1; 'evmbench run "
                                 "--save-baseline' takes the runs a check needs)") != NULL,
                  "%s", sb.buf);
    sb_free(&sb);
    struct engine_outcome o = { .fail_on_deviation = true, .verdict = &v };
    ck_assert_int_eq(engine_exit_status(&o), 0);
    check_free(&v);
    json_decref(rows);
    json_decref(base);
}
END_TEST

/* One rule for run and --check: a failed benchmark first, then the
 * output, then a metric beyond --fail-on-deviation (only when given). */
START_TEST(exit_status)
{
    struct check_verdict worse = { .outcome = CHECK_SLOWER, .worse = 1 };
    struct check_verdict fine = { .outcome = CHECK_AS_FAST };
    const struct {
        struct engine_outcome o;
        int status;
    } cases[] = {
        { { 0 }, 0 },
        { { .verdict = &fine, .fail_on_deviation = true }, 0 },
        { { .verdict = &worse }, 0 },               /* no --fail-on-deviation */
        { { .verdict = &worse, .fail_on_deviation = true }, 1 },
        { { .output_status = 1, .verdict = &fine }, 1 },
        { { .bench_failed = true, .output_status = 1, .verdict = &worse,
            .fail_on_deviation = true }, 3 },
        { { .bench_failed = true }, 3 },
    };
    for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
        ck_assert_msg(engine_exit_status(&cases[i].o) == cases[i].status, "case %zu: %d", i,
                      engine_exit_status(&cases[i].o));
}
END_TEST

Suite *suite_engine(void)
{
    Suite *s = suite_create("engine");
    TCase *tc = tcase_create("engine");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, rows_filed_before_they_are_shown);
    tcase_add_test(tc, no_save_keeps_baselines);
    tcase_add_test(tc, repeats_until_enough);
    tcase_add_test(tc, first_failure_tried_again);
    tcase_add_test(tc, without_a_store);
    tcase_add_test(tc, a_failure_fails_the_run);
    tcase_add_test(tc, store_failure_said_once);
    tcase_add_test(tc, rows_keep_their_samples);
    tcase_add_test(tc, exit_status);
    tcase_add_test(tc, cause_named_within_the_ratio);
    tcase_add_test(tc, load_is_evidence);
    tcase_add_test(tc, too_few_samples_never_fail);
    tcase_add_test(tc, changes_between_two_records);
    suite_add_tcase(s, tc);
    return s;
}
