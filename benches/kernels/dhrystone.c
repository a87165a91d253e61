/* dhrystone.c - a Dhrystone 2.1 workload (R. P. Weicker).
 *
 * Written for evmbench from the published description of Dhrystone 2.1
 * (Weicker, "Dhrystone Benchmark: Rationale for Version 2 and Measurement
 * Rules", SIGPLAN Notices 23(8), 1988): one run through the main loop
 * does the statement mix of the benchmark - assignments, record and
 * pointer operations on two linked records with a variant part, string
 * copy and compare of 30-character strings, enumeration switches, one-
 * and two-dimensional array accesses and the procedure/function calls
 * Proc_1 ... Proc_8, Func_1 ... Func_3 - and the final values of the
 * variables are those the benchmark documents (checked after the run).
 *
 * Compilation rules. Dhrystone 2.1 puts Proc_6-8 and Func_1-3 in a
 * second file so that they are real calls; here they carry `noipa` (GCC)
 * or `noinline` (others), which keeps them out of line and hides their
 * bodies from interprocedural optimisation whatever -O level the program
 * is built with, as a separate compilation unit does. Proc_1-5 sit with
 * the main loop as in the benchmark's first file; the compiler may inline
 * them as it does in TI's -O3 build. The loop bounds come from arguments
 * and the results are checked, so nothing can be folded away.
 *
 * Reported: dhrystone_per_second (runs / s of wall time), cpu_clock (MHz
 * from cpufreq for the CPU the worker runs on, as runDhrystone reads it;
 * the measured clock where there is no cpufreq, with a note) and
 * dhrystone_per_mhz = runs per second / 1757 / MHz (1757 Dhrystones/s is
 * the VAX 11/780, 1 DMIPS). Samples of at least 2 s in a full run (TI's
 * binary needs 2 s too), shorter with --quick; p->size = runs per sample,
 * p->iterations = samples. */
#include "config.h"

#include <math.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "kernel/cpucheck.h"
#include "kernel/cpuclock.h"
#include "kernel/kernel.h"
#include "common/util.h"

#if defined(__has_attribute)
#if __has_attribute(noipa)
#define SEPARATE_UNIT __attribute__((noipa))
#endif
#endif
#ifndef SEPARATE_UNIT
#define SEPARATE_UNIT __attribute__((noinline))
#endif

#define DHRY_SAMPLE_FULL_S   2.5    /* at least 2 s per sample */
#define DHRY_SAMPLE_MIN_S    2.0
#define DHRY_SAMPLE_QUICK_S  0.45
#define DHRY_SAMPLES_FULL    4
#define DHRY_SAMPLES_QUICK   3
#define DHRY_CHUNK_S         0.25   /* progress granularity inside a sample */
#define DHRY_CALIBRATE_S     0.1
#define DHRY_CLOCK_FULL_S    0.2
#define DHRY_CLOCK_QUICK_S   0.05
#define KERNEL_WALL_FACTOR   3.0    /* a sample ends after 3 x its time in wall time */
#define DHRY_MAX_RUNS        2000000000.0   /* an int counts a sample's runs */

enum dhry_metric { M_CLOCK, M_PER_MHZ, M_PER_S, M_COUNT };

/* Dhrystones per second scale with the clock; DMIPS/MHz does not (it is
 * divided by it) and cpu_clock is the clock. */
static const struct kernel_metric dhry_metrics[M_COUNT] = {
    [M_CLOCK]   = { .id = "cpu_clock", .unit = "mhz", .summary = SUMMARY_MEDIAN },
    [M_PER_MHZ] = { .id = "dhrystone_per_mhz", .unit = "dmips/mhz", .summary = SUMMARY_MEDIAN },
    [M_PER_S]   = { .id = "dhrystone_per_second", .unit = "dhrystonep",
                    .summary = SUMMARY_MEDIAN, .cpu_bound = true },
};

/* --- the benchmark's data ----------------------------------------------- */

enum ident { IDENT_1, IDENT_2, IDENT_3, IDENT_4, IDENT_5 };

