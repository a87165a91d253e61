/* cli_system.c - the system record for the commands (cli_system.h). */
#include "config.h"
#include "cli/cli_system.h"

#include <stdlib.h>

#include "board/sysstate.h"
#include "common/diag.h"

double cli_system_peak(json_t *sys, const char *family, const struct ddr_soc **soc)
{
    const struct ddr_soc *s = sysstate_soc(family, NULL);
    if (soc)
        *soc = s;
    return ddrspec_peak_mbs(s, sysstate_ddr_mts(sys));
}

json_t *cli_system_read(struct app *a, double measure_s, FILE *err)
{
    struct diag d;
    diag_init(&d);
    json_t *sys = sysstate_read_board(a->sysroot, a->board.family, measure_s,
                                      &a->cmp.ddr_peak_mbs, &d);
    for (size_t i = 0; err && i < d.n; i++)
        fprintf(err, "evmbench: warning: %s (no DDR peak is shown)\n", d.msgs[i]);
    diag_free(&d);
    return sys;
}

void cli_system_print_diff(FILE *f, json_t *a, json_t *b)
{
    char *s = sysstate_diff(a, b);
    fprintf(f, "System: %s\n", s);
    free(s);
}
