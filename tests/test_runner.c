/* test_runner.c - workers that succeed, fail, crash, hang or babble. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/stopsig.h"
#include "run/batch.h"
#include "run/deviation.h"
#include "run/result.h"
#include "run/runner.h"
#include "suites.h"
#include "common/util.h"

static const struct kernel_metric two_metrics[] = {
    { .id = "alpha", .unit = "mb/s", .summary = SUMMARY_MAX },
    { .id = "beta", .unit = "us", .summary = SUMMARY_MEDIAN },
};

static int run_good(const struct kernel_params *p, struct report *r)
{
    (void)p;
    for (int i = 1; i <= 5; i++) {
        report_sample(r, "alpha", 100.0 * i);
        report_sample(r, "beta", 10.0 + i);
        report_progress(r, i, 5);
    }
    report_note(r, "all good");
    return 0;
}

static int run_crash(const struct kernel_params *p, struct report *r)
{
    (void)p;
    report_sample(r, "alpha", 1.0);
    signal(SIGSEGV, SIG_DFL); /* a real crash, also under ASan, whose handler would exit(1) */
    raise(SIGSEGV);
    return 0;
}

static int run_hang(const struct kernel_params *p, struct report *r)
{
    (void)p;
    report_sample(r, "alpha", 1.0);
    if (fork() == 0) {          /* a grandchild in the same group */
        for (;;)
            pause();
    }
    for (;;)
        pause();
    return 0;
}

/* Hangs without a child (none is left behind when a test fails). */
static int run_wait(const struct kernel_params *p, struct report *r)
{
    (void)p;
    report_sample(r, "alpha", 1.0);
    for (;;)
        pause();
    return 0;
}

static int run_fail(const struct kernel_params *p, struct report *r)
{
    (void)p;
    report_fail(r, "alpha", "cannot allocate %d MB", 240);
    report_fail(r, "beta", "cannot allocate %d MB", 240);
    return -1;
}

static int run_partial(const struct kernel_params *p, struct report *r)
{
    (void)p;
    report_sample(r, "alpha", 5.0);
    report_fail(r, "beta", "no loopback");
    return 0;
}

static int run_babble(const struct kernel_params *p, struct report *r)
{
    (void)p;
    static const char junk[] = "this is not the protocol\nS alpha 12\nS nosuch 1\n";
    if (write(r->fd, junk, sizeof junk - 1) < 0)
        return -1;
    char big[5000];
    memset(big, 'x', sizeof big);
    big[sizeof big - 1] = '\n';
    if (write(r->fd, big, sizeof big) < 0)
        return -1;
    report_sample(r, "beta", 3.0);
    return 0;
}

static int run_silent(const struct kernel_params *p, struct report *r)
{
    (void)p;
    (void)r;
    return 0;
}

/* A kernel with a bug: latencies at and below zero among good ones. */
static int run_negative(const struct kernel_params *p, struct report *r)
{
    (void)p;
    static const double beta[] = { 12.0, -0.03, 11.0, 0.0, -0.88, 13.0 };
    for (size_t i = 0; i < ARRAY_SIZE(beta); i++)
        report_sample(r, "beta", beta[i]);
    report_sample(r, "alpha", 250.0);
    return 0;
}

/* Writes into $TMPDIR what a kernel or its tool may leave: a file and a
 * read-only directory with a file in it. */
static void litter(struct report *r)
{
    const char *dir = getenv("TMPDIR");
    char *file = xasprintf("%s/scratch", dir), *ro = xasprintf("%s/ro", dir);
    char *inner = xasprintf("%s/file", ro);
    FILE *f = fopen(file, "w");
    if (f)
        fclose(f);
    mkdir(ro, 0700);
    f = fopen(inner, "w");
    if (f)
        fclose(f);
    chmod(ro, 0500);
    report_note(r, "TMPDIR=%s", dir);
    free(inner);
    free(ro);
    free(file);
}

/* Leaves its files and ends with a value. */
static int run_litter(const struct kernel_params *p, struct report *r)
{
    (void)p;
    litter(r);
    report_sample(r, "alpha", 1.0);
    return 0;
}

/* Leaves its files, starts a child, says so and hangs. */
static int run_litter_hang(const struct kernel_params *p, struct report *r)
{
    (void)p;
    if (fork() == 0) {
        for (;;)
            pause();
    }
    litter(r);
    for (;;)
        pause();
    return 0;
}

