/* stream.c - the STREAM memory bandwidth kernel (Copy, Scale, Add, Triad).
 *
 * Written from the published description of STREAM (J. D. McCalpin):
 *
 *     Copy   c = a           16 bytes per element
 *     Scale  b = q * c       16 bytes per element
 *     Add    c = a + b       24 bytes per element
 *     Triad  a = b + q * c   24 bytes per element
 *
 * over three arrays of doubles, q = 3. Bytes are counted the
 * STREAM way (a byte read counts once, a byte written counts once, no
 * write-allocate traffic) and rates are in MB/s with 1 MB = 10^6 bytes.
 *
 * Size: p->size elements per array, else max(10 M, 4 x the caches) like
 * STREAM's own rule (the caches: p->cache_bytes, from sysfs or the SoC's
 * facts; 4 MiB assumed when unknown), sized down to half of MemAvailable when the
 * machine is short (a 512 MB AM62 SIP board).
 *
 * Method: what the stream_c recipe (benches/tools/stream.json) does with
 * STREAM, so that both give the same statistic. One STREAM run allocates
 * and first-touches fresh arrays, makes p->iterations passes (NTIMES,
 * default 10 as in STREAM) and drops the first pass as STREAM does; a
 * full run is STREAM_RUNS_FULL such runs (the recipe's "runs": 5), a
 * quick one a single run. Every kept pass reports one sample per metric;
 * STREAM prints the best rate and the recipe keeps the best run, so the
 * summary compared with the guide is SUMMARY_MAX (bytes / min time) over
 * all runs. Taking the best of 9 passes here against the best of 5 x 9
 * there read 10-40 % low on a shared machine, whatever the loops did.
 *
 * p->only selects ops: an op not wanted is neither run nor timed, and
 * the validation replays only the ops that ran.
 *
 * The work is split into element ranges [lo, hi) so that a threaded
 * variant (--threads) can give each thread its own slice, first-touched
 * by that thread. */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kernel/kernel.h"
#include "benches/kernels/kernel_util.h"
#include "common/util.h"

#define STREAM_MIN_ELEMS    10000000u   /* STREAM's default array size */
#define STREAM_LLC_FACTOR   4           /* each array >= 4 x the caches */
#define STREAM_LLC_ASSUMED  (4u << 20)  /* when the board's caches are unknown */
#define STREAM_FLOOR_ELEMS  (128u << 10) /* 1 MiB per array: below, give up */
#define STREAM_NTIMES       10          /* passes of one STREAM run */
#define STREAM_RUNS_FULL    5           /* stream.json "runs" "full" */
#define STREAM_RUNS_QUICK   1           /* stream.json "runs" "quick" */
#define STREAM_STAGGER      1024        /* bytes; see stream_place() */
#define STREAM_ALIAS_SPAN   4096        /* 4K aliasing: address bits 0-11 */
#define STREAM_ITERS_MAX    200         /* 15^200 still fits in a double */
#define STREAM_SCALAR       3.0
#define STREAM_EPSILON      1e-13       /* STREAM's bound for doubles */
#define STREAM_MIN_TICKS    20          /* STREAM's timer guideline */

enum stream_op { OP_COPY, OP_SCALE, OP_ADD, OP_TRIAD, OP_COUNT };

static const struct kernel_metric stream_metrics[OP_COUNT] = {
    [OP_COPY]  = { .id = "copy",  .unit = "mb/s", .summary = SUMMARY_MAX },
    [OP_SCALE] = { .id = "scale", .unit = "mb/s", .summary = SUMMARY_MAX },
    [OP_ADD]   = { .id = "add",   .unit = "mb/s", .summary = SUMMARY_MAX },
    [OP_TRIAD] = { .id = "triad", .unit = "mb/s", .summary = SUMMARY_MAX },
};

/* The same with a team of threads: extra rows, no reference in the
 * guide (its numbers are single-threaded). */
