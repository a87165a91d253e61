/* test_format.c - the text the screens show (screens/format.c): numbers,
 * deviation cells, progress bar, metric rows, result lines, on fixed
 * inputs. */
#include "config.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "screens/format.h"
#include "screens/format_check.h"
#include "run/export.h"
#include "suites.h"
#include "common/util.h"

/* --- numbers ------------------------------------------------------------ */

static const struct {
    double v;
    int width;
    const char *want;
} value_cases[] = {
    { 1838.92, 6, "1838.9" },
    { 12345.6, 6, "12346" },
    { 999999, 6, "999999" },
    { 123456789, 6, "123.5M" },
    { 1e7, 6, "10000k" },
    { 0.5, 6, "0.500" },
    { 12.345, 6, "12.345" },
    { -4.25, 6, "-4.250" },
    { 0, 6, "0" },
    { 2245.2, 4, "2245" },
    { 12345, 4, "12k" },
    { 0.00001234, 6, "e-05" },
};

START_TEST(value)
{
    char buf[32];
    fmt_value(buf, sizeof buf, value_cases[_i].v, value_cases[_i].width);
    if (value_cases[_i].v < 0.001 && value_cases[_i].v > 0) {
        /* exponent form, whatever precision fits */
        ck_assert_int_le((int)strlen(buf), value_cases[_i].width);
        ck_assert_ptr_nonnull(strstr(buf, "e-05"));
        return;
    }
    ck_assert_str_eq(buf, value_cases[_i].want);
    ck_assert_int_le((int)strlen(buf), value_cases[_i].width);
}
END_TEST

START_TEST(value_special)
{
    char buf[16];
    ck_assert_str_eq(fmt_value(buf, sizeof buf, NAN, 6), "-");
    ck_assert_str_eq(fmt_value(buf, sizeof buf, INFINITY, 6), "inf");
    ck_assert_str_eq(fmt_count(buf, sizeof buf, 12, 3), "12");
    ck_assert_str_eq(fmt_count(buf, sizeof buf, 12345, 3), "12k");
    /* a tiny buffer is cut, never overrun */
    char small[4];
    fmt_value(small, sizeof small, 1838.92, 6);
    ck_assert_str_eq(small, "2k");
}
END_TEST

START_TEST(band)
{
    char buf[32];
    ck_assert_str_eq(fmt_band(buf, sizeof buf, true, 1650.2, true, 2245.2, 4), "1650-2245");
    ck_assert_str_eq(fmt_band(buf, sizeof buf, true, 0.85, true, 1.2, 4), "0.85-1.20");
    ck_assert_str_eq(fmt_band(buf, sizeof buf, true, 10, false, 0, 4), ">=10.0");
    ck_assert_str_eq(fmt_band(buf, sizeof buf, false, 0, false, 0, 4), "");
}
END_TEST

/* --- deviation, verdict, duration ---------------------------------------- */

static struct deviation dev(double pct, bool better, enum verdict v)
{
    struct deviation d = { .has_ref = true, .pct = pct, .better = better, .verdict = v };
    return d;
}

START_TEST(deviation)
{
    char buf[32];
    struct deviation d = dev(12.34, true, VERDICT_BETTER);
    ck_assert_str_eq(fmt_deviation(buf, sizeof buf, &d, DIR_HIGHER_BETTER), "+12.3% better");
    d = dev(-4.0, false, VERDICT_IN_RANGE);
    ck_assert_str_eq(fmt_deviation(buf, sizeof buf, &d, DIR_HIGHER_BETTER), "-4.0% worse");
    d = dev(4.0, false, VERDICT_WARN);   /* latency above the guide is worse */
    ck_assert_str_eq(fmt_deviation(buf, sizeof buf, &d, DIR_LOWER_BETTER), "+4.0% worse");
    d = dev(1.234, true, VERDICT_IN_RANGE);
    ck_assert_str_eq(fmt_deviation(buf, sizeof buf, &d, DIR_NEUTRAL), "+1.2%");
    d = dev(150.4, true, VERDICT_BETTER);
    ck_assert_str_eq(fmt_deviation(buf, sizeof buf, &d, DIR_HIGHER_BETTER), "+150% better");
    d = dev(123456, true, VERDICT_BETTER);
    ck_assert_str_eq(fmt_deviation(buf, sizeof buf, &d, DIR_HIGHER_BETTER), ">9999% better");
    ck_assert_int_le((int)strlen(buf), 13);
    d = dev(0.01, true, VERDICT_IN_RANGE);
    ck_assert_str_eq(fmt_deviation(buf, sizeof buf, &d, DIR_HIGHER_BETTER), "0.0%");
    d.has_ref = false;
    ck_assert_str_eq(fmt_deviation(buf, sizeof buf, &d, DIR_HIGHER_BETTER), "no reference");
}
END_TEST

START_TEST(verdict_and_duration)
{
    char buf[16];
    ck_assert_str_eq(fmt_verdict(VERDICT_IN_RANGE), "in");
    ck_assert_str_eq(fmt_verdict(VERDICT_WARN), "warn");
    ck_assert_str_eq(fmt_verdict(VERDICT_OFF), "off");
    ck_assert_str_eq(fmt_verdict(VERDICT_BETTER), "best");   /* four columns, never an alarm */
    ck_assert_str_eq(fmt_verdict(VERDICT_NONE), "");
    ck_assert_str_eq(fmt_duration(buf, sizeof buf, 7.9), "0:07");
    ck_assert_str_eq(fmt_duration(buf, sizeof buf, 754), "12:34");
    ck_assert_str_eq(fmt_duration(buf, sizeof buf, 3723), "1:02:03");
    ck_assert_str_eq(fmt_duration(buf, sizeof buf, -3), "0:00");
    ck_assert_str_eq(fmt_duration(buf, sizeof buf, NAN), "0:00");
}
END_TEST

/* --- progress bar, fitting text ------------------------------------------ */

