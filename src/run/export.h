/* export.h - result rows in the formats scripts and board farms read.
 *
 * Works on the JSON rows of result.h (result_row_json), so a live run, a
 * stored run and an imported log print the same way:
 *
 *   text   aligned, 80 columns: metric, measured, unit, reference, deviation,
 *          verdict (and the change from the baseline when rows have one)
 *   csv    one header line, then one line per row (RFC 4180 quoting)
 *   lava   <LAVA_SIGNAL_TESTCASE TEST_CASE_ID=bench.metric RESULT=pass|fail
 *          UNITS=unit MEASUREMENT=value> per row
 *   junit  JUnit XML, one testcase per row, a failure when it fails
 *
 * A row fails when it did not run, or when `fail_pct` > 0 and it is worse
 * than its basis by more than fail_pct: the baseline when the rows were
 * compared with one (export_add_baseline), else the guide (the rule is
 * deviation_fail_check in run/deviation.h). The guide's "off" alone is a
 * warning. */
#ifndef EVMBENCH_EXPORT_H
#define EVMBENCH_EXPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

/* True when `name` is one of text, csv, lava, junit (json is the
 * caller's own document). */
bool export_format_known(const char *name);
/* The format a file name asks for by its extension (.json .csv .txt
 * .lava .xml), or NULL. */
const char *export_format_for_path(const char *path);

/* Whether a row fails (see above); when it does, why is in `why` (one
 * line: "did not run", "50.0% worse than the baseline's 2000 (limit
 * 20%)"). Every format and the exit status of `run` ask this. */
bool export_row_failure(json_t *row, double fail_pct, char *why, size_t n);
/* The failure rule's input (run/deviation.h) for a stored row: its value,
 * unit direction, guide reference and band, and baseline value. ref is
 * filled too; in->ref points to it. */
struct fail_input;
struct ref_value;
void export_row_fail_input(json_t *row, struct fail_input *in, struct ref_value *ref);

/* Compares every row of `rows` with `baseline`: baseline_value (null when
 * the baseline has no row of the same bench and metric), and for a row
 * that ran, from its values against the baseline's
 * (export_compared_values; common/change.h): baseline_samples and
 * baseline_runs (what the baseline took), compared ("runs" or
 * "samples"), compared_n and baseline_compared_n (how many values each
 * side had), change_pct, change_low and change_high (null without an
 * interval),
 * outcome ("slower", "faster", "unchanged", "inconclusive", null for a
 * unit without a direction; run/deviation.h) at tolerance pct (<= 0: the
 * default) and outcome_pct, that tolerance. */
void export_add_baseline(json_t *rows, json_t *baseline, double pct);
/* The values a row is compared by: each run's own (run_values) when the
 * row and the baseline's row `base` (NULL: none) both have them, else the
 * samples (sample_values; the value alone of a row stored before they
 * were kept); at most RESULT_SAMPLES_KEPT a side into now and before.
 * *per_run says which. Returns *nn. */
size_t export_compared_values(json_t *row, json_t *base, double *now, size_t *nn,
                              double *before, size_t *nb, bool *per_run);
/* The change a row compared with a baseline carries (change_pct ...,
 * compared_n, baseline_compared_n); false when it has none. */
struct change;
bool export_row_change(json_t *row, struct change *c);

/* One CSV field (RFC 4180: quoted when it holds a comma, quote or line
 * break; NULL is empty), then ',' or, when last, a newline. */
void export_csv_field(FILE *f, const char *s, bool last);

/* Prints rows in `format` (not json). `suite` names the JUnit suite. */
void export_rows(FILE *out, const char *format, json_t *rows, double fail_pct,
                 const char *suite);

#endif
