/* format_check.c - the check's table against a baseline (format_check.h). */
#include "config.h"
#include "screens/format_check.h"
#include "screens/format.h"
#include "screens/format_impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/units.h"
#include "run/check.h"
#include "run/export.h"

#define CHK_UNIT_MIN 4
#define CHK_UNIT_MAX 11
#define CHK_NUM_W 7
#define CHK_CHANGE_W 19
#define CHK_WORD_W 12
#define CHK_NAME_MIN 12
#define CHK_NAME_MAX 48

static const char *str_or_null(json_t *row, const char *key)
{
    return json_string_value(json_object_get(row, key));
}

static bool num_at(json_t *row, const char *key, double *v)
{
    json_t *j = json_object_get(row, key);
    if (!json_is_number(j))
        return false;
    *v = json_number_value(j);
    return true;
}

/* The row's verdict by the check's own rule: check_judge on it alone. */
static void judge_alone(struct check_row *r, json_t *row, double pct)
{
    json_t *one = json_array();
    json_array_append(one, row);
    struct check_verdict v;
    check_judge(&v, one, "baseline", pct);
    r->word = v.not_run ? CHECK_WORD_FAILED
            : v.worse ? CHECK_WORD_WORSE
            : v.unclear ? CHECK_WORD_UNCLEAR
            : v.better ? CHECK_WORD_BETTER
            : v.judged ? CHECK_WORD_WITHIN : CHECK_WORD_UNJUDGED;
    r->loaded = v.nmoves && v.moves[0].loaded;
    r->beyond = !v.nmoves ? 0 : v.moves[0].outcome != OUTCOME_NONE ? fabs(v.moves[0].change.pct)
              : v.moves[0].pct;
    check_free(&v);
    json_decref(one);
}

/* How much worse the change is: > 0 worse, < 0 better, 0 unknown. */
static double worseness(const struct check_row *r)
{
    if (!r->has_change || r->neutral)
        return 0;
    return r->better ? -fabs(r->change_pct) : fabs(r->change_pct);
}

struct ranked {
    struct check_row row;
    size_t index;
};

static int rank_order(const void *pa, const void *pb)
{
    const struct ranked *a = pa, *b = pb;
    if (a->row.word != b->row.word)
        return a->row.word < b->row.word ? -1 : 1;
    double ka = 0, kb = 0;
    switch (a->row.word) {
    case CHECK_WORD_WORSE:
    case CHECK_WORD_UNCLEAR:
        ka = -a->row.beyond, kb = -b->row.beyond;
        break;
    case CHECK_WORD_BETTER:
        ka = a->row.beyond, kb = b->row.beyond;
        break;
    case CHECK_WORD_WITHIN:
        ka = -worseness(&a->row), kb = -worseness(&b->row);
        break;
    case CHECK_WORD_FAILED:
    case CHECK_WORD_UNJUDGED:
        break;
    }
    if (ka != kb)
        return ka < kb ? -1 : 1;
    return a->index < b->index ? -1 : a->index > b->index ? 1 : 0;
}

size_t check_table_rows(json_t *rows, double pct, struct check_row **out)
{
    size_t n = json_array_size(rows), i;
    struct ranked *rk = xcalloc(n ? n : 1, sizeof *rk);
    json_t *row;
    json_array_foreach(rows, i, row) {
        struct check_row *r = &rk[i].row;
        rk[i].index = i;
        r->bench = str_or_null(row, "bench");
        r->metric = str_or_null(row, "metric");
        r->unit = str_or_null(row, "unit");
        r->status = str_or_null(row, "status");
        r->error = str_or_null(row, "error");
        r->has_now = num_at(row, "value", &r->now);
        r->has_then = num_at(row, "baseline_value", &r->then);
        r->other_cpu_pct = NAN;
        num_at(row, "other_cpu_pct", &r->other_cpu_pct);
        struct change c;
        r->has_change = export_row_change(row, &c);
        r->change_pct = c.pct;
        r->has_interval = c.has_interval;
        r->change_low = c.low;
        r->change_high = c.high;
        r->samples = c.n_now;
        r->baseline_samples = c.n_before;
        r->per_run = c.per_run;
        enum direction dir = unit_direction(r->unit);
        r->neutral = dir == DIR_NEUTRAL;
        r->better = dir == DIR_HIGHER_BETTER ? c.pct > 0 : c.pct < 0;
        judge_alone(r, row, pct);
    }
    if (n)
        qsort(rk, n, sizeof *rk, rank_order);
    *out = xcalloc(n ? n : 1, sizeof **out);
    for (i = 0; i < n; i++)
        (*out)[i] = rk[i].row;
    free(rk);
    return n;
}

