/* option_table.c - prints the options the command-line parser accepts, one
 * a line, as cli_options_describe() (src/cli/cli_options.h) writes them,
 * for tests/check-options.sh to hold man/evmbench.1 to. The list comes
 * from the parser's own getopt table, so it is what evmbench accepts. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "cli/cli_options.h"

int main(void)
{
    cli_options_describe(stdout);
    return fflush(stdout) == 0 && !ferror(stdout) ? EXIT_SUCCESS : EXIT_FAILURE;
}
