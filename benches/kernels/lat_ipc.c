/* lat_ipc.c - lmbench's IPC latencies: pipe, AF_UNIX, TCP, connect,
 * select and SysV semaphores.
 *
 *   lat_pipe     1-byte round trip through two pipes to a forked echo
 *                process, microseconds per round trip  "Pipe latency"
 *   lat_unix     the same over an AF_UNIX stream socketpair
 *                                          "AF_UNIX sock stream latency"
 *   lat_tcp      the same over TCP to 127.0.0.1 (a forked server; no
 *                socket options, as lmbench) "TCP latency using localhost"
 *   lat_connect  connect() + close() to a listening server on 127.0.0.1
 *                                  "TCP/IP connection cost to localhost"
 *   lat_select   select() for writing on 200 descriptors, dups of one TCP
 *                connection to 127.0.0.1 (lat_select -n 200 tcp)
 *                                              "Select on 200 tcp fd's"
 *   lat_sem      SysV semaphore ping-pong with a forked process; half a
 *                round trip, as lmbench divides by 2 "Semaphore latency"
 *
 * The guide prints each again under an alias (pipe_latency,
 * af_unix_sock_stream_latency, tcp_latency_using_localhost,
 * tcp_ip_connection_cost_to_localhost, select_on_200_tcp_fds,
 * semaphore_latency; unit microsec): the same samples are reported under
 * both ids. Timing is kb_measure() (lmbench's benchmp) with lmbench's
 * interval per test in full mode (pipe and sem SHORT = 1 s, tcp MEDIUM =
 * 2 s, the others 5 ms) and 5 ms when quick; the summary is the median.
 * lmbench runs unpinned, so the kernel widens the worker's CPU affinity
 * to all CPUs for this run and restores it afterwards.
 *
 * Clean-up: helpers are killed and reaped after each metric (and die with
 * the worker: PR_SET_PDEATHSIG, process group). After a SIGKILL of the
 * worker, a SysV semaphore set can remain (ipcs -s); nothing else does. */
#include "config.h"

#include <errno.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/select.h>
#include <sys/sem.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "kernel/kernel.h"
#include "benches/kernels/kernel_util.h"
#include "common/util.h"

enum {
    IPC_PIPE, IPC_UNIX, IPC_TCP, IPC_CONNECT, IPC_SELECT, IPC_SEM, IPC_NTESTS,
};

static const struct kernel_metric ipc_metrics[2 * IPC_NTESTS] = {
    { .id = "lat_pipe", .unit = "us", .summary = SUMMARY_MEDIAN },
    { .id = "lat_unix", .unit = "us", .summary = SUMMARY_MEDIAN },
    { .id = "lat_tcp", .unit = "us", .summary = SUMMARY_MEDIAN },
    { .id = "lat_connect", .unit = "us", .summary = SUMMARY_MEDIAN },
    { .id = "lat_select", .unit = "us", .summary = SUMMARY_MEDIAN },
    { .id = "lat_sem", .unit = "us", .summary = SUMMARY_MEDIAN },
    { .id = "pipe_latency", .unit = "microsec", .summary = SUMMARY_MEDIAN },
    { .id = "af_unix_sock_stream_latency", .unit = "microsec", .summary = SUMMARY_MEDIAN },
    { .id = "tcp_latency_using_localhost", .unit = "microsec", .summary = SUMMARY_MEDIAN },
    { .id = "tcp_ip_connection_cost_to_localhost", .unit = "microsec", .summary = SUMMARY_MEDIAN },
    { .id = "select_on_200_tcp_fds", .unit = "microsec", .summary = SUMMARY_MEDIAN },
    { .id = "semaphore_latency", .unit = "microsec", .summary = SUMMARY_MEDIAN },
};

#define SELECT_FDS 200

struct ipc {
    pid_t pid;              /* helper process */
    int wfd, rfd;           /* parent's ends */
    int fds[4];             /* everything to close afterwards */
    int listen_fd;
    struct sockaddr_in addr;
    int semid;
    int sel_fds[SELECT_FDS];
    int sel_n, sel_max;
    fd_set sel_set;
    struct rlimit saved_nofile;
    bool nofile_raised;
};

static int ipc_err(char *err, size_t len, const char *what)
{
    snprintf(err, len, "%s: %s", what, strerror(errno));
    return -1;
}