static const struct kernel_metric stream_threads_metrics[OP_COUNT] = {
    [OP_COPY]  = { .id = "copy-threads", .unit = "mb/s", .summary = SUMMARY_MAX },
    [OP_SCALE] = { .id = "scale-threads", .unit = "mb/s", .summary = SUMMARY_MAX },
    [OP_ADD]   = { .id = "add-threads", .unit = "mb/s", .summary = SUMMARY_MAX },
    [OP_TRIAD] = { .id = "triad-threads", .unit = "mb/s", .summary = SUMMARY_MAX },
};

/* Bytes moved per element, STREAM's counting. */
static const unsigned stream_bytes[OP_COUNT] = { 16, 16, 24, 24 };

struct stream_arrays {
    double *a, *b, *c;
    size_t n;
};

/* Copy is memcpy(): GCC turns STREAM's own copy loop into a memcpy()
 * call at -O2 (x86-64 and AArch64 alike), so this is what stream_c runs.
 * The other loops run in blocks of a constant length so that -O2, whose
 * cost model only vectorises loops with a known trip count, vectorises
 * them as it does STREAM's fixed-size loops. */
#define STREAM_BLOCK 1024

static void loop_copy(double *restrict c, const double *restrict a, size_t n)
{
    memcpy(c, a, n * sizeof(double));
}

static void loop_scale(double *restrict b, const double *restrict c, double q, size_t n)
{
    size_t j = 0;
    for (; j + STREAM_BLOCK <= n; j += STREAM_BLOCK)
        for (size_t k = 0; k < STREAM_BLOCK; k++)
            b[j + k] = q * c[j + k];
    for (; j < n; j++)
        b[j] = q * c[j];
}

static void loop_add(double *restrict c, const double *restrict a,
                     const double *restrict b, size_t n)
{
    size_t j = 0;
    for (; j + STREAM_BLOCK <= n; j += STREAM_BLOCK)
        for (size_t k = 0; k < STREAM_BLOCK; k++)
            c[j + k] = a[j + k] + b[j + k];
    for (; j < n; j++)
        c[j] = a[j] + b[j];
}

static void loop_triad(double *restrict a, const double *restrict b,
                       const double *restrict c, double q, size_t n)
{
    size_t j = 0;
    for (; j + STREAM_BLOCK <= n; j += STREAM_BLOCK)
        for (size_t k = 0; k < STREAM_BLOCK; k++)
            a[j + k] = b[j + k] + q * c[j + k];
    for (; j < n; j++)
        a[j] = b[j] + q * c[j];
}

/* c first, then a and b together: the order in which stream_c faults
 * its pages in (gcc turns its c[j] = 0 into a memset). */
static void stream_init_range(struct stream_arrays *s, size_t lo, size_t hi)
{
    for (size_t j = lo; j < hi; j++)
        s->c[j] = 0.0;
    for (size_t j = lo; j < hi; j++) {
        s->a[j] = 1.0;
        s->b[j] = 2.0;
    }
}

static void stream_op_range(enum stream_op op, struct stream_arrays *s,
                            size_t lo, size_t hi)
{
    size_t n = hi - lo;
    double *a = s->a + lo, *b = s->b + lo, *c = s->c + lo;

    switch (op) {
    case OP_COPY:  loop_copy(c, a, n); break;
    case OP_SCALE: loop_scale(b, c, STREAM_SCALAR, n); break;
    case OP_ADD:   loop_add(c, a, b, n); break;
    case OP_TRIAD: loop_triad(a, b, c, STREAM_SCALAR, n); break;
    case OP_COUNT: break;
    }
}

/* Seconds for one operation over the whole arrays. The clock calls are
 * opaque, so the compiler can neither move nor drop the loop. */
static double stream_time_op(enum stream_op op, struct stream_arrays *s)
{
    double t0 = now_seconds();
    stream_op_range(op, s, 0, s->n);
    return now_seconds() - t0;
}

