/* test_os.c - the OS kernels (lmbench lat_syscall, lat_sig, IPC latencies,
 * bw_pipe/bw_unix, lat_proc, lat_ctx, lat_pagefault/lat_mmap, lat_fs) run
 * in-process in quick mode with few repetitions, and the timing harness. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kernel/kernel.h"
#include "benches/kernels/kernel_util.h"
#include "benches/kernels/lat_sig.h"
#include "kernel/report.h"
#include "suites.h"
#include "test_helpers.h"
#include "common/util.h"
#include "benches/kernels/registry.h"

/* The LMBench rows of the guide these kernels serve, with the guide's
 * units (evmbench refs --board am62xx_sk-fs --section LMBench). */
static const struct { const char *id, *unit; } guide_rows[] = {
    { "lat_syscall-null", "us" }, { "lat_syscall-read", "us" },
    { "lat_syscall-write", "us" }, { "lat_syscall-stat", "us" },
    { "lat_syscall-fstat", "us" }, { "lat_syscall-open", "us" },
    { "lat_pipe", "us" }, { "lat_unix", "us" }, { "lat_tcp", "us" },
    { "lat_connect", "us" }, { "lat_select", "us" }, { "lat_sem", "us" },
    { "lat_sig-install", "us" }, { "lat_sig-catch", "us" }, { "lat_sig-prot", "us" },
    { "lat_pagefault", "us" }, { "lat_mmap-1m", "us" },
    { "lat_ctx-2-128k", "us" }, { "lat_ctx-2-256k", "us" },
    { "lat_ctx-4-128k", "us" }, { "lat_ctx-4-256k", "us" },
    { "lat_proc-fork", "us" }, { "lat_proc-exec", "us" }, { "lat_proc-proccall", "us" },
    { "lat_fs-0k", "num_files" }, { "lat_fs-1k", "num_files" },
    { "lat_fs-4k", "num_files" }, { "lat_fs-10k", "num_files" },
    { "bw_pipe", "mb/s" }, { "bw_unix", "mb/s" },
    { "af_unix_sock_stream_latency", "microsec" },
    { "af_unix_socket_stream_bandwidth", "mbs" },
    { "pipe_bandwidth", "mbs" }, { "pipe_latency", "microsec" },
    { "procedure_call", "microsec" }, { "select_on_200_tcp_fds", "microsec" },
    { "semaphore_latency", "microsec" }, { "signal_handler_latency", "microsec" },
    { "signal_handler_overhead", "microsec" },
    { "tcp_ip_connection_cost_to_localhost", "microsec" },
    { "tcp_latency_using_localhost", "microsec" },
};

/* Alias rows: the same lmbench number printed twice in the guide. */
static const struct { const char *alias, *id; } aliases[] = {
    { "af_unix_sock_stream_latency", "lat_unix" },
    { "af_unix_socket_stream_bandwidth", "bw_unix" },
    { "pipe_bandwidth", "bw_pipe" }, { "pipe_latency", "lat_pipe" },
    { "procedure_call", "lat_proc-proccall" },
    { "select_on_200_tcp_fds", "lat_select" }, { "semaphore_latency", "lat_sem" },
    { "signal_handler_latency", "lat_sig-install" },
    { "signal_handler_overhead", "lat_sig-catch" },
    { "tcp_ip_connection_cost_to_localhost", "lat_connect" },
    { "tcp_latency_using_localhost", "lat_tcp" },
};

static const char *const os_kernels[] = {
    "lat_syscall", "lat_sig", "lat_ipc", "bw_ipc", "lat_proc", "lat_ctx", "lat_vm", "lat_fs",
};

/* Metrics that are a difference of two medians (lmbench subtracts an
 * overhead measured on its own): reported once, above zero, or failed
 * with both figures when noise drowns the difference (kb_report_net). */
