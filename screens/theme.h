/* theme.h - colours as semantic roles.
 *
 * Drawing code asks for a role (ROLE_BETTER), never a colour. A theme maps
 * each role to a foreground, a background and attributes. Theme files are
 * line oriented:
 *
 *     # comment
 *     color <role> <fg> <bg> [bold|dim|underline|reverse|blink|standout|normal]...
 *
 * Colours: default, black, red, green, yellow, blue, magenta, cyan, white,
 * or a number 0..255. A monochrome terminal (NO_COLOR, fewer than 8
 * colours) ignores fg/bg and keeps only the attributes, so the mono theme
 * says everything with attributes.
 *
 * The parsing half is pure (tests use it without a terminal); the curses
 * half is declared only for screens/ (EVMBENCH_UI_PRIVATE). */
#ifndef EVMBENCH_THEME_H
#define EVMBENCH_THEME_H

#include <stdbool.h>

#include "common/diag.h"
#include "run/deviation.h"

#define THEME_ROLES \
    ROLE(NORMAL,    "normal") \
    ROLE(TITLE,     "title") \
    ROLE(STATUS,    "status") \
    ROLE(KEY,       "key") \
    ROLE(ERROR,     "error") \
    ROLE(HEADER,    "header") \
    ROLE(SELECTION, "selection") \
    ROLE(VALUE,     "value") \
    ROLE(REFERENCE, "reference") \
    ROLE(DIM,       "dim") \
    ROLE(BETTER,    "better") \
    ROLE(WORSE,     "worse") \
    ROLE(IN_RANGE,  "in-range") \
    ROLE(WARN,      "warn") \
    ROLE(OFF,       "off") \
    ROLE(AHEAD,     "ahead") \
    ROLE(PROGRESS,  "progress") \
    ROLE(BORDER,    "border") \
    ROLE(NOTE,      "note")

enum role {
#define ROLE(id, name) ROLE_##id,
    THEME_ROLES
#undef ROLE
    ROLE_COUNT
};

enum {
    THEME_BOLD = 1 << 0,
    THEME_DIM = 1 << 1,
    THEME_UNDERLINE = 1 << 2,
    THEME_REVERSE = 1 << 3,
    THEME_BLINK = 1 << 4,
    THEME_STANDOUT = 1 << 5,
};

#define THEME_DEFAULT_COLOR (-1)

struct theme_style {
    short fg, bg;           /* THEME_DEFAULT_COLOR or 0..255 */
    unsigned attrs;         /* THEME_* bits */
};

struct theme {
    struct theme_style style[ROLE_COUNT];
};

const char *theme_role_name(enum role r);
/* The role named `name`, or ROLE_COUNT when there is none. */
enum role theme_role_from_name(const char *name);

/* The built-in default (colour) or mono theme; what a broken file falls
 * back to. They match themes/default.theme and themes/mono.theme. */
void theme_builtin(struct theme *t, bool mono);

/* Parses theme text over the built-in theme (`mono` picks which). Each
 * bad line adds "file:line: message" to dg; when there is any, t is the
 * built-in theme. Returns the number of bad lines. */
int theme_parse(struct theme *t, const char *text, const char *file, bool mono,
                struct diag *dg);
/* Reads and parses a theme file; an unreadable file is one error
 * ("file: cannot read: reason"). Returns the number of errors. */
int theme_load(struct theme *t, const char *path, bool mono, struct diag *dg);

/* The role a verdict is drawn in: in range, warn, off (always the worse
 * side, run/deviation.h); VERDICT_BETTER, beyond the band on the better
 * side, is good news, never drawn as an alarm: ROLE_AHEAD. ROLE_NORMAL for
 * VERDICT_NONE. `better` no longer changes the role (the verdict says
 * it); it stays for the callers that pass it. */
enum role theme_verdict_role(enum verdict v, bool better);

/* Formats one style as a theme line ("color warn yellow default bold"). */
void theme_format_line(const struct theme *t, enum role r, char *buf, unsigned size);

#ifdef EVMBENCH_UI_PRIVATE
#include <curses.h>

/* Makes t current: colour pairs when `color`, attributes only otherwise.
 * Call after start_color(). */
void theme_apply(const struct theme *t, bool color);
/* The curses attributes of a role under the current theme. */
attr_t theme_attr(enum role r);
/* wattrset(w, theme_attr(r)). */
void theme_set(WINDOW *w, enum role r);
#endif

#endif