const char *check_word_name(enum check_word w)
{
    switch (w) {
    case CHECK_WORD_FAILED:
        return "failed";
    case CHECK_WORD_WORSE:
        return "slower";
    case CHECK_WORD_UNCLEAR:
        return "inconclusive";
    case CHECK_WORD_WITHIN:
        return "unchanged";
    case CHECK_WORD_BETTER:
        return "faster";
    case CHECK_WORD_UNJUDGED:
        break;
    }
    return "-";
}

char *fmt_check_change(char *buf, size_t size, const struct check_row *r)
{
    if (!r->has_change)
        snprintf(buf, size, "-");
    else if (r->has_interval)
        snprintf(buf, size, "%+.1f [%+.1f,%+.1f]", r->change_pct, r->change_low, r->change_high);
    else
        snprintf(buf, size, "%+.1f", r->change_pct);
    return buf;
}

void fmt_check_layout(struct check_layout *l, int width, int unit_w)
{
    memset(l, 0, sizeof *l);
    l->width = width;
    l->unit = unit_w < CHK_UNIT_MIN ? CHK_UNIT_MIN : unit_w > CHK_UNIT_MAX ? CHK_UNIT_MAX : unit_w;
    l->num = CHK_NUM_W;
    l->change = CHK_CHANGE_W;
    l->word = CHK_WORD_W;
    /* the columns after the name, each with the space before it */
    int fixed = 1 + l->unit + 2 * (1 + l->num) + 1 + l->change + 1 + l->word;
    l->name = width - fixed;
    if (l->name > CHK_NAME_MAX)
        l->name = CHK_NAME_MAX;
    if (l->name < CHK_NAME_MIN)
        l->name = CHK_NAME_MIN;
}


static void trim(char *buf, size_t o)
{
    while (o && buf[o - 1] == ' ')
        buf[--o] = '\0';
}

char *fmt_check_header(char *buf, size_t size, const struct check_layout *l)
{
    size_t o = 0;
    if (!size)
        return buf;
    buf[0] = '\0';
    fmt_put_cell(buf, size, &o, "metric", l->name, false, false);
    fmt_put_cell(buf, size, &o, "unit", l->unit, false, false);
    fmt_put_cell(buf, size, &o, "was", l->num, true, false);
    fmt_put_cell(buf, size, &o, "now", l->num, true, false);
    fmt_put_cell(buf, size, &o, "change % [95%]", l->change, false, false);
    fmt_put_cell(buf, size, &o, "outcome", l->word, false, false);
    trim(buf, o);
    return buf;
}

char *fmt_check_line(char *buf, size_t size, const struct check_layout *l,
                     const struct check_row *r, bool utf8)
{
    char id[160], name[160], was[16], now[16], change[32];
    size_t o = 0;
    if (!size)
        return buf;
    buf[0] = '\0';
    snprintf(id, sizeof id, "%s %s", r->bench ? r->bench : "?", r->metric ? r->metric : "?");
    fmt_fit_tail(name, sizeof name, id, l->name, utf8);
    fmt_put_cell(buf, size, &o, name, l->name, false, utf8);
    fmt_put_cell(buf, size, &o, fmt_unit(r->unit), l->unit, false, utf8);
    if (r->word == CHECK_WORD_FAILED && !r->has_now) {
        /* a failure: its reason in the room of the numbers */
        char why[320];
        snprintf(why, sizeof why, "%s: %s", r->status ? r->status : "failed",
                 r->error ? r->error : "no reason given");
        fmt_put_cell(buf, size, &o, why, 2 * (1 + l->num) + 1 + l->change - 1, false, utf8);
    } else {
        fmt_value(was, sizeof was, r->has_then ? r->then : NAN, l->num);
        fmt_value(now, sizeof now, r->has_now ? r->now : NAN, l->num);
        fmt_put_cell(buf, size, &o, was, l->num, true, utf8);
        fmt_put_cell(buf, size, &o, now, l->num, true, utf8);
        fmt_put_cell(buf, size, &o, fmt_check_change(change, sizeof change, r), l->change, false,
                 utf8);
    }
    fmt_put_cell(buf, size, &o, check_word_name(r->word), l->word, false, utf8);
    trim(buf, o);
    return buf;
}