/* ---- helpers run in the child ------------------------------------- */

struct echo_args {
    int rfd, wfd;
};

static void echo_loop(void *arg)
{
    struct echo_args *a = arg;
    char c;
    while (read(a->rfd, &c, 1) == 1)
        if (write(a->wfd, &c, 1) != 1)
            break;
}

/* TCP server: one connection; reads lmbench's message size, then echoes. */
static void tcp_echo_server(void *arg)
{
    int ls = *(int *)arg;
    int s = accept(ls, NULL, NULL);
    if (s < 0)
        return;
    char c;
    while (read(s, &c, 1) == 1)
        if (write(s, &c, 1) != 1)
            break;
}

/* lat_connect / lat_select server: accept, wait for the client to close. */
static void accept_server(void *arg)
{
    int ls = *(int *)arg;
    for (;;) {
        int s = accept(ls, NULL, NULL);
        if (s < 0) {
            if (errno == EINTR || errno == ECONNABORTED)
                continue;
            return;
        }
        char c;
        while (read(s, &c, 1) > 0)
            ;
        close(s);
    }
}

static void sem_writer(void *arg)
{
    int sid = *(int *)arg;
    struct sembuf up = { 1, 1, 0 };
    if (semop(sid, &up, 1) < 0)
        return;
    struct sembuf sop[2] = { { 0, -1, 0 }, { 1, 1, 0 } };
    while (semop(sid, sop, 2) == 0)
        ;
}

/* ---- set-up and tear-down ------------------------------------------ */

static void ipc_init(struct ipc *s)
{
    memset(s, 0, sizeof *s);
    s->pid = -1;
    s->wfd = s->rfd = s->listen_fd = -1;
    s->semid = -1;
    for (int i = 0; i < 4; i++)
        s->fds[i] = -1;
}

static void ipc_teardown(struct ipc *s)
{
    for (int i = 0; i < 4; i++)
        if (s->fds[i] >= 0)
            close(s->fds[i]);
    if (s->wfd >= 0 && s->wfd != s->rfd)
        close(s->wfd);
    if (s->rfd >= 0)
        close(s->rfd);
    for (int i = 0; i < s->sel_n; i++)
        close(s->sel_fds[i]);
    if (s->listen_fd >= 0)
        close(s->listen_fd);
    kb_reap(s->pid);
    if (s->semid >= 0)
        semctl(s->semid, 0, IPC_RMID);
    if (s->nofile_raised)
        setrlimit(RLIMIT_NOFILE, &s->saved_nofile);
    ipc_init(s);
}

/* One byte there and back, so both processes are running. */
static int ipc_prime(struct ipc *s, char *err, size_t len)
{
    char c = 0;
    if (write(s->wfd, &c, 1) != 1 || read(s->rfd, &c, 1) != 1)
        return ipc_err(err, len, "first round trip");
    return 0;
}

static int setup_pipe(struct ipc *s, char *err, size_t len)
{
    int p1[2], p2[2];
    if (pipe(p1) != 0)
        return ipc_err(err, len, "pipe");
    if (pipe(p2) != 0) {
        close(p1[0]);
        close(p1[1]);
        return ipc_err(err, len, "pipe");
    }
    struct echo_args a = { p1[0], p2[1] };
    s->pid = kb_fork(echo_loop, &a, err, len);
    close(p1[0]);
    close(p2[1]);
    s->wfd = p1[1];
    s->rfd = p2[0];
    return s->pid < 0 ? -1 : ipc_prime(s, err, len);
}

static int setup_unix(struct ipc *s, char *err, size_t len)
{
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0)
        return ipc_err(err, len, "socketpair(AF_UNIX)");
    struct echo_args a = { sv[0], sv[0] };
    s->pid = kb_fork(echo_loop, &a, err, len);
    close(sv[0]);
    s->wfd = s->rfd = sv[1];
    return s->pid < 0 ? -1 : ipc_prime(s, err, len);
}

