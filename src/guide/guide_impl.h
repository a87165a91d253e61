/* guide_impl.h - the inside of the guide importer, shared by the .c files of src/guide/.
 *
 * Private to src/guide/: everything else uses guide/guide_import.h.
 *
 * The pipeline. guide_import.c cleans the text and splits it into the
 * lines of a struct guide_doc, picks a layout from the table of layouts
 * (each layout rates the text with its detect(); the best claim wins) and
 * runs that layout's parse(), its front end: it appends events in document
 * order (headings, text lines, table captions, tables of raw cells).
 * guide_levels then sets every heading's level, and guide_walk (with
 * guide_boards) reads the events and writes the JSON of
 * benches/refs/README.md.
 *
 * Sections, in pipeline order:
 *   1. regular expressions      guide_re.c
 *   2. string helpers           guide_text.c
 *   3. the document of events   guide_doc.c
 *   4. layouts                  guide_cells.c, guide_rows.c,
 *                               guide_markdown.c, guide_rst.c, listed in
 *                               guide_layouts.def; the table in
 *                               guide_import.c
 *   5. heading levels           guide_levels.c
 *   6. events to JSON           guide_walk.c, guide_boards.c
 *
 * To add a layout: write guide_NAME.c defining `const struct guide_layout_ops
 * guide_layout_NAME` (section 4 says what its members must do), append its
 * row to guide_layouts.def (it is then declared below, in the table of
 * guide_import.c and in enum guide_layout) and add the file to the guide
 * sources in Makefile.am. --layout, its error message and fuzz_guide take
 * it from the table; tests/test_guide_import.c lists every name in
 * test_layout_table and wants a sample of the new layout. */
#ifndef EVMBENCH_GUIDE_IMPL_H
#define EVMBENCH_GUIDE_IMPL_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "common/diag.h"

/* =====================================================================
 * 1. Regular expressions (guide_re.c)
 *
 * One set of PCRE2 patterns, compiled on the first match (without JIT:
 * README, "Build for the board") and kept for the life of the program; a
 * pattern that does not compile is a programming error and dies. All
 * patterns share one match block: the captures of the last successful
 * guide_re_match() are valid until the next match, so read them first.
 * Not thread-safe.
 * ===================================================================== */

enum guide_re_id {
    RE_HEADING_NUM,     /* "2.5.2.3.6. Stream", "2.2. Stream¶" */
    RE_CAPTION_BEFORE,  /* "Table 2.8 Stream Benchmarks" */
    RE_CAPTION_AFTER,   /* "Table: Stream" */
    RE_BOARD_CELL,      /* "am62xx_sk-fs: perf" */
    RE_BOARD_IN_ROW,    /* " j721e-idk-gw: " inside a rows-layout header */
    RE_VALUE,           /* "8869.96 (min 4996.43, max 12743.49)", "38%" */
    RE_VALUE_TAIL,      /* a value at the end of a rows-layout line */
    RE_NA,              /* "n/a", "NA", "-" */
    RE_UNIT_TAIL,       /* "name (unit)" */
    RE_NOTE_TAIL,       /* " (LOCAL_CPU_UTIL)", " (FORWARDING)" annotation, not "(V)" */
    RE_UNIT_IN,         /* "Boot time in seconds: avg(min,max)", "Latency in ns" */
    RE_COMMAND,         /* netperf, fio, openssl ... command lines */
    RE_CONTINUATION,    /* "   -k DIRECTION,..." */
    RE_EXECUTE,         /* "Execute the benchmark with the following:" */
    RE_BULLET_PAIR,     /* "- Boot Media Clock : 166.667 MHz" */
    RE_TOP_LEVEL,       /* well-known top-level section titles */
    RE_RST_UNDERLINE,   /* "=====", "-----" ... */
    RE_RST_DIRECTIVE,   /* ".. csv-table:: Title" */
    RE_RST_OPTION,      /* ":header: ..." */
    RE_MD_SEPARATOR,    /* "|---|:--:|" */
    RE_SETUP_SECTION,   /* "Setup Details", "Configuration Details" */
    RE_SIZE_HEADER,     /* key-like headers of board-less tables */
    RE_CLOCK,           /* "1.4GHz" */
    RE_DDR_TYPE,        /* "LPDDR4" */
    RE_DDR_RATE,        /* "1600 MT/S" */
    RE_COUNT
};

/* Matches s against pattern id; on success the captures can be read with
 * guide_re_group() and guide_re_start(). */
bool guide_re_match(enum guide_re_id id, const char *s);
/* guide_re_match() on the len bytes at s, which must be valid UTF-8
 * starting at a character boundary (the sanitized guide text cut at an
 * ASCII character is): they are not checked again, so matching the pieces
 * of a long line costs their length, not the line's. */
bool guide_re_match_n(enum guide_re_id id, const char *s, size_t len);
/* Capture n of the last match as a new string (the caller frees it); s
 * must be the string last matched. NULL when the capture did not take part. */
char *guide_re_group(const char *s, int n);
/* Offset in the string last matched where capture n starts; only for a
 * capture that took part. */
size_t guide_re_start(int n);

/* =====================================================================
 * 2. String helpers (guide_text.c)
 *
 * Blank lines, trimmed copies, the value cells every layout recognises,
 * the unmarked headings of the rows and Markdown layouts, and a growable
 * vector of strings.
 * ===================================================================== */

/* A growable vector of strings; {0} is empty. */
struct guide_strv {
    char **v;
    size_t n, cap;
};

/* Appends str; the vector takes it. */
void guide_text_strv_push(struct guide_strv *s, char *str);
/* Frees the n strings of v and v itself. */
void guide_text_strv_free(char **v, size_t n);