typedef char str30[31];

/* The record type with its variant part, selected by `discr`. */
struct rec {
    struct rec *ptr_comp;
    enum ident discr;
    union {
        struct {
            enum ident enum_comp;
            int int_comp;
            str30 str_comp;
        } v1;
        struct {
            enum ident e_comp_2;
            str30 str_2_comp;
        } v2;
        struct {
            char ch_1_comp, ch_2_comp;
        } v3;
    } u;
};

/* The benchmark's global variables. */
static struct rec rec_a, rec_b;
static struct rec *ptr_glob, *next_ptr_glob;
static int int_glob;
static bool bool_glob;
static char ch_1_glob, ch_2_glob;
static int arr_1_glob[50];
static int arr_2_glob[50][50];

/* Locals of the main loop that the final check looks at. */
struct dhry_locals {
    int int_1, int_2, int_3;
    enum ident enum_loc;
    str30 str_1, str_2;
};

static const char STR_SOME[]   = "DHRYSTONE PROGRAM, SOME STRING";
static const char STR_FIRST[]  = "DHRYSTONE PROGRAM, 1'ST STRING";
static const char STR_SECOND[] = "DHRYSTONE PROGRAM, 2'ND STRING";
static const char STR_THIRD[]  = "DHRYSTONE PROGRAM, 3'RD STRING";

/* --- the second compilation unit: Proc_6-8, Func_1-3 --------------------- */

/* Func_3: is the enumeration value IDENT_3? */
static SEPARATE_UNIT bool func_3(enum ident val)
{
    enum ident loc = val;
    return loc == IDENT_3;
}

/* Func_1: compares two characters; records the first in ch_1_glob when
 * they are equal. */
static SEPARATE_UNIT enum ident func_1(char c1, char c2)
{
    char loc_1 = c1;
    char loc_2 = loc_1;
    if (loc_2 != c2)
        return IDENT_1;
    ch_1_glob = loc_1;
    return IDENT_2;
}

/* Func_2: compares two strings, one character pair through func_1, then
 * the whole strings. */
static SEPARATE_UNIT bool func_2(const char *s1, const char *s2)
{
    int loc = 2;
    char ch = '\0';
    while (loc <= 2) {
        if (func_1(s1[loc], s2[loc + 1]) == IDENT_1) {
            ch = 'A';
            loc += 1;
        }
    }
    if (ch >= 'W' && ch < 'Z')
        loc = 7;
    if (ch == 'R')
        return true;
    if (strcmp(s1, s2) > 0) {
        loc += 7;
        int_glob = loc;
        return true;
    }
    return false;
}

/* Proc_6: maps an enumeration value through a switch. */
static SEPARATE_UNIT void proc_6(enum ident val, enum ident *ref)
{
    *ref = val;
    if (!func_3(val))
        *ref = IDENT_4;
    switch (val) {
    case IDENT_1: *ref = IDENT_1; break;
    case IDENT_2: *ref = int_glob > 100 ? IDENT_1 : IDENT_4; break;
    case IDENT_3: *ref = IDENT_2; break;
    case IDENT_4: break;
    case IDENT_5: *ref = IDENT_3; break;
    }
}

/* Proc_7: *ref = v2 + v1 + 2. */
static SEPARATE_UNIT void proc_7(int v1, int v2, int *ref)
{
    int loc = v1 + 2;
    *ref = v2 + loc;
}

/* Proc_8: one- and two-dimensional array accesses. */
static SEPARATE_UNIT void proc_8(int a1[50], int a2[50][50], int v1, int v2)
{
    int loc = v1 + 5;
    a1[loc] = v2;
    a1[loc + 1] = a1[loc];
    a1[loc + 30] = loc;
    for (int i = loc; i <= loc + 1; ++i)
        a2[loc][i] = loc;
    a2[loc][loc - 1] += 1;
    a2[loc + 20][loc] = a1[loc];
    int_glob = 5;
}

/* --- the first compilation unit: Proc_1-5 and the main loop --------------- */

