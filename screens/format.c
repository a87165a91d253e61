/* format.c - text formatting for the screens, without a terminal
 * (format.h). */
#include "config.h"
#include "screens/format.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "run/session.h"
#include "common/units.h"
#include "common/util.h"

/* Byte length of the UTF-8 sequence starting with c (1 for bad bytes). */
static size_t utf8_len(unsigned char c)
{
    if (c >= 0xf0 && c < 0xf8)
        return 4;
    if (c >= 0xe0)
        return c < 0xf0 ? 3 : 1;
    if (c >= 0xc0)
        return 2;
    return 1;
}

/* Length of the character at s, never past the terminating NUL. */
static size_t char_len(const char *s)
{
    size_t n = utf8_len((unsigned char)*s);
    for (size_t i = 1; i < n; i++)
        if (((unsigned char)s[i] & 0xc0) != 0x80)
            return 1;
    return n;
}

int fmt_columns(const char *s)
{
    int cols = 0;
    while (*s) {
        s += char_len(s);
        cols++;
    }
    return cols;
}

/* Appends up to `cols` columns of s to buf[*o..size), sanitized. */
static void put_chars(char *buf, size_t size, size_t *o, const char *s, int cols,
                      bool utf8)
{
    for (int c = 0; *s && c < cols; c++) {
        size_t n = char_len(s);
        unsigned char ch = (unsigned char)*s;
        if (n == 1 && (ch < 32 || ch == 127 || ch >= 128)) {
            if (*o + 1 < size)
                buf[(*o)++] = ch >= 128 ? '?' : ' ';
        } else if (n > 1 && !utf8) {
            if (*o + 1 < size)
                buf[(*o)++] = '?';
        } else if (*o + n < size) {
            memcpy(buf + *o, s, n);
            *o += n;
        }
        s += n;
    }
}

static void put_spaces(char *buf, size_t size, size_t *o, int n)
{
    while (n-- > 0 && *o + 1 < size)
        buf[(*o)++] = ' ';
}

char *fmt_fit(char *buf, size_t size, const char *s, int width, bool right_align,
              bool utf8)
{
    size_t o = 0;
    if (!size)
        return buf;
    if (!s)
        s = "";
    if (width < 0)
        width = 0;
    int cols = fmt_columns(s);
    if (cols > width) {
        if (width > 0) {
            put_chars(buf, size, &o, s, width - 1, utf8);
            if (o + 1 < size)
                buf[o++] = '~';
        }
    } else {
        if (right_align)
            put_spaces(buf, size, &o, width - cols);
        put_chars(buf, size, &o, s, cols, utf8);
        if (!right_align)
            put_spaces(buf, size, &o, width - cols);
    }
    buf[o] = '\0';
    return buf;
}

char *fmt_fit_tail(char *buf, size_t size, const char *s, int width, bool utf8)
{
    size_t o = 0;
    if (!s)
        s = "";
    int cols = fmt_columns(s);
    if (cols <= width || width <= 1 || !size)
        return fmt_fit(buf, size, s, width, false, utf8);
    for (int skip = cols - (width - 1); skip > 0; skip--)
        s += char_len(s);
    buf[o++] = '~';
    put_chars(buf, size, &o, s, width - 1, utf8);
    buf[o] = '\0';
    return buf;
}

const char *fmt_wrap(char *buf, size_t size, const char *s, int width, bool utf8)
{
    size_t o = 0;
    if (!size)
        return NULL;
    buf[0] = '\0';
    if (!s || width < 1)
        return NULL;
    while (*s == ' ')
        s++;
    if (!*s)
        return NULL;
    /* The line ends at the last space within width, else at width. */
    const char *p = s, *brk = NULL;
    int cols = 0, brk_cols = 0;
    while (*p && cols < width) {
        if (*p == ' ') {
            brk = p;
            brk_cols = cols;
        }
        p += char_len(p);
        cols++;
    }
    if (*p && *p != ' ' && brk) {
        p = brk;
        cols = brk_cols;
    }
    put_chars(buf, size, &o, s, cols, utf8);
    while (o && buf[o - 1] == ' ')
        o--;
    buf[o] = '\0';
    while (*p == ' ')
        p++;
    return *p ? p : NULL;
}

/* Tries "%.*f" with decimals from `d` down to 0; true when one fits. */
static bool try_fixed(char *buf, size_t size, double v, int d, int width,
                      const char *suffix)
{
    for (; d >= 0; d--) {
        int n = snprintf(buf, size, "%.*f%s", d, v, suffix);
        if (n >= 0 && n <= width && (size_t)n < size)
            return true;
    }
    return false;
}

