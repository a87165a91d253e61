/* test_embedded.c - built-in data files: the table read from memory, the
 * terminfo extraction and its fallbacks, removal. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "data/datadir.h"
#include "data/embedded.h"
#include "screens/terminfo.h"
#include "recipe/recipe.h"
#include "data/refdb.h"
#include "suites.h"
#include "common/util.h"

static char tmpdir[] = "/tmp/evmbench-embed-test-XXXXXX";
static char *old_tmpdir;

static void setup(void)
{
    strcpy(tmpdir, "/tmp/evmbench-embed-test-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(tmpdir));
    const char *t = getenv("TMPDIR");
    old_tmpdir = t ? xstrdup(t) : NULL;
    setenv("TMPDIR", tmpdir, 1);
}

static void teardown(void)
{
    if (old_tmpdir)
        setenv("TMPDIR", old_tmpdir, 1);
    else
        unsetenv("TMPDIR");
    free(old_tmpdir);
    old_tmpdir = NULL;
    /* every test leaves the directory empty */
    ck_assert_int_eq(rmdir(tmpdir), 0);
}

static const unsigned char hello[] = "hello\n";
static const unsigned char bin[] = { 0, 1, 2, 0xff };

START_TEST(extract_writes_tree_and_remove_cleans_it)
{
    const struct embedded_file files[] = {
        { "refs/a.json", hello, 6 },
        { "refs/b.json", bin, sizeof bin },
        { "terminfo/v/vt100", bin, 2 },
        { "empty", hello, 0 },
    };
    struct diag err;
    diag_init(&err);
    char *root = embedded_extract(tmpdir, files, 4, &err);
    ck_assert_ptr_nonnull(root);
    ck_assert_uint_eq(err.n, 0);
    ck_assert(str_starts_with(root, tmpdir));
    struct stat st;
    ck_assert_int_eq(stat(root, &st), 0);
    ck_assert_int_eq(st.st_mode & 0777, 0700);
    for (size_t i = 0; i < 4; i++) {
        char *p = path_join(root, files[i].path);
        size_t len = 0;
        char *got = read_file(p, 1 << 20, &len);
        ck_assert_msg(got != NULL, "%s not written", p);
        ck_assert_uint_eq(len, files[i].size);
        ck_assert(memcmp(got, files[i].data, len) == 0);
        ck_assert_int_eq(stat(p, &st), 0);
        ck_assert_int_eq(st.st_mode & 0777, 0600);
        free(got);
        free(p);
    }
    embedded_remove(root, files, 4);
    ck_assert_int_ne(access(root, F_OK), 0);
    free(root);
}
END_TEST

START_TEST(unsafe_names_refused_nothing_left)
{
    const char *bad[] = { "../escape", "/abs", "a//b", "a/./b", "a/../b", "dir/", "" };
    for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
        const struct embedded_file files[] = {
            { "ok/first", hello, 6 },
            { bad[i], hello, 6 },
        };
        struct diag err;
        diag_init(&err);
        char *root = embedded_extract(tmpdir, files, 2, &err);
        ck_assert_msg(root == NULL, "'%s' accepted", bad[i]);
        ck_assert_uint_eq(err.n, 1);
        ck_assert_msg(strstr(diag_last(&err), "not a relative path") != NULL, "%s",
                      diag_last(&err));
        diag_free(&err);
    }
    /* teardown's rmdir proves nothing was left behind */
}
END_TEST

/* Each base is tried in turn; the first that takes the files wins, and
 * when none does the error names every one with its reason. */
