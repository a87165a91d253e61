/* guide_cells.c - the "cells" layout: guides rendered one table cell per
 * line; its detection and its front end. */
#include "config.h"
#include "guide/guide_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"

/* Cuts cells into rows of `nkeys` key cells and up to nval value cells;
 * a row ends early at a cell that is not a value, and the table ends at a
 * row without any value. Returns the number of complete rows; *used gets
 * the number of cells taken. With t set, the rows are added to it. */
static size_t cells_segment(char **cells, const int *lines, size_t n, size_t nkeys,
                            size_t nval, size_t *used, struct guide_table *t)
{
    size_t i = 0, good = 0;
    while (i + nkeys <= n) {
        size_t j = i + nkeys, cnt = 0;
        while (j < n && cnt < nval && guide_text_is_value(cells[j]))
            j++, cnt++;
        if (cnt == 0)
            break;
        good += cnt == nval;
        if (t) {
            char **row = xcalloc(j - i, sizeof *row);
            for (size_t k = i; k < j; k++)
                row[k - i] = xstrdup(cells[k]);
            guide_doc_table_add_row(t, row, j - i, lines[i]);
        }
        i = j;
    }
    *used = i;
    return good;
}

/* A board-less table gives no sign where its header ends: try every header
 * width and key count and keep the one that explains the most rows. */
static void cells_guess_shape(char **cells, const int *lines, size_t n,
                              size_t *hw, size_t *nk)
{
    size_t lead = 0;
    while (lead < n && lead < 12 && !guide_text_is_value(cells[lead]))
        lead++;
    size_t best = 0;
    *hw = lead;
    *nk = 1;
    for (size_t h = 2; h <= lead; h++) {
        for (size_t k = 1; k < h; k++) {
            size_t used;
            size_t good = cells_segment(cells + h, lines + h, n - h, k, h - k, &used, NULL);
            if (good > best) {
                best = good;
                *hw = h;
                *nk = k;
            }
        }
    }
}

static bool plain_int(const char *s)
{
    return s[0] && strspn(s, "0123456789") == strlen(s);
}

/* Numeric row keys ("64" frame size) cannot be told from values, and when
 * every row lacks the same cells the rows still have one length: the
 * largest length that puts a plain integer at every row start. */
static size_t cells_numeric_period(char **cells, size_t n, size_t nval)
{
    for (size_t m = nval; m >= 1; m--) {
        size_t rows = 0;
        bool ok = true;
        for (size_t i = 0; i < n && ok; i += 1 + m) {
            if (i > 0 && !guide_text_is_value(cells[i]))
                break;              /* the text after the table */
            ok = plain_int(cells[i]);
            rows++;
        }
        if (ok && rows >= 2)
            return m;
    }
    return nval;
}

/* Parses the table that follows a caption; returns the cells it took. */
static size_t cells_table(struct guide_doc *d, char **cells, const int *lines, size_t n,
                          struct guide_table *t)
{
    size_t b0 = 0;
    while (b0 < n && b0 < 8 && !guide_re_match(RE_BOARD_CELL, cells[b0]))
        b0++;
    size_t hw, nk;
    if (b0 < n && b0 < 8 && b0 > 0) {
        size_t b = b0;
        while (b < n && guide_re_match(RE_BOARD_CELL, cells[b]))
            b++;
        hw = b;
        nk = b0;
    } else {
        cells_guess_shape(cells, lines, n, &hw, &nk);
        t->pad_front = true;
    }
    if (hw < 2 || hw > n) {
        guide_doc_warn(d, t->line, "table \"%s\": cannot find its header",
                       t->title ? t->title : "");
        return 0;
    }
    t->head = xcalloc(hw, sizeof *t->head);
    for (size_t i = 0; i < hw; i++)
        t->head[i] = xstrdup(cells[i]);
    t->nhead = hw;
    t->nkeys = (int)nk;
    size_t used, nval = hw - nk;
    if (nk == 1 && hw < n && guide_text_is_value(cells[hw]))
        nval = cells_numeric_period(cells + hw, n - hw, nval);
    cells_segment(cells + hw, lines + hw, n - hw, nk, nval, &used, t);
    return hw + used;
}

