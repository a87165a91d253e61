/* cli_import.c - `evmbench results import` (cli_import.h). */
#include "config.h"
#include "cli/cli_import.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <jansson.h>

#include "run/result.h"
#include "store/store.h"
#include "recipe/toolkernel.h"
#include "common/util.h"

/* A saved log is read whole; a full lmbench run is well below this. */
#define IMPORT_MAX_BYTES (64u * 1024 * 1024)

static bool selected(const struct recipe_bench *b, const char *tool)
{
    return strcmp(recipe_tool(b), tool) == 0 || strcmp(recipe_name(b), tool) == 0 ||
           strcmp(recipe_section(b), tool) == 0;
}

/* One value a benchmark's invocation read from the log. */
struct claim {
    size_t offset;          /* the match in the log */
    size_t bench, inv;      /* index into the selection, invocation */
    char *id;
    double value;
    char *invalid;          /* the reason, or NULL for a valid value */
    bool accepted;
};

struct claims {
    struct claim *v;
    size_t n, cap;
    size_t bench, inv;      /* who is parsing now */
};

static void claim_cb(void *ctx, const struct recipe_match *m)
{
    struct claims *c = ctx;
    xgrow(&c->v, &c->cap, c->n + 1, sizeof *c->v);
    c->v[c->n++] = (struct claim){ m->offset, c->bench, c->inv, xstrdup(m->metric), m->value,
                                   m->invalid ? xstrdup(m->invalid) : NULL, false };
}

static int cmp_claim(const void *pa, const void *pb)
{
    const struct claim *a = pa, *b = pb;
    if (a->offset != b->offset)
        return a->offset < b->offset ? -1 : 1;
    if (a->bench != b->bench)
        return a->bench < b->bench ? -1 : 1;
    if (a->inv != b->inv)
        return a->inv < b->inv ? -1 : 1;
    return strcmp(a->id, b->id);
}

/* The words of a line: split at blanks and shell punctuation, so that
 * "cd /tmp && ENOUGH=5 /usr/bin/lat_syscall null" has "lat_syscall" and
 * "null". */
static bool has_word(const char *line, size_t len, const char *word)
{
    static const char seps[] = " \t\r/;&|'\"`()<>$#:";
    size_t wl = strlen(word);
    for (size_t i = 0; i + wl <= len; i++) {
        if ((i > 0 && !strchr(seps, line[i - 1])) || strncasecmp(line + i, word, wl) != 0)
            continue;
        if (i + wl == len || strchr(seps, line[i + wl]))
            return true;
    }
    return false;
}

struct import {
    const struct import_cmd *ic;
    const char *log;
    const struct recipe_bench **sel;
    size_t nsel;
};

static bool names_binary(const struct import *im, size_t bench, const char *line, size_t len)
{
    const char *name;
    for (size_t i = 0; (name = recipe_binary_name(im->sel[bench], i)); i++)
        if (has_word(line, len, name))
            return true;
    return false;
}

/* The nearest line above `offset` that names a binary of any selected
 * benchmark (the command a console log shows before the output); false
 * when there is none. */
static bool command_before(const struct import *im, size_t offset, const char **line,
                           size_t *len)
{
    const char *log = im->log;
    const char *end = log + offset;
    while (end > log && end[-1] != '\n')
        end--;                  /* the start of the match's line */
    while (end > log) {
        const char *s = end - 1;    /* the '\n' ending the line above */
        while (s > log && s[-1] != '\n')
            s--;
        size_t n = (size_t)(end - 1 - s);
        for (size_t b = 0; b < im->nsel; b++)
            if (names_binary(im, b, s, n)) {
                *line = s;
                *len = n;
                return true;
            }
        end = s;
    }
    return false;
}

/* Whether the command line names this benchmark and every value of the
 * invocation's variables ("bw_mem 16M rd" for op=rd size=16M). */
static bool command_names(const struct import *im, size_t bench, size_t inv, const char *line,
                          size_t len)
{
    if (!names_binary(im, bench, line, len))
        return false;
    char *label = recipe_invocation_label(im->sel[bench], inv);
    bool ok = true;
    char *save = NULL;
    for (char *kv = strtok_r(label, " ", &save); kv && ok; kv = strtok_r(NULL, " ", &save)) {
        char *eq = strchr(kv, '=');
        ok = has_word(line, len, eq ? eq + 1 : kv);
    }
    free(label);
    return ok;
}

/* The claimants of one match agree when they are the same benchmark
 * giving the same ids (its invocations all read that line alike). */
