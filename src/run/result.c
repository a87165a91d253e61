/* result.c - a metric's statistics beside its reference. */
#include "config.h"
#include "run/result.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "common/units.h"
#include "common/util.h"

bool result_scale_to_clock(const struct ref_value *ref, enum direction dir,
                           double guide_mhz, double live_mhz, struct ref_value *out)
{
    if (!ref || !ref->present || guide_mhz <= 0 || live_mhz <= 0 || dir == DIR_NEUTRAL)
        return false;
    double f = dir == DIR_HIGHER_BETTER ? live_mhz / guide_mhz : guide_mhz / live_mhz;
    *out = *ref;
    out->text = NULL;
    out->avg *= f;
    out->min *= f;
    out->max *= f;
    return true;
}

void result_row_make(struct result_row *row, const struct run *run, size_t i,
                     const struct compare *cmp)
{
    const struct run_metric *m = &run->metrics[i];
    const struct stats *s = &m->stats;
    memset(row, 0, sizeof *row);
    row->bench = run->kernel->section;
    row->metric = m->def->id;
    row->unit = m->def->unit;
    kernel_provider_id(run->kernel, row->provider, sizeof row->provider);
    row->samples = s->count;
    row->sample_values = s->count ? s->samples : NULL;
    row->runs = m->per_run.count;
    row->run_values = m->per_run.count ? m->per_run.samples : NULL;
    row->summary = m->def->summary;
    row->cpu_bound = m->def->cpu_bound;
    row->memory_bound = result_memory_bound(row->bench, row->metric, row->unit,
                                            cmp->cache_bytes);
    row->other_cpu_pct = run->other_cpu_pct;
    if (s->count) {
        row->min = s->min;
        row->max = s->max;
        row->avg = s->mean;
        row->stddev = stats_stddev(s);
        row->median = stats_median(s);
        row->value = stats_summary(s, m->def->summary);
    } else {
        row->min = row->max = row->avg = row->stddev = row->median = row->value = NAN;
    }

    struct ref_hit hit;
    if (refdb_lookup_table(cmp->db, cmp->board, run->kernel->section, m->def->ref_table,
                           m->def->ref_row ? m->def->ref_row : m->def->id, m->def->ref_column,
                           &hit)) {
        row->has_ref = true;
        row->ref_avg = hit.value->avg;
        row->has_ref_min = hit.value->has_min;
        row->has_ref_max = hit.value->has_max;
        row->ref_min = hit.value->min;
        row->ref_max = hit.value->max;
        row->ref_source = hit.table->source->title;
        row->ref_guess = hit.row->note;
        row->ref_line = hit.row->line;
        enum direction dir = unit_direction(row->unit);
        if (s->count)
            row->dev = deviation_compute(row->value, hit.value, dir, cmp->tolerance_pct);
        struct ref_value scaled;
        if (m->def->cpu_bound &&
            result_scale_to_clock(hit.value, dir, cmp->guide_mhz, cmp->live_mhz, &scaled)) {
            row->has_scaled = true;
            row->scaled_ref_avg = scaled.avg;
            if (s->count)
                row->dev_scaled = deviation_compute(row->value, &scaled, dir,
                                                    cmp->tolerance_pct);
        }
    }

    /* A metric that failed says why; one cut short by the run says so too,
     * keeping the samples it had. */
    if (m->failed) {
        row->status = STATUS_FAILED;
        row->error = m->fail_reason;
    } else if (run->finished && run->status != STATUS_OK) {
        row->status = run->status;
        row->error = run->error;
    } else if (run->finished && !s->count) {
        row->status = STATUS_NO_DATA;
        row->error = status_message(STATUS_NO_DATA);
    } else {
        row->status = STATUS_OK;
    }
    if (cmp->ddr_peak_mbs > 0 && s->count && isfinite(row->value) &&
        result_ddr_bound(row->bench, row->metric, row->unit)) {
        row->has_peak = true;
        row->peak_mbs = cmp->ddr_peak_mbs;
        row->peak_pct = row->value / cmp->ddr_peak_mbs * 100.0;
    }
}

