/* guide_walk.c - the walk over a guide's events that writes its tables.
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
#include "guide/guide_impl.h"

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"

/* ---------------------------------------------------------------------
 * Cells to values, headers to columns
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
static json_t *value_json(struct guide_doc *d, const char *cell, int line, bool *text)
{
    *text = false;
    if (!cell || !cell[0] || guide_text_is_na(cell))
        return json_null();
    if (guide_re_match(RE_VALUE, cell)) {
        char *a = guide_re_group(cell, 1), *mn = guide_re_group(cell, 3);
        char *mx = guide_re_group(cell, 4);
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

/* "THROUGHPUT (Mbits/sec)" -> name, unit; "Rail voltage(V)" -> "Rail
 * voltage", "V"; "CPU Load % (LOCAL_CPU_UTIL)" -> "CPU Load", "%" (an
 * all-caps note in parentheses is not a unit); "Boot time in seconds:
 * avg(min,max)" -> "Boot time", "seconds"; "Latency (from datasheet) in
 * ns" -> "Latency (from datasheet)", "ns". */
static void split_name_unit(const char *s, char **name, char **unit)
{
    char *work = xstrdup(s);
    if (guide_re_match(RE_NOTE_TAIL, work)) {
        char *w2 = guide_re_group(work, 1);
        free(work);
        work = w2;
    }
    *unit = NULL;
    size_t n = strlen(work);
    if (guide_re_match(RE_UNIT_TAIL, work) && !strchr(work + guide_re_start(2), ',')) {
        char *u = guide_re_group(work, 2);
        char *nm = guide_re_group(work, 1);
        *unit = u[0] ? u : (free(u), (char *)NULL);
        free(work);
        work = nm;
    } else if (guide_re_match(RE_UNIT_IN, work)) {
        char *nm = guide_re_group(work, 1);
        *unit = guide_re_group(work, 2);
        free(work);
        work = nm;
    } else if (n > 2 && work[n - 1] == '%' && work[n - 2] == ' ') {
        *unit = xstrdup("%");
        work[n - 2] = '\0';
    }
    *name = guide_text_trimdup(work, strlen(work));
    free(work);
}