void fmt_check_sentence(struct strbuf *sb, const struct check_row *r, double pct)
{
    const char *unit = fmt_unit(r->unit);
    sb_addf(sb, "%s %s: ", r->bench ? r->bench : "?", r->metric ? r->metric : "?");
    if (r->word == CHECK_WORD_FAILED) {
        sb_addf(sb, "%s: %s (did not run to the end)", r->status ? r->status : "failed",
                r->error ? r->error : "no reason given");
        return;
    }
    if (r->has_now)
        sb_addf(sb, "%.6g %s", r->now, unit);
    else
        sb_add(sb, "no value");
    if (r->has_then)
        sb_addf(sb, ", was %.6g", r->then);
    if (r->has_change) {
        sb_addf(sb, ": %+.1f%%", r->change_pct);
        if (r->has_interval)
            sb_addf(sb, " (%+.1f .. %+.1f at 95%%)", r->change_low, r->change_high);
        sb_addf(sb, ", %zu %s%s against %zu", r->samples, r->per_run ? "run" : "sample",
                r->samples == 1 ? "" : "s", r->baseline_samples);
    }
    switch (r->word) {
    case CHECK_WORD_WORSE:
        sb_addf(sb, ": slower than before by more than %g%%", pct);
        break;
    case CHECK_WORD_UNCLEAR:
        if (r->loaded)
            sb_addf(sb, ": slower, but other processes took %.0f%% of the worker's core "
                    "meanwhile, which can explain it: could not tell", r->other_cpu_pct);
        else if (!r->has_interval)
            sb_add(sb, ": too few samples to tell");
        else
            sb_addf(sb, ": could not tell at %g%% (the interval reaches across it)", pct);
        break;
    case CHECK_WORD_BETTER:
        sb_add(sb, ": faster than before");
        break;
    case CHECK_WORD_WITHIN:
        if (r->has_interval && (r->change_low > 0 || r->change_high < 0))
            sb_addf(sb, ": a small, real change, within %g%% of before", pct);
        else
            sb_addf(sb, ": unchanged, within %g%% of before", pct);
        break;
    case CHECK_WORD_UNJUDGED:
        sb_add(sb, r->has_then ? ", not judged (a unit without a better direction)"
                               : ", not judged (no value in the baseline)");
        break;
    case CHECK_WORD_FAILED:
        break;
    }
}

void fmt_verdict_counts(char *buf, size_t size, const struct session_row *rs, size_t n)
{
    size_t in = 0, warn = 0, off = 0, better = 0, failed = 0, none = 0;
    for (size_t i = 0; i < n; i++) {
        const struct result_row *r = &rs[i].row;
        if (r->status != STATUS_OK)
            failed++;
        else if (r->dev.verdict == VERDICT_IN_RANGE)
            in++;
        else if (r->dev.verdict == VERDICT_WARN)
            warn++;
        else if (r->dev.verdict == VERDICT_OFF)
            off++;
        else if (r->dev.verdict == VERDICT_BETTER)
            better++;
        else
            none++;
    }
    int o = snprintf(buf, size, "%zu metric%s: %zu in range, %zu warn, %zu off", n,
                     n == 1 ? "" : "s", in, warn, off);
    if (better && o > 0 && (size_t)o < size)
        o += snprintf(buf + o, size - (size_t)o, ", %zu better", better);
    if (failed && o > 0 && (size_t)o < size)
        o += snprintf(buf + o, size - (size_t)o, ", %zu failed", failed);
    if (none && o > 0 && (size_t)o < size)
        snprintf(buf + o, size - (size_t)o, ", %zu no reference", none);
}
