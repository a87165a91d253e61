/* caveat.c - the one line above every deviation from the guide when this
 * board is not the board the guide measured (ui_board_caveat). */
#include "config.h"
#include "screens/ui_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "screens/format.h"

#define CAVEAT_CLOCK_S 0.1      /* the clock measured for the board check */

/* Holds the board against the reference board, once per reference board. */
static void caveat_decide(struct ui *ui)
{
    const struct app *a = ui->app;
    struct ui_caveat *c = &ui->caveat;
    bool same = c->key && a->ref_board ? strcmp(c->key, a->ref_board) == 0
                                       : c->key == a->ref_board;
    if (c->decided && same)
        return;
    free(c->key);
    free(c->name);
    free(c->full);
    *c = (struct ui_caveat){ .decided = true };
    if (!a->ref_board)
        return;
    c->key = xstrdup(a->ref_board);
    const char *from = NULL;
    double mhz = board_clock(&a->board, a->sysroot, CAVEAT_CLOCK_S, &from);
    struct board_match m;
    app_board_match(a, mhz, from, &m);
    c->full = board_match_warning(&m, "the deviations may not be the board's");
    if (c->full)
        c->name = xstrdup(m.name ? m.name : m.key);
    board_match_free(&m);
}

const char *ui_board_caveat(struct ui *ui, int width)
{
    caveat_decide(ui);
    struct ui_caveat *c = &ui->caveat;
    if (!c->full)
        return NULL;
    /* the long form names the guide's board; the short one fits 40 columns */
    snprintf(c->line, sizeof c->line, "caveat: not the guide's %s, deviations may not be "
             "this board's (s)", c->name);
    if (fmt_columns(c->line) > width)
        snprintf(c->line, sizeof c->line, "caveat: not the guide's board (s)");
    return c->line;
}

const char *ui_board_caveat_full(struct ui *ui)
{
    caveat_decide(ui);
    return ui->caveat.full;
}

void ui_caveat_free(struct ui *ui)
{
    free(ui->caveat.key);
    free(ui->caveat.name);
    free(ui->caveat.full);
    ui->caveat = (struct ui_caveat){ 0 };
}
