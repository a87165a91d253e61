/* test_refdb.c - loading reference JSON: good, newer, malformed, missing. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "data/refdb.h"
#include "suites.h"
#include "common/util.h"

static struct refdb *load(const char *rel, struct diag *dg, int *loaded)
{
    struct refdb *db = refdb_new();
    char *p = test_data_path(rel);
    *loaded = refdb_load_path(db, p, dg);
    free(p);
    return db;
}

static bool diag_has(const struct diag *dg, const char *needle)
{
    for (size_t i = 0; i < dg->n; i++)
        if (strstr(dg->msgs[i], needle))
            return true;
    return false;
}

START_TEST(good_file_loads_every_shape)
{
    struct diag dg;
    diag_init(&dg);
    int loaded;
    struct refdb *db = load("refs/good.json", &dg, &loaded);
    ck_assert_int_eq(loaded, 1);
    ck_assert_uint_eq(dg.n, 0);
    ck_assert_uint_eq(db->ntables, 4);
    ck_assert_uint_eq(db->nboards, 1);

    struct ref_hit hit;
    ck_assert(refdb_lookup(db, "am62xx_sk-fs", "stream", "copy", NULL, &hit));
    ck_assert_double_eq_tol(hit.value->avg, 1838.92, 1e-9);
    ck_assert(hit.value->has_min && hit.value->has_max);
    ck_assert_double_eq_tol(hit.value->min, 1650.2, 1e-9);
    ck_assert_double_eq_tol(hit.value->max, 2245.2, 1e-9);
    ck_assert_str_eq(hit.unit, "mb/s");
    ck_assert_str_eq(hit.table->title, "Stream Benchmarks");
    ck_assert_str_eq(hit.table->command, "stream_c");

    /* null cell: no reference for that board */
    ck_assert(!refdb_lookup(db, "am62xx_lp_sk-fs", "stream", "scale", NULL, &hit));
    ck_assert(refdb_lookup(db, "am62xx_lp_sk-fs", "stream", "copy", NULL, &hit));
    ck_assert(!hit.value->has_min);
    ck_assert(!refdb_lookup(db, "j721e-idk-gw", "stream", "copy", NULL, &hit));
    ck_assert(!refdb_lookup(db, "am62xx_sk-fs", "stream", "nosuch", NULL, &hit));

    /* multi-cell key, unit on the column, text cell */
    ck_assert(refdb_lookup(db, "am62xx_sk-fs", "openssl_performance", "aes-128-cbc-1024",
                           "throughput", &hit));
    ck_assert_double_eq_tol(hit.value->avg, 21477.03, 1e-9);
    ck_assert_str_eq(hit.unit, "KBytes/Sec");
    ck_assert_str_eq(hit.row->name, "aes-128-cbc 1024");
    ck_assert_uint_eq(hit.table->ncontext, 1);
    ck_assert_str_eq(hit.table->context[0], "Core");
    ck_assert(!refdb_lookup(db, "am62xx_sk-fs", "openssl_performance", "aes-128-cbc-16", NULL, &hit));
    ck_assert_str_eq(db->tables[2]->rows[1].values[0].text, "see note");

    const struct ref_board *b = refdb_board(db, "am62xx_sk-fs");
    ck_assert_ptr_nonnull(b);
    ck_assert_double_eq_tol(b->cpu_mhz, 1400, 1e-9);
    ck_assert(refdb_has_board(db, "am62xx_lp_sk-fs"));
    ck_assert(!refdb_has_board(db, "am69_sk-fs"));
    refdb_free(db);
    diag_free(&dg);
}
END_TEST

START_TEST(newer_guide_wins)
{
    struct diag dg;
    diag_init(&dg);
    int loaded;
    struct refdb *db = load("refs", &dg, &loaded);
    ck_assert_int_eq(loaded, 2);
    struct ref_hit hit;
    ck_assert(refdb_lookup(db, "am62xx_sk-fs", "stream", "copy", NULL, &hit));
    ck_assert_double_eq_tol(hit.value->avg, 2000.0, 1e-9);   /* 12.00.00 over 11.00.00 */
    ck_assert_str_eq(hit.table->source->version, "12.00.00");
    /* rows only the older guide has still come from it */
    ck_assert(refdb_lookup(db, "am62xx_sk-fs", "stream", "triad", NULL, &hit));
    ck_assert_str_eq(hit.table->source->version, "11.00.00");
    refdb_free(db);
    diag_free(&dg);
}
END_TEST

