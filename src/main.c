/* main.c - evmbench entry point; everything else is in libevmbench. */
#include "config.h"

#include <stdio.h>

#include "cli.h"

int main(int argc, char **argv)
{
    return cli_main(argc, argv, stdout, stderr);
}
