/* repeat.c - whether a metric needs more samples (repeat.h). */
#include "config.h"
#include "run/repeat.h"

#include <math.h>

#include "common/change.h"

bool repeat_is_look(size_t n)
{
    for (size_t look = REPEAT_MIN_SAMPLES; look <= REPEAT_MAX_SAMPLES; look *= 2)
        if (n == look)
            return true;
    return false;
}

bool repeat_wants_more(const double *before, size_t nb, const double *now, size_t nn,
                       enum direction dir, double pct)
{
    (void)now;
    if (nn >= REPEAT_MAX_SAMPLES)
        return false;
    if (!before || !nb)         /* a baseline: all the time allows */
        return true;
    if (dir == DIR_NEUTRAL)
        return false;
    /* a baseline too small for any interval: more samples now do not help */
    if (change_rank_bound(nb, REPEAT_MAX_SAMPLES, 1 - CHANGE_CONFIDENCE, NULL) == 0)
        return false;
    if (!repeat_is_look(nn))
        return true;
    struct change c;
    change_estimate(before, nb, now, nn, &c);
    return deviation_outcome(&c, dir, pct) == OUTCOME_INCONCLUSIVE;
}

size_t repeat_samples_to_tell(const double *before, size_t nb, const double *now, size_t nn,
                              enum direction dir, double pct)
{
    struct change c;
    if (!before || !change_estimate(before, nb, now, nn, &c) || !c.has_interval ||
        dir == DIR_NEUTRAL)
        return 0;
    double est = dir == DIR_HIGHER_BETTER ? c.pct : -c.pct;
    double half = (c.high - c.low) / 2;
    double room = fabs(fabs(est) - pct);    /* from the estimate to the edge */
    if (room < 0.05 * pct || half <= 0)
        return 0;
    /* the interval's half width goes as 1/sqrt(n) of the smaller side;
     * the baseline's side is fixed, so only now's can grow */
    size_t n = nn < c.n_before ? nn : c.n_before;
    double need = (double)n * pow(half / room, 2);
    /* already enough (an outcome decided, or one the load made unclear):
     * more samples are not what it lacks */
    if (deviation_outcome(&c, dir, pct) != OUTCOME_INCONCLUSIVE || need <= (double)n)
        return 0;
    return need > 1e6 ? 0 : (size_t)ceil(need);
}
