/* test_recipe.c - tool recipes: loading, parsing real tool output, and
 * running fake tools through the runner (failures, limits, no leaks). */
#include "config.h"

#include <dirent.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/resource.h>
#include <unistd.h>

#include "data/datadir.h"
#include "common/diag.h"
#include "run/export.h"
#include "recipe/recipe.h"
#include "data/refdb.h"
#include "run/result.h"
#include "run/runner.h"
#include "store/store.h"
#include "suites.h"
#include "recipe/toolkernel.h"
#include "common/util.h"
#include "benches/kernels/registry.h"

/* --- the shipped recipes -------------------------------------------------- */

static struct recipe_set *shipped(void)
{
    struct diag d;
    diag_init(&d);
    struct recipe_set *set = recipe_load_default(&d);
    for (size_t i = 0; i < d.n; i++)
        fprintf(stderr, "%s\n", d.msgs[i]);
    ck_assert_msg(d.n == 0, "shipped recipes have problems: %s", d.n ? d.msgs[0] : "");
    diag_free(&d);
    return set;
}

START_TEST(shipped_load)
{
    struct recipe_set *set = shipped();
    ck_assert_uint_ge(recipe_count(set), 20);
    static const char *const names[] = { "bw_mem", "lat_mem_rd", "lat_ctx", "lat_fs", "stream_c",
                                         "dhrystone", "whetstone", "linpack", "nbench",
                                         "openssl_speed" };
    for (size_t i = 0; i < ARRAY_SIZE(names); i++)
        ck_assert_msg(recipe_find(set, names[i]), "no recipe %s", names[i]);
    const struct recipe_bench *b = recipe_find(set, "bw_mem");
    ck_assert_uint_eq(recipe_invocation_count(b), 45);
    size_t n;
    recipe_metrics(b, &n);
    ck_assert_uint_eq(n, 45);
    recipe_set_free(set);
}
END_TEST

/* Every row of the guides' LMBench, Stream, Dhrystone, Whetstone, Linpack,
 * NBench and OpenSSL tables is produced by a recipe, in the guide's unit. */
START_TEST(shipped_cover_guide)
{
    struct recipe_set *set = shipped();
    struct diag d;
    diag_init(&d);
    struct refdb *db = refdb_new();
    char *refs = datadir_path("refs");
    ck_assert_int_gt(refdb_load_path(db, refs, &d), 0);
    free(refs);
    static const char *const sections[] = { "lmbench", "stream", "dhrystone", "whetstone",
                                            "linpack", "nbench", "openssl_performance" };
    size_t checked = 0;
    for (size_t t = 0; t < db->ntables; t++) {
        const struct ref_table *tab = db->tables[t];
        bool want = false;
        for (size_t s = 0; s < ARRAY_SIZE(sections); s++)
            want |= strcmp(tab->section_slug, sections[s]) == 0;
        if (!want || strstr(tab->title, "CPU Load"))
            continue;
        for (size_t r = 0; r < tab->nrows; r++) {
            const struct ref_row *row = &tab->rows[r];
            if (strcmp(tab->section_slug, "openssl_performance") == 0 && row->nkey < 2)
                continue;   /* a CPU load row without a buffer size */
            const char *unit = row->unit ? row->unit : tab->ncols ? tab->cols[0].unit : NULL;
            bool found = false;
            for (size_t i = 0; i < recipe_count(set) && !found; i++) {
                const struct recipe_bench *b = recipe_get(set, i);
                if (strcmp(recipe_section(b), tab->section_slug) != 0)
                    continue;
                size_t n;
                const struct recipe_metric *m = recipe_metrics(b, &n);
                for (size_t j = 0; j < n && !found; j++)
                    if (strcmp(m[j].id, row->slug) == 0) {
                        found = true;
                        ck_assert_msg(unit && strcasecmp(unit, m[j].unit) == 0,
                                      "%s/%s: unit %s, the guide says %s", tab->section_slug,
                                      row->slug, m[j].unit, unit ? unit : "(none)");
                    }
            }
            ck_assert_msg(found, "no recipe produces %s/%s (%s)", tab->section_slug, row->slug,
                          tab->source->file);
            checked++;
        }
    }
    ck_assert_uint_ge(checked, 115 + 4 + 3 + 1 + 1 + 9 + 48);
    refdb_free(db);
    diag_free(&d);
    recipe_set_free(set);
}
END_TEST

/* Metrics of tables with several measured columns or several tables of the
 * same rows find their reference through row, column and table. */
static double shipped_ref_on(const struct refdb *db, const struct recipe_set *set,
                             const char *board, const char *bench, const char *id)
{
    const struct recipe_bench *b = recipe_find(set, bench);
    ck_assert_msg(b, "no recipe %s", bench);
    size_t n;
    const struct recipe_metric *m = recipe_metrics(b, &n);
    for (size_t i = 0; i < n; i++)
        if (strcmp(m[i].id, id) == 0) {
            struct ref_hit hit;
            ck_assert_msg(refdb_lookup_table(db, board, recipe_section(b), m[i].table,
                                             m[i].row ? m[i].row : m[i].id, m[i].column, &hit),
                          "%s/%s has no reference", bench, id);
            return hit.value->avg;
        }
    ck_abort_msg("%s has no metric %s", bench, id);
    return NAN;
}

static double shipped_ref(const struct refdb *db, const struct recipe_set *set,
                          const char *bench, const char *id)
{
    return shipped_ref_on(db, set, "am62xx_sk-fs", bench, id);
}

