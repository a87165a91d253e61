/* job.c - the live batch, the session, the results store and the baseline
 * of the TUI, without a terminal (job.h). */
#include "config.h"
#include "screens/job.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/stopsig.h"
#include "run/profile_run.h"
#include "common/util.h"

static void say(struct job *j, enum job_level level, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void say(struct job *j, enum job_level level, const char *fmt, ...)
{
    char text[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    if (j->hooks && j->hooks->say)
        j->hooks->say(j->ctx, level, text);
}

static void event(struct job *j, enum job_event e)
{
    if (j->hooks && j->hooks->event)
        j->hooks->event(j->ctx, e);
}

static const struct engine_hooks job_engine_hooks;

void job_init(struct job *j, struct app *a, const char *results_dir, bool save,
              const struct job_hooks *hooks, void *ctx)
{
    memset(j, 0, sizeof *j);
    j->app = a;
    j->results_dir = results_dir;
    j->hooks = hooks;
    j->ctx = ctx;
    session_init(&j->session);
    engine_init(&j->engine, &(struct engine_config){ .app = a, .store_dir = results_dir,
                                                     .save = save, .mode = "tui",
                                                     .hooks = &job_engine_hooks, .ctx = j });
}

int job_end(struct job *j, bool complete, struct diag *d)
{
    job_close(j);
    int rc = engine_finish(&j->engine, complete, d);
    engine_free(&j->engine);
    session_free(&j->session);
    job_measure_only(j, NULL, 0);
    free(j->prefs);
    free(j->benches);
    j->prefs = NULL;
    j->benches = NULL;
    j->nprefs = j->cap_prefs = 0;
    return rc;
}

/* --- the sink of the live batch -------------------------------------------- */

static void sink_event(void *ctx, const struct run *run)
{
    (void)run;
    event(ctx, JOB_LIVE);
}

static void sink_sample(void *ctx, const struct run *run, size_t m, double v)
{
    (void)m;
    (void)v;
    sink_event(ctx, run);
}

static void sink_note(void *ctx, const struct run *run, const char *text)
{
    (void)text;
    sink_event(ctx, run);
}

/* A run ended: the engine filed its rows (a pulled serial cable, SIGHUP,
 * loses nothing that finished). */
static void sink_done(void *ctx, const struct run *run)
{
    (void)run;
    event(ctx, JOB_ENDED);
}

static const struct sink job_sink = {
    .on_start = sink_event,
    .on_sample = sink_sample,
    .on_progress = sink_event,
    .on_note = sink_note,
    .on_done = sink_done,
};

/* CPU-bound kernels: what would spoil them before the batch (the first,
 * the rest on the system screen), the throttling seen after it. */
static void job_cpu_warnings(void *ctx, const struct cpucheck_list *w, size_t from)
{
    struct job *j = ctx;
    if (from == 0)
        say(j, JOB_WARN, "warning: %s%s", w->items[0].text,
            w->count > 1 ? " (more on the system screen: s)" : "");
    else
        say(j, JOB_WARN, "warning: %s", w->items[from].text);
}

static void job_engine_say(void *ctx, enum engine_level level, const char *text)
{
    say(ctx, level == ENGINE_ERROR ? JOB_ERROR : level == ENGINE_WARN ? JOB_WARN : JOB_NOTE,
        "%s", text);
}

static const struct engine_hooks job_engine_hooks = {
    .live = &job_sink,
    .cpu_warnings = job_cpu_warnings,
    .say = job_engine_say,
};

/* --- the live batch ---------------------------------------------------------- */

struct batch *job_batch(const struct job *j)
{
    return engine_batch(&j->engine);
}

struct run *job_run(const struct job *j)
{
    struct batch *b = job_batch(j);
    return b ? batch_run(b) : NULL;
}

int job_fd(const struct job *j)
{
    struct batch *b = job_batch(j);
    return b ? batch_fd(b) : -1;
}

void job_stop(struct job *j, int sig)
{
    struct batch *b = job_batch(j);
    if (!b || batch_done(b))
        return;
    char *why = stopsig_reason(sig);
    batch_cancel_because(b, why);
    free(why);
}

void job_close(struct job *j)
{
    if (!job_batch(j))
        return;
    /* the session keeps (and frees) what the batch measured */
    struct session_batch sb = { engine_take_batch(&j->engine), j->number, j->keep, j->nkeep };
    session_keep(&j->session, &sb);
    j->keep = NULL;
    j->nkeep = 0;
    j->summary_due = false;
    event(j, JOB_CHANGED);
}

static char **copy_ids(char *const *ids, size_t n)
{
    char **c = n ? xcalloc(n, sizeof *c) : NULL;
    for (size_t i = 0; i < n; i++)
        c[i] = xstrdup(ids[i]);
    return c;
}

static void free_ids(char **ids, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(ids[i]);
    free(ids);
}

void job_show_only(struct job *j, char *const *metrics, size_t n)
{
    free_ids(j->next_keep, j->next_nkeep);
    j->next_keep = copy_ids(metrics, n);
    j->next_nkeep = n;
}

/* The kernels job_run_start() starts for profile line pb, as the demo
 * starts it: the kernel it names, else its benchmark's under the provider
 * choice. *out is allocated (NULL when none). */
static size_t line_starts(const struct job *j, const struct profile_bench *pb,
                          const struct kernel ***out)
{
    const struct kernel *k = app_find_kernel(j->app, pb->name);
    const struct cat_bench *b = k ? NULL : catalog_find_bench(j->app->catalog, pb->name);
    size_t n = 0;
    *out = NULL;
    if (k) {
        *out = xcalloc(1, sizeof **out);
        (*out)[n++] = k;
    } else if (b && b->nkernels) {
        *out = xcalloc(b->nkernels, sizeof **out);
        n = job_bench_kernels(j, b, *out);
    }
    return n;
}

/* Whether a line of p before `line` starts kernel k. */
static bool started_before(const struct job *j, const struct profile *p, size_t line,
                           const struct kernel *k)
{
    bool found = false;
    for (size_t e = 0; e < line && e < p->n && !found; e++) {
        const struct kernel **ks;
        size_t n = line_starts(j, &p->benches[e], &ks);
        for (size_t i = 0; i < n; i++)
            found |= ks[i] == k;
        free(ks);
    }
    return found;
}

bool job_profile_line_repeats(const struct job *j, const struct profile *p, size_t line)
{
    const struct kernel **ks = NULL;
    size_t n = line < p->n ? line_starts(j, &p->benches[line], &ks) : 0;
    bool all = n > 0;
    for (size_t i = 0; i < n && all; i++)
        all = started_before(j, p, line, ks[i]);
    free(ks);
    return all;
}

void job_measure_only(struct job *j, const struct profile *p, size_t line)
{
    profile_free(&j->next_pick);
    j->next_line = 0;
    if (!p || line >= p->n) {
        job_show_only(j, NULL, 0);
        return;
    }
    job_show_only(j, p->benches[line].metrics, p->benches[line].nmetrics);
    /* the lines that start something: those the picks merge */
    struct profile *q = &j->next_pick;
    q->benches = xcalloc(p->n, sizeof *q->benches);
    for (size_t e = 0; e < p->n; e++) {
        const struct kernel **ks;
        size_t n = line_starts(j, &p->benches[e], &ks);
        free(ks);
        if (!n && e != line)
            continue;
        if (e == line)
            j->next_line = q->n;
        struct profile_bench *to = &q->benches[q->n++];
        to->name = xstrdup(p->benches[e].name);
        to->line = p->benches[e].line;
        to->metrics = copy_ids(p->benches[e].metrics, p->benches[e].nmetrics);
        to->nmetrics = p->benches[e].nmetrics;
    }
    q->cap = p->n;
}

bool job_metric_shown(const struct job *j, const struct run *run, size_t m)
{
    struct session_batch sb = { .keep = j->keep, .nkeep = j->nkeep };
    return m < run->nmetrics && session_batch_shows(&sb, run->metrics[m].def->id);
}

size_t job_batch_number(const struct job *j)
{
    return j->number;
}

bool job_take_summary(struct job *j)
{
    bool due = j->summary_due;
    j->summary_due = false;
    return due;
}

const char *job_store_id(const struct job *j)
{
    return engine_run_id(&j->engine);
}

bool job_pump(struct job *j)
{
    struct batch *b = job_batch(j);
    if (!b || batch_done(b))
        return false;
    bool running = engine_pump(&j->engine);
    if (!running && b->group && !b->cancelled)
        j->summary_due = true;
    return running;
}

/* Starts kernels ks (picks[i]: what each measures, NULL: all; group[i]:
 * their benchmark, NULL for one) as the job. */
static bool start_batch(struct job *j, const struct kernel **ks,
                        const struct metric_pick *picks, size_t n,
                        const size_t *group, size_t ngroups, const char *what)
{
    event(j, JOB_BEGIN);
    /* the batch shows what job_show_only() asked for, once */
    j->keep = j->next_keep;
    j->nkeep = j->next_nkeep;
    j->next_keep = NULL;
    j->next_nkeep = 0;
    j->number++;
    struct batch *b = engine_start(&j->engine, ks, picks, n, group, ngroups,
                                   &j->app->run_opts);
    if (!batch_run(b)) {
        say(j, JOB_ERROR, "cannot start %s: %s", what,
            b->start_errors[0] ? b->start_errors[0] : "unknown error");
        job_close(j);
        return false;
    }
    event(j, JOB_CHANGED);
    return true;
}

/* The next batch shows what picks[0 .. n) measure, by the kernels' own
 * ids (a profile may spell them in another case); all when one kernel
 * measures all. */
static void show_picked(struct job *j, const struct metric_pick *picks, size_t n)
{
    size_t total = 0;
    for (size_t i = 0; i < n; i++) {
        if (!picks[i].n) {
            job_show_only(j, NULL, 0);
            return;
        }
        total += picks[i].n;
    }
    char **ids = xcalloc(total ? total : 1, sizeof *ids);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t m = 0; m < picks[i].n; m++)
            ids[k++] = (char *)picks[i].ids[m];
    job_show_only(j, ids, k);
    free(ids);
}

bool job_run_start(struct job *j, const struct cat_bench *b, const struct kernel *k)
{
    job_close(j);
    if (!b || !b->nkernels) {
        job_measure_only(j, NULL, 0);
        say(j, JOB_ERROR, "%s: reference only, nothing here can run it", b ? b->title : "?");
        return false;
    }
    const struct kernel **ks = xcalloc(b->nkernels, sizeof *ks);
    size_t n = 1;
    if (k)
        ks[0] = k;
    else
        n = job_bench_kernels(j, b, ks);
    if (!n) {
        free(ks);
        job_measure_only(j, NULL, 0);
        char *why = app_bench_unrunnable(j->app, b, job_bench_provider(j, b, NULL));
        say(j, JOB_ERROR, "%s cannot run here: %s", b->title, why);
        free(why);
        return false;
    }
    /* a profile's line, as in the CLI: a kernel an earlier line started
     * measured then what every line naming it lists, and is not run again */
    struct metric_pick *picks = NULL;
    if (j->next_pick.n) {
        size_t kept = 0;
        for (size_t i = 0; i < n; i++)
            if (!started_before(j, &j->next_pick, j->next_line, ks[i]))
                ks[kept++] = ks[i];
        n = kept;
        picks = profile_run_picks(app_profile_scope(j->app), &j->next_pick, ks, &n);
    }
    profile_free(&j->next_pick);
    if (picks)
        show_picked(j, picks, n);
    bool ok = false;
    if (!n) {
        job_show_only(j, NULL, 0);
        say(j, JOB_ERROR, "%s: nothing it can run measures what the profile lists", b->title);
    } else
        ok = start_batch(j, ks, picks, n, NULL, 0, ks[0]->name);
    profile_run_free_picks(picks, n);
    free(ks);
    return ok;
}

bool job_run_start_category(struct job *j, const struct cat_category *c)
{
    job_close(j);
    profile_free(&j->next_pick);     /* a category runs whole */
    size_t total = 0, n = 0, nb = 0;
    for (size_t i = 0; c && i < c->nbenches; i++)
        total += c->benches[i]->nkernels;
    const struct kernel **ks = xcalloc(total ? total : 1, sizeof *ks);
    size_t *group = xcalloc(total ? total : 1, sizeof *group);
    free(j->benches);
    j->benches = xcalloc(c && c->nbenches ? c->nbenches : 1, sizeof *j->benches);
    for (size_t i = 0; c && i < c->nbenches; i++) {
        size_t got = job_bench_kernels(j, c->benches[i], ks + n);
        for (size_t k = 0; k < got; k++)
            group[n + k] = nb;
        n += got;
        if (got)
            j->benches[nb++] = c->benches[i];
    }
    bool ok = false;
    if (!n)
        say(j, JOB_ERROR, "%s: nothing in it can run here", c ? c->title : "?");
    else
        ok = start_batch(j, ks, NULL, n, group, nb, c->title);
    free(ks);
    free(group);
    return ok;
}

const struct cat_bench *job_batch_bench(const struct job *j)
{
    const struct batch *b = job_batch(j);
    if (!b || !b->group || !j->benches)
        return NULL;
    size_t g = batch_group_now(b);
    return g < b->ngroups ? j->benches[g] : NULL;
}

/* --- results and baselines ---------------------------------------------------- */

/* The live batch as the session sees it. */
static struct session_batch live_batch(const struct job *j)
{
    return (struct session_batch){ job_batch(j), j->number, j->keep, j->nkeep };
}

size_t job_results(const struct job *j, unsigned flags, struct session_row **out)
{
    struct session_batch live = live_batch(j);
    return session_rows(&j->session, &live, &j->app->cmp, flags, out);
}

size_t job_results_hidden(const struct job *j)
{
    struct session_batch live = live_batch(j);
    return session_rows_hidden(&j->session, &live, &j->app->cmp);
}

const char *job_results_dir(const struct job *j)
{
    return j->results_dir;
}

bool job_saves(const struct job *j)
{
    return j->results_dir && j->engine.cfg.save;
}

bool job_set_baseline(struct job *j, const char *name)
{
    struct diag d;
    diag_init(&d);
    bool ok = engine_set_baseline(&j->engine, name, &d);
    /* against a baseline, cheap benchmarks run until the comparison can
     * tell (engine.h) */
    j->engine.cfg.repeat = ok && name;
    event(j, JOB_CHANGED);
    if (!ok)
        say(j, JOB_ERROR, "%s", d.n ? d.msgs[0] : "cannot load the baseline");
    diag_free(&d);
    return ok;
}

json_t *job_baseline_system(const struct job *j)
{
    return engine_baseline_system(&j->engine);
}

json_t *job_baseline(const struct job *j, const char **name)
{
    json_t *b = engine_baseline(&j->engine, name);
    if (name && !*name)
        *name = "";
    return b;
}

bool job_baseline_exists(const struct job *j, const char *name, size_t *rows)
{
    return engine_baseline_exists(&j->engine, name, rows);
}

bool job_save_baseline(struct job *j, const char *name)
{
    struct session_row *rs;
    size_t n = job_results(j, 0, &rs);
    if (!n && j->results_dir) {
        free(rs);
        say(j, JOB_NOTE, "nothing measured to the end yet to save as a baseline");
        return false;
    }
    json_t *rows = session_rows_json(rs, n);
    free(rs);
    struct diag d;
    diag_init(&d);
    /* the screen asked before replacing; the old one is kept as NAME.prev */
    bool ok = engine_save_baseline(&j->engine, name, rows, true, &d);
    json_decref(rows);
    if (!ok)
        say(j, JOB_ERROR, "%s", diag_last(&d));
    diag_free(&d);
    if (!ok)
        return false;
    say(j, JOB_NOTE, "saved %zu metric%s as baseline '%s'", n, n == 1 ? "" : "s", name);
    return true;
}

/* --- provider per benchmark ------------------------------------------------------ */

static struct job_pref *find_pref(const struct job *j, const struct cat_bench *b)
{
    for (size_t i = 0; i < j->nprefs; i++)
        if (j->prefs[i].bench == b)
            return &j->prefs[i];
    return NULL;
}

enum provider_pref job_bench_provider(const struct job *j, const struct cat_bench *b,
                                      bool *chosen)
{
    const struct job_pref *p = find_pref(j, b);
    if (chosen)
        *chosen = p != NULL;
    return p ? p->pref : j->app->provider;
}

size_t job_bench_kernels(const struct job *j, const struct cat_bench *b,
                         const struct kernel **out)
{
    return cat_bench_runnable(b, j->app->extras, job_bench_provider(j, b, NULL),
                              app_kernel_available, out);
}

bool job_bench_has_choice(const struct job *j, const struct cat_bench *b)
{
    bool kernel = false, tool = false;
    for (size_t i = 0; i < b->nkernels; i++) {
        const struct kernel *k = b->kernels[i];
        if (k->extra && !j->app->extras)
            continue;
        if (k->provider && strcmp(k->provider, "tool") == 0)
            tool |= app_kernel_available(k);
        else
            kernel = true;
    }
    return kernel && tool;
}

bool job_bench_provider_next(struct job *j, const struct cat_bench *b)
{
    if (!job_bench_has_choice(j, b))
        return false;
    struct job_pref *p = find_pref(j, b);
    if (!p) {
        xgrow(&j->prefs, &j->cap_prefs, j->nprefs + 1, sizeof *j->prefs);
        p = &j->prefs[j->nprefs++];
        p->bench = b;
        p->pref = PROVIDER_KERNEL;
    } else if (p->pref == PROVIDER_KERNEL) {
        p->pref = PROVIDER_TOOL;
    } else {
        *p = j->prefs[--j->nprefs];     /* back to the app's preference */
    }
    return true;
}
