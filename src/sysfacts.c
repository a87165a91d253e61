/* sysfacts.c - the facts of this system for sysinfo and the system screen
 * (sysfacts.h). */
#include "config.h"
#include "sysfacts.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "board/sysstate.h"
#include "kernel/cpucheck.h"
#include "kernel/cpuclock.h"
#include "common/util.h"

#define MAX_CORES 256

static void add_warning(struct sysfacts *f, char *text)
{
    f->warnings = xrealloc(f->warnings, (f->nwarnings + 1) * sizeof *f->warnings);
    f->warnings[f->nwarnings++] = text;
}

/* The record's cores as cpucheck_clocks() takes them: measured beside
 * cpufreq's current clock. */
static size_t record_cores(json_t *sys, struct cpuclock_core *out, size_t max)
{
    size_t i, n = 0;
    json_t *c;
    json_array_foreach(json_object_get(sys, "cpus"), i, c) {
        if (n == max)
            break;
        struct cpuclock_core *k = &out[n++];
        k->cpu = (int)json_integer_value(json_object_get(c, "cpu"));
        k->measured_mhz = json_number_value(json_object_get(c, "measured_mhz"));
        k->cpufreq_mhz = json_number_value(json_object_get(c, "cur_mhz"));
        k->max_mhz = json_number_value(json_object_get(c, "max_mhz"));
        k->mismatch = cpuclock_mismatch(k->measured_mhz, k->cpufreq_mhz);
    }
    return n;
}

/* What could spoil a benchmark here or mislead a comparison. */
static void read_warnings(struct sysfacts *f)
{
    const struct app *a = f->app;
    char *doubt = board_match_warning(&f->match, "its results may not compare with the guide's");
    if (doubt)
        add_warning(f, doubt);
    if (!a->ref_board)
        add_warning(f, xstrdup("no guide describes this board: its results have nothing to "
                               "be compared with (choose a guide column with --board KEY, "
                               "or b in the screens)"));
    struct cpucheck_snapshot snap;
    struct cpucheck_list cpu = { 0 };
    cpucheck_snapshot(&snap, a->sysroot);
    cpucheck_before(&snap, &cpu);
    cpucheck_snapshot_free(&snap);
    struct cpuclock_core cores[MAX_CORES];
    cpucheck_clocks(cores, record_cores(f->system, cores, MAX_CORES), &cpu);
    for (size_t i = 0; i < cpu.count; i++)
        add_warning(f, xstrdup(cpu.items[i].text));
    cpucheck_list_free(&cpu);
    for (size_t i = 0; i < f->problems.n; i++)
        add_warning(f, xasprintf("%s (no DDR peak is shown)", f->problems.msgs[i]));
}

void sysfacts_read(struct sysfacts *f, const struct app *a, double measure_s)
{
    memset(f, 0, sizeof *f);
    f->app = a;
    diag_init(&f->problems);
    f->ddr_soc = sysstate_soc(a->board.family, &f->problems);
    f->system = sysstate_read_board(a->sysroot, a->board.family, measure_s, &f->ddr_peak_mbs,
                                    &f->problems);
    priv_probe(a->sysroot, &f->priv);
    if (a->ref_board) {     /* how sure the detection is: only against a guide board */
        const char *from = NULL;
        double mhz = board_clock_of(&a->board, sysstate_measured_mhz(f->system), &from);
        app_board_match(a, mhz, from, &f->match);
    }
    read_warnings(f);
}

void sysfacts_free(struct sysfacts *f)
{
    json_decref(f->system);
    board_match_free(&f->match);
    diag_free(&f->problems);
    for (size_t i = 0; i < f->nwarnings; i++)
        free(f->warnings[i]);
    free(f->warnings);
    memset(f, 0, sizeof *f);
}

/* --- text ------------------------------------------------------------------ */

/* The theoretical DDR peak: rate x width and the document of the width. */
static void ddr_peak_text(const struct sysfacts *f, FILE *out)
{
    const struct ddr_soc *soc = f->ddr_soc;
    const char *family = f->app->board.family;
    char *line;
    if (f->ddr_peak_mbs > 0)
        line = xasprintf("%.0f MB/s (%.0f MT/s x %d bit; %s: %s)", f->ddr_peak_mbs,
                         sysstate_ddr_mts(f->system), soc->bus_bits, soc->interfaces,
                         soc->document);
    else if (soc)
        line = xasprintf("unknown: the data rate is not readable (%d-bit bus, %s)",
                         soc->bus_bits, soc->document);
    else
        line = xasprintf("unknown: no DDR bus width is known for the SoC family %s",
                         family ? family : "(none)");
    board_print_field(out, "DDR peak", line);
    free(line);
}

