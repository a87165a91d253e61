/* screen_system.c - this system, as `evmbench sysinfo` prints it: the
 * facts of one reading (sysfacts.h) under --sysroot, a line each, and
 * the settings file's problems above them. The board, the system record
 * (the DDR rate and clock, each core's clocks, each with its source), the
 * DDR peak, the guide's evaluation module, how sure the match is, what
 * could spoil a measurement and what root alone could add.
 *
 * The facts are read when the screen opens (the cores are measured for
 * 0.1 s each, on the real root only); 'r' reads them again. Its warnings
 * are kept for the full-text screen ('w'), also after it closes. */
#include "config.h"
#define EVMBENCH_UI_PRIVATE 1
#include "screens/ui.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board/sysstate.h"
#include "common/util.h"
#include "sysfacts.h"

struct system_view {
    char **lines;           /* the text, built once per reading */
    enum role *roles;
    size_t n;
    struct list scroll;     /* a text */
};

static const struct hint hints[] = {
    { ACT_RUN, "read again" },
    { ACT_DETAILS, "warnings in full" },
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

/* The role of a line of the facts that starts with a label (a wrapped
 * line, starting with a space, keeps the role of the line above). */
static enum role fact_role(const char *line, const struct sysfacts *f)
{
    if (str_starts_with(line, "Warning:") || str_starts_with(line, "Contradicts"))
        return ROLE_WARN;
    if (str_starts_with(line, "Match"))
        return f->match.contradicts ? ROLE_WARN : ROLE_NORMAL;
    if (str_starts_with(line, "Warnings:"))
        return ROLE_IN_RANGE;
    if (str_starts_with(line, "Guide "))
        return ROLE_REFERENCE;
    return ROLE_NORMAL;
}

/* The facts as sysinfo prints them, a line each. */
static void add_facts(struct system_view *v, const struct sysfacts *f)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    if (!out)
        return;
    sysfacts_print_text(f, out);
    fclose(out);
    enum role r = ROLE_NORMAL;
    for (char *save = NULL, *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        if (*l != ' ')
            r = fact_role(l, f);
        add(v, r, " %s", l);
    }
    free(text);
}

/* What 'w' shows of this screen: the settings file's problems and the
 * warnings of the facts, each whole, a line each. */
static void keep_warnings(struct ui *ui, const struct sysfacts *f)
{
    struct strbuf sb;
    sb_init(&sb);
    const struct diag *d = ui_settings_problems(ui);
    for (size_t i = 0; d && i < d->n; i++)
        sb_addf(&sb, "%s\n", d->msgs[i]);
    for (size_t i = 0; i < f->nwarnings; i++)
        sb_addf(&sb, "warning: %s\n", f->warnings[i]);
    ui_set_system_warnings(ui, sb.buf ? sb.buf : "");
    sb_free(&sb);
}

static void read_facts(struct screen *s)
{
    struct system_view *v = s->priv;
    struct sysfacts f;
    sysfacts_read(&f, ui_app(s->ui), SYSSTATE_MEASURE_S);
    clear_lines(v);
    add_settings_problems(v, s->ui);
    add_facts(v, &f);
    keep_warnings(s->ui, &f);
    sysfacts_free(&f);
    ui_dirty(s->ui);
}

static void system_enter(struct screen *s, const struct screen_arg *arg)
{
    struct system_view *v = xcalloc(1, sizeof *v);
    (void)arg;
    v->scroll = (struct list){ .text = true };
    s->priv = v;
    read_facts(s);
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
        read_facts(s);
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
