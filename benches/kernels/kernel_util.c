/* kernel_util.c - timing harness and helpers shared by the kernels. */
#include "config.h"
#include "benches/kernels/kernel_util.h"

#include <errno.h>
#include <ftw.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/util.h"

#define KB_MAX_ITERS    (UINT64_C(1) << 27)     /* lmbench gives up beyond */
#define KB_SMALL_S      150e-6                  /* below: grow x8, do not scale */

static volatile uintptr_t kb_sink;

void kb_use(uintptr_t v)
{
    kb_sink += v;
}

double kb_per_op(const struct kb_interval *iv)
{
    return iv->n ? iv->secs / (double)iv->n : 0.0;
}

static void kb_record(struct kb_result *res, size_t *cap, const struct kb_opts *o,
                      double secs, uint64_t n)
{
    xgrow(&res->iv, cap, (size_t)res->count + 1, sizeof *res->iv);
    res->iv[res->count].secs = secs;
    res->iv[res->count].n = n;
    if (o->on_interval)
        o->on_interval(o->cb_ctx, &res->iv[res->count]);
    res->count++;
}

/* One batch with its untimed set-up and clean-up; *secs = the timed part. */
static int kb_batch(kb_fn fn, void *ctx, const struct kb_opts *o, uint64_t iters,
                    char *err, size_t errlen, double *secs)
{
    if (o->before && o->before(ctx, iters, err, errlen) < 0)
        return -1;
    double t0 = now_seconds();
    int rc = fn(ctx, iters, err, errlen);
    double t1 = now_seconds();
    char scratch[64];       /* keeps the first error when fn failed */
    if (o->after && o->after(ctx, iters, rc < 0 ? scratch : err,
                             rc < 0 ? sizeof scratch : errlen) < 0)
        rc = -1;
    if (secs)
        *secs = t1 - t0;
    return rc;
}

int kb_measure(kb_fn fn, void *ctx, const struct kb_opts *o, struct kb_result *res,
               char *err, size_t errlen)
{
    double enough = o->enough_s > 0 ? o->enough_s : KB_ENOUGH_S;
    int reps = o->reps > 0 ? o->reps : KB_TRIES;
    size_t cap = 0;
    uint64_t iters = 1;

    memset(res, 0, sizeof *res);
    double start = now_seconds();
    /* lmbench's warm-up: single iterations before the timed intervals. */
    if (kb_batch(fn, ctx, o, 1, err, errlen, NULL) < 0)
        return -1;
    for (;;) {
        double secs;
        if (kb_batch(fn, ctx, o, iters, err, errlen, &secs) < 0) {
            kb_result_free(res);
            return -1;
        }
        double t1 = now_seconds();
        bool over = o->limit_s > 0 && t1 - start > o->limit_s;
        if (secs > 0.95 * enough || (over && res->count == 0 && secs > 0))
            kb_record(res, &cap, o, secs, iters);
        if (res->count >= reps || (over && res->count > 0))
            break;
        if (secs < 0.99 * enough || secs > 1.2 * enough) {
            if (secs > KB_SMALL_S) {
                double next = (double)iters / secs * 1.1 * enough + 1.0;
                iters = next > (double)KB_MAX_ITERS ? KB_MAX_ITERS : (uint64_t)next;
            } else if ((iters <<= 3) > KB_MAX_ITERS) {
                if (res->count == 0 && secs > 0)
                    kb_record(res, &cap, o, secs, iters >> 3);
                if (res->count == 0) {
                    snprintf(err, errlen, "too fast to time: %llu iterations "
                             "took no measurable time", (unsigned long long)(iters >> 3));
                    return -1;
                }
                break;
            }
        }
    }
    res->elapsed_s = now_seconds() - start;
    return 0;
}

void kb_result_free(struct kb_result *res)
{
    free(res->iv);
    res->iv = NULL;
    res->count = 0;
}

/* Biggest time per iteration first, as lmbench's insertsort(). */
static int kb_cmp_desc(const void *a, const void *b)
{
    double x = kb_per_op(a), y = kb_per_op(b);
    return (x < y) - (x > y);
}

