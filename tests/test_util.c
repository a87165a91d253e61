/* test_util.c - strings, slugs, paths and files. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "suites.h"
#include "util.h"

START_TEST(slug_folds_case_and_punctuation)
{
    static const char *const cases[][2] = {
        { "Stream", "stream" },
        { "CPSW/CPSW2g/CPSW3g Ethernet", "cpsw_cpsw2g_cpsw3g_ethernet" },
        { "  Boot media: MMCSD  ", "boot_media_mmcsd" },
        { "aes-128-cbc-1024", "aes-128-cbc-1024" },
        { "lat_mem_rd-stride128-sz0.50", "lat_mem_rd-stride128-sz0.50" },
        { "!!!", "" },
    };
    for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
        char *s = str_slug(cases[i][0]);
        ck_assert_str_eq(s, cases[i][1]);
        free(s);
    }
}
END_TEST

START_TEST(trim_and_affixes)
{
    char buf[] = " \t hello world \n";
    ck_assert_str_eq(str_trim(buf), "hello world");
    ck_assert(str_starts_with("am62xx_sk-fs", "am62"));
    ck_assert(!str_starts_with("am6", "am62"));
    ck_assert(str_ends_with("file.json", ".json"));
    ck_assert(!str_ends_with("json", ".json"));
}
END_TEST

START_TEST(path_join_collapses_slashes)
{
    char *p = path_join("/sys/", "/devices/soc0");
    ck_assert_str_eq(p, "/sys/devices/soc0");
    free(p);
    p = path_join("/", "proc");
    ck_assert_str_eq(p, "/proc");
    free(p);
}
END_TEST

START_TEST(read_file_and_limits)
{
    char tmpl[] = "/tmp/evmbench-util-XXXXXX";
    int fd = mkstemp(tmpl);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, "line one  \nline two\n", 20), 20);
    close(fd);
    size_t len;
    char *s = read_file(tmpl, 0, &len);
    ck_assert_ptr_nonnull(s);
    ck_assert_uint_eq(len, 20);
    free(s);
    s = read_line_file(tmpl);
    ck_assert_str_eq(s, "line one");
    free(s);
    ck_assert_ptr_null(read_file(tmpl, 8, NULL));   /* over the limit */
    unlink(tmpl);
    ck_assert_ptr_null(read_file(tmpl, 0, NULL));
    ck_assert_ptr_null(read_line_file(tmpl));
}
END_TEST

START_TEST(strbuf_builds_strings)
{
    struct strbuf sb;
    sb_init(&sb);
    sb_add(&sb, "a");
    sb_addf(&sb, "-%d-", 42);
    sb_addn(&sb, "xyz", 2);
    ck_assert_str_eq(sb.buf, "a-42-xy");
    char *s = sb_steal(&sb);
    ck_assert_ptr_null(sb.buf);
    ck_assert_str_eq(s, "a-42-xy");
    free(s);
}
END_TEST

Suite *suite_util(void)
{
    Suite *s = suite_create("util");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, slug_folds_case_and_punctuation);
    tcase_add_test(tc, trim_and_affixes);
    tcase_add_test(tc, path_join_collapses_slashes);
    tcase_add_test(tc, read_file_and_limits);
    tcase_add_test(tc, strbuf_builds_strings);
    suite_add_tcase(s, tc);
    return s;
}