/* --- threads (kernel stream-threads) ---------------------------------
 * Each thread owns a slice of every array (a multiple of STREAM_BLOCK
 * elements, the last thread takes the rest), first-touches it, then runs
 * each operation on it between two barriers; the caller times from
 * before the first to after the second, like STREAM's OpenMP build times
 * the parallel loop. The runner pins the worker to one CPU and threads
 * inherit that, so each thread first widens its own affinity to every
 * CPU (unbound, as OpenMP's default) and the scheduler spreads them. */
#define STREAM_THREADS_MAX 256

struct stream_team;

struct stream_thread {
    struct stream_team *team;
    pthread_t tid;
    size_t lo, hi;
    bool spread;                /* affinity widened */
};

struct stream_team {
    struct stream_arrays *s;
    pthread_barrier_t start, done;
    enum stream_op op;
    bool quit;
    int n;
    size_t slice;
    bool spread;                /* every thread widened its affinity */
    struct stream_thread *th;
    pthread_mutex_t gate_lock;  /* holds the threads until all exist */
    pthread_cond_t gate_cv;
    bool gate_open;
};

static void team_free(struct stream_team *team)
{
    pthread_barrier_destroy(&team->start);
    pthread_barrier_destroy(&team->done);
    pthread_mutex_destroy(&team->gate_lock);
    pthread_cond_destroy(&team->gate_cv);
    free(team->th);
    free(team);
}

static void *team_main(void *arg)
{
    struct stream_thread *t = arg;
    struct stream_team *team = t->team;
    pthread_mutex_lock(&team->gate_lock);
    while (!team->gate_open)
        pthread_cond_wait(&team->gate_cv, &team->gate_lock);
    bool quit = team->quit;
    pthread_mutex_unlock(&team->gate_lock);
    if (quit)
        return NULL;
    cpu_set_t all;
    CPU_ZERO(&all);
    long ncpu = sysconf(_SC_NPROCESSORS_CONF);
    for (long c = 0; c < ncpu && c < CPU_SETSIZE; c++)
        CPU_SET((int)c, &all);
    t->spread = pthread_setaffinity_np(pthread_self(), sizeof all, &all) == 0;
    stream_init_range(team->s, t->lo, t->hi);
    pthread_barrier_wait(&team->done);          /* initialised */
    for (;;) {
        pthread_barrier_wait(&team->start);
        if (team->quit)
            break;
        stream_op_range(team->op, team->s, t->lo, t->hi);
        pthread_barrier_wait(&team->done);
    }
    return NULL;
}

/* Starts nthreads threads on s; NULL with `why` filled on failure. */
static struct stream_team *team_start(struct stream_arrays *s, int nthreads,
                                      char *why, size_t whylen)
{
    struct stream_team *team = calloc(1, sizeof *team);
    struct stream_thread *th = calloc((size_t)nthreads, sizeof *th);
    if (!team || !th) {
        snprintf(why, whylen, "cannot allocate %d thread records", nthreads);
        free(team);
        free(th);
        return NULL;
    }
    team->s = s;
    team->n = nthreads;
    team->th = th;
    size_t per = s->n / (size_t)nthreads / STREAM_BLOCK * STREAM_BLOCK;
    team->slice = per;
    int err = pthread_barrier_init(&team->start, NULL, (unsigned)nthreads + 1);
    if (!err && (err = pthread_barrier_init(&team->done, NULL, (unsigned)nthreads + 1)))
        pthread_barrier_destroy(&team->start);
    if (err) {
        snprintf(why, whylen, "pthread_barrier_init: %s", strerror(err));
        free(th);
        free(team);
        return NULL;
    }
    pthread_mutex_init(&team->gate_lock, NULL);
    pthread_cond_init(&team->gate_cv, NULL);
    int started = 0;
    for (int i = 0; i < nthreads; i++) {
        th[i].team = team;
        th[i].lo = (size_t)i * per;
        th[i].hi = i == nthreads - 1 ? s->n : (size_t)(i + 1) * per;
        err = pthread_create(&th[i].tid, NULL, team_main, &th[i]);
        if (err)
            break;
        started++;
    }
    /* Open the gate; when a thread could not be created the others
     * see `quit` and end before touching the barriers. */
    pthread_mutex_lock(&team->gate_lock);
    team->quit = started < nthreads;
    team->gate_open = true;
    pthread_cond_broadcast(&team->gate_cv);
    pthread_mutex_unlock(&team->gate_lock);
    if (team->quit) {
        snprintf(why, whylen, "cannot start thread %d of %d: %s", started + 1,
                 nthreads, strerror(err));
        for (int i = 0; i < started; i++)
            pthread_join(th[i].tid, NULL);
        team_free(team);
        return NULL;
    }
    pthread_barrier_wait(&team->done);          /* all slices touched */
    team->spread = true;
    for (int i = 0; i < nthreads; i++)
        team->spread &= th[i].spread;
    return team;
}

