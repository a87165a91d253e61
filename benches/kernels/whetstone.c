/* whetstone.c - the Whetstone floating-point benchmark, in MIPS.
 *
 * Written for evmbench from the published description of the Whetstone
 * benchmark (H. J. Curnow and B. A. Wichmann, "A synthetic benchmark",
 * The Computer Journal 19(1), 1976) with the module mix and weighting of
 * the widely used C translation ("C Converted Double Precision
 * Whetstones", which TI's `whetstone` binary is). One loop runs:
 *
 *   module  what                                 repetitions per loop
 *     2     array elements, 4 updates x T         12
 *     3     array as procedure parameter (PA)     14 (x 6 inside)
 *     4     conditional jumps                    345
 *     6     integer arithmetic and array stores  210
 *     7     trigonometric functions               32
 *     8     procedure calls (P3)                 899
 *     9     array references (P0)                616
 *    11     standard functions sqrt/exp/log       93
 *
 * (modules 1, 5 and 10 have weight 0 in that version), with T = 0.499975,
 * T1 = 0.50025, T2 = 2.0, in double precision. A loop counts as 100,000
 * Whetstone instructions, so MIPS = 0.1 x loops / seconds, as the binary
 * prints "100 x loops / seconds" KIPS. TI's binary times whole seconds
 * with time(), so the guide's numbers are 10000 / n (10000, 5000, 3333 ...);
 * this kernel times with the monotonic clock.
 *
 * What the guide's number measures. In the C translation the results of
 * modules 4, 6, 7 and 8 are never used, and GCC removes them at -O1 and
 * above (seen in TI's source built with GCC 12 for x86-64 and AArch64:
 * no sin/cos/atan call is left, P3's loop is gone, modules 4 and 6 become
 * constants); TI's binary therefore times modules 2, 3, 9 and 11 only,
 * while still counting 100,000 instructions per loop. So, as for Linpack's
 * precision, the guide's row follows the binary: `whetstone` is the loops
 * per second of modules 2, 3, 9 and 11, and `whetstone-full` (no
 * reference) times every module, trigonometry and procedure calls
 * included, as the benchmark intends. Both come from the same run: the
 * module groups are timed separately.
 *
 * The module variables are checked after every sample against closed
 * forms (modules 4, 6, 8, 9, 11) and bounds (2, 3, 7), and folded into a
 * volatile sink, so the work cannot be optimised away. p->size = loops
 * per sample, p->iterations = samples. */
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

#define WHET_SAMPLE_FULL_S   2.0
#define WHET_SAMPLE_QUICK_S  0.45
#define WHET_SAMPLES_FULL    5
#define WHET_SAMPLES_QUICK   3
#define WHET_CALIBRATE_S     0.05
#define WHET_CHUNK_S         0.25
#define WHET_MAX_LOOPS       100000000L
#define KERNEL_WALL_FACTOR   3.0    /* a sample ends after 3 x its time in wall time */
#define WHET_KI_PER_LOOP     100.0      /* thousand Whetstone instructions */

enum { M_SDK, M_FULL, M_COUNT };

static const struct kernel_metric whet_metrics[M_COUNT] = {
    [M_SDK]  = { .id = "whetstone", .unit = "mips", .summary = SUMMARY_MEDIAN,
                 .cpu_bound = true },
    [M_FULL] = { .id = "whetstone-full", .unit = "mips", .summary = SUMMARY_MEDIAN,
                 .cpu_bound = true },
};

/* The benchmark's constants, read through volatiles so the compiler
 * cannot fold them into the modules. */
static volatile double T_v = 0.499975, T1_v = 0.50025, T2_v = 2.0;
static volatile double sink_v;

/* Module results, for the check. e[] is 1-based as in the benchmark. */
struct whet_state {
    double e[5];
    double x7, y7;          /* module 7 */
    double z8;              /* module 8 */
    double x11;             /* module 11 */
    long j4;                /* module 4 */
    long j6, k6, l6;        /* module 6 */
};

/* PA: the array as a parameter, six passes. Like P0 an ordinary static
 * function the compiler may inline, as it does in the C translation. */
static void whet_pa(double e[5], double t, double t2)
{
    for (int j = 0; j < 6; j++) {
        e[1] = (e[1] + e[2] + e[3] - e[4]) * t;
        e[2] = (e[1] + e[2] - e[3] + e[4]) * t;
        e[3] = (e[1] - e[2] + e[3] + e[4]) * t;
        e[4] = (-e[1] + e[2] + e[3] + e[4]) / t2;
    }
}

/* P3: procedure call with value and result parameters. Kept out of line:
 * inlined, its loop-invariant call would vanish (as in TI's binary). */
static __attribute__((noinline)) void whet_p3(double x, double y, double *z, double t, double t2)
{
    double x1 = x, y1 = y;
    x1 = t * (x1 + y1);
    y1 = t * (x1 + y1);
    *z = (x1 + y1) / t2;
}

/* P0: array references through global-like indexes. */
static void whet_p0(double e[5], long j, long k, long l)
{
    e[j] = e[k];
    e[k] = e[l];
    e[l] = e[j];
}

