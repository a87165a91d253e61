/* guide_import.h - reads a Performance Guide and writes reference JSON.
 *
 * The one header of src/guide/ for the rest of the program (the importer's
 * inside is guide_impl.h, private to src/guide/).
 *
 * Layouts: the rendered page copied as text with one cell per line
 * ("cells"), one row per line separated by spaces ("rows"), Markdown pipe
 * tables ("markdown") and reStructuredText source ("rst"). Detection is
 * automatic unless forced: rst directives and grid tables mean rst, pipe
 * tables Markdown; "===" / "---" heading underlines, which both use, count
 * for rst only when there is no pipe table. Problems are added to the diag
 * list as "file:line: message"; what is sound is imported anyway. The JSON
 * schema is documented in benches/refs/README.md. */
#ifndef EVMBENCH_GUIDE_IMPORT_H
#define EVMBENCH_GUIDE_IMPORT_H

#include <stddef.h>

#include <jansson.h>

#include "common/diag.h"

/* How reference JSON is written, so every writer produces the same bytes:
 * 15 significant digits print the guide's numbers as the guide types them. */
#define GUIDE_JSON_FLAGS (JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15))

/* A layout is its index in the importer's table of layouts (guide_import.c);
 * index 0, auto, detects the layout. The others are the rows of
 * guide_layouts.def, in its order: LAYOUT_CELLS, LAYOUT_ROWS,
 * LAYOUT_MARKDOWN, LAYOUT_RST, then any added after them. */
#define GUIDE_LAYOUT(name, NAME) LAYOUT_##NAME,
enum guide_layout {
    LAYOUT_AUTO,
#include "guide/guide_layouts.def"
};
#undef GUIDE_LAYOUT

/* Parses a layout name ("auto", "cells", ...); returns -1 when unknown. */
int guide_layout_parse(const char *name);
/* The name of layout l; "auto" for an index past the table. */
const char *guide_layout_name(enum guide_layout l);
/* Layouts in the table, auto included: a layout is 0 to count - 1. */
size_t guide_layout_count(void);
/* Every layout name, auto first, as "auto, cells, ..." (for messages
 * that list them). A new string; the caller frees it. */
char *guide_layout_names(void);

/* Imports one guide from memory. `name` is the file name recorded as the
 * source and used in diagnostics; `layout` is forced unless it is auto (or
 * past the table: detected as for auto). Returns a new reference object holding
 * at least one table, or NULL when no table could be imported: the text
 * is no guide, or the layout found no table of values (a diagnostic names
 * the layout, how it was chosen and why nothing matched). A file that ends
 * without a line end inside a table is reported as truncated. */
json_t *guide_import_text(const char *name, const char *text, size_t len,
                          enum guide_layout layout, struct diag *dg);
/* Reads and imports a file. NULL (with a diagnostic) when it cannot be read. */
json_t *guide_import_file(const char *path, enum guide_layout layout, struct diag *dg);

#endif
