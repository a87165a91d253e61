/* test_spawn.c - the contract of run/spawn.h: what a child gets, what a
 * command's capture holds, and what is killed when. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "run/spawn.h"
#include "suites.h"
#include "common/util.h"

/* Runs `/bin/sh -c script` with the given limits. */
static void sh(const char *script, double timeout_s, size_t max_output, char *const *env_add,
               const char *cwd, struct spawn_result *res)
{
    char bin[] = "/bin/sh", opt[] = "-c";
    char *text = xstrdup(script);
    char *argv[] = { bin, opt, text, NULL };
    struct spawn_cmd cmd = { argv, env_add, cwd, timeout_s, max_output, false };
    spawn_run(&cmd, res);
    free(text);
}

/* Whether orphans of our children come to us: qemu-user does not emulate
 * PR_SET_CHILD_SUBREAPER, so there they go to init. */
static bool subreaper_on(void)
{
    int on = 0;
    return prctl(PR_GET_CHILD_SUBREAPER, &on) == 0 && on;
}

/* Waits up to 10 s for pid to be gone (reaped by init or its parent). */
static bool gone_within_10s(pid_t pid)
{
    for (int i = 0; i < 1000; i++) {
        if (kill(pid, 0) != 0 && errno == ESRCH)
            return true;
        usleep(10000);
    }
    return false;
}

START_TEST(run_captures_each_stream_env_and_cwd)
{
    setenv("EVMB_SPAWN_T", "old", 1);
    char var[] = "EVMB_SPAWN_T=new";
    char *add[] = { var, NULL };
    struct spawn_result res;
    sh("echo out; echo err >&2; echo \"$EVMB_SPAWN_T\"; pwd; exit 3", 0, 0, add, "/", &res);
    ck_assert(res.ran);
    ck_assert_ptr_null(res.exec_error);
    ck_assert(!res.timed_out && !res.overflow);
    ck_assert(WIFEXITED(res.wstatus));
    ck_assert_int_eq(WEXITSTATUS(res.wstatus), 3);
    ck_assert_str_eq(res.out, "out\nnew\n/\n");
    ck_assert_str_eq(res.err, "err\n");
    ck_assert_uint_eq(res.nall, res.nout + res.nerr);
    /* both, each in its order (which pipe is read first is not known) */
    char *err_at = strstr(res.all, "err\n");
    ck_assert_ptr_nonnull(err_at);
    memmove(err_at, err_at + 4, strlen(err_at + 4) + 1);
    ck_assert_str_eq(res.all, res.out);
    ck_assert_str_eq(getenv("EVMB_SPAWN_T"), "old");    /* the caller's is untouched */
    spawn_result_free(&res);
}
END_TEST

START_TEST(run_reports_what_cannot_start)
{
    char tool[] = "/nonexistent/evmbench-tool", bin[] = "/bin/sh";
    char *argv[] = { tool, NULL };
    struct spawn_cmd cmd = { argv, NULL, NULL, 5, 0, false };
    struct spawn_result res;
    spawn_run(&cmd, &res);
    ck_assert(!res.ran);
    ck_assert_ptr_nonnull(res.exec_error);
    ck_assert_msg(strstr(res.exec_error, "/nonexistent/evmbench-tool") &&
                      strstr(res.exec_error, strerror(ENOENT)),
                  "%s", res.exec_error);
    ck_assert_str_eq(res.all, "");
    spawn_result_free(&res);

    argv[0] = bin;
    cmd.cwd = "/nonexistent-dir";
    spawn_run(&cmd, &res);
    ck_assert(!res.ran);
    ck_assert_msg(res.exec_error && strstr(res.exec_error, strerror(ENOENT)), "%s",
                  res.exec_error);
    spawn_result_free(&res);
}
END_TEST

/* The time limit kills the command and what it started; nothing is left
 * (as subreaper the orphans would stay ours). */
START_TEST(run_timeout_kills_the_whole_tree)
{
    bool was = spawn_subreaper_begin();
    struct spawn_result res;
    sh("sleep 60 & sleep 60 & wait", 0.3, 0, NULL, NULL, &res);
    ck_assert(res.ran);
    ck_assert(res.timed_out);
    ck_assert_msg(res.seconds < 30, "took %g s", res.seconds);
    pid_t left[4];
    ck_assert_uint_eq(spawn_descendants(getpid(), left, 4), 0);
    spawn_result_free(&res);
    spawn_subreaper_end(was);
}
END_TEST

