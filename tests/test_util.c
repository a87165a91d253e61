/* test_util.c - strings, slugs, paths and files. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/diag.h"
#include "common/lines.h"
#include "suites.h"
#include "test_helpers.h"
#include "common/util.h"

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

/* A FIFO, a directory and a device are refused at once, unread, each
 * named for what it is; a regular file opens in blocking mode. The alarm
 * turns a blocking open or read (the old behaviour) into a failure. */
START_TEST(read_file_refuses_non_regular)
{
    char dir[] = "/tmp/evmbench-util-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char *fifo = path_join(dir, "fifo");
    char *reg = path_join(dir, "reg");
    ck_assert_int_eq(mkfifo(fifo, 0600), 0);
    alarm(10);
    errno = 0;
    ck_assert_ptr_null(read_file(fifo, 0, NULL));
    ck_assert_int_eq(errno, ERR_NOT_REGULAR);
    ck_assert_str_eq(file_strerror(errno), "not a regular file (a FIFO)");
    ck_assert_ptr_null(read_line_file(fifo));
    ck_assert_int_eq(open_regular(fifo, NULL), -1);
    json_error_t je;
    ck_assert_ptr_null(json_read_file(fifo, 0, &je));
    ck_assert_int_eq(je.line, -1);
    ck_assert_str_eq(je.text, "not a regular file (a FIFO)");

    ck_assert_ptr_null(read_file(dir, 0, NULL));
    ck_assert_int_eq(errno, EISDIR);
    ck_assert_str_eq(file_strerror(errno), "not a regular file (a directory)");
    ck_assert_ptr_null(read_file("/dev/null", 0, NULL));
    ck_assert_int_eq(errno, ERR_NOT_REGULAR);
    ck_assert_str_eq(file_strerror(errno), "not a regular file (a character device)");
    alarm(0);
    ck_assert_str_eq(file_strerror(ENOENT), strerror(ENOENT));

    int fd = open(reg, O_WRONLY | O_CREAT | O_EXCL, 0600);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, "{\"a\": 1}", 8), 8);
    close(fd);
    struct stat st;
    fd = open_regular(reg, &st);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(st.st_size, 8);
    ck_assert_int_eq(fcntl(fd, F_GETFL) & O_NONBLOCK, 0);
    ck_assert_int_ne(fcntl(fd, F_GETFD) & FD_CLOEXEC, 0);
    close(fd);
    json_t *j = json_read_file(reg, 0, &je);
    ck_assert_ptr_nonnull(j);
    ck_assert_int_eq(json_integer_value(json_object_get(j, "a")), 1);
    json_decref(j);
    unlink(reg);
    ck_assert_ptr_null(json_read_file(reg, 0, &je));
    ck_assert_str_eq(je.text, strerror(ENOENT));

    unlink(fifo);
    rmdir(dir);
    free(fifo);
    free(reg);
}
END_TEST

/* Well-formed UTF-8 of every length is kept byte for byte. */
START_TEST(utf8_valid_text_is_kept)
{
    /* A, e-acute (2), euro (3), U+10FFFF and G-clef (4), U+FFFD itself,
     * the last 3-byte code points around the surrogates */
    static const char *const good[] = {
        "", "plain ASCII 123", "caf\xC3\xA9", "\xE2\x82\xAC 5", "\xF4\x8F\xBF\xBF",
        "\xF0\x9D\x84\x9E clef", "\xEF\xBF\xBD", "\xED\x9F\xBF\xEE\x80\x80", "\xC2\x80\xDF\xBF",
    };
    for (size_t i = 0; i < ARRAY_SIZE(good); i++) {
        ck_assert_msg(utf8_valid(good[i]), "case %zu", i);
        char *s = utf8_valid_dup(good[i]);
        ck_assert_str_eq(s, good[i]);
        free(s);
        json_t *j = json_string_from_outside(good[i]);
        ck_assert_str_eq(json_string_value(j), good[i]);
        json_decref(j);
    }
    ck_assert_uint_eq(utf8_char_len("A"), 1);
    ck_assert_uint_eq(utf8_char_len("\xC3\xA9"), 2);
    ck_assert_uint_eq(utf8_char_len("\xE2\x82\xAC"), 3);
    ck_assert_uint_eq(utf8_char_len("\xF0\x9D\x84\x9E"), 4);
    ck_assert_uint_eq(utf8_char_len(""), 0);
    json_t *j = json_string_from_outside(NULL);
    ck_assert(json_is_null(j));
    json_decref(j);
}
END_TEST

