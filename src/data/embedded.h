/* embedded.h - data files compiled into the program (--enable-static-binary).
 *
 * A static binary copied alone onto a board has no data directory and often
 * no terminfo database. The build embeds the shipped data (refs, tools,
 * profiles, themes) and compiled terminfo entries for the usual serial and
 * emulator terminals.
 *
 * They are stored packed (gzip, which every build machine has) and
 * unpacked into memory once, on first use; from then on they are read from
 * that table (struct data_dir in datadir.h): `list`, `refs`, `run` and
 * `sysinfo` write nothing and need no writable directory. Only ncurses
 * reads terminfo from a directory: the screens write the entry for $TERM
 * out with embedded_extract_first() when the installed database lacks it
 * (screens/terminfo.h). */
#ifndef EVMBENCH_EMBEDDED_H
#define EVMBENCH_EMBEDDED_H

#include <stdbool.h>
#include <stddef.h>

#include "common/diag.h"

struct embedded_file {
    const char *path;           /* relative, '/'-separated: "refs/am62x.json" */
    const unsigned char *data;
    size_t size;
};

/* The build's files as contrib/embed-data.sh generates them
 * (src/data/embedded_data.c): the contents of all files one after the
 * other, packed as one gzip member, and each file's path and size in that
 * order. n is 0 (and gz NULL) without --enable-embedded-data. */
struct embedded_pack {
    const unsigned char *gz;
    size_t gz_size;
    const char *const *paths;
    const size_t *sizes;
    size_t n;
    size_t total;               /* the sum of sizes: the unpacked length */
};
extern const struct embedded_pack embedded_pack;

/* Unpacks p into one allocation: a table of p->n files (path, data, size)
 * and a { NULL } entry, followed by their contents. Returns it with *n = p->n, or NULL with *why (a static
 * phrase) when the gzip member is damaged or disagrees with the sizes.
 * The caller frees the table with free(). */
struct embedded_file *embedded_unpack(const struct embedded_pack *p, size_t *n,
                                      const char **why);

/* The build's built-in files: embedded_pack unpacked on the first call
 * and kept until the process ends; *n gets the count (0 without built-in
 * data). Damaged data (the program file was altered) end the program with
 * a message saying so (die: exit 70), never half a table. */
const struct embedded_file *embedded_builtin(size_t *n);

/* Writes the n files into a new directory "evmbench-XXXXXX" under base,
 * mode 0700, creating the subdirectories the paths name. Returns the
 * directory (caller frees) or NULL with the reason added to d; on failure
 * nothing is left behind. Paths with "..", empty or absolute components
 * are refused. */
char *embedded_extract(const char *base, const struct embedded_file *files, size_t n,
                       struct diag *d);

/* embedded_extract into the first of bases[0..nbases) that takes the
 * files (the failures before it are not reported). When none does, NULL
 * and one message per base in d: what failed there and why
 * ("/tmp/evmbench-x3Fq1a: cannot create a directory: Read-only file
 * system"). */
char *embedded_extract_first(const char *const *bases, size_t nbases,
                             const struct embedded_file *files, size_t n, struct diag *d);

/* The directories a private temporary directory may go into, in the order
 * tried: $TMPDIR (when set and not empty), /tmp, /dev/shm, /run/user/UID.
 * Fills out[] (room for 4; the caller frees each) and returns the count. */
size_t embedded_temp_bases(char *out[4]);

/* Removes what embedded_extract(files, n) created under root, and root. */
void embedded_remove(const char *root, const struct embedded_file *files, size_t n);

#endif
