/* cli.c - subcommands, options and their output formats. */
#include "config.h"
#include "cli/cli.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
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
#include "board/board.h"
#include "cli/cli_results.h"
#include "store/export.h"
#include "guide/guide_import.h"
#include "run/kernel.h"
#include "board/privilege.h"
#include "data/profile.h"
#include "selfcheck.h"
#include "store/store.h"
#include "data/settings.h"
#include "recipe/toolkernel.h"
#include "cli/cli_import.h"
#include "common/outfile.h"
#include "recipe/toolparam.h"
#include "screens/ui.h"
#include "common/util.h"

#include "cli/cli_impl.h"

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
    "  --timeout SECS     time limit for each benchmark (1 to 86400)\n"
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

int cli_usage_error(struct cli *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("evmbench: ", c->err);
    vfprintf(c->err, fmt, ap);
    va_end(ap);
    fputs(" (try 'evmbench --help')\n", c->err);
    return EXIT_USAGE;
}

bool cli_format_is(const struct cli *c, const char *name)
{
    return strcmp(c->format ? c->format : "text", name) == 0;
}

int cli_check_format(struct cli *c, const char *const *allowed)
{
    const char *f = c->format ? c->format : "text";
    for (size_t i = 0; allowed[i]; i++)
        if (strcmp(f, allowed[i]) == 0)
            return 0;
    struct strbuf sb;
    sb_init(&sb);
    for (size_t i = 0; allowed[i]; i++)
        sb_addf(&sb, "%s%s", i ? ", " : "", allowed[i]);
    int rc = cli_usage_error(c, "unknown format '%s' for this command (choose %s)", f, sb.buf);
    sb_free(&sb);
    return rc;
}

/* Room for "PATH: reason" from outfile.h. */
#define OUTFILE_MSG (PATH_MAX + 256)

/* Where the command's output goes: stdout, or -o FILE (outfile.h). */
FILE *cli_open_output(struct cli *c)
{
    if (!c->output || strcmp(c->output, "-") == 0)
        return c->out;
    char err[OUTFILE_MSG];
    c->outfile = outfile_open(c->output, err, sizeof err);
    if (!c->outfile) {
        fprintf(c->err, "evmbench: %s\n", err);
        return NULL;
    }
    return outfile_stream(c->outfile);
}

int cli_close_output(struct cli *c, FILE *f)
{
    char err[OUTFILE_MSG];
    int rc;
    if (c->outfile && f == outfile_stream(c->outfile)) {
        rc = outfile_commit(c->outfile, err, sizeof err);
        c->outfile = NULL;
    } else {
        const char *name = f == stdout ? "standard output" : "output";
        rc = outfile_check_stream(f, name, err, sizeof err);
        if (rc && c->out_errno)
            snprintf(err, sizeof err, "%s: %s", name, strerror(c->out_errno));
    }
    if (rc == 0)
        return 0;
    fprintf(c->err, "evmbench: %s\n", err);
    return 1;
}

