/* format.h - the text the screens show, formatted without a terminal.
 *
 * Each function writes text into a caller's buffer (always NUL-terminated,
 * truncated to fit) from fixed inputs, so the tests check it without a
 * terminal; widgets.h puts it on curses windows.
 *
 * Widths are terminal columns. Text from the guides may be UTF-8: with
 * utf8 false (the locale is not UTF-8) every non-ASCII character is shown
 * as '?', so a vt100 gets ASCII only. */
#ifndef EVMBENCH_FORMAT_H
#define EVMBENCH_FORMAT_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "screens/actions.h"
#include "run/deviation.h"
#include "run/result.h"
#include "run/session.h"

/* Fits s into exactly `width` columns: padded with spaces on the right
 * (or the left when right_align), cut with a trailing '~' when too long.
 * Returns buf. */
char *fmt_fit(char *buf, size_t size, const char *s, int width, bool right_align,
              bool utf8);
/* Like fmt_fit (left aligned), but a long text loses its start, which
 * keeps the specific end of a section path: "~Driver / TCP Throughput". */
char *fmt_fit_tail(char *buf, size_t size, const char *s, int width, bool utf8);
/* Word wrap: writes the first line of s (at most `width` columns, broken
 * at a space when there is one) into buf and returns the rest, or NULL
 * when nothing is left. */
const char *fmt_wrap(char *buf, size_t size, const char *s, int width, bool utf8);
/* Display columns of s (UTF-8 sequences count one). */
int fmt_columns(const char *s);

/* A number in at most `width` columns with about five significant digits:
 * 1838.92 -> "1838.9", 12345.6 -> "12346", 0.5 -> "0.500",
 * 123456789 -> "123.5M" (k, M, G, T suffixes when needed), NAN -> "-". */
char *fmt_value(char *buf, size_t size, double v, int width);
/* A count in `width` columns: 12 -> "12", 12345 with width 3 -> "12k". */
char *fmt_count(char *buf, size_t size, size_t n, int width);
/* The reference band "min-max" with each end in at most `end_width`
 * columns ("1650-2245"); "" when the guide gives no band, ">=min" or
 * "<=max" when it gives one end. */
char *fmt_band(char *buf, size_t size, bool has_min, double min, bool has_max,
               double max, int end_width);
/* "+12.3% better", "-4.0% worse", "+0.0% better"; "+1.2%" for a unit
 * with no direction; "no reference" without one. At most 13 columns:
 * 1 decimal below 100 %, none above, clamped at +-9999 %. */
char *fmt_deviation(char *buf, size_t size, const struct deviation *d,
                    enum direction dir);
/* The verdict in the four columns the screens give it: "in", "warn",
 * "off", "best" (VERDICT_BETTER: beyond the guide's band on the better
 * side), or "" for VERDICT_NONE. */
const char *fmt_verdict(enum verdict v);
/* Elapsed time: "0:07", "12:34", "1:02:03"; "--:--" from 100 hours up. */
char *fmt_duration(char *buf, size_t size, double seconds);
/* A bar of exactly `width` columns: "[#####.....]" (utf8: full and light
 * shade blocks inside the brackets). frac is clamped to 0..1. */
char *fmt_progress_bar(char *buf, size_t size, double frac, int width, bool utf8);
/* A horizontal bar for the compare screen, ASCII only: value scaled
 * against max into exactly `width` columns, '#' then spaces. A positive
 * value gets at least one '#'; NAN, 0 or a non-positive max none. */
char *fmt_hbar(char *buf, size_t size, double value, double max, int width);
/* One compare line of exactly `width` columns: a mark ('>' this board,
 * '*' the reference board, else ' '), the label in COMPARE_LABEL_W
 * columns, the value in COMPARE_VALUE_W, then the bar in what is left. */
#define COMPARE_LABEL_W 24
#define COMPARE_VALUE_W 7
char *fmt_compare_row(char *buf, size_t size, char mark, const char *label,
                      double value, double max, int width, bool utf8);
/* Home screen count: "3 benchmarks, 1 runnable", "1 benchmark, reference
 * only". */
char *fmt_bench_counts(char *buf, size_t size, size_t nbenches, size_t nrunnable);
/* The one natural spelling of a unit as kernels, tools and guides give it,
 * whatever its case: unit_display (common/units.h), which the text and CSV
 * outputs use too: "mb/s", "Mbytes/sec" -> "MB/s", "microsec" -> "us". */