static double team_time_op(struct stream_team *team, enum stream_op op)
{
    team->op = op;
    double t0 = now_seconds();
    pthread_barrier_wait(&team->start);
    pthread_barrier_wait(&team->done);
    return now_seconds() - t0;
}

static void team_stop(struct stream_team *team)
{
    if (!team)
        return;
    team->quit = true;
    pthread_barrier_wait(&team->start);
    for (int i = 0; i < team->n; i++)
        pthread_join(team->th[i].tid, NULL);
    team_free(team);
}

/* Smallest step of CLOCK_MONOTONIC as a caller sees it: the larger of
 * the advertised resolution and the smallest observed change. */
static double clock_tick(void)
{
    struct timespec res;
    double tick = clock_getres(CLOCK_MONOTONIC, &res) == 0
                  ? (double)res.tv_sec + (double)res.tv_nsec * 1e-9 : 1e-6;
    double seen = 1.0;
    for (int i = 0; i < 16; i++) {
        double t0 = now_seconds(), t1;
        while ((t1 = now_seconds()) == t0)
            ;
        if (t1 - t0 < seen)
            seen = t1 - t0;
    }
    return seen > tick ? seen : tick;
}

/* Chooses the array size (elements); 0 after report_fail(). */
static size_t stream_size(const struct kernel_params *p, struct report *r,
                          const struct kernel_metric *ids)
{
    /* the caches come from the board (sysfs under --sysroot, else the
     * detected SoC's facts): p->cache_bytes */
    size_t llc = p->cache_bytes;
    bool llc_known = llc != 0;
    if (!llc_known)
        llc = STREAM_LLC_ASSUMED;
    size_t want_llc = llc / sizeof(double) * STREAM_LLC_FACTOR;
    uint64_t avail = kb_mem_available();
    size_t n;

    if (p->size) {
        n = p->size;
        if (n > SIZE_MAX / (3 * sizeof(double))) {
            kb_fail_metrics(r, ids, OP_COUNT, "array size %zu elements is too large "
                            "for the address space", n);
            return 0;
        }
        double need = 3.0 * (double)n * sizeof(double);
        if (avail && need > (double)avail) {
            kb_fail_metrics(r, ids, OP_COUNT, "3 arrays of %zu doubles need %.1f MiB, "
                            "only %.1f MiB available", n, kb_mib(need), kb_mib((double)avail));
            return 0;
        }
    } else {
        n = want_llc > STREAM_MIN_ELEMS ? want_llc : STREAM_MIN_ELEMS;
        uint64_t limit = avail / 2;
        if (avail && (uint64_t)n * 3 * sizeof(double) > limit) {
            n = (size_t)(limit / (3 * sizeof(double))) & ~(size_t)1023;
            if (n < STREAM_FLOOR_ELEMS) {
                kb_fail_metrics(r, ids, OP_COUNT, "not enough memory: MemAvailable is "
                                "%.1f MiB, half of it cannot hold 3 arrays of %.0f MiB",
                                kb_mib((double)avail),
                                kb_mib((double)STREAM_FLOOR_ELEMS * sizeof(double)));
                return 0;
            }
            report_note(r, "sized down to %zu elements per array (%.1f MiB each) "
                        "to use at most half of MemAvailable (%.0f MiB)",
                        n, kb_mib((double)n * sizeof(double)), kb_mib((double)avail));
        }
    }
    report_note(r, "3 arrays of %zu doubles (%.1f MiB each); caches %.0f KiB (%s), "
                "each array at least 4x that", n, kb_mib((double)n * sizeof(double)),
                (double)llc / 1024.0, llc_known && p->cache_from ? p->cache_from
                : llc_known ? "from the board" : "assumed: neither sysfs nor the SoC facts "
                "give them");
    if (n < want_llc)
        report_note(r, "warning: arrays are smaller than 4x the caches; "
                    "results include cache effects");
    return n;
}

