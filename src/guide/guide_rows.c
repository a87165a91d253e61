/* guide_rows.c - the "rows" layout: guides rendered one table row per
 * line; its detection and its front end. */
#include "config.h"
#include "guide/guide_impl.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"

/* Splits a header line at its board keys: "Benchmarks j721e-idk-gw: perf".
 * Each key is searched for from the colon of the one before, so a line of
 * many columns costs its length, not its length times its columns. */
static bool rows_header(const char *s, struct guide_table *t)
{
    if (!guide_re_match(RE_BOARD_IN_ROW, s) || guide_re_start(1) == 0)
        return false;
    size_t len = strlen(s);
    struct guide_strv v = {0};
    guide_text_strv_push(&v, guide_text_trimdup(s, guide_re_start(1)));
    size_t pos = guide_re_start(1);
    while (pos < len) {
        const char *rest = s + pos;
        size_t next = len - pos;
        /* the next board key after this one's "key: " */
        const char *colon = strchr(rest, ':');
        if (colon && guide_re_match_n(RE_BOARD_IN_ROW, colon + 1, len - (size_t)(colon + 1 - s)))
            next = (size_t)(colon + 1 - rest) + guide_re_start(1);
        guide_text_strv_push(&v, guide_text_trimdup(rest, next));
        pos += next;
    }
    t->head = v.v;
    t->nhead = v.n;
    t->nkeys = 1;
    return true;
}

/* A value cell is short: "5927.30 (min 5000.00, max 6000.50)". The end of a
 * row is searched for one in this many bytes, not in the whole line. */
#define VALUE_WINDOW 256

/* Peels up to nval values off the end of a row line; returns how many.
 * vals[] is filled right to left; *keylen is the length of the rest. */
static size_t rows_values(const char *s, size_t nval, char **vals, size_t *keylen)
{
    size_t end = strlen(s), got = 0;
    char *buf = xstrdup(s);
    while (got < nval) {
        buf[end] = '\0';
        size_t w = end > VALUE_WINDOW ? end - VALUE_WINDOW : 0;
        while (w && w < end && !isspace((unsigned char)buf[w]))
            w++;                /* start at a blank: a cell boundary */
        if (w == end || !guide_re_match_n(RE_VALUE_TAIL, buf + w, end - w))
            break;
        vals[nval - 1 - got] = guide_re_group(buf + w, 1);
        got++;
        end = w + guide_re_start(1);
        while (end && isspace((unsigned char)buf[end - 1]))
            end--;
    }
    free(buf);
    *keylen = end;
    return got;
}

/* Reads the rows under a header; returns the index of the first line after. */
static size_t rows_body(struct guide_doc *d, size_t i, struct guide_table *t)
{
    size_t nval = t->nhead - 1;
    char **vals = xcalloc(nval, sizeof *vals);
    for (; i < d->nlines && !guide_text_is_blank(d->lines[i]); i++) {
        const char *s = d->lines[i];
        size_t keylen, got = rows_values(s, nval, vals, &keylen);
        int line = (int)i + 1;
        if (keylen == 0 && got == nval)
            break;          /* values without a key: not a row of ours */
        if (got == 0 && i + 1 < d->nlines && isspace((unsigned char)d->lines[i + 1][0])) {
            /* the key alone, its values on the next, indented line */
            size_t kl2;
            got = rows_values(d->lines[i + 1], nval, vals, &kl2);
            if (got == 0 || kl2 > 0) {
                for (size_t k = 0; k < nval; k++)
                    free(vals[k]), vals[k] = NULL;
                break;
            }
            keylen = strlen(s);
            i++;
        } else if (got == 0) {
            break;
        }
        char **row = xcalloc(1 + got, sizeof *row);
        row[0] = guide_text_trimdup(s, keylen);
        for (size_t k = 0; k < got; k++)
            row[1 + k] = vals[nval - got + k], vals[nval - got + k] = NULL;
        guide_doc_table_add_row(t, row, 1 + got, line);
    }
    for (size_t k = 0; k < nval; k++)
        free(vals[k]);      /* values peeled off a line that was no row */
    free(vals);
    return i;
}

