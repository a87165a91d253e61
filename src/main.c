/* main.c - evmbench entry point; everything else is in libevmbench. */
#include "config.h"

#include <signal.h>
#include <stdio.h>

#include "cli.h"

int main(int argc, char **argv)
{
    /* A file-size limit makes a write fail with EFBIG, reported like a
     * full disk, instead of killing the program with what it measured. */
    signal(SIGXFSZ, SIG_IGN);
    return cli_main(argc, argv, stdout, stderr);
}
