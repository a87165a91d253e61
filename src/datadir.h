/* datadir.h - where the shipped data (reference numbers, themes) lives.
 *
 * In order: $EVMBENCH_DATADIR; the source tree when the program runs from
 * its build tree (tests, `./evmbench` after make); $(pkgdatadir) when
 * installed; when that is missing too, the copy built into the program
 * (embedded.h, --enable-embedded-data), written to a temporary directory
 * that is removed at exit. Subdirectories: "refs", "tools", "themes", "profiles". */
#ifndef EVMBENCH_DATADIR_H
#define EVMBENCH_DATADIR_H

/* Path of a data subdirectory ("refs", "themes"); caller frees. */
char *datadir_path(const char *sub);

#endif
