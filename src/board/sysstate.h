/* sysstate.h - the state of the system a run ran on, and what changed.
 *
 * A run records, as one JSON object (the "system" member of its header):
 * the measured clock of each core (never under a --sysroot tree: it is
 * not this machine; "measured_why" says so) beside cpufreq's current, min
 * and max and its governor; the DDR data rate and the DDR controller's clock with
 * the source of each number, or why it was not readable; total memory;
 * kernel release and command line; device-tree model and compatible; the
 * soc0 family and revision; the boot loader version; the thermal zones'
 * temperatures at the start (and, from sysstate_end(), at the end).
 *
 * Everything is read below a root prefix like board_detect() (NULL = "/"),
 * so tests use fixture trees. Nothing is ever written or changed: debugfs'
 * clk_summary and the device tree are read, TI's k3conf is only asked to
 * `dump clock`. A source that cannot be read is a reason in the record,
 * never a failure.
 *
 * The DDR sources, first that gives a number wins:
 *   clk_summary  <root>/sys/kernel/debug/clk/clk_summary: a clock named
 *                like the DDR (ddr, emif, dmc, dram) or the SoC's TI-SCI
 *                DDR clock ("clk:170:1")
 *   device tree  a memory-controller/ddr/emif node's ti,ddr-freq1 (TI K3),
 *                clock-frequency or max-frequency
 *   k3conf       `k3conf dump clock`, the SoC's TI-SCI DDR clock
 * The clock becomes a data rate only through the SoC's pll_to_mts
 * (ddrspec.h); otherwise the rate says why it is not known. */
#ifndef EVMBENCH_SYSSTATE_H
#define EVMBENCH_SYSSTATE_H

#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

#include "board/ddrspec.h"
#include "common/diag.h"

#define SYSSTATE_FORMAT 1
#define SYSSTATE_MEASURE_S 0.1      /* per core, for a run's record */
#define SYSSTATE_TEMP_CHANGE_C 5.0  /* a start temperature moved this much */
/* Why the cores of a --sysroot tree are never measured (the record's
 * "measured_why"): the measurement times the cores this process runs on. */
#define SYSSTATE_TREE_NOT_MEASURED \
    "a --sysroot tree: timing this machine's cores would not describe its cores, " \
    "so its clocks are cpufreq's"

struct sysstate_opts {
    const char *sysroot;        /* NULL = "/" */
    double measure_s;           /* per core; <= 0: cores are not measured,
                                 * nor under a --sysroot tree */
    const struct ddr_soc *soc;  /* the SoC's DDR facts, or NULL */
    const char *k3conf;         /* the k3conf to run; NULL: $EVMBENCH_K3CONF,
                                 * else "k3conf" on $PATH when sysroot is "/"
                                 * (a fixture tree has no k3conf of its own) */
};

/* The record at the start of a run. Never NULL; caller decrefs. Blocks
 * for about measure_s per core, and up to a few seconds for k3conf. */
json_t *sysstate_read(const struct sysstate_opts *o);

/* sysstate_read() for a board: the DDR facts of SoC family `family` come
 * from soc/ddr.json (read once per process; why it could not be read goes
 * to d, which may be NULL), k3conf as sysstate_opts says for NULL. Sets
 * *peak_mbs (may be NULL) to the theoretical DDR peak, 0 when the rate or
 * the width is unknown. Never NULL; caller decrefs. */
json_t *sysstate_read_board(const char *sysroot, const char *family, double measure_s,
                            double *peak_mbs, struct diag *d);
/* The SoC entry of family `family` in soc/ddr.json (read as above), NULL
 * when there is none. */
const struct ddr_soc *sysstate_soc(const char *family, struct diag *d);

/* What the end of a run adds: {"thermal": [{"zone", "end_c"}...]}. For
 * the run file's end line; sysstate_merge_end() puts it into the record. */
json_t *sysstate_end(const char *sysroot);
/* Copies the end temperatures of `end` (sysstate_end()) into the thermal
 * list of sys, as "end_c". Either may be NULL. */
void sysstate_merge_end(json_t *sys, json_t *end);
/* A record as the store gives it back (store_load_system(),
 * stored_run_system(): the end line's object as member "end") made whole:
 * "end" merged into the thermal list and removed. Returns sys. */
json_t *sysstate_from_store(json_t *sys);

/* The DDR data rate in MT/s the record holds, 0 when not readable (or no
 * record). */
double sysstate_ddr_mts(json_t *sys);
/* The fastest core's measured clock in MHz, 0 when no core was measured
 * (or no record). */
double sysstate_measured_mhz(json_t *sys);

/* What differs between the systems of two runs, A then B, in one line:
 * "DDR 1600 -> 1333 MT/s (clk_summary), CPU 1400 -> 1250 MHz measured,
 * kernel unchanged". A missing record (a run file from before they were
 * recorded) is said. Caller frees. */
char *sysstate_diff(json_t *a, json_t *b);

/* What changed between the systems of two runs, A then B, that could
 * move a benchmark: each rate only when both records have it and it moved
 * (the DDR rate by more than 0.5 %, the fastest core's clock by more than
 * CPUCLOCK_MISMATCH_PCT, like for like: measured on both sides, else
 * cpufreq's maximum); the rest as changed or not. */
struct sysstate_change {
    double ddr_from, ddr_to;    /* MT/s; 0 0: unchanged or not readable */
    double cpu_from, cpu_to;    /* MHz; 0 0: unchanged or not known */
    bool cpu_measured;          /* both sides measured (else cpufreq max) */
    char *governor;             /* "ondemand -> performance", or NULL */
    bool kernel, cmdline, device_tree, boot_loader;    /* changed */
};
/* Fills c (sysstate_change_free frees it); a missing record changes nothing. */
void sysstate_changes(json_t *a, json_t *b, struct sysstate_change *c);
void sysstate_change_free(struct sysstate_change *c);

/* The record in one line, for a run's header in `results show`:
 * "DDR 1600 MT/s (clk_summary), CPU 1400 MHz measured, kernel 6.6.32-ti,
 * U-Boot 2024.04". NULL record: "not recorded". Caller frees. */
char *sysstate_summary(json_t *sys);

/* The record as "Label:  value" lines (board_print_field's layout): DDR,
 * per-core clocks, kernel command line, boot loader, temperatures. The
 * fields board_print_text() already shows are left out. */
void sysstate_print_text(json_t *sys, FILE *out);

#endif
