/* cli_results.c - `evmbench results ...` (cli_results.h). */
#include "config.h"
#include "cli/cli_results.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <string.h>

#include <jansson.h>

#include "run/deviation.h"
#include "run/export.h"
#include "common/stopsig.h"
#include "common/outfile.h"
#include "common/units.h"
#include "store/store.h"
#include "board/sysstate.h"
#include "common/util.h"
#include "app.h"
#include "cli/cli.h"
#include "cli/cli_import.h"
#include "cli/cli_impl.h"

enum { EXIT_ERR = 1, EXIT_USE = 2 };

static int usage(const struct results_cmd *rc, const char *msg)
{
    fprintf(rc->err, "evmbench: %s (see 'evmbench --help')\n", msg);
    return EXIT_USE;
}

/* The store's diagnostics: warnings (skipped files), except the last
 * when `failed` (then it says why the command failed). */
static void print_diag_as(const struct results_cmd *rc, struct diag *d, bool failed)
{
    for (size_t i = 0; i < d->n; i++)
        fprintf(rc->err, "evmbench: %s%s\n", failed && i + 1 == d->n ? "" : "warning: ",
                d->msgs[i]);
    diag_free(d);
    diag_init(d);
}

static void print_diag(const struct results_cmd *rc, struct diag *d)
{
    print_diag_as(rc, d, false);
}

/* stdout, or -o FILE through outfile.h (*of set); NULL after a message. */
static FILE *open_out(const struct results_cmd *rc, struct outfile **of)
{
    *of = NULL;
    if (!rc->output || strcmp(rc->output, "-") == 0)
        return rc->out;
    struct diag d;
    diag_init(&d);
    *of = outfile_open(rc->output, &d);
    print_diag_as(rc, &d, true);
    return *of ? outfile_stream(*of) : NULL;
}

/* Finishes what open_out gave: 0, or EXIT_ERR after a message when any
 * of the output was lost (-o FILE is then left as it was); after a stop
 * signal (common/stopsig.h) -o FILE is left as it was, quietly. */
static int close_out(const struct results_cmd *rc, FILE *f, struct outfile *of)
{
    if (stopsig_caught()) {
        if (of)
            outfile_abort(of);
        else
            fflush(f);
        return EXIT_ERR;
    }
    struct diag d;
    diag_init(&d);
    int bad = of ? outfile_commit(of, &d)
            : outfile_check_stream(f, f == stdout ? "standard output" : "output", &d);
    print_diag_as(rc, &d, true);
    return bad ? EXIT_ERR : 0;
}

static const char *hstr(json_t *h, const char *key)
{
    const char *s = json_string_value(json_object_get(h, key));
    return s ? s : "-";
}

