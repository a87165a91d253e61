/* cli_run.c - `evmbench run`: benchmarks without the screens, their
 * progress on stderr, the results in every format, the store and baselines. */
#include "config.h"
#include "cli/cli_impl.h"
#include "cli/cli.h"

#include <errno.h>
#include <time.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <jansson.h>

#include "app.h"
#include "run/batch.h"
#include "board/board.h"
#include "run/check.h"
#include "run/export.h"
#include "kernel/kernel.h"
#include "run/result.h"
#include "data/profile.h"
#include "run/profile_run.h"
#include "board/sysstate.h"
#include "engine/engine.h"
#include "common/stopsig.h"
#include "common/units.h"
#include "common/util.h"


/* Line-mode sink: notes and one line per finished benchmark on stderr. */
/* --- progress on stderr without the screens --------------------------------
 * On a terminal: one line, rewritten at most 4 times a second with '\r'
 * and spaces (no escape sequences: any terminal, serial consoles too):
 * benchmark k/n, batch progress, ETA, the last value. Elsewhere (a log, a
 * board farm): one plain line per finished metric. --quiet: neither. */
#define STATUS_WIDTH 79
#define STATUS_INTERVAL_S 0.25

static void status_clear(struct cli *c)
{
    if (!c->status_shown)
        return;
    fprintf(c->err, "\r%*s\r", STATUS_WIDTH, "");
    fflush(c->err);
    c->status_shown = false;
}

static void status_draw(struct cli *c, const struct run *run, bool force)
{
    if (!c->status_tty || c->quiet || !c->batch)
        return;
    double now = now_seconds();
    if (!force && now - c->status_last < STATUS_INTERVAL_S)
        return;
    c->status_last = now;
    double p = batch_progress(c->batch);
    double elapsed = now - c->batch_started;
    char eta[24] = "ETA -";
    if (p > 0.02 && p < 1)
        snprintf(eta, sizeof eta, "ETA %.0f s", elapsed / p * (1 - p));
    char line[256];
    snprintf(line, sizeof line, "[%zu/%zu] %s %3.0f%%  %s  %s",
             c->batch->current + 1 > c->batch->n ? c->batch->n : c->batch->current + 1,
             c->batch->n, run->kernel->name, p * 100, eta, c->last_value);
    fprintf(c->err, "\r%-*.*s", STATUS_WIDTH, STATUS_WIDTH, line);
    fflush(c->err);
    c->status_shown = true;
}

static void line_on_sample(void *ctx, const struct run *run, size_t m, double v)
{
    struct cli *c = ctx;
    snprintf(c->last_value, sizeof c->last_value, "%s %.6g %s", run->metrics[m].def->id, v,
             unit_display(run->metrics[m].def->unit));
    status_draw(c, run, false);
}

static void line_on_progress(void *ctx, const struct run *run)
{
    status_draw(ctx, run, false);
}

static void line_on_note(void *ctx, const struct run *run, const char *text)
{
    struct cli *c = ctx;
    if (c->quiet)
        return;
    status_clear(c);
    fprintf(c->err, "evmbench: %s: %s\n", run->kernel->name, text);
}

/* Not a terminal: a finished metric as one line a log keeps; `fail` is
 * why --fail-on-deviation fails it, or NULL. */
static void metric_line(struct cli *c, const struct result_row *row, const char *fail)
{
    if (row->status != STATUS_OK) {
        fprintf(c->err, "evmbench: %s %s: %s\n", row->bench, row->metric,
                row->error ? row->error : status_name(row->status));
    } else if (row->dev.has_ref) {
        fprintf(c->err, "evmbench: %s %s = %.6g %s (guide %.6g, %+.1f%%, %s)%s%s\n", row->bench,
                row->metric, row->value, unit_display(row->unit), row->ref_avg, row->dev.pct,
                verdict_name(row->dev.verdict), fail ? " FAIL: " : "", fail ? fail : "");
    } else if (row->samples) {
        fprintf(c->err, "evmbench: %s %s = %.6g %s%s%s\n", row->bench, row->metric, row->value,
                unit_display(row->unit), fail ? " FAIL: " : "", fail ? fail : "");
    }
}

