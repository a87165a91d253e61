/* cli_system.c - the system record for the commands (cli_system.h). */
#include "config.h"
#include "cli/cli_system.h"

#include <stdbool.h>
#include <stdlib.h>

#include "board/ddrspec.h"
#include "board/sysstate.h"
#include "common/diag.h"

/* The DDR facts, read once for the process. */
static struct ddrspec spec;
static bool spec_loaded;

static void load_spec(FILE *err)
{
    if (spec_loaded)
        return;
    spec_loaded = true;
    struct diag d;
    diag_init(&d);
    ddrspec_load(&spec, &d);
    for (size_t i = 0; err && i < d.n; i++)
        fprintf(err, "evmbench: warning: %s (no DDR peak is shown)\n", d.msgs[i]);
    diag_free(&d);
}

double cli_system_peak(json_t *sys, const char *family, const struct ddr_soc **soc)
{
    load_spec(NULL);
    const struct ddr_soc *s = ddrspec_find(&spec, family);
    if (soc)
        *soc = s;
    return ddrspec_peak_mbs(s, sysstate_ddr_mts(sys));
}

json_t *cli_system_read(struct app *a, double measure_s, FILE *err)
{
    load_spec(err);
    struct sysstate_opts o = {
        .sysroot = a->sysroot,
        .measure_s = measure_s,
        .soc = ddrspec_find(&spec, a->board.family),
    };
    json_t *sys = sysstate_read(&o);
    a->cmp.ddr_peak_mbs = cli_system_peak(sys, a->board.family, NULL);
    return sys;
}

void cli_system_print_diff(FILE *f, json_t *a, json_t *b)
{
    char *s = sysstate_diff(a, b);
    fprintf(f, "System: %s\n", s);
    free(s);
}