static bool same_claim(const struct claim *g, size_t n, size_t i, size_t j)
{
    if (g[i].bench != g[j].bench)
        return false;
    size_t ni = 0, nj = 0;
    for (size_t k = 0; k < n; k++) {
        ni += g[k].bench == g[i].bench && g[k].inv == g[i].inv;
        nj += g[k].bench == g[j].bench && g[k].inv == g[j].inv;
    }
    if (ni != nj)
        return false;
    for (size_t k = 0; k < n; k++) {
        if (g[k].bench != g[i].bench || g[k].inv != g[i].inv)
            continue;
        bool found = false;
        for (size_t m = 0; m < n && !found; m++)
            found = g[m].bench == g[j].bench && g[m].inv == g[j].inv &&
                    strcmp(g[m].id, g[k].id) == 0;
        if (!found)
            return false;
    }
    return true;
}

/* Decides who a match at one offset belongs to: everyone when all read
 * it alike, else those the command line above names, if they agree. The
 * first claimant's invocation is kept; the others' duplicates are not. */
static bool settle(const struct import *im, struct claim *g, size_t n)
{
    bool agree = true;
    for (size_t i = 1; i < n && agree; i++)
        agree = same_claim(g, n, 0, i);
    if (agree) {
        for (size_t i = 0; i < n; i++)
            g[i].accepted = g[i].inv == g[0].inv;
        return true;
    }
    const char *line;
    size_t len;
    if (!command_before(im, g[0].offset, &line, &len))
        return false;
    size_t first = SIZE_MAX;
    for (size_t i = 0; i < n; i++) {
        if (!command_names(im, g[i].bench, g[i].inv, line, len))
            continue;
        if (first == SIZE_MAX)
            first = i;
        else if (!same_claim(g, n, first, i))
            return false;
    }
    if (first == SIZE_MAX)
        return false;
    for (size_t i = 0; i < n; i++)
        g[i].accepted = g[i].bench == g[first].bench && g[i].inv == g[first].inv;
    return true;
}

static json_t *import_header(const struct import_cmd *ic, const char *abs)
{
    const struct app *a = ic->app;
    json_t *h = json_object();
    json_object_set_new(h, "version", json_string(PACKAGE_VERSION));
    json_object_set_new(h, "board", a->ref_board ? json_string(a->ref_board) : json_null());
    json_object_set_new(h, "board_name", json_null());
    json_object_set_new(h, "tolerance_pct", json_real(a->tolerance_pct));
    json_object_set_new(h, "provider", json_string("tool"));
    json_object_set_new(h, "imported", json_pack("{so ss}", "file", json_string_from_outside(abs),
                                                 "tool", ic->tool));
    json_object_set_new(h, "benchmarks", json_pack("[s]", ic->tool));
    return h;
}

/* Says the store's message in d and empties d; returns the status 1. */
static int store_error(const struct import_cmd *ic, struct diag *d)
{
    fprintf(ic->err, "evmbench: results import: %s\n", diag_last(d));
    diag_free(d);
    return 1;
}

/* Writes the run: one row per metric of a selected benchmark that got a
 * value or a failure. Returns 0, or 1 after a store error. */
static int write_run(const struct import *im, struct claims *cl, const char *abs, size_t *nrows,
                     size_t *nbench)
{
    const struct import_cmd *ic = im->ic;
    const struct app *a = ic->app;
    struct store_writer *w = NULL;
    struct diag d;
    diag_init(&d);
    int status = 0;
    for (size_t bi = 0; bi < im->nsel && status == 0; bi++) {
        const struct kernel *k = NULL;
        for (size_t i = 0; i < a->ntool_kernels && !k; i++)
            if (toolkernel_recipe(a->tool_kernels[i]) == im->sel[bi])
                k = a->tool_kernels[i];
        if (!k)
            continue;
        struct run run = { .kernel = k, .nmetrics = k->nmetrics, .status = STATUS_OK,
                           .finished = true, .cpu = -1 };
        run.metrics = xcalloc(k->nmetrics + 1, sizeof *run.metrics);
        size_t filled = 0;
        for (size_t m = 0; m < k->nmetrics; m++) {
            struct run_metric *rm = &run.metrics[m];
            rm->def = &k->metrics[m];
            stats_init(&rm->stats);
            for (size_t c = 0; c < cl->n; c++) {
                const struct claim *x = &cl->v[c];
                if (!x->accepted || x->bench != bi || strcmp(x->id, rm->def->id) != 0)
                    continue;
                if (x->invalid && !rm->failed) {
                    rm->failed = true;
                    rm->fail_reason = xstrdup(x->invalid);
                } else if (!x->invalid) {
                    run_metric_push(rm, x->value);     /* no latency at or below 0 */
                }
            }
            filled += rm->stats.count > 0 || rm->failed;
        }
        if (filled && !w) {
            json_t *h = import_header(ic, abs);
            w = store_begin(ic->dir, a->ref_board ? a->ref_board : "import", h, &d);
            json_decref(h);
            if (!w)
                status = store_error(ic, &d);
        }
        for (size_t m = 0; filled && w && m < run.nmetrics; m++) {
            if (run.metrics[m].stats.count == 0 && !run.metrics[m].failed)
                continue;
            struct result_row row;
            result_row_make(&row, &run, m, &a->cmp);
            json_t *j = result_row_json(&row);
            if (store_append(w, j, &d) != 0)
                status = store_error(ic, &d);
            else
                (*nrows)++;
            json_decref(j);
        }
        *nbench += filled > 0;
        for (size_t m = 0; m < run.nmetrics; m++) {
            stats_free(&run.metrics[m].stats);
            free(run.metrics[m].fail_reason);
        }
        free(run.metrics);
    }
    if (w) {
        fprintf(ic->out, "imported %zu metric%s of %zu benchmark%s from %s as run %s\n", *nrows,
                *nrows == 1 ? "" : "s", *nbench, *nbench == 1 ? "" : "s", ic->file,
                store_writer_id(w));
        if (store_finish(w, status == 0, &d) != 0)
            status = store_error(ic, &d);
    }
    return status;
}