#define FAKE(fn, budget) { .name = #fn, .section = "fake", .metrics = two_metrics, \
    .nmetrics = 2, .budget_quick_s = budget, .budget_full_s = budget, .run = fn }
static const struct kernel k_good = FAKE(run_good, 1);
static const struct kernel k_crash = FAKE(run_crash, 1);
static const struct kernel k_hang = FAKE(run_hang, 1);
static const struct kernel k_wait = FAKE(run_wait, 1);
static const struct kernel k_fail = FAKE(run_fail, 1);
static const struct kernel k_partial = FAKE(run_partial, 1);
static const struct kernel k_babble = FAKE(run_babble, 1);
static const struct kernel k_silent = FAKE(run_silent, 1);
static const struct kernel k_negative = FAKE(run_negative, 1);
static const struct kernel k_litter = FAKE(run_litter, 1);
static const struct kernel k_litter_hang = FAKE(run_litter_hang, 1);

struct counts {
    int start, sample, progress, note, done;
};

static void on_start(void *c, const struct run *r) { (void)r; ((struct counts *)c)->start++; }
static void on_sample(void *c, const struct run *r, size_t m, double v)
{
    (void)r; (void)m; (void)v;
    ((struct counts *)c)->sample++;
}
static void on_progress(void *c, const struct run *r) { (void)r; ((struct counts *)c)->progress++; }
static void on_note(void *c, const struct run *r, const char *t)
{
    (void)r; (void)t;
    ((struct counts *)c)->note++;
}
static void on_done(void *c, const struct run *r) { (void)r; ((struct counts *)c)->done++; }

static const struct sink counting = {
    .on_start = on_start, .on_sample = on_sample, .on_progress = on_progress,
    .on_note = on_note, .on_done = on_done,
};

static struct run *start(const struct kernel *k, double timeout, struct counts *c)
{
    struct run_options opt = { .params = { .quick = true }, .timeout_s = timeout, .cpu = -1 };
    struct diag d;
    diag_init(&d);
    struct run *run = runner_start(k, &opt, &counting, c, &d);
    ck_assert_msg(run != NULL, "runner_start: %s", d.n ? diag_last(&d) : "?");
    diag_free(&d);
    return run;
}

/* True when no live process (zombies do not count) is left in the group. */
static bool group_alive(pid_t pgid)
{
    DIR *d = opendir("/proc");
    if (!d)
        return kill(-pgid, 0) == 0;
    bool alive = false;
    struct dirent *e;
    while (!alive && (e = readdir(d))) {
        char path[300], buf[512];
        if (e->d_name[0] < '0' || e->d_name[0] > '9')
            continue;
        snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        size_t n = fread(buf, 1, sizeof buf - 1, f);
        fclose(f);
        buf[n] = '\0';
        char *paren = strrchr(buf, ')');   /* the command name may hold spaces */
        char state;
        int ppid, pgrp;
        if (paren && sscanf(paren + 1, " %c %d %d", &state, &ppid, &pgrp) == 3)
            alive = pgrp == pgid && state != 'Z' && state != 'X';
    }
    closedir(d);
    return alive;
}

/* Polls for up to 60 s: a loaded or emulated machine is slow to reap; a
 * group that is gone returns at once. */
static bool group_gone(pid_t pgid)
{
    for (int i = 0; i < 6000; i++) {
        if (!group_alive(pgid))
            return true;
        usleep(10000);
    }
    return false;
}

START_TEST(good_worker_aggregates)
{
    struct counts c = { 0 };
    struct run *run = start(&k_good, 30, &c);
    ck_assert(!runner_wait(run, -1));
    ck_assert_int_eq(run->status, STATUS_OK);
    ck_assert_uint_eq(run->metrics[0].stats.count, 5);
    ck_assert_double_eq_tol(run->metrics[0].stats.max, 500, 1e-9);
    ck_assert_double_eq_tol(stats_median(&run->metrics[1].stats), 13, 1e-9);
    ck_assert_double_eq_tol(run->progress, 1.0, 1e-12);
    ck_assert_uint_eq(run->nnotes, 1);
    ck_assert_str_eq(run->notes[0], "all good");
    ck_assert_int_eq(c.start, 1);
    ck_assert_int_eq(c.sample, 10);
    ck_assert_int_eq(c.progress, 5);
    ck_assert_int_eq(c.done, 1);
    ck_assert_int_eq(runner_fd(run), -1);
    ck_assert(!runner_pump(run));
    runner_free(run);
}
END_TEST