/* The guide's "Evaluation Modules" facts of the reference board. */
static void evm_text(const struct sysfacts *f, FILE *out)
{
    const struct ref_board *e = refdb_board(f->app->refdb, f->app->ref_board);
    if (!e) {
        board_print_field(out, "Guide EVM", f->app->refs_loaded > 0
                                                ? "none (no guide describes this board)"
                                                : "unknown (no reference file was loaded)");
        return;
    }
    char *line = xasprintf("%s, %s", e->name ? e->name : e->key, e->source->title);
    board_print_field(out, "Guide EVM", line);
    free(line);
    char clock[32] = "", ddr[64] = "";
    if (e->cpu_mhz > 0)
        snprintf(clock, sizeof clock, "%.0f MHz", e->cpu_mhz);
    if (e->ddr_mts > 0)
        snprintf(ddr, sizeof ddr, "%s%s%.0f MT/s", e->ddr_type ? e->ddr_type : "",
                 e->ddr_type ? " " : "", e->ddr_mts);
    board_print_field(out, "Guide CPU", clock[0] ? clock : NULL);
    board_print_field(out, "Guide DDR", ddr[0] ? ddr : NULL);
}

/* The board as detected, or the one picked on the board screen: it
 * replaces --board or an undetected board; beside a detected one it is
 * the reference, and "Decided:" says so. */
static void board_text(const struct app *a, FILE *out)
{
    struct board_info b = a->board;     /* shallow: only printed */
    char *how = NULL;
    const char *key = a->ref_board;
    if (a->ref_picked && key) {
        const struct ref_board *rb = refdb_board(a->refdb, key);
        const char *name = board_key_name(key);
        const char *was = b.how ? b.how : "detected";
        if (b.kind == BOARD_KNOWN) {
            how = xasprintf("%s; the reference was picked with b: %s", was, key);
        } else {
            how = xasprintf("picked with b (before: %s)", b.how ? b.how : "detected: nothing");
            b.kind = BOARD_OVERRIDE;
            b.key = (char *)key;
            b.name = (char *)(name ? name : rb && rb->name ? rb->name : key);
        }
        b.how = how;
    }
    board_print_text(&b, out);
    free(how);
}

static void warnings_text(const struct sysfacts *f, FILE *out)
{
    if (!f->nwarnings)
        board_print_field(out, "Warnings", "none: nothing contradicts the guide's board, and the "
                                           "governor, load and clocks look right for "
                                           "benchmarks");
    for (size_t i = 0; i < f->nwarnings; i++)
        board_print_field(out, "Warning", f->warnings[i]);
}

void sysfacts_print_text(const struct sysfacts *f, FILE *out)
{
    board_text(f->app, out);
    sysstate_print_text(f->system, out);
    ddr_peak_text(f, out);
    evm_text(f, out);
    board_match_print_text(&f->match, out);
    warnings_text(f, out);
    priv_print_text(&f->priv, out);
}

/* --- JSON ------------------------------------------------------------------ */

static json_t *ddr_peak_json(const struct sysfacts *f)
{
    const struct ddr_soc *soc = f->ddr_soc;
    json_t *o = json_object();
    json_object_set_new(o, "mbs", f->ddr_peak_mbs > 0 ? json_real(f->ddr_peak_mbs)
                                                      : json_null());
    json_object_set_new(o, "bus_bits", soc ? json_integer(soc->bus_bits) : json_null());
    json_object_set_new(o, "document", soc && soc->document ? json_string(soc->document)
                                                          : json_null());
    return o;
}

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

json_t *sysfacts_to_json(const struct sysfacts *f)
{
    json_t *j = board_to_json(&f->app->board);
    json_object_set(j, "system", f->system);
    json_object_set_new(j, "ddr_peak", ddr_peak_json(f));
    json_object_set_new(j, "evm", evm_json(refdb_board(f->app->refdb, f->app->ref_board)));
    json_object_set_new(j, "match", board_match_to_json(&f->match));
    json_object_set_new(j, "privileges", priv_to_json(&f->priv));
    json_t *w = json_array();
    for (size_t i = 0; i < f->nwarnings; i++)
        json_array_append_new(w, json_string(f->warnings[i]));
    json_object_set_new(j, "warnings", w);
    return j;
}