START_TEST(progress_bar)
{
    char buf[256];
    ck_assert_str_eq(fmt_progress_bar(buf, sizeof buf, 0.5, 12, false), "[#####.....]");
    ck_assert_str_eq(fmt_progress_bar(buf, sizeof buf, 0, 6, false), "[....]");
    ck_assert_str_eq(fmt_progress_bar(buf, sizeof buf, 1.7, 6, false), "[####]");
    ck_assert_str_eq(fmt_progress_bar(buf, sizeof buf, -1, 4, false), "[..]");
    ck_assert_str_eq(fmt_progress_bar(buf, sizeof buf, 0.999, 6, false), "[###.]");
    /* UTF-8: block characters, still exactly `width` columns */
    fmt_progress_bar(buf, sizeof buf, 0.25, 10, true);
    ck_assert_int_eq(fmt_columns(buf), 10);
    ck_assert_str_eq(buf, "[\xe2\x96\x88\xe2\x96\x88\xe2\x96\x91\xe2\x96\x91\xe2\x96\x91"
                          "\xe2\x96\x91\xe2\x96\x91\xe2\x96\x91]");
}
END_TEST

START_TEST(fit)
{
    char buf[64];
    ck_assert_str_eq(fmt_fit(buf, sizeof buf, "copy", 6, false, false), "copy  ");
    ck_assert_str_eq(fmt_fit(buf, sizeof buf, "copy", 6, true, false), "  copy");
    ck_assert_str_eq(fmt_fit(buf, sizeof buf, "abcdefgh", 5, false, false), "abcd~");
    ck_assert_str_eq(fmt_fit(buf, sizeof buf, "abc", 0, false, false), "");
    ck_assert_str_eq(fmt_fit(buf, sizeof buf, NULL, 2, false, false), "  ");
    /* non-ASCII becomes '?' without UTF-8, stays with it; a tab a space */
    ck_assert_str_eq(fmt_fit(buf, sizeof buf, "\xc2\xb5s\tx", 5, false, false), "?s x ");
    ck_assert_str_eq(fmt_fit(buf, sizeof buf, "\xc2\xb5s", 3, false, true), "\xc2\xb5s ");
    ck_assert_int_eq(fmt_columns("\xc2\xb5s"), 2);
    ck_assert_str_eq(fmt_fit(buf, sizeof buf, "\xe2\x80\x93-x", 2, false, true),
                     "\xe2\x80\x93~");
    /* section paths keep their specific end */
    ck_assert_str_eq(fmt_fit_tail(buf, sizeof buf, "Ethernet / CPSW / TCP", 10, false),
                     "~PSW / TCP");
    ck_assert_str_eq(fmt_fit_tail(buf, sizeof buf, "Stream", 8, false), "Stream  ");
}
END_TEST

START_TEST(wrap)
{
    char buf[64];
    const char *note = "stream: 3 arrays of 16777216 doubles, sized down";
    const char *rest = fmt_wrap(buf, sizeof buf, note, 20, false);
    ck_assert_str_eq(buf, "stream: 3 arrays of");
    rest = fmt_wrap(buf, sizeof buf, rest, 20, false);
    ck_assert_str_eq(buf, "16777216 doubles,");
    rest = fmt_wrap(buf, sizeof buf, rest, 20, false);
    ck_assert_str_eq(buf, "sized down");
    ck_assert_ptr_null(rest);
    /* a word longer than the line is cut */
    rest = fmt_wrap(buf, sizeof buf, "abcdefghij klm", 4, false);
    ck_assert_str_eq(buf, "abcd");
    ck_assert_str_eq(rest, "efghij klm");
    ck_assert_ptr_null(fmt_wrap(buf, sizeof buf, "   ", 4, false));
    ck_assert_str_eq(buf, "");
}
END_TEST

START_TEST(counts_and_units)
{
    char buf[64];
    ck_assert_str_eq(fmt_bench_counts(buf, sizeof buf, 3, 1), "3 benchmarks, 1 runnable");
    ck_assert_str_eq(fmt_bench_counts(buf, sizeof buf, 1, 0), "1 benchmark, reference only");
    ck_assert_str_eq(fmt_bench_counts(buf, sizeof buf, 0, 0), "no benchmarks");
    ck_assert_str_eq(fmt_unit(NULL), "");
}
END_TEST

/* Every unit the kernels, the tool recipes and the guides give reads one
 * natural way: never "mb/s" beside "MB/s", "usec" beside "us". */
static const struct { const char *from, *to; } unit_cases[] = {
    { "mb/s", "MB/s" },        { "MB/s", "MB/s" },        { "Mbytes/sec", "MB/s" },
    { "MBytes/sec", "MB/s" },  { "MB/sec", "MB/s" },      { "mbs", "MB/s" },
    { "MBs", "MB/s" },         { "MiBps", "MiB/s" },      { "KBytes/Sec", "kB/s" },
    { "Kbytes/sec", "kB/s" },  { "Mbits/sec", "Mbit/s" }, { "Mbps", "Mbit/s" },
    { "bits/sec", "bit/s" },   { "us", "us" },            { "microsec", "us" },
    { "usec", "us" },          { "ns", "ns" },            { "nanosec", "ns" },
    { "ms", "ms" },            { "milliseconds", "ms" },  { "sec", "s" },
    { "seconds", "s" },        { "s", "s" },              { "mhz", "MHz" },
    { "MHz", "MHz" },          { "mips", "MIPS" },        { "MIPS", "MIPS" },
    { "dmips/mhz", "DMIPS/MHz" }, { "DMIPS/MHz", "DMIPS/MHz" },
    { "dhrystonep", "Dhry/s" }, { "DhrystoneP", "Dhry/s" }, { "kflops", "kFLOPS" },
    { "Kflops", "kFLOPS" },    { "iterations", "iter/s" }, { "Iterations", "iter/s" },
    { "num_files", "files" },  { "files/s", "files/s" },  { "percent", "%" },
    { "%", "%" },              { "kPPS", "kpps" },        { "mW", "mW" },
    { "workloads/", "iter/s" },  { "Score", "score" },      { "bytes", "bytes" },
    { "creations/s", "creations/s" },
};

START_TEST(units_read_naturally)
{
    ck_assert_msg(strcmp(fmt_unit(unit_cases[_i].from), unit_cases[_i].to) == 0,
                  "fmt_unit(\"%s\") = \"%s\", want \"%s\"", unit_cases[_i].from,
                  fmt_unit(unit_cases[_i].from), unit_cases[_i].to);
}
END_TEST

/* --- the live screen's metric row ---------------------------------------- */

