/* test_cpu.c - Dhrystone, Whetstone and Linpack run in-process; the
 * measured clock; governor/load/throttle checks on fixture sysfs trees.
 *
 * Nothing here asserts a speed: under qemu-user the kernels run 5-10x
 * slower and the "measured clock" is the emulator's, so only sanity
 * (positive, finite, consistent) is checked. */
#include "config.h"

#include <math.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "kernel/cpucheck.h"
#include "kernel/cpuclock.h"
#include "common/diag.h"
#include "kernel/kernel.h"
#include "data/refdb.h"
#include "kernel/report.h"
#include "suites.h"
#include "test_helpers.h"
#include "common/util.h"
#include "benches/kernels/registry.h"

/* --- collecting a run ---------------------------------------------------- */

static void assert_clean_run(int rc, const struct run_events *e)
{
    ck_assert_msg(rc == 0 && e->nfails == 0, "run failed (rc %d): %s: %s", rc,
                  e->fail_metric ? e->fail_metric : "?", e->fail_text ? e->fail_text : "?");
    ck_assert_int_eq(e->bad_values, 0);
    ck_assert_int_eq(e->unknown_samples, 0);
    ck_assert(!e->progress_backwards);
    ck_assert(!e->progress_over);
    ck_assert_int_gt(e->progress, 0);
}

/* --- the kernels ----------------------------------------------------------- */

/* Each kernel serves the guide's section and rows with the guide's units. */
static const struct {
    const char *kernel, *section, *metric, *unit;
    bool cpu_bound;
} guide_rows[] = {
    { "dhrystone", "dhrystone", "cpu_clock", "mhz", false },
    { "dhrystone", "dhrystone", "dhrystone_per_mhz", "dmips/mhz", false },
    { "dhrystone", "dhrystone", "dhrystone_per_second", "dhrystonep", true },
    { "whetstone", "whetstone", "whetstone", "mips", true },
    { "linpack", "linpack", "linpack", "kflops", true },
};

START_TEST(kernels_serve_the_guide_rows)
{
    for (size_t i = 0; i < ARRAY_SIZE(guide_rows); i++) {
        const struct kernel *k = kernel_find(guide_rows[i].kernel);
        ck_assert_ptr_nonnull(k);
        ck_assert_str_eq(k->section, guide_rows[i].section);
        const struct kernel_metric *m = kernel_metric_find(k, guide_rows[i].metric);
        ck_assert_msg(m != NULL, "%s lacks %s", k->name, guide_rows[i].metric);
        ck_assert_str_eq(m->id, guide_rows[i].metric);
        ck_assert_str_eq(m->unit, guide_rows[i].unit);
        ck_assert(m->cpu_bound == guide_rows[i].cpu_bound);
        ck_assert(k->budget_quick_s > 0 && k->budget_quick_s <= 2.5);
        ck_assert(k->budget_full_s > k->budget_quick_s);
    }
    /* The extra rows, with no reference in the guide. */
    ck_assert_ptr_nonnull(kernel_metric_find(kernel_find("linpack"), "linpack-double"));
    ck_assert_ptr_nonnull(kernel_metric_find(kernel_find("whetstone"), "whetstone-full"));
}
END_TEST

/* The shipped references have these rows, in these units, for the
 * boards of the guides (the ids are the guide's row slugs). */
