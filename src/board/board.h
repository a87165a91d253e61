/* board.h - which board this is, read from the device tree and sysfs.
 *
 * Everything is read below a root prefix (`--sysroot DIR`, default "/"),
 * so tests use fixture trees. Nothing here fails: missing files leave
 * fields empty (NULL / 0) and an unknown board, a non-TI board and a PC
 * without a device tree are ordinary outcomes, described in `how`. */
#ifndef EVMBENCH_BOARD_H
#define EVMBENCH_BOARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "board/socfacts.h"

enum board_kind {
    BOARD_KNOWN,        /* matched a guide column key */
    BOARD_TI_UNKNOWN,   /* a TI SoC (family or compatible) with no key */
    BOARD_OTHER_DT,     /* a device tree, but not a TI board */
    BOARD_NO_DT,        /* no device tree at all: a PC or a VM */
    BOARD_OVERRIDE,     /* chosen with --board */
};

struct board_info {
    enum board_kind kind;
    char *key;              /* guide column key, e.g. "am62xx_sk-fs", or NULL */
    char *name;             /* "AM62x SK", the model, a PC's DMI name, or NULL */
    char *model;            /* /proc/device-tree/model */
    char **compatible;      /* /proc/device-tree/compatible, in order */
    size_t ncompatible;
    char *family;           /* /sys/devices/soc0/family, e.g. "AM62X"; without
                               soc0, derived from a TI SoC compatible */
    char *machine;          /* /sys/devices/soc0/machine */
    char *revision;         /* /sys/devices/soc0/revision, e.g. "SR1.0" */
    bool soc0;              /* /sys/devices/soc0 exists: every TI kernel
                               makes it (k3-socinfo); an emulator does not */
    bool family_from_soc0;  /* family was read from soc0, not derived */
    int cores;              /* processors in /proc/cpuinfo */
    char *cpu_part;         /* "0xd03" */
    char *cpu_name;         /* "Cortex-A53", or the x86 model name */
    double cpu_mhz;         /* current, from cpufreq (or cpuinfo "cpu MHz") */
    const char *cpu_mhz_from;   /* where cpu_mhz comes from: "cpufreq current"
                               or "/proc/cpuinfo \"cpu MHz\""; NULL when 0 */
    double cpu_max_mhz;     /* cpuinfo_max_freq; 0 when unknown */
    bool cpufreq;           /* cpu0 has a cpufreq directory with a clock or
                               a governor in it */
    char *governor;         /* scaling_governor, or NULL */
    long mem_mb;            /* MemTotal */
    size_t cache_bytes;     /* cpu0's data and unified caches, summed;
                               0 when neither sysfs nor the SoC facts say */
    char *cache_from;       /* where: "sysfs: L1d 32K + L2 512K" or
                               "AM62X facts in soc/cpu.json: 32K+512K" */
    char *kernel;           /* kernel release */
    char *how;              /* one sentence: why this board was chosen */
};

/* Detects the board under sysroot (NULL = "/"). The kernel release is read
 * from <sysroot>/proc/sys/kernel/osrelease, falling back to uname() only
 * when sysroot is "/". *b is overwritten (not freed first); strings are
 * printable ASCII, so binary junk in a file never reaches the output.
 * Release with board_free(). Never fails, never prints. */
void board_detect(struct board_info *b, const char *sysroot);
/* Applies --board KEY: kind becomes BOARD_OVERRIDE, `how` says so and what
 * detection had found. The key need not be one of board_known_keys (an
 * imported guide may have more); name is then the key. NULL/"" = no-op. */
void board_override(struct board_info *b, const char *key);
/* When sysfs showed no caches (cache_bytes 0), takes them from the facts
 * of the detected SoC family (b->family); otherwise leaves b alone. */
void board_cache_from_facts(struct board_info *b, const struct soc_facts *f);
/* Frees every field and zeroes *b. */
void board_free(struct board_info *b);