char *fmt_value(char *buf, size_t size, double v, int width)
{
    static const char *const suffixes[] = { "k", "M", "G", "T", "P" };
    if (!size)
        return buf;
    if (isnan(v)) {
        snprintf(buf, size, "-");
        return buf;
    }
    if (isinf(v)) {
        snprintf(buf, size, v > 0 ? "inf" : "-inf");
        return buf;
    }
    double a = fabs(v);
    if (a == 0) {
        snprintf(buf, size, "0");
        return buf;
    }
    if (a < 0.001 && width >= 5) {
        /* Tiny values: exponent form, "1e-05". */
        for (int d = 2; d >= 0; d--) {
            int n = snprintf(buf, size, "%.*e", d, v);
            if (n >= 0 && n <= width)
                return buf;
        }
    }
    int d = 4 - (int)floor(log10(a));
    d = d < 0 ? 0 : d > 3 ? 3 : d;
    if (try_fixed(buf, size, v, d, width, ""))
        return buf;
    double scaled = v;
    for (size_t i = 0; i < ARRAY_SIZE(suffixes); i++) {
        scaled /= 1000.0;
        if (try_fixed(buf, size, scaled, 2, width, suffixes[i]))
            return buf;
    }
    snprintf(buf, size, "%.*s", width > 0 ? width : 0, "#########");
    return buf;
}

char *fmt_count(char *buf, size_t size, size_t n, int width)
{
    int len = snprintf(buf, size, "%zu", n);
    if (len > width)
        fmt_value(buf, size, (double)n, width);
    return buf;
}

char *fmt_band(char *buf, size_t size, bool has_min, double min, bool has_max,
               double max, int end_width)
{
    char a[16], b[16];
    if (!size)
        return buf;
    if (has_min)
        fmt_value(a, sizeof a, min, end_width);
    if (has_max)
        fmt_value(b, sizeof b, max, end_width);
    if (has_min && has_max)
        snprintf(buf, size, "%s-%s", a, b);
    else if (has_min)
        snprintf(buf, size, ">=%s", a);
    else if (has_max)
        snprintf(buf, size, "<=%s", b);
    else
        buf[0] = '\0';
    return buf;
}

/* The percentage part: "+12.3%", "-4.0%", "+123%", ">9999%", "0.0%". */
static void fmt_pct(char *buf, size_t size, double pct)
{
    double a = fabs(pct);
    if (isnan(pct))
        snprintf(buf, size, "-");
    else if (a < 0.05)
        snprintf(buf, size, "0.0%%");
    else if (a < 99.95)
        snprintf(buf, size, "%+.1f%%", pct);
    else if (a < 9999.5)
        snprintf(buf, size, "%+.0f%%", pct);
    else
        snprintf(buf, size, "%s9999%%", pct > 0 ? ">" : "<-");
}

/* The word after the percentage, or NULL. */
static const char *dev_word(const struct deviation *d, enum direction dir)
{
    if (dir == DIR_NEUTRAL || isnan(d->pct) || fabs(d->pct) < 0.05)
        return NULL;
    return d->better ? "better" : "worse";
}

char *fmt_deviation(char *buf, size_t size, const struct deviation *d,
                    enum direction dir)
{
    char pct[16];
    if (!d->has_ref) {
        snprintf(buf, size, "no reference");
        return buf;
    }
    fmt_pct(pct, sizeof pct, d->pct);
    const char *w = dev_word(d, dir);
    snprintf(buf, size, "%s%s%s", pct, w ? " " : "", w ? w : "");
    return buf;
}

const char *fmt_verdict(enum verdict v)
{
    switch (v) {
    case VERDICT_IN_RANGE: return "in";
    case VERDICT_WARN: return "warn";
    case VERDICT_OFF: return "off";
    case VERDICT_NONE: break;
    }
    return "";
}

#define DURATION_MAX_S (100.0 * 3600)     /* 100 hours */

char *fmt_duration(char *buf, size_t size, double seconds)
{
    if (!(seconds > 0))
        seconds = 0;
    if (seconds >= DURATION_MAX_S) {    /* an estimate from almost no progress */
        snprintf(buf, size, "--:--");
        return buf;
    }
    long s = (long)seconds;
    long h = s / 3600, m = s / 60 % 60;
    if (h)
        snprintf(buf, size, "%ld:%02ld:%02ld", h, m, s % 60);
    else
        snprintf(buf, size, "%ld:%02ld", m, s % 60);
    return buf;
}

/* width clamped to 0 .. size - 1 (room for the NUL; size > 0). */
static int width_in(int width, size_t size)
{
    if (width < 0)
        return 0;
    return (size_t)width >= size ? (int)size - 1 : width;
}

/* Where x lies from lo (0) to hi (1), clamped to 0..1, computed so that a
 * span wider than DBL_MAX (lo -1e308, hi 1e308) does not overflow. */
static double unit_frac(double x, double lo, double hi)
{
    double f = (x / 2 - lo / 2) / (hi / 2 - lo / 2);
    return f > 0 ? (f < 1 ? f : 1) : 0;     /* NaN reads as 0 */
}

char *fmt_hbar(char *buf, size_t size, double value, double max, int width)
{
    if (!size)
        return buf;
    width = width_in(width, size);
    int n = 0;
    if (isfinite(value) && value > 0 && isfinite(max) && max > 0) {
        double frac = value / max;      /* may be inf when max is tiny */
        n = frac >= 1 ? width : (int)lround(frac * width);
        if (n < 1)
            n = 1;
    }
    memset(buf, '#', (size_t)n);
    memset(buf + n, ' ', (size_t)(width - n));
    buf[width] = '\0';
    return buf;
}