START_TEST(guide_has_the_kernel_rows)
{
    const char *dir = getenv("EVMBENCH_DATADIR");
    if (!dir)
        return;     /* run outside `make check` */
    char *path = path_join(dir, "benches/refs");
    struct diag dg;
    diag_init(&dg);
    struct refdb *db = refdb_new();
    ck_assert_int_gt(refdb_load_path(db, path, &dg), 0);
    static const char *const boards[] = { "am62xx_sk-fs", "am69_sk-fs" };
    for (size_t b = 0; b < ARRAY_SIZE(boards); b++) {
        for (size_t i = 0; i < ARRAY_SIZE(guide_rows); i++) {
            struct ref_hit hit;
            ck_assert_msg(refdb_lookup(db, boards[b], guide_rows[i].section,
                                       guide_rows[i].metric, NULL, &hit),
                          "no reference %s/%s for %s", guide_rows[i].section,
                          guide_rows[i].metric, boards[b]);
            ck_assert_msg(hit.unit && strcasecmp(hit.unit, guide_rows[i].unit) == 0,
                          "%s: guide unit %s, kernel unit %s", guide_rows[i].metric,
                          hit.unit ? hit.unit : "(none)", guide_rows[i].unit);
        }
    }
    refdb_free(db);
    diag_free(&dg);
    free(path);
}
END_TEST

START_TEST(dhrystone_quick_run_validates)
{
    /* 2 samples of 200,000 runs: the final values are checked by the
     * kernel (Arr_2_Glob[8][7] = runs + 10 and the rest). */
    struct kernel_params p = { .quick = true, .size = 200000, .iterations = 2 };
    struct run_events e;
    int rc = run_events_kernel("dhrystone", &p, NULL, &e);
    assert_clean_run(rc, &e);
    size_t clock = run_events_index(&e, "cpu_clock");
    size_t per_mhz = run_events_index(&e, "dhrystone_per_mhz");
    size_t per_s = run_events_index(&e, "dhrystone_per_second");
    ck_assert_int_eq(e.samples[per_s], 2);
    ck_assert_int_eq(e.samples[clock], 2);
    ck_assert_int_eq(e.samples[per_mhz], 2);
    /* DMIPS/MHz is the sample's Dhrystones/s / 1757 / its clock. */
    ck_assert_double_eq_tol(e.last[per_mhz], e.last[per_s] / 1757.0 / e.last[clock],
                            1e-9 * e.last[per_mhz]);
    ck_assert_ptr_nonnull(e.notes_text);
    ck_assert_ptr_nonnull(strstr(e.notes_text, "final values as Dhrystone 2.1 documents"));
    ck_assert_ptr_nonnull(strstr(e.notes_text, "200000 runs per sample"));
    ck_assert(strstr(e.notes_text, "cpufreq") != NULL);
    run_events_free(&e);
}
END_TEST

START_TEST(dhrystone_is_repeatable_in_process)
{
    /* The benchmark's globals are reset by every run. */
    struct kernel_params p = { .quick = true, .size = 5000, .iterations = 1 };
    for (int i = 0; i < 3; i++) {
        struct run_events e;
        int rc = run_events_kernel("dhrystone", &p, NULL, &e);
        assert_clean_run(rc, &e);
        run_events_free(&e);
    }
}
END_TEST

START_TEST(whetstone_quick_run_validates)
{
    struct kernel_params p = { .quick = true, .size = 300, .iterations = 2 };
    struct run_events e;
    int rc = run_events_kernel("whetstone", &p, NULL, &e);
    assert_clean_run(rc, &e);
    size_t sdk = run_events_index(&e, "whetstone");
    size_t full = run_events_index(&e, "whetstone-full");
    ck_assert_int_eq(e.samples[sdk], 2);
    ck_assert_int_eq(e.samples[full], 2);
    /* The guide's row times a subset of the modules of the full mix. */
    ck_assert(e.last[sdk] >= e.last[full]);
    ck_assert_ptr_nonnull(strstr(e.notes_text, "300 loops"));
    run_events_free(&e);
}
END_TEST

START_TEST(whetstone_odd_loop_counts_validate)
{
    /* Module 4 ends on J = 0 or 1 by the parity of its count. */
    struct kernel_params p = { .quick = true, .size = 7, .iterations = 1 };
    struct run_events e;
    int rc = run_events_kernel("whetstone", &p, NULL, &e);
    assert_clean_run(rc, &e);
    run_events_free(&e);
}
END_TEST

