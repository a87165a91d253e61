/* sysfacts.h - what this system is, read once: the facts `evmbench
 * sysinfo` prints and the system screen ('s') shows, from one reading so
 * that the two never tell different stories.
 *
 * A reading holds the board as app_init() detected it (or as picked on
 * the board screen), the system record of a run (board/sysstate.h: the
 * DDR rate and clock with their sources, each core's clocks, measured on
 * the real root only), the theoretical DDR peak, the guide's evaluation
 * module, how sure the match with the guide's board is, what this user
 * may do as root, and the warnings: what could spoil a benchmark or
 * mislead a comparison. Everything is read under the app's sysroot; the
 * match holds the clock of the record against the guide's. */
#ifndef EVMBENCH_SYSFACTS_H
#define EVMBENCH_SYSFACTS_H

#include <stdio.h>

#include <jansson.h>

#include "app.h"
#include "board/board.h"
#include "board/ddrspec.h"
#include "board/privilege.h"
#include "common/diag.h"

struct sysfacts {
    const struct app *app;          /* borrowed: read from it */
    json_t *system;                 /* the system record (sysstate_read_board) */
    double ddr_peak_mbs;            /* rate x bus width; 0 when either is unknown */
    const struct ddr_soc *ddr_soc;  /* the SoC's DDR facts (soc/ddr.json), or NULL */
    struct board_match match;       /* against the reference board; n 0: none */
    struct priv_report priv;
    struct diag problems;           /* soc/ddr.json could not be read: why */
    /* One sentence each, no period: the match's doubts (board_match_warning),
     * no guide board, the CPU checks (kernel/cpucheck.h: governor, load,
     * a capped clock, heat, no cpufreq; a measured clock that is not
     * cpufreq's), the problems above. */
    char **warnings;
    size_t nwarnings;
};

/* Reads the facts of a's system under a->sysroot, measuring each core's
 * clock for measure_s seconds (<= 0: none measured). Blocks for about
 * measure_s per core, and for k3conf where sysstate_read() runs it.
 * Release with sysfacts_free(); a must outlive f. */
void sysfacts_read(struct sysfacts *f, const struct app *a, double measure_s);
void sysfacts_free(struct sysfacts *f);

/* The facts as `evmbench sysinfo` prints them: "Label:  value" lines,
 * wrapped before column 80 (board_print_field's layout), a "Warning:"
 * line for each warning ("Warnings:  none: ..." without). A board picked
 * on the board screen (app_pick_board) is the one shown, and "Decided:"
 * says so. */
void sysfacts_print_text(const struct sysfacts *f, FILE *out);

/* sysinfo's JSON (evmbench(1)): the board (board_to_json) with the
 * members system, ddr_peak, evm, match, privileges and warnings (an
 * array of strings). Caller decrefs. */
json_t *sysfacts_to_json(const struct sysfacts *f);

#endif
