/* theme.c - theme files, built-in themes and their curses attributes. */
#include "config.h"
#define EVMBENCH_UI_PRIVATE 1
#include "screens/theme.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/lines.h"
#include "common/util.h"

static const char *const role_names[] = {
#define ROLE(id, name) name,
    THEME_ROLES
#undef ROLE
};

#define D THEME_DEFAULT_COLOR
/* Colour numbers as curses has them (COLOR_BLACK == 0 ...). */
enum { BLACK, RED, GREEN, YELLOW, BLUE, MAGENTA, CYAN, WHITE };

/* Keep in step with themes/default.theme (a test checks it). */
static const struct theme_style builtin_default[ROLE_COUNT] = {
    [ROLE_NORMAL]    = { D, D, 0 },
    [ROLE_TITLE]     = { WHITE, BLUE, THEME_BOLD },
    [ROLE_STATUS]    = { D, D, 0 },
    [ROLE_KEY]       = { CYAN, D, THEME_BOLD },
    [ROLE_ERROR]     = { RED, D, THEME_BOLD },
    [ROLE_HEADER]    = { D, D, THEME_BOLD | THEME_UNDERLINE },
    [ROLE_SELECTION] = { BLACK, CYAN, 0 },
    [ROLE_VALUE]     = { D, D, THEME_BOLD },
    [ROLE_REFERENCE] = { CYAN, D, 0 },
    [ROLE_DIM]       = { D, D, THEME_DIM },
    [ROLE_BETTER]    = { GREEN, D, THEME_BOLD },
    [ROLE_WORSE]     = { RED, D, THEME_BOLD },
    [ROLE_IN_RANGE]  = { GREEN, D, 0 },
    [ROLE_WARN]      = { YELLOW, D, THEME_BOLD },
    [ROLE_OFF]       = { RED, D, THEME_BOLD },
    [ROLE_AHEAD]     = { GREEN, D, THEME_BOLD },
    [ROLE_PROGRESS]  = { GREEN, D, THEME_BOLD },
    [ROLE_BORDER]    = { BLUE, D, 0 },
    [ROLE_NOTE]      = { YELLOW, D, 0 },
};

/* Keep in step with themes/mono.theme. */
static const struct theme_style builtin_mono[ROLE_COUNT] = {
    [ROLE_NORMAL]    = { D, D, 0 },
    [ROLE_TITLE]     = { D, D, THEME_REVERSE },
    [ROLE_STATUS]    = { D, D, 0 },
    [ROLE_KEY]       = { D, D, THEME_BOLD },
    [ROLE_ERROR]     = { D, D, THEME_BOLD },
    [ROLE_HEADER]    = { D, D, THEME_UNDERLINE },
    [ROLE_SELECTION] = { D, D, THEME_REVERSE },
    [ROLE_VALUE]     = { D, D, THEME_BOLD },
    [ROLE_REFERENCE] = { D, D, 0 },
    [ROLE_DIM]       = { D, D, THEME_DIM },
    [ROLE_BETTER]    = { D, D, THEME_BOLD },
    [ROLE_WORSE]     = { D, D, THEME_UNDERLINE },
    [ROLE_IN_RANGE]  = { D, D, 0 },
    [ROLE_WARN]      = { D, D, THEME_BOLD },
    [ROLE_OFF]       = { D, D, THEME_REVERSE },
    [ROLE_AHEAD]     = { D, D, THEME_BOLD },
    [ROLE_PROGRESS]  = { D, D, THEME_REVERSE },
    [ROLE_BORDER]    = { D, D, 0 },
    [ROLE_NOTE]      = { D, D, THEME_BOLD },
};
#undef D

static const char *const color_names[] = {
    "black", "red", "green", "yellow", "blue", "magenta", "cyan", "white",
};

static const struct {
    const char *name;
    unsigned bit;
} attr_names[] = {
    { "bold", THEME_BOLD },           { "dim", THEME_DIM },
    { "underline", THEME_UNDERLINE }, { "reverse", THEME_REVERSE },
    { "blink", THEME_BLINK },         { "standout", THEME_STANDOUT },
    { "normal", 0 },
};