/* "J721e EVM J721e Evaluation Module rev E2 ..." -> name, description:
 * the description starts where the name's first word comes back. */
static void rows_evm_row(const char *s, struct guide_table *t, int line)
{
    const char *sp = strchr(s, ' ');
    size_t w = sp ? (size_t)(sp - s) : strlen(s);
    const char *again = NULL;
    for (const char *p = sp; p && *p; p = strchr(p + 1, ' '))
        if (!strncmp(p + 1, s, w) && (p[1 + w] == ' ' || p[1 + w] == '\0')) {
            again = p + 1;
            break;
        }
    char **row = xcalloc(2, sizeof *row);
    row[0] = again ? guide_text_trimdup(s, (size_t)(again - s)) : xstrdup(s);
    row[1] = xstrdup(again ? again : "");
    guide_doc_table_add_row(t, row, 2, line);
}

static void rows_parse(struct guide_doc *d)
{
    for (size_t i = 0; i < d->nlines;) {
        const char *s = d->lines[i];
        int no = (int)i + 1;
        struct guide_table *t = guide_doc_table_new(no);
        if (guide_text_is_blank(s)) {
            guide_doc_add(d, EV_TEXT, no, xstrdup(""));
        } else if (guide_re_match(RE_HEADING_NUM, s)) {
            struct guide_event *e = guide_doc_add(d, EV_HEADING, no, guide_re_group(s, 2));
            e->num = guide_re_group(s, 1);
        } else if (guide_re_match(RE_CAPTION_AFTER, s)) {
            guide_doc_add(d, EV_CAPTION, no, guide_re_group(s, 1));
        } else if (!strcmp(s, "Name Description")) {
            t->head = xcalloc(2, sizeof *t->head);
            t->head[0] = xstrdup("Name");
            t->head[1] = xstrdup("Description");
            t->nhead = 2;
            for (i++; i < d->nlines && !guide_text_is_blank(d->lines[i]); i++)
                rows_evm_row(d->lines[i], t, (int)i + 1);
            guide_doc_add(d, EV_TABLE, no, NULL)->tab = t;
            continue;
        } else if (!isspace((unsigned char)s[0]) && rows_header(s, t)) {
            i = rows_body(d, i + 1, t);
            guide_doc_add(d, EV_TABLE, no, NULL)->tab = t;
            continue;
        } else if ((i == 0 || guide_text_is_blank(d->lines[i - 1])) &&
                   (i + 1 >= d->nlines || guide_text_is_blank(d->lines[i + 1])) &&
                   guide_text_looks_like_heading(s)) {
            guide_doc_add(d, EV_HEADING, no, xstrdup(s));
        } else {
            guide_doc_add(d, EV_TEXT, no, guide_text_trimdup(s, strlen(s)));
        }
        guide_doc_table_free(t);
        i++;
    }
}

/* Lines that name a board column after the text they start with
 * ("Benchmarks j721e-idk-gw: perf"); a line that is a board cell of the
 * cells layout ("j721e-idk-gw: perf") does not count. */
static void rows_detect(const struct guide_doc *d, struct guide_claim *c)
{
    for (size_t i = 0; i < d->nlines; i++) {
        const char *s = d->lines[i];
        if (!isspace((unsigned char)s[0]) && guide_re_match(RE_BOARD_IN_ROW, s) &&
            guide_re_start(1) > 0 && !guide_re_match(RE_BOARD_CELL, s))
            c->count++;
    }
    c->rank = c->count ? CLAIM_BOARD_COLUMNS : CLAIM_NONE;
    snprintf(c->why, sizeof c->why, "detected from %zu lines naming board columns", c->count);
}

const struct guide_layout_ops guide_layout_rows = {
    .name = "rows",
    .wants = "a header line naming board columns (\"Benchmarks board-key: perf\")",
    .headings = HEADINGS_NUMBERED,
    .detect = rows_detect,
    .parse = rows_parse,
};