char *fmt_compare_row(char *buf, size_t size, char mark, const char *label,
                      double value, double max, int width, bool utf8)
{
    char name[128], val[32], bar[256];
    int bar_w = width - 2 - COMPARE_LABEL_W - 1 - COMPARE_VALUE_W - 1;
    if (bar_w < 0)
        bar_w = 0;
    if (bar_w > (int)sizeof bar - 1)
        bar_w = (int)sizeof bar - 1;
    fmt_fit(name, sizeof name, label, COMPARE_LABEL_W, false, utf8);
    fmt_value(val, sizeof val, value, COMPARE_VALUE_W);
    fmt_hbar(bar, sizeof bar, value, max, bar_w);
    snprintf(buf, size, "%c %s %*s %s", mark, name, COMPARE_VALUE_W, val, bar);
    return buf;
}

#define RES_UNIT_MIN 4
#define RES_UNIT_MAX 11
#define RES_NUM_W 7
#define RES_DEV_W 13
#define RES_STATUS_W 9
#define RES_RUN_W 4
#define RES_N_W 4
#define RES_BAND_W 11
#define RES_PROVIDER_W 17
#define RES_NAME_MIN 12
#define RES_NAME_MAX 48
#define RES_NAME_ROOM 28      /* the name's room before more columns come */

void fmt_result_layout(struct result_layout *l, int width, int unit_w, bool baseline)
{
    memset(l, 0, sizeof *l);
    l->width = width;
    l->unit = unit_w < RES_UNIT_MIN ? RES_UNIT_MIN : unit_w > RES_UNIT_MAX ? RES_UNIT_MAX : unit_w;
    l->num = RES_NUM_W;
    l->dev = RES_DEV_W;
    l->status = RES_STATUS_W;
    l->run = RES_RUN_W;
    l->baseline = baseline;
    /* the columns after the name, each with the space before it */
    int fixed = 1 + l->unit + 2 * (1 + l->num) + 1 + l->dev + 1 + l->status + 1 + l->run;
    /* then the statistics and the guide's band, then the provider, where
     * the name keeps room (at 132 columns: the statistics and a long name) */
    int stats = 2 * (1 + RES_NUM_W) + 1 + RES_N_W + 1 + RES_BAND_W;
    if (baseline)
        l->last = RES_DEV_W;
    if (l->last)
        fixed += 1 + l->last;
    if (width - fixed - stats >= RES_NAME_ROOM) {
        l->minmax = RES_NUM_W;
        l->samples = RES_N_W;
        l->band = RES_BAND_W;
        fixed += stats;
    }
    if (!l->last && width - fixed - (1 + RES_PROVIDER_W) >= RES_NAME_ROOM + 12) {
        l->last = RES_PROVIDER_W;
        fixed += 1 + l->last;
    }
    l->name = width - fixed;
    if (l->name > RES_NAME_MAX)
        l->name = RES_NAME_MAX;
    if (l->name < RES_NAME_MIN)
        l->name = RES_NAME_MIN;
}

/* Appends " cell" (fitted to w; none for w 0) at *o. */
static void put_cell(char *buf, size_t size, size_t *o, const char *text, int w, bool right,
                     bool utf8)
{
    char cell[160];
    if (w <= 0)
        return;
    fmt_fit(cell, sizeof cell, text, w, right, utf8);
    int n = snprintf(buf + *o, *o < size ? size - *o : 0, "%s%s", *o ? " " : "", cell);
    if (n > 0)
        *o += (size_t)n;
    if (*o >= size)
        *o = size ? size - 1 : 0;
}

char *fmt_result_header(char *buf, size_t size, const struct result_layout *l,
                        const char *baseline)
{
    char last[32];
    size_t o = 0;
    if (!size)
        return buf;
    buf[0] = '\0';
    put_cell(buf, size, &o, "metric", l->name, false, false);
    put_cell(buf, size, &o, "unit", l->unit, false, false);
    put_cell(buf, size, &o, "value", l->num, true, false);
    put_cell(buf, size, &o, "min", l->minmax, true, false);
    put_cell(buf, size, &o, "max", l->minmax, true, false);
    put_cell(buf, size, &o, "n", l->samples, true, false);
    put_cell(buf, size, &o, "ref", l->num, true, false);
    put_cell(buf, size, &o, "band", l->band, true, false);
    put_cell(buf, size, &o, "deviation", l->dev, false, false);
    put_cell(buf, size, &o, "status", l->status, false, false);
    put_cell(buf, size, &o, "run", l->run, false, false);
    snprintf(last, sizeof last, "vs %s", baseline ? baseline : "");
    put_cell(buf, size, &o, l->baseline ? last : "provider", l->last, false, false);
    while (o && buf[o - 1] == ' ')
        buf[--o] = '\0';
    return buf;
}

const char *fmt_result_status(const struct result_row *r, enum session_state state)
{
    if (state == SESSION_RUNNING)
        return "running";
    if (r->status != STATUS_OK)
        return status_name(r->status);
    return r->dev.has_ref ? fmt_verdict(r->dev.verdict) : "-";
}