START_TEST(crash_is_reported_and_samples_kept)
{
    struct counts c = { 0 };
    struct run *run = start(&k_crash, 30, &c);
    runner_wait(run, -1);
    ck_assert_int_eq(run->status, STATUS_CRASHED);
    ck_assert_ptr_nonnull(strstr(run->error, "signal 11"));
    ck_assert_uint_eq(run->metrics[0].stats.count, 1);
    ck_assert_int_eq(c.done, 1);
    runner_free(run);
}
END_TEST

START_TEST(hang_times_out_and_whole_group_dies)
{
    struct counts c = { 0 };
    double t0 = now_seconds();
    struct run *run = start(&k_hang, 1.0, &c);
    pid_t pgid = run->pid;
    runner_wait(run, -1);
    double took = now_seconds() - t0;
    ck_assert_int_eq(run->status, STATUS_TIMEOUT);
    /* not before the limit; and the limit, not the test's own 60 s, ended
     * it (a limit read in the wrong unit would be 60 s or 1 ms): the
     * margin is for a slow start under an emulator, not a speed budget */
    ck_assert_msg(took >= 1.0 && took < 30.0, "the 1 s timeout took %.2f s", took);
    ck_assert_ptr_nonnull(strstr(run->error, "time limit of 1 s exceeded"));
    ck_assert_uint_eq(run->metrics[0].stats.count, 1);
    ck_assert(group_gone(pgid));
    runner_free(run);
}
END_TEST

START_TEST(cancel_kills_the_worker)
{
    struct counts c = { 0 };
    struct run *run = start(&k_hang, 60, &c);
    pid_t pgid = run->pid;
    runner_wait(run, 200);
    ck_assert(!run->finished);
    runner_cancel(run);
    ck_assert(run->finished);
    ck_assert_int_eq(run->status, STATUS_CANCELLED);
    ck_assert(group_gone(pgid));
    runner_free(run);
}
END_TEST

/* A fresh TMPDIR for the test: its path (the caller frees). */
static char *fresh_tmpdir(void)
{
    const char *base = getenv("TMPDIR");
    char *t = xasprintf("%s/test_runner.XXXXXX", base && *base ? base : "/tmp");
    ck_assert_ptr_nonnull(mkdtemp(t));
    setenv("TMPDIR", t, 1);
    return t;
}

