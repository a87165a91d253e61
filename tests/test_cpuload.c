/* test_cpuload.c - CPU load from /proc/stat pairs, and the checks of the
 * storage and network parameters (cpuload.c, toolparam.c). */
#include "config.h"

#include <check.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <grp.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/cpuload.h"
#include "suites.h"
#include "recipe/toolparam.h"
#include "common/util.h"

/* Every tests/data/cpuload/<case>: before/ and after/ sysroots and the
 * expected busy percentage (a line starting '#': no value at all). */
START_TEST(fixture_pairs)
{
    char *base = test_data_path("cpuload");
    DIR *d = opendir(base);
    ck_assert_msg(d, "cannot open %s", base);
    struct dirent *de;
    size_t cases = 0;
    while ((de = readdir(d))) {
        char *dir = path_join(base, de->d_name);
        struct stat st;
        if (de->d_name[0] == '.' || stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
            free(dir);
            continue;
        }
        char *before = path_join(dir, "before"), *after = path_join(dir, "after");
        char *exp_path = path_join(dir, "expected");
        char *exp = read_file(exp_path, 0, NULL);
        ck_assert_msg(exp, "%s: no expected", dir);
        struct cpuload_sample a, b;
        struct diag why;
        diag_init(&why);
        bool ra = cpuload_read(before, &a, &why);
        if (exp[0] == '#') {
            ck_assert_msg(!ra && why.n && strstr(diag_last(&why), "proc/stat"),
                          "%s: read a bad file", dir);
            diag_free(&why);
            ck_assert(!cpuload_read(after, &b, &why));
            ck_assert(why.n && strstr(diag_last(&why), "no \"cpu\" line"));
            diag_free(&why);
        } else {
            ck_assert_msg(ra, "%s: %s", dir, diag_last(&why));
            ck_assert(cpuload_read(after, &b, NULL));
            double want = strtod(exp, NULL);
            double got = cpuload_system_percent(&a, &b);
            ck_assert_msg(fabs(got - want) < 1e-9, "%s: %g%%, expected %g%%", dir, got, want);
            /* reversed: the counters went backwards */
            ck_assert(isnan(cpuload_system_percent(&b, &a)));
            ck_assert(isnan(cpuload_system_percent(&a, &a)));
        }
        free(exp);
        free(exp_path);
        free(before);
        free(after);
        free(dir);
        cases++;
    }
    closedir(d);
    free(base);
    ck_assert_uint_ge(cases, 3);
}
END_TEST

START_TEST(parse)
{
    struct cpuload_sample s;
    ck_assert(cpuload_parse("cpu  10 20 30 40 50 60 70 80 90 100\n", &s));
    ck_assert_uint_eq(s.busy, 10 + 20 + 30 + 60 + 70 + 80);
    ck_assert_uint_eq(s.total, s.busy + 40 + 50);
    /* the aggregate line need not be first; per-CPU lines are not it */
    ck_assert(cpuload_parse("intr 1\ncpu0 1 1 1 1\ncpu  1 2 3 4\n", &s));
    ck_assert_uint_eq(s.busy, 6);
    ck_assert(!cpuload_parse("cpu0 1 2 3 4\n", &s));
    ck_assert(!cpuload_parse("cpu  1 2 3\n", &s));
    ck_assert(!cpuload_parse("", &s));
    ck_assert(!cpuload_read("/nonexistent/evmbench", &s, NULL));
    ck_assert_double_eq_tol(cpuload_process_percent(0.5, 2.0), 25.0, 1e-12);
    ck_assert(isnan(cpuload_process_percent(1, 0)));
    ck_assert(isnan(cpuload_process_percent(-1, 1)));
}
END_TEST