int cli_import(const struct import_cmd *ic)
{
    const struct app *a = ic->app;
    struct import im = { .ic = ic };
    im.sel = xcalloc(recipe_count(a->recipes) + 1, sizeof *im.sel);
    for (size_t i = 0; i < recipe_count(a->recipes); i++)
        if (selected(recipe_get(a->recipes, i), ic->tool))
            im.sel[im.nsel++] = recipe_get(a->recipes, i);
    if (im.nsel == 0) {
        fprintf(ic->err, "evmbench: results import: no tool recipe is called '%s' (a tool "
                "family such as lmbench, stream, arm_benchmarks, or a benchmark name)\n",
                ic->tool);
        free(im.sel);
        return 2;
    }
    size_t len;
    char *log = read_file(ic->file, IMPORT_MAX_BYTES, &len);
    if (!log) {
        fprintf(ic->err, "evmbench: %s: %s\n", ic->file, file_strerror(errno));
        free(im.sel);
        return 1;
    }
    if (strlen(log) != len) {
        fprintf(ic->err, "evmbench: %s: not a text log (it has NUL bytes)\n", ic->file);
        free(log);
        free(im.sel);
        return 1;
    }
    im.log = log;
    struct claims cl = { .n = 0 };
    for (size_t bi = 0; bi < im.nsel; bi++) {
        const struct recipe_bench *b = im.sel[bi];
        size_t had = cl.n;
        struct diag d;
        diag_init(&d);
        for (size_t inv = 0; inv < recipe_invocation_count(b) && !d.n; inv++) {
            cl.bench = bi;
            cl.inv = inv;
            struct recipe_env env = { .saved_log = true };
            if (recipe_parse(b, inv, &env, log, claim_cb, &cl, &d) < 0) {
                fprintf(ic->err, "evmbench: warning: %s: not imported: %s\n", recipe_name(b),
                        diag_last(&d));
                for (size_t c = had; c < cl.n; c++) {
                    free(cl.v[c].id);
                    free(cl.v[c].invalid);
                }
                cl.n = had;
            }
        }
        diag_free(&d);
    }
    if (cl.n)
        qsort(cl.v, cl.n, sizeof *cl.v, cmp_claim);
    size_t *lost = xcalloc(im.nsel, sizeof *lost);
    for (size_t i = 0, j; i < cl.n; i = j) {
        for (j = i; j < cl.n && cl.v[j].offset == cl.v[i].offset; j++)
            ;
        if (!settle(&im, &cl.v[i], j - i))
            for (size_t k = i; k < j; k++)
                lost[cl.v[k].bench] += k == i || cl.v[k].bench != cl.v[k - 1].bench;
    }
    for (size_t bi = 0; bi < im.nsel; bi++)
        if (lost[bi])
            fprintf(ic->err, "evmbench: warning: %s: %zu line%s not imported: the log does not "
                    "say which benchmark or invocation printed %s (keep each tool's command "
                    "line above its output, as a console log does)\n",
                    recipe_name(im.sel[bi]), lost[bi], lost[bi] == 1 ? "" : "s",
                    lost[bi] == 1 ? "it" : "them");
    free(lost);
    char *abs = realpath(ic->file, NULL);
    size_t nrows = 0, nbench = 0;
    int status = write_run(&im, &cl, abs ? abs : ic->file, &nrows, &nbench);
    if (status == 0 && nrows == 0) {
        fprintf(ic->err, "evmbench: %s: no output of %s found\n", ic->file, ic->tool);
        status = 1;
    }
    for (size_t c = 0; c < cl.n; c++) {
        free(cl.v[c].id);
        free(cl.v[c].invalid);
    }
    free(cl.v);
    free(abs);
    free(log);
    free(im.sel);
    return status;
}
