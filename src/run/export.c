/* export.c - result rows as text, CSV, LAVA signals and JUnit XML (export.h). */
#include "config.h"
#include "run/export.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "data/refdb.h"
#include "run/deviation.h"
#include "run/result.h"
#include "common/units.h"
#include "common/util.h"

bool export_format_known(const char *name)
{
    static const char *const known[] = { "text", "csv", "lava", "junit" };
    for (size_t i = 0; i < ARRAY_SIZE(known); i++)
        if (strcmp(name, known[i]) == 0)
            return true;
    return false;
}

const char *export_format_for_path(const char *path)
{
    static const struct { const char *ext, *format; } by_ext[] = {
        { ".json", "json" }, { ".csv", "csv" }, { ".txt", "text" },
        { ".lava", "lava" }, { ".xml", "junit" },
    };
    for (size_t i = 0; i < ARRAY_SIZE(by_ext); i++) {
        size_t n = strlen(path), e = strlen(by_ext[i].ext);
        if (n > e && strcasecmp(path + n - e, by_ext[i].ext) == 0)
            return by_ext[i].format;
    }
    return NULL;
}

static const char *str_of(json_t *row, const char *key)
{
    const char *s = json_string_value(json_object_get(row, key));
    return s ? s : "";
}

static bool num_of(json_t *row, const char *key, double *v)
{
    json_t *j = json_object_get(row, key);
    if (!json_is_number(j))
        return false;
    *v = json_number_value(j);
    return true;
}

void export_row_fail_input(json_t *row, struct fail_input *in, struct ref_value *ref)
{
    /* assignments, not an initializer that reads what it initializes: the
     * order of the two is unspecified, so ref->avg could be zeroed after
     * num_of stored it */
    *ref = (struct ref_value){ 0 };
    ref->present = num_of(row, "ref_avg", &ref->avg);
    ref->has_min = num_of(row, "ref_min", &ref->min);
    ref->has_max = num_of(row, "ref_max", &ref->max);
    *in = (struct fail_input){
        .dir = unit_direction(str_of(row, "unit")),
        .value = NAN,
        .with_baseline = json_object_get(row, "baseline_value") != NULL,
        .ref = ref,
    };
    num_of(row, "value", &in->value);
    in->has_baseline = num_of(row, "baseline_value", &in->baseline);
    num_of(row, "other_cpu_pct", &in->other_cpu_pct);
    export_row_change(row, &in->change);
    in->has_change = in->change.has_estimate;
}

bool export_row_change(json_t *row, struct change *c)
{
    *c = (struct change){ 0 };
    double v;
    if (!num_of(row, "change_pct", &c->pct))
        return false;
    c->has_estimate = true;
    if (num_of(row, "compared_n", &v) && v >= 0)
        c->n_now = (size_t)v;
    if (num_of(row, "baseline_compared_n", &v) && v >= 0)
        c->n_before = (size_t)v;
    c->per_run = strcmp(str_of(row, "compared"), "runs") == 0;
    c->has_interval = num_of(row, "change_low", &c->low) && num_of(row, "change_high", &c->high);
    if (c->has_interval)
        c->confidence = CHANGE_CONFIDENCE;
    return true;
}

bool export_row_failure(json_t *row, double fail_pct, char *why, size_t n)
{
    if (strcmp(str_of(row, "status"), "ok") != 0) {
        snprintf(why, n, "did not run");
        return true;
    }
    struct ref_value ref;
    struct fail_input in;
    export_row_fail_input(row, &in, &ref);
    struct fail_check fc = deviation_fail_check(&in, fail_pct);
    if (!fc.fails)
        return false;
    deviation_fail_reason(&fc, fail_pct, why, n);
    return true;
}

/* The CSV's fail field: why the row fails, "no" when a limit applies and
 * it is within it, "" when none applies (no fail_pct, or nothing to judge
 * the row against). */
static const char *csv_fail(json_t *row, double fail_pct, char *why, size_t n)
{
    if (export_row_failure(row, fail_pct, why, n))
        return why;
    struct ref_value ref;
    struct fail_input in;
    export_row_fail_input(row, &in, &ref);
    return fail_pct > 0 && deviation_fail_check(&in, fail_pct).basis != BASIS_NONE ? "no" : "";
}