static bool differenced(const char *id)
{
    return str_starts_with(id, "lat_ctx-") || strcmp(id, "lat_pagefault") == 0 ||
           strcmp(id, "lat_sig-catch") == 0 || strcmp(id, "lat_sig-prot") == 0 ||
           strcmp(id, "signal_handler_overhead") == 0;
}

/* Such a difference can drown in the noise of a loaded machine: then the
 * metric fails, saying so, instead of reporting a latency below zero.
 * That is the one failure a quick run may have. */
static bool noise_failure(const struct run_events *e, size_t i)
{
    return differenced(e->k->metrics[i].id) && e->fail_texts[i] &&
           (strstr(e->fail_texts[i], "the difference is noise") ||
            strstr(e->fail_texts[i], "no catch cost to subtract"));
}

/* Quick, 3 repetitions: small enough for qemu. */
static int run_kernel(const char *name, struct run_events *e)
{
    struct kernel_params p = { .quick = true, .iterations = 3 };
    return run_events_kernel(name, &p, NULL, e);
}

static double mean_of(const struct run_events *e, const char *id)
{
    int i = test_metric_find(e->k, id);
    ck_assert_msg(i >= 0 && e->samples[i] > 0, "no samples for %s", id);
    return e->sum[i] / e->samples[i];
}

/* The smallest sample: what a relation between two metrics compares, as a
 * preempted interval on a loaded machine inflates a mean (once lat_pipe's
 * mean fell below half the null syscall's at a load of 10). */
static double best_of(const struct run_events *e, const char *id)
{
    int i = test_metric_find(e->k, id);
    ck_assert_msg(i >= 0 && e->samples[i] > 0, "no samples for %s", id);
    return e->min[i];
}

/* Processes whose parent is this process. */
static int count_children(void)
{
    DIR *d = opendir("/proc");
    if (!d)
        return -1;
    int n = 0;
    pid_t me = getpid();
    struct dirent *de;
    while ((de = readdir(d))) {
        char path[300];
        snprintf(path, sizeof path, "/proc/%s/stat", de->d_name);
        if (de->d_name[0] < '0' || de->d_name[0] > '9')
            continue;
        char *st = read_file(path, 4096, NULL);
        if (!st)
            continue;
        char *rp = strrchr(st, ')');
        int ppid = 0;
        char state;
        if (rp && sscanf(rp + 1, " %c %d", &state, &ppid) == 2 && ppid == me)
            n++;
        free(st);
    }
    closedir(d);
    return n;
}

static int count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    int n = 0;
    struct dirent *de;
    while ((de = readdir(d)))
        if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
            n++;
    closedir(d);
    return n;
}

/* A fresh $TMPDIR for one test; removed by the caller with kb_rmtree. */
static char *private_tmpdir(void)
{
    const char *base = getenv("TMPDIR");
    char *dir = xasprintf("%s/evmbench-test-os-XXXXXX", base && *base ? base : "/tmp");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    setenv("TMPDIR", dir, 1);
    return dir;
}