static int stream_iterations(const struct kernel_params *p, struct report *r)
{
    int it = p->iterations > 0 ? p->iterations : STREAM_NTIMES;
    if (it < 2) {
        report_note(r, "2 iterations instead of %d: the first is a warm-up", it);
        it = 2;
    } else if (it > STREAM_ITERS_MAX) {
        report_note(r, "%d iterations instead of %d: the validated values "
                    "would overflow", STREAM_ITERS_MAX, it);
        it = STREAM_ITERS_MAX;
    }
    return it;
}

/* Average relative error of x against the expected value e, and the
 * number of elements off by more than the epsilon. NaN compares false,
 * so it is caught by the "!(err <= eps)" tests. An expected 0 (scale
 * alone reads c, which nothing else wrote) has nothing to be relative to:
 * the error is then the average absolute one, and any nonzero element is
 * wrong. */
static double check_array(const double *x, size_t n, double e, size_t *bad)
{
    double sum = 0.0;
    *bad = 0;
    for (size_t j = 0; j < n; j++) {
        double d = fabs(x[j] - e);
        sum += d;
        if (!(d <= STREAM_EPSILON * fabs(e)))
            (*bad)++;
    }
    return e != 0.0 ? sum / (double)n / fabs(e) : sum / (double)n;
}

/* Replays the iterations on scalars and compares every array with the
 * result, as STREAM does. Returns 0, or -1 after report_fail(). */
static int stream_validate(const struct stream_arrays *s, int iters, struct report *r,
                           const struct kernel_metric *ids, const bool *ran)
{
    double ea = 1.0, eb = 2.0, ec = 0.0;
    for (int i = 0; i < iters; i++) {
        if (ran[OP_COPY])
            ec = ea;
        if (ran[OP_SCALE])
            eb = STREAM_SCALAR * ec;
        if (ran[OP_ADD])
            ec = ea + eb;
        if (ran[OP_TRIAD])
            ea = eb + STREAM_SCALAR * ec;
    }
    const struct { char name; const double *x; double e; } arr[] = {
        { 'a', s->a, ea }, { 'b', s->b, eb }, { 'c', s->c, ec },
    };
    char msg[400] = "";
    size_t len = 0;
    for (size_t i = 0; i < ARRAY_SIZE(arr); i++) {
        size_t bad;
        double err = check_array(arr[i].x, s->n, arr[i].e, &bad);
        if (!(err <= STREAM_EPSILON) || bad) {
            int w = snprintf(msg + len, sizeof msg - len,
                             "%sarray %c: average relative error %.3g, %zu of %zu elements wrong",
                             len ? "; " : "", arr[i].name, err, bad, s->n);
            if (w > 0 && (size_t)w < sizeof msg - len)
                len += (size_t)w;
        }
    }
    if (!len)
        return 0;
    kb_fail_metrics(r, ids, OP_COUNT, "validation failed (epsilon %g): %s",
                    STREAM_EPSILON, msg);
    return -1;
}

