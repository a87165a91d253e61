/* test_job.c - the TUI's job without a terminal (screens/job.c): a batch
 * run to its end or cancelled, each run's rows in the results store at
 * once, baselines, the provider chosen per benchmark, and what the front
 * end is told (messages, events). */
#include "config.h"

#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "screens/job.h"
#include "store/store.h"
#include "suites.h"
#include "common/util.h"
#include "benches/kernels/registry.h"

/* --- kernels and benchmarks built by hand ----------------------------------- */

static const struct kernel_metric two_metrics[] = {
    { .id = "alpha", .unit = "mb/s", .summary = SUMMARY_MAX },
    { .id = "beta", .unit = "us", .summary = SUMMARY_MEDIAN },
};

static int run_two(const struct kernel_params *p, struct report *r)
{
    (void)p;
    for (int i = 1; i <= 3; i++) {
        report_sample(r, "alpha", 100.0 * i);
        report_sample(r, "beta", 10.0 + i);
        report_progress(r, i, 3);
    }
    report_note(r, "done");
    return 0;
}

static int run_one(const struct kernel_params *p, struct report *r)
{
    (void)p;
    report_sample(r, "alpha", 7.0);
    return 0;
}

/* One sample, then waits to be cancelled. */
static int run_hang(const struct kernel_params *p, struct report *r)
{
    (void)p;
    report_sample(r, "alpha", 1.0);
    for (;;)
        pause();
    return 0;
}

static const struct kernel k_two = {
    .name = "two", .section = "two", .metrics = two_metrics, .nmetrics = 2,
    .budget_quick_s = 1, .budget_full_s = 1, .run = run_two,
};
static const struct kernel k_one = {
    .name = "one", .section = "one", .metrics = two_metrics, .nmetrics = 1,
    .budget_quick_s = 1, .budget_full_s = 1, .run = run_one,
};
static const struct kernel k_hang = {
    .name = "hang", .section = "hang", .metrics = two_metrics, .nmetrics = 1,
    .budget_quick_s = 1, .budget_full_s = 1, .run = run_hang,
};
/* A tool kernel of "two": provider "tool", without a recipe it counts as
 * installed. */
static const struct kernel k_tool = {
    .name = "two", .section = "two", .metrics = two_metrics, .nmetrics = 2,
    .budget_quick_s = 1, .budget_full_s = 1, .run = run_two, .provider = "tool",
};
static const struct kernel k_extra = {
    .name = "two-mt", .section = "two", .metrics = two_metrics, .nmetrics = 2,
    .budget_quick_s = 1, .budget_full_s = 1, .run = run_two, .extra = true,
};

/* catalog text is not const: writable copies */
#define TXT(s) ((char[]){ s })

static const struct kernel *ks_two[] = { &k_two };
static const struct kernel *ks_one[] = { &k_one };
static const struct kernel *ks_hang[] = { &k_hang };
static const struct kernel *ks_both[] = { &k_two, &k_tool };
static const struct kernel *ks_extra[] = { &k_extra };

#define BENCH(s, t, ks) \
    { .slug = TXT(s), .title = TXT(t), .kernels = ks, .nkernels = ARRAY_SIZE(ks) }

static struct cat_bench b_two = BENCH("two", "Two", ks_two);
static struct cat_bench b_one = BENCH("one", "One", ks_one);
static struct cat_bench b_hang = BENCH("hang", "Hang", ks_hang);
static struct cat_bench b_both = BENCH("two", "Two", ks_both);
static struct cat_bench b_extra = BENCH("two", "Extra", ks_extra);
static struct cat_bench b_ref = { .slug = TXT("ref"), .title = TXT("Ref") };

/* --- the front end: what the job said and signalled ------------------------- */

#define MAX_SAID 8

struct front {
    int events[4];                  /* by enum job_event */
    enum job_event first;
    int nevents;
    size_t nsaid;
    enum job_level level[MAX_SAID];
    char said[MAX_SAID][512];
};

static void front_say(void *ctx, enum job_level level, const char *text)
{
    struct front *f = ctx;
    if (f->nsaid == MAX_SAID)
        return;
    f->level[f->nsaid] = level;
    snprintf(f->said[f->nsaid++], sizeof f->said[0], "%s", text);
}

