/* cause.c - which recorded system change could have moved a metric
 * (cause.h). */
#include "config.h"
#include "engine/cause.h"

#include <math.h>
#include <stdlib.h>

#include "run/deviation.h"
#include "run/result.h"
#include "common/util.h"

/* How a metric that follows a rate from -> to is judged: "consistent with
 * WHAT (...)", "more than WHAT (...) explains", or NULL when it moved the
 * other way (or not at all). expect_pct is how far the rate alone would
 * move it. */
static char *against_ratio(const struct cause_change *ch, double expect_pct, const char *what,
                           const char *detail)
{
    double est = ch->pct;
    if (est == 0 || expect_pct == 0 || (est > 0) != (expect_pct > 0))
        return NULL;
    /* the least the change can be in the rate's direction: the interval's
     * end nearest no change (the estimate without an interval) */
    double least = fabs(est);
    if (ch->has_interval)
        least = expect_pct > 0 ? fmax(ch->low, 0) : fmax(-ch->high, 0);
    if (least <= fabs(expect_pct) + CAUSE_SLACK_PCT)
        return xasprintf("consistent with the %s (%s, %+.1f%%)", what, detail, expect_pct);
    return xasprintf("more than the %s (%s, %+.1f%%) explains", what, detail, expect_pct);
}

/* The changes named without a ratio, "the kernel, the device tree", or
 * NULL when none. */
static char *other_changes(const struct sysstate_change *c)
{
    struct strbuf sb;
    sb_init(&sb);
    if (c->governor)
        sb_addf(&sb, "%sthe governor (%s)", sb.len ? ", " : "", c->governor);
    const struct {
        bool changed;
        const char *name;
    } named[] = {
        { c->kernel, "the kernel" },
        { c->cmdline, "the kernel command line" },
        { c->device_tree, "the device tree" },
        { c->boot_loader, "the boot loader" },
    };
    for (size_t i = 0; i < ARRAY_SIZE(named); i++)
        if (named[i].changed)
            sb_addf(&sb, "%s%s", sb.len ? ", " : "", named[i].name);
    return sb.len ? sb_steal(&sb) : (sb_free(&sb), NULL);
}

char *cause_of(const char *bench, const char *metric, const char *unit, bool cpu_bound,
               bool memory_bound, const struct cause_change *change,
               const struct sysstate_change *c)
{
    if (!isfinite(change->pct))
        return NULL;
    char *rate = NULL;
    enum direction dir = unit_direction(unit);
    if (c->ddr_from > 0 && c->ddr_to > 0 && dir != DIR_NEUTRAL &&
        (memory_bound || result_ddr_bound(bench, metric, unit))) {
        /* a bandwidth follows the rate, a latency goes against it */
        double expect = dir == DIR_HIGHER_BETTER ? (c->ddr_to / c->ddr_from - 1) * 100
                                                 : (c->ddr_from / c->ddr_to - 1) * 100;
        char *detail = xasprintf("%.0f -> %.0f MT/s", c->ddr_from, c->ddr_to);
        rate = against_ratio(change, expect, "DDR rate change", detail);
        free(detail);
    }
    if (!rate && cpu_bound && c->cpu_from > 0 && c->cpu_to > 0 && dir != DIR_NEUTRAL) {
        /* a rate follows the clock, a time goes against it */
        double expect = dir == DIR_HIGHER_BETTER ? (c->cpu_to / c->cpu_from - 1) * 100
                                                 : (c->cpu_from / c->cpu_to - 1) * 100;
        char *detail = xasprintf("%.0f -> %.0f MHz %s", c->cpu_from, c->cpu_to,
                                 c->cpu_measured ? "measured" : "cpufreq max");
        rate = against_ratio(change, expect, "CPU clock change", detail);
        free(detail);
    }
    char *others = other_changes(c);
    char *words = NULL;
    if (rate && others)
        words = xasprintf("%s; also changed: %s", rate, others);
    else if (rate)
        words = xstrdup(rate);
    else if (others)
        words = xasprintf("possibly caused by a change of %s", others);
    free(rate);
    free(others);
    return words;
}

void cause_explain(json_t *rows, const struct sysstate_change *c)
{
    size_t i;
    json_t *row;
    json_array_foreach(rows, i, row) {
        json_t *pct = json_object_get(row, "change_pct");
        if (!json_is_number(pct))
            continue;
        struct cause_change ch = { .pct = json_number_value(pct) };
        json_t *lo = json_object_get(row, "change_low"), *hi = json_object_get(row, "change_high");
        if (json_is_number(lo) && json_is_number(hi)) {
            ch.has_interval = true;
            ch.low = json_number_value(lo);
            ch.high = json_number_value(hi);
        }
        json_t *cb = json_object_get(row, "cpu_bound");
        json_t *mb = json_object_get(row, "memory_bound");
        char *words = cause_of(json_string_value(json_object_get(row, "bench")),
                               json_string_value(json_object_get(row, "metric")),
                               json_string_value(json_object_get(row, "unit")),
                               json_is_true(cb), json_is_true(mb), &ch, c);
        json_object_set_new(row, "explained_by", words ? json_string(words) : json_null());
        free(words);
    }
}