/* Proc_3: follows the global pointer and updates its integer. */
static void proc_3(struct rec **ref)
{
    if (ptr_glob)
        *ref = ptr_glob->ptr_comp;
    proc_7(10, int_glob, &ptr_glob->u.v1.int_comp);
}

/* Proc_1: record assignment and pointer operations on the two records. */
static void proc_1(struct rec *val)
{
    struct rec *next = val->ptr_comp;
    *val->ptr_comp = *ptr_glob;
    val->u.v1.int_comp = 5;
    next->u.v1.int_comp = val->u.v1.int_comp;
    next->ptr_comp = val->ptr_comp;
    proc_3(&next->ptr_comp);
    if (next->discr == IDENT_1) {
        next->u.v1.int_comp = 6;
        proc_6(val->u.v1.enum_comp, &next->u.v1.enum_comp);
        next->ptr_comp = ptr_glob->ptr_comp;
        proc_7(next->u.v1.int_comp, 10, &next->u.v1.int_comp);
    } else {
        *val = *val->ptr_comp;
    }
}

/* Proc_2: a loop that runs once, driven by ch_1_glob. */
static void proc_2(int *ref)
{
    int loc = *ref + 10;
    enum ident e = IDENT_2;
    do {
        if (ch_1_glob == 'A') {
            loc -= 1;
            *ref = loc - int_glob;
            e = IDENT_1;
        }
    } while (e != IDENT_1);
}

static void proc_4(void)
{
    bool loc = ch_1_glob == 'A';
    bool_glob = loc | bool_glob;
    ch_2_glob = 'B';
}

static void proc_5(void)
{
    ch_1_glob = 'A';
    bool_glob = false;
}

/* The initialisation before the first run (not timed). */
static void dhry_init(struct dhry_locals *l)
{
    memset(&rec_a, 0, sizeof rec_a);
    memset(&rec_b, 0, sizeof rec_b);
    memset(arr_1_glob, 0, sizeof arr_1_glob);
    memset(arr_2_glob, 0, sizeof arr_2_glob);
    int_glob = 0;
    bool_glob = false;
    ch_1_glob = ch_2_glob = '\0';

    next_ptr_glob = &rec_b;
    ptr_glob = &rec_a;
    ptr_glob->ptr_comp = next_ptr_glob;
    ptr_glob->discr = IDENT_1;
    ptr_glob->u.v1.enum_comp = IDENT_3;
    ptr_glob->u.v1.int_comp = 40;
    strcpy(ptr_glob->u.v1.str_comp, STR_SOME);
    memset(l, 0, sizeof *l);
    strcpy(l->str_1, STR_FIRST);
    arr_2_glob[8][7] = 10;
}

/* Runs number `first` to `last` (inclusive) through the main loop. */
static __attribute__((noinline)) void dhry_runs(long first, long last, struct dhry_locals *l)
{
    int int_1 = 0, int_2 = 0, int_3 = 0;
    enum ident enum_loc = IDENT_1;
    str30 str_2;
    char *str_1 = l->str_1;

    for (long run = first; run <= last; ++run) {
        proc_5();
        proc_4();
        int_1 = 2;
        int_2 = 3;
        strcpy(str_2, STR_SECOND);
        enum_loc = IDENT_2;
        bool_glob = !func_2(str_1, str_2);
        while (int_1 < int_2) {
            int_3 = 5 * int_1 - int_2;
            proc_7(int_1, int_2, &int_3);
            int_1 += 1;
        }
        proc_8(arr_1_glob, arr_2_glob, int_1, int_3);
        proc_1(ptr_glob);
        for (char ch = 'A'; ch <= ch_2_glob; ++ch) {
            if (enum_loc == func_1(ch, 'C')) {
                proc_6(IDENT_1, &enum_loc);
                strcpy(str_2, STR_THIRD);
                int_2 = (int)run;
                int_glob = (int)run;
            }
        }
        int_2 = int_2 * int_1;
        int_1 = int_2 / int_3;
        int_2 = 7 * (int_2 - int_3) - int_1;
        proc_2(&int_1);
    }
    l->int_1 = int_1;
    l->int_2 = int_2;
    l->int_3 = int_3;
    l->enum_loc = enum_loc;
    memcpy(l->str_2, str_2, sizeof str_2);
}