/* The numbers of a row's array `key`, at most cap; how many. */
static size_t row_values(json_t *row, const char *key, double *out, size_t cap)
{
    json_t *sv = json_object_get(row, key);
    size_t n = 0, i;
    json_t *x;
    json_array_foreach(sv, i, x)
        if (json_is_number(x) && n < cap)
            out[n++] = json_number_value(x);
    return n;
}

size_t export_compared_values(json_t *row, json_t *base, double *now, size_t *nn,
                              double *before, size_t *nb, bool *per_run)
{
    *nn = row_values(row, "run_values", now, RESULT_SAMPLES_KEPT);
    *nb = base ? row_values(base, "run_values", before, RESULT_SAMPLES_KEPT) : 0;
    *per_run = *nn && (*nb || !base);
    if (*per_run)
        return *nn;
    *nn = row_values(row, "sample_values", now, RESULT_SAMPLES_KEPT);
    *nb = base ? row_values(base, "sample_values", before, RESULT_SAMPLES_KEPT) : 0;
    if (!*nn && num_of(row, "value", &now[0]))
        *nn = 1;
    if (base && !*nb && num_of(base, "value", &before[0]))
        *nb = 1;
    return *nn;
}

static void set_number_or_null(json_t *row, const char *key, bool has, double v)
{
    json_object_set_new(row, key, has && isfinite(v) ? json_real(v) : json_null());
}

/* Marks every row as compared with the baseline: baseline_value is the
 * baseline's value, or null when the baseline lacks the metric; the
 * change of the samples against the baseline's and its outcome at pct. */
void export_add_baseline(json_t *rows, json_t *baseline, double pct)
{
    if (!(pct > 0))
        pct = DEFAULT_TOLERANCE_PCT;
    size_t i, j;
    json_t *row, *b;
    json_array_foreach(rows, i, row) {
        double then;
        json_t *match = NULL;
        json_array_foreach(baseline, j, b) {
            if (strcmp(str_of(row, "bench"), str_of(b, "bench")) == 0 &&
                strcmp(str_of(row, "metric"), str_of(b, "metric")) == 0 &&
                num_of(b, "value", &then)) {
                match = b;
                break;
            }
        }
        json_object_set_new(row, "baseline_value", match ? json_real(then) : json_null());
        if (!match || strcmp(str_of(row, "status"), "ok") != 0)
            continue;
        double before[RESULT_SAMPLES_KEPT], now[RESULT_SAMPLES_KEPT];
        size_t nb, nn;
        bool per_run;
        export_compared_values(row, match, now, &nn, before, &nb, &per_run);
        struct change c;
        if (!change_estimate(before, nb, now, nn, &c))
            continue;
        double taken;
        json_object_set_new(row, "baseline_samples",
                            json_integer(num_of(match, "samples", &taken) ? (json_int_t)taken
                                                                          : (json_int_t)nb));
        json_object_set_new(row, "baseline_runs",
                            json_integer(num_of(match, "runs", &taken) ? (json_int_t)taken : 0));
        json_object_set_new(row, "compared", json_string(per_run ? "runs" : "samples"));
        json_object_set_new(row, "compared_n", json_integer((json_int_t)c.n_now));
        json_object_set_new(row, "baseline_compared_n", json_integer((json_int_t)c.n_before));
        set_number_or_null(row, "change_pct", true, c.pct);
        set_number_or_null(row, "change_low", c.has_interval, c.low);
        set_number_or_null(row, "change_high", c.has_interval, c.high);
        /* the outcome by the failure rule: with the load taken into account */
        struct ref_value ref;
        struct fail_input in;
        export_row_fail_input(row, &in, &ref);
        enum outcome o = deviation_fail_check(&in, pct).outcome;
        json_object_set_new(row, "outcome", outcome_name(o) ? json_string(outcome_name(o))
                                                           : json_null());
        json_object_set_new(row, "outcome_pct", json_real(pct));
    }
}