/* A finished run's rows (filed by the engine, compared with the
 * baseline): kept for the output, at once as text (JSON is one document at
 * the end) and, when stderr is no terminal, as log lines. Each says FAIL,
 * and why, when --fail-on-deviation fails it (export_row_failure: the same
 * rule as the other formats, the verdict and the exit status). */
static void line_on_rows(void *ctx, const struct run *run, const struct engine_row *rows,
                         size_t n)
{
    struct cli *c = ctx;
    status_clear(c);
    if (c->run_out) {
        char id[64];
        kernel_provider_id(run->kernel, id, sizeof id);
        fprintf(c->run_out, "\n%s (%s)\n", run->kernel->section, id);
        result_print_text_header(c->run_out);
    }
    for (size_t m = 0; m < n; m++) {
        const struct result_row *row = &rows[m].row;
        json_t *j = rows[m].json;
        json_array_append(c->rows, j);
        char why[160];
        const char *fail = row->status == STATUS_OK &&
                           export_row_failure(j, c->fail_pct, why, sizeof why) ? why : NULL;
        if (c->fail_pct > 0)    /* JSON says it too: the reason, or null */
            json_object_set_new(j, "fail", fail ? json_string(fail) : json_null());
        if (c->run_out)
            result_row_print_text(row, fail, c->run_out);
        if (!c->quiet && !c->status_tty)
            metric_line(c, row, fail);
    }
    /* stdio forgets why a write failed: kept for cli_close_output */
    if (c->run_out && fflush(c->run_out) != 0 && !c->out_errno)
        c->out_errno = errno;
}

static void line_on_done(void *ctx, const struct run *run)
{
    struct cli *c = ctx;
    if (c->quiet && run->status == STATUS_OK)
        return;
    if (run->status == STATUS_OK)
        fprintf(c->err, "evmbench: %s finished in %.1f s\n", run->kernel->name,
                run->ended - run->started);
    else
        fprintf(c->err, "evmbench: %s %s: %s\n", run->kernel->name,
                status_name(run->status), run->error ? run->error : status_message(run->status));
}

static void line_cpu_warnings(void *ctx, const struct cpucheck_list *w, size_t from)
{
    struct cli *c = ctx;
    for (size_t i = from; i < w->count; i++)
        fprintf(c->err, "evmbench: warning: %s\n", w->items[i].text);
}

static void line_say(void *ctx, enum engine_level level, const char *text)
{
    struct cli *c = ctx;
    status_clear(c);
    fprintf(c->err, "evmbench: %s%s\n", level == ENGINE_WARN ? "warning: " : "", text);
}

static const struct sink line_sink = {
    .on_sample = line_on_sample,
    .on_progress = line_on_progress,
    .on_note = line_on_note,
    .on_done = line_on_done,
};

static const struct engine_hooks line_hooks = {
    .live = &line_sink,
    .on_rows = line_on_rows,
    .cpu_warnings = line_cpu_warnings,
    .say = line_say,
};

