/* guide_markdown.c - the "markdown" layout: Markdown pipe tables (and their
 * one-cell-per-line breakage); its detection and its front end. */
#include "config.h"
#include "guide/guide_impl.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"

/* True for a pipe-table row: "| ... |", leading spaces allowed. */
static bool md_is_row(const char *s)
{
    while (*s == ' ')
        s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        n--;
    return n >= 2 && s[0] == '|' && s[n - 1] == '|';
}

/* "Core |": one cell of a table rendered one cell per line. */
static bool md_is_cell_line(const char *s)
{
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        n--;
    return n >= 2 && s[0] != '|' && s[n - 1] == '|' && s[n - 2] == ' ' &&
           memchr(s, '|', n - 1) == NULL;
}

/* Splits "| a | b |" into trimmed cells ("\|" stays a bar). */
static char **md_split(const char *s, size_t *n)
{
    struct guide_strv v = {0};
    while (*s == ' ')
        s++;
    s++;                        /* leading bar */
    struct strbuf sb;
    sb_init(&sb);
    for (; *s; s++) {
        if (*s == '\\' && s[1] == '|') {
            sb_addn(&sb, "|", 1);
            s++;
        } else if (*s == '|') {
            guide_text_strv_push(&v, guide_text_trimdup(sb.buf ? sb.buf : "", sb.len));
            sb_clear(&sb);
        } else {
            sb_addn(&sb, s, 1);
        }
    }
    sb_free(&sb);
    *n = v.n;
    return v.v;
}

static bool same_cells(char **a, char **b, size_t from, size_t n)
{
    for (size_t i = from; i < n; i++)
        if (strcmp(a[i], b[i]))
            return false;
    return true;
}

/* A run of "| ... |" lines; a row that repeats the header's value cells
 * under a new first cell starts a new table ("| SBL Stage2 ... | Time (ms) |"). */
static size_t md_table(struct guide_doc *d, size_t i)
{
    struct guide_table *t = NULL;
    for (; i < d->nlines && md_is_row(d->lines[i]); i++) {
        const char *s = d->lines[i];
        if (guide_re_match(RE_MD_SEPARATOR, s))
            continue;
        size_t n;
        char **cells = md_split(s, &n);
        bool sep_next = i + 1 < d->nlines && guide_re_match(RE_MD_SEPARATOR, d->lines[i + 1]);
        for (size_t c = 1; c < n && sep_next; c++)
            sep_next = !guide_text_is_value(cells[c]); /* a header holds no numbers */
        if (t && t->nrows && (sep_next || (n == t->nhead && n >= 2 &&
                                           same_cells(cells, t->head, 1, n) &&
                                           strcmp(cells[0], t->head[0])))) {
            guide_doc_add_table(d, t);
            t = NULL;
        }
        if (!t) {
            t = guide_doc_table_new((int)i + 1);
            t->head = cells;
            t->nhead = n;
            continue;
        }
        guide_doc_table_add_row(t, cells, n, (int)i + 1);
    }
    if (t)
        guide_doc_add_table(d, t);
    return i;
}

static char *md_cell_text(const char *s)
{
    size_t n = strlen(s);
    while (n && (isspace((unsigned char)s[n - 1]) || s[n - 1] == '|'))
        n--;
    return guide_text_trimdup(s, n);
}

/* Cells one per line: the header cells, a "|---|---|" line giving the
 * column count, then the body cells in row order. */
static size_t md_cell_table(struct guide_doc *d, size_t i)
{
    struct guide_table *t = guide_doc_table_new((int)i + 1);
    struct guide_strv head = {0};
    for (; i < d->nlines && md_is_cell_line(d->lines[i]); i++)
        guide_text_strv_push(&head, md_cell_text(d->lines[i]));
    size_t ncol = 0;
    for (const char *p = d->lines[i]; *p; p++)
        ncol += p[0] == '|' && p[1] != '\0';
    if (ncol != head.n)
        guide_doc_warn(d, (int)i + 1, "table separator has %zu columns, header has %zu",
                       ncol, head.n);
    t->head = head.v;
    t->nhead = head.n;
    i++;
    struct guide_strv row = {0};
    int rline = 0;
    for (; i < d->nlines && md_is_cell_line(d->lines[i]); i++) {
        if (row.n == 0)
            rline = (int)i + 1;
        guide_text_strv_push(&row, md_cell_text(d->lines[i]));
        if (row.n == t->nhead) {
            guide_doc_table_add_row(t, row.v, row.n, rline);
            row = (struct guide_strv){0};
        }
    }
    if (row.n) {
        guide_doc_warn(d, rline, "table ends inside a row (%zu of %zu cells)", row.n, t->nhead);
        guide_doc_table_add_row(t, row.v, row.n, rline);
    }
    guide_doc_add_table(d, t);
    return i;
}

