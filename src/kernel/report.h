/* report.h - how a benchmark running in a worker talks to the runner.
 *
 * A kernel calls report_*() while it runs. In the worker process the
 * report is bound to a pipe and every call becomes one text line:
 *
 *     S <metric> <value>      one sample of a metric
 *     P <done> <total>        progress (any units, done <= total)
 *     N <text>                a note for the user (e.g. "sized down ...")
 *     F <metric> <text>       that metric failed; the others carry on
 *
 * Tests bind a report to a callback instead and run kernels in-process.
 * Metric names contain no white space; texts are single lines. */
#ifndef EVMBENCH_REPORT_H
#define EVMBENCH_REPORT_H

#include <stdbool.h>

enum report_kind { REPORT_SAMPLE, REPORT_PROGRESS, REPORT_NOTE, REPORT_FAIL };

struct report_event {
    enum report_kind kind;
    const char *metric;     /* SAMPLE, FAIL */
    double value;           /* SAMPLE: the value; PROGRESS: done */
    double total;           /* PROGRESS */
    const char *text;       /* NOTE, FAIL */
};

struct report {
    int fd;                 /* >= 0: write protocol lines here */
    void (*callback)(void *ctx, const struct report_event *ev);
    void *ctx;
};

void report_to_fd(struct report *r, int fd);
void report_to_callback(struct report *r,
                        void (*cb)(void *, const struct report_event *), void *ctx);

void report_sample(struct report *r, const char *metric, double value);
void report_progress(struct report *r, double done, double total);
void report_note(struct report *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void report_fail(struct report *r, const char *metric, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Parses one protocol line (without the newline) into ev; the strings in
 * ev point into `line`, which is modified. Returns false on a bad line. */
bool report_parse_line(char *line, struct report_event *ev);

#endif