START_TEST(shipped_ref_columns)
{
    struct recipe_set *set = shipped();
    struct diag d;
    diag_init(&d);
    struct refdb *db = refdb_new();
    char *refs = datadir_path("refs");
    ck_assert_int_gt(refdb_load_path(db, refs, &d), 0);
    free(refs);
    /* EMMC EXT4 FIO 1G, am62xx_sk-fs, row 1m: write 56.35 MB/s at 1.56 %,
     * read 164.17 MB/s at 1.90 % */
    ck_assert_double_eq_tol(shipped_ref(db, set, "fio_emmc", "1m-write"), 56.35, 1e-9);
    ck_assert_double_eq_tol(shipped_ref(db, set, "fio_emmc", "1m-write-cpu"), 1.56, 1e-9);
    ck_assert_double_eq_tol(shipped_ref(db, set, "fio_emmc", "1m-read"), 164.17, 1e-9);
    ck_assert_double_eq_tol(shipped_ref(db, set, "fio_emmc", "1m-read-cpu"), 1.90, 1e-9);
    /* CoreMarkPro: one core 0.30, the two-core table 0.60 */
    ck_assert_double_eq_tol(shipped_ref(db, set, "cmp_core", "core"), 0.30, 1e-9);
    ck_assert_double_eq_tol(shipped_ref(db, set, "cmp_core", "core-2c"), 0.60, 1e-9);
    ck_assert_double_eq_tol(shipped_ref(db, set, "cmp_zip_test", "zip-test-2c"), 40.31, 1e-9);
    /* Glmark2: the wayland client at 1920x1080 */
    ck_assert_double_eq_tol(shipped_ref(db, set, "glmark2_wayland", "glmark2-wayland_1920x1080"),
                            67, 1e-9);
    ck_assert_double_eq_tol(shipped_ref(db, set, "glmark2_drm", "glmark2-drm"), 61, 1e-9);
    ck_assert_double_eq_tol(shipped_ref(db, set, "boot_time",
                                        "linux_boot_time_from_sd_with_default_rootfs_20_boot_cycles"),
                            18.15, 1e-9);
    /* ALSA SoC Audio, am62xx_sk-fs at 48000 Hz: capture 1535992.2 bits/sec at
     * 0.12 %, playback 1536637.75 bits/sec at 0.11 % */
    ck_assert_double_eq_tol(shipped_ref(db, set, "audio_capture", "audio_capture-48000"),
                            1535992.2, 1e-6);
    ck_assert_double_eq_tol(shipped_ref(db, set, "audio_capture", "audio_capture-48000-cpu"),
                            0.12, 1e-9);
    ck_assert_double_eq_tol(shipped_ref(db, set, "audio_playback", "audio_playback-48000"),
                            1536637.75, 1e-6);
    /* J721E's section is "ALSA SoC Audio Driver": 11025 Hz, 352800 bits/sec */
    ck_assert_double_eq_tol(shipped_ref_on(db, set, "j721e-idk-gw", "audio_capture_j721e",
                                           "audio_capture_j721e-11025"), 352800, 1e-6);
    ck_assert_double_eq_tol(shipped_ref_on(db, set, "j721e-idk-gw", "audio_capture_j721e",
                                           "audio_capture_j721e-11025-cpu"), 0.15, 1e-9);
    /* OpenSSL CPU Load: aes-128-cbc 38 % */
    ck_assert_double_eq_tol(shipped_ref(db, set, "openssl_speed", "aes-128-cbc"), 38, 1e-9);
    refdb_free(db);
    diag_free(&d);
    recipe_set_free(set);
}
END_TEST

START_TEST(argv_expansion)
{
    struct recipe_set *set = shipped();
    const struct recipe_bench *b = recipe_find(set, "bw_mem");
    size_t inv;
    ck_assert(recipe_invocation_lookup(b, "op=bcopy size=16M", &inv));
    char *label = recipe_invocation_label(b, inv);
    ck_assert_str_eq(label, "op=bcopy size=16M");
    free(label);
    ck_assert(!recipe_invocation_lookup(b, "op=bcopy", &inv));
    ck_assert(recipe_invocation_lookup(b, "size=16M op=bcopy", &inv));
    struct recipe_env full = { .quick = false, .tmpdir = "/t", .binary = "/bin/bw_mem" };
    struct recipe_env quick = { .quick = true, .tmpdir = "/t", .binary = "/bin/bw_mem" };
    char **v = recipe_argv(b, inv, &full, NULL);
    ck_assert_str_eq(v[0], "/bin/bw_mem");
    ck_assert_str_eq(v[1], "16M");
    ck_assert_str_eq(v[2], "bcopy");
    ck_assert_ptr_null(v[3]);
    recipe_strv_free(v);
    v = recipe_argv(b, inv, &quick, NULL);
    ck_assert_str_eq(v[1], "-N");
    ck_assert_str_eq(v[2], "1");
    ck_assert_str_eq(v[3], "16M");
    recipe_strv_free(v);
    v = recipe_envv(b, inv, &quick);
    ck_assert_str_eq(v[0], "ENOUGH=5000");
    recipe_strv_free(v);
    v = recipe_envv(b, inv, &full);
    ck_assert_ptr_null(v[0]);
    recipe_strv_free(v);

    b = recipe_find(set, "lat_syscall");
    ck_assert(recipe_invocation_lookup(b, "op=open", &inv));
    v = recipe_argv(b, inv, &full, NULL);
    ck_assert_str_eq(v[1], "open");
    ck_assert_str_eq(v[2], "/t/file1M");
    recipe_strv_free(v);
    ck_assert(recipe_invocation_lookup(b, "op=null", &inv));
    v = recipe_argv(b, inv, &full, NULL);
    ck_assert_str_eq(v[1], "null");
    ck_assert_ptr_null(v[2]);
    recipe_strv_free(v);

    b = recipe_find(set, "lat_tcp");
    v = recipe_argv(b, 0, &full, "setup");
    ck_assert_str_eq(v[1], "-s");
    recipe_strv_free(v);
    v = recipe_argv(b, 0, &full, "teardown");
    ck_assert_str_eq(v[1], "-S");
    ck_assert_str_eq(v[2], "localhost");
    recipe_strv_free(v);
    recipe_set_free(set);
}
END_TEST

/* iperf3 prints 3 significant digits in its default format (20.2
 * Gbits/sec) and whole Kbits/sec with -f k (20193884): both directions
 * ask for the latter. */
START_TEST(iperf3_full_precision)
{
    struct recipe_set *set = shipped();
    const struct recipe_bench *b = recipe_find(set, "iperf3_tcp");
    recipe_set_option("peer", "192.0.2.1");
    struct recipe_env env = { .quick = true, .tmpdir = "/t", .binary = "/bin/iperf3" };
    for (size_t inv = 0; inv < recipe_invocation_count(b); inv++) {
        char **v = recipe_argv(b, inv, &env, NULL);
        bool kbits = false;
        for (size_t i = 1; v[i] && v[i + 1] && !kbits; i++)
            kbits = strcmp(v[i], "-f") == 0 && strcmp(v[i + 1], "k") == 0;
        ck_assert_msg(kbits, "invocation %zu of iperf3_tcp does not ask for -f k", inv);
        recipe_strv_free(v);
    }
    recipe_set_option("peer", NULL);
    recipe_set_free(set);
}
END_TEST

/* --- fixtures: real tool output -> expected values ----------------------- */

struct seen {
    char *metric[256];
    double value[256];
    bool invalid[256];
    size_t n;
};

static void seen_cb(void *ctx, const struct recipe_match *m)
{
    struct seen *s = ctx;
    if (s->n >= 256)
        return;
    s->metric[s->n] = xstrdup(m->metric);
    s->value[s->n] = m->value;
    s->invalid[s->n] = m->invalid != NULL;
    s->n++;
}

