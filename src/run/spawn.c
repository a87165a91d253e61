/* spawn.c - forking workers and tools, capturing a tool, ending what is left. */
#include "config.h"
#include "run/spawn.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/stopsig.h"
#include "common/util.h"

extern char **environ;

/* --- the process tree: finding, killing, reaping -------------------------- */

struct proc {
    pid_t pid, ppid, pgrp;
    char state;
};

/* Every process of the system: pid, parent, process group, state (from
 * /proc/PID/stat). */
static size_t proc_list(struct proc **out)
{
    *out = NULL;
    size_t n = 0, cap = 0;
    DIR *d = opendir("/proc");
    if (!d)
        return 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        char *end;
        long pid = strtol(de->d_name, &end, 10);
        if (*end || pid <= 0)
            continue;
        char path[64], buf[512];
        snprintf(path, sizeof path, "/proc/%ld/stat", pid);
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0)
            continue;
        ssize_t r = read(fd, buf, sizeof buf - 1);
        close(fd);
        if (r <= 0)
            continue;
        buf[r] = '\0';
        char *rp = strrchr(buf, ')');     /* comm may hold spaces and ')' */
        char state;
        long ppid, pgrp;
        if (!rp || sscanf(rp + 1, " %c %ld %ld", &state, &ppid, &pgrp) != 3)
            continue;
        xgrow(out, &cap, n + 1, sizeof **out);
        (*out)[n++] = (struct proc){ (pid_t)pid, (pid_t)ppid, (pid_t)pgrp, state };
    }
    closedir(d);
    return n;
}

static bool descends_from(const struct proc *ps, size_t n, pid_t pid, pid_t root)
{
    for (int depth = 0; depth < 64 && pid > 1; depth++) {
        pid_t parent = -1;
        for (size_t i = 0; i < n; i++)
            if (ps[i].pid == pid) {
                parent = ps[i].ppid;
                break;
            }
        if (parent == root)
            return true;
        pid = parent;
    }
    return false;
}

size_t spawn_descendants(pid_t root, pid_t *out, size_t max)
{
    struct proc *ps;
    size_t n = proc_list(&ps), k = 0;
    for (size_t i = 0; i < n; i++)
        if (ps[i].pid != root && descends_from(ps, n, ps[i].pid, root)) {
            if (k < max)
                out[k] = ps[i].pid;
            k++;
        }
    free(ps);
    return k;
}

static void sleep_ms(int ms)
{
    struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
    nanosleep(&ts, NULL);
}

static bool pid_in(const pid_t *v, size_t n, pid_t pid)
{
    for (size_t i = 0; i < n; i++)
        if (v[i] == pid)
            return true;
    return false;
}

/* Kills `root` (unless it is us) and everything below it, and reaps what
 * is our child. The tree is stopped first (a stopped process cannot fork)
 * and collected until no new member appears, so a process orphaned on the
 * way is not missed even where orphans go to init (no child subreaper, as
 * under qemu-user). Gives up after about two seconds. */
static int kill_tree(pid_t root)
{
    pid_t self = getpid();
    pid_t *members = NULL;
    size_t n = 0, cap = 0;
    double deadline = now_seconds() + 2.0;
    if (root != self) {
        kill(root, SIGSTOP);
        xgrow(&members, &cap, 1, sizeof *members);
        members[n++] = root;
    }
    for (bool grew = true; grew && now_seconds() < deadline;) {
        grew = false;
        struct proc *ps;
        size_t np = proc_list(&ps);
        for (size_t i = 0; i < np; i++) {
            pid_t pid = ps[i].pid;
            if (pid == self || pid_in(members, n, pid) || ps[i].state == 'Z')
                continue;
            bool below = descends_from(ps, np, pid, root);
            for (size_t m = 0; m < n && !below; m++)
                below = descends_from(ps, np, pid, members[m]);
            if (!below)
                continue;
            kill(pid, SIGSTOP);
            xgrow(&members, &cap, n + 1, sizeof *members);
            members[n++] = pid;
            grew = true;
        }
        free(ps);
    }
    int killed = 0;
    for (size_t i = 0; i < n; i++)
        if (kill(members[i], SIGKILL) == 0)
            killed++;
    /* Reap those that are (or become, by reparenting) our children. */
    for (;;) {
        bool left = false;
        for (size_t i = 0; i < n; i++) {
            if (!members[i])
                continue;
            pid_t w = waitpid(members[i], NULL, WNOHANG);
            if (w == members[i] || (w < 0 && errno == ECHILD && kill(members[i], 0) != 0))
                members[i] = 0;     /* reaped, or gone (reaped by its parent or init) */
            else
                left = true;
        }
        if (!left || now_seconds() > deadline)
            break;
        sleep_ms(2);
    }
    free(members);
    return killed;
}

