/* test_guide_import.c - the guide importer on hand-written samples of each
 * layout, on bad input and on the five seed guides ($EVMBENCH_SEEDS, where
 * they are required, else shared/seeds next to the checkout; without them
 * the seed tests are skipped with a count on stderr). Seed counts come from simple scans of the
 * guide text here, not from the importer. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "data/catalog.h"
#include "data/refdb.h"
#include "guide/guide_import.h"
#include "suites.h"
#include "common/util.h"

/* ---- helpers -------------------------------------------------------- */

static json_t *import_fixture(const char *rel, struct diag *dg)
{
    char *path = test_data_path(rel);
    json_t *o = guide_import_file(path, LAYOUT_AUTO, dg);
    free(path);
    return o;
}

static bool diag_has(const struct diag *dg, const char *needle)
{
    for (size_t i = 0; i < dg->n; i++)
        if (strstr(dg->msgs[i], needle))
            return true;
    return false;
}

/* The nth table (0-based) with this title. */
static json_t *table_n(json_t *root, const char *title, int nth)
{
    size_t i;
    json_t *t;
    json_array_foreach(json_object_get(root, "tables"), i, t)
        if (!strcmp(json_string_value(json_object_get(t, "title")), title) && nth-- == 0)
            return t;
    ck_abort_msg("no table \"%s\"", title);
    return NULL;
}

static json_t *table(json_t *root, const char *title)
{
    return table_n(root, title, 0);
}

/* The row whose key cells are k1 (and k2 when given). */
static json_t *row(json_t *t, const char *k1, const char *k2)
{
    size_t i;
    json_t *r;
    json_array_foreach(json_object_get(t, "rows"), i, r) {
        json_t *key = json_object_get(r, "key");
        if (!strcmp(json_string_value(json_array_get(key, 0)), k1) &&
            (!k2 || !strcmp(json_string_value(json_array_get(key, 1)), k2)))
            return r;
    }
    ck_abort_msg("no row \"%s\"", k1);
    return NULL;
}

/* Index of the column with this header. */
static size_t col(json_t *t, const char *header)
{
    size_t i;
    json_t *c;
    json_array_foreach(json_object_get(t, "columns"), i, c)
        if (!strcmp(json_string_value(json_object_get(c, "header")), header))
            return i;
    ck_abort_msg("no column \"%s\"", header);
    return 0;
}

static json_t *cell(json_t *t, const char *k1, const char *k2, const char *header)
{
    return json_array_get(json_object_get(row(t, k1, k2), "values"), col(t, header));
}

static double num(json_t *v, const char *member)
{
    json_t *n = json_object_get(v, member);
    ck_assert_msg(json_is_number(n), "no number \"%s\"", member);
    return json_number_value(n);
}

static const char *str(json_t *o, const char *member)
{
    return json_string_value(json_object_get(o, member));
}

static size_t ntables(json_t *root)
{
    return json_array_size(json_object_get(root, "tables"));
}

static size_t nrows_total(json_t *root)
{
    size_t i, n = 0;
    json_t *t;
    json_array_foreach(json_object_get(root, "tables"), i, t)
        n += json_array_size(json_object_get(t, "rows"));
    return n;
}

/* Columns and non-empty values of one board over all tables. */
static void board_counts(json_t *root, const char *board, size_t *cols, size_t *vals,
                         size_t *minmax)
{
    size_t i, c, r;
    json_t *t, *co, *ro;
    *cols = *vals = *minmax = 0;
    json_array_foreach(json_object_get(root, "tables"), i, t) {
        json_array_foreach(json_object_get(t, "columns"), c, co) {
            const char *b = str(co, "board");
            if (!b || strcmp(b, board))
                continue;
            (*cols)++;
            json_array_foreach(json_object_get(t, "rows"), r, ro) {
                json_t *v = json_array_get(json_object_get(ro, "values"), c);
                *vals += !json_is_null(v);
                *minmax += json_object_get(v, "min") != NULL;
            }
        }
    }
}

static json_t *board(json_t *root, const char *key)
{
    size_t i;
    json_t *b;
    json_array_foreach(json_object_get(root, "boards"), i, b)
        if (!strcmp(str(b, "key"), key))
            return b;
    ck_abort_msg("no board %s", key);
    return NULL;
}

/* ---- layouts: hand-written samples --------------------------------- */

START_TEST(layout_names)
{
    ck_assert_int_eq(guide_layout_parse("cells"), LAYOUT_CELLS);
    ck_assert_int_eq(guide_layout_parse("rows"), LAYOUT_ROWS);
    ck_assert_int_eq(guide_layout_parse("markdown"), LAYOUT_MARKDOWN);
    ck_assert_int_eq(guide_layout_parse("rst"), LAYOUT_RST);
    ck_assert_int_eq(guide_layout_parse("auto"), LAYOUT_AUTO);
    ck_assert_int_eq(guide_layout_parse("html"), -1);
    ck_assert_str_eq(guide_layout_name(LAYOUT_MARKDOWN), "markdown");
}
END_TEST

START_TEST(cells_sample)
{
    struct diag dg;
    diag_init(&dg);
    json_t *o = import_fixture("guides/cells.txt", &dg);
    ck_assert_ptr_nonnull(o);
    json_t *src = json_object_get(o, "source");
    ck_assert_str_eq(str(src, "layout"), "cells");
    ck_assert_str_eq(str(src, "version"), "01.02.03");
    ck_assert_str_eq(str(src, "file"), "cells.txt");
    ck_assert_uint_eq(ntables(o), 4);

    json_t *b = board(o, "foo_sk-fs");
    ck_assert_str_eq(str(b, "name"), "Foo SK");
    ck_assert_int_eq(num(b, "cpu_mhz"), 1200);
    ck_assert_str_eq(str(b, "ddr_type"), "LPDDR4");
    ck_assert_int_eq(num(b, "ddr_mts"), 3200);
    ck_assert(json_is_null(json_object_get(board(o, "bar-evm"), "name")));

    json_t *t = table(o, "Stream Benchmarks");
    ck_assert_str_eq(str(t, "command"), "stream_c");
    ck_assert_str_eq(json_string_value(json_array_get(json_object_get(t, "section"), 1)), "Stream");
    json_t *v = cell(t, "copy", NULL, "foo_sk-fs: perf");
    ck_assert_double_eq_tol(num(v, "avg"), 100.5, 1e-9);
    ck_assert_double_eq_tol(num(v, "min"), 90.25, 1e-9);
    ck_assert_double_eq_tol(num(v, "max"), 110.75, 1e-9);
    ck_assert_str_eq(str(row(t, "copy", NULL), "unit"), "mb/s");
    ck_assert(json_is_null(cell(t, "scale", NULL, "foo_sk-fs: perf")));     /* n/a */

    t = table(o, "OpenSSL Performance");
    ck_assert_uint_eq(json_array_size(json_object_get(t, "keys")), 2);
    ck_assert_double_eq_tol(num(cell(t, "aes-128-cbc", "1024", "bar-evm: throughput (KBytes/Sec)"),
                                "avg"), 40.5, 1e-9);
    ck_assert_str_eq(str(t, "command"), "time -v openssl speed -elapsed -evp aes-128-cbc");

    t = table(o, "Accelerator");                /* board-less, keys guessed */
    ck_assert_uint_eq(json_array_size(json_object_get(t, "keys")), 2);
    ck_assert(json_is_null(json_object_get(json_array_get(json_object_get(t, "columns"), 0),
                                           "board")));
    ck_assert_double_eq_tol(num(cell(t, "sha256", "16 bytes", "ARM (%)"), "avg"), 99, 1e-9);

    t = table(o, "Rails");
    ck_assert_double_eq_tol(num(cell(t, "Total", NULL, "Power (mW)"), "avg"), 12.25, 1e-9);
    ck_assert_uint_eq(dg.n, 0);
    json_decref(o);
    diag_free(&dg);
}
END_TEST