static int cmd_list(const struct results_cmd *rc, struct diag *d)
{
    struct stored_run *runs;
    size_t n = store_list(rc->dir, &runs, d);
    print_diag(rc, d);
    struct outfile *of;
    FILE *f = open_out(rc, &of);
    if (!f) {
        store_runs_free(runs, n);
        return EXIT_ERR;
    }
    bool json = strcmp(rc->format, "json") == 0;
    json_t *arr = json_array();
    if (!json && n)
        fprintf(f, "%-40s %-10s %-18s %5s\n", "RUN", "STATE", "BOARD", "ROWS");
    for (size_t i = 0; i < n; i++) {
        const struct stored_run *r = &runs[i];
        if (json) {
            json_t *o = json_object();
            json_object_set_new(o, "id", json_string_from_outside(r->id));
            json_object_set_new(o, "path", json_string_from_outside(r->path));
            json_object_set_new(o, "complete", json_boolean(r->complete));
            json_object_set(o, "started", json_object_get(r->header, "started"));
            json_object_set(o, "board", json_object_get(r->header, "board"));
            json_object_set_new(o, "rows", json_integer((json_int_t)json_array_size(r->rows)));
            json_array_append_new(arr, o);
        } else {
            fprintf(f, "%-40s %-10s %-18s %5zu\n", r->id, r->complete ? "complete" : "incomplete",
                    hstr(r->header, "board"), json_array_size(r->rows));
        }
    }
    if (json) {
        json_dumpf(arr, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
        fputc('\n', f);
    } else if (!n) {
        fprintf(rc->err, "evmbench: no runs in %s/runs yet\n", rc->dir);
    }
    json_decref(arr);
    store_runs_free(runs, n);
    return close_out(rc, f, of);
}

static int cmd_show(const struct results_cmd *rc, const char *which, struct diag *d)
{
    struct stored_run r;
    int found = store_find(rc->dir, which, &r, d);
    print_diag_as(rc, d, found != 0);
    if (found != 0)
        return EXIT_ERR;
    struct outfile *of;
    FILE *f = open_out(rc, &of);
    if (!f) {
        stored_run_free(&r);
        return EXIT_ERR;
    }
    json_t *sys = sysstate_from_store(stored_run_system(&r));
    if (strcmp(rc->format, "json") == 0) {
        json_t *o = json_deep_copy(r.header);
        if (sys)                /* with the temperatures of its end line */
            json_object_set(o, "system", sys);
        json_object_set_new(o, "complete", json_boolean(r.complete));
        json_object_set(o, "results", r.rows);
        json_dumpf(o, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
        fputc('\n', f);
        json_decref(o);
    } else {
        json_t *imp = json_object_get(r.header, "imported");
        if (strcmp(rc->format, "text") == 0)
            fprintf(f, "Run: %s (%s)\nStarted: %s\nBoard: %s\n", r.id,
                    r.complete ? "complete" : "incomplete: interrupted before its end",
                    hstr(r.header, "started"), hstr(r.header, "board"));
        if (strcmp(rc->format, "text") == 0 && json_is_object(imp))
            fprintf(f, "Imported: %s (--tool %s)\n", hstr(imp, "file"), hstr(imp, "tool"));
        if (strcmp(rc->format, "text") == 0 && !json_is_object(imp)) {
            char *line = sysstate_summary(sys);
            fprintf(f, "System: %s\n", line);
            free(line);
        }
        if (strcmp(rc->format, "text") == 0)
            fputc('\n', f);
        export_rows(f, rc->format, r.rows, rc->fail_pct, r.id);
    }
    json_decref(sys);
    stored_run_free(&r);
    return close_out(rc, f, of);
}

/* The rows of a run, or of a baseline by that name: compare takes both.
 * Fills *label; -1 after reporting when there is neither. */
static int load_rows(const struct results_cmd *rc, const char *which, json_t **rows,
                     char **label, struct diag *d)
{
    struct stored_run r;
    struct diag quiet;
    diag_init(&quiet);
    if (store_find(rc->dir, which, &r, &quiet) == 0) {
        for (size_t i = 0; i < quiet.n; i++)
            diag_add(d, "%s", quiet.msgs[i]);
        diag_free(&quiet);
        *rows = json_incref(r.rows);
        *label = xasprintf("run %s%s", r.id, r.complete ? "" : " (incomplete)");
        stored_run_free(&r);
        return 0;
    }
    diag_free(&quiet);
    *rows = store_load_baseline(rc->dir, which, d);
    if (!*rows)
        return -1;
    *label = xasprintf("baseline %s", which);
    return 0;
}

static int cmd_compare(const struct results_cmd *rc, const char *wa, const char *wb,
                       struct diag *d)
{
    json_t *ra = NULL, *rb = NULL;
    char *la = NULL, *lb = NULL;
    if (load_rows(rc, wa, &ra, &la, d) != 0 || load_rows(rc, wb, &rb, &lb, d) != 0) {
        print_diag_as(rc, d, true);
        json_decref(ra);
        free(la);
        return EXIT_ERR;
    }
    print_diag(rc, d);
    /* what changed in the system first, then the metrics */
    json_t *sys_a = sysstate_from_store(store_load_system(rc->dir, wa));
    json_t *sys_b = sysstate_from_store(store_load_system(rc->dir, wb));
    char *change = sysstate_diff(sys_a, sys_b);
    /* B's rows with A as their baseline: the change is from A to B */
    json_t *rows = json_deep_copy(rb);
    double pct = rc->fail_pct > 0 ? rc->fail_pct : DEFAULT_TOLERANCE_PCT;
    export_add_baseline(rows, ra, pct);
    struct outfile *of;
    FILE *f = open_out(rc, &of);
    bool json = rc->format && strcmp(rc->format, "json") == 0;
    json_t *arr = json_array();
    if (f && !json)
        fprintf(f, "A: %s\nB: %s\nSystem: %s\nOutcome: B's samples against A's, 95%% "
                "intervals, at %g%%\n\n%-27s %10s %10s %-8s %7s %s\n", la, lb, change, pct,
                "METRIC", "A", "B", "UNIT", "CHANGE", "OUTCOME");
    size_t i;
    json_t *row;
    json_array_foreach(rows, i, row) {
        if (!f)
            break;
        json_t *va = json_object_get(row, "baseline_value");
        json_t *vb = json_object_get(row, "value");
        json_t *cp = json_object_get(row, "change_pct");
        json_t *outcome = json_object_get(row, "outcome");
        const char *bench = json_string_value(json_object_get(row, "bench"));
        const char *metric = json_string_value(json_object_get(row, "metric"));
        const char *unit = json_string_value(json_object_get(row, "unit"));
        if (json) {
            json_t *o = json_object();
            json_object_set_new(o, "bench", json_string(bench ? bench : ""));
            json_object_set_new(o, "metric", json_string(metric ? metric : ""));
            json_object_set_new(o, "unit", json_string(unit ? unit : ""));
            json_object_set(o, "a", va ? va : json_null());
            json_object_set(o, "b", json_is_number(vb) ? vb : json_null());
            static const char *const keep[] = { "change_pct", "change_low", "change_high",
                                                "outcome" };
            for (size_t k = 0; k < ARRAY_SIZE(keep); k++) {
                json_t *x = json_object_get(row, keep[k]);
                json_object_set(o, keep[k], x ? x : json_null());
            }
            json_t *na = json_object_get(row, "baseline_samples");
            json_t *nb = json_object_get(row, "samples");
            json_object_set(o, "samples_a", na ? na : json_null());
            json_object_set(o, "samples_b", nb ? nb : json_null());
            json_array_append_new(arr, o);
            continue;
        }
        char sa[24] = "-", sb[24] = "-", sp[24] = "";
        if (json_is_number(va))
            snprintf(sa, sizeof sa, "%.6g", json_number_value(va));
        if (json_is_number(vb))
            snprintf(sb, sizeof sb, "%.6g", json_number_value(vb));
        if (json_is_number(cp))
            snprintf(sp, sizeof sp, "%+.1f%%", json_number_value(cp));
        char name[256];
        snprintf(name, sizeof name, "%s.%s", bench ? bench : "", metric ? metric : "");
        if (strlen(name) > 27) {        /* whole, on a line of its own */
            fprintf(f, "%s\n", name);
            name[0] = '\0';
        }
        fprintf(f, "%-27s %10s %10s %-8s %7s %s\n", name, sa, sb, unit_display(unit), sp,
                json_is_string(outcome) ? json_string_value(outcome) : "");
    }
    if (f && json) {
        json_t *o = json_pack("{ss ss s{sOsOss} sO}", "a", la, "b", lb, "system",
                              "a", sys_a ? sys_a : json_null(), "b", sys_b ? sys_b : json_null(),
                              "change", change, "metrics", arr);
        json_dumpf(o, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
        fputc('\n', f);
        json_decref(o);
    }
    json_decref(arr);
    json_decref(sys_a);
    json_decref(sys_b);
    free(change);
    json_decref(rows);
    json_decref(ra);
    json_decref(rb);
    free(la);
    free(lb);
    return f ? close_out(rc, f, of) : EXIT_ERR;
}

int cli_results(const struct results_cmd *rc, char **args, int nargs)
{
    static const char *const formats[] = { "text", "json", "csv", "lava", "junit" };
    bool ok_format = false;
    for (size_t i = 0; i < ARRAY_SIZE(formats); i++)
        ok_format |= strcmp(rc->format, formats[i]) == 0;
    if (!ok_format)
        return usage(rc, "results: the format is text, json, csv, lava or junit");
    if (nargs < 1)
        return usage(rc, "results needs list, show, compare, export or prune");
    const char *sub = args[0];
    struct diag d;
    diag_init(&d);
    int status;
    if (strcmp(sub, "list") == 0 && nargs == 1) {
        status = cmd_list(rc, &d);
    } else if ((strcmp(sub, "show") == 0 || strcmp(sub, "export") == 0) && nargs == 2) {
        status = cmd_show(rc, args[1], &d);
    } else if (strcmp(sub, "compare") == 0 && nargs == 3) {
        status = cmd_compare(rc, args[1], args[2], &d);
    } else if (strcmp(sub, "prune") == 0 && nargs == 1) {
        if (!rc->keep_set) {
            diag_free(&d);
            return usage(rc, "results prune needs --keep N");
        }
        int removed = store_prune(rc->dir, (size_t)rc->keep, &d);
        print_diag(rc, &d);
        if (removed >= 0)
            fprintf(rc->out, "removed %d run%s, kept the newest %d\n", removed,
                    removed == 1 ? "" : "s", rc->keep);
        status = removed < 0 ? EXIT_ERR : close_out(rc, rc->out, NULL);
    } else {
        diag_free(&d);
        return usage(rc, "results: list | show RUN | compare RUN_A RUN_B | export RUN | "
                         "prune --keep N");
    }
    diag_free(&d);
    return status;
}

/* --- from the command line (cli_impl.h) ------------------------------------ */

int cli_cmd_results(struct cli *c, struct app *unused)
{
    (void)unused;
    char *dir = cli_store_dir(c);
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
int cli_cmd_results_import(struct cli *c, struct app *unused)
{
    (void)unused;
    if (c->nargs != 2 || !c->tool)
        return cli_usage_error(c, "results import LOG --tool TOOL");
    char *dir = cli_store_dir(c);
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