const char *fmt_unit(const char *unit);

/* The live screen's metric row, cell by cell (see metric_layout). */
enum metric_col {
    MCOL_NAME, MCOL_UNIT, MCOL_NOW, MCOL_MIN, MCOL_MAX, MCOL_AVG, MCOL_N,
    MCOL_REF, MCOL_BAND, MCOL_DEV, MCOL_VERDICT, MCOL_COUNT
};

struct metric_column {
    const char *header;
    int width;              /* at 80 columns */
    bool right;
};

/* The headers, alignment and 80-column widths of the cells. */
extern const struct metric_column metric_columns[MCOL_COUNT];

/* The columns of one table, sized from the terminal's width; one space
 * between cells. width[i] 0: column i is left out (narrow terminal). */
struct metric_layout {
    int width[MCOL_COUNT];
    int x[MCOL_COUNT];
    int total;              /* columns the row takes */
};
/* The layout for `cols` terminal columns when the longest unit shown
 * takes unit_w columns and the longest name name_w. At 80 columns the
 * 80-column widths, except that a unit is never cut: the unit column
 * grows to unit_w (at most METRIC_UNIT_MAX) and the band column, then
 * the "now" column, are left out when the name would get fewer than 12
 * columns. Wider terminals give names the room first (up to name_w),
 * then wider numbers. */
#define METRIC_UNIT_MAX 12
void metric_layout_make(struct metric_layout *l, int cols, int unit_w, int name_w);
/* A unit as the live table shows it: fmt_unit's spelling, shortened
 * consistently (lower-case vowels after the first letter dropped) when
 * longer than `width`; never cut with '~' below METRIC_UNIT_MAX. */
char *fmt_unit_fit(char *buf, size_t size, const char *unit, int width);

/* How many leading and trailing bytes `name` shares with its closest
 * siblings (the other names of the table): *pre ends after a '_', '-',
 * '/' or ' ', *suf starts at one, and the part between (what tells the
 * name apart) is never empty unless the name has a twin. */
void metric_name_shared(const char *name, const char *const *siblings, size_t n,
                        size_t *pre, size_t *suf);
/* `name` in exactly `width` columns, the part between its shared prefix
 * (pre bytes) and suffix (suf bytes) kept visible: whole when it fits,
 * else the middle of the shared prefix elided ("dhryst~per_second"),
 * else the shared suffix cut too ("lat~0.50_mb~"), else the end of the
 * distinguishing part ("~ing_part"). */
char *fmt_name_fit(char *buf, size_t size, const char *name, size_t pre, size_t suf,
                   int width, bool utf8);

/* The names of one table, each in exactly `width` columns, out[i] for
 * names[i] (out holds n cells of FMT_NAME_CELL bytes). Each is first
 * fitted as fmt_name_fit() does with its siblings' shared parts; a form
 * another name also gets is then made again keeping the name's end, then
 * its start and end around a '~', then its start, until no two differing
 * names read the same (a width too small for that leaves the last try). */
#define FMT_NAME_CELL 64
void fmt_names_fit(const char *const *names, size_t n, int width, bool utf8,
                   char (*out)[FMT_NAME_CELL]);

struct metric_cells {
    char cell[MCOL_COUNT][64];
    /* Text that replaces the REF..VERDICT cells ("no reference for
     * am62xx_sk-fs", "failed: ..."); empty when the cells are used. */
    char span[256];
    bool span_error;        /* the span is a failure, not a missing ref */
    bool has_ref;
    bool better;            /* deviation points the good way */
    bool directional;       /* the unit has a better direction */
    enum verdict verdict;
};

/* Formats the cells of one result row for layout l (NULL: 80 columns);
 * `name` is the metric as shown (NULL: the metric id) with `pre` and
 * `suf` bytes shared with its siblings (metric_name_shared; 0 0: none),
 * `last` the latest sample and `board` the reference board key (NULL
 * when none was chosen). Nothing is left blank: "-" for no sample yet or
 * a guide without a band, a span "no reference for <board>" when the
 * guide has no number. */