START_TEST(run_stops_a_command_over_its_output_limit)
{
    bool was = spawn_subreaper_begin();
    struct spawn_result res;
    sh("sleep 60 & while :; do echo xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx; done", 30, 4096, NULL, NULL,
       &res);
    ck_assert(res.ran);
    ck_assert(res.overflow);
    ck_assert(!res.timed_out);
    ck_assert_uint_eq(res.nall, 4096);
    ck_assert_uint_eq(strlen(res.all), 4096);
    pid_t left[4];
    ck_assert_uint_eq(spawn_descendants(getpid(), left, 4), 0);
    spawn_result_free(&res);
    spawn_subreaper_end(was);
}
END_TEST

/* A command that exits and leaves a daemon holding its stdout ends the
 * run (the daemon is not waited for, even without a time limit) and the
 * daemon is left for spawn_reap_all(). */
START_TEST(run_returns_when_a_daemon_keeps_the_pipes)
{
    bool was = spawn_subreaper_begin();
    struct spawn_result res;
    sh("sleep 60 & echo started $!", 0, 0, NULL, NULL, &res);
    ck_assert(res.ran && !res.timed_out);
    ck_assert(WIFEXITED(res.wstatus) && WEXITSTATUS(res.wstatus) == 0);
    int daemon = 0;
    ck_assert_int_eq(sscanf(res.out, "started %d", &daemon), 1);
    ck_assert_msg(res.seconds < 30, "took %g s", res.seconds);
    pid_t left[4];
    if (subreaper_on()) {
        ck_assert_uint_eq(spawn_descendants(getpid(), left, 4), 1);
        ck_assert_int_eq(spawn_reap_all(), 1);
        ck_assert_uint_eq(spawn_descendants(getpid(), left, 4), 0);
    } else {
        /* the daemon went to init: not ours to reap, only to end */
        ck_assert_uint_eq(spawn_descendants(getpid(), left, 4), 0);
        kill(daemon, SIGKILL);
    }
    spawn_result_free(&res);
    spawn_subreaper_end(was);
}
END_TEST

/* The command gets no descriptor of the caller but 0-2, not even the
 * exec-status pipe. */
START_TEST(run_child_gets_no_other_descriptor)
{
    int leak = fcntl(0, F_DUPFD, 10);       /* not close-on-exec */
    ck_assert_int_ge(leak, 10);
    char script[128];
    snprintf(script, sizeof script,
             "for f in 0 1 2 3 %d; do [ -e /proc/$$/fd/$f ] && echo $f; done", leak);
    struct spawn_result res;
    sh(script, 30, 0, NULL, NULL, &res);
    close(leak);
    ck_assert_str_eq(res.out, "0\n1\n2\n");
    spawn_result_free(&res);
}
END_TEST

/* The command gets the signals at their defaults and unblocked, whatever
 * the caller did with them: ignored SIGINT, blocked SIGTERM. */
START_TEST(run_child_gets_default_signals)
{
    struct sigaction ign = { .sa_handler = SIG_IGN }, old_int;
    sigaction(SIGINT, &ign, &old_int);
    sigset_t term, old_mask;
    sigemptyset(&term);
    sigaddset(&term, SIGTERM);
    sigprocmask(SIG_BLOCK, &term, &old_mask);
    struct spawn_result res[2];
    sh("kill -INT $$; echo survived", 30, 0, NULL, NULL, &res[0]);
    sh("kill -TERM $$; echo survived", 30, 0, NULL, NULL, &res[1]);
    sigprocmask(SIG_SETMASK, &old_mask, NULL);
    sigaction(SIGINT, &old_int, NULL);
    const int want[2] = { SIGINT, SIGTERM };
    for (int i = 0; i < 2; i++) {
        ck_assert_str_eq(res[i].out, "");
        ck_assert(WIFSIGNALED(res[i].wstatus));
        ck_assert_int_eq(WTERMSIG(res[i].wstatus), want[i]);
        spawn_result_free(&res[i]);
    }
}
END_TEST

/* --- a forked child running our own code --------------------------------- */

/* Writes what the child sees on descriptor 3: its group, stdin, and
 * whether the caller's other descriptor is still open. */
