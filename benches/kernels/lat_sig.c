/* lat_sig.c - lmbench's lat_sig: signal handler costs.
 *
 *   lat_sig-install  sigaction() of a handler       "Signal handler installation"
 *   lat_sig-catch    kill(self, SIGUSR1) caught by an empty handler, less
 *                    the cost of sending: kill(self, 0)   "Signal handler overhead"
 *   lat_sig-prot     a write to a read-only page caught as SIGSEGV, less
 *                    the catch cost above                 "Protection fault"
 *
 * The guide also prints install and catch as signal_handler_latency and
 * signal_handler_overhead (microsec); they are reported from the same
 * samples. As in lmbench, the subtracted cost is the median of its own
 * measurement. catch and prot are therefore a difference of two medians,
 * reported once (lat_sig_report_difference): an interval less the other
 * median is no latency, and was below zero where the fault or the catch
 * costs little beside its overhead; a difference that is not above zero
 * fails with both figures. The handler of the protection fault returns, so the
 * faulting store runs again: n faults per interval. To end an interval the
 * handler makes the page writable at the n-th fault (one mprotect() per
 * interval). lmbench maps a file MAP_SHARED read-only; this maps an
 * anonymous page read-only, which takes the same kernel path (the access
 * check fails before any page is looked up). Summary: median.
 *
 * Under a selection (kernel_params.only) install runs only when asked
 * for; catch runs when catch or prot is asked for (prot subtracts it) and
 * is reported only when asked for; prot runs only when asked for. */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "kernel/kernel.h"
#include "benches/kernels/kernel_util.h"
#include "benches/kernels/lat_sig.h"
#include "common/util.h"

enum { SIG_INSTALL, SIG_CATCH, SIG_PROT, SIG_INSTALL_ALIAS, SIG_CATCH_ALIAS, SIG_COUNT };

static const struct kernel_metric sig_metrics[SIG_COUNT] = {
    [SIG_INSTALL]       = { .id = "lat_sig-install", .unit = "us", .summary = SUMMARY_MEDIAN },
    [SIG_CATCH]         = { .id = "lat_sig-catch", .unit = "us", .summary = SUMMARY_MEDIAN },
    [SIG_PROT]          = { .id = "lat_sig-prot", .unit = "us", .summary = SUMMARY_MEDIAN },
    [SIG_INSTALL_ALIAS] = { .id = "signal_handler_latency", .unit = "microsec", .summary = SUMMARY_MEDIAN },
    [SIG_CATCH_ALIAS]   = { .id = "signal_handler_overhead", .unit = "microsec", .summary = SUMMARY_MEDIAN },
};

static void sig_empty_handler(int sig)
{
    (void)sig;
}

static int do_install(void *ctx, uint64_t n, char *err, size_t len)
{
    (void)ctx;
    struct sigaction sa, old;
    while (n-- > 0) {
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = sig_empty_handler;
        sigemptyset(&sa.sa_mask);
        if (sigaction(SIGUSR1, &sa, &old) != 0) {
            snprintf(err, len, "sigaction: %s", strerror(errno));
            return -1;
        }
    }
    return 0;
}

static int do_send(void *ctx, uint64_t n, char *err, size_t len)
{
    pid_t me = *(pid_t *)ctx;
    while (n-- > 0)
        if (kill(me, 0) != 0) {
            snprintf(err, len, "kill: %s", strerror(errno));
            return -1;
        }
    return 0;
}

/* The SIGUSR1 handler is installed by the caller. */
static int do_catch(void *ctx, uint64_t n, char *err, size_t len)
{
    pid_t me = *(pid_t *)ctx;
    while (n-- > 0)
        if (kill(me, SIGUSR1) != 0) {
            snprintf(err, len, "kill: %s", strerror(errno));
            return -1;
        }
    return 0;
}

/* Protection faults: the handler counts them and lets the store succeed
 * at the n-th. */
static volatile char *prot_page;
static size_t prot_pagesize;
static volatile sig_atomic_t prot_caught, prot_target;