/* Resolves the names given to `run` into kernels, in order, without repeats. */
static int resolve_benches(struct cli *c, struct app *a, const struct kernel ***out, size_t *n)
{
    *out = NULL;
    *n = 0;
    for (int i = 0; i < c->nargs; i++) {
        const char *name = c->args[i];
        const struct kernel *list[256];
        size_t count = 0;
        const struct kernel *k = app_find_kernel(a, name);
        /* a kernel by name, plus its section's extras when --threads asks */
        const struct cat_bench *kb = k && a->extras ? catalog_find_bench(a->catalog, name) : NULL;
        const struct cat_bench *b = catalog_find_bench(a->catalog, name);
        const struct cat_category *cat = catalog_find_category(a->catalog, name);
        if (k) {
            list[count++] = k;
            for (size_t q = 0; kb && q < kb->nkernels && count < ARRAY_SIZE(list); q++)
                if (kb->kernels[q]->extra && kb->kernels[q] != k)
                    list[count++] = kb->kernels[q];
        } else if (b) {
            if (!b->nkernels) {
                free(*out);
                return cli_usage_error(c, "'%s' has reference numbers only; nothing here can run it", name);
            }
            count = app_bench_kernels(a, b, list);
            if (!count) {
                char *why = app_bench_unrunnable(a, b, a->provider);
                free(*out);
                int rc = cli_usage_error(c, "'%s' cannot run here: %s", name, why);
                free(why);
                return rc;
            }
        } else if (cat) {
            for (size_t j = 0; j < cat->nbenches; j++)
                if (count + cat->benches[j]->nkernels <= ARRAY_SIZE(list))
                    count += app_bench_kernels(a, cat->benches[j], list + count);
            if (!count) {
                free(*out);
                return cli_usage_error(c, "nothing in category '%s' can run here", name);
            }
        } else {
            free(*out);
            return cli_usage_error(c, "unknown benchmark or category '%s' (see 'evmbench list')", name);
        }
        for (size_t j = 0; j < count; j++) {
            bool dup = false;
            for (size_t q = 0; q < *n; q++)
                dup |= (*out)[q] == list[j];
            if (dup)
                continue;
            *out = xrealloc(*out, (*n + 1) * sizeof **out);
            (*out)[(*n)++] = list[j];
        }
    }
    return 0;
}

/* What the run file's header says beyond the engine's own fields. */
static json_t *run_header(const struct cli *c, const struct app *a)
{
    json_t *h = json_object();
    json_object_set_new(h, "tolerance_pct", json_real(a->tolerance_pct));
    json_object_set_new(h, "provider", json_string(provider_pref_name(a->provider)));
    json_t *args = json_array();
    for (int i = 0; i < c->nargs; i++)
        json_array_append_new(args, json_string(c->args[i]));
    json_object_set_new(h, "benchmarks", args);
    return h;
}

/* --lava-kmsg: opened before the run, so that a path that cannot be
 * written is said first; -1 then, and the LAVA lines go to the output. */
static int open_kmsg(struct cli *c)
{
    /* O_NONBLOCK: a FIFO without a reader fails (ENXIO) instead of hanging */
    int fd = open(c->kmsg, O_WRONLY | O_APPEND | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    if (fd < 0)
        return -1;
    int fl = fcntl(fd, F_GETFL);
    if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0) {
        close(fd);
        return -1;
    }
    return fd;
}

/* Each LAVA line is one write to the kernel log, so kernel messages on the
 * same serial console cannot split it, and each through an open of its
 * own: the kernel drops, without an error, writes beyond 10 in 5 s on one
 * open /dev/kmsg (printk.devkmsg=ratelimit, its default). Closes fd. */
static int lava_to_kmsg(struct cli *c, json_t *rows, int fd)
{
    char *text;
    size_t len;
    FILE *mem = open_memstream(&text, &len);
    export_rows(mem, "lava", rows, c->fail_pct, NULL);
    fclose(mem);
    int rc = 0;
    for (char *line = text, *nl; *line; line = nl + 1) {
        nl = strchr(line, '\n');
        if (!nl)
            break;
        size_t n = (size_t)(nl - line) + 1;
        if (line != text) {         /* a new open: a new rate-limit budget */
            close(fd);
            fd = open_kmsg(c);
        }
        if (fd < 0 || write(fd, line, n) != (ssize_t)n) {
            fprintf(c->err, "evmbench: %s: %s\n", c->kmsg, strerror(errno));
            rc = -1;
            break;
        }
    }
    if (fd >= 0)
        close(fd);
    free(text);
    return rc;
}

/* --baseline: its rows, loaded before the run (a name that does not
 * exist costs no run; "latest" is the run before this one). -1 after a
 * message when it cannot be loaded. */
