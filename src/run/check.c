/* check.c - the verdict of the before/after check in words (check.h). */
#include "config.h"
#include "run/check.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/units.h"
#include "data/refdb.h"
#include "run/export.h"

static const char *str_of(json_t *row, const char *key)
{
    const char *s = json_string_value(json_object_get(row, key));
    return s ? s : "";
}

static void add_move(struct check_verdict *v, json_t *row, const struct fail_check *fc,
                     double value, bool worse)
{
    v->moves = xrealloc(v->moves, (v->nmoves + 1) * sizeof *v->moves);
    v->moves[v->nmoves++] = (struct check_move){
        .bench = xstrdup(str_of(row, "bench")),
        .metric = xstrdup(str_of(row, "metric")),
        .unit = xstrdup(str_of(row, "unit")),
        .value = value,
        .basis = fc->basis_value,
        .basis_kind = fc->basis,
        .pct = fc->worse_pct,
        .worse = worse,
        .explained_by = json_is_string(json_object_get(row, "explained_by"))
                        ? xstrdup(str_of(row, "explained_by")) : NULL,
    };
}

static int move_order(const void *pa, const void *pb)
{
    const struct check_move *a = pa, *b = pb;
    if (a->loaded != b->loaded)         /* worse, then could not tell, then better */
        return a->loaded ? (b->worse ? 1 : -1) : (a->worse ? -1 : 1);
    if (a->worse != b->worse)
        return a->worse ? -1 : 1;
    return a->pct > b->pct ? -1 : a->pct < b->pct ? 1 : 0;
}

/* Judges one row that ran: worse by the rule itself, better by the rule
 * with the direction turned round. */
static void judge_row(struct check_verdict *v, json_t *row)
{
    struct fail_input in;
    struct ref_value ref;
    export_row_fail_input(row, &in, &ref);
    struct fail_check fc = deviation_fail_check(&in, v->pct);
    if (fc.basis == BASIS_NONE)
        return;
    v->judged++;
    char why[160];
    if (export_row_failure(row, v->pct, why, sizeof why)) {
        v->worse++;
        add_move(v, row, &fc, in.value, true);
        return;
    }
    if (fc.loaded) {            /* worse, but the core was busy with others */
        v->judged--;
        v->unclear++;
        add_move(v, row, &fc, in.value, true);
        v->moves[v->nmoves - 1].loaded = true;
        v->moves[v->nmoves - 1].load_pct = in.other_cpu_pct;
        return;
    }
    in.dir = in.dir == DIR_HIGHER_BETTER ? DIR_LOWER_BETTER : DIR_HIGHER_BETTER;
    struct fail_check up = deviation_fail_check(&in, v->pct);
    if (up.fails) {
        v->better++;
        add_move(v, row, &up, in.value, false);
    }
}

void check_judge(struct check_verdict *v, json_t *rows, const char *against, double pct)
{
    *v = (struct check_verdict){ .pct = pct, .against = against ? xstrdup(against) : NULL };
    size_t i;
    json_t *row;
    json_array_foreach(rows, i, row) {
        v->metrics++;
        if (strcmp(str_of(row, "status"), "ok") != 0)
            v->not_run++;
        else
            judge_row(v, row);
    }
    if (v->nmoves)
        qsort(v->moves, v->nmoves, sizeof *v->moves, move_order);
    v->outcome = v->worse ? CHECK_SLOWER : v->not_run ? CHECK_INCOMPLETE
               : v->unclear ? CHECK_UNCLEAR : v->judged ? CHECK_AS_FAST : CHECK_NO_BASIS;
}

void check_free(struct check_verdict *v)
{
    for (size_t i = 0; i < v->nmoves; i++) {
        free(v->moves[i].bench);
        free(v->moves[i].metric);
        free(v->moves[i].unit);
        free(v->moves[i].explained_by);
    }
    free(v->moves);
    free(v->against);
    *v = (struct check_verdict){ 0 };
}

const char *check_outcome_words(const struct check_verdict *v)
{
    switch (v->outcome) {
    case CHECK_AS_FAST:
        return v->against ? "AS FAST AS BEFORE" : "AS FAST AS THE GUIDE";
    case CHECK_SLOWER:
        return v->against ? "SLOWER THAN BEFORE" : "SLOWER THAN THE GUIDE";
    case CHECK_INCOMPLETE:
        return "NOT CHECKED IN FULL";
    case CHECK_UNCLEAR:
        return "COULD NOT TELL";
    case CHECK_NO_BASIS:
        break;
    }
    return "NOTHING TO COMPARE WITH";
}

static const char *plural(size_t n)
{
    return n == 1 ? "" : "s";
}

/* "baseline before-ddr" or "the guide". */
static void basis_name(const struct check_verdict *v, struct strbuf *sb)
{
    if (v->against)
        sb_addf(sb, "baseline %s", v->against);
    else
        sb_add(sb, "the guide");
}

