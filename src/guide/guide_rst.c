/* guide_rst.c - the "rst" layout: reStructuredText source; its detection
 * and its front end. */
#include "config.h"
#include "guide/guide_impl.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"

static size_t indent_of(const char *s)
{
    size_t n = 0;
    while (s[n] == ' ' || s[n] == '\t')
        n++;
    return n;
}

/* Drops inline markup: **b**, ``lit``, :role:`x`, `x`_ and backslash escapes. */
static char *rst_inline(const char *s)
{
    struct strbuf sb;
    sb_init(&sb);
    for (const char *p = s; *p; p++) {
        if ((p[0] == '*' && p[1] == '*') || (p[0] == '`' && p[1] == '`')) {
            p++;
            continue;
        }
        if (p[0] == ':' && isalpha((unsigned char)p[1])) {
            const char *q = p + 1;
            while (isalnum((unsigned char)*q) || *q == '-' || *q == ':')
                q++;
            if (q > p + 1 && q[-1] == ':' && q[0] == '`') {
                p = q - 1;      /* the backtick is dropped next */
                continue;
            }
        }
        if (p[0] == '`') {
            if (p[1] == '_')
                p++;
            continue;
        }
        if (p[0] == '\\' && p[1]) {
            p++;
            if (*p != ' ')
                sb_addn(&sb, p, 1);
            continue;
        }
        sb_addn(&sb, p, 1);
    }
    char *out = sb_steal(&sb);
    char *t = guide_text_trimdup(out, strlen(out));
    free(out);
    return t;
}

/* Parses one CSV record (docutils: "," and doubled quotes); NULL at end. */
static char **csv_split(const char *s, char delim, size_t *n)
{
    struct guide_strv v = {0};
    struct strbuf sb;
    sb_init(&sb);
    const char *p = s;
    for (;;) {
        while (*p == ' ')
            p++;
        sb_clear(&sb);
        if (*p == '"') {
            for (p++; *p; p++) {
                if (*p == '"' && p[1] == '"')
                    sb_addn(&sb, "\"", 1), p++;
                else if (*p == '"')
                    break;
                else
                    sb_addn(&sb, p, 1);
            }
            if (*p == '"')
                p++;
            while (*p && *p != delim)
                p++;
        } else {
            while (*p && *p != delim)
                sb_addn(&sb, p++, 1);
        }
        guide_text_strv_push(&v, rst_inline(sb.buf ? sb.buf : ""));
        if (*p != delim)
            break;
        p++;
    }
    sb_free(&sb);
    *n = v.n;
    return v.v;
}

/* True when the line leaves a double-quoted CSV field open. */
static bool csv_open_quote(const char *s)
{
    bool open = false;
    for (; *s; s++)
        if (*s == '"')
            open = !open;
    return open;
}