static int load_baseline(struct cli *c, struct engine *e)
{
    if (!c->baseline)
        return 0;
    struct diag d;
    diag_init(&d);
    bool ok = engine_set_baseline(e, c->baseline, &d);
    for (size_t i = 0; i < d.n; i++)
        fprintf(c->err, "evmbench: %s\n", d.msgs[i]);
    diag_free(&d);
    return ok ? 0 : -1;
}

/* --save-baseline NAME: refused before the run when NAME exists and
 * --replace-baseline is not given, so that a baseline is never lost by
 * accident. 0 to go on, else the exit status. */
static int check_save_baseline(struct cli *c, const struct engine *e)
{
    if (c->replace_baseline && !c->save_baseline)
        return cli_usage_error(c, "--replace-baseline goes with --save-baseline NAME");
    if (!c->save_baseline || c->replace_baseline)
        return 0;
    char *path = engine_baseline_existing(e, c->save_baseline);
    if (!path)
        return 0;
    int rc = cli_usage_error(c, "baseline '%s' exists (%s): give --replace-baseline to replace "
                             "it (the old one is kept as %s.prev) or choose another name",
                             c->save_baseline, path, c->save_baseline);
    free(path);
    return rc;
}

/* run --profile NAME: the benchmarks of profile NAME (a shipped name or a
 * path), those that cannot run here left out with a note; a NAME that is
 * no profile but a benchmark or category runs that. Fills c->args. */
static int load_profile(struct cli *c, struct app *a, char ***names)
{
    *names = NULL;
    bool is_file = strchr(c->profile_name, '/') != NULL;
    if (!is_file && (app_find_kernel(a, c->profile_name) ||
                     catalog_find_bench(a->catalog, c->profile_name) ||
                     catalog_find_category(a->catalog, c->profile_name))) {
        *names = xcalloc(1, sizeof **names);
        (*names)[0] = (char *)c->profile_name;
        c->args = *names;
        c->nargs = 1;
        c->profile_name = NULL;
        return 0;
    }
    struct diag d;
    diag_init(&d);
    int bad = profile_load(&c->profile, c->profile_name, &d);
    for (size_t i = 0; i < d.n; i++)
        fprintf(c->err, "evmbench: %s\n", d.msgs[i]);
    diag_free(&d);
    if (bad)
        return cli_usage_error(c, "--profile %s: not a usable profile, benchmark or category",
                           c->profile_name);
    *names = xcalloc(c->profile.n + 1, sizeof **names);
    int n = 0;
    for (size_t i = 0; i < c->profile.n; i++) {
        const struct profile_bench *pb = &c->profile.benches[i];
        const struct kernel *k = app_find_kernel(a, pb->name);
        const struct cat_bench *b = catalog_find_bench(a->catalog, pb->name);
        if (!k && !b && !catalog_find_category(a->catalog, pb->name))
            return cli_usage_error(c, "%s:%d: no benchmark or category '%s' (see 'evmbench list')",
                               c->profile.path, pb->line, pb->name);
        const struct kernel *list[256];
        const char *bad_metric = profile_run_unknown_metric(app_profile_scope(a), pb);
        if (bad_metric)
            return cli_usage_error(c, "%s:%d: %s cannot measure '%s': no metric of it has "
                                   "that id (see 'evmbench refs')", c->profile.path, pb->line,
                                   pb->name, bad_metric);
        size_t can = k ? app_kernel_available(k) : 0;
        if (!k && b) {
            size_t got = app_bench_kernels(a, b, list);
            for (size_t j = 0; j < got; j++)
                can += app_kernel_available(list[j]);
        } else if (!k) {
            can = 1;            /* a category: run takes what it can */
        }
        if (!can) {
            char *why = k ? app_kernel_unrunnable(k) : app_bench_unrunnable(a, b, a->provider);
            fprintf(c->err, "evmbench: %s:%d: %s left out: %s\n", c->profile.path, pb->line,
                    pb->name, why ? why : "nothing here runs it");
            free(why);
            continue;
        }
        (*names)[n++] = pb->name;
    }
    if (!n)
        return cli_usage_error(c, "--profile %s: nothing in it can run here", c->profile_name);
    c->args = *names;
    c->nargs = n;
    if (c->profile.quick)
        a->run_opts.params.quick = true;
    return 0;
}