/* Checks one tests/data/tools/<tool>/<case>/ against its `expected`. */
static void check_fixture(const struct recipe_set *set, const char *dir)
{
    char *exp_path = path_join(dir, "expected");
    char *out_path = path_join(dir, "output");
    char *exp = read_file(exp_path, 0, NULL);
    char *out = read_file(out_path, 0, NULL);
    ck_assert_msg(exp && out, "%s: expected and output needed", dir);
    const struct recipe_bench *b = NULL;
    size_t inv = 0;
    const char *params[8] = { NULL };
    size_t nparams = 0;
    char *error_want = NULL;
    char *names[256];
    double values[256];
    size_t nwant = 0;
    char *save = NULL;
    for (char *line = strtok_r(exp, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (line[0] == '#' || !line[0])
            continue;
        if (str_starts_with(line, "bench ")) {
            b = recipe_find(set, line + 6);
            ck_assert_msg(b, "%s: no recipe %s", dir, line + 6);
        } else if (str_starts_with(line, "vars ")) {
            ck_assert_msg(recipe_invocation_lookup(b, line + 5, &inv), "%s: bad vars %s", dir,
                          line + 5);
        } else if (str_starts_with(line, "param ")) {
            params[nparams++] = line + 6;
        } else if (str_starts_with(line, "error ")) {
            error_want = line + 6;
        } else {
            char *sp = strchr(line, ' ');
            ck_assert_msg(sp && nwant < 256, "%s: bad line %s", dir, line);
            *sp = '\0';
            names[nwant] = line;
            values[nwant++] = strtod(sp + 1, NULL);
        }
    }
    ck_assert_msg(b, "%s: no bench line", dir);
    struct recipe_env env = { .params = params };
    struct seen s = { .n = 0 };
    struct diag d;
    diag_init(&d);
    int rc = recipe_parse(b, inv, nparams ? &env : NULL, out, seen_cb, &s, &d);
    const char *error = d.n ? diag_last(&d) : NULL;
    if (error_want) {
        ck_assert_msg(rc == -1 && error && strstr(error, error_want),
                      "%s: wanted error '%s', got rc %d '%s'", dir, error_want, rc,
                      error ? error : "");
    } else {
        ck_assert_msg(rc >= 0, "%s: unexpected error %s", dir, error ? error : "");
        ck_assert_msg(s.n == nwant, "%s: %zu values, expected %zu", dir, s.n, nwant);
        for (size_t i = 0; i < nwant; i++) {
            bool ok = false;
            for (size_t j = 0; j < s.n && !ok; j++)
                ok = strcmp(s.metric[j], names[i]) == 0 && !s.invalid[j] &&
                     fabs(s.value[j] - values[i]) <= 1e-9 * fmax(1, fabs(values[i]));
            ck_assert_msg(ok, "%s: %s = %g not found", dir, names[i], values[i]);
        }
    }
    for (size_t i = 0; i < s.n; i++)
        free(s.metric[i]);
    diag_free(&d);
    free(exp);
    free(out);
    free(exp_path);
    free(out_path);
}

START_TEST(fixtures)
{
    struct recipe_set *set = shipped();
    static const char *const tools[] = { "lmbench", "stream", "dhrystone", "whetstone",
                                         "linpack", "nbench", "openssl", "fio", "coremark-pro",
                                         "iperf3", "netperf", "glmark2", "boot", "alsa" };
    size_t cases = 0;
    for (size_t t = 0; t < ARRAY_SIZE(tools); t++) {
        char *rel = path_join("tools", tools[t]);
        char *base = test_data_path(rel);
        DIR *d = opendir(base);
        ck_assert_msg(d, "cannot open %s", base);
        struct dirent *de;
        while ((de = readdir(d))) {
            if (de->d_name[0] == '.')
                continue;
            char *dir = path_join(base, de->d_name);
            struct stat st;
            if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
                free(dir);      /* a README */
                continue;
            }
            check_fixture(set, dir);
            free(dir);
            cases++;
        }
        closedir(d);
        free(base);
        free(rel);
    }
    ck_assert_uint_ge(cases, 50);
    recipe_set_free(set);
}
END_TEST

/* A value the tool marks as failed (lat_fs prints -1) is invalid, not a sample. */
START_TEST(invalid_value)
{
    struct recipe_set *set = shipped();
    const struct recipe_bench *b = recipe_find(set, "lat_fs");
    struct seen s = { .n = 0 };
    int rc = recipe_parse(b, 0, NULL, "0k\t-1\t82941\t179585\n", seen_cb, &s, NULL);
    ck_assert_int_eq(rc, 3);
    ck_assert_str_eq(s.metric[0], "lat_fs-0k");
    ck_assert(s.invalid[0]);
    ck_assert(!s.invalid[1]);
    for (size_t i = 0; i < s.n; i++)
        free(s.metric[i]);
    recipe_set_free(set);
}
END_TEST

/* A "scale" factor from a parameter that is not a number makes the value
 * invalid with the reason, not a wrong number. */
START_TEST(scale_factor_not_number)
{
    struct recipe_set *set = shipped();
    const struct recipe_bench *b = recipe_find(set, "audio_capture");
    size_t inv;
    ck_assert(recipe_invocation_lookup(b, "rate=48000 format=S16_LE", &inv));
    const char *params[] = { "channels=stereo", NULL };
    struct recipe_env env = { .params = params };
    struct seen s = { .n = 0 };
    int rc = recipe_parse(b, inv, &env, "  exact rate   : 48000 (48000/1)\n", seen_cb, &s, NULL);
    ck_assert_int_eq(rc, 1);
    ck_assert_str_eq(s.metric[0], "audio_capture-48000");
    ck_assert(s.invalid[0]);
    params[0] = "channels=1";
    s.n = 0;
    free(s.metric[0]);
    rc = recipe_parse(b, inv, &env, "  exact rate   : 48000 (48000/1)\n", seen_cb, &s, NULL);
    ck_assert_int_eq(rc, 1);
    ck_assert(!s.invalid[0]);
    ck_assert_double_eq(s.value[0], 768000);
    free(s.metric[0]);
    recipe_set_free(set);
}
END_TEST

/* --- bad recipes ---------------------------------------------------------- */

static bool has_msg(const struct diag *d, const char *needle)
{
    for (size_t i = 0; i < d->n; i++)
        if (strstr(d->msgs[i], needle))
            return true;
    return false;
}