/* This machine's own /proc/stat over a short busy loop. */
/* One CPU's own line, for the load others put on a worker's core. */
START_TEST(parse_one_cpu)
{
    struct cpuload_sample s;
    const char *text = "cpu  9 9 9 9\ncpu1 1 2 3 4 5 6 7 8\ncpu12 10 0 0 90\n";
    ck_assert(cpuload_parse_cpu(text, 1, &s));
    ck_assert_uint_eq(s.busy, 1 + 2 + 3 + 6 + 7 + 8);
    ck_assert_uint_eq(s.total, s.busy + 4 + 5);
    ck_assert(cpuload_parse_cpu(text, 12, &s));        /* not cpu1's line again */
    ck_assert_uint_eq(s.busy, 10);
    ck_assert(!cpuload_parse_cpu(text, 2, &s));
    ck_assert(cpuload_parse_cpu(text, -1, &s));
    ck_assert_uint_eq(s.busy, 27);
}
END_TEST

START_TEST(real_proc_stat)
{
    struct cpuload_sample a, b;
    struct diag why;
    diag_init(&why);
    ck_assert_msg(cpuload_read(NULL, &a, &why), "%s", diag_last(&why));
    double t0 = now_seconds();
    volatile unsigned long x = 0;
    while (now_seconds() - t0 < 0.3)
        x++;
    ck_assert(cpuload_read(NULL, &b, NULL));
    double pct = cpuload_system_percent(&a, &b);
    ck_assert_msg(pct > 0 && pct <= 100, "load %g%%", pct);
}
END_TEST

/* --- toolparam ------------------------------------------------------------ */

/* toolparam_storage(dir) refuses dir as "not writable", checked as an
 * unprivileged user: as uid and gid 65534 with no groups in a child when
 * the tests run as root (root writes anywhere), else as this user. The
 * directory is made theirs, mode 0500. */
static void assert_not_writable_unprivileged(const char *dir)
{
    bool root = geteuid() == 0;
    if (root)
        ck_assert_int_eq(chown(dir, 65534, 65534), 0);
    ck_assert_int_eq(chmod(dir, 0500), 0);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        if (root && (setgroups(0, NULL) != 0 || setgid(65534) != 0 || setuid(65534) != 0))
            _exit(2);
        char *target = NULL;
        struct diag why;
        diag_init(&why);
        bool ok = !toolparam_storage(dir, false, &target, &why) && why.n &&
                  strstr(diag_last(&why), "not writable");
        if (!ok)
            fprintf(stderr, "toolparam_storage(%s) as uid %d: %s\n", dir, (int)getuid(),
                    why.n ? diag_last(&why) : "accepted");
        _exit(ok ? 0 : 1);
    }
    int ws = 0;
    ck_assert_int_eq(waitpid(pid, &ws, 0), pid);
    ck_assert_int_eq(chmod(dir, 0700), 0);
    ck_assert_msg(WIFEXITED(ws) && WEXITSTATUS(ws) != 2, "cannot become uid 65534");
    ck_assert_msg(WIFEXITED(ws) && WEXITSTATUS(ws) == 0,
                  "a directory of mode 0500 is not refused as not writable");
}

START_TEST(storage_dir)
{
    char tmpl[] = "/tmp/evmbench-test-storage-XXXXXX";
    ck_assert(mkdtemp(tmpl));
    char *target = NULL;
    struct diag why;
    diag_init(&why);
    ck_assert(toolparam_storage(tmpl, false, &target, &why));
    char *want = xasprintf("%s/%s", tmpl, TOOLPARAM_STORAGE_FILE);
    ck_assert_str_eq(target, want);
    free(want);
    free(target);
    /* a trailing slash does not double */
    char *slash = xasprintf("%s/", tmpl);
    ck_assert(toolparam_storage(slash, false, &target, &why));
    ck_assert(!strstr(target, "//"));
    free(target);
    free(slash);

    /* missing */
    char *gone = xasprintf("%s/nope", tmpl);
    ck_assert(!toolparam_storage(gone, false, &target, &why));
    ck_assert_ptr_null(target);
    ck_assert_msg(strstr(diag_last(&why), "No such file"), "%s", diag_last(&why));
    diag_free(&why);
    /* a regular file */
    char *file = xasprintf("%s/file", tmpl);
    FILE *f = fopen(file, "w");
    ck_assert(f);
    fclose(f);
    ck_assert(!toolparam_storage(file, false, &target, &why));
    ck_assert_msg(strstr(diag_last(&why), "not a directory"), "%s", diag_last(&why));
    diag_free(&why);
    unlink(file);
    free(file);
    free(gone);
    /* not writable, as an unprivileged user (root may write anywhere) */
    assert_not_writable_unprivileged(tmpl);
    rmdir(tmpl);
}
END_TEST

