/* toolkernel.c - runs external tools from their recipes, as kernels. */
#include "config.h"
#include "recipe/toolkernel.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/cpuload.h"
#include "common/util.h"
#include "run/spawn.h"
#include "run/workdir.h"

size_t toolkernel_descendants(pid_t root, pid_t *out, size_t max)
{
    return spawn_descendants(root, out, max);
}

/* --- kernels ---------------------------------------------------------- */

struct tk {
    struct kernel k;
    struct kernel_metric *metrics;
    char *description;
    const struct kernel *const *embedded;   /* toolkernel_build's */
    size_t nembedded;
};

static int tk_run(const struct kernel_params *p, struct report *r);

size_t toolkernel_build(const struct recipe_set *set, const struct kernel *const *embedded,
                        size_t nembedded, const struct kernel ***out, size_t *n)
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
        t->embedded = embedded;
        t->nembedded = nembedded;
        t->k = (struct kernel){
            .name = recipe_name(b),
            .section = recipe_section(b),
            .sdk = recipe_sdk(b),
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
    bool *settled;              /* per metric: failed, or not wanted
                                 * (kernel_params.only): no more samples,
                                 * no failure, no invocation for it */
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
    if (st->settled[m])
        return;
    st->settled[m] = true;
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

/* An embedded kernel that measures metric `metric` of tool kernel tool's
 * section, for "not found". */
static const struct kernel *embedded_for(const struct kernel *tool, const char *metric)
{
    const struct tk *t = (const struct tk *)tool;    /* k is the first member */
    const char *section = tool->section;
    for (size_t i = 0; i < t->nembedded; i++) {
        const struct kernel *k = t->embedded[i];
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

/* How a finished command ended, in a few words: "exit status 0",
 * "killed by signal 11 (Segmentation fault)", "timed out after 20 s", ... */
static char *cmd_status(const struct spawn_result *res, const struct spawn_cmd *cmd)
{
    if (res->exec_error)
        return xstrdup(res->exec_error);
    if (res->timed_out)
        return xasprintf("timed out after %g s", cmd->timeout_s);
    if (res->overflow)
        return xasprintf("output over %zu KiB: the tool was stopped",
                         cmd->max_output / 1024);
    if (WIFSIGNALED(res->wstatus)) {
        int sig = WTERMSIG(res->wstatus);
        return xasprintf("killed by signal %d (%s)", sig, strsignal(sig));
    }
    return xasprintf("exit status %d", WIFEXITED(res->wstatus) ? WEXITSTATUS(res->wstatus) : -1);
}

/* Why a finished command failed, or NULL when it ran to a zero exit: how
 * it ended, and for an exit status or a signal the end of its output. */
static char *cmd_failure(const struct spawn_result *res, const struct spawn_cmd *cmd)
{
    bool ended_badly = WIFSIGNALED(res->wstatus) ||
                       (WIFEXITED(res->wstatus) && WEXITSTATUS(res->wstatus) != 0);
    if (res->exec_error || res->timed_out || res->overflow)
        return cmd_status(res, cmd);
    if (!ended_badly)
        return NULL;
    char *status = cmd_status(res, cmd);
    char *tail = tail_lines(res->all, 3);
    char *m = xasprintf("%s; output ends: %s", status, tail);
    free(tail);
    free(status);
    return m;
}

/* The tool's own error, when one of the recipe's error patterns matches
 * anything it printed (both streams, whatever its exit), and then how it
 * ended: "REASON (\"LINE\") (exit status 1)". NULL when none matches. */
static char *tool_error(const struct recipe_bench *b, const struct spawn_result *res,
                        const struct spawn_cmd *cmd)
{
    struct diag d;
    diag_init(&d);
    char *why = NULL;
    if (!res->exec_error && recipe_tool_error(b, res->all, &d)) {
        char *status = cmd_status(res, cmd);
        why = xasprintf("%s (%s)", diag_last(&d), status);
        free(status);
    }
    diag_free(&d);
    return why;
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
    struct spawn_cmd cmd = { argv, envv, cwd ? cwd : env->tmpdir, timeout, TOOLKERNEL_OUTPUT_MAX,
                             !recipe_pinned(b) };
    struct spawn_result res;
    spawn_run(&cmd, &res);
    char *why = cmd_failure(&res, &cmd);
    spawn_result_free(&res);
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

/* fail_metric() with `reason` for every expected metric the kernel has. */
static void fail_expected(struct tk_state *st, const struct recipe_metric **exp, size_t nexp,
                          const char *reason)
{
    for (size_t i = 0; i < nexp; i++) {
        ssize_t m = metric_index(st->k, exp[i]->id);
        if (m >= 0)
            fail_metric(st, (size_t)m, "%s", reason);
    }
}

/* The command as typed (without the binary's directory), for messages. */
static char *command_line(char *const *argv)
{
    struct strbuf line;
    sb_init(&line);
    const char *base = strrchr(argv[0], '/');
    sb_add(&line, base ? base + 1 : argv[0]);
    for (char *const *a = argv + 1; *a; a++)
        sb_addf(&line, " %s", *a);
    return sb_steal(&line);
}

/* The CPU load of one invocation, when the recipe asks for it. */
struct load_probe {
    char *id;                   /* the metric that gets it; NULL: none */
    enum cpuload_scope scope;
    struct cpuload_sample l0, l1;
    bool have;                  /* both system samples were read */
};

static void load_begin(struct load_probe *lp, const struct recipe_bench *b, size_t inv,
                       const struct recipe_env *env)
{
    memset(lp, 0, sizeof *lp);
    lp->scope = CPULOAD_SYSTEM;
    lp->id = recipe_cpu_load_metric(b, inv, env, &lp->scope);
    lp->have = lp->id && lp->scope == CPULOAD_SYSTEM && cpuload_read(NULL, &lp->l0, NULL);
}

static void load_end(struct load_probe *lp)
{
    if (lp->have)
        lp->have = cpuload_read(NULL, &lp->l1, NULL);
}

/* Adds the load as one more match (or its reason for having none). */
static void load_add(const struct load_probe *lp, const struct spawn_result *res,
                     struct collect *c)
{
    double pct = lp->scope == CPULOAD_PROCESS
                     ? cpuload_process_percent(res->cpu_seconds, res->seconds)
                     : lp->have ? cpuload_system_percent(&lp->l0, &lp->l1) : NAN;
    struct recipe_match lm = { lp->id, "%", pct, NULL, 0 };
    if (!isfinite(pct))
        lm.invalid = lp->scope == CPULOAD_PROCESS
                         ? "no CPU time was measured"
                         : "the CPU load is unknown: /proc/stat unreadable or no time counted";
    collect_cb(c, &lm);
}

/* One run of an invocation: what it was expected to give and what it did. */
struct inv_out {
    struct tk_state *st;
    const struct recipe_metric **exp;
    const char **why_not;       /* per expected metric: why it is not measured */
    size_t nexp;
    const char *line;           /* the command as typed */
    const char *why;            /* why the command failed; NULL: it did not */
    const char *text;           /* the output the recipe reads */
};

/* Reports the valid values found; returns how many. */
static size_t report_values(const struct inv_out *o, const struct collect *c)
{
    struct tk_state *st = o->st;
    size_t valid = 0;
    for (size_t i = 0; i < c->n; i++) {
        ssize_t m = metric_index(st->k, c->ids[i]);
        if (m < 0 || st->settled[m])
            continue;
        if (c->invalid[i]) {
            fail_metric(st, (size_t)m, "%s: %s", o->line, c->invalid[i]);
            continue;
        }
        report_sample(st->r, c->ids[i], c->m[i].value);
        st->samples[m]++;
        st->total_samples++;
        valid++;
    }
    return valid;
}

/* Fails each expected metric the output did not give, with the reason. */
static void fail_missing(const struct inv_out *o, const struct collect *c, size_t valid)
{
    char *excerpt = NULL;
    for (size_t i = 0; i < o->nexp; i++) {
        if (o->why_not[i])
            continue;
        bool seen = false;
        for (size_t j = 0; j < c->n && !seen; j++)
            seen = strcmp(c->ids[j], o->exp[i]->id) == 0;
        ssize_t m = metric_index(o->st->k, o->exp[i]->id);
        if (seen || m < 0)
            continue;
        if (o->why && valid) {
            fail_metric(o->st, (size_t)m, "%s: %s (partial output: %zu of %zu values)",
                        o->line, o->why, valid, o->nexp);
        } else if (o->why) {
            fail_metric(o->st, (size_t)m, "%s: %s", o->line, o->why);
        } else if (!c->n) {
            if (!excerpt)
                excerpt = head_excerpt(o->text);
            fail_metric(o->st, (size_t)m, "%s: the output does not match the recipe: %s",
                        o->line, excerpt);
        } else {
            if (!excerpt)
                excerpt = tail_lines(o->text, 2);
            fail_metric(o->st, (size_t)m, "%s: not in the output (partial output: %zu of "
                        "%zu values); it ends: %s", o->line, valid, o->nexp, excerpt);
        }
    }
    free(excerpt);
}

/* Parses the output and reports what it holds; false when it could not
 * be parsed at all. */
static bool read_output(const struct inv_out *o, const struct recipe_bench *b, size_t inv,
                        const struct recipe_env *env, const struct spawn_result *res,
                        const struct load_probe *lp)
{
    struct collect c = { 0 };
    struct diag d;
    diag_init(&d);
    bool parsed = recipe_parse(b, inv, env, o->text, collect_cb, &c, &d) >= 0;
    if (!parsed) {
        char *t = xasprintf("%s: %s", o->line, diag_last(&d));
        fail_expected(o->st, o->exp, o->nexp, t);
        free(t);
    } else {
        /* the CPU load of a run that gave its values (or that gives
         * nothing else) */
        if (lp->id && !o->why && (c.n || o->nexp == 1))
            load_add(lp, res, &c);
        fail_missing(o, &c, report_values(o, &c));
    }
    diag_free(&d);
    collect_free(&c);
    return parsed;
}

static const char *output_text(const struct recipe_bench *b, const struct spawn_result *res)
{
    enum recipe_stream s = recipe_stream(b);
    return s == RECIPE_STDOUT ? res->out : s == RECIPE_STDERR ? res->err : res->all;
}

/* Runs invocation `inv` once and reports what it gave. Returns false when
 * the invocation itself failed (no point repeating it). */
static bool run_invocation(struct tk_state *st, const struct recipe_bench *b, size_t inv,
                           const struct recipe_env *env, const struct recipe_metric **exp,
                           const char **why_not, size_t nexp)
{
    char **argv = recipe_argv(b, inv, env, NULL);
    char **envv = recipe_envv(b, inv, env);
    char *cwd = recipe_cwd(b, inv, env);
    struct spawn_cmd cmd = { argv, envv, cwd ? cwd : env->tmpdir,
                             invocation_timeout(b, env->quick, st->deadline),
                             TOOLKERNEL_OUTPUT_MAX, !recipe_pinned(b) };
    struct load_probe lp;
    load_begin(&lp, b, inv, env);
    struct spawn_result res;
    spawn_run(&cmd, &res);
    load_end(&lp);
    char *line = command_line(argv);
    char *own = tool_error(b, &res, &cmd);
    char *why = cmd_failure(&res, &cmd);
    struct inv_out o = { st, exp, why_not, nexp, line, why, output_text(b, &res) };
    bool ok;
    /* A tool that timed out may have printed some values already (lmbench
     * prints as it goes): they count, the rest fail with the timeout. A
     * tool that said it failed gives no value, whatever its exit. */
    if (own) {
        char *t = xasprintf("%s: %s", line, own);
        fail_expected(st, exp, nexp, t);
        free(t);
        ok = false;
    } else if (why && !res.timed_out) {
        char *t = xasprintf("%s: %s", line, why);
        fail_expected(st, exp, nexp, t);
        free(t);
        ok = false;
    } else {
        ok = read_output(&o, b, inv, env, &res, &lp) && !why;
    }
    free(own);
    free(why);
    free(line);
    free(lp.id);
    spawn_result_free(&res);
    free(cwd);
    recipe_strv_free(envv);
    recipe_strv_free(argv);
    return ok;
}

/* Fails the expected metrics that cannot be measured (a need not met, a
 * value not measured by this invocation, no time left); returns whether
 * any is left to run for. */
static bool invocation_wanted(struct tk_state *st, const struct recipe_bench *b, size_t inv,
                              const struct recipe_metric **exp, const char **why_not,
                              size_t nexp)
{
    bool any = false;
    struct diag d;
    diag_init(&d);
    const char *need = recipe_check_needs(b, inv, &d) ? NULL : diag_last(&d);
    for (size_t i = 0; i < nexp; i++) {
        ssize_t m = metric_index(st->k, exp[i]->id);
        if ((need || why_not[i]) && m >= 0)
            fail_metric(st, (size_t)m, "%s", need ? need : why_not[i]);
        any |= m >= 0 && !st->settled[m];
    }
    diag_free(&d);
    if (any && now_seconds() > st->deadline - 0.2) {
        fail_expected(st, exp, nexp, "not run: the benchmark's time limit was reached");
        any = false;
    }
    return any;
}

/* Every invocation, `runs` times each, with the progress. */
static void run_invocations(struct tk_state *st, const struct recipe_bench *b,
                            const struct recipe_env *env)
{
    size_t ninv = recipe_invocation_count(b);
    int runs = recipe_runs(b, env->quick);
    double total = (double)ninv * runs, done = 0;
    report_progress(st->r, 0, total);
    for (size_t inv = 0; inv < ninv; inv++) {
        const struct recipe_metric **exp;
        const char **why_not;
        size_t nexp = recipe_expected(b, inv, env, &exp, &why_not);
        bool any = invocation_wanted(st, b, inv, exp, why_not, nexp);
        for (int run = 0; run < runs && any; run++) {
            if (!run_invocation(st, b, inv, env, exp, why_not, nexp))
                break;
            report_progress(st->r, ++done, total);
        }
        done = (double)(inv + 1) * runs;
        report_progress(st->r, done, total);
        free(exp);
        free(why_not);
    }
}

/* Fails every metric when the tool cannot run here (not found, or not
 * runnable); returns whether it can. */
static bool tool_runnable(struct tk_state *st, const struct recipe_bench *b, const char *bin)
{
    const struct kernel *k = st->k;
    char *why = bin ? NULL : recipe_not_found_reason(b);
    if (why) {
        for (size_t m = 0; m < k->nmetrics; m++) {
            const struct kernel *e = embedded_for(k, k->metrics[m].id);
            if (e)
                fail_metric(st, m, "%s; the embedded kernel %s measures it: use --provider "
                            "kernel", why, e->name);
            else
                fail_metric(st, m, "%s", why);
        }
        free(why);
        return false;
    }
    const char *blocked = recipe_unrunnable(b, NULL);
    for (size_t m = 0; blocked && m < k->nmetrics; m++)
        fail_metric(st, m, "not runnable: %s", blocked);
    return !blocked;
}

/* The scratch file of a recipe (fio's test file) and its guard process. */
struct scratch {
    char *path;                 /* NULL: the recipe has none */
    int guard_fd;
    pid_t guard;
};

static void scratch_begin(struct scratch *sc, const struct recipe_bench *b,
                          const struct recipe_env *env)
{
    sc->path = env->tmpdir ? recipe_scratch(b, env) : NULL;
    sc->guard_fd = -1;
    sc->guard = -1;
    if (sc->path) {
        remove_scratch(sc->path);   /* left by a run whose guard could not work */
        sc->guard = scratch_guard(sc->path, &sc->guard_fd);
    }
}

static void scratch_end(struct scratch *sc)
{
    if (!sc->path)
        return;
    remove_scratch(sc->path);
    if (sc->guard_fd >= 0)
        close(sc->guard_fd);
    if (sc->guard > 0)
        waitpid(sc->guard, NULL, 0);
    free(sc->path);
}

/* The files the recipe wants in the temporary directory, then the server's
 * setup step; the reason on failure (caller frees), else NULL. */
static char *setup(const struct tk_state *st, const struct recipe_bench *b,
                   const struct recipe_env *env)
{
    char *why = NULL;
    struct diag d;
    diag_init(&d);
    if (!recipe_prepare_tmpdir(b, env, &d)) {
        why = xstrdup(diag_last(&d));
    } else {
        char *step = run_step(b, env, "setup", invocation_timeout(b, env->quick, st->deadline));
        if (step)
            why = xasprintf("the server step (setup) failed: %s", step);
        free(step);
    }
    diag_free(&d);
    return why;
}

static void teardown(const struct tk_state *st, const struct recipe_bench *b,
                     const struct recipe_env *env)
{
    double tmo = invocation_timeout(b, env->quick, st->deadline);
    char *t = run_step(b, env, "teardown", tmo < 1 ? 1 : tmo);
    if (t)
        report_note(st->r, "%s: stopping the server failed: %s", st->k->name, t);
    free(t);
}

/* With the tool found: a temporary directory, setup, every invocation,
 * teardown, then nothing left behind. */
static void run_tool(struct tk_state *st, const struct recipe_bench *b, char *bin, bool quick)
{
    report_note(st->r, "%s: running %s", recipe_tool(b), bin);
    bool was_subreaper = spawn_subreaper_begin();
    char *bindir = xstrdup(bin);
    *strrchr(bindir, '/') = '\0';
    char *tmpdir = workdir_create(st->k->name);
    char *why = tmpdir ? NULL : xasprintf("cannot create a temporary directory: %s",
                                          strerror(errno));
    struct recipe_env env = { .quick = quick, .tmpdir = tmpdir, .bindir = bindir,
                              .binary = bin };
    struct scratch sc;
    scratch_begin(&sc, b, &env);
    if (!why)
        why = setup(st, b, &env);
    if (why) {
        for (size_t m = 0; m < st->k->nmetrics; m++)
            fail_metric(st, m, "%s", why);
        free(why);
    } else {
        run_invocations(st, b, &env);
    }
    if (tmpdir && recipe_has_server(b))
        teardown(st, b, &env);
    scratch_end(&sc);
    spawn_reap_all();
    spawn_subreaper_end(was_subreaper);
    workdir_remove(tmpdir);
    free(tmpdir);
    free(bindir);
}

static int tk_run(const struct kernel_params *p, struct report *r)
{
    const struct kernel *k = p->self;
    const struct recipe_bench *b = k->data;
    struct tk_state st = { k, run_deadline(k, p->quick, now_seconds()), r,
                           xcalloc(k->nmetrics + 1, sizeof(bool)),
                           xcalloc(k->nmetrics + 1, sizeof(size_t)), 0 };
    for (size_t m = 0; m < k->nmetrics; m++)
        st.settled[m] = !kernel_wants(p, k->metrics[m].id);
    char *bin = recipe_find_binary(b);
    if (tool_runnable(&st, b, bin))
        run_tool(&st, b, bin, p->quick);
    int rc = st.total_samples ? 0 : -1;
    free(bin);
    free(st.settled);
    free(st.samples);
    return rc;
}