/* Whether a process of group `pgrp` is alive (not a zombie, not dead). */
static bool group_alive(pid_t pgrp)
{
    if (kill(-pgrp, 0) != 0 && errno == ESRCH)
        return false;       /* no member at all, zombies included */
    struct proc *ps;
    size_t n = proc_list(&ps);
    bool alive = false;
    for (size_t i = 0; i < n && !alive; i++)
        alive = ps[i].pgrp == pgrp && ps[i].state != 'Z' && ps[i].state != 'X';
    free(ps);
    return alive;
}

bool spawn_group_gone(pid_t pgrp, double timeout_s)
{
    double deadline = now_seconds() + timeout_s;
    for (;;) {
        if (!group_alive(pgrp))
            return true;
        if (now_seconds() >= deadline)
            return false;
        sleep_ms(2);
    }
}

int spawn_reap_all(void)
{
    int killed = kill_tree(getpid());
    while (waitpid(-1, NULL, WNOHANG) > 0)
        ;
    return killed;
}

bool spawn_subreaper_begin(void)
{
    int was = 0;
    prctl(PR_GET_CHILD_SUBREAPER, &was);
    prctl(PR_SET_CHILD_SUBREAPER, 1);
    return was != 0;
}

void spawn_subreaper_end(bool was)
{
    if (!was)
        prctl(PR_SET_CHILD_SUBREAPER, 0);
}

/* --- forking -------------------------------------------------------------- */

pid_t spawn_fork(bool new_group)
{
    fflush(NULL);
    pid_t pid = fork();
    if (new_group && pid == 0)
        setpgid(0, 0);
    else if (new_group && pid > 0)
        setpgid(pid, pid);      /* both sides, so there is no race */
    return pid;
}

/* /dev/null on each of 0-2 that `c` asks for, opened for what it is used
 * for; -1 when none is asked for (or it cannot be opened). */
static int open_devnull(const struct spawn_child *c)
{
    bool rd = c->in == SPAWN_NULL;
    bool wr = c->out == SPAWN_NULL || c->err == SPAWN_NULL;
    if (!rd && !wr)
        return -1;
    return open("/dev/null", rd && wr ? O_RDWR : rd ? O_RDONLY : O_WRONLY);
}

bool spawn_child_setup(struct spawn_child *c)
{
    static const int own[] = { SIGWINCH, SIGCHLD };
    size_t nstop;
    const int *stop = stopsig_list(&nstop);
    for (size_t i = 0; i < nstop; i++)
        signal(stop[i], SIG_DFL);
    for (size_t i = 0; i < ARRAY_SIZE(own); i++)
        signal(own[i], SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    if (c->die_with_parent) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() == 1)
            _exit(1);
    }
    bool ok = true;
    int devnull = open_devnull(c);
    const int want[3] = { c->in, c->out, c->err };
    for (int fd = 0; fd < 3; fd++) {
        int from = want[fd] == SPAWN_NULL ? devnull : want[fd];
        if (want[fd] != SPAWN_KEEP && (from < 0 || dup2(from, fd) < 0))
            ok = false;
    }
    if (c->channel >= 0 && dup2(c->channel, 3) == 3) {
        c->channel = 3;
        if (c->channel_cloexec)
            fcntl(3, F_SETFD, FD_CLOEXEC);
    } else if (c->channel >= 0) {
        ok = false;
    }
    close_fds_from(c->channel >= 0 ? c->channel + 1 : 3);
    return ok;
}

void spawn_kill_group(pid_t leader)
{
    kill(-leader, SIGKILL);
    kill(leader, SIGKILL);
}

pid_t spawn_wait(pid_t pid, int *wstatus, bool block)
{
    pid_t r;
    do
        r = waitpid(pid, wstatus, block ? 0 : WNOHANG);
    while (r < 0 && errno == EINTR);
    return r;
}