enum role theme_verdict_role(enum verdict v, bool better)
{
    (void)better;       /* the verdict says it: warn and off are never better */
    switch (v) {
    case VERDICT_IN_RANGE: return ROLE_IN_RANGE;
    case VERDICT_WARN: return ROLE_WARN;
    case VERDICT_OFF: return ROLE_OFF;
    case VERDICT_BETTER: return ROLE_AHEAD;
    case VERDICT_NONE:
    case VERDICT_COUNT: break;
    }
    return ROLE_NORMAL;
}

const char *theme_role_name(enum role r)
{
    return (unsigned)r < ROLE_COUNT ? role_names[r] : "?";
}

enum role theme_role_from_name(const char *name)
{
    for (int r = 0; r < ROLE_COUNT; r++)
        if (strcasecmp(name, role_names[r]) == 0)
            return (enum role)r;
    return ROLE_COUNT;
}

void theme_builtin(struct theme *t, bool mono)
{
    memcpy(t->style, mono ? builtin_mono : builtin_default, sizeof t->style);
}

static bool parse_color(const char *s, short *out)
{
    if (strcasecmp(s, "default") == 0) {
        *out = THEME_DEFAULT_COLOR;
        return true;
    }
    for (size_t i = 0; i < ARRAY_SIZE(color_names); i++)
        if (strcasecmp(s, color_names[i]) == 0) {
            *out = (short)i;
            return true;
        }
    char *end;
    errno = 0;
    long n = strtol(s, &end, 10);
    if (*s && !*end && !errno && n >= 0 && n <= 255) {
        *out = (short)n;
        return true;
    }
    return false;
}

/* Splits a line into at most `max` white-space separated words in place;
 * a '#' starts a comment. Returns the word count (max + 1 when more). */
static int split_words(char *line, char **w, int max)
{
    int n = 0;
    char *p = line;
    for (;;) {
        while (isspace((unsigned char)*p))
            p++;
        if (!*p || *p == '#')
            return n;
        if (n == max)
            return max + 1;
        w[n++] = p;
        while (*p && !isspace((unsigned char)*p))
            p++;
        if (*p)
            *p++ = '\0';
    }
}