/* What a run leaves for its report: when, its id in the store, whether
 * anything failed, whether --baseline could be applied. */
#define MATCH_CLOCK_S   0.1     /* the clock measured for the board check */

struct run_outcome {
    struct run_options opt;     /* as the batch ran */
    struct engine *engine;      /* that ran it */
    char started[32], ended[32];
    const char *run_id;         /* NULL when not saved (the engine's) */
    bool failed;                /* a benchmark or metric failed */
    int kfd;                    /* --lava-kmsg's descriptor, or -1 */
    json_t *system;             /* the system record (board/sysstate.h; the engine's) */
    char *system_change;        /* --baseline: what differs from its system */
    struct board_match match;   /* the board against the guide's (doubts) */
};

/* --lava-kmsg with --format lava: opens the path; when it cannot be
 * written the LAVA lines go to the output after a warning, or nowhere
 * (exit 1) when that is a closed stdout. 0 to go on. */
static int setup_kmsg(struct cli *c, FILE *f, int *kfd)
{
    *kfd = -1;
    if (!cli_format_is(c, "lava") || !c->kmsg || (*kfd = open_kmsg(c)) >= 0)
        return 0;
    int e = errno;
    if (f == c->out && c->stdout_closed) {
        fprintf(c->err, "evmbench: %s: %s, and standard output is closed: the LAVA "
                "lines could go nowhere\n", c->kmsg, strerror(e));
        return 1;
    }
    fprintf(c->err, "evmbench: warning: %s: %s (--lava-kmsg needs write access to it: "
            "root, or drop --lava-kmsg); the LAVA lines go to %s instead\n", c->kmsg,
            strerror(e), f == c->out ? "standard output" : c->output);
    return 0;
}

/* Says why each kernel of a batch that ended did not start. */
static void print_not_started(struct cli *c, const struct batch *batch,
                              const struct kernel **ks)
{
    for (size_t i = 0; i < batch->n; i++)
        if (!batch->runs[i])
            fprintf(c->err, "evmbench: %s: %s\n", ks[i]->name,
                    batch->start_errors[i] ? batch->start_errors[i] : "not started");
}

/* --baseline: what differs between its system and this one, said first
 * (text), kept for the JSON report. */
static void system_against_baseline(struct cli *c, struct run_outcome *o, FILE *f)
{
    o->system_change = engine_system_change(o->engine);
    if (o->system_change && cli_format_is(c, "text"))
        fprintf(f, "System, baseline %s (A) -> this run (B): %s\n", c->baseline,
                o->system_change);
}

/* Runs the kernels through the engine with the line sink: the text rows
 * to f as each run ends, every row into c->rows (the engine files them
 * into the store); fills o. */
static void run_batch(struct cli *c, struct app *a, const struct kernel **ks,
                      const struct metric_pick *picks, size_t nk, FILE *f,
                      struct run_outcome *o)
{
    struct engine *e = o->engine;
    c->app = a;
    c->rows = json_array();
    o->system = engine_system(e);
    system_against_baseline(c, o, f);
    if (!c->no_save && !e->cfg.store_dir)
        fprintf(c->err, "evmbench: warning: results not saved: set --results-dir, "
                "XDG_DATA_HOME or HOME\n");
    c->run_out = cli_format_is(c, "text") ? f : NULL;
    int efd = fileno(c->err);
    c->status_tty = efd >= 0 && isatty(efd);
    c->batch_started = now_seconds();
    utc_time(o->started, sizeof o->started, UTC_ISO8601);
    c->batch = engine_start(e, ks, picks, nk, NULL, 0, &o->opt);
    engine_wait(e);
    status_clear(c);
    print_not_started(c, c->batch, ks);
    c->batch = NULL;
    c->run_out = NULL;
    utc_time(o->ended, sizeof o->ended, UTC_ISO8601);
    o->failed = engine_failed(e);
    struct diag d;
    diag_init(&d);
    /* stopped by a signal: the run file keeps its rows, marked unfinished */
    if (engine_finish(e, !stopsig_caught(), &d) != 0)
        fprintf(c->err, "evmbench: warning: %s\n", diag_last(&d));
    diag_free(&d);
    o->run_id = engine_run_id(e);
}