char *fmt_result_line(char *buf, size_t size, const struct result_layout *l,
                      const struct result_row *r, size_t number, enum session_state state,
                      json_t *baseline, bool utf8)
{
    char id[160], name[160], val[16], mn[16], mx[16], n[16], ref[16], band[32], dev[32],
         run[16], last[64];
    size_t o = 0;
    if (!size)
        return buf;
    buf[0] = '\0';
    snprintf(id, sizeof id, "%s %s", r->bench ? r->bench : "?", r->metric ? r->metric : "?");
    fmt_fit_tail(name, sizeof name, id, l->name, utf8);
    put_cell(buf, size, &o, name, l->name, false, utf8);
    put_cell(buf, size, &o, fmt_unit(r->unit), l->unit, false, utf8);
    snprintf(run, sizeof run, "#%zu", number);
    if (!r->samples && r->status != STATUS_OK) {
        /* a failure: its reason in the room of the numbers */
        char why[320];
        snprintf(why, sizeof why, "%s: %s", status_name(r->status),
                 r->error ? r->error : status_message(r->status));
        int w = l->width - (int)o - 1 - l->run - 1 - (l->last ? l->last + 1 : 0);
        put_cell(buf, size, &o, why, w, false, utf8);
        put_cell(buf, size, &o, run, l->run, false, utf8);
        put_cell(buf, size, &o, "", l->last, false, utf8);
        while (o && buf[o - 1] == ' ')
            buf[--o] = '\0';
        return buf;
    }
    fmt_value(val, sizeof val, r->samples ? r->value : NAN, l->num);
    fmt_value(mn, sizeof mn, r->samples ? r->min : NAN, l->minmax ? l->minmax : 1);
    fmt_value(mx, sizeof mx, r->samples ? r->max : NAN, l->minmax ? l->minmax : 1);
    fmt_count(n, sizeof n, r->samples, l->samples ? l->samples : 1);
    fmt_value(ref, sizeof ref, r->has_ref ? r->ref_avg : NAN, l->num);
    fmt_band(band, sizeof band, r->has_ref && r->has_ref_min, r->ref_min,
             r->has_ref && r->has_ref_max, r->ref_max, (l->band - 1) / 2);
    if (!band[0])
        snprintf(band, sizeof band, "-");
    if (r->samples && r->dev.has_ref)
        fmt_deviation(dev, sizeof dev, &r->dev, unit_direction(r->unit));
    else
        snprintf(dev, sizeof dev, "%s", r->has_ref ? "-" : "no reference");
    put_cell(buf, size, &o, val, l->num, true, utf8);
    put_cell(buf, size, &o, mn, l->minmax, true, utf8);
    put_cell(buf, size, &o, mx, l->minmax, true, utf8);
    put_cell(buf, size, &o, n, l->samples, true, utf8);
    put_cell(buf, size, &o, ref, l->num, true, utf8);
    put_cell(buf, size, &o, band, l->band, true, utf8);
    put_cell(buf, size, &o, dev, l->dev, false, utf8);
    put_cell(buf, size, &o, fmt_result_status(r, state), l->status, false, utf8);
    put_cell(buf, size, &o, run, l->run, false, utf8);
    /* with a baseline, its change takes the provider's place */
    if (l->baseline)
        fmt_baseline_cell(last, sizeof last, baseline, r);
    else
        snprintf(last, sizeof last, "%s", r->provider);
    put_cell(buf, size, &o, last, l->last, false, utf8);
    while (o && buf[o - 1] == ' ')
        buf[--o] = '\0';
    return buf;
}

char *fmt_result_detail(char *buf, size_t size, const struct result_row *r, size_t number,
                        const char *store_id)
{
    char mn[16], mx[16], avg[16], ref[16], band[32];
    size_t o = 0;
    if (!size)
        return buf;
    buf[0] = '\0';
#define ADD(...) do { int k_ = snprintf(buf + o, o < size ? size - o : 0, __VA_ARGS__); \
                      if (k_ > 0) o += (size_t)k_; } while (0)
    ADD("%s %s: ", r->bench ? r->bench : "?", r->metric ? r->metric : "?");
    /* why it failed comes first: it is what the row is about */
    if (r->status != STATUS_OK)
        ADD("%s: %s; ", status_name(r->status),
            r->error ? r->error : status_message(r->status));
    if (r->samples) {
        fmt_value(mn, sizeof mn, r->min, 9);
        fmt_value(mx, sizeof mx, r->max, 9);
        fmt_value(avg, sizeof avg, r->avg, 9);
        ADD("min %s, max %s, avg %s %s over %zu sample%s", mn, mx, avg, fmt_unit(r->unit),
            r->samples, r->samples == 1 ? "" : "s");
    } else {
        ADD("no sample");
    }
    if (r->has_ref) {
        fmt_value(ref, sizeof ref, r->ref_avg, 9);
        fmt_band(band, sizeof band, r->has_ref_min, r->ref_min, r->has_ref_max, r->ref_max, 9);
        ADD("; guide %s%s%s%s", ref, band[0] ? ", band " : "", band,
            band[0] ? "" : " (no band)");
    } else {
        ADD("; no reference");
    }
    ADD("; %s, run #%zu%s%s", r->provider[0] ? r->provider : "?", number,
        store_id ? " of " : "", store_id ? store_id : "");
