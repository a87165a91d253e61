/* check.h - the verdict of the before/after check in words: is the board
 * as fast as before (a baseline) or as the guide says, which metrics moved
 * beyond the tolerance and which way, and (given by the caller) what
 * changed in the system. The end of `evmbench run` with --baseline or
 * --fail-on-deviation and the screens' verdict (--check) say the same,
 * because both judge the same JSON rows (result_row_json, with
 * export_add_baseline's fields when there is a baseline) here.
 *
 * The rule is the one of --fail-on-deviation (deviation.h): a metric is
 * "worse" when export_row_failure fails it at PCT, so the verdict, the
 * FAIL marks and the exit status never disagree. Against a baseline the
 * outcome of each metric's change decides (its samples against the
 * baseline's, with a 95 % interval): slower is worse, faster better,
 * inconclusive "could not tell", and an unchanged metric whose interval
 * excludes no change is a small, real change, reported, never a failure.
 * Against the guide "better" is the rule with the unit's direction turned
 * round (beyond the guide's band on the good side by more than PCT). */
#ifndef EVMBENCH_CHECK_H
#define EVMBENCH_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "common/util.h"
#include "run/deviation.h"

/* One metric that moved beyond the tolerance. */
struct check_move {
    char *bench, *metric, *unit;    /* unit as measured (units.h spells it) */
    double value;                   /* measured */
    double basis;                   /* what it was judged against */
    enum fail_basis basis_kind;
    double pct;                     /* how far beyond the basis, >= 0 */
    bool worse;                     /* false: better */
    bool loaded;                    /* worse, but other processes took
                                     * load_pct of the core: not judged */
    double load_pct;
    /* against a baseline: */
    enum outcome outcome;           /* NONE against the guide */
    struct change change;           /* the change and its interval */
    bool small;                     /* unchanged, but a small, real change */
    size_t to_tell;                 /* inconclusive when the time ran out:
                                     * about how many samples a side would
                                     * tell, and how many seconds more; 0 */
    double to_tell_s;
    double tol;                     /* the tolerance it was judged at */
    char *explained_by;             /* the row's "explained_by": the system
                                     * change that could have caused it, or NULL */
};

enum check_outcome {
    CHECK_AS_FAST,      /* every metric judged is within PCT or better */
    CHECK_SLOWER,       /* a metric is worse by more than PCT */
    CHECK_INCOMPLETE,   /* none worse, but a metric did not run */
    CHECK_UNCLEAR,      /* none worse, but a metric could not be told:
                         * inconclusive (too few samples, too much
                         * spread) or worse under other processes' load */
    CHECK_NO_BASIS,     /* nothing could be judged */
};

struct check_verdict {
    enum check_outcome outcome;
    char *against;              /* the baseline's name; NULL: the guide */
    double pct;                 /* the tolerance judged at */
    size_t metrics;             /* rows */
    size_t judged;              /* rows that ran and had a basis */
    size_t not_run;             /* rows whose benchmark did not run */
    size_t worse, better;       /* beyond PCT */
    size_t unclear;             /* could not be told: not judged */
    size_t small;               /* unchanged, with a small, real change */
    struct check_move *moves;   /* by significance: worse, could not tell,
                                 * small, better; in each the largest first */
    size_t nmoves;
};

/* Judges rows at pct (> 0) against baseline `against` (the rows carry
 * baseline_value: export_add_baseline) or, when against is NULL, the
 * guide. Fills v (check_free frees it). */
void check_judge(struct check_verdict *v, json_t *rows, const char *against, double pct);
void check_free(struct check_verdict *v);

/* The outcome in capitals ("AS FAST AS BEFORE", "SLOWER THAN THE GUIDE",
 * "NOT CHECKED IN FULL", "COULD NOT TELL", "NOTHING TO COMPARE WITH"). */
const char *check_outcome_words(const struct check_verdict *v);
/* One sentence after the outcome: "all 9 metrics compared with baseline
 * before-ddr are within 10% of it or better." */
void check_headline(const struct check_verdict *v, struct strbuf *sb);
/* One moved metric: against a baseline "stream copy: -16.8% (-19.2 ..
 * -14.1) at 1100 MB/s, was 1375; 24 samples against 24: slower", against
 * the guide "stream triad: 20.0% worse than the guide (...)", and ";
 * consistent with the DDR rate change (...)" when a system change could
 * explain it. */
void check_move_text(const struct check_move *m, struct strbuf *sb);
/* The whole verdict as one paragraph of text for `run`: "Verdict: " and
 * the outcome and headline, each moved metric, the tolerance and where it
 * came from (pct_from: "--fail-on-deviation", "--tolerance"), and
 * "System: " and `system` (sysstate_diff or sysstate_summary; NULL:
 * left out). Lines end in '\n'. */
void check_paragraph(const struct check_verdict *v, const char *pct_from, const char *system,
                     struct strbuf *sb);

#endif