START_TEST(metrics_match_the_guide)
{
    /* every guide row is produced by exactly one OS kernel, in its unit */
    for (size_t g = 0; g < ARRAY_SIZE(guide_rows); g++) {
        int found = 0;
        for (size_t k = 0; k < ARRAY_SIZE(os_kernels); k++) {
            const struct kernel *kn = kernel_find(os_kernels[k]);
            ck_assert_ptr_nonnull(kn);
            int i = test_metric_find(kn, guide_rows[g].id);
            if (i >= 0) {
                found++;
                ck_assert_str_eq(kn->metrics[i].unit, guide_rows[g].unit);
                ck_assert_int_eq(kn->metrics[i].summary, SUMMARY_MEDIAN);
            }
        }
        ck_assert_msg(found == 1, "%s provided %d times", guide_rows[g].id, found);
    }
    /* and nothing else but lat_fs's creation/deletion rates */
    size_t extras = 0;
    for (size_t k = 0; k < ARRAY_SIZE(os_kernels); k++) {
        const struct kernel *kn = kernel_find(os_kernels[k]);
        ck_assert_str_eq(kn->section, "lmbench");
        ck_assert_str_eq(kn->name, os_kernels[k]);
        ck_assert_ptr_nonnull(kn->description);
        ck_assert(kn->budget_quick_s > 0 && kn->budget_full_s >= kn->budget_quick_s);
        for (size_t i = 0; i < kn->nmetrics; i++) {
            bool in_guide = false;
            for (size_t g = 0; g < ARRAY_SIZE(guide_rows); g++)
                in_guide |= strcmp(guide_rows[g].id, kn->metrics[i].id) == 0;
            if (!in_guide) {
                ck_assert_msg(str_starts_with(kn->metrics[i].id, "lat_fs-") &&
                              (str_ends_with(kn->metrics[i].id, "-creates") ||
                               str_ends_with(kn->metrics[i].id, "-deletes")),
                              "unexpected metric %s", kn->metrics[i].id);
                ck_assert_str_eq(kn->metrics[i].unit, "files/s");
                extras++;
            }
        }
    }
    ck_assert_uint_eq(extras, 8);
}
END_TEST

/* Each kernel: every metric sampled, values positive and finite, aliases
 * equal to their rows, no process or file left behind. */
START_TEST(quick_run_is_clean)
{
    const char *name = os_kernels[_i];
    char *tmp = private_tmpdir();
    int before = count_children();
    struct run_events e;
    int rc = run_kernel(name, &e);
    /* a loaded machine can drown every one of lat_ctx's differences */
    bool all_noise = true;
    for (size_t i = 0; i < e.k->nmetrics; i++)
        all_noise &= noise_failure(&e, i);
    ck_assert_msg(rc == 0 || all_noise, "%s failed: %s", name,
                  e.fail_text ? e.fail_text : "?");
    for (size_t i = 0; i < e.k->nmetrics; i++) {
        if (noise_failure(&e, i))
            continue;
        ck_assert_msg(e.fails[i] == 0, "%s: %s", e.k->metrics[i].id, e.fail_texts[i]);
        ck_assert_msg(e.samples[i] >= 1, "%s: no sample", e.k->metrics[i].id);
        /* a difference of medians is one value, not one per interval */
        if (differenced(e.k->metrics[i].id))
            ck_assert_msg(e.samples[i] == 1, "%s: %d samples, each less the overhead",
                          e.k->metrics[i].id, e.samples[i]);
    }
    ck_assert_int_eq(e.unknown_fails, 0);
    ck_assert_int_eq(e.unknown_samples + e.unknown_fails, 0);
    ck_assert_msg(e.bad_values == 0, "%s", e.bad_text);
    ck_assert_int_ge(e.progress, 2);
    for (size_t a = 0; a < ARRAY_SIZE(aliases); a++) {
        int ia = test_metric_find(e.k, aliases[a].alias);
        int ii = test_metric_find(e.k, aliases[a].id);
        if (ia < 0 && ii < 0)
            continue;
        ck_assert_msg(ia >= 0 && ii >= 0, "%s and %s in different kernels",
                      aliases[a].alias, aliases[a].id);
        ck_assert_int_eq(e.samples[ia], e.samples[ii]);
        ck_assert_double_eq(e.sum[ia], e.sum[ii]);
    }
    ck_assert_int_eq(count_children(), before);
    ck_assert_int_eq(count_entries(tmp), 0);
    kb_rmtree(tmp);
    free(tmp);
    run_events_free(&e);
}
END_TEST

/* How the values relate, which holds on any machine at any speed: no
 * magnitude is assumed (values are positive and finite: quick_run_is_clean);
 * each side is the metric's best sample (best_of). */
