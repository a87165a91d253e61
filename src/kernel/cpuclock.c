/* cpuclock.c - measured core clock beside cpufreq's (see cpuclock.h). */
#include "config.h"
#include "kernel/cpuclock.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/util.h"

#define SLICES          5       /* at least, per chain length; best kept */
#define WARMUP_SHARE    0.2     /* of the budget, spun before timing (DVFS ramp) */
#define START_ITERS     256u
#define SLICE_MAX_S     1e-3    /* a timed slice, well under a scheduler tick */

/* A block of dependent additions, x += one, each needing the previous
 * result: one per cycle on in-order and out-of-order cores alike. The
 * assembler repeats the instruction, so the chain does not depend on the
 * optimisation level; elsewhere an empty asm after each addition keeps
 * the compiler from folding them (this needs -O1 or more). */
#if defined(__aarch64__)
#define ADD_BLOCK(x, one, n) \
    __asm__ volatile(".rept " #n "\n\tadd %0, %0, %1\n\t.endr" : "+r"(x) : "r"(one))
#elif defined(__x86_64__) || defined(__i386__)
#define ADD_BLOCK(x, one, n) \
    __asm__ volatile(".rept " #n "\n\tadd %1, %0\n\t.endr" : "+r"(x) : "r"(one))
#elif defined(__arm__)
/* Written out, not .rept: GCC sizes an asm by its lines, and in Thumb-2 a
 * loop around a block it thinks is short gets a branch that cannot reach. */
#define ADD_1   "add %0, %0, %1\n\t"
#define ADD_4   ADD_1 ADD_1 ADD_1 ADD_1
#define ADD_16  ADD_4 ADD_4 ADD_4 ADD_4
#define ADD_64  ADD_16 ADD_16 ADD_16 ADD_16
#define ADD_128 ADD_64 ADD_64
#define ADD_BLOCK(x, one, n) __asm__ volatile(ADD_##n : "+r"(x) : "r"(one))
#else
#define ADD_BLOCK(x, one, n) \
    do { \
        for (int k_ = 0; k_ < (n); k_++) { \
            (x) += (one); \
            __asm__ volatile("" : "+r"(x)); \
        } \
    } while (0)
#endif

/* Opaque to the compiler, so the additions cannot be precomputed. */
static volatile unsigned long one_v = 1;
static volatile unsigned long sink_v;

#define SHORT_CHAIN 64
#define LONG_CHAIN  128

static __attribute__((noinline)) void chain_short(unsigned long iters)
{
    unsigned long x = 0, one = one_v;
    for (unsigned long i = 0; i < iters; i++)
        ADD_BLOCK(x, one, 64);
    sink_v = x;
}

static __attribute__((noinline)) void chain_long(unsigned long iters)
{
    unsigned long x = 0, one = one_v;
    for (unsigned long i = 0; i < iters; i++)
        ADD_BLOCK(x, one, 128);
    sink_v = x;
}

static double time_chain(void (*fn)(unsigned long), unsigned long iters)
{
    double t0 = now_seconds();
    fn(iters);
    return now_seconds() - t0;
}

/* The measurement on the current CPU. */
static double measure_here(double seconds)
{
    /* Spin first, so an ondemand/schedutil governor raises the clock. */
    double until = now_seconds() + seconds * WARMUP_SHARE;
    while (now_seconds() < until)
        chain_long(START_ITERS);

    /* Calibrate: a long-chain slice of about 1 ms, shorter than the
     * scheduler's time slice, so that on a shared core some slices run
     * without being preempted; then alternate short and long chains until
     * the budget is spent and keep the fastest of each. */
    double budget = seconds * (1.0 - WARMUP_SHARE);
    double slice = budget / (2 * SLICES);
    if (slice > SLICE_MAX_S)
        slice = SLICE_MAX_S;
    unsigned long iters = START_ITERS;
    while (time_chain(chain_long, iters) < slice / 2 && iters <= ULONG_MAX / 2)
        iters *= 2;

    double best_short = INFINITY, best_long = INFINITY;
    double end = now_seconds() + budget;
    for (int i = 0; i < SLICES || now_seconds() < end; i++) {
        double ts = time_chain(chain_short, iters);
        double tl = time_chain(chain_long, iters);
        if (ts < best_short)
            best_short = ts;
        if (tl < best_long)
            best_long = tl;
    }
    /* The difference cancels the loop overhead; when noise makes it
     * meaningless, the long chain alone is the estimate. */
    double extra = (double)(LONG_CHAIN - SHORT_CHAIN) * (double)iters;
    double dt = best_long - best_short;
    double hz = extra / dt;
    double hz_long = (double)LONG_CHAIN * (double)iters / best_long;
    if (!(dt > 0) || !isfinite(hz) || hz > 1.5 * hz_long || hz < 0.5 * hz_long)
        hz = hz_long;
    return isfinite(hz) && hz > 0 ? hz / 1e6 : 0;
}

double cpuclock_measure(int cpu, double seconds)
{
    if (!(seconds > 0))
        seconds = CPUCLOCK_DEFAULT_S;
    if (cpu < 0)
        return measure_here(seconds);
    if (cpu >= CPU_SETSIZE) {
        errno = EINVAL;
        return 0;
    }
    cpu_set_t saved, one;
    if (sched_getaffinity(0, sizeof saved, &saved) != 0)
        return 0;
    if (!CPU_ISSET(cpu, &saved)) {
        errno = EINVAL;
        return 0;
    }
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    if (sched_setaffinity(0, sizeof one, &one) != 0)
        return 0;
    double mhz = measure_here(seconds);
    int err = errno;
    sched_setaffinity(0, sizeof saved, &saved);
    errno = err;
    return mhz;
}

double cpuclock_thread_seconds(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
        return now_seconds();
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* <sysroot>/sys/devices/system/cpu/cpuN/cpufreq/<file> in MHz, 0 if absent. */
static double cpufreq_file_mhz(const char *sysroot, int cpu, const char *file)
{
    bool real = !sysroot || sysroot[strspn(sysroot, "/")] == '\0';
    char rel[96];
    snprintf(rel, sizeof rel, "sys/devices/system/cpu/cpu%d/cpufreq/%s", cpu, file);
    char *path = path_join(real ? "" : sysroot, rel);
    char *s = read_line_file(path);
    free(path);
    if (!s)
        return 0;
    char *end;
    double khz = strtod(s, &end);
    bool ok = end != s && isfinite(khz) && khz > 0;
    free(s);
    return ok ? khz / 1000.0 : 0;
}

double cpuclock_cpufreq_cur_mhz(const char *sysroot, int cpu)
{
    static const char *const files[] = {
        "cpuinfo_cur_freq", "scaling_cur_freq", "cpuinfo_max_freq",
    };
    if (cpu < 0)
        return 0;
    for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
        double mhz = cpufreq_file_mhz(sysroot, cpu, files[i]);
        if (mhz > 0)
            return mhz;
    }
    return 0;
}

double cpuclock_cpufreq_max_mhz(const char *sysroot, int cpu)
{
    return cpu < 0 ? 0 : cpufreq_file_mhz(sysroot, cpu, "cpuinfo_max_freq");
}

bool cpuclock_mismatch(double measured_mhz, double cpufreq_mhz)
{
    if (!(measured_mhz > 0) || !(cpufreq_mhz > 0))
        return false;
    return fabs(measured_mhz - cpufreq_mhz) / cpufreq_mhz * 100.0 > CPUCLOCK_MISMATCH_PCT;
}

double cpuclock_dmips_per_mhz(double dhrystones_per_s, double mhz)
{
    if (!(mhz > 0) || !isfinite(dhrystones_per_s))
        return 0;
    return dhrystones_per_s / CPUCLOCK_DMIPS_DPS / mhz;
}

size_t cpuclock_survey(const char *sysroot, double seconds,
                       struct cpuclock_core *out, size_t max)
{
    cpu_set_t set;
    if (!out || sched_getaffinity(0, sizeof set, &set) != 0)
        return 0;
    size_t n = 0;
    for (int c = 0; c < CPU_SETSIZE && n < max; c++) {
        if (!CPU_ISSET(c, &set))
            continue;
        struct cpuclock_core *core = &out[n++];
        core->cpu = c;
        core->measured_mhz = cpuclock_measure(c, seconds);
        core->cpufreq_mhz = cpuclock_cpufreq_cur_mhz(sysroot, c);
        core->max_mhz = cpuclock_cpufreq_max_mhz(sysroot, c);
        core->mismatch = cpuclock_mismatch(core->measured_mhz, core->cpufreq_mhz);
    }
    return n;
}
