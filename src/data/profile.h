/* profile.h - a named list of benchmarks to run in turn (benches/profiles).
 *
 * The demo (`evmbench --demo`) runs the quick profile; `run --profile`
 * runs any. A profile file is line oriented, '#' starts a comment:
 *
 *     description A quick look at CPU and memory
 *     budget quick          quick or full (default: quick)
 *     bench stream          a benchmark or kernel name, as 'evmbench run' takes
 *     bench dhrystone
 *     bench bw_mem bw_mem-rd-16mb bw_mem-bcopy-16mb   only these rows of it
 *
 * A metric list is what the kernels measure, not a filter of their output
 * (profile_bench_pick gives a kernel its selection, kernel_params.only).
 *
 * Names are not checked here (the caller has the catalog): each bench
 * keeps its line so the caller can report "file:line: no benchmark ...".
 * A bad line is reported as "file:line: message" and skipped. */
#ifndef EVMBENCH_PROFILE_H
#define EVMBENCH_PROFILE_H

#include <stdbool.h>
#include <stddef.h>

#include "common/diag.h"
#include "kernel/kernel.h"

struct profile_bench {
    char *name;
    int line;
    char **metrics;             /* the rows kept; none: all */
    size_t nmetrics;
};

struct profile {
    char *path;                 /* as given, or "DIR/NAME.profile" ("built-in:profiles/NAME.profile"): for messages */
    char *name;                 /* file name without ".profile" */
    char *description;          /* NULL when none */
    bool quick;
    struct profile_bench *benches;
    size_t n, cap;
};

/* Parses text (file names the messages); returns the number of bad lines. */
int profile_parse(struct profile *p, const char *text, const char *file,
                  struct diag *dg);
/* Reads a profile by path, or by name from the shipped profiles folder
 * (no '/' in it: <datadir>/profiles/NAME.profile). Returns the number of
 * errors; an unreadable file is one. p is always usable (maybe empty). */
int profile_load(struct profile *p, const char *name_or_path, struct diag *dg);
void profile_free(struct profile *p);
/* Whether a row of this entry is kept (true for all without a list). */
bool profile_bench_keeps(const struct profile_bench *b, const char *metric);
/* Adds the metrics of k that b lists to ids[0 .. *n), each once, as k's
 * own id strings (k->metrics[i].id) in k's order; ids has room for
 * k->nmetrics. b without a list adds every metric of k. */
void profile_bench_pick(const struct profile_bench *b, const struct kernel *k,
                        const char **ids, size_t *n);
/* The first metric b lists that none of the n kernels measures, or NULL
 * (b without a list: NULL). */
const char *profile_bench_unknown(const struct profile_bench *b,
                                  const struct kernel *const *ks, size_t n);

#endif