/* 79 columns. A name longer than its column gets a line of its own, so
 * the guide's long ids (lat_mem_rd-stride128-sz64000k) stay whole. */
static void print_text(FILE *out, json_t *rows, double fail_pct)
{
    bool with_base = false;
    size_t i;
    json_t *row;
    json_array_foreach(rows, i, row)
        with_base |= json_object_get(row, "baseline_value") != NULL;
    int w = with_base ? 21 : 30;
    if (with_base)
        fprintf(out, "%-*s %10s %-8s %10s %8s %8s %s\n", w, "METRIC", "MEASURED", "UNIT",
                "REFERENCE", "DEV", "BASELINE", "VERDICT");
    else
        fprintf(out, "%-*s %10s %-8s %10s %8s %s\n", w, "METRIC", "MEASURED", "UNIT",
                "REFERENCE", "DEV", "VERDICT");
    const char *bench = NULL;
    json_array_foreach(rows, i, row) {
        if (!bench || strcmp(bench, str_of(row, "bench")) != 0) {
            bench = str_of(row, "bench");
            fprintf(out, "%s (%s)\n", bench, str_of(row, "provider"));
        }
        char measured[24] = "-", ref[24] = "no ref", dev[24] = "", base[24] = "";
        double v;
        if (num_of(row, "value", &v))
            result_format_number(measured, sizeof measured, v);
        if (num_of(row, "ref_avg", &v))
            result_format_number(ref, sizeof ref, v);
        if (num_of(row, "deviation_pct", &v))
            snprintf(dev, sizeof dev, "%+.1f%%", v);
        if (num_of(row, "change_pct", &v))
            snprintf(base, sizeof base, "%+.1f%%", v);
        const char *verdict = strcmp(str_of(row, "status"), "ok") != 0 ? str_of(row, "status")
                              : *dev ? str_of(row, "verdict") : "-";
        /* --fail-on-deviation marks the rows it fails on, with the reason */
        char why[160] = "";
        if (strcmp(str_of(row, "status"), "ok") == 0 &&
            export_row_failure(row, fail_pct, why, sizeof why))
            verdict = "FAIL";
        const char *name = str_of(row, "metric");
        if ((int)strlen(name) > w) {
            fprintf(out, "%s\n", name);
            name = "";
        }
        if (with_base)
            fprintf(out, "%-*s %10s %-8s %10s %8s %8s %s\n", w, name, measured,
                    unit_display(str_of(row, "unit")), ref, dev, base, verdict);
        else
            fprintf(out, "%-*s %10s %-8s %10s %8s %s\n", w, name, measured,
                    unit_display(str_of(row, "unit")), ref, dev, verdict);
        double peak, pct;
        if (num_of(row, "ddr_peak_mbs", &peak) && num_of(row, "ddr_peak_pct", &pct))
            result_print_peak_line(out, pct, peak);
        if (*str_of(row, "ref_guess"))     /* clipped to 80 columns */
            fprintf(out, "  reference: %.66s\n", str_of(row, "ref_guess"));
        if (*why)
            fprintf(out, "  FAIL: %s\n", why);
    }
}

void export_csv_field(FILE *f, const char *s, bool last)
{
    if (!s)
        s = "";
    if (strpbrk(s, ",\"\r\n")) {
        fputc('"', f);
        for (const char *p = s; *p; p++) {
            if (*p == '"')
                fputc('"', f);
            fputc(*p, f);
        }
        fputc('"', f);
    } else {
        fputs(s, f);
    }
    fputc(last ? '\n' : ',', f);
}

/* New columns go at the end: scripts count them. `fail` is csv_fail's
 * verdict, the others the row's members. */