/* A block device is refused without --allow-raw-device; with it the device
 * itself is the target. /dev/loop0 or any block device there is. */
START_TEST(raw_device)
{
    const char *dev = NULL;
    static const char *const cands[] = { "/dev/loop0", "/dev/sda", "/dev/vda", "/dev/nvme0n1",
                                         "/dev/mmcblk0", "/dev/ram0" };
    struct stat st;
    for (size_t i = 0; i < ARRAY_SIZE(cands) && !dev; i++)
        if (stat(cands[i], &st) == 0 && S_ISBLK(st.st_mode))
            dev = cands[i];
    if (!dev)
        return;     /* no block device visible (a container): nothing to check */
    char *target = NULL;
    struct diag why;
    diag_init(&why);
    ck_assert(!toolparam_storage(dev, false, &target, &why));
    ck_assert_msg(strstr(diag_last(&why), "block device") &&
                  strstr(diag_last(&why), "--allow-raw-device"), "%s", diag_last(&why));
    diag_free(&why);
    if (toolparam_storage(dev, true, &target, &why)) {
        ck_assert_str_eq(target, dev);
        free(target);
    } else {
        ck_assert(why.n);     /* not readable and writable by this user */
        diag_free(&why);
    }
}
END_TEST

START_TEST(peer)
{
    static const char *const good[] = { "192.168.0.1", "10.0.0.255", "::1", "fe80::1",
                                        "2001:db8::8a2e:370:7334", "localhost", "tester",
                                        "host-1.example.com", "host.example.com.", "a1" };
    static const char *const bad[] = { "", "300.1.1.1", "192.168.0", "1.2.3.4.5", "-oops",
                                       "host_name", "a..b", "bad-.example", "x y",
                                       "192.168.0.1;reboot", "$(reboot)", "::g", ":::",
                                       "host/1" };
    struct diag why;
    diag_init(&why);
    for (size_t i = 0; i < ARRAY_SIZE(good); i++) {
        ck_assert_msg(toolparam_peer(good[i], &why), "%s refused: %s", good[i],
                      diag_last(&why));
        ck_assert_uint_eq(why.n, 0);
    }
    for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
        ck_assert_msg(!toolparam_peer(bad[i], &why), "%s accepted", bad[i]);
        ck_assert(why.n && strstr(diag_last(&why), "--peer"));
        diag_free(&why);
    }
    ck_assert(!toolparam_peer("300.1.1.1", &why));
    ck_assert_msg(strstr(diag_last(&why), "IPv4"), "%s", diag_last(&why));
    diag_free(&why);
    ck_assert(!toolparam_peer("fe80::zz", &why));
    ck_assert_msg(strstr(diag_last(&why), "IPv6"), "%s", diag_last(&why));
    diag_free(&why);
    char *longname = xcalloc(300, 1);
    memset(longname, 'a', 64);
    ck_assert(!toolparam_peer(longname, &why));     /* a label over 63 */
    diag_free(&why);
    free(longname);
}
END_TEST

Suite *suite_cpuload(void)
{
    Suite *s = suite_create("cpuload");
    TCase *tc = tcase_create("cpuload");
    tcase_add_test(tc, fixture_pairs);
    tcase_add_test(tc, parse);
    tcase_add_test(tc, parse_one_cpu);
    tcase_add_test(tc, real_proc_stat);
    suite_add_tcase(s, tc);
    tc = tcase_create("toolparam");
    tcase_add_test(tc, storage_dir);
    tcase_add_test(tc, raw_device);
    tcase_add_test(tc, peer);
    suite_add_tcase(s, tc);
    return s;
}
