/* session.c - the results of this program run. */
#include "config.h"
#include "run/session.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "run/deviation.h"
#include "common/util.h"

void session_init(struct session *s)
{
    memset(s, 0, sizeof *s);
}

static bool measured_any(const struct batch *b)
{
    for (size_t i = 0; i < b->n; i++)
        for (size_t k = 0; b->runs[i] && k < b->runs[i]->nmetrics; k++)
            if (b->runs[i]->metrics[k].stats.count || b->runs[i]->metrics[k].failed)
                return true;
    return false;
}

static void free_keep(char **keep, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(keep[i]);
    free(keep);
}

void session_keep(struct session *s, struct session_batch *sb)
{
    if (!sb)
        return;
    struct batch *b = sb->batch;
    if (b)
        batch_cancel(b);    /* synchronous: the worker is reaped */
    if (!b || !measured_any(b)) {
        batch_free(b);
        free_keep(sb->keep, sb->nkeep);
        return;
    }
    if (s->n == SESSION_MAX_BATCHES) {
        /* a demo left running for days: forget the oldest */
        batch_free(s->batches[0].batch);
        free_keep(s->batches[0].keep, s->batches[0].nkeep);
        memmove(s->batches, s->batches + 1, (s->n - 1) * sizeof *s->batches);
        s->n--;
    }
    xgrow(&s->batches, &s->cap, s->n + 1, sizeof *s->batches);
    s->batches[s->n++] = *sb;
}

void session_free(struct session *s)
{
    for (size_t i = 0; i < s->n; i++) {
        batch_free(s->batches[i].batch);
        free_keep(s->batches[i].keep, s->batches[i].nkeep);
    }
    free(s->batches);
    memset(s, 0, sizeof *s);
}

bool session_batch_shows(const struct session_batch *sb, const char *metric)
{
    if (!sb->nkeep)
        return true;
    for (size_t i = 0; i < sb->nkeep; i++)
        if (metric && strcmp(sb->keep[i], metric) == 0)
            return true;
    return false;
}

bool session_row_problem(const struct result_row *r)
{
    return r->status != STATUS_OK || r->dev.verdict == VERDICT_WARN ||
           r->dev.verdict == VERDICT_OFF;
}

static enum session_state row_state(const struct run *run, const struct result_row *r)
{
    if (!run->finished)
        return SESSION_RUNNING;
    return r->status == STATUS_CANCELLED ? SESSION_CANCELLED : SESSION_DONE;
}

static void add_batch(const struct session_batch *sb, const struct compare *cmp,
                      struct session_row **out, size_t *n, size_t *cap, size_t *seq)
{
    const struct batch *b = sb ? sb->batch : NULL;
    for (size_t i = 0; b && i < b->n; i++) {
        const struct run *run = b->runs[i];
        for (size_t k = 0; run && k < run->nmetrics; k++) {
            if (!run->metrics[k].stats.count && !run->metrics[k].failed)
                continue;
            if (!session_batch_shows(sb, run->metrics[k].def->id))
                continue;
            struct session_row r = { .run = run, .metric = k, .seq = ++*seq,
                                     .number = sb->number };
            result_row_make(&r.row, run, k, cmp);
            r.state = row_state(run, &r.row);
            xgrow(out, cap, *n + 1, sizeof **out);
            (*out)[(*n)++] = r;
        }
    }
}

static int cmp_str(const char *a, const char *b)
{
    return strcmp(a ? a : "", b ? b : "");
}

/* Orders rows by benchmark and metric, the newest first. */
static int by_metric_newest(const void *pa, const void *pb)
{
    const struct session_row *a = *(const struct session_row *const *)pa,
                             *b = *(const struct session_row *const *)pb;
    int c = cmp_str(a->row.bench, b->row.bench);
    if (!c)
        c = cmp_str(a->row.metric, b->row.metric);
    return c ? c : (a->seq < b->seq) - (a->seq > b->seq);
}

/* Every row measured, in order, each marked latest or not. */
static size_t all_rows(const struct session *s, const struct session_batch *live,
                       const struct compare *cmp, struct session_row **out)
{
    size_t n = 0, cap = 0, seq = 0;
    *out = NULL;
    for (size_t i = 0; s && i < s->n; i++)
        add_batch(&s->batches[i], cmp, out, &n, &cap, &seq);
    add_batch(live, cmp, out, &n, &cap, &seq);
    if (!n)
        return 0;
    /* per metric, the newest value of a run that ended and was not
     * cancelled */
    struct session_row **by = xcalloc(n, sizeof *by);
    for (size_t i = 0; i < n; i++)
        by[i] = &(*out)[i];
    qsort(by, n, sizeof *by, by_metric_newest);
    bool found = false;
    for (size_t i = 0; i < n; i++) {
        if (i && (cmp_str(by[i]->row.bench, by[i - 1]->row.bench) ||
                  cmp_str(by[i]->row.metric, by[i - 1]->row.metric)))
            found = false;
        if (!found && by[i]->state == SESSION_DONE)
            found = by[i]->latest = true;
    }
    free(by);
    return n;
}

