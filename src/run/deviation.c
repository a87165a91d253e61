/* deviation.c - which way is better for a unit, and how far off we are. */
#include "config.h"
#include "run/deviation.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "data/refdb.h"
#include "common/util.h"

/* Unit words as the guides print them, lower-cased, punctuation kept.
 * Rates, scores and counts of work are better higher; times, latencies,
 * loads and power are better lower; clocks, sizes and the rest are only
 * facts (neutral). */
static const char *const higher_units[] = {
    "mb/s", "mbs", "mbytes/sec", "mbits/sec", "kbytes/sec", "bits/sec", "mb/sec",
    "mibps", "mbps", "kpps", "fps", "mips", "dmips/mhz", "dhrystonep", "kflops",
    "iterations", "iterations/sec", "score", "ops/s", "workloads/", "gb/s",
};
static const char *const lower_units[] = {
    "us", "usec", "microsec", "ns", "nanosec", "ms", "sec", "s", "seconds",
    "%", "mw", "w",
};

static bool in_list(const char *u, const char *const *list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(u, list[i]) == 0)
            return true;
    return false;
}

enum direction unit_direction(const char *unit)
{
    if (!unit || !*unit)
        return DIR_NEUTRAL;
    char u[64];
    size_t n = 0;
    for (const char *p = unit; *p && n < sizeof u - 1; p++)
        if (!isspace((unsigned char)*p))
            u[n++] = (char)tolower((unsigned char)*p);
    u[n] = '\0';
    if (in_list(u, higher_units, ARRAY_SIZE(higher_units)))
        return DIR_HIGHER_BETTER;
    if (in_list(u, lower_units, ARRAY_SIZE(lower_units)))
        return DIR_LOWER_BETTER;
    if (strstr(u, "/s") || str_ends_with(u, "ps"))
        return DIR_HIGHER_BETTER;
    return DIR_NEUTRAL;
}

bool unit_is_time(const char *unit)
{
    static const char *const times[] = {
        "us", "usec", "microsec", "microseconds", "ns", "nsec", "nanosec", "nanoseconds",
        "ms", "msec", "milliseconds", "s", "sec", "seconds",
    };
    char u[32];
    size_t n = 0;
    for (const char *p = unit ? unit : ""; *p; p++) {
        if (isspace((unsigned char)*p))
            continue;
        if (n == sizeof u - 1)
            return false;
        u[n++] = (char)tolower((unsigned char)*p);
    }
    u[n] = '\0';
    return in_list(u, times, ARRAY_SIZE(times));
}

/* The guide's band [lo, hi]: its min and max, the avg standing in for an
 * edge it does not give (a single number is the band lo = hi = avg). */
static void guide_band(const struct ref_value *r, double *lo, double *hi)
{
    *lo = r->has_min ? r->min : r->avg;
    *hi = r->has_max ? r->max : r->avg;
    if (r->has_min && r->has_max && *lo > *hi) {
        double t = *lo;
        *lo = *hi;
        *hi = t;
    }
}

/* How far v lies beyond edge e, away from the band, as a fraction of the
 * edge (of the avg when the edge is 0); 0 on the band's side of it. */
static double beyond(double v, double e, bool below, double avg)
{
    double d = below ? e - v : v - e;
    double scale = e != 0 ? fabs(e) : fabs(avg);
    return d > 0 && scale > 0 ? d / scale : 0;
}

struct deviation deviation_compute(double measured, const struct ref_value *ref,
                                   enum direction dir, double tolerance_pct)
{
    struct deviation d = { .verdict = VERDICT_NONE };
    if (!ref || !ref->present || ref->avg == 0 || !isfinite(measured))
        return d;
    if (tolerance_pct <= 0)
        tolerance_pct = DEFAULT_TOLERANCE_PCT;
    double p = tolerance_pct / 100.0;
    d.has_ref = true;
    d.pct = (measured - ref->avg) / fabs(ref->avg) * 100.0;
    d.better = (dir == DIR_HIGHER_BETTER && d.pct > 0) ||
               (dir == DIR_LOWER_BETTER && d.pct < 0);