/* Each class of ill-formed input: every bad byte becomes one U+FFFD, the
 * text around it is kept, and jansson takes the result. */
START_TEST(utf8_invalid_bytes_replaced)
{
#define R "\xEF\xBF\xBD"
    static const char *const cases[][2] = {
        { "a\x80z", "a" R "z" },                       /* stray continuation */
        { "a\xBF\xBFz", "a" R R "z" },
        { "\xC0\xAF", R R },                           /* overlong '/' */
        { "\xC1\xBF", R R },                           /* overlong, 2 bytes */
        { "\xE0\x80\xAF", R R R },                     /* overlong, 3 bytes */
        { "\xF0\x80\x80\xAF", R R R R },               /* overlong, 4 bytes */
        { "\xED\xA0\x80", R R R },                     /* surrogate U+D800 */
        { "\xED\xBF\xBF", R R R },                     /* surrogate U+DFFF */
        { "\xF4\x90\x80\x80", R R R R },               /* U+110000 */
        { "\xF5\x80\x80\x80", R R R R },               /* lead beyond F4 */
        { "\xFE\xFF", R R },                           /* never in UTF-8 */
        { "ab\xC3", "ab" R },                          /* cut: 2-byte */
        { "ab\xE2\x82", "ab" R R },                    /* cut: 3-byte */
        { "\xF0\x9D\x84x", R R R "x" },                /* cut before ASCII */
        { "\xC3\xA9\xFF\xC3\xA9", "\xC3\xA9" R "\xC3\xA9" },
        { "Latin-1: caf\xE9!", "Latin-1: caf" R "!" },
    };
#undef R
    for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
        ck_assert_msg(!utf8_valid(cases[i][0]), "case %zu is valid", i);
        ck_assert_ptr_null(json_string(cases[i][0]));   /* what jansson refuses */
        char *s = utf8_valid_dup(cases[i][0]);
        ck_assert_msg(strcmp(s, cases[i][1]) == 0, "case %zu: got '%s'", i, s);
        ck_assert(utf8_valid(s));
        free(s);
        json_t *j = json_string_from_outside(cases[i][0]);
        ck_assert_ptr_nonnull(j);
        ck_assert_str_eq(json_string_value(j), cases[i][1]);
        json_decref(j);
    }
}
END_TEST

/* A cut never splits a character: it moves back to the character's
 * start, and leaves bytes that are invalid anyway where they are. */
