/* toolkernel.h - external tool recipes as kernels.
 *
 * toolkernel_build() turns every benchmark of a recipe set into a
 * `struct kernel` with provider "tool" (shown as "tool:bw_mem"), the
 * recipe's section and metrics, and a run() that runs the tool. The
 * runner runs it like any kernel: in its worker process, whose process
 * group (and time limit, and cancel) covers the tools it starts.
 *
 * run() finds the binary (recipe_set_tools_dir() first, then the recipe's
 * search paths, then $PATH), creates a temporary directory with the files
 * the recipe asks for, runs the server setup step if any, then every
 * invocation `runs` times with spawn_run() (run/spawn.h): fork + execve
 * of the argument vector (never a shell), stdin /dev/null, the
 * environment inherited plus the recipe's, stdout and stderr captured up
 * to TOOLKERNEL_OUTPUT_MAX, the invocation's time limit enforced. Each parsed value is one report_sample(); each
 * invocation one report_progress(). Every failure is a report_fail() of
 * the metrics concerned with the reason (not found and which package
 * provides it, exit status or signal with the last lines of output,
 * timeout, output over the limit, output that does not match, values
 * missing); the other metrics carry on. With kernel_params.only (a
 * profile's metric list) an invocation none of whose expected metrics is
 * wanted is not run, and the values of metrics not wanted that a run
 * prints are not reported. Afterwards no process the tool
 * started is left (they are killed and reaped) and the temporary
 * directory is gone.
 *
 * Because of that last step run() kills every descendant of the calling
 * process when it ends: it belongs in a worker process (runner_start()
 * does that), never inline in a process that has other children. A worker
 * killed by the runner (its own time limit, cancel, a signal that stops
 * the program) cannot remove its temporary directory
 * ($TMPDIR/evmbench-NAME-XXXXXX): the runner removes the work directory
 * the worker's TMPDIR names, and it with it (run/workdir.h). */
#ifndef EVMBENCH_TOOLKERNEL_H
#define EVMBENCH_TOOLKERNEL_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "kernel/kernel.h"
#include "recipe/recipe.h"

/* How much of a tool's stdout + stderr is kept; a tool that writes more
 * is stopped and its metrics fail. */
#define TOOLKERNEL_OUTPUT_MAX (1024 * 1024)

/* One kernel per benchmark of `set`, in the set's order. The kernels
 * point into `set`, which must outlive them, and into the nembedded
 * `embedded` kernels (may be none), which a tool that is not found names
 * when one of them measures the same metric. Returns the count. */
size_t toolkernel_build(const struct recipe_set *set, const struct kernel *const *embedded,
                        size_t nembedded, const struct kernel ***out, size_t *n);
void toolkernel_free(const struct kernel **kernels, size_t n);

/* The recipe behind a tool kernel; NULL for any other kernel. */
const struct recipe_bench *toolkernel_recipe(const struct kernel *k);

/* Whether the tool of a tool kernel is installed here (for `list` and
 * --provider auto). *path (optional) gets the binary (caller frees), or
 * NULL. Always false for a kernel that is not a tool kernel. */
bool toolkernel_available(const struct kernel *k, char **path);

/* The time limit the runner enforces on a whole tool benchmark, when it is
 * not the default 4 x budget + 30 s (--timeout SECS: call this with SECS and
 * pass SECS as run_options.timeout_s). run() fits every invocation's time
 * limit into what is left of it, so the tool's own timeout fires first and
 * the metrics get their reasons (and partial output) instead of the whole
 * worker being killed. <= 0: the default. Process-wide; a forked worker
 * inherits it. */
void toolkernel_set_time_limit(double seconds);

/* Processes descended from `root` (tests); see spawn_descendants(). */
size_t toolkernel_descendants(pid_t root, pid_t *out, size_t max);

#endif