START_TEST(extract_first_tries_each_base)
{
    const struct embedded_file files[] = { { "terminfo/v/vt100", hello, 6 } };
    char *file = path_join(tmpdir, "plain-file");
    FILE *f = fopen(file, "w");
    ck_assert_ptr_nonnull(f);
    fclose(f);
    const char *bases[] = { "/nonexistent/evmbench", file, tmpdir };
    struct diag err;
    diag_init(&err);
    char *root = embedded_extract_first(bases, 3, files, 1, &err);
    ck_assert_msg(root != NULL, "%s", diag_last(&err));
    ck_assert_uint_eq(err.n, 0);
    ck_assert(str_starts_with(root, tmpdir));
    embedded_remove(root, files, 1);
    free(root);

    root = embedded_extract_first(bases, 2, files, 1, &err);
    ck_assert_ptr_null(root);
    ck_assert_uint_eq(err.n, 2);
    ck_assert_msg(strstr(err.msgs[0], "/nonexistent/evmbench/evmbench-") &&
                  strstr(err.msgs[0], "No such file or directory"), "%s", err.msgs[0]);
    ck_assert_msg(strstr(err.msgs[1], "plain-file/evmbench-") &&
                  strstr(err.msgs[1], "Not a directory"), "%s", err.msgs[1]);
    diag_free(&err);
    ck_assert_int_eq(unlink(file), 0);
    free(file);
}
END_TEST

/* $TMPDIR first when set, then /tmp, /dev/shm and the user's runtime
 * directory. */
START_TEST(temp_bases_in_order)
{
    char *b[4];
    setenv("TMPDIR", "/somewhere", 1);
    size_t n = embedded_temp_bases(b);
    ck_assert_uint_eq(n, 4);
    char *run = xasprintf("/run/user/%lu", (unsigned long)getuid());
    const char *want[] = { "/somewhere", "/tmp", "/dev/shm", run };
    for (size_t i = 0; i < n; i++) {
        ck_assert_str_eq(b[i], want[i]);
        free(b[i]);
    }
    setenv("TMPDIR", "", 1);
    n = embedded_temp_bases(b);
    ck_assert_uint_eq(n, 3);
    ck_assert_str_eq(b[0], "/tmp");
    ck_assert_str_eq(b[2], run);
    for (size_t i = 0; i < n; i++)
        free(b[i]);
    free(run);
}
END_TEST

/* --- struct data_dir: a table and a directory read alike ------------------- */

static const unsigned char one[] = "{\"n\": 1}\n";
static const unsigned char two[] = "second";
static const struct embedded_file small_table[] = {
    { "refs/b.json", two, 6 },
    { "refs/a.json", one, sizeof one - 1 },
    { "refs/.hidden.json", two, 6 },
    { "refs/notes.txt", two, 6 },
    { "refs/deeper/c.json", two, 6 },
    { "refsx/d.json", two, 6 },
    { "tools/e.json", two, 6 },
    { "refs/empty.json", two, 0 },
};

/* What a folder lists and reads: the same from either source. */
static void check_folder(const struct data_dir *d, const char *label)
{
    ck_assert_str_eq(d->label, label);
    char **names = NULL;
    ck_assert_int_eq(data_dir_list(d, ".json", &names), 3);
    ck_assert_str_eq(names[0], "a.json");
    ck_assert_str_eq(names[1], "b.json");
    ck_assert_str_eq(names[2], "empty.json");
    for (size_t i = 0; i < 3; i++)
        free(names[i]);
    free(names);
    ck_assert_int_eq(data_dir_list(d, "", &names), 4);
    ck_assert_str_eq(names[3], "notes.txt");
    for (size_t i = 0; i < 4; i++)
        free(names[i]);
    free(names);

    size_t len = 99;
    char *text = data_dir_read(d, "a.json", 0, &len);
    ck_assert_ptr_nonnull(text);
    ck_assert_uint_eq(len, sizeof one - 1);
    ck_assert_str_eq(text, (const char *)one);
    free(text);
    text = data_dir_read(d, "empty.json", 0, &len);
    ck_assert_ptr_nonnull(text);
    ck_assert_uint_eq(len, 0);
    ck_assert_str_eq(text, "");
    free(text);
    const char *missing[] = { "c.json", "deeper/c.json", "../tools/e.json", "" };
    for (size_t i = 0; i < ARRAY_SIZE(missing); i++) {
        errno = 0;
        ck_assert_ptr_null(data_dir_read(d, missing[i], 0, NULL));
        ck_assert_msg(errno == ENOENT || errno == EISDIR, "%s: %s", missing[i],
                      strerror(errno));
    }
    errno = 0;
    ck_assert_ptr_null(data_dir_read(d, "b.json", 5, NULL));
    ck_assert_int_eq(errno, EFBIG);
    text = data_dir_read(d, "b.json", 6, &len);
    ck_assert_ptr_nonnull(text);
    ck_assert_str_eq(text, "second");
    free(text);
    char *fl = data_dir_file_label(d, "a.json");
    char *want = xasprintf("%s/a.json", label);
    ck_assert_str_eq(fl, want);
    free(want);
    free(fl);
}

