/* engine.c - one measurement engine for every front end (engine.h). */
#include "config.h"
#include "engine/engine.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "board/sysstate.h"
#include "engine/cause.h"
#include "run/export.h"
#include "run/repeat.h"
#include "store/store.h"
#include "common/util.h"

static void say(struct engine *e, enum engine_level level, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void say(struct engine *e, enum engine_level level, const char *fmt, ...)
{
    const struct engine_hooks *h = e->cfg.hooks;
    if (!h || !h->say)
        return;
    va_list ap;
    va_start(ap, fmt);
    char *text = xvasprintf(fmt, ap);
    va_end(ap);
    h->say(e->cfg.ctx, level, text);
    free(text);
}

static const struct sink *live(const struct engine *e)
{
    return e->cfg.hooks ? e->cfg.hooks->live : NULL;
}

void engine_init(struct engine *e, const struct engine_config *cfg)
{
    memset(e, 0, sizeof *e);
    e->cfg = *cfg;
}

json_t *engine_system(struct engine *e)
{
    if (e->system)
        return e->system;
    struct app *a = e->cfg.app;
    struct diag d;
    diag_init(&d);
    e->system = sysstate_read_board(a->sysroot, a->board.family, SYSSTATE_MEASURE_S,
                                    &a->cmp.ddr_peak_mbs, &d);
    for (size_t i = 0; i < d.n; i++)
        say(e, ENGINE_WARN, "%s (no DDR peak is shown)", d.msgs[i]);
    diag_free(&d);
    return e->system;
}

/* --- the results store ------------------------------------------------------ */

/* Opens this run's file; false (said once) when it cannot. */
static bool store_open(struct engine *e)
{
    if (e->store)
        return true;
    if (!e->cfg.store_dir || !e->cfg.save || e->store_failed)
        return false;
    struct app *a = e->cfg.app;
    json_t *h = json_pack("{ss}", "version", PACKAGE_VERSION);
    if (e->cfg.mode)
        json_object_set_new(h, "mode", json_string(e->cfg.mode));
    json_object_set_new(h, "board", a->ref_board ? json_string(a->ref_board) : json_null());
    json_object_set_new(h, "board_name", a->board.name ? json_string(a->board.name)
                                                      : json_null());
    json_object_set_new(h, "quick", json_boolean(a->run_opts.params.quick));
    if (e->cfg.header)
        json_object_update(h, e->cfg.header);
    json_t *sys = engine_system(e);
    if (sys)
        json_object_set(h, "system", sys);
    struct diag d;
    diag_init(&d);
    e->store = store_begin(e->cfg.store_dir, a->ref_board ? a->ref_board : a->board.name, h,
                           &d);
    json_decref(h);
    if (e->store) {
        free(e->run_id);
        e->run_id = xstrdup(store_writer_id(e->store));
    } else {
        e->store_failed = true;
        say(e, ENGINE_WARN, "results not saved: %s", diag_last(&d));
    }
    diag_free(&d);
    return e->store != NULL;
}

/* Appends one row; on a failure what is on disk stays, marked incomplete,
 * and nothing more of this run is saved (said once). */
static void store_row(struct engine *e, json_t *row)
{
    if (!store_open(e))
        return;
    struct diag d;
    diag_init(&d);
    if (store_append(e->store, row, &d) != 0) {
        say(e, ENGINE_WARN, "results not saved: %s; the rest of this run is not saved",
            diag_last(&d));
        store_finish(e->store, false, NULL);
        e->store = NULL;
        e->store_failed = true;
    }
    diag_free(&d);
}

const char *engine_run_id(const struct engine *e)
{
    return e->run_id;
}

int engine_finish(struct engine *e, bool complete, struct diag *d)
{
    int rc = 0;
    json_t *end = complete && (e->store || e->system) ? sysstate_end(e->cfg.app->sysroot)
                                                      : NULL;
    if (end && e->system)
        sysstate_merge_end(e->system, end);
    if (e->store) {
        rc = store_finish_with(e->store, complete, end, d) != 0 ? -1 : 0;
        e->store = NULL;
    }
    json_decref(end);
    return rc;
}

void engine_free(struct engine *e)
{
    if (e->store)
        store_finish(e->store, false, NULL);
    e->store = NULL;
    batch_free(e->batch);
    e->batch = NULL;
    app_cpu_watch_free(&e->watch);
    json_decref(e->system);
    json_decref(e->baseline);
    json_decref(e->baseline_system);
    free(e->run_id);
    e->system = e->baseline = e->baseline_system = NULL;
    e->run_id = NULL;
}

bool engine_failed(const struct engine *e)
{
    return e->failed;
}

char *engine_system_change(struct engine *e)
{
    return e->baseline ? sysstate_diff(e->baseline_system, engine_system(e)) : NULL;
}

char *engine_system_summary(const struct engine *e)
{
    return e->system ? sysstate_summary(e->system) : NULL;
}

char *engine_system_words(struct engine *e)
{
    return e->baseline ? engine_system_change(e) : sysstate_summary(engine_system(e));
}

/* --- the batch ----------------------------------------------------------------- */

static void fwd_start(void *ctx, const struct run *run)
{
    struct engine *e = ctx;
    if (live(e) && live(e)->on_start)
        live(e)->on_start(e->cfg.ctx, run);
}

static void fwd_sample(void *ctx, const struct run *run, size_t m, double v)
{
    struct engine *e = ctx;
    if (live(e) && live(e)->on_sample)
        live(e)->on_sample(e->cfg.ctx, run, m, v);
}

static void fwd_progress(void *ctx, const struct run *run)
{
    struct engine *e = ctx;
    if (live(e) && live(e)->on_progress)
        live(e)->on_progress(e->cfg.ctx, run);
}

static void fwd_note(void *ctx, const struct run *run, const char *text)
{
    struct engine *e = ctx;
    if (live(e) && live(e)->on_note)
        live(e)->on_note(e->cfg.ctx, run, text);
}

static double judge_pct(const struct engine *e)
{
    double pct = e->cfg.judge_pct > 0 ? e->cfg.judge_pct : e->cfg.app->tolerance_pct;
    return pct > 0 ? pct : DEFAULT_TOLERANCE_PCT;
}

/* The baseline's row of bench and metric, NULL when it has none. */
static json_t *baseline_row(const struct engine *e, const char *bench, const char *metric)
{
    size_t i;
    json_t *b;
    json_array_foreach(e->baseline, i, b) {
        const char *bb = json_string_value(json_object_get(b, "bench"));
        const char *bm = json_string_value(json_object_get(b, "metric"));
        if (bb && bm && strcmp(bb, bench) == 0 && strcmp(bm, metric) == 0)
            return b;
    }
    return NULL;
}

/* A baseline row's values a comparison counts: its run_values (*per_run),
 * else its sample_values, else its value. */
static size_t baseline_values(json_t *b, double *out, size_t cap, bool *per_run)
{
    const char *keys[] = { "run_values", "sample_values" };
    size_t n = 0;
    for (size_t k = 0; k < ARRAY_SIZE(keys) && !n; k++) {
        json_t *x;
        size_t i;
        json_array_foreach(json_object_get(b, keys[k]), i, x)
            if (json_is_number(x) && n < cap)
                out[n++] = json_number_value(x);
        *per_run = k == 0 && n;
    }
    if (!n && cap && json_is_number(json_object_get(b, "value")))
        out[n++] = json_number_value(json_object_get(b, "value"));
    return n;
}

/* batch_repeat_fn: once more while a metric wants more samples and the
 * time allows (engine.h). */
static bool engine_repeat(void *ctx, const struct batch *b, size_t k, const struct run *acc,
                          double first_s)
{
    (void)b;
    (void)k;
    struct engine *e = ctx;
    if (first_s > ENGINE_REPEAT_CHEAP_S)
        return false;
    double spent = acc->ended - acc->started;
    if (spent + first_s > fmax(ENGINE_REPEAT_FACTOR * first_s, ENGINE_REPEAT_MIN_S))
        return false;
    double pct = judge_pct(e);
    for (size_t m = 0; m < acc->nmetrics; m++) {
        const struct run_metric *rm = &acc->metrics[m];
        if (!rm->stats.count)
            continue;
        enum direction dir = unit_direction(rm->def->unit);
        struct result_row row;
        result_row_make(&row, acc, m, &e->cfg.app->cmp);
        if (!e->baseline) {
            if (dir != DIR_NEUTRAL &&
                repeat_wants_more(NULL, 0, rm->per_run.samples, rm->per_run.count, dir, pct))
                return true;
            continue;
        }
        json_t *brow = baseline_row(e, row.bench, row.metric);
        double before[RESULT_SAMPLES_KEPT];
        bool per_run = false;
        size_t nb = brow ? baseline_values(brow, before, RESULT_SAMPLES_KEPT, &per_run) : 0;
        /* compared run against run, or (an old baseline) sample against sample */
        const struct stats *now = per_run ? &rm->per_run : &rm->stats;
        if (nb && repeat_wants_more(before, nb, now->samples, now->count, dir, pct))
            return true;
    }
    return false;
}

/* An inconclusive row: about how many samples a side, and how many more
 * seconds of this run's pace, would tell. */
static void add_to_tell(const struct engine *e, const struct run *run, json_t *row,
                        const struct result_row *r)
{
    const char *o = json_string_value(json_object_get(row, "outcome"));
    json_t *brow = baseline_row(e, r->bench, r->metric);
    if (!o || strcmp(o, "inconclusive") != 0 || !brow)
        return;
    double before[RESULT_SAMPLES_KEPT], now[RESULT_SAMPLES_KEPT];
    size_t nb, nn;
    bool per_run;
    export_compared_values(row, brow, now, &nn, before, &nb, &per_run);
    size_t need = repeat_samples_to_tell(before, nb, now, nn, unit_direction(r->unit),
                                         judge_pct(e));
    if (!need || !nn)
        return;
    json_object_set_new(row, "samples_to_tell", json_integer((json_int_t)need));
    double per = (run->ended - run->started) / (double)nn;
    if (need > nn && per > 0)
        json_object_set_new(row, "seconds_to_tell", json_real(per * (double)(need - nn)));
}

/* A run ended: each metric made into its row once, filed at once, set
 * against the baseline, and handed to the front end. */
static void file_run(void *ctx, const struct run *run)
{
    struct engine *e = ctx;
    struct engine_row *rows = xcalloc(run->nmetrics ? run->nmetrics : 1, sizeof *rows);
    for (size_t m = 0; m < run->nmetrics; m++) {
        result_row_make(&rows[m].row, run, m, &e->cfg.app->cmp);
        rows[m].json = result_row_json(&rows[m].row);
        store_row(e, rows[m].json);
        if (e->baseline) {
            json_t *one = json_array();
            json_array_append(one, rows[m].json);
            export_add_baseline(one, e->baseline, judge_pct(e));
            add_to_tell(e, run, rows[m].json, &rows[m].row);
            json_decref(one);
        }
        if (rows[m].row.status != STATUS_OK)
            e->failed = true;
    }
    const struct engine_hooks *h = e->cfg.hooks;
    if (h && h->on_rows)
        h->on_rows(e->cfg.ctx, run, rows, run->nmetrics);
    for (size_t m = 0; m < run->nmetrics; m++)
        json_decref(rows[m].json);
    free(rows);
    if (run->status != STATUS_OK)
        e->failed = true;
    if (live(e) && live(e)->on_done)
        live(e)->on_done(e->cfg.ctx, run);
}

static const struct sink engine_sink = {
    .on_start = fwd_start,
    .on_sample = fwd_sample,
    .on_progress = fwd_progress,
    .on_note = fwd_note,
    .on_done = file_run,
};

static void cpu_warnings(struct engine *e, size_t from)
{
    const struct engine_hooks *h = e->cfg.hooks;
    if (h && h->cpu_warnings && e->watch.warnings.count > from)
        h->cpu_warnings(e->cfg.ctx, &e->watch.warnings, from);
}

struct batch *engine_start(struct engine *e, const struct kernel *const *ks,
                           const struct metric_pick *picks, size_t n, const size_t *group,
                           size_t ngroups, const struct run_options *opt)
{
    batch_free(e->batch);
    e->batch = NULL;
    /* CPU-bound kernels: warn first and compare at the measured clock */
    app_cpu_watch_free(&e->watch);
    app_cpu_watch_begin(e->cfg.app, ks, n, &e->watch);
    cpu_warnings(e, 0);
    engine_system(e);
    if (e->cfg.open_at_start)
        store_open(e);
    e->batch = batch_start_picked(ks, picks, n, opt, &engine_sink, e);
    if (e->cfg.repeat)
        batch_set_repeat(e->batch, engine_repeat, e);
    if (group)
        batch_set_groups(e->batch, group, ngroups);
    return e->batch;
}

/* After the last kernel: a kernel that never started fails the run
 * (unless the batch was cancelled); the throttling seen meanwhile. */
static void batch_ended(struct engine *e)
{
    for (size_t i = 0; !e->batch->cancelled && i < e->batch->n; i++)
        if (!e->batch->runs[i])
            e->failed = true;
    struct cpu_watch *w = &e->watch;
    if (!w->active || w->ended)
        return;
    size_t had = w->warnings.count;
    app_cpu_watch_end(e->cfg.app, w);
    cpu_warnings(e, had);
}

bool engine_pump(struct engine *e)
{
    if (!e->batch || batch_done(e->batch))
        return false;
    batch_pump(e->batch);
    if (batch_done(e->batch))
        batch_ended(e);
    return !batch_done(e->batch);
}

void engine_wait(struct engine *e)
{
    if (!e->batch)
        return;
    batch_wait(e->batch, -1);
    batch_ended(e);
}

struct batch *engine_batch(const struct engine *e)
{
    return e->batch;
}

struct batch *engine_take_batch(struct engine *e)
{
    struct batch *b = e->batch;
    e->batch = NULL;
    return b;
}

/* --- baselines ------------------------------------------------------------------ */

#define NO_STORE "no results store: set --results-dir, XDG_DATA_HOME or HOME"

bool engine_set_baseline(struct engine *e, const char *name, struct diag *d)
{
    json_decref(e->baseline);
    json_decref(e->baseline_system);
    e->baseline = e->baseline_system = NULL;
    e->baseline_name[0] = '\0';
    if (!name)
        return true;
    if (!e->cfg.store_dir) {
        diag_add(d, "%s", NO_STORE);
        return false;
    }
    e->baseline = store_load_baseline(e->cfg.store_dir, name, d);
    if (!e->baseline)
        return false;
    snprintf(e->baseline_name, sizeof e->baseline_name, "%s", name);
    /* now: "latest" is this run's own file once it is written */
    e->baseline_system = sysstate_from_store(store_load_system(e->cfg.store_dir, name));
    return true;
}

json_t *engine_baseline(const struct engine *e, const char **name)
{
    if (name)
        *name = e->baseline ? e->baseline_name : NULL;
    return e->baseline;
}

json_t *engine_baseline_system(const struct engine *e)
{
    return e->baseline ? e->baseline_system : NULL;
}

char *engine_baseline_existing(const struct engine *e, const char *name)
{
    return e->cfg.store_dir ? store_baseline_existing(e->cfg.store_dir, name) : NULL;
}

bool engine_baseline_exists(const struct engine *e, const char *name, size_t *rows)
{
    const char *dir = e->cfg.store_dir;
    if (!dir || !store_baseline_name_ok(name))
        return false;
    char *path = xasprintf("%s/baselines/%s.json", dir, name);
    bool there = access(path, F_OK) == 0;
    free(path);
    if (there && rows) {
        struct diag d;
        diag_init(&d);
        json_t *b = store_load_baseline(dir, name, &d);
        *rows = json_array_size(b);
        json_decref(b);
        diag_free(&d);
    }
    return there;
}

/* The rows as measured: without the comparison with a baseline and the
 * verdict of --fail-on-deviation. */
static json_t *rows_as_measured(json_t *rows)
{
    json_t *out = json_deep_copy(rows);
    size_t i;
    json_t *row;
    json_array_foreach(out, i, row) {
        json_object_del(row, "baseline_value");
        static const char *const compared[] = {
            "baseline_samples", "baseline_runs", "compared", "compared_n",
            "baseline_compared_n", "change_pct", "change_low", "change_high", "outcome",
            "outcome_pct", "samples_to_tell", "seconds_to_tell",
        };
        for (size_t k = 0; k < ARRAY_SIZE(compared); k++)
            json_object_del(row, compared[k]);
        json_object_del(row, "fail");
        json_object_del(row, "explained_by");
    }
    return out;
}

bool engine_save_baseline(struct engine *e, const char *name, json_t *rows, bool replace,
                          struct diag *d)
{
    if (!e->cfg.store_dir) {
        diag_add(d, "%s", NO_STORE);
        return false;
    }
    json_t *measured = rows_as_measured(rows);
    bool ok = store_save_baseline(e->cfg.store_dir, name, e->run_id, measured, replace, d) == 0;
    json_decref(measured);
    return ok;
}

/* --- the verdict and the exit status -------------------------------------------------- */

void engine_explain(struct engine *e, json_t *rows)
{
    if (!e->baseline)
        return;
    struct sysstate_change c;
    sysstate_changes(e->baseline_system, engine_system(e), &c);
    cause_explain(rows, &c);
    sysstate_change_free(&c);
}

void engine_judge(struct engine *e, json_t *rows, double pct, struct check_verdict *v)
{
    json_t *judged = json_deep_copy(rows);
    if (e->baseline) {
        export_add_baseline(judged, e->baseline, pct);
        engine_explain(e, judged);
    }
    check_judge(v, judged, e->baseline ? e->baseline_name : NULL, pct);
    json_decref(judged);
}

int engine_exit_status(const struct engine_outcome *o)
{
    if (o->bench_failed)
        return 3;
    if (o->output_status)
        return o->output_status;
    if (o->fail_on_deviation && o->verdict && o->verdict->worse > 0)
        return 1;
    return 0;
}