/* A listening socket on 127.0.0.1, any port. */
static int tcp_listen(struct ipc *s, char *err, size_t len)
{
    s->listen_fd = socket(AF_INET, SOCK_STREAM, 0);
    if (s->listen_fd < 0)
        return ipc_err(err, len, "socket(AF_INET)");
    int one = 1;
    setsockopt(s->listen_fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    memset(&s->addr, 0, sizeof s->addr);
    s->addr.sin_family = AF_INET;
    s->addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t al = sizeof s->addr;
    if (bind(s->listen_fd, (struct sockaddr *)&s->addr, sizeof s->addr) != 0)
        return ipc_err(err, len, "no loopback: bind 127.0.0.1");
    /* lmbench listens with a backlog of 100; a server descheduled for a
     * few ms then overflows it and a connect() waits 1 s for the SYN to
     * be resent. The largest backlog keeps that out of the numbers. */
    if (listen(s->listen_fd, SOMAXCONN) != 0)
        return ipc_err(err, len, "listen on 127.0.0.1");
    if (getsockname(s->listen_fd, (struct sockaddr *)&s->addr, &al) != 0)
        return ipc_err(err, len, "getsockname");
    return 0;
}

static int tcp_connect_lo(const struct ipc *s, char *err, size_t len)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return ipc_err(err, len, "socket(AF_INET)");
    if (connect(fd, (const struct sockaddr *)&s->addr, sizeof s->addr) != 0) {
        ipc_err(err, len, "connect to 127.0.0.1");
        close(fd);
        return -1;
    }
    return fd;
}

static int setup_tcp(struct ipc *s, char *err, size_t len)
{
    if (tcp_listen(s, err, len) < 0)
        return -1;
    s->pid = kb_fork(tcp_echo_server, &s->listen_fd, err, len);
    if (s->pid < 0)
        return -1;
    int fd = tcp_connect_lo(s, err, len);
    if (fd < 0)
        return -1;
    s->wfd = s->rfd = fd;
    return ipc_prime(s, err, len);
}

static int setup_accept_server(struct ipc *s, char *err, size_t len)
{
    if (tcp_listen(s, err, len) < 0)
        return -1;
    s->pid = kb_fork(accept_server, &s->listen_fd, err, len);
    return s->pid < 0 ? -1 : 0;
}

static int setup_select(struct ipc *s, char *err, size_t len)
{
    if (setup_accept_server(s, err, len) < 0)
        return -1;
    int fd = tcp_connect_lo(s, err, len);
    if (fd < 0)
        return -1;
    s->fds[0] = fd;
    FD_ZERO(&s->sel_set);
    for (int n = 0; n < SELECT_FDS; n++) {
        int d = dup(fd);
        if (d < 0 && errno == EMFILE && !s->nofile_raised) {
            /* lmbench's morefds(): soft limit up to the hard one */
            struct rlimit rl;
            if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
                s->saved_nofile = rl;
                rl.rlim_cur = rl.rlim_max;
                if (setrlimit(RLIMIT_NOFILE, &rl) == 0)
                    s->nofile_raised = true;
            }
            d = dup(fd);
        }
        if (d < 0)
            return ipc_err(err, len, "dup of the TCP descriptor");
        s->sel_fds[s->sel_n++] = d;
        if (d >= FD_SETSIZE) {
            snprintf(err, len, "descriptor %d is beyond select()'s FD_SETSIZE (%d)",
                     d, FD_SETSIZE);
            return -1;
        }
        FD_SET(d, &s->sel_set);
        if (d > s->sel_max)
            s->sel_max = d;
    }
    return 0;
}

static int setup_sem(struct ipc *s, char *err, size_t len)
{
    s->semid = semget(IPC_PRIVATE, 2, IPC_CREAT | IPC_EXCL | 0600);
    if (s->semid < 0)
        return ipc_err(err, len, "semget");
    if (semctl(s->semid, 0, SETVAL, 0) != 0 || semctl(s->semid, 1, SETVAL, 0) != 0)
        return ipc_err(err, len, "semctl(SETVAL)");
    s->pid = kb_fork(sem_writer, &s->semid, err, len);
    return s->pid < 0 ? -1 : 0;
}

/* ---- timed loops ----------------------------------------------------- */

static int do_roundtrip(void *ctx, uint64_t n, char *err, size_t len)
{
    struct ipc *s = ctx;
    char c = 0;
    while (n-- > 0)
        if (write(s->wfd, &c, 1) != 1 || read(s->rfd, &c, 1) != 1)
            return ipc_err(err, len, "round trip");
    kb_use((unsigned char)c);
    return 0;
}