/* `loops` loops of the module mix. Adds to *kept the seconds of modules
 * 2, 3, 9 and 11 (those TI's binary runs) and to *dropped those of 4, 6,
 * 7 and 8. */
static __attribute__((noinline)) void whet_loops(long loops, struct whet_state *s,
                                                 double *kept, double *dropped)
{
    const double t = T_v, t1 = T1_v, t2 = T2_v;
    double *e = s->e;
    long n2 = 12 * loops, n3 = 14 * loops, n4 = 345 * loops, n6 = 210 * loops;
    long n7 = 32 * loops, n8 = 899 * loops, n9 = 616 * loops, n11 = 93 * loops;
    double tm0 = cpuclock_thread_seconds();

    /* Module 2: array elements. */
    e[1] = 1.0;
    e[2] = -1.0;
    e[3] = -1.0;
    e[4] = -1.0;
    for (long i = 0; i < n2; i++) {
        e[1] = (e[1] + e[2] + e[3] - e[4]) * t;
        e[2] = (e[1] + e[2] - e[3] + e[4]) * t;
        e[3] = (e[1] - e[2] + e[3] + e[4]) * t;
        e[4] = (-e[1] + e[2] + e[3] + e[4]) * t;
    }

    /* Module 3: array as parameter. */
    for (long i = 0; i < n3; i++)
        whet_pa(e, t, t2);
    double tm1 = cpuclock_thread_seconds();

    /* Module 4: conditional jumps. */
    long j = 1;
    for (long i = 0; i < n4; i++) {
        j = j == 1 ? 2 : 3;
        j = j > 2 ? 0 : 1;
        j = j < 1 ? 1 : 0;
    }
    s->j4 = j;

    /* Module 6: integer arithmetic. */
    long k, l;
    j = 1;
    k = 2;
    l = 3;
    for (long i = 0; i < n6; i++) {
        j = j * (k - j) * (l - k);
        k = l * k - (l - j) * k;
        l = (l - k) * (k + j);
        e[l - 1] = (double)(j + k + l);
        e[k - 1] = (double)(j * k * l);
    }
    s->j6 = j;
    s->k6 = k;
    s->l6 = l;

    /* Module 7: trigonometric functions. */
    double x = 0.5, y = 0.5;
    for (long i = 0; i < n7; i++) {
        x = t * atan(t2 * sin(x) * cos(x) / (cos(x + y) + cos(x - y) - 1.0));
        y = t * atan(t2 * sin(y) * cos(y) / (cos(x + y) + cos(x - y) - 1.0));
    }
    s->x7 = x;
    s->y7 = y;

    /* Module 8: procedure calls. */
    double z = 1.0;
    x = 1.0;
    y = 1.0;
    for (long i = 0; i < n8; i++)
        whet_p3(x, y, &z, t, t2);
    s->z8 = z;
    double tm2 = cpuclock_thread_seconds();

    /* Module 9: array references. */
    e[1] = 1.0;
    e[2] = 2.0;
    e[3] = 3.0;
    for (long i = 0; i < n9; i++)
        whet_p0(e, 1, 2, 3);

    /* Module 11: standard functions. */
    x = 0.75;
    for (long i = 0; i < n11; i++)
        x = sqrt(exp(log(x) / t1));
    s->x11 = x;
    double tm3 = cpuclock_thread_seconds();
    *kept += (tm1 - tm0) + (tm3 - tm2);
    *dropped += tm2 - tm1;

    sink_v = e[1] + e[2] + e[3] + e[4] + s->x7 + s->y7 + z + x;
}

/* Checks the module results of `loops` loops; writes why to msg. */
static bool whet_check(const struct whet_state *s, long loops, char *msg, size_t len)
{
    const double t = 0.499975, t1 = 0.50025, t2 = 2.0;
    long want_j4 = (345 * loops) % 2 ? 0 : 1;
    if (s->j4 != want_j4) {
        snprintf(msg, len, "module 4: J is %ld, should be %ld", s->j4, want_j4);
        return false;
    }
    if (s->j6 != 1 || s->k6 != 2 || s->l6 != 3) {
        snprintf(msg, len, "module 6: J,K,L are %ld,%ld,%ld, should be 1,2,3",
                 s->j6, s->k6, s->l6);
        return false;
    }
    double x1 = t * 2.0, y1 = t * (x1 + 1.0), z = (x1 + y1) / t2;
    if (!(fabs(s->z8 - z) <= 1e-12)) {
        snprintf(msg, len, "module 8: Z is %.17g, should be %.17g", s->z8, z);
        return false;
    }
    /* Module 9 leaves E1(1..3) = 3,2,3 after an even number of passes. */
    if (s->e[1] != 3.0 || s->e[2] != 2.0 || s->e[3] != 3.0) {
        snprintf(msg, len, "module 9: E1 is %g,%g,%g, should be 3,2,3",
                 s->e[1], s->e[2], s->e[3]);
        return false;
    }
    /* log X(n+1) = log X(n) / (2 T1): X(n) = exp(log 0.75 / (2 T1)^n). */
    double x11 = exp(log(0.75) * pow(2.0 * t1, -(double)(93 * loops)));
    if (!(fabs(s->x11 - x11) <= 1e-9 * x11)) {
        snprintf(msg, len, "module 11: X is %.17g, should be %.17g", s->x11, x11);
        return false;
    }
    double bound = t * M_PI / 2;
    if (!(fabs(s->x7) <= bound) || !(fabs(s->y7) <= bound)) {
        snprintf(msg, len, "module 7: X,Y are %g,%g, outside +-%g", s->x7, s->y7, bound);
        return false;
    }
    if (!isfinite(s->e[4]) || fabs(s->e[4]) > 2.0) {
        snprintf(msg, len, "modules 2-3: E1(4) is %g, should be finite and small", s->e[4]);
        return false;
    }
    return true;
}

