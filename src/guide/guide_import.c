/* guide_import.c - Performance Guide text to reference JSON.
 *
 * The front ends of the layouts in the table below (cells, rows,
 * markdown, rst) turn the guide into one list of events: headings, text
 * lines, table captions and tables of raw cells. One back end gives the
 * headings their levels (guide_levels), splits each table into key and
 * value columns, links board columns to the "Evaluation Modules" table
 * (guide_walk, guide_boards) and writes the JSON of benches/refs/README.md.
 * This file cleans the input, holds the table of layouts, picks the layout
 * and runs the two halves. guide_impl.h describes the parts. */
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
 * The table of layouts
 * ------------------------------------------------------------------- */

/* Row 0: no layout named; detection picks one of the others. */
static const struct guide_layout_ops layout_auto = { .name = "auto" };

/* Every layout --layout can name, at its enum guide_layout index: auto,
 * then the rows of guide_layouts.def, which are in detection order too
 * (on a full tie the later row wins). */
#define GUIDE_LAYOUT(name, NAME) [LAYOUT_##NAME] = &guide_layout_##name,
static const struct guide_layout_ops *const layouts[] = {
    [LAYOUT_AUTO] = &layout_auto,
#include "guide/guide_layouts.def"
};
#undef GUIDE_LAYOUT

/* The layout whose claim on d is strongest (section 4 of guide_impl.h),
 * with that claim in *best; NULL when no layout claims d. */
static const struct guide_layout_ops *detect_layout(const struct guide_doc *d,
                                                    struct guide_claim *best)
{
    const struct guide_layout_ops *won = NULL;
    memset(best, 0, sizeof *best);
    for (size_t i = 0; i < ARRAY_SIZE(layouts); i++) {
        if (!layouts[i]->detect)
            continue;
        struct guide_claim c = {0};
        layouts[i]->detect(d, &c);
        if (c.rank != CLAIM_NONE &&
            (c.rank > best->rank || (c.rank == best->rank && c.count >= best->count))) {
            *best = c;
            won = layouts[i];
        }
    }
    return won;
}

/* ---------------------------------------------------------------------
 * The API
 * ------------------------------------------------------------------- */

int guide_layout_parse(const char *name)
{
    for (size_t i = 0; i < ARRAY_SIZE(layouts); i++)
        if (name && !strcmp(name, layouts[i]->name))
            return (int)i;
    return -1;
}

const char *guide_layout_name(enum guide_layout l)
{
    return (size_t)l < ARRAY_SIZE(layouts) ? layouts[l]->name : "auto";
}

size_t guide_layout_count(void)
{
    return ARRAY_SIZE(layouts);
}

char *guide_layout_names(void)
{
    struct strbuf sb;
    sb_init(&sb);
    for (size_t i = 0; i < ARRAY_SIZE(layouts); i++)
        sb_addf(&sb, "%s%s", i ? ", " : "", layouts[i]->name);
    return sb_steal(&sb);
}

static json_t *source_json(struct guide_doc *d, bool mcu, const char *layout)
{
    const char *title = NULL;
    for (size_t i = 0; i < d->nev && !title; i++)
        if (d->ev[i].kind == EV_HEADING && d->ev[i].level == 0)
            title = d->ev[i].text;
    /* the most specific title: "Linux 09.00.00 Performance Guide" */
    for (size_t i = 0; i < d->nev; i++)
        if (d->ev[i].kind == EV_HEADING && d->ev[i].level == 0 && strpbrk(d->ev[i].text, "0123456789"))
            title = d->ev[i].text;
    /* a guide without a title (the AM62X MCU+ datasheet): its first heading */
    for (size_t i = 0; i < d->nev && !title; i++)
        if (d->ev[i].kind == EV_HEADING && d->ev[i].text[0])
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
    json_object_set_new(s, "layout", json_string(layout));
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

/* "no tables imported": the layout, how it was chosen, and what it read
 * (found tables, none of them of values) or looks for (found none). */
static void report_nothing(struct guide_doc *d, const struct guide_layout_ops *lay,
                           const struct guide_claim *claim, size_t found)
{
    if (found == 0)
        diag_add(d->dg, "%s:1: no tables imported: layout %s (%s) found no table; it reads %s",
                 d->name, lay->name, claim->why, lay->wants);
    else
        diag_add(d->dg, "%s:1: no tables imported: layout %s (%s) found %zu table%s, none of "
                 "them a table of benchmark values (setup and board tables are not; the "
                 "ones skipped are named above)", d->name, lay->name, claim->why,
                 found, found == 1 ? "" : "s");
}

/* Runs the front end of lay and the back end over the lines of d (the
 * guide `text` of len bytes, split). The reference object, or NULL with a
 * diagnostic when no table of values came out. */
static json_t *import_doc(struct guide_doc *d, const struct guide_layout_ops *lay,
                          const struct guide_claim *claim, const char *text, size_t len,
                          bool mcu)
{
    lay->parse(d);
    const struct guide_table *cut;
    size_t found = count_tables(d, &cut);
    report_cut(d, text, len, cut);
    guide_levels_assign(d, lay->headings);
    json_t *boards, *tables = guide_walk_tables(d, &boards);
    if (json_array_size(tables) == 0) {
        report_nothing(d, lay, claim, found);
        json_decref(boards);
        json_decref(tables);
        return NULL;
    }
    json_t *root = json_object();
    json_object_set_new(root, "format", json_string("evmbench-refs/1"));
    json_object_set_new(root, "source", source_json(d, mcu, lay->name));
    json_object_set_new(root, "boards", boards);
    json_object_set_new(root, "tables", tables);
    return root;
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
    struct guide_claim claim = { .why = "forced with --layout" };
    const struct guide_layout_ops *lay = NULL;
    if ((size_t)layout < ARRAY_SIZE(layouts) && layouts[layout]->parse)
        lay = layouts[layout];
    else
        lay = detect_layout(&d, &claim);
    json_t *root = NULL;
    if (lay)
        root = import_doc(&d, lay, &claim, text, len, mcu);
    else
        diag_add(dg, "%s:1: not a performance guide: no layout fits (no pipe table, rst table, "
                 "board column such as \"board-key: perf\" or \"Table N.\" caption found)", name);
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