void metric_cells_make(struct metric_cells *c, const struct metric_layout *l,
                       const struct result_row *row, const char *name, size_t pre,
                       size_t suf, double last, const char *board);
/* How much of a metric id the live table can leave out: the part every
 * metric of kernel k named "<kernel>-..." shares, up to its last '-'
 * ("bw_mem-" of bw_mem-rd-16mb, "lat_mem_rd-stride128-" of ...-sz50).
 * Returns the length to skip for `id` (0 when it does not start so). */
size_t metric_name_skip(const struct kernel *k, const char *id);
/* The whole row as plain text (l->total columns, NULL: 80), cells or
 * span. */
char *metric_row_text(char *buf, size_t size, const struct metric_layout *l,
                      const struct metric_cells *c, bool utf8);
/* The header line; the column of the statistic compared with the guide
 * gets a '*' ("max*"). */
char *metric_header_text(char *buf, size_t size, const struct metric_layout *l,
                         enum summary compared);

/* The last samples of v[0..n) as a sparkline of exactly `width` columns,
 * ASCII only (works on a vt100): each sample a level of "_.:-=+*#" from
 * the lowest to the highest shown, '-' when they are all equal, padded
 * with spaces on the right while fewer than width. */
#define SPARK_LEVELS "_.:-=+*#"
char *fmt_sparkline(char *buf, size_t size, const double *v, size_t n, int width);
/* The measured value against the guide in exactly `width` columns
 * (at least 3), ASCII: "[---===|==*==---]" on one scale, '=' the guide's
 * band (has_min/has_max ends), '|' its average, '*' the measured value
 * (NAN: none), '-' the rest. Spaces when ref is NAN. */
char *fmt_ref_bar(char *buf, size_t size, double value, double ref, bool has_min,
                  double min, bool has_max, double max, int width);

/* The results screen's table, its columns sized from the line's width:
 * metric (bench and id, a long one keeps its end), unit (unit_w: the
 * longest unit shown, 4..11), value, ref, deviation, status, run; with a
 * baseline the change from it; where the name keeps 28 columns (from about
 * 113) min, max, samples and the guide's band; where it keeps 40 after
 * them, the provider. The name takes the rest, up to 48. */
struct result_layout {
    int width;
    int name, unit, num, dev, status, run;
    int minmax, samples, band;      /* 0: not shown */
    int last;                       /* provider or baseline change; 0: not shown */
    bool baseline;
};
void fmt_result_layout(struct result_layout *l, int width, int unit_w, bool baseline);
/* Its header line ("vs NAME" over the baseline's column). */
char *fmt_result_header(char *buf, size_t size, const struct result_layout *l,
                        const char *baseline);
/* The status cell: "running", the failure ("failed", "timeout",
 * "cancelled" ...), the verdict ("in", "warn", "off"), or "-" without a
 * reference. */
const char *fmt_result_status(const struct result_row *r, enum session_state state);
/* One row: measured by batch `number` ("#3"); a failure without a sample
 * shows its reason ("failed: ...") where the numbers would be. baseline:
 * rows as store_load_baseline returns them (used when l->baseline). */
char *fmt_result_line(char *buf, size_t size, const struct result_layout *l,
                      const struct result_row *r, size_t number, enum session_state state,
                      json_t *baseline, bool utf8);
/* Everything about one row in a sentence, for the lines below the table:
 * "stream copy: min 1200, max 1300, avg 1250 MB/s over 10 samples; guide
 * 1839, band 1650-2245; kernel:stream, run #3 of ID", why it failed first
 * ("stream copy: failed: REASON; no sample; ..."). */
char *fmt_result_detail(char *buf, size_t size, const struct result_row *r, size_t number,
                        const char *store_id);
/* The change of r from its baseline row: "+2.3% better", "-1.0% worse",
 * "+0.4%" (neutral unit, or below 0.05 %), "-" when the baseline has no
 * such metric (see session_baseline_change). */
char *fmt_baseline_cell(char *buf, size_t size, json_t *baseline,
                        const struct result_row *r);

/* A key hint on the bottom line: the action's first key and a label. */
struct hint {
    enum action action;
    const char *label;
};
/* "Enter open  r run  ? help  q back" for hints ending with {ACT_NONE}. */
char *fmt_hints(char *buf, size_t size, const struct hint *hints,
                const struct binding *local);

#endif
