/* format_check.h - the table under the verdict of a check against a
 * baseline (--check --baseline NAME), formatted without a terminal.
 *
 * Each row says what a metric was in the baseline, what it is now, how
 * far it changed (the estimate from the samples, signed, with its 95 %
 * interval) and its outcome: slower, inconclusive, unchanged or faster
 * (run/deviation.h). The rule is not written here:
 * each row is judged by check_judge (run/check.h) on that row alone, so
 * the table, the verdict above it, the exports and the exit status never
 * disagree. The rows are JSON rows (result_row_json) that
 * export_add_baseline has compared with the baseline. */
#ifndef EVMBENCH_FORMAT_CHECK_H
#define EVMBENCH_FORMAT_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "common/util.h"
#include "run/session.h"

/* A row's verdict against the baseline, in the order the table sorts. */
enum check_word {
    CHECK_WORD_FAILED,      /* its benchmark did not run */
    CHECK_WORD_WORSE,       /* slower: the interval beyond the tolerance */
    CHECK_WORD_UNCLEAR,     /* inconclusive: too few samples, an interval
                             * across the tolerance, or slower while other
                             * processes took the worker's core */
    CHECK_WORD_WITHIN,      /* unchanged: the interval within the tolerance */
    CHECK_WORD_BETTER,      /* faster */
    CHECK_WORD_UNJUDGED,    /* no value in the baseline, or no better direction */
};

/* One row of the table; the strings are the JSON row's (borrowed). */
struct check_row {
    const char *bench, *metric, *unit;
    const char *status, *error;     /* "ok", "failed" ...; the reason or NULL */
    bool has_now, has_then, has_change, has_interval;
    double now, then;
    double change_pct;              /* the estimate, % of then (change.h) */
    double change_low, change_high; /* its interval */
    size_t samples, baseline_samples;   /* the values compared a side */
    bool per_run;                   /* each a run's own value (else a sample) */
    double other_cpu_pct;           /* the row's other load (runner.h); NAN */
    bool better, neutral;           /* the change by the unit's direction */
    enum check_word word;
    bool loaded;                    /* UNCLEAR: slower, under others' load */
    double beyond;                  /* WORSE, BETTER: how far beyond, >= 0 */
};

/* The rows of `rows` (JSON rows with export_add_baseline's fields) judged
 * at pct (> 0), by significance: failures, then the slower ones, the
 * inconclusive ones (each the largest change first), those unchanged
 * (from the most worse change to the most better), the faster ones (the
 * least first), then the unjudged; rows alike keep their order. *out is allocated (free it; it
 * borrows from rows, which must outlive it); returns the count. */
size_t check_table_rows(json_t *rows, double pct, struct check_row **out);

/* "failed", "slower", "inconclusive", "unchanged", "faster", "-". */
const char *check_word_name(enum check_word w);

/* The change cell, in %: "-16.8 [-19.2,-14.1]" with its interval, "-16.8"
 * without one, "-" without a change. */
char *fmt_check_change(char *buf, size_t size, const struct check_row *r);

/* The table's columns for a line `width` wide: metric (the rest of the
 * line, a long one keeps its end), unit (unit_w: the longest unit, 4..11),
 * was, now, change, verdict. */
struct check_layout {
    int width, name, unit, num, change, word;
};
void fmt_check_layout(struct check_layout *l, int width, int unit_w);
/* "metric  unit  was  now  change  verdict", in the columns. */
char *fmt_check_header(char *buf, size_t size, const struct check_layout *l);
/* One row in the columns; a failure shows its reason where the numbers
 * would be. At most l->width columns (the cells fitted, cut with '~'). */
char *fmt_check_line(char *buf, size_t size, const struct check_layout *l,
                     const struct check_row *r, bool utf8);
/* The row as one sentence, nothing cut, for the full text ('w'):
 * "ddrcheck copy: 1250 MB/s, was 1500: -16.7% (-19.2 .. -14.1), 24
 * samples against 24: slower than before by more than 10%". Appended to
 * sb. */
void fmt_check_sentence(struct strbuf *sb, const struct check_row *r, double pct);

/* The verdicts of rows against the guide in one line: "23 metrics: 18 in
 * range, 2 warn, 3 off, 1 better, 1 failed, 2 no reference" (better,
 * failed and no reference only when there are some). */
void fmt_verdict_counts(char *buf, size_t size, const struct session_row *rs, size_t n);

#endif