/* The settings the run was made with, for the JSON report. */
static json_t *settings_json(const struct cli *c, const struct app *a, const struct run_options *opt)
{
    json_t *s = json_object();
    json_object_set_new(s, "quick", json_boolean(opt->params.quick));
    json_object_set_new(s, "tolerance_pct", json_real(a->tolerance_pct));
    json_object_set_new(s, "provider", json_string(provider_pref_name(a->provider)));
    json_object_set_new(s, "timeout_s", opt->timeout_s > 0 ? json_real(opt->timeout_s)
                                                            : json_null());
    json_object_set_new(s, "size", opt->params.size ? json_integer((json_int_t)opt->params.size)
                                                     : json_null());
    json_object_set_new(s, "iterations", opt->params.iterations
                        ? json_integer(opt->params.iterations) : json_null());
    json_object_set_new(s, "threads", opt->params.threads
                        ? json_integer(opt->params.threads) : json_null());
    json_object_set_new(s, "profile", c->profile_loaded && c->profile.name
                        ? json_string(c->profile.name) : json_null());
    return s;
}

/* --format json: the whole run as one document. */
static void print_run_json(struct cli *c, const struct app *a, const struct run_outcome *r,
                           FILE *f)
{
    json_t *o = json_object();
    json_object_set_new(o, "run_id", r->run_id ? json_string(r->run_id) : json_null());
    json_object_set_new(o, "version", json_string(PACKAGE_VERSION));
    json_object_set_new(o, "started", json_string(r->started));
    json_object_set_new(o, "ended", json_string(r->ended));
    json_object_set_new(o, "board", a->ref_board ? json_string(a->ref_board) : json_null());
    json_object_set_new(o, "board_name", a->board.name ? json_string(a->board.name) : json_null());
    json_object_set_new(o, "tolerance_pct", json_real(a->tolerance_pct));
    json_object_set_new(o, "quick", json_boolean(r->opt.params.quick));
    json_object_set_new(o, "provider", json_string(provider_pref_name(a->provider)));
    json_object_set_new(o, "baseline", c->baseline ? json_string(c->baseline) : json_null());
    json_object_set_new(o, "guide_mhz", a->cmp.guide_mhz > 0 ? json_real(a->cmp.guide_mhz)
                                                             : json_null());
    json_object_set_new(o, "clock_mhz", a->cmp.live_mhz > 0 ? json_real(a->cmp.live_mhz)
                                                            : json_null());
    json_t *warn = json_array();
    const struct cpucheck_list *w = &r->engine->watch.warnings;
    for (size_t i = 0; i < w->count; i++)
        json_array_append_new(warn, json_string_from_outside(w->items[i].text));
    json_object_set_new(o, "warnings", warn);
    json_object_set_new(o, "settings", settings_json(c, a, &r->opt));
    json_object_set_new(o, "sysinfo", board_to_json(&a->board));
    json_object_set(o, "system", r->system ? r->system : json_null());
    json_object_set_new(o, "system_change", r->system_change ? json_string(r->system_change)
                                                             : json_null());
    json_object_set_new(o, "match", board_match_to_json(&r->match));
    json_object_set_new(o, "results", json_incref(c->rows));
    cli_dump_json(o, f);
    json_decref(o);
}

/* With --baseline, --fail-on-deviation or --check (the screens' check as
 * lines, --ui line), text ends on the check's
 * verdict in words (run/check.h): as fast as before or as the guide,
 * what moved beyond the tolerance (--fail-on-deviation PCT, else
 * --tolerance) and which way, and what changed in the system. */