START_TEST(rows_sample)
{
    struct diag dg;
    diag_init(&dg);
    json_t *o = import_fixture("guides/rows.txt", &dg);
    ck_assert_ptr_nonnull(o);
    ck_assert_str_eq(str(json_object_get(o, "source"), "layout"), "rows");
    ck_assert_uint_eq(ntables(o), 3);
    json_t *b = board(o, "foo-idk-gw");
    ck_assert_str_eq(str(b, "name"), "Foo EVM");
    ck_assert_int_eq(num(b, "cpu_mhz"), 2000);
    ck_assert_int_eq(num(b, "ddr_mts"), 4266);

    json_t *t = table(o, "Stream");             /* "Table: Stream" after it */
    ck_assert_double_eq_tol(num(cell(t, "copy", NULL, "foo-idk-gw: perf"), "max"), 6000.5, 1e-9);
    ck_assert_str_eq(str(row(t, "add", NULL), "unit"), "MB/s");

    t = table(o, "GFXBench");                   /* values on the next line */
    ck_assert_double_eq_tol(num(cell(t, "GFXBench 3.x gl_trex_off", NULL, "foo-idk-gw: Fps"),
                                "avg"), 34.88, 1e-9);

    t = table(o, "UDP Egress");
    json_t *sec = json_object_get(t, "section");
    ck_assert_str_eq(json_string_value(json_array_get(sec, 0)), "Ethernet");
    ck_assert_str_eq(json_string_value(json_array_get(sec, 1)), "UDP Throughput");
    json_t *c = json_array_get(json_object_get(t, "columns"), 1);
    ck_assert_str_eq(str(c, "name"), "CPU Load");
    ck_assert_str_eq(str(c, "unit"), "%");
    ck_assert_str_eq(str(c, "board"), "foo-idk-gw");
    ck_assert_double_eq_tol(num(cell(t, "1518", NULL,
                                     "foo-idk-gw: THROUGHPUT (Mbits/sec)"), "avg"), 957.07, 1e-9);
    json_decref(o);
    diag_free(&dg);
}
END_TEST

START_TEST(markdown_sample)
{
    struct diag dg;
    diag_init(&dg);
    json_t *o = import_fixture("guides/markdown.md", &dg);
    ck_assert_ptr_nonnull(o);
    json_t *src = json_object_get(o, "source");
    ck_assert_str_eq(str(src, "layout"), "markdown");
    ck_assert_str_eq(str(src, "sdk"), "mcu+");
    ck_assert_uint_eq(ntables(o), 4);          /* the context table is not one */

    json_t *t = table_n(o, "Boot time (HS-FS)", 0);
    json_t *ctx = json_object_get(t, "context");
    ck_assert_uint_eq(json_array_size(ctx), 3);
    ck_assert_str_eq(json_string_value(json_array_get(json_array_get(ctx, 0), 1)), "R5F");
    ck_assert_str_eq(json_string_value(json_array_get(json_array_get(ctx, 2), 0)),
                     "Boot Media Clock");
    ck_assert_double_eq_tol(num(cell(t, "Stage1: Total time taken", NULL, "Time (ms)"), "avg"),
                            43.008, 1e-9);
    t = table_n(o, "Boot time (HS-FS)", 1);     /* split at the repeated header */
    ck_assert_str_eq(json_string_value(json_array_get(json_object_get(t, "keys"), 0)),
                     "Stage2 boot time breakdown");

    t = table(o, "RPMSG latency");
    ck_assert_uint_eq(json_array_size(json_object_get(t, "keys")), 3);
    ck_assert_double_eq_tol(num(cell(t, "r5f0-0", "m4f0-0", "Average Message Latency (us)"),
                                "avg"), 13.824, 1e-9);
    ck_assert_uint_eq(json_array_size(json_object_get(t, "context")), 2);

    t = table(o, "Layer 2 Latency");            /* one cell per line */
    ck_assert_int_eq(num(cell(t, "TX Latency", NULL, "Total Latency (ns)"), "avg"), 10384);
    ck_assert_uint_eq(dg.n, 0);
    json_decref(o);
    diag_free(&dg);
}
END_TEST

START_TEST(rst_sample)
{
    struct diag dg;
    diag_init(&dg);
    json_t *o = import_fixture("guides/sample.rst", &dg);
    ck_assert_ptr_nonnull(o);
    json_t *src = json_object_get(o, "source");
    ck_assert_str_eq(str(src, "layout"), "rst");
    ck_assert_str_eq(str(src, "title"), "Gadget 2.0 Performance Guide");
    json_t *b = board(o, "gadget_sk-fs");       /* from a grid table */
    ck_assert_str_eq(str(b, "description"),
                     "Gadget Starter Kit with ARM running at 1.4GHz, LPDDR4 data rate 3200 MT/S");
    ck_assert_int_eq(num(b, "ddr_mts"), 3200);

    json_t *t = table(o, "Stream Benchmarks");  /* csv-table with :header: */
    json_t *sec = json_object_get(t, "section");
    ck_assert_uint_eq(json_array_size(sec), 2);
    ck_assert_str_eq(json_string_value(json_array_get(sec, 0)), "System Benchmarks");
    ck_assert_str_eq(str(t, "command"), "stream_c");
    json_t *v = cell(t, "copy", NULL, "gadget_sk-fs: perf");
    ck_assert_double_eq_tol(num(v, "min"), 1650.2, 1e-9);
    ck_assert_str_eq(str(row(t, "triad", NULL), "unit"), "mbs");     /* "mb\s" */

    t = table(o, "Boot times");                 /* grid table in .. table:: */
    ck_assert_double_eq_tol(num(cell(t, "SPL", NULL, "gadget_sk-fs: Time (ms)"), "avg"),
                            120.5, 1e-9);
    ck_assert_int_eq(num(cell(t, "Kernel, with \"quotes\"", NULL, "gadget_sk-fs: Time (ms)"),
                         "avg"), 2000);
    ck_assert_uint_eq(dg.n, 0);
    json_decref(o);
    diag_free(&dg);
}
END_TEST

/* A grid table wider than 64 columns kept only its first 63 (a fixed
 * array of column bounds), with no word said. */
START_TEST(rst_wide_grid)
{
    enum { NCOL = 100 };
    struct strbuf sep, head, hsep, row, doc;
    sb_init(&sep);
    sb_init(&head);
    sb_init(&hsep);
    sb_init(&row);
    sb_init(&doc);
    for (int c = 0; c < NCOL; c++) {
        sb_add(&sep, "+----------");
        sb_add(&hsep, "+==========");
        char cell[32];
        snprintf(cell, sizeof cell, c ? "|a-b: c%-4d" : "|Bench     ", c);
        sb_add(&head, cell);
        snprintf(cell, sizeof cell, c ? "|%8d.5" : "|copy      ", c);
        sb_add(&row, cell);
    }
    sb_add(&doc, "Gadget Performance Guide\n========================\n\nStream\n------\n\n");
    sb_addf(&doc, "%s+\n%s|\n%s+\n%s|\n%s+\n", sep.buf, head.buf, hsep.buf, row.buf, sep.buf);
    struct diag dg;
    diag_init(&dg);
    json_t *o = guide_import_text("wide.rst", doc.buf, doc.len, LAYOUT_AUTO, &dg);
    ck_assert_ptr_nonnull(o);
    json_t *t = table(o, "Stream");
    ck_assert_uint_eq(json_array_size(json_object_get(t, "columns")), NCOL - 1);
    ck_assert_double_eq_tol(num(cell(t, "copy", NULL, "a-b: c99"), "avg"), 99.5, 1e-9);
    ck_assert_uint_eq(dg.n, 0);
    json_decref(o);
    diag_free(&dg);
    sb_free(&sep);
    sb_free(&head);
    sb_free(&hsep);
    sb_free(&row);
    sb_free(&doc);
}
END_TEST

