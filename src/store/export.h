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
 * A row fails when it did not run, when its verdict is "off" on the worse
 * side (far better than the guide is not a failure), or when
 * `fail_pct` > 0 and its deviation (from the baseline when it has one,
 * else from the guide) is beyond fail_pct in the worse direction. */
#ifndef EVMBENCH_EXPORT_H
#define EVMBENCH_EXPORT_H

#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

/* True when `name` is one of text, csv, lava, junit (json is the
 * caller's own document). */
bool export_format_known(const char *name);
/* The format a file name asks for by its extension (.json .csv .txt
 * .lava .xml), or NULL. */
const char *export_format_for_path(const char *path);

/* Why a row fails, or NULL when it passes (see above). */
const char *export_row_failure(json_t *row, double fail_pct);

/* Adds baseline_value and baseline_change_pct (and baseline_better) to
 * every row of `rows` that has a row of the same bench and metric in
 * `baseline`. */
void export_add_baseline(json_t *rows, json_t *baseline);

/* One CSV field (RFC 4180: quoted when it holds a comma, quote or line
 * break; NULL is empty), then ',' or, when last, a newline. */
void export_csv_field(FILE *f, const char *s, bool last);

/* Prints rows in `format` (not json). `suite` names the JUnit suite. */
void export_rows(FILE *out, const char *format, json_t *rows, double fail_pct,
                 const char *suite);

#endif