/* "known", "ti_unknown", "other_dt", "no_dt", "override" (the JSON `kind`). */
const char *board_kind_name(enum board_kind kind);

/* Display name of a guide column key ("AM62x SK"), NULL when not known. */
const char *board_key_name(const char *key);
/* The guide column keys this program can detect, NULL-terminated. */
extern const char *const board_known_keys[];

/* The sysinfo object of the CLI contract (evmbench(1), sysinfo). */
json_t *board_to_json(const struct board_info *b);
/* Aligned text for `evmbench sysinfo` and the system screen. */
void board_print_text(const struct board_info *b, FILE *out);
/* One more "Label:  value" line in the same layout, wrapped at 80 columns
 * ("unknown" for a NULL value). */
void board_print_field(FILE *out, const char *label, const char *value);

/* --- how sure: is this the guide's board? ---------------------------------
 *
 * A device tree can say "ti,am625-sk" on a machine that is not one (an
 * emulator, a container with a copied tree). board_assess() holds the
 * board against the guide board it is compared with: soc0 family and
 * revision, the CPU part and core count of /proc/cpuinfo against the SoC
 * facts, the clock against the guide's EVM clock. */

enum board_check_result { CHECK_CONFIRMS, CHECK_CONTRADICTS, CHECK_UNCHECKED };

#define BOARD_CLOCK_TOL_PCT 10.0    /* clock vs the guide's, confirms within */
#define BOARD_CHECKS        4       /* soc0, cpu, cores, clock */

struct board_check {
    const char *name;       /* "soc0", "cpu", "cores", "clock" */
    enum board_check_result result;
    char *text;             /* one sentence, no period; owned */
};

struct board_match {
    char *key;              /* the guide board held against; NULL: none */
    char *name;             /* its display name */
    struct board_check checks[BOARD_CHECKS];
    size_t n, confirms, contradicts;
};

/* Holds b against guide board `key` (NULL: nothing to hold it against,
 * m->n stays 0). The SoC family comes from the key's known board (an
 * unknown key leaves soc0, cpu and cores unchecked); guide_mhz is the
 * guide's EVM clock (0: unknown); clock_mhz the board's clock (0: unknown)
 * and clock_from says how it was found ("measured", "cpufreq maximum").
 * *m is overwritten; release with board_match_free(). */
void board_assess(const struct board_info *b, const char *key, const struct soc_facts *f,
                  double guide_mhz, double clock_mhz, const char *clock_from,
                  struct board_match *m);
void board_match_free(struct board_match *m);
/* "confirmed" (every check confirms), "likely" (none contradicts),
 * "doubtful" (one or more contradict), "none" (not assessed). */
const char *board_match_confidence(const struct board_match *m);
/* {"board", "confidence", "checks": [{"check", "result", "text"}]}, or
 * null when not assessed. */
json_t *board_match_to_json(const struct board_match *m);
/* "Match:" and one line per check, in board_print_text()'s layout. */
void board_match_print_text(const struct board_match *m, FILE *out);
/* One line when a check contradicts ("this board does not match the
 * guide's AM62x SK (am62xx_sk-fs): ...; " and then `so`, what follows
 * for the reader: above a run's results BOARD_DOUBT_RESULTS); NULL when
 * nothing contradicts. Caller frees. */
char *board_match_warning(const struct board_match *m, const char *so);
#define BOARD_DOUBT_RESULTS "the deviations below may not be the board's"
/* The clock to hold against the guide's: on the real root the clock of
 * the calling thread's core measured for `seconds` (cpuclock.h); under a
 * --sysroot tree, or when measuring fails, the tree's cpufreq maximum
 * (else the current clock). *from gets "measured", "cpufreq maximum" or
 * "reported". 0 when none is known. */
double board_clock(const struct board_info *b, const char *sysroot, double seconds,
                   const char **from);
/* board_clock() with the clock already measured (measured_mhz; 0: none,
 * as under a --sysroot tree). */
double board_clock_of(const struct board_info *b, double measured_mhz, const char **from);

#endif
