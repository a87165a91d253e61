/* test_select.c - a profile's metric list selects what is measured
 * (kernel_params.only): the kernels run in-process and the tests count
 * what they reported, never how long it took; the runner's and the
 * profile's part; `run --profile` end to end. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "cli/cli.h"
#include "common/diag.h"
#include "common/status.h"
#include "common/util.h"
#include "data/catalog.h"
#include "data/profile.h"
#include "kernel/kernel.h"
#include "run/profile_run.h"
#include "run/runner.h"
#include "suites.h"
#include "test_helpers.h"
#include "benches/kernels/registry.h"

/* Runs kernel `name` under p with only the `n` ids, and checks that
 * exactly those metrics got samples, and that nothing else was reported
 * (no sample, no failure of another metric). */
static void measures_only(const char *name, struct kernel_params p, const char *const *ids,
                          size_t n)
{
    struct run_events e;
    p.only = ids;
    p.nonly = n;
    int rc = run_events_kernel(name, &p, NULL, &e);
    size_t measured = 0;
    int noise = 0;
    for (size_t i = 0; i < e.k->nmetrics; i++) {
        const char *id = e.k->metrics[i].id;
        bool wanted = false;
        for (size_t j = 0; j < n; j++)
            wanted |= strcmp(ids[j], id) == 0;
        /* a difference of medians (lat_ctx, lat_ops mod) that noise drowned
         * was measured: it fails with both figures (kb_report_net) */
        bool drowned = e.fail_texts[i] && strstr(e.fail_texts[i], "the difference is noise");
        if (wanted)
            ck_assert_msg(e.samples[i] > 0 || drowned, "%s: %s asked for, not measured",
                          name, id);
        else
            ck_assert_msg(e.samples[i] == 0 && e.fails[i] == 0,
                          "%s: %s not asked for, yet %d samples, %d failures", name, id,
                          e.samples[i], e.fails[i]);
        measured += e.samples[i] > 0 || drowned;
        noise += drowned;
    }
    ck_assert_msg(rc == 0 || noise > 0, "%s: rc %d: %s %s", name, rc,
                  e.fail_metric ? e.fail_metric : "", e.fail_text ? e.fail_text : "");
    ck_assert_uint_eq(measured, n);
    ck_assert_int_eq(e.unknown_samples, 0);
    ck_assert_int_eq(e.nfails, noise);
    ck_assert_msg(!e.progress_backwards && !e.progress_over, "%s: progress out of range", name);
    ck_assert_double_eq(e.last_done, e.last_total);
    run_events_free(&e);
}

/* bw_mem asked for 2 of its 45 rows, at 2 sizes, runs those 2. */
START_TEST(bw_mem_two_sizes)
{
    const char *ids[] = { "bw_mem-bcopy-1mb", "bw_mem-rd-2mb" };
    measures_only("bw_mem", (struct kernel_params){ .quick = true, .iterations = 1 }, ids, 2);
}
END_TEST

START_TEST(bw_mmap_rd_one_mode)
{
    const char *ids[] = { "bw_mmap_rd-o2c-1mb" };
    measures_only("bw_mmap_rd", (struct kernel_params){ .quick = true, .iterations = 1,
                                                        .size = 64 << 10 }, ids, 1);
}
END_TEST

/* A point asked for by its alias only: the alias gets the samples, its
 * other name does not. */
START_TEST(lat_mem_rd_points)
{
    const char *ids[] = { "lat_mem_rd-stride128-sz50", "latency_for_0.50_mb_block_size" };
    measures_only("lat_mem_rd", (struct kernel_params){ .quick = true, .iterations = 1 }, ids, 2);
}
END_TEST

START_TEST(lat_ctx_one_case)
{
    const char *ids[] = { "lat_ctx-4-256k" };
    measures_only("lat_ctx", (struct kernel_params){ .quick = true, .iterations = 2 }, ids, 1);
}
END_TEST

START_TEST(lat_syscall_one_call)
{
    const char *ids[] = { "lat_syscall-null" };
    measures_only("lat_syscall", (struct kernel_params){ .quick = true, .iterations = 2 }, ids, 1);
}
END_TEST

/* Copy and Triad without Scale and Add: the validation replays only the
 * ops that ran, so it still passes (no failure). */
