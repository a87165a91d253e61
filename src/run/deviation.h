/* deviation.h - measured value against the guide's reference.
 *
 *   deviation % = (measured - ref.avg) / ref.avg * 100
 *
 * The unit says which way is better (units.c). The verdict is the band
 * rule of DEVIATION in evmbench(1), with p = tolerance / 100 and the
 * band's edges (a single number is both edges; a missing edge is the avg):
 * the worse edge W (min when higher is better, max when lower is better),
 * the better edge G (the other one); "beyond an edge by x" is measured in
 * % of that edge, away from the band.
 *
 *   off       beyond W by more than p: v < W(1 - p), resp. v > W(1 + p),
 *             exactly what --fail-on-deviation p*100 fails against the guide
 *   warn      beyond W by no more than p (a single number: by more than p/2)
 *   better    beyond G by more than p: v > G(1 + p), resp. v < G(1 - p)
 *   in_range  the rest: inside the band, or outside it by no more than p on
 *             the better side (by no more than p/2 on the worse one for a
 *             single number)
 *
 * Better is never warn or off. A unit without a direction has two worse
 * edges (min and max) and no better one. */
#ifndef EVMBENCH_DEVIATION_H
#define EVMBENCH_DEVIATION_H

#include <stdbool.h>
#include <stddef.h>

#include "common/change.h"

struct ref_value;

enum direction { DIR_HIGHER_BETTER, DIR_LOWER_BETTER, DIR_NEUTRAL };

enum verdict {
    VERDICT_NONE, VERDICT_IN_RANGE, VERDICT_WARN, VERDICT_OFF, VERDICT_BETTER,
    VERDICT_COUNT               /* how many there are, for tallies */
};

struct deviation {
    bool has_ref;
    double pct;             /* signed deviation from ref avg */
    bool better;            /* pct points the good way for the unit */
    enum verdict verdict;
};

#define DEFAULT_TOLERANCE_PCT 10.0

/* Direction for a unit as the guides print it ("mb/s", "microsec", ...). */
enum direction unit_direction(const char *unit);
/* Whether a unit is a duration ("us", "microsec", "ns", "ms", "s", ...):
 * a latency or a time, which is never zero or below. */
bool unit_is_time(const char *unit);
/* The deviation and verdict of measured against ref by the band rule
 * above; no reference (NULL, absent, an avg of 0) or a measured value that
 * is not finite: VERDICT_NONE. tolerance_pct <= 0 is the default. */
struct deviation deviation_compute(double measured, const struct ref_value *ref,
                                   enum direction dir, double tolerance_pct);
/* "in_range", "warn", "off", "better", "none". */
const char *verdict_name(enum verdict v);

/* --- before and after: the outcome of a change (common/change.h) --------------
 * With the change of a metric's value against a baseline, its interval
 * (95 %) and the tolerance PCT, on the scale of the value (a rate that
 * drops, a time that grows, is worse):
 *
 *   slower        the whole interval lies beyond PCT on the worse side:
 *                 below -PCT for a rate, above +PCT for a time
 *   faster        the interval excludes no change on the better side and
 *                 reaches beyond PCT there (better is never an alarm)
 *   unchanged     the whole interval lies within -PCT .. +PCT: no change
 *                 as large as the tolerance, though it may exclude no
 *                 change (a small, real change: change_is_small)
 *   inconclusive  anything else: no interval (too few samples), or one
 *                 that straddles -PCT or +PCT (too much spread to tell)
 *
 * A unit without a direction (a clock, a size) has no outcome. */
enum outcome {
    OUTCOME_NONE,           /* not judged: no direction, no estimate */
    OUTCOME_UNCHANGED,
    OUTCOME_FASTER,
    OUTCOME_SLOWER,
    OUTCOME_INCONCLUSIVE,
};

enum outcome deviation_outcome(const struct change *c, enum direction dir, double pct);
/* "unchanged", "faster", "slower", "inconclusive"; NULL for none. */
const char *outcome_name(enum outcome o);
/* The outcome named (outcome_name), OUTCOME_NONE for anything else. */
enum outcome outcome_from_name(const char *name);
/* Whether an interval excludes no change, within the tolerance: a small,
 * real change (only meaningful for OUTCOME_UNCHANGED). */
bool change_is_small(const struct change *c);

/* --- the failure rule of --fail-on-deviation PCT ---------------------------
 * One rule decides which metrics fail; every output (text, LAVA, JUnit,
 * the exit status) asks it through export_row_failure:
 *
 *   with a baseline (--baseline): the samples, not single values. The
 *            change against the baseline's samples and its interval
 *            (common/change.h) give the outcome at PCT (below); a metric
 *            fails only when it is "slower": the whole interval lies
 *            beyond PCT on the worse side. Inconclusive never fails.
 *   without one: the guide's reference, one number: the worse edge of
 *            its band (min when higher is better, max when lower is
 *            better) or its avg when it gives a single number. worse % is
 *            how far the value lies on the worse side of it, in % of it;
 *            it fails when PCT > 0 and worse % > PCT.
 *
 * Better is never a failure; a unit without a direction (a clock, a size)
 * never fails; a metric with no basis (no baseline row, no guide number,
 * a basis of 0) never fails. Values equal to 10 significant digits (what
 * the store keeps) are level. The guide's "off" alone is a warning. */
enum fail_basis {
    BASIS_NONE,             /* nothing to judge against */
    BASIS_BASELINE,         /* the baseline's value */
    BASIS_GUIDE_AVG,        /* the guide's single number */
    BASIS_GUIDE_MIN,        /* the band's lower edge (higher is better) */
    BASIS_GUIDE_MAX,        /* the band's upper edge (lower is better) */
};

struct fail_input {
    enum direction dir;
    double value;               /* NAN: not measured */
    bool with_baseline;         /* compared with a baseline: the guide is not the basis */
    bool has_baseline;          /* the baseline has this metric */
    double baseline;
    bool has_change;            /* the change against the baseline's samples */
    struct change change;
    const struct ref_value *ref; /* the guide's reference, or NULL */
    double other_cpu_pct;       /* CPU time other processes took on the
                                 * worker's core during the run, % of it */
};

/* From this much CPU time taken by other processes on the worker's core
 * (a share of the run), a metric worse than its basis beyond PCT (against
 * a baseline: slower) is not judged ("could not tell") and never fails,
 * however much worse: the kernels time intervals shorter than a scheduler
 * slice, and one preempted interval is slowed by the slice, not by the
 * share (bw_mem-rd-16mb came out 80 % slower with half its core taken). */
#define DEVIATION_LOAD_PCT 10.0

struct fail_check {
    enum fail_basis basis;
    double basis_value;
    double worse_pct;           /* >= 0; against a baseline the estimate's */
    enum outcome outcome;       /* against a baseline, at PCT (the default
                                 * tolerance when PCT <= 0): slower under
                                 * others' load (DEVIATION_LOAD_PCT) is
                                 * inconclusive
                                 * (and loaded); against the guide NONE */
    struct change change;       /* against a baseline: what it was judged on */
    bool fails;
    bool loaded;                /* worse beyond the limit, but under other
                                 * processes' load: not judged, not failed */
};

/* Judges one metric by the rule above; fail_pct <= 0: nothing fails. */
struct fail_check deviation_fail_check(const struct fail_input *in, double fail_pct);
/* Why it fails, one line: "50.0% worse than the baseline's 2000 (limit
 * 20%)", "5.6% below the guide's band (min 90, limit 5%)". */
void deviation_fail_reason(const struct fail_check *fc, double fail_pct, char *buf, size_t n);

#endif
