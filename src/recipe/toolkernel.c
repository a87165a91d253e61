/* toolkernel.c - runs external tools from their recipes, as kernels. */
#include "config.h"
#include "recipe/toolkernel.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <math.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "board/cpuload.h"
#include "common/util.h"

extern char **environ;

/* --- processes ------------------------------------------------------------ */

struct proc {
    pid_t pid, ppid;
    char state;
};

/* Every process of the system: pid, parent, state (from /proc/PID/stat). */
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
        long ppid;
        if (!rp || sscanf(rp + 1, " %c %ld", &state, &ppid) != 2)
            continue;
        xgrow(out, &cap, n + 1, sizeof **out);
        (*out)[n++] = (struct proc){ (pid_t)pid, (pid_t)ppid, state };
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

size_t toolkernel_descendants(pid_t root, pid_t *out, size_t max)
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

int toolkernel_reap_all(void)
{
    int killed = kill_tree(getpid());
    while (waitpid(-1, NULL, WNOHANG) > 0)
        ;
    return killed;
}


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

static _Noreturn void child_exec(const struct tool_cmd *cmd, char **env, int out, int err,
                                 int report)
{
    static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGQUIT, SIGCHLD };
    for (size_t i = 0; i < ARRAY_SIZE(sigs); i++)
        signal(sigs[i], SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    int devnull = open("/dev/null", O_RDONLY);
    if (devnull < 0 || dup2(devnull, 0) < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0)
        _exit(127);
    /* Only the exec-status pipe stays, as 3 and close-on-exec: the tool
     * must not hold the worker's report pipe. */
    if (dup2(report, 3) < 0)
        _exit(127);
    fcntl(3, F_SETFD, FD_CLOEXEC);
    close_fds_from(4);
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

static void add_output(struct tool_result *res, int which, const char *buf, size_t n)
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

void tool_result_free(struct tool_result *res)
{
    free(res->out);
    free(res->err);
    free(res->all);
    free(res->exec_error);
    memset(res, 0, sizeof *res);
}

void tool_cmd_run(const struct tool_cmd *cmd, struct tool_result *res)
{
    memset(res, 0, sizeof *res);
    res->out = xstrdup("");
    res->err = xstrdup("");
    res->all = xstrdup("");
    size_t limit = cmd->max_output ? cmd->max_output : TOOLKERNEL_OUTPUT_MAX;
    int po[2] = { -1, -1 }, pe[2] = { -1, -1 }, px[2] = { -1, -1 };
    if (pipe2(po, O_CLOEXEC) || pipe2(pe, O_CLOEXEC) || pipe2(px, O_CLOEXEC)) {
        res->exec_error = xasprintf("cannot create a pipe: %s", strerror(errno));
        for (int i = 0; i < 2; i++) {
            if (po[i] >= 0) close(po[i]);
            if (pe[i] >= 0) close(pe[i]);
            if (px[i] >= 0) close(px[i]);
        }
        return;
    }
    char **env = merged_env(cmd->env_add);
    double t0 = now_seconds();
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0)
        child_exec(cmd, env, po[1], pe[1], px[1]);
    free(env);
    close(po[1]);
    close(pe[1]);
    close(px[1]);
    if (pid < 0) {
        res->exec_error = xasprintf("cannot fork: %s", strerror(errno));
        close(po[0]);
        close(pe[0]);
        close(px[0]);
        return;
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
        close(po[0]);
        close(pe[0]);
        return;
    }

    int fds[2] = { po[0], pe[0] };
    for (int i = 0; i < 2; i++)
        fcntl(fds[i], F_SETFL, fcntl(fds[i], F_GETFL) | O_NONBLOCK);
    bool exited = false, must_kill = false;
    int ws = 0;
    struct rusage ru;
    memset(&ru, 0, sizeof ru);
    char buf[65536];
    while (fds[0] >= 0 || fds[1] >= 0) {
        double left = cmd->timeout_s > 0 ? t0 + cmd->timeout_s - now_seconds() : 3600;
        if (left <= 0) {
            res->timed_out = must_kill = true;
            break;
        }
        /* A tool may exit and leave a child holding the pipes (a daemon):
         * look at it every 200 ms. */
        int tmo = left < 0.2 ? (int)(left * 1000) + 1 : 200;
        struct pollfd p[2];
        nfds_t np = 0;
        int which[2];
        for (int i = 0; i < 2; i++)
            if (fds[i] >= 0) {
                p[np] = (struct pollfd){ .fd = fds[i], .events = POLLIN };
                which[np++] = i;
            }
        int pr = poll(p, np, tmo);
        if (pr < 0 && errno != EINTR)
            break;
        for (nfds_t i = 0; pr > 0 && i < np; i++) {
            if (!(p[i].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            int k = which[i];
            for (;;) {
                ssize_t got = read(fds[k], buf, sizeof buf);
                if (got > 0) {
                    size_t room = limit > res->nall ? limit - res->nall : 0;
                    add_output(res, k + 1, buf, (size_t)got < room ? (size_t)got : room);
                    if ((size_t)got >= room) {
                        res->overflow = must_kill = true;
                        break;
                    }
                    continue;
                }
                if (got == 0 || (errno != EINTR && errno != EAGAIN)) {
                    close(fds[k]);
                    fds[k] = -1;
                }
                if (got < 0 && errno == EINTR)
                    continue;
                break;
            }
            if (must_kill)
                break;
        }
        if (must_kill)
            break;
        if (pr == 0 && !exited) {
            pid_t w = wait4(pid, &ws, WNOHANG, &ru);
            if (w == pid) {
                exited = true;
                break;      /* what is left in the pipes is read below */
            }
        }
    }
    if (must_kill) {
        kill_tree(pid);
    } else if (exited) {
        /* drain what the tool wrote before it exited */
        for (int k = 0; k < 2; k++) {
            while (fds[k] >= 0) {
                ssize_t got = read(fds[k], buf, sizeof buf);
                if (got <= 0)
                    break;
                size_t room = limit > res->nall ? limit - res->nall : 0;
                add_output(res, k + 1, buf, (size_t)got < room ? (size_t)got : room);
                if ((size_t)got >= room) {
                    res->overflow = true;
                    break;
                }
            }
        }
    }
    for (int k = 0; k < 2; k++)
        if (fds[k] >= 0)
            close(fds[k]);
    if (!exited) {
        /* EOF on both pipes (or killed): the process is ending; don't trust
         * it to, though - a tool that closed its outputs and hangs is
         * still held to its time limit. */
        for (;;) {
            pid_t w = wait4(pid, &ws, WNOHANG, &ru);
            if (w == pid || (w < 0 && errno != EINTR))
                break;
            if (cmd->timeout_s > 0 && now_seconds() > t0 + cmd->timeout_s && !must_kill) {
                res->timed_out = must_kill = true;
                kill_tree(pid);
            }
            sleep_ms(2);
        }
    }
    res->ran = true;
    res->wstatus = ws;
    res->cpu_seconds = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
                       (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
    res->seconds = now_seconds() - t0;
}

/* --- kernels ---------------------------------------------------------- */

struct tk {
    struct kernel k;
    struct kernel_metric *metrics;
    char *description;
};

static int tk_run(const struct kernel_params *p, struct report *r);

size_t toolkernel_build(const struct recipe_set *set, const struct kernel ***out, size_t *n)
{
    size_t count = recipe_count(set);
    const struct kernel **ks = xcalloc(count + 1, sizeof *ks);
    for (size_t i = 0; i < count; i++) {
        const struct recipe_bench *b = recipe_get(set, i);
        struct tk *t = xcalloc(1, sizeof *t);
        size_t nm;
        const struct recipe_metric *rm = recipe_metrics(b, &nm);
        t->metrics = xcalloc(nm + 1, sizeof *t->metrics);
        for (size_t m = 0; m < nm; m++)
            t->metrics[m] = (struct kernel_metric){ .id = rm[m].id, .unit = rm[m].unit,
                                                    .summary = rm[m].summary,
                                                    .cpu_bound = rm[m].cpu_bound,
                                                    .ref_row = rm[m].row,
                                                    .ref_column = rm[m].column,
                                                    .ref_table = rm[m].table };
        t->description = xasprintf("%s [%s]", recipe_description(b), recipe_tool(b));
        t->k = (struct kernel){
            .name = recipe_name(b),
            .section = recipe_section(b),
            .description = t->description,
            .metrics = t->metrics,
            .nmetrics = nm,
            .budget_quick_s = recipe_budget(b, true),
            .budget_full_s = recipe_budget(b, false),
            .run = tk_run,
            .provider = "tool",
            .data = b,
        };
        ks[i] = &t->k;
    }
    *out = ks;
    *n = count;
    return count;
}

void toolkernel_free(const struct kernel **kernels, size_t n)
{
    for (size_t i = 0; kernels && i < n; i++) {
        struct tk *t = (struct tk *)kernels[i];   /* k is the first member */
        free(t->metrics);
        free(t->description);
        free(t);
    }
    free(kernels);
}

const struct recipe_bench *toolkernel_recipe(const struct kernel *k)
{
    return k && k->run == tk_run ? k->data : NULL;
}

bool toolkernel_available(const struct kernel *k, char **path)
{
    if (path)
        *path = NULL;
    const struct recipe_bench *b = toolkernel_recipe(k);
    if (!b)
        return false;
    char *p = recipe_find_binary(b);
    if (path)
        *path = p;
    else
        free(p);
    return p != NULL;
}

/* --- run() ------------------------------------------------------------- */

static double run_limit;

void toolkernel_set_time_limit(double seconds)
{
    run_limit = seconds > 0 ? seconds : 0;
}

/* When the current benchmark must be finished (the runner's limit, less a
 * margin to report and clean up). */
static double run_deadline(const struct kernel *k, bool quick, double started)
{
    double limit = run_limit > 0 ? run_limit
                                 : 4 * (quick ? k->budget_quick_s : k->budget_full_s) + 30;
    double margin = limit * 0.1 < 1.5 ? limit * 0.1 : 1.5;
    return started + limit - margin;
}

/* The invocation's limit: the recipe's, or the time left if that is less. */
static double invocation_timeout(const struct recipe_bench *b, bool quick, double deadline)
{
    double t = recipe_timeout(b, quick);
    double left = deadline - now_seconds();
    if (left < t)
        t = left > 0.05 ? left : 0.05;
    return t;
}

struct tk_state {
    const struct kernel *k;
    double deadline;
    struct report *r;
    bool *failed;
    size_t *samples;
    size_t total_samples;
};

static ssize_t metric_index(const struct kernel *k, const char *id)
{
    for (size_t i = 0; i < k->nmetrics; i++)
        if (strcmp(k->metrics[i].id, id) == 0)
            return (ssize_t)i;
    return -1;
}

static void fail_metric(struct tk_state *st, size_t m, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void fail_metric(struct tk_state *st, size_t m, const char *fmt, ...)
{
    if (st->failed[m])
        return;
    st->failed[m] = true;
    va_list ap;
    va_start(ap, fmt);
    char *t = xvasprintf(fmt, ap);
    va_end(ap);
    /* the reason quotes the tool's output: valid UTF-8 for every view */
    char *v = utf8_valid_dup(t);
    report_fail(st->r, st->k->metrics[m].id, "%s", v);
    free(v);
    free(t);
}

/* An embedded kernel that measures the metric, for "not found". */
static const struct kernel *embedded_for(const char *section, const char *metric)
{
    for (size_t i = 0; i < kernel_registry_count; i++) {
        const struct kernel *k = kernel_registry[i];
        if (k->provider && strcmp(k->provider, "kernel") != 0)
            continue;
        if (k->section && strcmp(k->section, section) == 0 && kernel_metric_find(k, metric))
            return k;
    }
    return NULL;
}

/* The last `lines` non-empty lines of text, joined with " | ", at most
 * 300 bytes (the end kept, starting on a whole UTF-8 character). */
static char *tail_lines(const char *text, int lines)
{
    size_t len = strlen(text);
    size_t end = len;
    while (end && (text[end - 1] == '\n' || text[end - 1] == '\r' || text[end - 1] == ' '))
        end--;
    size_t start = end;
    int seen = 0;
    while (start > 0) {
        if (text[start - 1] == '\n') {
            if (++seen == lines)
                break;
        }
        start--;
    }
    if (end - start > 300) {
        start = end - 300;
        /* not inside a character: past its continuation bytes */
        size_t lead = utf8_cut(text, end, start);
        if (lead < start)
            start = lead + utf8_char_len(text + lead);
    }
    struct strbuf sb;
    sb_init(&sb);
    sb_add(&sb, "");
    bool nl = false;
    for (size_t i = start; i < end; i++) {
        char c = text[i];
        if (c == '\n' || c == '\r') {
            nl = sb.len > 0;
            continue;
        }
        if (nl)
            sb_add(&sb, " | ");
        nl = false;
        sb_addn(&sb, (unsigned char)c < 32 || c == 127 ? " " : &text[i], 1);
    }
    if (!sb.len)
        sb_add(&sb, "(no output)");
    return sb_steal(&sb);
}

static char *head_excerpt(const char *text)
{
    while (*text == '\n' || *text == '\r' || *text == ' ')
        text++;
    if (!*text)
        return xstrdup("(no output)");
    size_t n = strlen(text);
    bool cut = n > 160;
    char *s = xstrndup(text, utf8_cut(text, n, 160));
    for (char *c = s; *c; c++)
        if ((unsigned char)*c < 32 || *c == 127)
            *c = *c == '\n' ? '|' : ' ';
    char *out = xasprintf("%s%s", str_trim(s), cut ? " ..." : "");
    free(s);
    return out;
}

/* Why a finished command failed, or NULL when it ran to a zero exit. */
static char *cmd_failure(const struct tool_result *res, const struct tool_cmd *cmd)
{
    if (res->exec_error)
        return xstrdup(res->exec_error);
    if (res->timed_out)
        return xasprintf("timed out after %g s", cmd->timeout_s);
    if (res->overflow)
        return xasprintf("output over %zu KiB: the tool was stopped",
                         (cmd->max_output ? cmd->max_output : TOOLKERNEL_OUTPUT_MAX) / 1024);
    if (WIFSIGNALED(res->wstatus)) {
        int sig = WTERMSIG(res->wstatus);
        char *tail = tail_lines(res->all, 3);
        char *m = xasprintf("killed by signal %d (%s); output ends: %s", sig, strsignal(sig),
                            tail);
        free(tail);
        return m;
    }
    if (WIFEXITED(res->wstatus) && WEXITSTATUS(res->wstatus) != 0) {
        char *tail = tail_lines(res->all, 3);
        char *m = xasprintf("exit status %d; output ends: %s", WEXITSTATUS(res->wstatus), tail);
        free(tail);
        return m;
    }
    return NULL;
}

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    remove(path);
    return 0;
}

static void rm_tree(const char *dir)
{
    nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static char *make_tmpdir(const char *name)
{
    const char *base = getenv("TMPDIR");
    if (!base || !*base)
        base = "/tmp";
    char *t = xasprintf("%s/evmbench-%s-XXXXXX", base, name);
    if (!mkdtemp(t)) {
        free(t);
        return NULL;
    }
    return t;
}

/* Runs a setup or teardown step; the reason on failure (caller frees). */
static char *run_step(const struct recipe_bench *b, const struct recipe_env *env,
                      const char *step, double timeout)
{
    char **argv = recipe_argv(b, 0, env, step);
    if (!argv)
        return NULL;
    char **envv = recipe_envv(b, 0, env);
    char *cwd = recipe_cwd(b, 0, env);
    struct tool_cmd cmd = { argv, envv, cwd ? cwd : env->tmpdir, timeout, 0, !recipe_pinned(b) };
    struct tool_result res;
    tool_cmd_run(&cmd, &res);
    char *why = cmd_failure(&res, &cmd);
    tool_result_free(&res);
    free(cwd);
    recipe_strv_free(envv);
    recipe_strv_free(argv);
    return why;
}

struct collect {
    struct recipe_match *m;
    char **ids, **invalid;
    size_t n, cap;
};

static void collect_cb(void *ctx, const struct recipe_match *m)
{
    struct collect *c = ctx;
    xgrow(&c->m, &c->cap, c->n + 1, sizeof *c->m);
    c->ids = xrealloc(c->ids, c->cap * sizeof *c->ids);
    c->invalid = xrealloc(c->invalid, c->cap * sizeof *c->invalid);
    c->ids[c->n] = xstrdup(m->metric);
    c->invalid[c->n] = m->invalid ? xstrdup(m->invalid) : NULL;
    c->m[c->n] = *m;
    c->n++;
}

static void collect_free(struct collect *c)
{
    for (size_t i = 0; i < c->n; i++) {
        free(c->ids[i]);
        free(c->invalid[i]);
    }
    free(c->ids);
    free(c->invalid);
    free(c->m);
}

/* Removes the recipe's scratch file (fio's test file), only ever a
 * regular file: a device given with --allow-raw-device stays. */
static void remove_scratch(const char *path)
{
    struct stat st;
    if (path && lstat(path, &st) == 0 && S_ISREG(st.st_mode))
        unlink(path);
}

/* A process outside the worker's process group that removes the scratch
 * file when the worker ends, however it ends (the runner's time limit and
 * cancel kill the whole group with SIGKILL). It waits for EOF on a pipe
 * whose write end only the worker holds; *fd gets that end. */
static pid_t scratch_guard(const char *path, int *fd)
{
    int pfd[2];
    *fd = -1;
    if (pipe2(pfd, O_CLOEXEC) != 0)
        return -1;
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        setsid();
        int devnull = open("/dev/null", O_RDWR);
        if (devnull >= 0) {
            dup2(devnull, 0);
            dup2(devnull, 1);
            dup2(devnull, 2);
        }
        if (dup2(pfd[0], 3) < 0)
            _exit(1);
        close_fds_from(4);
        char c;
        while (read(3, &c, 1) < 0 && errno == EINTR)
            ;
        remove_scratch(path);
        _exit(0);
    }
    close(pfd[0]);
    if (pid < 0) {
        close(pfd[1]);
        return -1;
    }
    *fd = pfd[1];
    return pid;
}

/* Runs invocation `inv` once and reports what it gave. Returns false when
 * the invocation itself failed (no point repeating it). */
static bool run_invocation(struct tk_state *st, const struct recipe_bench *b, size_t inv,
                           const struct recipe_env *env, const struct recipe_metric **exp,
                           const char **why_not, size_t nexp)
{
    bool quick = env->quick;
    char **argv = recipe_argv(b, inv, env, NULL);
    char **envv = recipe_envv(b, inv, env);
    char *cwd = recipe_cwd(b, inv, env);
    struct tool_cmd cmd = { argv, envv, cwd ? cwd : env->tmpdir,
                            invocation_timeout(b, quick, st->deadline), 0, !recipe_pinned(b) };
    enum cpuload_scope scope = CPULOAD_SYSTEM;
    char *load_id = recipe_cpu_load_metric(b, inv, env, &scope);
    struct cpuload_sample l0 = { 0 }, l1 = { 0 };
    bool have_load = load_id && scope == CPULOAD_SYSTEM && cpuload_read(NULL, &l0, NULL);
    struct tool_result res;
    tool_cmd_run(&cmd, &res);
    if (have_load)
        have_load = cpuload_read(NULL, &l1, NULL);
    /* the command as typed, for messages */
    struct strbuf line;
    sb_init(&line);
    const char *base = strrchr(argv[0], '/');
    sb_add(&line, base ? base + 1 : argv[0]);
    for (char **a = argv + 1; *a; a++)
        sb_addf(&line, " %s", *a);
    char *why = cmd_failure(&res, &cmd);
    bool ok = why == NULL;
    /* A tool that timed out may have printed some values already (lmbench
     * prints as it goes): they count, the rest fail with the timeout. */
    if (why && !res.timed_out) {
        for (size_t i = 0; i < nexp; i++) {
            ssize_t m = metric_index(st->k, exp[i]->id);
            if (m >= 0)
                fail_metric(st, (size_t)m, "%s: %s", line.buf, why);
        }
        ok = false;
    } else {
        enum recipe_stream s = recipe_stream(b);
        const char *text = s == RECIPE_STDOUT ? res.out : s == RECIPE_STDERR ? res.err : res.all;
        struct collect c = { 0 };
        char *error = NULL;
        int n = recipe_parse(b, inv, env, text, collect_cb, &c, &error);
        if (n < 0) {
            for (size_t i = 0; i < nexp; i++) {
                ssize_t m = metric_index(st->k, exp[i]->id);
                if (m >= 0)
                    fail_metric(st, (size_t)m, "%s: %s", line.buf, error);
            }
            ok = false;
        } else {
            /* the CPU load of a run that gave its values (or that gives
             * nothing else) */
            if (load_id && !why && (c.n || nexp == 1)) {
                double pct = scope == CPULOAD_PROCESS
                                 ? cpuload_process_percent(res.cpu_seconds, res.seconds)
                                 : have_load ? cpuload_system_percent(&l0, &l1) : NAN;
                struct recipe_match lm = { load_id, "%", pct, NULL, 0 };
                if (!isfinite(pct))
                    lm.invalid = scope == CPULOAD_PROCESS
                                     ? "no CPU time was measured"
                                     : "the CPU load is unknown: /proc/stat unreadable or "
                                       "no time counted";
                collect_cb(&c, &lm);
            }
            size_t valid = 0;
            for (size_t i = 0; i < c.n; i++) {
                ssize_t m = metric_index(st->k, c.ids[i]);
                if (m < 0 || st->failed[m])
                    continue;
                if (c.invalid[i]) {
                    fail_metric(st, (size_t)m, "%s: %s", line.buf, c.invalid[i]);
                    continue;
                }
                report_sample(st->r, c.ids[i], c.m[i].value);
                st->samples[m]++;
                st->total_samples++;
                valid++;
            }
            char *excerpt = NULL;
            for (size_t i = 0; i < nexp; i++) {
                if (why_not[i])
                    continue;
                bool seen = false;
                for (size_t j = 0; j < c.n && !seen; j++)
                    seen = strcmp(c.ids[j], exp[i]->id) == 0;
                ssize_t m = metric_index(st->k, exp[i]->id);
                if (seen || m < 0)
                    continue;
                if (why) {
                    if (valid)
                        fail_metric(st, (size_t)m, "%s: %s (partial output: %zu of %zu values)",
                                    line.buf, why, valid, nexp);
                    else
                        fail_metric(st, (size_t)m, "%s: %s", line.buf, why);
                } else if (!c.n) {
                    if (!excerpt)
                        excerpt = head_excerpt(text);
                    fail_metric(st, (size_t)m, "%s: the output does not match the recipe: %s",
                                line.buf, excerpt);
                } else {
                    if (!excerpt)
                        excerpt = tail_lines(text, 2);
                    fail_metric(st, (size_t)m, "%s: not in the output (partial output: %zu of "
                                "%zu values); it ends: %s", line.buf, valid, nexp, excerpt);
                }
            }
            free(excerpt);
        }
        free(error);
        collect_free(&c);
    }
    free(why);
    free(load_id);
    sb_free(&line);
    tool_result_free(&res);
    free(cwd);
    recipe_strv_free(envv);
    recipe_strv_free(argv);
    return ok;
}

static int tk_run(const struct kernel_params *p, struct report *r)
{
    const struct kernel *k = p->self;
    const struct recipe_bench *b = k->data;
    struct tk_state st = { k, run_deadline(k, p->quick, now_seconds()), r,
                           xcalloc(k->nmetrics + 1, sizeof(bool)),
                           xcalloc(k->nmetrics + 1, sizeof(size_t)), 0 };
    char *bin = recipe_find_binary(b);
    char *why = NULL;
    if (!bin)
        why = recipe_not_found_reason(b);
    if (why) {
        for (size_t m = 0; m < k->nmetrics; m++) {
            const struct kernel *e = embedded_for(k->section, k->metrics[m].id);
            if (e)
                fail_metric(&st, m, "%s; the embedded kernel %s measures it: use --provider "
                            "kernel", why, e->name);
            else
                fail_metric(&st, m, "%s", why);
        }
        free(why);
        free(bin);
        free(st.failed);
        free(st.samples);
        return -1;
    }
    const char *blocked = recipe_unrunnable(b, NULL);
    if (blocked) {
        for (size_t m = 0; m < k->nmetrics; m++)
            fail_metric(&st, m, "not runnable: %s", blocked);
        free(bin);
        free(st.failed);
        free(st.samples);
        return -1;
    }
    report_note(r, "%s: running %s", recipe_tool(b), bin);

    /* Orphans of the tool (daemons, children of a killed tool) become our
     * children, so they can be found, killed and reaped. */
    int was_subreaper = 0;
    prctl(PR_GET_CHILD_SUBREAPER, &was_subreaper);
    prctl(PR_SET_CHILD_SUBREAPER, 1);

    char *bindir = xstrdup(bin);
    *strrchr(bindir, '/') = '\0';
    char *tmpdir = make_tmpdir(k->name);
    struct recipe_env env = { .quick = p->quick, .tmpdir = tmpdir, .bindir = bindir,
                              .binary = bin };
    if (!tmpdir) {
        why = xasprintf("cannot create a temporary directory: %s", strerror(errno));
    }
    char *scratch = tmpdir ? recipe_scratch(b, &env) : NULL;
    int guard_fd = -1;
    pid_t guard = -1;
    if (scratch) {
        remove_scratch(scratch);    /* left by a run whose guard could not work */
        guard = scratch_guard(scratch, &guard_fd);
    }
    if (why) {
        /* reported below */
    } else if (recipe_prepare_tmpdir(b, &env, &why)) {
        char *step = run_step(b, &env, "setup", invocation_timeout(b, p->quick, st.deadline));
        if (step)
            why = xasprintf("the server step (setup) failed: %s", step);
        free(step);
    }
    if (why) {
        for (size_t m = 0; m < k->nmetrics; m++)
            fail_metric(&st, m, "%s", why);
        free(why);
        why = NULL;
    } else {
        size_t ninv = recipe_invocation_count(b);
        int runs = recipe_runs(b, p->quick);
        double total = (double)ninv * runs, done = 0;
        report_progress(r, 0, total);
        for (size_t inv = 0; inv < ninv; inv++) {
            const struct recipe_metric **exp;
            const char **why_not;
            size_t nexp = recipe_expected(b, inv, &env, &exp, &why_not);
            bool any = false;
            char *need = NULL;
            recipe_check_needs(b, inv, &need);
            for (size_t i = 0; i < nexp; i++) {
                ssize_t m = metric_index(k, exp[i]->id);
                if ((need || why_not[i]) && m >= 0)
                    fail_metric(&st, (size_t)m, "%s", need ? need : why_not[i]);
                any |= m >= 0 && !st.failed[m];
            }
            free(need);
            if (any && now_seconds() > st.deadline - 0.2) {
                for (size_t i = 0; i < nexp; i++) {
                    ssize_t m = metric_index(k, exp[i]->id);
                    if (m >= 0)
                        fail_metric(&st, (size_t)m, "not run: the benchmark's time limit was "
                                    "reached");
                }
                any = false;
            }
            for (int run = 0; run < runs && any; run++) {
                if (!run_invocation(&st, b, inv, &env, exp, why_not, nexp))
                    break;
                report_progress(r, ++done, total);
            }
            done = (double)(inv + 1) * runs;
            report_progress(r, done, total);
            free(exp);
            free(why_not);
        }
    }
    if (tmpdir && recipe_has_server(b)) {
        double tmo = invocation_timeout(b, p->quick, st.deadline);
        char *t = run_step(b, &env, "teardown", tmo < 1 ? 1 : tmo);
        if (t)
            report_note(r, "%s: stopping the server failed: %s", k->name, t);
        free(t);
    }
    if (scratch) {
        remove_scratch(scratch);
        if (guard_fd >= 0)
            close(guard_fd);
        if (guard > 0)
            waitpid(guard, NULL, 0);
        free(scratch);
    }
    toolkernel_reap_all();
    if (!was_subreaper)
        prctl(PR_SET_CHILD_SUBREAPER, 0);
    if (tmpdir) {
        rm_tree(tmpdir);
        free(tmpdir);
    }
    int rc = st.total_samples ? 0 : -1;
    free(bindir);
    free(bin);
    free(st.failed);
    free(st.samples);
    return rc;
}