#undef ADD
    if (o >= size)
        buf[size - 1] = '\0';
    return buf;
}

char *fmt_baseline_cell(char *buf, size_t size, json_t *baseline,
                        const struct result_row *r)
{
    double then, pct;
    bool better, neutral;
    char p[16];
    if (!session_baseline_change(baseline, r, &then, &pct, &better, &neutral)) {
        snprintf(buf, size, "-");
        return buf;
    }
    fmt_pct(p, sizeof p, pct);
    if (neutral || fabs(pct) < 0.05)
        snprintf(buf, size, "%s", p);
    else
        snprintf(buf, size, "%s %s", p, better ? "better" : "worse");
    return buf;
}

char *fmt_progress_bar(char *buf, size_t size, double frac, int width, bool utf8)
{
    static const char full_u8[] = "\xe2\x96\x88", empty_u8[] = "\xe2\x96\x91";
    size_t o = 0;
    if (!size)
        return buf;
    if (width < 2) {
        buf[0] = '\0';
        return buf;
    }
    if (!(frac > 0))
        frac = 0;
    if (frac > 1)
        frac = 1;
    int inner = width - 2;
    int filled = frac >= 1 ? inner : (int)(frac * inner);
    if (o + 1 < size)
        buf[o++] = '[';
    for (int i = 0; i < inner; i++) {
        const char *s = utf8 ? (i < filled ? full_u8 : empty_u8)
                             : (i < filled ? "#" : ".");
        size_t n = strlen(s);
        if (o + n < size) {
            memcpy(buf + o, s, n);
            o += n;
        }
    }
    if (o + 1 < size)
        buf[o++] = ']';
    buf[o] = '\0';
    return buf;
}

char *fmt_bench_counts(char *buf, size_t size, size_t nbenches, size_t nrunnable)
{
    if (nbenches == 0)
        snprintf(buf, size, "no benchmarks");
    else if (nrunnable == 0)
        snprintf(buf, size, "%zu benchmark%s, reference only", nbenches,
                 nbenches == 1 ? "" : "s");
    else
        snprintf(buf, size, "%zu benchmark%s, %zu runnable", nbenches,
                 nbenches == 1 ? "" : "s", nrunnable);
    return buf;
}

const char *fmt_unit(const char *unit)
{
    return unit_display(unit);
}

const struct metric_column metric_columns[MCOL_COUNT] = {
    [MCOL_NAME]    = { "metric", 12, false },
    [MCOL_UNIT]    = { "unit", 5, false },
    [MCOL_NOW]     = { "now", 5, true },
    [MCOL_MIN]     = { "min", 5, true },
    [MCOL_MAX]     = { "max", 5, true },
    [MCOL_AVG]     = { "avg", 5, true },
    [MCOL_N]       = { "n", 2, true },
    [MCOL_REF]     = { "ref", 5, true },
    [MCOL_BAND]    = { "min-max", 9, true },
    [MCOL_DEV]     = { "deviation", 13, false },
    [MCOL_VERDICT] = { "", 4, false },
};

#define NAME_MIN 12         /* below this the band, then "now", make room */
#define NAME_FLOOR 6
#define NAME_MAX 48

static int layout_sum(const struct metric_layout *l)
{
    int sum = 0, cols = 0;
    for (int i = 0; i < MCOL_COUNT; i++)
        if (l->width[i]) {
            sum += l->width[i];
            cols++;
        }
    return sum + (cols ? cols - 1 : 0);
}

/* Widens the shown columns of `which` by one each, as many times as the
 * row still fits in cols (at most `times`): all of them or none, so the
 * numbers keep one width. */
static void widen(struct metric_layout *l, const int *which, size_t n, int times,
                  int cols)
{
    for (int t = 0; t < times; t++) {
        int shown = 0;
        for (size_t k = 0; k < n; k++)
            shown += l->width[which[k]] > 0;
        if (!shown || cols - layout_sum(l) < shown)
            return;
        for (size_t k = 0; k < n; k++)
            if (l->width[which[k]])
                l->width[which[k]]++;
    }
}

