/* screen_help.c - the keys, generated from the action table and the
 * bindings (those of the screen below first), and how to read a result. */
#include "config.h"
#define EVMBENCH_UI_PRIVATE 1
#include "screens/ui.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"

#define KEYS_W 24

struct help {
    const struct binding *keys;     /* of the screen below */
    enum action shown[ACT_COUNT];   /* the actions bound there, in order */
    size_t nshown;
    struct list scroll;     /* a text; its last row says "more" when needed */
    size_t nrows;           /* the text's rows at the width last drawn */
};

static const struct hint hints[] = {
    { ACT_BACK, "back" },
    { ACT_NONE, NULL },
};

/* How to read the live screen: shown after the keys. */
static const char *const legend[] = {
    "",
    "Reading a result",
    "  ref, min-max  the guide's average and band for the chosen board",
    "  deviation     (value - ref) / ref; better or worse by the unit's direction",
    "  in            inside the guide's min-max band",
    "  warn          outside the band, within the tolerance",
    "  off           beyond the tolerance",
    "  no reference  the guide has no number for this board and metric",
};

static size_t line_count(const struct help *h)
{
    return 1 + h->nshown + ARRAY_SIZE(legend);
}

/* Row r of the text at `width` columns: each line as help_line makes it,
 * a description too long for the width wrapped between words onto rows
 * of its own under the description column (nothing is cut). Returns the
 * number of rows; with buf, row r goes there and *role gets its role. */
static size_t help_rows(const struct help *h, int width, size_t r, char *buf, size_t size,
                        enum role *role);
static void help_enter(struct screen *s, const struct screen_arg *arg)
{
    struct help *h = xcalloc(1, sizeof *h);
    const struct screen *below = ui_below(s->ui, s);
    (void)arg;
    h->keys = below ? below->ops->keys : NULL;
    h->scroll = (struct list){ .marker = true, .text = true };
    /* actions no key reaches on that screen (another screen's own keys)
     * are left out */
    for (int a = ACT_NONE + 1; a < ACT_COUNT; a++)
        if (action_first_key(h->keys, (enum action)a))
            h->shown[h->nshown++] = (enum action)a;
    s->priv = h;
}

static void help_leave(struct screen *s)
{
    free(s->priv);
}

/* Line i of the help text into buf; returns its role. */
static enum role help_line(const struct help *h, size_t i, char *buf, size_t size)
{
    char keys[96], cell[64];
    if (i == 0) {
        fmt_fit(cell, sizeof cell, "Keys", KEYS_W, false, false);
        snprintf(buf, size, " %s What it does", cell);
        return ROLE_HEADER;
    }
    if (i <= h->nshown) {
        enum action a = h->shown[i - 1];
        action_keys_text(h->keys, a, keys, sizeof keys);
        fmt_fit(cell, sizeof cell, keys, KEYS_W, false, false);
        snprintf(buf, size, " %s %s", cell, action_description(a));
        return ROLE_NORMAL;
    }
    i -= h->nshown + 1;
    snprintf(buf, size, " %s", legend[i]);
    return i == 1 ? ROLE_HEADER : ROLE_NORMAL;
}

static size_t help_rows(const struct help *h, int width, size_t r, char *buf, size_t size,
                        enum role *role)
{
    size_t rows = 0;
    int indent = 1 + KEYS_W + 1;
    for (size_t i = 0; i < line_count(h); i++) {
        char line[256];
        enum role ro = help_line(h, i, line, sizeof line);
        const char *p = line;
        bool first = true;
        do {
            /* what fits on this row: up to the last blank before the edge */
            int room = first ? width : width - indent;
            size_t len = strlen(p), take = len;
            if ((int)len > room && room > 8) {
                take = (size_t)room;
                while (take > 0 && p[take] != ' ')
                    take--;
                if (take == 0 || (first && (int)take <= indent))
                    take = (size_t)room;
            }
            if (buf && rows == r) {
                snprintf(buf, size, "%*s%.*s", first ? 0 : indent, "", (int)take, p);
                *role = ro;
            }
            rows++;
            p += take;
            while (*p == ' ')
                p++;
            first = false;
        } while (*p);
    }
    return rows;
}

static void help_draw(struct screen *s, WINDOW *w, bool full)
{
    struct help *h = s->priv;
    bool utf8 = ui_utf8(s->ui);
    int width = getmaxx(w) - 1;
    size_t n = help_rows(h, width, 0, NULL, 0, NULL);
    h->nrows = n;
    size_t vis = list_visible(&h->scroll, n, ui_body_rows(s->ui));
    list_clamp(&h->scroll, n, ui_body_rows(s->ui));
    size_t top = h->scroll.pos.top;
    char line[256];
    (void)full;
    for (size_t i = top; i < n && i < top + vis; i++) {
        enum role r = ROLE_NORMAL;
        help_rows(h, width, i, line, sizeof line, &r);
        widget_text(w, (int)(i - top), 0, getmaxx(w), r, line, utf8);
    }
    /* where the rest is, in ASCII: the last row when the text does not fit */
    size_t below = top + vis < n ? n - top - vis : 0;
    if (top && below)
        snprintf(line, sizeof line, " ^ %zu more above, v %zu more below", top, below);
    else if (below)
        snprintf(line, sizeof line, " v %zu more below (Down, PgDn, G)", below);
    else if (top)
        snprintf(line, sizeof line, " ^ %zu more above (Up, PgUp, g)", top);
    if (top || below)
        widget_text(w, (int)vis, 0, getmaxx(w), ROLE_DIM, line, utf8);
}

static enum action help_action(struct screen *s, enum action a)
{
    struct help *h = s->priv;
    size_t n = h->nrows ? h->nrows : line_count(h);     /* as last drawn */
    if (list_key(&h->scroll, n, ui_body_rows(s->ui), a)) {
        ui_dirty(s->ui);
        return ACT_NONE;
    }
    if (a == ACT_HELP || a == ACT_ENTER)
        return ACT_BACK;    /* '?' again closes the help */
    return a;
}

const struct screen_ops screen_help = {
    .name = "help",
    .keys = NULL,
    .hints = hints,
    .enter = help_enter,
    .leave = help_leave,
    .draw = help_draw,
    .on_action = help_action,
};