/* Adds "FILE:LINE: message" to dg; returns false for parse_line. */
static bool bad_line(struct diag *dg, const struct lines *at, const char *file,
                     const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static bool bad_line(struct diag *dg, const struct lines *at, const char *file,
                     const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *msg = xvasprintf(fmt, ap);
    va_end(ap);
    diag_add(dg, "%s:%d: %s", file, at->lineno, msg);
    free(msg);
    return false;
}

/* Parses one non-empty line into t. False, with the reason added to dg as
 * "FILE:LINE: message", when the line is wrong. */
static bool parse_line(struct theme *t, char *line, struct diag *dg, const struct lines *at,
                       const char *file)
{
    enum { MAXW = 12 };
    char *w[MAXW];
    int n = split_words(line, w, MAXW);
    if (n == 0)
        return true;
    if (n > MAXW)
        return bad_line(dg, at, file, "too many words");
    if (strcasecmp(w[0], "color") != 0 && strcasecmp(w[0], "colour") != 0)
        return bad_line(dg, at, file, "unknown command '%s' (expected 'color')", w[0]);
    if (n < 4)
        return bad_line(dg, at, file, "expected: color <role> <fg> <bg> [attributes...]");
    enum role r = theme_role_from_name(w[1]);
    if (r == ROLE_COUNT)
        return bad_line(dg, at, file, "unknown role '%s'", w[1]);
    struct theme_style st = { 0, 0, 0 };
    if (!parse_color(w[2], &st.fg))
        return bad_line(dg, at, file, "unknown colour '%s'", w[2]);
    if (!parse_color(w[3], &st.bg))
        return bad_line(dg, at, file, "unknown colour '%s'", w[3]);
    for (int i = 4; i < n; i++) {
        size_t k;
        for (k = 0; k < ARRAY_SIZE(attr_names); k++)
            if (strcasecmp(w[i], attr_names[k].name) == 0)
                break;
        if (k == ARRAY_SIZE(attr_names))
            return bad_line(dg, at, file, "unknown attribute '%s'", w[i]);
        st.attrs |= attr_names[k].bit;
    }
    t->style[r] = st;
    return true;
}

int theme_parse(struct theme *t, const char *text, const char *file, bool mono,
                struct diag *dg)
{
    int errors = 0;
    theme_builtin(t, mono);
    struct lines it;
    lines_init(&it, text, LINES_HASH_FIRST);
    for (char *line; (line = lines_next(&it));)
        errors += !parse_line(t, line, dg, &it, file);
    if (errors)
        theme_builtin(t, mono);
    return errors;
}

int theme_load(struct theme *t, const char *path, bool mono, struct diag *dg)
{
    char *text = read_file(path, 1 << 20, NULL);
    if (!text) {
        diag_add(dg, "%s: cannot read: %s", path, file_strerror(errno));
        theme_builtin(t, mono);
        return 1;
    }
    int errors = theme_parse(t, text, path, mono, dg);
    free(text);
    return errors;
}

static void color_text(short c, char *buf, size_t size)
{
    if (c == THEME_DEFAULT_COLOR)
        snprintf(buf, size, "default");
    else if (c >= 0 && (size_t)c < ARRAY_SIZE(color_names))
        snprintf(buf, size, "%s", color_names[c]);
    else
        snprintf(buf, size, "%d", c);
}

void theme_format_line(const struct theme *t, enum role r, char *buf, unsigned size)
{
    char fg[16], bg[16];
    if ((unsigned)r >= ROLE_COUNT || !size) {
        if (size)
            buf[0] = '\0';
        return;
    }
    const struct theme_style *st = &t->style[r];
    color_text(st->fg, fg, sizeof fg);
    color_text(st->bg, bg, sizeof bg);
    int n = snprintf(buf, size, "color %s %s %s", role_names[r], fg, bg);
    for (size_t k = 0; k < ARRAY_SIZE(attr_names); k++)
        if (attr_names[k].bit && (st->attrs & attr_names[k].bit) &&
            n >= 0 && (unsigned)n < size)
            n += snprintf(buf + n, size - (unsigned)n, " %s", attr_names[k].name);
}

/* --- curses ------------------------------------------------------------ */

static attr_t current[ROLE_COUNT];

static attr_t to_curses(unsigned bits)
{
    attr_t a = A_NORMAL;
    if (bits & THEME_BOLD)
        a |= A_BOLD;
    if (bits & THEME_DIM)
        a |= A_DIM;
    if (bits & THEME_UNDERLINE)
        a |= A_UNDERLINE;
    if (bits & THEME_REVERSE)
        a |= A_REVERSE;
    if (bits & THEME_BLINK)
        a |= A_BLINK;
    if (bits & THEME_STANDOUT)
        a |= A_STANDOUT;
    return a;
}

void theme_apply(const struct theme *t, bool color)
{
    bool defaults = color && use_default_colors() != ERR;
    for (int r = 0; r < ROLE_COUNT; r++) {
        const struct theme_style *st = &t->style[r];
        /* an attribute the terminal lacks (vt100: dim) would cost an
         * attribute change on the line and show nothing */
        current[r] = to_curses(st->attrs) & (termattrs() | A_COLOR);
        if (!color || r + 1 >= COLOR_PAIRS)
            continue;
        short fg = st->fg, bg = st->bg;
        /* Colours the terminal lacks fall back to the default. */
        if (fg >= COLORS)
            fg = THEME_DEFAULT_COLOR;
        if (bg >= COLORS)
            bg = THEME_DEFAULT_COLOR;
        if (fg == THEME_DEFAULT_COLOR && bg == THEME_DEFAULT_COLOR)
            continue;
        if (!defaults) {
            fg = fg == THEME_DEFAULT_COLOR ? COLOR_WHITE : fg;
            bg = bg == THEME_DEFAULT_COLOR ? COLOR_BLACK : bg;
        }
        if (init_pair((short)(r + 1), fg, bg) != ERR)
            current[r] |= COLOR_PAIR(r + 1);
    }
}

attr_t theme_attr(enum role r)
{
    return (unsigned)r < ROLE_COUNT ? current[r] : A_NORMAL;
}

void theme_set(WINDOW *w, enum role r)
{
    wattrset(w, theme_attr(r));
}
