/* deviation.h - measured value against the guide's reference.
 *
 *   deviation % = (measured - ref.avg) / ref.avg * 100
 *
 * The unit says which way is better (units.c). The verdict: inside the
 * reference [min, max] band -> in range; outside the band by no more than
 * the tolerance (in % of avg) -> warn; beyond -> off. When the guide gives
 * no band (a single number), within half the tolerance of it is in range. */
#ifndef EVMBENCH_DEVIATION_H
#define EVMBENCH_DEVIATION_H

#include <stdbool.h>

struct ref_value;

enum direction { DIR_HIGHER_BETTER, DIR_LOWER_BETTER, DIR_NEUTRAL };

enum verdict { VERDICT_NONE, VERDICT_IN_RANGE, VERDICT_WARN, VERDICT_OFF };

struct deviation {
    bool has_ref;
    double pct;             /* signed deviation from ref avg */
    bool better;            /* pct points the good way for the unit */
    enum verdict verdict;
};

#define DEFAULT_TOLERANCE_PCT 10.0

/* Direction for a unit as the guides print it ("mb/s", "microsec", ...). */
enum direction unit_direction(const char *unit);
struct deviation deviation_compute(double measured, const struct ref_value *ref,
                                   enum direction dir, double tolerance_pct);
const char *verdict_name(enum verdict v);   /* "in_range", "warn", "off", "none" */

#endif
