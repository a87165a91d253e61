/* repeat.h - whether a metric needs more samples, and how many more.
 *
 * A comparison needs samples on both sides (common/change.h): a cheap
 * benchmark is run again until each of its metrics can be told apart at
 * the tolerance, or until the time the engine allows it runs out (the
 * engine decides the time; this decides only the need):
 *
 *   no baseline    (a baseline being saved) more, all the time allows:
 *                  the baseline is the side a later check cannot add to,
 *                  and a spread judged from its first few samples is too
 *                  often judged small
 *   a baseline     more until the outcome (run/deviation.h) is not
 *                  inconclusive, looked at only after REPEAT_MIN_SAMPLES,
 *                  2x, 4x ... samples: every look is a chance for a false
 *                  "slower", so there are four, not one per sample; more
 *                  never helps when the baseline is too small for any
 *                  interval
 *
 * never beyond REPEAT_MAX_SAMPLES, what a row and a baseline keep.
 * tests/sim_verdicts.c measures what this gives. */
#ifndef EVMBENCH_REPEAT_H
#define EVMBENCH_REPEAT_H

#include <stdbool.h>
#include <stddef.h>

#include "run/deviation.h"

#define REPEAT_MIN_SAMPLES 8
#define REPEAT_MAX_SAMPLES 64

/* Whether the outcome is looked at after n samples: 8, 16, 32, 64. */
bool repeat_is_look(size_t n);
/* before NULL (or nb 0): no baseline. pct > 0 is the tolerance. */
bool repeat_wants_more(const double *before, size_t nb, const double *now, size_t nn,
                       enum direction dir, double pct);

/* When the budget ended first: about how many samples of now's spread an
 * answer at pct would take in all (the interval shrinks as 1/sqrt(n));
 * 0 when it cannot be said (no interval yet, or the estimate sits on the
 * tolerance, where no number of samples decides) or when samples are not
 * what it lacks (the interval alone decides). */
size_t repeat_samples_to_tell(const double *before, size_t nb, const double *now, size_t nn,
                              enum direction dir, double pct);

#endif