/* ".. csv-table:: Title" with its options and indented body. */
static size_t rst_csv_table(struct guide_doc *d, size_t i, const char *title)
{
    struct guide_table *t = guide_doc_table_new((int)i + 1);
    t->title = title[0] ? rst_inline(title) : NULL;
    char delim = ',';
    long header_rows = 0;
    char *header = NULL;
    size_t base = 0;
    for (i++; i < d->nlines && guide_re_match(RE_RST_OPTION, d->lines[i]); i++) {
        char *opt = guide_re_group(d->lines[i], 1), *val = guide_re_group(d->lines[i], 2);
        if (!strcmp(opt, "header")) {
            free(header);   /* a repeated option: the last one counts */
            header = xstrdup(val);
        }
        else if (!strcmp(opt, "header-rows"))
            header_rows = strtol(val, NULL, 10);
        else if (!strcmp(opt, "delim"))
            delim = !strcmp(val, "tab") ? '\t' : !strcmp(val, "space") ? ' ' : val[0] ? val[0] : ',';
        else if (!strcmp(opt, "file") || !strcmp(opt, "url"))
            guide_doc_warn(d, (int)i + 1, "csv-table :%s: is not supported; table skipped", opt);
        free(opt);
        free(val);
    }
    struct strbuf rec;
    sb_init(&rec);
    int rline = 0;
    for (; i < d->nlines; i++) {
        const char *s = d->lines[i];
        if (guide_text_is_blank(s)) {
            if (rec.len == 0)
                continue;
        } else if (!indent_of(s)) {
            break;
        }
        if (!base && !guide_text_is_blank(s))
            base = indent_of(s);
        if (rec.len == 0)
            rline = (int)i + 1;
        else
            sb_add(&rec, "\n");
        sb_add(&rec, s + (indent_of(s) < base ? indent_of(s) : base));
        if (csv_open_quote(rec.buf))
            continue;
        size_t n;
        char **cells = csv_split(rec.buf, delim, &n);
        sb_clear(&rec);
        if (!t->head && (header_rows > 0 || header)) {
            if (header_rows > 0 && !header) {
                t->head = cells;
                t->nhead = n;
                header_rows--;
                continue;
            }
        }
        guide_doc_table_add_row(t, cells, n, rline);
    }
    if (rec.len)
        guide_doc_warn(d, rline, "csv-table \"%s\": unterminated quoted field", title);
    sb_free(&rec);
    if (header) {
        t->head = csv_split(header, ',', &t->nhead);
        free(header);
    }
    if (!t->head && t->nrows) {
        /* no header given: keep the columns unnamed */
        t->nhead = t->rows[0].n;
        t->head = xcalloc(t->nhead, sizeof *t->head);
        for (size_t c = 0; c < t->nhead; c++)
            t->head[c] = xstrdup("");
    }
    guide_doc_add_table(d, t);
    return i;
}

/* Column boundaries of a grid table border "+----+-----+", as many as it
 * has (the caller frees them). */
static size_t *grid_bounds(const char *s, size_t *n)
{
    size_t cap = 1;
    for (const char *p = s; *p; p++)
        cap += *p == '+';
    size_t *pos = xcalloc(cap, sizeof *pos);
    *n = 0;
    for (size_t i = 0; s[i]; i++)
        if (s[i] == '+')
            pos[(*n)++] = i;
    return pos;
}

/* True when s starts a grid-table border such as "+----+=====+". */
static bool is_grid_border(const char *s)
{
    if (s[0] != '+')
        return false;
    for (const char *p = s; *p; p++)
        if (!strchr("+-=: ", *p))
            return false;
    return true;
}

/* Adds the text between the column bars of one grid line to the cells. */
static void grid_line(const char *s, const size_t *pos, size_t nb, struct strbuf *cells)
{
    size_t len = strlen(s);
    size_t c = 0;
    while (c + 1 < nb) {
        size_t end = c + 1;      /* spanned cells have no bar at the boundary */
        while (end + 1 < nb && (pos[end] >= len || s[pos[end]] != '|'))
            end++;
        size_t a = pos[c] + 1, b = pos[end] < len ? pos[end] : len;
        if (a < b) {
            char *piece = guide_text_trimdup(s + a, b - a);
            if (piece[0]) {
                if (cells[c].len)
                    sb_add(&cells[c], " ");
                sb_add(&cells[c], piece);
            }
            free(piece);
        }
        c = end;
    }
}

static char **grid_take(struct strbuf *cells, size_t n)
{
    char **out = xcalloc(n, sizeof *out);
    for (size_t c = 0; c < n; c++) {
        out[c] = rst_inline(cells[c].buf ? cells[c].buf : "");
        sb_clear(&cells[c]);
    }
    return out;
}