static struct result_row stream_row(void)
{
    struct result_row r;
    memset(&r, 0, sizeof r);
    r.bench = "stream";
    r.metric = "copy";
    r.unit = "mb/s";
    snprintf(r.provider, sizeof r.provider, "kernel:stream");
    r.samples = 10;
    r.min = 1200.1;
    r.max = 1300.2;
    r.avg = 1250.3;
    r.value = r.max;
    r.summary = SUMMARY_MAX;
    r.has_ref = true;
    r.ref_avg = 1838.92;
    r.has_ref_min = r.has_ref_max = true;
    r.ref_min = 1650.2;
    r.ref_max = 2245.2;
    r.ref_source = "Linux 12.00.00 Performance Guide";
    r.dev = dev(-29.3, false, VERDICT_OFF);
    r.status = STATUS_OK;
    return r;
}

START_TEST(metric_row)
{
    char buf[256];
    struct metric_cells c;
    struct result_row r = stream_row();
    metric_cells_make(&c, NULL, &r, NULL, 0, 0, 1234.5, "am62xx_sk-fs");
    ck_assert_str_eq(c.cell[MCOL_DEV], "-29.3% worse");
    ck_assert_str_eq(c.cell[MCOL_VERDICT], "off");
    ck_assert(!c.better);
    ck_assert_int_eq(c.verdict, VERDICT_OFF);
    metric_row_text(buf, sizeof buf, NULL, &c, false);
    ck_assert_str_eq(buf, "copy         MB/s   1234  1200  1300  1250 10  1839 "
                          "1650-2245 -29.3% worse  off ");
    ck_assert_int_eq((int)strlen(buf), 80);

    /* a better result, short percentage aligned on the '%' */
    r.dev = dev(4.0, true, VERDICT_IN_RANGE);
    metric_cells_make(&c, NULL, &r, NULL, 0, 0, 1234.5, "am62xx_sk-fs");
    ck_assert_str_eq(c.cell[MCOL_DEV], " +4.0% better");
    ck_assert_str_eq(c.cell[MCOL_VERDICT], "in");

    /* a guide that gives only the average */
    r.has_ref_min = r.has_ref_max = false;
    metric_cells_make(&c, NULL, &r, NULL, 0, 0, 1234.5, "am62xx_sk-fs");
    ck_assert_str_eq(c.cell[MCOL_BAND], "-");

    metric_header_text(buf, sizeof buf, NULL, SUMMARY_MAX);
    ck_assert_str_eq(buf, "metric       unit    now   min  max*   avg  n   ref "
                          "  min-max deviation         ");
    ck_assert_int_eq((int)strlen(buf), 80);
}
END_TEST

static int run_nothing(const struct kernel_params *p, struct report *r)
{
    (void)p;
    (void)r;
    return 0;
}

START_TEST(metric_names_fit)
{
    static const struct kernel_metric ms[] = {
        { .id = "lat_mem_rd-stride128-sz50" }, { .id = "lat_mem_rd-stride128-sz1000k" },
        { .id = "latency_for_0.50_mb_block_size" },
    };
    static const struct kernel k = { .name = "lat_mem_rd", .section = "lmbench",
                                     .metrics = ms, .nmetrics = 3, .run = run_nothing };
    /* the shared "lat_mem_rd-stride128-" goes, an alias keeps its name */
    ck_assert_uint_eq(metric_name_skip(&k, "lat_mem_rd-stride128-sz1000k"), 21);
    ck_assert_uint_eq(metric_name_skip(&k, "latency_for_0.50_mb_block_size"), 0);
    static const struct kernel_metric two[] = { { .id = "bw_mem-rd-16mb" },
                                                { .id = "bw_mem-wr-1mb" } };
    static const struct kernel k1 = { .name = "bw_mem", .metrics = two, .nmetrics = 2,
                                      .run = run_nothing };
    ck_assert_uint_eq(metric_name_skip(&k1, "bw_mem-rd-16mb"), 7);   /* up to a '-' */
    ck_assert_uint_eq(metric_name_skip(&k1, "copy"), 0);

    /* without siblings a long name keeps its end */
    struct metric_cells c;
    struct result_row r = stream_row();
    metric_cells_make(&c, NULL, &r, "latency_for_0.50_mb_block_size", 0, 0, 1, "am62xx_sk-fs");
    ck_assert_str_eq(c.cell[MCOL_NAME], "~_block_size");
    ck_assert_int_eq((int)strlen(c.cell[MCOL_NAME]), 12);
}
END_TEST

/* No two names of a table read the same however narrow the column: the
 * openssl rows of the AM62x SK at 80 columns read "aes-1~cbc-256" for both
 * aes-128 and aes-192 when each kept the part it shares least. */
START_TEST(table_names_unique)
{
    static const char *const keys[] = { "aes-128-cbc", "aes-192-cbc", "aes-256-cbc",
                                        "sha256", "sha512", "des3" };
    static const char *const sizes[] = { "16", "64", "256", "1024", "8192", "16384" };
    const char *names[ARRAY_SIZE(keys) * ARRAY_SIZE(sizes)];
    char store[ARRAY_SIZE(names)][32];
    size_t n = 0;
    for (size_t k = 0; k < ARRAY_SIZE(keys); k++)
        for (size_t z = 0; z < ARRAY_SIZE(sizes); z++) {
            snprintf(store[n], sizeof store[n], "%s-%s", keys[k], sizes[z]);
            names[n] = store[n];
            n++;
        }
    char (*out)[FMT_NAME_CELL] = xcalloc(n, sizeof *out);
    for (int width = 12; width <= 18; width++) {
        fmt_names_fit(names, n, width, false, out);
        for (size_t i = 0; i < n; i++) {
            ck_assert_int_eq((int)strlen(out[i]), width);
            for (size_t j = i + 1; j < n; j++)
                ck_assert_msg(strcmp(out[i], out[j]) != 0, "width %d: %s and %s both read "
                              "'%s'", width, names[i], names[j], out[i]);
        }
    }
    /* what fits stays whole, and the sibling-aware form is kept where it
     * is unique */
    fmt_names_fit(names, n, 16, false, out);
    ck_assert_str_eq(out[0], "aes-128-cbc-16  ");
    free(out);
}
END_TEST

/* Two sibling names in a 12-column cell must not read the same: the part
 * that differs stays visible. */