START_TEST(stream_two_ops)
{
    const char *ids[] = { "copy", "triad" };
    measures_only("stream", (struct kernel_params){ .quick = true, .iterations = 3,
                                                    .size = 200000 }, ids, 2);
}
END_TEST

START_TEST(dhrystone_clock_only)
{
    const char *ids[] = { "cpu_clock" };
    measures_only("dhrystone", (struct kernel_params){ .quick = true, .iterations = 2 }, ids, 1);
}
END_TEST

/* lat_sig under a selection: what is not asked for is neither reported
 * nor failed; what is asked for is reported, or failed as noise when the
 * difference of two medians is not above zero on a busy machine (the
 * kernel's own rule, not this test's subject). Counts, not timing. */
static void lat_sig_reports_only(const char *const *ids, size_t n)
{
    struct run_events e;
    struct kernel_params p = { .quick = true, .iterations = 2, .only = ids, .nonly = n };
    run_events_kernel("lat_sig", &p, NULL, &e);
    size_t answered = 0;
    for (size_t i = 0; i < e.k->nmetrics; i++) {
        const char *id = e.k->metrics[i].id;
        bool wanted = false;
        for (size_t j = 0; j < n; j++)
            wanted |= strcmp(ids[j], id) == 0;
        if (!wanted) {
            ck_assert_msg(e.samples[i] == 0 && e.fails[i] == 0,
                          "lat_sig: %s not asked for, yet %d samples, %d failures", id,
                          e.samples[i], e.fails[i]);
            continue;
        }
        ck_assert_msg(e.samples[i] > 0 ||
                      (e.fails[i] > 0 && strstr(e.fail_texts[i], "not above")),
                      "lat_sig: %s asked for: %d samples, failure: %s", id, e.samples[i],
                      e.fail_texts[i] ? e.fail_texts[i] : "none");
        answered++;
    }
    ck_assert_uint_eq(answered, n);
    ck_assert_int_eq(e.unknown_samples, 0);
    ck_assert_int_eq(e.unknown_fails, 0);
    run_events_free(&e);
}

/* install alone measures no catch and no fault; the fault alone measures
 * the catch cost it subtracts, but reports only the fault; the catch
 * cost by its guide name alone. */
START_TEST(lat_sig_follows_the_list)
{
    static const char *const install[] = { "lat_sig-install" };
    static const char *const prot[] = { "lat_sig-prot" };
    static const char *const catch_alias[] = { "signal_handler_overhead" };
    static const char *const catch_prot[] = { "lat_sig-catch", "lat_sig-prot" };
    lat_sig_reports_only(install, 1);
    lat_sig_reports_only(prot, 1);
    lat_sig_reports_only(catch_alias, 1);
    lat_sig_reports_only(catch_prot, 2);
}
END_TEST

/* Every kernel that has several metrics, asked for its last one through
 * kb_metric_run or its own loop, reports that one only. The kernels whose
 * run is long or needs more than this machine gives are covered above
 * or left to their own suites. */
START_TEST(os_kernels_one_metric)
{
    static const struct { const char *kernel, *metric; } cases[] = {
        { "lat_proc", "lat_proc-proccall" },
        { "lat_vm", "lat_mmap-1m" },
        { "lat_ops", NULL },
        { "lat_ipc", "lat_pipe" },
        { "bw_ipc", "bw_pipe" },
        { "lat_fs", NULL },
        { "lat_ops", "lat_ops-int64-mod" },     /* timed after int64-bit, unreported */
    };
    for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
        const struct kernel *k = kernel_find(cases[i].kernel);
        ck_assert_msg(k != NULL, "%s", cases[i].kernel);
        const char *id = cases[i].metric ? cases[i].metric : k->metrics[k->nmetrics - 1].id;
        ck_assert_msg(kernel_metric_find(k, id), "%s has no %s", k->name, id);
        measures_only(k->name, (struct kernel_params){ .quick = true, .iterations = 2 }, &id, 1);
    }
}
END_TEST

/* The CPU kernels: one precision of LINPACK, one row of Whetstone's
 * run, one BYTEmark workload. */
START_TEST(cpu_kernels_one_metric)
{
    static const struct { const char *kernel, *metric; } cases[] = {
        { "linpack", "linpack-double" },
        { "whetstone", "whetstone-full" },
        { "nbench", "idea" },
    };
    for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
        const char *id = cases[i].metric;
        measures_only(cases[i].kernel, (struct kernel_params){ .quick = true, .iterations = 1 },
                      &id, 1);
    }
}
END_TEST

