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

static struct check_move *add_move(struct check_verdict *v, json_t *row,
                                   const struct fail_check *fc, double value, bool worse)
{
    v->moves = xrealloc(v->moves, (v->nmoves + 1) * sizeof *v->moves);
    struct check_move *m = &v->moves[v->nmoves++];
    *m = (struct check_move){
        .bench = xstrdup(str_of(row, "bench")),
        .metric = xstrdup(str_of(row, "metric")),
        .unit = xstrdup(str_of(row, "unit")),
        .value = value,
        .basis = fc->basis_value,
        .basis_kind = fc->basis,
        .worse = worse,
        .outcome = fc->outcome,
        .change = fc->change,
        .tol = v->pct,
        /* against a baseline: how far it changed, either way */
        .pct = fc->outcome != OUTCOME_NONE ? fabs(fc->change.pct) : fc->worse_pct,
        .explained_by = json_is_string(json_object_get(row, "explained_by"))
                        ? xstrdup(str_of(row, "explained_by")) : NULL,
    };
    double n;
    json_t *t = json_object_get(row, "samples_to_tell");
    if (json_is_integer(t) && json_integer_value(t) > 0)
        m->to_tell = (size_t)json_integer_value(t);
    if (json_is_number(json_object_get(row, "seconds_to_tell")) &&
        (n = json_number_value(json_object_get(row, "seconds_to_tell"))) > 0)
        m->to_tell_s = n;
    return m;
}

/* The order of significance: slower (worse), could not tell, a small real
 * change, better. */
static int move_rank(const struct check_move *m)
{
    if (m->loaded || m->outcome == OUTCOME_INCONCLUSIVE)
        return 1;
    if (m->small)
        return 2;
    return m->worse ? 0 : 3;
}

/* How large a move is: the change's estimate against a baseline, the
 * distance beyond the basis against the guide. */
static double move_size(const struct check_move *m)
{
    return m->outcome != OUTCOME_NONE ? fabs(m->change.pct) : m->pct;
}

static int move_order(const void *pa, const void *pb)
{
    const struct check_move *a = pa, *b = pb;
    int ra = move_rank(a), rb = move_rank(b);
    if (ra != rb)
        return ra < rb ? -1 : 1;
    double sa = move_size(a), sb = move_size(b);
    return sa > sb ? -1 : sa < sb ? 1 : 0;
}

