/* bw_ipc.c - lmbench's bw_pipe and bw_unix: bandwidth through a pipe and
 * an AF_UNIX stream socketpair to a forked writer.
 *
 * As lmbench: the writer sends 64 KiB chunks (XFERSIZE) from a touched,
 * page-aligned buffer; the reader reads 64 KiB at a time into a touched
 * buffer (off page alignment by 128 bytes for the pipe) until 10 MiB (XFER)
 * have arrived, which is one iteration. For the socket the reader first
 * asks for the 10 MiB on a control pipe, as bw_unix does. Rates are MB/s
 * with 1 MB = 10^6 bytes (lmbench's mb()); the guide prints them as
 * bw_pipe / bw_unix (mb/s) and again as pipe_bandwidth /
 * af_unix_socket_stream_bandwidth (mbs): the same samples go to both ids.
 * Intervals: lmbench's MEDIUM (2 s) in full mode, 5 ms (at least one
 * iteration) when quick; 11 recorded; summary the median. The worker's
 * CPU affinity is widened to all CPUs for the run, as lmbench runs
 * unpinned. The writer is killed and reaped after each metric. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "kernel/kernel.h"
#include "benches/kernels/kernel_util.h"
#include "common/util.h"

#define BW_XFERSIZE (64u * 1024u)           /* lmbench XFERSIZE */
#define BW_XFER     (10u * 1024u * 1024u)   /* lmbench XFER: bytes per iteration */
#define BW_MISALIGN 128                     /* bw_pipe: "destroy page alignment" */

enum { BW_PIPE, BW_UNIX, BW_NTESTS };

#define BW_METRIC(id_, unit_) { .id = id_, .unit = unit_, .summary = SUMMARY_MEDIAN }
static const struct kernel_metric bw_metrics[2 * BW_NTESTS] = {
    BW_METRIC("bw_pipe", "mb/s"),
    BW_METRIC("bw_unix", "mb/s"),
    BW_METRIC("pipe_bandwidth", "mbs"),
    BW_METRIC("af_unix_socket_stream_bandwidth", "mbs"),
};

struct bw {
    int data[2];            /* [0] reader's end, [1] writer's end */
    int control[2];         /* bw_unix: reader -> writer byte counts */
    bool is_unix;
    char *wbuf, *rmem, *rbuf;
    pid_t pid;
};

static void bw_touch(char *buf, size_t n)
{
    long ps = sysconf(_SC_PAGESIZE);
    size_t step = ps > 0 ? (size_t)ps : 4096;
    for (size_t i = 0; i < n; i += step)
        buf[i] = 1;
}

static void pipe_writer(void *arg)
{
    struct bw *b = arg;
    close(b->data[0]);
    while (write_all(b->data[1], b->wbuf, BW_XFERSIZE))
        ;
}

static void unix_writer(void *arg)
{
    struct bw *b = arg;
    size_t todo;
    close(b->data[0]);
    close(b->control[1]);
    while (read(b->control[0], &todo, sizeof todo) == (ssize_t)sizeof todo)
        for (size_t done = 0; done < todo; done += BW_XFERSIZE)
            if (!write_all(b->data[1], b->wbuf, BW_XFERSIZE))
                return;
}

static int do_read(void *ctx, uint64_t n, char *err, size_t len)
{
    struct bw *b = ctx;
    size_t todo = BW_XFER;
    while (n-- > 0) {
        if (b->is_unix && write(b->control[1], &todo, sizeof todo) != (ssize_t)sizeof todo) {
            snprintf(err, len, "write to the control pipe: %s", strerror(errno));
            return -1;
        }
        for (size_t done = 0; done < todo;) {
            ssize_t r = read(b->data[0], b->rbuf, BW_XFERSIZE);
            if (r <= 0) {
                if (r < 0 && errno == EINTR)
                    continue;
                snprintf(err, len, "read: %s", r ? strerror(errno) : "the writer went away");
                return -1;
            }
            done += (size_t)r;
        }
    }
    kb_use((unsigned char)b->rbuf[0]);
    return 0;
}

