/* cli.c - subcommands, options and their output formats. */
#include "config.h"
#include "cli.h"

#include <errno.h>
#include <getopt.h>
#include <time.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "app.h"
#include "batch.h"
#include "board.h"
#include "cli_results.h"
#include "embedded.h"
#include "export.h"
#include "guide_import.h"
#include "kernel.h"
#include "result.h"
#include "privilege.h"
#include "profile.h"
#include "selfcheck.h"
#include "store.h"
#include "settings.h"
#include "toolkernel.h"
#include "cli_import.h"
#include "toolparam.h"
#include "ui.h"
#include "util.h"

struct cli {
    FILE *out, *err;
    struct app_config cfg;
    const char *format;
    const char *output;         /* -o */
    const char *run;            /* --run, for the TUI */
    const char *demo;           /* --demo[=PROFILE] */
    const char *profile_name;   /* run --profile */
    struct profile profile;     /* loaded when profile_name is set */
    bool profile_loaded;
    const char *theme;          /* --theme */
    bool slow_tty;              /* --slow-tty */
    bool provider_set;          /* --provider was given */
    const char *section;        /* refs filter */
    const char *layout;
    const char *ui;
    char **args;                /* positional arguments after the command */
    struct app *app;            /* run: the model the sink reads */
    FILE *run_out;              /* run --format text: rows go here as runs end */
    int rounds;                 /* selfcheck --rounds */
    const char *storage_dir;    /* --storage-dir */
    bool allow_raw;             /* --allow-raw-device */
    const char *peer;           /* --peer */
    const char *audio_device;   /* --audio-device */
    int nargs;
    /* run: the results store and baselines */
    const char *results_dir;    /* --results-dir; NULL: store_default_dir() */
    bool no_save;               /* --no-save */
    const char *save_baseline;  /* --save-baseline NAME */
    const char *baseline;       /* --baseline NAME|RUN */
    double fail_pct;            /* --fail-on-deviation; 0: off */
    int keep;                   /* results prune --keep */
    bool keep_set;
    const char *tool;           /* results import --tool */
    struct store_writer *store; /* this run's file, NULL when not saving */
    bool quiet;                 /* --quiet: no progress on stderr */
    const char *kmsg;           /* --lava-kmsg[=PATH]: LAVA lines go there */
    struct batch *batch;        /* run: the batch going, for the status line */
    bool status_tty;            /* stderr is a terminal: one updating line */
    bool status_shown;          /* the status line is on the screen now */
    double status_last, batch_started;
    char last_value[64];        /* "copy 1838.9 mb/s" */
    json_t *rows;               /* every finished row, in order */
};

static const char usage_text[] =
    "Usage: evmbench [OPTIONS]                 the interactive screens\n"
    "       evmbench list    [--format text|json]\n"
    "       evmbench sysinfo [--sysroot DIR] [--format text|json]\n"
    "       evmbench refs    [--board KEY] [--section TEXT] [--format text|json|csv]\n"
    "       evmbench run     BENCH|CATEGORY...|--profile NAME [--board KEY] [--quick]\n"
    "                        [--format text|json|csv|lava|junit] [--no-save]\n"
    "                        [--baseline NAME] [--save-baseline NAME]\n"
    "                        [--fail-on-deviation PCT]\n"
    "       evmbench results list | show RUN | compare RUN_A RUN_B | export RUN\n"
    "                        | prune --keep N\n"
    "       evmbench results import LOG --tool TOOL [--board KEY]\n"
    "       evmbench selfcheck [BENCH...] [--tools-dir DIR] [--rounds N] [--quick]\n"
    "       evmbench import-guide FILE... [-o OUT.json|DIR] [--layout NAME]\n"
    "\n"
    "Options:\n"
    "  --board KEY        compare with this guide column (e.g. am62xx_sk-fs)\n"
    "  --sysroot DIR      read the device tree and sysfs below DIR\n"
    "  --refs PATH        reference file or folder instead of the shipped one\n"
    "  --format FMT       output format of the command\n"
    "  -o, --output FILE  write the output to FILE\n"
    "  --quick            short time budget for every benchmark\n"
    "  --timeout SECS     time limit for each benchmark\n"
    "  --tolerance PCT    deviation beyond the guide's band that only warns (10)\n"
    "  --size N           working-set size of the kernels (STREAM: elements)\n"
    "  --iterations N     repetitions of the kernels\n"
    "  --threads N        also run the multi-threaded extras (STREAM) with N threads\n"
    "  --provider P       auto (the SDK's tool when installed, else the kernel),\n"
    "                     kernel or tool\n"
    "  --tools-dir DIR    look for the SDK's benchmark tools here first\n"
    "  --storage-dir DIR  storage tests (fio) write one file in DIR, removed after\n"
    "  --allow-raw-device let --storage-dir name a block device (overwrites data)\n"
    "  --peer HOST        network tests (netperf, iperf3) use the server on HOST\n"
    "  --audio-device PCM audio tests (arecord, aplay) use this ALSA device\n"
    "  --rounds N         selfcheck: side-by-side rounds (3)\n"
    "  --profile NAME     run: a profile (quick, full, a .profile file)\n"
    "  --quiet            run: no progress on stderr (warnings and errors still)\n"
    "  --lava-kmsg[=PATH] run: LAVA lines to /dev/kmsg (or PATH), not stdout\n"
    "  --results-dir DIR  the results store (default $XDG_DATA_HOME/evmbench)\n"
    "  --no-save          run: do not keep this run in the results store\n"
    "  --save-baseline NAME  run: also keep the results as baseline NAME\n"
    "  --tool TOOL        results import: the tool that wrote the log (lmbench,\n"
    "                     stream, dhrystone ...)\n"
    "  --baseline NAME    run: show the change from baseline NAME (or a run id)\n"
    "  --fail-on-deviation PCT  run: exit 1 when a metric is worse than the\n"
    "                     guide (or the baseline) by more than PCT percent\n"
    "  --run BENCH        open the screens on the live run of BENCH\n"
    "  --demo[=PROFILE]   run a profile (quick) in a loop until a key is pressed\n"
    "  --theme NAME       colour theme: default, light, ti, high-contrast, mono\n"
    "                     or a theme file\n"
    "  --slow-tty         redraw a live run at most once per 2 s (slow serial)\n"
    "  --ui tui|line      line: no screens, results as lines (logs, dumb terminals)\n"
    "  --section TEXT     refs: only sections whose path contains TEXT\n"
    "  --category NAME    same as --section\n"
    "  --layout NAME      import-guide: auto, cells, rows, markdown, rst\n"
    "  -h, --help         this text\n"
    "  -V, --version      the version\n"
    "\n"
    "Exit status: 0 success, 1 error or a metric beyond --fail-on-deviation,\n"
    "2 usage error, 3 a benchmark failed.\n";