/* --- checking -------------------------------------------------------------- */

/* Compares the final values with those Dhrystone 2.1 documents ("should
 * be"); Arr_2_Glob[8][7] counts the runs since it was last set to 10.
 * Writes the first difference to msg; true when all match. */
static bool dhry_check(const struct dhry_locals *l, long runs, char *msg, size_t len)
{
    const struct rec *p = ptr_glob, *n = next_ptr_glob;
    const struct {
        const char *name;
        long got, want;
    } ints[] = {
        { "Int_Glob", int_glob, 5 },
        { "Bool_Glob", bool_glob, 1 },
        { "Ch_1_Glob", ch_1_glob, 'A' },
        { "Ch_2_Glob", ch_2_glob, 'B' },
        { "Arr_1_Glob[8]", arr_1_glob[8], 7 },
        { "Arr_2_Glob[8][7]", arr_2_glob[8][7], runs + 10 },
        { "Ptr_Glob->Discr", p->discr, IDENT_1 },
        { "Ptr_Glob->Enum_Comp", p->u.v1.enum_comp, IDENT_3 },
        { "Ptr_Glob->Int_Comp", p->u.v1.int_comp, 17 },
        { "Next_Ptr_Glob->Discr", n->discr, IDENT_1 },
        { "Next_Ptr_Glob->Enum_Comp", n->u.v1.enum_comp, IDENT_2 },
        { "Next_Ptr_Glob->Int_Comp", n->u.v1.int_comp, 18 },
        { "Int_1_Loc", l->int_1, 5 },
        { "Int_2_Loc", l->int_2, 13 },
        { "Int_3_Loc", l->int_3, 7 },
        { "Enum_Loc", l->enum_loc, IDENT_2 },
    };
    for (size_t i = 0; i < ARRAY_SIZE(ints); i++) {
        long want = ints[i].want;
        if (ints[i].got != want) {
            snprintf(msg, len, "%s is %ld, should be %ld", ints[i].name, ints[i].got, want);
            return false;
        }
    }
    const struct {
        const char *name, *got, *want;
    } strs[] = {
        { "Ptr_Glob->Str_Comp", p->u.v1.str_comp, STR_SOME },
        { "Next_Ptr_Glob->Str_Comp", n->u.v1.str_comp, STR_SOME },
        { "Str_1_Loc", l->str_1, STR_FIRST },
        { "Str_2_Loc", l->str_2, STR_SECOND },
    };
    for (size_t i = 0; i < ARRAY_SIZE(strs); i++) {
        if (strcmp(strs[i].got, strs[i].want) != 0) {
            snprintf(msg, len, "%s is \"%.30s\", should be \"%s\"",
                     strs[i].name, strs[i].got, strs[i].want);
            return false;
        }
    }
    if (p->ptr_comp != n->ptr_comp) {
        snprintf(msg, len, "Ptr_Glob->Ptr_Comp differs from Next_Ptr_Glob->Ptr_Comp");
        return false;
    }
    return true;
}

/* --- the kernel -------------------------------------------------------------- */

/* The clock used for DMIPS/MHz: cpufreq of this CPU (read per sample, as
 * the governor may move it), else the measured clock. */
static double dhry_clock(double measured, bool *from_cpufreq)
{
    double mhz = cpuclock_cpufreq_cur_mhz(NULL, sched_getcpu());
    *from_cpufreq = mhz > 0;
    return mhz > 0 ? mhz : measured;
}

/* Says where the clock of DMIPS/MHz comes from: cpufreq (and whether the
 * measured clock agrees), the measured clock, or none. */
