/* cpucheck.h - is the CPU in a state to be measured?
 *
 * Before a CPU benchmark the guide's conditions are: the `performance`
 * governor, an idle machine, no thermal throttling. cpucheck reads the
 * state below a sysroot (NULL = "/", tests use fixture trees) into a
 * snapshot and turns it into warnings:
 *
 *     struct cpucheck_snapshot before, after;
 *     struct cpucheck_list w = { 0 };
 *     cpucheck_snapshot(&before, sysroot);
 *     cpucheck_before(&before, &w);            governor, load, hot
 *     ... run the benchmark (pinned to run_cpu) ...
 *     cpucheck_snapshot(&after, sysroot);
 *     cpucheck_after(&before, &after, run_cpu, &w);  throttling during it
 *     for (size_t i = 0; i < w.count; i++) show(w.items[i].text);
 *     cpucheck_list_free(&w); cpucheck_snapshot_free(&before); ...
 *
 * Read from sysfs/procfs (all optional; what is missing is skipped):
 *   proc/loadavg                                   1-minute load
 *   sys/devices/system/cpu/online                  the CPUs (else cpuN dirs)
 *   sys/devices/system/cpu/cpuN/cpufreq/           scaling_governor,
 *       scaling_cur_freq, scaling_max_freq, cpuinfo_max_freq,
 *       stats/total_trans, stats/time_in_state ("kHz ticks" lines)
 *   sys/class/thermal/thermal_zoneN/               type, temp (m°C),
 *       trip_point_K_temp, trip_point_K_type
 *   sys/class/thermal/cooling_deviceN/             type, cur_state, max_state
 * Nothing here fails or prints. */
#ifndef EVMBENCH_CPUCHECK_H
#define EVMBENCH_CPUCHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "kernel/cpuclock.h"
#include "kernel/report.h"

#define CPUCHECK_LOAD_MAX       0.2     /* 1-minute load average */
#define CPUCHECK_SHARE_MIN      0.9     /* CPU time / wall time of a worker */

enum cpucheck_kind {
    CPUCHECK_GOVERNOR,      /* governor other than performance */
    CPUCHECK_LOAD,          /* load average above CPUCHECK_LOAD_MAX */
    CPUCHECK_NO_CPUFREQ,    /* info: no cpufreq, the clock cannot be read */
    CPUCHECK_CAPPED,        /* scaling_max_freq below cpuinfo_max_freq */
    CPUCHECK_FREQ_CHANGED,  /* cpufreq transitions during the run */
    CPUCHECK_BELOW_MAX,     /* time below the maximum frequency during the run */
    CPUCHECK_THERMAL,       /* a zone at or above a passive/hot/critical trip */
    CPUCHECK_COOLING,       /* a cooling device active (throttling) */
    CPUCHECK_CLOCK_MISMATCH,/* measured clock differs from cpufreq by > 5 % */
};

struct cpucheck_warning {
    enum cpucheck_kind kind;
    int cpu;                /* the CPU concerned, -1 for the machine */
    char *text;             /* one line, no trailing period; owned */
};

struct cpucheck_list {
    struct cpucheck_warning *items;
    size_t count, cap;
};

struct cpucheck_state {     /* a time_in_state line */
    unsigned long long khz, ticks;  /* ticks of 10 ms (USER_HZ) */
};

struct cpucheck_cpu {
    int cpu;
    char *governor;         /* NULL without cpufreq */
    double cur_mhz, max_mhz, limit_mhz;   /* scaling_cur, cpuinfo_max, scaling_max; 0 unknown */
    long long total_trans;  /* -1 without cpufreq stats */
    struct cpucheck_state *states;
    size_t nstates;
};

struct cpucheck_zone {
    char *name;             /* "thermal_zone0" */
    char *type;             /* "cpu-thermal", or NULL */
    double temp_c;          /* NAN when unreadable */
    double trip_c;          /* lowest passive/hot/critical trip, NAN if none */
    char *trip_type;        /* its type */
};

struct cpucheck_cooling {
    char *name;             /* "cooling_device0" */
    char *type;             /* "thermal-cpufreq-0", "cpufreq-cpu0", "fan" ... */
    long cur_state, max_state;  /* -1 when unreadable */
};

struct cpucheck_snapshot {
    double load1;           /* NAN when proc/loadavg is missing */
    struct cpucheck_cpu *cpus;
    size_t ncpus;
    struct cpucheck_zone *zones;
    size_t nzones;
    struct cpucheck_cooling *cooling;
    size_t ncooling;
};

/* Reads the state under sysroot (NULL = "/"); *s is overwritten. */
void cpucheck_snapshot(struct cpucheck_snapshot *s, const char *sysroot);
void cpucheck_snapshot_free(struct cpucheck_snapshot *s);

/* Warnings before a CPU run: a governor other than performance (one per
 * governor, naming its CPUs), the load above 0.2, a frequency capped
 * below the maximum, a thermal zone already at a trip point, an active
 * CPU cooling device, and (info) no cpufreq at all. Appends to out. */
void cpucheck_before(const struct cpucheck_snapshot *s, struct cpucheck_list *out);

/* Warnings from comparing the snapshots around a run on `cpu` (-1: every
 * CPU): frequency transitions (total_trans grew), time spent below the
 * maximum frequency (time_in_state), a zone at or above its trip point,
 * a cooling device that became active. Appends to out. */
void cpucheck_after(const struct cpucheck_snapshot *before,
                    const struct cpucheck_snapshot *after, int cpu,
                    struct cpucheck_list *out);

/* Flags cores whose measured clock differs from cpufreq by more than
 * CPUCLOCK_MISMATCH_PCT (from cpuclock_survey()). Appends to out. */
void cpucheck_clocks(const struct cpuclock_core *cores, size_t n, struct cpucheck_list *out);

/* Appends one warning (printf-style text). */
void cpucheck_add(struct cpucheck_list *l, enum cpucheck_kind kind, int cpu,
                  const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void cpucheck_list_free(struct cpucheck_list *l);

/* For a kernel in its worker: when the thread got less than
 * CPUCHECK_SHARE_MIN of the wall time (other processes on its core),
 * reports a note saying so. Returns the share (cpu_s / wall_s). */
double cpucheck_share_note(struct report *r, int cpu, double wall_s, double cpu_s);

#endif