START_TEST(malformed_json_names_file_and_position)
{
    struct diag dg;
    diag_init(&dg);
    int loaded;
    struct refdb *db = load("refs-bad/malformed.json", &dg, &loaded);
    ck_assert_int_eq(loaded, 0);
    ck_assert_uint_eq(dg.n, 1);
    ck_assert_msg(strstr(dg.msgs[0], "malformed.json:5:"), "got: %s", dg.msgs[0]);
    ck_assert_uint_eq(db->ntables, 0);
    refdb_free(db);
    diag_free(&dg);
}
END_TEST

START_TEST(bad_schema_keeps_what_is_sound)
{
    struct diag dg;
    diag_init(&dg);
    int loaded;
    struct refdb *db = load("refs-bad/schema.json", &dg, &loaded);
    ck_assert_int_eq(loaded, 0);
    ck_assert(diag_has(&dg, "schema.json: tables[0].section"));
    ck_assert(diag_has(&dg, "tables[1].rows[1].values[0]"));
    ck_assert(diag_has(&dg, "tables[1].rows[2].values"));
    /* an empty key was freed twice (found by fuzz_refdb) */
    ck_assert(diag_has(&dg, "tables[1].rows[3]: a row needs at least one key cell"));
    /* a line number out of int range was cast anyway (found by fuzz_refdb) */
    ck_assert(diag_has(&dg, "tables[1].rows[4].line: expected a line number"));
    ck_assert(diag_has(&dg, "tables[1].line: expected a line number"));
    ck_assert_uint_eq(db->ntables, 1);
    ck_assert_int_eq(db->tables[0]->line, 0);
    ck_assert_uint_eq(db->tables[0]->nrows, 2);
    ck_assert_str_eq(db->tables[0]->rows[0].slug, "fine");
    /* the row itself is sound: kept, with its line unknown */
    ck_assert_str_eq(db->tables[0]->rows[1].slug, "far");
    ck_assert_int_eq(db->tables[0]->rows[1].line, 0);
    refdb_free(db);
    diag_free(&dg);
}
END_TEST

START_TEST(foreign_and_missing_files)
{
    struct diag dg;
    diag_init(&dg);
    int loaded;
    struct refdb *db = load("refs-bad/foreign.json", &dg, &loaded);
    ck_assert_int_eq(loaded, 0);
    ck_assert(diag_has(&dg, "not a reference file"));
    refdb_free(db);
    diag_free(&dg);

    db = load("refs-bad/nonexistent.json", &dg, &loaded);
    ck_assert_int_eq(loaded, 0);
    ck_assert(diag_has(&dg, "nonexistent.json: No such file"));
    refdb_free(db);
    diag_free(&dg);

    /* a whole folder: the good files load, the bad ones are named */
    db = load("refs-bad", &dg, &loaded);
    ck_assert_int_eq(loaded, 0);
    ck_assert_uint_ge(dg.n, 3);
    ck_assert_uint_eq(db->ntables, 1);
    refdb_free(db);
    diag_free(&dg);
}
END_TEST

START_TEST(value_cells_parse)
{
    struct ref_value v;
    ck_assert(ref_value_parse("1234.5", &v));
    ck_assert_double_eq_tol(v.avg, 1234.5, 1e-9);
    ck_assert(!v.has_min);
    ck_assert(ref_value_parse("29.86 (min 25.84, max 32.02)", &v));
    ck_assert_double_eq_tol(v.min, 25.84, 1e-9);
    ck_assert_double_eq_tol(v.max, 32.02, 1e-9);
    ck_assert(ref_value_parse(" 45% ", &v));
    ck_assert_double_eq_tol(v.avg, 45, 1e-9);
    ck_assert(!ref_value_parse("n/a", &v));
    ck_assert_ptr_null(v.text);
    ck_assert(!ref_value_parse("", &v));
    ck_assert(!ref_value_parse("RX=87 / TX=85.4", &v));
    ck_assert_str_eq(v.text, "RX=87 / TX=85.4");
    free(v.text);
    ck_assert(!ref_value_parse("12 (min x, max y)", &v));
    free(v.text);
}
END_TEST