START_TEST(metric_names_distinct)
{
    static const char *const sib[] = {
        "latency_for_0.50_mb_block_size", "latency_for_1.00_mb_block_size", "sz50",
        "dhrystone_per_mhz", "dhrystone_per_second", "cpu_clock",
    };
    size_t pre, suf;
    char a[64], b[64];
    metric_name_shared(sib[0], sib, ARRAY_SIZE(sib), &pre, &suf);
    ck_assert_uint_eq(pre, 12);     /* "latency_for_" */
    ck_assert_uint_eq(suf, 14);     /* "_mb_block_size", not "0_mb..." */
    fmt_name_fit(a, sizeof a, sib[0], pre, suf, 12, false);
    metric_name_shared(sib[1], sib, ARRAY_SIZE(sib), &pre, &suf);
    fmt_name_fit(b, sizeof b, sib[1], pre, suf, 12, false);
    ck_assert_str_ne(a, b);
    ck_assert_ptr_nonnull(strstr(a, "0.50"));
    ck_assert_ptr_nonnull(strstr(b, "1.00"));
    ck_assert_int_eq((int)strlen(a), 12);
    ck_assert_str_eq(a, "lat~0.50_mb~");
    /* the cell of metric_cells_make with the shared parts */
    struct metric_cells c;
    struct result_row r = stream_row();
    metric_name_shared(sib[0], sib, ARRAY_SIZE(sib), &pre, &suf);
    metric_cells_make(&c, NULL, &r, sib[0], pre, suf, 1, "am62xx_sk-fs");
    ck_assert_str_eq(c.cell[MCOL_NAME], a);

    /* the shared prefix loses its middle, the differing end stays */
    metric_name_shared(sib[4], sib, ARRAY_SIZE(sib), &pre, &suf);
    ck_assert_uint_eq(pre, 14);
    ck_assert_uint_eq(suf, 0);
    ck_assert_str_eq(fmt_name_fit(a, sizeof a, sib[4], pre, suf, 17, false),
                     "dhryst~per_second");
    ck_assert_str_eq(fmt_name_fit(a, sizeof a, sib[4], pre, suf, 12, false),
                     "dhrys~second");
    /* what fits is shown whole; a name with no sibling like it keeps its end */
    ck_assert_str_eq(fmt_name_fit(a, sizeof a, sib[4], pre, suf, 20, false),
                     "dhrystone_per_second");
    metric_name_shared(sib[5], sib, ARRAY_SIZE(sib), &pre, &suf);
    ck_assert_uint_eq(pre, 0);
    ck_assert_str_eq(fmt_name_fit(a, sizeof a, sib[5], pre, suf, 6, false), "~clock");
    /* a name that is another's start: nothing shared is claimed */
    static const char *const pair[] = { "sz50", "sz500k" };
    metric_name_shared(pair[0], pair, 2, &pre, &suf);
    ck_assert_uint_lt(pre + suf, 4);
}
END_TEST

/* The layout follows the width; a unit is never cut. */
START_TEST(metric_layout_width)
{
    struct metric_layout l;
    char buf[400];
    /* 80 columns, short units: today's layout */
    metric_layout_make(&l, 80, 4, 30);
    ck_assert_int_eq(l.total, 80);
    ck_assert_int_eq(l.width[MCOL_UNIT], 4);     /* the header's width */
    ck_assert_int_eq(l.width[MCOL_NAME], 13);
    ck_assert_int_eq(l.width[MCOL_NOW], l.width[MCOL_MIN]);
    /* short names: the spare column is not given to one number alone */
    metric_layout_make(&l, 80, 4, 5);
    ck_assert_int_eq(l.width[MCOL_NAME], 12);
    ck_assert_int_eq(l.width[MCOL_NOW], 5);
    ck_assert_int_eq(l.width[MCOL_MIN], 5);
    ck_assert_int_ge(l.width[MCOL_BAND], 9);
    /* a 10-column unit: the unit column fits it, the band gives way */
    metric_layout_make(&l, 80, 10, 20);
    ck_assert_int_eq(l.width[MCOL_UNIT], 10);
    ck_assert_int_ge(l.width[MCOL_NAME], 12);
    ck_assert_int_eq(l.width[MCOL_BAND], 0);
    ck_assert_int_le(l.total, 80);
    struct metric_cells c;
    struct result_row r = stream_row();
    r.unit = "dmips/mhz";
    metric_cells_make(&c, &l, &r, "dhrystone_per_second", 14, 0, 1234.5, "am62xx_sk-fs");
    ck_assert_str_eq(c.cell[MCOL_UNIT], "DMIPS/MHz");
    metric_row_text(buf, sizeof buf, &l, &c, false);
    ck_assert_ptr_nonnull(strstr(buf, " DMIPS/MHz "));
    ck_assert_ptr_null(strstr(buf, "1650-2245"));
    metric_header_text(buf, sizeof buf, &l, SUMMARY_MAX);
    ck_assert_ptr_null(strstr(buf, "min-max"));
    ck_assert_ptr_nonnull(strstr(buf, "unit       "));
    /* 132 columns: the name gets its room, then the numbers */
    metric_layout_make(&l, 132, 10, 30);
    ck_assert_int_eq(l.width[MCOL_NAME], 30);
    ck_assert_int_gt(l.width[MCOL_BAND], 0);
    ck_assert_int_gt(l.width[MCOL_MIN], 5);
    ck_assert_int_le(l.total, 132);
    metric_cells_make(&c, &l, &r, "dhrystone_per_second", 14, 0, 1234.5, "am62xx_sk-fs");
    metric_row_text(buf, sizeof buf, &l, &c, false);
    ck_assert(strncmp(buf, "dhrystone_per_second ", 21) == 0);
    ck_assert_int_eq((int)strlen(buf), l.total);
    /* units past the limit are shortened the same way every time */
    ck_assert_str_eq(fmt_unit_fit(buf, sizeof buf, "workloads/second", 12), "wrklds/scnd");
    ck_assert_str_eq(fmt_unit_fit(buf, sizeof buf, "mb/s", 4), "MB/s");
}
END_TEST

START_TEST(sparkline)
{
    char buf[64];
    static const double rising[] = { 1, 2, 3, 4, 5, 6, 7, 8 };
    ck_assert_str_eq(fmt_sparkline(buf, sizeof buf, rising, 8, 8), "_.:-=+*#");
    ck_assert_str_eq(fmt_sparkline(buf, sizeof buf, rising, 3, 6), "_=#   ");
    /* only the last `width` samples, scaled among themselves */
    ck_assert_str_eq(fmt_sparkline(buf, sizeof buf, rising, 8, 2), "_#");
    static const double flat[] = { 5, 5, 5 };
    ck_assert_str_eq(fmt_sparkline(buf, sizeof buf, flat, 3, 3), "---");
    ck_assert_str_eq(fmt_sparkline(buf, sizeof buf, NULL, 0, 4), "    ");
    static const double gap[] = { 1, NAN, 3 };
    ck_assert_str_eq(fmt_sparkline(buf, sizeof buf, gap, 3, 3), "_ #");
}
END_TEST

