/* refdb.c - loads the reference JSON (schema: benches/refs/README.md). */
#include "config.h"
#include "data/refdb.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "data/datadir.h"
#include "common/util.h"

#define REFS_FORMAT "evmbench-refs/1"

struct refdb *refdb_new(void)
{
    return xcalloc(1, sizeof(struct refdb));
}

static void free_strv(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

static void table_free(struct ref_table *t)
{
    free_strv(t->section, t->nsection);
    free(t->section_slug);
    free(t->title);
    free(t->command);
    free_strv(t->context, t->ncontext * 2);
    free_strv(t->keys, t->nkeys);
    for (size_t c = 0; c < t->ncols; c++) {
        free(t->cols[c].header);
        free(t->cols[c].board);
        free(t->cols[c].name);
        free(t->cols[c].unit);
    }
    free(t->cols);
    for (size_t r = 0; r < t->nrows; r++) {
        struct ref_row *row = &t->rows[r];
        free_strv(row->key, row->nkey);
        free(row->name);
        free(row->slug);
        free(row->unit);
        free(row->note);
        for (size_t c = 0; c < t->ncols; c++)
            free(row->values[c].text);
        free(row->values);
    }
    free(t->rows);
    free(t);
}

void refdb_free(struct refdb *db)
{
    if (!db)
        return;
    for (size_t i = 0; i < db->ntables; i++)
        table_free(db->tables[i]);
    free(db->tables);
    for (size_t i = 0; i < db->nboards; i++) {
        struct ref_board *b = db->boards[i];
        free(b->key);
        free(b->name);
        free(b->description);
        free(b->ddr_type);
        free(b);
    }
    free(db->boards);
    for (size_t i = 0; i < db->nsources; i++) {
        struct ref_source *s = db->sources[i];
        free(s->path);
        free(s->file);
        free(s->title);
        free(s->sdk);
        free(s->version);
        free(s);
    }
    free(db->sources);
    free(db);
}

/* --- schema checks: every problem names the file and the JSON path ------- */

struct loader {
    const char *path;
    struct diag *dg;
    bool bad;
};

static void bad(struct loader *ld, const char *where, const char *what)
{
    diag_add(ld->dg, "%s: %s: %s", ld->path, where, what);
    ld->bad = true;
}

/* A string member, or NULL when absent or null; other types are errors. */
static char *opt_string(struct loader *ld, json_t *obj, const char *key, const char *where)
{
    json_t *v = json_object_get(obj, key);
    if (!v || json_is_null(v))
        return NULL;
    if (!json_is_string(v)) {
        char *w = xasprintf("%s.%s", where, key);
        bad(ld, w, "expected a string");
        free(w);
        return NULL;
    }
    return xstrdup(json_string_value(v));
}

static double opt_number(struct loader *ld, json_t *obj, const char *key, const char *where)
{
    json_t *v = json_object_get(obj, key);
    if (!v || json_is_null(v))
        return 0;
    if (!json_is_number(v)) {
        char *w = xasprintf("%s.%s", where, key);
        bad(ld, w, "expected a number");
        free(w);
        return 0;
    }
    return json_number_value(v);
}

/* A guide line number: a whole number from 1 to INT_MAX, or absent (0).
 * Anything else is named and read as absent, never cast out of range. */
static int opt_line(struct loader *ld, json_t *obj, const char *where)
{
    json_t *v = json_object_get(obj, "line");
    if (!v || json_is_null(v))
        return 0;
    if (!json_is_integer(v) || json_integer_value(v) < 1 || json_integer_value(v) > INT_MAX) {
        char *w = xasprintf("%s.line", where);
        bad(ld, w, "expected a line number (a whole number from 1 up)");
        free(w);
        return 0;
    }
    return (int)json_integer_value(v);
}

/* An array of strings; false (with a diagnostic) when it is anything else. */
static bool string_array(struct loader *ld, json_t *arr, const char *where,
                         char ***out, size_t *n)
{
    *out = NULL;
    *n = 0;
    if (!json_is_array(arr)) {
        bad(ld, where, "expected an array of strings");
        return false;
    }
    size_t count = json_array_size(arr);
    char **v = xcalloc(count ? count : 1, sizeof *v);
    for (size_t i = 0; i < count; i++) {
        json_t *s = json_array_get(arr, i);
        if (!json_is_string(s)) {
            char *w = xasprintf("%s[%zu]", where, i);
            bad(ld, w, "expected a string");
            free(w);
            free_strv(v, i);
            return false;
        }
        v[i] = xstrdup(json_string_value(s));
    }
    *out = v;
    *n = count;
    return true;
}

static bool load_value(struct loader *ld, json_t *j, const char *where, struct ref_value *v)
{
    memset(v, 0, sizeof *v);
    if (json_is_null(j))
        return true;
    if (!json_is_object(j)) {
        bad(ld, where, "expected null or an object with avg/min/max or text");
        return false;
    }
    json_t *text = json_object_get(j, "text");
    if (text) {
        if (!json_is_string(text)) {
            bad(ld, where, "\"text\" must be a string");
            return false;
        }
        v->text = xstrdup(json_string_value(text));
        return true;
    }
    json_t *avg = json_object_get(j, "avg");
    if (!json_is_number(avg)) {
        bad(ld, where, "a value needs a numeric \"avg\" (or \"text\")");
        return false;
    }
    v->present = true;
    v->avg = json_number_value(avg);
    json_t *mn = json_object_get(j, "min"), *mx = json_object_get(j, "max");
    if (mn && !json_is_null(mn)) {
        if (!json_is_number(mn)) {
            bad(ld, where, "\"min\" must be a number");
            return false;
        }
        v->has_min = true;
        v->min = json_number_value(mn);
    }
    if (mx && !json_is_null(mx)) {
        if (!json_is_number(mx)) {
            bad(ld, where, "\"max\" must be a number");
            return false;
        }
        v->has_max = true;
        v->max = json_number_value(mx);
    }
    return true;
}

/* A problem in one value that costs only that value: reported with the
 * file and the JSON path, the rest of the file still loads. */
static void drop_value(struct loader *ld, const char *where, const char *field,
                       struct ref_value *v, const char *what)
{
    diag_add(ld->dg, "%s: %s.%s: %s; value dropped", ld->path, where, field, what);
    v->present = v->has_min = v->has_max = false;
}

/* Whether a value can be below zero. Decided from the unit: decibels
 * (dB, dBm, dBFS ...), temperatures (C, °C, degC, F, °F) and parts per
 * million or billion (a clock's deviation) can; so can anything whose
 * row or column names a deviation, offset, drift, delta or temperature,
 * and a value without any unit (nothing says it cannot). Every other unit
 * cannot: rates (MB/s, Mbits/sec, kPPS), times (us, ms, sec), sizes
 * (bytes), counts (iterations), percentages (CPU load), power (mW),
 * clocks (MHz) and scores (DMIPS/MHz). */
static bool can_be_negative(const char *unit, const char *row, const char *col)
{
    static const char *const signed_units[] = {
        "C", "°C", "degC", "celsius", "F", "°F", "degF", "ppm", "ppb",
    };
    static const char *const signed_words[] = {
        "deviation", "offset", "drift", "delta", "temperature",
    };
    if (!unit || !*unit)
        return true;
    if (strncasecmp(unit, "db", 2) == 0)
        return true;
    for (size_t i = 0; i < ARRAY_SIZE(signed_units); i++)
        if (strcasecmp(unit, signed_units[i]) == 0)
            return true;
    for (size_t i = 0; i < ARRAY_SIZE(signed_words); i++)
        if ((row && strcasestr(row, signed_words[i])) || (col && strcasestr(col, signed_words[i])))
            return true;
    return false;
}

/* Checks the numbers of a loaded value: each finite and normal (or 0), not
 * negative where the unit cannot be, min <= max. A bad one drops the value. */
static void check_value(struct loader *ld, const char *where, struct ref_value *v,
                        const char *unit, const char *row, const char *col)
{
    if (!v->present)
        return;
    const struct { const char *name; bool have; double x; } f[] = {
        { "avg", true, v->avg }, { "min", v->has_min, v->min }, { "max", v->has_max, v->max },
    };
    bool sign_ok = can_be_negative(unit, row, col);
    for (size_t i = 0; i < ARRAY_SIZE(f); i++) {
        if (!f[i].have)
            continue;
        int cls = fpclassify(f[i].x);
        char what[160];
        if (cls == FP_NAN || cls == FP_INFINITE || cls == FP_SUBNORMAL) {
            snprintf(what, sizeof what, "%s %g is not a normal number", f[i].name, f[i].x);
            drop_value(ld, where, f[i].name, v, what);
            return;
        }
        if (f[i].x < 0 && !sign_ok) {
            snprintf(what, sizeof what, "%s %g is negative, which %.60s cannot be", f[i].name,
                     f[i].x, unit);
            drop_value(ld, where, f[i].name, v, what);
            return;
        }
    }
    if (v->has_min && v->has_max && v->min > v->max) {
        char what[160];
        snprintf(what, sizeof what, "min %g > max %g", v->min, v->max);
        drop_value(ld, where, "min", v, what);
    }
}

/* The key cells joined by sep, empty cells left out: a table whose rows
 * share a key gets one more key cell, empty in the rows that need none
 * (evmbench-refs(5)), and their names and ids stay as they were. */
static char *join_key(char **key, size_t n, const char *sep)
{
    struct strbuf sb;
    sb_init(&sb);
    bool first = true;
    for (size_t i = 0; i < n; i++) {
        if (!key[i][0] && (i > 0 || n > 1))
            continue;
        if (!first)
            sb_add(&sb, sep);
        sb_add(&sb, key[i]);
        first = false;
    }
    return sb_steal(&sb);
}

static bool load_row(struct loader *ld, json_t *j, const char *where,
                     struct ref_table *t, struct ref_row *row)
{
    memset(row, 0, sizeof *row);
    if (!json_is_object(j)) {
        bad(ld, where, "a row must be an object");
        return false;
    }
    char *w = xasprintf("%s.key", where);
    bool ok = string_array(ld, json_object_get(j, "key"), w, &row->key, &row->nkey);
    free(w);
    if (!ok)
        return false;
    if (row->nkey == 0) {
        bad(ld, where, "a row needs at least one key cell");
        free_strv(row->key, 0);
        row->key = NULL;    /* the caller frees the partial row too */
        return false;
    }
    row->name = join_key(row->key, row->nkey, " ");
    char *dashed = join_key(row->key, row->nkey, "-");
    row->slug = str_slug(dashed);
    free(dashed);
    row->unit = opt_string(ld, j, "unit", where);
    row->line = opt_line(ld, j, where);
    row->note = opt_string(ld, j, "note", where);
    row->values = xcalloc(t->ncols ? t->ncols : 1, sizeof *row->values);
    json_t *vals = json_object_get(j, "values");
    if (!json_is_array(vals) || json_array_size(vals) != t->ncols) {
        w = xasprintf("%s.values", where);
        bad(ld, w, "expected one value per column");
        free(w);
        return false;   /* the caller frees the partial row */
    }
    for (size_t c = 0; c < t->ncols; c++) {
        w = xasprintf("%s.values[%zu]", where, c);
        ok = load_value(ld, json_array_get(vals, c), w, &row->values[c]);
        if (ok)
            check_value(ld, w, &row->values[c], row->unit ? row->unit : t->cols[c].unit,
                        row->name, t->cols[c].name);
        free(w);
        if (!ok)
            return false;
    }
    return true;
}

static void row_free_partial(struct ref_row *row, size_t ncols)
{
    free_strv(row->key, row->nkey);
    free(row->name);
    free(row->slug);
    free(row->unit);
    free(row->note);
    if (row->values)
        for (size_t c = 0; c < ncols; c++)
            free(row->values[c].text);
    free(row->values);
}

static struct ref_table *load_table(struct loader *ld, json_t *j, const char *where,
                                    const struct ref_source *src)
{
    if (!json_is_object(j)) {
        bad(ld, where, "a table must be an object");
        return NULL;
    }
    struct ref_table *t = xcalloc(1, sizeof *t);
    t->source = src;
    char *w = xasprintf("%s.section", where);
    bool ok = string_array(ld, json_object_get(j, "section"), w, &t->section, &t->nsection);
    free(w);
    if (!ok || t->nsection == 0) {
        if (ok)
            bad(ld, where, "\"section\" must name at least one heading");
        table_free(t);
        return NULL;
    }
    t->section_slug = str_slug(t->section[t->nsection - 1]);
    t->title = opt_string(ld, j, "title", where);
    if (!t->title)
        t->title = xstrdup(t->section[t->nsection - 1]);
    t->command = opt_string(ld, j, "command", where);
    t->line = opt_line(ld, j, where);

    json_t *ctx = json_object_get(j, "context");
    if (json_is_array(ctx)) {
        size_t n = json_array_size(ctx);
        t->context = xcalloc(2 * n + 1, sizeof *t->context);
        for (size_t i = 0; i < n; i++) {
            json_t *pair = json_array_get(ctx, i);
            if (!json_is_array(pair) || json_array_size(pair) != 2 ||
                !json_is_string(json_array_get(pair, 0)) ||
                !json_is_string(json_array_get(pair, 1))) {
                w = xasprintf("%s.context[%zu]", where, i);
                bad(ld, w, "expected a [name, value] pair of strings");
                free(w);
                continue;
            }
            t->context[2 * t->ncontext] = xstrdup(json_string_value(json_array_get(pair, 0)));
            t->context[2 * t->ncontext + 1] = xstrdup(json_string_value(json_array_get(pair, 1)));
            t->ncontext++;
        }
    }

    json_t *keys = json_object_get(j, "keys");
    if (keys) {
        w = xasprintf("%s.keys", where);
        string_array(ld, keys, w, &t->keys, &t->nkeys);
        free(w);
    }

    json_t *cols = json_object_get(j, "columns");
    if (!json_is_array(cols)) {
        w = xasprintf("%s.columns", where);
        bad(ld, w, "expected an array of columns");
        free(w);
        table_free(t);
        return NULL;
    }
    t->ncols = json_array_size(cols);
    t->cols = xcalloc(t->ncols ? t->ncols : 1, sizeof *t->cols);
    for (size_t c = 0; c < t->ncols; c++) {
        json_t *col = json_array_get(cols, c);
        w = xasprintf("%s.columns[%zu]", where, c);
        if (!json_is_object(col)) {
            bad(ld, w, "a column must be an object");
            free(w);
            table_free(t);
            return NULL;
        }
        t->cols[c].header = opt_string(ld, col, "header", w);
        t->cols[c].board = opt_string(ld, col, "board", w);
        t->cols[c].name = opt_string(ld, col, "name", w);
        t->cols[c].unit = opt_string(ld, col, "unit", w);
        if (!t->cols[c].name)
            t->cols[c].name = xstrdup(t->cols[c].header ? t->cols[c].header : "value");
        free(w);
    }

    json_t *rows = json_object_get(j, "rows");
    if (!json_is_array(rows)) {
        w = xasprintf("%s.rows", where);
        bad(ld, w, "expected an array of rows");
        free(w);
        table_free(t);
        return NULL;
    }
    size_t n = json_array_size(rows);
    t->rows = xcalloc(n ? n : 1, sizeof *t->rows);
    for (size_t r = 0; r < n; r++) {
        w = xasprintf("%s.rows[%zu]", where, r);
        if (load_row(ld, json_array_get(rows, r), w, t, &t->rows[t->nrows]))
            t->nrows++;
        else
            row_free_partial(&t->rows[t->nrows], t->ncols);
        free(w);
    }
    return t;
}

static void load_boards(struct loader *ld, struct refdb *db, json_t *arr,
                        const struct ref_source *src)
{
    if (!arr || json_is_null(arr))
        return;
    if (!json_is_array(arr)) {
        bad(ld, "boards", "expected an array");
        return;
    }
    for (size_t i = 0; i < json_array_size(arr); i++) {
        json_t *j = json_array_get(arr, i);
        char *w = xasprintf("boards[%zu]", i);
        char *key = json_is_object(j) ? opt_string(ld, j, "key", w) : NULL;
        if (!key) {
            bad(ld, w, "a board needs a \"key\"");
            free(w);
            continue;
        }
        struct ref_board *b = xcalloc(1, sizeof *b);
        b->source = src;
        b->key = key;
        b->name = opt_string(ld, j, "name", w);
        b->description = opt_string(ld, j, "description", w);
        b->cpu_mhz = opt_number(ld, j, "cpu_mhz", w);
        b->ddr_type = opt_string(ld, j, "ddr_type", w);
        b->ddr_mts = opt_number(ld, j, "ddr_mts", w);
        free(w);
        db->boards = xrealloc(db->boards, (db->nboards + 1) * sizeof *db->boards);
        db->boards[db->nboards++] = b;
    }
}

#define REFS_FILE_LIMIT (64 << 20)      /* the shipped ones are ~0.1 MB */

/* A reference file that could not be read (errno says why). */
static int read_failed(const char *path, struct diag *dg)
{
    if (errno == EFBIG)
        diag_add(dg, "%s: larger than %d MB; not a reference file", path, REFS_FILE_LIMIT >> 20);
    else
        diag_add(dg, "%s: %s", path, file_strerror(errno ? errno : EIO));
    return -1;
}

int refdb_load_file(struct refdb *db, const char *path, struct diag *dg)
{
    size_t len = 0;
    errno = 0;
    char *text = read_file(path, REFS_FILE_LIMIT, &len);
    int rc = text ? refdb_load_text(db, path, text, len, dg) : read_failed(path, dg);
    free(text);
    return rc;
}

int refdb_load_text(struct refdb *db, const char *path, const char *text, size_t len,
                    struct diag *dg)
{
    json_error_t jerr;
    json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
    if (!root) {
        if (jerr.line > 0)
            diag_add(dg, "%s:%d:%d: %s", path, jerr.line, jerr.column, jerr.text);
        else
            diag_add(dg, "%s: %s", path, jerr.text);
        return -1;
    }
    struct loader ld = { .path = path, .dg = dg };
    json_t *fmt = json_object_get(root, "format");
    if (!json_is_object(root) || !json_is_string(fmt) ||
        strcmp(json_string_value(fmt), REFS_FORMAT) != 0) {
        diag_add(dg, "%s: not a reference file (expected \"format\": \"%s\")", path, REFS_FORMAT);
        json_decref(root);
        return -1;
    }
    struct ref_source *src = xcalloc(1, sizeof *src);
    src->path = xstrdup(path);
    src->order = db->nsources;
    json_t *s = json_object_get(root, "source");
    if (json_is_object(s)) {
        src->file = opt_string(&ld, s, "file", "source");
        src->title = opt_string(&ld, s, "title", "source");
        src->sdk = opt_string(&ld, s, "sdk", "source");
        src->version = opt_string(&ld, s, "version", "source");
    }
    if (!src->title)
        src->title = xstrdup(src->file ? src->file : path);
    db->sources = xrealloc(db->sources, (db->nsources + 1) * sizeof *db->sources);
    db->sources[db->nsources++] = src;

    load_boards(&ld, db, json_object_get(root, "boards"), src);
    json_t *tables = json_object_get(root, "tables");
    if (!json_is_array(tables)) {
        bad(&ld, "tables", "expected an array");
    } else {
        for (size_t i = 0; i < json_array_size(tables); i++) {
            char *w = xasprintf("tables[%zu]", i);
            struct ref_table *t = load_table(&ld, json_array_get(tables, i), w, src);
            free(w);
            if (!t)
                continue;
            db->tables = xrealloc(db->tables, (db->ntables + 1) * sizeof *db->tables);
            db->tables[db->ntables++] = t;
        }
    }
    json_decref(root);
    return ld.bad ? -1 : 0;
}

int refdb_load_dir(struct refdb *db, const struct data_dir *d, struct diag *dg)
{
    char **names = NULL;
    ssize_t n = data_dir_list(d, ".json", &names);
    if (n < 0) {
        diag_add(dg, "%s: %s", d->label, strerror(errno));
        return 0;
    }
    int loaded = 0;
    for (ssize_t i = 0; i < n; i++) {
        char *label = data_dir_file_label(d, names[i]);
        size_t len = 0;
        errno = 0;
        char *text = data_dir_read(d, names[i], REFS_FILE_LIMIT, &len);
        if ((text ? refdb_load_text(db, label, text, len, dg) : read_failed(label, dg)) == 0)
            loaded++;
        free(text);
        free(label);
        free(names[i]);
    }
    free(names);
    if (n == 0)
        diag_add(dg, "%s: no reference files (*.json) found", d->label);
    return loaded;
}

int refdb_load_path(struct refdb *db, const char *path, struct diag *dg)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        diag_add(dg, "%s: %s", path, strerror(errno));
        return 0;
    }
    if (!S_ISDIR(st.st_mode))
        return refdb_load_file(db, path, dg) == 0 ? 1 : 0;
    struct data_dir d;
    data_dir_at(&d, path);
    int loaded = refdb_load_dir(db, &d, dg);
    data_dir_free(&d);
    return loaded;
}