/* The "Name / Description" table: pairs of cells up to its "Table:" line. */
static size_t cells_evm(char **cells, const int *lines, size_t n, struct guide_table *t)
{
    t->head = xcalloc(2, sizeof *t->head);
    t->head[0] = xstrdup(cells[0]);
    t->head[1] = xstrdup(cells[1]);
    t->nhead = 2;
    size_t i = 2;
    for (; i + 1 < n && !guide_re_match(RE_CAPTION_AFTER, cells[i]); i += 2) {
        char **row = xcalloc(2, sizeof *row);
        row[0] = xstrdup(cells[i]);
        row[1] = xstrdup(cells[i + 1]);
        guide_doc_table_add_row(t, row, 2, lines[i]);
    }
    return i;
}

static bool is_stop_line(const char *s)
{
    return guide_re_match(RE_HEADING_NUM, s) || guide_re_match(RE_CAPTION_BEFORE, s);
}

static void cells_parse(struct guide_doc *d)
{
    char **cells = xcalloc(d->nlines + 1, sizeof *cells);
    int *lines = xcalloc(d->nlines + 1, sizeof *lines);
    for (size_t i = 0; i < d->nlines;) {
        const char *s = d->lines[i];
        int no = (int)i + 1;
        if (guide_text_is_blank(s)) {
            guide_doc_add(d, EV_TEXT, no, xstrdup(""));
            i++;
            continue;
        }
        bool caption = guide_re_match(RE_CAPTION_BEFORE, s);
        char *title = caption ? guide_re_group(s, 1) : NULL;
        bool evm = !caption && !strcmp(s, "Name");
        if (!caption && !evm) {
            if (guide_re_match(RE_HEADING_NUM, s)) {
                struct guide_event *e = guide_doc_add(d, EV_HEADING, no, guide_re_group(s, 2));
                e->num = guide_re_group(s, 1);
            } else if (guide_re_match(RE_CAPTION_AFTER, s)) {
                guide_doc_add(d, EV_CAPTION, no, guide_re_group(s, 1));
            } else {
                guide_doc_add(d, EV_TEXT, no, guide_text_trimdup(s, strlen(s)));
            }
            i++;
            continue;
        }
        /* gather the cells up to the next heading or caption */
        size_t n = 0, j = caption ? i + 1 : i;
        for (; j < d->nlines; j++) {
            if (guide_text_is_blank(d->lines[j]))
                continue;
            if (is_stop_line(d->lines[j]) ||
                (!evm && guide_re_match(RE_CAPTION_AFTER, d->lines[j])))
                break;
            cells[n] = guide_text_trimdup(d->lines[j], strlen(d->lines[j]));
            lines[n++] = (int)j + 1;
        }
        struct guide_table *t = guide_doc_table_new(no);
        t->title = title;
        size_t used = 0;
        if (evm && n >= 2 && !strcmp(cells[1], "Description"))
            used = cells_evm(cells, lines, n, t);
        else if (caption)
            used = cells_table(d, cells, lines, n, t);
        for (size_t k = 0; k < n; k++)
            free(cells[k]);
        if (used == 0) {
            guide_doc_table_free(t);
            guide_doc_add(d, EV_TEXT, no, guide_text_trimdup(s, strlen(s)));
            i++;
            continue;
        }
        guide_doc_add(d, EV_TABLE, no, NULL)->tab = t;
        /* resume after the last cell taken */
        i = (size_t)lines[used - 1];
    }
    free(cells);
    free(lines);
}

/* Board-column cells ("am62xx_sk-fs: perf") and "Table 2.8 ..." captions. */
static void cells_detect(const struct guide_doc *d, struct guide_claim *c)
{
    for (size_t i = 0; i < d->nlines; i++) {
        c->count += guide_re_match(RE_BOARD_CELL, d->lines[i]);
        c->count += guide_re_match(RE_CAPTION_BEFORE, d->lines[i]);
    }
    c->rank = c->count ? CLAIM_BOARD_COLUMNS : CLAIM_NONE;
    snprintf(c->why, sizeof c->why, "detected from %zu board-column cells and table captions",
             c->count);
}

const struct guide_layout_ops guide_layout_cells = {
    .name = "cells",
    .wants = "board-column cells (\"board-key: perf\") under a table caption",
    .headings = HEADINGS_NUMBERED,
    .detect = cells_detect,
    .parse = cells_parse,
};