START_TEST(ref_bar)
{
    char buf[64];
    /* the scale covers the band and the value with a margin each side */
    fmt_ref_bar(buf, sizeof buf, 100, 100, true, 90, true, 110, 22);
    ck_assert_int_eq((int)strlen(buf), 22);
    ck_assert(buf[0] == '[' && buf[21] == ']');
    ck_assert_ptr_nonnull(strchr(buf, '*'));
    ck_assert_ptr_null(strchr(buf, '|'));       /* the value covers the average */
    ck_assert_str_eq(buf, "[-=========*========-]");
    fmt_ref_bar(buf, sizeof buf, 200, 100, true, 90, true, 110, 22);
    ck_assert(strchr(buf, '=') < strchr(buf, '|'));     /* the band holds the average */
    ck_assert_int_eq(buf[19], '*');     /* the value near the far end, inside the margin */
    /* no band: '|' and '*' alone */
    fmt_ref_bar(buf, sizeof buf, 50, 100, false, 0, false, 0, 12);
    ck_assert_ptr_null(strchr(buf, '='));
    ck_assert(strchr(buf, '*') < strchr(buf, '|'));
    /* no measured value yet: the guide alone; no reference: blank */
    fmt_ref_bar(buf, sizeof buf, NAN, 100, true, 90, true, 110, 12);
    ck_assert_ptr_null(strchr(buf, '*'));
    ck_assert_ptr_nonnull(strchr(buf, '|'));
    ck_assert_str_eq(fmt_ref_bar(buf, sizeof buf, 5, NAN, false, 0, false, 0, 5), "     ");
}
END_TEST

START_TEST(metric_row_no_reference)
{
    char buf[256];
    struct metric_cells c;
    struct result_row r = stream_row();
    r.has_ref = false;
    r.dev.has_ref = false;
    metric_cells_make(&c, NULL, &r, NULL, 0, 0, 1234.5, "am62xx_sk-fs");
    ck_assert_str_eq(c.span, "no reference for am62xx_sk-fs");
    metric_row_text(buf, sizeof buf, NULL, &c, false);
    ck_assert_ptr_nonnull(strstr(buf, "1250 10 no reference for am62xx_sk-fs"));
    ck_assert_int_eq((int)strlen(buf), 80);
    metric_cells_make(&c, NULL, &r, NULL, 0, 0, 1234.5, NULL);
    ck_assert_str_eq(c.span, "no reference (no board chosen)");

    /* no samples yet: dashes, and the reference already shown */
    r = stream_row();
    r.samples = 0;
    metric_cells_make(&c, NULL, &r, NULL, 0, 0, NAN, "am62xx_sk-fs");
    ck_assert_str_eq(c.cell[MCOL_NOW], "-");
    ck_assert_str_eq(c.cell[MCOL_N], "0");
    ck_assert_str_eq(c.cell[MCOL_REF], "1839");
    ck_assert_str_eq(c.cell[MCOL_DEV], "");

    /* a metric that failed before any sample says why */
    r.status = STATUS_FAILED;
    r.error = "validation failed";
    metric_cells_make(&c, NULL, &r, NULL, 0, 0, NAN, "am62xx_sk-fs");
    ck_assert(c.span_error);
    ck_assert_str_eq(c.span, "failed: validation failed");
}
END_TEST

/* --- bar chart and results rows ------------------------------------------- */

START_TEST(hbar)
{
    char buf[64];
    ck_assert_str_eq(fmt_hbar(buf, sizeof buf, 50, 100, 10), "#####     ");
    ck_assert_str_eq(fmt_hbar(buf, sizeof buf, 100, 100, 10), "##########");
    ck_assert_str_eq(fmt_hbar(buf, sizeof buf, 250, 100, 4), "####");   /* clamped */
    ck_assert_str_eq(fmt_hbar(buf, sizeof buf, 0.01, 100, 10), "#         ");
    ck_assert_str_eq(fmt_hbar(buf, sizeof buf, 0, 100, 5), "     ");
    ck_assert_str_eq(fmt_hbar(buf, sizeof buf, NAN, 100, 5), "     ");
    ck_assert_str_eq(fmt_hbar(buf, sizeof buf, 5, 0, 3), "   ");
    ck_assert_str_eq(fmt_hbar(buf, 4, 100, 100, 10), "###");   /* cut to the buffer */
}
END_TEST

/* Values at the ends of the double range (a damaged store, a tool printing
 * 1e308) draw something of the right width; no conversion leaves int range
 * (the sanitized build checks float-cast-overflow). */
START_TEST(extremes_keep_their_width)
{
    char buf[64];
    ck_assert_str_eq(fmt_duration(buf, sizeof buf, DBL_MAX), "--:--");
    ck_assert_str_eq(fmt_duration(buf, sizeof buf, INFINITY), "--:--");
    ck_assert_str_eq(fmt_duration(buf, sizeof buf, 359999), "99:59:59");
    ck_assert_str_eq(fmt_hbar(buf, sizeof buf, DBL_MAX, DBL_MIN, 6), "######");
    ck_assert_str_eq(fmt_hbar(buf, sizeof buf, DBL_MIN, DBL_MAX, 6), "#     ");
    static const double wide[] = { -DBL_MAX, 0, DBL_MAX };
    ck_assert_str_eq(fmt_sparkline(buf, sizeof buf, wide, 3, 3), "_=#");
    fmt_ref_bar(buf, sizeof buf, DBL_MAX, -DBL_MAX, true, -DBL_MAX, true, DBL_MAX, 12);
    ck_assert_int_eq((int)strlen(buf), 12);
    ck_assert(buf[0] == '[' && buf[11] == ']');
    ck_assert_ptr_nonnull(strchr(buf, '*'));
    fmt_ref_bar(buf, sizeof buf, -DBL_MAX, DBL_MAX, false, 0, false, 0, 12);
    ck_assert(strchr(buf, '*') < strchr(buf, '|'));
    ck_assert_str_eq(fmt_progress_bar(buf, sizeof buf, DBL_MAX, 6, false), "[####]");
}
END_TEST

