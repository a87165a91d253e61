/* screen_system.c - this board: what was detected and how, the guide's
 * evaluation module beside it, each core's measured clock beside what
 * cpufreq says, and what could spoil a CPU measurement (governor, load,
 * throttling, a clock that is not what cpufreq claims).
 *
 * The clocks are measured once when the screen opens (about 0.1 s per
 * core); 'r' measures again. */
#include "config.h"
#define EVMBENCH_UI_PRIVATE 1
#include "screens/ui.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/cpucheck.h"
#include "kernel/cpuclock.h"
#include "common/util.h"

#define MAX_CORES 64
#define MEASURE_S 0.1

struct system_view {
    char **lines;           /* the text, built once per measurement */
    enum role *roles;
    size_t n;
    struct list scroll;     /* a text */
};

static const struct hint hints[] = {
    { ACT_RUN, "measure again" },
    { ACT_BACK, "back" },
    { ACT_HELP, "help" },
    { ACT_NONE, NULL },
};

static void add(struct system_view *v, enum role r, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void add(struct system_view *v, enum role r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = xvasprintf(fmt, ap);
    va_end(ap);
    v->lines = xrealloc(v->lines, (v->n + 1) * sizeof *v->lines);
    v->roles = xrealloc(v->roles, (v->n + 1) * sizeof *v->roles);
    v->lines[v->n] = s;
    v->roles[v->n++] = r;
}

static void clear_lines(struct system_view *v)
{
    for (size_t i = 0; i < v->n; i++)
        free(v->lines[i]);
    free(v->lines);
    free(v->roles);
    v->lines = NULL;
    v->roles = NULL;
    v->n = 0;
}

/* The board as `evmbench sysinfo` prints it, a line each; a board picked
 * with 'b' is the one shown (it replaces a --board or an undetected
 * board; beside a detected one it is the reference) and `Decided` says
 * so. */
static void add_board(struct system_view *v, const struct app *a)
{
    struct board_info b = a->board;     /* shallow: only printed */
    char *how = NULL;
    const char *key = a->ref_board;
    if (a->ref_picked && key) {
        const struct ref_board *rb = refdb_board(a->refdb, key);
        const char *name = board_key_name(key);
        if (b.kind == BOARD_KNOWN) {
            how = xasprintf("%s; the reference was picked with b: %s", b.how ? b.how : "detected",
                            key);
        } else {
            how = xasprintf("picked with b (before: %s)", b.how ? b.how : "detected: nothing");
            b.kind = BOARD_OVERRIDE;
            b.key = (char *)key;
            b.name = (char *)(name ? name : rb && rb->name ? rb->name : key);
        }
        b.how = how;
    }
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f) {
        free(how);
        return;
    }
    board_print_text(&b, f);
    fclose(f);
    free(how);
    for (char *save = NULL, *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
        add(v, ROLE_NORMAL, " %s", l);
    free(text);
}

static void add_evm(struct system_view *v, const struct app *a)
{
    const struct ref_board *e = refdb_board(a->refdb, a->ref_board);
    if (!e) {
        add(v, ROLE_DIM, " Guide EVM:    none (no guide describes this board)");
        return;
    }
    add(v, ROLE_REFERENCE, " Guide EVM:    %s, %s", e->name ? e->name : e->key, e->source->title);
    if (e->cpu_mhz > 0 || e->ddr_mts > 0)
        add(v, ROLE_REFERENCE, " Guide clocks: CPU %.0f MHz, %s%sDDR %.0f MT/s", e->cpu_mhz,
            e->ddr_type ? e->ddr_type : "", e->ddr_type ? " " : "", e->ddr_mts);
}

/* How sure the detection is: what confirms the guide's board and what
 * contradicts it (soc0, CPU part, cores, the clock against the guide's). */
static void add_match(struct system_view *v, const struct app *a)
{
    struct board_match m;
    const char *from = NULL;
    double mhz = a->ref_board ? board_clock(&a->board, a->sysroot, MEASURE_S, &from) : 0;
    app_board_match(a, mhz, from, &m);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (f) {
        board_match_print_text(&m, f);
        fclose(f);
        enum role r = ROLE_NORMAL;
        for (char *save = NULL, *l = strtok_r(text, "\n", &save); l;
             l = strtok_r(NULL, "\n", &save)) {
            if (*l != ' ')      /* a wrapped line keeps its check's role */
                r = str_starts_with(l, "Contradicts") ? ROLE_WARN
                  : str_starts_with(l, "Match") && m.contradicts ? ROLE_WARN : ROLE_NORMAL;
            add(v, r, " %s", l);
        }
    }
    free(text);
    board_match_free(&m);
}

static void add_clocks(struct system_view *v, const struct app *a)
{
    struct cpuclock_core cores[MAX_CORES];
    size_t n = cpuclock_survey(NULL, MEASURE_S, cores, MAX_CORES);
    add(v, ROLE_NORMAL, "%s", "");
    add(v, ROLE_HEADER, " %-5s %12s %12s %12s", "core", "measured MHz", "cpufreq MHz",
        "max MHz");
    for (size_t i = 0; i < n; i++) {
        char meas[16] = "-", freq[16] = "-", max[16] = "-";
        if (cores[i].measured_mhz > 0)
            snprintf(meas, sizeof meas, "%.0f", cores[i].measured_mhz);
        if (cores[i].cpufreq_mhz > 0)
            snprintf(freq, sizeof freq, "%.0f", cores[i].cpufreq_mhz);
        if (cores[i].max_mhz > 0)
            snprintf(max, sizeof max, "%.0f", cores[i].max_mhz);
        add(v, cores[i].mismatch ? ROLE_WARN : ROLE_NORMAL, " cpu%-2d %12s %12s %12s%s",
            cores[i].cpu, meas, freq, max, cores[i].mismatch ? "  mismatch" : "");
    }
    (void)a;

    struct cpucheck_snapshot snap;
    struct cpucheck_list warn = { 0 };
    cpucheck_snapshot(&snap, NULL);
    cpucheck_before(&snap, &warn);
    cpucheck_clocks(cores, n, &warn);
    cpucheck_snapshot_free(&snap);
    add(v, ROLE_NORMAL, "%s", "");
    if (!warn.count)
        add(v, ROLE_IN_RANGE, " No warnings: governor, load and clocks look right for "
                              "CPU benchmarks.");
    for (size_t i = 0; i < warn.count; i++)
        add(v, ROLE_WARN, " warning: %s", warn.items[i].text);
    if (!a->ref_board)
        add(v, ROLE_WARN, " warning: board not known to the guides: no reference "
                          "(start with --board KEY)");
    cpucheck_list_free(&warn);
}

/* text in lines of at most width columns, broken at spaces where it can
 * be, the later ones indented. */
static void add_wrapped(struct system_view *v, enum role r, const char *text, int width)
{
    size_t w = width > 20 ? (size_t)width : 20;
    const char *indent = "";
    while (*text) {
        size_t room = w - 1 - strlen(indent), len = strlen(text);
        if (len <= room) {
            add(v, r, " %s%s", indent, text);
            return;
        }
        size_t cut = room;
        while (cut > room / 2 && text[cut] != ' ')
            cut--;
        if (text[cut] != ' ')
            cut = room;
        add(v, r, " %s%.*s", indent, (int)cut, text);
        text += cut;
        while (*text == ' ')
            text++;
        indent = "    ";
    }
}

/* The settings file's problems, each in full. */
static void add_settings_problems(struct system_view *v, const struct ui *ui)
{
    const struct diag *d = ui_settings_problems(ui);
    if (!d)
        return;
    add(v, ROLE_HEADER, " Settings file problems (%zu); those lines are ignored:", d->n);
    for (size_t i = 0; i < d->n; i++)
        add_wrapped(v, ROLE_ERROR, d->msgs[i], COLS - 1);
    add(v, ROLE_NORMAL, "%s", "");
}

static void measure(struct screen *s)
{
    struct system_view *v = s->priv;
    const struct app *a = ui_app(s->ui);
    clear_lines(v);
    add_settings_problems(v, s->ui);
    add_board(v, a);
    add_evm(v, a);
    add_match(v, a);
    add_clocks(v, a);
    ui_dirty(s->ui);
}

static void system_enter(struct screen *s, const struct screen_arg *arg)
{
    struct system_view *v = xcalloc(1, sizeof *v);
    (void)arg;
    v->scroll = (struct list){ .text = true };
    s->priv = v;
    measure(s);
}

static void system_leave(struct screen *s)
{
    clear_lines(s->priv);
    free(s->priv);
}

static void system_draw(struct screen *s, WINDOW *w, bool full)
{
    struct system_view *v = s->priv;
    bool utf8 = ui_utf8(s->ui);
    size_t top = v->scroll.pos.top, vis = list_visible(&v->scroll, v->n, ui_body_rows(s->ui));
    (void)full;
    for (size_t i = top; i < v->n && i < top + vis; i++)
        widget_text(w, (int)(i - top), 0, getmaxx(w), v->roles[i], v->lines[i], utf8);
}

static enum action system_action(struct screen *s, enum action a)
{
    struct system_view *v = s->priv;
    if (a == ACT_RUN) {
        measure(s);
        return ACT_NONE;
    }
    if (a == ACT_SYSTEM)
        return ACT_NONE;
    if (list_key(&v->scroll, v->n, ui_body_rows(s->ui), a)) {
        ui_dirty(s->ui);
        return ACT_NONE;
    }
    return a;
}

const struct screen_ops screen_system = {
    .name = "system",
    .keys = NULL,
    .hints = hints,
    .enter = system_enter,
    .leave = system_leave,
    .draw = system_draw,
    .on_action = system_action,
};
