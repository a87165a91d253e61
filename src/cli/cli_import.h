/* cli_import.h - `evmbench results import FILE --tool TOOL`: a saved log
 * of an external tool, parsed with that tool's recipes, becomes a run in
 * the results store, so `results show/compare` and baselines work on
 * logs captured elsewhere (another board, an older SDK, TI's own runs).
 *
 * TOOL selects the benchmarks of benches/tools whose tool family
 * ("lmbench", "stream", "arm_benchmarks"), name ("dhrystone", "bw_mem")
 * or guide section is TOOL. Every selected benchmark parses the whole log
 * with each of its invocations (a log may hold many tools' outputs, as a
 * full lmbench run does); a metric takes the values of the first
 * invocation that produces it. A benchmark whose output does not say
 * which invocation printed it (bw_mem prints "16.78 66752.85" whatever
 * the operation) would give the same numbers to several metrics: it is
 * left out with a warning instead. A benchmark whose error pattern
 * matches is left out with the reason. Values that are not numbers or
 * are failed-measurement markers become failed metrics, as in a live run.
 *
 * The rows are those of a live run with the tool (provider "tool:NAME"),
 * judged against the app's reference board (--board); the run's header
 * says {"imported": {"file": ABSOLUTE_PATH, "tool": TOOL}}. */
#ifndef EVMBENCH_CLI_IMPORT_H
#define EVMBENCH_CLI_IMPORT_H

#include <stdio.h>

#include "app.h"

struct import_cmd {
    const char *dir;            /* the results store */
    const char *file;           /* the saved log */
    const char *tool;           /* --tool */
    const struct app *app;      /* recipes, tool kernels, reference board */
    FILE *out, *err;
};

/* Prints the new run's id and what was imported on out, warnings on err.
 * Returns 0 when at least one metric was imported, 1 when nothing could
 * be (unreadable file, no benchmark of TOOL, no output of TOOL in it, the
 * store not writable), 2 for an unknown TOOL. */
int cli_import(const struct import_cmd *ic);

#endif