START_TEST(data_dir_reads_table_and_directory_alike)
{
    struct data_dir d;
    data_dir_table(&d, small_table, ARRAY_SIZE(small_table), "refs");
    ck_assert(data_dir_builtin(&d));
    check_folder(&d, "built-in:refs");
    data_dir_free(&d);

    /* the same files on disk */
    struct diag err;
    diag_init(&err);
    char *root = embedded_extract(tmpdir, small_table, ARRAY_SIZE(small_table), &err);
    ck_assert_msg(root != NULL, "%s", diag_last(&err));
    char *refs = path_join(root, "refs");
    data_dir_at(&d, refs);
    ck_assert(!data_dir_builtin(&d));
    check_folder(&d, refs);
    data_dir_free(&d);
    embedded_remove(root, small_table, ARRAY_SIZE(small_table));
    free(refs);
    free(root);

    /* a directory that is not there: an error, not an empty folder */
    data_dir_at(&d, "/nonexistent/evmbench");
    char *sentinel = NULL;
    char **names = &sentinel;
    errno = 0;
    ck_assert_int_eq(data_dir_list(&d, ".json", &names), -1);
    ck_assert_int_eq(errno, ENOENT);
    ck_assert_ptr_null(names);
    data_dir_free(&d);
}
END_TEST

/* The reference loader reads a table from memory: what a file holds, with
 * "built-in:refs/NAME" in messages; no directory is written. */
START_TEST(refs_load_from_a_table)
{
    char *good = test_data_path("refs/good.json");
    size_t len = 0;
    char *text = read_file(good, 0, &len);
    ck_assert_ptr_nonnull(text);
    static const unsigned char broken[] = "{\n  \"format\": ";
    const struct embedded_file files[] = {
        { "refs/good.json", (const unsigned char *)text, len },
        { "refs/broken.json", broken, sizeof broken - 1 },
    };
    struct data_dir d;
    data_dir_table(&d, files, ARRAY_SIZE(files), "refs");
    struct refdb *db = refdb_new(), *disk = refdb_new();
    struct diag dg;
    diag_init(&dg);
    setenv("TMPDIR", "/nonexistent/evmbench", 1);
    ck_assert_int_eq(refdb_load_dir(db, &d, &dg), 1);
    ck_assert_uint_eq(dg.n, 1);
    ck_assert_msg(str_starts_with(dg.msgs[0], "built-in:refs/broken.json:2:"), "%s", dg.msgs[0]);
    ck_assert_uint_eq(db->nsources, 1);
    ck_assert_str_eq(db->sources[0]->path, "built-in:refs/good.json");
    /* the same numbers as the file itself */
    ck_assert_int_eq(refdb_load_file(disk, good, &dg), 0);
    ck_assert_uint_gt(db->ntables, 0);
    ck_assert_uint_eq(db->ntables, disk->ntables);
    ck_assert_uint_eq(db->nboards, disk->nboards);
    for (size_t i = 0; i < db->ntables; i++)
        ck_assert_uint_eq(db->tables[i]->nrows, disk->tables[i]->nrows);
    refdb_free(db);
    refdb_free(disk);
    diag_free(&dg);
    data_dir_free(&d);
    free(text);
    free(good);
}
END_TEST

/* A JSON file is embedded minified: the embedded text parses to the same
 * value as the file on disk, and holds no whitespace between tokens (no
 * line breaks: JSON strings cannot hold one). */