/* kernel_wants: all without a list, case-insensitive with one, never a
 * NULL id. */
START_TEST(wants_follows_the_list)
{
    struct kernel_params p = { 0 };
    ck_assert(kernel_wants(&p, "copy"));
    ck_assert(kernel_wants(NULL, "copy"));
    ck_assert(!kernel_wants(&p, NULL));
    const char *ids[] = { "Copy" };
    p.only = ids;
    p.nonly = 1;
    ck_assert(kernel_wants(&p, "copy"));
    ck_assert(!kernel_wants(&p, "triad"));
    const char *two[] = { "triad", "copy" };
    ck_assert(kernel_wants_any(&p, two, 2));
    ck_assert(!kernel_wants_any(&p, two, 1));
}
END_TEST

/* The runner's run holds only the picked metrics, in the kernel's order;
 * a metric the kernel lacks keeps it from starting. */
START_TEST(runner_holds_the_picked_metrics)
{
    const struct kernel *k = kernel_find("lat_syscall");
    const char *ids[] = { "lat_syscall-open", "LAT_SYSCALL-NULL" };
    struct run_options o = { .params = { .quick = true, .iterations = 2, .only = ids,
                                         .nonly = 2 }, .cpu = -1 };
    struct diag d;
    diag_init(&d);
    struct run *run = runner_start(k, &o, NULL, NULL, &d);
    ck_assert_msg(run, "%s", diag_last(&d));
    runner_wait(run, -1);
    ck_assert_int_eq(run->status, STATUS_OK);
    ck_assert_uint_eq(run->nmetrics, 2);
    ck_assert_str_eq(run->metrics[0].def->id, "lat_syscall-null");
    ck_assert_str_eq(run->metrics[1].def->id, "lat_syscall-open");
    for (size_t i = 0; i < run->nmetrics; i++)
        ck_assert_uint_gt(run->metrics[i].stats.count, 0);
    ck_assert_uint_eq(run->nnotes, 0);      /* nothing "not asked for" came */
    runner_free(run);

    const char *bad[] = { "lat_syscall-null", "lat_syscall-nosuch" };
    o.params.only = bad;
    ck_assert_ptr_null(runner_start(k, &o, NULL, NULL, &d));
    ck_assert_str_eq(diag_last(&d), "lat_syscall has no metric 'lat_syscall-nosuch'");
    diag_free(&d);
}
END_TEST

/* profile_bench_pick: the kernel's own ids, in its order, each once;
 * profile_bench_unknown: the first listed id no kernel has. */
START_TEST(profile_picks_and_unknown)
{
    struct profile p;
    struct diag d;
    memset(&p, 0, sizeof p);
    diag_init(&d);
    ck_assert_int_eq(profile_parse(&p, "bench lmbench lat_syscall-open BW_MEM-rd-1mb "
                                       "lat_syscall-null\nbench bw_mem\n"
                                       "bench lat_ctx lat_ctx-2-128k nosuch\n", "t.profile",
                                   &d), 0);
    const struct kernel *sc = kernel_find("lat_syscall"), *bw = kernel_find("bw_mem");
    const char *ids[64];
    size_t n = 0;
    profile_bench_pick(&p.benches[0], sc, ids, &n);
    profile_bench_pick(&p.benches[0], sc, ids, &n);     /* twice: no repeats */
    ck_assert_uint_eq(n, 2);
    ck_assert_ptr_eq(ids[0], kernel_metric_find(sc, "lat_syscall-null")->id);
    ck_assert_ptr_eq(ids[1], kernel_metric_find(sc, "lat_syscall-open")->id);
    n = 0;
    profile_bench_pick(&p.benches[0], bw, ids, &n);
    ck_assert_uint_eq(n, 1);
    ck_assert_str_eq(ids[0], "bw_mem-rd-1mb");
    n = 0;
    profile_bench_pick(&p.benches[1], bw, ids, &n);     /* no list: all */
    ck_assert_uint_eq(n, bw->nmetrics);
    const struct kernel *both[] = { sc, bw };
    ck_assert_ptr_null(profile_bench_unknown(&p.benches[0], both, 2));
    ck_assert_str_eq(profile_bench_unknown(&p.benches[0], both, 1), "BW_MEM-rd-1mb");
    const struct kernel *ctx[] = { kernel_find("lat_ctx") };
    ck_assert_str_eq(profile_bench_unknown(&p.benches[2], ctx, 1), "nosuch");
    profile_free(&p);
    diag_free(&d);
}
END_TEST

