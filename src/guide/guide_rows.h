/* guide_rows.h - front end for the "rows" layout: the rendered guide page
 * copied as text, one table row per line, cells separated by spaces.
 *
 * A table header is a line naming board columns ("Benchmarks
 * j721e-idk-gw: perf"); its rows follow up to a blank line, values peeled
 * off the end of each line and the rest taken as the key. "Name
 * Description" starts the table of Evaluation Modules. Numbered headings,
 * "Table:" captions and short lines standing alone (unnumbered headings)
 * are recognised; everything else is text. */
#ifndef EVMBENCH_GUIDE_ROWS_H
#define EVMBENCH_GUIDE_ROWS_H

#include "guide/guide_doc.h"

/* Appends the events of d->lines to d; problems are d's diagnostics. */
void guide_rows_parse(struct guide_doc *d);

#endif
