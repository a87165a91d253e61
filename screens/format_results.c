/* format_results.c - the results screen's table (format.h): its columns
 * sized from the line's width, the header, each row, the status and
 * baseline cells, and the sentence about one row below the table. */
#include "config.h"
#include "screens/format.h"
#include "screens/format_impl.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "run/session.h"
#include "common/units.h"
#include "common/util.h"

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
void fmt_put_cell(char *buf, size_t size, size_t *o, const char *text, int w, bool right,
                  bool utf8)
{
    char cell[340];
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
    fmt_put_cell(buf, size, &o, "metric", l->name, false, false);
    fmt_put_cell(buf, size, &o, "unit", l->unit, false, false);
    fmt_put_cell(buf, size, &o, "value", l->num, true, false);
    fmt_put_cell(buf, size, &o, "min", l->minmax, true, false);
    fmt_put_cell(buf, size, &o, "max", l->minmax, true, false);
    fmt_put_cell(buf, size, &o, "n", l->samples, true, false);
    fmt_put_cell(buf, size, &o, "ref", l->num, true, false);
    fmt_put_cell(buf, size, &o, "band", l->band, true, false);
    fmt_put_cell(buf, size, &o, "deviation", l->dev, false, false);
    fmt_put_cell(buf, size, &o, "status", l->status, false, false);
    fmt_put_cell(buf, size, &o, "run", l->run, false, false);
    snprintf(last, sizeof last, "vs %s", baseline ? baseline : "");
    fmt_put_cell(buf, size, &o, l->baseline ? last : "provider", l->last, false, false);
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
    fmt_put_cell(buf, size, &o, name, l->name, false, utf8);
    fmt_put_cell(buf, size, &o, fmt_unit(r->unit), l->unit, false, utf8);
    snprintf(run, sizeof run, "#%zu", number);
    if (!r->samples && r->status != STATUS_OK) {
        /* a failure: its reason in the room of the numbers */
        char why[320];
        snprintf(why, sizeof why, "%s: %s", status_name(r->status),
                 r->error ? r->error : status_message(r->status));
        int w = l->width - (int)o - 1 - l->run - 1 - (l->last ? l->last + 1 : 0);
        fmt_put_cell(buf, size, &o, why, w, false, utf8);
        fmt_put_cell(buf, size, &o, run, l->run, false, utf8);
        fmt_put_cell(buf, size, &o, "", l->last, false, utf8);
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
    fmt_put_cell(buf, size, &o, val, l->num, true, utf8);
    fmt_put_cell(buf, size, &o, mn, l->minmax, true, utf8);
    fmt_put_cell(buf, size, &o, mx, l->minmax, true, utf8);
    fmt_put_cell(buf, size, &o, n, l->samples, true, utf8);
    fmt_put_cell(buf, size, &o, ref, l->num, true, utf8);
    fmt_put_cell(buf, size, &o, band, l->band, true, utf8);
    fmt_put_cell(buf, size, &o, dev, l->dev, false, utf8);
    fmt_put_cell(buf, size, &o, fmt_result_status(r, state), l->status, false, utf8);
    fmt_put_cell(buf, size, &o, run, l->run, false, utf8);
    /* with a baseline, its change takes the provider's place */
    if (l->baseline)
        fmt_baseline_cell(last, sizeof last, baseline, r);
    else
        snprintf(last, sizeof last, "%s", r->provider);
    fmt_put_cell(buf, size, &o, last, l->last, false, utf8);
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
