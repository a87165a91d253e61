/* format.c - text formatting for the screens, without a terminal
 * (format.h): fitting and wrapping text in columns, numbers, counts,
 * bands, deviations, durations, bars, sparklines and key hints. The
 * results table: format_results.c; the live metric table:
 * format_metric.c. */
#include "config.h"
#include "screens/format.h"
#include "screens/format_impl.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

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

void fmt_put_chars(char *buf, size_t size, size_t *o, const char *s, int cols,
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
            fmt_put_chars(buf, size, &o, s, width - 1, utf8);
            if (o + 1 < size)
                buf[o++] = '~';
        }
    } else {
        if (right_align)
            put_spaces(buf, size, &o, width - cols);
        fmt_put_chars(buf, size, &o, s, cols, utf8);
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
    fmt_put_chars(buf, size, &o, s, width - 1, utf8);
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
    fmt_put_chars(buf, size, &o, s, cols, utf8);
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

void fmt_pct(char *buf, size_t size, double pct)
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

const char *fmt_dev_word(const struct deviation *d, enum direction dir)
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
    const char *w = fmt_dev_word(d, dir);
    snprintf(buf, size, "%s%s%s", pct, w ? " " : "", w ? w : "");
    return buf;
}

const char *fmt_verdict(enum verdict v)
{
    switch (v) {
    case VERDICT_IN_RANGE: return "in";
    case VERDICT_WARN: return "warn";
    case VERDICT_OFF: return "off";
    case VERDICT_BETTER: return "best";
    case VERDICT_NONE:
    case VERDICT_COUNT: break;
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
