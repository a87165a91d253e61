/* guide_import.c - Performance Guide text to reference JSON.
 *
 * Four front ends (cells, rows, markdown, rst) turn the guide into one list
 * of events: headings, text lines, table captions and tables of raw cells
 * (guide_doc.h). One back end gives the headings their levels
 * (guide_levels), splits each table into key and value columns, links
 * board columns to the "Evaluation Modules" table (guide_walk,
 * guide_boards) and writes the JSON of benches/refs/README.md. This file
 * cleans the input, picks the layout and runs the two halves. */
#include "config.h"
#include "guide/guide_import.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "guide/guide_impl.h"
#include "common/util.h"

/* ---------------------------------------------------------------------
 * Input hygiene: binary data and invalid UTF-8
 * ------------------------------------------------------------------- */

/* Length of the valid UTF-8 sequence at p, or 0. */
static size_t utf8_len(const unsigned char *p, size_t left)
{
    size_t n = p[0] < 0x80 ? 1 : (p[0] >> 5) == 6 ? 2 : (p[0] >> 4) == 14 ? 3
             : (p[0] >> 3) == 30 ? 4 : 0;
    if (n == 0 || n > left || (n == 2 && p[0] < 0xc2))
        return 0;
    for (size_t i = 1; i < n; i++)
        if ((p[i] & 0xc0) != 0x80)
            return 0;
    return n;
}

/* Copies the text with NUL and control bytes turned into spaces and
 * invalid UTF-8 into '?'. NULL (with a diagnostic) for binary data. */
static char *sanitize(struct guide_doc *d, const char *text, size_t len)
{
    size_t bad = 0, nul = 0;
    int first_line = 0, line = 1;
    char *out = xmalloc(len + 1);
    for (size_t i = 0; i < len;) {
        const unsigned char *p = (const unsigned char *)text + i;
        size_t n = utf8_len(p, len - i);
        if (n == 0) {
            out[i++] = '?';
            bad++;
            if (!first_line)
                first_line = line;
            continue;
        }
        if (n == 1 && (p[0] < 0x20 && p[0] != '\n' && p[0] != '\t' && p[0] != '\r')) {
            nul += p[0] == 0;
            bad++;
            if (!first_line)
                first_line = line;
            out[i++] = ' ';
            continue;
        }
        if (p[0] == '\n')
            line++;
        memcpy(out + i, p, n);
        i += n;
    }
    out[len] = '\0';
    if (bad && bad * 20 > len) {
        guide_doc_warn(d, first_line,
                       "binary data (%zu NUL and %zu other non-text bytes); not a guide",
                       nul, bad - nul);
        free(out);
        return NULL;
    }
    if (bad)
        guide_doc_warn(d, first_line, "%zu NUL, control or invalid UTF-8 bytes replaced", bad);
    return out;
}

/* Splits text into NUL-terminated lines in place (it must be writable). */
static void split_lines(struct guide_doc *d, char *text)
{
    size_t cap = 0;
    char *p = text;
    for (;;) {
        char *nl = strchr(p, '\n');
        if (nl)
            *nl = '\0';
        size_t n = strlen(p);
        if (n && p[n - 1] == '\r')
            p[n - 1] = '\0';
        xgrow(&d->lines, &cap, d->nlines + 1, sizeof *d->lines);
        d->lines[d->nlines++] = p;
        if (!nl)
            break;
        p = nl + 1;
    }
    while (d->nlines && guide_text_is_blank(d->lines[d->nlines - 1]))
        d->nlines--;
}

/* ---------------------------------------------------------------------
 * Layout detection
 * ------------------------------------------------------------------- */

/* What layout detection saw, to explain its choice when nothing is imported. */
struct layout_evidence {
    size_t rst;             /* directives, grid tables, rst-only adornments */
    size_t setext;          /* "===" / "---" underlines: rst or Markdown */
    size_t md;              /* pipe-table rows and separators */
    size_t rows, cells;     /* board columns in a row line or a cell line */
};

/* True for a heading underline that Markdown reads too (setext "===", "---"). */
static bool is_setext_underline(const char *u)
{
    return (u[0] == '=' || u[0] == '-') && guide_re_match(RE_RST_UNDERLINE, u);
}

/* Picks the layout. A "===" or "---" underline is a heading in rst and in
 * Markdown alike, so it decides only when there is no pipe table; rst
 * directives, grid tables and other adornments are rst's alone. */