static void print_verdict(const struct cli *c, const struct app *a,
                          const struct run_outcome *r, FILE *f)
{
    struct check_verdict v;
    double pct = c->fail_pct > 0 ? c->fail_pct : a->tolerance_pct;
    engine_judge(r->engine, c->rows, pct, &v);
    char *system = engine_system_words(r->engine);
    struct strbuf sb;
    sb_init(&sb);
    check_paragraph(&v, c->fail_pct > 0 ? "--fail-on-deviation"
                                        : "--tolerance; no --fail-on-deviation: the exit "
                                          "status does not depend on it",
                    system, &sb);
    fprintf(f, "\n%s", sb.buf);
    sb_free(&sb);
    free(system);
    check_free(&v);
}

/* The report after the run in the chosen format (text printed its rows
 * as they came: only the baseline table is left); false when the LAVA
 * lines could not be written to the kernel log. */
static bool print_report(struct cli *c, const struct app *a, const struct run_outcome *r,
                         FILE *f)
{
    bool ok = true;
    if (cli_format_is(c, "json")) {
        print_run_json(c, a, r, f);
    } else if (r->kfd >= 0) {
        ok = lava_to_kmsg(c, c->rows, r->kfd) == 0;
    } else if (!cli_format_is(c, "text")) {
        export_rows(f, c->format, c->rows, c->fail_pct, "evmbench");
    } else if (engine_baseline(r->engine, NULL)) {
        fprintf(f, "\nAgainst baseline %s\n", c->baseline);
        export_rows(f, "text", c->rows, c->fail_pct, NULL);
    }
    if (cli_format_is(c, "text") && (c->baseline || c->fail_pct > 0 || c->check))
        print_verdict(c, a, r, f);
    if (cli_format_is(c, "text") && r->run_id)
        fprintf(c->err, "evmbench: saved as run %s\n", r->run_id);
    return ok;
}

/* --save-baseline NAME: false after a message when it could not be. */
static bool save_baseline(struct cli *c, struct engine *e)
{
    struct diag d;
    diag_init(&d);
    bool ok = engine_save_baseline(e, c->save_baseline, c->rows, c->replace_baseline, &d);
    if (!ok)
        fprintf(c->err, "evmbench: baseline not saved: %s\n", diag_last(&d));
    else if (!c->quiet)
        fprintf(c->err, "evmbench: saved as baseline %s\n", c->save_baseline);
    diag_free(&d);
    return ok;
}

/* --fail-on-deviation: each metric that ran and fails by the rule every
 * format uses (export_row_failure) is named on stderr with the reason,
 * whatever the format, so a board farm's log says why. */
static void name_failures(const struct cli *c)
{
    size_t i;
    json_t *row;
    char why[160];
    json_array_foreach(c->rows, i, row) {
        const char *status = json_string_value(json_object_get(row, "status"));
        if (!status || strcmp(status, "ok") != 0 ||
            !export_row_failure(row, c->fail_pct, why, sizeof why))
            continue;
        fprintf(c->err, "evmbench: FAIL %s %s: %s\n",
                json_string_value(json_object_get(row, "bench")),
                json_string_value(json_object_get(row, "metric")), why);
    }
}

/* Above the results: the board is not the one the guide measured. */
static void print_match_warning(FILE *f, const struct board_match *m)
{
    char *w = board_match_warning(m, BOARD_DOUBT_RESULTS);
    if (w)
        board_print_field(f, "Warning", w);
    free(w);
}

/* run --profile NAME: runs the profile's benchmarks. */
static int run_profile(struct cli *c, struct app *a)
{
    c->profile_loaded = true;
    if (c->nargs)
        return cli_usage_error(c, "run takes benchmarks or --profile, not both");
    char **names;
    int status = load_profile(c, a, &names);
    if (!status)
        status = cli_cmd_run(c, a);
    free(names);
    return status;
}

/* A run a stop signal ended (the batch was cancelled, its rows are in the
 * store): no report, no baseline, -o FILE as it was; 128 + the signal
 * (main() then dies of it). */
