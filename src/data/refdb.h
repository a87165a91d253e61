/* refdb.h - the reference numbers of the Performance Guides.
 *
 * Loads benches/refs/ *.json, written by `evmbench import-guide` (schema
 * in benches/refs/README.md), and answers "reference for board B, metric M".
 * A malformed file is reported through the diag list as
 * "file:line:column: message" and skipped; the rest still loads.
 *
 * Everything returned points into the refdb and lives until refdb_free(). */
#ifndef EVMBENCH_REFDB_H
#define EVMBENCH_REFDB_H

#include <stdbool.h>
#include <stddef.h>

#include "common/diag.h"

struct ref_source {
    char *path;             /* the JSON file it was loaded from */
    char *file;             /* the guide file it was imported from */
    char *title;            /* "Linux 12.00.00 Performance Guide" */
    char *sdk;              /* "linux", "mcu+" */
    char *version;          /* "12.00.00" or NULL */
    size_t order;           /* load order */
};

struct ref_board {          /* from the guide's "Evaluation Modules" table */
    const struct ref_source *source;
    char *key;              /* guide column key, e.g. "am62xx_sk-fs" */
    char *name;             /* "AM62x SK" */
    char *description;
    double cpu_mhz;         /* 0 when unknown */
    char *ddr_type;         /* may be NULL */
    double ddr_mts;         /* 0 when unknown */
};

struct ref_value {
    bool present;           /* false for "n/a" and empty cells */
    double avg;
    bool has_min, has_max;
    double min, max;
    char *text;             /* a cell that is not a number, else NULL */
};

struct ref_column {
    char *header;           /* as printed: "am62xx_sk-fs: THROUGHPUT (Mbits/sec)" */
    char *board;            /* board key, NULL for board-less columns */
    char *name;             /* "THROUGHPUT", "perf" */
    char *unit;             /* NULL when the unit is on the row */
};

struct ref_row {
    char **key;             /* key cells as printed, e.g. {"aes-128-cbc","1024"} */
    size_t nkey;
    char *name;             /* key cells joined by a space */
    char *slug;             /* str_slug of the key cells joined by '-' */
    char *unit;             /* from "name (unit)", may be NULL */
    struct ref_value *values;   /* one per column */
    int line;               /* line in the guide */
    char *note;             /* how the importer placed a short row's cells
                             * when that was a guess, or NULL */
};

struct ref_table {
    const struct ref_source *source;
    char **section;         /* section path, outermost first */
    size_t nsection;
    char *section_slug;     /* slug of the innermost section title */
    char *title;
    char *command;          /* command the guide gives, may be NULL */
    char **context;         /* setup facts as key, value pairs */
    size_t ncontext;        /* number of pairs */
    char **keys;            /* headers of the key columns */
    size_t nkeys;
    struct ref_column *cols;
    size_t ncols;
    struct ref_row *rows;
    size_t nrows;
    int line;
};

struct refdb {
    struct ref_source **sources;
    size_t nsources;
    struct ref_table **tables;      /* in load order, guide order within */
    size_t ntables;
    struct ref_board **boards;
    size_t nboards;
};

struct refdb *refdb_new(void);
void refdb_free(struct refdb *db);
/* Loads one file. Returns 0, or -1 after adding a diagnostic. */
int refdb_load_file(struct refdb *db, const char *path, struct diag *dg);
/* Loads one file's contents, text[0..len); path names it in messages and
 * in ref_source.path. Returns 0, or -1 after adding a diagnostic. */
int refdb_load_text(struct refdb *db, const char *path, const char *text, size_t len,
                    struct diag *dg);
/* Loads every *.json of a data folder (datadir.h: a directory or the
 * built-in table) in name order. Returns the number of files loaded. */
struct data_dir;
int refdb_load_dir(struct refdb *db, const struct data_dir *d, struct diag *dg);
/* Loads every *.json in dir in name order; a file or directory argument
 * both work. Returns the number of files loaded. */
int refdb_load_path(struct refdb *db, const char *path, struct diag *dg);

struct ref_hit {
    const struct ref_table *table;
    const struct ref_row *row;
    const struct ref_column *col;
    const struct ref_value *value;
    const char *unit;               /* row unit, else column unit */
};

/* Finds the reference for board `board` (a column key), the table of the
 * section whose slug is `section`, the row whose slug is `metric` and the
 * first column of that board (or the first whose name matches `column`,
 * an fnmatch pattern, case ignored: "Write * Throughput"). When several
 * guides have it, the newest SDK version wins. */
bool refdb_lookup(const struct refdb *db, const char *board, const char *section,
                  const char *metric, const char *column, struct ref_hit *out);
/* The board keys with a number for (section, metric) in some guide, in
 * the order their columns first appear (what the compare screen shows).
 * *out is allocated and points into db; returns the count. */
size_t refdb_boards_with(const struct refdb *db, const char *section,
                         const char *metric, const char ***out);
/* Every board key of the database: the evaluation-module tables' keys
 * first (in load order), then other column keys. *out as above. */
size_t refdb_board_keys(const struct refdb *db, const char ***out);
/* The same within the tables of the section whose title matches `table`
 * (an fnmatch pattern, case ignored; NULL: any): a section with several
 * tables of the same rows (CoreMarkPro's one-core and two-core tables). */
bool refdb_lookup_table(const struct refdb *db, const char *board, const char *section,
                        const char *table, const char *metric, const char *column,
                        struct ref_hit *out);
/* The evaluation-module facts of a board key (newest source), or NULL. */
const struct ref_board *refdb_board(const struct refdb *db, const char *key);
/* True when any table has a column for this board key. */
bool refdb_has_board(const struct refdb *db, const char *key);

/* Parses a guide cell: "1234.5", "1234.5 (min 1200, max 1300)", "n/a",
 * "45%". Returns false (v->present false, v->text set when non-empty)
 * for a cell that is not a number. */
bool ref_value_parse(const char *cell, struct ref_value *v);
/* Version order for "12.00.00" style strings; NULL sorts first. */
int ref_version_cmp(const char *a, const char *b);

#endif