/* How many entries `dir` holds (. and .. not counted). */
static int entries(const char *dir)
{
    DIR *d = opendir(dir);
    ck_assert_ptr_nonnull(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return n;
}

/* The worker wrote below TMPDIR, in a directory of its own (the note). */
static void check_own_workdir(const struct run *run, const char *tmp)
{
    ck_assert_uint_ge(run->nnotes, 1);
    char *prefix = xasprintf("TMPDIR=%s/evmbench-run_litter", tmp);
    ck_assert_msg(strncmp(run->notes[0], prefix, strlen(prefix)) == 0,
                  "the worker's %s is not a work directory below %s", run->notes[0], tmp);
    free(prefix);
}

START_TEST(work_directory_removed_after_the_run)
{
    char *tmp = fresh_tmpdir();
    struct counts c = { 0 };
    struct run *run = start(&k_litter, 30, &c);
    runner_wait(run, -1);
    ck_assert_int_eq(run->status, STATUS_OK);
    check_own_workdir(run, tmp);
    ck_assert_int_eq(entries(tmp), 0);
    runner_free(run);
    rmdir(tmp);
    free(tmp);
}
END_TEST

START_TEST(work_directory_removed_after_a_cancel)
{
    char *tmp = fresh_tmpdir();
    struct counts c = { 0 };
    struct run *run = start(&k_litter_hang, 60, &c);
    pid_t pgid = run->pid;
    /* until the worker has written (counted: its note), 60 s at most */
    for (int i = 0; i < 600 && !c.note; i++)
        runner_wait(run, 100);
    ck_assert_int_eq(c.note, 1);
    runner_cancel(run);
    ck_assert_int_eq(run->status, STATUS_CANCELLED);
    ck_assert(group_gone(pgid));
    check_own_workdir(run, tmp);
    ck_assert_msg(entries(tmp) == 0, "the cancelled worker's files are left in %s", tmp);
    runner_free(run);
    rmdir(tmp);
    free(tmp);
}
END_TEST

/* A stop signal (kill, Ctrl-C) caught while batch_wait waits cancels the
 * batch: the worker's group is killed, no other kernel starts. */
START_TEST(stop_signal_cancels_the_batch)
{
    ck_assert(stopsig_install());
    struct counts c = { 0 };
    const struct kernel *ks[] = { &k_wait, &k_good };
    struct run_options opt = { .params = { .quick = true }, .timeout_s = 60, .cpu = -1 };
    struct batch *b = batch_start(ks, 2, &opt, &counting, &c);
    pid_t pgid = b->runs[0]->pid;
    batch_wait(b, 200);
    ck_assert(!batch_done(b));
    raise(SIGUSR1);
    ck_assert_int_eq(stopsig_caught(), SIGUSR1);
    ck_assert(!batch_wait(b, 30000));
    ck_assert(batch_done(b));
    ck_assert_int_eq(b->runs[0]->status, STATUS_CANCELLED);
    ck_assert_str_eq(b->runs[0]->error, "stopped by signal 10 (User defined signal 1)");
    ck_assert_ptr_null(b->runs[1]);
    ck_assert(group_gone(pgid));
    batch_free(b);
    stopsig_restore();
}
END_TEST

START_TEST(failing_worker)
{
    struct counts c = { 0 };
    struct run *run = start(&k_fail, 30, &c);
    runner_wait(run, -1);
    ck_assert_int_eq(run->status, STATUS_FAILED);
    ck_assert(run->metrics[0].failed);
    ck_assert_str_eq(run->metrics[0].fail_reason, "cannot allocate 240 MB");
    ck_assert_ptr_nonnull(strstr(run->error, "cannot allocate"));
    runner_free(run);
}
END_TEST

START_TEST(one_metric_fails_the_other_carries_on)
{
    struct counts c = { 0 };
    struct run *run = start(&k_partial, 30, &c);
    runner_wait(run, -1);
    ck_assert_int_eq(run->status, STATUS_OK);
    ck_assert(!run->metrics[0].failed);
    ck_assert_uint_eq(run->metrics[0].stats.count, 1);
    ck_assert(run->metrics[1].failed);
    runner_free(run);
}
END_TEST

START_TEST(protocol_garbage_becomes_notes)
{
    struct counts c = { 0 };
    struct run *run = start(&k_babble, 30, &c);
    runner_wait(run, -1);
    ck_assert_int_eq(run->status, STATUS_OK);
    ck_assert_uint_eq(run->metrics[0].stats.count, 1);
    ck_assert_uint_eq(run->metrics[1].stats.count, 1);
    ck_assert_uint_ge(run->nnotes, 3);  /* bad line, unknown metric, long line */
    runner_free(run);
}
END_TEST

START_TEST(no_samples_is_no_data)
{
    struct counts c = { 0 };
    struct run *run = start(&k_silent, 30, &c);
    runner_wait(run, -1);
    ck_assert_int_eq(run->status, STATUS_NO_DATA);
    runner_free(run);
}
END_TEST

/* A latency at or below zero never reaches the statistics, the live
 * screen (on_sample, the min column) or a report: the metric fails with
 * the value instead; the other metric carries on. Made-up samples. */
START_TEST(latency_never_zero_or_negative)
{
    struct counts c = { 0 };
    struct run *run = start(&k_negative, 30, &c);
    runner_wait(run, -1);
    ck_assert_int_eq(run->status, STATUS_OK);
    const struct run_metric *beta = &run->metrics[1];
    ck_assert_uint_eq(beta->stats.count, 3);
    ck_assert_msg(beta->stats.min > 0, "min %g us", beta->stats.min);
    ck_assert_double_eq_tol(beta->stats.min, 11.0, 1e-12);
    ck_assert(beta->failed);
    ck_assert_msg(strstr(beta->fail_reason, "-0.03 us") &&
                  strstr(beta->fail_reason, "never zero or below"), "%s", beta->fail_reason);
    ck_assert_int_eq(c.sample, 4);              /* 3 of beta, 1 of alpha */
    ck_assert(!run->metrics[0].failed);
    ck_assert_uint_eq(run->metrics[0].stats.count, 1);
    /* the row every view (the live screen's min column) and report is made of */
    struct compare cmp = { 0 };
    struct result_row row;
    result_row_make(&row, run, 1, &cmp);
    ck_assert_msg(row.min > 0 && row.value > 0, "min %g, value %g", row.min, row.value);
    json_t *j = result_row_json(&row);
    ck_assert(json_number_value(json_object_get(j, "min")) > 0);
    json_decref(j);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    ck_assert_ptr_nonnull(f);
    result_row_print_text(&row, NULL, f);
    fclose(f);
    char *nl = strchr(text, '\n');             /* the row; the reason follows */
    if (nl)
        *nl = '\0';
    ck_assert_msg(!strstr(text, " -") && strstr(text, " 12.00 us"), "%s", text);
    free(text);
    /* nothing cut: a name longer than its column on a line of its own, a
     * unit longer than its column whole (DMIPS/MHz, not DMIPS/MH) */
    struct result_row wide = row;
    wide.metric = "lmbench.lat_mem_rd-stride128-sz64000k";
    wide.unit = "dmips/mhz";
    f = open_memstream(&text, &len);
    ck_assert_ptr_nonnull(f);
    result_row_print_text(&wide, NULL, f);
    fclose(f);
    ck_assert_msg(strncmp(text, "lmbench.lat_mem_rd-stride128-sz64000k\n", 38) == 0, "%s", text);
    ck_assert_msg(strstr(text, " DMIPS/MHz "), "%s", text);
    free(text);
    ck_assert_ptr_nonnull(row.error);
    runner_free(run);

    /* which units are durations */
    const char *times[] = { "us", "microsec", "ns", "nanosec", "ms", "Seconds", "u s" };
    const char *others[] = { "mb/s", "%", "num_files", "MHz", "", NULL, "kbytes/sec" };
    for (size_t i = 0; i < ARRAY_SIZE(times); i++)
        ck_assert_msg(unit_is_time(times[i]), "%s", times[i]);
    for (size_t i = 0; i < ARRAY_SIZE(others); i++)
        ck_assert_msg(!unit_is_time(others[i]), "%s", others[i] ? others[i] : "NULL");
}
END_TEST

/* A share of the DDR peak above 100% is impossible, and said to be. */
START_TEST(ddr_peak_line_says_when_it_cannot_be)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    result_print_peak_line(f, 45.6, 3200);
    result_print_peak_line(f, 1287.8, 3200);
    fclose(f);
    ck_assert_str_eq(text, "  = 45.6% of the DDR peak, 3200 MB/s\n"
                           "  = 1287.8% of the DDR peak, 3200 MB/s: more than that DDR can "
                           "move,\n    so the rate or bus width it is computed from is not "
                           "this board's (sysinfo)\n");
    for (char *l = strtok(text, "\n"); l; l = strtok(NULL, "\n"))
        ck_assert_int_le(strlen(l), 80);
    free(text);
}
END_TEST