int cli_dump_json(json_t *j, FILE *f)
{
    int rc = json_dumpf(j, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
    return fputc('\n', f) == EOF || rc != 0 ? -1 : 0;
}

void cli_print_diag(struct cli *c, const struct diag *d)
{
    for (size_t i = 0; i < d->n; i++)
        fprintf(c->err, "evmbench: %s\n", d->msgs[i]);
}

/* --board must name a column some loaded guide has. */
int cli_check_board(struct cli *c, const struct app *a)
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
    int rc = cli_usage_error(c, "no guide has numbers for board '%s' (known: %s)",
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

static void evm_text(const struct ref_board *e, bool have_refs, FILE *f)
{
    if (!e) {
        board_print_field(f, "Guide EVM", have_refs ? "none (no guide describes this board)"
                                                    : "unknown (no reference file was loaded)");
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
    if (cli_check_format(c, fmts))
        return EXIT_USAGE;
    /* The board itself needs no guide; its EVM facts come from one. */
    struct app a;
    app_init(&a, &c->cfg);
    cli_print_diag(c, &a.diag);
    const struct ref_board *evm = refdb_board(a.refdb, a.ref_board);
    FILE *f = cli_open_output(c);
    if (!f) {
        app_free(&a);
        return 1;
    }
    struct priv_report pr;
    priv_probe(c->cfg.sysroot, &pr);
    if (cli_format_is(c, "json")) {
        json_t *j = board_to_json(&a.board);
        json_object_set_new(j, "evm", evm_json(evm));
        json_object_set_new(j, "privileges", priv_to_json(&pr));
        cli_dump_json(j, f);
        json_decref(j);
    } else {
        board_print_text(&a.board, f);
        evm_text(evm, a.refs_loaded > 0, f);
        priv_print_text(&pr, f);
    }
    app_free(&a);
    return cli_close_output(c, f);
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
    if (cli_check_format(c, fmts))
        return EXIT_USAGE;
    int rc = cli_check_board(c, a);
    if (rc)
        return rc;
    FILE *f = cli_open_output(c);
    if (!f)
        return 1;
    json_t *arr = json_array();
    if (cli_format_is(c, "csv"))
        fputs("source,board,section,table,metric,column,unit,avg,min,max\n", f);
    else if (cli_format_is(c, "text"))
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
                if (cli_format_is(c, "json")) {
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
                } else if (cli_format_is(c, "csv")) {
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
    if (cli_format_is(c, "json"))
        cli_dump_json(arr, f);
    json_decref(arr);
    return cli_close_output(c, f);
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
    if (cli_check_format(c, fmts))
        return EXIT_USAGE;
    FILE *f = cli_open_output(c);
    if (!f)
        return 1;
    json_t *arr = json_array();
    for (size_t i = 0; i < a->catalog->ncats; i++) {
        const struct cat_category *cat = &a->catalog->cats[i];
        if (!cli_format_is(c, "json"))
            fprintf(f, "%s\n", cat->title);
        for (size_t j = 0; j < cat->nbenches; j++) {
            const struct cat_bench *b = cat->benches[j];
            size_t nref = cat_bench_count_metrics(b);
            if (cli_format_is(c, "json")) {
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
    if (cli_format_is(c, "json"))
        cli_dump_json(arr, f);
    json_decref(arr);
    return cli_close_output(c, f);
}

/* --- selfcheck ------------------------------------------------------------ */

static int cmd_selfcheck(struct cli *c, struct app *a)
{
    static const char *const fmts[] = { "text", "json", NULL };
    if (cli_check_format(c, fmts))
        return EXIT_USAGE;
    FILE *f = cli_open_output(c);
    if (!f)
        return 1;
    struct selfcheck_options so = { .names = c->args, .nnames = c->nargs,
                                    .rounds = c->rounds, .json = cli_format_is(c, "json") };
    int rc = selfcheck_run(a, &so, f, c->err);
    int crc = cli_close_output(c, f);
    return rc ? rc : crc;
}

/* --- import-guide -------------------------------------------------------- */

/* Writes j to path (outfile.h): a failure leaves the old file as it was. */
static int write_json_file(struct cli *c, json_t *j, const char *path)
{
    char err[OUTFILE_MSG];
    struct outfile *o = outfile_open(path, err, sizeof err);
    if (!o) {
        fprintf(c->err, "evmbench: %s\n", err);
        return 1;
    }
    FILE *f = outfile_stream(o);
    if ((json_dumpf(j, f, GUIDE_JSON_FLAGS) != 0 || fputc('\n', f) == EOF) && !ferror(f)) {
        outfile_abort(o);
        fprintf(c->err, "evmbench: %s: the JSON could not be written\n", path);
        return 1;
    }
    if (outfile_commit(o, err, sizeof err) != 0) {
        fprintf(c->err, "evmbench: %s\n", err);
        return 1;
    }
    return 0;
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
        return cli_usage_error(c, "import-guide needs at least one guide file");
    int layout = guide_layout_parse(c->layout ? c->layout : "auto");
    if (layout < 0)
        return cli_usage_error(c, "unknown layout '%s' (auto, cells, rows, markdown, rst)", c->layout);
    bool to_dir = c->output && is_directory(c->output);
    if (c->nargs > 1 && !to_dir)
        return cli_usage_error(c, "several guides need -o DIR (an existing folder)");
    int rc = 0;
    for (int i = 0; i < c->nargs; i++) {
        struct diag dg;
        diag_init(&dg);
        json_t *j = guide_import_file(c->args[i], (enum guide_layout)layout, &dg);
        cli_print_diag(c, &dg);
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
            rc |= cli_close_output(c, c->out);
        }
        json_decref(j);
    }
    return rc;
}

/* --- the screens --------------------------------------------------------- */

static int cmd_tui(struct cli *c, struct app *a)
{
    int rc = cli_check_board(c, a);
    if (rc)
        return rc;
    if (c->run && !app_find_kernel(a, c->run)) {
        const struct cat_bench *b = catalog_find_bench(a->catalog, c->run);
        if (!b || !b->nkernels)
            return cli_usage_error(c, "--run: '%s' is not a benchmark that can run here", c->run);
    }
    if (c->ui && strcmp(c->ui, "line") == 0) {
        /* No screens: the run as lines, or the menu as a list. */
        if (!c->run)
            return cmd_list(c, a);
        char *args[] = { (char *)c->run };
        c->args = args;
        c->nargs = 1;
        return cli_run(c, a);
    }
    cli_print_diag(c, &a->diag);
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
    cli_print_diag(c, &dg);
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
        .dir = dir, .format = cli_output_format(c), .format_given = c->format != NULL,
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
        return cli_usage_error(c, "results import LOG --tool TOOL");
    char *dir = c->results_dir ? xstrdup(c->results_dir) : store_default_dir();
    if (!dir) {
        fprintf(c->err, "evmbench: no results store: set --results-dir, XDG_DATA_HOME or HOME\n");
        return 1;
    }
    struct app a;
    app_init(&a, &c->cfg);
    cli_print_diag(c, &a.diag);
    int rc = cli_check_board(c, &a);
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

/* --- which options each command takes ------------------------------------
 * One table, checked in one place after parsing (check_options_apply): an
 * option a command does not use is a usage error naming both, never
 * silently ignored. Options missing from the table (-h, -V) go anywhere. */
enum cmd_id {
    CMD_TUI, CMD_LIST, CMD_SYSINFO, CMD_REFS, CMD_RUN, CMD_SELFCHECK, CMD_IMPORT_GUIDE,
    CMD_RES_LIST, CMD_RES_SHOW, CMD_RES_COMPARE, CMD_RES_EXPORT, CMD_RES_PRUNE,
    CMD_RES_IMPORT, CMD_RES_OTHER, CMD_UNKNOWN,
};

static const char *const cmd_names[] = {
    [CMD_TUI] = "the screens", [CMD_LIST] = "list", [CMD_SYSINFO] = "sysinfo",
    [CMD_REFS] = "refs", [CMD_RUN] = "run", [CMD_SELFCHECK] = "selfcheck",
    [CMD_IMPORT_GUIDE] = "import-guide", [CMD_RES_LIST] = "results list",
    [CMD_RES_SHOW] = "results show", [CMD_RES_COMPARE] = "results compare",
    [CMD_RES_EXPORT] = "results export", [CMD_RES_PRUNE] = "results prune",
    [CMD_RES_IMPORT] = "results import", [CMD_RES_OTHER] = "results",
    [CMD_UNKNOWN] = "this command",
};

#define TO(c) (1u << CMD_##c)
/* groups used below */
#define APP_CMDS (TO(TUI) | TO(LIST) | TO(SYSINFO) | TO(REFS) | TO(RUN) | TO(SELFCHECK) | \
                  TO(RES_IMPORT))
#define RUNS (TO(TUI) | TO(RUN) | TO(SELFCHECK))
#define RES_OUT (TO(RES_LIST) | TO(RES_SHOW) | TO(RES_COMPARE) | TO(RES_EXPORT))
#define STORE_CMDS (TO(TUI) | TO(RUN) | RES_OUT | TO(RES_PRUNE) | TO(RES_IMPORT))

struct opt_rule {
    int code;           /* getopt code */
    unsigned cmds;      /* TO() bits of the commands that take it */
};

static const struct opt_rule opt_rules[] = {
    { 'o', TO(LIST) | TO(SYSINFO) | TO(REFS) | TO(RUN) | TO(SELFCHECK) | TO(IMPORT_GUIDE) |
           RES_OUT | TO(TUI) },
    { OPT_FORMAT, TO(LIST) | TO(SYSINFO) | TO(REFS) | TO(RUN) | TO(SELFCHECK) | RES_OUT |
                  TO(TUI) },
    { OPT_SYSROOT, TO(TUI) | TO(SYSINFO) | TO(RUN) | TO(SELFCHECK) | TO(RES_IMPORT) },
    { OPT_BOARD, TO(TUI) | TO(SYSINFO) | TO(REFS) | TO(RUN) | TO(SELFCHECK) | TO(RES_IMPORT) },
    { OPT_REFS, APP_CMDS },
    { OPT_QUICK, RUNS },
    { OPT_TIMEOUT, RUNS },
    { OPT_TOLERANCE, RUNS | TO(RES_IMPORT) },
    { OPT_SIZE, RUNS },
    { OPT_ITERATIONS, RUNS },
    { OPT_THREADS, RUNS },
    { OPT_PROVIDER, TO(TUI) | TO(RUN) },
    { OPT_TOOLS_DIR, RUNS | TO(LIST) },
    /* list: whether a tool benchmark can run depends on these */
    { OPT_STORAGE_DIR, RUNS | TO(LIST) },
    { OPT_ALLOW_RAW, RUNS | TO(LIST) },
    { OPT_PEER, RUNS | TO(LIST) },
    { OPT_AUDIO_DEVICE, RUNS | TO(LIST) },
    { OPT_ROUNDS, TO(SELFCHECK) },
    { OPT_RUN, TO(TUI) },
    { OPT_DEMO, TO(TUI) },
    { OPT_THEME, TO(TUI) },
    { OPT_SLOW_TTY, TO(TUI) },
    { OPT_UI, TO(TUI) },
    { OPT_SECTION, TO(REFS) },
    { OPT_LAYOUT, TO(IMPORT_GUIDE) },
    { OPT_RESULTS_DIR, STORE_CMDS },
    { OPT_NO_SAVE, TO(TUI) | TO(RUN) },
    { OPT_SAVE_BASELINE, TO(RUN) },
    { OPT_BASELINE, TO(RUN) },
    { OPT_FAIL_ON_DEVIATION, TO(RUN) | TO(RES_SHOW) | TO(RES_EXPORT) },
    { OPT_KEEP, TO(RES_PRUNE) },
    { OPT_PROFILE, TO(RUN) },
    { OPT_QUIET, TO(TUI) | TO(RUN) },
    { OPT_LAVA_KMSG, TO(TUI) | TO(RUN) },
    { OPT_TOOL, TO(RES_IMPORT) },
};

/* The options given, by getopt code: as the user spelled each ("-o",
 * "--output", "--category"), empty when not given. */
struct given {
    char name[OPT_AUDIO_DEVICE + 1][32];
};

static void note_given(struct given *g, int ch, int longindex)
{
    if (ch < 0 || ch > OPT_AUDIO_DEVICE || g->name[ch][0])
        return;
    if (longindex >= 0)
        snprintf(g->name[ch], sizeof g->name[ch], "--%s", long_options[longindex].name);
    else
        snprintf(g->name[ch], sizeof g->name[ch], "-%c", ch);
}

static enum cmd_id command_id(const char *cmd, char **args, int nargs)
{
    static const struct { const char *name; enum cmd_id id; } top[] = {
        { "list", CMD_LIST }, { "sysinfo", CMD_SYSINFO }, { "refs", CMD_REFS },
        { "run", CMD_RUN }, { "selfcheck", CMD_SELFCHECK }, { "import-guide", CMD_IMPORT_GUIDE },
    }, sub[] = {
        { "list", CMD_RES_LIST }, { "show", CMD_RES_SHOW }, { "compare", CMD_RES_COMPARE },
        { "export", CMD_RES_EXPORT }, { "prune", CMD_RES_PRUNE }, { "import", CMD_RES_IMPORT },
    };
    if (!cmd)
        return CMD_TUI;
    for (size_t i = 0; i < ARRAY_SIZE(top); i++)
        if (strcmp(cmd, top[i].name) == 0)
            return top[i].id;
    if (strcmp(cmd, "results") != 0)
        return CMD_UNKNOWN;
    for (size_t i = 0; nargs && i < ARRAY_SIZE(sub); i++)
        if (strcmp(args[0], sub[i].name) == 0)
            return sub[i].id;
    return CMD_RES_OTHER;
}

/* A usage error for the first option given that command `id` does not take. */
static int check_options_apply(struct cli *c, const struct given *g, enum cmd_id id)
{
    /* an unknown command or results subcommand has its own message */
    if (id == CMD_UNKNOWN || id == CMD_RES_OTHER)
        return -1;
    for (size_t i = 0; i < ARRAY_SIZE(opt_rules); i++) {
        const struct opt_rule *r = &opt_rules[i];
        if (!g->name[r->code][0] || (r->cmds & (1u << id)))
            continue;
        struct strbuf sb;
        sb_init(&sb);
        int n = 0, count = 0;
        for (int k = 0; k <= CMD_RES_IMPORT; k++)
            count += (r->cmds >> k) & 1;
        for (int k = 0; k <= CMD_RES_IMPORT; k++)
            if (r->cmds & (1u << k))
                sb_addf(&sb, "%s%s%s%s", n++ == 0 ? "" : n == count ? " or " : ", ",
                        k == CMD_TUI ? "" : "'", cmd_names[k], k == CMD_TUI ? "" : "'");
        int rc = cli_usage_error(c, "%s is for %s, not for %s%s%s", g->name[r->code], sb.buf,
                                 id == CMD_TUI ? "" : "'", cmd_names[id], id == CMD_TUI ? "" : "'");
        sb_free(&sb);
        return rc;
    }
    return -1;
}

/* The output of command `id` goes to stdout (not -o FILE, nor the kernel log). */
static bool output_to_stdout(const struct cli *c, enum cmd_id id)
{
    if (c->output && strcmp(c->output, "-") != 0)
        return false;
    if ((id == CMD_RUN || id == CMD_TUI) && c->kmsg && cli_format_is(c, "lava"))
        return false;
    return true;
}

static int stdout_closed_error(struct cli *c)
{
    fprintf(c->err, "evmbench: standard output is closed (started with >&-): nothing to "
            "write the output to; redirect it (>FILE, >/dev/null) or use -o FILE\n");
    return EXIT_FAILURE;
}

/* --- option values --------------------------------------------------------- */

/* A number from min to max (above min when min_open), whole when asked. */
static bool parse_number(const char *s, double min, bool min_open, double max, bool whole,
                         double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end || errno || !isfinite(v) || v > max || (min_open ? !(v > min) : v < min))
        return false;
    if (whole && v != floor(v))
        return false;
    *out = v;
    return true;
}

/* The numeric options: the range the message states is the one accepted. */
struct num_opt {
    int code;
    const char *what;       /* "--timeout takes WHAT, not 'x'" */
    double min;
    bool min_open;          /* min itself is not accepted */
    double max;
    bool whole;
};

static const struct num_opt num_opts[] = {
    { OPT_TIMEOUT, "seconds from 1 to 86400", 1, false, 86400, false },
    { OPT_TOLERANCE, "a percentage above 0, at most 1000", 0, true, 1000, false },
    { OPT_SIZE, "a whole number from 1 to 1000000000000", 1, false, 1e12, true },
    { OPT_ITERATIONS, "a whole number from 1 to 1000000", 1, false, 1e6, true },
    { OPT_ROUNDS, "a whole number from 1 to 100", 1, false, 100, true },
    { OPT_THREADS, "a whole number from 1 to 1024", 1, false, 1024, true },
    { OPT_FAIL_ON_DEVIATION, "a percentage above 0, at most 1000000", 0, true, 1e6, false },
    { OPT_KEEP, "a whole number from 0 to 1000000", 0, false, 1e6, true },
};

/* -1 and the value in *v, or the exit status of a usage error. */
static int number_option(struct cli *c, int code, const char *spelled, const char *arg,
                         double *v)
{
    for (size_t i = 0; i < ARRAY_SIZE(num_opts); i++) {
        const struct num_opt *n = &num_opts[i];
        if (n->code != code)
            continue;
        if (!parse_number(arg, n->min, n->min_open, n->max, n->whole, v))
            return cli_usage_error(c, "%s takes %s, not '%s'", spelled, n->what, arg);
        return -1;
    }
    return cli_usage_error(c, "%s: not a numeric option", spelled);
}

/* What an option's value names, for the message when it is empty (an
 * empty --results-dir would put the store at /runs); NULL: may be empty. */
static const char *value_kind(int code)
{
    switch (code) {
    case 'o': case OPT_SYSROOT: case OPT_REFS: case OPT_TOOLS_DIR: case OPT_STORAGE_DIR:
    case OPT_RESULTS_DIR: case OPT_LAVA_KMSG: case OPT_THEME:
        return "a path";
    case OPT_PROFILE: case OPT_BASELINE: case OPT_SAVE_BASELINE: case OPT_BOARD: case OPT_TOOL:
        return "a name";
    default:
        return NULL;
    }
}

/* --sysroot must name a folder. */
static int check_sysroot(struct cli *c, const char *spelled, const char *dir)
{
    struct stat st;
    if (stat(dir, &st) != 0)
        return cli_usage_error(c, "%s %s: %s", spelled, dir, strerror(errno));
    if (!S_ISDIR(st.st_mode))
        return cli_usage_error(c, "%s %s: not a directory", spelled, dir);
    return -1;
}

/* Parses the options; returns -1 to go on, else the exit status. */
static int parse_options(struct cli *c, struct given *g, int argc, char **argv)
{
    double v = 0;
    int rc;
    opterr = 0;
    optind = 1;
    int ch, longindex = -1;
    while ((ch = getopt_long(argc, argv, ":hVo:", long_options, &longindex)) != -1) {
        if (ch != '?' && ch != ':')
            note_given(g, ch, longindex);
        const char *spelled = ch >= 0 && ch <= OPT_AUDIO_DEVICE ? g->name[ch] : "";
        longindex = -1;
        if (optarg && !*optarg && value_kind(ch))
            return cli_usage_error(c, "%s needs %s, not an empty string", spelled, value_kind(ch));
        switch (ch) {
        case 'h':
            if (c->stdout_closed)
                return stdout_closed_error(c);
            fputs(usage_text, c->out);
            return cli_close_output(c, c->out);
        case 'V':
            if (c->stdout_closed)
                return stdout_closed_error(c);
            fprintf(c->out, "%s\n", PACKAGE_STRING);
            return cli_close_output(c, c->out);
        case 'o': c->output = optarg; break;
        case OPT_SYSROOT:
            if ((rc = check_sysroot(c, spelled, optarg)) >= 0)
                return rc;
            c->cfg.sysroot = optarg;
            break;
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
                return cli_usage_error(c, "--ui takes tui or line, not '%s'", optarg);
            c->ui = optarg;
            break;
        case OPT_TIMEOUT:
        case OPT_TOLERANCE:
        case OPT_SIZE:
        case OPT_ITERATIONS:
        case OPT_ROUNDS:
        case OPT_THREADS:
        case OPT_FAIL_ON_DEVIATION:
        case OPT_KEEP:
            if ((rc = number_option(c, ch, spelled, optarg, &v)) >= 0)
                return rc;
            if (ch == OPT_TIMEOUT)
                c->cfg.timeout_s = v;
            else if (ch == OPT_TOLERANCE)
                c->cfg.tolerance_pct = v;
            else if (ch == OPT_SIZE)
                c->cfg.size = (size_t)v;
            else if (ch == OPT_ITERATIONS)
                c->cfg.iterations = (int)v;
            else if (ch == OPT_ROUNDS)
                c->rounds = (int)v;
            else if (ch == OPT_THREADS)
                c->cfg.threads = (int)v;
            else if (ch == OPT_FAIL_ON_DEVIATION)
                c->fail_pct = v;
            else {
                c->keep = (int)v;
                c->keep_set = true;
            }
            break;
        case OPT_PROVIDER: {
            int pref = provider_pref_parse(optarg);
            if (pref < 0)
                return cli_usage_error(c, "--provider takes auto, kernel or tool, not '%s'", optarg);
            c->cfg.provider = (enum provider_pref)pref;
            c->provider_set = true;
            break;
        }
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
        case OPT_SAVE_BASELINE:
            /* refused now, not after the whole run */
            if (!store_baseline_name_ok(optarg))
                return cli_usage_error(c, "%s '%s': a baseline name is 1 to 100 letters, digits, "
                                       "'-', '_' and '.', not starting with '.'", spelled, optarg);
            c->save_baseline = optarg;
            break;
        case OPT_BASELINE: c->baseline = optarg; break;
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
        case ':':
            return cli_usage_error(c, "option '%s' needs a value", argv[optind - 1]);
        default:
            return cli_usage_error(c, "unknown option '%s'", argv[optind - 1]);
        }
    }
    return -1;
}

/* File arguments (import-guide FILE..., results import LOG) must not be empty. */
static int check_file_args(struct cli *c, enum cmd_id id)
{
    int first = id == CMD_IMPORT_GUIDE ? 0 : id == CMD_RES_IMPORT ? 1 : c->nargs;
    for (int i = first; i < c->nargs; i++)
        if (!*c->args[i])
            return cli_usage_error(c, "%s: argument %d is an empty file name", cmd_names[id],
                                   i - first + 1);
    return -1;
}

/* Checks --storage-dir, --allow-raw-device, --peer and --audio-device and hands them to
 * the recipes; returns -1 to go on, else the exit status. */
static int set_tool_params(struct cli *c)
{
    char *why = NULL, *target = NULL;
    if (c->allow_raw && !c->storage_dir)
        return cli_usage_error(c, "--allow-raw-device needs --storage-dir DEVICE");
    if (c->storage_dir && !toolparam_storage(c->storage_dir, c->allow_raw, &target, &why)) {
        int rc = cli_usage_error(c, "%s", why);
        free(why);
        return rc;
    }
    if (c->peer && !toolparam_peer(c->peer, &why)) {
        int rc = cli_usage_error(c, "%s", why);
        free(why);
        free(target);
        return rc;
    }
    if (c->audio_device && !toolparam_audio_device(c->audio_device, &why)) {
        int rc = cli_usage_error(c, "%s", why);
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
    return cli_main_std(argc, argv, out, err, 0);
}

int cli_main_std(int argc, char **argv, FILE *out, FILE *err, unsigned closed)
{
    struct cli c = { .out = out, .err = err, .stdout_closed = closed & CLI_STDOUT_CLOSED };
    struct given given = { 0 };
    int rc = parse_options(&c, &given, argc, argv);
    if (rc >= 0)
        return rc;
    const char *cmd = optind < argc ? argv[optind] : NULL;
    c.args = argv + optind + (cmd ? 1 : 0);
    c.nargs = argc - optind - (cmd ? 1 : 0);
    enum cmd_id id = command_id(cmd, c.args, c.nargs);
    if ((rc = check_options_apply(&c, &given, id)) >= 0 || (rc = check_file_args(&c, id)) >= 0)
        return rc;
    if (c.stdout_closed && id != CMD_UNKNOWN && output_to_stdout(&c, id))
        return stdout_closed_error(&c);
    rc = set_tool_params(&c);
    if (rc >= 0)
        return rc;

    if (cmd && strcmp(cmd, "sysinfo") == 0)
        return c.nargs ? cli_usage_error(&c, "sysinfo takes no arguments") : cmd_sysinfo(&c);
    if (cmd && strcmp(cmd, "import-guide") == 0)
        return cmd_import_guide(&c);
    if (id == CMD_RES_IMPORT)
        return cmd_results_import(&c);
    if (cmd && strcmp(cmd, "results") == 0)
        return cmd_results(&c);

    static const char *const with_app[] = { "list", "refs", "run", "selfcheck", NULL };
    bool known = !cmd;
    for (size_t i = 0; cmd && with_app[i]; i++)
        known |= strcmp(cmd, with_app[i]) == 0;
    if (!known)
        return cli_usage_error(&c, "unknown command '%s'", cmd);
    if (cmd && strcmp(cmd, "run") != 0 && strcmp(cmd, "selfcheck") != 0 && c.nargs)
        return cli_usage_error(&c, "%s takes no arguments", cmd);

    struct app a;
    app_init(&a, &c.cfg);
    if (cmd && (strcmp(cmd, "refs") == 0 || strcmp(cmd, "list") == 0) && a.refs_loaded == 0) {
        /* nothing to show (list: the categories are the guides'); the
         * other commands still run without references */
        cli_print_diag(&c, &a.diag);
        fprintf(c.err, "evmbench: no reference file could be loaded from %s\n", a.refs_path);
        app_free(&a);
        profile_free(&c.profile);
        return EXIT_FAILURE;
    }
    if (!cmd)
        rc = cmd_tui(&c, &a);
    else {
        cli_print_diag(&c, &a.diag);
        if (strcmp(cmd, "list") == 0)
            rc = cmd_list(&c, &a);
        else if (strcmp(cmd, "refs") == 0)
            rc = cmd_refs(&c, &a);
        else if (strcmp(cmd, "selfcheck") == 0)
            rc = cmd_selfcheck(&c, &a);
        else
            rc = cli_run(&c, &a);
    }
    app_free(&a);
    profile_free(&c.profile);
    return rc;
}