static void print_csv(FILE *out, json_t *rows, double fail_pct)
{
    static const char *const cols[] = {
        "bench", "metric", "unit", "value", "samples", "min", "max", "avg", "stddev",
        "ref_avg", "ref_min", "ref_max", "deviation_pct", "verdict", "status",
        "provider", "baseline_value", "change_pct", "error", "fail", "ref_guess",
        "change_low", "change_high", "compared", "compared_n", "baseline_compared_n", "outcome",
    };
    const size_t n = ARRAY_SIZE(cols);
    for (size_t c = 0; c < n; c++)
        export_csv_field(out, cols[c], c + 1 == n);
    size_t i;
    json_t *row;
    json_array_foreach(rows, i, row) {
        for (size_t c = 0; c < n; c++) {
            json_t *v = json_object_get(row, cols[c]);
            char buf[64] = "";
            if (json_is_integer(v))
                snprintf(buf, sizeof buf, "%lld", (long long)json_integer_value(v));
            else if (json_is_real(v))
                snprintf(buf, sizeof buf, "%.10g", json_real_value(v));
            const char *text = json_is_string(v) ? json_string_value(v) : buf;
            /* the unit as a person reads it (units.h); JSON keeps the raw one */
            if (strcmp(cols[c], "unit") == 0)
                text = unit_display(text);
            char why[160];
            if (strcmp(cols[c], "fail") == 0)
                text = csv_fail(row, fail_pct, why, sizeof why);
            export_csv_field(out, text, c + 1 == n);
        }
    }
}

/* LAVA splits the signal on spaces and '=': ids and units keep letters,
 * digits and "._-", everything else becomes '_'. */
static void lava_token(char *dst, size_t n, const char *src)
{
    size_t j = 0;
    for (const char *p = src; *p && j + 1 < n; p++) {
        unsigned char ch = (unsigned char)*p;
        bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                  (ch >= '0' && ch <= '9') || ch == '.' || ch == '_' || ch == '-';
        dst[j++] = ok ? (char)ch : '_';
    }
    dst[j] = '\0';
    if (!j && n > 1)
        snprintf(dst, n, "none");
}

static void print_lava(FILE *out, json_t *rows, double fail_pct)
{
    size_t i;
    json_t *row;
    json_array_foreach(rows, i, row) {
        char id[256], unit[64], both[300];
        snprintf(both, sizeof both, "%s.%s", str_of(row, "bench"), str_of(row, "metric"));
        lava_token(id, sizeof id, both);
        lava_token(unit, sizeof unit, str_of(row, "unit"));
        char why[160];
        const char *result = export_row_failure(row, fail_pct, why, sizeof why) ? "fail" : "pass";
        double v;
        if (num_of(row, "value", &v))
            fprintf(out, "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=%s RESULT=%s UNITS=%s "
                    "MEASUREMENT=%.10g>\n", id, result, unit, v);
        else
            fprintf(out, "<LAVA_SIGNAL_TESTCASE TEST_CASE_ID=%s RESULT=%s>\n", id, result);
    }
}

/* Length of the UTF-8 sequence at p if it is a character XML 1.0 allows
 * (#x9 #xA #xD, #x20-#xD7FF, #xE000-#xFFFD, #x10000-#x10FFFF), else 0. */
static size_t xml_char_len(const unsigned char *p)
{
    unsigned c = p[0];
    if (c < 0x80)
        return c >= 0x20 || c == '\t' || c == '\n' || c == '\r' ? 1 : 0;
    size_t n = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3
             : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
    if (n == 0)
        return 0;
    unsigned long cp = c & (0x7f >> n);
    for (size_t i = 1; i < n; i++) {
        if ((p[i] & 0xc0) != 0x80)      /* also stops at the NUL */
            return 0;
        cp = cp << 6 | (p[i] & 0x3f);
    }
    static const unsigned long least[] = { 0, 0, 0x80, 0x800, 0x10000 };
    if (cp < least[n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff) ||
        cp == 0xfffe || cp == 0xffff)
        return 0;
    return n;
}

/* Text for an XML attribute or element: markup escaped, and every byte
 * that is not part of a character XML 1.0 allows (control bytes, invalid
 * UTF-8) written as U+FFFD, so the document always parses. */
static void xml_text(FILE *f, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        size_t n = xml_char_len(p);
        switch (n ? *p : 0) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\t': fputs("&#9;", f); break;     /* kept in attributes too */
        case '\n': fputs("&#10;", f); break;
        case '\r': fputs("&#13;", f); break;
        case 0: fputs("\xef\xbf\xbd", f); n = 1; break;
        default: fwrite(p, 1, n, f);
        }
        p += n;
    }
}