START_TEST(bad_recipes)
{
    char *dir = test_data_path("tools/bad");
    struct diag d;
    diag_init(&d);
    struct recipe_set *set = recipe_load_dir(dir, &d);
    for (size_t i = 0; i < d.n; i++)
        fprintf(stderr, "  diag: %s\n", d.msgs[i]);
    ck_assert_uint_eq(recipe_count(set), 1);
    ck_assert(recipe_find(set, "good"));
    ck_assert_str_eq(recipe_sdk(recipe_find(set, "good")), "linux");   /* the default */
    static const char *const said[] = {
        "bad.json: benchmarks[1].patterns[0].regex: missing closing parenthesis at offset 4",
        "bad.json: benchmarks[1]: benchmark \"bad_regex\" skipped",
        "bad.json: benchmarks[2]: missing \"section\"",
        "bad.json: benchmarks[3].timeout: must be a number, not a string",
        "bad.json: benchmarks[4].args[0]: unknown name \"nosuch\"",
        "bad.json: benchmarks[5].patterns[0].metric: capture \"name\" is used in a metric id",
        "bad.json: benchmarks[6].patterns[1]: metric \"x\" has unit \"ms\" here and \"us\" "
            "elsewhere",
        "bad.json: benchmarks[7].stream: must be",
        "bad.json: benchmarks[7].sdk: must be \"linux\" or \"mcu+\"",
        "bad.json: benchmarks[7].patterns[0]: unknown member \"scael\"",
        "bad.json: benchmarks[8].patterns[0].scale[0]: unknown name \"nosuch\"",
        "bad.json: benchmarks[8].patterns[0].scale[1]: must be a finite non-zero number",
        "bad.json: benchmarks[8].patterns[0].convert: unknown conversion \"hours\"",
        /* two equal values make two invocations with one label (fuzz_tooldef) */
        "bad.json: benchmarks[9].vars.op[2]: \"a\" is already value 0 of this variable",
        "bad.json: benchmarks[9].vars.op[3]: \"b\" is already value 1 of this variable",
        /* a value or a name that cannot be written NAME=VALUE (fuzz_tooldef) */
        "bad.json: benchmarks[10].vars.op[0]: \"\" is not one word",
        "bad.json: benchmarks[10].vars.op[1]: \"two words\" is not one word",
        "bad.json: benchmarks[10].vars.op[2]: \"tab\\there\" is not one word",
        "bad.json: benchmarks[10].vars.x=y: a variable's name is one word",
        /* a size out of range was converted to size_t anyway (fuzz_tooldef) */
        "bad.json: benchmarks[11].files[0].size: must be a whole number of bytes from 0 to 1 GiB",
        "bad.json: benchmarks[11].files[1].size: must be a whole number of bytes",
        "bad.json: benchmarks[11].files[2].size: must be a whole number of bytes",
        /* a budget of 1e300 made a time limit that a cast to int overflowed */
        "bad.json: benchmarks[12].timeout: must be from 0.1 to 86400",
        "bad.json: benchmarks[12].budget.full: must be from 0 to 86400",
        "bad.json: benchmarks[12].runs: must be a whole number",
        "bad.json: benchmarks[13].runs.full: must be from 1 to 1000",
        "broken.json:4:",
        "old_format.json: format: must be \"evmbench-tools/1\"",
    };
    for (size_t i = 0; i < ARRAY_SIZE(said); i++) {
        char *m = xasprintf("tools/%s", said[i]);
        ck_assert_msg(has_msg(&d, m), "not said: %s", m);
        free(m);
    }
    recipe_set_free(set);
    diag_free(&d);
    free(dir);
}
END_TEST

/* --- fake tools through the runner ---------------------------------------- */

static struct recipe_set *fake_set;
static const struct kernel **fake_kernels;
static size_t fake_n;
static char *fake_tmp;
static char token[64];

/* The kernels of `set` (kept in fake_set) with their binaries looked for
 * first in tests/data/`tools`, a private TMPDIR and a token for
 * leftovers(). */
static void kernels_setup(struct recipe_set *set, const char *tools_rel)
{
    fake_set = set;
    char *tools = test_data_path(tools_rel);
    recipe_set_tools_dir(tools);
    free(tools);
    toolkernel_build(fake_set, kernel_registry, kernel_registry_count, &fake_kernels, &fake_n);
    char tmpl[] = "/tmp/evmbench-test-recipe-XXXXXX";
    ck_assert(mkdtemp(tmpl));
    fake_tmp = xstrdup(tmpl);
    setenv("TMPDIR", fake_tmp, 1);
    static int counter;
    snprintf(token, sizeof token, "%ld-%d", (long)getpid(), ++counter);
    setenv("EVMBENCH_FAKE_TOKEN", token, 1);
}

static void fake_setup(void)
{
    char *dir = test_data_path("tools/fake/recipes");
    struct diag d;
    diag_init(&d);
    struct recipe_set *set = recipe_load_dir(dir, &d);
    ck_assert_msg(d.n == 0, "fake recipes: %s", d.n ? d.msgs[0] : "");
    diag_free(&d);
    free(dir);
    kernels_setup(set, "tools/fake");
}

static void fake_teardown(void)
{
    toolkernel_free(fake_kernels, fake_n);
    recipe_set_free(fake_set);
    recipe_set_tools_dir(NULL);
    rmdir(fake_tmp);
    free(fake_tmp);
    unsetenv("TMPDIR");
    unsetenv("EVMBENCH_FAKE_TOKEN");
}

/* Processes (other than zombies) that carry this test's token in their
 * environment: whatever a fake tool started. */
static size_t leftovers(void)
{
    char want[96];
    int wl = snprintf(want, sizeof want, "EVMBENCH_FAKE_TOKEN=%s", token);
    size_t n = 0;
    DIR *d = opendir("/proc");
    struct dirent *de;
    while (d && (de = readdir(d))) {
        char *end;
        long pid = strtol(de->d_name, &end, 10);
        if (*end || pid <= 0 || pid == getpid())
            continue;
        char path[64];
        snprintf(path, sizeof path, "/proc/%ld/environ", pid);
        size_t len;
        char *env = read_file(path, 1 << 20, &len);
        if (!env)
            continue;
        for (size_t i = 0; i < len; i += strlen(env + i) + 1)
            if (strncmp(env + i, want, (size_t)wl) == 0 && env[i + wl] == '\0') {
                n++;
                break;
            }
        free(env);
    }
    if (d)
        closedir(d);
    return n;
}

static size_t leftovers_after_grace(void)
{
    size_t n = 0;
    for (int i = 0; i < 100; i++) {
        if ((n = leftovers()) == 0)
            return 0;
        usleep(20000);
    }
    return n;
}

static const struct kernel *fake(const char *name)
{
    for (size_t i = 0; i < fake_n; i++)
        if (strcmp(fake_kernels[i]->name, name) == 0)
            return fake_kernels[i];
    ck_abort_msg("no fake kernel %s", name);
    return NULL;
}

static struct run *run_fake(const char *name, bool quick)
{
    const struct kernel *k = fake(name);
    struct run_options o = { .params = { .quick = quick }, .timeout_s = 30, .cpu = -1 };
    struct diag why;
    diag_init(&why);
    struct run *run = runner_start(k, &o, NULL, NULL, &why);
    ck_assert_msg(run, "runner_start: %s", diag_last(&why));
    diag_free(&why);
    runner_wait(run, -1);
    ck_assert(run->finished);
    ck_assert_msg(leftovers_after_grace() == 0, "%s left processes behind", name);
    /* the temporary directory is gone */
    DIR *d = opendir(fake_tmp);
    ck_assert(d);
    struct dirent *de;
    while ((de = readdir(d)))
        ck_assert_msg(de->d_name[0] == '.', "%s left %s in TMPDIR", name, de->d_name);
    closedir(d);
    return run;
}

static const struct run_metric *metric(const struct run *run, const char *id)
{
    for (size_t i = 0; i < run->nmetrics; i++)
        if (strcmp(run->metrics[i].def->id, id) == 0)
            return &run->metrics[i];
    ck_abort_msg("no metric %s", id);
    return NULL;
}

static void assert_failed(const struct run *run, const char *id, const char *needle)
{
    const struct run_metric *m = metric(run, id);
    ck_assert_msg(m->failed, "%s should have failed", id);
    ck_assert_msg(strstr(m->fail_reason, needle), "%s: '%s' lacks '%s'", id, m->fail_reason,
                  needle);
}