START_TEST(linpack_quick_run_validates)
{
    struct kernel_params p = { .quick = true, .iterations = 2 };
    struct run_events e;
    int rc = run_events_kernel("linpack", &p, NULL, &e);
    assert_clean_run(rc, &e);
    size_t sp = run_events_index(&e, "linpack"), dp = run_events_index(&e, "linpack-double");
    ck_assert_int_eq(e.samples[sp], 2);
    ck_assert_int_eq(e.samples[dp], 2);
    /* Kflops, positive and finite (assert_clean_run): no speed is assumed. */
    ck_assert(e.last[sp] > 0 && e.last[dp] > 0);
    /* The residual is checked in the kernel and reported. */
    ck_assert_ptr_nonnull(strstr(e.notes_text, "order 100, leading dimension 201"));
    ck_assert_ptr_nonnull(strstr(e.notes_text, "normalised residual"));
    run_events_free(&e);
}
END_TEST

START_TEST(linpack_other_orders_validate)
{
    static const size_t orders[] = { 2, 7, 150 };
    for (size_t i = 0; i < ARRAY_SIZE(orders); i++) {
        struct kernel_params p = { .quick = true, .size = orders[i], .iterations = 1 };
        struct run_events e;
        int rc = run_events_kernel("linpack", &p, NULL, &e);
        assert_clean_run(rc, &e);
        ck_assert_ptr_nonnull(strstr(e.notes_text, "not comparable"));
        run_events_free(&e);
    }
}
END_TEST

/* --- clock arithmetic ------------------------------------------------------ */

static const struct {
    double dps, mhz, want;
} dmips_cases[] = {
    { 6789289.58, 1400, 2.760098 },     /* AM62x SK: the guide prints 2.75 */
    { 20000000, 2000, 5.691520 },       /* AM69 SK: the guide prints 5.70 */
    { 16666667, 2000, 4.742933 },       /* AM68 SK: 4.70 */
    { 1757, 1, 1.0 },                   /* one VAX MIPS per MHz */
    { 38461540, 2400, 9.121025 },       /* TI's binary on x86 prints 9.1 */
    { 1000, 0, 0 },                     /* no clock */
    { 1000, -5, 0 },
};

START_TEST(dmips_per_mhz_arithmetic)
{
    double got = cpuclock_dmips_per_mhz(dmips_cases[_i].dps, dmips_cases[_i].mhz);
    ck_assert_double_eq_tol(got, dmips_cases[_i].want, 1e-6);
}
END_TEST

static const struct {
    double measured, cpufreq;
    bool mismatch;
} mismatch_cases[] = {
    { 1400, 1400, false },
    { 1330, 1400, false },  /* exactly -5 % */
    { 1329, 1400, true },
    { 1470, 1400, false },  /* +5 % */
    { 1480, 1400, true },
    { 3694.5, 1400, true },
    { 0, 1400, false },     /* not measured */
    { 1400, 0, false },     /* no cpufreq */
    { NAN, 1400, false },
};

START_TEST(clock_mismatch_over_5_percent)
{
    ck_assert(cpuclock_mismatch(mismatch_cases[_i].measured, mismatch_cases[_i].cpufreq) ==
              mismatch_cases[_i].mismatch);
}
END_TEST

START_TEST(measured_clock_is_sane)
{
    /* Under qemu this is the emulator's speed, and any machine may be
     * slower or faster than one thought of: only sanity is checked. */
    double mhz = cpuclock_measure(-1, 0.05);
    ck_assert(isfinite(mhz) && mhz > 0);
    cpu_set_t set;
    ck_assert_int_eq(sched_getaffinity(0, sizeof set, &set), 0);
    int first = -1;
    for (int c = 0; c < CPU_SETSIZE && first < 0; c++)
        if (CPU_ISSET(c, &set))
            first = c;
    double pinned = cpuclock_measure(first, 0.05);
    ck_assert(isfinite(pinned) && pinned > 0);
    /* The caller's affinity is restored. */
    cpu_set_t after;
    ck_assert_int_eq(sched_getaffinity(0, sizeof after, &after), 0);
    ck_assert(CPU_EQUAL(&set, &after));
    /* CPUs that cannot be used give 0. */
    ck_assert(cpuclock_measure(CPU_SETSIZE + 5, 0.01) == 0);
    int unusable = -1;
    for (int c = 0; c < CPU_SETSIZE && unusable < 0; c++)
        if (!CPU_ISSET(c, &set))
            unusable = c;
    if (unusable >= 0)
        ck_assert(cpuclock_measure(unusable, 0.01) == 0);
}
END_TEST