/* True when s holds only spaces and tabs. */
bool guide_text_is_blank(const char *s);
/* A new copy of the first n bytes of s without surrounding whitespace. */
char *guide_text_trimdup(const char *s, size_t n);
/* "n/a", "NA", "-" and dashes: a cell with no value. */
bool guide_text_is_na(const char *cell);
/* A cell that the cells layout may take as a value (number, n/a). */
bool guide_text_is_value(const char *cell);
/* A short line that stands alone as a heading in the rows and Markdown
 * layouts, where headings below the numbered ones carry no mark. The
 * caller checks that it stands alone. */
bool guide_text_looks_like_heading(const char *s);

/* =====================================================================
 * 3. The document of events (guide_doc.c)
 *
 * The seam between the front ends (the layouts) and the back end.
 * guide_import.c fills `lines` with the guide split into lines; the
 * layout's parse() reads them and appends events in document order.
 *
 * Ownership: the doc owns its events and everything they point to (text,
 * num, command, tab); guide_doc_free() releases them. `lines` point into
 * a buffer the caller owns; only the array is the doc's. Line numbers are
 * 1-based, as in the diagnostics.
 * ===================================================================== */

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
    bool rubric;            /* rst ".. rubric::": an informal heading, one
                               level below the section it is in */
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

/* =====================================================================
 * 4. Layouts (one file each, one row each in guide_layouts.def; the
 *    table is in guide_import.c)
 *
 * A layout is one way a guide is written down, with a front end that
 * reads it. Its detect() rates the lines of a doc, filling in a claim that
 * the caller zeroed; when the layout is not forced, the claim with the
 * highest rank wins, then the one with the highest count, and on a full
 * tie the layout later in the table. Its parse() appends the events of
 * d->lines to d, reporting problems as d's diagnostics.
 * ===================================================================== */

/* How strongly a layout claims a text, weakest first. */
enum guide_claim_rank {
    CLAIM_NONE,             /* nothing of this layout */
    CLAIM_BOARD_COLUMNS,    /* board columns in plain text (cells, rows) */
    CLAIM_UNDERLINES,       /* "===" / "---" heading underlines, which
                               rst and Markdown share */
    CLAIM_TABLES,           /* markup tables (Markdown pipe tables) */
    CLAIM_OWN_MARKUP,       /* markup no other layout uses (rst
                               directives, grid tables, adornments) */
};

/* What detect() saw of its layout in a text. */
struct guide_claim {
    enum guide_claim_rank rank;
    size_t count;           /* lines of evidence; orders claims of one rank */
    char why[160];          /* "detected from 2 pipe-table lines", quoted
                               when the layout then finds no table */
};

/* How the headings of a layout get their levels (guide_levels_assign). */
enum guide_heading_ranks {
    HEADINGS_NUMBERED,      /* by the depth of their numbers; without
                               usable numbers by their order */
    HEADINGS_MARKED,        /* by their "#" or setext mark (the event's
                               style) when any heading has one, else as
                               HEADINGS_NUMBERED */
    HEADINGS_ADORNED,       /* by the rank of their rst adornment style */
};

struct guide_layout_ops {
    const char *name;       /* as --layout and the JSON "layout" spell it */
    const char *wants;      /* what parse() looks for, quoted when it
                               finds no table */
    enum guide_heading_ranks headings;
    void (*detect)(const struct guide_doc *d, struct guide_claim *claim);
    void (*parse)(struct guide_doc *d);
};

/* guide_layout_NAME of each row of guide_layouts.def, which describes it. */
#define GUIDE_LAYOUT(name, NAME) extern const struct guide_layout_ops guide_layout_##name;
#include "guide/guide_layouts.def"
#undef GUIDE_LAYOUT

/* =====================================================================
 * 5. Heading levels (guide_levels.c)
 *
 * Runs once between the front end and guide_walk, on the heading events
 * of the doc: level 0 is the document title ("... Performance Guide"),
 * level 1 a top section. rst headings are ranked by their adornment style;
 * Markdown "#" and setext headings keep their marked level; numbered
 * headings by the depth of their numbers; without usable numbers (none,
 * or every heading "2.2.") the levels are inferred from the order of the
 * headings.
 * ===================================================================== */

/* Sets `level` of every heading event of d the way `how` says (the
 * headings member of the layout that parsed d). */
void guide_levels_assign(struct guide_doc *d, enum guide_heading_ranks how);

/* =====================================================================
 * 6. Events to JSON (guide_walk.c, guide_boards.c)
 *
 * The back end walks the events of a doc whose headings have their
 * levels: follows the section path, collects the commands and setup facts
 * of each section, splits every table into key and value columns and
 * keeps the rows of the "Evaluation Modules" table for the board list.
 *
 * The boards: the table columns name them by key ("am62xx_sk-fs"); each
 * row of the Evaluation Modules table is linked to the column key whose
 * name tokens hold all of its own ("AM62x LP SK" -> am62xx_lp_sk-fs), and
 * the clock and DDR facts are read from its description.
 * ===================================================================== */

/* Returns the new "tables" array and sets *boards to the new "boards"
 * array; the caller owns both. Fills in the `command` of heading events;
 * problems are added to d's diagnostics. */
json_t *guide_walk_tables(struct guide_doc *d, json_t **boards);

struct guide_board {        /* one row of the Evaluation Modules table */
    char *name, *description;
    int line;
};

/* The "boards" array of benches/refs/README.md: the n boards first, each
 * under its linked key (a slug of its name, with a diagnostic in d, when
 * no key fits), then the keys no board took, in their order. keys are the
 * board keys of the table columns. Returns a new reference. */
json_t *guide_boards_json(struct guide_doc *d, const struct guide_board *boards, size_t n,
                          const struct guide_strv *keys);

#endif