/* ---- bad input ------------------------------------------------------ */

START_TEST(bad_empty)
{
    struct diag dg;
    diag_init(&dg);
    ck_assert_ptr_null(import_fixture("guides/empty.txt", &dg));
    ck_assert(diag_has(&dg, "empty.txt:1: empty file"));
    ck_assert_ptr_null(guide_import_text("mem", "  \n\n", 4, LAYOUT_AUTO, &dg));
    diag_free(&dg);
}
END_TEST

START_TEST(bad_not_a_guide)
{
    struct diag dg;
    diag_init(&dg);
    ck_assert_ptr_null(import_fixture("guides/notaguide.txt", &dg));
    ck_assert(diag_has(&dg, "notaguide.txt:1: not a performance guide"));
    diag_free(&dg);
}
END_TEST

START_TEST(bad_binary)
{
    struct diag dg;
    diag_init(&dg);
    ck_assert_ptr_null(import_fixture("guides/binary.bin", &dg));
    ck_assert(diag_has(&dg, "binary.bin:2: binary data"));
    /* a stray NUL in a text guide is replaced and reported */
    static const char text[] = "1.1. Performance Guide\n1.1.1. S\n| K | a-b: perf |\n"
                               "|---|---|\n| x\0y | 1.5 |\n";
    json_t *o = guide_import_text("nul.md", text, sizeof text - 1, LAYOUT_AUTO, &dg);
    ck_assert_ptr_nonnull(o);
    ck_assert(diag_has(&dg, "nul.md:5:"));
    ck_assert_uint_eq(ntables(o), 1);
    json_decref(o);
    diag_free(&dg);
}
END_TEST

START_TEST(bad_missing_file)
{
    struct diag dg;
    diag_init(&dg);
    ck_assert_ptr_null(guide_import_file("/nonexistent/guide.txt", LAYOUT_AUTO, &dg));
    ck_assert(diag_has(&dg, "/nonexistent/guide.txt: "));
    diag_free(&dg);
}
END_TEST

/* A header without rows imports nothing: an error that says why. */
START_TEST(bad_truncated)
{
    struct diag dg;
    diag_init(&dg);
    ck_assert_ptr_null(import_fixture("guides/truncated-rows.txt", &dg));
    ck_assert(diag_has(&dg, "truncated-rows.txt:5: table \"Benchmarks\" has a header but no rows"));
    ck_assert(diag_has(&dg, "truncated-rows.txt:1: no tables imported: layout rows (detected "
                            "from 1 lines naming board columns) found 1 table, none of them"));
    diag_free(&dg);
}
END_TEST

/* A guide cut in the middle of a row: the rows before it are imported,
 * the cut is reported. */
START_TEST(bad_cut_in_a_row)
{
    static const char md[] = "# G\n\n## Stream\n\n| K | a-b: perf |\n|---|---|\n"
                             "| copy | 1.5 |\n| scale | 2";
    static const char rows[] = "1.1. Stream\n\nBenchmarks a-b: perf a-b: max\n"
                               "copy (MB/s) 1.5 2.5\nscale (MB/s) 2";
    struct diag dg;
    diag_init(&dg);
    json_t *o = guide_import_text("cut.md", md, sizeof md - 1, LAYOUT_AUTO, &dg);
    ck_assert_ptr_nonnull(o);
    ck_assert_uint_eq(nrows_total(o), 1);
    ck_assert(diag_has(&dg, "cut.md:8: the file ends without a line end inside table \"K\": "
                            "it looks truncated; the row cut off"));
    json_decref(o);
    o = guide_import_text("cut.txt", rows, sizeof rows - 1, LAYOUT_AUTO, &dg);
    ck_assert_ptr_nonnull(o);
    ck_assert_uint_eq(nrows_total(o), 2);
    ck_assert(diag_has(&dg, "cut.txt:5: the file ends without a line end inside table "
                            "\"Benchmarks\": it looks truncated; its last row may be incomplete"));
    ck_assert(diag_has(&dg, "cut.txt:5: table \"Stream\": row \"scale (MB/s)\": a guess: 1 of 2 "
                            "value cells"));
    json_decref(o);
    /* a complete guide with its final line end says nothing of the kind */
    static const char whole[] = "1.1. Stream\n\nBenchmarks a-b: perf\ncopy (MB/s) 1.5\n";
    o = guide_import_text("whole.txt", whole, sizeof whole - 1, LAYOUT_AUTO, &dg);
    ck_assert_ptr_nonnull(o);
    ck_assert(!diag_has(&dg, "whole.txt:"));
    json_decref(o);
    diag_free(&dg);
}
END_TEST

/* Setext headings ("===", "---" underlines) are Markdown as much as rst:
 * with pipe tables the guide is Markdown (it was read as rst, 0 tables). */
START_TEST(setext_markdown)
{
    struct diag dg;
    diag_init(&dg);
    json_t *o = import_fixture("guides/setext.md", &dg);
    ck_assert_ptr_nonnull(o);
    json_t *src = json_object_get(o, "source");
    ck_assert_str_eq(str(src, "layout"), "markdown");
    ck_assert_str_eq(str(src, "title"), "Widget Linux 01.02.03 Performance Guide");
    ck_assert_uint_eq(ntables(o), 2);
    json_t *t = table(o, "Stream");
    ck_assert_str_eq(str(t, "command"), "stream_c");
    ck_assert_double_eq_tol(num(cell(t, "copy", NULL, "bar-evm: perf"), "avg"), 200.25, 1e-9);
    t = table(o, "Dhrystone");
    ck_assert_double_eq_tol(num(cell(t, "dhrystone_per_mhz", NULL, "foo_sk-fs: perf"), "avg"),
                            2.9, 1e-9);
    ck_assert_uint_eq(dg.n, 0);
    json_decref(o);
    diag_free(&dg);
}
END_TEST

/* The table of layouts, auto first: each name parses to its index and
 * back, and guide_layout_names() lists them all for --help. */
START_TEST(layout_table)
{
    static const char *const want[] = { "auto", "cells", "rows", "markdown", "rst" };
    ck_assert_uint_eq(guide_layout_count(), ARRAY_SIZE(want));
    for (size_t i = 0; i < ARRAY_SIZE(want); i++) {
        ck_assert_int_eq(guide_layout_parse(want[i]), (int)i);
        ck_assert_str_eq(guide_layout_name((enum guide_layout)i), want[i]);
    }
    ck_assert_str_eq(guide_layout_name((enum guide_layout)ARRAY_SIZE(want)), "auto");
    char *names = guide_layout_names();
    ck_assert_str_eq(names, "auto, cells, rows, markdown, rst");
    free(names);
}
END_TEST

/* A rows guide has as many "Table N.M" captions (evidence for cells) as
 * header lines naming boards (evidence for rows): the tie goes to rows. */
START_TEST(detect_tie_rows_over_cells)
{
    static const char text[] = "Widget Performance Guide\n\nTable 1.1 Stream\n\n"
                               "Benchmarks foo-idk-gw: perf\nCopy 100.5\nScale 90\n";
    struct diag dg;
    diag_init(&dg);
    json_t *o = guide_import_text("tie.txt", text, sizeof text - 1, LAYOUT_AUTO, &dg);
    ck_assert_msg(o != NULL, "%s", dg.n ? dg.msgs[dg.n - 1] : "");
    ck_assert_str_eq(str(json_object_get(o, "source"), "layout"), "rows");
    ck_assert_uint_eq(ntables(o), 1);
    json_decref(o);
    diag_free(&dg);
}
END_TEST