static int do_connect(void *ctx, uint64_t n, char *err, size_t len)
{
    struct ipc *s = ctx;
    int one = 1;
    while (n-- > 0) {
        int fd = socket(AF_INET, SOCK_STREAM, 0);
        if (fd < 0)
            return ipc_err(err, len, "socket(AF_INET)");
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        if (connect(fd, (const struct sockaddr *)&s->addr, sizeof s->addr) != 0) {
            ipc_err(err, len, "connect to 127.0.0.1");
            close(fd);
            return -1;
        }
        close(fd);
    }
    return 0;
}

static int do_select(void *ctx, uint64_t n, char *err, size_t len)
{
    struct ipc *s = ctx;
    int ready = 0;
    while (n-- > 0) {
        fd_set ws = s->sel_set;
        struct timeval tv = { 0, 0 };
        int k = select(s->sel_max + 1, NULL, &ws, NULL, &tv);
        if (k < 0)
            return ipc_err(err, len, "select");
        ready += k;
    }
    kb_use((uintptr_t)ready);
    return 0;
}

static int do_sem(void *ctx, uint64_t n, char *err, size_t len)
{
    struct ipc *s = ctx;
    struct sembuf sop[2] = { { 1, -1, 0 }, { 0, 1, 0 } };
    while (n-- > 0)
        if (semop(s->semid, sop, 2) < 0)
            return ipc_err(err, len, "semop");
    return 0;
}

struct ipc_test {
    int (*setup)(struct ipc *, char *, size_t);
    kb_fn fn;
    double full_enough_s;   /* lmbench's minimum interval for the test */
    double ops;             /* operations per iteration */
};

static const struct ipc_test ipc_tests[IPC_NTESTS] = {
    [IPC_PIPE]    = { setup_pipe,          do_roundtrip, KB_SHORT_S,  1 },
    [IPC_UNIX]    = { setup_unix,          do_roundtrip, 0,           1 },
    [IPC_TCP]     = { setup_tcp,           do_roundtrip, KB_MEDIUM_S, 1 },
    [IPC_CONNECT] = { setup_accept_server, do_connect,   0,           1 },
    [IPC_SELECT]  = { setup_select,        do_select,    0,           1 },
    [IPC_SEM]     = { setup_sem,           do_sem,       KB_SHORT_S,  2 },
};

static int ipc_run(const struct kernel_params *p, struct report *r)
{
    cpu_set_t saved;
    bool widened = kb_affinity_widen(&saved);
    int ok = 0;

    for (int t = 0; t < IPC_NTESTS; t++) {
        const struct ipc_test *it = &ipc_tests[t];
        struct kb_metric_spec m = { ipc_metrics[t].id, ipc_metrics[IPC_NTESTS + t].id,
                                    KB_TIME, 1e6 / it->ops };
        struct kb_opts o;
        struct ipc s;
        char err[256] = "";

        report_progress(r, t, IPC_NTESTS);
        if (!kernel_wants(p, m.id) && !kernel_wants(p, m.alias))
            continue;           /* not asked for (p->only): no server set up */
        kb_opts_for(&o, p, KB_BUDGET_OS, it->full_enough_s);
        ipc_init(&s);
        if (it->setup(&s, err, sizeof err) < 0) {
            const char *ids[] = { kernel_wants(p, m.id) ? m.id : NULL,
                                  kernel_wants(p, m.alias) ? m.alias : NULL };
            kb_fail_ids(r, ids, 2, "%s", err);
        } else if (kb_metric_run(r, &m, it->fn, &s, &o, NULL) == 0) {
            ok++;
        }
        ipc_teardown(&s);
    }
    report_progress(r, IPC_NTESTS, IPC_NTESTS);
    if (widened)
        kb_affinity_restore(&saved);
    return ok ? 0 : -1;
}

const struct kernel kernel_lat_ipc = {
    .name = "lat_ipc",
    .section = "lmbench",
    .description = "lmbench IPC latencies: pipe, AF_UNIX, TCP and connect on 127.0.0.1, "
                   "select on 200 TCP fds, SysV semaphore; microseconds",
    .metrics = ipc_metrics,
    .nmetrics = 2 * IPC_NTESTS,
    /* Full: pipe and sem 11 x 1 s, tcp 11 x 2 s, plus calibration. */
    .budget_quick_s = 2.0,
    .budget_full_s = 55.0,
    .run = ipc_run,
};