/* Against a baseline: the outcome of the change at v->pct decides. */
static void judge_change(struct check_verdict *v, json_t *row, const struct fail_input *in,
                         const struct fail_check *fc)
{
    struct check_move *m;
    switch (fc->outcome) {
    case OUTCOME_SLOWER:
        v->worse++;
        add_move(v, row, fc, in->value, true);
        break;
    case OUTCOME_INCONCLUSIVE:
        v->judged--;
        v->unclear++;
        m = add_move(v, row, fc, in->value, fc->loaded);
        if (fc->loaded) {       /* slower, but other processes had the core */
            m->loaded = true;
            m->load_pct = in->other_cpu_pct;
        }
        break;
    case OUTCOME_FASTER:
        v->better++;
        add_move(v, row, fc, in->value, false);
        break;
    case OUTCOME_UNCHANGED:
        if (change_is_small(&fc->change)) {
            v->small++;
            m = add_move(v, row, fc, in->value, fc->worse_pct > 0);
            m->small = true;
        }
        break;
    case OUTCOME_NONE:
        v->judged--;
        break;
    }
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
    if (fc.basis == BASIS_BASELINE) {
        judge_change(v, row, &in, &fc);
        return;
    }
    char why[160];
    if (export_row_failure(row, v->pct, why, sizeof why)) {
        v->worse++;
        add_move(v, row, &fc, in.value, true);
        return;
    }
    if (fc.loaded) {            /* worse, but the core was busy with others */
        v->judged--;
        v->unclear++;
        struct check_move *m = add_move(v, row, &fc, in.value, true);
        m->loaded = true;
        m->load_pct = in.other_cpu_pct;
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

/* "within 10% of it or better" against the guide; against a baseline
 * "unchanged or faster at 10% (95% intervals)". */
static void within(const struct check_verdict *v, size_t n, struct strbuf *sb)
{
    if (v->against)
        sb_addf(sb, " %s unchanged within %g%% or faster (95%% intervals).",
                n == 1 ? "is" : "are", v->pct);
    else
        sb_addf(sb, " %s within %g%% of it or better.", n == 1 ? "is" : "are", v->pct);
}

/* Why the metrics that could not be told could not: "2 with too few
 * samples, 1 with too much spread, 1 under other processes' load". */
static void unclear_reasons(const struct check_verdict *v, struct strbuf *sb)
{
    size_t few = 0, spread = 0, load = 0;
    for (size_t i = 0; i < v->nmoves; i++) {
        const struct check_move *m = &v->moves[i];
        if (m->loaded)
            load++;
        else if (m->outcome == OUTCOME_INCONCLUSIVE && !m->change.has_interval)
            few++;
        else if (m->outcome == OUTCOME_INCONCLUSIVE)
            spread++;
    }
    const char *sep = "";
    if (few)
        sb_addf(sb, "%s%zu with too few samples", sep, few), sep = ", ";
    if (spread)
        sb_addf(sb, "%s%zu with an interval across the tolerance", sep, spread), sep = ", ";
    if (load)
        sb_addf(sb, "%s%zu worse while other processes took CPU time on the worker's core, "
                "which can make it slower by any amount", sep, load);
}

void check_headline(const struct check_verdict *v, struct strbuf *sb)
{
    size_t told = v->judged + v->unclear;
    switch (v->outcome) {
    case CHECK_AS_FAST:
        sb_addf(sb, "%s %zu metric%s compared with ", v->judged == 1 ? "the" : "all",
                v->judged, plural(v->judged));
        basis_name(v, sb);
        within(v, v->judged, sb);
        break;
    case CHECK_SLOWER:
        sb_addf(sb, "%zu of %zu metric%s compared with ", v->worse, told, plural(told));
        basis_name(v, sb);
        if (v->against)
            sb_addf(sb, " %s slower by more than %g%% (the whole 95%% interval beyond it).",
                    v->worse == 1 ? "is" : "are", v->pct);
        else
            sb_addf(sb, " %s worse by more than %g%%.", v->worse == 1 ? "is" : "are", v->pct);
        break;
    case CHECK_INCOMPLETE:
        sb_addf(sb, "%zu metric%s did not run; the %zu compared with ", v->not_run,
                plural(v->not_run), v->judged);
        basis_name(v, sb);
        within(v, v->judged, sb);
        break;
    case CHECK_UNCLEAR:
        if (!v->judged)
            sb_addf(sb, "none of the %zu metric%s compared with ", told, plural(told));
        else
            sb_addf(sb, "%zu of %zu metric%s compared with ", v->unclear, told, plural(told));
        basis_name(v, sb);
        sb_addf(sb, " could %sbe told at %g%% (", v->judged ? "not " : "", v->pct);
        unclear_reasons(v, sb);
        sb_add(sb, ").");
        if (v->judged) {
            sb_addf(sb, " The other %zu", v->judged);
            within(v, v->judged, sb);
        }
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
    if (v->outcome != CHECK_UNCLEAR && v->unclear) {
        sb_addf(sb, " %zu more could not be told (", v->unclear);
        unclear_reasons(v, sb);
        sb_add(sb, ").");
    }
    if (v->small)
        sb_addf(sb, " %zu changed by less than %g%%: %s.", v->small, v->pct,
                v->small == 1 ? "a small, real change" : "small, real changes");
    if (v->better)
        sb_addf(sb, " %zu %s %s.", v->better, v->better == 1 ? "is" : "are",
                v->against ? "faster" : "better by more than the tolerance");
    if (unjudged && v->outcome != CHECK_NO_BASIS)
        sb_addf(sb, " %zu without a value in %s or without a better direction %s not judged.",
                unjudged, v->against ? "the baseline" : "the guide",
                unjudged == 1 ? "was" : "were");
}

/* Against a baseline: the change, its interval, the values, the samples
 * and what it comes to. */
static void change_text(const struct check_move *m, const char *value, const char *basis,
                        const char *unit, double pct, struct strbuf *sb)
{
    const struct change *c = &m->change;
    sb_addf(sb, "%s %s: %+.1f%%", m->bench, m->metric, c->pct);
    if (c->has_interval)
        sb_addf(sb, " (%+.1f .. %+.1f)", c->low, c->high);
    sb_addf(sb, " at %s %s, was %s; %zu %s%s against %zu: ", value, unit, basis, c->n_now,
            c->per_run ? "run" : "sample", plural(c->n_now), c->n_before);
    if (m->loaded)
        sb_addf(sb, "slower, but other processes took %.0f%% of the worker's core meanwhile: "
                "could not tell", m->load_pct);
    else if (m->outcome == OUTCOME_INCONCLUSIVE && !c->has_interval && c->n_before < 4)
        sb_addf(sb, "too few samples to tell (the baseline has %zu; 'evmbench run "
                "--save-baseline' takes the runs a check needs)", c->n_before);
    else if (m->outcome == OUTCOME_INCONCLUSIVE && !c->has_interval)
        sb_add(sb, "too few samples to tell");
    else if (m->outcome == OUTCOME_INCONCLUSIVE)
        sb_addf(sb, "could not tell at %g%%", pct);
    else if (m->small)
        sb_addf(sb, "a small, real change, within %g%%", pct);
    else
        sb_add(sb, outcome_name(m->outcome));
    if (m->outcome == OUTCOME_INCONCLUSIVE && m->to_tell)
        sb_addf(sb, "; about %zu %s a side would tell", m->to_tell,
                c->per_run ? "runs" : "samples");
    if (m->outcome == OUTCOME_INCONCLUSIVE && m->to_tell && m->to_tell_s > 0)
        sb_addf(sb, " (about %.0f s more)", m->to_tell_s);
}

void check_move_text(const struct check_move *m, struct strbuf *sb)
{
    char value[24], basis[24];
    snprintf(value, sizeof value, "%.6g", m->value);
    snprintf(basis, sizeof basis, "%.6g", m->basis);
    const char *unit = unit_display(m->unit);
    if (m->outcome != OUTCOME_NONE) {
        change_text(m, value, basis, unit, m->tol, sb);
        if (m->explained_by && !m->loaded)
            sb_addf(sb, "; %s", m->explained_by);
        return;
    }
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
