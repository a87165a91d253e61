/* frame.c - drawing a frame: the title line, the top screen's body and
 * the bottom line (the message, the prompt or the search, the keys), then
 * sending it with one doupdate. A frame nobody asked for with a key is
 * paced: of the lines that changed, only those that fit in the line
 * budget of the last second go out (pace.h), the others wait for the next
 * frame, and the budget is counted in this terminal's bytes (its cursor
 * addresses and attribute changes). ui.c's loop decides when a frame is
 * drawn. */
#include "config.h"
#include "screens/ui_impl.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "common/util.h"

/* --- the title line and the bottom line ----------------------------------- */

static const char *board_how(const struct ui *ui)
{
    const struct app *a = ui->app;
    if (a->ref_picked)
        return "(picked)";
    switch (a->board.kind) {
    case BOARD_KNOWN: return "(detected)";
    case BOARD_OVERRIDE: return "(--board)";
    case BOARD_TI_UNKNOWN: return "(unknown TI board)";
    case BOARD_OTHER_DT: return "(not a TI board)";
    case BOARD_NO_DT: return "(no device tree)";
    }
    return "?";
}

static void draw_top(struct ui *ui)
{
    const struct app *a = ui->app;
    WINDOW *w = ui->frame.top;
    char board[128], refs[64], line[512];
    const char *key = a->ref_board;
    if (key)
        snprintf(board, sizeof board, "%s [%s] %s", app_board_name(a, key), key,
                 board_how(ui));
    else
        snprintf(board, sizeof board, "%s %s", a->board.name ? a->board.name : "none",
                 board_how(ui));
    size_t nsrc = a->refdb ? a->refdb->nsources : 0;
    if (a->diag.n)
        snprintf(refs, sizeof refs, "refs: %zu guide%s, %zu problem%s", nsrc,
                 nsrc == 1 ? "" : "s", a->diag.n, a->diag.n == 1 ? "" : "s");
    else
        snprintf(refs, sizeof refs, "refs: %zu guide%s", nsrc, nsrc == 1 ? "" : "s");
    snprintf(line, sizeof line, " evmbench %s | board: %s | %s", PACKAGE_VERSION,
             board, refs);
    werase(w);
    wbkgdset(w, ' ' | theme_attr(ROLE_TITLE));
    widget_text(w, 0, 0, getmaxx(w), ROLE_TITLE, line, ui->term.utf8);
}

/* The screen's hint for `a`, or NULL: its label ("back", "quit"). */
static const char *hint_label(const struct screen *s, enum action a)
{
    for (const struct hint *h = s ? s->ops->hints : NULL; h && h->action != ACT_NONE; h++)
        if (h->action == a)
            return h->label;
    return NULL;
}

/* A message on the bottom line never hides the way on: it takes the left
 * part, and "? help" and the screen's way back stay on the right; a
 * message cut short there says "w full text", which shows it whole (a
 * warning or error is kept in the log the details screen lists).
 * message_keys fills keep (room for 4) with those keys for a message that
 * is (or is not) cut, and returns the columns they take with their gap. */
static int message_keys(const struct screen *s, bool cut, enum role r, struct hint *keep)
{
    const char *back = hint_label(s, ACT_BACK);
    size_t n = 0;
    if (cut && (r == ROLE_WARN || r == ROLE_ERROR))
        keep[n++] = (struct hint){ ACT_DETAILS, "full text" };
    keep[n++] = (struct hint){ ACT_HELP, "help" };
    if (back)
        keep[n++] = (struct hint){ ACT_BACK, back };
    keep[n] = (struct hint){ ACT_NONE, NULL };
    char keys[96];
    fmt_hints(keys, sizeof keys, keep, s ? s->ops->keys : NULL);
    return fmt_columns(keys) + 2;
}

int ui_message_room(const struct ui *ui, enum role r)
{
    struct hint keep[4];
    int width = (ui->frame.bottom ? getmaxx(ui->frame.bottom) : COLS) - 1;
    int room = width - message_keys(ui_top(ui), true, r, keep);
    return room < 8 ? width : room;
}

static void draw_message_and_keys(struct ui *ui, WINDOW *w, const struct screen *s)
{
    const struct ui_line *l = &ui->line;
    int width = getmaxx(w) - 1;
    struct hint keep[4];
    int msg_w = fmt_columns(l->msg);
    int keys_w = message_keys(s, false, l->msg_role, keep);
    if (msg_w > width - keys_w)     /* cut: "w full text" joins the keys */
        msg_w = width - message_keys(s, true, l->msg_role, keep);
    if (msg_w < 8) {                /* a very narrow line: the message alone */
        widget_text(w, 0, 0, width, l->msg_role, l->msg, ui->term.utf8);
        return;
    }
    widget_text(w, 0, 0, msg_w, l->msg_role, l->msg, ui->term.utf8);
    widget_hints_at(w, 0, msg_w + 2, keep, s ? s->ops->keys : NULL);
}

