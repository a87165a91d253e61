/* cli_options.h - the options of the command line: which there are, what
 * was given, the parser. Only cli*.c include it (and tests/option_table.c,
 * which prints the table). */
#ifndef EVMBENCH_CLI_OPTIONS_H
#define EVMBENCH_CLI_OPTIONS_H

#include <stdint.h>
#include <stdio.h>

#include "cli/cli_impl.h"

/* Every option but -h and -V (which go anywhere), in the order in which
 * a usage error names the first one a command does not take: the rows of
 * cli_options.def. */
#define OPTION_TEXT(id, name, letter, field, value) OPT_##id,
#define OPTION_FLAG(id, name, letter, field) OPT_##id,
#define OPTION_NUMBER(id, name, letter) OPT_##id,
#define OPTION_OWN(id, name, letter, arg, value) OPT_##id,
#define OPTION_ALIAS(id, name)
enum cli_opt {
#include "cli/cli_options.def"
    OPT_COUNT
};
#undef OPTION_TEXT
#undef OPTION_FLAG
#undef OPTION_NUMBER
#undef OPTION_OWN
#undef OPTION_ALIAS

/* A set of options, as in a command's entry of the command table. */
typedef uint64_t cli_optset;
#define OPT_BIT(o) ((cli_optset)1 << (o))
_Static_assert(OPT_COUNT <= 64, "cli_optset holds at most 64 options");

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

/* Writes every option the parser accepts, -h and -V included, one a line
 * in getopt's order: "--NAME -L ARG", L the short letter or "-" alone when
 * there is none, ARG "none", "required" or "optional"; another long name
 * of an option is "--NAME - ARG = --FIRST". What tests/check-options.sh
 * holds man/evmbench.1 to. */
void cli_options_describe(FILE *out);

#endif
