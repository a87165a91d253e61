/* runner.c - a benchmark in a worker process, aggregated in the parent. */
#include "config.h"
#include "run/runner.h"

#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/stopsig.h"
#include "common/util.h"
#include "run/spawn.h"
#include "run/deviation.h"
#include "run/workdir.h"

/* How long a reaped worker's process group may take to die (SIGKILL
 * ends a process at its next return from the kernel: at once, unless it
 * is inside a long system call) before its work directory is removed
 * all the same. */
#define RUNNER_GROUP_WAIT_S 2.0

/* The highest CPU this process may run on: on the EVMs core 0 takes most
 * interrupts, so the last core is the quietest. */
int runner_default_cpu(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) != 0)
        return -1;
    for (int c = CPU_SETSIZE - 1; c >= 0; c--)
        if (CPU_ISSET(c, &set))
            return c;
    return -1;
}

int runner_run_inline(const struct kernel *k, const struct kernel_params *p,
                      struct report *r)
{
    struct kernel_params own = *p;
    own.self = k;
    return k->run(&own, r);
}


static _Noreturn void worker_main(const struct kernel *k, const struct kernel_params *p,
                                  int fd, int cpu, const char *workdir)
{
    /* The pipe is the only channel: no terminal input, no stray output,
     * and none of the parent's descriptors (the UI's signal pipe ...).
     * The worker must not outlive the program (a pulled serial cable). */
    struct spawn_child how = { .in = SPAWN_NULL, .out = SPAWN_NULL, .err = SPAWN_KEEP,
                               .channel = fd, .die_with_parent = true };
    spawn_child_setup(&how);    /* a step that failed is not fatal here */
    fd = how.channel;
    /* what the kernel and its tools write goes where the runner removes it */
    if (workdir)
        setenv("TMPDIR", workdir, 1);

    struct report r;
    report_to_fd(&r, fd);
    if (cpu >= 0) {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(cpu, &set);
        if (sched_setaffinity(0, sizeof set, &set) != 0)
            report_note(&r, "could not pin the worker to CPU %d: %s", cpu, strerror(errno));
    }
    int rc = runner_run_inline(k, p, &r);
    close(fd);
    _exit(rc == 0 ? 0 : 1);
}

/* The run's metrics: every metric of its kernel, or those run->params.only
 * names, whose ids it then points at the kernel's own strings. -1 after a
 * message when the selection names a metric the kernel lacks. */
static int select_metrics(struct run *run, struct diag *d)
{
    const struct kernel *k = run->kernel;
    struct kernel_params *p = &run->params;
    if (p->nonly) {
        run->only = xcalloc(p->nonly, sizeof *run->only);
        for (size_t i = 0; i < p->nonly; i++) {
            const struct kernel_metric *m = kernel_metric_find(k, p->only[i]);
            if (!m) {
                diag_add(d, "%s has no metric '%s'", k->name,
                         p->only[i] ? p->only[i] : "(none)");
                return -1;
            }
            run->only[i] = m->id;
        }
        p->only = run->only;
    }
    run->metrics = xcalloc(k->nmetrics ? k->nmetrics : 1, sizeof *run->metrics);
    for (size_t i = 0; i < k->nmetrics; i++) {
        if (!kernel_wants(p, k->metrics[i].id))
            continue;
        struct run_metric *m = &run->metrics[run->nmetrics++];
        m->def = &k->metrics[i];
        stats_init(&m->stats);
        stats_init(&m->per_run);
    }
    return 0;
}

struct run *runner_start(const struct kernel *k, const struct run_options *opt,
                         const struct sink *sink, void *sink_ctx, struct diag *d)
{
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) {
        diag_add(d, "cannot create a pipe: %s", strerror(errno));
        return NULL;
    }
    struct run *run = xcalloc(1, sizeof *run);
    run->kernel = k;
    run->params = opt->params;
    if (select_metrics(run, d) != 0) {
        close(fds[0]);
        close(fds[1]);
        free(run->only);
        free(run);
        return NULL;
    }
    run->status = STATUS_OK;
    run->cpu = opt->cpu >= 0 ? opt->cpu : runner_default_cpu();
    run->cpu_seconds = NAN;
    run->other_cpu_pct = NAN;
    run->runs = 1;
    run->sysroot = opt->sysroot;
    run->load_read = cpuload_read_cpu(opt->sysroot, run->cpu, &run->load0, NULL);
    double budget = opt->params.quick ? k->budget_quick_s : k->budget_full_s;
    run->timeout_s = opt->timeout_s > 0 ? opt->timeout_s : 4 * budget + 30;
    run->sink = sink;
    run->sink_ctx = sink_ctx;

    /* none (a read-only TMPDIR): the kernels say what they cannot create */
    run->workdir = workdir_create(k->name);
    pid_t pid = spawn_fork(true);
    if (pid < 0) {
        diag_add(d, "cannot start a worker process: %s", strerror(errno));
        close(fds[0]);
        close(fds[1]);
        workdir_remove(run->workdir);
        free(run->workdir);
        free(run->metrics);
        free(run->only);
        free(run);
        return NULL;
    }
    if (pid == 0) {
        close(fds[0]);
        worker_main(k, &run->params, fds[1], run->cpu, run->workdir);
    }
    close(fds[1]);
    fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK);
    run->pid = pid;
    run->fd = fds[0];
    run->started = now_seconds();
    if (sink && sink->on_start)
        sink->on_start(sink_ctx, run);
    return run;
}