static void prot_handler(int sig, siginfo_t *si, void *uc)
{
    (void)uc;
    char *addr = si->si_addr;
    if (addr < (char *)prot_page || addr >= (char *)prot_page + prot_pagesize) {
        signal(sig, SIG_DFL);   /* a real fault: crash as usual */
        return;
    }
    if (++prot_caught >= prot_target)
        mprotect((void *)prot_page, prot_pagesize, PROT_READ | PROT_WRITE);
}

static int do_prot(void *ctx, uint64_t n, char *err, size_t len)
{
    (void)ctx;
    if (mprotect((void *)prot_page, prot_pagesize, PROT_READ) != 0) {
        snprintf(err, len, "mprotect: %s", strerror(errno));
        return -1;
    }
    prot_caught = 0;
    prot_target = (sig_atomic_t)(n > 0x40000000 ? 0x40000000 : n);
    *prot_page = 1;             /* faults n times */
    kb_use((uintptr_t)prot_caught);
    return 0;
}

/* The difference is taken once, of the medians: an interval less the
 * overhead's median is no latency of its own (an interval may be faster
 * than that median, by noise or because the load changed between the two
 * measurements), so the intervals are not reported one by one. */
int lat_sig_report_difference(struct report *r, const char *id, const char *alias,
                              const struct kb_result *raw, double overhead_us)
{
    struct kb_interval m = kb_median(raw);
    const char *ids[] = { id, alias };
    return kb_report_net(r, ids, 2, "us", kb_per_op(&m) * 1e6, overhead_us);
}

/* Measures fn: *med_us gets the median per operation; with `id`, the
 * metric is reported as that less minus_us (lat_sig_report_difference). */
static int sig_measure(struct report *r, const char *id, const char *alias, kb_fn fn,
                       void *ctx, const struct kb_opts *o, double minus_us, double *med_us)
{
    struct kb_result res;
    char err[256] = "";
    if (kb_measure(fn, ctx, o, &res, err, sizeof err) < 0) {
        const char *ids[] = { id, alias };
        kb_fail_ids(r, ids, 2, "%s", err);
        return -1;
    }
    struct kb_interval m = kb_median(&res);
    *med_us = kb_per_op(&m) * 1e6;
    int rc = id ? lat_sig_report_difference(r, id, alias, &res, minus_us) : 0;
    kb_result_free(&res);
    return rc;
}

/* Metric i's id when p asks for it, else NULL. */
static const char *sig_id(const struct kernel_params *p, int i)
{
    return kernel_wants(p, sig_metrics[i].id) ? sig_metrics[i].id : NULL;
}

/* Fails the n metrics of idx that p asks for. */
static void sig_fail(const struct kernel_params *p, struct report *r, const int *idx, size_t n,
                     const char *fmt, const char *arg)
{
    const char *ids[SIG_COUNT];
    for (size_t i = 0; i < n; i++)
        ids[i] = sig_id(p, idx[i]);
    kb_fail_ids(r, ids, n, fmt, arg);
}

/* The catch cost: measured when catch (or its alias) or prot is asked
 * for, as prot subtracts it; reported only when asked for. *catch_us gets
 * it; false when it could not be had. */
static bool sig_catch(const struct kernel_params *p, struct report *r, const struct kb_opts *o,
                      double *catch_us, int *ok)
{
    static const int all[] = { SIG_CATCH, SIG_CATCH_ALIAS, SIG_PROT };
    pid_t me = getpid();
    double send_us = 0, med;
    struct sigaction old_usr1, sa;
    if (sigaction(SIGUSR1, NULL, &old_usr1) != 0) {
        sig_fail(p, r, all, 3, "sigaction: %s", strerror(errno));
        return false;
    }
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = sig_empty_handler;
    sigemptyset(&sa.sa_mask);
    bool have_send = sig_measure(r, NULL, NULL, do_send, &me, o, 0, &send_us) == 0;
    report_progress(r, 2, 4);
    if (!have_send) {
        sig_fail(p, r, all, 3, "%s", "cannot time kill(self, 0), the cost to subtract");
        return false;
    }
    if (sigaction(SIGUSR1, &sa, NULL) != 0) {
        sig_fail(p, r, all, 3, "sigaction(SIGUSR1): %s", strerror(errno));
        return false;
    }
    /* reported under the ids asked for: the alias alone takes the id's place */
    const char *id = sig_id(p, SIG_CATCH), *alias = sig_id(p, SIG_CATCH_ALIAS);
    if (!id) {
        id = alias;
        alias = NULL;
    }
    bool have_catch = false;
    if (sig_measure(r, id, alias, do_catch, &me, o, send_us, &med) == 0) {
        *catch_us = med - send_us;
        have_catch = !id ? *catch_us > 0 : true;
        *ok += id != NULL;
    }
    if (!have_catch && kernel_wants(p, sig_metrics[SIG_PROT].id))
        report_fail(r, sig_metrics[SIG_PROT].id, "no catch cost to subtract (see %s)",
                    sig_metrics[SIG_CATCH].id);
    sigaction(SIGUSR1, &old_usr1, NULL);
    return have_catch;
}