/* --- queries -------------------------------------------------------------- */

int ref_version_cmp(const char *a, const char *b)
{
    if (!a || !b)
        return (a != NULL) - (b != NULL);
    while (*a || *b) {
        if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
            unsigned long x = strtoul(a, (char **)&a, 10);
            unsigned long y = strtoul(b, (char **)&b, 10);
            if (x != y)
                return x < y ? -1 : 1;
        } else {
            if (*a != *b)
                return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
            a++;
            b++;
        }
    }
    return 0;
}

/* Is source a newer than b? Version first, then later load order. */
static bool newer(const struct ref_source *a, const struct ref_source *b)
{
    int c = ref_version_cmp(a->version, b->version);
    return c != 0 ? c > 0 : a->order > b->order;
}

bool refdb_lookup(const struct refdb *db, const char *board, const char *section,
                  const char *metric, const char *column, struct ref_hit *out)
{
    return refdb_lookup_table(db, board, section, NULL, metric, column, out);
}

bool refdb_lookup_table(const struct refdb *db, const char *board, const char *section,
                        const char *table, const char *metric, const char *column,
                        struct ref_hit *out)
{
    bool found = false;
    memset(out, 0, sizeof *out);
    if (!db || !board || !section || !metric)
        return false;
    for (size_t i = 0; i < db->ntables; i++) {
        const struct ref_table *t = db->tables[i];
        if (strcasecmp(t->section_slug, section) != 0)
            continue;
        if (table && (!t->title || fnmatch(table, t->title, FNM_CASEFOLD) != 0))
            continue;
        if (found && !newer(t->source, out->table->source))
            continue;
        for (size_t c = 0; c < t->ncols; c++) {
            const struct ref_column *col = &t->cols[c];
            if (!col->board || strcmp(col->board, board) != 0)
                continue;
            if (column && fnmatch(column, col->name, FNM_CASEFOLD) != 0)
                continue;
            for (size_t r = 0; r < t->nrows; r++) {
                const struct ref_row *row = &t->rows[r];
                if (strcasecmp(row->slug, metric) != 0 || !row->values[c].present)
                    continue;
                out->table = t;
                out->row = row;
                out->col = col;
                out->value = &row->values[c];
                out->unit = row->unit ? row->unit : col->unit;
                found = true;
                goto next_table;
            }
        }
    next_table:;
    }
    return found;
}