static void check_same_json(const char *path, const char *text, size_t len,
                            const struct embedded_file *f)
{
    json_error_t e;
    json_t *disk = json_loadb(text, len, JSON_REJECT_DUPLICATES, &e);
    ck_assert_msg(disk != NULL, "%s:%d: %s", path, e.line, e.text);
    json_t *mem = json_loadb((const char *)f->data, f->size, JSON_REJECT_DUPLICATES, &e);
    ck_assert_msg(mem != NULL, "built-in %s: %s", f->path, e.text);
    ck_assert_msg(json_equal(disk, mem), "built-in %s differs from %s", f->path, path);
    ck_assert_msg(memchr(f->data, '\n', f->size) == NULL, "built-in %s is not minified", f->path);
    ck_assert_uint_le(f->size, len);
    json_decref(disk);
    json_decref(mem);
}

/* Every file of SRC/PREFIX/FOLDER whose name ends in SUFFIX is in the
 * table as FOLDER/NAME. */
static void check_folder_embedded(const char *src, const char *prefix, const char *folder,
                                  const char *suffix)
{
    char *dir = xasprintf("%s/%s%s", src, prefix, folder);
    DIR *d = opendir(dir);
    ck_assert_msg(d != NULL, "%s: %s", dir, strerror(errno));
    size_t seen = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (!str_ends_with(de->d_name, suffix))
            continue;
        char *name = xasprintf("%s/%s", folder, de->d_name);
        size_t n;
        const struct embedded_file *files = embedded_builtin(&n);
        bool found = false;
        for (size_t i = 0; i < n && !found; i++)
            found = strcmp(files[i].path, name) == 0;
        ck_assert_msg(found, "%s/%s is not built in", dir, de->d_name);
        free(name);
        seen++;
    }
    closedir(d);
    ck_assert_msg(seen > 0, "%s: no file ending in %s", dir, suffix);
    free(dir);
}

/* With --enable-embedded-data the table holds every shipped data file
 * (JSON minified to the same value, the others byte for byte), and the
 * terminfo entries of the usual terminals. */