static void xml_attr(FILE *f, const char *name, const char *value)
{
    fprintf(f, " %s=\"", name);
    xml_text(f, value);
    fputc('"', f);
}

/* JUnit XML as Jenkins' xunit plugin reads it (its "JUnit 10" schema):
 * <testsuite> with name, tests, failures and errors; in each <testcase>
 * the <error> or <failure> element before
 * <system-out>. A benchmark that did not run is an error (its status and
 * the tool's message), one measured out of bounds a failure. */
static void print_junit(FILE *out, json_t *rows, double fail_pct, const char *suite)
{
    size_t i, failures = 0, errors = 0;
    json_t *row;
    char why[160];
    json_array_foreach(rows, i, row) {
        if (strcmp(str_of(row, "status"), "ok") != 0)
            errors++;
        else
            failures += export_row_failure(row, fail_pct, why, sizeof why);
    }
    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n  <testsuite", out);
    xml_attr(out, "name", suite ? suite : "evmbench");
    fprintf(out, " tests=\"%zu\" failures=\"%zu\" errors=\"%zu\">\n",
            json_array_size(rows), failures, errors);
    json_array_foreach(rows, i, row) {
        fputs("    <testcase", out);
        xml_attr(out, "classname", str_of(row, "bench"));
        xml_attr(out, "name", str_of(row, "metric"));
        fputs(">\n", out);
        const char *status = str_of(row, "status"), *err = str_of(row, "error");
        if (export_row_failure(row, fail_pct, why, sizeof why)) {
            bool error = strcmp(status, "ok") != 0;
            fprintf(out, "      <%s", error ? "error" : "failure");
            xml_attr(out, "message", why);
            xml_attr(out, "type", error ? status : "deviation");
            fputc('>', out);
            xml_text(out, *err ? err : why);
            fprintf(out, "</%s>\n", error ? "error" : "failure");
        }
        fputs("      <system-out>", out);
        char line[200] = "not measured";
        double v, r;
        if (num_of(row, "value", &v))
            snprintf(line, sizeof line, "%.10g %s", v, unit_display(str_of(row, "unit")));
        xml_text(out, line);
        if (num_of(row, "ref_avg", &r)) {
            snprintf(line, sizeof line, ", reference %.10g", r);
            xml_text(out, line);
            if (*str_of(row, "ref_guess")) {    /* placed by a guess: say how */
                xml_text(out, " (");
                xml_text(out, str_of(row, "ref_guess"));
                xml_text(out, ")");
            }
        }
        if (num_of(row, "deviation_pct", &v)) {
            snprintf(line, sizeof line, ", deviation %+.1f%% (%s)", v, str_of(row, "verdict"));
            xml_text(out, line);
        }
        struct change c;
        if (export_row_change(row, &c)) {
            if (c.has_interval)
                snprintf(line, sizeof line, ", change from the baseline %+.1f%% (%+.1f .. "
                         "%+.1f%%, %zu %s against %zu): %s", c.pct, c.low, c.high, c.n_now,
                         c.per_run ? "runs" : "samples", c.n_before, str_of(row, "outcome"));
            else
                snprintf(line, sizeof line, ", change from the baseline %+.1f%% (%zu %s "
                         "against %zu: too few to tell)", c.pct, c.n_now,
                         c.per_run ? "runs" : "samples", c.n_before);
            xml_text(out, line);
        }
        fputs("</system-out>\n    </testcase>\n", out);
    }
    fputs("  </testsuite>\n</testsuites>\n", out);
}

void export_rows(FILE *out, const char *format, json_t *rows, double fail_pct,
                 const char *suite)
{
    if (strcmp(format, "csv") == 0)
        print_csv(out, rows, fail_pct);
    else if (strcmp(format, "lava") == 0)
        print_lava(out, rows, fail_pct);
    else if (strcmp(format, "junit") == 0)
        print_junit(out, rows, fail_pct, suite);
    else
        print_text(out, rows, fail_pct);
}