/* Appends key to the set *out (n, cap) unless it is there. */
static void key_add(const char ***out, size_t *n, size_t *cap, const char *key)
{
    for (size_t i = 0; i < *n; i++)
        if (strcmp((*out)[i], key) == 0)
            return;
    xgrow(out, cap, *n + 1, sizeof **out);
    (*out)[(*n)++] = key;
}

size_t refdb_boards_with(const struct refdb *db, const char *section,
                         const char *metric, const char ***out)
{
    size_t n = 0, cap = 0;
    *out = NULL;
    for (size_t i = 0; db && section && metric && i < db->ntables; i++) {
        const struct ref_table *t = db->tables[i];
        if (strcasecmp(t->section_slug, section) != 0)
            continue;
        for (size_t r = 0; r < t->nrows; r++) {
            if (strcasecmp(t->rows[r].slug, metric) != 0)
                continue;
            for (size_t c = 0; c < t->ncols; c++)
                if (t->cols[c].board && t->rows[r].values[c].present)
                    key_add(out, &n, &cap, t->cols[c].board);
        }
    }
    if (!*out)
        *out = xcalloc(1, sizeof **out);
    return n;
}

size_t refdb_board_keys(const struct refdb *db, const char ***out)
{
    size_t n = 0, cap = 0;
    *out = NULL;
    for (size_t i = 0; db && i < db->nboards; i++)
        key_add(out, &n, &cap, db->boards[i]->key);
    for (size_t i = 0; db && i < db->ntables; i++)
        for (size_t c = 0; c < db->tables[i]->ncols; c++)
            if (db->tables[i]->cols[c].board)
                key_add(out, &n, &cap, db->tables[i]->cols[c].board);
    if (!*out)
        *out = xcalloc(1, sizeof **out);
    return n;
}