START_TEST(batch_runs_every_kernel_in_turn)
{
    struct counts c = { 0 };
    const struct kernel *ks[] = { &k_good, &k_crash, &k_partial };
    struct run_options opt = { .params = { .quick = true }, .timeout_s = 30, .cpu = -1 };
    struct batch *b = batch_start(ks, 3, &opt, &counting, &c);
    ck_assert_ptr_nonnull(batch_run(b));
    ck_assert(!batch_wait(b, -1));
    ck_assert(batch_done(b));
    ck_assert_int_eq(c.start, 3);
    ck_assert_int_eq(c.done, 3);
    ck_assert_int_eq(b->runs[0]->status, STATUS_OK);
    ck_assert_int_eq(b->runs[1]->status, STATUS_CRASHED);  /* does not stop the rest */
    ck_assert_int_eq(b->runs[2]->status, STATUS_OK);
    ck_assert(!batch_ok(b));
    ck_assert_ptr_eq(batch_run(b), b->runs[2]);
    ck_assert_int_eq(batch_fd(b), -1);
    ck_assert_double_eq_tol(batch_progress(b), 1.0, 1e-9);
    batch_free(b);
}
END_TEST

START_TEST(batch_cancel_starts_no_other)
{
    struct counts c = { 0 };
    const struct kernel *ks[] = { &k_hang, &k_good };
    struct run_options opt = { .params = { .quick = true }, .timeout_s = 60, .cpu = -1 };
    struct batch *b = batch_start(ks, 2, &opt, &counting, &c);
    pid_t pgid = b->runs[0]->pid;
    batch_wait(b, 200);
    ck_assert(!batch_done(b));
    ck_assert_double_eq_tol(batch_progress(b), 0.0, 1e-9);
    batch_cancel(b);
    ck_assert(batch_done(b));
    ck_assert_int_eq(b->runs[0]->status, STATUS_CANCELLED);
    ck_assert_ptr_null(b->runs[1]);
    ck_assert(!batch_pump(b));
    ck_assert(group_gone(pgid));
    batch_free(b);
    ck_assert_int_eq(c.start, 1);
}
END_TEST