void metric_layout_make(struct metric_layout *l, int cols, int unit_w, int name_w)
{
    memset(l, 0, sizeof *l);
    for (int i = 0; i < MCOL_COUNT; i++)
        l->width[i] = metric_columns[i].width;
    if (cols < 80)
        cols = 80;
    if (unit_w < 4)
        unit_w = 4;                     /* the header */
    l->width[MCOL_UNIT] = unit_w < METRIC_UNIT_MAX ? unit_w : METRIC_UNIT_MAX;
    int want = name_w < NAME_MIN ? NAME_MIN : name_w > NAME_MAX ? NAME_MAX : name_w;
    l->width[MCOL_NAME] = 0;
    /* the unit first: what the row needs without the name */
    static const int drop[] = { MCOL_BAND, MCOL_NOW };
    for (size_t k = 0; k < ARRAY_SIZE(drop) && cols - layout_sum(l) - 1 < NAME_MIN; k++)
        l->width[drop[k]] = 0;
    int room = cols - layout_sum(l) - 1;
    l->width[MCOL_NAME] = room < NAME_FLOOR ? NAME_FLOOR : room < want ? room : want;
    /* what is left: more digits, then a longer band and count */
    static const int numbers[] = { MCOL_NOW, MCOL_MIN, MCOL_MAX, MCOL_AVG, MCOL_REF };
    static const int band[] = { MCOL_BAND }, count[] = { MCOL_N };
    widen(l, numbers, ARRAY_SIZE(numbers), 2, cols);
    widen(l, band, 1, 4, cols);
    widen(l, count, 1, 2, cols);
    int x = 0;
    for (int i = 0; i < MCOL_COUNT; i++) {
        l->x[i] = x;
        if (l->width[i])
            x += l->width[i] + 1;
    }
    l->total = layout_sum(l);
}

/* The 80-column layout of units up to 5 columns. */
static const struct metric_layout *layout_or_80(const struct metric_layout *l)
{
    static struct metric_layout l80;
    if (!l) {
        if (!l80.total)
            metric_layout_make(&l80, 80, metric_columns[MCOL_UNIT].width, 0);
        l = &l80;
    }
    return l;
}

char *fmt_unit_fit(char *buf, size_t size, const char *unit, int width)
{
    const char *u = fmt_unit(unit);
    size_t o = 0;
    if (!size)
        return buf;
    if (fmt_columns(u) <= width) {
        snprintf(buf, size, "%s", u);
        return buf;
    }
    /* the same unit always reads the same: vowels go, then it is cut */
    for (size_t i = 0; u[i] && o + 1 < size; i++)
        if (i == 0 || !strchr("aeiou", u[i]))
            buf[o++] = u[i];
    buf[o] = '\0';
    if (fmt_columns(buf) > width) {
        char tmp[64];
        snprintf(tmp, sizeof tmp, "%s", buf);
        fmt_fit(buf, size, tmp, width, false, false);
    }
    return buf;
}

static bool is_sep(char c)
{
    return c == '_' || c == '-' || c == '/' || c == ' ';
}

void metric_name_shared(const char *name, const char *const *siblings, size_t n,
                        size_t *pre, size_t *suf)
{
    size_t len = strlen(name), p = 0, q = 0;
    for (size_t i = 0; i < n; i++) {
        const char *m = siblings[i];
        if (!m || m == name || strcmp(m, name) == 0)
            continue;
        size_t mlen = strlen(m), k = 0;
        while (k < len && k < mlen && name[k] == m[k])
            k++;
        if (k > p)
            p = k;
        k = 0;
        while (k < len && k < mlen && name[len - 1 - k] == m[mlen - 1 - k])
            k++;
        if (k > q)
            q = k;
    }
    /* whole words: the prefix ends after a separator, the suffix starts at one */
    while (p > 0 && !is_sep(name[p - 1]))
        p--;
    while (q > 0 && !is_sep(name[len - q]))
        q--;
    if (p + q >= len) {
        /* one name is the other's start or end: keep the suffix out */
        q = 0;
        if (p >= len)
            p = 0;
    }
    *pre = p;
    *suf = q;
}

/* Appends bytes [from, to) of s to buf[*o..size). */
static void put_range(char *buf, size_t size, size_t *o, const char *s, size_t from,
                      size_t to, bool utf8)
{
    char tmp[256];
    size_t n = to > from ? to - from : 0;
    if (n >= sizeof tmp)
        n = sizeof tmp - 1;
    memcpy(tmp, s + from, n);
    tmp[n] = '\0';
    put_chars(buf, size, o, tmp, (int)n, utf8);
}

static void put_tilde(char *buf, size_t size, size_t *o)
{
    if (*o + 1 < size)
        buf[(*o)++] = '~';
}

char *fmt_name_fit(char *buf, size_t size, const char *name, size_t pre, size_t suf,
                   int width, bool utf8)
{
    size_t len = name ? strlen(name) : 0, o = 0;
    if (!size)
        return buf;
    if (!name || (int)len <= width || width < 3)
        return fmt_fit(buf, size, name, width, false, utf8);
    if (pre + suf >= len)
        pre = suf = 0;
    size_t d = len - pre - suf, w = (size_t)width;
    if (!pre && !suf)
        return fmt_fit_tail(buf, size, name, width, utf8);
    if (len - pre + 1 <= w) {
        /* the shared prefix loses its middle: head ~ prefix-end D S */
        size_t room = w - 1 - (len - pre), h = (room + 1) / 2, t = room - h;
        while (t > 0 && !is_sep(name[pre - t - 1])) {
            t--;
            h++;
        }
        put_range(buf, size, &o, name, 0, h, utf8);
        put_tilde(buf, size, &o);
        put_range(buf, size, &o, name, pre - t, len, utf8);
    } else if (d + 1 + (pre ? 1 : 0) <= w) {
        /* the shared suffix is cut too: head ~ D suffix-start ~ */
        size_t room = w - d - 1 - (pre ? 1 : 0), h = pre ? room / 2 : 0;
        if (h > pre)
            h = pre;
        size_t k = room - h;
        put_range(buf, size, &o, name, 0, h, utf8);
        if (pre)
            put_tilde(buf, size, &o);
        put_range(buf, size, &o, name, pre, pre + d + k, utf8);
        put_tilde(buf, size, &o);
    } else {
        /* the distinguishing part alone is too long: its end */
        char tmp[256];
        size_t n = pre + d < sizeof tmp ? pre + d : sizeof tmp - 1;
        memcpy(tmp, name, n);
        tmp[n] = '\0';
        return fmt_fit_tail(buf, size, tmp, width, utf8);
    }
    buf[o] = '\0';
    return buf;
}