struct kb_interval kb_median(const struct kb_result *res)
{
    struct kb_interval m = { 0, 1 };
    if (res->count <= 0)
        return m;
    struct kb_interval *s = xmalloc((size_t)res->count * sizeof *s);
    memcpy(s, res->iv, (size_t)res->count * sizeof *s);
    qsort(s, (size_t)res->count, sizeof *s, kb_cmp_desc);
    int i = res->count / 2;
    if (res->count % 2)
        m = s[i];
    else {
        m.n = (s[i].n + s[i - 1].n) / 2;
        m.secs = (s[i].secs + s[i - 1].secs) / 2;
    }
    free(s);
    return m;
}

uint64_t kb_mem_available(void)
{
    char *buf = read_file("/proc/meminfo", 1 << 16, NULL);
    if (!buf)
        return 0;
    uint64_t kb = 0;
    const char *keys[] = { "MemAvailable:", "MemFree:" };
    for (size_t k = 0; k < ARRAY_SIZE(keys) && !kb; k++) {
        const char *line = strstr(buf, keys[k]);
        if (line)
            kb = strtoull(line + strlen(keys[k]), NULL, 10);
    }
    free(buf);
    return kb * 1024;
}

size_t kb_page_size(void)
{
    long page = sysconf(_SC_PAGESIZE);
    return page > 0 ? (size_t)page : 4096;
}

double kb_mib(double bytes)
{
    return bytes / (1024.0 * 1024.0);
}

void *kb_alloc_pages(size_t bytes)
{
    size_t page = kb_page_size();
    if (bytes == 0 || bytes > SIZE_MAX - page) {
        errno = ENOMEM;
        return NULL;
    }
    void *mem = NULL;
    int err = posix_memalign(&mem, page, bytes);
    if (err) {
        errno = err;
        return NULL;
    }
    return mem;
}

void *kb_alloc_touched(size_t bytes)
{
    void *mem = kb_alloc_pages(bytes);
    if (mem)
        memset(mem, 0, bytes);
    return mem;
}

char *kb_tmpdir(const char *tag, char *err, size_t errlen)
{
    const char *base = getenv("TMPDIR");
    if (!base || !*base)
        base = "/tmp";
    char *path = xasprintf("%s/evmbench-%s-XXXXXX", base, tag);
    if (!mkdtemp(path)) {
        snprintf(err, errlen, "cannot create a temporary directory in %s: %s",
                 base, strerror(errno));
        free(path);
        return NULL;
    }
    return path;
}

static int kb_rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    remove(path);
    return 0;
}

int kb_rmtree(const char *path)
{
    if (!path)
        return 0;
    nftw(path, kb_rm_one, 16, FTW_DEPTH | FTW_PHYS);
    return access(path, F_OK) == 0 ? -1 : 0;
}

bool kb_affinity_widen(cpu_set_t *saved)
{
    CPU_ZERO(saved);
    if (sched_getaffinity(0, sizeof *saved, saved) != 0)
        return false;
    long ncpu = sysconf(_SC_NPROCESSORS_CONF);
    if (ncpu < 1)
        return false;
    cpu_set_t all;
    CPU_ZERO(&all);
    for (long c = 0; c < ncpu && c < CPU_SETSIZE; c++)
        CPU_SET((int)c, &all);
    if (CPU_EQUAL(&all, saved))
        return false;
    return sched_setaffinity(0, sizeof all, &all) == 0;
}

void kb_affinity_restore(const cpu_set_t *saved)
{
    sched_setaffinity(0, sizeof *saved, saved);
}

/* Fails ids[i], or m[i].id when ids is NULL, for i < n. */
static void kb_vfail(struct report *r, const char *const *ids, const struct kernel_metric *m,
                     size_t n, const char *fmt, va_list ap)
    __attribute__((format(printf, 5, 0)));

static void kb_vfail(struct report *r, const char *const *ids, const struct kernel_metric *m,
                     size_t n, const char *fmt, va_list ap)
{
    char msg[512];
    vsnprintf(msg, sizeof msg, fmt, ap);
    for (size_t i = 0; i < n; i++) {
        const char *id = ids ? ids[i] : m[i].id;
        if (id)
            report_fail(r, id, "%s", msg);
    }
}

void kb_fail_ids(struct report *r, const char *const *ids, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    kb_vfail(r, ids, NULL, n, fmt, ap);
    va_end(ap);
}

