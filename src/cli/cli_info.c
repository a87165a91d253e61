/* cli_info.c - what is here: `evmbench list` (the benchmarks and what
 * runs them), `sysinfo` (the board), `refs` (the guides' numbers) and
 * `selfcheck` (the kernels beside the SDK's tools). */
#include "config.h"
#include "cli/cli.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "app.h"
#include "board/board.h"
#include "board/sysstate.h"
#include "recipe/toolkernel.h"
#include "kernel/kernel.h"
#include "selfcheck.h"
#include "sysfacts.h"
#include "run/export.h"
#include "common/util.h"

#include "cli/cli_impl.h"
#include "common/units.h"

/* --- sysinfo ------------------------------------------------------------- */

int cli_cmd_sysinfo(struct cli *c, struct app *unused)
{
    (void)unused;
    static const char *const fmts[] = { "text", "json", NULL };
    if (cli_check_format(c, fmts))
        return EXIT_USAGE;
    /* The board itself needs no guide; its EVM facts come from one. */
    struct app a;
    app_init(&a, &c->cfg);
    cli_print_diag(c, &a.diag);
    FILE *f = cli_open_output(c);
    if (!f) {
        app_free(&a);
        return 1;
    }
    struct sysfacts facts;
    sysfacts_read(&facts, &a, SYSSTATE_MEASURE_S);
    for (size_t i = 0; i < facts.problems.n; i++)
        fprintf(c->err, "evmbench: warning: %s (no DDR peak is shown)\n", facts.problems.msgs[i]);
    if (cli_format_is(c, "json")) {
        json_t *j = sysfacts_to_json(&facts);
        cli_dump_json(j, f);
        json_decref(j);
    } else {
        sysfacts_print_text(&facts, f);
    }
    sysfacts_free(&facts);
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
/* One row of refs' text table at 80 columns, the value right-aligned at
 * the last column (it may take the room the others leave). Nothing is
 * cut: a row that does not fit prints its names on one line and its
 * column, unit and value on the next, indented. */
static void print_ref_line(FILE *f, bool with_board, const char *board, const char *metric,
                           const char *column, const char *unit, const char *value)
{
    char left[1024];
    int n = with_board ? snprintf(left, sizeof left, "%-15s %-22s %-10s %-8s", board, metric,
                                  column, unit)
                       : snprintf(left, sizeof left, "%-30s %-12s %-10s", metric, column, unit);
    int room = 80 - n - 1, vlen = (int)strlen(value);
    if (vlen <= room) {
        fprintf(f, "%s %*s\n", left, room, value);
        return;
    }
    if (with_board)
        fprintf(f, "%-15s %s\n", board, metric);
    else
        fprintf(f, "%s\n", metric);
    fprintf(f, "    %-12s %-10s %s\n", column, unit, value);
}

/* One value of the guides, wherever it is printed. */
struct ref_item {
    const struct ref_table *t;
    const char *path;           /* its section path */
    const struct ref_row *row;
    const struct ref_column *col;
    const struct ref_value *v;
    const char *unit;
};

static json_t *ref_item_json(const struct ref_item *it)
{
    const struct ref_value *v = it->v;
    json_t *o = json_object();
    json_object_set_new(o, "source", json_string(it->t->source->title));
    json_object_set_new(o, "board", it->col->board ? json_string(it->col->board) : json_null());
    json_object_set_new(o, "section", json_string(it->path));
    json_object_set_new(o, "table", json_string(it->t->title));
    json_object_set_new(o, "metric", json_string(it->row->name));
    json_object_set_new(o, "column", json_string(it->col->name));
    json_object_set_new(o, "unit", it->unit ? json_string(it->unit) : json_null());
    if (v->present)
        json_object_set_new(o, "avg", json_real(v->avg));
    else
        json_object_set_new(o, "avg", json_null());
    json_object_set_new(o, "min", ref_json_number(v->has_min, v->min));
    json_object_set_new(o, "max", ref_json_number(v->has_max, v->max));
    if (v->text)
        json_object_set_new(o, "text", json_string(v->text));
    json_object_set_new(o, "guess", it->row->note ? json_string(it->row->note) : json_null());
    return o;
}

static void ref_item_csv(const struct ref_item *it, FILE *f)
{
    const struct ref_value *v = it->v;
    export_csv_field(f, it->t->source->title, false);
    export_csv_field(f, it->col->board, false);
    export_csv_field(f, it->path, false);
    export_csv_field(f, it->t->title, false);
    export_csv_field(f, it->row->name, false);
    export_csv_field(f, it->col->name, false);
    export_csv_field(f, it->unit, false);
    if (v->present)
        csv_number(f, true, v->avg, false);
    else
        export_csv_field(f, v->text, false);
    csv_number(f, v->has_min, v->min, false);
    csv_number(f, v->has_max, v->max, true);
}

/* A text line; a new section or table gets its heading first (*last_path
 * and *last_title: the one printed last). A value the importer placed by
 * a guess ends in " ?", and its row's note follows its first value
 * (*last_note: the note printed last). */
static void ref_item_text(const struct cli *c, const struct ref_item *it, FILE *f,
                          char **last_path, const char **last_title, const char **last_note)
{
    const struct ref_value *v = it->v;
    if (!*last_path || strcmp(*last_path, it->path) != 0 || *last_title != it->t->title) {
        fprintf(f, "\n%s\n  %s\n", it->path, it->t->title);
        free(*last_path);
        *last_path = xstrdup(it->path);
        *last_title = it->t->title;
    }
    /* the guide's numbers as it wrote them (10 significant digits), never
     * rounded to a band that is not the guide's (0.13-0.32 is not 0-0) */
    char val[160];
    const char *mark = it->row->note ? " ?" : "";      /* placed by a guess */
    if (!v->present)
        snprintf(val, sizeof val, "%s%s", v->text, mark);
    else if (v->has_min && v->has_max)
        snprintf(val, sizeof val, "%.10g (%.10g-%.10g)%s", v->avg, v->min, v->max, mark);
    else
        snprintf(val, sizeof val, "%.10g%s", v->avg, mark);
    print_ref_line(f, c->cfg.board == NULL, it->col->board ? it->col->board : "-",
                   it->row->name, it->col->name, unit_display(it->unit), val);
    if (it->row->note && it->row->note != *last_note) {
        char head[32];      /* clipped: a terminal of 80 columns must not wrap */
        int n = snprintf(head, sizeof head, "  ? line %d: ", it->row->line);
        fprintf(f, "%s%.*s\n", head, 80 - n, it->row->note);
        *last_note = it->row->note;
    }
}

int cli_cmd_refs(struct cli *c, struct app *a)
{
    static const char *const fmts[] = { "text", "json", "csv", NULL };
    if (cli_check_format(c, fmts))
        return EXIT_USAGE;
    int rc = cli_check_board(c, a);
    if (rc)
        return rc;
    if (c->section) {
        /* a section nothing matches is an error, not an empty table */
        bool any = false;
        for (size_t i = 0; i < a->refdb->ntables && !any; i++) {
            char *path = section_path(a->refdb->tables[i]);
            any = strcasestr(path, c->section) != NULL;
            free(path);
        }
        if (!any)
            return cli_usage_error(c, "--section %s: no section of the loaded guides has that "
                                   "in its name (see 'evmbench refs')", c->section);
    }
    FILE *f = cli_open_output(c);
    if (!f)
        return 1;
    json_t *arr = json_array();
    if (cli_format_is(c, "csv"))
        fputs("source,board,section,table,metric,column,unit,avg,min,max\n", f);
    else if (cli_format_is(c, "text"))
        print_ref_line(f, c->cfg.board == NULL, "BOARD", "METRIC", "COLUMN", "UNIT",
                       "AVG (MIN-MAX)");
    const char *last_title = NULL, *last_note = NULL;
    char *last_path = NULL;
    for (size_t i = 0; i < a->refdb->ntables; i++) {
        struct ref_item it = { .t = a->refdb->tables[i] };
        char *path = section_path(it.t);
        it.path = path;
        bool wanted = !c->section || strcasestr(path, c->section);
        for (size_t r = 0; wanted && r < it.t->nrows; r++)
            for (size_t k = 0; k < it.t->ncols; k++) {
                it.row = &it.t->rows[r];
                it.col = &it.t->cols[k];
                it.v = &it.row->values[k];
                if (c->cfg.board && (!it.col->board || strcmp(it.col->board, c->cfg.board) != 0))
                    continue;
                if (!it.v->present && !it.v->text)
                    continue;
                it.unit = it.row->unit ? it.row->unit : it.col->unit;
                if (cli_format_is(c, "json"))
                    json_array_append_new(arr, ref_item_json(&it));
                else if (cli_format_is(c, "csv"))
                    ref_item_csv(&it, f);
                else
                    ref_item_text(c, &it, f, &last_path, &last_title, &last_note);
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
            found += app_tool_found(b->kernels[k]);
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

/* One category's benchmarks: a line each (text) or an object each (JSON). */
/* The text list's columns at 80: key, title, providers, refs. A key or
 * title longer than its column is never cut (a key is what the user
 * types): it ends its line and the row goes on below, under the next
 * column. */
#define LIST_KEY_W 22
#define LIST_TITLE_W 25

static void list_cell(FILE *f, const char *text, int width, int next_col)
{
    if ((int)strlen(text) <= width)
        fprintf(f, "%-*s ", width, text);
    else
        fprintf(f, "%s\n%*s", text, next_col, "");
}

/* "    ID not runnable: WHY", wrapped at 80 columns between words, the
 * lines after the first indented by 6. */
static void list_not_runnable(FILE *f, const char *id, const char *why)
{
    int col = fprintf(f, "    %s not runnable:", id);
    for (const char *w = why; *w;) {
        size_t len = strcspn(w, " ");
        if (len) {
            if (col + 1 + (int)len > 80 && col > 6)
                col = fprintf(f, "\n     ") - 1;
            col += fprintf(f, " %.*s", (int)len, w);
        }
        w += len;
        w += *w == ' ';
    }
    fputc('\n', f);
}

/* board: count the reference numbers of this guide board (NULL: of any). */
static void list_category(struct cli *c, struct app *a, const struct cat_category *cat,
                          const char *board, FILE *f, json_t *arr)
{
    if (!cli_format_is(c, "json"))
        fprintf(f, "%s\n", cat->title);
    for (size_t j = 0; j < cat->nbenches; j++) {
        const struct cat_bench *b = cat->benches[j];
        size_t nref = cat_bench_count_metrics(b, board);
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
                if (app_tool_found(b->kernels[k]))
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
            /* runnable: what 'run' would start here (the same choice) */
            const struct kernel **ks = xcalloc(b->nkernels ? b->nkernels : 1, sizeof *ks);
            bool runnable = app_bench_kernels(a, b, ks) > 0;
            free(ks);
            json_object_set_new(o, "providers", prov);
            json_object_set_new(o, "available", avail);
            json_object_set_new(o, "not_runnable", blocked);
            json_object_set_new(o, "runnable", json_boolean(runnable));
            json_object_set_new(o, "ref_metrics", json_integer((json_int_t)nref));
            json_array_append_new(arr, o);
        } else {
            char summary[48];
            providers_summary(b, summary, sizeof summary);
            fputs("  ", f);
            list_cell(f, b->slug, LIST_KEY_W, 2 + LIST_KEY_W + 1);
            list_cell(f, b->title, LIST_TITLE_W, 2 + LIST_KEY_W + 1 + LIST_TITLE_W + 1);
            fprintf(f, "%-19s %4zu refs\n", summary, nref);
            for (size_t k = 0; k < b->nkernels; k++) {
                const struct recipe_bench *rb = toolkernel_recipe(b->kernels[k]);
                const char *why = rb ? recipe_unrunnable(rb, NULL) : NULL;
                char id[64];
                kernel_provider_id(b->kernels[k], id, sizeof id);
                if (why)
                    list_not_runnable(f, id, why);
            }
        }
    }
}

/* The board's guide (the screens' home), or with --all or no guide for
 * the board every guide; the parts left out are named at the end. */
int cli_cmd_list(struct cli *c, struct app *a)
{
    static const char *const fmts[] = { "text", "json", NULL };
    if (cli_check_format(c, fmts))
        return EXIT_USAGE;
    int rc = cli_check_board(c, a);     /* as run and refs refuse it */
    if (rc)
        return rc;
    FILE *f = cli_open_output(c);
    if (!f)
        return 1;
    json_t *arr = json_array();
    struct cat_menu *m = catalog_menu(a->catalog, a->ref_board);
    bool all = c->all || !m->guide;
    bool text = !cli_format_is(c, "json");
    if (text && !all)
        fprintf(f, "# %s: %s (list --all: every guide)\n", a->ref_board,
                m->part[MENU_MAIN].title);
    const struct cat_view *v = &m->part[MENU_MAIN];
    for (size_t i = 0; i < (all ? a->catalog->ncats : v->ncats); i++)
        list_category(c, a, all ? &a->catalog->cats[i] : &v->cats[i],
                      all ? NULL : a->ref_board, f, arr);
    for (int p = MENU_MCU; text && !all && p <= MENU_OTHERS; p++)
        if (m->part[p].ncats)
            fprintf(f, "# %s: %zu categories of %zu guide%s (list --all)\n", m->part[p].title,
                    m->part[p].ncats, m->part[p].nguides, m->part[p].nguides == 1 ? "" : "s");
    cat_menu_free(m);
    if (cli_format_is(c, "json"))
        cli_dump_json(arr, f);
    json_decref(arr);
    return cli_close_output(c, f);
}

/* --- selfcheck ------------------------------------------------------------ */

int cli_cmd_selfcheck(struct cli *c, struct app *a)
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