int runner_fd(const struct run *run)
{
    return run->finished ? -1 : run->fd;
}

static void add_note(struct run *run, const char *text)
{
    run->notes = xrealloc(run->notes, (run->nnotes + 1) * sizeof *run->notes);
    run->notes[run->nnotes++] = xstrdup(text);
    if (run->sink && run->sink->on_note)
        run->sink->on_note(run->sink_ctx, run, text);
}

static struct run_metric *find_metric(struct run *run, const char *id, size_t *index)
{
    for (size_t i = 0; i < run->nmetrics; i++)
        if (strcmp(run->metrics[i].def->id, id) == 0) {
            *index = i;
            return &run->metrics[i];
        }
    return NULL;
}

bool run_metric_push(struct run_metric *m, double v)
{
    if (!unit_is_time(m->def->unit) || v > 0) {
        stats_push(&m->stats, v);
        return true;
    }
    if (!m->failed) {
        m->failed = true;
        m->fail_reason = xasprintf("reported %g %s: a latency is never zero or below; "
                                   "the value was dropped", v, m->def->unit);
    }
    return false;
}

static void handle_line(struct run *run, char *line)
{
    struct report_event ev;
    if (!report_parse_line(line, &ev)) {
        add_note(run, "the worker sent a line that is not part of the protocol");
        return;
    }
    size_t idx;
    struct run_metric *m;
    switch (ev.kind) {
    case REPORT_SAMPLE:
        m = find_metric(run, ev.metric, &idx);
        if (!m) {
            char *t = kernel_metric_find(run->kernel, ev.metric)
                ? xasprintf("sample for '%s', which was not asked for, ignored", ev.metric)
                : xasprintf("sample for an unknown metric '%s' ignored", ev.metric);
            add_note(run, t);
            free(t);
            return;
        }
        if (!run_metric_push(m, ev.value)) {
            if (!run->error)
                run->error = xasprintf("%s: %s", ev.metric, m->fail_reason);
            return;
        }
        if (run->sink && run->sink->on_sample)
            run->sink->on_sample(run->sink_ctx, run, idx, ev.value);
        break;
    case REPORT_PROGRESS:
        run->progress = ev.value >= ev.total ? 1.0 : ev.value / ev.total;
        if (run->sink && run->sink->on_progress)
            run->sink->on_progress(run->sink_ctx, run);
        break;
    case REPORT_NOTE:
        add_note(run, ev.text);
        break;
    case REPORT_FAIL:
        m = find_metric(run, ev.metric, &idx);
        if (!m && kernel_metric_find(run->kernel, ev.metric))
            break;              /* a metric not asked for: not this run's failure */
        if (m && !m->failed) {
            m->failed = true;
            m->fail_reason = xstrdup(ev.text);
        }
        if (!run->error)
            run->error = xasprintf("%s: %s", ev.metric, ev.text);
        break;
    }
}

/* Splits what arrived into lines; an over-long line is cut and reported. */
static void consume(struct run *run, const char *buf, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char c = buf[i];
        if (c == '\n') {
            run->linebuf[run->linelen] = '\0';
            handle_line(run, run->linebuf);
            run->linelen = 0;
        } else if (run->linelen < sizeof run->linebuf - 1) {
            run->linebuf[run->linelen++] = c;
        }
    }
}

/* The share of the run's wall time that other processes (and interrupts)
 * took on the worker's core: its busy time less the worker's own, less
 * two ticks for the counters' rounding, at most 100; NAN when it cannot
 * be told. */
static double other_load(const struct run *run)
{
    struct cpuload_sample end;
    double wall = run->ended - run->started;
    long hz = sysconf(_SC_CLK_TCK);
    if (!run->load_read || !isfinite(run->cpu_seconds) || wall < RUNNER_LOAD_MIN_S ||
        hz <= 0 || !cpuload_read_cpu(run->sysroot, run->cpu, &end, NULL) ||
        end.busy < run->load0.busy)
        return NAN;
    double busy = (double)(end.busy - run->load0.busy) / (double)hz;
    double other = busy - run->cpu_seconds - 2.0 / (double)hz;
    return other > 0 ? fmin(100.0, 100.0 * other / wall) : 0;
}