static void dhry_clock_note(struct report *r, int cpu, double measured, double clock,
                            bool from_cpufreq)
{
    if (from_cpufreq) {
        report_note(r, "cpu%d: cpufreq %.0f MHz, measured %.0f MHz%s", cpu, clock, measured,
                    cpuclock_mismatch(measured, clock) ? " - warning: they differ by more "
                    "than 5 %, the clock is not what cpufreq says" : "");
    } else if (measured > 0) {
        report_note(r, "no cpufreq for cpu%d: cpu_clock and DMIPS/MHz use the measured "
                    "clock, %.0f MHz (a dependent-add loop)", cpu, measured);
    } else {
        report_note(r, "no cpufreq and no measured clock: DMIPS/MHz is not reported");
    }
}

/* After the samples: every metric fails when the final values are wrong
 * (the compiler or the machine did not run the program as written; the
 * last sample had last_sample runs), the clock metrics fail without a
 * clock. Returns dhry_run's result: 0, or -1 when nothing counts. */
static int dhry_verdict(const struct kernel_params *p, struct report *r,
                        const struct dhry_locals *loc, long last_sample,
                        double clock, long per_sample, long total_runs)
{
    char msg[160];
    if (!dhry_check(loc, last_sample, msg, sizeof msg)) {
        for (size_t i = 0; i < M_COUNT; i++)
            report_fail(r, dhry_metrics[i].id, "final values wrong after a sample of %ld "
                        "runs: %s", last_sample, msg);
        return -1;
    }
    if (clock <= 0) {
        if (kernel_wants(p, dhry_metrics[M_CLOCK].id))
            report_fail(r, dhry_metrics[M_CLOCK].id,
                        "no cpufreq and the clock could not be measured");
        if (kernel_wants(p, dhry_metrics[M_PER_MHZ].id))
            report_fail(r, dhry_metrics[M_PER_MHZ].id, "needs the CPU clock");
    }
    report_note(r, "%ld runs per sample, %ld runs in all; final values as Dhrystone 2.1 "
                "documents them", per_sample, total_runs);
    return 0;
}

/* p->only wants the clock alone: no Dhrystone runs, one reading of the
 * clock (cpufreq, else the measured one) per sample. */
static int dhry_clock_only(const struct kernel_params *p, struct report *r, double measured)
{
    int samples = p->iterations > 0 ? p->iterations
                  : p->quick ? DHRY_SAMPLES_QUICK : DHRY_SAMPLES_FULL;
    for (int s = 0; s < samples; s++) {
        bool from_cpufreq;
        double clock = dhry_clock(measured, &from_cpufreq);
        if (clock <= 0) {
            report_fail(r, dhry_metrics[M_CLOCK].id,
                        "no cpufreq and the clock could not be measured");
            return -1;
        }
        report_sample(r, dhry_metrics[M_CLOCK].id, clock);
        report_progress(r, s + 1, samples);
    }
    return 0;
}