    double lo, hi;
    guide_band(ref, &lo, &hi);
    double below = beyond(measured, lo, true, ref->avg);
    double above = beyond(measured, hi, false, ref->avg);
    /* the worse side of the band and the better one; a unit without a
     * direction has two worse sides */
    double worse = dir == DIR_HIGHER_BETTER ? below : dir == DIR_LOWER_BETTER ? above
                 : fmax(below, above);
    double good = dir == DIR_HIGHER_BETTER ? above : dir == DIR_LOWER_BETTER ? below : 0;
    /* A single number is a point: within half the tolerance on the worse
     * side is in range, or nearly every measurement would warn. */
    bool point = !ref->has_min && !ref->has_max;
    if (worse > p)
        d.verdict = VERDICT_OFF;
    else if (worse > (point ? p / 2 : 0))
        d.verdict = VERDICT_WARN;
    else if (good > p)
        d.verdict = VERDICT_BETTER;
    else
        d.verdict = VERDICT_IN_RANGE;
    return d;
}

const char *verdict_name(enum verdict v)
{
    switch (v) {
    case VERDICT_IN_RANGE: return "in_range";
    case VERDICT_WARN:     return "warn";
    case VERDICT_OFF:      return "off";
    case VERDICT_BETTER:   return "better";
    case VERDICT_NONE:
    case VERDICT_COUNT:    break;
    }
    return "none";
}

/* The basis of the rule (deviation.h) and its value; false when there is
 * none to judge against. */
static bool fail_basis(const struct fail_input *in, enum fail_basis *basis, double *value)
{
    if (in->with_baseline) {
        *basis = BASIS_BASELINE;
        *value = in->baseline;
        return in->has_baseline && isfinite(in->baseline) && in->baseline != 0;
    }
    const struct ref_value *r = in->ref;
    if (!r || !r->present)
        return false;
    double lo, hi;
    guide_band(r, &lo, &hi);
    if (in->dir == DIR_HIGHER_BETTER && r->has_min) {
        *basis = BASIS_GUIDE_MIN;
        *value = lo;
    } else if (in->dir == DIR_LOWER_BETTER && r->has_max) {
        *basis = BASIS_GUIDE_MAX;
        *value = hi;
    } else {
        *basis = BASIS_GUIDE_AVG;
        *value = r->avg;
    }
    return isfinite(*value) && *value != 0;
}

/* Whether other processes took DEVIATION_LOAD_PCT or more of the worker's
 * core: then any slowdown may be theirs (deviation.h). */
static bool under_load(const struct fail_input *in)
{
    return isfinite(in->other_cpu_pct) && in->other_cpu_pct >= DEVIATION_LOAD_PCT;
}

/* Against a baseline: the outcome of the change decides. */
static void fail_check_change(const struct fail_input *in, double fail_pct,
                              struct fail_check *fc)
{
    fc->change = in->change;
    fc->outcome = deviation_outcome(&in->change, in->dir,
                                    fail_pct > 0 ? fail_pct : DEFAULT_TOLERANCE_PCT);
    double est = in->dir == DIR_HIGHER_BETTER ? -in->change.pct : in->change.pct;
    fc->worse_pct = est > 0 ? est : 0;
    fc->fails = fail_pct > 0 && fc->outcome == OUTCOME_SLOWER;
    if (fc->outcome == OUTCOME_SLOWER && under_load(in)) {
        fc->fails = false;
        fc->loaded = true;
        fc->outcome = OUTCOME_INCONCLUSIVE;
    }
}