static void finish(struct run *run, int wstatus)
{
    run->finished = true;
    run->ended = now_seconds();
    run->other_cpu_pct = other_load(run);
    close(run->fd);
    run->fd = -1;
    if (run->status == STATUS_OK) {
        if (WIFSIGNALED(wstatus)) {
            int sig = WTERMSIG(wstatus);
            run->status = STATUS_CRASHED;
            free(run->error);
            run->error = xasprintf("worker killed by signal %d (%s)", sig, strsignal(sig));
        } else if (WIFEXITED(wstatus) && WEXITSTATUS(wstatus) != 0) {
            run->status = STATUS_FAILED;
            if (!run->error)
                run->error = xasprintf("worker exited with status %d", WEXITSTATUS(wstatus));
        } else {
            bool any = false;
            for (size_t i = 0; i < run->nmetrics; i++)
                any |= run->metrics[i].stats.count > 0;
            if (!any && run->nmetrics) {
                run->status = STATUS_NO_DATA;
                if (!run->error)
                    run->error = xstrdup(status_message(STATUS_NO_DATA));
            } else {
                run->progress = 1.0;
            }
        }
    }
    /* the run's own value of each metric: one sample of a comparison */
    for (size_t i = 0; run->status == STATUS_OK && i < run->nmetrics; i++) {
        struct run_metric *m = &run->metrics[i];
        if (m->stats.count)
            stats_push(&m->per_run, stats_summary(&m->stats, m->def->summary));
    }
    if (run->sink && run->sink->on_done)
        run->sink->on_done(run->sink_ctx, run);
}

static void kill_worker(struct run *run, enum status why, const char *msg)
{
    if (run->finished || run->status != STATUS_OK)
        return;
    spawn_kill_group(run->pid);
    run->status = why;
    free(run->error);
    run->error = xstrdup(msg);
}

static void reap(struct run *run, bool block)
{
    int ws = 0;
    pid_t r = spawn_wait_usage(run->pid, &ws, block, &run->cpu_seconds);
    if (r == run->pid || (r < 0 && errno == ECHILD)) {
        /* Whatever the worker left in its group goes too, and once it is
         * gone, what they all wrote. */
        kill(-run->pid, SIGKILL);
        spawn_group_gone(run->pid, RUNNER_GROUP_WAIT_S);
        workdir_remove(run->workdir);
        finish(run, r == run->pid ? ws : 0);
    }
}

bool runner_pump(struct run *run)
{
    if (run->finished)
        return false;
    char buf[4096];
    for (;;) {
        ssize_t n = read(run->fd, buf, sizeof buf);
        if (n > 0) {
            consume(run, buf, (size_t)n);
            continue;
        }
        if (n == 0) {       /* EOF: the worker has exited or is exiting */
            reap(run, true);
            return false;
        }
        if (errno == EINTR)
            continue;
        break;              /* EAGAIN: nothing more for now */
    }
    if (now_seconds() - run->started > run->timeout_s) {
        char *msg = xasprintf("time limit of %.0f s exceeded", run->timeout_s);
        kill_worker(run, STATUS_TIMEOUT, msg);
        free(msg);
        reap(run, true);
        return false;
    }
    return true;
}

bool runner_wait(struct run *run, int ms)
{
    double deadline = ms < 0 ? -1 : now_seconds() + ms / 1000.0;
    while (!run->finished) {
        double left = run->started + run->timeout_s - now_seconds();
        if (deadline >= 0 && deadline - now_seconds() < left)
            left = deadline - now_seconds();
        /* at most an hour at a time: a limit of days would not fit an int of ms */
        int tmo = left <= 0 ? 0 : left > 3600 ? 3600 * 1000 : (int)(left * 1000) + 1;
        struct pollfd p[2] = { { .fd = run->fd, .events = POLLIN },
                               { .fd = stopsig_fd(), .events = POLLIN } };
        int r = poll(p, 2, tmo);
        if (stopsig_caught()) {
            char *why = stopsig_reason(stopsig_caught());
            runner_cancel_because(run, why);
            free(why);
            break;
        }
        if (r < 0 && errno != EINTR)
            break;
        runner_pump(run);
        if (deadline >= 0 && now_seconds() >= deadline)
            break;
    }
    return !run->finished;
}

void runner_absorb(struct run *into, const struct run *again)
{
    for (size_t m = 0; m < into->nmetrics && m < again->nmetrics; m++)
        for (size_t k = 0; k < again->metrics[m].per_run.count; k++)
            stats_push(&into->metrics[m].per_run, again->metrics[m].per_run.samples[k]);
    into->ended = again->ended;
    into->runs++;
    into->cpu_seconds = isfinite(into->cpu_seconds) && isfinite(again->cpu_seconds)
                        ? into->cpu_seconds + again->cpu_seconds : NAN;
    into->other_cpu_pct = other_load(into);
}

void runner_cancel(struct run *run)
{
    runner_cancel_because(run, NULL);
}

void runner_cancel_because(struct run *run, const char *why)
{
    if (run->finished)
        return;
    kill_worker(run, STATUS_CANCELLED, why ? why : status_message(STATUS_CANCELLED));
    reap(run, true);
}

void runner_free(struct run *run)
{
    if (!run)
        return;
    runner_cancel(run);
    for (size_t i = 0; i < run->nmetrics; i++) {
        stats_free(&run->metrics[i].stats);
        stats_free(&run->metrics[i].per_run);
        free(run->metrics[i].fail_reason);
    }
    free(run->metrics);
    free(run->only);
    for (size_t i = 0; i < run->nnotes; i++)
        free(run->notes[i]);
    free(run->notes);
    free(run->error);
    free(run->workdir);
    free(run);
}