const struct ref_board *refdb_board(const struct refdb *db, const char *key)
{
    const struct ref_board *best = NULL;
    for (size_t i = 0; db && key && i < db->nboards; i++) {
        const struct ref_board *b = db->boards[i];
        if (strcmp(b->key, key) == 0 && (!best || newer(b->source, best->source)))
            best = b;
    }
    return best;
}

bool refdb_has_board(const struct refdb *db, const char *key)
{
    for (size_t i = 0; db && key && i < db->ntables; i++)
        for (size_t c = 0; c < db->tables[i]->ncols; c++)
            if (db->tables[i]->cols[c].board && strcmp(db->tables[i]->cols[c].board, key) == 0)
                return true;
    return false;
}

/* "1234.5", "1234.5 (min 1200, max 1300)", "45%", "n/a". */
bool ref_value_parse(const char *cell, struct ref_value *v)
{
    memset(v, 0, sizeof *v);
    while (isspace((unsigned char)*cell))
        cell++;
    if (!*cell || strcasecmp(cell, "n/a") == 0 || strcmp(cell, "-") == 0 ||
        strcasecmp(cell, "na") == 0)
        return false;
    char *end;
    errno = 0;
    double avg = strtod(cell, &end);
    if (end == cell || errno == ERANGE || !isfinite(avg))
        goto text;
    while (isspace((unsigned char)*end))
        end++;
    if (*end == '%') {
        end++;
        while (isspace((unsigned char)*end))
            end++;
    }
    if (*end == '\0') {
        v->present = true;
        v->avg = avg;
        return true;
    }
    double mn, mx;
    int used = 0;
    if (sscanf(end, "(min %lf, max %lf)%n", &mn, &mx, &used) == 2 && used > 0) {
        const char *rest = end + used;
        while (isspace((unsigned char)*rest))
            rest++;
        if (*rest == '\0') {
            v->present = true;
            v->avg = avg;
            v->has_min = v->has_max = true;
            v->min = mn;
            v->max = mx;
            return true;
        }
    }
text:
    v->text = xstrdup(cell);
    return false;
}
