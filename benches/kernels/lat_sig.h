/* lat_sig.h - what lat_sig.c shares with its tests: how a cost measured
 * with an overhead in it becomes a latency. */
#ifndef EVMBENCH_LAT_SIG_H
#define EVMBENCH_LAT_SIG_H

#include "benches/kernels/kernel_util.h"
#include "kernel/report.h"

/* Reports `id` (and `alias`, may be NULL) as the latency of an operation
 * whose recorded intervals `raw` include an overhead of overhead_us
 * microseconds per operation, measured on its own before: lmbench's
 * median interval less the overhead, one value, which is above zero; when
 * it is not (the overhead's noise is larger than the difference), the
 * metric fails with both figures instead of reporting a latency below
 * zero. Returns 0 when a value was reported, -1 after report_fail. */
int lat_sig_report_difference(struct report *r, const char *id, const char *alias,
                              const struct kb_result *raw, double overhead_us);

#endif