/* A row key "copy (mb/s)" -> "copy", "mb/s" when the unit is one word. */
static char *split_key_unit(const char *s, char **unit)
{
    *unit = NULL;
    if (guide_re_match(RE_UNIT_TAIL, s) && guide_re_start(2) > 2) {
        char *u = guide_re_group(s, 2), *name = guide_re_group(s, 1);
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
static size_t guess_nkeys(struct guide_table *t, size_t first_board)
{
    if (first_board < t->nhead)
        return first_board ? first_board : 1;
    size_t k = 1;
    while (k + 1 < t->nhead) {
        size_t text = 0, nums = 0, frac = 0;
        for (size_t r = 0; r < t->nrows; r++) {
            const char *c = k < t->rows[r].n ? t->rows[r].cells[k] : "";
            if (!c[0] || guide_text_is_na(c))
                continue;
            if (guide_re_match(RE_VALUE, c)) {
                nums++;
                frac += strchr(c, '.') != NULL;
            } else {
                text++;
            }
        }
        bool key = (text && text >= nums) ||
                   (guide_re_match(RE_SIZE_HEADER, t->head[k]) && frac == 0 && nums);
        if (!key)
            break;
        k++;
    }
    return k;
}

/* ---------------------------------------------------------------------
 * The walk over the events
 * ------------------------------------------------------------------- */

struct ctx_rec {            /* setup facts for the board-less tables */
    size_t scope;           /* heading event index, or SIZE_MAX for the document */
    json_t *pairs;
};

struct walk {
    struct guide_doc *d;
    size_t stack[16];       /* heading event indices per level (1-based) */
    int depth;
    struct guide_strv keys; /* board keys seen in columns, in order */
    json_t *key_set;        /* the same keys, to look one up at once */
    struct ctx_rec *ctx;
    size_t nctx, capctx;
    struct guide_board *boards;
    size_t nboards, capboards;
    json_t *tables;
    struct guide_strv lastcmd; /* dedupe of command lines per section */
    size_t cmd_section;
    int exec_state;         /* 0 none, 1 after "Execute ... :", 2 inside block */
    json_t *last_table;     /* for "Table: X" captions after a table */
    bool last_was_table;
    struct guide_strv boardheads; /* heading texts dropped as board names */
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
    struct guide_event *h = &w->d->ev[sec];
    if (h->command && strstr(h->command, line))
        return;
    char *c = h->command ? xasprintf("%s\n%s", h->command, line) : xstrdup(line);
    free(h->command);
    h->command = c;
}

/* Commands: the lines after "Execute ... with the following:", and
 * netperf/fio/openssl ... lines with their "-k ..." continuations. */
static void walk_text(struct walk *w, struct guide_event *e)
{
    const char *s = e->text;
    if (!s[0]) {
        if (w->exec_state == 2)
            w->exec_state = 0;
        return;
    }
    w->last_was_table = false;
    if (guide_re_match(RE_EXECUTE, s)) {
        w->exec_state = 1;
        return;
    }
    if (w->exec_state) {
        w->exec_state = 2;
        add_command(w, s);
        return;
    }
    if (guide_re_match(RE_COMMAND, s)) {
        char *c = guide_re_group(s, 1);
        add_command(w, c);
        free(c);
        w->cmd_section = 1;
        return;
    }
    if (w->cmd_section && guide_re_match(RE_CONTINUATION, s)) {
        char *c = guide_re_group(s, 1);
        add_command(w, c);
        free(c);
        return;
    }
    w->cmd_section = 0;
    if (guide_re_match(RE_BULLET_PAIR, s)) {
        char *k = guide_re_group(s, 1), *v = guide_re_group(s, 2);
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

/* s lower-cased, '_' as '-', without a "-fs"/"-gp" file-system suffix. */
static char *board_norm(const char *s)
{
    char *n = xstrdup(s);
    for (char *p = n; *p; p++)
        *p = *p == '_' ? '-' : (char)tolower((unsigned char)*p);
    size_t len = strlen(n);
    if (len > 3 && (!strcmp(n + len - 3, "-fs") || !strcmp(n + len - 3, "-gp")))
        n[len - 3] = '\0';
    return n;
}

/* A heading that names a board column: "J721E-IDK-GW" (j721e-idk-gw),
 * "J742S2-EVM" (j742s2_evm-fs). */
static bool is_board_heading(struct walk *w, const char *text)
{
    char *h = board_norm(text);
    bool found = false;
    for (size_t i = 0; i < w->keys.n && !found; i++) {
        char *k = board_norm(w->keys.v[i]);
        found = !strcmp(k, h);
        free(k);
    }
    free(h);
    return found;
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

static void walk_evm(struct walk *w, struct guide_table *t)
{
    for (size_t r = 0; r < t->nrows; r++) {
        struct guide_row *row = &t->rows[r];
        if (row->n < 2)
            continue;
        xgrow(&w->boards, &w->capboards, w->nboards + 1, sizeof *w->boards);
        w->boards[w->nboards++] = (struct guide_board){
            xstrdup(row->cells[0]), xstrdup(row->cells[1]), row->line };
    }
}

static void walk_context_table(struct walk *w, size_t idx, struct guide_table *t)
{
    size_t sec = cur_section(w);
    /* "Setup Details" sections set up what follows their parent */
    if (sec != SIZE_MAX && guide_re_match(RE_SETUP_SECTION, w->d->ev[sec].text)) {
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
    if (json_object_get(w->key_set, key))
        return;
    json_object_set_new(w->key_set, key, json_true());
    guide_text_strv_push(&w->keys, xstrdup(key));
}

static json_t *columns_json(struct walk *w, struct guide_table *t, size_t nk, bool *any_unit,
                            bool *has_board)
{
    json_t *cols = json_array();
    *any_unit = *has_board = false;
    for (size_t c = nk; c < t->nhead; c++) {
        const char *h = t->head[c];
        char *board = NULL, *rest;
        if (guide_re_match(RE_BOARD_CELL, h)) {
            board = guide_re_group(h, 1);
            rest = guide_re_group(h, 2);
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

/* Where the value cells of a short row go: slot[i] is the column of
 * cell i. When the table shows that every board lacks the same leading
 * columns in every row (000's UDP tables print no datagram size:
 * group/lack from board_groups), the cells fill each board's last
 * columns in turn; otherwise they fill from the start (from the end for
 * board-less tables, where short rows are totals). Returns a description
 * of the placement when it is a guess (the caller warns and records it),
 * else NULL. */
static char *value_slots(struct guide_table *t, size_t nk, size_t have, size_t group,
                         size_t lack, size_t *slot)
{
    size_t nval = t->nhead - nk;
    if (have >= nval) {
        for (size_t i = 0; i < nval; i++)
            slot[i] = i;
        return NULL;
    }
    if (group && lack && lack < group) {
        size_t per = group - lack;
        for (size_t i = 0; i < have; i++)
            slot[i] = (i / per) * group + lack + i % per;
        if (have == nval / group * per)
            return NULL;        /* the table's usual row: no guess */
        return xasprintf("in the last %zu columns of the first %zu of %zu boards", per,
                         (have + per - 1) / per, nval / group);
    }
    size_t pad = t->pad_front ? nval - have : 0;
    for (size_t i = 0; i < have; i++)
        slot[i] = pad + i;
    if (have == 1)
        return xasprintf("in the %s column", pad ? "last" : "first");
    return xasprintf("in the %s %zu columns", pad ? "last" : "first", have);
}

static json_t *row_json(struct walk *w, struct guide_table *t, struct guide_row *row, size_t nk,
                        bool key_units, const char *title, size_t group, size_t lack)
{
    struct guide_doc *d = w->d;
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
    size_t *slot = xcalloc(nval + 1, sizeof *slot);
    const char **cells = xcalloc(nval + 1, sizeof *cells);
    char *guess = value_slots(t, nk, have, group, lack, slot);
    char *note = NULL;
    if (have > nval)
        note = xasprintf("%zu value cells for %zu columns: the extra %zu dropped", have, nval,
                         have - nval);
    else if (have == 0 && nval)
        note = xasprintf("no value cells for %zu column%s", nval, nval == 1 ? "" : "s");
    else if (guess)
        note = xasprintf("a guess: %zu of %zu value cells, %s", have, nval, guess);
    if (note)
        guide_doc_warn(d, row->line, "table \"%s\": row \"%s\": %s; check the guide", title,
                       row->n ? row->cells[0] : "", note);
    free(guess);
    for (size_t i = 0; i < have && i < nval; i++)
        if (slot[i] < nval)
            cells[slot[i]] = row->cells[nk + i];
    json_t *vals = json_array();
    for (size_t c = 0; c < nval; c++) {
        bool text;
        json_array_append_new(vals, value_json(d, cells[c], row->line, &text));
        if (text)
            guide_doc_warn(d, row->line, "table \"%s\": value \"%s\" is not a number; kept as text",
                           title, cells[c]);
    }
    free(slot);
    free(cells);
    json_object_set_new(o, "key", key);
    json_object_set_new(o, "unit", unit ? json_string(unit) : json_null());
    json_object_set_new(o, "line", json_integer(row->line));
    json_object_set_new(o, "values", vals);
    if (note)
        json_object_set_new(o, "note", json_string(note));
    free(note);
    free(unit);
    return o;
}

/* The board key of a column header, or NULL. */
static char *col_board(const char *h)
{
    return guide_re_match(RE_BOARD_CELL, h) ? guide_re_group(h, 1) : NULL;
}

/* True when the table bears out that every board's first `lack` columns
 * are empty throughout: no row has more value cells than the usual
 * `best`, unless it is a full row whose cells in those columns are
 * empty or n/a. A GFXBench table whose last row is full and whose other
 * rows have half its cells does not: those rows are not missing the
 * Score columns, they are missing a board. */
static bool lack_shown(struct guide_table *t, size_t nk, size_t group, size_t lack, size_t best)
{
    size_t nval = t->nhead - nk;
    for (size_t r = 0; r < t->nrows; r++) {
        size_t have = t->rows[r].n > nk ? t->rows[r].n - nk : 0;
        if (have <= best)
            continue;
        if (have != nval)
            return false;
        for (size_t c = 0; c < nval; c++) {
            const char *cell = t->rows[r].cells[nk + c];
            if (c % group < lack && cell[0] && !guide_text_is_na(cell))
                return false;
        }
    }
    return true;
}

/* Columns per board when every board has the same number (else 0), and
 * how many of them the most common row leaves out (0 unless the table
 * shows it, lack_shown). */
static size_t board_groups(struct guide_table *t, size_t nk, size_t *lack)
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
    if (*lack && !lack_shown(t, nk, group, *lack, best))
        *lack = 0;
    return group;
}

/* The text of value v as a key cell: "5", "0.15", the text kept, or "". */
static char *value_key_text(json_t *v)
{
    json_t *avg = json_object_get(v, "avg");
    if (json_is_integer(avg))
        return xasprintf("%lld", (long long)json_integer_value(avg));
    if (json_is_real(avg))
        return xasprintf("%.15g", json_real_value(avg));
    json_t *text = json_object_get(v, "text");
    return xstrdup(json_is_string(text) ? json_string_value(text) : "");
}

/* True when rows a and b have equal key arrays. */
static bool same_key(json_t *a, json_t *b)
{
    return json_equal(json_object_get(a, "key"), json_object_get(b, "key"));
}

/* The first value column whose values differ between every two rows of
 * equal key, or -1 when none does. */
static long telling_column(json_t *rows, size_t ncols)
{
    size_t n = json_array_size(rows);
    for (size_t c = 0; c < ncols; c++) {
        bool tells = true;
        for (size_t a = 0; a < n && tells; a++)
            for (size_t b = a + 1; b < n && tells; b++) {
                json_t *ra = json_array_get(rows, a), *rb = json_array_get(rows, b);
                if (!same_key(ra, rb))
                    continue;
                json_t *va = json_array_get(json_object_get(ra, "values"), c);
                json_t *vb = json_array_get(json_object_get(rb, "values"), c);
                tells = !json_is_null(va) && !json_is_null(vb) && !json_equal(va, vb);
            }
        if (tells)
            return (long)c;
    }
    return -1;
}

/* Rows with the same key (the AM62P MCU+ guide's three "UDP RX" rows, one
 * per offered load) cannot be told apart by a metric id: the key gets one
 * more cell, the header of the first value column that tells them apart,
 * holding that column's value in the rows that share a key and "" in the
 * others (whose ids stay as they were). The value stays a value too. */
static void split_duplicate_keys(struct walk *w, json_t *o, const char *title)
{
    json_t *rows = json_object_get(o, "rows"), *cols = json_object_get(o, "columns");
    size_t n = json_array_size(rows);
    bool dup = false;
    for (size_t a = 0; a < n && !dup; a++)
        for (size_t b = a + 1; b < n && !dup; b++)
            dup = same_key(json_array_get(rows, a), json_array_get(rows, b));
    if (!dup)
        return;
    long c = telling_column(rows, json_array_size(cols));
    if (c < 0) {
        guide_doc_warn(w->d, (int)json_integer_value(json_object_get(o, "line")),
                       "table \"%s\": rows share a key and no column tells them apart; "
                       "only the first of each can be addressed", title);
        return;
    }
    json_t *col = json_array_get(cols, (size_t)c);
    json_array_append(json_object_get(o, "keys"), json_object_get(col, "header"));
    bool *shared = xcalloc(n, sizeof *shared);
    for (size_t a = 0; a < n; a++)
        for (size_t b = 0; b < n && !shared[a]; b++)
            shared[a] = b != a && same_key(json_array_get(rows, a), json_array_get(rows, b));
    for (size_t a = 0; a < n; a++) {
        json_t *ra = json_array_get(rows, a);
        char *cell = shared[a] ? value_key_text(json_array_get(json_object_get(ra, "values"),
                                                               (size_t)c)) : xstrdup("");
        json_array_append_new(json_object_get(ra, "key"), json_string(cell));
        free(cell);
    }
    free(shared);
}

static void walk_data_table(struct walk *w, struct guide_table *t)
{
    struct guide_doc *d = w->d;
    size_t first_board = t->nhead;
    for (size_t c = 0; c < t->nhead; c++)
        if (guide_re_match(RE_BOARD_CELL, t->head[c])) {
            first_board = c;
            break;
        }
    size_t nk = t->nkeys > 0 ? (size_t)t->nkeys : guess_nkeys(t, first_board);
    if (first_board < t->nhead && first_board > 0)
        nk = first_board;
    if (t->nhead < 2 || nk >= t->nhead) {
        guide_doc_warn(d, t->line, "table \"%s\" has no value columns; skipped",
                       t->title ? t->title : (t->nhead ? t->head[0] : ""));
        return;
    }
    if (t->nrows == 0) {
        guide_doc_warn(d, t->line, "table \"%s\" has a header but no rows; skipped",
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
    split_duplicate_keys(w, o, title);
    json_array_append_new(w->tables, o);
    w->last_table = t->title ? NULL : o;
}

static bool is_evm_table(struct guide_table *t)
{
    return t->nhead == 2 && !strcasecmp(t->head[0], "Name") &&
           !strcasecmp(t->head[1], "Description");
}

static bool is_context_table(struct guide_table *t)
{
    return t->nhead == 2 && (!strcasecmp(t->head[1], "Values") ||
                             !strcasecmp(t->head[1], "Value"));
}

/* "Table: X" after a table names it, unless the table had a caption. */
static void walk_caption(struct walk *w, struct guide_event *e)
{
    if (w->last_was_table && w->last_table && e->text[0]) {
        json_object_set_new(w->last_table, "title", json_string(e->text));
        w->last_table = NULL;
    }
    w->last_was_table = false;
}

static void walk_events(struct walk *w)
{
    struct guide_doc *d = w->d;
    /* board keys first, so board-named headings can be recognised */
    for (size_t i = 0; i < d->nev; i++)
        if (d->ev[i].kind == EV_TABLE)
            for (size_t c = 0; c < d->ev[i].tab->nhead; c++)
                if (guide_re_match(RE_BOARD_CELL, d->ev[i].tab->head[c])) {
                    char *k = guide_re_group(d->ev[i].tab->head[c], 1);
                    remember_key(w, k);
                    free(k);
                }
    for (size_t i = 0; i < d->nev; i++) {
        struct guide_event *e = &d->ev[i];
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
    struct guide_doc *d = w->d;
    size_t ti = 0;
    size_t stack[16];
    int depth = 0;
    for (size_t i = 0; i < d->nev && ti < json_array_size(w->tables); i++) {
        struct guide_event *e = &d->ev[i];
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

json_t *guide_walk_tables(struct guide_doc *d, json_t **boards)
{
    struct walk w = { .d = d, .tables = json_array(), .key_set = json_object() };
    walk_events(&w);
    fill_commands(&w);
    *boards = guide_boards_json(d, w.boards, w.nboards, &w.keys);
    for (size_t i = 0; i < w.nctx; i++)
        json_decref(w.ctx[i].pairs);
    free(w.ctx);
    for (size_t i = 0; i < w.nboards; i++) {
        free(w.boards[i].name);
        free(w.boards[i].description);
    }
    free(w.boards);
    guide_text_strv_free(w.keys.v, w.keys.n);
    json_decref(w.key_set);
    return w.tables;
}