struct fail_check deviation_fail_check(const struct fail_input *in, double fail_pct)
{
    struct fail_check fc = { .basis = BASIS_NONE };
    enum fail_basis basis;
    double b;
    if (in->dir == DIR_NEUTRAL || !isfinite(in->value) || !fail_basis(in, &basis, &b))
        return fc;
    fc.basis = basis;
    fc.basis_value = b;
    if (basis == BASIS_BASELINE) {
        if (in->has_change && in->change.has_estimate)
            fail_check_change(in, fail_pct, &fc);
        else
            fc.outcome = OUTCOME_INCONCLUSIVE;
        return fc;
    }
    double diff = in->value - b;
    /* the store keeps 10 significant digits: closer than that is level */
    if (fabs(diff) <= 1e-9 * fabs(b))
        diff = 0;
    double worse = in->dir == DIR_HIGHER_BETTER ? -diff : diff;
    fc.worse_pct = worse > 0 ? worse / fabs(b) * 100.0 : 0;
    fc.fails = fail_pct > 0 && fc.worse_pct > fail_pct;
    if (fc.fails && under_load(in)) {
        fc.fails = false;
        fc.loaded = true;
    }
    return fc;
}

void deviation_fail_reason(const struct fail_check *fc, double fail_pct, char *buf, size_t n)
{
    switch (fc->basis) {
    case BASIS_BASELINE:
        if (fc->change.has_interval)
            snprintf(buf, n, "%+.1f%% (%+.1f .. %+.1f%%) against the baseline's %.6g, %zu "
                     "%s against %zu: slower beyond the limit %g%%", fc->change.pct,
                     fc->change.low, fc->change.high, fc->basis_value, fc->change.n_now,
                     fc->change.per_run ? "runs" : "samples", fc->change.n_before, fail_pct);
        else
            snprintf(buf, n, "%.1f%% worse than the baseline's %.6g (limit %g%%)",
                     fc->worse_pct, fc->basis_value, fail_pct);
        break;
    case BASIS_GUIDE_AVG:
        snprintf(buf, n, "%.1f%% worse than the guide's %.6g (limit %g%%)", fc->worse_pct,
                 fc->basis_value, fail_pct);
        break;
    case BASIS_GUIDE_MIN:
        snprintf(buf, n, "%.1f%% below the guide's band (min %.6g, limit %g%%)",
                 fc->worse_pct, fc->basis_value, fail_pct);
        break;
    case BASIS_GUIDE_MAX:
        snprintf(buf, n, "%.1f%% above the guide's band (max %.6g, limit %g%%)",
                 fc->worse_pct, fc->basis_value, fail_pct);
        break;
    case BASIS_NONE:
        snprintf(buf, n, "nothing to compare with");
        break;
    }
}

/* --- the outcome of a change --------------------------------------------------- */

enum outcome deviation_outcome(const struct change *c, enum direction dir, double pct)
{
    if (dir == DIR_NEUTRAL || !c->has_estimate)
        return OUTCOME_NONE;
    if (!c->has_interval)
        return OUTCOME_INCONCLUSIVE;
    /* turned so that below zero is worse */
    double lo = dir == DIR_HIGHER_BETTER ? c->low : -c->high;
    double hi = dir == DIR_HIGHER_BETTER ? c->high : -c->low;
    if (hi < -pct)
        return OUTCOME_SLOWER;
    if (lo >= -pct && hi <= pct)
        return OUTCOME_UNCHANGED;
    if (lo > 0)
        return OUTCOME_FASTER;
    return OUTCOME_INCONCLUSIVE;
}

static const char *const outcome_names[] = {
    [OUTCOME_UNCHANGED] = "unchanged",
    [OUTCOME_FASTER] = "faster",
    [OUTCOME_SLOWER] = "slower",
    [OUTCOME_INCONCLUSIVE] = "inconclusive",
};

const char *outcome_name(enum outcome o)
{
    return o > OUTCOME_NONE && o < ARRAY_SIZE(outcome_names) ? outcome_names[o] : NULL;
}

enum outcome outcome_from_name(const char *name)
{
    for (size_t i = 1; name && i < ARRAY_SIZE(outcome_names); i++)
        if (strcmp(name, outcome_names[i]) == 0)
            return (enum outcome)i;
    return OUTCOME_NONE;
}

bool change_is_small(const struct change *c)
{
    return c->has_interval && (c->low > 0 || c->high < 0);
}
