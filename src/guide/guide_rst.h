/* guide_rst.h - front end for the "rst" layout: the guide's
 * reStructuredText source.
 *
 * Section titles (underlined, or over- and underlined) become headings
 * whose `style` is the rank of their adornment by first use, as docutils
 * ranks them. Tables come from ".. csv-table::" (inline body only; :file:
 * and :url: are reported and skipped), ".. table::" around a grid table
 * and bare grid tables; ".. list-table::" is reported and skipped. The
 * bodies of code blocks, notes and similar directives are text (they
 * hold the commands); comments, images and the like are dropped. Inline
 * markup is removed from every text. */
#ifndef EVMBENCH_GUIDE_RST_H
#define EVMBENCH_GUIDE_RST_H

#include <stdbool.h>

#include "guide/guide_doc.h"

/* Appends the events of d->lines to d; problems are d's diagnostics. */
void guide_rst_parse(struct guide_doc *d);

/* True when s starts a grid-table border such as "+----+=====+" (layout
 * detection counts them). */
bool guide_rst_is_grid_border(const char *s);

#endif