static int whet_run(const struct kernel_params *p, struct report *r)
{
    struct whet_state st;
    memset(&st, 0, sizeof st);
    int samples = p->iterations > 0 ? p->iterations
                  : p->quick ? WHET_SAMPLES_QUICK : WHET_SAMPLES_FULL;
    double target = p->quick ? WHET_SAMPLE_QUICK_S : WHET_SAMPLE_FULL_S;
    char msg[200];

    /* Loops per sample: p->size, else calibrated (loops are ~10 us). */
    long per_sample = p->size > 0 ? (p->size > (size_t)WHET_MAX_LOOPS
                                     ? WHET_MAX_LOOPS : (long)p->size) : 0;
    double loops_per_s = 0;
    if (!per_sample) {
        long n = 1;
        double kept = 0, dropped = 0;
        for (;;) {
            kept = dropped = 0;
            whet_loops(n, &st, &kept, &dropped);
            if (kept + dropped >= WHET_CALIBRATE_S || n >= WHET_MAX_LOOPS / 2)
                break;
            n *= 2;
        }
        double t = kept + dropped;
        loops_per_s = t > 0 ? (double)n / t : 1e4;
        double want = loops_per_s * target;
        per_sample = want < 1 ? 1 : want > WHET_MAX_LOOPS ? WHET_MAX_LOOPS : (long)want;
    }

    double total_t = (double)samples * target, done_t = 0;
    double wall0 = now_seconds(), cpu0 = cpuclock_thread_seconds();
    for (int s = 0; s < samples; s++) {
        long chunk = loops_per_s > 0 ? (long)(loops_per_s * WHET_CHUNK_S) : per_sample;
        if (chunk < 1)
            chunk = 1;
        double kept = 0, dropped = 0, w0 = now_seconds();
        long done_loops = 0;
        for (long left = per_sample; left > 0;) {
            long n = left < chunk ? left : chunk;
            whet_loops(n, &st, &kept, &dropped);
            /* Every chunk starts the modules afresh: check each. */
            if (!whet_check(&st, n, msg, sizeof msg)) {
                for (int m = 0; m < M_COUNT; m++)
                    report_fail(r, whet_metrics[m].id, "wrong result after %ld loops: %s",
                                n, msg);
                return -1;
            }
            left -= n;
            done_loops += n;
            double el = kept + dropped;
            report_progress(r, done_t + (el < target ? el : target), total_t);
            /* On a crowded core the CPU time comes slowly: end the sample
             * early rather than overrun the time limit. */
            if (!p->size && now_seconds() - w0 > KERNEL_WALL_FACTOR * target)
                break;
        }
        double all = kept + dropped;
        if (!(kept > 0))
            kept = 1e-9;
        if (!(all > 0))
            all = 1e-9;
        double kips = WHET_KI_PER_LOOP * (double)done_loops;
        /* one run gives both rows; p->only says which are reported */
        if (kernel_wants(p, whet_metrics[M_SDK].id))
            report_sample(r, whet_metrics[M_SDK].id, kips / kept / 1000.0);
        if (kernel_wants(p, whet_metrics[M_FULL].id))
            report_sample(r, whet_metrics[M_FULL].id, kips / all / 1000.0);
        done_t += target;
        report_progress(r, done_t, total_t);
        loops_per_s = (double)done_loops / all;
    }
    cpucheck_share_note(r, sched_getcpu(), now_seconds() - wall0,
                        cpuclock_thread_seconds() - cpu0);
    report_note(r, "%ld loops (100,000 Whetstone instructions each) per sample, double "
                "precision, module results checked; `whetstone` times modules 2, 3, 9 and "
                "11 as TI's binary does (the compiler drops 4, 6, 7, 8 from it), "
                "`whetstone-full` all of them", per_sample);
    return 0;
}

const struct kernel kernel_whetstone = {
    .name = "whetstone",
    .section = "whetstone",
    .description = "Whetstone double-precision floating-point mix in MIPS: the modules "
                   "TI's binary runs (the guide's row) and all of them "
                   "(size = loops per sample)",
    .metrics = whet_metrics,
    .nmetrics = M_COUNT,
    .budget_quick_s = 2.0,
    .budget_full_s = 11.0,
    .run = whet_run,
};