bool result_ddr_bound(const char *bench, const char *metric, const char *unit)
{
    if (!bench || !metric || !unit || strcasecmp(unit, "mb/s") != 0)
        return false;
    return strcmp(bench, "stream") == 0 || str_starts_with(metric, "bw_mem");
}

/* The block a lat_mem_rd row reads, in bytes; 0 when the id names none. */
static double lat_mem_rd_block(const char *metric)
{
    const char *sz = strstr(metric, "-sz");
    double v;
    char *end;
    if (str_starts_with(metric, "lat_mem_rd") && sz) {
        v = strtod(sz + 3, &end);
        if (end == sz + 3)
            return 0;
        if (*end == 'k')
            return v / 1000 * 1048576;
        return v == 50 ? 512 : 0;       /* sz50: lmbench's first point */
    }
    if (sscanf(metric, "latency_for_%lf_mb_block_size", &v) == 1)
        return v * 1048576;
    return 0;
}

bool result_memory_bound(const char *bench, const char *metric, const char *unit,
                         size_t cache_bytes)
{
    if (result_ddr_bound(bench, metric, unit))
        return true;
    if (!metric || !cache_bytes || !unit_is_time(unit))
        return false;
    return lat_mem_rd_block(metric) > (double)cache_bytes;
}

void result_print_peak_line(FILE *out, double pct, double peak_mbs)
{
    if (pct <= 100) {
        fprintf(out, "  = %.1f%% of the DDR peak, %.0f MB/s\n", pct, peak_mbs);
        return;
    }
    fprintf(out, "  = %.1f%% of the DDR peak, %.0f MB/s: more than that DDR can move,\n"
                 "    so the rate or bus width it is computed from is not this board's "
                 "(sysinfo)\n", pct, peak_mbs);
}

static json_t *num_or_null(bool have, double v)
{
    return have && isfinite(v) ? json_real(v) : json_null();
}

/* The samples of a row, at most RESULT_SAMPLES_KEPT: all of them, else
 * that many evenly spaced over the run (its first always), in order. */
static json_t *samples_json(const double *values, size_t n)
{
    json_t *a = json_array();
    size_t keep = n < RESULT_SAMPLES_KEPT ? n : RESULT_SAMPLES_KEPT;
    for (size_t k = 0; values && k < keep; k++) {
        double v = values[k * n / keep];
        if (isfinite(v))
            json_array_append_new(a, json_real(v));
    }
    return a;
}

json_t *result_row_json(const struct result_row *row)
{
    bool have = row->samples > 0;
    json_t *o = json_object();
    /* json_string_from_outside: tool output and names from outside are
     * not always valid UTF-8, and json_string() would drop them */
    json_object_set_new(o, "bench", json_string_from_outside(row->bench));
    json_object_set_new(o, "metric", json_string_from_outside(row->metric));
    json_object_set_new(o, "unit", json_string_from_outside(row->unit));
    json_object_set_new(o, "samples", json_integer((json_int_t)row->samples));
    json_object_set_new(o, "sample_values", samples_json(row->sample_values, row->samples));
    json_object_set_new(o, "runs", json_integer((json_int_t)row->runs));
    json_object_set_new(o, "run_values", samples_json(row->run_values, row->runs));
    json_object_set_new(o, "min", num_or_null(have, row->min));
    json_object_set_new(o, "max", num_or_null(have, row->max));
    json_object_set_new(o, "avg", num_or_null(have, row->avg));
    json_object_set_new(o, "stddev", num_or_null(have, row->stddev));
    json_object_set_new(o, "median", num_or_null(have, row->median));
    json_object_set_new(o, "value", num_or_null(have, row->value));
    json_object_set_new(o, "summary", json_string(summary_name(row->summary)));
    json_object_set_new(o, "cpu_bound", json_boolean(row->cpu_bound));
    json_object_set_new(o, "memory_bound", json_boolean(row->memory_bound));
    json_object_set_new(o, "other_cpu_pct", isfinite(row->other_cpu_pct)
                        ? json_real(round(row->other_cpu_pct * 10) / 10) : json_null());
    json_object_set_new(o, "ref_avg", num_or_null(row->has_ref, row->ref_avg));
    json_object_set_new(o, "ref_min", num_or_null(row->has_ref_min, row->ref_min));
    json_object_set_new(o, "ref_max", num_or_null(row->has_ref_max, row->ref_max));
    json_object_set_new(o, "ref_source", json_string_from_outside(row->ref_source));
    json_object_set_new(o, "ref_guess", json_string_from_outside(row->ref_guess));
    json_object_set_new(o, "deviation_pct", num_or_null(row->dev.has_ref, row->dev.pct));
    if (row->has_scaled) {
        json_object_set_new(o, "ref_avg_at_clock", json_real(row->scaled_ref_avg));
        json_object_set_new(o, "deviation_at_clock_pct",
                            num_or_null(row->dev_scaled.has_ref, row->dev_scaled.pct));
    }
    json_object_set_new(o, "better", row->dev.has_ref ? json_boolean(row->dev.better) : json_null());
    json_object_set_new(o, "verdict", json_string(verdict_name(row->dev.verdict)));
    json_object_set_new(o, "status", json_string(status_name(row->status)));
    json_object_set_new(o, "error", json_string_from_outside(row->error));
    json_object_set_new(o, "provider", json_string_from_outside(row->provider));
    if (row->has_peak) {
        json_object_set_new(o, "ddr_peak_mbs", json_real(row->peak_mbs));
        json_object_set_new(o, "ddr_peak_pct", json_real(row->peak_pct));
    }
    return o;
}

