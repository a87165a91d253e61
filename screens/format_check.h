/* format_check.h - the table under the verdict of a check against a
 * baseline (--check --baseline NAME), formatted without a terminal.
 *
 * Each row says what a metric was in the baseline, what it is now, how
 * far it changed (signed, with "worse" or "better" as the verdict says
 * it) and the verdict of the --fail-on-deviation rule on it: worse or
 * better beyond the tolerance, or within. The rule is not written here:
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
    CHECK_WORD_WORSE,       /* worse than the baseline by more than the tolerance */
    CHECK_WORD_UNCLEAR,     /* as much worse, but other processes took the
                             * worker's core meanwhile: could not tell */
    CHECK_WORD_WITHIN,      /* within the tolerance of it */
    CHECK_WORD_BETTER,      /* better by more than the tolerance */
    CHECK_WORD_UNJUDGED,    /* no value in the baseline, or no better direction */
};

/* One row of the table; the strings are the JSON row's (borrowed). */
struct check_row {
    const char *bench, *metric, *unit;
    const char *status, *error;     /* "ok", "failed" ...; the reason or NULL */
    bool has_now, has_then, has_change;
    double now, then;
    double change_pct;              /* (now - then) / |then| * 100 */
    double other_cpu_pct;           /* the row's other load (runner.h); NAN */
    bool better, neutral;           /* the change by the unit's direction */
    enum check_word word;
    double beyond;                  /* WORSE, BETTER: how far beyond, >= 0 */
};

/* The rows of `rows` (JSON rows with export_add_baseline's fields) judged
 * at pct (> 0), worst first: failures, then the worse ones (the most
 * worse first), then those within (from the most worse change to the
 * most better), then the better ones (the least better first), then the
 * unjudged; rows alike keep their order. *out is allocated (free it; it
 * borrows from rows, which must outlive it); returns the count. */
size_t check_table_rows(json_t *rows, double pct, struct check_row **out);

/* "failed", "worse", "within", "better", "-". */
const char *check_word_name(enum check_word w);

/* The change cell: "-16.7% worse", "+2.0% better", "+0.4%" (a unit
 * without a direction, or below 0.05 %), "-" without a change. */
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
 * "ddrcheck copy: 1250 MB/s, was 1500: -16.7% worse, worse than before by
 * more than 10%". Appended to sb. */
void fmt_check_sentence(struct strbuf *sb, const struct check_row *r, double pct);

/* The verdicts of rows against the guide in one line: "23 metrics: 18 in
 * range, 2 warn, 3 off, 1 better, 1 failed, 2 no reference" (better,
 * failed and no reference only when there are some). */
void fmt_verdict_counts(char *buf, size_t size, const struct session_row *rs, size_t n);

#endif