static enum guide_layout detect_layout(struct guide_doc *d, struct layout_evidence *ev)
{
    memset(ev, 0, sizeof *ev);
    for (size_t i = 0; i < d->nlines; i++) {
        const char *s = d->lines[i];
        if (!strncmp(s, ".. csv-table::", 14) || !strncmp(s, ".. table::", 10) ||
            (guide_rst_is_grid_border(s) && strstr(s, "+-")))
            ev->rst += 3;
        else if (guide_re_match(RE_RST_DIRECTIVE, s))
            ev->rst++;
        else if (i + 1 < d->nlines && guide_re_match(RE_RST_UNDERLINE, d->lines[i + 1]) &&
                 !guide_text_is_blank(s) && strlen(d->lines[i + 1]) >= strlen(s) && strlen(s) > 2) {
            if (is_setext_underline(d->lines[i + 1]))
                ev->setext++;
            else
                ev->rst++;
        }
        if (guide_markdown_is_row(s))
            ev->md++;
        else if (guide_re_match(RE_MD_SEPARATOR, s))
            ev->md += 2;
        if (guide_re_match(RE_BOARD_CELL, s))
            ev->cells++;
        else if (!isspace((unsigned char)s[0]) && guide_re_match(RE_BOARD_IN_ROW, s) &&
                 guide_re_start(1) > 0)
            ev->rows++;
        if (guide_re_match(RE_CAPTION_BEFORE, s))
            ev->cells++;
    }
    if (ev->rst >= 3)
        return LAYOUT_RST;
    if (ev->md >= 2)
        return LAYOUT_MARKDOWN;
    if (ev->rst + ev->setext >= 3)
        return LAYOUT_RST;
    if (ev->rows && ev->rows >= ev->cells)
        return LAYOUT_ROWS;
    if (ev->cells)
        return LAYOUT_CELLS;
    return LAYOUT_AUTO;
}

/* "detected from 2 pipe-table lines" or "forced with --layout". */
static char *layout_why(enum guide_layout l, bool forced, const struct layout_evidence *ev)
{
    if (forced)
        return xstrdup("forced with --layout");
    switch (l) {
    case LAYOUT_RST:
        return xasprintf("detected from %zu rst directives, grid tables or underlines and "
                         "%zu \"===\"/\"---\" underlines", ev->rst, ev->setext);
    case LAYOUT_MARKDOWN:
        return xasprintf("detected from %zu pipe-table lines", ev->md);
    case LAYOUT_ROWS:
        return xasprintf("detected from %zu lines naming board columns", ev->rows);
    case LAYOUT_CELLS:
        return xasprintf("detected from %zu board-column cells and table captions", ev->cells);
    case LAYOUT_AUTO:
        break;
    }
    return xstrdup("");
}

/* What the reader of each layout looks for, for "found no table". */
static const char *layout_wants(enum guide_layout l)
{
    switch (l) {
    case LAYOUT_RST: return "a csv-table, a table directive or a grid table";
    case LAYOUT_MARKDOWN: return "\"| ... |\" pipe-table rows";
    case LAYOUT_ROWS: return "a header line naming board columns (\"Benchmarks board-key: perf\")";
    case LAYOUT_CELLS: return "board-column cells (\"board-key: perf\") under a table caption";
    case LAYOUT_AUTO: break;
    }
    return "";
}

/* ---------------------------------------------------------------------
 * The API
 * ------------------------------------------------------------------- */

static const char *const layout_names[] = {
    [LAYOUT_AUTO] = "auto", [LAYOUT_CELLS] = "cells", [LAYOUT_ROWS] = "rows",
    [LAYOUT_MARKDOWN] = "markdown", [LAYOUT_RST] = "rst",
};

int guide_layout_parse(const char *name)
{
    for (size_t i = 0; i < ARRAY_SIZE(layout_names); i++)
        if (name && !strcmp(name, layout_names[i]))
            return (int)i;
    return -1;
}

const char *guide_layout_name(enum guide_layout l)
{
    return (size_t)l < ARRAY_SIZE(layout_names) ? layout_names[l] : "auto";
}

static json_t *source_json(struct guide_doc *d, bool mcu, enum guide_layout layout)
{
    const char *title = NULL;
    for (size_t i = 0; i < d->nev && !title; i++)
        if (d->ev[i].kind == EV_HEADING && d->ev[i].level == 0)
            title = d->ev[i].text;
    /* the most specific title: "Linux 09.00.00 Performance Guide" */
    for (size_t i = 0; i < d->nev; i++)
        if (d->ev[i].kind == EV_HEADING && d->ev[i].level == 0 && strpbrk(d->ev[i].text, "0123456789"))
            title = d->ev[i].text;
    json_t *version = json_null();
    if (title) {
        for (const char *p = title; *p; p++) {
            if (isdigit((unsigned char)*p) && (p == title || p[-1] == ' ')) {
                size_t n = strspn(p, "0123456789.");
                if (memchr(p, '.', n) && n >= 4) {
                    char *v = xstrndup(p, n);
                    version = json_string(v);
                    free(v);
                    break;
                }
            }
        }
    }
    const char *base = strrchr(d->name, '/');
    json_t *s = json_object();
    json_object_set_new(s, "file", json_string(base ? base + 1 : d->name));
    json_object_set_new(s, "title", title ? json_string(title) : json_null());
    json_object_set_new(s, "sdk", json_string(mcu ? "mcu+" : "linux"));
    json_object_set_new(s, "version", version);
    json_object_set_new(s, "layout", json_string(guide_layout_name(layout)));
    return s;
}