static void bw_teardown(struct bw *b)
{
    for (int i = 0; i < 2; i++) {
        if (b->data[i] >= 0)
            close(b->data[i]);
        if (b->control[i] >= 0)
            close(b->control[i]);
    }
    kb_reap(b->pid);
    free(b->wbuf);
    free(b->rmem);
}

static int bw_setup(struct bw *b, bool is_unix, char *err, size_t len)
{
    long ps = sysconf(_SC_PAGESIZE);
    size_t page = ps > 0 ? (size_t)ps : 4096;
    memset(b, 0, sizeof *b);
    b->data[0] = b->data[1] = b->control[0] = b->control[1] = -1;
    b->pid = -1;
    b->is_unix = is_unix;
    void *w = NULL, *rm = NULL;
    if (posix_memalign(&w, page, BW_XFERSIZE) != 0 ||
        posix_memalign(&rm, page, BW_XFERSIZE + page) != 0) {
        free(w);
        snprintf(err, len, "cannot allocate 2 x %u KiB buffers", BW_XFERSIZE / 1024);
        return -1;
    }
    b->wbuf = w;
    b->rmem = rm;
    bw_touch(b->wbuf, BW_XFERSIZE);
    bw_touch(b->rmem, BW_XFERSIZE + page);
    b->rbuf = b->rmem + (is_unix ? 0 : BW_MISALIGN);

    if (is_unix) {
        if (socketpair(AF_UNIX, SOCK_STREAM, 0, b->data) != 0) {
            snprintf(err, len, "socketpair(AF_UNIX): %s", strerror(errno));
            return -1;
        }
        if (pipe(b->control) != 0) {
            snprintf(err, len, "pipe: %s", strerror(errno));
            return -1;
        }
    } else if (pipe(b->data) != 0) {
        snprintf(err, len, "pipe: %s", strerror(errno));
        return -1;
    }
    b->pid = kb_fork(is_unix ? unix_writer : pipe_writer, b, err, len);
    if (b->pid < 0)
        return -1;
    close(b->data[1]);
    b->data[1] = -1;
    if (is_unix) {
        close(b->control[0]);
        b->control[0] = -1;
    }
    return 0;
}

static int bw_run(const struct kernel_params *p, struct report *r)
{
    cpu_set_t saved;
    bool widened = kb_affinity_widen(&saved);
    int ok = 0;

    for (int t = 0; t < BW_NTESTS; t++) {
        struct kb_metric_spec m = { bw_metrics[t].id, bw_metrics[BW_NTESTS + t].id,
                                    KB_RATE, (double)BW_XFER / 1e6 };
        struct kb_opts o;
        struct bw b;
        char err[256] = "";

        report_progress(r, t, BW_NTESTS);
        if (!kernel_wants(p, m.id) && !kernel_wants(p, m.alias))
            continue;           /* not asked for (p->only): no writer started */
        kb_opts_for(&o, p, KB_BUDGET_OS, KB_MEDIUM_S);
        if (bw_setup(&b, t == BW_UNIX, err, sizeof err) < 0) {
            const char *ids[] = { kernel_wants(p, m.id) ? m.id : NULL,
                                  kernel_wants(p, m.alias) ? m.alias : NULL };
            kb_fail_ids(r, ids, 2, "%s", err);
        } else if (kb_metric_run(r, &m, do_read, &b, &o, NULL) == 0) {
            ok++;
        }
        bw_teardown(&b);
    }
    report_progress(r, BW_NTESTS, BW_NTESTS);
    if (widened)
        kb_affinity_restore(&saved);
    return ok ? 0 : -1;
}

const struct kernel kernel_bw_ipc = {
    .name = "bw_ipc",
    .section = "lmbench",
    .description = "lmbench bw_pipe and bw_unix: MB/s through a pipe and an AF_UNIX "
                   "socketpair, 64 KiB chunks",
    .metrics = bw_metrics,
    .nmetrics = 2 * BW_NTESTS,
    /* Full: 2 x (11 x 2 s + calibration). */
    .budget_quick_s = 1.0,
    .budget_full_s = 50.0,
    .run = bw_run,
};