/* "#" headings give their level: "## A" then "### B" nests B in A. */
START_TEST(atx_levels)
{
    static const char md[] = "# Widget Performance Guide #\n\n## System Benchmarks\n\n"
                             "### Stream\n\n| K | a-b: perf |\n|---|---|\n| copy | 1.5 |\n";
    json_t *o = guide_import_text("atx.md", md, sizeof md - 1, LAYOUT_AUTO, NULL);
    ck_assert_ptr_nonnull(o);
    json_t *sec = json_object_get(table(o, "Stream"), "section");
    ck_assert_uint_eq(json_array_size(sec), 2);
    ck_assert_str_eq(json_string_value(json_array_get(sec, 0)), "System Benchmarks");
    ck_assert_str_eq(str(json_object_get(o, "source"), "title"), "Widget Performance Guide");
    json_decref(o);
}
END_TEST

/* Zero tables is an error for every layout, with the layout, how it was
 * chosen and what its reader looks for. */
START_TEST(zero_tables_every_layout)
{
    static const char text[] = "Widget Performance Guide\n========================\n\n"
                               "Stream\n------\n\nNo numbers here.\n\nDhrystone\n---------\n";
    static const char *const wants[] = {
        [LAYOUT_CELLS] = "layout cells (forced with --layout) found no table; it reads board-column",
        [LAYOUT_ROWS] = "layout rows (forced with --layout) found no table; it reads a header line",
        [LAYOUT_MARKDOWN] = "layout markdown (forced with --layout) found no table; it reads \"| ... |\"",
        [LAYOUT_RST] = "layout rst (forced with --layout) found no table; it reads a csv-table",
    };
    for (int l = LAYOUT_CELLS; l <= LAYOUT_RST; l++) {
        struct diag dg;
        diag_init(&dg);
        ck_assert_ptr_null(guide_import_text("z.md", text, sizeof text - 1,
                                             (enum guide_layout)l, &dg));
        ck_assert_msg(diag_has(&dg, wants[l]), "layout %d: %s", l, dg.n ? dg.msgs[0] : "");
        diag_free(&dg);
    }
    struct diag dg;
    diag_init(&dg);
    ck_assert_ptr_null(guide_import_text("z.md", text, sizeof text - 1, LAYOUT_AUTO, &dg));
    ck_assert(diag_has(&dg, "z.md:1: no tables imported: layout rst (detected from 0 rst "
                            "directives, grid tables or underlines and 3 \"===\"/\"---\" underlines)"));
    diag_free(&dg);
}
END_TEST

START_TEST(bad_rows)
{
    struct diag dg;
    diag_init(&dg);
    json_t *o = import_fixture("guides/badrows.md", &dg);
    ck_assert_ptr_nonnull(o);
    json_t *t = table(o, "Stream");
    ck_assert_uint_eq(json_array_size(json_object_get(t, "rows")), 4);
    /* fewer cells: padded with null; more: dropped; text: kept as text */
    ck_assert(json_is_null(cell(t, "add", NULL, "bar_sk-fs: perf")));
    ck_assert_double_eq_tol(num(cell(t, "scale", NULL, "bar_sk-fs: perf"), "avg"), 22.5, 1e-9);
    ck_assert_str_eq(str(cell(t, "triad", NULL, "foo_sk-fs: perf"), "text"), "fast");
    ck_assert(diag_has(&dg, "badrows.md:6: table \"Stream\": row \"add (MB/s)\": a guess: 1 of 2"));
    ck_assert(diag_has(&dg, "badrows.md:7:"));
    ck_assert(diag_has(&dg, "badrows.md:8: table \"Stream\": value \"fast\" is not a number"));
    ck_assert(diag_has(&dg, "badrows.md:14: table ends inside a row"));
    json_decref(o);
    diag_free(&dg);
}
END_TEST

/* Values peeled off a line that turned out not to be a row leaked (found
 * by fuzz_guide; the sanitized build's leak check is what fails). */
START_TEST(bad_rows_not_a_row)
{
    struct diag dg;
    diag_init(&dg);
    char *p = test_data_path("guides/fuzz-rows-leak.txt");
    json_t *o = guide_import_file(p, LAYOUT_ROWS, &dg);
    free(p);
    ck_assert_ptr_nonnull(o);
    ck_assert_uint_ge(ntables(o), 1);
    json_decref(o);
    diag_free(&dg);
}
END_TEST

/* An Evaluation Module whose clock and data rate no board has (found by
 * fuzz_guide: 10^72 GHz did not fit the integer it was converted to, which
 * UBSan reports): the numbers are left out, the board is kept. */
START_TEST(bad_board_rates)
{
    char *p = test_data_path("guides/rows.txt");
    size_t len;
    char *text = read_file(p, 0, &len);
    free(p);
    ck_assert_ptr_nonnull(text);
    struct strbuf sb;
    sb_init(&sb);
    const char *clock = strstr(text, "2GHz"), *rate = strstr(text, "4266 MT/S");
    ck_assert(clock && rate && clock < rate);
    sb_addn(&sb, text, (size_t)(clock - text));
    sb_add(&sb, "2555555555555555555555555555555555555555555555555555555555555555555555555GHz");
    sb_addn(&sb, clock + 4, (size_t)(rate - clock - 4));
    sb_add(&sb, "99999999999999999999999999 MT/S");
    sb_add(&sb, rate + 9);
    struct diag dg;
    diag_init(&dg);
    json_t *o = guide_import_text("rates.txt", sb.buf, sb.len, LAYOUT_AUTO, &dg);
    ck_assert_ptr_nonnull(o);
    json_t *b = board(o, "foo-idk-gw");
    ck_assert_str_eq(str(b, "name"), "Foo EVM");
    ck_assert(json_is_null(json_object_get(b, "cpu_mhz")));
    ck_assert(json_is_null(json_object_get(b, "ddr_mts")));
    json_decref(o);
    diag_free(&dg);
    sb_free(&sb);
    free(text);
}
END_TEST

/* A csv-table option given twice: the last one counts and the first is
 * not leaked (found by fuzz_guide). */
START_TEST(bad_rst_option_twice)
{
    struct diag dg;
    diag_init(&dg);
    json_t *o = import_fixture("guides/rst-header-twice.rst", &dg);
    ck_assert_ptr_nonnull(o);
    json_t *t = table(o, "Stream Benchmarks");
    ck_assert_double_eq_tol(num(cell(t, "copy", NULL, "am62xx_sk-fs: perf"), "avg"), 5927.30, 1e-9);
    json_decref(o);
    diag_free(&dg);
}
END_TEST

/* Text from memory need not end in NUL: nothing past len is read (found by
 * fuzz_guide; the sanitized build catches a read past the buffer). */
START_TEST(bad_unterminated_text)
{
    struct diag dg;
    diag_init(&dg);
    char *blank = malloc(2), *junk = malloc(2);
    memcpy(blank, " \n", 2);
    memcpy(junk, "\xff\n", 2);
    ck_assert_ptr_null(guide_import_text("blank.txt", blank, 2, LAYOUT_AUTO, &dg));
    ck_assert(diag_has(&dg, "blank.txt:1: empty file; not a guide"));
    json_t *o = guide_import_text("junk.txt", junk, 2, LAYOUT_AUTO, &dg);
    json_decref(o);
    ck_assert(diag_has(&dg, "junk.txt:1:"));
    free(blank);
    free(junk);
    diag_free(&dg);
}
END_TEST

/* Every fixture through every layout: no crash, no hang. */
START_TEST(forced_layouts)
{
    static const char *const files[] = {
        "guides/cells.txt", "guides/rows.txt", "guides/markdown.md", "guides/sample.rst",
        "guides/badrows.md", "guides/truncated-rows.txt", "guides/notaguide.txt",
    };
    for (size_t f = 0; f < ARRAY_SIZE(files); f++) {
        for (int l = LAYOUT_AUTO; l <= LAYOUT_RST; l++) {
            struct diag dg;
            diag_init(&dg);
            char *path = test_data_path(files[f]);
            json_t *o = guide_import_file(path, (enum guide_layout)l, &dg);
            free(path);
            if (o)
                ck_assert_str_eq(str(o, "format"), "evmbench-refs/1");
            json_decref(o);
            diag_free(&dg);
        }
    }
}
END_TEST