/* Tables the front end found, and the one whose rows run to the last
 * line of the file or to the line before it (NULL when none does). */
static size_t count_tables(struct guide_doc *d, const struct guide_table **at_end)
{
    size_t n = 0;
    *at_end = NULL;
    for (size_t i = 0; i < d->nev; i++) {
        const struct guide_table *t = d->ev[i].tab;
        if (d->ev[i].kind != EV_TABLE || !t)
            continue;
        n++;
        if (t->nrows && (size_t)t->rows[t->nrows - 1].line + 1 >= d->nlines)
            *at_end = t;
    }
    return n;
}

/* A file cut short inside a table ends without a line end, in a row or
 * in a piece of one the front end could not take: say what is lost. */
static void report_cut(struct guide_doc *d, const char *text, size_t len,
                       const struct guide_table *t)
{
    if (!t || len == 0 || text[len - 1] == '\n' || text[len - 1] == '\r')
        return;
    size_t last = (size_t)t->rows[t->nrows - 1].line;
    guide_doc_warn(d, (int)d->nlines,
                   "the file ends without a line end inside table \"%s\": it looks truncated; "
                   "%s and the rows after it are missing", t->title ? t->title : t->head[0],
                   last == d->nlines ? "its last row may be incomplete"
                                     : "the row cut off on the last line is left out");
}

json_t *guide_import_text(const char *name, const char *text, size_t len,
                          enum guide_layout layout, struct diag *dg)
{
    struct guide_doc d = { .name = name, .dg = dg };
    size_t blank = 0;       /* text need not be NUL-terminated: stay in len */
    while (blank < len && text[blank] && strchr(" \t\r\n", text[blank]))
        blank++;
    if (len == 0 || blank == len) {
        diag_add(dg, "%s:1: empty file; not a guide", name);
        return NULL;
    }
    char *buf = sanitize(&d, text, len);
    if (!buf)
        return NULL;
    bool mcu = strstr(buf, "MCU+") || strstr(buf, "MCU PLUS") || strstr(buf, "MCU plus");
    split_lines(&d, buf);
    struct layout_evidence ev = {0};
    bool forced = layout != LAYOUT_AUTO;
    if (!forced)
        layout = detect_layout(&d, &ev);
    switch (layout) {
    case LAYOUT_CELLS: guide_cells_parse(&d); break;
    case LAYOUT_ROWS: guide_rows_parse(&d); break;
    case LAYOUT_MARKDOWN: guide_markdown_parse(&d); break;
    case LAYOUT_RST: guide_rst_parse(&d); break;
    case LAYOUT_AUTO: break;
    }
    if (layout == LAYOUT_AUTO) {
        diag_add(dg, "%s:1: not a performance guide: no layout fits (no pipe table, rst table, "
                 "board column such as \"board-key: perf\" or \"Table N.\" caption found)", name);
        guide_doc_free(&d);
        free(buf);
        return NULL;
    }
    const struct guide_table *cut;
    size_t found = count_tables(&d, &cut);
    report_cut(&d, text, len, cut);
    guide_levels_assign(&d, layout);
    json_t *boards, *tables = guide_walk_tables(&d, &boards);
    if (json_array_size(tables) == 0) {
        char *why = layout_why(layout, forced, &ev);
        if (found == 0)
            diag_add(dg, "%s:1: no tables imported: layout %s (%s) found no table; it reads %s",
                     name, guide_layout_name(layout), why, layout_wants(layout));
        else
            diag_add(dg, "%s:1: no tables imported: layout %s (%s) found %zu table%s, none of "
                     "them a table of benchmark values (setup and board tables are not; the "
                     "ones skipped are named above)", name, guide_layout_name(layout), why,
                     found, found == 1 ? "" : "s");
        free(why);
        json_decref(boards);
        json_decref(tables);
        guide_doc_free(&d);
        free(buf);
        return NULL;
    }
    json_t *root = json_object();
    json_object_set_new(root, "format", json_string("evmbench-refs/1"));
    json_object_set_new(root, "source", source_json(&d, mcu, layout));
    json_object_set_new(root, "boards", boards);
    json_object_set_new(root, "tables", tables);
    guide_doc_free(&d);
    free(buf);
    return root;
}

#define GUIDE_FILE_LIMIT (64u << 20)    /* the largest guide is ~0.5 MB */

json_t *guide_import_file(const char *path, enum guide_layout layout, struct diag *dg)
{
    size_t len;
    char *text = read_file(path, GUIDE_FILE_LIMIT, &len);
    if (!text) {
        if (errno == EFBIG)
            diag_add(dg, "%s: larger than %u MB; not a guide", path, GUIDE_FILE_LIMIT >> 20);
        else
            diag_add(dg, "%s: %s", path, file_strerror(errno));
        return NULL;
    }
    json_t *o = guide_import_text(path, text, len, layout, dg);
    free(text);
    return o;
}
