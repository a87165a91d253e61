/* format_metric.c - the live screen's metric table (format.h): the
 * layout of its columns, units and names fitted to their cells (a long
 * name keeps what tells it from its siblings), the cells of a row, the
 * row and header lines. */
#include "config.h"
#include "screens/format.h"
#include "screens/format_impl.h"

#include <stdio.h>
#include <string.h>

#include "common/units.h"
#include "common/util.h"

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
    fmt_put_chars(buf, size, o, tmp, (int)n, utf8);
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

/* The name kept at both ends, '~' for its middle (ASCII names only;
 * others keep their end). */
static void fit_ends(char *buf, size_t size, const char *name, int width, bool utf8)
{
    size_t len = strlen(name), o = 0;
    bool ascii = true;
    for (size_t i = 0; i < len; i++)
        ascii &= (unsigned char)name[i] < 0x80;
    if ((int)len <= width || width < 3 || !ascii) {
        fmt_fit_tail(buf, size, name, width, utf8);
        return;
    }
    size_t keep = (size_t)width - 1, h = keep / 2;
    put_range(buf, size, &o, name, 0, h, utf8);
    put_tilde(buf, size, &o);
    put_range(buf, size, &o, name, len - (keep - h), len, utf8);
    buf[o] = '\0';
}

/* Name i in the form of try `level` (0 .. 3, fmt_names_fit). */
static void fit_try(char *buf, const char *const *names, size_t n, size_t i, int level,
                    int width, bool utf8)
{
    size_t pre, suf;
    switch (level) {
    case 0:
        metric_name_shared(names[i], names, n, &pre, &suf);
        fmt_name_fit(buf, FMT_NAME_CELL, names[i], pre, suf, width, utf8);
        break;
    case 1:
        fmt_fit_tail(buf, FMT_NAME_CELL, names[i], width, utf8);
        break;
    case 2:
        fit_ends(buf, FMT_NAME_CELL, names[i], width, utf8);
        break;
    default:
        fmt_fit(buf, FMT_NAME_CELL, names[i], width, false, utf8);
        break;
    }
}

void fmt_names_fit(const char *const *names, size_t n, int width, bool utf8,
                   char (*out)[FMT_NAME_CELL])
{
    int *level = xcalloc(n ? n : 1, sizeof *level);
    bool *clash = xcalloc(n ? n : 1, sizeof *clash);
    for (size_t i = 0; i < n; i++)
        fit_try(out[i], names, n, i, 0, width, utf8);
    for (int round = 0; round < 3; round++) {
        bool any = false;
        memset(clash, 0, n * sizeof *clash);
        for (size_t i = 0; i < n; i++)
            for (size_t j = i + 1; j < n; j++)
                if (strcmp(out[i], out[j]) == 0 && strcmp(names[i], names[j]) != 0)
                    clash[i] = clash[j] = any = true;
        if (!any)
            break;
        for (size_t i = 0; i < n; i++)
            if (clash[i] && level[i] < 3)
                fit_try(out[i], names, n, i, ++level[i], width, utf8);
    }
    free(clash);
    free(level);
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
    const char *w = fmt_dev_word(&row->dev, dir);
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