static void draw_bottom(struct ui *ui)
{
    const struct ui_line *l = &ui->line;
    WINDOW *w = ui->frame.bottom;
    struct screen *s = ui_top(ui);
    werase(w);
    if (l->prompting) {
        char line[256];
        if (l->confirm_done)
            snprintf(line, sizeof line, "%s(y/n) _", l->prompt_label);
        else
            snprintf(line, sizeof line, "%s%s_   (Enter saves, Esc cancels)", l->prompt_label,
                     l->prompt_text);
        widget_text(w, 0, 0, getmaxx(w) - 1, ROLE_KEY, line, false);
    } else if (l->searching) {
        char line[128];
        snprintf(line, sizeof line, "/%s_   %s(Enter keeps, Esc cancels)", l->query,
                 l->search_miss ? "not found " : "");
        widget_text(w, 0, 0, getmaxx(w) - 1, ROLE_KEY, line, false);
    } else if (l->msg[0] && !(s && s->ops->own_message))
        draw_message_and_keys(ui, w, s);
    else if (s)
        widget_hints(w, 0, s->ops->hints_now ? s->ops->hints_now(s) : s->ops->hints,
                     s->ops->keys);
}

/* --- the frame ------------------------------------------------------------ */

static void draw_too_small(void)
{
    char l1[64], l2[64];
    snprintf(l1, sizeof l1, "Terminal too small: %dx%d", COLS, LINES);
    snprintf(l2, sizeof l2, "evmbench needs at least %dx%d.", MIN_COLS, MIN_ROWS);
    const char *lines[] = { l1, l2, "Enlarge the window, or press q to quit." };
    werase(stdscr);
    widget_centered(stdscr, lines, ARRAY_SIZE(lines), ROLE_NORMAL);
    wnoutrefresh(stdscr);
}

/* What rewriting line y of w costs: its cells against the terminal's
 * (curscr). Curses keeps the terminal's cursor as curscr's: it is put
 * back where it was. */
static long line_cost(const struct ui *ui, WINDOW *w, int y)
{
    enum { MAXW = 512 };
    chtype now[MAXW + 1], was[MAXW + 1];
    unsigned long a[MAXW], b[MAXW];
    int n = getmaxx(w), by, bx, cy, cx;
    if (n > MAXW)
        n = MAXW;
    getbegyx(w, by, bx);
    mvwinchnstr(w, y, 0, now, n);
    getyx(curscr, cy, cx);
    mvwinchnstr(curscr, by + y, bx, was, n);
    wmove(curscr, cy, cx);
    for (int i = 0; i < n; i++) {
        a[i] = now[i];
        b[i] = was[i];
    }
    return pace_line_cost(a, b, n, A_ATTRIBUTES, &ui->live.costs);
}

/* One line of a frame (fit_frame): untouched when the terminal shows it
 * already; kept when it fits in *room; else untouched to wait, and so is
 * every line after it (*over). True when it waits. */
static bool fit_line(struct ui *ui, WINDOW *w, int y, long *room, long *sent, bool *over)
{
    if (!is_linetouched(w, y))
        return false;
    long cost = line_cost(ui, w, y);
    if (!cost) {
        /* a wide character is not a whole chtype: in UTF-8 curses
         * compares the line itself */
        if (!ui->term.utf8)
            wtouchln(w, y, 1, 0);
        return false;
    }
    if (!*over && cost <= *room) {
        *room -= cost;
        *sent += cost;
        return false;
    }
    *over = true;
    wtouchln(w, y, 1, 0);
    return true;
}

/* Of the frame's windows (top, body, bottom: win[i], drawn[i]),
 * untouches the lines the terminal already shows (the screens draw
 * everything anew: curses then sees them unchanged). When paced, keeps
 * touched only the changed lines that fit in the line budget and records
 * what they cost: the title and the key line first (the keys must match
 * what the body says), then the body's rows from the one that waited last
 * time (so that every row gets its turn); once a line does not fit, it
 * and every later one wait for the next frame (wait[i]). */
static void fit_frame(struct ui *ui, WINDOW *const win[3], const bool drawn[3],
                      bool paced, bool wait[3], double now)
{
    struct ui_live *l = &ui->live;
    long room = paced ? pace_room(&l->pace, now) - l->costs.frame : LONG_MAX, sent = 0;
    bool over = false;
    static const int edges[] = { 0, 2 };
    for (size_t k = 0; k < ARRAY_SIZE(edges); k++) {
        int i = edges[k];
        for (int y = 0; drawn[i] && y < getmaxy(win[i]); y++)
            wait[i] |= fit_line(ui, win[i], y, &room, &sent, &over);
    }
    if (drawn[1]) {
        int rows = getmaxy(win[1]), start = l->resume < rows ? l->resume : 0;
        l->resume = 0;
        for (int k = 0; k < rows; k++) {
            int y = (start + k) % rows;
            bool first = !over;
            if (fit_line(ui, win[1], y, &room, &sent, &over)) {
                wait[1] = true;
                if (first)
                    l->resume = y;
            }
        }
    }
    if (paced && sent)
        pace_record(&l->pace, now, sent + l->costs.frame);
}