static size_t rst_grid_table(struct guide_doc *d, size_t i, char *title)
{
    const char *first = d->lines[i] + indent_of(d->lines[i]);
    size_t ind = indent_of(d->lines[i]);
    size_t nb;
    size_t *pos = grid_bounds(first, &nb);
    size_t ncol = nb ? nb - 1 : 0;
    struct guide_table *t = guide_doc_table_new((int)i + 1);
    t->title = title;
    struct strbuf *cells = xcalloc(ncol ? ncol : 1, sizeof *cells);
    struct guide_strv rowsv = {0};
    bool any = false;
    int rline = 0;
    struct guide_row *pending = NULL;
    (void)pending;
    for (i++; i < d->nlines; i++) {
        const char *s = d->lines[i];
        if (strlen(s) < ind || (s[ind] != '|' && s[ind] != '+'))
            break;
        s += ind;
        if (is_grid_border(s)) {
            if (any) {
                char **row = grid_take(cells, ncol);
                if (strchr(s, '=') && !t->head) {
                    t->head = row;
                    t->nhead = ncol;
                } else {
                    guide_doc_table_add_row(t, row, ncol, rline);
                }
            }
            any = false;
            continue;
        }
        if (!any)
            rline = (int)i + 1;
        any = true;
        grid_line(s, pos, nb, cells);
    }
    if (any) {
        guide_doc_warn(d, rline, "grid table ends without its bottom border");
        guide_doc_table_add_row(t, grid_take(cells, ncol), ncol, rline);
    }
    for (size_t c = 0; c < ncol; c++)
        sb_free(&cells[c]);
    free(cells);
    free(pos);
    free(rowsv.v);
    if (!t->head && t->nrows) {
        t->head = t->rows[0].cells;     /* docutils would have none */
        t->nhead = t->rows[0].n;
        memmove(t->rows, t->rows + 1, --t->nrows * sizeof *t->rows);
    }
    guide_doc_add_table(d, t);
    return i;
}

/* Heading styles, ranked by first use as docutils does. */
struct rst_styles {
    char key[16][2];
    size_t n;
};

static int rst_style(struct rst_styles *st, char ch, bool over)
{
    for (size_t i = 0; i < st->n; i++)
        if (st->key[i][0] == ch && st->key[i][1] == (char)over)
            return (int)i + 1;
    if (st->n == 16)
        return 16;
    st->key[st->n][0] = ch;
    st->key[st->n][1] = (char)over;
    return (int)++st->n;
}

/* A section title at line i: returns the lines it spans (2 or 3), or 0. */
static size_t rst_heading(struct guide_doc *d, size_t i, struct rst_styles *st)
{
    const char *s = d->lines[i];
    if (i + 1 >= d->nlines || guide_text_is_blank(s))
        return 0;
    bool over = guide_re_match(RE_RST_UNDERLINE, s);
    if (over) {
        if (i + 2 >= d->nlines || !guide_re_match(RE_RST_UNDERLINE, d->lines[i + 2]) ||
            d->lines[i + 2][0] != s[0] || guide_text_is_blank(d->lines[i + 1]))
            return 0;
        struct guide_event *e = guide_doc_add(d, EV_HEADING, (int)i + 2,
                                              rst_inline(d->lines[i + 1]));
        e->style = rst_style(st, s[0], true);
        return 3;
    }
    const char *u = d->lines[i + 1];
    if (indent_of(s) || !guide_re_match(RE_RST_UNDERLINE, u) || strlen(u) + 1 < strlen(s) / 2 + 1 ||
        strlen(u) < 3)
        return 0;
    struct guide_event *e = guide_doc_add(d, EV_HEADING, (int)i + 1, rst_inline(s));
    e->style = rst_style(st, u[0], false);
    return 2;
}

/* Skips a directive's indented body; returns the next line. */
static size_t rst_skip_body(struct guide_doc *d, size_t i, bool emit)
{
    for (; i < d->nlines && (guide_text_is_blank(d->lines[i]) || indent_of(d->lines[i])); i++)
        if (emit && !guide_text_is_blank(d->lines[i]))
            guide_doc_add(d, EV_TEXT, (int)i + 1, rst_inline(d->lines[i]));
    return i;
}