void metric_cells_make(struct metric_cells *c, const struct metric_layout *l,
                       const struct result_row *row, const char *name, size_t pre,
                       size_t suf, double last, const char *board)
{
    l = layout_or_80(l);
    memset(c, 0, sizeof *c);
    if (!name)
        name = row->metric ? row->metric : "?";
    /* a name too long for its cell keeps what tells it from its siblings */
    fmt_name_fit(c->cell[MCOL_NAME], sizeof c->cell[0], name, pre, suf,
                 l->width[MCOL_NAME], true);
    fmt_unit_fit(c->cell[MCOL_UNIT], sizeof c->cell[0], row->unit, l->width[MCOL_UNIT]);
    if (row->samples) {
        fmt_value(c->cell[MCOL_NOW], sizeof c->cell[0], last, l->width[MCOL_NOW]);
        fmt_value(c->cell[MCOL_MIN], sizeof c->cell[0], row->min, l->width[MCOL_MIN]);
        fmt_value(c->cell[MCOL_MAX], sizeof c->cell[0], row->max, l->width[MCOL_MAX]);
        fmt_value(c->cell[MCOL_AVG], sizeof c->cell[0], row->avg, l->width[MCOL_AVG]);
    } else {
        for (int i = MCOL_NOW; i <= MCOL_AVG; i++)
            snprintf(c->cell[i], sizeof c->cell[0], "-");
    }
    fmt_count(c->cell[MCOL_N], sizeof c->cell[0], row->samples, l->width[MCOL_N]);

    enum direction dir = unit_direction(row->unit);
    c->directional = dir != DIR_NEUTRAL;
    c->has_ref = row->has_ref;
    if (!row->samples && row->status != STATUS_OK) {
        snprintf(c->span, sizeof c->span, "%s: %s", status_name(row->status),
                 row->error ? row->error : status_message(row->status));
        c->span_error = true;
        return;
    }
    if (!row->has_ref) {
        if (board)
            snprintf(c->span, sizeof c->span, "no reference for %s", board);
        else
            snprintf(c->span, sizeof c->span, "no reference (no board chosen)");
        return;
    }
    fmt_value(c->cell[MCOL_REF], sizeof c->cell[0], row->ref_avg, l->width[MCOL_REF]);
    fmt_band(c->cell[MCOL_BAND], sizeof c->cell[0], row->has_ref_min, row->ref_min,
             row->has_ref_max, row->ref_max, (l->width[MCOL_BAND] - 1) / 2);
    if (!c->cell[MCOL_BAND][0])
        snprintf(c->cell[MCOL_BAND], sizeof c->cell[0], "-");   /* avg only */
    if (!row->samples)
        return;
    char pct[16];
    fmt_pct(pct, sizeof pct, row->dev.pct);
    const char *w = dev_word(&row->dev, dir);
    snprintf(c->cell[MCOL_DEV], sizeof c->cell[0], "%6s%s%s", pct, w ? " " : "", w ? w : "");
    c->better = row->dev.better;
    c->verdict = row->dev.verdict;
    snprintf(c->cell[MCOL_VERDICT], sizeof c->cell[0], "%s",
             row->status != STATUS_OK ? "fail" : fmt_verdict(row->dev.verdict));
}

char *metric_row_text(char *buf, size_t size, const struct metric_layout *l,
                      const struct metric_cells *c, bool utf8)
{
    size_t o = 0;
    char cell[320];
    l = layout_or_80(l);
    if (!size)
        return buf;
    buf[0] = '\0';
    int last = c->span[0] ? MCOL_REF : MCOL_COUNT;
    for (int i = 0; i < last; i++) {
        if (!l->width[i])
            continue;
        fmt_fit(cell, sizeof cell, c->cell[i], l->width[i], metric_columns[i].right, utf8);
        o += (size_t)snprintf(buf + o, o < size ? size - o : 0, "%s%s",
                              o ? " " : "", cell);
        if (o >= size)
            return buf;
    }
    if (c->span[0]) {
        fmt_fit(cell, sizeof cell, c->span, l->total - l->x[MCOL_REF], false, utf8);
        snprintf(buf + o, size - o, " %s", cell);
    }
    return buf;
}

