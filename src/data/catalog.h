/* catalog.h - the menu: the guide's sections with what can run them.
 *
 * Built from the reference database (the guide IS the menu) and the
 * providers. A benchmark is a section that holds tables, identified by the
 * slug of its innermost title ("stream"); the same section in several
 * guides is one benchmark. Its category is the heading just above it (a
 * top-level section is its own category), in the order the guides give
 * them (guides in load order; a title seen again, with or without a
 * trailing "Driver", joins its category; a non-Linux SDK's are tagged with
 * the SDK, e.g. "IPC performance (MCU+ SDK)"). Several kernels may serve one section (LMBench:
 * bandwidth, latencies, OS kernels); a kernel whose section no guide has
 * gets a benchmark of its own in the category "Other". */
#ifndef EVMBENCH_CATALOG_H
#define EVMBENCH_CATALOG_H

#include <stddef.h>

#include "run/kernel.h"
#include "data/refdb.h"

struct cat_bench {
    char *slug;                     /* "stream" */
    char *title;                    /* path below the category: "Stream" */
    const struct ref_table **tables;
    size_t ntables;
    const struct kernel **kernels;  /* the kernels serving this section, in */
    size_t nkernels;                /* registry order; none: reference only */
    struct cat_category *category;
};

struct cat_category {
    char *title;
    struct cat_bench **benches;
    size_t nbenches;
};

struct catalog {
    struct cat_category *cats;
    size_t ncats;
};

struct catalog *catalog_build(const struct refdb *db,
                              const struct kernel *const *kernels, size_t nkernels);
void catalog_free(struct catalog *c);
/* A benchmark by its slug or the name of one of its kernels
 * (case-insensitive), or NULL. */
const struct cat_bench *catalog_find_bench(const struct catalog *c, const char *name);
/* A category by title or its slug, or NULL. */
const struct cat_category *catalog_find_category(const struct catalog *c, const char *name);
/* Which providers a run uses (--provider). */
enum provider_pref {
    PROVIDER_AUTO,      /* the official tool where it is installed, else the kernel */
    PROVIDER_KERNEL,    /* embedded kernels only */
    PROVIDER_TOOL,      /* external tools only (a missing tool fails, says why) */
};
/* Parses "auto", "kernel", "tool"; -1 when unknown. */
int provider_pref_parse(const char *s);
const char *provider_pref_name(enum provider_pref p);

/* Whether a kernel can run here (a tool kernel: its binary is found). */
typedef bool (*kernel_available_fn)(const struct kernel *k);

/* The kernels a run of the benchmark starts, in order. Extras (kernel.h)
 * come only when `extras` is set (--threads). With PROVIDER_AUTO a tool
 * kernel is used when `available` says it is installed, and an embedded
 * kernel is left out when available tools produce all of its metrics.
 * Returns how many were written to out (room for b->nkernels). */
size_t cat_bench_runnable(const struct cat_bench *b, bool extras, enum provider_pref pref,
                          kernel_available_fn available, const struct kernel **out);
/* Distinct metric rows of a benchmark's tables (for the category screen). */
size_t cat_bench_count_metrics(const struct cat_bench *b);

#endif