void result_print_text_header(FILE *out)
{
    fprintf(out, "%-30s %10s %-8s %10s %8s %s\n",
            "METRIC", "MEASURED", "UNIT", "REFERENCE", "DEV", "VERDICT");
}

/* Ten characters at most: 1838.92, 6789290, 1.2e+10. */
void result_format_number(char *buf, size_t n, double v)
{
    double a = fabs(v);
    snprintf(buf, n, a >= 1e10 ? "%.3g" : a >= 100000 ? "%.0f" : a >= 0.01 || a == 0 ? "%.2f"
                                                                  : "%.3g", v);
}

void result_row_print_text(const struct result_row *row, const char *fail, FILE *out)
{
    char measured[24] = "-", ref[24] = "no ref", dev[24] = "", verdict[24];
    if (row->samples)
        result_format_number(measured, sizeof measured, row->value);
    if (row->has_ref)
        result_format_number(ref, sizeof ref, row->ref_avg);
    if (row->dev.has_ref)
        snprintf(dev, sizeof dev, "%+.1f%%", row->dev.pct);
    if (row->status != STATUS_OK)
        snprintf(verdict, sizeof verdict, "%s", status_name(row->status));
    else if (row->dev.has_ref)
        snprintf(verdict, sizeof verdict, "%s", verdict_name(row->dev.verdict));
    else
        snprintf(verdict, sizeof verdict, "-");
    if (fail && row->status == STATUS_OK)
        snprintf(verdict, sizeof verdict, "FAIL");
    /* The guide's band decides the verdict unless --fail-on-deviation
     * fails the row; JSON and the screens show it. */
    /* a name too long for its column is whole, on a line of its own; a
     * unit longer than its column moves the rest (never cut) */
    const char *name = row->metric ? row->metric : "";
    if (strlen(name) > 30) {
        fprintf(out, "%s\n", name);
        name = "";
    }
    fprintf(out, "%-30s %10s %-8s %10s %8s %s\n",
            name, measured, unit_display(row->unit), ref, dev, verdict);
    if (row->has_scaled && row->dev_scaled.has_ref) {
        char sref[24];
        result_format_number(sref, sizeof sref, row->scaled_ref_avg);
        fprintf(out, "%-30s %10s %-8s %10s %+7.1f%% %s\n", "  at this board's clock", "",
                "", sref, row->dev_scaled.pct, verdict_name(row->dev_scaled.verdict));
    }
    if (row->has_peak)
        result_print_peak_line(out, row->peak_pct, row->peak_mbs);
    if (row->ref_guess)     /* clipped: a terminal of 80 columns must not wrap */
        fprintf(out, "  reference, guide line %d: %.50s\n", row->ref_line, row->ref_guess);
    if (row->status != STATUS_OK && row->error)
        fprintf(out, "  %s: %s\n", row->metric, row->error);
    else if (fail && row->status == STATUS_OK)
        fprintf(out, "  FAIL: %s\n", fail);
}