START_TEST(utf8_cut_on_character_boundary)
{
    const char *s = "ab\xE2\x82\xAC" "cd";      /* a b EURO c d: 7 bytes */
    ck_assert_uint_eq(utf8_cut(s, 7, 10), 7);
    ck_assert_uint_eq(utf8_cut(s, 7, 7), 7);
    ck_assert_uint_eq(utf8_cut(s, 7, 2), 2);
    ck_assert_uint_eq(utf8_cut(s, 7, 3), 2);    /* inside the euro sign */
    ck_assert_uint_eq(utf8_cut(s, 7, 4), 2);
    ck_assert_uint_eq(utf8_cut(s, 7, 5), 5);
    ck_assert_uint_eq(utf8_cut(s, 7, 6), 6);
    const char *clef = "\xF0\x9D\x84\x9Ez";
    for (size_t m = 1; m < 4; m++)
        ck_assert_uint_eq(utf8_cut(clef, 5, m), 0);
    ck_assert_uint_eq(utf8_cut(clef, 5, 4), 4);
    /* stray continuation bytes: no character to keep whole */
    ck_assert_uint_eq(utf8_cut("\x80\x80\x80\x80\x80", 5, 3), 3);
    /* a lead byte whose sequence is broken is not a character either */
    ck_assert_uint_eq(utf8_cut("a\xE2\x82x", 4, 2), 2);
    /* every cut of a valid string is valid */
    const char *mixed = "\xC3\xA9t\xC3\xA9 \xE2\x82\xAC\xF0\x9D\x84\x9E!";
    size_t len = strlen(mixed);
    for (size_t m = 0; m <= len; m++) {
        char *p = xstrndup(mixed, utf8_cut(mixed, len, m));
        ck_assert_msg(utf8_valid(p), "cut at %zu", m);
        ck_assert_uint_le(strlen(p), m);
        ck_assert_uint_ge(strlen(p) + 3, m);
        free(p);
    }
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

/* write_all: every byte, in order; a failed write says so with errno. */
START_TEST(write_all_writes_everything)
{
    char *dir = test_tmpdir("write-all");
    char *path = path_join(dir, "f");
    size_t n = 3 << 20;
    char *buf = xmalloc(n);
    for (size_t i = 0; i < n; i++)
        buf[i] = (char)(i * 7 + i / 251);
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
    ck_assert_int_ge(fd, 0);
    ck_assert(write_all(fd, buf, n));
    ck_assert(write_all(fd, buf, 0));
    ck_assert_int_eq(close(fd), 0);
    size_t len = 0;
    char *back = read_file(path, 0, &len);
    ck_assert_ptr_nonnull(back);
    ck_assert_uint_eq(len, n);
    ck_assert(memcmp(back, buf, n) == 0);

    fd = open(path, O_RDONLY);
    ck_assert_int_ge(fd, 0);
    errno = 0;
    ck_assert(!write_all(fd, buf, 10));     /* opened for reading only */
    ck_assert_int_eq(errno, EBADF);
    close(fd);
    test_rmtree(dir);
    free(dir);
    free(back);
    free(buf);
    free(path);
}
END_TEST

static void on_alarm(int sig)
{
    (void)sig;
}

/* Through a pipe to a slow reader while a timer interrupts the writes
 * (no SA_RESTART): short writes and EINTR, and still every byte. */
START_TEST(write_all_survives_signals)
{
    int p[2];
    ck_assert_int_eq(pipe(p), 0);
    size_t n = 4 << 20;
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        close(p[1]);
        size_t got = 0, bad = 0;
        char buf[4096];
        for (ssize_t r; (r = read(p[0], buf, sizeof buf)) != 0;) {
            if (r < 0 && errno == EINTR)
                continue;
            if (r < 0)
                _exit(2);
            for (ssize_t i = 0; i < r; i++, got++)
                bad += buf[i] != (char)(got % 253);
            usleep(50);
        }
        _exit(got == n && bad == 0 ? 0 : 1);
    }
    close(p[0]);
    char *buf = xmalloc(n);
    for (size_t i = 0; i < n; i++)
        buf[i] = (char)(i % 253);
    struct sigaction sa = { .sa_handler = on_alarm }, old;
    sigemptyset(&sa.sa_mask);
    ck_assert_int_eq(sigaction(SIGALRM, &sa, &old), 0);
    struct itimerval it = { { 0, 1000 }, { 0, 1000 } }, stop = { { 0, 0 }, { 0, 0 } };
    ck_assert_int_eq(setitimer(ITIMER_REAL, &it, NULL), 0);
    bool ok = write_all(p[1], buf, n);
    setitimer(ITIMER_REAL, &stop, NULL);
    sigaction(SIGALRM, &old, NULL);
    close(p[1]);
    int status;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert(ok);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "reader status %d", status);
    free(buf);
}
END_TEST

/* The line reader of the data files: numbers count every line, blank and
 * comment lines are skipped, the two comment styles differ on a '#' that
 * is not first. */
