/* screen_boards.c - the board picker: every board of the reference
 * database, with the guide's CPU clock and DDR; Enter makes it the
 * reference (when detection failed, or to compare with another board). */
#include "config.h"
#define EVMBENCH_UI_PRIVATE 1
#include "screens/ui.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"

#define HEAD_ROWS 3     /* title, blank, column header */
#define NAME_W 26
#define KEY_W 22

struct boards {
    const char **keys;  /* into the refdb */
    size_t n;
    struct list list;
};

static const struct hint hints[] = {
    { ACT_ENTER, "choose" },
    { ACT_SEARCH, "search" },
    { ACT_HELP, "help" },
    { ACT_BACK, "back" },
    { ACT_NONE, NULL },
};

static void boards_enter(struct screen *s, const struct screen_arg *arg)
{
    struct boards *b = xcalloc(1, sizeof *b);
    const struct app *a = ui_app(s->ui);
    (void)arg;
    b->list = (struct list){ .head = HEAD_ROWS };
    b->n = refdb_board_keys(a->refdb, &b->keys);
    for (size_t i = 0; a->ref_board && i < b->n; i++)
        if (strcmp(b->keys[i], a->ref_board) == 0)
            b->list.pos.sel = i;
    s->priv = b;
}

static void boards_leave(struct screen *s)
{
    struct boards *b = s->priv;
    free(b->keys);
    free(b);
}

/* The line of board i (also what search looks at). */
static void board_line(const struct app *a, const char *key, char *buf, size_t size,
                       bool utf8)
{
    const struct ref_board *rb = refdb_board(a->refdb, key);
    char name[64], k[64], cpu[32] = "-", ddr[48] = "-";
    fmt_fit(name, sizeof name, app_board_name(a, key), NAME_W, false, utf8);
    fmt_fit(k, sizeof k, key, KEY_W, false, utf8);
    if (rb && rb->cpu_mhz > 0)
        snprintf(cpu, sizeof cpu, "%.0f MHz", rb->cpu_mhz);
    if (rb && rb->ddr_mts > 0)
        snprintf(ddr, sizeof ddr, "%s %.0f MT/s", rb->ddr_type ? rb->ddr_type : "DDR",
                 rb->ddr_mts);
    snprintf(buf, size, "%s %s %-9s %s", name, k, cpu, ddr);
}

static void boards_draw(struct screen *s, WINDOW *w, bool full)
{
    struct boards *b = s->priv;
    const struct app *a = ui_app(s->ui);
    bool utf8 = ui_utf8(s->ui);
    int width = getmaxx(w);
    char line[256], name[64], key[64];
    size_t vis = list_visible(&b->list, b->n, ui_body_rows(s->ui));
    const struct list_pos *p = &b->list.pos;
    (void)full;

    list_clamp(&b->list, b->n, ui_body_rows(s->ui));
    if (a->ref_board && a->board.kind == BOARD_KNOWN && !a->ref_picked)
        snprintf(line, sizeof line, "Reference board: %s (detected)", a->ref_board);
    else if (a->ref_board)
        snprintf(line, sizeof line, "Reference board: %s, %s (detected: %s)", a->ref_board,
                 app_board_source(a), a->detected ? a->detected : "none");
    else
        snprintf(line, sizeof line, "Reference board: none (detected: %s)",
                 a->detected ? a->detected : "none");
    widget_text(w, 0, 1, width - 2, ROLE_HEADER, line, utf8);
    fmt_fit(name, sizeof name, "board", NAME_W, false, false);
    fmt_fit(key, sizeof key, "guide column", KEY_W, false, false);
    snprintf(line, sizeof line, "  %s %s %-9s %s", name, key, "CPU", "DDR");
    widget_text(w, 2, 0, width, ROLE_HEADER, line, utf8);
    if (!b->n)
        widget_text(w, HEAD_ROWS, 2, width - 2, ROLE_DIM,
                    "No boards: no reference data loaded (see 'evmbench refs').", utf8);
    for (size_t i = p->top; i < b->n && i < p->top + vis; i++) {
        bool sel = i == p->sel;
        bool cur = a->ref_board && strcmp(a->ref_board, b->keys[i]) == 0;
        char text[200];
        board_line(a, b->keys[i], text, sizeof text, utf8);
        snprintf(line, sizeof line, "%c%c%s", sel ? '>' : ' ', cur ? '*' : ' ', text);
        widget_text(w, HEAD_ROWS + (int)(i - p->top), 0, width,
                    sel ? ROLE_SELECTION : cur ? ROLE_REFERENCE : ROLE_NORMAL, line, utf8);
    }
    /* what a "-" stands for, when one is shown */
    bool unknown = false;
    for (size_t i = 0; i < b->n && !unknown; i++) {
        const struct ref_board *rb = refdb_board(a->refdb, b->keys[i]);
        unknown = !rb || !(rb->cpu_mhz > 0) || !(rb->ddr_mts > 0);
    }
    if (unknown && HEAD_ROWS + (int)(b->n < vis ? b->n : vis) < getmaxy(w) - 1)
        widget_text(w, getmaxy(w) - 1, 1, width - 2, ROLE_DIM,
                    "-: no guide gives this EVM's CPU or DDR clock", utf8);
}

/* Search: the board's line as the list shows it. */
static bool board_matches(void *ctx, size_t i, const char *q)
{
    const struct screen *s = ctx;
    const struct boards *b = s->priv;
    char text[200];
    board_line(ui_app(s->ui), b->keys[i], text, sizeof text, false);
    return list_text_matches(text, q);
}

static bool boards_search(struct screen *s, const char *q, int dir)
{
    struct boards *b = s->priv;
    return list_search(&b->list, b->n, ui_body_rows(s->ui), dir, board_matches, s, q);
}

static enum action boards_action(struct screen *s, enum action a)
{
    struct boards *b = s->priv;
    if (list_key(&b->list, b->n, ui_body_rows(s->ui), a)) {
        ui_dirty(s->ui);
        return ACT_NONE;
    }
    if (a == ACT_ENTER && b->n) {
        const char *key = b->keys[b->list.pos.sel];
        ui_set_board(s->ui, key);
        ui_pop(s->ui);
        ui_message(s->ui, ROLE_NOTE, "reference board: %s", key);
        return ACT_NONE;
    }
    if (a == ACT_BOARD)
        return ACT_NONE;
    return a;
}

const struct screen_ops screen_boards = {
    .name = "boards",
    .keys = NULL,
    .hints = hints,
    .enter = boards_enter,
    .leave = boards_leave,
    .draw = boards_draw,
    .on_action = boards_action,
    .search = boards_search,
};