START_TEST(survey_reads_cpufreq_beside_the_measurement)
{
    char *root = test_data_path("sysroots-cpu/am62x-perf-idle");
    struct cpuclock_core cores[8];
    size_t n = cpuclock_survey(root, 0.02, cores, ARRAY_SIZE(cores));
    ck_assert_uint_ge(n, 1);
    for (size_t i = 0; i < n; i++) {
        ck_assert(isfinite(cores[i].measured_mhz) && cores[i].measured_mhz > 0);
        if (cores[i].cpu <= 3) {    /* the fixture has cpu0-3 */
            ck_assert_double_eq(cores[i].cpufreq_mhz, 1400);
            ck_assert_double_eq(cores[i].max_mhz, 1400);
            ck_assert(cores[i].mismatch ==
                      cpuclock_mismatch(cores[i].measured_mhz, cores[i].cpufreq_mhz));
        }
        if (i)
            ck_assert_int_gt(cores[i].cpu, cores[i - 1].cpu);
    }
    free(root);
}
END_TEST

START_TEST(cpufreq_readers)
{
    char *idle = test_data_path("sysroots-cpu/am62x-perf-idle");
    char *hw = test_data_path("sysroots-cpu/j721e-hw-cur");
    char *pc = test_data_path("sysroots-cpu/pc-no-cpufreq");
    char *busy = test_data_path("sysroots-cpu/am62x-schedutil-busy");
    ck_assert_double_eq(cpuclock_cpufreq_cur_mhz(idle, 0), 1400);
    ck_assert_double_eq(cpuclock_cpufreq_max_mhz(idle, 3), 1400);
    ck_assert_double_eq(cpuclock_cpufreq_cur_mhz(idle, 4), 0);    /* no such CPU */
    ck_assert_double_eq(cpuclock_cpufreq_cur_mhz(idle, -1), 0);
    /* The hardware's cpuinfo_cur_freq wins over scaling_cur_freq. */
    ck_assert_double_eq(cpuclock_cpufreq_cur_mhz(hw, 1), 1800);
    ck_assert_double_eq(cpuclock_cpufreq_max_mhz(hw, 1), 2000);
    ck_assert_double_eq(cpuclock_cpufreq_cur_mhz(busy, 2), 1000);
    ck_assert_double_eq(cpuclock_cpufreq_cur_mhz(pc, 0), 0);
    ck_assert_double_eq(cpuclock_cpufreq_max_mhz(pc, 0), 0);
    free(idle);
    free(hw);
    free(pc);
    free(busy);
}
END_TEST

/* --- governor, load, throttling -------------------------------------------- */

static size_t count_kind(const struct cpucheck_list *l, enum cpucheck_kind kind)
{
    size_t n = 0;
    for (size_t i = 0; i < l->count; i++)
        n += l->items[i].kind == kind;
    return n;
}

static const char *text_of(const struct cpucheck_list *l, enum cpucheck_kind kind)
{
    for (size_t i = 0; i < l->count; i++)
        if (l->items[i].kind == kind)
            return l->items[i].text;
    return "";
}

static void snapshot_of(struct cpucheck_snapshot *s, const char *tree)
{
    char *rel = xasprintf("sysroots-cpu/%s", tree);
    char *root = test_data_path(rel);
    cpucheck_snapshot(s, root);
    free(root);
    free(rel);
}