static int run_nothing(const struct kernel_params *p, struct report *r)
{
    (void)p;
    (void)r;
    return 0;
}

/* Kernels of no guide: each its own benchmark of the category "Other",
 * but beta and delta, the two kernels of the benchmark "pair". */
static const struct kernel_metric m_alpha[] = {
    { .id = "a-1", .unit = "us", .summary = SUMMARY_MIN },
    { .id = "a-2", .unit = "us", .summary = SUMMARY_MIN },
    { .id = "a-3", .unit = "us", .summary = SUMMARY_MIN },
};
static const struct kernel_metric m_beta[] = {
    { .id = "b-1", .unit = "us", .summary = SUMMARY_MIN },
    { .id = "b-2", .unit = "us", .summary = SUMMARY_MIN },
};
static const struct kernel_metric m_gamma[] = { { .id = "c-1", .unit = "us", .summary = SUMMARY_MIN } };
static const struct kernel_metric m_delta[] = { { .id = "d-1", .unit = "us", .summary = SUMMARY_MIN } };
static const struct kernel k_alpha = { .name = "alpha", .section = "alpha", .metrics = m_alpha,
                                       .nmetrics = 3, .run = run_nothing };
static const struct kernel k_beta = { .name = "beta", .section = "pair", .metrics = m_beta,
                                      .nmetrics = 2, .run = run_nothing };
static const struct kernel k_gamma = { .name = "gamma", .section = "gamma", .metrics = m_gamma,
                                       .nmetrics = 1, .run = run_nothing };
static const struct kernel k_delta = { .name = "delta", .section = "pair", .metrics = m_delta,
                                       .nmetrics = 1, .run = run_nothing };

static void parse_profile(struct profile *p, const char *text)
{
    struct diag d;
    diag_init(&d);
    memset(p, 0, sizeof *p);
    ck_assert_msg(profile_parse(p, text, "t.profile", &d) == 0, "%s", diag_last(&d));
    diag_free(&d);
}

/* Whether picks[i] lists the metric id, as the kernel's own string. */
static bool picks_has(const struct metric_pick *pk, const struct kernel *k, const char *id)
{
    for (size_t i = 0; i < pk->n; i++)
        if (pk->ids[i] == kernel_metric_find(k, id)->id)
            return true;
    return false;
}

/* profile_run_picks and profile_run_unknown_metric on a catalog and a
 * kernel list of their own, no app: lines on one kernel add up, a
 * benchmark's line names its kernels, a kernel named with none of its
 * metrics listed does not run, a kernel no line names runs whole. */
