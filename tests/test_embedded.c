/* test_embedded.c - built-in data files: extraction, removal, the table. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "embedded.h"
#include "suites.h"
#include "util.h"

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
    char *err = NULL;
    char *root = embedded_extract(files, 4, &err);
    ck_assert_ptr_nonnull(root);
    ck_assert_ptr_null(err);
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
        char *err = NULL;
        char *root = embedded_extract(files, 2, &err);
        ck_assert_msg(root == NULL, "'%s' accepted", bad[i]);
        ck_assert_ptr_nonnull(err);
        ck_assert_msg(strstr(err, "not a relative path") != NULL, "%s", err);
        free(err);
    }
    /* teardown's rmdir proves nothing was left behind */
}
END_TEST

START_TEST(unwritable_tmpdir_is_an_error)
{
    setenv("TMPDIR", "/nonexistent/evmbench", 1);
    const struct embedded_file files[] = { { "a", hello, 6 } };
    char *err = NULL;
    ck_assert_ptr_null(embedded_extract(files, 1, &err));
    ck_assert_ptr_nonnull(err);
    ck_assert_msg(strstr(err, "/nonexistent/evmbench/evmbench-") != NULL, "%s", err);
    free(err);
}
END_TEST

/* With --enable-embedded-data the table holds every shipped data file
 * byte for byte, and the terminfo entries of the usual terminals. */
START_TEST(table_matches_shipped_data)
{
    if (embedded_nfiles == 0) {
        ck_assert_ptr_null(embedded_files[0].path);
        ck_assert(!embedded_has_terminfo("vt100"));
        return;
    }
    const char *src = getenv("EVMBENCH_DATADIR");
    ck_assert_ptr_nonnull(src);
    size_t refs = 0, tools = 0, themes = 0, profiles = 0;
    for (size_t i = 0; i < embedded_nfiles; i++) {
        const struct embedded_file *f = &embedded_files[i];
        const char *sub = NULL;
        if (str_starts_with(f->path, "refs/"))
            refs++, sub = "benches/";
        else if (str_starts_with(f->path, "tools/"))
            tools++, sub = "benches/";
        else if (str_starts_with(f->path, "profiles/"))
            profiles++, sub = "benches/";
        else if (str_starts_with(f->path, "themes/"))
            themes++, sub = "";
        else
            ck_assert_msg(str_starts_with(f->path, "terminfo/"), "%s", f->path);
        if (!sub)
            continue;
        char *p = xasprintf("%s/%s%s", src, sub, f->path);
        size_t len = 0;
        char *want = read_file(p, 16u << 20, &len);
        ck_assert_msg(want != NULL, "%s: embedded but not in the source tree", p);
        ck_assert_uint_eq(len, f->size);
        ck_assert_msg(memcmp(want, f->data, len) == 0, "%s differs", p);
        free(want);
        free(p);
    }
    ck_assert_uint_gt(refs, 0);
    ck_assert_uint_gt(tools, 0);
    ck_assert_uint_gt(themes, 0);
    ck_assert_uint_gt(profiles, 0);
    const char *terms[] = { "vt100", "vt220", "linux", "xterm", "xterm-256color", "screen" };
    for (size_t i = 0; i < ARRAY_SIZE(terms); i++)
        ck_assert_msg(embedded_has_terminfo(terms[i]), "no terminfo for %s", terms[i]);
    ck_assert(!embedded_has_terminfo("vt10"));
    ck_assert(!embedded_has_terminfo("evmbench-no-such-terminal"));
    /* the whole table extracts and removes cleanly */
    char *err = NULL;
    char *root = embedded_extract(embedded_files, embedded_nfiles, &err);
    ck_assert_msg(root != NULL, "%s", err);
    embedded_remove(root, embedded_files, embedded_nfiles);
    ck_assert_int_ne(access(root, F_OK), 0);
    free(root);
}
END_TEST

/* A terminal the installed database knows needs nothing written. */
START_TEST(known_terminal_needs_no_setup)
{
    const char *before = getenv("TERMINFO_DIRS");
    char *saved = before ? xstrdup(before) : NULL;
    ck_assert(!embedded_terminfo_setup("vt100"));
    ck_assert(!embedded_terminfo_setup("evmbench-no-such-terminal"));
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
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, extract_writes_tree_and_remove_cleans_it);
    tcase_add_test(tc, unsafe_names_refused_nothing_left);
    tcase_add_test(tc, unwritable_tmpdir_is_an_error);
    tcase_add_test(tc, table_matches_shipped_data);
    tcase_add_test(tc, known_terminal_needs_no_setup);
    suite_add_tcase(s, tc);
    return s;
}