START_TEST(healthy_board_has_no_warning)
{
    struct cpucheck_snapshot s;
    snapshot_of(&s, "am62x-perf-idle");
    ck_assert_uint_eq(s.ncpus, 4);
    ck_assert_double_eq_tol(s.load1, 0.05, 1e-9);
    ck_assert_str_eq(s.cpus[3].governor, "performance");
    ck_assert_uint_eq(s.cpus[3].nstates, 7);
    ck_assert_int_eq(s.cpus[3].total_trans, 10);
    ck_assert_uint_eq(s.nzones, 2);
    ck_assert_double_eq_tol(s.zones[0].temp_c, 45.0, 1e-9);
    ck_assert_double_eq_tol(s.zones[0].trip_c, 95.0, 1e-9);
    ck_assert_str_eq(s.zones[0].trip_type, "passive");
    /* An "active" (fan) trip is not a throttling point. */
    ck_assert_double_eq_tol(s.zones[1].trip_c, 125.0, 1e-9);
    ck_assert_uint_eq(s.ncooling, 1);

    struct cpucheck_list w = { 0 };
    cpucheck_before(&s, &w);
    ck_assert_msg(w.count == 0, "unexpected: %s", w.count ? w.items[0].text : "");
    /* The same snapshot after the run: nothing happened. */
    cpucheck_after(&s, &s, -1, &w);
    ck_assert_uint_eq(w.count, 0);
    cpucheck_list_free(&w);
    cpucheck_snapshot_free(&s);
}
END_TEST

START_TEST(governor_load_and_cap_warnings)
{
    struct cpucheck_snapshot s;
    snapshot_of(&s, "am62x-schedutil-busy");
    struct cpucheck_list w = { 0 };
    cpucheck_before(&s, &w);
    ck_assert_uint_eq(count_kind(&w, CPUCHECK_LOAD), 1);
    ck_assert_ptr_nonnull(strstr(text_of(&w, CPUCHECK_LOAD), "1.50"));
    /* One warning per governor, naming its CPUs. */
    ck_assert_uint_eq(count_kind(&w, CPUCHECK_GOVERNOR), 1);
    ck_assert_str_eq(text_of(&w, CPUCHECK_GOVERNOR),
                     "cpu0-1,3: governor 'schedutil', not 'performance': the clock can "
                     "change during the run");
    ck_assert_uint_eq(count_kind(&w, CPUCHECK_CAPPED), 1);
    ck_assert_str_eq(text_of(&w, CPUCHECK_CAPPED),
                     "cpu0-3: capped at 1000 MHz of 1400 MHz (scaling_max_freq)");
    ck_assert_uint_eq(count_kind(&w, CPUCHECK_THERMAL), 0);
    ck_assert_uint_eq(count_kind(&w, CPUCHECK_NO_CPUFREQ), 0);
    cpucheck_list_free(&w);
    cpucheck_snapshot_free(&s);
}
END_TEST