char *metric_header_text(char *buf, size_t size, const struct metric_layout *l,
                         enum summary compared)
{
    size_t o = 0;
    char cell[64], head[16];
    int star = compared == SUMMARY_MAX ? MCOL_MAX : compared == SUMMARY_MIN ? MCOL_MIN
             : compared == SUMMARY_MEAN ? MCOL_AVG : -1;
    l = layout_or_80(l);
    if (!size)
        return buf;
    buf[0] = '\0';
    for (int i = 0; i < MCOL_COUNT; i++) {
        if (!l->width[i])
            continue;
        snprintf(head, sizeof head, "%s%s", metric_columns[i].header, i == star ? "*" : "");
        fmt_fit(cell, sizeof cell, head, l->width[i], metric_columns[i].right, false);
        o += (size_t)snprintf(buf + o, o < size ? size - o : 0, "%s%s",
                              o ? " " : "", cell);
        if (o >= size)
            break;
    }
    return buf;
}

char *fmt_sparkline(char *buf, size_t size, const double *v, size_t n, int width)
{
    static const char levels[] = SPARK_LEVELS;
    const int nlev = (int)sizeof levels - 1;
    if (!size)
        return buf;
    width = width_in(width, size);
    size_t from = n > (size_t)width ? n - (size_t)width : 0;
    double lo = INFINITY, hi = -INFINITY;
    for (size_t i = from; i < n; i++)
        if (isfinite(v[i])) {
            lo = v[i] < lo ? v[i] : lo;
            hi = v[i] > hi ? v[i] : hi;
        }
    int o = 0;
    for (size_t i = from; i < n; i++) {
        int k;
        if (!isfinite(v[i]))
            buf[o++] = ' ';
        else if (!(hi > lo))
            buf[o++] = '-';
        else {
            k = (int)floor(unit_frac(v[i], lo, hi) * nlev);
            buf[o++] = levels[k >= nlev ? nlev - 1 : k];
        }
    }
    while (o < width)
        buf[o++] = ' ';
    buf[o] = '\0';
    return buf;
}

char *fmt_ref_bar(char *buf, size_t size, double value, double ref, bool has_min,
                  double min, bool has_max, double max, int width)
{
    if (!size)
        return buf;
    width = width_in(width, size);
    memset(buf, ' ', (size_t)width);
    buf[width] = '\0';
    int inner = width - 2;
    if (inner < 1 || !isfinite(ref))
        return buf;
    double lo = ref, hi = ref;
    double pts[] = { value, has_min ? min : NAN, has_max ? max : NAN };
    for (size_t i = 0; i < ARRAY_SIZE(pts); i++)
        if (isfinite(pts[i])) {
            lo = pts[i] < lo ? pts[i] : lo;
            hi = pts[i] > hi ? pts[i] : hi;
        }
    /* a margin either side, so no mark sits on a bracket */
    double pad = hi > lo ? (hi / 2 - lo / 2) * 0.16 : (ref ? fabs(ref) * 0.1 : 1.0);
    lo = fmax(lo - pad, -DBL_MAX);
    hi = fmin(hi + pad, DBL_MAX);
#define BAR_POS(x) ((int)lround(unit_frac((x), lo, hi) * (inner - 1)))
    char *in = buf + 1;
    memset(in, '-', (size_t)inner);
    int b0 = has_min && isfinite(min) ? BAR_POS(min) : BAR_POS(ref);
    int b1 = has_max && isfinite(max) ? BAR_POS(max) : BAR_POS(ref);
    if (has_min || has_max)
        for (int i = b0; i <= b1 && i < inner; i++)
            if (i >= 0)
                in[i] = '=';
    in[BAR_POS(ref)] = '|';
    if (isfinite(value))
        in[BAR_POS(value)] = '*';
#undef BAR_POS
    buf[0] = '[';
    buf[width - 1] = ']';
    return buf;
}

char *fmt_hints(char *buf, size_t size, const struct hint *hints,
                const struct binding *local)
{
    size_t o = 0;
    char key[24];
    if (!size)
        return buf;
    buf[0] = '\0';
    for (; hints && hints->action != ACT_NONE; hints++) {
        int k = action_first_key(local, hints->action);
        if (!k)
            continue;
        action_key_name(k, key, sizeof key);
        o += (size_t)snprintf(buf + o, o < size ? size - o : 0, "%s%s %s",
                              o ? "  " : "", key, hints->label);
        if (o >= size)
            break;
    }
    return buf;
}


size_t metric_name_skip(const struct kernel *k, const char *id)
{
    size_t klen = strlen(k->name);
    const char *common = NULL;
    size_t clen = 0;
    for (size_t i = 0; i < k->nmetrics; i++) {
        const char *m = k->metrics[i].id;
        if (strncmp(m, k->name, klen) != 0 || m[klen] != '-')
            continue;
        if (!common) {
            common = m;
            clen = strlen(m);
        } else {
            size_t n = 0;
            while (n < clen && common[n] == m[n])
                n++;
            clen = n;
        }
    }
    while (clen > klen && common[clen - 1] != '-')
        clen--;
    if (!common || clen <= klen || strncmp(id, common, clen) != 0 || !id[clen])
        return 0;
    return clen;
}
