/* guide_import.h - reads a Performance Guide and writes reference JSON.
 *
 * Layouts: the rendered page copied as text with one cell per line
 * ("cells"), one row per line separated by spaces ("rows"), Markdown pipe
 * tables ("markdown") and reStructuredText source ("rst"). Detection is
 * automatic unless forced: rst directives and grid tables mean rst, pipe
 * tables Markdown; "===" / "---" heading underlines, which both use, count
 * for rst only when there is no pipe table. Problems are added to the diag list as
 * "file:line: message"; what is sound is imported anyway. The JSON schema
 * is documented in benches/refs/README.md. */
#ifndef EVMBENCH_GUIDE_IMPORT_H
#define EVMBENCH_GUIDE_IMPORT_H

#include <stddef.h>

#include <jansson.h>

#include "common/diag.h"

/* How reference JSON is written, so every writer produces the same bytes:
 * 15 significant digits print the guide's numbers as the guide types them. */
#define GUIDE_JSON_FLAGS (JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15))

enum guide_layout { LAYOUT_AUTO, LAYOUT_CELLS, LAYOUT_ROWS, LAYOUT_MARKDOWN, LAYOUT_RST };

/* Parses a layout name ("auto", "cells", ...); returns -1 when unknown. */
int guide_layout_parse(const char *name);
const char *guide_layout_name(enum guide_layout l);

/* Imports one guide from memory. `name` is the file name recorded as the
 * source and used in diagnostics. Returns a new reference object holding
 * at least one table, or NULL when no table could be imported: the text
 * is no guide, or the layout found no table of values (a diagnostic names
 * the layout, how it was chosen and why nothing matched). A file that ends
 * without a line end inside a table is reported as truncated. */
json_t *guide_import_text(const char *name, const char *text, size_t len,
                          enum guide_layout layout, struct diag *dg);
/* Reads and imports a file. NULL (with a diagnostic) when it cannot be read. */
json_t *guide_import_file(const char *path, enum guide_layout layout, struct diag *dg);

#endif
