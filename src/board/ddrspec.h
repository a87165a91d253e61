/* ddrspec.h - each SoC's DDR data bus, for the theoretical peak bandwidth.
 *
 * The facts come from the data file soc/ddr.json (benches/soc/ in the
 * source tree, built in with the other data), one entry per soc0 family,
 * each with the TI document its bus width comes from. The peak is the
 * data rate times the bus width; where either is unknown there is no
 * peak, never a guess. */
#ifndef EVMBENCH_DDRSPEC_H
#define EVMBENCH_DDRSPEC_H

#include <stdbool.h>
#include <stddef.h>

#include "common/diag.h"

#define DDRSPEC_FORMAT "evmbench-ddr/1"

/* One SoC family of the file. */
struct ddr_soc {
    char *family;           /* soc0 family, e.g. "AM62X" */
    int bus_bits;           /* data bus width of all interfaces together */
    char *interfaces;       /* "one 16-bit DDR4/LPDDR4 interface" */
    char *document;         /* where the width comes from */
    double pll_to_mts;      /* MT/s per MHz of the DDR PLL clock; 0 unknown */
    char *ti_sci_clock;     /* "170:1": the DDR PLL as TI-SCI device:clock, or NULL */
};

struct ddrspec {
    struct ddr_soc *socs;
    size_t nsocs;
};

/* Parses the text of a soc/ddr.json; `label` names it in messages, as
 * board/socdata.h says them. An entry that is not an object, has no
 * family or a width that is not a positive multiple of 8 is skipped with
 * a message in d. Returns the entries kept, -1 (and a message) when the
 * text is not such a file. *spec is overwritten;
 * release with ddrspec_free() in every case. */
int ddrspec_parse(struct ddrspec *spec, const char *text, const char *label,
                  struct diag *d);
/* Reads soc/ddr.json from the data folders (data/datadir.h); -1 with a
 * message when it cannot be read (a missing file too) or parsed. */
int ddrspec_load(struct ddrspec *spec, struct diag *d);
void ddrspec_free(struct ddrspec *spec);

/* The entry of soc0 family `family` (case-insensitive), NULL when none. */
const struct ddr_soc *ddrspec_find(const struct ddrspec *spec, const char *family);

/* Theoretical peak in MB/s (10^6 bytes): mts x bus_bits / 8; 0 when the
 * SoC or the rate is unknown. */
double ddrspec_peak_mbs(const struct ddr_soc *soc, double mts);

#endif
