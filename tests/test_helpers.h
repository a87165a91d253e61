/* test_helpers.h - what several suites share: a kernel run in-process with
 * everything it reported collected, scratch directories (test_helpers.c). */
#ifndef EVMBENCH_TEST_HELPERS_H
#define EVMBENCH_TEST_HELPERS_H

#include <stdbool.h>
#include <stddef.h>

#include "kernel/kernel.h"

/* Everything one run reported, copied out of the (transient) events. The
 * per-metric arrays have k->nmetrics entries, in the order of k->metrics. */
struct run_events {
    const struct kernel *k;
    int *samples;               /* samples of each metric */
    double *first, *last;       /* its first and last value */
    double *min, *max, *sum;
    int *fails;                 /* failures of each metric */
    int nfails;                 /* failures of all, named metric or not */
    char **fail_texts;          /* the first failure message of each metric */
    char *fail_text;            /* the first failure message of all... */
    char *fail_metric;          /* ...and the metric it named */
    int unknown_samples;        /* samples naming no metric of k */
    int unknown_fails;          /* failures naming no metric of k */
    int bad_values;             /* samples not finite, or <= 0 unless allowed */
    char bad_text[256];         /* "metric = value" of the first of them */
    int progress;               /* progress events */
    double last_done, last_total;
    bool progress_backwards;    /* a progress event went back */
    bool progress_over;         /* one was past its total */
    int notes;
    char *notes_text;           /* every note, each followed by '|' */
    /* NULL, or true for metrics whose samples may be <= 0 (differences) */
    bool (*nonpositive_ok)(const char *metric);
};

/* Runs the registered kernel `name` in-process with a copy of *p (self set
 * to the kernel) and collects what it reported into *e, which it clears
 * first; a kernel not registered fails the test. nonpositive_ok may be NULL.
 * Returns the kernel's return value; free *e with run_events_free(). */
int run_events_kernel(const char *name, const struct kernel_params *p,
                      bool (*nonpositive_ok)(const char *metric), struct run_events *e);
void run_events_free(struct run_events *e);

/* The index of metric `id` (compared exactly) in k->metrics, or -1. */
int test_metric_find(const struct kernel *k, const char *id);
/* The same for a metric that must exist: a missing one fails the test. */
size_t run_events_index(const struct run_events *e, const char *id);

/* A new empty directory /tmp/evmbench-NAME-XXXXXX (mode 0700); caller
 * frees the path. Failing to make it fails the test. */
char *test_tmpdir(const char *name);
/* Removes dir and everything in it; a failure fails the test. */
void test_rmtree(const char *dir);

#endif