START_TEST(compare_row)
{
    char buf[160];
    /* 80 columns: mark, label 24, value 7, a bar of 80-2-25-8 = 45 */
    fmt_compare_row(buf, sizeof buf, '>', "this board (measured)", 6223.6, 6223.6, 80,
                    false);
    ck_assert_int_eq((int)strlen(buf), 80);
    ck_assert(str_starts_with(buf, "> this board (measured)     6223.6 #"));
    ck_assert_int_eq(buf[79], '#');
    fmt_compare_row(buf, sizeof buf, '*', "AM62x SK", 1838.9, 6223.6, 80, false);
    ck_assert_int_eq((int)strlen(buf), 80);
    /* 1838.9 / 6223.6 of 45 columns is 13 */
    ck_assert(str_starts_with(buf, "* AM62x SK                  1838.9 #############  "));
    fmt_compare_row(buf, sizeof buf, ' ', "A board with a very long name indeed", NAN,
                    10, 80, false);
    ck_assert(str_starts_with(buf, "  A board with a very lon~       - "));
    ck_assert_int_eq((int)strlen(buf), 80);
}
END_TEST

START_TEST(result_line)
{
    char buf[300];
    struct result_layout l;
    struct result_row r;
    memset(&r, 0, sizeof r);
    r.bench = "stream";
    r.metric = "copy";
    r.unit = "mb/s";
    snprintf(r.provider, sizeof r.provider, "kernel:stream");
    r.samples = 3;
    r.value = 1700;
    r.min = 1650;
    r.max = 1700;
    r.has_ref = true;
    r.ref_avg = 1838.92;
    r.has_ref_min = r.has_ref_max = true;
    r.ref_min = 1650.2;
    r.ref_max = 2245.2;
    r.dev = (struct deviation){ .has_ref = true, .pct = -7.55, .better = false,
                                .verdict = VERDICT_WARN };
    /* 80 columns (78 beside the selection mark): no provider, no stats */
    fmt_result_layout(&l, 78, 4, false);
    ck_assert_int_eq(l.minmax, 0);
    ck_assert_int_eq(l.last, 0);
    fmt_result_line(buf, sizeof buf, &l, &r, 3, SESSION_DONE, NULL, false);
    ck_assert_msg(strcmp(buf, "stream copy                  MB/s  1700.0  1838.9 -7.5% worse   "
                              "warn      #3") == 0, "%s", buf);
    ck_assert_int_le((int)strlen(buf), 78);
    fmt_result_header(buf, sizeof buf, &l, NULL);
    ck_assert_str_eq(buf, "metric                       unit   value     ref deviation     "
                          "status    run");
    /* 132 columns: min, max, samples, the guide's band, and a long name */
    fmt_result_layout(&l, 130, 4, false);
    ck_assert_int_gt(l.minmax, 0);
    ck_assert_int_gt(l.band, 0);
    ck_assert_int_ge(l.name, 40);
    fmt_result_line(buf, sizeof buf, &l, &r, 3, SESSION_DONE, NULL, false);
    ck_assert_msg(strstr(buf, " 1650.0  1700.0    3  1838.9   1650-2245 -7.5% worse") &&
                  str_ends_with(buf, "#3"), "%s", buf);
    ck_assert_int_le((int)strlen(buf), 130);
    fmt_result_header(buf, sizeof buf, &l, NULL);
    ck_assert_msg(strstr(buf, "value     min     max    n     ref        band deviation"),
                  "%s", buf);
    /* wider still: the provider too */
    fmt_result_layout(&l, 170, 4, false);
    ck_assert_int_gt(l.last, 0);
    fmt_result_line(buf, sizeof buf, &l, &r, 3, SESSION_DONE, NULL, false);
    ck_assert_msg(str_ends_with(buf, "#3   kernel:stream"), "%s", buf);
    /* cancelled and running values say so */
    ck_assert_str_eq(fmt_result_status(&r, SESSION_RUNNING), "running");
    r.status = STATUS_CANCELLED;
    ck_assert_str_eq(fmt_result_status(&r, SESSION_CANCELLED), "cancelled");
    /* a failure without a sample shows its reason, not only "failed" */
    r.status = STATUS_FAILED;
    r.samples = 0;
    r.error = "cannot allocate 3 arrays of 64 MiB";
    fmt_result_layout(&l, 78, 4, false);
    fmt_result_line(buf, sizeof buf, &l, &r, 4, SESSION_DONE, NULL, false);
    ck_assert_msg(strstr(buf, "MB/s failed: cannot allocate 3 arrays") &&
                  str_ends_with(buf, "#4"), "%s", buf);
    /* and the line below the table says all of it */
    fmt_result_detail(buf, sizeof buf, &r, 4, "20261201-120000-am62xx_sk-fs");
    ck_assert_msg(strcmp(buf, "stream copy: failed: cannot allocate 3 arrays of 64 MiB; "
                              "no sample; guide 1838.9, band 1650.2-2245.2; kernel:stream, "
                              "run #4 of 20261201-120000-am62xx_sk-fs") == 0, "%s", buf);
    r.samples = 3;
    r.status = STATUS_OK;
    fmt_result_detail(buf, sizeof buf, &r, 4, NULL);
    ck_assert_msg(strstr(buf, "min 1650.0, max 1700.0, avg 0 MB/s over 3 samples"), "%s", buf);
    r.samples = 0;
    r.status = STATUS_FAILED;
    /* no reference is spelt out */
    r.status = STATUS_TIMEOUT;
    r.samples = 3;
    r.has_ref = false;
    r.dev.has_ref = false;
    fmt_result_line(buf, sizeof buf, &l, &r, 4, SESSION_DONE, NULL, false);
    ck_assert_msg(strstr(buf, "      - no reference  timeout"), "%s", buf);
    /* a long metric keeps its end; a long unit is never cut */
    r.bench = "lmbench";
    r.metric = "latency_for_0.50_mb_block_size";
    r.unit = "dmips/mhz";
    fmt_result_layout(&l, 78, fmt_columns(fmt_unit(r.unit)), false);
    fmt_result_line(buf, sizeof buf, &l, &r, 4, SESSION_DONE, NULL, false);
    ck_assert_msg(str_starts_with(buf, "~for_0.50_mb_block_size DMIPS/MHz "), "%s", buf);
}
END_TEST

