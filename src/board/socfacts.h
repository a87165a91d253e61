/* socfacts.h - each SoC's application CPU (soc/cpu.json).
 *
 * The facts a detected board is checked against (the Arm CPU part and the
 * core count of the guide board's SoC) and the caches STREAM sizes its
 * arrays for when sysfs shows none. Data, not code: the file soc/cpu.json
 * (benches/soc/ in the source tree, built in with the other data), one
 * entry per soc0 family, each with the TI document it comes from:
 *
 *     {"family": "AM62X", "cpu_part": "0xd03", "cpu": "Cortex-A53",
 *      "cores": 4, "caches_kib": [32, 512], "document": "..."}
 *
 * An entry that cannot be used is reported by its JSON path and skipped. */
#ifndef EVMBENCH_SOCFACTS_H
#define EVMBENCH_SOCFACTS_H

#include <stddef.h>

#include "common/diag.h"

#define SOCFACTS_FORMAT "evmbench-cpu/1"
#define SOC_CACHES_MAX  4

struct soc_fact {
    char *family;           /* "AM62X", as soc0 reports it */
    char *cpu_part;         /* "0xd03" */
    int cores;
    size_t caches[SOC_CACHES_MAX];  /* bytes, L1 data first */
    size_t ncaches;
    size_t cache_bytes;     /* their sum */
};

struct soc_facts {
    struct soc_fact *items;
    size_t n;
};

/* Parses the text of a soc/cpu.json (label names it in messages) into f
 * (overwritten; release with soc_facts_free() in every case). Returns the
 * number of problems, each in d as board/socdata.h says them: a text
 * that is not such a file ("label:line:col: ..." or its format or socs),
 * an entry skipped ("label: socs[3]: ..."). */
int soc_facts_parse(struct soc_facts *f, const char *text, const char *label,
                    struct diag *d);
/* Reads soc/cpu.json from the data folders (data/datadir.h); the number
 * of problems, as soc_facts_parse (an unreadable file is one; a missing
 * one is none: f stays empty and the checks say there are no facts). */
int soc_facts_load_default(struct soc_facts *f, struct diag *d);
/* The facts of a soc0 family (case-insensitive), NULL when none. */
const struct soc_fact *soc_facts_find(const struct soc_facts *f, const char *family);
/* A cache size as sysfs writes it: "32K", "1M", "512" (bytes). 0 when it
 * is not one (junk, trailing text, overflow). */
size_t soc_size_parse(const char *s);
/* The caches as "32K+512K" into buf ("" when none). */
void soc_fact_caches_text(const struct soc_fact *s, char *buf, size_t n);
void soc_facts_free(struct soc_facts *f);

#endif
