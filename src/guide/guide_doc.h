/* guide_doc.h - a Performance Guide as a list of events.
 *
 * Private to the guide_*.c modules; the seam between the importer's front
 * ends and its back end. guide_import.c fills `lines` with the guide split
 * into lines; the front end of its layout (guide_cells, guide_rows,
 * guide_markdown, guide_rst) reads them and appends events in document
 * order: headings, text lines, table captions and tables of raw cells.
 * guide_levels then sets every heading's level, and guide_walk reads the
 * events and writes the JSON.
 *
 * Ownership: the doc owns its events and everything they point to (text,
 * num, command, tab); guide_doc_free() releases them. `lines` point into
 * a buffer the caller owns; only the array is the doc's. Line numbers are
 * 1-based, as in the diagnostics. */
#ifndef EVMBENCH_GUIDE_DOC_H
#define EVMBENCH_GUIDE_DOC_H

#include <stdbool.h>
#include <stddef.h>

#include "common/diag.h"

struct guide_row {          /* one table row as raw cells */
    char **cells;
    size_t n;
    int line;
};

struct guide_table {
    char **head;            /* header cells */
    size_t nhead;
    struct guide_row *rows;
    size_t nrows, caprows;
    int nkeys;              /* key columns when the front end knows, else -1 */
    int line;               /* caption or header line */
    char *title;            /* caption, if any */
    bool pad_front;         /* short rows miss their leading cells */
};

enum guide_event_kind { EV_HEADING, EV_TEXT, EV_CAPTION, EV_TABLE };

struct guide_event {
    enum guide_event_kind kind;
    int line;
    char *text;             /* heading title, text line, caption */
    char *num;              /* heading number ("2.5.2.3.6"), or NULL */
    int style;              /* rst style rank, Markdown "#" level, or 0 */
    int level;              /* set by guide_levels; 0 = document title */
    struct guide_table *tab;
    char *command;          /* commands of this heading's section (guide_walk) */
};

struct guide_doc {
    const char *name;       /* file name for the diagnostics */
    struct diag *dg;
    char **lines;           /* the guide's lines, without line ends */
    size_t nlines;
    struct guide_event *ev;
    size_t nev, evcap;
};

/* Adds "name:line: message" to d's diagnostics. */
void guide_doc_warn(struct guide_doc *d, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Appends an event with all other fields zero; the doc takes `text` (NULL
 * for a table). The pointer returned is valid until the next event is added. */
struct guide_event *guide_doc_add(struct guide_doc *d, enum guide_event_kind kind, int line,
                                  char *text);
/* Appends t as a table event at t->line when it has a header; frees it
 * otherwise. */
void guide_doc_add_table(struct guide_doc *d, struct guide_table *t);
/* Frees the events and the lines array, not the text the lines point into. */
void guide_doc_free(struct guide_doc *d);

/* A new table without header or rows; nkeys -1 (not known). */
struct guide_table *guide_doc_table_new(int line);
/* Appends a row of n cells; the table takes the cells. */
void guide_doc_table_add_row(struct guide_table *t, char **cells, size_t n, int line);
/* Frees t with its cells and title; NULL is allowed. */
void guide_doc_table_free(struct guide_table *t);

#endif
