/* cpuload.h - CPU load over an interval, as the guide's "CPU Load" columns.
 *
 * TI's tables report the load beside a throughput in two ways, and a
 * recipe says which one it needs ("cpu_load" in benches/tools/README.md):
 *
 *   system   the share of all CPUs' time that was not idle over the run,
 *            from the aggregate "cpu" line of /proc/stat read before and
 *            after (netperf's LOCAL_CPU_UTIL, the fio and audio tables):
 *            busy = user + nice + system + irq + softirq + steal,
 *            total = busy + idle + iowait (guest time is already in user).
 *   process  the tool's own CPU time (user + system, itself and the
 *            children it waited for) over the wall time, 100 = one CPU
 *            busy (`time -v`'s "Percent of CPU this job got", which the
 *            OpenSSL CPU Load table quotes).
 *
 *     struct cpuload_sample a, b;
 *     cpuload_read(sysroot, &a, NULL);
 *     ... the tool runs ...
 *     cpuload_read(sysroot, &b, NULL);
 *     double pct = cpuload_system_percent(&a, &b);
 *
 * Files are read below a sysroot (NULL = "/"; tests use fixture trees).
 * Nothing here prints. */
#ifndef EVMBENCH_CPULOAD_H
#define EVMBENCH_CPULOAD_H

#include <stdbool.h>

#include "common/diag.h"

enum cpuload_scope { CPULOAD_SYSTEM, CPULOAD_PROCESS };

/* Jiffies of the aggregate "cpu" line of proc/stat. */
struct cpuload_sample {
    unsigned long long busy;
    unsigned long long total;
};

/* Reads <sysroot>/proc/stat. False, with the reason added to d (NULL: not
 * wanted), when the file is missing or its "cpu" line is malformed. */
bool cpuload_read(const char *sysroot, struct cpuload_sample *s, struct diag *d);

/* Parses the text of a proc/stat file (the first line starting "cpu ").
 * Needs at least the four fields user nice system idle. */
bool cpuload_parse(const char *text, struct cpuload_sample *s);
/* The same for CPU `cpu`'s own line ("cpu3 "); cpu < 0: the aggregate. */
bool cpuload_parse_cpu(const char *text, int cpu, struct cpuload_sample *s);
/* cpuload_read of CPU `cpu`'s line (cpu < 0: the aggregate); the file's
 * first 4 KiB are read, which hold the lines of the first 60 CPUs. */
bool cpuload_read_cpu(const char *sysroot, int cpu, struct cpuload_sample *s, struct diag *d);

/* Busy percentage (0-100) between two samples; NAN when no time passed
 * or the counters went backwards (a different file, a reset). */
double cpuload_system_percent(const struct cpuload_sample *before,
                              const struct cpuload_sample *after);

/* CPU seconds over wall seconds, in percent (100 = one CPU); NAN when
 * wall <= 0 or cpu < 0. */
double cpuload_process_percent(double cpu_seconds, double wall_seconds);

#endif