/* The length of terminfo capability `name` with parameters p1..p9 (0:
 * the terminal lacks it). */
static int cap_len(const char *name, int p1, int p2, int p3, int p4, int p5, int p6,
                   int p9)
{
    const char *cap = tigetstr(name);
    if (!cap || cap == (const char *)-1)
        return 0;
    const char *s = tiparm(cap, p1, p2, p3, p4, p5, p6, 0, 0, p9);
    return s ? (int)strlen(s) : 0;
}

/* What changing to attribute a costs: the attributes at once (sgr, with
 * the line-drawing set switched), or one by one; and its colours. */
static int attr_len(attr_t a)
{
    int n = cap_len("sgr", !!(a & A_STANDOUT), !!(a & A_UNDERLINE), !!(a & A_REVERSE),
                    !!(a & A_BLINK), !!(a & A_DIM), !!(a & A_BOLD), 1);
    if (!n) {
        n = cap_len("sgr0", 0, 0, 0, 0, 0, 0, 0) + cap_len("smacs", 0, 0, 0, 0, 0, 0, 0);
        static const struct { attr_t bit; const char *cap; } caps[] = {
            { A_STANDOUT, "smso" }, { A_UNDERLINE, "smul" }, { A_REVERSE, "rev" },
            { A_BLINK, "blink" },   { A_DIM, "dim" },        { A_BOLD, "bold" },
        };
        for (size_t i = 0; i < ARRAY_SIZE(caps); i++)
            if (a & caps[i].bit)
                n += cap_len(caps[i].cap, 0, 0, 0, 0, 0, 0, 0);
    }
    if (a & A_COLOR)
        n += cap_len("setaf", 7, 0, 0, 0, 0, 0, 0) + cap_len("setab", 7, 0, 0, 0, 0, 0, 0);
    return n;
}

/* The line budget's costs on this terminal under the current theme: the
 * longest cursor address, and the dearest change to any role's attribute
 * or back to normal. */
static void line_costs(struct ui *ui)
{
    int attr = cap_len("sgr0", 0, 0, 0, 0, 0, 0, 0) + cap_len("op", 0, 0, 0, 0, 0, 0, 0) + 1;
    for (int r = 0; r < ROLE_COUNT; r++) {
        int n = attr_len(theme_attr((enum role)r));
        if (n > attr)
            attr = n;
    }
    int move = cap_len("cup", LINES - 1, COLS - 1, 0, 0, 0, 0, 0);
    ui->live.costs = (struct pace_costs){
        .move = move ? move : 10, .attr = attr, .frame = 4,
    };
}

void frame_draw(struct ui *ui, double now)
{
    struct ui_frame *f = &ui->frame;
    /* stdscr lies beneath the windows; after a resize it is blank and
     * touched, and input is read through it: copy it first, then every
     * window over it. */
    if (is_wintouched(stdscr) && !f->too_small) {
        wnoutrefresh(stdscr);
        f->clear = true;
    }
    bool paced = !f->urgent && !f->clear;
    if (f->clear) {
        line_costs(ui);             /* a new size or theme */
        clearok(curscr, TRUE);
        f->full = true;
    }
    if (f->full)
        f->dirty_top = f->dirty_body = f->dirty_bottom = true;
    bool wait[3] = { false, false, false };
    if (f->too_small) {
        if (f->full || f->dirty_body || f->dirty_top || f->dirty_bottom)
            draw_too_small();
    } else {
        struct screen *s = ui_top(ui);
        bool body = f->dirty_body && s;
        if (f->dirty_top)
            draw_top(ui);
        if (body) {
            werase(f->body);
            s->ops->draw(s, f->body, f->full);
        }
        if (f->dirty_bottom)
            draw_bottom(ui);
        if (!f->clear) {
            WINDOW *const win[3] = { f->top, f->body, f->bottom };
            const bool drawn[3] = { f->dirty_top, body, f->dirty_bottom };
            fit_frame(ui, win, drawn, paced, wait, now);
        }
        if (f->dirty_top)
            wnoutrefresh(f->top);
        if (body)
            wnoutrefresh(f->body);
        if (f->dirty_bottom)
            wnoutrefresh(f->bottom);
    }
    doupdate();
    ui->live.last = now_seconds();
    f->clear = f->full = f->urgent = false;
    f->dirty_top = wait[0];
    f->dirty_body = wait[1];
    f->dirty_bottom = wait[2];
}
