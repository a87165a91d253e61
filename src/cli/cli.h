/* cli.h - the command line (the contract in README.md and evmbench(1)).
 *
 * Exit codes: 0 success, 2 usage error, 3 a benchmark failed to run. */
#ifndef EVMBENCH_CLI_H
#define EVMBENCH_CLI_H

#include <stdio.h>

enum { EXIT_USAGE = 2, EXIT_BENCH_FAILED = 3 };

/* Runs one invocation; output goes to out, messages to err. */
int cli_main(int argc, char **argv, FILE *out, FILE *err);

/* Which standard descriptors the program was started without (main opens
 * /dev/null onto them). */
enum { CLI_STDOUT_CLOSED = 1u << 0, CLI_STDERR_CLOSED = 1u << 1 };

/* As cli_main; `closed` holds the CLI_*_CLOSED flags. A command whose
 * output would go to out while stdout was closed fails (exit 1) with a
 * message on err, before it does any work. */
int cli_main_std(int argc, char **argv, FILE *out, FILE *err, unsigned closed);

#endif