START_TEST(throttling_during_a_run)
{
    struct cpucheck_snapshot b, a;
    snapshot_of(&b, "am62x-throttle-before");
    snapshot_of(&a, "am62x-throttle-after");
    struct cpucheck_list w = { 0 };
    cpucheck_before(&b, &w);
    ck_assert_uint_eq(w.count, 0);      /* 88 C is below the 95 C trip */

    cpucheck_after(&b, &a, 3, &w);
    ck_assert_uint_eq(count_kind(&w, CPUCHECK_FREQ_CHANGED), 1);
    ck_assert_str_eq(text_of(&w, CPUCHECK_FREQ_CHANGED),
                     "cpu3: the frequency changed 15 times during the run");
    /* 40 + 40 of 230 ticks below 1400 MHz. */
    ck_assert_uint_eq(count_kind(&w, CPUCHECK_BELOW_MAX), 1);
    ck_assert_str_eq(text_of(&w, CPUCHECK_BELOW_MAX),
                     "cpu3: ran below its maximum 1400 MHz for 35% of the run "
                     "(1000 MHz 17%, 1250 MHz 17%)");
    ck_assert_uint_eq(count_kind(&w, CPUCHECK_THERMAL), 1);
    ck_assert_ptr_nonnull(strstr(text_of(&w, CPUCHECK_THERMAL), "97.0 C"));
    ck_assert_ptr_nonnull(strstr(text_of(&w, CPUCHECK_THERMAL), "passive trip point 95.0 C"));
    ck_assert_uint_eq(count_kind(&w, CPUCHECK_COOLING), 1);
    ck_assert_ptr_nonnull(strstr(text_of(&w, CPUCHECK_COOLING), "state 2 of 6"));
    ck_assert_uint_eq(w.count, 4);
    cpucheck_list_free(&w);

    /* The run was on cpu3: the other CPUs did not change. */
    cpucheck_after(&b, &a, 0, &w);
    ck_assert_uint_eq(count_kind(&w, CPUCHECK_FREQ_CHANGED), 0);
    ck_assert_uint_eq(count_kind(&w, CPUCHECK_BELOW_MAX), 0);
    cpucheck_list_free(&w);
    cpucheck_after(&b, &a, -1, &w);
    ck_assert_uint_eq(count_kind(&w, CPUCHECK_FREQ_CHANGED), 1);
    ck_assert_int_eq(w.items[0].cpu, 3);
    cpucheck_list_free(&w);

    /* Before the next run the board is still hot and limited. */
    cpucheck_before(&a, &w);
    ck_assert_uint_eq(count_kind(&w, CPUCHECK_THERMAL), 1);
    ck_assert_uint_eq(count_kind(&w, CPUCHECK_COOLING), 1);
    cpucheck_list_free(&w);
    cpucheck_snapshot_free(&b);
    cpucheck_snapshot_free(&a);
}
END_TEST

START_TEST(pc_without_cpufreq)
{
    struct cpucheck_snapshot s;
    snapshot_of(&s, "pc-no-cpufreq");
    /* No "online" file: the cpuN directories, not cpuidle. */
    ck_assert_uint_eq(s.ncpus, 2);
    ck_assert_int_eq(s.cpus[0].cpu, 0);
    ck_assert_int_eq(s.cpus[1].cpu, 1);
    ck_assert_ptr_null(s.cpus[0].governor);
    ck_assert_int_eq(s.cpus[0].total_trans, -1);
    ck_assert_uint_eq(s.nzones, 0);
    struct cpucheck_list w = { 0 };
    cpucheck_before(&s, &w);
    ck_assert_uint_eq(w.count, 1);
    ck_assert_int_eq(w.items[0].kind, CPUCHECK_NO_CPUFREQ);
    cpucheck_after(&s, &s, -1, &w);
    ck_assert_uint_eq(w.count, 1);
    cpucheck_list_free(&w);
    cpucheck_snapshot_free(&s);

    /* A root with nothing at all. */
    char *none = test_data_path("sysroots-cpu/does-not-exist");
    cpucheck_snapshot(&s, none);
    ck_assert(isnan(s.load1));
    ck_assert_uint_eq(s.ncpus, 0);
    cpucheck_before(&s, &w);
    ck_assert_uint_eq(w.count, 0);
    cpucheck_snapshot_free(&s);
    free(none);
}
END_TEST

/* A cooling state that is not a whole number in long's range is unreadable
 * (-1), never converted out of range; "3 states" is not a number either. */
START_TEST(cooling_states_out_of_range)
{
    struct cpucheck_snapshot s;
    snapshot_of(&s, "bad-cooling");
    ck_assert_uint_eq(s.ncooling, 2);
    ck_assert_int_eq(s.cooling[0].cur_state, -1);
    ck_assert_int_eq(s.cooling[0].max_state, -1);
    ck_assert_int_eq(s.cooling[1].cur_state, 2);
    ck_assert_int_eq(s.cooling[1].max_state, -1);
    cpucheck_snapshot_free(&s);
}
END_TEST

