/* widgets.h - the pieces every screen draws with.
 *
 * The text is formatted by format.h (included here), which needs no
 * terminal; the lists are list.h. This header adds the drawing half, which
 * puts text on a curses window with theme roles; it is declared only for
 * screens/ (EVMBENCH_UI_PRIVATE), because nothing else includes
 * <curses.h>. */
#ifndef EVMBENCH_WIDGETS_H
#define EVMBENCH_WIDGETS_H

#include <stdbool.h>
#include <stddef.h>

#include "screens/actions.h"
#include "screens/format.h"

#ifdef EVMBENCH_UI_PRIVATE
#include <curses.h>

#include "screens/theme.h"

/* Text fitted to width at (y, x) in role r. */
void widget_text(WINDOW *w, int y, int x, int width, enum role r, const char *s,
                 bool utf8);
/* A horizontal rule of `width` columns (ACS line, '-' fallback). */
void widget_rule(WINDOW *w, int y, int x, int width, enum role r);
/* The bottom line: hints with keys in ROLE_KEY; fills the window row. */
void widget_hints(WINDOW *w, int y, const struct hint *hints,
                  const struct binding *local);
/* The same from column x0 to the end of the row. */
void widget_hints_at(WINDOW *w, int y, int x0, const struct hint *hints,
                     const struct binding *local);
/* The progress bar with its role at (y, x). */
void widget_progress(WINDOW *w, int y, int x, int width, double frac, bool utf8);
/* A metric row laid out by l: cells in value/reference/better/worse/
 * verdict roles. */
void widget_metric_row(WINDOW *w, int y, const struct metric_layout *l,
                       const struct metric_cells *c, bool utf8);
/* Lines centred in the window (the "terminal too small" message). */
void widget_centered(WINDOW *w, const char *const *lines, size_t n, enum role r);
#endif

#endif
