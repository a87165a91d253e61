/* lat_proc.c - lmbench's lat_proc: process creation and procedure call.
 *
 *   lat_proc-fork      fork(), the child exits at once, the parent waits
 *                                                  "Process fork+exit"
 *   lat_proc-exec      fork(), the child closes stdout and execve()s a tiny
 *                      program with an empty environment, the parent waits
 *                                                  "Process fork+execve"
 *   lat_proc-proccall  a call of an out-of-line function that adds its
 *                      argument to a volatile sink (lmbench's use_int())
 *                                                  "Procedure call"
 *
 * lmbench execs /tmp/hello, its own hello-world program; evmbench execs
 * /bin/true (else /usr/bin/true), a similarly small program: exec'ing
 * evmbench itself would load ncurses, PCRE2 and jansson and cost more.
 * A child that cannot exec exits with status 127 and the metric fails
 * (lmbench prints a meaningless number then). The guide prints proccall
 * again as procedure_call (microsec); the samples go to both ids.
 * Timing: kb_measure() with lmbench's interval (5 ms), 11 recorded, the
 * median. The CPU affinity is widened to all CPUs as lmbench runs
 * unpinned. Every child is waited for before the next iteration. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kernel/kernel.h"
#include "benches/kernels/kernel_util.h"
#include "common/util.h"

enum { PROC_FORK, PROC_EXEC, PROC_CALL, PROC_CALL_ALIAS, PROC_COUNT };

static const struct kernel_metric proc_metrics[PROC_COUNT] = {
    [PROC_FORK]       = { .id = "lat_proc-fork", .unit = "us", .summary = SUMMARY_MEDIAN },
    [PROC_EXEC]       = { .id = "lat_proc-exec", .unit = "us", .summary = SUMMARY_MEDIAN },
    [PROC_CALL]       = { .id = "lat_proc-proccall", .unit = "us",
                          .summary = SUMMARY_MEDIAN, .cpu_bound = true },
    [PROC_CALL_ALIAS] = { .id = "procedure_call", .unit = "microsec",
                          .summary = SUMMARY_MEDIAN, .cpu_bound = true },
};

static const char *const exec_candidates[] = { "/bin/true", "/usr/bin/true" };

/* Waits for one child; 0 when it exited with `want`. */
static int proc_wait(pid_t pid, int want, char *err, size_t len, const char *what)
{
    int st;
    while (waitpid(pid, &st, 0) < 0) {
        if (errno != EINTR) {
            snprintf(err, len, "waitpid: %s", strerror(errno));
            return -1;
        }
    }
    if (!WIFEXITED(st) || WEXITSTATUS(st) != want) {
        snprintf(err, len, "%s: child %s %d", what,
                 WIFEXITED(st) ? "exited with" : "killed by signal",
                 WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
        return -1;
    }
    return 0;
}

static int do_fork(void *ctx, uint64_t n, char *err, size_t len)
{
    (void)ctx;
    while (n-- > 0) {
        pid_t pid = fork();
        if (pid < 0) {
            snprintf(err, len, "fork: %s", strerror(errno));
            return -1;
        }
        if (pid == 0)
            _exit(1);
        if (proc_wait(pid, 1, err, len, "fork+exit") < 0)
            return -1;
    }
    return 0;
}

static int do_exec(void *ctx, uint64_t n, char *err, size_t len)
{
    const char *prog = ctx;
    while (n-- > 0) {
        pid_t pid = fork();
        if (pid < 0) {
            snprintf(err, len, "fork: %s", strerror(errno));
            return -1;
        }
        if (pid == 0) {
            char *argv[] = { (char *)prog, NULL };
            char *envp[] = { NULL };
            close(1);
            execve(prog, argv, envp);
            _exit(127);
        }
        if (proc_wait(pid, 0, err, len, prog) < 0)
            return -1;
    }
    return 0;
}

static int do_call(void *ctx, uint64_t n, char *err, size_t len)
{
    (void)err;
    (void)len;
    uintptr_t v = (uintptr_t)*(const int *)ctx;
    while (n-- > 0)
        kb_use(v);      /* out of line: kernel_util.c */
    return 0;
}

static int proc_run(const struct kernel_params *p, struct report *r)
{
    cpu_set_t saved;
    bool widened = kb_affinity_widen(&saved);
    struct kb_opts o;
    kb_opts_for(&o, p, KB_BUDGET_OS, 0);
    int ok = 0;

    report_progress(r, 0, 3);
    struct kb_metric_spec mf = { proc_metrics[PROC_FORK].id, NULL, KB_TIME, 1e6 };
    if (kb_metric_run(r, &mf, do_fork, NULL, &o, NULL) == 0)
        ok++;

    report_progress(r, 1, 3);
    const char *prog = NULL;
    for (size_t i = 0; i < ARRAY_SIZE(exec_candidates) && !prog; i++)
        if (access(exec_candidates[i], X_OK) == 0)
            prog = exec_candidates[i];
    struct kb_metric_spec me = { proc_metrics[PROC_EXEC].id, NULL, KB_TIME, 1e6 };
    if (!kernel_wants(p, me.id)) {
        /* not asked for (p->only) */
    } else if (!prog) {
        report_fail(r, me.id, "no program to exec: neither /bin/true nor /usr/bin/true "
                    "is executable");
    } else {
        report_note(r, "lat_proc-exec runs %s (lmbench runs /tmp/hello)", prog);
        if (kb_metric_run(r, &me, do_exec, (void *)prog, &o, NULL) == 0)
            ok++;
    }

    report_progress(r, 2, 3);
    int arg = 1;
    struct kb_metric_spec mc = { proc_metrics[PROC_CALL].id, proc_metrics[PROC_CALL_ALIAS].id,
                                 KB_TIME, 1e6 };
    if (kb_metric_run(r, &mc, do_call, &arg, &o, NULL) == 0)
        ok++;
    report_progress(r, 3, 3);
    if (widened)
        kb_affinity_restore(&saved);
    return ok ? 0 : -1;
}

const struct kernel kernel_lat_proc = {
    .name = "lat_proc",
    .section = "lmbench",
    .description = "lmbench lat_proc: fork+exit, fork+execve, procedure call; "
                   "microseconds",
    .metrics = proc_metrics,
    .nmetrics = PROC_COUNT,
    .budget_quick_s = 2.0,
    .budget_full_s = 2.0,
    .run = proc_run,
};