static int run_stopped(struct cli *c, FILE *f, struct run_outcome *r)
{
    json_decref(c->rows);
    c->rows = NULL;
    free(r->system_change);
    board_match_free(&r->match);
    if (r->kfd >= 0)
        close(r->kfd);
    cli_close_output(c, f);
    return 128 + stopsig_caught();
}

/* cli_cmd_run with the engine that runs it, after the checks that need
 * none. */
static int run_with_engine(struct cli *c, struct app *a, struct engine *e,
                           const struct kernel **ks, size_t nk)
{
    int rc;
    if (load_baseline(c, e) != 0)
        return 1;
    struct metric_pick *picks = profile_run_picks(app_profile_scope(a), &c->profile, ks,
                                                  &nk);
    FILE *f = cli_open_output(c);
    struct run_outcome r = { .opt = a->run_opts, .engine = e };
    if (!f || setup_kmsg(c, f, &r.kfd)) {
        profile_run_free_picks(picks, nk);
        if (f)
            cli_close_output(c, f);
        return 1;
    }
    if (a->ref_board) {
        const char *from = NULL;
        double mhz = board_clock(&a->board, a->sysroot, MATCH_CLOCK_S, &from);
        app_board_match(a, mhz, from, &r.match);
    }
    if (cli_format_is(c, "text")) {
        fprintf(f, "Board: %s\nReference: %s\n", a->board.name ? a->board.name : "unknown",
                a->ref_board ? a->ref_board : "none (choose a guide column with --board KEY)");
        print_match_warning(f, &r.match);
    }
    run_batch(c, a, ks, picks, nk, f, &r);
    profile_run_free_picks(picks, nk);
    if (stopsig_caught())
        return run_stopped(c, f, &r);
    engine_explain(e, c->rows);         /* JSON and the verdict name the likely cause */
    bool failed = r.failed;
    if (!print_report(c, a, &r, f))
        failed = true;
    if (c->save_baseline && !save_baseline(c, e))
        failed = true;
    struct check_verdict v = { 0 };
    if (c->fail_pct > 0) {
        name_failures(c);
        engine_judge(e, c->rows, c->fail_pct, &v);
    }
    json_decref(c->rows);
    c->rows = NULL;
    free(r.system_change);
    board_match_free(&r.match);
    rc = cli_close_output(c, f);
    struct engine_outcome out = { .bench_failed = failed, .output_status = rc,
                                  .fail_on_deviation = c->fail_pct > 0, .verdict = &v };
    rc = engine_exit_status(&out);
    check_free(&v);
    return rc;
}

int cli_cmd_run(struct cli *c, struct app *a)
{
    static const char *const fmts[] = { "text", "json", "csv", "lava", "junit", NULL };
    c->format = cli_output_format(c);
    if (cli_check_format(c, fmts))
        return EXIT_USAGE;
    if (c->profile_name && !c->profile_loaded)
        return run_profile(c, a);
    if (c->nargs == 0)
        return cli_usage_error(c, "run needs a benchmark or category (see 'evmbench list')");
    int rc = cli_check_board(c, a);
    if (rc)
        return rc;
    char *dir = cli_store_dir(c);
    json_t *header = run_header(c, a);
    struct engine e;
    engine_init(&e, &(struct engine_config){ .app = a, .store_dir = dir,
                                             .save = !c->no_save, .open_at_start = true,
                                             .header = header, .hooks = &line_hooks,
                                             .ctx = c,
                                             .judge_pct = c->fail_pct > 0 ? c->fail_pct
                                                                          : a->tolerance_pct,
                                             /* a comparison, or a baseline a later one
                                              * compares with, needs the samples */
                                             .repeat = c->baseline || c->save_baseline });
    const struct kernel **ks = NULL;
    size_t nk = 0;
    if (!(rc = check_save_baseline(c, &e)) && !(rc = resolve_benches(c, a, &ks, &nk)))
        rc = run_with_engine(c, a, &e, ks, nk);
    engine_free(&e);
    json_decref(header);
    free(dir);
    free(ks);
    return rc;
}