size_t session_rows(const struct session *s, const struct session_batch *live,
                    const struct compare *cmp, unsigned flags,
                    struct session_row **out)
{
    size_t n = all_rows(s, live, cmp, out), kept = 0;
    for (size_t i = 0; i < n; i++) {
        struct session_row *r = &(*out)[i];
        if (!(flags & SESSION_ALL) && !r->latest)
            continue;
        if ((flags & SESSION_PROBLEMS) && !session_row_problem(&r->row))
            continue;
        (*out)[kept++] = *r;
    }
    if (!*out)
        *out = xcalloc(1, sizeof **out);
    return kept;
}

size_t session_rows_hidden(const struct session *s, const struct session_batch *live,
                           const struct compare *cmp)
{
    struct session_row *rs;
    size_t n = all_rows(s, live, cmp, &rs), hidden = 0;
    for (size_t i = 0; i < n; i++)
        hidden += !rs[i].latest;
    free(rs);
    return hidden;
}

const char *session_sort_name(enum session_sort key)
{
    static const char *const names[SESSION_SORT_COUNT] = {
        "order", "name", "deviation", "status", "provider",
    };
    return (unsigned)key < SESSION_SORT_COUNT ? names[key] : "order";
}

/* Lower is more urgent. */
static int status_rank(const struct result_row *r)
{
    if (r->status != STATUS_OK)
        return 0;
    switch (r->dev.verdict) {
    case VERDICT_OFF: return 1;
    case VERDICT_WARN: return 2;
    case VERDICT_IN_RANGE: return 3;
    case VERDICT_BETTER: return 4;
    case VERDICT_NONE:
    case VERDICT_COUNT: break;
    }
    return 5;
}

/* How far the row is on the bad side, in %: worse deviations positive. */
static double badness(const struct result_row *r)
{
    if (!r->dev.has_ref || !isfinite(r->dev.pct))
        return -INFINITY;
    double a = fabs(r->dev.pct);
    return r->dev.better ? -a : a;
}

static enum session_sort sort_key;

static int compare_rows(const void *pa, const void *pb)
{
    const struct session_row *a = pa, *b = pb;
    int c = 0;
    switch (sort_key) {
    case SESSION_SORT_NAME:
        c = cmp_str(a->row.bench, b->row.bench);
        if (!c)
            c = cmp_str(a->row.metric, b->row.metric);
        break;
    case SESSION_SORT_DEVIATION: {
        int ra = status_rank(&a->row), rb = status_rank(&b->row);
        c = ra < 1 || rb < 1 ? (ra > rb) - (ra < rb) : 0;
        if (!c) {
            double x = badness(&a->row), y = badness(&b->row);
            c = (x < y) - (x > y);
        }
        break;
    }
    case SESSION_SORT_STATUS: {
        int ra = status_rank(&a->row), rb = status_rank(&b->row);
        c = (ra > rb) - (ra < rb);
        break;
    }
    case SESSION_SORT_PROVIDER:
        c = cmp_str(a->row.provider, b->row.provider);
        break;
    case SESSION_SORT_ORDER:
    case SESSION_SORT_COUNT:
        break;
    }
    /* ties keep the order measured: the sort is stable */
    return c ? c : (a->seq > b->seq) - (a->seq < b->seq);
}

void session_sort(struct session_row *rows, size_t n, enum session_sort key)
{
    sort_key = key;
    if (n)
        qsort(rows, n, sizeof *rows, compare_rows);
}

/* --- baselines ------------------------------------------------------------ */

static const char *str_member(json_t *o, const char *key)
{
    const char *v = json_string_value(json_object_get(o, key));
    return v ? v : "";
}

bool session_baseline_change(json_t *baseline, const struct result_row *r,
                             double *then, double *pct, bool *better, bool *neutral)
{
    size_t i;
    json_t *b;
    if (!json_is_array(baseline) || !r->samples || !r->bench || !r->metric)
        return false;
    json_array_foreach(baseline, i, b) {
        json_t *v = json_object_get(b, "value");
        if (strcmp(str_member(b, "bench"), r->bench) != 0 ||
            strcmp(str_member(b, "metric"), r->metric) != 0 || !json_is_number(v))
            continue;
        double old = json_number_value(v);
        if (old == 0 || !isfinite(old))
            return false;
        enum direction dir = unit_direction(r->unit);
        *then = old;
        *pct = (r->value - old) / fabs(old) * 100.0;
        *neutral = dir == DIR_NEUTRAL;
        *better = dir == DIR_HIGHER_BETTER ? *pct >= 0 : dir == DIR_LOWER_BETTER && *pct <= 0;
        return true;
    }
    return false;
}

json_t *session_rows_json(const struct session_row *rows, size_t n)
{
    json_t *a = json_array();
    for (size_t i = 0; i < n; i++)
        json_array_append_new(a, result_row_json(&rows[i].row));
    return a;
}