START_TEST(values_are_plausible)
{
    struct run_events sc, pr, ipc, bw, fs;
    char *tmp = private_tmpdir();
    ck_assert_int_eq(run_kernel("lat_syscall", &sc), 0);
    ck_assert_int_eq(run_kernel("lat_proc", &pr), 0);
    ck_assert_int_eq(run_kernel("lat_ipc", &ipc), 0);
    ck_assert_int_eq(run_kernel("bw_ipc", &bw), 0);
    ck_assert_int_eq(run_kernel("lat_fs", &fs), 0);

    double null = best_of(&sc, "lat_syscall-null"), fork_us = best_of(&pr, "lat_proc-fork");
    ck_assert_msg(null > 0 && isfinite(null), "null syscall %g us", null);
    ck_assert_msg(null < fork_us, "null %g us, fork %g us", null, fork_us);
    ck_assert_msg(best_of(&pr, "lat_proc-proccall") < null, "a call is not a syscall");
    ck_assert_msg(best_of(&sc, "lat_syscall-open") > best_of(&sc, "lat_syscall-fstat") / 10,
                  "open/close against fstat");
    ck_assert_msg(best_of(&pr, "lat_proc-exec") > null, "exec %g us, null syscall %g us",
                  best_of(&pr, "lat_proc-exec"), null);
    ck_assert(best_of(&ipc, "lat_pipe") > null / 2);
    ck_assert(best_of(&ipc, "lat_tcp") > null / 2 && best_of(&ipc, "lat_connect") > null / 2);
    for (int i = 0; i < 2; i++) {
        double mbs = mean_of(&bw, i ? "bw_unix" : "bw_pipe");
        ck_assert_msg(mbs > 0 && isfinite(mbs), "%g MB/s", mbs);
    }
    /* num_files: files created in one interval, a whole number; the rate
     * is of the same interval, so count / rate is its length, positive
     * (how long it is depends on the harness and the machine) */
    const char *sizes[] = { "0k", "1k", "4k", "10k" };
    for (int i = 0; i < 4; i++) {
        char id[32], cr[48], de[48];
        snprintf(id, sizeof id, "lat_fs-%s", sizes[i]);
        snprintf(cr, sizeof cr, "lat_fs-%s-creates", sizes[i]);
        snprintf(de, sizeof de, "lat_fs-%s-deletes", sizes[i]);
        double n = fs.last[run_events_index(&fs, id)];
        double rate = fs.last[run_events_index(&fs, cr)];
        ck_assert_double_eq(n, floor(n));
        ck_assert(n >= 1);
        ck_assert_msg(rate > 0 && isfinite(n / rate) && n / rate > 0, "%s: %g files, %g/s", id,
                      n, rate);
        ck_assert(mean_of(&fs, de) > 0);
    }
    kb_rmtree(tmp);
    free(tmp);
    run_events_free(&sc);
    run_events_free(&pr);
    run_events_free(&ipc);
    run_events_free(&bw);
    run_events_free(&fs);
}
END_TEST

/* No writable temporary directory: the file-based metrics fail with the
 * reason, the others still run. */
START_TEST(no_temp_dir_fails_cleanly)
{
    setenv("TMPDIR", "/dev/null/nonexistent", 1);
    struct run_events e;
    ck_assert_int_eq(run_kernel("lat_fs", &e), -1);
    for (size_t i = 0; i < e.k->nmetrics; i++) {
        ck_assert_int_eq(e.fails[i], 1);
        ck_assert_int_eq(e.samples[i], 0);
    }
    ck_assert_ptr_nonnull(strstr(e.fail_text, "temporary directory"));
    ck_assert_ptr_nonnull(strstr(e.fail_text, "/dev/null/nonexistent"));
    run_events_free(&e);

    ck_assert_int_eq(run_kernel("lat_vm", &e), -1);
    ck_assert_int_eq(e.fails[0] + e.fails[1], 2);
    run_events_free(&e);

    ck_assert_int_eq(run_kernel("lat_syscall", &e), 0);
    for (size_t i = 0; i < e.k->nmetrics; i++) {
        bool file = strstr(e.k->metrics[i].id, "stat") || strstr(e.k->metrics[i].id, "open");
        ck_assert_int_eq(e.fails[i], file ? 1 : 0);
        ck_assert_int_eq(e.samples[i] > 0, !file);
    }
    run_events_free(&e);
}
END_TEST

