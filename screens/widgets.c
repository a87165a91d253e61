/* widgets.c - drawing formatted text (format.h) on curses windows. */
#include "config.h"
#define EVMBENCH_UI_PRIVATE 1
#include "screens/widgets.h"

#include <string.h>

#include "common/util.h"

/* --- drawing ------------------------------------------------------------ */

void widget_text(WINDOW *w, int y, int x, int width, enum role r, const char *s,
                 bool utf8)
{
    char buf[1024];
    if (width <= 0)
        return;
    if (width > 300)
        width = 300;
    fmt_fit(buf, sizeof buf, s, width, false, utf8);
    theme_set(w, r);
    mvwaddstr(w, y, x, buf);
}

void widget_rule(WINDOW *w, int y, int x, int width, enum role r)
{
    theme_set(w, r);
    mvwhline(w, y, x, ACS_HLINE, width);
}

void widget_hints(WINDOW *w, int y, const struct hint *hints,
                  const struct binding *local)
{
    widget_hints_at(w, y, 0, hints, local);
}

void widget_hints_at(WINDOW *w, int y, int x0, const struct hint *hints,
                     const struct binding *local)
{
    char key[24];
    int maxx = getmaxx(w) - 1;   /* never the bottom-right cell */
    theme_set(w, ROLE_STATUS);
    wmove(w, y, x0);
    wclrtoeol(w);
    int x = x0;
    for (; hints && hints->action != ACT_NONE; hints++) {
        int k = action_first_key(local, hints->action);
        if (!k)
            continue;
        action_key_name(k, key, sizeof key);
        int need = (x > x0 ? 2 : 0) + (int)strlen(key) + 1 + (int)strlen(hints->label);
        if (x + need > maxx)
            break;
        if (x > x0)
            x += 2;
        theme_set(w, ROLE_KEY);
        mvwaddstr(w, y, x, key);
        x += (int)strlen(key);
        theme_set(w, ROLE_STATUS);
        mvwprintw(w, y, x, " %s", hints->label);
        x += 1 + (int)strlen(hints->label);
    }
}

void widget_progress(WINDOW *w, int y, int x, int width, double frac, bool utf8)
{
    char buf[1024];
    if (width > 300)
        width = 300;
    fmt_progress_bar(buf, sizeof buf, frac, width, utf8);
    /* Brackets in the normal role, the bar in the progress role. */
    size_t len = strlen(buf);
    if (len < 2)
        return;
    theme_set(w, ROLE_NORMAL);
    mvwaddstr(w, y, x, "[");
    theme_set(w, ROLE_PROGRESS);
    waddnstr(w, buf + 1, (int)(len - 2));
    theme_set(w, ROLE_NORMAL);
    waddstr(w, "]");
}

static enum role cell_role(const struct metric_cells *c, int i)
{
    switch (i) {
    case MCOL_UNIT:
        return ROLE_DIM;
    case MCOL_NOW: case MCOL_MIN: case MCOL_MAX: case MCOL_AVG:
        return ROLE_VALUE;
    case MCOL_REF: case MCOL_BAND:
        return ROLE_REFERENCE;
    case MCOL_DEV:
        if (!c->directional || !c->cell[MCOL_DEV][0])
            return ROLE_NORMAL;
        return c->better ? ROLE_BETTER : ROLE_WORSE;
    case MCOL_VERDICT:
        return theme_verdict_role(c->verdict, c->directional && c->better);
    default:
        return ROLE_NORMAL;
    }
}

/* Whether a blank in attribute a looks like a blank in the normal role
 * (no underline, reverse, blink; the default background). */
static bool blank_plain(attr_t a)
{
    if (a & (A_UNDERLINE | A_REVERSE | A_STANDOUT | A_BLINK))
        return false;
    short pair = (short)PAIR_NUMBER(a), fg, bg;
    if (!pair)
        return true;
    return pair_content(pair, &fg, &bg) != ERR && bg == -1;
}

/* The next shown column after i (last: none). */
static int next_column(const struct metric_layout *l, int i, int last)
{
    while (++i < last && !l->width[i])
        ;
    return i;
}

/* The cells left to right, each cell's text in its role. The gap after a
 * cell takes the cell's attribute when the next cell has the same one and
 * a blank shows nothing of it: a run of values is one attribute change on
 * the line, not two per cell. */
void widget_metric_row(WINDOW *w, int y, const struct metric_layout *l,
                       const struct metric_cells *c, bool utf8)
{
    int last = c->span[0] ? MCOL_REF : MCOL_COUNT;
    int maxw = getmaxx(w);
    wmove(w, y, 0);
    theme_set(w, ROLE_NORMAL);
    wclrtoeol(w);
    for (int i = 0; i < last; i++) {
        if (!l->width[i])
            continue;
        char cell[320];
        fmt_fit(cell, sizeof cell, c->cell[i], l->width[i], metric_columns[i].right, utf8);
        int x = l->x[i];
        if (x + l->width[i] > maxw)
            return;
        if (i == MCOL_DEV || i == MCOL_VERDICT) {
            /* Highlight only the text, not the padding. */
            char *end = cell + strlen(cell);
            while (end > cell && end[-1] == ' ')
                *--end = '\0';
        }
        attr_t a = theme_attr(cell_role(c, i));
        wattrset(w, a);
        mvwaddstr(w, y, x, cell);
        int next = next_column(l, i, last);
        if (next < last && a != A_NORMAL && blank_plain(a) &&
            theme_attr(cell_role(c, next)) == a)
            while (getcurx(w) < l->x[next] && getcurx(w) < maxw - 1)
                waddch(w, ' ');
    }
    if (c->span[0]) {
        int x = l->x[MCOL_REF];
        widget_text(w, y, x, maxw - x, c->span_error ? ROLE_ERROR : ROLE_DIM,
                    c->span, utf8);
    }
}

void widget_centered(WINDOW *w, const char *const *lines, size_t n, enum role r)
{
    int h = getmaxy(w), wd = getmaxx(w);
    int y0 = (h - (int)n) / 2;
    theme_set(w, r);
    for (size_t i = 0; i < n; i++) {
        int len = (int)strlen(lines[i]);
        int x = len >= wd ? 0 : (wd - len) / 2;
        int y = y0 + (int)i;
        if (y < 0 || y >= h)
            continue;
        mvwaddnstr(w, y, x, lines[i], wd - x - (y == h - 1 ? 1 : 0));
    }
}
