/* cli_options.h - the options of the command line: which there are, what
 * was given, the parser. Only cli*.c include it. */
#ifndef EVMBENCH_CLI_OPTIONS_H
#define EVMBENCH_CLI_OPTIONS_H

#include <stdint.h>

#include "cli/cli_impl.h"

/* Every option but -h and -V (which go anywhere), in the order in which
 * a usage error names the first one a command does not take. */
enum cli_opt {
    OPT_OUTPUT, OPT_FORMAT, OPT_SYSROOT, OPT_BOARD, OPT_REFS, OPT_QUICK, OPT_TIMEOUT,
    OPT_TOLERANCE, OPT_SIZE, OPT_ITERATIONS, OPT_THREADS, OPT_PROVIDER, OPT_TOOLS_DIR,
    OPT_STORAGE_DIR, OPT_ALLOW_RAW, OPT_PEER, OPT_AUDIO_DEVICE, OPT_ROUNDS, OPT_RUN, OPT_DEMO,
    OPT_THEME, OPT_SLOW_TTY, OPT_UI, OPT_SECTION, OPT_LAYOUT, OPT_RESULTS_DIR, OPT_NO_SAVE,
    OPT_SAVE_BASELINE, OPT_REPLACE_BASELINE, OPT_BASELINE, OPT_FAIL_ON_DEVIATION, OPT_KEEP, OPT_PROFILE, OPT_QUIET,
    OPT_LAVA_KMSG, OPT_TOOL,
    OPT_ALL, OPT_CHECK,
    OPT_COUNT
};

/* A set of options, as in a command's entry of the command table. */
typedef uint64_t cli_optset;
#define OPT_BIT(o) ((cli_optset)1 << (o))

/* The options given: each as the user first spelled it ("-o", "--output",
 * "--category"), empty when not given. */
struct cli_given {
    char name[OPT_COUNT][32];
};

/* Parses argv's options into c and g (zeroed by the caller); -h and -V
 * set c->help or c->version and end the parsing. Returns -1 to go on
 * (optind is then the first argument), else the exit status after a
 * message on c->err. */
int cli_parse_options(struct cli *c, struct cli_given *g, int argc, char **argv);

/* Checks --storage-dir, --allow-raw-device, --peer and --audio-device and
 * hands them to the recipes; returns -1 to go on, else the exit status. */
int cli_set_tool_params(struct cli *c);

#endif