/* The arrays lie as STREAM's static ones do: one block, c, b, a upwards
 * (the order the linker gives them), each right after the previous. At
 * STREAM's default size they are 80 000 000 bytes apart, which puts
 * their starts 0, 1 and 2 KiB into a 4 KiB span; here each starts
 * STREAM_STAGGER bytes further into the span than the previous, whatever
 * n is. Arrays at the same offset within 4 KiB (page-aligned ones, or
 * any power of two in size, which STREAM's OFFSET knob is there to
 * break) make every load of Add and Triad share address bits 0-11 with
 * the store just issued to the other array, and cores that guess
 * load/store dependences from those bits (x86 and Arm alike) hold the
 * load back: "4K aliasing". Returns the block to free, NULL with errno
 * set. */
static void *stream_place(struct stream_arrays *s, size_t n)
{
    size_t bytes = n * sizeof(double);
    size_t span = (bytes + STREAM_ALIAS_SPAN - 1) / STREAM_ALIAS_SPAN * STREAM_ALIAS_SPAN
                  + STREAM_STAGGER;
    if (span > SIZE_MAX / 4) {
        errno = ENOMEM;
        return NULL;
    }
    void *mem = kb_alloc_pages(3 * span);
    if (!mem)
        return NULL;
    s->c = mem;
    s->b = (double *)((char *)mem + span);
    s->a = (double *)((char *)mem + 2 * span);
    s->n = n;
    return mem;
}

/* Where each array starts within a 4 KiB span, as a note: the layout is
 * part of the method (see stream_place). */
static void stream_note_layout(const struct stream_arrays *s, struct report *r)
{
    report_note(r, "arrays c, b, a start %u, %u, %u bytes into a 4 KiB span "
                "(none 4K-aliased, as STREAM's default arrays)",
                (unsigned)((uintptr_t)s->c % STREAM_ALIAS_SPAN),
                (unsigned)((uintptr_t)s->b % STREAM_ALIAS_SPAN),
                (unsigned)((uintptr_t)s->a % STREAM_ALIAS_SPAN));
}

/* What one STREAM run shares with the next. */
struct stream_plan {
    size_t n;
    int iters, runs, nthreads;
    const struct kernel_metric *ids;
    double tmin[OP_COUNT];      /* fastest kept pass so far, per op */
    bool ran[OP_COUNT];         /* the ops p->only wants */
};

/* One STREAM run (number `run`, from 0): fresh arrays first-touched by
 * the thread(s) that use them, pl->iters passes with the first dropped,
 * the arrays validated. Returns 0, or -1 after kb_fail_metrics(). */
static int stream_once(struct stream_plan *pl, int run, struct report *r)
{
    const struct kernel_metric *ids = pl->ids;
    struct stream_arrays s;
    void *mem = stream_place(&s, pl->n);
    if (!mem) {
        kb_fail_metrics(r, ids, OP_COUNT, "cannot allocate 3 x %.1f MiB: %s",
                        kb_mib((double)pl->n * sizeof(double)), strerror(errno));
        return -1;
    }
    if (run == 0)
        stream_note_layout(&s, r);

    /* First touch: the pages are faulted in before anything is timed,
     * by the thread that will use them. */
    struct stream_team *team = NULL;
    if (pl->nthreads > 0) {
        char why[160];
        team = team_start(&s, pl->nthreads, why, sizeof why);
        if (!team) {
            kb_fail_metrics(r, ids, OP_COUNT, "%s", why);
            free(mem);
            return -1;
        }
        if (run == 0) {
            report_note(r, "%d threads, %zu elements each (the last takes the rest)",
                        pl->nthreads, team->slice);
            if (!team->spread)
                report_note(r, "warning: the threads could not leave the worker's CPU; "
                            "they share it");
        }
    } else
        stream_init_range(&s, 0, s.n);

    for (int it = 0; it < pl->iters; it++) {
        double t[OP_COUNT];
        for (int op = 0; op < OP_COUNT; op++)
            t[op] = !pl->ran[op] ? INFINITY
                  : team ? team_time_op(team, (enum stream_op)op)
                         : stream_time_op((enum stream_op)op, &s);
        /* The first pass is a warm-up, as in STREAM. */
        if (it > 0) {
            for (int op = 0; op < OP_COUNT; op++) {
                if (!pl->ran[op])
                    continue;
                if (t[op] < pl->tmin[op])
                    pl->tmin[op] = t[op];
                double secs = t[op] > 0 ? t[op] : 1e-9;
                report_sample(r, ids[op].id,
                              (double)stream_bytes[op] * (double)s.n / secs / 1e6);
            }
        }
        report_progress(r, run * pl->iters + it + 1, pl->runs * pl->iters);
    }
    team_stop(team);
    int rc = stream_validate(&s, pl->iters, r, ids, pl->ran);
    free(mem);
    return rc;
}