/* Harness: the requested repetitions, each at least 0.95 x enough; an
 * error of the operation ends the measurement with its message. */
static int fail_always(void *ctx, uint64_t n, char *err, size_t len)
{
    (void)ctx;
    (void)n;
    snprintf(err, len, "broken on purpose");
    return -1;
}

static int spin(void *ctx, uint64_t n, char *err, size_t len)
{
    (void)err;
    (void)len;
    volatile uint64_t *c = ctx;
    while (n-- > 0)
        (*c)++;
    return 0;
}

START_TEST(harness_records_and_fails)
{
    volatile uint64_t count = 0;
    struct kb_opts o = { .enough_s = 0.002, .reps = 5 };
    struct kb_result res;
    char err[64] = "";
    ck_assert_int_eq(kb_measure(spin, (void *)&count, &o, &res, err, sizeof err), 0);
    ck_assert_int_eq(res.count, 5);
    for (int i = 0; i < res.count; i++)
        ck_assert(res.iv[i].secs > 0.95 * 0.002 && res.iv[i].n > 0);
    kb_result_free(&res);

    ck_assert_int_eq(kb_measure(fail_always, NULL, &o, &res, err, sizeof err), -1);
    ck_assert_str_eq(err, "broken on purpose");
}
END_TEST

/* lmbench's save_median(): sorted by time per iteration; even counts
 * average the two middle intervals. */
START_TEST(median_like_lmbench)
{
    struct kb_interval iv[4] = { { 4.0, 2 }, { 1.0, 1 }, { 9.0, 3 }, { 5.0, 1 } };
    struct kb_result res = { .iv = iv, .count = 3 };
    struct kb_interval m = kb_median(&res);     /* per op 2, 1, 3 -> 2 */
    ck_assert_double_eq(m.secs, 4.0);
    ck_assert_uint_eq(m.n, 2);
    res.count = 4;                              /* 5, 3, 2, 1 -> (3+2)/2 */
    m = kb_median(&res);
    ck_assert_double_eq(m.secs, 6.5);
    ck_assert_uint_eq(m.n, 2);
}
END_TEST

/* What lat_sig_report_difference reported. */
struct diff_events {
    int samples, fails;
    double value, min;
    char fail_text[256];
};

static void diff_collect(void *ctx, const struct report_event *ev)
{
    struct diff_events *d = ctx;
    if (ev->kind == REPORT_SAMPLE && strcmp(ev->metric, "lat_sig-prot") == 0) {
        d->min = d->samples++ ? fmin(d->min, ev->value) : ev->value;
        d->value = ev->value;
    } else if (ev->kind == REPORT_FAIL) {
        d->fails++;
        snprintf(d->fail_text, sizeof d->fail_text, "%s", ev->text);
    }
}

static struct diff_events report_difference(const struct kb_result *raw, double overhead_us)
{
    struct diff_events d = { 0 };
    struct report r;
    report_to_callback(&r, diff_collect, &d);
    lat_sig_report_difference(&r, "lat_sig-prot", NULL, raw, overhead_us);
    return d;
}

/* lat_sig's protection fault and catch costs are a cost less an overhead
 * measured on its own: intervals faster than the overhead's median (noise,
 * or load that changed between the two measurements) never make a
 * latency below zero. Made-up intervals: no machine speed involved. */
