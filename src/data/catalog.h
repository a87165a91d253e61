/* catalog.h - the menu: the guide's sections with what can run them.
 *
 * Built from the reference database (the guide IS the menu) and the
 * providers. A benchmark is a section that holds tables, identified by the
 * slug of its innermost title ("stream"); the same section in several
 * guides is one benchmark. Its category is the heading just above it (a
 * top-level section is its own category), in the order the guides give
 * them (guides in load order; a non-Linux SDK's are tagged with the SDK,
 * e.g. "IPC performance (MCU+ SDK)"). Several kernels may serve one
 * section (LMBench: bandwidth, latencies, OS kernels); a kernel whose
 * section no guide has gets a benchmark of its own in the category "Other".
 *
 * Guides title the same thing differently ("MMCSD" / "MMC/SD Driver"):
 * the alias table (benches/refs/sections.conf, struct cat_aliases) says
 * which titles are one. Wherever several guides are shown together, a
 * category whose title is an alias of one already shown joins it, and a
 * benchmark whose title is an alias of one already shown joins that one's
 * category (the first guide's title stays).
 *
 * The menu (struct cat_menu) is the board's own guide: its categories in
 * its order; the MCU+ SDK sections of the same SoC and every other guide
 * each sit behind one entry. */
#ifndef EVMBENCH_CATALOG_H
#define EVMBENCH_CATALOG_H

#include <stdbool.h>
#include <stddef.h>

#include "common/diag.h"

#include "kernel/kernel.h"
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

/* One line "same A = B ..." of the alias table: titles that are one. A
 * name "Parent / Title" matches only a section of that title under that
 * parent. Titles compare by their slug (case and punctuation ignored). */
struct cat_alias_group {
    char **names;
    size_t nnames;
    int line;
};

/* One line "soc NAME GUIDE BOARD-PATTERN...": the MCU+ SDK guide file
 * GUIDE (a refs file name, "mcu-am62x.json") is for the SoC NAME, whose
 * boards' keys match one of the fnmatch patterns ("am62xx*"). */
struct cat_soc {
    char *name;
    char *guide;
    char **boards;
    size_t nboards;
    int line;
};

struct cat_aliases {
    struct cat_alias_group *groups;
    size_t ngroups;
    struct cat_soc *socs;
    size_t nsocs;
};

void cat_aliases_init(struct cat_aliases *al);
/* Adds the lines of text (a file named `file` in messages) to al. A bad
 * line is skipped with "FILE:LINE: message" added to dg; the good ones
 * are kept. Returns the number of bad lines. */
int cat_aliases_parse(struct cat_aliases *al, const char *text, const char *file,
                      struct diag *dg);
/* Reads sections.conf from the shipped refs folder (datadir.h) into al.
 * A missing file is no error (no aliases); one that cannot be read or has
 * bad lines is reported in dg. Returns the number of problems. */
int cat_aliases_load_default(struct cat_aliases *al, struct diag *dg);
void cat_aliases_free(struct cat_aliases *al);
/* The alias group (index into al->groups) of the section `title` under
 * `parent` (NULL: top level), or -1. al may be NULL. */
int cat_aliases_group(const struct cat_aliases *al, const char *parent, const char *title);

struct catalog {
    struct cat_category *cats;
    size_t ncats;
    const struct refdb *db;         /* what it was built from (may be NULL) */
    struct cat_bench **bench_of;    /* per table of db: its benchmark */
    struct cat_aliases aliases;
};

/* Builds the catalog of every guide of db (which must outlive it), the
 * categories merged by the alias table. *aliases (may be NULL) is moved
 * into the catalog and left empty. */
struct catalog *catalog_build(const struct refdb *db, struct cat_aliases *aliases,
                              const struct kernel *const *kernels, size_t nkernels);
void catalog_free(struct catalog *c);

/* A list of categories: one guide's, or several guides' merged. Its
 * categories are its own; their benchmarks point into the catalog. */
struct cat_view {
    char *title;                /* "Linux 12.00.00 Performance Guide" */
    struct cat_category *cats;
    size_t ncats;
    size_t nguides;             /* how many guides it shows */
};

/* The three parts of the menu. */
enum cat_menu_part { MENU_MAIN, MENU_MCU, MENU_OTHERS };

struct cat_menu {
    const struct ref_source *guide; /* the board's guide; NULL: none covers it */
    const char *soc;                /* the board's SoC (alias table), or NULL */
    /* MENU_MAIN: the board's guide's categories in its order, then
     * kernels no guide has ("Other"); with no guide, every guide merged.
     * MENU_MCU: the MCU+ SDK guides of the board's SoC, merged.
     * MENU_OTHERS: every other guide, merged. */
    struct cat_view part[3];
};

/* The menu for board key `board` (NULL: none chosen). The guide that
 * covers it is the Linux guide with a column for it, the newest when
 * several do. Valid while c lives. */
struct cat_menu *catalog_menu(const struct catalog *c, const char *board);
void cat_menu_free(struct cat_menu *m);
/* The section slugs the alias table makes one with `section` (a table's
 * section_slug), itself first; for the comparison of one metric across
 * guides. *out is allocated and points into the catalog's database. */
size_t catalog_same_sections(const struct catalog *c, const char *section, const char ***out);
/* A benchmark by its slug or the name of one of its kernels
 * (case-insensitive), or NULL. */
const struct cat_bench *catalog_find_bench(const struct catalog *c, const char *name);
/* A category by title or its slug, or NULL; also by the title a guide
 * gives it when it joined another one ("MMC/SD Driver": MMCSD). */
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

/* Whether a kernel can run here (a tool kernel: its binary is found and
 * what it needs is set: app_kernel_unrunnable). */
typedef bool (*kernel_available_fn)(const struct kernel *k);

/* The kernels a run of the benchmark starts, in order. Extras (kernel.h)
 * come only when `extras` is set (--threads). A tool kernel comes only
 * when `available` says it can run here (with any preference: a tool that
 * cannot run is never counted as runnable); with PROVIDER_AUTO an embedded
 * kernel is left out when available tools produce all of its metrics.
 * Returns how many were written to out (room for b->nkernels). */
size_t cat_bench_runnable(const struct cat_bench *b, bool extras, enum provider_pref pref,
                          kernel_available_fn available, const struct kernel **out);
/* The kernel named `name` (case ignored) among kernels[0 .. n), the first
 * embedded and the first tool kernel of that name as pref picks them:
 * PROVIDER_AUTO takes the tool when `available` says it is installed (or
 * is NULL) or when no embedded kernel has the name. NULL when none. */
const struct kernel *kernels_find_provided(const struct kernel *const *kernels, size_t n,
                                           const char *name, enum provider_pref pref,
                                           kernel_available_fn available);
/* Distinct metric rows of a benchmark's tables that hold a number for
 * guide board `board` (a present value in one of its columns); every
 * distinct row when board is NULL. */
size_t cat_bench_count_metrics(const struct cat_bench *b, const char *board);

#endif