/* ---- issue 17: real guide text --------------------------------------- */

/* The refs file of a fixture loaded as evmbench loads it. */
static struct refdb *refdb_of(json_t *o)
{
    struct diag dg;
    diag_init(&dg);
    struct refdb *db = refdb_new();
    char *text = json_dumps(o, 0);
    ck_assert_int_ge(refdb_load_text(db, "fixture.json", text, strlen(text), &dg), 0);
    ck_assert_msg(dg.n == 0, "refdb: %s", dg.n ? dg.msgs[0] : "");
    free(text);
    diag_free(&dg);
    return db;
}

/* AM62x guide: two GFXBench rows print one board's Score and Fps only.
 * The short-row rule of the UDP tables (every board lacks its first
 * column) does not hold here, since the last row is full: the cells go by
 * position, and the guess is reported with file:line and kept in the row. */
START_TEST(short_row_placed_by_evidence)
{
    struct diag dg;
    diag_init(&dg);
    json_t *o = import_fixture("guides/am62x-gfxbench.txt", &dg);
    ck_assert_ptr_nonnull(o);
    json_t *t = table(o, "GFXBench Performance");
    const char *m = "GFXBench 3.x gl_manhattan_off", *x = "GFXBench 3.x gl_trex_off";
    ck_assert_double_eq_tol(num(cell(t, m, NULL, "am62xx_lp_sk-fs: Score"), "avg"), 81.53, 1e-9);
    ck_assert_double_eq_tol(num(cell(t, m, NULL, "am62xx_lp_sk-fs: Fps"), "avg"), 1.32, 1e-9);
    ck_assert_double_eq_tol(num(cell(t, x, NULL, "am62xx_lp_sk-fs: Score"), "avg"), 124.19, 1e-9);
    ck_assert_double_eq_tol(num(cell(t, x, NULL, "am62xx_lp_sk-fs: Fps"), "avg"), 2.22, 1e-9);
    ck_assert(json_is_null(cell(t, m, NULL, "am62xx_sk-fs: Score")));
    ck_assert(json_is_null(cell(t, m, NULL, "am62xx_sk-fs: Fps")));
    ck_assert(json_is_null(cell(t, x, NULL, "am62xx_sk-fs: Fps")));
    ck_assert_ptr_nonnull(strstr(str(row(t, m, NULL), "note"), "a guess"));
    ck_assert_ptr_null(json_object_get(row(t, "GFXBench 5.x gl_5_high_off", NULL), "note"));
    ck_assert(diag_has(&dg, "am62x-gfxbench.txt:21: table \"GFXBench Performance\": row "
                            "\"GFXBench 3.x gl_manhattan_off\": a guess: 2 of 4 value cells, in "
                            "the first 2 columns; check the guide"));
    ck_assert(diag_has(&dg, "am62x-gfxbench.txt:27: "));

    /* the UDP table prints no datagram size in any row: the rule holds */
    t = table(o, "CPSW2g UDP Ingress Throughput 0 loss");
    const char *sz = "am62xx_lp_sk-fs: UDP Datagram Size(bytes) (LOCAL_SEND_SIZE)";
    ck_assert(json_is_null(cell(t, "64", NULL, sz)));
    ck_assert_double_eq_tol(num(cell(t, "64", NULL, "am62xx_lp_sk-fs: THROUGHPUT (Mbits/sec)"),
                                "avg"), 1.82, 1e-9);
    ck_assert_double_eq_tol(num(cell(t, "64", NULL, "am62xxsip_sk-fs: CPU Load % "
                                     "(LOCAL_CPU_UTIL)"), "avg"), 1.24, 1e-9);
    ck_assert_ptr_null(json_object_get(row(t, "64", NULL), "note"));
    /* its 1518 row has two boards of three: which two is a guess, said so */
    ck_assert_double_eq_tol(num(cell(t, "1518", NULL, "am62xx_sk-fs: CPU Load % "
                                     "(LOCAL_CPU_UTIL)"), "avg"), 4.64, 1e-9);
    ck_assert_ptr_nonnull(strstr(str(row(t, "1518", NULL), "note"), "a guess"));
    ck_assert(diag_has(&dg, "am62x-gfxbench.txt:152: "));
    ck_assert_uint_eq(dg.n, 3);

    /* refs (refdb) keeps the note for every view that prints the value */
    struct refdb *db = refdb_of(o);
    struct ref_hit hit;
    ck_assert(refdb_lookup(db, "am62xx_lp_sk-fs", "gfxbench", "gfxbench_3.x_gl_manhattan_off",
                           "Score", &hit));
    ck_assert_double_eq_tol(hit.value->avg, 81.53, 1e-9);
    ck_assert_ptr_nonnull(hit.row->note);
    refdb_free(db);
    json_decref(o);
    diag_free(&dg);
}
END_TEST

/* Units: "Rail voltage(V)" (AM62Ax rst) is not a note like
 * "(LOCAL_CPU_UTIL)"; "in seconds" (AM62Ax) and "in ns" (AM62P MCU+). */
START_TEST(units_in_headers)
{
    struct diag dg;
    diag_init(&dg);
    json_t *o = import_fixture("guides/am62a-units.rst", &dg);
    ck_assert_ptr_nonnull(o);
    json_t *c = json_array_get(json_object_get(table(o, "Deep Sleep Power Performance"),
                                               "columns"), 0);
    ck_assert_str_eq(str(c, "name"), "Rail voltage");
    ck_assert_str_eq(str(c, "unit"), "V");
    c = json_array_get(json_object_get(table(o, "Linux boot time MMCSD"), "columns"), 0);
    ck_assert_str_eq(str(c, "name"), "Boot time");
    ck_assert_str_eq(str(c, "unit"), "seconds");
    ck_assert_str_eq(str(c, "board"), "am62axx_sk-fs");
    json_decref(o);
    diag_free(&dg);

    diag_init(&dg);
    o = import_fixture("guides/am62p-mcu-udp.md", &dg);
    ck_assert_ptr_nonnull(o);
    json_t *t = table(o, "Layer 2 Performance");
    c = json_array_get(json_object_get(t, "columns"), 1);
    ck_assert_str_eq(str(c, "name"), "PHY (DP83867IR) Latency (from datasheet)");
    ck_assert_str_eq(str(c, "unit"), "ns");
    /* a note in capitals is still no unit */
    o = (json_decref(o), import_fixture("guides/am62x-gfxbench.txt", &dg));
    c = json_array_get(json_object_get(table(o, "CPSW2g UDP Ingress Throughput 0 loss"),
                                       "columns"), 3);
    ck_assert_str_eq(str(c, "name"), "CPU Load");
    ck_assert_str_eq(str(c, "unit"), "%");
    c = json_array_get(json_object_get(table(o, "CPSW2g UDP Ingress Throughput 0 loss"),
                                       "columns"), 0);
    ck_assert_str_eq(str(c, "name"), "UDP Datagram Size");
    ck_assert_str_eq(str(c, "unit"), "bytes");
    json_decref(o);
    diag_free(&dg);
}
END_TEST

static const struct kernel_metric udp_metric[] = { { .id = "udp_rx", .unit = "Mbps" } };
static int run_none(const struct kernel_params *p, struct report *r)
{
    (void)p;
    (void)r;
    return 0;
}
static const struct kernel k_linux_udp = { .name = "netperf_udp", .section = "udp_throughput",
                                           .metrics = udp_metric, .nmetrics = 1,
                                           .run = run_none, .provider = "tool" };
static const struct kernel k_r5f_udp = { .name = "r5f_udp", .section = "udp_throughput",
                                         .metrics = udp_metric, .nmetrics = 1,
                                         .run = run_none, .provider = "tool", .sdk = "mcu+" };

/* AM62P MCU+ guide: three rows keyed "UDP RX", one per offered load. Each
 * value gets its own id, the menu counts five rows, and the R5F section
 * is not offered the Linux netperf tool. */