/* The protection fault, less catch_us. */
static void sig_prot(struct report *r, const struct kb_opts *o, double catch_us, int *ok)
{
    struct sigaction old_segv;
    if (sigaction(SIGSEGV, NULL, &old_segv) != 0) {
        report_fail(r, sig_metrics[SIG_PROT].id, "sigaction: %s", strerror(errno));
        return;
    }
    long ps = sysconf(_SC_PAGESIZE);
    prot_pagesize = ps > 0 ? (size_t)ps : 4096;
    void *pg = mmap(NULL, prot_pagesize, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    struct sigaction ps_sa;
    memset(&ps_sa, 0, sizeof ps_sa);
    ps_sa.sa_sigaction = prot_handler;
    ps_sa.sa_flags = SA_SIGINFO;
    sigemptyset(&ps_sa.sa_mask);
    double med;
    if (pg == MAP_FAILED) {
        report_fail(r, sig_metrics[SIG_PROT].id, "mmap of one page: %s", strerror(errno));
    } else if (sigaction(SIGSEGV, &ps_sa, NULL) != 0) {
        report_fail(r, sig_metrics[SIG_PROT].id, "sigaction(SIGSEGV): %s", strerror(errno));
        munmap(pg, prot_pagesize);
    } else {
        prot_page = pg;
        if (sig_measure(r, sig_metrics[SIG_PROT].id, NULL, do_prot, NULL, o, catch_us,
                        &med) == 0)
            (*ok)++;
        sigaction(SIGSEGV, &old_segv, NULL);
        munmap(pg, prot_pagesize);
        prot_page = NULL;
    }
}

/* Each measurement runs only when a metric it gives is asked for
 * (kernel_wants): install alone, catch for catch or prot, prot for prot. */
static int sig_run(const struct kernel_params *p, struct report *r)
{
    struct kb_opts o;
    kb_opts_for(&o, p, KB_BUDGET_OS, 0);
    int ok = 0;
    double catch_us = 0;
    bool want_catch = kernel_wants(p, sig_metrics[SIG_CATCH].id) ||
                      kernel_wants(p, sig_metrics[SIG_CATCH_ALIAS].id);
    bool want_prot = kernel_wants(p, sig_metrics[SIG_PROT].id);

    report_progress(r, 0, 4);
    struct kb_metric_spec inst = { sig_metrics[SIG_INSTALL].id,
                                   sig_metrics[SIG_INSTALL_ALIAS].id, KB_TIME, 1e6 };
    if (kb_metric_run(r, &inst, do_install, NULL, &o, NULL) == 0)
        ok++;

    report_progress(r, 1, 4);
    bool have_catch = (want_catch || want_prot) && sig_catch(p, r, &o, &catch_us, &ok);
    report_progress(r, 3, 4);
    if (have_catch && want_prot)
        sig_prot(r, &o, catch_us, &ok);
    report_progress(r, 4, 4);
    return ok ? 0 : -1;
}

const struct kernel kernel_lat_sig = {
    .name = "lat_sig",
    .section = "lmbench",
    .description = "lmbench lat_sig: signal handler installation, catch overhead and "
                   "protection fault, microseconds",
    .metrics = sig_metrics,
    .nmetrics = SIG_COUNT,
    .budget_quick_s = 1.0,
    .budget_full_s = 1.0,
    .run = sig_run,
};
