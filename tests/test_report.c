/* test_report.c - the worker protocol, both directions. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernel/report.h"
#include "suites.h"
#include "common/util.h"

START_TEST(round_trip_through_a_pipe)
{
    int fds[2];
    ck_assert_int_eq(pipe(fds), 0);
    struct report r;
    report_to_fd(&r, fds[1]);
    report_sample(&r, "copy", 1838.92);
    report_progress(&r, 3, 10);
    report_note(&r, "sized down\nto %d", 5);
    report_fail(&r, "triad", "validation failed");
    close(fds[1]);
    char buf[512];
    ssize_t n = read(fds[0], buf, sizeof buf - 1);
    close(fds[0]);
    ck_assert_int_gt(n, 0);
    buf[n] = '\0';

    char *save = NULL, *line;
    struct report_event ev;
    line = strtok_r(buf, "\n", &save);
    ck_assert(report_parse_line(line, &ev));
    ck_assert_int_eq(ev.kind, REPORT_SAMPLE);
    ck_assert_str_eq(ev.metric, "copy");
    ck_assert_double_eq_tol(ev.value, 1838.92, 1e-9);
    line = strtok_r(NULL, "\n", &save);
    ck_assert(report_parse_line(line, &ev));
    ck_assert_int_eq(ev.kind, REPORT_PROGRESS);
    ck_assert_double_eq_tol(ev.value / ev.total, 0.3, 1e-12);
    line = strtok_r(NULL, "\n", &save);
    ck_assert(report_parse_line(line, &ev));
    ck_assert_int_eq(ev.kind, REPORT_NOTE);
    ck_assert_str_eq(ev.text, "sized down to 5");     /* newline flattened */
    line = strtok_r(NULL, "\n", &save);
    ck_assert(report_parse_line(line, &ev));
    ck_assert_int_eq(ev.kind, REPORT_FAIL);
    ck_assert_str_eq(ev.metric, "triad");
    ck_assert_str_eq(ev.text, "validation failed");
}
END_TEST

START_TEST(garbage_is_rejected)
{
    static const char *const bad[] = {
        "", "S", "S copy", "S copy abc", "S copy 1e999", "P 1", "P 1 0", "X what",
        "Scopy 1", "S  1", "F ",
    };
    for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
        char *line = xstrdup(bad[i]);
        struct report_event ev;
        ck_assert_msg(!report_parse_line(line, &ev), "accepted '%s'", bad[i]);
        free(line);
    }
}
END_TEST

struct collected {
    int samples, notes;
};

static void collect(void *ctx, const struct report_event *ev)
{
    struct collected *c = ctx;
    c->samples += ev->kind == REPORT_SAMPLE;
    c->notes += ev->kind == REPORT_NOTE;
}

START_TEST(callback_binding)
{
    struct collected c = { 0, 0 };
    struct report r;
    report_to_callback(&r, collect, &c);
    report_sample(&r, "a", 1);
    report_sample(&r, "b", 2);
    report_note(&r, "hi");
    ck_assert_int_eq(c.samples, 2);
    ck_assert_int_eq(c.notes, 1);
}
END_TEST

Suite *suite_report(void)
{
    Suite *s = suite_create("report");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, round_trip_through_a_pipe);
    tcase_add_test(tc, garbage_is_rejected);
    tcase_add_test(tc, callback_binding);
    suite_add_tcase(s, tc);
    return s;
}
