/* selfcheck.h - the embedded kernels measured against the SDK's own tools.
 *
 * For every benchmark that both an embedded kernel and an installed tool
 * (benches/tools recipes) can run, runs the two side by side, alternating
 * which goes first, and reports per metric the median of each and the
 * median over the rounds of each round's ratio kernel / tool, with the
 * agreement the project aims for where it has one (STREAM and bw_mem at
 * 16 MB within 10 %, lat_mem_rd within 15 %, syscall and pipe latencies
 * within 25 %). This is how the FIDELITY figures of
 * evmbench-methodology(7) are measured. Progress and the time left go to
 * `err` as it runs. */
#ifndef EVMBENCH_SELFCHECK_H
#define EVMBENCH_SELFCHECK_H

#include <stdbool.h>
#include <stdio.h>

#include "app.h"

struct selfcheck_options {
    char **names;           /* benchmarks, or kernels (bw_mem: that kernel and
                             * the tool of the same name); none: all */
    int nnames;
    int rounds;             /* side-by-side rounds; 0 = 3, 1 when quick */
    bool json;
};

/* Returns 0 when something was compared, 3 when nothing could be (no tool
 * installed, every run failed); 2 for an unknown name. */
int selfcheck_run(struct app *a, const struct selfcheck_options *opt, FILE *out, FILE *err);

#endif