static void front_event(void *ctx, enum job_event e)
{
    struct front *f = ctx;
    if (!f->nevents++)
        f->first = e;
    f->events[e]++;
}

static const struct job_hooks hooks = { .say = front_say, .event = front_event };

/* True when the job said something at `level` that contains `text`. */
static bool front_said(const struct front *f, enum job_level level, const char *text)
{
    for (size_t i = 0; i < f->nsaid; i++)
        if (f->level[i] == level && strstr(f->said[i], text))
            return true;
    return false;
}

/* --- fixture ------------------------------------------------------------------- */

static char *dir;
static char board_name[] = "test-board";
static struct app app;
static struct job job;
static struct front front;

static void setup(void)
{
    char tmpl[] = "/tmp/evmbench-job-test-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(tmpl));
    dir = xstrdup(tmpl);
    memset(&app, 0, sizeof app);
    /* no proc/stat below it: no verdict depends on this machine's load */
    app.run_opts = (struct run_options){ .params = { .quick = true }, .timeout_s = 30,
                                         .cpu = -1, .sysroot = dir };
    app.board.name = board_name;
    memset(&front, 0, sizeof front);
    job_init(&job, &app, dir, true, &hooks, &front);
}

static void teardown(void)
{
    job_end(&job, false, NULL);
    char *cmd = xasprintf("rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
    free(cmd);
    free(dir);
}

/* Pumps the live batch as the main loop does, until it is done. */
static void run_to_end(struct job *j)
{
    while (job_batch(j) && !batch_done(job_batch(j))) {
        struct pollfd p = { .fd = job_fd(j), .events = POLLIN };
        poll(&p, 1, 100);
        job_pump(j);
    }
}

/* The runs of the store, each checked to hold nrows rows. */
static size_t stored_runs(size_t nrows, bool complete)
{
    struct stored_run *runs;
    struct diag d;
    diag_init(&d);
    size_t n = store_list(dir, &runs, &d);
    ck_assert_msg(d.n == 0, "%s", d.n ? d.msgs[0] : "");
    for (size_t i = 0; i < n; i++) {
        ck_assert_uint_eq(json_array_size(runs[i].rows), nrows);
        ck_assert(runs[i].complete == complete);
        ck_assert_str_eq(json_string_value(json_object_get(runs[i].header, "mode")), "tui");
    }
    store_runs_free(runs, n);
    diag_free(&d);
    return n;
}

/* --- tests ---------------------------------------------------------------------- */

START_TEST(run_is_stored_when_it_ends)
{
    ck_assert(job_run_start(&job, &b_two, NULL));
    ck_assert_int_eq(front.first, JOB_BEGIN);     /* before any run event */
    ck_assert_int_eq(front.events[JOB_BEGIN], 1);
    ck_assert_int_ge(front.events[JOB_CHANGED], 1);
    ck_assert_ptr_nonnull(job_run(&job));
    ck_assert_int_ge(job_fd(&job), 0);
    ck_assert_uint_eq(stored_runs(0, false), 0);  /* nothing ended yet */
    run_to_end(&job);
    ck_assert_int_eq(front.events[JOB_ENDED], 1);
    ck_assert_int_ge(front.events[JOB_LIVE], 1);
    ck_assert(!job_pump(&job));
    ck_assert_int_eq(job_fd(&job), -1);
    /* the rows are on disk when the run ends, not when the session does */
    ck_assert_uint_eq(stored_runs(2, false), 1);
    struct session_row *rows;
    ck_assert_uint_eq(job_results(&job, false, &rows), 2);
    ck_assert_str_eq(rows[0].row.metric, "alpha");
    ck_assert_double_eq(rows[0].row.value, 300.0);
    free(rows);
    ck_assert_uint_eq(front.nsaid, 0);
    ck_assert_int_eq(job_end(&job, true, NULL), 0);
    ck_assert_uint_eq(stored_runs(2, true), 1);
}
END_TEST

/* The screens read the system a run starts on as `run` does, one engine
 * path: on the real root the cores are measured, and what the check's
 * verdict says of the system is what run's verdict says. Only that a
 * clock was measured is looked at, never its value. */
START_TEST(system_read_as_run_reads_it)
{
    ck_assert(job_run_start(&job, &b_two, NULL));
    run_to_end(&job);
    json_t *sys = engine_system(&job.engine);
    size_t i, measured = 0;
    json_t *c;
    json_array_foreach(json_object_get(sys, "cpus"), i, c)
        measured += json_number_value(json_object_get(c, "measured_mhz")) > 0;
    ck_assert_uint_ge(measured, 1);
    char *screens = engine_system_words(&job.engine);
    char *run = engine_system_summary(&job.engine);
    ck_assert_str_eq(screens, run);
    ck_assert_ptr_nonnull(strstr(run, " MHz measured"));
    free(screens);
    free(run);
}
END_TEST

START_TEST(session_keeps_closed_batches)
{
    ck_assert(job_run_start(&job, &b_two, NULL));
    run_to_end(&job);
    int changed = front.events[JOB_CHANGED];
    job_close(&job);
    ck_assert_ptr_null(job_batch(&job));
    ck_assert_ptr_null(job_run(&job));
    ck_assert_int_eq(front.events[JOB_CHANGED], changed + 1);
    job_close(&job);                                /* nothing left to close */
    ck_assert_int_eq(front.events[JOB_CHANGED], changed + 1);
    /* a new start closes the last batch itself; both stay in the results */
    ck_assert(job_run_start(&job, &b_one, NULL));
    run_to_end(&job);
    ck_assert_ptr_eq(job_run(&job)->kernel, &k_one);
    struct session_row *rows;
    ck_assert_uint_eq(job_results(&job, false, &rows), 3);
    free(rows);
    ck_assert_int_eq(front.events[JOB_BEGIN], 2);
    /* one run file for the session, every row in it */
    ck_assert_uint_eq(stored_runs(3, false), 1);
}
END_TEST

START_TEST(cancel_keeps_what_finished)
{
    ck_assert(job_run_start(&job, &b_hang, NULL));
    double until = now_seconds() + 20;
    while (!job_run(&job)->metrics[0].stats.count && now_seconds() < until) {
        struct pollfd p = { .fd = job_fd(&job), .events = POLLIN };
        poll(&p, 1, 100);
        ck_assert(job_pump(&job));
    }
    ck_assert_uint_eq(job_run(&job)->metrics[0].stats.count, 1);
    struct run *run = job_run(&job);
    job_close(&job);                    /* 'q' on the live screen */
    ck_assert_ptr_null(job_batch(&job));
    ck_assert_int_eq(run->status, STATUS_CANCELLED);
    ck_assert_int_eq(front.events[JOB_ENDED], 1);
    struct session_row *rows;
    /* the partial value is no result: only on request, marked cancelled */
    ck_assert_uint_eq(job_results(&job, 0, &rows), 0);
    free(rows);
    ck_assert_uint_eq(job_results_hidden(&job), 1);
    ck_assert_uint_eq(job_results(&job, SESSION_ALL, &rows), 1);
    ck_assert_double_eq(rows[0].row.value, 1.0);
    ck_assert_int_eq(rows[0].state, SESSION_CANCELLED);
    ck_assert(!rows[0].latest);
    free(rows);
    ck_assert(!job_save_baseline(&job, "partial"));
    ck_assert_uint_eq(stored_runs(1, false), 1);
}
END_TEST

/* The same benchmark run twice, then cancelled once: the results list the
 * latest finished value of each metric with the batch that measured it;
 * the older and the cancelled values come on request. */
START_TEST(results_latest_per_metric)
{
    ck_assert(job_run_start(&job, &b_two, NULL));
    run_to_end(&job);
    ck_assert(job_run_start(&job, &b_two, NULL));
    run_to_end(&job);
    ck_assert_uint_eq(job_batch_number(&job), 2);
    ck_assert(job_run_start(&job, &b_hang, NULL));
    double until = now_seconds() + 20;
    while (!job_run(&job)->metrics[0].stats.count && now_seconds() < until) {
        struct pollfd p = { .fd = job_fd(&job), .events = POLLIN };
        poll(&p, 1, 100);
        job_pump(&job);
    }
    struct session_row *rows;
    /* while the hang runs its value is no result yet */
    ck_assert_uint_eq(job_results(&job, 0, &rows), 2);
    free(rows);
    job_close(&job);
    size_t n = job_results(&job, 0, &rows);
    ck_assert_uint_eq(n, 2);
    for (size_t i = 0; i < n; i++) {
        ck_assert_uint_eq(rows[i].number, 2);
        ck_assert_int_eq(rows[i].state, SESSION_DONE);
        ck_assert(rows[i].latest);
    }
    free(rows);
    ck_assert_uint_eq(job_results_hidden(&job), 3);
    n = job_results(&job, SESSION_ALL, &rows);
    ck_assert_uint_eq(n, 5);
    ck_assert_uint_eq(rows[0].number, 1);
    ck_assert(!rows[0].latest);
    ck_assert_uint_eq(rows[4].number, 3);
    ck_assert_str_eq(rows[4].row.bench, "hang");
    ck_assert_int_eq(rows[4].state, SESSION_CANCELLED);
    free(rows);
    /* a baseline gets the latest values only */
    ck_assert(job_save_baseline(&job, "latest"));
    ck_assert(front_said(&front, JOB_NOTE, "saved 2 metrics as baseline 'latest'"));
}
END_TEST

/* A profile's row list: the next batch shows only those metrics (the live
 * screen and the results), the one after it all again. */
START_TEST(shows_only_the_profile_rows)
{
    char *only[] = { TXT("beta") };
    job_show_only(&job, only, 1);
    ck_assert(job_run_start(&job, &b_two, NULL));
    run_to_end(&job);
    ck_assert(!job_metric_shown(&job, job_run(&job), 0));
    ck_assert(job_metric_shown(&job, job_run(&job), 1));
    struct session_row *rows;
    ck_assert_uint_eq(job_results(&job, SESSION_ALL, &rows), 1);
    ck_assert_str_eq(rows[0].row.metric, "beta");
    free(rows);
    ck_assert(job_run_start(&job, &b_two, NULL));
    run_to_end(&job);
    ck_assert(job_metric_shown(&job, job_run(&job), 0));
    ck_assert_uint_eq(job_results(&job, 0, &rows), 2);
    free(rows);
}
END_TEST

/* The app with the real bw_mem as its one kernel, one iteration, and the
 * benchmark b_bw that runs it (the tests set app.kernels back to NULL). */
static const struct kernel *bw_only[1];
static struct cat_bench b_bw = { .slug = TXT("bw_mem"), .title = TXT("bw_mem"),
                                 .kernels = bw_only, .nkernels = 1 };

static void use_bw_mem_only(void)
{
    bw_only[0] = kernel_find("bw_mem");
    ck_assert_ptr_nonnull(bw_only[0]);
    app.kernels = bw_only;
    app.nkernels = 1;
    app.run_opts.params.iterations = 1;
}

/* A profile line's metric list is what the next batch measures, as in
 * `run --profile`: bw_mem asked for 2 of its sizes has 2 metrics with
 * samples (not the ~20 of a whole quick run). Counts, not timing. */
START_TEST(measures_only_the_profile_rows)
{
    use_bw_mem_only();
    struct profile_bench line = { .name = TXT("bw_mem"), .line = 3,
                                  .metrics = (char *[]){ TXT("BW_MEM-rd-2mb"),
                                                         TXT("bw_mem-bcopy-1mb") },
                                  .nmetrics = 2 };
    struct profile prof = { .benches = &line, .n = 1, .cap = 1 };
    job_measure_only(&job, &prof, 0);
    ck_assert(job_run_start(&job, &b_bw, NULL));
    run_to_end(&job);
    const struct run *run = job_run(&job);
    ck_assert_int_eq(run->status, STATUS_OK);
    size_t measured = 0;
    for (size_t m = 0; m < run->nmetrics; m++)
        if (run->metrics[m].stats.count > 0) {
            measured++;
            ck_assert_msg(strcasecmp(run->metrics[m].def->id, "bw_mem-rd-2mb") == 0 ||
                          strcasecmp(run->metrics[m].def->id, "bw_mem-bcopy-1mb") == 0,
                          "%s measured, not listed", run->metrics[m].def->id);
        }
    ck_assert_uint_eq(measured, 2);
    struct session_row *rows;
    ck_assert_uint_eq(job_results(&job, SESSION_ALL, &rows), 2);
    free(rows);
    app.kernels = NULL;
    app.nkernels = 0;
}
END_TEST

/* Two lines of a profile naming bw_mem, as `run --profile` runs them:
 * the first line's batch measures the rows of both, once; the second
 * line starts nothing of its own (the demo passes over it), and when
 * started all the same it finds nothing left to run. */
START_TEST(profile_lines_of_one_kernel_run_once)
{
    use_bw_mem_only();
    struct profile_bench lines[] = {
        { .name = TXT("bw_mem"), .line = 2, .metrics = (char *[]){ TXT("bw_mem-rd-2mb") },
          .nmetrics = 1 },
        { .name = TXT("two"), .line = 3 },
        { .name = TXT("BW_MEM"), .line = 4, .metrics = (char *[]){ TXT("bw_mem-bcopy-1mb") },
          .nmetrics = 1 },
    };
    struct profile prof = { .benches = lines, .n = 3, .cap = 3 };
    ck_assert(!job_profile_line_repeats(&job, &prof, 0));
    ck_assert(!job_profile_line_repeats(&job, &prof, 1));     /* starts nothing here */
    ck_assert(job_profile_line_repeats(&job, &prof, 2));
    job_measure_only(&job, &prof, 0);
    ck_assert(job_run_start(&job, &b_bw, NULL));
    run_to_end(&job);
    const struct run *run = job_run(&job);
    ck_assert_int_eq(run->status, STATUS_OK);
    size_t measured = 0;
    for (size_t m = 0; m < run->nmetrics; m++)
        if (run->metrics[m].stats.count > 0) {
            measured++;
            ck_assert(job_metric_shown(&job, run, m));
        }
    ck_assert_uint_eq(measured, 2);
    ck_assert_uint_eq(job_batch_number(&job), 1);
    job_measure_only(&job, &prof, 2);
    ck_assert(!job_run_start(&job, &b_bw, NULL));
    ck_assert_ptr_null(job_batch(&job));
    ck_assert_uint_eq(job_batch_number(&job), 1);
    struct session_row *rows;
    ck_assert_uint_eq(job_results(&job, SESSION_ALL, &rows), 2);
    free(rows);
    app.kernels = NULL;
    app.nkernels = 0;
}
END_TEST

/* A line none of whose metrics the benchmark's kernels measure starts
 * nothing, and says so. */
START_TEST(profile_rows_it_cannot_measure)
{
    struct profile_bench line = { .name = TXT("two"), .line = 7,
                                  .metrics = (char *[]){ TXT("gamma") }, .nmetrics = 1 };
    const struct kernel *kernels[] = { &k_two };
    app.kernels = kernels;
    app.nkernels = 1;
    struct profile prof = { .benches = &line, .n = 1, .cap = 1 };
    job_measure_only(&job, &prof, 0);
    ck_assert(!job_run_start(&job, &b_two, NULL));
    ck_assert_ptr_null(job_batch(&job));
    ck_assert(front_said(&front, JOB_ERROR, "Two: nothing it can run measures what the profile lists"));
    /* consumed: the next start runs it whole */
    ck_assert(job_run_start(&job, &b_two, NULL));
    run_to_end(&job);
    ck_assert_uint_eq(job_run(&job)->nmetrics, 2);
    app.kernels = NULL;
    app.nkernels = 0;
}
END_TEST

/* 'a' on a category: the summary is due once when the batch ends; not
 * after a single benchmark, nor after a cancelled batch. */
START_TEST(summary_after_a_category)
{
    struct cat_bench *benches[] = { &b_two, &b_one };
    struct cat_category c = { .title = TXT("Cat"), .benches = benches, .nbenches = 2 };
    ck_assert(job_run_start(&job, &b_two, NULL));
    run_to_end(&job);
    ck_assert(!job_take_summary(&job));
    ck_assert(job_run_start_category(&job, &c));
    ck_assert(!job_take_summary(&job));
    run_to_end(&job);
    ck_assert(job_take_summary(&job));
    ck_assert(!job_take_summary(&job));
    ck_assert_ptr_nonnull(job_store_id(&job));
    struct cat_bench *hang[] = { &b_hang };
    struct cat_category ch = { .title = TXT("Hang"), .benches = hang, .nbenches = 1 };
    ck_assert(job_run_start_category(&job, &ch));
    job_close(&job);
    ck_assert(!job_take_summary(&job));
}
END_TEST

START_TEST(what_cannot_run_is_said)
{
    ck_assert(!job_run_start(&job, &b_ref, NULL));
    ck_assert(front_said(&front, JOB_ERROR, "Ref: reference only, nothing here can run it"));
    ck_assert(!job_run_start(&job, &b_extra, NULL));    /* extras need --threads */
    ck_assert(front_said(&front, JOB_ERROR, "Extra cannot run here: it runs only with --threads"));
    struct cat_bench *benches[] = { &b_ref, &b_extra };
    struct cat_category c = { .title = TXT("Refs"), .benches = benches, .nbenches = 2 };
    ck_assert(!job_run_start_category(&job, &c));
    ck_assert(front_said(&front, JOB_ERROR, "Refs: nothing in it can run here"));
    ck_assert_int_eq(front.events[JOB_BEGIN], 0);
    ck_assert_ptr_null(job_batch(&job));
    ck_assert_ptr_null(job_batch_bench(&job));
    /* with --threads the extra kernel runs */
    app.extras = true;
    ck_assert(job_run_start(&job, &b_extra, NULL));
    run_to_end(&job);
    ck_assert_int_eq(job_run(&job)->status, STATUS_OK);
}
END_TEST

START_TEST(category_runs_as_one_batch)
{
    struct cat_bench *benches[] = { &b_ref, &b_two, &b_one };
    struct cat_category c = { .title = TXT("Cat"), .benches = benches, .nbenches = 3 };
    ck_assert(job_run_start_category(&job, &c));
    const struct batch *b = job_batch(&job);
    ck_assert_uint_eq(b->n, 2);
    ck_assert_uint_eq(b->ngroups, 2);           /* the reference-only one is left out */
    ck_assert_ptr_eq(job_batch_bench(&job), &b_two);
    run_to_end(&job);
    ck_assert_ptr_eq(job_batch_bench(&job), &b_one);
    ck_assert_int_eq(front.events[JOB_ENDED], 2);
    struct session_row *rows;
    ck_assert_uint_eq(job_results(&job, false, &rows), 3);
    free(rows);
    /* a single benchmark after it is no category batch */
    ck_assert(job_run_start(&job, &b_one, NULL));
    ck_assert_ptr_null(job_batch_bench(&job));
    run_to_end(&job);
}
END_TEST

START_TEST(baselines)
{
    ck_assert(!job_save_baseline(&job, "early"));
    ck_assert(front_said(&front, JOB_NOTE,
                         "nothing measured to the end yet to save as a baseline"));
    ck_assert(!job_baseline_exists(&job, "before", NULL));
    ck_assert(job_run_start(&job, &b_two, NULL));
    run_to_end(&job);
    ck_assert(job_save_baseline(&job, "before"));
    ck_assert(front_said(&front, JOB_NOTE, "saved 2 metrics as baseline 'before'"));
    size_t had = 0;
    ck_assert(job_baseline_exists(&job, "before", &had));
    ck_assert_uint_eq(had, 2);
    ck_assert(!job_baseline_exists(&job, "../bad", NULL));
    ck_assert(!job_save_baseline(&job, "../bad"));
    ck_assert_uint_eq(front.level[front.nsaid - 1], JOB_ERROR);

    const char *name = NULL;
    ck_assert_ptr_null(job_baseline(&job, &name));
    ck_assert_str_eq(name, "");
    int changed = front.events[JOB_CHANGED];
    ck_assert(job_set_baseline(&job, "before"));
    ck_assert_int_eq(front.events[JOB_CHANGED], changed + 1);
    json_t *rows = job_baseline(&job, &name);
    ck_assert_str_eq(name, "before");
    ck_assert_uint_eq(json_array_size(rows), 2);

    ck_assert(!job_set_baseline(&job, "nosuch"));
    ck_assert_uint_eq(front.level[front.nsaid - 1], JOB_ERROR);
    ck_assert_ptr_null(job_baseline(&job, &name));  /* the old one is dropped */
    ck_assert_str_eq(name, "");
    ck_assert(job_set_baseline(&job, "before"));
    ck_assert(job_set_baseline(&job, NULL));
    ck_assert_ptr_null(job_baseline(&job, NULL));
    ck_assert_str_eq(job_results_dir(&job), dir);
}
END_TEST

START_TEST(no_store)
{
    job_end(&job, false, NULL);
    job_init(&job, &app, NULL, true, &hooks, &front);
    ck_assert_ptr_null(job_results_dir(&job));
    ck_assert(job_run_start(&job, &b_two, NULL));
    run_to_end(&job);
    ck_assert_uint_eq(front.nsaid, 0);
    ck_assert(!job_save_baseline(&job, "x"));
    ck_assert(front_said(&front, JOB_ERROR, "no results store"));
    ck_assert(!job_set_baseline(&job, "x"));
    ck_assert_uint_eq(front.nsaid, 2);
    ck_assert_uint_eq(stored_runs(0, false), 0);
    ck_assert_int_eq(job_end(&job, true, NULL), 0);
}
END_TEST

START_TEST(store_failure_said_once)
{
    char *file = path_join(dir, "not-a-dir");
    FILE *f = fopen(file, "w");
    ck_assert_ptr_nonnull(f);
    fclose(f);
    job_end(&job, false, NULL);
    job_init(&job, &app, file, true, &hooks, &front);
    ck_assert(job_run_start(&job, &b_two, NULL));
    run_to_end(&job);
    ck_assert(job_run_start(&job, &b_one, NULL));
    run_to_end(&job);
    ck_assert_uint_eq(front.nsaid, 1);
    ck_assert(front_said(&front, JOB_WARN, "results not saved: "));
    /* the results are still there to look at */
    struct session_row *rows;
    ck_assert_uint_eq(job_results(&job, false, &rows), 3);
    free(rows);
    free(file);
}
END_TEST

START_TEST(provider_per_bench)
{
    bool chosen = true;
    app.provider = PROVIDER_AUTO;
    ck_assert(!job_bench_has_choice(&job, &b_two));
    ck_assert(!job_bench_provider_next(&job, &b_two));
    ck_assert_int_eq(job_bench_provider(&job, &b_two, &chosen), PROVIDER_AUTO);
    ck_assert(!chosen);

    ck_assert(job_bench_has_choice(&job, &b_both));
    const struct kernel *out[2];
    static const enum provider_pref cycle[] = { PROVIDER_KERNEL, PROVIDER_TOOL,
                                                PROVIDER_AUTO };
    static const bool was_chosen[] = { true, true, false };
    static const struct kernel *first[] = { &k_two, &k_tool, &k_tool };
    for (size_t i = 0; i < ARRAY_SIZE(cycle); i++) {
        ck_assert(job_bench_provider_next(&job, &b_both));
        ck_assert_int_eq(job_bench_provider(&job, &b_both, &chosen), cycle[i]);
        ck_assert(chosen == was_chosen[i]);
        /* auto takes the installed tool, which covers the kernel's metrics */
        ck_assert_uint_eq(job_bench_kernels(&job, &b_both, out), 1);
        ck_assert_ptr_eq(out[0], first[i]);
    }
    /* the choice of one benchmark leaves the others at the app's */
    ck_assert(job_bench_provider_next(&job, &b_both));
    app.provider = PROVIDER_TOOL;
    ck_assert_int_eq(job_bench_provider(&job, &b_both, NULL), PROVIDER_KERNEL);
    ck_assert_int_eq(job_bench_provider(&job, &b_two, NULL), PROVIDER_TOOL);
    /* the run follows the choice */
    ck_assert(job_run_start(&job, &b_both, NULL));
    ck_assert_ptr_eq(job_run(&job)->kernel, &k_two);
    run_to_end(&job);
}
END_TEST

Suite *suite_job(void)
{
    Suite *s = suite_create("job");
    TCase *tc = tcase_create("job");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, run_is_stored_when_it_ends);
    tcase_add_test(tc, session_keeps_closed_batches);
    tcase_add_test(tc, system_read_as_run_reads_it);
    tcase_add_test(tc, results_latest_per_metric);
    tcase_add_test(tc, shows_only_the_profile_rows);
    tcase_add_test(tc, measures_only_the_profile_rows);
    tcase_add_test(tc, profile_rows_it_cannot_measure);
    tcase_add_test(tc, profile_lines_of_one_kernel_run_once);
    tcase_add_test(tc, summary_after_a_category);
    tcase_add_test(tc, cancel_keeps_what_finished);
    tcase_add_test(tc, what_cannot_run_is_said);
    tcase_add_test(tc, category_runs_as_one_batch);
    tcase_add_test(tc, baselines);
    tcase_add_test(tc, no_store);
    tcase_add_test(tc, store_failure_said_once);
    tcase_add_test(tc, provider_per_bench);
    suite_add_tcase(s, tc);
    return s;
}