static _Noreturn void report_child(int channel, int other)
{
    struct spawn_child how = { .in = SPAWN_NULL, .out = SPAWN_NULL, .err = SPAWN_KEEP,
                               .channel = channel, .die_with_parent = true };
    bool ok = spawn_child_setup(&how);
    struct stat in, null;
    bool in_null = fstat(0, &in) == 0 && stat("/dev/null", &null) == 0 &&
                   in.st_rdev == null.st_rdev;
    char line[128];
    int n = snprintf(line, sizeof line, "%d %d %d %d %d\n", ok, how.channel,
                     getpgid(0) == getpid(), in_null, fcntl(other, F_GETFD) >= 0);
    _exit(write(3, line, (size_t)n) == n ? 0 : 1);
}

START_TEST(fork_new_group_and_child_setup)
{
    int p[2], other = fcntl(0, F_DUPFD, 10);     /* not close-on-exec */
    ck_assert_int_ge(other, 10);
    ck_assert_int_eq(pipe2(p, O_CLOEXEC), 0);
    pid_t pid = spawn_fork(true);
    ck_assert_int_ge(pid, 0);
    if (pid == 0)
        report_child(p[1], other);
    ck_assert_int_eq(getpgid(pid), pid);     /* already, on this side */
    close(p[1]);
    char buf[128] = "";
    ssize_t n = read(p[0], buf, sizeof buf - 1);
    ck_assert_int_gt(n, 0);
    buf[n] = '\0';
    ck_assert_str_eq(buf, "1 3 1 1 0\n");
    int ws;
    ck_assert_int_eq(spawn_wait(pid, &ws, true), pid);
    ck_assert(WIFEXITED(ws) && WEXITSTATUS(ws) == 0);
    close(p[0]);
    close(other);
}
END_TEST

/* spawn_kill_group() kills the leader and the child it forked. */
START_TEST(kill_group_kills_leader_and_members)
{
    bool was = spawn_subreaper_begin();   /* the orphaned member comes to us */
    int p[2];
    ck_assert_int_eq(pipe2(p, O_CLOEXEC), 0);
    pid_t pid = spawn_fork(true);
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        pid_t member = fork();
        if (member == 0)
            for (;;)
                pause();
        _exit(write(p[1], &member, sizeof member) == sizeof member ? 0 : 1);
    }
    close(p[1]);
    pid_t member = 0;
    ck_assert_int_eq(read(p[0], &member, sizeof member), sizeof member);
    close(p[0]);
    ck_assert_int_gt(member, 0);
    int ws;
    spawn_wait(pid, &ws, true);     /* the leader has exited; its group lives on */
    spawn_kill_group(pid);
    if (subreaper_on()) {
        ck_assert_int_eq(spawn_wait(member, &ws, true), member);
        ck_assert(WIFSIGNALED(ws) && WTERMSIG(ws) == SIGKILL);
    } else {
        /* the orphaned member went to init, which reaps it once killed */
        ck_assert_msg(gone_within_10s(member), "member %d of the group lives on", (int)member);
    }
    spawn_subreaper_end(was);
}
END_TEST

START_TEST(wait_without_block_returns_at_once)
{
    pid_t pid = spawn_fork(false);
    ck_assert_int_ge(pid, 0);
    if (pid == 0)
        for (;;)
            pause();
    ck_assert_int_eq(getpgid(pid), getpgid(0));    /* no group of its own */
    int ws;
    ck_assert_int_eq(spawn_wait(pid, &ws, false), 0);
    kill(pid, SIGKILL);
    ck_assert_int_eq(spawn_wait(pid, &ws, true), pid);
    ck_assert(WIFSIGNALED(ws) && WTERMSIG(ws) == SIGKILL);
}
END_TEST

Suite *suite_spawn(void)
{
    Suite *s = suite_create("spawn");
    TCase *tc = tcase_create("spawn");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, run_captures_each_stream_env_and_cwd);
    tcase_add_test(tc, run_reports_what_cannot_start);
    tcase_add_test(tc, run_timeout_kills_the_whole_tree);
    tcase_add_test(tc, run_stops_a_command_over_its_output_limit);
    tcase_add_test(tc, run_returns_when_a_daemon_keeps_the_pipes);
    tcase_add_test(tc, run_child_gets_no_other_descriptor);
    tcase_add_test(tc, run_child_gets_default_signals);
    tcase_add_test(tc, fork_new_group_and_child_setup);
    tcase_add_test(tc, kill_group_kills_leader_and_members);
    tcase_add_test(tc, wait_without_block_returns_at_once);
    suite_add_tcase(s, tc);
    return s;
}