void check_headline(const struct check_verdict *v, struct strbuf *sb)
{
    switch (v->outcome) {
    case CHECK_AS_FAST:
        sb_addf(sb, "%s %zu metric%s compared with ", v->judged == 1 ? "the" : "all",
                v->judged, plural(v->judged));
        basis_name(v, sb);
        sb_addf(sb, " %s within %g%% of it or better.", v->judged == 1 ? "is" : "are", v->pct);
        break;
    case CHECK_SLOWER:
        sb_addf(sb, "%zu of %zu metric%s compared with ", v->worse, v->judged, plural(v->judged));
        basis_name(v, sb);
        sb_addf(sb, " %s worse by more than %g%%.", v->worse == 1 ? "is" : "are", v->pct);
        break;
    case CHECK_INCOMPLETE:
        sb_addf(sb, "%zu metric%s did not run; the %zu compared with ", v->not_run,
                plural(v->not_run), v->judged);
        basis_name(v, sb);
        sb_addf(sb, " %s within %g%% of it or better.", v->judged == 1 ? "is" : "are", v->pct);
        break;
    case CHECK_UNCLEAR:
        sb_addf(sb, "%zu of %zu metric%s compared with ", v->unclear, v->judged + v->unclear,
                plural(v->judged + v->unclear));
        basis_name(v, sb);
        sb_addf(sb, " %s worse by more than %g%%, but other processes took CPU time on the "
                "worker's core meanwhile: that load can explain it.", v->unclear == 1 ? "is" : "are",
                v->pct);
        if (v->judged)
            sb_addf(sb, " The other %zu %s within %g%% of it or better.", v->judged,
                    v->judged == 1 ? "is" : "are", v->pct);
        break;
    case CHECK_NO_BASIS:
        sb_addf(sb, "none of the %zu metric%s has a value in ", v->metrics, plural(v->metrics));
        basis_name(v, sb);
        sb_add(sb, " to compare with.");
        break;
    }
    size_t unjudged = v->metrics - v->judged - v->not_run - v->unclear;
    if (v->outcome == CHECK_SLOWER && v->not_run)
        sb_addf(sb, " %zu metric%s did not run.", v->not_run, plural(v->not_run));
    if (v->outcome != CHECK_UNCLEAR && v->unclear)
        sb_addf(sb, " %zu more %s worse under other processes' load: not judged.", v->unclear,
                v->unclear == 1 ? "is" : "are");
    if (v->better)
        sb_addf(sb, " %zu %s better by more than %g%%.", v->better,
                v->better == 1 ? "is" : "are", v->pct);
    if (unjudged && v->outcome != CHECK_NO_BASIS)
        sb_addf(sb, " %zu without a value in %s or without a better direction %s not judged.",
                unjudged, v->against ? "the baseline" : "the guide",
                unjudged == 1 ? "was" : "were");
}

void check_move_text(const struct check_move *m, struct strbuf *sb)
{
    char value[24], basis[24];
    snprintf(value, sizeof value, "%.6g", m->value);
    snprintf(basis, sizeof basis, "%.6g", m->basis);
    const char *unit = unit_display(m->unit);
    sb_addf(sb, "%s %s: %.1f%% %s ", m->bench, m->metric, m->pct, m->worse ? "worse" : "better");
    switch (m->basis_kind) {
    case BASIS_BASELINE:
        sb_addf(sb, "than before (%s %s, was %s)", value, unit, basis);
        break;
    case BASIS_GUIDE_MIN:       /* the band's lower edge */
        sb_addf(sb, "than the guide (%s %s, its band from %s)", value, unit, basis);
        break;
    case BASIS_GUIDE_MAX:       /* the band's upper edge */
        sb_addf(sb, "than the guide (%s %s, its band up to %s)", value, unit, basis);
        break;
    case BASIS_GUIDE_AVG:
    case BASIS_NONE:
        sb_addf(sb, "than the guide (%s %s, guide %s)", value, unit, basis);
        break;
    }
    if (m->loaded)
        sb_addf(sb, "; other processes took %.0f%% of the worker's core meanwhile: could not "
                "tell", m->load_pct);
    else if (m->explained_by)
        sb_addf(sb, "; %s", m->explained_by);
}

void check_paragraph(const struct check_verdict *v, const char *pct_from, const char *system,
                     struct strbuf *sb)
{
    sb_addf(sb, "Verdict: %s: ", check_outcome_words(v));
    check_headline(v, sb);
    sb_add(sb, "\n");
    for (size_t i = 0; i < v->nmoves; i++) {
        sb_add(sb, "  ");
        check_move_text(&v->moves[i], sb);
        sb_add(sb, "\n");
    }
    sb_addf(sb, "Tolerance: %g%% (%s); compared with ", v->pct, pct_from);
    basis_name(v, sb);
    sb_add(sb, ".\n");
    if (system)
        sb_addf(sb, "System: %s\n", system);
}
