/* guide_markdown.h - front end for the "markdown" layout: the guide as
 * Markdown with pipe tables.
 *
 * A table is a run of "| ... |" lines (the "|---|" separator optional); a
 * row that repeats the header's value cells under a new first cell starts
 * a new table. Tables broken into one cell per line ("Core |") with a
 * separator line giving the column count are put back together. Headings:
 * "#" (ATX) and "===" / "---" underlined (setext) ones, with their level
 * as the event's style; numbered ones; and, in a guide that marks none,
 * short heading-like lines. "Table:" captions are recognised; everything
 * else is text. */
#ifndef EVMBENCH_GUIDE_MARKDOWN_H
#define EVMBENCH_GUIDE_MARKDOWN_H

#include <stdbool.h>

#include "guide/guide_doc.h"

/* Appends the events of d->lines to d; problems are d's diagnostics. */
void guide_markdown_parse(struct guide_doc *d);

/* True for a pipe-table row: "| ... |", leading spaces allowed (layout
 * detection counts them). */
bool guide_markdown_is_row(const char *s);

#endif