START_TEST(versions_compare_numerically)
{
    ck_assert_int_lt(ref_version_cmp("9.00.00", "12.00.00"), 0);
    ck_assert_int_gt(ref_version_cmp("12.00.00", "11.02.08"), 0);
    ck_assert_int_eq(ref_version_cmp("10.01", "10.01"), 0);
    ck_assert_int_lt(ref_version_cmp(NULL, "1"), 0);
}
END_TEST

/* The value of column `col` of row `row` of the table titled `section`. */
static const struct ref_value *value_at(const struct refdb *db, const char *section,
                                        const char *row, size_t col)
{
    for (size_t i = 0; i < db->ntables; i++) {
        const struct ref_table *t = db->tables[i];
        if (strcmp(t->section[t->nsection - 1], section) != 0)
            continue;
        for (size_t r = 0; r < t->nrows; r++)
            if (strcmp(t->rows[r].name, row) == 0)
                return &t->rows[r].values[col];
    }
    ck_abort_msg("no row '%s' in '%s'", row, section);
    return NULL;
}

/* min > max, a negative value where the unit cannot be one, a denormal:
 * named with file and JSON path, that value dropped, the file loaded. */
START_TEST(values_out_of_range_are_dropped)
{
    struct diag dg;
    diag_init(&dg);
    int loaded;
    struct refdb *db = load("refs/ranges/ranges.json", &dg, &loaded);
    ck_assert_int_eq(loaded, 1);
    ck_assert_uint_eq(db->ntables, 2);
    static const char *const said[] = {
        "ranges.json: tables[1].rows[0].values[0].min: min 5 > max 2; value dropped",
        "ranges.json: tables[1].rows[1].values[0].avg: avg -1 is negative, which us cannot be",
        "ranges.json: tables[1].rows[2].values[0].avg: avg 1e-310 is not a normal number",
        "ranges.json: tables[1].rows[3].values[1].min: min -2 is negative, which % cannot be",
    };
    for (size_t i = 0; i < ARRAY_SIZE(said); i++)
        ck_assert_msg(diag_has(&dg, said[i]), "not said: %s", said[i]);
    ck_assert_uint_eq(dg.n, ARRAY_SIZE(said));
    ck_assert(!value_at(db, "Ranges", "inverted", 0)->present);
    ck_assert(value_at(db, "Ranges", "inverted", 1)->present);
    ck_assert(!value_at(db, "Ranges", "negative time", 0)->present);
    ck_assert(!value_at(db, "Ranges", "tiny", 0)->present);
    ck_assert(value_at(db, "Ranges", "load", 0)->present);
    ck_assert(!value_at(db, "Ranges", "load", 1)->present);
    /* units that can be negative, and a value with no unit at all */
    ck_assert_double_eq_tol(value_at(db, "Ranges", "gain", 0)->min, -4, 1e-12);
    ck_assert(value_at(db, "Ranges", "gain", 0)->present);
    ck_assert(value_at(db, "Ranges", "clock deviation", 0)->present);
    ck_assert(value_at(db, "Ranges", "temperature", 0)->present);
    ck_assert(value_at(db, "Ranges", "no unit", 0)->present);
    ck_assert(value_at(db, "Sound", "fine", 0)->present);
    refdb_free(db);
    diag_free(&dg);
}
END_TEST

Suite *suite_refdb(void)
{
    Suite *s = suite_create("refdb");
    TCase *tc = tcase_create("load");
    tcase_add_test(tc, good_file_loads_every_shape);
    tcase_add_test(tc, newer_guide_wins);
    tcase_add_test(tc, malformed_json_names_file_and_position);
    tcase_add_test(tc, bad_schema_keeps_what_is_sound);
    tcase_add_test(tc, foreign_and_missing_files);
    tcase_add_test(tc, value_cells_parse);
    tcase_add_test(tc, versions_compare_numerically);
    tcase_add_test(tc, values_out_of_range_are_dropped);
    suite_add_tcase(s, tc);
    return s;
}