START_TEST(profile_run_on_a_scope_of_its_own)
{
    const struct kernel *reg[] = { &k_alpha, &k_beta, &k_gamma, &k_delta };
    struct catalog *c = catalog_build(NULL, NULL, reg, 4);
    struct profile_scope sc = { .catalog = c, .kernels = reg, .nkernels = 4,
                                .provider = PROVIDER_AUTO };
    struct profile p;
    parse_profile(&p, "bench alpha a-2\nbench alpha a-1\nbench pair b-2\n");
    const struct kernel *ks[] = { &k_alpha, &k_beta, &k_gamma, &k_delta };
    size_t nk = 4;
    struct metric_pick *picks = profile_run_picks(sc, &p, ks, &nk);
    ck_assert_ptr_nonnull(picks);
    ck_assert_uint_eq(nk, 3);                   /* delta: named, none of its listed */
    ck_assert_ptr_eq(ks[0], &k_alpha);
    ck_assert_ptr_eq(ks[1], &k_beta);
    ck_assert_ptr_eq(ks[2], &k_gamma);
    ck_assert_uint_eq(picks[0].n, 2);           /* the two alpha lines together */
    ck_assert(picks_has(&picks[0], &k_alpha, "a-1"));
    ck_assert(picks_has(&picks[0], &k_alpha, "a-2"));
    ck_assert_uint_eq(picks[1].n, 1);
    ck_assert(picks_has(&picks[1], &k_beta, "b-2"));
    ck_assert_uint_eq(picks[2].n, 0);           /* gamma: no line, every metric */
    profile_run_free_picks(picks, nk);
    profile_free(&p);

    /* a line without a list wins over one with a list: every metric */
    parse_profile(&p, "bench beta b-1\nbench pair\n");
    const struct kernel *ks2[] = { &k_beta, &k_delta };
    nk = 2;
    picks = profile_run_picks(sc, &p, ks2, &nk);
    ck_assert_uint_eq(nk, 2);
    ck_assert_uint_eq(picks[0].n, 0);
    ck_assert_uint_eq(picks[1].n, 0);
    profile_run_free_picks(picks, nk);
    profile_free(&p);

    parse_profile(&p, "budget quick\n");          /* no line: no picks */
    nk = 2;
    ck_assert_ptr_null(profile_run_picks(sc, &p, ks2, &nk));
    ck_assert_uint_eq(nk, 2);
    profile_free(&p);

    parse_profile(&p, "bench alpha a-3 zz\nbench pair b-1 d-1\n"
                      "bench Other c-1 a-1 b-2 q\nbench nosuch x\n");
    ck_assert_str_eq(profile_run_unknown_metric(sc, &p.benches[0]), "zz");
    ck_assert_ptr_null(profile_run_unknown_metric(sc, &p.benches[1]));
    ck_assert_str_eq(profile_run_unknown_metric(sc, &p.benches[2]), "q");
    ck_assert_str_eq(profile_run_unknown_metric(sc, &p.benches[3]), "x");
    profile_free(&p);

    /* a kernel's own name is that kernel, as `run beta` runs only beta:
     * its sibling delta's metric is not one it measures */
    parse_profile(&p, "bench beta d-1\nbench beta b-1\n");
    ck_assert_str_eq(profile_run_unknown_metric(sc, &p.benches[0]), "d-1");
    ck_assert_ptr_null(profile_run_unknown_metric(sc, &p.benches[1]));
    const struct kernel *ks3[] = { &k_beta, &k_delta };
    nk = 2;
    picks = profile_run_picks(sc, &p, ks3, &nk);
    ck_assert_uint_eq(nk, 2);                   /* delta: no line names it */
    ck_assert_uint_eq(picks[0].n, 1);
    ck_assert(picks_has(&picks[0], &k_beta, "b-1"));
    ck_assert_uint_eq(picks[1].n, 0);
    profile_run_free_picks(picks, nk);
    profile_free(&p);
    catalog_free(c);
}
END_TEST

/* A profile file under /tmp with this text; caller unlinks and frees. */
static char *profile_file(const char *text)
{
    char *path = xstrdup("/tmp/evmbench-select-XXXXXX");
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    return path;
}

/* `run --profile PATH` with one iteration, built-in kernels, JSON: it
 * succeeds, and its output parses; *err gets its stderr (caller frees). */
static json_t *run_profile_json(const char *path, char **err)
{
    char *out;
    int rc = test_cli(&out, err, "run", "--profile", path, "--iterations", "1", "--no-save",
                      "--provider", "kernel", "--format", "json", NULL);
    ck_assert_msg(rc == 0, "rc %d: %s", rc, *err);
    json_t *j = json_loads(out, 0, NULL);
    ck_assert_msg(j, "not JSON: %s", out);
    free(out);
    return j;
}

/* The metric of row i of a JSON "results" array. */
static const char *row_metric(json_t *rows, size_t i)
{
    return json_string_value(json_object_get(json_array_get(rows, i), "metric"));
}

/* A line naming the section runs only the kernels that measure what it
 * lists; the others of the section never start. */