/* A batch put together by hand: no worker runs, the progress is set. */
START_TEST(batch_eta_from_budgets_then_pace)
{
    struct kernel ka = { .name = "a", .budget_quick_s = 10 };
    struct kernel kb = { .name = "b", .budget_quick_s = 30 };
    const struct kernel *ks[] = { &ka, &kb, &kb };
    struct run r0, r1;
    memset(&r0, 0, sizeof r0);
    memset(&r1, 0, sizeof r1);
    struct run *runs[3] = { &r0, NULL, NULL };
    struct batch b = { .kernels = ks, .runs = runs, .n = 3,
                       .opt = { .params = { .quick = true } } };
    /* nothing measured yet: the budgets, 10 + 30 + 30 s */
    ck_assert_double_eq_tol(batch_eta(&b, 0.5), 70.0, 1e-9);
    /* 2 % in: still the budgets, minus what the first kernel did */
    r0.progress = 0.14;
    ck_assert_double_eq_tol(batch_progress(&b), 1.4 / 70, 1e-9);
    ck_assert_double_eq_tol(batch_eta(&b, 1.0), 70 - 1.4, 1e-9);
    /* the first kernel done in 20 s instead of 10: the board's pace, twice
     * the budget, gives 2 * 60 s for the rest */
    r0.progress = 1;
    runs[1] = &r1;
    b.current = 1;
    ck_assert_double_eq_tol(batch_eta(&b, 20.0), 120.0, 1e-9);
    /* the groups: kernels 1 and 2 are the second benchmark */
    ck_assert_uint_eq(batch_group_now(&b), 0);
    size_t group[] = { 0, 1, 1 };
    batch_set_groups(&b, group, 2);
    ck_assert_uint_eq(b.ngroups, 2);
    ck_assert_uint_eq(batch_group_now(&b), 1);
    b.current = 3;              /* done: the last benchmark, nothing left */
    ck_assert_uint_eq(batch_group_now(&b), 1);
    ck_assert_double_eq_tol(batch_eta(&b, 99.0), 0.0, 1e-9);
    free(b.group);
}
END_TEST

Suite *suite_runner(void)
{
    Suite *s = suite_create("runner");
    TCase *tc = tcase_create("workers");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, good_worker_aggregates);
    tcase_add_test(tc, crash_is_reported_and_samples_kept);
    tcase_add_test(tc, hang_times_out_and_whole_group_dies);
    tcase_add_test(tc, cancel_kills_the_worker);
    tcase_add_test(tc, work_directory_removed_after_the_run);
    tcase_add_test(tc, work_directory_removed_after_a_cancel);
    tcase_add_test(tc, stop_signal_cancels_the_batch);
    tcase_add_test(tc, failing_worker);
    tcase_add_test(tc, one_metric_fails_the_other_carries_on);
    tcase_add_test(tc, protocol_garbage_becomes_notes);
    tcase_add_test(tc, no_samples_is_no_data);
    tcase_add_test(tc, latency_never_zero_or_negative);
    tcase_add_test(tc, ddr_peak_line_says_when_it_cannot_be);
    tcase_add_test(tc, batch_runs_every_kernel_in_turn);
    tcase_add_test(tc, batch_cancel_starts_no_other);
    tcase_add_test(tc, batch_eta_from_budgets_then_pace);
    suite_add_tcase(s, tc);
    return s;
}