static size_t rst_directive(struct guide_doc *d, size_t i)
{
    const char *s = d->lines[i];
    char *name = guide_re_group(s, 1), *arg = guide_re_group(s, 2);
    size_t next;
    if (!strcmp(name, "csv-table")) {
        next = rst_csv_table(d, i, arg);
    } else if (!strcmp(name, "table")) {
        /* ".. table:: Title" around a grid table */
        size_t j = i + 1;
        while (j < d->nlines && (guide_text_is_blank(d->lines[j]) ||
                                 guide_re_match(RE_RST_OPTION, d->lines[j])))
            j++;
        if (j < d->nlines && indent_of(d->lines[j]) &&
            is_grid_border(d->lines[j] + indent_of(d->lines[j]))) {
            next = rst_grid_table(d, j, arg[0] ? rst_inline(arg) : NULL);
        } else {
            next = rst_skip_body(d, i + 1, true);
        }
    } else if (!strcmp(name, "rubric")) {
        char *title = rst_inline(arg);
        if (title[0]) {
            guide_doc_add(d, EV_HEADING, (int)i + 1, title)->rubric = true;
        } else {
            free(title);
        }
        next = rst_skip_body(d, i + 1, false);  /* :name: and :class: */
    } else if (!strcmp(name, "list-table")) {
        guide_doc_warn(d, (int)i + 1, "list-table is not supported; table \"%s\" skipped", arg);
        next = rst_skip_body(d, i + 1, false);
    } else {
        /* code blocks, notes, warnings: their lines are text (commands) */
        bool text = strcmp(name, "image") && strcmp(name, "figure") &&
                    strcmp(name, "toctree") && strcmp(name, "raw") && strcmp(name, "include");
        next = rst_skip_body(d, i + 1, text);
    }
    free(name);
    free(arg);
    return next;
}

static void rst_parse(struct guide_doc *d)
{
    struct rst_styles st = { .n = 0 };
    for (size_t i = 0; i < d->nlines;) {
        const char *s = d->lines[i];
        int no = (int)i + 1;
        if (guide_text_is_blank(s)) {
            guide_doc_add(d, EV_TEXT, no, xstrdup(""));
            i++;
            continue;
        }
        size_t h = rst_heading(d, i, &st);
        if (h) {
            i += h;
            continue;
        }
        if (guide_re_match(RE_RST_DIRECTIVE, s)) {
            i = rst_directive(d, i);
            continue;
        }
        if (!strncmp(s, "..", 2) && (s[2] == ' ' || s[2] == '\0')) {
            i = rst_skip_body(d, i + 1, false);     /* a comment or target */
            continue;
        }
        if (is_grid_border(s + indent_of(s)) && strchr(s, '-')) {
            i = rst_grid_table(d, i, NULL);
            continue;
        }
        if (guide_re_match(RE_CAPTION_AFTER, s)) {
            guide_doc_add(d, EV_CAPTION, no, guide_re_group(s, 1));
        } else if (strcmp(s, "|") && strcmp(s, "::")) {
            guide_doc_add(d, EV_TEXT, no, rst_inline(s));
        }
        i++;
    }
}

/* True for a heading underline that Markdown reads too (setext "===", "---"). */
static bool is_setext_underline(const char *u)
{
    return (u[0] == '=' || u[0] == '-') && guide_re_match(RE_RST_UNDERLINE, u);
}

/* Directives and grid tables, and underlined titles. A "===" or "---"
 * underline is a heading in Markdown too, so underlines of only those two
 * claim the text less strongly than markup that only rst has: less than
 * a Markdown pipe table. */
static void rst_detect(const struct guide_doc *d, struct guide_claim *c)
{
    size_t own = 0, setext = 0;
    for (size_t i = 0; i < d->nlines; i++) {
        const char *s = d->lines[i], *next = i + 1 < d->nlines ? d->lines[i + 1] : NULL;
        if (!strncmp(s, ".. csv-table::", 14) || !strncmp(s, ".. table::", 10) ||
            (is_grid_border(s) && strstr(s, "+-")))
            own += 3;
        else if (guide_re_match(RE_RST_DIRECTIVE, s))
            own++;
        else if (next && guide_re_match(RE_RST_UNDERLINE, next) && !guide_text_is_blank(s) &&
                 strlen(next) >= strlen(s) && strlen(s) > 2) {
            if (is_setext_underline(next))
                setext++;
            else
                own++;
        }
    }
    c->rank = own >= 3 ? CLAIM_OWN_MARKUP : own + setext >= 3 ? CLAIM_UNDERLINES : CLAIM_NONE;
    c->count = own + setext;
    snprintf(c->why, sizeof c->why, "detected from %zu rst directives, grid tables or "
             "underlines and %zu \"===\"/\"---\" underlines", own, setext);
}

const struct guide_layout_ops guide_layout_rst = {
    .name = "rst",
    .wants = "a csv-table, a table directive or a grid table",
    .headings = HEADINGS_ADORNED,
    .detect = rst_detect,
    .parse = rst_parse,
};