START_TEST(result_line_baseline)
{
    char buf[200];
    struct result_row r;
    memset(&r, 0, sizeof r);
    r.bench = "stream";
    r.metric = "copy";
    r.unit = "mb/s";
    snprintf(r.provider, sizeof r.provider, "kernel:stream");
    r.samples = 3;
    r.value = 1900;
    json_t *base = json_pack("[{ss ss sf} {ss ss sf} {ss ss sf}]",
                             "bench", "stream", "metric", "copy", "value", 2000.0,
                             "bench", "lmbench", "metric", "lat", "value", 4.0,
                             "bench", "cpu", "metric", "clock", "value", 1000.0);
    ck_assert_str_eq(fmt_baseline_cell(buf, sizeof buf, base, &r), "-5.0% worse");
    /* the provider column gives way to the change */
    struct result_layout l;
    fmt_result_layout(&l, 78, 4, true);
    fmt_result_line(buf, sizeof buf, &l, &r, 1, SESSION_DONE, base, false);
    ck_assert_msg(str_ends_with(buf, " #1   -5.0% worse"), "%s", buf);
    ck_assert_ptr_null(strstr(buf, "kernel:stream"));
    fmt_result_header(buf, sizeof buf, &l, "before-ddr-change");
    ck_assert_msg(str_ends_with(buf, "status    run  vs before-dd~"), "%s", buf);
    r.value = 2000;
    ck_assert_str_eq(fmt_baseline_cell(buf, sizeof buf, base, &r), "0.0%");
    r.bench = "lmbench";
    r.metric = "lat";
    r.unit = "us";
    r.value = 3;
    ck_assert_str_eq(fmt_baseline_cell(buf, sizeof buf, base, &r), "-25.0% better");
    r.bench = "cpu";
    r.metric = "clock";
    r.unit = "";
    r.value = 1100;
    ck_assert_str_eq(fmt_baseline_cell(buf, sizeof buf, base, &r), "+10.0%");
    r.metric = "other";
    ck_assert_str_eq(fmt_baseline_cell(buf, sizeof buf, base, &r), "-");
    json_decref(base);
}
END_TEST

/* A row of the check's table: bench, metric, unit, value (NAN: none),
 * and `runs` run values spread by `spread` (a fraction) round it. */
static json_t *check_runs_row(const char *bench, const char *metric, const char *unit,
                              double v, size_t runs, double spread)
{
    json_t *row = json_pack("{ss ss ss ss}", "bench", bench, "metric", metric, "unit", unit,
                            "status", isnan(v) ? "failed" : "ok");
    json_object_set_new(row, "value", isnan(v) ? json_null() : json_real(v));
    if (isnan(v)) {
        json_object_set_new(row, "error", json_string("chk: not in the output"));
        return row;
    }
    json_t *rv = json_array();
    for (size_t i = 0; i < runs; i++)       /* evenly over -spread .. +spread */
        json_array_append_new(rv, json_real(v * (1 + spread * (runs > 1
                                                    ? 2.0 * (double)i / (double)(runs - 1) - 1
                                                    : 0))));
    json_object_set_new(row, "run_values", rv);
    json_object_set_new(row, "runs", json_integer((json_int_t)runs));
    return row;
}

static json_t *check_json_row(const char *bench, const char *metric, const char *unit,
                              double v)
{
    return check_runs_row(bench, metric, unit, v, 10, 0.004);
}

/* The rows judged against the baseline by the check's rule, by
 * significance: failures, slower (most first), inconclusive (most
 * first), unchanged (most worse first), faster (least first), unjudged. */
START_TEST(check_table_order)
{
    json_t *rows = json_array();
    json_array_append_new(rows, check_json_row("ddr", "copy", "mb/s", 1250));
    json_array_append_new(rows, check_json_row("ddr", "gone", "mb/s", 100));
    json_array_append_new(rows, check_json_row("ddr", "lat", "us", 43));
    json_array_append_new(rows, check_json_row("ddr", "bw", "mb/s", 1600));
    json_array_append_new(rows, check_json_row("ddr", "triad", "mb/s", 1160));
    json_array_append_new(rows, check_json_row("ddr", "lat2", "us", 38));
    json_array_append_new(rows, check_json_row("ddr", "fast", "mb/s", 1300));
    json_array_append_new(rows, check_json_row("ddr", "broke", "mb/s", NAN));
    /* 8 % worse, spread +-30 %: the interval reaches across -10 % */
    json_array_append_new(rows, check_runs_row("ddr", "wide", "mb/s", 920, 10, 0.3));
    /* one run against one: no interval */
    json_array_append_new(rows, check_runs_row("ddr", "once", "mb/s", 500, 1, 0));
    json_t *base = json_array();
    const struct { const char *metric; double v; size_t runs; } b[] = {
        { "copy", 1500, 10 }, { "lat", 40, 10 }, { "bw", 1400, 10 }, { "triad", 1400, 10 },
        { "lat2", 40, 10 }, { "fast", 1000, 10 }, { "broke", 1000, 10 }, { "wide", 1000, 10 },
        { "once", 1000, 1 },
    };
    for (size_t i = 0; i < ARRAY_SIZE(b); i++)
        json_array_append_new(base, check_runs_row("ddr", b[i].metric, strcmp(b[i].metric,
                                                   "lat") && strcmp(b[i].metric, "lat2")
                                                   ? "mb/s" : "us", b[i].v, b[i].runs,
                                                   0.004));
    export_add_baseline(rows, base, 10);
    struct check_row *t;
    size_t n = check_table_rows(rows, 10, &t);
    ck_assert_uint_eq(n, 10);
    static const char *const order[] = { "broke", "triad", "copy", "once", "wide", "lat",
                                         "lat2", "bw", "fast", "gone" };
    static const enum check_word words[] = {
        CHECK_WORD_FAILED, CHECK_WORD_WORSE, CHECK_WORD_WORSE, CHECK_WORD_UNCLEAR,
        CHECK_WORD_UNCLEAR, CHECK_WORD_WITHIN, CHECK_WORD_WITHIN, CHECK_WORD_BETTER,
        CHECK_WORD_BETTER, CHECK_WORD_UNJUDGED,
    };
    for (size_t i = 0; i < n; i++) {
        ck_assert_msg(strcmp(t[i].metric, order[i]) == 0, "row %zu is %s, want %s", i,
                      t[i].metric, order[i]);
        ck_assert_msg(t[i].word == words[i], "%s: %s", t[i].metric,
                      check_word_name(t[i].word));
    }
    ck_assert_double_eq_tol(t[1].beyond, 17.142857, 1e-3);
    ck_assert(!t[3].has_interval && t[4].has_interval);
    ck_assert(t[4].change_low < -10 && t[4].change_high > -10);
    ck_assert_str_eq(check_word_name(CHECK_WORD_UNJUDGED), "-");
    free(t);
    json_decref(rows);
    json_decref(base);
}
END_TEST