START_TEST(sig_difference_never_negative)
{
    /* per operation 3.0, 2.2, 2.6, 1.8, 2.5 us: the median 2.5 */
    struct kb_interval iv[] = { { 3.0e-3, 1000 }, { 2.2e-3, 1000 }, { 2.6e-3, 1000 },
                                { 1.8e-3, 1000 }, { 2.5e-3, 1000 } };
    struct kb_result raw = { .iv = iv, .count = 5 };
    /* the median is above the overhead, two intervals are not */
    struct diff_events d = report_difference(&raw, 2.3);
    ck_assert_int_eq(d.fails, 0);
    ck_assert_int_ge(d.samples, 1);
    ck_assert_msg(d.min > 0, "a latency of %g us was reported", d.min);
    ck_assert_double_eq_tol(d.value, 0.2, 1e-9);
    /* the median is not above the overhead: no value, the reason */
    d = report_difference(&raw, 2.5);
    ck_assert_int_eq(d.samples, 0);
    ck_assert_int_eq(d.fails, 1);
    ck_assert_msg(strstr(d.fail_text, "2.5000 us") && strstr(d.fail_text, "not above"),
                  "%s", d.fail_text);
    d = report_difference(&raw, 4.0);
    ck_assert_int_eq(d.samples, 0);
    ck_assert_int_eq(d.fails, 1);
}
END_TEST

/* Every kernel that takes an overhead away (lat_ctx, lat_pagefault,
 * lat_sig, lat_ops' mod) goes through kb_report_net: one value above zero
 * for every id, or a failure naming both figures. Made-up figures. */
START_TEST(net_is_one_value_above_zero)
{
    const char *ids[] = { "lat_ctx-2-128k", NULL, "lat_sig-prot" };
    struct diff_events d = { 0 };
    struct report r;
    report_to_callback(&r, diff_collect, &d);
    ck_assert_int_eq(kb_report_net(&r, ids, 3, "us", 2.5, 2.25), 0);
    ck_assert_int_eq(d.samples, 1);
    ck_assert_int_eq(d.fails, 0);
    ck_assert_double_eq_tol(d.value, 0.25, 1e-12);
    /* level with, below the overhead, or not a number: failures, no value */
    const double gross[] = { 2.25, 1.0, NAN, INFINITY, 3.0 };
    const double over[] = { 2.25, 1.5, 1.0, 1.0, NAN };
    for (size_t i = 0; i < ARRAY_SIZE(gross); i++) {
        d = (struct diff_events){ 0 };
        ck_assert_int_eq(kb_report_net(&r, ids, 3, "ns", gross[i], over[i]), -1);
        ck_assert_int_eq(d.samples, 0);
        ck_assert_int_eq(d.fails, 2);           /* the NULL id is skipped */
        ck_assert_msg(strstr(d.fail_text, " ns with the overhead") &&
                      strstr(d.fail_text, "the difference is noise"), "%s", d.fail_text);
    }
    d = (struct diff_events){ 0 };
    kb_report_net(&r, ids, 3, "us", 1.0, 1.5);
    ck_assert_msg(strstr(d.fail_text, "1.0000 us") && strstr(d.fail_text, "1.5000 us"),
                  "both figures: %s", d.fail_text);
}
END_TEST

Suite *suite_os(void)
{
    Suite *s = suite_create("os");
    TCase *tc = tcase_create("registry");
    tcase_add_test(tc, metrics_match_the_guide);
    tcase_add_test(tc, median_like_lmbench);
    tcase_add_test(tc, sig_difference_never_negative);
    tcase_add_test(tc, net_is_one_value_above_zero);
    suite_add_tcase(s, tc);

    tc = tcase_create("run");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, harness_records_and_fails);
    tcase_add_loop_test(tc, quick_run_is_clean, 0, (int)ARRAY_SIZE(os_kernels));
    tcase_add_test(tc, values_are_plausible);
    tcase_add_test(tc, no_temp_dir_fails_cleanly);
    suite_add_tcase(s, tc);
    return s;
}