START_TEST(lines_numbered_trimmed_and_commented)
{
    const char *text = "  first  \n\n# note\n\t  # indented note\r\nkey = a#b \r\n \nlast";
    struct lines it;
    lines_init(&it, text, LINES_HASH_FIRST);
    ck_assert_str_eq(lines_next(&it), "first");
    ck_assert_int_eq(it.lineno, 1);
    ck_assert_str_eq(lines_next(&it), "key = a#b");
    ck_assert_int_eq(it.lineno, 5);
    char *last = lines_next(&it);
    ck_assert_str_eq(last, "last");
    ck_assert_int_eq(it.lineno, 7);
    last[0] = 'L';              /* the caller's copy */
    ck_assert_ptr_null(lines_next(&it));
    ck_assert_ptr_null(lines_next(&it));
    ck_assert_str_eq(text + strlen(text) - 4, "last");

    lines_init(&it, text, LINES_HASH_ANYWHERE);
    ck_assert_str_eq(lines_next(&it), "first");
    ck_assert_str_eq(lines_next(&it), "key = a");
    ck_assert_int_eq(it.lineno, 5);
    lines_free(&it);
    ck_assert_ptr_null(lines_next(&it));

    lines_init(&it, NULL, LINES_HASH_FIRST);
    ck_assert_ptr_null(lines_next(&it));
    ck_assert_int_eq(it.lineno, 0);
    lines_init(&it, "\n\n#\nx\n", LINES_HASH_ANYWHERE);
    ck_assert_str_eq(lines_next(&it), "x");
    ck_assert_int_eq(it.lineno, 4);
    ck_assert_ptr_null(lines_next(&it));
    ck_assert_int_eq(it.lineno, 4);
}
END_TEST

/* A function of the diag style: takes a format, adds through diag_addv. */
static void add_through(struct diag *d, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void add_through(struct diag *d, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_addv(d, fmt, ap);
    va_end(ap);
}

START_TEST(diag_collects_and_keeps_errno)
{
    struct diag d;
    diag_init(&d);
    ck_assert_str_eq(diag_last(&d), "");
    ck_assert_str_eq(diag_last(NULL), "");
    errno = ENOSPC;
    diag_add(&d, "%s: %s", "out.json", "full");
    ck_assert_int_eq(errno, ENOSPC);
    errno = EACCES;
    add_through(&d, "line %d of %s", 3, "a.json");
    ck_assert_int_eq(errno, EACCES);
    ck_assert_uint_eq(d.n, 2);
    ck_assert_str_eq(d.msgs[0], "out.json: full");
    ck_assert_str_eq(diag_last(&d), "line 3 of a.json");
    /* no list: the message is dropped, nothing breaks */
    diag_add(NULL, "dropped %d", 1);
    add_through(NULL, "dropped %d", 2);
    diag_free(&d);
    ck_assert_uint_eq(d.n, 0);
    ck_assert_str_eq(diag_last(&d), "");
}
END_TEST

/* A message quoting a file's bytes cannot move the terminal's cursor:
 * control characters are escaped; UTF-8 is kept. */
START_TEST(diag_escapes_control_characters)
{
    struct diag d;
    diag_init(&d);
    diag_add(&d, "x.json: \"%s\"", "a\x1b[2Jb\tc\r\x7f\x01 \xc2\xb5s");
    ck_assert_str_eq(diag_last(&d), "x.json: \"a\\x1b[2Jb\\tc\\r\\x7f\\x01 \xc2\xb5s\"");
    /* a newline is a line of the message: kept */
    diag_add(&d, "reasons:\n  %s", "one");
    ck_assert_str_eq(diag_last(&d), "reasons:\n  one");
    diag_add(&d, "plain");
    ck_assert_str_eq(diag_last(&d), "plain");
    diag_free(&d);
}
END_TEST

Suite *suite_util(void)
{
    Suite *s = suite_create("util");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, slug_folds_case_and_punctuation);
    tcase_add_test(tc, diag_escapes_control_characters);
    tcase_add_test(tc, trim_and_affixes);
    tcase_add_test(tc, path_join_collapses_slashes);
    tcase_add_test(tc, read_file_and_limits);
    tcase_add_test(tc, strbuf_builds_strings);
    tcase_add_test(tc, read_file_refuses_non_regular);
    tcase_add_test(tc, utf8_valid_text_is_kept);
    tcase_add_test(tc, utf8_invalid_bytes_replaced);
    tcase_add_test(tc, utf8_cut_on_character_boundary);
    tcase_add_test(tc, lines_numbered_trimmed_and_commented);
    tcase_add_test(tc, write_all_writes_everything);
    tcase_add_test(tc, write_all_survives_signals);
    tcase_add_test(tc, diag_collects_and_keeps_errno);
    suite_add_tcase(s, tc);
    return s;
}
