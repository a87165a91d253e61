/* cause.h - which recorded system change could have moved a metric.
 *
 * After a DDR or clock change the board designer asks whether the metrics
 * that moved moved because of it. The rule, per metric, against the
 * baseline (the change in its value, in percent, and its interval: the
 * change is "within" a bound when the interval reaches inside it, and
 * "more than" it explains when the whole interval lies beyond it):
 *   - a DDR-bound bandwidth (STREAM, bw_mem: result_ddr_bound) moves with
 *     the DDR data rate, in its direction and at most by its ratio (one
 *     core is partly latency-bound, so it may move less), a latency whose
 *     block outgrows the caches (lat_mem_rd: result_memory_bound, the
 *     row's "memory_bound") against it, by at most its ratio: within that
 *     (CAUSE_SLACK_PCT points of slack for noise) it is "consistent with the
 *     DDR rate change (1600 -> 1333 MT/s, -16.7%)"; the same direction and
 *     further "more than the DDR rate change (...) explains";
 *   - a CPU-bound metric (kernel.h: cpu_bound) the same way with the
 *     fastest core's clock: a rate with it, a time against it;
 *   - any metric: a changed governor, kernel, kernel command line, device
 *     tree or boot loader is named as a possible cause, without a ratio.
 * Nothing else is claimed: no change recorded, no cause named. */
#ifndef EVMBENCH_CAUSE_H
#define EVMBENCH_CAUSE_H

#include <stdbool.h>

#include <jansson.h>

#include "board/sysstate.h"

/* Percentage points a metric may move beyond the DDR or clock ratio and
 * still be consistent with it (run-to-run noise). */
#define CAUSE_SLACK_PCT 2.0

/* A metric's change against the baseline, % of its value before. */
struct cause_change {
    double pct;                 /* the estimate */
    bool has_interval;
    double low, high;           /* its 95 % interval */
};

/* The words for a metric that changed by `change` under system change c;
 * NULL when no recorded change could have caused it. Caller frees. */
char *cause_of(const char *bench, const char *metric, const char *unit, bool cpu_bound,
               bool memory_bound, const struct cause_change *change,
               const struct sysstate_change *c);
/* Sets "explained_by" on every row of rows (JSON rows, result_row_json)
 * that has a change against a baseline ("change_pct", with
 * "change_low" and "change_high" when it has an interval): cause_of's
 * words, or null. */
void cause_explain(json_t *rows, const struct sysstate_change *c);

#endif