START_TEST(duplicate_keys_and_mcu_sections)
{
    struct diag dg;
    diag_init(&dg);
    json_t *o = import_fixture("guides/am62p-mcu-udp.md", &dg);
    ck_assert_ptr_nonnull(o);
    ck_assert_str_eq(str(json_object_get(o, "source"), "sdk"), "mcu+");
    json_t *t = table(o, "UDP Throughput");
    json_t *keys = json_object_get(t, "keys");
    ck_assert_uint_eq(json_array_size(keys), 2);
    ck_assert_str_eq(json_string_value(json_array_get(keys, 1)), "BW 64B (Mbps)");
    ck_assert_double_eq_tol(num(cell(t, "UDP RX", "5", "CPU 64B (%)"), "avg"), 30, 1e-9);
    ck_assert_double_eq_tol(num(cell(t, "UDP RX", "10", "CPU 64B (%)"), "avg"), 58, 1e-9);
    ck_assert_double_eq_tol(num(cell(t, "UDP RX", "15", "CPU 64B (%)"), "avg"), 84, 1e-9);
    ck_assert_double_eq_tol(num(cell(t, "UDP RX", "15", "BW 64B (Mbps)"), "avg"), 15, 1e-9);
    ck_assert_double_eq_tol(num(cell(t, "UDP TX (Max)", "", "BW 1470B (Mbps)"), "avg"), 372, 1e-9);

    struct refdb *db = refdb_of(o);
    /* board-less columns: the catalog's count and the ids, not a board lookup */
    const struct kernel *ks[] = { &k_linux_udp, &k_r5f_udp };
    struct catalog *c = catalog_build(db, NULL, ks, 2);
    const struct cat_bench *b = catalog_find_bench(c, "udp_throughput");
    ck_assert_ptr_nonnull(b);
    ck_assert_uint_eq(cat_bench_count_metrics(b, NULL), 5);
    const struct ref_table *rt = b->tables[0];
    ck_assert_str_eq(rt->rows[0].slug, "udp_rx-5");
    ck_assert_str_eq(rt->rows[2].slug, "udp_rx-15");
    ck_assert_str_eq(rt->rows[3].slug, "udp_rx_max");     /* unchanged */
    ck_assert_str_eq(rt->rows[3].name, "UDP RX (Max)");
    ck_assert_uint_eq(b->nkernels, 1);          /* only the one that runs on the R5F */
    ck_assert_ptr_eq(b->kernels[0], &k_r5f_udp);
    catalog_free(c);
    refdb_free(db);
    json_decref(o);
    diag_free(&dg);
}
END_TEST

/* J7-family rst: the TCP and UDP tables are headed by rubrics under one
 * section title, so are OSPI's UBIFS and RAW tables under a board rubric. */
START_TEST(rst_rubrics_are_headings)
{
    struct diag dg;
    diag_init(&dg);
    json_t *o = import_fixture("guides/j7-rubrics.rst", &dg);
    ck_assert_ptr_nonnull(o);
    static const char *const want[][2] = {
        { "CPSW2g TCP Bidirectional Throughput", "TCP Bidirectional Throughput" },
        { "CPSW2g TCP Bidirectional Throughput Interrupt Pacing",
          "TCP Bidirectional Throughput Interrupt Pacing" },
        { "CPSW2g UDP Egress Throughput 0 loss", "UDP Throughput" },
        { "OSPI Flash Driver", "UBIFS" },
        { "OSPI Raw Flash Driver", "RAW" },
    };
    for (size_t i = 0; i < ARRAY_SIZE(want); i++) {
        json_t *sec = json_object_get(table(o, want[i][0]), "section");
        const char *inner = json_string_value(json_array_get(sec, json_array_size(sec) - 1));
        ck_assert_msg(!strcmp(inner, want[i][1]), "%s: section ends in \"%s\", not \"%s\"",
                      want[i][0], inner, want[i][1]);
    }
    json_t *sec = json_object_get(table(o, "CPSW2g UDP Egress Throughput 0 loss"), "section");
    ck_assert_uint_eq(json_array_size(sec), 3);
    ck_assert_str_eq(json_string_value(json_array_get(sec, 1)), "CPSW/CPSW2g/CPSW3g Ethernet Driver");
    /* the board rubric "J7200-EVM" is left out of the path, as board headings are */
    sec = json_object_get(table(o, "OSPI Flash Driver"), "section");
    ck_assert_uint_eq(json_array_size(sec), 2);
    ck_assert_str_eq(json_string_value(json_array_get(sec, 0)), "Linux OSPI Flash Driver");
    ck_assert_str_eq(str(json_object_get(o, "source"), "title"), "Linux 11.02 Performance Guide");
    json_decref(o);
    diag_free(&dg);
}
END_TEST

/* The AM62X MCU+ datasheet as copied has no title: its first heading is. */
START_TEST(untitled_guide_takes_first_heading)
{
    struct diag dg;
    diag_init(&dg);
    json_t *o = import_fixture("guides/am62x-mcu-notitle.md", &dg);
    ck_assert_ptr_nonnull(o);
    ck_assert_str_eq(str(json_object_get(o, "source"), "title"), "Introduction");
    json_decref(o);
    diag_free(&dg);
}
END_TEST

/* A toctree-only rst file (AM62X Release_Specific_Kernel_Performance_Guide)
 * is no guide, with the layout forced too. */
START_TEST(toctree_only_rst_has_no_tables)
{
    for (int l = LAYOUT_AUTO; l <= LAYOUT_RST; l += LAYOUT_RST - LAYOUT_AUTO) {
        struct diag dg;
        diag_init(&dg);
        char *path = test_data_path("guides/toctree-only.rst");
        json_t *o = guide_import_file(path, (enum guide_layout)l, &dg);
        free(path);
        ck_assert_ptr_null(o);
        ck_assert(diag_has(&dg, l == LAYOUT_RST ? "toctree-only.rst:1: no tables imported"
                                                : "toctree-only.rst:1: "));
        diag_free(&dg);
    }
}
END_TEST

/* ---- the seed guides ----------------------------------------------- */

/* Where the seed guides are: $EVMBENCH_SEEDS (then they are required:
 * CI sets it), else shared/seeds beside the checkout. */
static char *seeds_dir(bool *required)
{
    const char *env = getenv("EVMBENCH_SEEDS");
    *required = env && env[0];
    return *required ? xstrdup(env) : test_data_path("../../../shared/seeds");
}

static char *seed_path(const char *name)
{
    bool required;
    char *dir = seeds_dir(&required);
    char *p = path_join(dir, name);
    free(dir);
    return p;
}

/* The seed's text; a missing seed fails the test (the seed tests are only
 * added when the seeds are there, or required). */
static char *seed_text(const char *name)
{
    char *p = seed_path(name);
    size_t len;
    char *text = read_file(p, 0, &len);
    ck_assert_msg(text != NULL, "seed guide %s: %s", p, strerror(errno));
    free(p);
    return text;
}

static json_t *seed_import(const char *name)
{
    struct diag dg;
    diag_init(&dg);
    char *p = seed_path(name);
    json_t *o = guide_import_file(p, LAYOUT_AUTO, &dg);
    free(p);
    ck_assert_ptr_nonnull(o);
    diag_free(&dg);
    return o;
}

