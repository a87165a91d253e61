/* guide_levels.h - gives the headings of a guide their levels.
 *
 * Runs once between the front end and guide_walk, on the heading events
 * of the doc: level 0 is the document title ("... Performance Guide"),
 * level 1 a top section. rst headings are ranked by their adornment style;
 * Markdown "#" and setext headings keep their marked level;
 * numbered headings by the depth of their numbers; without usable numbers
 * (none, or every heading "2.2.") the levels are inferred from the order
 * of the headings. */
#ifndef EVMBENCH_GUIDE_LEVELS_H
#define EVMBENCH_GUIDE_LEVELS_H

#include "guide/guide_doc.h"
#include "guide/guide_import.h"

/* Sets `level` of every heading event of d; layout is the one parsed. */
void guide_levels_assign(struct guide_doc *d, enum guide_layout layout);

#endif