/* Its cells and lines: was, now, the signed change with its word, the
 * verdict; a failure's reason where the numbers are; the sentence whole. */
/* The summary's count of verdicts: a row beyond the band on the good side
 * is counted as better, never as "no reference" or an alarm. */
START_TEST(verdict_counts)
{
    struct session_row rs[6];
    memset(rs, 0, sizeof rs);
    const enum verdict v[] = { VERDICT_IN_RANGE, VERDICT_WARN, VERDICT_OFF, VERDICT_BETTER,
                               VERDICT_BETTER, VERDICT_NONE };
    for (size_t i = 0; i < ARRAY_SIZE(v); i++) {
        rs[i].row.status = STATUS_OK;
        rs[i].row.dev.verdict = v[i];
    }
    char line[160];
    fmt_verdict_counts(line, sizeof line, rs, 6);
    ck_assert_str_eq(line, "6 metrics: 1 in range, 1 warn, 1 off, 2 better, 1 no reference");
    rs[0].row.status = STATUS_FAILED;
    fmt_verdict_counts(line, sizeof line, rs, 4);
    ck_assert_str_eq(line, "4 metrics: 0 in range, 1 warn, 1 off, 1 better, 1 failed");
    fmt_verdict_counts(line, sizeof line, rs + 1, 1);
    ck_assert_str_eq(line, "1 metric: 0 in range, 1 warn, 0 off");
}
END_TEST

START_TEST(check_table_line)
{
    char buf[200];
    json_t *rows = json_array();
    json_array_append_new(rows, check_json_row("ddrcheck", "lat", "us", 43));
    json_array_append_new(rows, check_json_row("ddrcheck", "copy", "mb/s", 1250));
    json_array_append_new(rows, check_json_row("ddrcheck", "broke", "mb/s", NAN));
    json_t *base = json_array();
    json_array_append_new(base, check_json_row("ddrcheck", "copy", "mb/s", 1500));
    json_array_append_new(base, check_json_row("ddrcheck", "lat", "us", 40));
    export_add_baseline(rows, base, 10);
    struct check_row *t;
    ck_assert_uint_eq(check_table_rows(rows, 10, &t), 3);
    ck_assert_str_eq(fmt_check_change(buf, sizeof buf, &t[1]), "-16.7 [-16.9,-16.4]");
    ck_assert_str_eq(fmt_check_change(buf, sizeof buf, &t[2]), "+7.5 [+7.2,+7.8]");
    struct check_layout l;
    fmt_check_layout(&l, 77, 4);
    fmt_check_header(buf, sizeof buf, &l);
    ck_assert_msg(str_ends_with(buf, " unit     was     now change % [95%]      outcome"), "%s",
                  buf);
    ck_assert_int_le((int)strlen(buf), 77);
    fmt_check_line(buf, sizeof buf, &l, &t[1], false);
    ck_assert_msg(strncmp(buf, "ddrcheck copy ", 14) == 0, "%s", buf);
    ck_assert_msg(str_ends_with(buf, " MB/s  1500.0  1250.0 -16.7 [-16.9,-16.4] slower"), "%s",
                  buf);
    fmt_check_line(buf, sizeof buf, &l, &t[2], false);
    ck_assert_msg(str_ends_with(buf, " us    40.000  43.000 +7.5 [+7.2,+7.8]    unchanged"), "%s",
                  buf);
    fmt_check_line(buf, sizeof buf, &l, &t[0], false);
    ck_assert_msg(strstr(buf, "MB/s failed: chk: not in the ") != NULL, "%s", buf);
    ck_assert_msg(str_ends_with(buf, " failed"), "%s", buf);
    ck_assert_int_le((int)strlen(buf), 77);

    struct strbuf sb;
    sb_init(&sb);
    fmt_check_sentence(&sb, &t[1], 10);
    ck_assert_str_eq(sb.buf, "ddrcheck copy: 1250 MB/s, was 1500: -16.7% (-16.9 .. -16.4 at "
                             "95%), 10 runs against 10: slower than before by more than 10%");
    sb_clear(&sb);
    fmt_check_sentence(&sb, &t[2], 10);
    ck_assert_str_eq(sb.buf, "ddrcheck lat: 43 us, was 40: +7.5% (+7.2 .. +7.8 at 95%), 10 "
                             "runs against 10: a small, real change, within 10% of before");
    sb_clear(&sb);
    fmt_check_sentence(&sb, &t[0], 10);
    ck_assert_str_eq(sb.buf, "ddrcheck broke: failed: chk: not in the output (did not run to "
                             "the end)");
    sb_free(&sb);
    free(t);
    json_decref(rows);
    json_decref(base);
}
END_TEST

Suite *suite_format(void)
{
    Suite *s = suite_create("format");
    TCase *tc = tcase_create("format");
    tcase_add_loop_test(tc, value, 0, (int)ARRAY_SIZE(value_cases));
    tcase_add_test(tc, value_special);
    tcase_add_test(tc, band);
    tcase_add_loop_test(tc, units_read_naturally, 0, (int)ARRAY_SIZE(unit_cases));
    tcase_add_test(tc, deviation);
    tcase_add_test(tc, verdict_and_duration);
    tcase_add_test(tc, progress_bar);
    tcase_add_test(tc, fit);
    tcase_add_test(tc, wrap);
    tcase_add_test(tc, counts_and_units);
    tcase_add_test(tc, hbar);
    tcase_add_test(tc, extremes_keep_their_width);
    tcase_add_test(tc, compare_row);
    tcase_add_test(tc, result_line);
    tcase_add_test(tc, result_line_baseline);
    tcase_add_test(tc, check_table_order);
    tcase_add_test(tc, check_table_line);
    tcase_add_test(tc, verdict_counts);
    suite_add_tcase(s, tc);

    tc = tcase_create("metric_row");
    tcase_add_test(tc, metric_row);
    tcase_add_test(tc, metric_row_no_reference);
    tcase_add_test(tc, metric_names_fit);
    tcase_add_test(tc, metric_names_distinct);
    tcase_add_test(tc, table_names_unique);
    tcase_add_test(tc, metric_layout_width);
    tcase_add_test(tc, sparkline);
    tcase_add_test(tc, ref_bar);
    suite_add_tcase(s, tc);
    return s;
}
