/* embedded.h - data files compiled into the program (--enable-static-binary).
 *
 * A static binary copied alone onto a board has no data directory and often
 * no terminfo database. The build embeds the shipped data (refs, tools,
 * profiles, themes) and compiled terminfo entries for the usual serial and
 * emulator terminals. Loaders read directories, so the files are written
 * out on first use into one private temporary directory, which the process
 * that made it removes when it exits. Nothing is written when the data
 * directory or the terminal's terminfo entry is installed. */
#ifndef EVMBENCH_EMBEDDED_H
#define EVMBENCH_EMBEDDED_H

#include <stdbool.h>
#include <stddef.h>

struct embedded_file {
    const char *path;           /* relative, '/'-separated: "refs/am62x.json" */
    const unsigned char *data;
    size_t size;
};

/* The build's table (generated src/embedded_data.c); empty without
 * --enable-embedded-data. The array ends with a { NULL } entry. */
extern const struct embedded_file embedded_files[];
extern const size_t embedded_nfiles;

/* Writes the n files into a new directory "evmbench-XXXXXX" under $TMPDIR
 * (or /tmp), mode 0700, creating the subdirectories the paths name. Returns
 * the directory (caller frees) or NULL with *err (caller frees) set; on
 * failure nothing is left behind. Paths with "..", empty or absolute
 * components are refused. */
char *embedded_extract(const struct embedded_file *files, size_t n, char **err);

/* Removes what embedded_extract(files, n) created under root, and root. */
void embedded_remove(const char *root, const struct embedded_file *files, size_t n);

/* The process's copy of embedded_files: extracted on the first call and
 * removed at exit by this process (not by forked children). NULL when
 * nothing is embedded or the copy could not be written (a note goes to
 * stderr once). */
const char *embedded_root(void);

/* True when the build embeds a compiled terminfo entry named term. */
bool embedded_has_terminfo(const char *term);

/* Before curses starts: when the terminfo entry for term cannot be found in
 * the installed database and the build embeds one, adds the embedded entries to TERMINFO_DIRS (after
 * any directories already listed there). Returns true if it did. */
bool embedded_terminfo_setup(const char *term);

#endif
