/* guide_cells.h - front end for the "cells" layout: the rendered guide
 * page copied as text, one table cell per line.
 *
 * A table starts at its caption ("Table 2.8 Stream Benchmarks") and runs to
 * the next numbered heading or caption. Board columns ("am62xx_sk-fs:
 * perf") end the header; for a board-less table the header width and key
 * count are guessed from how well they cut the cells into rows. The
 * "Name / Description" table of Evaluation Modules runs to its "Table:"
 * line. Other lines are numbered headings, "Table:" captions or text. */
#ifndef EVMBENCH_GUIDE_CELLS_H
#define EVMBENCH_GUIDE_CELLS_H

#include "guide/guide_doc.h"

/* Appends the events of d->lines to d; problems are d's diagnostics. */
void guide_cells_parse(struct guide_doc *d);

#endif