static int dhry_run(const struct kernel_params *p, struct report *r)
{
    struct dhry_locals loc;
    dhry_init(&loc);
    int samples = p->iterations > 0 ? p->iterations
                  : p->quick ? DHRY_SAMPLES_QUICK : DHRY_SAMPLES_FULL;
    double target = p->quick ? DHRY_SAMPLE_QUICK_S : DHRY_SAMPLE_FULL_S;
    long next = 1;          /* number of the next run */

    /* The clock, measured before the work so the governor has ramped up
     * by the time it counts: the cross-check of cpufreq. */
    int cpu = sched_getcpu();
    double measured = cpuclock_measure(-1, p->quick ? DHRY_CLOCK_QUICK_S : DHRY_CLOCK_FULL_S);
    bool from_cpufreq;
    double clock = dhry_clock(measured, &from_cpufreq);
    dhry_clock_note(r, cpu, measured, clock, from_cpufreq);
    if (!kernel_wants(p, dhry_metrics[M_PER_S].id) && !kernel_wants(p, dhry_metrics[M_PER_MHZ].id))
        return dhry_clock_only(p, r, measured);

    /* Runs per sample: from p->size, else calibrated to the target time. */
    double runs_per_s = 0;
    long per_sample = p->size > 0 ? (long)(p->size > (size_t)DHRY_MAX_RUNS
                                           ? (size_t)DHRY_MAX_RUNS : p->size) : 0;
    if (!per_sample) {
        long n = 1000;
        double t = 0;
        while (n < (long)(DHRY_MAX_RUNS / 2)) {
            double t0 = cpuclock_thread_seconds();
            dhry_runs(next, next + n - 1, &loc);
            t = cpuclock_thread_seconds() - t0;
            next += n;
            if (t >= DHRY_CALIBRATE_S / 4)
                break;
            n *= 2;
        }
        runs_per_s = t > 0 ? (double)n / t : 1e6;
        double want = runs_per_s * target;
        per_sample = want < 1000 ? 1000 : want > DHRY_MAX_RUNS ? (long)DHRY_MAX_RUNS : (long)want;
    }

    double total_t = (double)samples * target;
    long last_sample = 0;
    double wall0 = now_seconds(), cpu0 = cpuclock_thread_seconds();
    double done_t = 0;
    for (int s = 0; s < samples; s++) {
        /* Chunks only for progress; the sample is timed as a whole. */
        long chunk = runs_per_s > 0 ? (long)(runs_per_s * DHRY_CHUNK_S) : per_sample;
        if (chunk < 1)
            chunk = 1;
        /* Arr_2_Glob[8][7] counts runs: restart it so that an int holds
         * the count of one sample however long the whole run is. */
        arr_2_glob[8][7] = 10;
        double t0 = cpuclock_thread_seconds(), w0 = now_seconds();
        long done_runs = 0;
        for (long left = per_sample; left > 0;) {
            long n = left < chunk ? left : chunk;
            dhry_runs(next, next + n - 1, &loc);
            next += n;
            left -= n;
            done_runs += n;
            double el = cpuclock_thread_seconds() - t0;
            report_progress(r, done_t + (el < target ? el : target), total_t);
            /* On a crowded core the CPU time comes slowly: end the sample
             * early rather than overrun the time limit. */
            if (!p->size && now_seconds() - w0 > KERNEL_WALL_FACTOR * target)
                break;
        }
        double secs = cpuclock_thread_seconds() - t0;
        last_sample = done_runs;
        if (!(secs > 0))
            secs = 1e-9;
        double dps = (double)done_runs / secs;
        clock = dhry_clock(measured, &from_cpufreq);
        if (kernel_wants(p, dhry_metrics[M_PER_S].id))
            report_sample(r, dhry_metrics[M_PER_S].id, dps);
        if (clock > 0 && kernel_wants(p, dhry_metrics[M_CLOCK].id))
            report_sample(r, dhry_metrics[M_CLOCK].id, clock);
        if (clock > 0 && kernel_wants(p, dhry_metrics[M_PER_MHZ].id))
            report_sample(r, dhry_metrics[M_PER_MHZ].id, cpuclock_dmips_per_mhz(dps, clock));
        done_t += target;
        report_progress(r, done_t, total_t);
        /* A sample shorter than 2 s in a full run: lengthen the next. */
        if (!p->size && !p->quick && secs < DHRY_SAMPLE_MIN_S && done_runs == per_sample) {
            double want = (double)per_sample * DHRY_SAMPLE_FULL_S / secs;
            per_sample = want > DHRY_MAX_RUNS ? (long)DHRY_MAX_RUNS : (long)want;
        }
        runs_per_s = dps;
    }

    cpucheck_share_note(r, cpu, now_seconds() - wall0, cpuclock_thread_seconds() - cpu0);

    return dhry_verdict(p, r, &loc, last_sample, clock, per_sample, next - 1);
}

const struct kernel kernel_dhrystone = {
    .name = "dhrystone",
    .section = "dhrystone",
    .description = "Dhrystone 2.1 integer workload: Dhrystones per second, DMIPS/MHz "
                   "(/1757/MHz) and the cpufreq clock (size = runs per sample)",
    .metrics = dhry_metrics,
    .nmetrics = M_COUNT,
    .budget_quick_s = 2.0,
    .budget_full_s = 11.0,
    .run = dhry_run,
};
