/* cli.h - the command line (the contract in README.md and evmbench(1)).
 *
 * Exit codes: 0 success, 2 usage error, 3 a benchmark failed to run. */
#ifndef EVMBENCH_CLI_H
#define EVMBENCH_CLI_H

#include <stdio.h>

enum { EXIT_USAGE = 2, EXIT_BENCH_FAILED = 3 };

/* Runs one invocation; output goes to out, messages to err. */
int cli_main(int argc, char **argv, FILE *out, FILE *err);

#endif
