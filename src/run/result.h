/* result.h - one measured metric set beside its reference.
 *
 * A result row is the flat record every view shares: the live screen
 * recomputes it on each redraw, the CLI prints it as text or JSON. It
 * borrows its strings from the run and the refdb; it owns nothing. */
#ifndef EVMBENCH_RESULT_H
#define EVMBENCH_RESULT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "run/deviation.h"
#include "data/refdb.h"
#include "run/runner.h"
#include "common/stats.h"
#include "common/status.h"

/* What results are compared with, set once per invocation (app.h). */
struct compare {
    const struct refdb *db;
    const char *board;          /* guide column key; NULL: no reference */
    double tolerance_pct;
    double guide_mhz;           /* the EVM's CPU clock in the guide; 0 unknown */
    double live_mhz;            /* this board's CPU clock now; 0 unknown */
    double ddr_peak_mbs;        /* theoretical DDR peak (board/ddrspec.h), MB/s;
                                 * 0 unknown */
    size_t cache_bytes;         /* the caches a block must outgrow to be in
                                 * the DDR (board.h); 0 unknown */
};

struct result_row {
    const char *bench;          /* guide section slug, e.g. "stream", "lmbench" */
    const char *metric;         /* metric id, e.g. "copy" */
    const char *unit;
    char provider[64];          /* "kernel:stream" */
    size_t samples;
    const double *sample_values;    /* the samples, in order (the run's:
                                     * valid while it lives); NULL: none */
    size_t runs;                    /* times the kernel ran for it */
    const double *run_values;       /* each run's own value (runner.h:
                                     * per_run), what a comparison counts;
                                     * NULL: none */
    double min, max, avg, stddev, median;
    double value;               /* the statistic compared with the guide */
    enum summary summary;
    bool cpu_bound;             /* scales with the CPU clock (kernel.h) */
    bool memory_bound;          /* follows the DDR: result_memory_bound */
    double other_cpu_pct;       /* the run's other load (runner.h); NAN */
    bool has_ref;
    double ref_avg;
    bool has_ref_min, has_ref_max;
    double ref_min, ref_max;
    const char *ref_source;     /* guide title, NULL without reference */
    const char *ref_guess;      /* the importer's note when the reference's
                                 * place in its guide row is a guess, or NULL */
    int ref_line;               /* the reference's line in its guide */
    struct deviation dev;
    /* CPU-bound metrics: the reference scaled to the live clock, and the
     * deviation from it, so a board run at another clock is judged fairly. */
    bool has_scaled;
    double scaled_ref_avg;
    struct deviation dev_scaled;
    enum status status;         /* the metric's own status */
    const char *error;          /* why it failed, or NULL */
    /* STREAM and bw_mem rates as a share of the theoretical DDR peak,
     * when the peak is known (cmp->ddr_peak_mbs). */
    bool has_peak;
    double peak_mbs, peak_pct;
};

/* Whether a metric is a memory bandwidth the DDR bounds: a rate in MB/s
 * of STREAM (bench "stream") or of bw_mem (metric "bw_mem-..."). */
bool result_ddr_bound(const char *bench, const char *metric, const char *unit);
/* Whether a metric follows the DDR: a DDR-bound bandwidth
 * (result_ddr_bound), or a lat_mem_rd latency whose block outgrows the
 * caches (cache_bytes; 0 unknown: no), the block read from the row's id
 * (szNk: N/1000 MiB, sz50: 512 B, latency_for_X_mb_block_size: X MiB). */
bool result_memory_bound(const char *bench, const char *metric, const char *unit,
                         size_t cache_bytes);
/* The line under a bandwidth row: "  = 45.6% of the DDR peak, 3200 MB/s";
 * above 100% (which no DDR can give) it goes on to say that the peak's
 * rate or bus width is not this board's, on a second line. */
void result_print_peak_line(FILE *out, double pct, double peak_mbs);

/* How many of a metric's samples and per-run values a row's JSON keeps
 * ("sample_values", "run_values"): enough for a baseline to be compared
 * run against run. */
#define RESULT_SAMPLES_KEPT 64

/* Fills row for metric i of run, compared as cmp says. */
void result_row_make(struct result_row *row, const struct run *run, size_t i,
                     const struct compare *cmp);
/* The reference scaled from the guide's clock to the live one: rates grow
 * with the clock, times shrink. False when a clock is unknown or the
 * direction is neutral. */
bool result_scale_to_clock(const struct ref_value *ref, enum direction dir,
                           double guide_mhz, double live_mhz, struct ref_value *out);

/* The JSON row of the CLI contract: bench, metric, unit, samples,
 * sample_values, runs, run_values, min,
 * max, avg, stddev, ref_avg, ref_min, ref_max, deviation_pct, status,
 * provider (+ median, value, summary, better, verdict, error, and for
 * CPU-bound metrics ref_avg_at_clock, deviation_at_clock_pct). */
json_t *result_row_json(const struct result_row *row);

/* A value in ten characters at most, as the text tables print it:
 * 1838.92, 6789290, 1.2e+10, 0.000123. */
void result_format_number(char *buf, size_t n, double v);

/* Aligned text, 80 columns: a header line, then one line per row. */
void result_print_text_header(FILE *out);
/* `fail`: why --fail-on-deviation fails the row (export_row_failure), or
 * NULL; a failing row's verdict is FAIL, and the reason follows on a line
 * of its own. */
void result_row_print_text(const struct result_row *row, const char *fail, FILE *out);

#endif