void kb_fail_metrics(struct report *r, const struct kernel_metric *m, size_t n,
                     const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    kb_vfail(r, NULL, m, n, fmt, ap);
    va_end(ap);
}

int kb_report_net(struct report *r, const char *const *ids, size_t n, const char *unit,
                  double gross, double overhead)
{
    double v = gross - overhead;
    if (!(v > 0) || !isfinite(v)) {
        kb_fail_ids(r, ids, n,
                    "%.4f %s with the overhead, not above the %.4f %s overhead "
                    "measured alone: the difference is noise, not a latency (lmbench "
                    "prints nothing then); run it again on a quiet board",
                    gross, unit, overhead, unit);
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        if (ids[i])
            report_sample(r, ids[i], v);
    return 0;
}

/* Interval, recorded intervals and cap of one measurement. */
struct kb_plan {
    double enough_s;
    int reps;
    double limit_s;
};

static const struct {
    struct kb_plan quick, full;
} kb_budgets[] = {
    /* lmbench's ENOUGH and TRIES; quick keeps a metric under a second,
     * full only guards against a run that never settles. */
    [KB_BUDGET_OS]  = { { KB_ENOUGH_S, KB_TRIES, 0.8 }, { KB_ENOUGH_S, KB_TRIES, 60.0 } },
    /* "At most 1 s per metric" when quick; TI's ENOUGH=50000 when full. */
    [KB_BUDGET_MEM] = { { 0.02, 5, 0.9 }, { 0.05, KB_TRIES, 10.0 } },
};

void kb_opts_for(struct kb_opts *o, const struct kernel_params *p, enum kb_budget b,
                 double full_enough_s)
{
    const struct kb_plan *pl = p->quick ? &kb_budgets[b].quick : &kb_budgets[b].full;
    memset(o, 0, sizeof *o);
    o->enough_s = pl->enough_s;
    if (!p->quick && full_enough_s > o->enough_s)
        o->enough_s = full_enough_s;
    o->reps = p->iterations > 0 ? p->iterations : pl->reps;
    o->limit_s = pl->limit_s;
    o->params = p;
}

struct kb_metric_cb {
    struct report *r;
    const char *id, *alias;     /* the wanted ones, NULL for the others */
    const struct kb_metric_spec *m;
};

static double kb_value(const struct kb_metric_spec *m, const struct kb_interval *iv)
{
    double per_op = kb_per_op(iv);
    if (m->kind == KB_RATE)
        return per_op > 0 ? m->factor / per_op : 0.0;
    return per_op * m->factor;
}

static void kb_metric_sample(void *ctx, const struct kb_interval *iv)
{
    struct kb_metric_cb *cb = ctx;
    double v = kb_value(cb->m, iv);
    if (cb->id)
        report_sample(cb->r, cb->id, v);
    if (cb->alias)
        report_sample(cb->r, cb->alias, v);
}

int kb_metric_run(struct report *r, const struct kb_metric_spec *m, kb_fn fn, void *ctx,
                  const struct kb_opts *o, double *median)
{
    struct kb_metric_cb cb = {
        r, kernel_wants(o->params, m->id) ? m->id : NULL,
        kernel_wants(o->params, m->alias) ? m->alias : NULL, m
    };
    if (!cb.id && !cb.alias)
        return 1;               /* not asked for: not measured */
    struct kb_opts opts = *o;
    struct kb_result res;
    char err[256] = "";
    opts.on_interval = kb_metric_sample;
    opts.cb_ctx = &cb;
    if (kb_measure(fn, ctx, &opts, &res, err, sizeof err) < 0) {
        const char *ids[] = { cb.id, cb.alias };
        kb_fail_ids(r, ids, ARRAY_SIZE(ids), "%s", err[0] ? err : "measurement failed");
        return -1;
    }
    struct kb_interval med = kb_median(&res);
    if (median)
        *median = kb_value(m, &med);
    kb_result_free(&res);
    return 0;
}

pid_t kb_fork(void (*fn)(void *arg), void *arg, char *err, size_t errlen)
{
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(err, errlen, "fork: %s", strerror(errno));
        return -1;
    }
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() == parent)
            fn(arg);
        _exit(0);
    }
    return pid;
}

void kb_reap(pid_t pid)
{
    if (pid <= 0)
        return;
    kill(pid, SIGKILL);
    while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
        ;
}
