/* guide_import.c - Performance Guide text to reference JSON.
 *
 * Four front ends (cells, rows, markdown, rst) turn the guide into one list
 * of events: headings, text lines, table captions and tables of raw cells.
 * One back end gives the headings their levels, splits each table into key
 * and value columns, links board columns to the "Evaluation Modules" table
 * and writes the JSON of benches/refs/README.md.
 *
 * Decisions worth knowing:
 * - A value cell that is not a number (nor n/a) is kept as {"text": ...}
 *   with a diagnostic, so a user can see what was not understood.
 * - A row with fewer cells than the header is padded with nulls (at the end
 *   for board tables, at the start for board-less ones, where short rows are
 *   totals) and reported; extra cells are dropped and reported.
 * - Headings that only name a board ("J721E-IDK-GW") are left out of the
 *   section path: the metric belongs to the benchmark, not to the board. */
#include "config.h"
#include "guide_import.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "util.h"

/* ---------------------------------------------------------------------
 * Patterns
 * ------------------------------------------------------------------- */

enum re_id {
    RE_HEADING_NUM,     /* "2.5.2.3.6. Stream", "2.2. Stream¶" */
    RE_CAPTION_BEFORE,  /* "Table 2.8 Stream Benchmarks" */
    RE_CAPTION_AFTER,   /* "Table: Stream" */
    RE_BOARD_CELL,      /* "am62xx_sk-fs: perf" */
    RE_BOARD_IN_ROW,    /* " j721e-idk-gw: " inside a rows-layout header */
    RE_VALUE,           /* "8869.96 (min 4996.43, max 12743.49)", "38%" */
    RE_VALUE_TAIL,      /* a value at the end of a rows-layout line */
    RE_NA,              /* "n/a", "NA", "-" */
    RE_UNIT_TAIL,       /* "name (unit)" */
    RE_NOTE_TAIL,       /* " (LOCAL_CPU_UTIL)" annotation */
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

static const char *const re_src[RE_COUNT] = {
    [RE_HEADING_NUM] = "^(\\d+(?:\\.\\d+)+)\\.\\s+(\\S.*?)\\s*(¶)?\\s*$",
    [RE_CAPTION_BEFORE] = "^Table\\s+\\d+(?:\\.\\d+)*\\.?\\s+(\\S.*?)\\s*$",
    [RE_CAPTION_AFTER] = "^Table:\\s*(.*?)\\s*$",
    [RE_BOARD_CELL] = "^([a-z0-9]+(?:[_-][a-z0-9]+)+):\\s*(.*?)\\s*$",
    [RE_BOARD_IN_ROW] = "(?:^|\\s)([a-z0-9]+(?:[_-][a-z0-9]+)+):\\s",
    [RE_VALUE] = "^(-?\\d+(?:\\.\\d+)?(?:[eE][-+]?\\d+)?)\\s*(%?)\\s*"
                 "(?:\\(\\s*min\\s+(-?\\d+(?:\\.\\d+)?)\\s*,\\s*max\\s+(-?\\d+(?:\\.\\d+)?)\\s*\\))?"
                 "\\s*%?$",
    [RE_VALUE_TAIL] = "(?:^|\\s)((?:n/a|N/A|-?\\d+(?:\\.\\d+)?%?)"
                      "(?:\\s*\\(min\\s+-?[\\d.]+,\\s*max\\s+-?[\\d.]+\\))?)\\s*$",
    [RE_NA] = "^(?:n/?a|-+|—|–)$",
    [RE_UNIT_TAIL] = "^(.*?)\\s*\\(([^()]*)\\)\\s*$",
    [RE_NOTE_TAIL] = "^(.*?)\\s*\\([A-Z][A-Z0-9_]*\\)\\s*$",
    [RE_COMMAND] = "^\\s*(?:[-•*]\\s+)?((?:time\\s+-v\\s+)?(?:\\./)?"
                   "(?:netperf|netserver|iperf3?|fio|openssl|runltp|stream_c|runDhrystone|"
                   "runWhetstone|lmbench|cyclictest|gst-launch-1\\.0)\\b.*?)\\s*$",
    [RE_CONTINUATION] = "^\\s*(-[A-Za-z]\\s.*?)\\s*$",
    [RE_EXECUTE] = "(?i)^\\s*(?:execute|run)\\b.*\\bwith the following\\s*:\\s*$",
    [RE_BULLET_PAIR] = "^\\s*[-•*]\\s+([^:]{2,40}?)\\s*:\\s+(\\S.*?)\\s*$",
    [RE_TOP_LEVEL] = "(?i)^(?:system benchmarks|boot-time measurement|alsa soc audio|"
                     "sensor capture|display|graphics|multimedia|machine learning|"
                     "ethernet(?: driver)?$|pcie|nand|ospi|qspi|uboot|spi flash|ufs|emmc|"
                     "sata|mmc/sd|mmcsd|usb|crypto|dcan|low power|introduction|"
                     "(?:generic )?setup details|performance numbers)",
    [RE_RST_UNDERLINE] = "^([=\\-~^\"'`#*+:._])\\1{2,}\\s*$",
    [RE_RST_DIRECTIVE] = "^\\.\\.\\s+([A-Za-z][A-Za-z0-9_-]*)::\\s*(.*?)\\s*$",
    [RE_RST_OPTION] = "^\\s+:([A-Za-z-]+):\\s*(.*?)\\s*$",
    [RE_MD_SEPARATOR] = "^\\|?(?:\\s*:?[-—–]{1,}:?\\s*\\|)+\\s*(?::?[-—–]+:?\\s*)?$",
    [RE_SETUP_SECTION] = "(?i)\\b(?:setup|configuration|details)\\b",
    [RE_SIZE_HEADER] = "(?i)\\b(?:size|bytes|frame|buffer|blocks|message)\\b",
    [RE_CLOCK] = "(?i)(\\d+(?:\\.\\d+)?)\\s*(GHz|MHz)",
    [RE_DDR_TYPE] = "\\b(LPDDR\\d+X?|DDR\\d+L?)\\b",
    [RE_DDR_RATE] = "(?i)(\\d+)\\s*MT/s",
};

static pcre2_code *re_code[RE_COUNT];
static pcre2_match_data *re_md;

static void re_init(void)
{
    if (re_md)
        return;
    for (int i = 0; i < RE_COUNT; i++) {
        int err;
        PCRE2_SIZE off;
        re_code[i] = pcre2_compile((PCRE2_SPTR)re_src[i], PCRE2_ZERO_TERMINATED,
                                   PCRE2_UTF, &err, &off, NULL);
        if (!re_code[i])
            die("guide_import: bad pattern %d at %zu", i, (size_t)off);
        pcre2_jit_compile(re_code[i], PCRE2_JIT_COMPLETE);
    }
    re_md = pcre2_match_data_create(8, NULL);
}

/* Matches s against pattern id; on success the captures are in re_md. */
static bool re_match(enum re_id id, const char *s)
{
    re_init();
    return pcre2_match(re_code[id], (PCRE2_SPTR)s, strlen(s), 0, 0, re_md, NULL) >= 0;
}

/* Capture n of the last match as a new string; NULL when it did not take part. */
static char *re_group(const char *s, int n)
{
    PCRE2_SIZE *ov = pcre2_get_ovector_pointer(re_md);
    if ((uint32_t)n >= pcre2_get_ovector_count(re_md) || ov[2 * n] == PCRE2_UNSET)
        return NULL;
    return xstrndup(s + ov[2 * n], ov[2 * n + 1] - ov[2 * n]);
}

static size_t re_start(int n)
{
    return pcre2_get_ovector_pointer(re_md)[2 * n];
}

/* ---------------------------------------------------------------------
 * The event model shared by the front ends
 * ------------------------------------------------------------------- */

struct grow_ {              /* one table row as raw cells */
    char **cells;
    size_t n;
    int line;
};

struct gtable {
    char **head;            /* header cells */
    size_t nhead;
    struct grow_ *rows;
    size_t nrows, caprows;
    int nkeys;              /* key columns when the front end knows, else -1 */
    int line;               /* caption or header line */
    char *title;            /* caption, if any */
    bool pad_front;         /* short rows miss their leading cells */
};

enum ev_kind { EV_HEADING, EV_TEXT, EV_CAPTION, EV_TABLE };

struct event {
    enum ev_kind kind;
    int line;
    char *text;             /* heading title, text line, caption */
    char *num;              /* heading number ("2.5.2.3.6"), or NULL */
    int style;              /* rst heading style rank, or 0 */
    int level;              /* computed heading level; 0 = document title */
    struct gtable *tab;
    char *command;          /* commands found in this heading's section */
};

struct doc {
    const char *name;
    struct diag *dg;
    char **lines;
    size_t nlines;
    struct event *ev;
    size_t nev, evcap;
};

static void warn(struct doc *d, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void warn(struct doc *d, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *m = xvasprintf(fmt, ap);
    va_end(ap);
    diag_add(d->dg, "%s:%d: %s", d->name, line, m);
    free(m);
}

static struct event *ev_add(struct doc *d, enum ev_kind kind, int line, char *text)
{
    xgrow(&d->ev, &d->evcap, d->nev + 1, sizeof *d->ev);
    struct event *e = &d->ev[d->nev++];
    memset(e, 0, sizeof *e);
    e->kind = kind;
    e->line = line;
    e->text = text;
    return e;
}

static struct gtable *tab_new(int line)
{
    struct gtable *t = xcalloc(1, sizeof *t);
    t->nkeys = -1;
    t->line = line;
    return t;
}

static void tab_add_row(struct gtable *t, char **cells, size_t n, int line)
{
    xgrow(&t->rows, &t->caprows, t->nrows + 1, sizeof *t->rows);
    t->rows[t->nrows++] = (struct grow_){ cells, n, line };
}

static void strv_free(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

static void tab_free(struct gtable *t)
{
    if (!t)
        return;
    strv_free(t->head, t->nhead);
    for (size_t r = 0; r < t->nrows; r++)
        strv_free(t->rows[r].cells, t->rows[r].n);
    free(t->rows);
    free(t->title);
    free(t);
}

static void doc_free(struct doc *d)
{
    for (size_t i = 0; i < d->nev; i++) {
        free(d->ev[i].text);
        free(d->ev[i].num);
        free(d->ev[i].command);
        tab_free(d->ev[i].tab);
    }
    free(d->ev);
    free(d->lines);
}

/* A growable vector of strings. */
struct strv {
    char **v;
    size_t n, cap;
};

static void sv_push(struct strv *s, char *str)
{
    xgrow(&s->v, &s->cap, s->n + 1, sizeof *s->v);
    s->v[s->n++] = str;
}

/* ---------------------------------------------------------------------
 * Small text helpers
 * ------------------------------------------------------------------- */

static bool is_blank(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return *s == '\0';
}

static char *trimdup(const char *s, size_t n)
{
    while (n && isspace((unsigned char)*s))
        s++, n--;
    while (n && isspace((unsigned char)s[n - 1]))
        n--;
    return xstrndup(s, n);
}

static size_t word_count(const char *s)
{
    size_t n = 0;
    bool in = false;
    for (; *s; s++) {
        bool sp = isspace((unsigned char)*s);
        if (!sp && !in)
            n++;
        in = !sp;
    }
    return n;
}

static bool is_na(const char *cell)
{
    return re_match(RE_NA, cell);
}

/* A cell that the cells layout may take as a value (number, n/a). */
static bool is_value(const char *cell)
{
    return re_match(RE_VALUE, cell) || is_na(cell);
}

/* The document title: "Linux 12.00.00 Performance Guide". */
static bool is_title_text(const char *s)
{
    return strstr(s, "Performance Guide") != NULL;
}

/* A short line that stands alone as a heading in the rows and Markdown
 * layouts, where headings below the numbered ones carry no mark. */
static bool looks_like_heading(const char *s)
{
    size_t n = strlen(s);
    if (n < 2 || n > 60 || word_count(s) > 8)
        return false;
    unsigned char c = (unsigned char)s[0];
    if (!(isupper(c) || isdigit(c)))
        return false;
    char last = s[n - 1];
    if (strchr(".:,;", last) || strchr(s, '=') || strchr(s, '|') || strstr(s, "http"))
        return false;
    bool letter = false;
    for (const char *p = s; *p; p++)
        letter |= isalpha((unsigned char)*p) != 0;
    if (!letter || !strcmp(s, "Warning") || !strcmp(s, "Note") || !strcmp(s, "Important"))
        return false;
    return !re_match(RE_COMMAND, s) && !re_match(RE_CAPTION_AFTER, s);
}

/* Splits text into NUL-terminated lines in place (it must be writable). */
static void split_lines(struct doc *d, char *text)
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
    while (d->nlines && is_blank(d->lines[d->nlines - 1]))
        d->nlines--;
}

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
static char *sanitize(struct doc *d, const char *text, size_t len)
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
        warn(d, first_line, "binary data (%zu NUL and %zu other non-text bytes); not a guide",
             nul, bad - nul);
        free(out);
        return NULL;
    }
    if (bad)
        warn(d, first_line, "%zu NUL, control or invalid UTF-8 bytes replaced", bad);
    return out;
}