pid_t spawn_wait_usage(pid_t pid, int *wstatus, bool block, double *cpu_seconds)
{
    pid_t r;
    struct rusage ru;
    do
        r = wait4(pid, wstatus, block ? 0 : WNOHANG, &ru);
    while (r < 0 && errno == EINTR);
    if (r == pid && r > 0)
        *cpu_seconds = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
                       (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
    return r;
}

/* --- running a command ---------------------------------------------------- */

/* The environment with `add` on top (same names replaced). */
static char **merged_env(char *const *add)
{
    size_t n = 0, na = 0;
    for (char **e = environ; e && *e; e++)
        n++;
    for (char *const *a = add; a && *a; a++)
        na++;
    char **env = xcalloc(n + na + 1, sizeof *env);
    size_t k = 0;
    for (char **e = environ; e && *e; e++) {
        bool replaced = false;
        for (char *const *a = add; a && *a && !replaced; a++) {
            const char *eq = strchr(*a, '=');
            size_t len = eq ? (size_t)(eq - *a) : strlen(*a);
            replaced = strncmp(*e, *a, len) == 0 && (*e)[len] == '=';
        }
        if (!replaced)
            env[k++] = *e;
    }
    for (char *const *a = add; a && *a; a++)
        env[k++] = *a;
    env[k] = NULL;
    return env;
}

/* The child: descriptors, directory, CPUs, then execve. Its reason for not
 * running goes to the exec-status pipe (descriptor 3, closed by a
 * successful execve). */
static _Noreturn void child_exec(const struct spawn_cmd *cmd, char **env, int out, int err,
                                 int status)
{
    struct spawn_child how = { .in = SPAWN_NULL, .out = out, .err = err, .channel = status,
                               .channel_cloexec = true };
    if (!spawn_child_setup(&how))
        _exit(127);
    int e = 0;
    if (cmd->cwd && chdir(cmd->cwd) != 0)
        e = errno;
    if (!e && cmd->unpin) {
        cpu_set_t all;
        CPU_ZERO(&all);
        long ncpu = sysconf(_SC_NPROCESSORS_CONF);
        for (long c = 0; c < ncpu && c < CPU_SETSIZE; c++)
            CPU_SET((int)c, &all);
        sched_setaffinity(0, sizeof all, &all);
    }
    if (!e) {
        execve(cmd->argv[0], cmd->argv, env);
        e = errno;
    }
    ssize_t w = write(3, &e, sizeof e);
    (void)w;
    _exit(127);
}

static void add_output(struct spawn_result *res, int which, const char *buf, size_t n)
{
    char **dst = which == 1 ? &res->out : &res->err;
    size_t *len = which == 1 ? &res->nout : &res->nerr;
    *dst = xrealloc(*dst, *len + n + 1);
    memcpy(*dst + *len, buf, n);
    *len += n;
    (*dst)[*len] = '\0';
    res->all = xrealloc(res->all, res->nall + n + 1);
    memcpy(res->all + res->nall, buf, n);
    res->nall += n;
    res->all[res->nall] = '\0';
}

void spawn_result_free(struct spawn_result *res)
{
    free(res->out);
    free(res->err);
    free(res->all);
    free(res->exec_error);
    memset(res, 0, sizeof *res);
}

/* One command being captured by spawn_run(). */
struct capture {
    const struct spawn_cmd *cmd;
    struct spawn_result *res;
    pid_t pid;
    int fds[2];                 /* read ends of stdout, stderr; -1 at EOF */
    size_t limit;               /* of res->nall */
    double t0;
    bool exited, must_kill;
    int ws;
    struct rusage ru;
};

/* Adds `got` bytes read from fds[k], as much as fits; true when the output
 * reached the limit. */
static bool add_capped(struct capture *c, int k, const char *buf, size_t got)
{
    size_t room = c->limit > c->res->nall ? c->limit - c->res->nall : 0;
    add_output(c->res, k + 1, buf, got < room ? got : room);
    return got >= room;
}

/* Reads what fds[k] has now; closes it at EOF or on an error. */
static void read_ready(struct capture *c, int k)
{
    char buf[65536];
    for (;;) {
        ssize_t got = read(c->fds[k], buf, sizeof buf);
        if (got > 0) {
            if (add_capped(c, k, buf, (size_t)got)) {
                c->res->overflow = c->must_kill = true;
                return;
            }
            continue;
        }
        if (got == 0 || (errno != EINTR && errno != EAGAIN)) {
            close(c->fds[k]);
            c->fds[k] = -1;
        }
        if (got < 0 && errno == EINTR)
            continue;
        return;
    }
}

/* One poll() of the open pipes, up to `tmo` ms; reads what is ready.
 * Returns poll's result (errno kept when it is -1). */
static int poll_once(struct capture *c, int tmo)
{
    struct pollfd p[2];
    nfds_t np = 0;
    int which[2];
    for (int i = 0; i < 2; i++)
        if (c->fds[i] >= 0) {
            p[np] = (struct pollfd){ .fd = c->fds[i], .events = POLLIN };
            which[np++] = i;
        }
    int pr = poll(p, np, tmo);
    for (nfds_t i = 0; pr > 0 && i < np && !c->must_kill; i++)
        if (p[i].revents & (POLLIN | POLLHUP | POLLERR))
            read_ready(c, which[i]);
    return pr;
}

/* Reads both pipes until EOF on both, the time limit, the output limit, or
 * the command's exit (a daemon it left may hold the pipes open). */
static void capture_loop(struct capture *c)
{
    while (c->fds[0] >= 0 || c->fds[1] >= 0) {
        double left = c->cmd->timeout_s > 0 ? c->t0 + c->cmd->timeout_s - now_seconds() : 3600;
        if (left <= 0) {
            c->res->timed_out = c->must_kill = true;
            return;
        }
        /* A command may exit and leave a child holding the pipes (a
         * daemon): look at it every 200 ms. */
        int pr = poll_once(c, left < 0.2 ? (int)(left * 1000) + 1 : 200);
        if ((pr < 0 && errno != EINTR) || c->must_kill)
            return;
        if (pr == 0 && wait4(c->pid, &c->ws, WNOHANG, &c->ru) == c->pid) {
            c->exited = true;
            return;     /* what is left in the pipes is read by drain() */
        }
    }
}

/* What the command wrote before it exited, up to the output limit. */
static void drain(struct capture *c)
{
    char buf[65536];
    for (int k = 0; k < 2; k++) {
        while (c->fds[k] >= 0) {
            ssize_t got = read(c->fds[k], buf, sizeof buf);
            if (got <= 0)
                break;
            if (add_capped(c, k, buf, (size_t)got)) {
                c->res->overflow = true;
                break;
            }
        }
    }
}

/* EOF on both pipes (or killed): the command is ending. It is not trusted
 * to: one that closed its outputs and hangs is still held to its limit. */
static void wait_end(struct capture *c)
{
    for (;;) {
        pid_t w = wait4(c->pid, &c->ws, WNOHANG, &c->ru);
        if (w == c->pid || (w < 0 && errno != EINTR))
            return;
        if (c->cmd->timeout_s > 0 && now_seconds() > c->t0 + c->cmd->timeout_s &&
            !c->must_kill) {
            c->res->timed_out = c->must_kill = true;
            kill_tree(c->pid);
        }
        sleep_ms(2);
    }
}

static void close_pair(int p[2])
{
    for (int i = 0; i < 2; i++)
        if (p[i] >= 0)
            close(p[i]);
    p[0] = p[1] = -1;
}

/* Forks and execs; returns the pid, or -1 with res->exec_error set. Closes
 * every descriptor of `po`, `pe`, `px` but the read ends of po and pe. */
static pid_t start(const struct spawn_cmd *cmd, int po[2], int pe[2], int px[2],
                   struct spawn_result *res)
{
    char **env = merged_env(cmd->env_add);
    pid_t pid = spawn_fork(false);
    if (pid == 0)
        child_exec(cmd, env, po[1], pe[1], px[1]);
    int fork_errno = errno;
    free(env);
    close(po[1]);
    close(pe[1]);
    close(px[1]);
    if (pid < 0) {
        res->exec_error = xasprintf("cannot fork: %s", strerror(fork_errno));
        close(px[0]);
        return -1;
    }
    int e = 0;
    ssize_t r;
    do
        r = read(px[0], &e, sizeof e);
    while (r < 0 && errno == EINTR);
    close(px[0]);
    if (r == (ssize_t)sizeof e) {
        res->exec_error = xasprintf("cannot run %s: %s", cmd->argv[0], strerror(e));
        waitpid(pid, NULL, 0);
        return -1;
    }
    return pid;
}

void spawn_run(const struct spawn_cmd *cmd, struct spawn_result *res)
{
    memset(res, 0, sizeof *res);
    res->out = xstrdup("");
    res->err = xstrdup("");
    res->all = xstrdup("");
    int po[2] = { -1, -1 }, pe[2] = { -1, -1 }, px[2] = { -1, -1 };
    if (pipe2(po, O_CLOEXEC) || pipe2(pe, O_CLOEXEC) || pipe2(px, O_CLOEXEC)) {
        res->exec_error = xasprintf("cannot create a pipe: %s", strerror(errno));
        close_pair(po);
        close_pair(pe);
        close_pair(px);
        return;
    }
    struct capture c = { .cmd = cmd, .res = res, .fds = { po[0], pe[0] },
                         .limit = cmd->max_output ? cmd->max_output : SPAWN_OUTPUT_MAX,
                         .t0 = now_seconds() };
    c.pid = start(cmd, po, pe, px, res);
    if (c.pid < 0) {
        close(po[0]);
        close(pe[0]);
        return;
    }
    for (int i = 0; i < 2; i++)
        fcntl(c.fds[i], F_SETFL, fcntl(c.fds[i], F_GETFL) | O_NONBLOCK);
    capture_loop(&c);
    if (c.must_kill)
        kill_tree(c.pid);
    else if (c.exited)
        drain(&c);
    for (int k = 0; k < 2; k++)
        if (c.fds[k] >= 0)
            close(c.fds[k]);
    if (!c.exited)
        wait_end(&c);
    res->ran = true;
    res->wstatus = c.ws;
    res->cpu_seconds = (double)c.ru.ru_utime.tv_sec + c.ru.ru_utime.tv_usec / 1e6 +
                       (double)c.ru.ru_stime.tv_sec + c.ru.ru_stime.tv_usec / 1e6;
    res->seconds = now_seconds() - c.t0;
}