START_TEST(fake_ok)
{
    const struct kernel *k = fake("fake_ok");
    char prov[64];
    kernel_provider_id(k, prov, sizeof prov);
    ck_assert_str_eq(prov, "tool:fake_ok");
    ck_assert(toolkernel_available(k, NULL));
    ck_assert_ptr_eq(toolkernel_recipe(k), recipe_find(fake_set, "fake_ok"));
    struct run *run = run_fake("fake_ok", true);
    ck_assert_int_eq(run->status, STATUS_OK);
    const struct run_metric *m = metric(run, "fake_bw");
    ck_assert(!m->failed);
    ck_assert_uint_eq(m->stats.count, 2);
    ck_assert_double_eq_tol(m->stats.mean, 1234.5, 1e-9);
    ck_assert_double_eq_tol(run->progress, 1.0, 1e-9);
    runner_free(run);
}
END_TEST

START_TEST(fake_exit)
{
    struct run *run = run_fake("fake_exit", true);
    ck_assert_int_eq(run->status, STATUS_FAILED);
    assert_failed(run, "fake_bw", "fake_exit: exit status 3; output ends: Usage: fake_exit "
                                  "<size> what | <size> must be larger than 512");
    runner_free(run);
}
END_TEST

START_TEST(fake_signal)
{
    struct run *run = run_fake("fake_signal", true);
    ck_assert_int_eq(run->status, STATUS_FAILED);
    assert_failed(run, "fake_bw", "killed by signal 11");
    assert_failed(run, "fake_bw", "about to crash");
    runner_free(run);
}
END_TEST

/* Lines in the file at `path` (0 when it is missing). */
static int count_lines(const char *path)
{
    FILE *f = fopen(path, "r");
    int n = 0, c;
    while (f && (c = getc(f)) != EOF)
        n += c == '\n';
    if (f)
        fclose(f);
    return n;
}

START_TEST(fake_hang)
{
    /* 1 s limit, and a timed-out invocation is not repeated (the recipe
     * asks for 3 runs): fake_hang counts its starts in FAKE_STARTS */
    char *log = xasprintf("%s.starts", fake_tmp);
    unlink(log);
    setenv("FAKE_STARTS", log, 1);
    struct run *run = run_fake("fake_hang", true);
    unsetenv("FAKE_STARTS");
    ck_assert_int_eq(run->status, STATUS_FAILED);
    assert_failed(run, "fake_bw", "timed out after 1 s");
    ck_assert_int_eq(count_lines(log), 1);
    unlink(log);
    free(log);
    runner_free(run);
}
END_TEST

START_TEST(timeout_cap)
{
    /* a benchmark limit of 0.5 s: the invocation gets what is left of it */
    toolkernel_set_time_limit(0.5);
    struct run *run = run_fake("fake_hang", true);
    toolkernel_set_time_limit(0);
    assert_failed(run, "fake_bw", "timed out after 0.4");
    runner_free(run);
}
END_TEST

START_TEST(fake_garbage)
{
    struct run *run = run_fake("fake_garbage", true);
    ck_assert_int_eq(run->status, STATUS_FAILED);
    assert_failed(run, "fake_bw", "the output does not match the recipe: hello world|nothing "
                                  "to see here");
    runner_free(run);
}
END_TEST

START_TEST(fake_flood)
{
    /* fake_flood writes until it is stopped: had it not been, the
     * message would be its 20 s timeout */
    struct run *run = run_fake("fake_flood", true);
    ck_assert_int_eq(run->status, STATUS_FAILED);
    assert_failed(run, "fake_bw", "output over 1024 KiB");
    runner_free(run);
}
END_TEST

START_TEST(fake_partial)
{
    struct run *run = run_fake("fake_partial", true);
    ck_assert_int_eq(run->status, STATUS_OK);
    const struct run_metric *m = metric(run, "ctx-2");
    ck_assert(!m->failed);
    ck_assert_double_eq_tol(m->stats.mean, 8.45, 1e-9);
    assert_failed(run, "ctx-4", "not in the output (partial output: 1 of 2 values)");
    runner_free(run);
}
END_TEST

START_TEST(fake_slow_partial)
{
    struct run *run = run_fake("fake_slow", true);
    ck_assert_int_eq(run->status, STATUS_OK);
    ck_assert_double_eq_tol(metric(run, "ctx-2")->stats.mean, 8.45, 1e-9);
    assert_failed(run, "ctx-4", "fake_slow: timed out after 1 s (partial output: 1 of 2 values)");
    runner_free(run);
}
END_TEST

START_TEST(fake_server)
{
    /* the server's setup exits and leaves a daemon holding the pipes:
     * waiting for their end would time the setup out after 10 s and fail
     * the run, so the status says it was not waited for */
    struct run *run = run_fake("fake_server", true);
    ck_assert_int_eq(run->status, STATUS_OK);
    ck_assert_double_eq_tol(metric(run, "lat_tcp")->stats.mean, 42.5, 1e-9);
    ck_assert_double_eq_tol(metric(run, "tcp_latency_using_localhost")->stats.mean, 42.5, 1e-9);
    runner_free(run);
}
END_TEST

START_TEST(fake_missing)
{
    ck_assert(!toolkernel_available(fake("fake_missing"), NULL));
    struct run *run = run_fake("fake_missing", true);
    ck_assert_int_eq(run->status, STATUS_FAILED);
    assert_failed(run, "copy", "evmbench_no_such_tool not found in ");
    assert_failed(run, "copy", "/nonexistent/evmbench");
    assert_failed(run, "copy", "provided by the fake package of the test suite");
    assert_failed(run, "copy", "use --provider kernel");
    runner_free(run);
}
END_TEST

/* --- CPU load, run parameters, scratch files --------------------------- */