/* ---------------------------------------------------------------------
 * Front end 1: "cells" - the rendered page, one table cell per line
 * ------------------------------------------------------------------- */

/* Cuts cells into rows of `nkeys` key cells and up to nval value cells;
 * a row ends early at a cell that is not a value, and the table ends at a
 * row without any value. Returns the number of complete rows; *used gets
 * the number of cells taken. With t set, the rows are added to it. */
static size_t cells_segment(char **cells, const int *lines, size_t n, size_t nkeys,
                            size_t nval, size_t *used, struct gtable *t)
{
    size_t i = 0, good = 0;
    while (i + nkeys <= n) {
        size_t j = i + nkeys, cnt = 0;
        while (j < n && cnt < nval && is_value(cells[j]))
            j++, cnt++;
        if (cnt == 0)
            break;
        good += cnt == nval;
        if (t) {
            char **row = xcalloc(j - i, sizeof *row);
            for (size_t k = i; k < j; k++)
                row[k - i] = xstrdup(cells[k]);
            tab_add_row(t, row, j - i, lines[i]);
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
    while (lead < n && lead < 12 && !is_value(cells[lead]))
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
            if (i > 0 && !is_value(cells[i]))
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
static size_t cells_table(struct doc *d, char **cells, const int *lines, size_t n,
                          struct gtable *t)
{
    size_t b0 = 0;
    while (b0 < n && b0 < 8 && !re_match(RE_BOARD_CELL, cells[b0]))
        b0++;
    size_t hw, nk;
    if (b0 < n && b0 < 8 && b0 > 0) {
        size_t b = b0;
        while (b < n && re_match(RE_BOARD_CELL, cells[b]))
            b++;
        hw = b;
        nk = b0;
    } else {
        cells_guess_shape(cells, lines, n, &hw, &nk);
        t->pad_front = true;
    }
    if (hw < 2 || hw > n) {
        warn(d, t->line, "table \"%s\": cannot find its header", t->title ? t->title : "");
        return 0;
    }
    t->head = xcalloc(hw, sizeof *t->head);
    for (size_t i = 0; i < hw; i++)
        t->head[i] = xstrdup(cells[i]);
    t->nhead = hw;
    t->nkeys = (int)nk;
    size_t used, nval = hw - nk;
    if (nk == 1 && hw < n && is_value(cells[hw]))
        nval = cells_numeric_period(cells + hw, n - hw, nval);
    cells_segment(cells + hw, lines + hw, n - hw, nk, nval, &used, t);
    return hw + used;
}

/* The "Name / Description" table: pairs of cells up to its "Table:" line. */
static size_t cells_evm(char **cells, const int *lines, size_t n, struct gtable *t)
{
    t->head = xcalloc(2, sizeof *t->head);
    t->head[0] = xstrdup(cells[0]);
    t->head[1] = xstrdup(cells[1]);
    t->nhead = 2;
    size_t i = 2;
    for (; i + 1 < n && !re_match(RE_CAPTION_AFTER, cells[i]); i += 2) {
        char **row = xcalloc(2, sizeof *row);
        row[0] = xstrdup(cells[i]);
        row[1] = xstrdup(cells[i + 1]);
        tab_add_row(t, row, 2, lines[i]);
    }
    return i;
}

static bool is_stop_line(const char *s)
{
    return re_match(RE_HEADING_NUM, s) || re_match(RE_CAPTION_BEFORE, s);
}

static void parse_cells(struct doc *d)
{
    char **cells = xcalloc(d->nlines + 1, sizeof *cells);
    int *lines = xcalloc(d->nlines + 1, sizeof *lines);
    for (size_t i = 0; i < d->nlines;) {
        const char *s = d->lines[i];
        int no = (int)i + 1;
        if (is_blank(s)) {
            ev_add(d, EV_TEXT, no, xstrdup(""));
            i++;
            continue;
        }
        bool caption = re_match(RE_CAPTION_BEFORE, s);
        char *title = caption ? re_group(s, 1) : NULL;
        bool evm = !caption && !strcmp(s, "Name");
        if (!caption && !evm) {
            if (re_match(RE_HEADING_NUM, s)) {
                struct event *e = ev_add(d, EV_HEADING, no, re_group(s, 2));
                e->num = re_group(s, 1);
            } else if (re_match(RE_CAPTION_AFTER, s)) {
                ev_add(d, EV_CAPTION, no, re_group(s, 1));
            } else {
                ev_add(d, EV_TEXT, no, trimdup(s, strlen(s)));
            }
            i++;
            continue;
        }
        /* gather the cells up to the next heading or caption */
        size_t n = 0, j = caption ? i + 1 : i;
        for (; j < d->nlines; j++) {
            if (is_blank(d->lines[j]))
                continue;
            if (is_stop_line(d->lines[j]) || (!evm && re_match(RE_CAPTION_AFTER, d->lines[j])))
                break;
            cells[n] = trimdup(d->lines[j], strlen(d->lines[j]));
            lines[n++] = (int)j + 1;
        }
        struct gtable *t = tab_new(no);
        t->title = title;
        size_t used = 0;
        if (evm && n >= 2 && !strcmp(cells[1], "Description"))
            used = cells_evm(cells, lines, n, t);
        else if (caption)
            used = cells_table(d, cells, lines, n, t);
        for (size_t k = 0; k < n; k++)
            free(cells[k]);
        if (used == 0) {
            tab_free(t);
            ev_add(d, EV_TEXT, no, trimdup(s, strlen(s)));
            i++;
            continue;
        }
        ev_add(d, EV_TABLE, no, NULL)->tab = t;
        /* resume after the last cell taken */
        i = (size_t)lines[used - 1];
    }
    free(cells);
    free(lines);
}

/* ---------------------------------------------------------------------
 * Front end 2: "rows" - one table row per line, cells split by spaces
 * ------------------------------------------------------------------- */

/* Splits a header line at its board keys: "Benchmarks j721e-idk-gw: perf". */
static bool rows_header(const char *s, struct gtable *t)
{
    if (!re_match(RE_BOARD_IN_ROW, s) || re_start(1) == 0)
        return false;
    struct strv v = {0};
    sv_push(&v, trimdup(s, re_start(1)));
    size_t pos = re_start(1);
    while (s[pos]) {
        const char *rest = s + pos;
        size_t next = strlen(rest);
        /* the next board key after this one's "key: " */
        const char *colon = strchr(rest, ':');
        if (colon && re_match(RE_BOARD_IN_ROW, colon + 1))
            next = (size_t)(colon + 1 - rest) + re_start(1);
        sv_push(&v, trimdup(rest, next));
        pos += next;
    }
    t->head = v.v;
    t->nhead = v.n;
    t->nkeys = 1;
    return true;
}

/* Peels up to nval values off the end of a row line; returns how many.
 * vals[] is filled right to left; *keylen is the length of the rest. */
static size_t rows_values(const char *s, size_t nval, char **vals, size_t *keylen)
{
    size_t end = strlen(s), got = 0;
    char *buf = xstrdup(s);
    while (got < nval) {
        buf[end] = '\0';
        if (!re_match(RE_VALUE_TAIL, buf))
            break;
        vals[nval - 1 - got] = re_group(buf, 1);
        got++;
        end = re_start(1);
        while (end && isspace((unsigned char)buf[end - 1]))
            end--;
    }
    free(buf);
    *keylen = end;
    return got;
}

/* Reads the rows under a header; returns the index of the first line after. */
static size_t rows_body(struct doc *d, size_t i, struct gtable *t)
{
    size_t nval = t->nhead - 1;
    char **vals = xcalloc(nval, sizeof *vals);
    for (; i < d->nlines && !is_blank(d->lines[i]); i++) {
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
        row[0] = trimdup(s, keylen);
        for (size_t k = 0; k < got; k++)
            row[1 + k] = vals[nval - got + k], vals[nval - got + k] = NULL;
        tab_add_row(t, row, 1 + got, line);
    }
    free(vals);
    return i;
}

/* "J721e EVM J721e Evaluation Module rev E2 ..." -> name, description:
 * the description starts where the name's first word comes back. */
static void rows_evm_row(const char *s, struct gtable *t, int line)
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
    row[0] = again ? trimdup(s, (size_t)(again - s)) : xstrdup(s);
    row[1] = xstrdup(again ? again : "");
    tab_add_row(t, row, 2, line);
}

static void parse_rows(struct doc *d)
{
    for (size_t i = 0; i < d->nlines;) {
        const char *s = d->lines[i];
        int no = (int)i + 1;
        struct gtable *t = tab_new(no);
        if (is_blank(s)) {
            ev_add(d, EV_TEXT, no, xstrdup(""));
        } else if (re_match(RE_HEADING_NUM, s)) {
            struct event *e = ev_add(d, EV_HEADING, no, re_group(s, 2));
            e->num = re_group(s, 1);
        } else if (re_match(RE_CAPTION_AFTER, s)) {
            ev_add(d, EV_CAPTION, no, re_group(s, 1));
        } else if (!strcmp(s, "Name Description")) {
            t->head = xcalloc(2, sizeof *t->head);
            t->head[0] = xstrdup("Name");
            t->head[1] = xstrdup("Description");
            t->nhead = 2;
            for (i++; i < d->nlines && !is_blank(d->lines[i]); i++)
                rows_evm_row(d->lines[i], t, (int)i + 1);
            ev_add(d, EV_TABLE, no, NULL)->tab = t;
            continue;
        } else if (!isspace((unsigned char)s[0]) && rows_header(s, t)) {
            i = rows_body(d, i + 1, t);
            ev_add(d, EV_TABLE, no, NULL)->tab = t;
            continue;
        } else if ((i == 0 || is_blank(d->lines[i - 1])) &&
                   (i + 1 >= d->nlines || is_blank(d->lines[i + 1])) && looks_like_heading(s)) {
            ev_add(d, EV_HEADING, no, xstrdup(s));
        } else {
            ev_add(d, EV_TEXT, no, trimdup(s, strlen(s)));
        }
        tab_free(t);
        i++;
    }
}

/* ---------------------------------------------------------------------
 * Front end 3: Markdown pipe tables (and their one-cell-per-line breakage)
 * ------------------------------------------------------------------- */

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
    struct strv v = {0};
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
            sv_push(&v, trimdup(sb.buf ? sb.buf : "", sb.len));
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

static void md_emit(struct doc *d, struct gtable *t)
{
    if (t->nhead)
        ev_add(d, EV_TABLE, t->line, NULL)->tab = t;
    else
        tab_free(t);
}

/* A run of "| ... |" lines; a row that repeats the header's value cells
 * under a new first cell starts a new table ("| SBL Stage2 ... | Time (ms) |"). */
static size_t md_table(struct doc *d, size_t i)
{
    struct gtable *t = NULL;
    for (; i < d->nlines && md_is_row(d->lines[i]); i++) {
        const char *s = d->lines[i];
        if (re_match(RE_MD_SEPARATOR, s))
            continue;
        size_t n;
        char **cells = md_split(s, &n);
        bool sep_next = i + 1 < d->nlines && re_match(RE_MD_SEPARATOR, d->lines[i + 1]);
        for (size_t c = 1; c < n && sep_next; c++)
            sep_next = !is_value(cells[c]);     /* a header holds no numbers */
        if (t && t->nrows && (sep_next || (n == t->nhead && n >= 2 &&
                                           same_cells(cells, t->head, 1, n) &&
                                           strcmp(cells[0], t->head[0])))) {
            md_emit(d, t);
            t = NULL;
        }
        if (!t) {
            t = tab_new((int)i + 1);
            t->head = cells;
            t->nhead = n;
            continue;
        }
        tab_add_row(t, cells, n, (int)i + 1);
    }
    if (t)
        md_emit(d, t);
    return i;
}

static char *md_cell_text(const char *s)
{
    size_t n = strlen(s);
    while (n && (isspace((unsigned char)s[n - 1]) || s[n - 1] == '|'))
        n--;
    return trimdup(s, n);
}

/* Cells one per line: the header cells, a "|---|---|" line giving the
 * column count, then the body cells in row order. */
static size_t md_cell_table(struct doc *d, size_t i)
{
    struct gtable *t = tab_new((int)i + 1);
    struct strv head = {0};
    for (; i < d->nlines && md_is_cell_line(d->lines[i]); i++)
        sv_push(&head, md_cell_text(d->lines[i]));
    size_t ncol = 0;
    for (const char *p = d->lines[i]; *p; p++)
        ncol += p[0] == '|' && p[1] != '\0';
    if (ncol != head.n)
        warn(d, (int)i + 1, "table separator has %zu columns, header has %zu", ncol, head.n);
    t->head = head.v;
    t->nhead = head.n;
    i++;
    struct strv row = {0};
    int rline = 0;
    for (; i < d->nlines && md_is_cell_line(d->lines[i]); i++) {
        if (row.n == 0)
            rline = (int)i + 1;
        sv_push(&row, md_cell_text(d->lines[i]));
        if (row.n == t->nhead) {
            tab_add_row(t, row.v, row.n, rline);
            row = (struct strv){0};
        }
    }
    if (row.n) {
        warn(d, rline, "table ends inside a row (%zu of %zu cells)", row.n, t->nhead);
        tab_add_row(t, row.v, row.n, rline);
    }
    md_emit(d, t);
    return i;
}

static void parse_markdown(struct doc *d)
{
    for (size_t i = 0; i < d->nlines;) {
        const char *s = d->lines[i];
        int no = (int)i + 1;
        if (md_is_row(s)) {
            i = md_table(d, i);
            continue;
        }
        if (md_is_cell_line(s)) {
            size_t j = i;
            while (j < d->nlines && md_is_cell_line(d->lines[j]))
                j++;
            if (j < d->nlines && re_match(RE_MD_SEPARATOR, d->lines[j])) {
                i = md_cell_table(d, i);
                continue;
            }
        }
        if (is_blank(s)) {
            ev_add(d, EV_TEXT, no, xstrdup(""));
        } else if (re_match(RE_HEADING_NUM, s)) {
            struct event *e = ev_add(d, EV_HEADING, no, re_group(s, 2));
            e->num = re_group(s, 1);
        } else if (re_match(RE_CAPTION_AFTER, s)) {
            ev_add(d, EV_CAPTION, no, re_group(s, 1));
        } else if (looks_like_heading(s)) {
            ev_add(d, EV_HEADING, no, trimdup(s, strlen(s)));
        } else {
            ev_add(d, EV_TEXT, no, trimdup(s, strlen(s)));
        }
        i++;
    }
}

/* ---------------------------------------------------------------------
 * Front end 4: reStructuredText source
 * ------------------------------------------------------------------- */

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
    char *t = trimdup(out, strlen(out));
    free(out);
    return t;
}

/* Parses one CSV record (docutils: "," and doubled quotes); NULL at end. */
static char **csv_split(const char *s, char delim, size_t *n)
{
    struct strv v = {0};
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
        sv_push(&v, rst_inline(sb.buf ? sb.buf : ""));
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
static size_t rst_csv_table(struct doc *d, size_t i, const char *title)
{
    struct gtable *t = tab_new((int)i + 1);
    t->title = title[0] ? rst_inline(title) : NULL;
    char delim = ',';
    long header_rows = 0;
    char *header = NULL;
    size_t base = 0;
    for (i++; i < d->nlines && re_match(RE_RST_OPTION, d->lines[i]); i++) {
        char *opt = re_group(d->lines[i], 1), *val = re_group(d->lines[i], 2);
        if (!strcmp(opt, "header"))
            header = xstrdup(val);
        else if (!strcmp(opt, "header-rows"))
            header_rows = strtol(val, NULL, 10);
        else if (!strcmp(opt, "delim"))
            delim = !strcmp(val, "tab") ? '\t' : !strcmp(val, "space") ? ' ' : val[0] ? val[0] : ',';
        else if (!strcmp(opt, "file") || !strcmp(opt, "url"))
            warn(d, (int)i + 1, "csv-table :%s: is not supported; table skipped", opt);
        free(opt);
        free(val);
    }
    struct strbuf rec;
    sb_init(&rec);
    int rline = 0;
    for (; i < d->nlines; i++) {
        const char *s = d->lines[i];
        if (is_blank(s)) {
            if (rec.len == 0)
                continue;
        } else if (!indent_of(s)) {
            break;
        }
        if (!base && !is_blank(s))
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
        tab_add_row(t, cells, n, rline);
    }
    if (rec.len)
        warn(d, rline, "csv-table \"%s\": unterminated quoted field", title);
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
    md_emit(d, t);
    return i;
}

/* Column boundaries of a grid table border "+----+-----+". */
static size_t grid_bounds(const char *s, size_t *pos, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; s[i] && n < max; i++)
        if (s[i] == '+')
            pos[n++] = i;
    return n;
}

static bool grid_border(const char *s)
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
            char *piece = trimdup(s + a, b - a);
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

static size_t rst_grid_table(struct doc *d, size_t i, char *title)
{
    size_t pos[64];
    const char *first = d->lines[i] + indent_of(d->lines[i]);
    size_t ind = indent_of(d->lines[i]);
    size_t nb = grid_bounds(first, pos, 64);
    size_t ncol = nb ? nb - 1 : 0;
    struct gtable *t = tab_new((int)i + 1);
    t->title = title;
    struct strbuf *cells = xcalloc(ncol ? ncol : 1, sizeof *cells);
    struct strv rowsv = {0};
    bool any = false;
    int rline = 0;
    struct grow_ *pending = NULL;
    (void)pending;
    for (i++; i < d->nlines; i++) {
        const char *s = d->lines[i];
        if (strlen(s) < ind || (s[ind] != '|' && s[ind] != '+'))
            break;
        s += ind;
        if (grid_border(s)) {
            if (any) {
                char **row = grid_take(cells, ncol);
                if (strchr(s, '=') && !t->head) {
                    t->head = row;
                    t->nhead = ncol;
                } else {
                    tab_add_row(t, row, ncol, rline);
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
        warn(d, rline, "grid table ends without its bottom border");
        tab_add_row(t, grid_take(cells, ncol), ncol, rline);
    }
    for (size_t c = 0; c < ncol; c++)
        sb_free(&cells[c]);
    free(cells);
    free(rowsv.v);
    if (!t->head && t->nrows) {
        t->head = t->rows[0].cells;     /* docutils would have none */
        t->nhead = t->rows[0].n;
        memmove(t->rows, t->rows + 1, --t->nrows * sizeof *t->rows);
    }
    md_emit(d, t);
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
static size_t rst_heading(struct doc *d, size_t i, struct rst_styles *st)
{
    const char *s = d->lines[i];
    if (i + 1 >= d->nlines || is_blank(s))
        return 0;
    bool over = re_match(RE_RST_UNDERLINE, s);
    if (over) {
        if (i + 2 >= d->nlines || !re_match(RE_RST_UNDERLINE, d->lines[i + 2]) ||
            d->lines[i + 2][0] != s[0] || is_blank(d->lines[i + 1]))
            return 0;
        struct event *e = ev_add(d, EV_HEADING, (int)i + 2, rst_inline(d->lines[i + 1]));
        e->style = rst_style(st, s[0], true);
        return 3;
    }
    const char *u = d->lines[i + 1];
    if (indent_of(s) || !re_match(RE_RST_UNDERLINE, u) || strlen(u) + 1 < strlen(s) / 2 + 1 ||
        strlen(u) < 3)
        return 0;
    struct event *e = ev_add(d, EV_HEADING, (int)i + 1, rst_inline(s));
    e->style = rst_style(st, u[0], false);
    return 2;
}

/* Skips a directive's indented body; returns the next line. */
static size_t rst_skip_body(struct doc *d, size_t i, bool emit)
{
    for (; i < d->nlines && (is_blank(d->lines[i]) || indent_of(d->lines[i])); i++)
        if (emit && !is_blank(d->lines[i]))
            ev_add(d, EV_TEXT, (int)i + 1, rst_inline(d->lines[i]));
    return i;
}

static size_t rst_directive(struct doc *d, size_t i)
{
    const char *s = d->lines[i];
    char *name = re_group(s, 1), *arg = re_group(s, 2);
    size_t next;
    if (!strcmp(name, "csv-table")) {
        next = rst_csv_table(d, i, arg);
    } else if (!strcmp(name, "table")) {
        /* ".. table:: Title" around a grid table */
        size_t j = i + 1;
        while (j < d->nlines && (is_blank(d->lines[j]) || re_match(RE_RST_OPTION, d->lines[j])))
            j++;
        if (j < d->nlines && indent_of(d->lines[j]) &&
            grid_border(d->lines[j] + indent_of(d->lines[j]))) {
            next = rst_grid_table(d, j, arg[0] ? rst_inline(arg) : NULL);
        } else {
            next = rst_skip_body(d, i + 1, true);
        }
    } else if (!strcmp(name, "list-table")) {
        warn(d, (int)i + 1, "list-table is not supported; table \"%s\" skipped", arg);
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

static void parse_rst(struct doc *d)
{
    struct rst_styles st = { .n = 0 };
    for (size_t i = 0; i < d->nlines;) {
        const char *s = d->lines[i];
        int no = (int)i + 1;
        if (is_blank(s)) {
            ev_add(d, EV_TEXT, no, xstrdup(""));
            i++;
            continue;
        }
        size_t h = rst_heading(d, i, &st);
        if (h) {
            i += h;
            continue;
        }
        if (re_match(RE_RST_DIRECTIVE, s)) {
            i = rst_directive(d, i);
            continue;
        }
        if (!strncmp(s, "..", 2) && (s[2] == ' ' || s[2] == '\0')) {
            i = rst_skip_body(d, i + 1, false);     /* a comment or target */
            continue;
        }
        if (grid_border(s + indent_of(s)) && strchr(s, '-')) {
            i = rst_grid_table(d, i, NULL);
            continue;
        }
        if (re_match(RE_CAPTION_AFTER, s)) {
            ev_add(d, EV_CAPTION, no, re_group(s, 1));
        } else if (strcmp(s, "|") && strcmp(s, "::")) {
            ev_add(d, EV_TEXT, no, rst_inline(s));
        }
        i++;
    }
}

/* ---------------------------------------------------------------------
 * Layout detection
 * ------------------------------------------------------------------- */

static enum guide_layout detect_layout(struct doc *d)
{
    size_t rst = 0, md = 0, mdcell = 0, rows = 0, cells = 0;
    for (size_t i = 0; i < d->nlines; i++) {
        const char *s = d->lines[i];
        if (!strncmp(s, ".. csv-table::", 14) || !strncmp(s, ".. table::", 10) ||
            (grid_border(s) && strstr(s, "+-")))
            rst += 3;
        else if (i + 1 < d->nlines && re_match(RE_RST_UNDERLINE, d->lines[i + 1]) &&
                 !is_blank(s) && strlen(d->lines[i + 1]) >= strlen(s) && strlen(s) > 2)
            rst++;
        if (md_is_row(s))
            md++;
        else if (re_match(RE_MD_SEPARATOR, s))
            mdcell += 2;
        if (re_match(RE_BOARD_CELL, s))
            cells++;
        else if (!isspace((unsigned char)s[0]) && re_match(RE_BOARD_IN_ROW, s) && re_start(1) > 0)
            rows++;
        if (re_match(RE_CAPTION_BEFORE, s))
            cells++;
    }
    if (rst >= 3)
        return LAYOUT_RST;
    if (md + mdcell >= 2)
        return LAYOUT_MARKDOWN;
    if (rows && rows >= cells)
        return LAYOUT_ROWS;
    if (cells)
        return LAYOUT_CELLS;
    return LAYOUT_AUTO;
}

/* ---------------------------------------------------------------------
 * Back end 1: heading levels and section paths
 * ------------------------------------------------------------------- */

static size_t num_depth(const char *num)
{
    size_t n = 1;
    for (; *num; num++)
        n += *num == '.';
    return n;
}

/* True when the headings are numbered but the numbers say nothing about
 * nesting (every heading "2.2."). */
static bool numbers_flat(struct doc *d)
{
    const char *first = NULL;
    size_t same = 0, total = 0;
    for (size_t i = 0; i < d->nev; i++) {
        struct event *e = &d->ev[i];
        if (e->kind != EV_HEADING || !e->num || is_title_text(e->text))
            continue;
        if (!first)
            first = e->num;
        total++;
        same += !strcmp(first, e->num);
    }
    return total > 2 && same == total;
}

static void levels_numbered(struct doc *d)
{
    size_t base = 0, min = 99;
    for (size_t i = 0; i < d->nev; i++) {
        struct event *e = &d->ev[i];
        if (e->kind == EV_HEADING && e->num) {
            size_t dep = num_depth(e->num);
            if (is_title_text(e->text) && dep > base)
                base = dep;
            if (!is_title_text(e->text) && dep < min)
                min = dep;
        }
    }
    if (base == 0 || base >= min)
        base = min == 99 ? 0 : min - 1;
    int last = 0;
    for (size_t i = 0; i < d->nev; i++) {
        struct event *e = &d->ev[i];
        if (e->kind != EV_HEADING)
            continue;
        if (is_title_text(e->text)) {
            e->level = 0;
        } else if (e->num) {
            size_t dep = num_depth(e->num);
            e->level = dep > base ? (int)(dep - base) : 1;
            last = e->level;
        } else {
            e->level = last + 1;
        }
    }
}

/* Next event after i that is not a blank line. */
static struct event *next_content(struct doc *d, size_t i)
{
    for (size_t j = i + 1; j < d->nev; j++)
        if (d->ev[j].kind != EV_TEXT || d->ev[j].text[0])
            return &d->ev[j];
    return NULL;
}

static const char *last_word(const char *s)
{
    const char *sp = strrchr(s, ' ');
    return sp ? sp + 1 : s;
}

/* Headings without usable numbers (every one "2.2." or none at all):
 * - a heading followed directly by another heading is a parent: level 1,
 *   or one below the parent right before it;
 *   a well-known top-level title ("Ethernet", "CRYPTO Driver") is level 1;
 * - a heading ending in the same word as the current level-1 heading
 *   ("EMMC Performance" after "IPC performance") is its sibling;
 * - any other heading is a sibling of the previous one, or its child
 *   when the previous one is a level-1 parent or top-level title. */
static void levels_inferred(struct doc *d)
{
    struct event *prev = NULL, *top = NULL, *last_num = NULL;
    bool prev_parent = false, prev_container = false;
    bool seen = false;
    for (size_t i = 0; i < d->nev; i++) {
        struct event *e = &d->ev[i];
        if (e->kind != EV_HEADING)
            continue;
        struct event *nx = next_content(d, i);
        if (is_title_text(e->text) || (!seen && !prev && i == 0 && nx &&
                                       strcasestr(e->text, "performance") &&
                                       !re_match(RE_TOP_LEVEL, e->text))) {
            e->level = 0;
            seen = true;
            continue;
        }
        seen = true;
        bool parent = nx && nx->kind == EV_HEADING && !is_title_text(nx->text);
        bool known = re_match(RE_TOP_LEVEL, e->text);
        if (!e->num && last_num) {
            /* an unmarked heading in a numbered guide sits below the last
             * numbered one ("TCP Bidirectional Throughput") */
            e->level = last_num->level + 1;
            prev = e;
            prev_parent = prev_container = false;
            continue;
        }
        if (prev && prev_parent && !known) {
            e->level = prev->level + 1;
        } else if (known || parent) {
            e->level = 1;
        } else if (top && !strcasecmp(last_word(top->text), last_word(e->text)) &&
                   strlen(last_word(e->text)) > 3) {
            e->level = 1;
        } else if (prev) {
            e->level = prev->level == 1 && prev_container ? 2 : prev->level;
        } else {
            e->level = 1;
        }
        if (e->level == 1)
            top = e;
        if (e->num)
            last_num = e;
        prev_container = e->level == 1 && (known || parent);
        prev_parent = parent;
        prev = e;
    }
}

/* rst: the style rank; a style used once, first, is the document title. */
static void levels_rst(struct doc *d)
{
    size_t first_uses = 0;
    for (size_t i = 0; i < d->nev; i++)
        if (d->ev[i].kind == EV_HEADING && d->ev[i].style == 1)
            first_uses++;
    int shift = first_uses == 1 ? 1 : 0;
    for (size_t i = 0; i < d->nev; i++) {
        struct event *e = &d->ev[i];
        if (e->kind != EV_HEADING)
            continue;
        e->level = is_title_text(e->text) || (shift && e->style == 1) ? 0 : e->style - shift;
        if (e->level < 0)
            e->level = 0;
    }
}

static void assign_levels(struct doc *d, enum guide_layout layout)
{
    bool numbered = false;
    for (size_t i = 0; i < d->nev; i++)
        numbered |= d->ev[i].kind == EV_HEADING && d->ev[i].num != NULL;
    if (layout == LAYOUT_RST)
        levels_rst(d);
    else if (numbered && !numbers_flat(d))
        levels_numbered(d);
    else
        levels_inferred(d);
}

/* ---------------------------------------------------------------------
 * Back end 2: cells to values, headers to columns
 * ------------------------------------------------------------------- */

/* A JSON number: an integer when printed without a fraction. */
static json_t *json_num(const char *s)
{
    if (!strpbrk(s, ".eE")) {
        errno = 0;
        long long v = strtoll(s, NULL, 10);
        if (!errno)
            return json_integer(v);
    }
    return json_real(strtod(s, NULL));
}

/* One value cell: null, {"avg", "min", "max"} or {"text"}. */
static json_t *value_json(struct doc *d, const char *cell, int line, bool *text)
{
    *text = false;
    if (!cell || !cell[0] || is_na(cell))
        return json_null();
    if (re_match(RE_VALUE, cell)) {
        char *a = re_group(cell, 1), *mn = re_group(cell, 3), *mx = re_group(cell, 4);
        json_t *o = json_object();
        json_object_set_new(o, "avg", json_num(a));
        if (mn)
            json_object_set_new(o, "min", json_num(mn));
        if (mx)
            json_object_set_new(o, "max", json_num(mx));
        free(a);
        free(mn);
        free(mx);
        return o;
    }
    *text = true;
    (void)d;
    (void)line;
    json_t *o = json_object();
    json_object_set_new(o, "text", json_string(cell));
    return o;
}

/* "THROUGHPUT (Mbits/sec)" -> name, unit; "CPU Load % (LOCAL_CPU_UTIL)"
 * -> "CPU Load", "%"; "Boot time in seconds: avg(min,max)" stays whole. */
static void split_name_unit(const char *s, char **name, char **unit)
{
    char *work = xstrdup(s);
    if (re_match(RE_NOTE_TAIL, work)) {
        char *w2 = re_group(work, 1);
        free(work);
        work = w2;
    }
    *unit = NULL;
    size_t n = strlen(work);
    if (re_match(RE_UNIT_TAIL, work) && !strchr(work + re_start(2), ',')) {
        char *u = re_group(work, 2);
        char *nm = re_group(work, 1);
        *unit = u[0] ? u : (free(u), (char *)NULL);
        free(work);
        work = nm;
    } else if (n > 2 && work[n - 1] == '%' && work[n - 2] == ' ') {
        *unit = xstrdup("%");
        work[n - 2] = '\0';
    }
    *name = trimdup(work, strlen(work));
    free(work);
}

/* A row key "copy (mb/s)" -> "copy", "mb/s" when the unit is one word. */
static char *split_key_unit(const char *s, char **unit)
{
    *unit = NULL;
    if (re_match(RE_UNIT_TAIL, s) && re_start(2) > 2) {
        char *u = re_group(s, 2), *name = re_group(s, 1);
        if (name[0] && !strpbrk(u, " \t,") && strlen(u) <= 24) {
            *unit = u[0] ? u : (free(u), (char *)NULL);
            return name;
        }
        free(u);
        free(name);
    }
    return xstrdup(s);
}

/* How many leading columns of a board-less table are keys: the first
 * always; the next ones while they hold text or are sizes, counts. */
static size_t guess_nkeys(struct gtable *t, size_t first_board)
{
    if (first_board < t->nhead)
        return first_board ? first_board : 1;
    size_t k = 1;
    while (k + 1 < t->nhead) {
        size_t text = 0, nums = 0, frac = 0;
        for (size_t r = 0; r < t->nrows; r++) {
            const char *c = k < t->rows[r].n ? t->rows[r].cells[k] : "";
            if (!c[0] || is_na(c))
                continue;
            if (re_match(RE_VALUE, c)) {
                nums++;
                frac += strchr(c, '.') != NULL;
            } else {
                text++;
            }
        }
        bool key = (text && text >= nums) ||
                   (re_match(RE_SIZE_HEADER, t->head[k]) && frac == 0 && nums);
        if (!key)
            break;
        k++;
    }
    return k;
}

/* ---------------------------------------------------------------------
 * Back end 3: the walk over the events
 * ------------------------------------------------------------------- */

struct ctx_rec {            /* setup facts for the board-less tables */
    size_t scope;           /* heading event index, or SIZE_MAX for the document */
    json_t *pairs;
};

struct board_rec {
    char *name, *description, *key;
    int line;
};

struct walk {
    struct doc *d;
    size_t stack[16];       /* heading event indices per level (1-based) */
    int depth;
    struct strv keys;       /* board keys seen in columns, in order */
    struct ctx_rec *ctx;
    size_t nctx, capctx;
    struct board_rec *boards;
    size_t nboards, capboards;
    json_t *tables;
    struct strv lastcmd;    /* dedupe of command lines per section */
    size_t cmd_section;
    int exec_state;         /* 0 none, 1 after "Execute ... :", 2 inside block */
    json_t *last_table;     /* for "Table: X" captions after a table */
    bool last_was_table;
    struct strv boardheads; /* heading texts dropped as board names */
};

static size_t cur_section(struct walk *w)
{
    return w->depth ? w->stack[w->depth] : SIZE_MAX;
}

static void push_heading(struct walk *w, size_t idx)
{
    int lvl = w->d->ev[idx].level;
    if (lvl <= 0)
        return;
    if (lvl > 15)
        lvl = 15;
    for (int l = w->depth + 1; l < lvl; l++)
        w->stack[l] = SIZE_MAX;         /* a level skipped */
    w->stack[lvl] = idx;
    w->depth = lvl;
    w->exec_state = 0;
}

static void add_command(struct walk *w, const char *line)
{
    size_t sec = cur_section(w);
    if (sec == SIZE_MAX)
        return;
    struct event *h = &w->d->ev[sec];
    if (h->command && strstr(h->command, line))
        return;
    char *c = h->command ? xasprintf("%s\n%s", h->command, line) : xstrdup(line);
    free(h->command);
    h->command = c;
}

/* Commands: the lines after "Execute ... with the following:", and
 * netperf/fio/openssl ... lines with their "-k ..." continuations. */
static void walk_text(struct walk *w, struct event *e)
{
    const char *s = e->text;
    if (!s[0]) {
        if (w->exec_state == 2)
            w->exec_state = 0;
        return;
    }
    w->last_was_table = false;
    if (re_match(RE_EXECUTE, s)) {
        w->exec_state = 1;
        return;
    }
    if (w->exec_state) {
        w->exec_state = 2;
        add_command(w, s);
        return;
    }
    if (re_match(RE_COMMAND, s)) {
        char *c = re_group(s, 1);
        add_command(w, c);
        free(c);
        w->cmd_section = 1;
        return;
    }
    if (w->cmd_section && re_match(RE_CONTINUATION, s)) {
        char *c = re_group(s, 1);
        add_command(w, c);
        free(c);
        return;
    }
    w->cmd_section = 0;
    if (re_match(RE_BULLET_PAIR, s)) {
        char *k = re_group(s, 1), *v = re_group(s, 2);
        json_t *pair = json_pack("[s s]", k, v);
        free(k);
        free(v);
        xgrow(&w->ctx, &w->capctx, w->nctx + 1, sizeof *w->ctx);
        w->ctx[w->nctx].scope = cur_section(w);
        w->ctx[w->nctx].pairs = json_array();
        json_array_append_new(w->ctx[w->nctx++].pairs, pair);
    }
}

static bool section_in_scope(struct walk *w, size_t scope)
{
    if (scope == SIZE_MAX)
        return true;
    for (int l = 1; l <= w->depth; l++)
        if (w->stack[l] == scope)
            return true;
    return false;
}

static json_t *context_for(struct walk *w)
{
    json_t *arr = json_array();
    for (size_t i = 0; i < w->nctx; i++) {
        if (!section_in_scope(w, w->ctx[i].scope))
            continue;
        size_t j;
        json_t *p;
        json_array_foreach(w->ctx[i].pairs, j, p)
            json_array_append(arr, p);
    }
    return arr;
}

static const char *command_for(struct walk *w)
{
    for (int l = w->depth; l >= 1; l--)
        if (w->stack[l] != SIZE_MAX && w->d->ev[w->stack[l]].command)
            return w->d->ev[w->stack[l]].command;
    return NULL;
}

static bool is_board_heading(struct walk *w, const char *text)
{
    for (size_t i = 0; i < w->keys.n; i++)
        if (!strcasecmp(w->keys.v[i], text))
            return true;
    return false;
}

static json_t *section_json(struct walk *w, const char **innermost)
{
    json_t *arr = json_array();
    *innermost = NULL;
    for (int l = 1; l <= w->depth; l++) {
        if (w->stack[l] == SIZE_MAX)
            continue;
        const char *t = w->d->ev[w->stack[l]].text;
        if (is_board_heading(w, t))
            continue;
        json_array_append_new(arr, json_string(t));
        *innermost = t;
    }
    return arr;
}

static void walk_evm(struct walk *w, struct gtable *t)
{
    for (size_t r = 0; r < t->nrows; r++) {
        struct grow_ *row = &t->rows[r];
        if (row->n < 2)
            continue;
        xgrow(&w->boards, &w->capboards, w->nboards + 1, sizeof *w->boards);
        w->boards[w->nboards++] = (struct board_rec){
            xstrdup(row->cells[0]), xstrdup(row->cells[1]), NULL, row->line };
    }
}

static void walk_context_table(struct walk *w, size_t idx, struct gtable *t)
{
    size_t sec = cur_section(w);
    /* "Setup Details" sections set up what follows their parent */
    if (sec != SIZE_MAX && re_match(RE_SETUP_SECTION, w->d->ev[sec].text)) {
        int l = w->depth - 1;
        while (l >= 1 && w->stack[l] == SIZE_MAX)
            l--;
        sec = l >= 1 ? w->stack[l] : SIZE_MAX;
    }
    (void)idx;
    xgrow(&w->ctx, &w->capctx, w->nctx + 1, sizeof *w->ctx);
    json_t *pairs = json_array();
    for (size_t r = 0; r < t->nrows; r++)
        if (t->rows[r].n >= 2)
            json_array_append_new(pairs, json_pack("[s s]", t->rows[r].cells[0],
                                                   t->rows[r].cells[1]));
    w->ctx[w->nctx++] = (struct ctx_rec){ sec, pairs };
}

static void remember_key(struct walk *w, const char *key)
{
    for (size_t i = 0; i < w->keys.n; i++)
        if (!strcmp(w->keys.v[i], key))
            return;
    sv_push(&w->keys, xstrdup(key));
}

static json_t *columns_json(struct walk *w, struct gtable *t, size_t nk, bool *any_unit,
                            bool *has_board)
{
    json_t *cols = json_array();
    *any_unit = *has_board = false;
    for (size_t c = nk; c < t->nhead; c++) {
        const char *h = t->head[c];
        char *board = NULL, *rest;
        if (re_match(RE_BOARD_CELL, h)) {
            board = re_group(h, 1);
            rest = re_group(h, 2);
            remember_key(w, board);
            *has_board = true;
        } else {
            rest = xstrdup(h);
        }
        char *name, *unit;
        split_name_unit(rest, &name, &unit);
        *any_unit |= unit != NULL;
        json_t *o = json_object();
        json_object_set_new(o, "header", json_string(h));
        json_object_set_new(o, "board", board ? json_string(board) : json_null());
        json_object_set_new(o, "name", json_string(name));
        json_object_set_new(o, "unit", unit ? json_string(unit) : json_null());
        json_array_append_new(cols, o);
        free(board);
        free(rest);
        free(name);
        free(unit);
    }
    return cols;
}

/* Where the value cells of a row go: slot[i] is the column of cell i.
 * Short rows: when every board has the same columns and the table's
 * usual row lacks the same number per board (000's UDP tables print no
 * datagram size), the cells fill each board's last columns in turn;
 * otherwise they fill from the start (from the end for board-less
 * tables, where short rows are totals). */
static void value_slots(struct gtable *t, size_t nk, size_t have, size_t group,
                        size_t lack, size_t *slot)
{
    size_t nval = t->nhead - nk;
    if (have >= nval) {
        for (size_t i = 0; i < nval; i++)
            slot[i] = i;
        return;
    }
    if (group && lack && lack < group) {
        size_t per = group - lack;
        for (size_t i = 0; i < have; i++)
            slot[i] = (i / per) * group + lack + i % per;
        return;
    }
    size_t pad = t->pad_front ? nval - have : 0;
    for (size_t i = 0; i < have; i++)
        slot[i] = pad + i;
}

static json_t *row_json(struct walk *w, struct gtable *t, struct grow_ *row, size_t nk,
                        bool key_units, const char *title, size_t group, size_t lack)
{
    struct doc *d = w->d;
    size_t nval = t->nhead - nk;
    json_t *o = json_object();
    json_t *key = json_array();
    char *unit = NULL;
    for (size_t k = 0; k < nk; k++) {
        const char *cell = k < row->n ? row->cells[k] : "";
        if (k == 0 && key_units) {
            char *kk = split_key_unit(cell, &unit);
            json_array_append_new(key, json_string(kk));
            free(kk);
        } else {
            json_array_append_new(key, json_string(cell));
        }
    }
    size_t have = row->n > nk ? row->n - nk : 0;
    if (have != nval && !(group && lack && have == nval / group * (group - lack)))
        warn(d, row->line, "table \"%s\": row \"%s\" has %zu value cells, the header %zu; %s",
             title, row->n ? row->cells[0] : "", have, nval,
             have > nval ? "extra cells dropped" : "missing cells left empty");
    size_t *slot = xcalloc(nval + 1, sizeof *slot);
    const char **cells = xcalloc(nval + 1, sizeof *cells);
    value_slots(t, nk, have, group, lack, slot);
    for (size_t i = 0; i < have && i < nval; i++)
        if (slot[i] < nval)
            cells[slot[i]] = row->cells[nk + i];
    json_t *vals = json_array();
    for (size_t c = 0; c < nval; c++) {
        bool text;
        json_array_append_new(vals, value_json(d, cells[c], row->line, &text));
        if (text)
            warn(d, row->line, "table \"%s\": value \"%s\" is not a number; kept as text",
                 title, cells[c]);
    }
    free(slot);
    free(cells);
    json_object_set_new(o, "key", key);
    json_object_set_new(o, "unit", unit ? json_string(unit) : json_null());
    json_object_set_new(o, "line", json_integer(row->line));
    json_object_set_new(o, "values", vals);
    free(unit);
    return o;
}

/* The board key of a column header, or NULL. */
static char *col_board(const char *h)
{
    return re_match(RE_BOARD_CELL, h) ? re_group(h, 1) : NULL;
}

/* Columns per board when every board has the same number (else 0), and
 * how many of them the most common row leaves out. */
static size_t board_groups(struct gtable *t, size_t nk, size_t *lack)
{
    size_t nval = t->nhead - nk, group = 0, run = 0;
    char *prev = NULL;
    bool uniform = true;
    *lack = 0;
    for (size_t c = nk; c < t->nhead && uniform; c++) {
        char *b = col_board(t->head[c]);
        uniform = b != NULL;
        if (b && prev && strcmp(b, prev)) {
            uniform = !group || group == run;
            group = run;
            run = 0;
        }
        run++;
        free(prev);
        prev = b;
    }
    free(prev);
    if (!uniform || (group && group != run))
        return 0;
    group = run;
    if (group == nval)
        return 0;
    size_t best = 0, bestn = 0;     /* the most common row length */
    for (size_t r = 0; r < t->nrows; r++) {
        size_t have = t->rows[r].n - nk, cnt = 0;
        for (size_t q = 0; q < t->nrows; q++)
            cnt += t->rows[q].n - nk == have;
        if (cnt > bestn)
            best = have, bestn = cnt;
    }
    size_t g = nval / group;
    if (best < nval && best % g == 0)
        *lack = group - best / g;
    return group;
}

static void walk_data_table(struct walk *w, struct gtable *t)
{
    struct doc *d = w->d;
    size_t first_board = t->nhead;
    for (size_t c = 0; c < t->nhead; c++)
        if (re_match(RE_BOARD_CELL, t->head[c])) {
            first_board = c;
            break;
        }
    size_t nk = t->nkeys > 0 ? (size_t)t->nkeys : guess_nkeys(t, first_board);
    if (first_board < t->nhead && first_board > 0)
        nk = first_board;
    if (t->nhead < 2 || nk >= t->nhead) {
        warn(d, t->line, "table \"%s\" has no value columns; skipped",
             t->title ? t->title : (t->nhead ? t->head[0] : ""));
        return;
    }
    if (t->nrows == 0) {
        warn(d, t->line, "table \"%s\" has a header but no rows; skipped",
             t->title ? t->title : t->head[0]);
        return;
    }
    bool any_unit, has_board;
    json_t *cols = columns_json(w, t, nk, &any_unit, &has_board);
    const char *inner;
    json_t *section = section_json(w, &inner);
    const char *title = t->title ? t->title : inner ? inner : t->head[0];
    if (json_array_size(section) == 0)
        json_array_append_new(section, json_string(title));
    json_t *o = json_object();
    json_object_set_new(o, "section", section);
    json_object_set_new(o, "title", json_string(title));
    json_object_set_new(o, "line", json_integer(t->line));
    const char *cmd = command_for(w);
    json_object_set_new(o, "command", cmd ? json_string(cmd) : json_null());
    json_object_set_new(o, "context", has_board ? json_array() : context_for(w));
    json_t *keys = json_array();
    for (size_t k = 0; k < nk; k++)
        json_array_append_new(keys, json_string(t->head[k]));
    json_object_set_new(o, "keys", keys);
    json_object_set_new(o, "columns", cols);
    size_t lack, group = board_groups(t, nk, &lack);
    json_t *rows = json_array();
    for (size_t r = 0; r < t->nrows; r++)
        json_array_append_new(rows, row_json(w, t, &t->rows[r], nk, !any_unit, title,
                                             group, lack));
    json_object_set_new(o, "rows", rows);
    json_array_append_new(w->tables, o);
    w->last_table = t->title ? NULL : o;
}

static bool is_evm_table(struct gtable *t)
{
    return t->nhead == 2 && !strcasecmp(t->head[0], "Name") &&
           !strcasecmp(t->head[1], "Description");
}

static bool is_context_table(struct gtable *t)
{
    return t->nhead == 2 && (!strcasecmp(t->head[1], "Values") ||
                             !strcasecmp(t->head[1], "Value"));
}

/* "Table: X" after a table names it, unless the table had a caption. */
static void walk_caption(struct walk *w, struct event *e)
{
    if (w->last_was_table && w->last_table && e->text[0]) {
        json_object_set_new(w->last_table, "title", json_string(e->text));
        w->last_table = NULL;
    }
    w->last_was_table = false;
}

static void walk_events(struct walk *w)
{
    struct doc *d = w->d;
    /* board keys first, so board-named headings can be recognised */
    for (size_t i = 0; i < d->nev; i++)
        if (d->ev[i].kind == EV_TABLE)
            for (size_t c = 0; c < d->ev[i].tab->nhead; c++)
                if (re_match(RE_BOARD_CELL, d->ev[i].tab->head[c])) {
                    char *k = re_group(d->ev[i].tab->head[c], 1);
                    remember_key(w, k);
                    free(k);
                }
    for (size_t i = 0; i < d->nev; i++) {
        struct event *e = &d->ev[i];
        switch (e->kind) {
        case EV_HEADING:
            push_heading(w, i);
            w->last_was_table = false;
            w->cmd_section = 0;
            break;
        case EV_TEXT:
            walk_text(w, e);
            break;
        case EV_CAPTION:
            walk_caption(w, e);
            break;
        case EV_TABLE:
            w->exec_state = 0;
            w->last_table = NULL;
            if (is_evm_table(e->tab))
                walk_evm(w, e->tab);
            else if (is_context_table(e->tab))
                walk_context_table(w, i, e->tab);
            else
                walk_data_table(w, e->tab);
            w->last_was_table = true;
            break;
        }
    }
}

/* The commands of a section are known only at its end (the OpenSSL one
 * follows its tables): fill them in afterwards, from the table's line. */
static void fill_commands(struct walk *w)
{
    struct doc *d = w->d;
    size_t ti = 0;
    size_t stack[16];
    int depth = 0;
    for (size_t i = 0; i < d->nev && ti < json_array_size(w->tables); i++) {
        struct event *e = &d->ev[i];
        if (e->kind == EV_HEADING && e->level > 0) {
            int l = e->level > 15 ? 15 : e->level;
            for (int k = depth + 1; k < l; k++)
                stack[k] = SIZE_MAX;
            stack[l] = i;
            depth = l;
            continue;
        }
        if (e->kind != EV_TABLE)
            continue;
        json_t *t = json_array_get(w->tables, ti);
        if (json_integer_value(json_object_get(t, "line")) != e->tab->line)
            continue;
        ti++;
        for (int l = depth; l >= 1; l--)
            if (stack[l] != SIZE_MAX && d->ev[stack[l]].command) {
                json_object_set_new(t, "command", json_string(d->ev[stack[l]].command));
                break;
            }
    }
}

/* ---------------------------------------------------------------------
 * Back end 4: boards
 * ------------------------------------------------------------------- */

/* Lower-case tokens of a board name or key, 'x' wildcards removed
 * ("AM62x" and "am62xx" both give "am62"); "evm", "fs" dropped. */
static size_t board_tokens(const char *s, char tok[][24], size_t max)
{
    size_t n = 0, len = 0;
    for (const char *p = s;; p++) {
        bool alnum = *p && isalnum((unsigned char)*p);
        if (alnum && len < 23) {
            char c = (char)tolower((unsigned char)*p);
            /* an 'x' right after a digit or another such 'x' is a wildcard */
            bool wild = c == 'x' && len && (isdigit((unsigned char)tok[n][len - 1]) ||
                                            (p > s && tolower((unsigned char)p[-1]) == 'x'));
            if (!wild)
                tok[n][len++] = c;
            continue;
        }
        if (alnum)
            continue;
        if (len) {
            tok[n][len] = '\0';
            if (strcmp(tok[n], "evm") && strcmp(tok[n], "fs") && n + 1 < max)
                n++;
            len = 0;
        }
        if (!*p)
            break;
    }
    return n;
}

/* The column key whose tokens hold all the name's tokens with the fewest
 * extra ones: "AM62x LP SK" -> am62xx_lp_sk-fs, "J721e EVM" -> j721e-idk-gw. */
static const char *link_board(struct walk *w, const char *name)
{
    char nt[8][24], kt[8][24];
    size_t nn = board_tokens(name, nt, 8);
    const char *best = NULL;
    size_t best_extra = 99;
    for (size_t i = 0; i < w->keys.n && nn; i++) {
        size_t nk = board_tokens(w->keys.v[i], kt, 8);
        size_t hit = 0;
        for (size_t a = 0; a < nn; a++)
            for (size_t b = 0; b < nk; b++)
                if (!strcmp(nt[a], kt[b])) {
                    hit++;
                    break;
                }
        if (hit == nn && strcmp(nt[0], kt[0]) == 0 && nk - hit < best_extra) {
            best = w->keys.v[i];
            best_extra = nk - hit;
        }
    }
    return best;
}

static json_t *board_json(const char *key, const char *name, const char *desc)
{
    json_t *o = json_object();
    json_object_set_new(o, "key", json_string(key));
    json_object_set_new(o, "name", name ? json_string(name) : json_null());
    json_object_set_new(o, "description", desc ? json_string(desc) : json_null());
    json_t *mhz = json_null(), *ddr = json_null(), *mts = json_null();
    if (desc && re_match(RE_CLOCK, desc)) {
        char *v = re_group(desc, 1), *u = re_group(desc, 2);
        double f = strtod(v, NULL) * (tolower((unsigned char)u[0]) == 'g' ? 1000 : 1);
        mhz = json_integer((json_int_t)(f + 0.5));
        free(v);
        free(u);
    }
    if (desc && re_match(RE_DDR_TYPE, desc)) {
        char *v = re_group(desc, 1);
        ddr = json_string(v);
        free(v);
    }
    if (desc && re_match(RE_DDR_RATE, desc)) {
        char *v = re_group(desc, 1);
        mts = json_integer(strtol(v, NULL, 10));
        free(v);
    }
    json_object_set_new(o, "cpu_mhz", mhz);
    json_object_set_new(o, "ddr_type", ddr);
    json_object_set_new(o, "ddr_mts", mts);
    return o;
}

/* Evaluation-module boards first, then column keys the table left out. */
static json_t *boards_json(struct walk *w)
{
    json_t *arr = json_array();
    struct strv used = {0};
    for (size_t i = 0; i < w->nboards; i++) {
        struct board_rec *b = &w->boards[i];
        const char *key = link_board(w, b->name);
        char *own = NULL;
        if (!key) {
            own = str_slug(b->name);
            warn(w->d, b->line, "board \"%s\" matches no table column; key \"%s\" used",
                 b->name, own);
            key = own;
        }
        json_array_append_new(arr, board_json(key, b->name, b->description));
        sv_push(&used, xstrdup(key));
        free(own);
    }
    for (size_t i = 0; i < w->keys.n; i++) {
        bool seen = false;
        for (size_t j = 0; j < used.n; j++)
            seen |= !strcmp(used.v[j], w->keys.v[i]);
        if (!seen)
            json_array_append_new(arr, board_json(w->keys.v[i], NULL, NULL));
    }
    strv_free(used.v, used.n);
    return arr;
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

static json_t *source_json(struct doc *d, bool mcu, enum guide_layout layout)
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

static bool has_guide_shape(struct doc *d)
{
    for (size_t i = 0; i < d->nev; i++) {
        struct event *e = &d->ev[i];
        if (e->kind == EV_TABLE || (e->kind == EV_HEADING && (e->num || e->level == 0)))
            return true;
    }
    return false;
}

json_t *guide_import_text(const char *name, const char *text, size_t len,
                          enum guide_layout layout, struct diag *dg)
{
    struct doc d = { .name = name, .dg = dg };
    re_init();
    if (len == 0 || strspn(text, " \t\r\n") == len) {
        diag_add(dg, "%s:1: empty file; not a guide", name);
        return NULL;
    }
    char *buf = sanitize(&d, text, len);
    if (!buf)
        return NULL;
    bool mcu = strstr(buf, "MCU+") || strstr(buf, "MCU PLUS") || strstr(buf, "MCU plus");
    split_lines(&d, buf);
    if (layout == LAYOUT_AUTO)
        layout = detect_layout(&d);
    switch (layout) {
    case LAYOUT_CELLS: parse_cells(&d); break;
    case LAYOUT_ROWS: parse_rows(&d); break;
    case LAYOUT_MARKDOWN: parse_markdown(&d); break;
    case LAYOUT_RST: parse_rst(&d); break;
    case LAYOUT_AUTO: break;
    }
    if (layout == LAYOUT_AUTO || !has_guide_shape(&d)) {
        diag_add(dg, "%s:1: not a performance guide (no tables or numbered headings found)",
                 name);
        doc_free(&d);
        free(buf);
        return NULL;
    }
    assign_levels(&d, layout);
    struct walk w = { .d = &d, .tables = json_array() };
    walk_events(&w);
    fill_commands(&w);
    json_t *root = json_object();
    json_object_set_new(root, "format", json_string("evmbench-refs/1"));
    json_object_set_new(root, "source", source_json(&d, mcu, layout));
    json_object_set_new(root, "boards", boards_json(&w));
    json_object_set_new(root, "tables", w.tables);
    for (size_t i = 0; i < w.nctx; i++)
        json_decref(w.ctx[i].pairs);
    free(w.ctx);
    for (size_t i = 0; i < w.nboards; i++) {
        free(w.boards[i].name);
        free(w.boards[i].description);
    }
    free(w.boards);
    strv_free(w.keys.v, w.keys.n);
    doc_free(&d);
    free(buf);
    return root;
}

json_t *guide_import_file(const char *path, enum guide_layout layout, struct diag *dg)
{
    size_t len;
    char *text = read_file(path, 0, &len);
    if (!text) {
        diag_add(dg, "%s: %s", path, strerror(errno));
        return NULL;
    }
    json_t *o = guide_import_text(path, text, len, layout, dg);
    free(text);
    return o;
}