START_TEST(table_matches_shipped_data)
{
    size_t nfiles;
    const struct embedded_file *files = embedded_builtin(&nfiles);
    if (nfiles == 0) {
        ck_assert_uint_eq(embedded_pack.n, 0);
        ck_assert(!embedded_has_terminfo("vt100"));
        return;
    }
    ck_assert_ptr_null(files[nfiles].path);
    const char *src = getenv("EVMBENCH_DATADIR");
    ck_assert_ptr_nonnull(src);
    size_t refs = 0, tools = 0, themes = 0, profiles = 0, soc = 0, terminfo = 0;
    for (size_t i = 0; i < nfiles; i++) {
        const struct embedded_file *f = &files[i];
        const char *sub = NULL;
        if (str_starts_with(f->path, "refs/"))
            refs += str_ends_with(f->path, ".json"), sub = "benches/";
        else if (str_starts_with(f->path, "tools/"))
            tools++, sub = "benches/";
        else if (str_starts_with(f->path, "profiles/"))
            profiles++, sub = "benches/";
        else if (str_starts_with(f->path, "soc/"))
            soc++, sub = "benches/";
        else if (str_starts_with(f->path, "themes/"))
            themes++, sub = "";
        else {
            ck_assert_msg(str_starts_with(f->path, "terminfo/"), "%s", f->path);
            terminfo++;
        }
        if (!sub)
            continue;
        char *p = xasprintf("%s/%s%s", src, sub, f->path);
        size_t len = 0;
        char *want = read_file(p, 16u << 20, &len);
        ck_assert_msg(want != NULL, "%s: embedded but not in the source tree", p);
        if (str_ends_with(f->path, ".json"))
            check_same_json(p, want, len, f);
        else {
            ck_assert_uint_eq(len, f->size);
            ck_assert_msg(memcmp(want, f->data, len) == 0, "%s differs", p);
        }
        free(want);
        free(p);
    }
    /* nothing shipped is left out */
    check_folder_embedded(src, "benches/", "refs", ".json");
    check_folder_embedded(src, "benches/", "refs", "sections.conf");
    check_folder_embedded(src, "benches/", "tools", ".json");
    check_folder_embedded(src, "benches/", "profiles", ".profile");
    check_folder_embedded(src, "benches/", "soc", ".json");
    check_folder_embedded(src, "", "themes", ".theme");
    ck_assert_uint_gt(soc, 0);
    ck_assert_uint_gt(refs, 0);
    ck_assert_uint_gt(tools, 0);
    ck_assert_uint_gt(themes, 0);
    ck_assert_uint_gt(profiles, 0);
    const char *terms[] = { "vt100", "vt220", "linux", "xterm", "xterm-256color", "screen" };
    for (size_t i = 0; i < ARRAY_SIZE(terms); i++)
        ck_assert_msg(embedded_has_terminfo(terms[i]), "no terminfo for %s", terms[i]);
    /* only the terminals listed: no aliases (vt200, xterm-debian) */
    ck_assert_uint_eq(terminfo, ARRAY_SIZE(terms));
    ck_assert(!embedded_has_terminfo("vt10"));
    ck_assert(!embedded_has_terminfo("evmbench-no-such-terminal"));
    /* every folder loads from memory as from the source tree */
    struct diag dg;
    diag_init(&dg);
    char *tools_dir = xasprintf("%s/benches/tools", src);
    struct recipe_set *shipped = recipe_load_dir(tools_dir, &dg);
    free(tools_dir);
    struct data_dir d;
    data_dir_table(&d, files, nfiles, "refs");
    struct refdb *db = refdb_new();
    ck_assert_int_eq(refdb_load_dir(db, &d, &dg), (int)refs);
    refdb_free(db);
    data_dir_free(&d);
    data_dir_table(&d, files, nfiles, "tools");
    struct recipe_set *set = recipe_load_from(&d, &dg);
    ck_assert_uint_eq(recipe_count(set), recipe_count(shipped));
    ck_assert_uint_gt(recipe_count(set), 0);
    recipe_set_free(set);
    recipe_set_free(shipped);
    data_dir_free(&d);
    ck_assert_msg(dg.n == 0, "%s", dg.n ? dg.msgs[0] : "");
    diag_free(&dg);
    /* the whole table extracts and removes cleanly */
    struct diag err;
    diag_init(&err);
    char *root = embedded_extract(tmpdir, files, nfiles, &err);
    ck_assert_msg(root != NULL, "%s", diag_last(&err));
    embedded_remove(root, files, nfiles);
    ck_assert_int_ne(access(root, F_OK), 0);
    free(root);
}
END_TEST

/* A terminal the installed database knows needs nothing written; one that
 * neither it nor the program has is missing, not a failure to write. */
START_TEST(known_terminal_needs_no_setup)
{
    const char *before = getenv("TERMINFO_DIRS");
    char *saved = before ? xstrdup(before) : NULL;
    struct diag err;
    diag_init(&err);
    ck_assert_int_eq(embedded_terminfo_setup("vt100", &err), TERMINFO_INSTALLED);
    ck_assert_uint_eq(err.n, 0);
    ck_assert_int_eq(embedded_terminfo_setup("evmbench-no-such-terminal", &err),
                     TERMINFO_MISSING);
    ck_assert_uint_eq(err.n, 0);
    const char *after = getenv("TERMINFO_DIRS");
    ck_assert((saved == NULL) == (after == NULL));
    if (saved)
        ck_assert_str_eq(saved, after);
    free(saved);
}
END_TEST

Suite *suite_embedded(void)
{
    Suite *s = suite_create("embedded");
    TCase *tc = tcase_create("core");
    /* every shipped file is parsed twice, under qemu in the cross builds */
    tcase_set_timeout(tc, 120);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, extract_writes_tree_and_remove_cleans_it);
    tcase_add_test(tc, unsafe_names_refused_nothing_left);
    tcase_add_test(tc, extract_first_tries_each_base);
    tcase_add_test(tc, temp_bases_in_order);
    tcase_add_test(tc, data_dir_reads_table_and_directory_alike);
    tcase_add_test(tc, refs_load_from_a_table);
    tcase_add_test(tc, table_matches_shipped_data);
    tcase_add_test(tc, known_terminal_needs_no_setup);
    suite_add_tcase(s, tc);
    return s;
}
