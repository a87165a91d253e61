/* guide_walk.h - the importer's back end: from events to reference JSON.
 *
 * Walks the events of a doc whose headings have their levels
 * (guide_levels): follows the section path, collects the commands and
 * setup facts of each section, splits every table into key and value
 * columns and keeps the rows of the "Evaluation Modules" table for the
 * board list (guide_boards). The JSON is that of benches/refs/README.md. */
#ifndef EVMBENCH_GUIDE_WALK_H
#define EVMBENCH_GUIDE_WALK_H

#include <jansson.h>

#include "guide/guide_doc.h"

/* Returns the new "tables" array and sets *boards to the new "boards"
 * array; the caller owns both. Fills in the `command` of heading events;
 * problems are added to d's diagnostics. */
json_t *guide_walk_tables(struct guide_doc *d, json_t **boards);

#endif
