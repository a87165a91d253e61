/* socfacts.h - what each TI SoC is made of (benches/refs/socs.conf).
 *
 * The facts a detected board is checked against (the CPU part and core
 * count of the guide's board) and the caches STREAM sizes its arrays for
 * when sysfs shows none. Data, not code: one line per soc0 family,
 *
 *     soc AM62X cpu=0xd03 cores=4 caches=32K+512K
 *
 * A malformed line is reported as "file:line: message" and skipped. */
#ifndef EVMBENCH_SOCFACTS_H
#define EVMBENCH_SOCFACTS_H

#include <stddef.h>

#include "common/diag.h"

#define SOC_CACHES_MAX  4

struct soc_fact {
    char *family;           /* "AM62X", as soc0 reports it */
    char *cpu_part;         /* "0xd03" */
    int cores;
    size_t caches[SOC_CACHES_MAX];  /* bytes, L1 data first */
    size_t ncaches;
    size_t cache_bytes;     /* their sum */
    int line;
};

struct soc_facts {
    struct soc_fact *items;
    size_t n, cap;
};

/* Adds the lines of text (file names it in messages) to f. Returns the
 * number of malformed lines, each reported to d. */
int soc_facts_parse(struct soc_facts *f, const char *text, const char *file,
                    struct diag *d);
/* Loads socs.conf from the "refs" data folder (datadir.h). A missing file
 * is no error (f stays empty); returns the number of problems. */
int soc_facts_load_default(struct soc_facts *f, struct diag *d);
/* The facts of a soc0 family (case-insensitive), NULL when none. */
const struct soc_fact *soc_facts_find(const struct soc_facts *f, const char *family);
/* A cache size as sysfs and socs.conf write it: "32K", "1M", "512" (bytes).
 * 0 when it is not one (junk, trailing text, overflow). */
size_t soc_size_parse(const char *s);
/* "32K+512K" style text of the caches into buf ("" when none). */
void soc_fact_caches_text(const struct soc_fact *s, char *buf, size_t n);
void soc_facts_free(struct soc_facts *f);

#endif