static int usage_error(struct cli *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int usage_error(struct cli *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("evmbench: ", c->err);
    vfprintf(c->err, fmt, ap);
    va_end(ap);
    fputs(" (try 'evmbench --help')\n", c->err);
    return EXIT_USAGE;
}

static bool format_is(const struct cli *c, const char *name)
{
    return strcmp(c->format ? c->format : "text", name) == 0;
}

static int check_format(struct cli *c, const char *const *allowed)
{
    const char *f = c->format ? c->format : "text";
    for (size_t i = 0; allowed[i]; i++)
        if (strcmp(f, allowed[i]) == 0)
            return 0;
    struct strbuf sb;
    sb_init(&sb);
    for (size_t i = 0; allowed[i]; i++)
        sb_addf(&sb, "%s%s", i ? ", " : "", allowed[i]);
    int rc = usage_error(c, "unknown format '%s' for this command (choose %s)", f, sb.buf);
    sb_free(&sb);
    return rc;
}

/* Where the command's output goes: stdout, or -o FILE. */
static FILE *open_output(struct cli *c)
{
    if (!c->output || strcmp(c->output, "-") == 0)
        return c->out;
    FILE *f = fopen(c->output, "w");
    if (!f)
        fprintf(c->err, "evmbench: %s: %s\n", c->output, strerror(errno));
    return f;
}

static int close_output(struct cli *c, FILE *f)
{
    if (f == c->out)
        return fflush(f) == 0 ? 0 : 1;
    if (fclose(f) != 0) {
        fprintf(c->err, "evmbench: %s: %s\n", c->output, strerror(errno));
        return 1;
    }
    return 0;
}

static void dump_json(json_t *j, FILE *f)
{
    json_dumpf(j, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
    fputc('\n', f);
}

static void print_diag(struct cli *c, const struct diag *d)
{
    for (size_t i = 0; i < d->n; i++)
        fprintf(c->err, "evmbench: %s\n", d->msgs[i]);
}

/* --board must name a column some loaded guide has. */
static int check_board(struct cli *c, const struct app *a)
{
    if (!c->cfg.board || refdb_has_board(a->refdb, c->cfg.board))
        return 0;
    struct strbuf sb;
    sb_init(&sb);
    for (size_t i = 0; i < a->refdb->ntables; i++)
        for (size_t k = 0; k < a->refdb->tables[i]->ncols; k++) {
            const char *b = a->refdb->tables[i]->cols[k].board;
            if (b && (!sb.buf || !strstr(sb.buf, b)))
                sb_addf(&sb, "%s%s", sb.len ? ", " : "", b);
        }
    int rc = usage_error(c, "no guide has numbers for board '%s' (known: %s)",
                         c->cfg.board, sb.len ? sb.buf : "none");
    sb_free(&sb);
    return rc;
}

/* --- sysinfo ------------------------------------------------------------- */

/* The guide's "Evaluation Modules" facts of the board, or null. */
static json_t *evm_json(const struct ref_board *e)
{
    if (!e)
        return json_null();
    json_t *o = json_object();
    json_object_set_new(o, "key", json_string(e->key));
    json_object_set_new(o, "name", e->name ? json_string(e->name) : json_null());
    json_object_set_new(o, "description",
                        e->description ? json_string(e->description) : json_null());
    json_object_set_new(o, "cpu_mhz", e->cpu_mhz > 0 ? json_real(e->cpu_mhz) : json_null());
    json_object_set_new(o, "ddr_type", e->ddr_type ? json_string(e->ddr_type) : json_null());
    json_object_set_new(o, "ddr_mts", e->ddr_mts > 0 ? json_real(e->ddr_mts) : json_null());
    json_object_set_new(o, "source", json_string(e->source->title));
    return o;
}

static void evm_text(const struct ref_board *e, FILE *f)
{
    if (!e) {
        board_print_field(f, "Guide EVM", "none (no guide describes this board)");
        return;
    }
    char *line = xasprintf("%s, %s", e->name ? e->name : e->key, e->source->title);
    board_print_field(f, "Guide EVM", line);
    free(line);
    char clock[32] = "", ddr[64] = "";
    if (e->cpu_mhz > 0)
        snprintf(clock, sizeof clock, "%.0f MHz", e->cpu_mhz);
    if (e->ddr_mts > 0)
        snprintf(ddr, sizeof ddr, "%s%s%.0f MT/s", e->ddr_type ? e->ddr_type : "",
                 e->ddr_type ? " " : "", e->ddr_mts);
    board_print_field(f, "Guide CPU", clock[0] ? clock : NULL);
    board_print_field(f, "Guide DDR", ddr[0] ? ddr : NULL);
}

static int cmd_sysinfo(struct cli *c)
{
    static const char *const fmts[] = { "text", "json", NULL };
    if (check_format(c, fmts))
        return EXIT_USAGE;
    /* The board itself needs no guide; its EVM facts come from one. */
    struct app a;
    app_init(&a, &c->cfg);
    print_diag(c, &a.diag);
    const struct ref_board *evm = refdb_board(a.refdb, a.ref_board);
    FILE *f = open_output(c);
    if (!f) {
        app_free(&a);
        return 1;
    }
    struct priv_report pr;
    priv_probe(c->cfg.sysroot, &pr);
    if (format_is(c, "json")) {
        json_t *j = board_to_json(&a.board);
        json_object_set_new(j, "evm", evm_json(evm));
        json_object_set_new(j, "privileges", priv_to_json(&pr));
        dump_json(j, f);
        json_decref(j);
    } else {
        board_print_text(&a.board, f);
        evm_text(evm, f);
        priv_print_text(&pr, f);
    }
    app_free(&a);
    return close_output(c, f);
}

/* --- refs ---------------------------------------------------------------- */

static char *section_path(const struct ref_table *t)
{
    struct strbuf sb;
    sb_init(&sb);
    for (size_t i = 0; i < t->nsection; i++)
        sb_addf(&sb, "%s%s", i ? " / " : "", t->section[i]);
    return sb_steal(&sb);
}

static json_t *ref_json_number(bool have, double v)
{
    return have ? json_real(v) : json_null();
}

static void csv_number(FILE *f, bool have, double v, bool last)
{
    char buf[32] = "";
    if (have)
        snprintf(buf, sizeof buf, "%.10g", v);
    export_csv_field(f, buf, last);
}

/* One line of the refs table, 80 columns; the board column is left out
 * when --board already says which. */
static void print_ref_line(FILE *f, bool with_board, const char *board, const char *metric,
                           const char *column, const char *unit, const char *value)
{
    if (with_board)
        fprintf(f, "%-15.15s %-20.20s %-12.12s %-10.10s %19.19s\n", board, metric, column,
                unit, value);
    else
        fprintf(f, "%-30.30s %-14.14s %-12.12s %20.20s\n", metric, column, unit, value);
}

static int cmd_refs(struct cli *c, struct app *a)
{
    static const char *const fmts[] = { "text", "json", "csv", NULL };
    if (check_format(c, fmts))
        return EXIT_USAGE;
    int rc = check_board(c, a);
    if (rc)
        return rc;
    FILE *f = open_output(c);
    if (!f)
        return 1;
    json_t *arr = json_array();
    if (format_is(c, "csv"))
        fputs("source,board,section,table,metric,column,unit,avg,min,max\n", f);
    else if (format_is(c, "text"))
        print_ref_line(f, c->cfg.board == NULL, "BOARD", "METRIC", "COLUMN", "UNIT",
                       "AVG (MIN-MAX)");
    const char *last_section = NULL;
    char *last_path = NULL;
    for (size_t i = 0; i < a->refdb->ntables; i++) {
        const struct ref_table *t = a->refdb->tables[i];
        char *path = section_path(t);
        if (c->section && !strcasestr(path, c->section)) {
            free(path);
            continue;
        }
        for (size_t r = 0; r < t->nrows; r++)
            for (size_t k = 0; k < t->ncols; k++) {
                const struct ref_row *row = &t->rows[r];
                const struct ref_column *col = &t->cols[k];
                const struct ref_value *v = &row->values[k];
                if (c->cfg.board && (!col->board || strcmp(col->board, c->cfg.board) != 0))
                    continue;
                if (!v->present && !v->text)
                    continue;
                const char *unit = row->unit ? row->unit : col->unit;
                if (format_is(c, "json")) {
                    json_t *o = json_object();
                    json_object_set_new(o, "source", json_string(t->source->title));
                    json_object_set_new(o, "board", col->board ? json_string(col->board) : json_null());
                    json_object_set_new(o, "section", json_string(path));
                    json_object_set_new(o, "table", json_string(t->title));
                    json_object_set_new(o, "metric", json_string(row->name));
                    json_object_set_new(o, "column", json_string(col->name));
                    json_object_set_new(o, "unit", unit ? json_string(unit) : json_null());
                    if (v->present)
                        json_object_set_new(o, "avg", json_real(v->avg));
                    else
                        json_object_set_new(o, "avg", json_null());
                    json_object_set_new(o, "min", ref_json_number(v->has_min, v->min));
                    json_object_set_new(o, "max", ref_json_number(v->has_max, v->max));
                    if (v->text)
                        json_object_set_new(o, "text", json_string(v->text));
                    json_array_append_new(arr, o);
                } else if (format_is(c, "csv")) {
                    export_csv_field(f, t->source->title, false);
                    export_csv_field(f, col->board, false);
                    export_csv_field(f, path, false);
                    export_csv_field(f, t->title, false);
                    export_csv_field(f, row->name, false);
                    export_csv_field(f, col->name, false);
                    export_csv_field(f, unit, false);
                    if (v->present)
                        csv_number(f, true, v->avg, false);
                    else
                        export_csv_field(f, v->text, false);
                    csv_number(f, v->has_min, v->min, false);
                    csv_number(f, v->has_max, v->max, true);
                } else {
                    if (!last_path || strcmp(last_path, path) != 0 || last_section != t->title) {
                        /* clipped: a terminal of 80 columns must not wrap */
                        fprintf(f, "\n%.80s\n  %.78s\n", path, t->title);
                        free(last_path);
                        last_path = xstrdup(path);
                        last_section = t->title;
                    }
                    char val[48];
                    if (!v->present)
                        snprintf(val, sizeof val, "%.19s", v->text);
                    else if (v->has_min && v->has_max)
                        snprintf(val, sizeof val, "%.2f (%.0f-%.0f)", v->avg, v->min, v->max);
                    else
                        snprintf(val, sizeof val, "%.2f", v->avg);
                    print_ref_line(f, c->cfg.board == NULL, col->board ? col->board : "-",
                                   row->name, col->name, unit ? unit : "", val);
                }
            }
        free(path);
    }
    free(last_path);
    if (format_is(c, "json"))
        dump_json(arr, f);
    json_decref(arr);
    return close_output(c, f);
}

/* --- list ---------------------------------------------------------------- */

/* What runs a benchmark here, in a few words: "kernel", "kernel + tool",
 * "kernel (no tool)" when the SDK's tool is not installed, "reference only". */
static void providers_summary(const struct cat_bench *b, char *buf, size_t n)
{
    size_t kernels = 0, tools = 0, found = 0;
    for (size_t k = 0; k < b->nkernels; k++) {
        if (b->kernels[k]->extra)
            continue;
        if (toolkernel_recipe(b->kernels[k])) {
            tools++;
            found += app_kernel_available(b->kernels[k]);
        } else {
            kernels++;
        }
    }
    const char *tool = !tools ? "" : found == tools ? "tool" : found ? "some tools"
                     : "no tool";
    if (!kernels && !tools)
        snprintf(buf, n, "reference only");
    else if (kernels && tools)
        snprintf(buf, n, found ? "kernel + %s" : "kernel (%s)", tool);
    else
        snprintf(buf, n, "%s", kernels ? "kernel" : found ? tool : "tool (not found)");
}

static int cmd_list(struct cli *c, struct app *a)
{
    static const char *const fmts[] = { "text", "json", NULL };
    if (check_format(c, fmts))
        return EXIT_USAGE;
    FILE *f = open_output(c);
    if (!f)
        return 1;
    json_t *arr = json_array();
    for (size_t i = 0; i < a->catalog->ncats; i++) {
        const struct cat_category *cat = &a->catalog->cats[i];
        if (!format_is(c, "json"))
            fprintf(f, "%s\n", cat->title);
        for (size_t j = 0; j < cat->nbenches; j++) {
            const struct cat_bench *b = cat->benches[j];
            size_t nref = cat_bench_count_metrics(b);
            if (format_is(c, "json")) {
                json_t *o = json_object();
                json_object_set_new(o, "category", json_string(cat->title));
                json_object_set_new(o, "bench", json_string(b->slug));
                json_object_set_new(o, "title", json_string(b->title));
                json_t *prov = json_array(), *avail = json_array();
                char id[64];
                for (size_t k = 0; k < b->nkernels; k++) {
                    kernel_provider_id(b->kernels[k], id, sizeof id);
                    json_array_append_new(prov, json_string(id));
                    if (app_kernel_available(b->kernels[k]))
                        json_array_append_new(avail, json_string(id));
                }
                json_t *blocked = json_object();
                for (size_t k = 0; k < b->nkernels; k++) {
                    const struct recipe_bench *rb = toolkernel_recipe(b->kernels[k]);
                    const char *why = rb ? recipe_unrunnable(rb, NULL) : NULL;
                    kernel_provider_id(b->kernels[k], id, sizeof id);
                    if (why)
                        json_object_set_new(blocked, id, json_string(why));
                }
                json_object_set_new(o, "providers", prov);
                json_object_set_new(o, "available", avail);
                json_object_set_new(o, "not_runnable", blocked);
                json_object_set_new(o, "runnable", json_boolean(json_array_size(avail) > 0));
                json_object_set_new(o, "ref_metrics", json_integer((json_int_t)nref));
                json_array_append_new(arr, o);
            } else {
                char summary[48];
                providers_summary(b, summary, sizeof summary);
                fprintf(f, "  %-22.22s %-25.25s %-19.19s %4zu refs\n", b->slug, b->title,
                        summary, nref);
                for (size_t k = 0; k < b->nkernels; k++) {
                    const struct recipe_bench *rb = toolkernel_recipe(b->kernels[k]);
                    const char *why = rb ? recipe_unrunnable(rb, NULL) : NULL;
                    char id[64];
                    kernel_provider_id(b->kernels[k], id, sizeof id);
                    if (why)
                        fprintf(f, "    %s not runnable: %s\n", id, why);
                }
            }
        }
    }
    if (format_is(c, "json"))
        dump_json(arr, f);
    json_decref(arr);
    return close_output(c, f);
}

/* --- run ----------------------------------------------------------------- */

/* Whether a row is wanted: all of them, unless the profile's entry for
 * this kernel (by kernel or section name) lists the metrics it keeps. */
static bool row_wanted(const struct cli *c, const struct run *run, const char *metric)
{
    for (size_t i = 0; c->profile_name && i < c->profile.n; i++) {
        const struct profile_bench *b = &c->profile.benches[i];
        if (strcasecmp(b->name, run->kernel->name) == 0 ||
            strcasecmp(b->name, run->kernel->section) == 0)
            return profile_bench_keeps(b, metric);
    }
    return true;
}

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
             run->metrics[m].def->unit);
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

/* Not a terminal: each finished metric as one line a log keeps. */
static void metric_lines(struct cli *c, const struct run *run)
{
    for (size_t m = 0; m < run->nmetrics; m++) {
        if (!row_wanted(c, run, run->metrics[m].def->id))
            continue;
        struct result_row row;
        result_row_make(&row, run, m, &c->app->cmp);
        if (row.status != STATUS_OK) {
            fprintf(c->err, "evmbench: %s %s: %s\n", row.bench, row.metric,
                    row.error ? row.error : status_name(row.status));
        } else if (row.dev.has_ref) {
            fprintf(c->err, "evmbench: %s %s = %.6g %s (guide %.6g, %+.1f%%, %s)\n", row.bench,
                    row.metric, row.value, row.unit, row.ref_avg, row.dev.pct,
                    verdict_name(row.dev.verdict));
        } else if (row.samples) {
            fprintf(c->err, "evmbench: %s %s = %.6g %s\n", row.bench, row.metric, row.value,
                    row.unit);
        }
    }
}

/* Prints a finished run's rows at once, so a long batch shows its results
 * as it goes (text only: JSON is one document at the end). */
static void print_run_text(struct cli *c, const struct run *run)
{
    const struct app *a = c->app;
    char id[64];
    kernel_provider_id(run->kernel, id, sizeof id);
    fprintf(c->run_out, "\n%s (%s)\n", run->kernel->section, id);
    result_print_text_header(c->run_out);
    for (size_t m = 0; m < run->nmetrics; m++) {
        if (!row_wanted(c, run, run->metrics[m].def->id))
            continue;
        struct result_row row;
        result_row_make(&row, run, m, &a->cmp);
        result_row_print_text(&row, c->run_out);
    }
    fflush(c->run_out);
}

/* Files a finished run's rows: into the list for the output and, at
 * once, into the results store. */
static void keep_rows(struct cli *c, const struct run *run)
{
    for (size_t m = 0; m < run->nmetrics; m++) {
        if (!row_wanted(c, run, run->metrics[m].def->id))
            continue;
        struct result_row row;
        result_row_make(&row, run, m, &c->app->cmp);
        json_t *j = result_row_json(&row);
        char err[512];
        if (c->store && store_append(c->store, j, err, sizeof err) != 0) {
            /* said once; what is on disk stays, marked incomplete */
            fprintf(c->err, "evmbench: warning: %s; the rest of this run is not saved\n", err);
            store_finish(c->store, false, err, sizeof err);
            c->store = NULL;
        }
        json_array_append_new(c->rows, j);
    }
}

static void line_on_done(void *ctx, const struct run *run)
{
    struct cli *c = ctx;
    status_clear(c);
    keep_rows(c, run);
    if (c->run_out)
        print_run_text(c, run);
    if (!c->quiet && !c->status_tty)
        metric_lines(c, run);
    if (c->quiet && run->status == STATUS_OK)
        return;
    if (run->status == STATUS_OK)
        fprintf(c->err, "evmbench: %s finished in %.1f s\n", run->kernel->name,
                run->ended - run->started);
    else
        fprintf(c->err, "evmbench: %s %s: %s\n", run->kernel->name,
                status_name(run->status), run->error ? run->error : status_message(run->status));
}

static const struct sink line_sink = {
    .on_sample = line_on_sample,
    .on_progress = line_on_progress,
    .on_note = line_on_note,
    .on_done = line_on_done,
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
                return usage_error(c, "'%s' has reference numbers only; nothing here can run it", name);
            }
            count = app_bench_kernels(a, b, list);
        } else if (cat) {
            for (size_t j = 0; j < cat->nbenches; j++)
                if (count + cat->benches[j]->nkernels <= ARRAY_SIZE(list))
                    count += app_bench_kernels(a, cat->benches[j], list + count);
            if (!count) {
                free(*out);
                return usage_error(c, "nothing in category '%s' can run here", name);
            }
        } else {
            free(*out);
            return usage_error(c, "unknown benchmark or category '%s' (see 'evmbench list')", name);
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

/* The format of `run` and `results export`: --format, else the -o file's
 * extension, else text. */
static const char *output_format(const struct cli *c)
{
    if (c->format)
        return c->format;
    const char *f = c->output ? export_format_for_path(c->output) : NULL;
    return f ? f : "text";
}

/* Opens this run's file in the results store; a store that cannot be
 * written costs a warning, never the run. */
static void open_store(struct cli *c, struct app *a, const struct run_options *opt)
{
    if (c->no_save)
        return;
    char *dir = c->results_dir ? xstrdup(c->results_dir) : store_default_dir();
    if (!dir) {
        fprintf(c->err, "evmbench: warning: results not saved: set --results-dir, "
                "XDG_DATA_HOME or HOME\n");
        return;
    }
    json_t *h = json_object();
    json_object_set_new(h, "version", json_string(PACKAGE_VERSION));
    json_object_set_new(h, "board", a->ref_board ? json_string(a->ref_board) : json_null());
    json_object_set_new(h, "board_name", a->board.name ? json_string(a->board.name)
                                                      : json_null());
    json_object_set_new(h, "quick", json_boolean(opt->params.quick));
    json_object_set_new(h, "tolerance_pct", json_real(a->tolerance_pct));
    json_object_set_new(h, "provider", json_string(provider_pref_name(a->provider)));
    json_t *args = json_array();
    for (int i = 0; i < c->nargs; i++)
        json_array_append_new(args, json_string(c->args[i]));
    json_object_set_new(h, "benchmarks", args);
    char err[512];
    c->store = store_begin(dir, a->ref_board ? a->ref_board : a->board.name, h,
                           err, sizeof err);
    json_decref(h);
    if (!c->store)
        fprintf(c->err, "evmbench: warning: results not saved: %s\n", err);
    free(dir);
}

static void utc_now(char *buf, size_t n)
{
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, n, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* --lava-kmsg: each LAVA line is one write to the kernel log, so kernel
 * messages on the same serial console cannot split it. */
static int lava_to_kmsg(struct cli *c, json_t *rows)
{
    char *text;
    size_t len;
    FILE *mem = open_memstream(&text, &len);
    export_rows(mem, "lava", rows, c->fail_pct, NULL);
    fclose(mem);
    int fd = open(c->kmsg, O_WRONLY | O_APPEND | O_CLOEXEC);
    if (fd < 0) {
        fprintf(c->err, "evmbench: %s: %s (--lava-kmsg needs write access to it; "
                "root, or drop --lava-kmsg)\n", c->kmsg, strerror(errno));
        free(text);
        return -1;
    }
    int rc = 0;
    for (char *line = text, *nl; *line; line = nl + 1) {
        nl = strchr(line, '\n');
        if (!nl)
            break;
        size_t n = (size_t)(nl - line) + 1;
        if (write(fd, line, n) != (ssize_t)n) {
            fprintf(c->err, "evmbench: %s: %s\n", c->kmsg, strerror(errno));
            rc = -1;
            break;
        }
    }
    close(fd);
    free(text);
    return rc;
}

/* --baseline: adds the change from it to every row. */
static int apply_baseline(struct cli *c)
{
    if (!c->baseline)
        return 0;
    char *dir = c->results_dir ? xstrdup(c->results_dir) : store_default_dir();
    struct diag d;
    diag_init(&d);
    json_t *base = dir ? store_load_baseline(dir, c->baseline, &d) : NULL;
    for (size_t i = 0; i < d.n; i++)
        fprintf(c->err, "evmbench: %s\n", d.msgs[i]);
    if (!dir)
        fprintf(c->err, "evmbench: no results store: set --results-dir, XDG_DATA_HOME or HOME\n");
    diag_free(&d);
    free(dir);
    if (!base)
        return -1;
    export_add_baseline(c->rows, base);
    json_decref(base);
    return 0;
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
        return usage_error(c, "--profile %s: not a usable profile, benchmark or category",
                           c->profile_name);
    *names = xcalloc(c->profile.n + 1, sizeof **names);
    int n = 0;
    for (size_t i = 0; i < c->profile.n; i++) {
        const struct profile_bench *pb = &c->profile.benches[i];
        const struct kernel *k = app_find_kernel(a, pb->name);
        const struct cat_bench *b = catalog_find_bench(a->catalog, pb->name);
        if (!k && !b && !catalog_find_category(a->catalog, pb->name))
            return usage_error(c, "%s:%d: no benchmark or category '%s' (see 'evmbench list')",
                               c->profile.path, pb->line, pb->name);
        const struct kernel *list[256];
        size_t can = k ? app_kernel_available(k) : 0;
        if (!k && b) {
            size_t got = app_bench_kernels(a, b, list);
            for (size_t j = 0; j < got; j++)
                can += app_kernel_available(list[j]);
        } else if (!k) {
            can = 1;            /* a category: run takes what it can */
        }
        if (!can) {
            fprintf(c->err, "evmbench: %s:%d: %s left out: nothing here runs it\n",
                    c->profile.path, pb->line, pb->name);
            continue;
        }
        (*names)[n++] = pb->name;
    }
    if (!n)
        return usage_error(c, "--profile %s: nothing in it can run here", c->profile_name);
    c->args = *names;
    c->nargs = n;
    if (c->profile.quick)
        a->run_opts.params.quick = true;
    return 0;
}

static int cmd_run(struct cli *c, struct app *a)
{
    static const char *const fmts[] = { "text", "json", "csv", "lava", "junit", NULL };
    const char *format = output_format(c);
    c->format = format;
    if (check_format(c, fmts))
        return EXIT_USAGE;
    if (c->profile_name && !c->profile_loaded) {
        c->profile_loaded = true;
        if (c->nargs)
            return usage_error(c, "run takes benchmarks or --profile, not both");
        char **names;
        int prc = load_profile(c, a, &names);
        if (prc) {
            free(names);
            return prc;
        }
        int status = cmd_run(c, a);
        free(names);
        return status;
    }
    if (c->nargs == 0)
        return usage_error(c, "run needs a benchmark or category (see 'evmbench list')");
    int rc = check_board(c, a);
    if (rc)
        return rc;
    const struct kernel **ks;
    size_t nk;
    if ((rc = resolve_benches(c, a, &ks, &nk)))
        return rc;
    FILE *f = open_output(c);
    if (!f) {
        free(ks);
        return 1;
    }
    struct run_options opt = a->run_opts;
    if (format_is(c, "text"))
        fprintf(f, "Board: %s\nReference: %s\n", a->board.name ? a->board.name : "unknown",
                a->ref_board ? a->ref_board : "none (choose a guide column with --board KEY)");

    /* CPU-bound kernels: check the conditions first, compare at the clock
     * the worker's core really runs at, and look for throttling after. */
    struct cpu_watch watch;
    app_cpu_watch_begin(a, ks, nk, &watch);
    for (size_t i = 0; i < watch.warnings.count; i++)
        fprintf(c->err, "evmbench: warning: %s\n", watch.warnings.items[i].text);

    c->app = a;
    c->rows = json_array();
    open_store(c, a, &opt);
    c->run_out = format_is(c, "text") ? f : NULL;
    int efd = fileno(c->err);
    c->status_tty = efd >= 0 && isatty(efd);
    c->batch_started = now_seconds();
    char started[32];
    utc_now(started, sizeof started);
    struct batch *batch = batch_start(ks, nk, &opt, &line_sink, c);
    c->batch = batch;
    batch_wait(batch, -1);
    status_clear(c);
    c->batch = NULL;
    c->run_out = NULL;
    char ended[32];
    utc_now(ended, sizeof ended);
    size_t had = watch.warnings.count;
    app_cpu_watch_end(a, &watch);
    for (size_t i = had; i < watch.warnings.count; i++)
        fprintf(c->err, "evmbench: warning: %s\n", watch.warnings.items[i].text);
    bool failed = false;
    for (size_t i = 0; i < batch->n; i++) {
        struct run *run = batch->runs[i];
        if (!run) {
            fprintf(c->err, "evmbench: %s: %s\n", ks[i]->name,
                    batch->start_errors[i] ? batch->start_errors[i] : "not started");
            failed = true;
            continue;
        }
        if (run->status != STATUS_OK)
            failed = true;
        for (size_t m = 0; m < run->nmetrics; m++) {
            struct result_row row;
            result_row_make(&row, run, m, &a->cmp);
            if (row.status != STATUS_OK)
                failed = true;
        }
    }
    batch_free(batch);

    char *run_id = c->store ? xstrdup(store_writer_id(c->store)) : NULL;
    char err[512];
    if (c->store && store_finish(c->store, true, err, sizeof err) != 0)
        fprintf(c->err, "evmbench: warning: %s\n", err);
    c->store = NULL;
    bool baseline_ok = apply_baseline(c) == 0;

    if (format_is(c, "json")) {
        json_t *o = json_object();
        json_object_set_new(o, "run_id", run_id ? json_string(run_id) : json_null());
        json_object_set_new(o, "version", json_string(PACKAGE_VERSION));
        json_object_set_new(o, "started", json_string(started));
        json_object_set_new(o, "ended", json_string(ended));
        json_object_set_new(o, "board", a->ref_board ? json_string(a->ref_board) : json_null());
        json_object_set_new(o, "board_name", a->board.name ? json_string(a->board.name) : json_null());
        json_object_set_new(o, "tolerance_pct", json_real(a->tolerance_pct));
        json_object_set_new(o, "quick", json_boolean(opt.params.quick));
        json_object_set_new(o, "provider", json_string(provider_pref_name(a->provider)));
        json_object_set_new(o, "baseline", c->baseline ? json_string(c->baseline) : json_null());
        json_object_set_new(o, "guide_mhz", a->cmp.guide_mhz > 0 ? json_real(a->cmp.guide_mhz)
                                                                 : json_null());
        json_object_set_new(o, "clock_mhz", a->cmp.live_mhz > 0 ? json_real(a->cmp.live_mhz)
                                                                : json_null());
        json_t *warn = json_array();
        for (size_t i = 0; i < watch.warnings.count; i++)
            json_array_append_new(warn, json_string(watch.warnings.items[i].text));
        json_object_set_new(o, "warnings", warn);
        json_t *settings = json_object();
        json_object_set_new(settings, "quick", json_boolean(opt.params.quick));
        json_object_set_new(settings, "tolerance_pct", json_real(a->tolerance_pct));
        json_object_set_new(settings, "provider", json_string(provider_pref_name(a->provider)));
        json_object_set_new(settings, "timeout_s", opt.timeout_s > 0 ? json_real(opt.timeout_s)
                                                                     : json_null());
        json_object_set_new(settings, "size", opt.params.size ? json_integer((json_int_t)opt.params.size)
                                                              : json_null());
        json_object_set_new(settings, "iterations", opt.params.iterations
                            ? json_integer(opt.params.iterations) : json_null());
        json_object_set_new(settings, "threads", opt.params.threads
                            ? json_integer(opt.params.threads) : json_null());
        json_object_set_new(settings, "profile", c->profile_loaded && c->profile.name
                            ? json_string(c->profile.name) : json_null());
        json_object_set_new(o, "settings", settings);
        json_object_set_new(o, "sysinfo", board_to_json(&a->board));
        json_object_set_new(o, "results", json_incref(c->rows));
        dump_json(o, f);
        json_decref(o);
    } else if (format_is(c, "lava") && c->kmsg) {
        if (lava_to_kmsg(c, c->rows) != 0)
            failed = true;
    } else if (!format_is(c, "text")) {
        export_rows(f, format, c->rows, c->fail_pct, "evmbench");
    } else if (c->baseline && baseline_ok) {
        fprintf(f, "\nAgainst baseline %s\n", c->baseline);
        export_rows(f, "text", c->rows, c->fail_pct, NULL);
    }
    if (format_is(c, "text") && run_id)
        fprintf(c->err, "evmbench: saved as run %s\n", run_id);

    if (c->save_baseline) {
        char *dir = c->results_dir ? xstrdup(c->results_dir) : store_default_dir();
        if (!dir || store_save_baseline(dir, c->save_baseline, run_id, c->rows,
                                        err, sizeof err) != 0) {
            fprintf(c->err, "evmbench: baseline not saved: %s\n",
                    dir ? err : "set --results-dir, XDG_DATA_HOME or HOME");
            failed = true;
        }
        free(dir);
    }
    bool beyond = false;
    size_t i;
    json_t *row;
    json_array_foreach(c->rows, i, row)
        if (c->fail_pct > 0 && strcmp(json_string_value(json_object_get(row, "status")), "ok") == 0 &&
            export_row_failure(row, c->fail_pct))
            beyond = true;
    json_decref(c->rows);
    c->rows = NULL;
    free(run_id);
    app_cpu_watch_free(&watch);
    free(ks);
    rc = close_output(c, f);
    if (failed)
        return EXIT_BENCH_FAILED;
    if (!baseline_ok)
        return 1;
    return rc ? rc : beyond ? 1 : 0;
}

/* --- selfcheck ------------------------------------------------------------ */

static int cmd_selfcheck(struct cli *c, struct app *a)
{
    static const char *const fmts[] = { "text", "json", NULL };
    if (check_format(c, fmts))
        return EXIT_USAGE;
    FILE *f = open_output(c);
    if (!f)
        return 1;
    struct selfcheck_options so = { .names = c->args, .nnames = c->nargs,
                                    .rounds = c->rounds, .json = format_is(c, "json") };
    int rc = selfcheck_run(a, &so, f, c->err);
    int crc = close_output(c, f);
    return rc ? rc : crc;
}

/* --- import-guide -------------------------------------------------------- */

/* Writes j to path through a temporary file, so a failure leaves no half file. */
static int write_json_file(struct cli *c, json_t *j, const char *path)
{
    char *tmp = xasprintf("%s.tmp%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "w");
    int rc = 0;
    if (!f || json_dumpf(j, f, GUIDE_JSON_FLAGS) != 0 ||
        fputc('\n', f) == EOF || fclose(f) != 0 || rename(tmp, path) != 0) {
        fprintf(c->err, "evmbench: %s: %s\n", path, strerror(errno));
        unlink(tmp);
        rc = 1;
    }
    free(tmp);
    return rc;
}

static bool is_directory(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* OUT.json for FILE inside a directory: the guide's base name, .json. */
static char *output_name(const char *dir, const char *guide)
{
    const char *base = strrchr(guide, '/');
    base = base ? base + 1 : guide;
    const char *dot = strrchr(base, '.');
    size_t n = dot && dot != base ? (size_t)(dot - base) : strlen(base);
    char *name = xasprintf("%.*s.json", (int)n, base);
    char *p = path_join(dir, name);
    free(name);
    return p;
}

static int cmd_import_guide(struct cli *c)
{
    if (c->nargs == 0)
        return usage_error(c, "import-guide needs at least one guide file");
    int layout = guide_layout_parse(c->layout ? c->layout : "auto");
    if (layout < 0)
        return usage_error(c, "unknown layout '%s' (auto, cells, rows, markdown, rst)", c->layout);
    bool to_dir = c->output && is_directory(c->output);
    if (c->nargs > 1 && !to_dir)
        return usage_error(c, "several guides need -o DIR (an existing folder)");
    int rc = 0;
    for (int i = 0; i < c->nargs; i++) {
        struct diag dg;
        diag_init(&dg);
        json_t *j = guide_import_file(c->args[i], (enum guide_layout)layout, &dg);
        print_diag(c, &dg);
        diag_free(&dg);
        if (!j) {
            rc = 1;
            continue;
        }
        if (to_dir) {
            char *p = output_name(c->output, c->args[i]);
            rc |= write_json_file(c, j, p);
            free(p);
        } else if (c->output && strcmp(c->output, "-") != 0) {
            rc |= write_json_file(c, j, c->output);
        } else {
            json_dumpf(j, c->out, GUIDE_JSON_FLAGS);
            fputc('\n', c->out);
        }
        json_decref(j);
    }
    return rc;
}

/* --- the screens --------------------------------------------------------- */

static int cmd_tui(struct cli *c, struct app *a)
{
    int rc = check_board(c, a);
    if (rc)
        return rc;
    if (c->run && !app_find_kernel(a, c->run)) {
        const struct cat_bench *b = catalog_find_bench(a->catalog, c->run);
        if (!b || !b->nkernels)
            return usage_error(c, "--run: '%s' is not a benchmark that can run here", c->run);
    }
    if (c->ui && strcmp(c->ui, "line") == 0) {
        /* No screens: the run as lines, or the menu as a list. */
        if (!c->run)
            return cmd_list(c, a);
        char *args[] = { (char *)c->run };
        c->args = args;
        c->nargs = 1;
        return cmd_run(c, a);
    }
    print_diag(c, &a->diag);
    char *store = c->no_save ? NULL
                  : c->results_dir ? xstrdup(c->results_dir) : store_default_dir();
    struct ui_options uo = { .run = c->run, .demo = c->demo, .theme = c->theme,
                             .updates_per_s = c->slow_tty ? 0.5 : 0, .results_dir = store };
    struct settings st;
    settings_init(&st);
    char *path = settings_default_path();
    struct diag dg;
    diag_init(&dg);
    if (path)
        settings_load(&st, path, &dg);
    print_diag(c, &dg);
    diag_free(&dg);
    /* the command line wins over the file */
    if (st.has_budget && !c->cfg.quick)
        a->run_opts.params.quick = st.quick;
    if (st.has_tolerance && !(c->cfg.tolerance_pct > 0))
        app_set_tolerance(a, st.tolerance_pct);
    if (st.has_provider && !c->provider_set)
        a->provider = st.provider;
    uo.settings = &st;
    uo.settings_path = path;
    /* a static binary on a board without a terminfo database */
    embedded_terminfo_setup(getenv("TERM"));
    rc = ui_main(a, &uo);
    free(path);
    free(store);
    return rc;
}

/* --- results -------------------------------------------------------------- */

static int cmd_results(struct cli *c)
{
    char *dir = c->results_dir ? xstrdup(c->results_dir) : store_default_dir();
    if (!dir) {
        fprintf(c->err, "evmbench: no results store: set --results-dir, XDG_DATA_HOME or HOME\n");
        return 1;
    }
    struct results_cmd rc = {
        .dir = dir, .format = output_format(c), .format_given = c->format != NULL,
        .output = c->output, .keep = c->keep, .keep_set = c->keep_set,
        .fail_pct = c->fail_pct, .out = c->out, .err = c->err,
    };
    int status = cli_results(&rc, c->args, c->nargs);
    free(dir);
    return status;
}

/* results import LOG --tool TOOL: needs the recipes and the reference
 * board, so it builds the app the other results commands do without. */
static int cmd_results_import(struct cli *c)
{
    if (c->nargs != 2 || !c->tool)
        return usage_error(c, "results import LOG --tool TOOL");
    char *dir = c->results_dir ? xstrdup(c->results_dir) : store_default_dir();
    if (!dir) {
        fprintf(c->err, "evmbench: no results store: set --results-dir, XDG_DATA_HOME or HOME\n");
        return 1;
    }
    struct app a;
    app_init(&a, &c->cfg);
    print_diag(c, &a.diag);
    int rc = check_board(c, &a);
    if (!rc) {
        struct import_cmd ic = { .dir = dir, .file = c->args[1], .tool = c->tool, .app = &a,
                                 .out = c->out, .err = c->err };
        rc = cli_import(&ic);
        if (rc == 2)
            rc = EXIT_USAGE;
    }
    app_free(&a);
    free(dir);
    return rc;
}

/* --- options ------------------------------------------------------------- */

enum {
    OPT_SYSROOT = 256, OPT_BOARD, OPT_REFS, OPT_FORMAT, OPT_QUICK, OPT_TIMEOUT,
    OPT_TOLERANCE, OPT_SIZE, OPT_ITERATIONS, OPT_RUN, OPT_UI, OPT_SECTION, OPT_LAYOUT,
    OPT_THREADS, OPT_PROVIDER, OPT_TOOLS_DIR, OPT_TOOL, OPT_ROUNDS, OPT_RESULTS_DIR, OPT_NO_SAVE,
    OPT_SAVE_BASELINE, OPT_BASELINE, OPT_FAIL_ON_DEVIATION, OPT_KEEP, OPT_PROFILE, OPT_DEMO,
    OPT_THEME, OPT_SLOW_TTY, OPT_STORAGE_DIR, OPT_ALLOW_RAW, OPT_PEER, OPT_QUIET, OPT_LAVA_KMSG,
    OPT_AUDIO_DEVICE,
};

static const struct option long_options[] = {
    { "help", no_argument, NULL, 'h' },
    { "version", no_argument, NULL, 'V' },
    { "output", required_argument, NULL, 'o' },
    { "sysroot", required_argument, NULL, OPT_SYSROOT },
    { "board", required_argument, NULL, OPT_BOARD },
    { "refs", required_argument, NULL, OPT_REFS },
    { "format", required_argument, NULL, OPT_FORMAT },
    { "quick", no_argument, NULL, OPT_QUICK },
    { "timeout", required_argument, NULL, OPT_TIMEOUT },
    { "tolerance", required_argument, NULL, OPT_TOLERANCE },
    { "size", required_argument, NULL, OPT_SIZE },
    { "iterations", required_argument, NULL, OPT_ITERATIONS },
    { "threads", required_argument, NULL, OPT_THREADS },
    { "provider", required_argument, NULL, OPT_PROVIDER },
    { "tools-dir", required_argument, NULL, OPT_TOOLS_DIR },
    { "tool", required_argument, NULL, OPT_TOOL },
    { "storage-dir", required_argument, NULL, OPT_STORAGE_DIR },
    { "allow-raw-device", no_argument, NULL, OPT_ALLOW_RAW },
    { "peer", required_argument, NULL, OPT_PEER },
    { "audio-device", required_argument, NULL, OPT_AUDIO_DEVICE },
    { "rounds", required_argument, NULL, OPT_ROUNDS },
    { "run", required_argument, NULL, OPT_RUN },
    { "demo", optional_argument, NULL, OPT_DEMO },
    { "theme", required_argument, NULL, OPT_THEME },
    { "slow-tty", no_argument, NULL, OPT_SLOW_TTY },
    { "ui", required_argument, NULL, OPT_UI },
    { "section", required_argument, NULL, OPT_SECTION },
    { "category", required_argument, NULL, OPT_SECTION },
    { "layout", required_argument, NULL, OPT_LAYOUT },
    { "results-dir", required_argument, NULL, OPT_RESULTS_DIR },
    { "no-save", no_argument, NULL, OPT_NO_SAVE },
    { "save-baseline", required_argument, NULL, OPT_SAVE_BASELINE },
    { "baseline", required_argument, NULL, OPT_BASELINE },
    { "fail-on-deviation", required_argument, NULL, OPT_FAIL_ON_DEVIATION },
    { "keep", required_argument, NULL, OPT_KEEP },
    { "profile", required_argument, NULL, OPT_PROFILE },
    { "quiet", no_argument, NULL, OPT_QUIET },
    { "lava-kmsg", optional_argument, NULL, OPT_LAVA_KMSG },
    { NULL, 0, NULL, 0 },
};

static bool parse_positive(const char *s, double max, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end || errno || !(v > 0) || v > max)
        return false;
    *out = v;
    return true;
}

/* Parses the options; returns -1 to go on, else the exit status. */
static int parse_options(struct cli *c, int argc, char **argv)
{
    double v;
    opterr = 0;
    optind = 1;
    int ch;
    while ((ch = getopt_long(argc, argv, ":hVo:", long_options, NULL)) != -1) {
        switch (ch) {
        case 'h':
            fputs(usage_text, c->out);
            return 0;
        case 'V':
            fprintf(c->out, "%s\n", PACKAGE_STRING);
            return 0;
        case 'o': c->output = optarg; break;
        case OPT_SYSROOT: c->cfg.sysroot = optarg; break;
        case OPT_BOARD: c->cfg.board = optarg; break;
        case OPT_REFS: c->cfg.refs = optarg; break;
        case OPT_FORMAT: c->format = optarg; break;
        case OPT_QUICK: c->cfg.quick = true; break;
        case OPT_RUN: c->run = optarg; break;
        case OPT_DEMO: c->demo = optarg ? optarg : "quick"; break;
        case OPT_THEME: c->theme = optarg; break;
        case OPT_SLOW_TTY: c->slow_tty = true; break;
        case OPT_SECTION: c->section = optarg; break;
        case OPT_LAYOUT: c->layout = optarg; break;
        case OPT_UI:
            if (strcmp(optarg, "tui") != 0 && strcmp(optarg, "line") != 0)
                return usage_error(c, "--ui takes tui or line, not '%s'", optarg);
            c->ui = optarg;
            break;
        case OPT_TIMEOUT:
            if (!parse_positive(optarg, 86400, &v))
                return usage_error(c, "--timeout takes seconds (1 to 86400), not '%s'", optarg);
            c->cfg.timeout_s = v;
            break;
        case OPT_TOLERANCE:
            if (!parse_positive(optarg, 1000, &v))
                return usage_error(c, "--tolerance takes a percentage, not '%s'", optarg);
            c->cfg.tolerance_pct = v;
            break;
        case OPT_SIZE:
            if (!parse_positive(optarg, 1e12, &v) || v != floor(v))
                return usage_error(c, "--size takes a whole number, not '%s'", optarg);
            c->cfg.size = (size_t)v;
            break;
        case OPT_ITERATIONS:
            if (!parse_positive(optarg, 1e6, &v) || v != floor(v))
                return usage_error(c, "--iterations takes a whole number, not '%s'", optarg);
            c->cfg.iterations = (int)v;
            break;
        case OPT_PROVIDER: {
            int pref = provider_pref_parse(optarg);
            if (pref < 0)
                return usage_error(c, "--provider takes auto, kernel or tool, not '%s'", optarg);
            c->cfg.provider = (enum provider_pref)pref;
            c->provider_set = true;
            break;
        }
        case OPT_ROUNDS:
            if (!parse_positive(optarg, 100, &v) || v != floor(v))
                return usage_error(c, "--rounds takes a whole number from 1 to 100, not '%s'",
                                   optarg);
            c->rounds = (int)v;
            break;
        case OPT_TOOLS_DIR:
            c->cfg.tools_dir = optarg;
            break;
        case OPT_TOOL: c->tool = optarg; break;
        case OPT_RESULTS_DIR: c->results_dir = optarg; break;
        case OPT_NO_SAVE: c->no_save = true; break;
        case OPT_PROFILE: c->profile_name = optarg; break;
        case OPT_QUIET: c->quiet = true; break;
        case OPT_LAVA_KMSG:
            c->kmsg = optarg ? optarg : "/dev/kmsg";
            if (!c->format)
                c->format = "lava";
            break;
        case OPT_SAVE_BASELINE: c->save_baseline = optarg; break;
        case OPT_BASELINE: c->baseline = optarg; break;
        case OPT_FAIL_ON_DEVIATION:
            if (!parse_positive(optarg, 1e6, &v))
                return usage_error(c, "--fail-on-deviation takes a percentage, not '%s'", optarg);
            c->fail_pct = v;
            break;
        case OPT_KEEP: {
            char *end;
            errno = 0;
            long n = strtol(optarg, &end, 10);
            if (end == optarg || *end || errno || n < 0 || n > 1000000)
                return usage_error(c, "--keep takes a whole number, not '%s'", optarg);
            c->keep = (int)n;
            c->keep_set = true;
            break;
        }
        case OPT_STORAGE_DIR:
            c->storage_dir = optarg;
            break;
        case OPT_ALLOW_RAW:
            c->allow_raw = true;
            break;
        case OPT_PEER:
            c->peer = optarg;
            break;
        case OPT_AUDIO_DEVICE:
            c->audio_device = optarg;
            break;
        case OPT_THREADS:
            if (!parse_positive(optarg, 1024, &v) || v != floor(v))
                return usage_error(c, "--threads takes a whole number from 1 to 1024, not '%s'",
                                   optarg);
            c->cfg.threads = (int)v;
            break;
        case ':':
            return usage_error(c, "option '%s' needs a value", argv[optind - 1]);
        default:
            return usage_error(c, "unknown option '%s'", argv[optind - 1]);
        }
    }
    return -1;
}

/* Checks --storage-dir, --allow-raw-device, --peer and --audio-device and hands them to
 * the recipes; returns -1 to go on, else the exit status. */
static int set_tool_params(struct cli *c)
{
    char *why = NULL, *target = NULL;
    if (c->allow_raw && !c->storage_dir)
        return usage_error(c, "--allow-raw-device needs --storage-dir DEVICE");
    if (c->storage_dir && !toolparam_storage(c->storage_dir, c->allow_raw, &target, &why)) {
        int rc = usage_error(c, "%s", why);
        free(why);
        return rc;
    }
    if (c->peer && !toolparam_peer(c->peer, &why)) {
        int rc = usage_error(c, "%s", why);
        free(why);
        free(target);
        return rc;
    }
    if (c->audio_device && !toolparam_audio_device(c->audio_device, &why)) {
        int rc = usage_error(c, "%s", why);
        free(why);
        free(target);
        return rc;
    }
    recipe_set_option("storage_dir", c->storage_dir);
    recipe_set_option("storage_target", target);
    recipe_set_option("peer", c->peer);
    recipe_set_option("audio_device", c->audio_device);
    free(target);
    return -1;
}

int cli_main(int argc, char **argv, FILE *out, FILE *err)
{
    struct cli c = { .out = out, .err = err };
    int rc = parse_options(&c, argc, argv);
    if (rc >= 0)
        return rc;
    rc = set_tool_params(&c);
    if (rc >= 0)
        return rc;
    const char *cmd = optind < argc ? argv[optind] : NULL;
    c.args = argv + optind + (cmd ? 1 : 0);
    c.nargs = argc - optind - (cmd ? 1 : 0);

    if (cmd && strcmp(cmd, "sysinfo") == 0)
        return c.nargs ? usage_error(&c, "sysinfo takes no arguments") : cmd_sysinfo(&c);
    if (cmd && strcmp(cmd, "import-guide") == 0)
        return cmd_import_guide(&c);
    if (cmd && strcmp(cmd, "results") == 0 && c.nargs && strcmp(c.args[0], "import") == 0)
        return cmd_results_import(&c);
    if (c.tool)
        return usage_error(&c, "--tool is for 'results import LOG --tool TOOL'");
    if (cmd && strcmp(cmd, "results") == 0)
        return cmd_results(&c);

    static const char *const with_app[] = { "list", "refs", "run", "selfcheck", NULL };
    bool known = !cmd;
    for (size_t i = 0; cmd && with_app[i]; i++)
        known |= strcmp(cmd, with_app[i]) == 0;
    if (!known)
        return usage_error(&c, "unknown command '%s'", cmd);
    if (cmd && strcmp(cmd, "run") != 0 && strcmp(cmd, "selfcheck") != 0 && c.nargs)
        return usage_error(&c, "%s takes no arguments", cmd);

    struct app a;
    app_init(&a, &c.cfg);
    if (cmd && strcmp(cmd, "refs") == 0 && a.refs_loaded == 0) {
        /* nothing to show; the other commands still run without references */
        print_diag(&c, &a.diag);
        fprintf(stderr, "evmbench: no reference file could be loaded from %s\n", a.refs_path);
        app_free(&a);
        profile_free(&c.profile);
        return EXIT_FAILURE;
    }
    if (!cmd)
        rc = cmd_tui(&c, &a);
    else {
        print_diag(&c, &a.diag);
        if (strcmp(cmd, "list") == 0)
            rc = cmd_list(&c, &a);
        else if (strcmp(cmd, "refs") == 0)
            rc = cmd_refs(&c, &a);
        else if (strcmp(cmd, "selfcheck") == 0)
            rc = cmd_selfcheck(&c, &a);
        else
            rc = cmd_run(&c, &a);
    }
    app_free(&a);
    profile_free(&c.profile);
    return rc;
}