START_TEST(clock_mismatch_warnings)
{
    struct cpuclock_core cores[] = {
        { .cpu = 0, .measured_mhz = 1399, .cpufreq_mhz = 1400 },
        { .cpu = 1, .measured_mhz = 1200, .cpufreq_mhz = 1400 },
        { .cpu = 2, .measured_mhz = 1000, .cpufreq_mhz = 0 },
    };
    for (size_t i = 0; i < ARRAY_SIZE(cores); i++)
        cores[i].mismatch = cpuclock_mismatch(cores[i].measured_mhz, cores[i].cpufreq_mhz);
    struct cpucheck_list w = { 0 };
    cpucheck_clocks(cores, ARRAY_SIZE(cores), &w);
    ck_assert_uint_eq(w.count, 1);
    ck_assert_int_eq(w.items[0].cpu, 1);
    ck_assert_str_eq(w.items[0].text, "cpu1: measured 1200 MHz, cpufreq says 1400 MHz (-14.3%)");
    cpucheck_list_free(&w);
}
END_TEST

static void count_notes(void *ctx, const struct report_event *ev)
{
    if (ev->kind == REPORT_NOTE)
        (*(int *)ctx)++;
}

START_TEST(worker_share_note)
{
    int notes = 0;
    struct report r;
    report_to_callback(&r, count_notes, &notes);
    ck_assert_double_eq_tol(cpucheck_share_note(&r, 1, 2.0, 1.0), 0.5, 1e-12);
    ck_assert_int_eq(notes, 1);
    ck_assert_double_eq_tol(cpucheck_share_note(&r, 1, 2.0, 1.95), 0.975, 1e-12);
    ck_assert_int_eq(notes, 1);
    cpucheck_share_note(&r, 1, 0, 0);
    ck_assert_int_eq(notes, 1);
}
END_TEST

Suite *suite_cpu(void)
{
    Suite *s = suite_create("cpu");
    TCase *k = tcase_create("kernels");
    tcase_set_timeout(k, 120);
    tcase_add_test(k, kernels_serve_the_guide_rows);
    tcase_add_test(k, guide_has_the_kernel_rows);
    tcase_add_test(k, dhrystone_quick_run_validates);
    tcase_add_test(k, dhrystone_is_repeatable_in_process);
    tcase_add_test(k, whetstone_quick_run_validates);
    tcase_add_test(k, whetstone_odd_loop_counts_validate);
    tcase_add_test(k, linpack_quick_run_validates);
    tcase_add_test(k, linpack_other_orders_validate);
    suite_add_tcase(s, k);

    TCase *c = tcase_create("clock");
    tcase_set_timeout(c, 60);
    tcase_add_loop_test(c, dmips_per_mhz_arithmetic, 0, ARRAY_SIZE(dmips_cases));
    tcase_add_loop_test(c, clock_mismatch_over_5_percent, 0, ARRAY_SIZE(mismatch_cases));
    tcase_add_test(c, measured_clock_is_sane);
    tcase_add_test(c, survey_reads_cpufreq_beside_the_measurement);
    tcase_add_test(c, cpufreq_readers);
    suite_add_tcase(s, c);

    TCase *w = tcase_create("checks");
    tcase_add_test(w, healthy_board_has_no_warning);
    tcase_add_test(w, governor_load_and_cap_warnings);
    tcase_add_test(w, throttling_during_a_run);
    tcase_add_test(w, pc_without_cpufreq);
    tcase_add_test(w, cooling_states_out_of_range);
    tcase_add_test(w, clock_mismatch_warnings);
    tcase_add_test(w, worker_share_note);
    suite_add_tcase(s, w);
    return s;
}