/* "## Stream ##" -> level 2, "Stream"; 0 when s is no ATX heading. */
static int md_atx(const char *s, char **title)
{
    int lvl = 0;
    while (s[lvl] == '#')
        lvl++;
    if (lvl == 0 || lvl > 6 || (s[lvl] != ' ' && s[lvl] != '\t'))
        return 0;
    const char *p = s + lvl;
    size_t n = strlen(p);
    while (n && isspace((unsigned char)p[n - 1]))
        n--;
    size_t hashes = n;
    while (hashes && p[hashes - 1] == '#')
        hashes--;
    if (hashes < n && (hashes == 0 || isspace((unsigned char)p[hashes - 1])))
        n = hashes;     /* the closing run of '#' */
    char *t = guide_text_trimdup(p, n);
    if (!t[0]) {
        free(t);
        return 0;
    }
    *title = t;
    return lvl;
}

/* Line i underlined by "===" (level 1) or "---" (level 2): a setext
 * heading; 0 otherwise. */
static int md_setext(struct guide_doc *d, size_t i)
{
    const char *s = d->lines[i], *u = i + 1 < d->nlines ? d->lines[i + 1] : "";
    if (guide_text_is_blank(s) || s[0] == ' ' || md_is_row(s) ||
        (u[0] != '=' && u[0] != '-') || !guide_re_match(RE_RST_UNDERLINE, u))
        return 0;
    return u[0] == '=' ? 1 : 2;
}

/* Whether the guide marks its headings ("#", or setext underlines): then
 * only those are headings, not every short line that looks like one. */
static bool md_marked(struct guide_doc *d)
{
    for (size_t i = 0; i < d->nlines; i++) {
        char *t = NULL;
        if (md_atx(d->lines[i], &t) || md_setext(d, i)) {
            free(t);
            return true;
        }
    }
    return false;
}

static void md_parse(struct guide_doc *d)
{
    bool marked = md_marked(d);
    for (size_t i = 0; i < d->nlines;) {
        const char *s = d->lines[i];
        int no = (int)i + 1, lvl;
        char *title = NULL;
        if (md_is_row(s)) {
            i = md_table(d, i);
            continue;
        }
        if (md_is_cell_line(s)) {
            size_t j = i;
            while (j < d->nlines && md_is_cell_line(d->lines[j]))
                j++;
            if (j < d->nlines && guide_re_match(RE_MD_SEPARATOR, d->lines[j])) {
                i = md_cell_table(d, i);
                continue;
            }
        }
        if ((lvl = md_atx(s, &title)) > 0) {
            guide_doc_add(d, EV_HEADING, no, title)->style = lvl;
        } else if ((lvl = md_setext(d, i)) > 0) {
            guide_doc_add(d, EV_HEADING, no, guide_text_trimdup(s, strlen(s)))->style = lvl;
            i++;        /* the underline */
        } else if (guide_text_is_blank(s)) {
            guide_doc_add(d, EV_TEXT, no, xstrdup(""));
        } else if (guide_re_match(RE_HEADING_NUM, s)) {
            struct guide_event *e = guide_doc_add(d, EV_HEADING, no, guide_re_group(s, 2));
            e->num = guide_re_group(s, 1);
        } else if (guide_re_match(RE_CAPTION_AFTER, s)) {
            guide_doc_add(d, EV_CAPTION, no, guide_re_group(s, 1));
        } else if (!marked && guide_text_looks_like_heading(s)) {
            guide_doc_add(d, EV_HEADING, no, guide_text_trimdup(s, strlen(s)));
        } else {
            guide_doc_add(d, EV_TEXT, no, guide_text_trimdup(s, strlen(s)));
        }
        i++;
    }
}

/* Pipe-table rows, and "|---|" separators counted twice. */
static void md_detect(const struct guide_doc *d, struct guide_claim *c)
{
    for (size_t i = 0; i < d->nlines; i++) {
        if (md_is_row(d->lines[i]))
            c->count++;
        else if (guide_re_match(RE_MD_SEPARATOR, d->lines[i]))
            c->count += 2;
    }
    c->rank = c->count >= 2 ? CLAIM_TABLES : CLAIM_NONE;
    snprintf(c->why, sizeof c->why, "detected from %zu pipe-table lines", c->count);
}

const struct guide_layout_ops guide_layout_markdown = {
    .name = "markdown",
    .wants = "\"| ... |\" pipe-table rows",
    .headings = HEADINGS_MARKED,
    .detect = md_detect,
    .parse = md_parse,
};
