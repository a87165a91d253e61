/* cli_results.h - `evmbench results ...`: the results store from the shell.
 *
 *   results list                  every run: id, state, board, row count
 *   results show RUN              its rows (text, json, csv, lava, junit)
 *   results compare RUN_A RUN_B   per metric both values, change %, better/worse
 *   results export RUN            the same as show, meant with -o FILE
 *   results prune --keep N        deletes all but the newest N runs
 *   results import LOG --tool T   a saved tool log as a run (cli_import.h;
 *                                 cli_cmd_results_import builds the app)
 *
 * RUN is a run id, a unique prefix of one, a path, or "latest". Corrupt
 * or foreign files in the store are reported and skipped. */
#ifndef EVMBENCH_CLI_RESULTS_H
#define EVMBENCH_CLI_RESULTS_H

#include <stdbool.h>
#include <stdio.h>

struct results_cmd {
    const char *dir;            /* the store */
    const char *format;         /* text, json, csv, lava, junit */
    bool format_given;
    const char *output;         /* -o FILE or NULL */
    int keep;
    bool keep_set;
    double fail_pct;            /* --fail-on-deviation, for lava/junit */
    FILE *out, *err;
};

/* Returns the exit status (0, 1 error, 2 usage). */
int cli_results(const struct results_cmd *rc, char **args, int nargs);

#endif
