/* cli_system.h - the system record of a run (board/sysstate.h) for the
 * commands: run, sysinfo, results compare. */
#ifndef EVMBENCH_CLI_SYSTEM_H
#define EVMBENCH_CLI_SYSTEM_H

#include <stdio.h>

#include <jansson.h>

#include "app.h"
#include "board/ddrspec.h"

/* Reads the system record under the app's sysroot, measuring each core
 * for measure_s seconds, with the DDR facts of the board's SoC family
 * (soc/ddr.json), and sets a->cmp.ddr_peak_mbs from them (0 when the rate
 * or the width is unknown). Problems reading the data file go to err as
 * warnings. Never NULL; caller decrefs. */
json_t *cli_system_read(struct app *a, double measure_s, FILE *err);

/* The theoretical DDR peak of a record for the SoC family it names, in
 * MB/s, and the SoC's entry (*soc, may be NULL); 0 when unknown. The
 * entry points into a table loaded once and kept for the process. */
double cli_system_peak(json_t *sys, const char *family, const struct ddr_soc **soc);

/* "System: DDR 1600 -> 1333 MT/s (clk_summary), ..." for records a and b
 * (either may be NULL: a file from before they were recorded). */
void cli_system_print_diff(FILE *f, json_t *a, json_t *b);

#endif