/* CPU seconds of this process's waited-for children (and theirs). */
static double children_cpu_seconds(void)
{
    struct rusage ru;
    ck_assert_int_eq(getrusage(RUSAGE_CHILDREN, &ru), 0);
    return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
           (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

/* fake_busy spins for 0.3 s of wall time. Its load (its CPU time over its
 * wall time) is judged against the CPU time the worker and the tool used,
 * from this process's rusage, not against a share assumed free: on a
 * crowded or slow machine the tool gets less of a CPU, and so does the
 * load it reports. */
START_TEST(fake_cpu_load_process)
{
    double cpu0 = children_cpu_seconds(), t0 = now_seconds();
    struct run *run = run_fake("fake_load", true);
    double wall = now_seconds() - t0, cpu = children_cpu_seconds() - cpu0;
    ck_assert_int_eq(run->status, STATUS_OK);
    const struct run_metric *m = metric(run, "fake_load");
    ck_assert_msg(!m->failed, "%s", m->fail_reason ? m->fail_reason : "");
    ck_assert_uint_eq(m->stats.count, 1);
    double load = m->stats.mean;
    ck_assert_msg(load > 0 && load <= 100.0 * sysconf(_SC_NPROCESSORS_ONLN), "process load %g%%",
                  load);
    /* the tool ran 0.3 s or more: it cannot claim more CPU than all the
     * children used, nor less than most of it (the spinning was most of
     * what they did; the worker's own part is small) */
    ck_assert_msg(load / 100 * 0.3 <= cpu * 1.05 + 0.01,
                  "process load %g%% of 0.3 s or more, but the children used %.3f s", load, cpu);
    ck_assert_msg(load / 100 * wall >= cpu / 4,
                  "process load %g%% over at most %.3f s, but the children used %.3f s", load, wall,
                  cpu);
    ck_assert_str_eq(m->def->unit, "%");
    runner_free(run);
}
END_TEST

START_TEST(fake_cpu_load_system)
{
    const struct kernel *k = fake("fake_sysload");
    /* the guide row and column the metrics are compared with */
    const struct kernel_metric *cpu = kernel_metric_find(k, "write-cpu");
    const struct kernel_metric *bw = kernel_metric_find(k, "write");
    ck_assert(cpu && bw);
    ck_assert_str_eq(cpu->ref_row, "4k");
    ck_assert_str_eq(cpu->ref_column, "Write * CPU Load");
    ck_assert_str_eq(bw->ref_column, "Write * Throughput");
    struct run *run = run_fake("fake_sysload", true);
    ck_assert_int_eq(run->status, STATUS_OK);
    const struct run_metric *m = metric(run, "write-cpu");
    ck_assert_msg(!m->failed, "%s", m->fail_reason ? m->fail_reason : "");
    ck_assert_msg(m->stats.mean > 0 && m->stats.mean <= 100, "system load %g%%",
                  m->stats.mean);
    ck_assert(!metric(run, "write")->failed);
    runner_free(run);
}
END_TEST

/* A network recipe never picks a peer: without one it does not run. */
START_TEST(fake_needs_peer)
{
    recipe_set_option("peer", NULL);
    ck_assert_str_eq(recipe_unrunnable(recipe_find(fake_set, "fake_peer"), NULL),
                     "needs --peer");
    struct run *run = run_fake("fake_peer", true);
    ck_assert_int_eq(run->status, STATUS_FAILED);
    assert_failed(run, "fake_bw", "not runnable: needs --peer");
    runner_free(run);
    recipe_set_option("peer", "77.5");      /* fake_ok prints its argument */
    ck_assert_ptr_null(recipe_unrunnable(recipe_find(fake_set, "fake_peer"), NULL));
    run = run_fake("fake_peer", true);
    ck_assert_int_eq(run->status, STATUS_OK);
    ck_assert_double_eq_tol(metric(run, "fake_bw")->stats.mean, 77.5, 1e-9);
    runner_free(run);
    recipe_set_option("peer", NULL);
}
END_TEST

static char *storage_setup(char **target)
{
    char tmpl[] = "/tmp/evmbench-test-storage-XXXXXX";
    ck_assert(mkdtemp(tmpl));
    *target = xasprintf("%s/evmbench-fio.tmp", tmpl);
    recipe_set_option("storage_target", *target);
    return xstrdup(tmpl);
}

/* The storage test writes its one file in the directory and removes it. */
START_TEST(fake_storage_removed)
{
    recipe_set_option("storage_target", NULL);
    struct run *run = run_fake("fake_storage", true);
    assert_failed(run, "fake_bw", "not runnable: needs --storage-dir DIR");
    runner_free(run);
    char *target;
    char *dir = storage_setup(&target);
    run = run_fake("fake_storage", true);
    ck_assert_int_eq(run->status, STATUS_OK);
    ck_assert_double_eq_tol(metric(run, "fake_bw")->stats.mean, 64, 1e-9);
    runner_free(run);
    ck_assert_msg(access(target, F_OK) != 0, "%s was left behind", target);
    ck_assert_int_eq(rmdir(dir), 0);       /* and nothing else was written */
    recipe_set_option("storage_target", NULL);
    free(target);
    free(dir);
}
END_TEST

/* Killed with the whole worker (the runner's time limit, as on cancel):
 * the guard removes the file all the same. */
START_TEST(fake_storage_killed)
{
    char *target;
    char *dir = storage_setup(&target);
    const struct kernel *k = fake("fake_storage_hang");
    struct run_options o = { .params = { .quick = true }, .timeout_s = 1.5, .cpu = -1 };
    struct diag why;
    diag_init(&why);
    struct run *run = runner_start(k, &o, NULL, NULL, &why);
    ck_assert_msg(run, "runner_start: %s", diag_last(&why));
    diag_free(&why);
    runner_wait(run, -1);
    ck_assert(run->finished);
    ck_assert_int_ne(run->status, STATUS_OK);
    runner_free(run);
    bool gone = false;
    for (int i = 0; i < 200 && !gone; i++) {
        gone = access(target, F_OK) != 0;
        if (!gone)
            usleep(10000);
    }
    ck_assert_msg(gone, "%s was left behind by a killed worker", target);
    ck_assert_msg(leftovers_after_grace() == 0, "the killed worker left processes behind");
    ck_assert_int_eq(rmdir(dir), 0);
    /* the killed worker could not remove its temporary directory */
    char *cmd = xasprintf("rm -rf '%s'/evmbench-*", fake_tmp);
    ck_assert_int_eq(system(cmd), 0);
    free(cmd);
    recipe_set_option("storage_target", NULL);
    free(target);
    free(dir);
}
END_TEST

START_TEST(fake_args)
{
    struct run *run = run_fake("fake_args", false);
    ck_assert_int_eq(run->status, STATUS_OK);
    ck_assert_double_eq(metric(run, "nargs")->stats.mean, 2);    /* -N {reps} dropped */
    assert_failed(run, "first", "\"hello\" is not a number");
    ck_assert_double_eq(metric(run, "env")->stats.mean, 77);
    ck_assert_double_eq(metric(run, "dir_ok")->stats.mean, 1);
    ck_assert_double_eq(metric(run, "cwd_ok")->stats.mean, 1);
    ck_assert_double_eq(metric(run, "data_size")->stats.mean, 4096);
    runner_free(run);
}
END_TEST

/* A metric list selects invocations: fake_cases runs once per case
 * (a, b, c); asked for case-b only, it is invoked once, for b, and the
 * other value that run prints (case-b-all) is not reported. */
START_TEST(fake_cases_only_the_wanted_invocation)
{
    char *log = xasprintf("%s.log", fake_tmp);
    setenv("FAKE_CASES_LOG", log, 1);
    const char *ids[] = { "case-b" };
    struct run_options o = { .params = { .quick = true, .only = ids, .nonly = 1 },
                             .timeout_s = 30, .cpu = -1 };
    struct diag why;
    diag_init(&why);
    struct run *run = runner_start(fake("fake_cases"), &o, NULL, NULL, &why);
    ck_assert_msg(run, "runner_start: %s", diag_last(&why));
    diag_free(&why);
    runner_wait(run, -1);
    ck_assert_int_eq(run->status, STATUS_OK);
    ck_assert_uint_eq(run->nmetrics, 1);
    ck_assert_double_eq(metric(run, "case-b")->stats.mean, 7);
    for (size_t i = 0; i < run->nnotes; i++)
        ck_assert_msg(!strstr(run->notes[i], "ignored"), "%s", run->notes[i]);
    runner_free(run);
    size_t len;
    char *text = read_file(log, 4096, &len);
    ck_assert_msg(text, "fake_cases was never invoked");
    ck_assert_str_eq(text, "b\n");
    free(text);
    unlink(log);

    /* without a list: every case, every value */
    o.params.nonly = 0;
    o.params.only = NULL;
    diag_init(&why);
    run = runner_start(fake("fake_cases"), &o, NULL, NULL, &why);
    ck_assert_msg(run, "runner_start: %s", diag_last(&why));
    diag_free(&why);
    runner_wait(run, -1);
    ck_assert_int_eq(run->status, STATUS_OK);
    ck_assert_uint_eq(run->nmetrics, 6);
    ck_assert_double_eq(metric(run, "case-c-all")->stats.mean, 8);
    runner_free(run);
    text = read_file(log, 4096, &len);
    ck_assert_str_eq(text, "a\nb\nc\n");
    free(text);
    unlink(log);
    unsetenv("FAKE_CASES_LOG");
    free(log);
}
END_TEST

/* The run() of a tool kernel also works in-process, and a killed tool's
 * children are found and reaped. */
static void count_fails(void *ctx, const struct report_event *ev)
{
    if (ev->kind == REPORT_FAIL)
        (*(int *)ctx)++;
}

START_TEST(inline_hang_reaped)
{
    struct report r;
    int fails = 0;
    report_to_callback(&r, count_fails, &fails);
    struct kernel_params p = { .quick = true };
    int rc = runner_run_inline(fake("fake_hang"), &p, &r);
    ck_assert_int_eq(rc, -1);
    ck_assert_int_eq(fails, 1);
    pid_t kids[8];
    ck_assert_uint_eq(toolkernel_descendants(getpid(), kids, 8), 0);
    ck_assert_uint_eq(leftovers_after_grace(), 0);
}
END_TEST

/* --- tool output that is not UTF-8 ---------------------------------------- */

#define EURO "\xE2\x82\xAC"
#define REPL "\xEF\xBF\xBD"

static char *export_text(const char *format, json_t *rows)
{
    char *buf;
    size_t len;
    FILE *f = open_memstream(&buf, &len);
    export_rows(f, format, rows, 0, "suite");
    fclose(f);
    return buf;
}

/* Runs fake tool `name` (it fails), and checks that the reason, which
 * holds `needle`, is valid UTF-8 and reaches the JSON row, the results
 * store, CSV and JUnit; `ends` is how the reason must end. */
static void reason_reaches_every_output(const char *name, const char *needle, const char *ends)
{
    struct run *run = run_fake(name, true);
    ck_assert_int_eq(run->status, STATUS_FAILED);
    const struct run_metric *m = metric(run, "fake_bw");
    ck_assert(m->failed);
    ck_assert_msg(utf8_valid(m->fail_reason), "%s: reason not UTF-8: %s", name, m->fail_reason);
    ck_assert_msg(strstr(m->fail_reason, needle), "%s: '%s' lacks '%s'", name, m->fail_reason,
                  needle);
    ck_assert_msg(str_ends_with(m->fail_reason, ends), "%s: '%s' does not end '%s'", name,
                  m->fail_reason, ends);

    struct compare cmp = { .tolerance_pct = 10 };
    struct result_row row;
    result_row_make(&row, run, (size_t)(m - run->metrics), &cmp);
    json_t *j = result_row_json(&row);
    const char *err = json_string_value(json_object_get(j, "error"));
    ck_assert_msg(err, "%s: the reason is lost from the JSON row", name);
    ck_assert_str_eq(err, m->fail_reason);

    char tmpl[] = "/tmp/evmbench-utf8-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(tmpl));
    struct diag d;
    diag_init(&d);
    struct store_writer *w = store_begin(tmpl, "b", NULL, &d);
    ck_assert_msg(w, "%s", diag_last(&d));
    char *path = xstrdup(store_writer_path(w));
    ck_assert_msg(store_append(w, j, &d) == 0, "%s", diag_last(&d));
    ck_assert_int_eq(store_finish(w, true, &d), 0);
    struct stored_run sr;
    ck_assert_int_eq(store_read_run(path, &sr, &d), 0);
    ck_assert_uint_eq(d.n, 0);
    ck_assert_uint_eq(json_array_size(sr.rows), 1);
    const char *stored = json_string_value(json_object_get(json_array_get(sr.rows, 0), "error"));
    ck_assert_msg(stored, "%s: the reason is lost from the store", name);
    ck_assert_str_eq(stored, m->fail_reason);
    stored_run_free(&sr);
    diag_free(&d);
    unlink(path);
    char *runs = path_join(tmpl, "runs");
    rmdir(runs);
    rmdir(tmpl);
    free(runs);
    free(path);

    json_t *rows = json_array();
    json_array_append_new(rows, j);
    for (int f = 0; f < 2; f++) {
        char *text = export_text(f ? "junit" : "csv", rows);
        ck_assert_msg(strstr(text, needle), "%s: the reason is lost from %s:\n%s", name,
                      f ? "JUnit" : "CSV", text);
        free(text);
    }
    json_decref(rows);
    runner_free(run);
}

/* The last 300 bytes of the output start inside a euro sign: the excerpt
 * starts at the next whole one, and the 0xFF byte becomes U+FFFD. */
START_TEST(fake_not_utf8_exit)
{
    reason_reaches_every_output("fake_badutf8", "exit status 4; output ends: " EURO EURO,
                                EURO EURO " | bad end " REPL);
}
END_TEST

/* The first 160 bytes: each bad byte of the first line is one U+FFFD,
 * the cut falls before the euro sign it would split. */
START_TEST(fake_not_utf8_no_match)
{
    reason_reaches_every_output("fake_badutf8_nomatch",
                                "the output does not match the recipe: caf" REPL " cr" REPL "me "
                                REPL " " REPL REPL REPL "|x" EURO EURO,
                                EURO " ...");
}
END_TEST

/* --- a tool's own error --------------------------------------------------- */

/* Checks that `id` failed with the tool's own error first and how the
 * command ended after it: the reason holds `own`, then `status`, and
 * not the last lines of the output instead. */
static void assert_own_error(const struct run *run, const char *id, const char *own,
                             const char *status)
{
    const struct run_metric *m = metric(run, id);
    ck_assert_msg(m->failed, "%s should have failed", id);
    const char *r = m->fail_reason;
    const char *o = strstr(r, own);
    const char *s = o ? strstr(o + strlen(own), status) : NULL;
    ck_assert_msg(o && s, "%s: '%s' should name '%s', then '%s'", id, r, own, status);
    ck_assert_msg(!strstr(r, "output ends"), "%s: '%s' quotes the output's end", id, r);
}

/* The error on stderr, the recipe reading stdout, and a zero exit: the
 * value on stdout does not count. */
START_TEST(fake_error_zero_exit)
{
    struct run *run = run_fake("fake_error_exit0", true);
    ck_assert_int_eq(run->status, STATUS_FAILED);
    assert_own_error(run, "fake_bw", "fake_error exit0: the fake tool failed (\"fake_error: "
                     "error - the device went away\")", "(exit status 0)");
    runner_free(run);
}
END_TEST

START_TEST(fake_error_timeout)
{
    struct run *run = run_fake("fake_error_hang", true);
    ck_assert_int_eq(run->status, STATUS_FAILED);
    assert_own_error(run, "fake_bw", "the fake tool failed (\"fake_error: error - the device "
                     "went away\")", "(timed out after 1 s)");
    runner_free(run);
}
END_TEST

START_TEST(fake_error_signal)
{
    struct run *run = run_fake("fake_error_signal", true);
    ck_assert_int_eq(run->status, STATUS_FAILED);
    assert_own_error(run, "fake_bw", "the fake tool failed (\"fake_error: error - the device "
                     "went away\")", "(killed by signal 11");
    runner_free(run);
}
END_TEST

/* The shipped recipes, their binaries stand-ins that replay real captures
 * (tests/data/tools/replay: each tool's stdout, stderr and exit status as
 * it wrote them). */
static char *replay_dir;            /* the storage directory for fio */
static char *replay_target;

static void replay_setup(void)
{
    kernels_setup(shipped(), "tools/replay/bin");
    recipe_set_option("peer", "127.0.0.1");
    replay_dir = storage_setup(&replay_target);
}

static void replay_teardown(void)
{
    recipe_set_option("peer", NULL);
    recipe_set_option("storage_target", NULL);
    rmdir(replay_dir);
    free(replay_dir);
    free(replay_target);
    unsetenv("EVMBENCH_REPLAY");
    fake_teardown();
}

/* Runs shipped benchmark `bench` on the replay of `capture`. */
static struct run *run_replay(const char *bench, const char *capture)
{
    char *rel = path_join("tools/replay", capture);
    char *dir = test_data_path(rel);
    setenv("EVMBENCH_REPLAY", dir, 1);
    struct run *run = run_fake(bench, true);
    ck_assert_int_eq(run->status, STATUS_FAILED);
    free(dir);
    free(rel);
    return run;
}

/* fio writing to a full file system: exit status 1, its error on both
 * streams, and a bandwidth for what it wrote before. */
START_TEST(replay_fio_no_space_write)
{
    struct run *run = run_replay("fio_emmc", "fio_write_no_space");
    assert_own_error(run, "1m-write", "no space left for the test file under --storage-dir "
                     "(1 GiB, 64 MiB with --quick) (\"fio: ", "(exit status 1)");
    ck_assert(strstr(metric(run, "1m-write")->fail_reason, "No space left on device"));
    runner_free(run);
}
END_TEST

/* Laying out the file for reading: the error names ENOSPC only on stderr. */
START_TEST(replay_fio_no_space_read)
{
    struct run *run = run_replay("fio_emmc", "fio_read_no_space");
    assert_own_error(run, "1m-read", "no space left for the test file under --storage-dir "
                     "(1 GiB, 64 MiB with --quick) (\"fio: ", "(exit status 1)");
    runner_free(run);
}
END_TEST

START_TEST(replay_netperf_no_netserver)
{
    struct run *run = run_replay("netperf_tcp", "netperf_no_netserver");
    assert_own_error(run, "tcp_stream", "no netserver answers on the peer (\"establish "
                     "control: are you sure there is a netserver listening on 127.0.0.1 at "
                     "port 12865?\")", "(exit status 255)");
    runner_free(run);
}
END_TEST

/* iperf3 prints its error on stderr, the recipe reads stdout. */
START_TEST(replay_iperf3_no_server)
{
    struct run *run = run_replay("iperf3_tcp", "iperf3_no_server");
    assert_own_error(run, "iperf3-tx", "no iperf3 server (iperf3 -s) answers on the peer "
                     "(\"iperf3: error - unable to connect to server: "
                     "Connection refused\")", "(exit status 1)");
    runner_free(run);
}
END_TEST

/* OpenSSL 3.0 with -evp and a name it does not know, on stderr. */
START_TEST(replay_openssl_unknown_cipher)
{
    struct run *run = run_replay("openssl_speed", "openssl_unknown_cipher");
    assert_own_error(run, "aes-128-cbc-16", "does not know the algorithm (\"speed: nosuchalgo "
                     "is an unknown cipher or digest\")", "(exit status 1)");
    runner_free(run);
}
END_TEST

START_TEST(replay_boot_not_systemd)
{
    struct run *run = run_replay("boot_time", "boot_not_systemd");
    assert_own_error(run, "linux_boot_time_from_sd_with_default_rootfs_20_boot_cycles",
                     "(\"System has not been booted with systemd as init system (PID 1). "
                     "Can't operate.\")", "(exit status 1)");
    runner_free(run);
}
END_TEST

Suite *suite_recipe(void)
{
    Suite *s = suite_create("recipe");
    TCase *tc = tcase_create("load");
    tcase_add_test(tc, shipped_load);
    tcase_add_test(tc, shipped_cover_guide);
    tcase_add_test(tc, shipped_ref_columns);
    tcase_add_test(tc, argv_expansion);
    tcase_add_test(tc, iperf3_full_precision);
    tcase_add_test(tc, bad_recipes);
    suite_add_tcase(s, tc);
    tc = tcase_create("parse");
    tcase_add_test(tc, fixtures);
    tcase_add_test(tc, invalid_value);
    tcase_add_test(tc, scale_factor_not_number);
    suite_add_tcase(s, tc);
    tc = tcase_create("run");
    tcase_add_checked_fixture(tc, fake_setup, fake_teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, fake_ok);
    tcase_add_test(tc, fake_exit);
    tcase_add_test(tc, fake_signal);
    tcase_add_test(tc, fake_hang);
    tcase_add_test(tc, timeout_cap);
    tcase_add_test(tc, fake_garbage);
    tcase_add_test(tc, fake_not_utf8_exit);
    tcase_add_test(tc, fake_not_utf8_no_match);
    tcase_add_test(tc, fake_flood);
    tcase_add_test(tc, fake_partial);
    tcase_add_test(tc, fake_slow_partial);
    tcase_add_test(tc, fake_server);
    tcase_add_test(tc, fake_missing);
    tcase_add_test(tc, fake_args);
    tcase_add_test(tc, fake_cases_only_the_wanted_invocation);
    tcase_add_test(tc, fake_cpu_load_process);
    tcase_add_test(tc, fake_cpu_load_system);
    tcase_add_test(tc, fake_needs_peer);
    tcase_add_test(tc, fake_storage_removed);
    tcase_add_test(tc, fake_storage_killed);
    tcase_add_test(tc, inline_hang_reaped);
    tcase_add_test(tc, fake_error_zero_exit);
    tcase_add_test(tc, fake_error_timeout);
    tcase_add_test(tc, fake_error_signal);
    suite_add_tcase(s, tc);
    tc = tcase_create("tool errors");
    tcase_add_checked_fixture(tc, replay_setup, replay_teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, replay_fio_no_space_write);
    tcase_add_test(tc, replay_fio_no_space_read);
    tcase_add_test(tc, replay_netperf_no_netserver);
    tcase_add_test(tc, replay_iperf3_no_server);
    tcase_add_test(tc, replay_openssl_unknown_cipher);
    tcase_add_test(tc, replay_boot_not_systemd);
    suite_add_tcase(s, tc);
    return s;
}