/* Runs STREAM and reports under `ids`: single-threaded when nthreads is
 * 0, else with a team of nthreads threads. */
static int stream_bench(const struct kernel_params *p, struct report *r,
                        const struct kernel_metric *ids, int nthreads)
{
    struct stream_plan pl = { .ids = ids, .nthreads = nthreads };
    pl.n = stream_size(p, r, ids);
    if (!pl.n)
        return -1;
    pl.iters = stream_iterations(p, r);
    pl.runs = p->quick ? STREAM_RUNS_QUICK : STREAM_RUNS_FULL;
    for (int op = 0; op < OP_COUNT; op++) {
        pl.tmin[op] = INFINITY;
        pl.ran[op] = kernel_wants(p, ids[op].id);
    }
    report_note(r, "%d STREAM run%s of %d passes, each on fresh arrays, its first "
                "pass dropped; the best rate of all", pl.runs, pl.runs == 1 ? "" : "s",
                pl.iters);

    for (int run = 0; run < pl.runs; run++)
        if (stream_once(&pl, run, r) != 0)
            return -1;

    int fastest = 0;
    for (int op = 1; op < OP_COUNT; op++)
        if (pl.tmin[op] < pl.tmin[fastest])
            fastest = op;
    double tick = clock_tick();
    if (pl.tmin[fastest] < STREAM_MIN_TICKS * tick)
        report_note(r, "warning: %s took %.3g us, under %d clock ticks "
                    "(%.3g us each); use larger arrays", ids[fastest].id,
                    pl.tmin[fastest] * 1e6, STREAM_MIN_TICKS, tick * 1e6);
    return 0;
}

static int stream_run(const struct kernel_params *p, struct report *r)
{
    return stream_bench(p, r, stream_metrics, 0);
}

static int stream_threads_run(const struct kernel_params *p, struct report *r)
{
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    int nthreads = p->threads > 0 ? p->threads : online > 0 ? (int)online : 1;
    if (nthreads > STREAM_THREADS_MAX) {
        report_note(r, "%d threads instead of %d", STREAM_THREADS_MAX, nthreads);
        nthreads = STREAM_THREADS_MAX;
    }
    return stream_bench(p, r, stream_threads_metrics, nthreads);
}

const struct kernel kernel_stream = {
    .name = "stream",
    .section = "stream",
    .description = "STREAM memory bandwidth: Copy, Scale, Add, Triad over three "
                   "arrays of doubles (size = elements per array)",
    .metrics = stream_metrics,
    .nmetrics = OP_COUNT,
    /* A53 at ~1.6 GB/s with 10 M elements: 0.5 s per pass, 10 passes
     * and the set-up per STREAM run; 1 run when quick, 5 in full. */
    .budget_quick_s = 6.0,
    .budget_full_s = 30.0,
    .run = stream_run,
};

const struct kernel kernel_stream_threads = {
    .name = "stream-threads",
    .section = "stream",
    .description = "STREAM with one thread per CPU (--threads N): the multi-core "
                   "figure, no reference in the guide (size = elements per array)",
    .metrics = stream_threads_metrics,
    .nmetrics = OP_COUNT,
    .budget_quick_s = 6.0,
    .budget_full_s = 30.0,
    .run = stream_threads_run,
    .extra = true,
};