/* Lines that start with `prefix`. */
static size_t count_prefix(const char *text, const char *prefix)
{
    size_t n = 0, pl = strlen(prefix);
    for (const char *p = text; p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
        n += !strncmp(p, prefix, pl);
    return n;
}

static size_t count_sub(const char *text, const char *needle)
{
    size_t n = 0;
    for (const char *p = strstr(text, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

#define SEED000 "000_f2d816bbf2d6d1cf.txt"
#define SEED001 "001_f05094ddaa994c04.txt"
#define SEED002 "002_7de00e69dfca9979.txt"
#define SEED003 "003_0147e4f50209e121.txt"
#define SEED004 "004_96c134313be3c254.txt"

START_TEST(seed_cells)
{
    char *text = seed_text(SEED000);
    json_t *o = seed_import(SEED000);
    ck_assert_str_eq(str(json_object_get(o, "source"), "layout"), "cells");
    ck_assert_uint_eq(ntables(o), count_prefix(text, "Table 2."));
    static const char *const boards[] = { "am62xx_lp_sk-fs", "am62xx_sk-fs", "am62xxsip_sk-fs" };
    size_t all_minmax = 0;
    for (size_t b = 0; b < 3; b++) {
        size_t cols, vals, mm;
        board_counts(o, boards[b], &cols, &vals, &mm);
        char *prefix = xasprintf("%s: ", boards[b]);
        ck_assert_uint_eq(cols, count_prefix(text, prefix));
        free(prefix);
        all_minmax += mm;
    }
    /* every "avg (min x, max y)" in the guide sits in a board column */
    ck_assert_uint_eq(all_minmax, count_sub(text, " (min "));
    ck_assert_int_eq(num(board(o, "am62xx_lp_sk-fs"), "cpu_mhz"), 1250);
    ck_assert_str_eq(str(board(o, "am62xxsip_sk-fs"), "name"), "AM62SIP SK");

    json_t *t = table(o, "Stream Benchmarks");
    json_t *v = cell(t, "copy", NULL, "am62xx_sk-fs: perf");
    ck_assert_double_eq_tol(num(v, "avg"), 1838.92, 1e-9);
    ck_assert_double_eq_tol(num(v, "min"), 1650.2, 1e-9);
    ck_assert_double_eq_tol(num(v, "max"), 2245.2, 1e-9);
    ck_assert_str_eq(str(t, "command"), "stream_c");
    t = table(o, "Dhrystone Benchmarks");
    ck_assert_str_eq(str(row(t, "dhrystone_per_mhz", NULL), "unit"), "dmips/mhz");
    t = table(o, "OpenSSL Performance");
    ck_assert_double_eq_tol(num(cell(t, "aes-128-cbc", "1024", "am62xx_lp_sk-fs: throughput (KBytes/Sec)"),
                                "avg"), 21742.25, 1e-9);
    t = table(o, "CPSW2g UDP Egress Throughput 0 loss");
    ck_assert_double_eq_tol(num(cell(t, "64", NULL, "am62xx_sk-fs: THROUGHPUT (Mbits/sec)"), "avg"),
                            53.38, 1e-9);
    t = table(o, "Crypto Accelerator Performance");
    ck_assert_double_eq_tol(num(cell(t, "aes-128-ecb", "16 bytes", "ARM CE (MB/s)"), "avg"),
                            104.39, 1e-9);
    t = table(o, "Deep Sleep Power Performance");
    ck_assert(json_is_null(cell(t, "vddr_core", NULL, "Power (mW)")));
    t = table_n(o, "UBOOT EMMC RAW", 0);
    ck_assert_ptr_nonnull(row(t, "2000000", NULL));     /* hex size kept as text key */
    json_decref(o);
    free(text);
}
END_TEST

START_TEST(seed_rows)
{
    char *text = seed_text(SEED001);
    json_t *o = seed_import(SEED001);
    ck_assert_str_eq(str(json_object_get(o, "source"), "layout"), "rows");
    /* tables: header lines naming the board; rows: the lines under them */
    size_t tables = 0, rows = 0;
    bool in = false;
    for (char *line = text, *next; line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        if (strstr(line, " j721e-idk-gw: ") && line[0] != ' ') {
            tables++;
            in = true;
        } else if (!line[0]) {
            in = false;
        } else if (in && line[0] != ' ' && (!isalpha((unsigned char)line[strlen(line) - 1]) ||
                                            (next && next[0] == ' '))) {
            rows++;     /* a row ends in a number or has its values below */
        }
    }
    ck_assert_uint_eq(ntables(o), tables);
    ck_assert_uint_eq(nrows_total(o), rows);
    json_t *b = board(o, "j721e-idk-gw");
    ck_assert_int_eq(num(b, "cpu_mhz"), 2000);
    ck_assert_int_eq(num(b, "ddr_mts"), 4266);
    json_t *t = table(o, "Stream");
    ck_assert_double_eq_tol(num(cell(t, "copy", NULL, "j721e-idk-gw: perf"), "avg"), 5927.3, 1e-9);
    ck_assert_str_eq(json_string_value(json_array_get(json_object_get(t, "section"), 0)),
                     "System Benchmarks");
    t = table(o, "LM Bench Metrics");
    json_t *v = cell(t, "latency_for_1.00_mb_block_size", NULL, "j721e-idk-gw: perf");
    ck_assert_double_eq_tol(num(v, "max"), 8.7, 1e-9);
    t = table(o, "CPSW UDP Ingress Throughput (possible loss)");
    ck_assert_double_eq_tol(num(cell(t, "256", NULL, "j721e-idk-gw: Packet Loss %"), "avg"), 11.8,
                            1e-9);
    json_decref(o);
    free(text);
}
END_TEST

START_TEST(seed_markdown_linux)
{
    char *text = seed_text(SEED003);
    json_t *o = seed_import(SEED003);
    /* a table per "|---|" line; rows: pipe lines that are neither */
    size_t seps = count_prefix(text, "|---"), pipes = count_prefix(text, "| ");
    ck_assert_uint_eq(ntables(o), seps);
    ck_assert_uint_eq(nrows_total(o), pipes - seps);
    size_t cols68, vals68, mm, cols69, vals69;
    board_counts(o, "am68_sk-fs", &cols68, &vals68, &mm);
    board_counts(o, "am69_sk-fs", &cols69, &vals69, &mm);
    ck_assert_uint_eq(cols68 + cols69, count_sub(text, "_sk-fs: "));
    json_t *t = table(o, "Stream");
    ck_assert_double_eq_tol(num(cell(t, "copy", NULL, "am68_sk-fs: perf"), "avg"), 6958.4, 1e-9);
    json_t *sec = json_object_get(t, "section");
    ck_assert_uint_eq(json_array_size(sec), 2);
    ck_assert_str_eq(json_string_value(json_array_get(sec, 0)), "System Benchmarks");
    t = table(o, "CPSW TCP Bidirectional Throughput");
    sec = json_object_get(t, "section");
    ck_assert_str_eq(json_string_value(json_array_get(sec, 0)), "Ethernet");
    ck_assert_str_eq(json_string_value(json_array_get(sec, 1)), "CPSW/CPSW2g/CPSW3g Ethernet Driver");
    t = table_n(o, "OpenSSL Performance", 1);
    ck_assert_double_eq_tol(num(cell(t, "des-cbc", NULL, "am69_sk-fs: CPU Load"), "avg"), 100, 1e-9);
    json_decref(o);
    free(text);
}
END_TEST

START_TEST(seed_markdown_mcu)
{
    char *text = seed_text(SEED002);
    json_t *o = seed_import(SEED002);
    ck_assert_str_eq(str(json_object_get(o, "source"), "sdk"), "mcu+");
    /* header rows: the first pipe row of a run, and the repeated ones
     * ("SBL Stage2 boot time breakdown", "Optimization Details | Values");
     * the two "| Values |" tables (8 rows) are setup context, not tables */
    size_t headers = 0, pipes = 0, seps = 0;
    bool prev_pipe = false;
    for (const char *p = text; p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
        bool pipe = !strncmp(p, "| ", 2);
        if (pipe) {
            const char *eol = strchr(p, '\n');
            char *line = xstrndup(p, eol ? (size_t)(eol - p) : strlen(p));
            pipes++;
            if (strstr(line, "| --") || strstr(line, "|---"))
                seps++;
            else if (!prev_pipe || strstr(line, "boot time breakdown |") || strstr(line, "| Values |"))
                headers++;
            free(line);
        }
        prev_pipe = pipe;
    }
    ck_assert_uint_eq(ntables(o), headers - 2);
    ck_assert_uint_eq(nrows_total(o), pipes - seps - headers - 8);
    json_t *t = table_n(o, "AM62X-SK SBL OSPI performance (HS-FS)", 0);
    ck_assert_double_eq_tol(num(cell(t, "SBL Stage1: Total time taken", NULL, "Time (ms)"), "avg"),
                            43.008, 1e-9);
    json_t *ctx = json_object_get(t, "context");
    ck_assert_str_eq(json_string_value(json_array_get(json_array_get(ctx, 0), 1)), "R5F");
    t = table(o, "EMMC Performance");
    ck_assert_double_eq_tol(num(cell(t, "HS200", "4", "Read speed(MiBps)"), "avg"), 144.02, 1e-9);
    json_decref(o);
    free(text);
}
END_TEST

START_TEST(seed_markdown_broken)
{
    char *text = seed_text(SEED004);
    json_t *o = seed_import(SEED004);
    ck_assert_str_eq(str(json_object_get(o, "source"), "sdk"), "mcu+");
    ck_assert_uint_eq(ntables(o), count_prefix(text, "|---") - 3);  /* 3 setup tables */
    json_t *t = table(o, "TCP Throughput");
    ck_assert_str_eq(str(cell(t, "TCP Bidirectional", NULL, "Bandwidth (Mbps)"), "text"),
                     "RX=87 / TX=85.4");
    json_t *ctx = json_object_get(t, "context");
    bool evm = false;
    for (size_t i = 0; i < json_array_size(ctx); i++)
        evm |= !strcmp(json_string_value(json_array_get(json_array_get(ctx, i), 1)), "AM62PX-LP");
    ck_assert(evm);
    t = table(o, "UDP Throughput");
    ck_assert_uint_eq(json_array_size(json_object_get(t, "columns")), 12);
    ck_assert_double_eq_tol(num(cell(t, "UDP TX (Max)", NULL, "BW 1470B (Mbps)"), "avg"), 372, 1e-9);
    json_decref(o);
    free(text);
}
END_TEST

/* The process's CPU time in seconds: unlike the wall clock it does not
 * grow while other processes have the CPU, so a loaded machine does not
 * change the ratio below. */
static double cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The best of five imports of text, in CPU seconds. */
static double best_import_s(const char *text, size_t len)
{
    double best = INFINITY;
    for (int i = 0; i < 5; i++) {
        struct diag dg;
        diag_init(&dg);
        double t0 = cpu_seconds();
        json_t *o = guide_import_text(SEED000, text, len, LAYOUT_AUTO, &dg);
        double t = cpu_seconds() - t0;
        ck_assert_ptr_nonnull(o);
        json_decref(o);
        diag_free(&dg);
        best = fmin(best, t);
    }
    return best;
}

/* The importer takes time in proportion to the guide: four copies of the
 * seed take about four times as long as one, not sixteen (a quadratic
 * step). A ratio, so it holds on any machine, under ASan or an emulator. */
START_TEST(seed_speed)
{
    char *text = seed_text(SEED000);
    size_t len = strlen(text);
    struct strbuf four;
    sb_init(&four);
    for (int i = 0; i < 4; i++) {
        sb_addn(&four, text, len);
        sb_add(&four, "\n");
    }
    double one = best_import_s(text, len);
    double x4 = best_import_s(four.buf, four.len);
    ck_assert_msg(x4 < 10 * one, "one guide %.2f ms, four copies %.2f ms (%.1fx)", one * 1e3,
                  x4 * 1e3, x4 / one);
    sb_free(&four);
    free(text);
}
END_TEST

/* The shipped files are what the importer makes of the seeds today. */
START_TEST(seed_refs_current)
{
    static const char *const map[][2] = {
        { SEED000, "linux-am62x-12.00.00.json" }, { SEED001, "linux-j721e.json" },
        { SEED002, "mcu-am62x.json" }, { SEED003, "linux-am68-am69-09.00.00.json" },
        { SEED004, "mcu-am62p-ethernet.json" },
    };
    for (size_t i = 0; i < ARRAY_SIZE(map); i++) {
        char *text = seed_text(map[i][0]);
        size_t len = strlen(text);
        json_t *o = guide_import_text(map[i][0], text, len, LAYOUT_AUTO, NULL);
        char *dump = json_dumps(o, GUIDE_JSON_FLAGS);
        char *ref = xasprintf("%s/benches/refs/%s", ABS_TOP_SRCDIR, map[i][1]);
        char *shipped = read_file(ref, 0, &len);
        ck_assert_msg(shipped != NULL, "%s missing", ref);
        char *want = xasprintf("%s\n", dump);
        ck_assert_msg(!strcmp(shipped, want), "%s is not what the importer makes of %s; "
                      "run 'make refs'", ref, map[i][0]);
        free(want);
        free(shipped);
        free(ref);
        free(dump);
        json_decref(o);
        free(text);
    }
}
END_TEST

Suite *suite_guide_import(void)
{
    Suite *s = suite_create("guide_import");
    TCase *tc = tcase_create("layouts");
    tcase_add_test(tc, layout_names);
    tcase_add_test(tc, layout_table);
    tcase_add_test(tc, detect_tie_rows_over_cells);
    tcase_add_test(tc, cells_sample);
    tcase_add_test(tc, rows_sample);
    tcase_add_test(tc, markdown_sample);
    tcase_add_test(tc, rst_sample);
    tcase_add_test(tc, setext_markdown);
    tcase_add_test(tc, atx_levels);
    tcase_add_test(tc, rst_wide_grid);
    suite_add_tcase(s, tc);
    tc = tcase_create("bad_input");
    tcase_add_test(tc, bad_empty);
    tcase_add_test(tc, bad_not_a_guide);
    tcase_add_test(tc, bad_binary);
    tcase_add_test(tc, bad_missing_file);
    tcase_add_test(tc, bad_truncated);
    tcase_add_test(tc, bad_cut_in_a_row);
    tcase_add_test(tc, zero_tables_every_layout);
    tcase_add_test(tc, bad_rows);
    tcase_add_test(tc, bad_rows_not_a_row);
    tcase_add_test(tc, bad_board_rates);
    tcase_add_test(tc, bad_rst_option_twice);
    tcase_add_test(tc, bad_unterminated_text);
    tcase_add_test(tc, forced_layouts);
    suite_add_tcase(s, tc);
    tc = tcase_create("issue17");
    tcase_add_test(tc, short_row_placed_by_evidence);
    tcase_add_test(tc, units_in_headers);
    tcase_add_test(tc, duplicate_keys_and_mcu_sections);
    tcase_add_test(tc, rst_rubrics_are_headings);
    tcase_add_test(tc, untitled_guide_takes_first_heading);
    tcase_add_test(tc, toctree_only_rst_has_no_tables);
    suite_add_tcase(s, tc);
    /* The seeds are not part of the checkout: without them the seed tests
     * are skipped, and the skip is counted and printed, never silent. */
    const TTest *seed_tests[] = {
        seed_cells, seed_rows, seed_markdown_linux, seed_markdown_mcu,
        seed_markdown_broken, seed_speed, seed_refs_current,
    };
    bool required;
    char *dir = seeds_dir(&required);
    char *probe = path_join(dir, SEED000);
    bool have = access(probe, R_OK) == 0;
    free(probe);
    if (!have && !required) {
        fprintf(stderr, "guide_import: SKIP %d seed tests: %s not found (put the seed guides "
                "there or set EVMBENCH_SEEDS=DIR to run them)\n", (int)ARRAY_SIZE(seed_tests), dir);
        free(dir);
        return s;
    }
    free(dir);
    tc = tcase_create("seeds");
    for (size_t i = 0; i < ARRAY_SIZE(seed_tests); i++)
        tcase_add_test(tc, seed_tests[i]);
    suite_add_tcase(s, tc);
    return s;
}
