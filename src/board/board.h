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
    int cores;              /* processors in /proc/cpuinfo */
    char *cpu_part;         /* "0xd03" */
    char *cpu_name;         /* "Cortex-A53", or the x86 model name */
    double cpu_mhz;         /* current, from cpufreq (or cpuinfo "cpu MHz") */
    double cpu_max_mhz;     /* cpuinfo_max_freq; 0 when unknown */
    char *governor;         /* scaling_governor, or NULL */
    long mem_mb;            /* MemTotal */
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
/* Frees every field and zeroes *b. */
void board_free(struct board_info *b);

/* "known", "ti_unknown", "other_dt", "no_dt", "override" (the JSON `kind`). */
const char *board_kind_name(enum board_kind kind);

/* Display name of a guide column key ("AM62x SK"), NULL when not known. */
const char *board_key_name(const char *key);
/* The guide column keys this program can detect, NULL-terminated. */
extern const char *const board_known_keys[];

/* The sysinfo object of the CLI contract (see README, "sysinfo"). */
json_t *board_to_json(const struct board_info *b);
/* Aligned text for `evmbench sysinfo` and the system screen. */
void board_print_text(const struct board_info *b, FILE *out);
/* One more "Label:  value" line in the same layout, wrapped at 80 columns
 * ("unknown" for a NULL value). */
void board_print_field(FILE *out, const char *label, const char *value);

#endif
