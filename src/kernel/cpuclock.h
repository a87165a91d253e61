/* cpuclock.h - the real clock of each core, beside what cpufreq says.
 *
 * cpuclock_measure() times a chain of dependent integer additions, one
 * per cycle on every core evmbench targets (Cortex-A53, Cortex-A72) and on
 * x86-64, so additions per second is the core clock. It takes the best of
 * several timed slices, so preemption on a busy machine lowers the result
 * of a slice, not the result. Under an emulator (qemu-user) or in a VM
 * with steal time the number is the emulator's speed, not a clock.
 *
 * The cpufreq readers take a sysroot like board_detect() (NULL = "/") so
 * tests use fixture trees; the measurement itself always runs here. */
#ifndef EVMBENCH_CPUCLOCK_H
#define EVMBENCH_CPUCLOCK_H

#include <stdbool.h>
#include <stddef.h>

#define CPUCLOCK_MISMATCH_PCT   5.0     /* measured vs cpufreq, flagged above */
#define CPUCLOCK_DEFAULT_S      0.2     /* cpuclock_measure(), seconds <= 0 */
#define CPUCLOCK_DMIPS_DPS      1757.0  /* Dhrystones/s of the VAX 11/780 = 1 DMIPS */

/* Measured clock of `cpu` in MHz, spending about `seconds` (<= 0: the
 * default). cpu >= 0 pins the calling thread to it for the measurement
 * and restores its affinity afterwards; cpu < 0 measures wherever the
 * thread runs (a pinned worker). Returns 0 with errno set when the CPU
 * cannot be used (offline, not in the affinity mask). Blocks. */
double cpuclock_measure(int cpu, double seconds);

/* What cpufreq says for `cpu`, in MHz; 0 when the kernel has no cpufreq
 * for it (a PC, a VM, a kernel without a cpufreq driver).
 * _cur: cpuinfo_cur_freq (the hardware's, what TI's runDhrystone reads;
 *       root only), else scaling_cur_freq, else cpuinfo_max_freq.
 * _max: cpuinfo_max_freq. */
double cpuclock_cpufreq_cur_mhz(const char *sysroot, int cpu);
double cpuclock_cpufreq_max_mhz(const char *sysroot, int cpu);

/* True when both clocks are known (> 0) and differ by more than
 * CPUCLOCK_MISMATCH_PCT percent of the cpufreq value. */
bool cpuclock_mismatch(double measured_mhz, double cpufreq_mhz);

/* Dhrystone's DMIPS/MHz: dhrystones_per_s / 1757 / mhz; 0 when mhz <= 0. */
double cpuclock_dmips_per_mhz(double dhrystones_per_s, double mhz);

/* CPU time used by the calling thread, in seconds (CLOCK_THREAD_CPUTIME_ID;
 * the monotonic clock where the kernel lacks it). The CPU kernels time
 * their work with it, so other processes sharing the core are not
 * counted (TI's linpack does the same with getrusage()). */
double cpuclock_thread_seconds(void);

/* One core of cpuclock_survey(). */
struct cpuclock_core {
    int cpu;
    double measured_mhz;    /* 0 when it could not be measured */
    double cpufreq_mhz;     /* cpuclock_cpufreq_cur_mhz(), 0 without cpufreq */
    double max_mhz;         /* cpuinfo_max_freq, 0 when unknown */
    bool mismatch;          /* cpuclock_mismatch(measured, cpufreq) */
};

/* Measures every CPU the calling process may run on (its affinity mask),
 * one after the other, `seconds` each, and reads their cpufreq values
 * under sysroot. Fills at most `max` entries of out[] in CPU order and
 * returns how many. Blocks for about count x seconds: call it before the
 * screens start, or from a worker process. Restores the affinity. */
size_t cpuclock_survey(const char *sysroot, double seconds,
                       struct cpuclock_core *out, size_t max);

#endif