START_TEST(run_profile_starts_only_the_kernels_it_needs)
{
    char *path = profile_file("budget quick\n"
                              "bench lmbench lat_syscall-null bw_mem-rd-1mb\n");
    char *err;
    json_t *j = run_profile_json(path, &err);
    json_t *rows = json_object_get(j, "results");
    ck_assert_uint_eq(json_array_size(rows), 2);
    ck_assert_str_eq(row_metric(rows, 0), "bw_mem-rd-1mb");
    ck_assert_str_eq(row_metric(rows, 1), "lat_syscall-null");
    ck_assert_msg(strstr(err, "bw_mem finished") && strstr(err, "lat_syscall finished"), "%s",
                  err);
    /* lmbench's other kernels were not started at all */
    static const char *const not_run[] = { "lat_mem_rd", "lat_ctx", "lat_proc", "lat_fs",
                                           "bw_file_rd", "lat_ops" };
    for (size_t i = 0; i < ARRAY_SIZE(not_run); i++) {
        char *line = xasprintf("evmbench: %s finished", not_run[i]);
        ck_assert_msg(!strstr(err, line), "%s ran: %s", not_run[i], err);
        free(line);
    }
    json_decref(j);
    free(err);
    unlink(path);
    free(path);
}
END_TEST

/* Two lines naming the same kernel: it measures what both ask for, and
 * every row it measured is in the output. */
START_TEST(run_profile_lines_add_up)
{
    char *path = profile_file("bench lmbench lat_syscall-null\n"
                              "bench lat_syscall LAT_SYSCALL-open\n");
    char *err;
    json_t *j = run_profile_json(path, &err);
    json_t *rows = json_object_get(j, "results");
    ck_assert_uint_eq(json_array_size(rows), 2);
    ck_assert_str_eq(row_metric(rows, 0), "lat_syscall-null");
    ck_assert_str_eq(row_metric(rows, 1), "lat_syscall-open");
    json_decref(j);
    free(err);
    unlink(path);
    free(path);
}
END_TEST

/* A metric the line's benchmark cannot produce is a usage error at its
 * file and line, before anything runs. */
START_TEST(run_profile_unknown_metric_is_an_error)
{
    char *path = profile_file("bench stream copy\n"
                              "# a typo in a size\n"
                              "bench bw_mem bw_mem-rd-16mb bw_mem-rd-32mb\n");
    char *out, *err;
    int rc = test_cli(&out, &err, "run", "--profile", path, "--no-save", NULL);
    ck_assert_int_eq(rc, EXIT_USAGE);
    char *where = xasprintf("%s:3: bw_mem cannot measure 'bw_mem-rd-32mb'", path);
    ck_assert_msg(strstr(err, where), "%s", err);
    ck_assert_msg(!strstr(err, "finished"), "something ran: %s", err);
    free(where);
    free(out);
    free(err);
    unlink(path);
    free(path);

    /* a kernel named with a metric of another kernel of its section: an
     * error, not a run that measures nothing and passes */
    path = profile_file("bench lat_mem_rd bw_mem-rd-16mb\n");
    rc = test_cli(&out, &err, "run", "--profile", path, "--no-save", NULL);
    ck_assert_msg(rc == EXIT_USAGE, "rc %d: %s%s", rc, out, err);
    where = xasprintf("%s:1: lat_mem_rd cannot measure 'bw_mem-rd-16mb'", path);
    ck_assert_msg(strstr(err, where), "%s", err);
    free(where);
    free(out);
    free(err);
    unlink(path);
    free(path);
}
END_TEST

Suite *suite_select(void)
{
    Suite *s = suite_create("select");
    TCase *tc = tcase_create("kernels");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, wants_follows_the_list);
    tcase_add_test(tc, bw_mem_two_sizes);
    tcase_add_test(tc, bw_mmap_rd_one_mode);
    tcase_add_test(tc, lat_mem_rd_points);
    tcase_add_test(tc, lat_ctx_one_case);
    tcase_add_test(tc, lat_syscall_one_call);
    tcase_add_test(tc, lat_sig_follows_the_list);
    tcase_add_test(tc, stream_two_ops);
    tcase_add_test(tc, dhrystone_clock_only);
    tcase_add_test(tc, os_kernels_one_metric);
    tcase_add_test(tc, cpu_kernels_one_metric);
    suite_add_tcase(s, tc);
    tc = tcase_create("profile");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, runner_holds_the_picked_metrics);
    tcase_add_test(tc, profile_picks_and_unknown);
    tcase_add_test(tc, profile_run_on_a_scope_of_its_own);
    tcase_add_test(tc, run_profile_starts_only_the_kernels_it_needs);
    tcase_add_test(tc, run_profile_lines_add_up);
    tcase_add_test(tc, run_profile_unknown_metric_is_an_error);
    suite_add_tcase(s, tc);
    return s;
}
